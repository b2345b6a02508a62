/* re2d make bench: wall time of the C-ABI paths of several libraries in one process, interleaved.
 *
 *   abi_bench DIR NAME=LIB.so [NAME=LIB.so [NAME=LIB.so]]
 *
 * DIR holds NAME.rgba / NAME.poses of examples/bench_atlases.rs. Each LIB.so exports the
 * functions of rotsprite_math.h: the baseline build first, this checkout's libre2d.so second,
 * optionally the existing C library third. Every
 * library is loaded with dlopen(RTLD_NOW | RTLD_LOCAL), so the same symbol names resolve per
 * handle. For every atlas and path the libraries take turns sample by sample (a, b, c, a, b,
 * c, ...), so a change of machine load hits them all; a cell is the median over the samples
 * in ms, and a ratio is the median of the per-round ratios of the second library ("this
 * build") to each other one (the baseline build, the C library).
 *
 * Paths: decode and decode_anime (the output freed after each call), v2_draw (128 px, 32 poses
 * and views in turn), anime 256 (v2_anime), anime 512 (v2_anime_workspace, one workspace reused).
 * The outputs of every library are compared byte for byte on every sample; a difference is
 * printed and makes the exit status 1. With re2d_set_render_threads exported, the anime 512
 * path is also timed on 2 threads (the 1/2-thread speed-up of that library).
 *
 * Prints markdown rows `| core | atlas | path | ms of each library | ratios to the first | bytes |`
 * (the header is the caller's, benches/bench.sh; `--header` prints one for a standalone run)
 * and, per atlas, a row of the 1/2-thread speed-up of anime 512 for each library that has
 * re2d_set_render_threads. Environment: BENCH_ROUNDS (samples per cell, default 7);
 * BENCH_ATLAS, BENCH_PATH (only the atlases / paths whose name contains this text: to rerun a
 * row that looks off, or to profile one path). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rotsprite_math.h"

typedef bool DecodeFn(const uint8_t *, int, int, int, R2DRotAtlas *);
typedef void FreeFn(R2DRotAtlas *);
typedef bool RenderFn(const R2DRotAtlas *, double, double, int, int, const R2DRotRig *, uint8_t *);
typedef bool WsFn(const R2DRotAtlas *, double, double, int, int, const R2DRotRig *, uint8_t *,
                  R2DRotAnimeWorkspace *);
typedef void WsFreeFn(R2DRotAnimeWorkspace *);
typedef bool ThreadsFn(int);

#define MAX_LIBS 4
typedef struct Lib {
    const char *name;
    DecodeFn *decode, *decode_anime;
    FreeFn *free_points;
    RenderFn *draw, *anime;
    WsFn *anime_ws;
    WsFreeFn *ws_free;
    ThreadsFn *threads; /* re2d only; NULL for the C library */
    R2DRotAtlas pts, smooth;
    R2DRotAnimeWorkspace ws;
} Lib;

static Lib libs[MAX_LIBS];
static int nlibs;
static int mismatches;

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void *sym(void *h, const char *lib, const char *name, bool required) {
    void *p = dlsym(h, name);
    if (!p && required) {
        fprintf(stderr, "abi_bench: %s has no %s\n", lib, name);
        exit(2);
    }
    return p;
}

static void *read_file(const char *dir, const char *name, const char *ext, size_t *len) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "abi_bench: cannot open %s\n", path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    void *b = malloc(*len);
    if (!b || fread(b, 1, *len, f) != *len) {
        fprintf(stderr, "abi_bench: cannot read %s\n", path);
        exit(2);
    }
    fclose(f);
    return b;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

enum { P_DECODE, P_DECODE_ANIME, P_DRAW, P_ANIME256, P_ANIME512, P_ANIME512_2T, NPATHS };
static const char *path_names[NPATHS] = {"decode", "decode_anime", "v2_draw 128", "anime 256",
                                         "anime 512 (workspace)", "anime 512, 2 threads"};
/* Frames per sample of the render paths (one call each). */
static const int frames_of[NPATHS] = {1, 1, 32, 8, 4, 4};

typedef struct Ctx {
    const uint8_t *rgba;
    int side;
    const R2DRotModelPose *poses; /* 32 */
    const char *atlas;
} Ctx;

