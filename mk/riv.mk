# Rive .riv export (issue 8; spec rive-export.md): tests, browser harness, demo, bench, fuzz.
# Included by the top Makefile (-include mk/*.mk).
#
#   make riv-test       the .riv Rust tests alone (cargo-test in `make test` runs them too)
#   make test-browser   C0–C9 with every negative control in Debian chromium + the official Rive
#                       runtime (part of `make test`; `make deps` installs chromium and runs
#                       `npm ci` in tests/browser). A missing browser or runtime is a failure.
#   make riv-calibrate  re-derive each fixture's thresholds.json from its controls (margin >= 0.05)
#   make riv-readme     docs/rive-export.md C0–C9 table + docs/img/riv-walk-strip.png from the last harness run
#   make demo-riv       out/walk.riv, out/walk.html (plays from file://), out/walk-strip.png
#   make test-pages     the pages of `re2d rig build` and `re2d rig page` opened as files in chromium:
#                       each draws the character (pixels, after its first drawn frame), controls fail
#   make bench-riv      export time of the walk fixture and .riv vs sprite-sheet size
#   make fuzz-riv       cargo-fuzz riv_read for FUZZ_SECONDS (default 600), nice -n 10
#   make riv-fixtures   regenerate tests/riv/fixtures (testkit/src/riv.rs)

RIV_BIN      := target/release/re2d
# The harness uses the debug binary that `cargo test --all-targets` (make test) already built.
RIV_TEST_BIN := target/debug/re2d
RIV_OUT      := target/riv-browser
RIV_NODE_DIR := tests/browser
# the pinned Rive web runtime the player pages load (npm ci in tests/browser)
RIVE_JS      := $(RIV_NODE_DIR)/node_modules/@rive-app/canvas-single/rive.js
FUZZ_SECONDS ?= 600

TEST_TARGETS  += test-browser test-pages
DEMO_TARGETS  += demo-riv
BENCH_TARGETS += bench-riv

.PHONY: rig-fixtures riv-test test-browser test-pages riv-harness riv-calibrate riv-readme demo-riv bench-riv fuzz-riv riv-fixtures riv-npm

riv-test:
	$(CARGO) test -p re2d-riv

riv-npm:
	@if [ ! -d $(RIV_NODE_DIR)/node_modules ]; then cd $(RIV_NODE_DIR) && npm ci --no-audit --no-fund; fi

# The generated rig characters (issue 19 item 8) as harness fixtures: each drawn by
# examples/rig_drawings, rigged and walked by `re2d rig build` with the committed capture, and
# turned into a fixture (probe clips, hidden-fill marker variant; tests/browser/rig-fixture.mjs)
# whose thresholds are committed in tests/riv/rig/<name>.thresholds.json.
RIG_FIX   := target/rig-fixtures
RIG_CHARS := biped:shin_near quadruped:hind_lower_near girl:forearm_near coat:forearm_near skirt:forearm_near fighter:shin_near
# the biped also carries the fair1 jump (a one-shot clip: the state machine's trigger, issue 25)
# and the fair1 wave on its arms (a body-part layer over the walk, issue 47: L1)
RIG_MOTIONS_biped := --motion walk=assets/mocap/cmu-131-01-walk.bvh --motion jump=assets/mocap/fair1-jumping.bvh \
	--motion wave=assets/mocap/fair1-wave-hello.bvh:once:arms --max-turn wave=150
RIG_MOTIONS_quadruped := --motion walk=assets/mocap/cmu-131-01-walk.bvh
# the fighter (issue 42): walk, punch and kick (FIGHTER_MOTIONS, mk/rig.mk), with the draw-order
# check D1 (tests/browser/draworder.mjs) on the punch (its crossing frames: the far fist over the
# chest) and on the kick
RIG_CROSS_fighter := --cross punch:hand_far:chest --cross kick

