# re2d for PixiJS v8 (issue 43; docs/pixi.md): the player of `model.json` in js/pixi, its checks,
# its bench and its demo page. Included by the top Makefile (-include mk/*.mk).
#
#   make test-pixi   (part of `make test`) the player's node tests (js/pixi/test: the state machine
#                    against the Rive runtime's own §11.7 timeline, index.d.ts through tsc against
#                    PixiJS's types, the validator against `re2d export-riv` on a seeded family of
#                    broken models, each with controls) and
#                    the browser harness (tests/browser/pixi-harness.mjs, Debian chromium, PixiJS's
#                    WebGL on SwiftShader): the walk and each one-shot of the rig-fixtures
#                    characters at eight times against `re2d riv render-ref` (IoU >= 0.99, colour
#                    >= 0.97; controls t + d/4 and two depths swapped), the state machine against
#                    the official Rive runtime step by step (controls: four broken machines), and
#                    bad input. A missing browser or npm package is a failure.
#   make bench-pixi  the player's minified + gzipped size beside the Rive runtime's and
#                    spine-pixi-v8's; CPU time per frame of 1, 20 and 100 walking characters in the
#                    player and in the Rive runtime (tests/browser/pixi-bench.mjs)
#   make demo-pixi   (part of `make demo`) out/rig/pixi.html: the demo biped in PixiJS with its
#                    state machine's controls, one self-contained file that works from file://
#   make pixi-docs   docs/pixi.md's tables from the last test-pixi and bench-pixi runs

PIXI_OUT := target/pixi-browser

TEST_TARGETS  += test-pixi
BENCH_TARGETS += bench-pixi
DEMO_TARGETS  += demo-pixi

.PHONY: test-pixi bench-pixi demo-pixi

test-pixi: riv-npm rig-fixtures
	@test -x /usr/bin/chromium || { echo "test-pixi: FAILED: /usr/bin/chromium missing (make deps installs it)"; exit 1; }
	node --test js/pixi/test/*.test.mjs
	node js/pixi/test/types.mjs
	node js/pixi/test/parity.mjs --re2d $(RIV_BIN) --base $(RIG_FIX)/fixtures/rig-biped/model.json \
	  --base $(RIG_FIX)/fixtures/rig-quadruped/model.json --out target/pixi-parity
	node $(RIV_NODE_DIR)/pixi-harness.mjs --re2d $(RIV_BIN) --fixtures $(RIG_FIX)/fixtures --out $(PIXI_OUT)

# The bench character: the generated biped rigged with the committed walk, full size (its
# model.json, texture page and character.riv), built once per run into target/bench-pixi.
PIXI_BENCH := target/bench-pixi

bench-pixi: release riv-npm
	@test -x /usr/bin/chromium || { echo "bench-pixi: FAILED: /usr/bin/chromium missing (make deps installs it)"; exit 1; }
	@rm -rf $(PIXI_BENCH) && mkdir -p $(PIXI_BENCH)
	@target/release/examples/rig_drawings $(PIXI_BENCH)/d >/dev/null
	@target/release/re2d rig build $(PIXI_BENCH)/d/biped.skeleton.json --motion walk=assets/mocap/cmu-131-01-walk.bvh \
	  --out $(PIXI_BENCH)/biped >/dev/null
	node $(RIV_NODE_DIR)/pixi-bench.mjs --build $(PIXI_BENCH)/biped --out $(PIXI_BENCH)/out

# out/rig/pixi.html: the biped demo-rig rigs into out/rig/, in PixiJS through the player, with the
# state machine's controls; one file (player, pixi.js, model and texture pages inlined) that opens
# from file://. With /usr/bin/chromium present, out/rig/pixi.png and pixi-trigger.png are
# screenshots of it opened from file:// (walking at speed 1; the first trigger pressed).
demo-pixi: riv-npm demo-rig
	@if [ -x /usr/bin/chromium ]; then shot="--shot $(RIG_DEMO)/pixi.png"; else echo "demo-pixi: screenshots skipped (no /usr/bin/chromium)"; fi; \
	  node $(RIV_NODE_DIR)/pixi-demo.mjs --model $(RIG_DEMO)/model.json --out $(RIG_DEMO)/pixi.html $$shot

# docs/pixi.md's tables from the last `make test-pixi` and `make bench-pixi` runs.
.PHONY: pixi-docs
pixi-docs:
	@test -f $(PIXI_OUT)/results.json -a -f $(PIXI_BENCH)/out/bench.json || { echo "pixi-docs: run make test-pixi and make bench-pixi first"; exit 1; }
	node $(RIV_NODE_DIR)/pixi-report.mjs --results $(PIXI_OUT)/results.json --bench $(PIXI_BENCH)/out/bench.json --doc docs/pixi.md
