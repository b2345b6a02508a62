# re2d — thin wrapper over cargo. `make demo` shows output, `make test` installs what the tests
# need (`make deps`) and runs every test (what .ci/run calls). Area-specific targets live in
# mk/*.mk and add themselves to TEST_TARGETS / DEMO_TARGETS / BENCH_TARGETS.
#
# One release build: `cargo build --release` builds the workspace's default members (the core
# library libre2d.a/.so, the CLI `re2d`, the QuickJS host `re2d-qjs`) with the core compiled
# once; every target that needs a release binary depends on `release` and never asks cargo for a
# subset (a subset can resolve other features and rebuild the core).

CARGO    ?= cargo
PREFIX   ?= /usr/local
CBINDGEN_VERSION := 0.29.4
TOOLS    := $(CURDIR)/target/tools
CBINDGEN := $(TOOLS)/bin/cbindgen
PY       := $(CURDIR)/target/venv/bin/python
LIB_A    := target/release/libre2d.a
LIB_SO   := target/release/libre2d.so
VERSION  := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)

# cargo-fuzz and cbindgen are installed into target/tools (make deps, the header target)
export PATH := $(TOOLS)/bin:$(PATH)

TEST_TARGETS  := header-check cargo-test
DEMO_TARGETS  :=
BENCH_TARGETS := bench-core

.PHONY: all deps release examples header header-check test cargo-test demo demo-core bench bench-all bench-core install uninstall clean

all: release

# What the tests need beyond the Rust toolchain (tools/deps.sh: apt packages when root, else one
# line naming them and exit 2; Pillow in target/venv; npm ci; cargo-fuzz in target/tools).
deps:
	@tools/deps.sh

# One cargo invocation for the library, both binaries and the examples: the core is compiled
# once and cargo prints `Compiling re2d` once.
release:
	$(CARGO) build --release --lib --bins --examples

examples: release

-include mk/*.mk

# The pinned cbindgen, built unoptimised: it builds in a fraction of the time of a release build
# and writes the same header (it only parses the crate).
$(CBINDGEN):
	$(CARGO) install --quiet --locked --debug --root $(TOOLS) cbindgen --version $(CBINDGEN_VERSION)

# Regenerate include/rotsprite_math.h and include/re2d.h with the pinned cbindgen.
# cbindgen emits all types before all functions; tools/order_header.py restores
# the declaration order of c-abi.md §1 (whole declarations, nothing edited).
# re2d.h holds the re2d-only functions (cbindgen-re2d.toml).
header: $(CBINDGEN)
	@mkdir -p target
	$(CBINDGEN) --config cbindgen.toml --crate re2d --output target/rotsprite_math.raw.h --quiet
	python3 tools/order_header.py target/rotsprite_math.raw.h include/rotsprite_math.h
	$(CBINDGEN) --config cbindgen-re2d.toml --crate re2d --output include/re2d.h --quiet

# Fails when the committed header is not what cbindgen generates now.
header-check: header
	git diff --exit-code -- include/

# The workspace's default members (core, cli, qjs): unit, integration, example, bench-build
# and doc tests in one debug build.
cargo-test:
	$(CARGO) test --all-targets

# Every test target in order, each timed (tools/run-tests.sh prints the table at the end).
test: deps
	@tools/run-tests.sh $(TEST_TARGETS)

demo: release demo-core $(DEMO_TARGETS)

# Renders a generated atlas walking and turning (smooth 512 and pixel 128) into out/.
demo-core: examples
	target/release/examples/demo out

# One table: every C-ABI path per atlas against a baseline build (BENCH_BASE, default main at the
# start of speed round 4; RE2D_C_LIB=path.so adds the existing C library), the 1/2-thread
# speed-up, $.mesh against its plain-JS transcription and `rig build` per stage
# (benches/bench.sh). `make bench-all` runs every area's own bench target instead.
bench: release
	benches/bench.sh

bench-all: $(BENCH_TARGETS)

bench-core:
	$(CARGO) bench --bench core

# Installs the libraries, the headers, re2d.pc, the binaries re2d and re2d-qjs and the Rive web
# runtime of the player pages (share/re2d/rive.js, when `make deps` installed it) under
# $(DESTDIR)$(PREFIX); `make uninstall` with the same PREFIX removes exactly those files
# (and the directories, when that leaves them empty). libre2d.a/.so are the core crate alone:
# QuickJS and clap live in the qjs and cli crates.
INSTALLED := lib/libre2d.a lib/libre2d.so include/rotsprite_math.h include/re2d.h lib/pkgconfig/re2d.pc \
             bin/re2d bin/re2d-qjs share/re2d/rive.js

install: release
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(LIB_A) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(LIB_SO) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/rotsprite_math.h include/re2d.h $(DESTDIR)$(PREFIX)/include/
	install -m 755 target/release/re2d target/release/re2d-qjs $(DESTDIR)$(PREFIX)/bin/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' re2d.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/re2d.pc
	@# the Rive web runtime the player pages load (`re2d rig page`, docs/pages.md), when make deps installed it
	@if [ -f $(RIVE_JS) ]; then install -d $(DESTDIR)$(PREFIX)/share/re2d && \
	  install -m 644 $(RIVE_JS) $(DESTDIR)$(PREFIX)/share/re2d/rive.js; fi

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALLED))
	-rmdir $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include \
	  $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/re2d $(DESTDIR)$(PREFIX)/share 2>/dev/null

clean:
	$(CARGO) clean
	rm -rf ffi-tests/build
