# re2d core renderer: release-only regression test of many frames; included by the top Makefile.
#
#   make test-frames   tests/frames.rs in release: chained hashes of decode, draw 128,
#                      anime 256/512 over six atlases against committed values

TEST_TARGETS += test-frames

.PHONY: test-frames

test-frames:
	$(CARGO) test --release --test frames
