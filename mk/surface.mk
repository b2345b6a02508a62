# Surface compiler (issue 5): demo atlases in out/ and the compile benchmark.
# Included by the top Makefile (-include mk/*.mk).

SURFACE_DATA ?= assets
RE2D_BIN     := target/release/re2d

.PHONY: demo-compile bench-compile

# Compile the shipped surfaces (SUB and legacy) and the generated dense
# fixture, and inspect them.
demo-compile: examples
	@mkdir -p out
	$(RE2D_BIN) compile $(SURFACE_DATA)/prop.surface.json --output out/prop.atlas.png
	$(RE2D_BIN) compile $(SURFACE_DATA)/animal.surface.json --output out/animal.atlas.png
	$(RE2D_BIN) compile $(SURFACE_DATA)/animal.surface.json --output out/animal.atlas-4096.png --size 4096
	$(RE2D_BIN) compile $(SURFACE_DATA)/prop.surface.json --output out/prop.legacy.png --legacy
	$(RE2D_BIN) compile $(SURFACE_DATA)/animal.surface.json --output out/animal.legacy.png --legacy
	target/release/examples/dense_fixture out/dense.surface.json
	$(RE2D_BIN) compile out/dense.surface.json --output out/dense.atlas-4096.png --size 4096 --segments
	$(RE2D_BIN) atlas inspect out/prop.atlas.png
	$(RE2D_BIN) atlas inspect out/animal.atlas.png
	$(RE2D_BIN) atlas inspect out/dense.atlas-4096.png

bench-compile:
	$(CARGO) bench --bench compile

DEMO_TARGETS  += demo-compile
BENCH_TARGETS += bench-compile
