/* re2d ffi-tests: allocation failure returns false, leaves outputs as specified, leaks nothing (c-abi.md §3.5, §3.10, §3.14, §4). */
/* Built without sanitizers: this program replaces malloc/calloc/realloc/free
   (forwarding to glibc's __libc_* functions) to make chosen allocations fail. */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "util.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

/* Policy: when armed, the `fail_nth`-th allocation (1-based) of at least
   `fail_min` bytes returns NULL (fail_nth = 0: every such allocation). */
static int armed;
static size_t fail_min;
static long fail_nth, seen;
static long long live_bytes;

static int should_fail(size_t n) {
    if (!armed || n < fail_min) return 0;
    seen++;
    return fail_nth == 0 || seen == fail_nth;
}

static void *track(void *p) {
    if (p) live_bytes += (long long)malloc_usable_size(p);
    return p;
}

void *malloc(size_t n) {
    return should_fail(n) ? NULL : track(__libc_malloc(n));
}

void *calloc(size_t a, size_t b) {
    return should_fail(a * b) ? NULL : track(__libc_calloc(a, b));
}

void free(void *p) {
    if (p) live_bytes -= (long long)malloc_usable_size(p);
    __libc_free(p);
}

void *realloc(void *p, size_t n) {
    size_t old = p ? malloc_usable_size(p) : 0;
    void *q;
    if (should_fail(n)) return NULL;
    q = __libc_realloc(p, n);
    if (q || n == 0) live_bytes -= (long long)old;
    return track(q);
}

void *memalign(size_t al, size_t n) {
    return should_fail(n) ? NULL : track(__libc_memalign(al, n));
}

int posix_memalign(void **out, size_t al, size_t n) {
    void *p;
    if (should_fail(n)) return 12; /* ENOMEM */
    p = track(__libc_memalign(al, n));
    if (!p) return 12;
    *out = p;
    return 0;
}

void *aligned_alloc(size_t al, size_t n) {
    return should_fail(n) ? NULL : track(__libc_memalign(al, n));
}

static void arm(size_t min, long nth) {
    fail_min = min;
    fail_nth = nth;
    seen = 0;
    armed = 1;
}

static void disarm(void) {
    armed = 0;
}

static V2Atlas small_atlas(void) {
    V2Atlas a = v2_new(1024, 4096);
    int mx;
    v2_header(&a, 1, 0);
    for (mx = 10; mx < 30; mx++) v2_simple_cell(&a, mx, 7, 6, (uint8_t)(100 + mx), 128, 128, 50, 60, 70);
    return a;
}

/* Decode: the 9 437 184-byte block cannot be allocated -> false, *out untouched. */
static void test_decode_alloc_failure(void) {
    V2Atlas a = small_atlas();
    R2DRotAtlas keep = {NULL, 0}, before;
    long long base;
    CHECK(r2d_rotsprite_v2_decode(a.buf, 1024, 1024, 4096, &keep));
    before = keep;
    base = live_bytes;
    arm(9437184, 0);
    CHECK(!r2d_rotsprite_v2_decode(a.buf, 1024, 1024, 4096, &keep));
    disarm();
    CHECK(keep.points == before.points && keep.count == before.count);
    CHECKF(live_bytes == base, "decode leaked %lld bytes on allocation failure", live_bytes - base);
    r2d_rotsprite_v2_free(&keep);
    v2_free(&a);
}

/* decode_anime: any one of its allocations of >= 1 KiB failing -> false,
   *out untouched, temporaries released, never an abort. */
static void test_decode_anime_alloc_failure(void) {
    V2Atlas a = small_atlas();
    R2DRotAtlas keep = {NULL, 0}, before;
    long nth;
    CHECK(r2d_rotsprite_v2_decode_anime(a.buf, 1024, 1024, 4096, &keep));
    before = keep;
    for (nth = 1; nth <= 6; nth++) {
        long long base = live_bytes;
        bool ok;
        arm(1024, nth);
        ok = r2d_rotsprite_v2_decode_anime(a.buf, 1024, 1024, 4096, &keep);
        disarm();
        if (seen < nth) {
            /* fewer than nth allocations: the call must simply have succeeded */
            CHECKF(ok, "nth %ld: false without an allocation failure", nth);
            if (ok) {
                r2d_rotsprite_v2_free(&keep);
                keep = before;
            }
            break;
        }
        CHECKF(!ok, "decode_anime returned true although allocation %ld failed", nth);
        CHECK(keep.points == before.points && keep.count == before.count);
        CHECKF(live_bytes == base, "nth %ld: leaked %lld bytes", nth, live_bytes - base);
    }
    r2d_rotsprite_v2_free(&keep);
    v2_free(&a);
}

