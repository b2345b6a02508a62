# re2d hostile-input harness (issue 20 item 8); included by the top Makefile.
#
#   make hostile-test   every `re2d` command (and `re2d-qjs` over tests/hostile/qjs/*.js when
#                       present) over a sample of fuzz/corpus/* and over "valid but huge" inputs
#                       generated into target/hostile/in (testkit/examples/hostile_inputs.rs), each under
#                       `prlimit --as=2147483648 --cpu=20`: every run exits 0-3, not by a
#                       signal, with one stderr line on refusal (tests/hostile/run.py); the
#                       `r29-*` cases (issue 29, one or more per row of its table) also check
#                       their code, that nothing was written and no temporary folder is left,
#                       and a peak-RSS or CPU bound where the row is about cost. Before/after:
#                       `tests/hostile/run.py --bin OLD/target/release --gen
#                       target/release/examples/hostile_inputs --only r29` runs them on an
#                       older build (each failed on the main of issue 29's day). Then the
#                       negative control: a run known to abort under the cap (a limit raised past
#                       what 2 GiB holds) must be flagged by the same check.

TEST_TARGETS += hostile-test

.PHONY: hostile-test

hostile-test: release
	python3 tests/hostile/run.py
	python3 tests/hostile/run.py --control