rig-fixtures: release riv-npm
	@rm -rf $(RIG_FIX) && mkdir -p $(RIG_FIX)/drawings $(RIG_FIX)/build $(RIG_FIX)/fixtures
	target/release/examples/rig_drawings $(RIG_FIX)/drawings
	@set -e; for ck in $(RIG_CHARS); do c=$${ck%%:*}; k=$${ck#*:}; \
	  echo "re2d rig build $$c"; \
	  x=""; if [ $$c = biped ]; then m="$(RIG_MOTIONS_biped)"; elif [ $$c = fighter ]; then m="$(FIGHTER_MOTIONS)"; x="$(RIG_CROSS_fighter)"; \
	  else m="$(RIG_MOTIONS_quadruped)"; fi; \
	  $(RIV_BIN) rig build $(RIG_FIX)/drawings/$$c.skeleton.json $$m --runtime $(RIVE_JS) --out $(RIG_FIX)/build/$$c; \
	  $(RIV_BIN) rig build $(RIG_FIX)/drawings/$$c.skeleton.json --motion walk=assets/mocap/cmu-131-01-walk.bvh \
	    --seam-pad 0 --out $(RIG_FIX)/build/$$c-seam-control 2>/dev/null; \
	  node $(RIV_NODE_DIR)/rig-fixture.mjs --build $(RIG_FIX)/build/$$c --skeleton $(RIG_FIX)/drawings/$$c.skeleton.json \
	    --knee $$k --out $(RIG_FIX)/fixtures/rig-$$c --thresholds tests/riv/rig/$$c.thresholds.json \
	    --seam-control $(RIG_FIX)/build/$$c-seam-control $$x; \
	done
	node $(RIV_NODE_DIR)/draworder.mjs --shuffle $(RIG_FIX)/fixtures/draworder-shuffle

# The harness: the hand-made fixtures and the rigged characters, release build.
test-browser: riv-npm rig-fixtures
	@test -x /usr/bin/chromium || { echo "test-browser: FAILED: /usr/bin/chromium missing (make deps installs it)"; exit 1; }
	node $(RIV_NODE_DIR)/harness.mjs --re2d $(RIV_BIN) --fixtures tests/riv/fixtures --fixtures $(RIG_FIX)/fixtures --out $(RIV_OUT)

# The player pages (issue 45 item 3, issue 47 item 5): the pages `re2d rig build` wrote beside each
# rigged character (a clip each, the state machine) and one `re2d rig page` writes for the walk
# fixture, opened as file:// in chromium; each must show the character after its first drawn frame,
# and the page made to fetch its .riv (the old pages) and the page without rive.js must fail.
PAGES_OUT := target/pages-browser
test-pages: riv-npm rig-fixtures
	@test -x /usr/bin/chromium || { echo "test-pages: FAILED: /usr/bin/chromium missing (make deps installs it)"; exit 1; }
	@rm -rf target/pages && mkdir -p target/pages
	$(RIV_BIN) export-riv tests/riv/fixtures/walk/model.json --output target/pages/walk.riv
	$(RIV_BIN) rig page target/pages/walk.riv --clip walk -o target/pages/walk.html --runtime $(RIVE_JS)
	node $(RIV_NODE_DIR)/pages.mjs --re2d $(RIV_BIN) --out $(PAGES_OUT) $(RIG_FIX)/build/biped $(RIG_FIX)/build/quadruped \
	  $(RIG_FIX)/build/girl target/pages

# Thresholds from the controls; the rig characters' go back to tests/riv/rig/.
riv-calibrate: riv-npm rig-fixtures
	node $(RIV_NODE_DIR)/harness.mjs --re2d $(RIV_BIN) --fixtures tests/riv/fixtures --fixtures $(RIG_FIX)/fixtures --out $(RIV_OUT) --calibrate
	@mkdir -p tests/riv/rig
	@for ck in $(RIG_CHARS); do c=$${ck%%:*}; cp $(RIG_FIX)/fixtures/rig-$$c/thresholds.json tests/riv/rig/$$c.thresholds.json; done

riv-readme:
	@test -f $(RIV_OUT)/results.json || { echo "riv-readme: run make test-browser first"; exit 1; }
	node $(RIV_NODE_DIR)/report.mjs --results $(RIV_OUT)/results.json --readme docs/rive-export.md --strip docs/img/riv-walk-strip.png

# out/walk.riv, a player page that opens as a file (`re2d rig page`: the .riv embedded, rive.js beside it), and the
# runtime-vs-reference strip from a harness run of the walk fixture (when chromium is there).
demo-riv: riv-npm release
	@mkdir -p out
	$(RIV_BIN) export-riv tests/riv/fixtures/walk/model.json --output out/walk.riv
	$(RIV_BIN) rig page out/walk.riv --clip walk -o out/walk.html --runtime $(RIVE_JS)
	@if [ -x /usr/bin/chromium ]; then \
	  node $(RIV_NODE_DIR)/harness.mjs --re2d $(RIV_BIN) --fixtures tests/riv/fixtures --out out/riv-harness --fixture walk \
	    && node $(RIV_NODE_DIR)/report.mjs --results out/riv-harness/results.json --strip out/walk-strip.png; \
	else echo "demo-riv: strip skipped (no /usr/bin/chromium)"; fi

bench-riv:
	$(CARGO) bench --bench riv

fuzz-riv:
	cd fuzz && nice -n 10 cargo +nightly fuzz run riv_read corpus/riv_read -- -max_total_time=$(FUZZ_SECONDS) -max_len=32768

riv-fixtures: examples
	target/release/examples/riv_fixtures

# out/rig/ (issue 19 item 9, issue 25 item 7, issue 47): the generated biped, rigged by `re2d rig
# build` with the committed captures (the normal CMU 07_01 walk, the stylised CMU 131 walk as the
# `strut` style at speed 2, the fair1 jump and wave as one-shot clips, and the idle pose):
# character.riv, and the pages `rig build` writes beside it — walk.html, strut.html, jump.html,
# wave.html, idle.html (open them as files) and machine.html (the state machine: a slider for speed,
# a button per one-shot trigger), with rive.js —, the build's contact sheet, report and parts, and
# per clip what `re2d rig render` writes (the reference renderer, cropped to the clip's motion box):
# strip_<clip>.png (rig build --strips: eight frames in a row), sheet_<clip>.png (every frame at
# 12 fps, eight to a row, a fifth of the drawing's size) and <clip>.gif. out/fighter/ (issue 42): the neutral-stance fighter with
# walk, punch and kick: machine.html (speed slider, punch and kick buttons) and the same per clip.
DEMO_TARGETS += demo-rig
RIG_DEMO := out/rig
FIGHTER_DEMO := out/fighter
RIG_DEMO_CLIPS := walk strut jump wave
FIGHTER_DEMO_CLIPS := walk punch kick
# rig render's output pixels per drawing pixel: the 2528-px-tall drawings at about 500 px
RIG_DEMO_SCALE := 0.2

demo-rig: release riv-npm
	@rm -rf $(RIG_DEMO) $(FIGHTER_DEMO) target/demo-rig && mkdir -p target/demo-rig out
	target/release/examples/rig_drawings target/demo-rig >/dev/null
	$(RIV_BIN) rig build target/demo-rig/biped.skeleton.json --motion walk=assets/mocap/cmu-07-01-walk.bvh \
	  --motion strut=assets/mocap/cmu-131-01-walk.bvh \
	  --motion jump=assets/mocap/fair1-jumping.bvh --motion wave=assets/mocap/fair1-wave-hello.bvh \
	  --strips --runtime $(RIVE_JS) --out $(RIG_DEMO)
	@set -e; for c in $(RIG_DEMO_CLIPS); do \
	  echo "re2d rig render $(RIG_DEMO)/model.json --clip $$c"; \
	  $(RIV_BIN) rig render $(RIG_DEMO)/model.json --clip $$c --scale $(RIG_DEMO_SCALE) --sheet $(RIG_DEMO)/sheet_$$c.png --gif $(RIG_DEMO)/$$c.gif; \
	done
	@# the neutral-stance fighter (issue 42): walk, punch and kick; its machine page has a button per strike
	$(RIV_BIN) rig build target/demo-rig/fighter.skeleton.json $(FIGHTER_MOTIONS) --strips --runtime $(RIVE_JS) --out $(FIGHTER_DEMO)
	@set -e; for c in $(FIGHTER_DEMO_CLIPS); do \
	  echo "re2d rig render $(FIGHTER_DEMO)/model.json --clip $$c"; \
	  $(RIV_BIN) rig render $(FIGHTER_DEMO)/model.json --clip $$c --scale $(RIG_DEMO_SCALE) --sheet $(FIGHTER_DEMO)/sheet_$$c.png --gif $(FIGHTER_DEMO)/$$c.gif; \
	done
