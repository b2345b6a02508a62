# PNG output: size and encode time of compiled atlases and render sheets (issue 9 item 5).
#
#   make bench-png    sizes (and ratio to the engine's PNG) and median encode times; LEVEL=6 for another zlib level

BENCH_TARGETS += bench-png

.PHONY: bench-png

bench-png:
	$(CARGO) bench --bench png
