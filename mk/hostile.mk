# re2d hostile-input harness (issue 20 item 8); included by the top Makefile.
#
#   make hostile-test   every `re2d` command (and `re2d-qjs` over tests/hostile/qjs/*.js when
#                       present) over a sample of fuzz/corpus/* and over "valid but huge" inputs
#                       generated into target/hostile/in (examples/hostile_inputs.rs), each under
#                       `prlimit --as=2147483648 --cpu=20`: every run exits 0-3, not by a
#                       signal, with one stderr line on refusal (tests/hostile/run.py). Then the
#                       negative control: a run known to abort under the cap (a limit raised past
#                       what 2 GiB holds) must be flagged by the same check.

TEST_TARGETS += hostile-test

.PHONY: hostile-test

hostile-test: release
	python3 tests/hostile/run.py
	python3 tests/hostile/run.py --control
