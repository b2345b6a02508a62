# re2d ffi-tests: C ABI test targets (ffi-test, layout-test, test-valgrind); included by the top Makefile.
#
#   make ffi-test       release lib, then the C tests under ASan+UBSan: header checks (C99, C++20),
#                       exports of libre2d.so, ffi_tests (spec contracts), golden replay of tests/golden
#                       (smooth scenes also on 2, 3 and 8 render threads), RE2D_THREADS (re2d.h);
#                       plus alloc_fail (no sanitizers: it injects malloc failures)
#   make layout-test    bindgen layout of include/rotsprite_math.h == re2d's #[repr(C)] types
#   make test-valgrind  the C tests without sanitizers under valgrind --leak-check=full
#
# GOLDEN_DIR defaults to tests/golden (the existing library's outputs, vendored).

FFI_DIR     := ffi-tests
FFI_BUILD   := $(FFI_DIR)/build
GOLDEN_DIR  ?= $(CURDIR)/tests/golden
FFI_CC      ?= cc
FFI_CXX     ?= c++
FFI_WARN    := -Wall -Wextra -Werror -pedantic
FFI_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all
FFI_CFLAGS  := -std=c99 $(FFI_WARN) -g -O1 -Iinclude -I$(FFI_DIR)
FFI_LIBS    := -lpthread -ldl -lm
FFI_SRCS    := $(FFI_DIR)/main.c $(FFI_DIR)/harness.c $(FFI_DIR)/util.c $(FFI_DIR)/t_abi.c \
               $(FFI_DIR)/t_v1.c $(FFI_DIR)/t_atlas.c $(FFI_DIR)/t_render.c $(FFI_DIR)/t_threads.c