static uint64_t fnv(const uint8_t *p, size_t n) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* One sample of a path on one library: ms per call, and a hash of what it produced. */
static double sample(Lib *l, int path, const Ctx *c, int round, uint64_t *hash) {
    static uint8_t out[512 * 512 * 4];
    double t0, t1;
    uint64_t h = 0;
    R2DRotAtlas a = {0};
    switch (path) {
    case P_DECODE:
    case P_DECODE_ANIME: {
        DecodeFn *f = path == P_DECODE ? l->decode : l->decode_anime;
        t0 = now_ms();
        bool ok = f(c->rgba, c->side, c->side, 4 * c->side, &a);
        t1 = now_ms();
        if (!ok) {
            fprintf(stderr, "abi_bench: %s %s failed on %s\n", l->name, path_names[path], c->atlas);
            exit(2);
        }
        h = fnv((const uint8_t *)a.points, (size_t)a.count * sizeof(R2DRotPoint));
        l->free_points(&a);
        *hash = h;
        return t1 - t0;
    }
    default:
        break;
    }
    int n = frames_of[path];
    int size = path == P_DRAW ? 128 : path == P_ANIME256 ? 256 : 512;
    double total = 0;
    for (int i = 0; i < n; i++) {
        int k = (round * n + i) % 32;
        R2DRotRig rig = {0};
        rig.model = &c->poses[k];
        double yaw = -90.0 + 180.0 * (double)((round * n + i) % 64) / 64.0;
        bool ok;
        t0 = now_ms();
        switch (path) {
        case P_DRAW:
            ok = l->draw(&l->pts, yaw, 8.0, 0, 0, &rig, out);
            break;
        case P_ANIME256:
            ok = l->anime(&l->smooth, yaw, 8.0, 0, 0, &rig, out);
            break;
        default:
            ok = l->anime_ws(&l->smooth, yaw, 8.0, 0, 0, &rig, out, &l->ws);
            break;
        }
        t1 = now_ms();
        if (!ok) {
            fprintf(stderr, "abi_bench: %s %s failed on %s\n", l->name, path_names[path], c->atlas);
            exit(2);
        }
        total += t1 - t0;
        h = h * 31 + fnv(out, (size_t)size * size * 4);
    }
    *hash = h;
    return total / n;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: abi_bench DIR [--header] BASE=LIB.so THIS=LIB.so [C=LIB.so]\n");
        return 2;
    }
    const char *dir = argv[1];
    bool header = false;
    for (int i = 2; i < argc && nlibs < MAX_LIBS; i++) {
        if (!strcmp(argv[i], "--header")) {
            header = true;
            continue;
        }
        char *eq = strchr(argv[i], '=');
        if (!eq) {
            fprintf(stderr, "abi_bench: expected NAME=LIB.so, got %s\n", argv[i]);
            return 2;
        }
        *eq = 0;
        const char *path = eq + 1;
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            fprintf(stderr, "abi_bench: %s\n", dlerror());
            return 2;
        }
        Lib *l = &libs[nlibs++];
        l->name = argv[i];
        l->decode = (DecodeFn *)sym(h, path, "r2d_rotsprite_v2_decode", true);
        l->decode_anime = (DecodeFn *)sym(h, path, "r2d_rotsprite_v2_decode_anime", true);
        l->free_points = (FreeFn *)sym(h, path, "r2d_rotsprite_v2_free", true);
        l->draw = (RenderFn *)sym(h, path, "r2d_rotsprite_v2_draw", true);
        l->anime = (RenderFn *)sym(h, path, "r2d_rotsprite_v2_anime", true);
        l->anime_ws = (WsFn *)sym(h, path, "r2d_rotsprite_v2_anime_workspace", true);
        l->ws_free = (WsFreeFn *)sym(h, path, "r2d_rotsprite_anime_workspace_free", true);
        l->threads = (ThreadsFn *)sym(h, path, "re2d_set_render_threads", false);
        if (l->threads) l->threads(1);
    }
    if (nlibs < 2) {
        fprintf(stderr, "abi_bench: needs the baseline and this build's library\n");
        return 2;
    }
    int rounds = getenv("BENCH_ROUNDS") ? atoi(getenv("BENCH_ROUNDS")) : 7;
    if (rounds < 1 || rounds > 1000) rounds = 7;
    static const char *atlases[] = {"animal-1024", "animal-2048", "prop-1024", "prop-2048",
                                    "dense-2048"};
    if (header) {
        printf("| area | atlas | path |");
        for (int j = 0; j < nlibs; j++) printf(" %s ms |", libs[j].name);
        for (int j = 0; j < nlibs; j++)
            if (j != 1) printf(" %s / %s |", libs[1].name, libs[j].name);
        printf(" bytes |\n|---|---|---|");
        for (int j = 0; j < 2 * nlibs - 1; j++) printf("---|");
        printf("---|\n");
    }
    const char *only_atlas = getenv("BENCH_ATLAS"), *only_path = getenv("BENCH_PATH");
    for (size_t ai = 0; ai < sizeof atlases / sizeof *atlases; ai++) {
        Ctx c = {.atlas = atlases[ai]};
        if (only_atlas && !strstr(c.atlas, only_atlas)) continue;
        size_t len, plen;
        c.rgba = read_file(dir, c.atlas, "rgba", &len);
        c.poses = read_file(dir, c.atlas, "poses", &plen);
        c.side = 1;
        while ((size_t)c.side * c.side * 4 < len) c.side *= 2;
        if ((size_t)c.side * c.side * 4 != len || plen != 32 * sizeof(R2DRotModelPose)) {
            fprintf(stderr, "abi_bench: %s: unexpected sizes\n", c.atlas);
            return 2;
        }
        for (int j = 0; j < nlibs; j++) {
            Lib *l = &libs[j];
            if (!l->decode(c.rgba, c.side, c.side, 4 * c.side, &l->pts) ||
                !l->decode_anime(c.rgba, c.side, c.side, 4 * c.side, &l->smooth)) {
                fprintf(stderr, "abi_bench: %s cannot decode %s\n", l->name, c.atlas);
                return 2;
            }
            memset(&l->ws, 0, sizeof l->ws);
        }
        double one_thread[MAX_LIBS] = {0}, two_threads[MAX_LIBS] = {0};
        for (int path = 0; path < NPATHS; path++) {
            if (only_path && !strstr(path_names[path], only_path)) continue;
            bool two = path == P_ANIME512_2T;
            if (two) {
                bool any = false;
                for (int j = 0; j < nlibs; j++) any |= libs[j].threads != NULL;
                if (!any) continue;
            }
            double t[MAX_LIBS][1000], r[MAX_LIBS][1000];
            bool same = true;
            for (int round = -1; round < rounds; round++) { /* round -1 warms up */
                uint64_t hash[MAX_LIBS];
                for (int j = 0; j < nlibs; j++) {
                    Lib *l = &libs[j];
                    if (l->threads) l->threads(two ? 2 : 1);
                    double ms = sample(l, path, &c, round < 0 ? 0 : round, &hash[j]);
                    if (l->threads) l->threads(1);
                    if (round >= 0) t[j][round] = ms;
                }
                for (int j = 1; j < nlibs; j++) same &= hash[j] == hash[0];
                if (round >= 0)
                    for (int j = 0; j < nlibs; j++) r[j][round] = t[1][round] / t[j][round];
            }
            if (!same) mismatches++;
            for (int j = 0; j < nlibs; j++) {
                if (path == P_ANIME512) one_thread[j] = median(t[j], rounds);
                if (two) two_threads[j] = median(t[j], rounds);
            }
            printf("| core | %s | %s |", c.atlas, path_names[path]);
            for (int j = 0; j < nlibs; j++) printf(" %.3f |", median(t[j], rounds));
            for (int j = 0; j < nlibs; j++)
                if (j != 1) printf(" %.2f |", median(r[j], rounds));
            printf(" %s |\n", same ? "identical" : "**DIFFER**");
            fflush(stdout);
        }
        if (two_threads[0] > 0 || two_threads[nlibs - 1] > 0) {
            printf("| core | %s | anime 512: 1 → 2 threads speed-up |", c.atlas);
            for (int j = 0; j < nlibs; j++) {
                if (libs[j].threads && two_threads[j] > 0)
                    printf(" %.2f× |", one_thread[j] / two_threads[j]);
                else
                    printf(" — |");
            }
            for (int j = 1; j < nlibs; j++) printf(" |");
            printf(" |\n");
        }
        for (int j = 0; j < nlibs; j++) {
            libs[j].free_points(&libs[j].pts);
            libs[j].free_points(&libs[j].smooth);
            libs[j].ws_free(&libs[j].ws);
        }
        free((void *)c.rgba);
        free((void *)c.poses);
    }
    if (mismatches) fprintf(stderr, "abi_bench: %d cells with different bytes\n", mismatches);
    return mismatches ? 1 : 0;
}
