# re2d rig — the drawing-to-.riv pipeline (issue 19, spec rig.md): its seed-sized gates in release,
# and the bench of a whole `rig build`.

TEST_TARGETS  += test-rig test-motion test-strikes
BENCH_TARGETS += bench-rig bench-slice

RIG_BENCH_DIR := target/bench-rig
STRIKES_DIR   := target/test-strikes

# The neutral-stance fighter's motions (issue 42; docs/strikes.md): the normal walk, the punch
# (CMU 79_08: the straight right and the hook back across the chest, from guard) and the kick
# (CMU 75_16: crouch, turning jump kick, landing), both one-shots that start and end in the drawn
# stance. Each needs more than the 90° working-pose limit: the walk's hanging forearms are more
# than 90° from the drawn guard (clamped, they stayed bent and opened the elbows' outer corners),
# the hook folds the elbow back, the kick turns the hips and knees further.
FIGHTER_MOTIONS = --motion walk=assets/mocap/cmu-07-01-walk.bvh --max-turn walk=150 \
	--motion punch=assets/mocap/cmu-79-08-boxing.bvh:once --range punch=2.50..3.05 --max-turn punch=150 \
	--motion kick=assets/mocap/cmu-75-16-jump-kick.bvh:once --range kick=1.35..2.55 --max-turn kick=150

.PHONY: test-rig test-motion bench-rig bench-slice

# The gates on the two 1696x2528 generated characters (crates/rig/tests/rig_stages.rs: slicing IoU per part, reassembly and its
# three controls, weight schemes and the ramp control, grid step) and the full `rig build` folder
# test: too slow for the debug build of cargo-test, where they are ignored; with them, every crate's unit tests
# in release (the rig crate's and testkit's drawings among them; a few seconds). `--workspace` (the default
# members) keeps the feature set of the release build, so no crate is compiled twice for this target.
test-rig:
	$(CARGO) test --release --workspace --exclude re2d-layout-test --lib --test rig_stages --test rig_cli \
	  --test layered_files --test rig_layers_cli --test slice_random

# The whole `rig build` (motion, silhouette, slicing and its confidence control, reassembly proof,
# tables, meshes, model, .riv, sheet) for the 1696x2528, 20-bone quadruped, the 17-bone biped and
# the 20-bone layered girl, no browser; prints each stage's time and the peak memory against the
# 12x RGBA budget. Target: <= 2 s on one core. (A build whose gate fails still writes its folder
# and exits 1: that is timed too.) Then the selling numbers (issue 26, tools/rig_sheet_bench.py):
# for every generated character (biped, quadruped and the layered girl, coat, skirt) the .riv's
# bytes, objects and texture memory beside a sprite sheet of the same motion clips at the game
# frame (576x624 per frame, clip fps, frames by `re2d riv render-ref`): its PNG bytes and RGBA
# memory; the table with the targets (biped <= 9000 objects, <= 0.5 MB, <= 3 MiB texture memory;
# quadruped <= 15000 objects, <= 0.8 MB); exit 1 on a missed target. Last, issue 24's budget
# (2 s where the tube build took 1.26-1.73 s) in a machine-independent form: the coat built with
# the paint rule, with `--slicing tubes`, and by the baseline build the issue measured
# (benches/base.sh, built once into target/bench-base/), alternating, best of five each; prints
# the ratios and the paint build's time on the issue's machine (benches/rig_budget.sh).
RIG_SHEET_CHARS := biped quadruped girl coat skirt

