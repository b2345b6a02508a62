# make install / make uninstall (top Makefile) checked end to end (issue 9 item 6).
#
#   make install-test   install into a fresh PREFIX, run re2d and re2d-qjs from there, build and run
#                       a C program with pkg-config --static (and one against libre2d.so), uninstall

TEST_TARGETS += install-test

.PHONY: install-test

install-test:
	bash tests/install/run.sh
