# MSH / NRes models (issue 11): tests, demo and benchmark; included by the top Makefile.
#
#   make msh-test    the MSH/NRes test suites (same build as cargo-test: readers, every check, animation parity,
#                    round-trip properties, bounded proptest, fuzz-corpus replay, CLI), the Khronos glTF
#                    validator on every synthetic profile (npm ci of the pinned gltf-validator into
#                    tests/gltf/node_modules on first use) and the optional real corpus
#                    (RE2D_MSH_CORPUS=DIR; prints "skipped: no corpus" without it)
#   make demo-msh    synthesise a hierarchy-anim model, validate it, export it to .glb and render a
#                    preview sheet: out/msh/hierarchy-anim.{msh,glb,obj,png}
#   make bench-msh   list/validate/decode/glTF-export MB/s and peak RSS on a generated 64 MiB model
#   make fuzz-msh    each cargo-fuzz target for FUZZ_SECONDS (default 600), one after another

MSH_RE2D     := target/release/re2d
MSH_OUT      := out/msh
FUZZ_SECONDS ?= 600
MSH_FUZZ_TARGETS := nres_decode msh_decode_tolerant msh_decode_strict anim_sample export_obj

# cargo-test already runs every tests/msh_*.rs; make test adds only the
# optional real-corpus run, whose "skipped: no corpus" line must be visible.
TEST_TARGETS  += msh-real-corpus
DEMO_TARGETS  += demo-msh
BENCH_TARGETS += bench-msh

.PHONY: msh-test msh-real-corpus msh-gltf-deps demo-msh bench-msh fuzz-msh

msh-gltf-deps:
	@test -f tests/gltf/node_modules/gltf-validator/package.json || \
	  (cd tests/gltf && npm ci --no-audit --no-fund --silent)

msh-test: msh-gltf-deps
	$(CARGO) test --test msh_nres --test msh_model --test msh_anim --test msh_export \
	  --test msh_props --test msh_alloc --test msh_fuzz_corpus --test msh_cli
	$(MAKE) --no-print-directory msh-real-corpus

msh-real-corpus:
	$(CARGO) test --test msh_real_corpus -- --nocapture

demo-msh: examples
	mkdir -p $(MSH_OUT)
	$(MSH_RE2D) msh synth --seed 7 --profile hierarchy-anim --output $(MSH_OUT)/hierarchy-anim.msh
	$(MSH_RE2D) msh validate $(MSH_OUT)/hierarchy-anim.msh
	$(MSH_RE2D) msh export $(MSH_OUT)/hierarchy-anim.msh --format gltf --anim --output $(MSH_OUT)/hierarchy-anim.glb
	$(MSH_RE2D) msh export $(MSH_OUT)/hierarchy-anim.msh --format obj --time 3.5 --output $(MSH_OUT)/hierarchy-anim.obj
	target/release/examples/msh_preview $(MSH_OUT)/hierarchy-anim.msh $(MSH_OUT)/hierarchy-anim.png --frames 4 --size 256

bench-msh:
	$(CARGO) bench --bench msh

fuzz-msh:
	cd fuzz && for t in $(MSH_FUZZ_TARGETS); do \
	  mkdir -p corpus/$$t && \
	  nice -n 10 cargo +nightly fuzz run $$t corpus/$$t -- -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 || exit 1; \
	done
