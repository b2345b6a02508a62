# make install / make uninstall (top Makefile) checked end to end (issue 9 item 6).
#
#   make install-test   install into a fresh PREFIX, run re2d and re2d-qjs from there, build and run
#                       a C program with pkg-config --static (and one against libre2d.so), uninstall
#
# The file name sorts after js.mk, so `make test` runs install-test right after js-test, while
# re2d-qjs (feature js) is still built: each switch between the js and non-js builds of the
# library recompiles it.

TEST_TARGETS += install-test

.PHONY: install-test

install-test:
	bash tests/install/run.sh
