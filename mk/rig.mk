# re2d rig — the drawing-to-.riv pipeline (issue 19, spec rig.md): its seed-sized gates in release,
# and the bench of a whole `rig build`.

TEST_TARGETS  += test-rig
BENCH_TARGETS += bench-rig

RIG_BENCH_DIR := target/bench-rig

.PHONY: test-rig bench-rig

# The gates on the two 1696x2528 generated characters (slicing IoU per part, reassembly and its
# three controls, weight schemes and the ramp control, grid step) and the full `rig build` folder
# test: too slow for the debug build of cargo-test, where they are ignored. `--workspace` (the default members) keeps the
# feature set of the release build, so the core is not recompiled for this target.
test-rig:
	$(CARGO) test --release --workspace --exclude re2d-layout-test --lib rig::
	$(CARGO) test --release --workspace --exclude re2d-layout-test --test rig_cli

# The whole `rig build` (motion, silhouette, slicing and its confidence control, reassembly proof,
# tables, meshes, model, .riv, sheet) for the 1696x2528, 20-bone quadruped, the 17-bone biped and
# the 20-bone layered girl, no browser; prints each stage's time and the peak memory against the
# 12x RGBA budget. Target: <= 2 s on one core. (A build whose gate fails still writes its folder
# and exits 1: that is timed too.)
bench-rig: release
	@rm -rf $(RIG_BENCH_DIR) && mkdir -p $(RIG_BENCH_DIR)
	@target/release/examples/rig_drawings $(RIG_BENCH_DIR)/d >/dev/null
	@for c in quadruped biped girl; do \
	  echo "== rig build $$c (1696x2528)"; \
	  /usr/bin/time -f "peak memory %M KiB, wall %e s, user %U s" taskset -c 0 \
	    target/release/re2d rig build $(RIG_BENCH_DIR)/d/$$c.skeleton.json \
	    --motion assets/mocap/cmu-131-01-walk.bvh --out $(RIG_BENCH_DIR)/$$c --timings; \
	  rc=$$?; if [ $$rc -ne 0 ] && ! [ $$rc -eq 1 -a -f $(RIG_BENCH_DIR)/$$c/report.json ]; then exit 1; fi; \
	  echo "   budget: 12 x 1696 x 2528 x 4 B = $$((12 * 1696 * 2528 * 4 / 1024)) KiB"; \
	done
