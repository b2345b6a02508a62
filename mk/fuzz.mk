# re2d fuzzing and Rust sanitizers (issue 12); included by the top Makefile.
#
#   make fuzz-quick       every fuzz target for FUZZ_QUICK_SECS (5) s from its committed corpus
#                         (part of `make test`; cargo-fuzz comes from `make deps`)
#   make fuzz-smoke       the same soak for FUZZ_SECS (30) s per target, FUZZ_JOBS (one per core)
#                         at a time (tools/fuzz-smoke.sh: builds once, runs, re-runs a slow input
#                         alone before calling it a hang)
#   make fuzz-run T=atlas FUZZ_SECS=600   one longer campaign (new inputs go to target/fuzz/T)
#   make fuzz-volume T=js FUZZ_SECS=3600   the same campaign built for throughput: no
#                         sanitizer, no compare tracing (`-s none --no-trace-compares`, its
#                         own target dir); 3-10x the exec/s of fuzz-run, for execution
#                         volume on top of the ASan+LSan campaigns, which find memory errors
#                         and leaks that this build cannot (safe Rust still panics on bugs)
#   make fuzz-cmin        merge target/fuzz/<t> into a minimised fuzz/corpus/<t> for every target
#   make test-asan        the Rust test suite (lib + integration tests, feature js) under
#                         AddressSanitizer with LeakSanitizer (nightly, -Zsanitizer=address)
#   make test-miri        Miri on the pure modules that contain unsafe (see below)
#
# Targets are discovered from the [[bin]] entries of fuzz/Cargo.toml, so targets other
# areas add there are picked up. Every target runs with -timeout=FUZZ_TIMEOUT (10 s: a hang,
# not a slow input on a busy machine; an input that times out is re-run alone with the same
# limit and fails the run only if it is slow alone too) and libFuzzer's default 2 GiB RSS limit.
# `tests/fuzz_corpus.rs` (and qjs/tests/fuzz_corpus_js.rs) replay every committed corpus file
# through the same entry points in plain `cargo test`.
#
# Miri: `unsafe` lives in src/ffi (the extern "C" adapters), src/rotsprite/rig.rs (the C
# rig pointer), the renderer's fast paths (src/rotsprite/atlas/{texels,decode,anime}.rs: one
# checked texel reader and records written in place; src/rotsprite/anime/*, draw.rs, math.rs:
# SIMD lanes and exact float-to-int conversions), crates/output/src/publish.rs (signal handler:
# sigaction/unlink/raise) and qjs/src/{buffers,pure,mesh}.rs (QuickJS values). test-miri runs
# the ffi and rig unit tests (`ffi::miri`, the C ABI called from Rust with Rust-made pointers)
# and the spec's worked decode examples (tests/decode.rs §7.9 and §8.4: the texel reader, both
# decoders and in-place records). The SIMD quad fill is exercised by the golden and frame tests
# on every level (RE2D_SIMD=avx2/sse2/scalar in test-frames) and under ASan (test-asan, the C
# suite with ASan+UBSan); a full 256/512 render is too slow for Miri. publish.rs and the js
# modules are not run under Miri: they call libc signal APIs and the QuickJS C library, which
# Miri cannot execute (foreign functions); they are covered by test-asan, the fuzz targets
# (ASan), the C tests under ASan+UBSan and valgrind (`make js-test-valgrind`) instead.

FUZZ_SECS     ?= 30
FUZZ_QUICK_SECS ?= 5
FUZZ_TIMEOUT  ?= 10
FUZZ_TOOL     := cargo +nightly fuzz
FUZZ_TARGETS  := $(shell awk '/^\[\[bin\]\]/{b=1;next} b&&/^name *=/{gsub(/^name *= *"|"$$/,"");print;b=0}' fuzz/Cargo.toml)
FUZZ_JOBS     ?= $(shell nproc 2>/dev/null || echo 1)
FUZZ_FLAGS    := -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=2048 -print_final_stats=1
ASAN_TARGET   := x86_64-unknown-linux-gnu
# Per-target libFuzzer flags, FUZZ_FLAGS_<target>: js reads only the first 16 calls
# (8 bytes each) of an input (qjs/src/fuzz.rs MAX_CALLS).
FUZZ_FLAGS_js := -max_len=128
fuzz_flags     = $(FUZZ_FLAGS) $(FUZZ_FLAGS_$(1))

TEST_TARGETS  += fuzz-quick

.PHONY: fuzz-quick fuzz-smoke fuzz-run fuzz-volume fuzz-cmin fuzz-list test-asan test-miri

fuzz-list:
	@echo $(FUZZ_TARGETS)

fuzz-quick:
	@$(MAKE) --no-print-directory fuzz-smoke FUZZ_SECS=$(FUZZ_QUICK_SECS)

fuzz-smoke:
	@$(FUZZ_TOOL) --version >/dev/null 2>&1 || { echo "fuzz-smoke: FAILED: cargo-fuzz missing (make deps installs it)"; exit 1; }
	@FUZZ_FLAGS="$(FUZZ_FLAGS)" $(foreach t,$(FUZZ_TARGETS),$(if $(FUZZ_FLAGS_$(t)),FUZZ_FLAGS_$(t)="$(FUZZ_FLAGS_$(t))")) \
	  tools/fuzz-smoke.sh $(FUZZ_SECS) $(FUZZ_JOBS) $(FUZZ_TARGETS)

fuzz-run:
	mkdir -p target/fuzz/$(T)
	cd fuzz && nice -n 10 $(FUZZ_TOOL) run -O $(T) ../target/fuzz/$(T) corpus/$(T) -- \
	  -max_total_time=$(FUZZ_SECS) $(call fuzz_flags,$(T))

fuzz-volume:
	mkdir -p target/fuzz/$(T)
	cd fuzz && nice -n 10 $(FUZZ_TOOL) run -O -s none --no-trace-compares \
	  --target-dir ../target/fuzz-volume $(T) ../target/fuzz/$(T) corpus/$(T) -- \
	  -max_total_time=$(FUZZ_SECS) $(call fuzz_flags,$(T))

fuzz-cmin:
	set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p fuzz/corpus/$$t target/fuzz/$$t target/fuzz-cmin/$$t; \
	  rm -f target/fuzz-cmin/$$t/*; \
	  (cd fuzz && $(FUZZ_TOOL) run -O $$t ../target/fuzz-cmin/$$t corpus/$$t ../target/fuzz/$$t -- \
	     -merge=1 -timeout=1 -rss_limit_mb=2048); \
	  rm -f fuzz/corpus/$$t/*; cp target/fuzz-cmin/$$t/* fuzz/corpus/$$t/; \
	done

test-asan:
	RUSTFLAGS="-Zsanitizer=address" RUSTDOCFLAGS="-Zsanitizer=address" \
	ASAN_OPTIONS="detect_leaks=1:detect_stack_use_after_return=1" \
	$(CARGO) +nightly test --no-fail-fast --target $(ASAN_TARGET) --target-dir target/asan --lib --tests

test-miri:
	MIRIFLAGS="-Zmiri-disable-isolation" $(CARGO) +nightly miri test --target-dir target/miri --lib -- ffi::miri
	MIRIFLAGS="-Zmiri-disable-isolation" $(CARGO) +nightly miri test --target-dir target/miri --test decode -- worked_example
