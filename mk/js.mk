# re2d QuickJS host: build re2d-qjs, JS tests, mesh demo and bench; included by the top Makefile.
#
#   make qjs        build target/release/re2d-qjs (the qjs crate; = make release)
#   make js-test    js/tests/run.sh on the release re2d-qjs: every js/tests/*.test.mjs, engine-style
#                   fixtures, rotsprite end-to-end on the tests/golden atlases, CLI checks (the
#                   qjs crate's Rust tests — qjs/src unit tests, qjs/tests/qjs_hardening.rs, the js
#                   fuzz corpus replay — run in cargo-test)
#   make demo-mesh  two-bone IK arm rendered by the default CPU engine into out/mesh-arm-*.png
#   make demo-sprite the assets/ animal model walking and turning via $.re2dSprite into out/sprite/*.png
#   make demo-mesh-walk  out/rig/mesh-walk.png: the rigged biped of demo-rig played through $.mesh.load
#   make test-mesh-load  $.mesh.load walk frames of the rigged biped and quadruped vs re2d riv render-ref
#   make bench-mesh-load one 576x624 frame of the rigged biped through $.mesh.load, CPU time on one core
#   make bench-js   native deformPart/draw vs plain JS at 100 / 1 000 / 10 000 vertices
#   make bench-js-ir  instructions per deformPart / draw call (callgrind), native vs plain JS
#   make js-test-valgrind  the $.mesh tests under valgrind memcheck (the one-pass native reads
#                   touch QuickJS objects directly; not part of `make test`: a few minutes)

QJS := target/release/re2d-qjs

TEST_TARGETS  += js-test
DEMO_TARGETS  += demo-mesh demo-sprite
BENCH_TARGETS += bench-js

.PHONY: qjs js-test js-test-valgrind demo-mesh demo-sprite bench-js bench-js-ir

qjs: release

js-test: qjs
	bash js/tests/run.sh $(QJS)

js-test-valgrind: qjs
	for t in js/tests/mesh_*.test.mjs; do \
		valgrind -q --error-exitcode=9 $(QJS) $$t || exit 1; \
	done

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

# Ir per call = (Ir of warm-up + k calls − Ir of warm-up alone) / k, machine-independent.
bench-js-ir: qjs
	@echo "instructions per call (callgrind): verts op native plain-JS ratio"
	@ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null $(QJS) js/bench/mesh_ir.mjs "$$@" 2>&1 \
		| sed -n 's/.*refs: *//p' | tr -d ,; }; \
	for op in deform draw; do for n in 100 1000 10000; do \
		a=$$(ir $$op $$n 0); b=$$(ir $$op $$n 10); c=$$(ir js$$op $$n 0); d=$$(ir js$$op $$n 2); \
		nat=$$(( (b - a) / 10 )); js=$$(( (d - c) / 2 )); \
		echo "$$n $$op $$nat $$js $$(( js / nat ))x"; \
	done; done

# Issue 30: a rigged character played through `$.mesh.load` by re2d-qjs's CPU engine, judged
# against `re2d riv render-ref` (qjs/tests/mesh_load_rig.rs): the generated biped and quadruped
# (examples/rig_drawings) rigged by `re2d rig build` with the committed capture into
# target/mesh-load/, then eight walk frames each through the native and the plain-JS `$.mesh`
# (IoU >= 0.99, colour >= 0.97) with two controls that must fail (t + d/4, every depth reversed).
MESH_LOAD_DIR := target/mesh-load
TEST_TARGETS  += test-mesh-load

.PHONY: test-mesh-load

test-mesh-load: release
	@rm -rf $(MESH_LOAD_DIR) && mkdir -p $(MESH_LOAD_DIR)
	target/release/examples/rig_drawings $(MESH_LOAD_DIR)/drawings >/dev/null
	@set -e; for c in biped quadruped; do \
	  target/release/re2d rig build $(MESH_LOAD_DIR)/drawings/$$c.skeleton.json \
	    --motion assets/mocap/cmu-131-01-walk.bvh --out $(MESH_LOAD_DIR)/$$c; \
	done
	target/release/re2d rig build $(MESH_LOAD_DIR)/drawings/fighter.skeleton.json $(FIGHTER_MOTIONS) \
	  --out $(MESH_LOAD_DIR)/fighter
	RE2D_MESH_LOAD_DIR=$(CURDIR)/$(MESH_LOAD_DIR) $(CARGO) test --release --workspace --exclude re2d-layout-test \
	  --test mesh_load_rig -- --ignored --nocapture --test-threads 1

# Issue 30 item 4: one frame (clear + draw) of the rigged biped through `$.mesh.load` at 576x624
# (the seed's game frame) on one core (taskset -c 0), native `$.mesh` and, for scale, the plain-JS
# module. CPU time per frame = (user time of FRAMES frames - user time of 0 frames) / FRAMES.
# Target: <= 5 ms native.
BENCH_TARGETS += bench-mesh-load
MESH_BENCH_DIR := target/bench-mesh-load

.PHONY: bench-mesh-load

bench-mesh-load: release
	@rm -rf $(MESH_BENCH_DIR) && mkdir -p $(MESH_BENCH_DIR)
	@target/release/examples/rig_drawings $(MESH_BENCH_DIR)/d >/dev/null
	@target/release/re2d rig build $(MESH_BENCH_DIR)/d/biped.skeleton.json \
	  --motion assets/mocap/cmu-131-01-walk.bvh --out $(MESH_BENCH_DIR)/biped >/dev/null
	@for mf in native:400 plain:20; do m=$${mf%%:*}; n=$${mf#*:}; \
	  run() { /usr/bin/time -f %U -o $(MESH_BENCH_DIR)/cpu taskset -c 0 $(QJS) --size 576x624 \
	    js/bench/mesh_load.bench.mjs $(MESH_BENCH_DIR)/biped/model.json $$m $$1 || exit 1; cat $(MESH_BENCH_DIR)/cpu; }; \
	  a=$$(run 0 | tail -1); out=$$(run $$n); b=$$(echo "$$out" | tail -1); echo "$$out" | head -1; \
	  awk -v a=$$a -v b=$$b -v n=$$n -v m=$$m 'BEGIN { printf "%s $$.mesh: %.2f ms CPU per frame (one core, %d frames)\n", m, (b - a) * 1000 / n, n }'; \
	done

# out/rig/mesh-walk.png (issue 30 item 3): the biped that demo-rig rigs into out/rig/, played by
# re2d-qjs through `$.mesh.load` (js/demo/mesh_walk.mjs) in a 576x624 game frame: eight frames
# of its walk, beside the reference renderer's out/rig/strip_walk.png (rig build --strips).
DEMO_TARGETS += demo-mesh-walk

.PHONY: demo-mesh-walk

demo-mesh-walk: qjs demo-rig
	@rm -rf target/demo-mesh-walk && mkdir -p target/demo-mesh-walk
	$(QJS) --size 576x624 js/demo/mesh_walk.mjs $(RIG_DEMO)/model.json target/demo-mesh-walk/walk-
	target/release/examples/png_strip $(RIG_DEMO)/mesh-walk.png 2 $(foreach i,0 1 2 3 4 5 6 7,target/demo-mesh-walk/walk-$(i).png)
