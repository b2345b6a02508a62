/* re2d ffi-tests: entry point of the C ABI test binary (optional args filter test names). */
#include "harness.h"
#include "tests.h"

int main(int argc, char **argv) {
    h_init(argc, argv);
    abi_tests();
    v1_tests();
    atlas_tests();
    render_tests();
    thread_tests();
    return h_summary();
}