bench-rig: release
	@$(PY) -c 'import PIL' || { echo "bench-rig: FAILED: Pillow missing from target/venv (make deps)"; exit 1; }
	@rm -rf $(RIG_BENCH_DIR) && mkdir -p $(RIG_BENCH_DIR)
	@target/release/examples/rig_drawings $(RIG_BENCH_DIR)/d >/dev/null
	@for c in $(RIG_SHEET_CHARS); do \
	  echo "== rig build $$c (1696x2528)"; \
	  /usr/bin/time -f "peak memory %M KiB, wall %e s, user %U s" taskset -c 0 \
	    target/release/re2d rig build $(RIG_BENCH_DIR)/d/$$c.skeleton.json \
	    --motion assets/mocap/cmu-131-01-walk.bvh --out $(RIG_BENCH_DIR)/$$c --timings; \
	  rc=$$?; if [ $$rc -ne 0 ] && ! [ $$rc -eq 1 -a -f $(RIG_BENCH_DIR)/$$c/report.json ]; then exit 1; fi; \
	  echo "   budget: 12 x 1696 x 2528 x 4 B = $$((12 * 1696 * 2528 * 4 / 1024)) KiB"; \
	done
	$(PY) tools/rig_sheet_bench.py --re2d target/release/re2d $(foreach c,$(RIG_SHEET_CHARS),--build $(RIG_BENCH_DIR)/$(c))
	@echo "== issue 24's budget: the coat with the paint rule, the tube rule, and the baseline build (benches/rig_budget.sh)"
	@benches/rig_budget.sh $(RIG_BENCH_DIR)/d $(RIG_BENCH_DIR)/budget

# The fighter's strikes (issue 42), measured against the truth of the generated drawing:
# testkit/examples/rig_fill_judge.rs paints the fighter and each of its parts alone (the hidden
# layers), rigs it with FIGHTER_MOTIONS and, per clip, compares the hidden fill each clip
# uncovers with the painter's hidden paint; a flat fill of each part's mean colour is the
# control and must score worse in every clip (exit 1 otherwise, and when nothing is uncovered).
# Then the build's report must hold the per-clip measures (path errors, uncovered areas, joint
# area change), the model and the .riv their draw-order keys and rules (riv check --json), and
# the keys add at most 5 % to the .riv (tools/strikes_check.py).
.PHONY: test-strikes
test-strikes: release
	@rm -rf $(STRIKES_DIR) && mkdir -p $(STRIKES_DIR)
	target/release/examples/rig_fill_judge $(STRIKES_DIR)/judge $(FIGHTER_MOTIONS)
	target/release/re2d rig build $(STRIKES_DIR)/judge/fighter.skeleton.json $(FIGHTER_MOTIONS) --out $(STRIKES_DIR)/fighter
	$(PY) tools/strikes_check.py $(STRIKES_DIR)/fighter target/release/re2d

# The independent motion judge (issue 25; tools/motion_judge.py: its own BVH parser and numpy
# forward kinematics, not the code under test): the generated biped built with the shipped walk,
# jump and wave must follow each capture within 1° RMS per bone outside the seam and walk
# plausibly; the same drawing built with `facing` flipped must fail the plausibility check (the
# negative control, exit 1 with its FAIL line, not a crash); and a Z-up, MotionBuilder-named copy
# of the walk (a capture the project has never seen) must build and pass. The generated quadruped built with
# the walk must pass too (its fore knees fold back like knees; its hocks, declared `"bend": "reversed"`, the
# other way); its control, the same declaration without the `"bend": "reversed"`, built and judged against
# the declaration that has it, must fail the hock check (exit 1 with its FAIL line).
MOTION_DIR := target/test-motion
MOCAP      := assets/mocap
MOTION_ARGS := --motion walk=$(MOCAP)/cmu-131-01-walk.bvh --motion jump=$(MOCAP)/fair1-jumping.bvh \
	--motion wave=$(MOCAP)/fair1-wave-hello.bvh
JUDGE_BVH  := --bvh walk=$(MOCAP)/cmu-131-01-walk.bvh --bvh jump=$(MOCAP)/fair1-jumping.bvh \
	--bvh wave=$(MOCAP)/fair1-wave-hello.bvh