/* anime_sized: a failing workspace allocation frees the workspace, leaves it
   zeroed and returns false with `out` untouched (c-abi.md §3.14 step 5). */
static void test_workspace_alloc_failure(void) {
    R2DRotPoint pts[7];
    R2DRotAtlas a;
    R2DRotAnimeWorkspace ws, zero;
    Canary c = canary_new(262144, 0x5E);
    static uint8_t big[1048576];
    long nth;
    scene_a_points(pts);
    a.points = pts;
    a.count = 7;
    memset(&zero, 0, sizeof zero);
    for (nth = 1; nth <= 5; nth++) {
        long long base;
        bool ok;
        memset(&ws, 0, sizeof ws);
        CHECK(r2d_rotsprite_v2_anime_sized(&a, 30, 10, 0, 0, NULL, big, &ws, 512)); /* live 512 buffers */
        base = live_bytes;
        /* size change to 256: frees the 512 buffers, then allocates 1 MiB x3 and 256 KiB x2 */
        arm(256 * 1024, nth);
        ok = r2d_rotsprite_v2_anime_sized(&a, 30, 10, 0, 0, NULL, c.p, &ws, 256);
        disarm();
        CHECKF(!ok, "nth %ld: returned true although an allocation failed", nth);
        CHECKF(memcmp(&ws, &zero, sizeof ws) == 0, "nth %ld: workspace not zeroed", nth);
        CHECKF(payload_is(&c, 0x5E) && canary_ok(&c), "nth %ld: out modified", nth);
        CHECKF(live_bytes < base - 4 * 1024 * 1024, "nth %ld: 512 buffers not released", nth);
        r2d_rotsprite_anime_workspace_free(&ws);
    }
    {
        /* r2d_rotsprite_v2_anime with no memory: false, out untouched */
        bool ok;
        long long base = live_bytes;
        arm(256 * 1024, 0);
        ok = r2d_rotsprite_v2_anime(&a, 30, 10, 0, 0, NULL, c.p);
        disarm();
        CHECK(!ok);
        CHECK(payload_is(&c, 0x5E) && canary_ok(&c));
        CHECKF(live_bytes == base, "anime leaked %lld bytes", live_bytes - base);
    }
    canary_free(&c);
}

/* Internal temporaries (draw depth buffers, projection tables) may use any
   allocator, but an allocation failure never aborts (c-abi.md §4): the call
   either completes correctly or returns false with `out` untouched. */
static void renderers_never_abort(int which) {
    R2DRotPoint pts[7];
    R2DRotAtlas a;
    R2DRotAnimeWorkspace ws;
    Canary c = canary_new(262144, 0x5E);
    static uint8_t ref[262144];
    bool ok;
    scene_a_points(pts);
    a.points = pts;
    a.count = 7;
    memset(&ws, 0, sizeof ws);
    /* first draw call of this process with every allocation >= 1 KiB failing */
    if (which != 0) goto smooth;
    arm(1024, 0);
    ok = r2d_rotsprite_v2_draw(&a, 30, 10, 0, 0, NULL, c.p);
    disarm();
    if (ok) {
        CHECK(r2d_rotsprite_v2_draw(&a, 30, 10, 0, 0, NULL, ref));
        CHECK(memcmp(ref, c.p, 65536) == 0);
    } else {
        CHECK(payload_is(&c, 0x5E));
    }
    CHECK(canary_ok(&c));
    goto done;
smooth:
    /* smooth renderer with its workspace already allocated */
    memset(c.p, 0x5E, 262144);
    CHECK(r2d_rotsprite_v2_anime_workspace(&a, 30, 10, 0, 0, NULL, ref, &ws));
    arm(1024, 0);
    ok = r2d_rotsprite_v2_anime_workspace(&a, 30, 10, 0, 0, NULL, c.p, &ws);
    disarm();
    if (ok)
        CHECK(memcmp(ref, c.p, 262144) == 0);
    else
        CHECK(payload_is(&c, 0x5E));
    CHECK(canary_ok(&c));
done:
    r2d_rotsprite_anime_workspace_free(&ws);
    canary_free(&c);
}

static void test_draw_alloc_failure_never_aborts(void) {
    renderers_never_abort(0);
}

static void test_anime_alloc_failure_never_aborts(void) {
    renderers_never_abort(1);
}

int main(int argc, char **argv) {
    h_init(argc, argv);
    RUN(test_decode_alloc_failure);
    RUN(test_decode_anime_alloc_failure);
    RUN(test_workspace_alloc_failure);
    RUN(test_draw_alloc_failure_never_aborts);
    RUN(test_anime_alloc_failure_never_aborts);
    return h_summary();
}
