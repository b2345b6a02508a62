# re2d — thin wrapper over cargo. `make demo` shows output, `make test` runs
# every test (what .ci/run calls). Area-specific targets live in mk/*.mk and
# add themselves to TEST_TARGETS / DEMO_TARGETS / BENCH_TARGETS.

CARGO    ?= cargo
PREFIX   ?= /usr/local
CBINDGEN_VERSION := 0.29.4
TOOLS    := $(CURDIR)/target/tools
CBINDGEN := $(TOOLS)/bin/cbindgen
LIB_A    := target/release/libre2d.a
LIB_SO   := target/release/libre2d.so

TEST_TARGETS  :=
DEMO_TARGETS  :=
BENCH_TARGETS := bench-core

.PHONY: all release header header-check test cargo-test demo demo-core bench bench-core install clean

all: release

release:
	$(CARGO) build --release --lib

-include mk/*.mk

$(CBINDGEN):
	$(CARGO) install --quiet --locked --root $(TOOLS) cbindgen --version $(CBINDGEN_VERSION)

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

cargo-test:
	$(CARGO) test --all-targets

test: header-check cargo-test $(TEST_TARGETS)
	@echo "make test: all test targets passed"

demo: release demo-core $(DEMO_TARGETS)

# Renders a generated atlas walking and turning (smooth 512 and pixel 128) into out/.
demo-core:
	$(CARGO) run --release --example demo -- out

bench: $(BENCH_TARGETS)

bench-core:
	$(CARGO) bench --bench core

install: release
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 $(LIB_A) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(LIB_SO) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/*.h $(DESTDIR)$(PREFIX)/include/
	sed -e 's|@PREFIX@|$(PREFIX)|g' re2d.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/re2d.pc

clean:
	$(CARGO) clean
	rm -rf ffi-tests/build
