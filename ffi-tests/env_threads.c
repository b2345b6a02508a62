/* re2d ffi-tests: RE2D_THREADS (re2d.h) is read once, at the first query or render, and a set call made before wins.
 *
 *   env_threads              runs every scenario in a child process with its own environment
 *   env_threads child WANT [set N]   (internal) checks re2d_render_threads() == WANT
 *                                    ("all": 1..RE2D_MAX_RENDER_THREADS) */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "re2d.h"

static int child(int argc, char **argv) {
    int got, ok;
    if (argc >= 5 && strcmp(argv[3], "set") == 0 && !re2d_set_render_threads(atoi(argv[4]))) return 3;
    got = re2d_render_threads();
    if (strcmp(argv[2], "all") == 0) ok = got >= 1 && got <= RE2D_MAX_RENDER_THREADS;
    else ok = got == atoi(argv[2]);
    /* read once: changing the variable later has no effect */
    setenv("RE2D_THREADS", "5", 1);
    ok = ok && re2d_render_threads() == got;
    if (!ok) fprintf(stderr, "RE2D_THREADS=%s: got %d, want %s\n", getenv("RE2D_THREADS"), got, argv[2]);
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    static const char *const cases[][4] = {
        /* RE2D_THREADS, want, set, N */
        {NULL, "1", NULL, NULL},   {"3", "3", NULL, NULL},   {"64", "64", NULL, NULL},
        {"0", "all", NULL, NULL},  {"65", "1", NULL, NULL},  {"-2", "1", NULL, NULL},
        {"abc", "1", NULL, NULL},  {"", "1", NULL, NULL},    {"3", "2", "set", "2"},
    };
    int i, pass = 0, fail = 0;
    if (argc >= 3 && strcmp(argv[1], "child") == 0) return child(argc, argv);
    for (i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
        const char *const *c = cases[i];
        char *args[6];
        int st = -1;
        pid_t pid = fork();
        if (pid == 0) {
            if (c[0]) setenv("RE2D_THREADS", c[0], 1);
            else unsetenv("RE2D_THREADS");
            args[0] = argv[0];
            args[1] = (char *)"child";
            args[2] = (char *)c[1];
            args[3] = (char *)c[2];
            args[4] = (char *)c[3];
            args[5] = NULL;
            execv(argv[0], args);
            _exit(4);
        }
        if (pid > 0) waitpid(pid, &st, 0);
        if (pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
            pass++;
            printf("ok   RE2D_THREADS=%s%s%s -> %s\n", c[0] ? c[0] : "(unset)", c[2] ? ", set " : "",
                   c[2] ? c[3] : "", c[1]);
        } else {
            fail++;
            printf("FAIL RE2D_THREADS=%s -> want %s (status %d)\n", c[0] ? c[0] : "(unset)", c[1], st);
        }
    }
    printf("%d passed, %d failed\n", pass, fail);
    return fail ? 1 : 0;
}
