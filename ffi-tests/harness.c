/* re2d ffi-tests: implementation of the tiny test harness declared in harness.h. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static int n_passed, n_failed, n_skipped;
static int cur_failures, cur_skipped;
static int n_filters;
static char **filters;

void h_init(int argc, char **argv) {
    n_filters = argc - 1;
    filters = argv + 1;
}

void h_fail(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    cur_failures++;
    if (cur_failures > 12) return;
    fprintf(stdout, "    FAIL %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    fflush(stdout);
}

void h_skip(const char *why) {
    cur_skipped = 1;
    fprintf(stdout, "    skip: %s\n", why);
    fflush(stdout);
}

static int selected(const char *name) {
    int i;
    if (n_filters == 0) return 1;
    for (i = 0; i < n_filters; i++)
        if (strstr(name, filters[i]) != NULL) return 1;
    return 0;
}

void h_run(const char *name, h_test_fn fn) {
    pid_t pid;
    int status = 0;
    if (!selected(name)) return;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        perror("fork");
        n_failed++;
        return;
    }
    if (pid == 0) {
        cur_failures = 0;
        cur_skipped = 0;
        fn();
        fflush(stdout);
        /* 0 pass, 1 fail, 2 skip; exit() (not _exit) so leak checkers run per test */
        exit(cur_failures ? 1 : (cur_skipped ? 2 : 0));
    }
    while (waitpid(pid, &status, 0) < 0) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        n_passed++;
        printf("ok   %s\n", name);
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 2) {
        n_skipped++;
        printf("SKIP %s\n", name);
    } else {
        n_failed++;
        if (WIFSIGNALED(status))
            printf("FAIL %s (crashed, signal %d)\n", name, WTERMSIG(status));
        else
            printf("FAIL %s (exit %d)\n", name, WEXITSTATUS(status));
    }
    fflush(stdout);
}

void h_run_inline(const char *name, h_test_fn fn) {
    if (!selected(name)) return;
    cur_failures = 0;
    cur_skipped = 0;
    fn();
    if (cur_failures) {
        n_failed++;
        printf("FAIL %s\n", name);
    } else if (cur_skipped) {
        n_skipped++;
        printf("SKIP %s\n", name);
    } else {
        n_passed++;
        printf("ok   %s\n", name);
    }
    fflush(stdout);
}

int h_summary(void) {
    if (n_skipped)
        printf("%d passed, %d failed, %d skipped\n", n_passed, n_failed, n_skipped);
    else
        printf("%d passed, %d failed\n", n_passed, n_failed);
    fflush(stdout);
    return (n_failed || n_passed == 0) ? 1 : 0;
}