FFI_HDRS    := $(wildcard $(FFI_DIR)/*.h) include/rotsprite_math.h include/re2d.h
GOLDEN_SRCS := $(FFI_DIR)/golden.c $(FFI_DIR)/harness.c $(FFI_DIR)/util.c
GOLDEN_GEN  := $(FFI_BUILD)/golden/golden_cases.h

TEST_TARGETS += ffi-test layout-test

.PHONY: ffi-test ffi-build ffi-header-test layout-test test-valgrind

$(FFI_BUILD):
	mkdir -p $@

# golden.json + PNGs -> C case table and raw RGBA files (Python 3 stdlib only)
$(GOLDEN_GEN): $(FFI_DIR)/gen_golden.py $(GOLDEN_DIR)/golden.json | $(FFI_BUILD)
	python3 $(FFI_DIR)/gen_golden.py $(GOLDEN_DIR) $(FFI_BUILD)/golden

$(FFI_BUILD)/ffi_tests: $(FFI_SRCS) $(FFI_HDRS) $(LIB_A) | $(FFI_BUILD)
	$(FFI_CC) $(FFI_CFLAGS) $(FFI_SAN) $(FFI_SRCS) $(LIB_A) $(FFI_LIBS) -o $@

$(FFI_BUILD)/golden_test: $(GOLDEN_SRCS) $(FFI_HDRS) $(GOLDEN_GEN) $(LIB_A) | $(FFI_BUILD)
	$(FFI_CC) $(FFI_CFLAGS) $(FFI_SAN) -I$(FFI_BUILD)/golden $(GOLDEN_SRCS) $(LIB_A) $(FFI_LIBS) -o $@

$(FFI_BUILD)/header_c99: $(FFI_DIR)/header_c99.c include/rotsprite_math.h $(LIB_A) | $(FFI_BUILD)
	$(FFI_CC) -std=c99 $(FFI_WARN) $(FFI_SAN) -Iinclude $< $(LIB_A) $(FFI_LIBS) -o $@

# the same program linked against the shared library
$(FFI_BUILD)/header_c99_so: $(FFI_DIR)/header_c99.c include/rotsprite_math.h $(LIB_SO) | $(FFI_BUILD)
	$(FFI_CC) -std=c99 $(FFI_WARN) -Iinclude $< -L$(dir $(LIB_SO)) -lre2d -Wl,-rpath,$(abspath $(dir $(LIB_SO))) -o $@

$(FFI_BUILD)/header_cpp: $(FFI_DIR)/header_cpp.cpp include/rotsprite_math.h include/re2d.h $(LIB_A) | $(FFI_BUILD)
	$(FFI_CXX) -std=c++20 $(FFI_WARN) $(FFI_SAN) -Iinclude $< $(LIB_A) $(FFI_LIBS) -o $@

# RE2D_THREADS read once (re2d.h); runs its scenarios in child processes
$(FFI_BUILD)/env_threads: $(FFI_DIR)/env_threads.c include/re2d.h $(LIB_A) | $(FFI_BUILD)
	$(FFI_CC) $(FFI_CFLAGS) $(FFI_SAN) $< $(LIB_A) $(FFI_LIBS) -o $@

# replaces malloc & co. to inject allocation failures, hence no sanitizers
$(FFI_BUILD)/alloc_fail: $(FFI_DIR)/alloc_fail.c $(FFI_DIR)/harness.c $(FFI_DIR)/util.c $(FFI_HDRS) $(LIB_A) | $(FFI_BUILD)
	$(FFI_CC) $(FFI_CFLAGS) $(FFI_DIR)/alloc_fail.c $(FFI_DIR)/harness.c $(FFI_DIR)/util.c $(LIB_A) $(FFI_LIBS) -o $@

$(FFI_BUILD)/ffi_tests_plain: $(FFI_SRCS) $(FFI_HDRS) $(LIB_A) | $(FFI_BUILD)
	$(FFI_CC) $(FFI_CFLAGS) $(FFI_SRCS) $(LIB_A) $(FFI_LIBS) -o $@

ffi-build: release
	$(MAKE) --no-print-directory $(FFI_BUILD)/ffi_tests $(FFI_BUILD)/golden_test \
	  $(FFI_BUILD)/header_c99 $(FFI_BUILD)/header_c99_so $(FFI_BUILD)/header_cpp $(FFI_BUILD)/alloc_fail \
	  $(FFI_BUILD)/env_threads

# Every step runs even if an earlier one fails; run.sh prints the total line.
ffi-test: ffi-build
	$(FFI_DIR)/run.sh \
	  "header+exports" "$(FFI_DIR)/check_header_and_exports.sh include/rotsprite_math.h $(LIB_SO)" \
	  "header C99" "$(FFI_BUILD)/header_c99 && echo '1 passed, 0 failed'" \
	  "header C99, libre2d.so" "$(FFI_BUILD)/header_c99_so && echo '1 passed, 0 failed'" \
	  "header C++" "$(FFI_BUILD)/header_cpp" \
	  "ffi_tests" "$(FFI_BUILD)/ffi_tests" \
	  "golden" "$(FFI_BUILD)/golden_test $(FFI_BUILD)/golden $(GOLDEN_DIR)" \
	  "RE2D_THREADS" "$(FFI_BUILD)/env_threads" \
	  "allocation failure" "RUST_BACKTRACE=0 $(FFI_BUILD)/alloc_fail"

# A workspace member outside default-members (bindgen needs libclang), in the same target dir.
# `--workspace --test layout`, not `-p`: features resolved over the whole workspace are those
# of cargo-test, so the core built for the tests is reused (with `-p` alone, indexmap's
# hashbrown loses features that other members turn on, and the core would be rebuilt).
layout-test:
	$(CARGO) test --workspace --test layout

test-valgrind: release
	$(MAKE) --no-print-directory $(FFI_BUILD)/ffi_tests_plain
	valgrind --quiet --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
	  --trace-children=yes --child-silent-after-fork=no $(FFI_BUILD)/ffi_tests_plain
