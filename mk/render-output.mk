# Image output (issue 9 items 4–5): compact PNGs, animated PNG/GIF of re2d render.
#
#   make anim-check   re2d render --apng/--gif/--fit judged by Pillow (tests/anim/), with negative controls
#   make bench-png    sizes (and ratio to the engine's PNG) and median encode times; LEVEL=6 for another zlib level

TEST_TARGETS  += anim-check
BENCH_TARGETS += bench-png

.PHONY: anim-check bench-png

anim-check: release
	PYTHON=$(PY) bash tests/anim/run.sh target/release/re2d

bench-png:
	$(CARGO) bench --bench png
