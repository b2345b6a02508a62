# re2d rig edit (issue 44; docs/edit.md): the local editor page, its server's checks, and the page
# in a real Chromium.
#
#   make test-edit       in release: the preview against `rig slice`'s slicing on the generated
#                        characters (crates/rig/tests/rig_preview.rs), the routes at work
#                        (crates/edit/tests/edit_api.rs, the build among them), the refusals over
#                        real sockets (crates/edit/tests/edit_security.rs); then tests/browser/edit.mjs
#                        on the generated 1696x2528 biped: drag a joint and a radius, see the parts
#                        change, save, `rig slice` the file, the page's pixels against the Rust
#                        reference (testkit/examples/edit_overlay.rs) and its control, another
#                        origin's requests, Build, the server stopping when the page closes
#   make edit-screenshot the same browser test, copying its screenshot to docs/img/rig-edit.png
#   make bench-edit      preview times (cold and warm CPU) and the idle memory of the server on the
#                        generated 1696x2528 characters

EDIT_DIR := target/test-edit
EDIT_BROWSER = node tests/browser/edit.mjs --re2d target/release/re2d --overlay target/release/examples/edit_overlay \
	--drawings $(EDIT_DIR)/d --motion assets/mocap/cmu-131-01-walk.bvh --out $(EDIT_DIR)/browser

TEST_TARGETS  += test-edit
BENCH_TARGETS += bench-edit

.PHONY: test-edit edit-screenshot bench-edit edit-drawings

edit-drawings: release
	@test -d tests/browser/node_modules/puppeteer-core || { echo "test-edit: FAILED: tests/browser/node_modules missing (make deps)"; exit 1; }
	@test -x /usr/bin/chromium || { echo "test-edit: FAILED: /usr/bin/chromium missing (make deps)"; exit 1; }
	@rm -rf $(EDIT_DIR) && mkdir -p $(EDIT_DIR)
	@target/release/examples/rig_drawings $(EDIT_DIR)/d >/dev/null

test-edit: edit-drawings
	$(CARGO) test --release --workspace --exclude re2d-layout-test --test rig_preview --test edit_api --test edit_security
	$(EDIT_BROWSER)

edit-screenshot: edit-drawings
	$(EDIT_BROWSER) --shot docs/img/rig-edit.png

bench-edit: release
	@rm -rf $(EDIT_DIR)-bench && mkdir -p $(EDIT_DIR)-bench
	@target/release/examples/rig_drawings $(EDIT_DIR)-bench/d >/dev/null
	taskset -c 0 target/release/examples/edit_bench $(EDIT_DIR)-bench/d biped quadruped girl coat skirt
