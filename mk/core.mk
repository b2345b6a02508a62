# re2d core renderer: release-only regression test and the instruction-count bench; included by the top Makefile.
#
#   make test-frames   tests/frames.rs in release: chained hashes of decode, draw 128,
#                      anime 256/512 over six atlases against committed values, the same
#                      smooth frames and the golden scenes on 2, 3 and 8 threads; then the
#                      single-thread chains again with the SSE2 and scalar quad fill
#                      (RE2D_SIMD), which must give the same bytes as AVX2; and the
#                      randomised renderer properties of tests/random_render.rs
#   make bench-ir      callgrind Ir of every golden call next to the existing C library's
#                      (benches/ir; skipped with a line when valgrind is missing).
#                      IR_LIB=path/to/lib.so measures another library, IR_JOBS=n runs in parallel.

IR_LIB  ?= $(LIB_SO)
IR_JOBS ?= 1

TEST_TARGETS  += test-frames
BENCH_TARGETS += bench-ir

.PHONY: test-frames bench-ir

test-frames:
	$(CARGO) test --release --test frames --test random_render
	RE2D_SIMD=sse2 $(CARGO) test --release --test frames -- many_frames
	RE2D_SIMD=scalar $(CARGO) test --release --test frames -- many_frames

bench-ir: release
	$(MAKE) --no-print-directory $(GOLDEN_GEN)
	JOBS=$(IR_JOBS) benches/ir/ir.sh $(IR_LIB) $(dir $(GOLDEN_GEN))
