/* re2d ffi-tests: test groups of the ffi_tests binary (one per spec file). */
#ifndef FFI_TESTS_TESTS_H
#define FFI_TESTS_TESTS_H
void abi_tests(void);
void v1_tests(void);
void atlas_tests(void);
void render_tests(void);
void thread_tests(void);
#endif