test-motion: release
	@$(PY) -c 'import numpy' || { echo "test-motion: FAILED: numpy missing from target/venv (make deps)"; exit 1; }
	@rm -rf $(MOTION_DIR) && mkdir -p $(MOTION_DIR)
	@target/release/examples/rig_drawings $(MOTION_DIR)/d >/dev/null
	target/release/re2d rig build $(MOTION_DIR)/d/biped.skeleton.json $(MOTION_ARGS) --out $(MOTION_DIR)/biped
	$(PY) tools/motion_judge.py judge --build $(MOTION_DIR)/biped --skeleton $(MOTION_DIR)/d/biped.skeleton.json $(JUDGE_BVH)
	@sed 's/"facing": *"right"/"facing": "left"/' $(MOTION_DIR)/d/biped.skeleton.json > $(MOTION_DIR)/d/flipped.skeleton.json
	@grep -q '"facing": "left"' $(MOTION_DIR)/d/flipped.skeleton.json || { echo "test-motion: FAILED: the control's facing was not flipped"; exit 1; }
	target/release/re2d rig build $(MOTION_DIR)/d/flipped.skeleton.json $(MOTION_ARGS) --out $(MOTION_DIR)/flipped
	@set +e; $(PY) tools/motion_judge.py judge --build $(MOTION_DIR)/flipped --skeleton $(MOTION_DIR)/d/flipped.skeleton.json \
	  --facing right $(JUDGE_BVH) > $(MOTION_DIR)/flipped.txt 2>&1; rc=$$?; set -e; \
	  grep 'FAIL walk: plausibility: knee' $(MOTION_DIR)/flipped.txt | head -2; \
	  if [ $$rc -ne 1 ] || ! grep -q 'FAIL walk: plausibility: knee' $(MOTION_DIR)/flipped.txt; then \
	    cat $(MOTION_DIR)/flipped.txt; echo "test-motion: FAILED: the facing-flipped control was not caught (exit $$rc)"; exit 1; fi; \
	  echo "test-motion: control ok: facing flipped fails the plausibility check"
	$(PY) tools/motion_judge.py variant $(MOCAP)/cmu-131-01-walk.bvh $(MOTION_DIR)/walk-zup-motionbuilder.bvh
	target/release/re2d rig build $(MOTION_DIR)/d/biped.skeleton.json --motion walk=$(MOTION_DIR)/walk-zup-motionbuilder.bvh \
	  --out $(MOTION_DIR)/zup
	$(PY) tools/motion_judge.py judge --build $(MOTION_DIR)/zup --skeleton $(MOTION_DIR)/d/biped.skeleton.json \
	  --bvh walk=$(MOTION_DIR)/walk-zup-motionbuilder.bvh
	target/release/re2d rig build $(MOTION_DIR)/d/quadruped.skeleton.json --motion walk=$(MOCAP)/cmu-131-01-walk.bvh \
	  --out $(MOTION_DIR)/quadruped
	$(PY) tools/motion_judge.py judge --build $(MOTION_DIR)/quadruped --skeleton $(MOTION_DIR)/d/quadruped.skeleton.json \
	  --bvh walk=$(MOCAP)/cmu-131-01-walk.bvh
	@test "$$(grep -c '"bend": "reversed"' $(MOTION_DIR)/d/quadruped.skeleton.json)" = 2 || { \
	  echo "test-motion: FAILED: the quadruped does not declare its two hocks \"bend\": \"reversed\""; exit 1; }
	@sed 's/, "bend": "reversed"//' $(MOTION_DIR)/d/quadruped.skeleton.json > $(MOTION_DIR)/d/unbent.skeleton.json
	@! grep -q '"bend"' $(MOTION_DIR)/d/unbent.skeleton.json || { echo "test-motion: FAILED: the control still declares a bend"; exit 1; }
	target/release/re2d rig build $(MOTION_DIR)/d/unbent.skeleton.json --motion walk=$(MOCAP)/cmu-131-01-walk.bvh \
	  --out $(MOTION_DIR)/unbent
	@set +e; $(PY) tools/motion_judge.py judge --build $(MOTION_DIR)/unbent --skeleton $(MOTION_DIR)/d/quadruped.skeleton.json \
	  --bvh walk=$(MOCAP)/cmu-131-01-walk.bvh > $(MOTION_DIR)/unbent.txt 2>&1; rc=$$?; set -e; \
	  grep 'FAIL walk: plausibility: hock' $(MOTION_DIR)/unbent.txt | head -2; \
	  if [ $$rc -ne 1 ] || ! grep -q 'FAIL walk: plausibility: hock .* the wrong way' $(MOTION_DIR)/unbent.txt; then \
	    cat $(MOTION_DIR)/unbent.txt; echo "test-motion: FAILED: the quadruped without its reversed hocks was not caught (exit $$rc)"; exit 1; fi; \
	  echo "test-motion: control ok: the quadruped without \"bend\": \"reversed\" fails the hock check"
	@# issue 41: a frontal figure (AnimatedDrawings' char1 read from its char_cfg.yaml: "facing": "front"):
	@# its arms follow the capture seen from the front, legs and trunk from the side; the control, the
	@# same declaration built facing right (the arms projected sideways), must fail the judge's fit
	target/release/re2d rig build assets/drawings/animated-drawings/char1/char_cfg.yaml $(MOTION_ARGS) --out $(MOTION_DIR)/front
	@grep -q '"facing": "front"' $(MOTION_DIR)/front/skeleton.json || { echo "test-motion: FAILED: char1 is not read as a frontal figure"; exit 1; }
	$(PY) tools/motion_judge.py judge --build $(MOTION_DIR)/front --skeleton $(MOTION_DIR)/front/skeleton.json $(JUDGE_BVH)
	@mkdir -p $(MOTION_DIR)/sideways-in && cp assets/drawings/animated-drawings/char1/texture.png $(MOTION_DIR)/sideways-in/
	@sed 's/"facing": *"front"/"facing": "right"/' $(MOTION_DIR)/front/skeleton.json > $(MOTION_DIR)/sideways-in/skeleton.json
	target/release/re2d rig build $(MOTION_DIR)/sideways-in/skeleton.json $(MOTION_ARGS) --out $(MOTION_DIR)/sideways
	@set +e; $(PY) tools/motion_judge.py judge --build $(MOTION_DIR)/sideways --skeleton $(MOTION_DIR)/front/skeleton.json \
	  $(JUDGE_BVH) > $(MOTION_DIR)/sideways.txt 2>&1; rc=$$?; set -e; \
	  grep 'FAIL .*arm.* follows the capture' $(MOTION_DIR)/sideways.txt | head -2; \
	  if [ $$rc -ne 1 ] || ! grep -q 'FAIL .*arm.* follows the capture' $(MOTION_DIR)/sideways.txt; then \
	    cat $(MOTION_DIR)/sideways.txt; echo "test-motion: FAILED: the arms projected sideways were not caught (exit $$rc)"; exit 1; fi; \
	  echo "test-motion: control ok: a frontal figure's arms projected sideways fail the judge"

# Issue 40's held-back judge: the random layered characters of seeds 1001..1100 (never looked at
# while the rules were developed; the development batch, seeds 1..100, is crates/rig/tests/
# slice_random.rs in test-rig) sliced with the paint rule; prints per character the mean and
# lowest part IoU, then the share of parts >= 0.95, the parts < 0.90, the characters with a
# mean < 0.97 and the bones with visible paint made partless (the issue's gate); exit 1 when the
# gate fails. As a benchmark it prints and goes on (the gate is not reached yet: issue 40 ended
# blocked), so `make bench-all` runs the benchmarks after it.
SLICE_HELD_BACK := 1001..1101

bench-slice: release
	@target/release/examples/slice_random --seeds $(SLICE_HELD_BACK) --threads 2 || \
	  echo "bench-slice: issue 40's gate is not reached on the held-back seeds (numbers above)"
