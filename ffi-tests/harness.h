/* re2d ffi-tests: our own tiny test harness (fork per test, "N passed, N failed" summary). */
#ifndef FFI_TESTS_HARNESS_H
#define FFI_TESTS_HARNESS_H

typedef void (*h_test_fn)(void);

/* Runs one test in a child process (a crash fails only that test). */
void h_run(const char *name, h_test_fn fn);
/* Runs one test in this process (for tests that share state, e.g. a workspace). */
void h_run_inline(const char *name, h_test_fn fn);
/* Records a failed check of the current test (prints at most 12 per test). */
void h_fail(const char *file, int line, const char *fmt, ...);
/* Marks the current test as skipped (it neither passes nor fails). */
void h_skip(const char *why);
/* Prints "N passed, N failed[, N skipped]" as the last line; returns exit status. */
int h_summary(void);
/* Parses argv: optional substring filters for test names. */
void h_init(int argc, char **argv);

#define RUN(fn) h_run(#fn, fn)
#define CHECK(c) ((c) ? (void)0 : h_fail(__FILE__, __LINE__, "%s", #c))
#define CHECKF(c, ...) ((c) ? (void)0 : h_fail(__FILE__, __LINE__, __VA_ARGS__))

#endif
