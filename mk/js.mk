# re2d QuickJS host: build re2d-qjs, JS tests, mesh demo and bench; included by the top Makefile.
#
#   make qjs        build target/release/re2d-qjs (feature `js`)
#   make js-test    Rust unit tests of src/js, the re2d-qjs hardening tests and the js fuzz corpus
#                   replay (tests/qjs_hardening.rs, tests/fuzz_corpus.rs), then js/tests/run.sh (every js/tests/*.test.mjs, engine-style
#                   fixtures, rotsprite end-to-end on the tests/golden atlases, CLI checks)
#   make demo-mesh  two-bone IK arm rendered by the default CPU engine into out/mesh-arm-*.png
#   make demo-sprite the assets/ animal model walking and turning via $.re2dSprite into out/sprite/*.png
#   make bench-js   native deformPart/draw vs plain JS at 100 / 1 000 / 10 000 vertices

QJS := target/release/re2d-qjs

TEST_TARGETS  += js-test
DEMO_TARGETS  += demo-mesh demo-sprite
BENCH_TARGETS += bench-js

.PHONY: qjs js-test demo-mesh demo-sprite bench-js

qjs:
	$(CARGO) build --release --features js --bin re2d-qjs

js-test: qjs
	$(CARGO) test --release --features js --lib -- js::
	$(CARGO) test --release --features js --test qjs_hardening --test fuzz_corpus
	bash js/tests/run.sh $(QJS)

demo-mesh: qjs
	mkdir -p out
	$(QJS) --size 320x240 js/demo/mesh_arm.mjs out 4



demo-sprite: qjs
	mkdir -p out/sprite
	cp tests/golden/animal-1024.png out/sprite/animal.png
	cp assets/animal.character.json assets/animal.animations.json out/sprite/
	$(QJS) --size 480x360 js/demo/rotsprite.mjs out/sprite 4

bench-js: qjs
	$(QJS) js/bench/mesh.bench.mjs
