/* re2d ffi-tests: v2 header, decode, decode_anime, free (rotsprite-atlas.md + c-abi.md §3.4-3.6, §3.10). */
#define _DEFAULT_SOURCE
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "harness.h"
#include "tests.h"
#include "util.h"

#define B4(a, b, c, d) ((const uint8_t[4]){(a), (b), (c), (d)})
#define CAP 49152

#if defined(__SANITIZE_ADDRESS__)
#define EXACT_USABLE_SIZE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EXACT_USABLE_SIZE 1
#endif
#endif

static R2DRotPoint zpoint(float x, float y, float z, uint8_t part) {
    R2DRotPoint p;
    memset(&p, 0, sizeof p);
    p.x = x;
    p.y = y;
    p.z = z;
    p.part = part;
    p.group = part;
    return p;
}

static void set4(uint8_t d[4], const uint8_t s[4]) {
    memcpy(d, s, 4);
}

static int point_eq(const R2DRotPoint *got, const R2DRotPoint *want, const char *what) {
    if (memcmp(got, want, sizeof *got) == 0) return 1;
    {
        const uint8_t *g = (const uint8_t *)got, *w = (const uint8_t *)want;
        int i;
        for (i = 0; i < 192; i++)
            if (g[i] != w[i]) {
                h_fail(__FILE__, __LINE__,
                       "%s: first differing byte %d: got %d want %d (got x,y,z %.9g,%.9g,%.9g rgba %d,%d,%d,%d "
                       "want x,y,z %.9g,%.9g,%.9g rgba %d,%d,%d,%d)",
                       what, i, g[i], w[i], got->x, got->y, got->z, got->rgba[0], got->rgba[1], got->rgba[2],
                       got->rgba[3], want->x, want->y, want->z, want->rgba[0], want->rgba[1], want->rgba[2],
                       want->rgba[3]);
                break;
            }
    }
    return 0;
}

/* ---- header ---------------------------------------------------------- */

static void test_header_sizes_and_args(void) {
    V2Atlas a = v2_new(1024, 4096);
    v2_header(&a, 0, 0);
    CHECK(r2d_rotsprite_v2_header(a.buf, 1024, 1024, 4096));
    CHECK(!r2d_rotsprite_v2_header(NULL, 1024, 1024, 4096));
    CHECK(!r2d_rotsprite_v2_header(a.buf, 1024, 2048, 4096));
    CHECK(!r2d_rotsprite_v2_header(a.buf, 1024, 1023, 4096));
    CHECK(!r2d_rotsprite_v2_header(a.buf, 512, 512, 4096));
    CHECK(!r2d_rotsprite_v2_header(a.buf, 1023, 1023, 4096));
    CHECK(!r2d_rotsprite_v2_header(a.buf, 1025, 1025, 4100));
    CHECK(!r2d_rotsprite_v2_header(a.buf, 1536, 1536, 6144));
    CHECK(!r2d_rotsprite_v2_header(a.buf, 5120, 5120, 20480));
    CHECK(!r2d_rotsprite_v2_header(a.buf, 8192, 8192, 32768));
    CHECK(!r2d_rotsprite_v2_header(a.buf, 0, 0, 4096));
    CHECK(!r2d_rotsprite_v2_header(a.buf, -1024, -1024, 4096));
    CHECK(!r2d_rotsprite_v2_header(a.buf, 1024, 1024, 4095));
    CHECK(!r2d_rotsprite_v2_header(a.buf, 1024, 1024, 1));
    CHECK(!r2d_rotsprite_v2_header(a.buf, 1024, 1024, -4096));
    CHECK(!r2d_rotsprite_v2_header(a.buf, 2147483647, 2147483647, 2147483647));
    CHECK(!r2d_rotsprite_v2_header(a.buf, -2147483647 - 1, -2147483647 - 1, 4096));
    CHECK(!r2d_rotsprite_v2_header(a.buf, 1024, 1024, -2147483647 - 1));
    {
        R2DRotAtlas o = {NULL, 0};
        CHECK(!r2d_rotsprite_v2_decode(a.buf, 2147483647, 2147483647, 2147483647, &o));
        CHECK(!r2d_rotsprite_v2_decode_anime(a.buf, -2147483647 - 1, -2147483647 - 1, 4096, &o));
        CHECK(o.points == NULL && o.count == 0);
    }
    v2_free(&a);
    {
        int w;
        for (w = 2048; w <= 4096; w += 1024) {
            V2Atlas b = v2_new(w, 4 * w);
            CHECKF(!r2d_rotsprite_v2_header(b.buf, w, w, 4 * w), "w %d: blank atlas accepted", w);
            v2_header(&b, 0, 0);
            CHECKF(r2d_rotsprite_v2_header(b.buf, w, w, 4 * w), "w %d: header rejected", w);
            v2_free(&b);
        }
    }
}

static void test_header_texel_bytes(void) {
    static const uint8_t want[3][3] = {{82, 50, 68}, {82, 79, 84}, {2, 4, 4}};
    V2Atlas a = v2_new(1024, 4096);
    int t, c;
    v2_header(&a, 0, 0);
    for (t = 0; t < 3; t++)
        for (c = 0; c < 3; c++) {
            uint8_t *q = a.buf + 960 * 4096 + 4 * t + c;
            *q = (uint8_t)(want[t][c] + 1);
            CHECKF(!r2d_rotsprite_v2_header(a.buf, 1024, 1024, 4096), "texel %d channel %d wrong but accepted", t, c);
            *q = want[t][c];
        }
    /* alpha of the three header texels is ignored */
    a.buf[960 * 4096 + 3] = 0;
    a.buf[960 * 4096 + 7] = 17;
    a.buf[960 * 4096 + 11] = 254;
    CHECK(r2d_rotsprite_v2_header(a.buf, 1024, 1024, 4096));
    /* header texels at working row 960 only; stride padding does not matter */
    v2_free(&a);
    a = v2_new(1024, 4100);
    v2_header(&a, 0, 0);
    CHECK(r2d_rotsprite_v2_header(a.buf, 1024, 1024, 4100));
    v2_free(&a);
}

/* Header texels are read at physical columns 0, k, 2k of row 960k only. */
static void test_header_reads_block_top_left(void) {
    int k;
    for (k = 2; k <= 4; k++) {
        int w = 1024 * k, x, y, t;
        V2Atlas a = v2_new(w, 4 * w);
        static const uint8_t want[3][3] = {{82, 50, 68}, {82, 79, 84}, {2, 4, 4}};
        for (t = 0; t < 3; t++) v2_pixel(&a, t * k, 960 * k, want[t][0], want[t][1], want[t][2], 255);
        CHECKF(r2d_rotsprite_v2_header(a.buf, w, w, 4 * w), "k %d: top-left pixels only rejected", k);
        for (t = 0; t < 3; t++)
            for (y = 0; y < k; y++)
                for (x = 0; x < k; x++)
                    if (x || y) v2_pixel(&a, t * k + x, 960 * k + y, 9, 9, 9, 9);
        CHECKF(r2d_rotsprite_v2_header(a.buf, w, w, 4 * w), "k %d: other block pixels changed result", k);
        v2_pixel(&a, 1, 960 * k, 82, 79, 84, 255); /* physical column 1 is not a header texel for k > 1 */
        v2_pixel(&a, k, 960 * k, 1, 1, 1, 255);
        CHECKF(!r2d_rotsprite_v2_header(a.buf, w, w, 4 * w), "k %d: texel (k, 960k) not checked", k);
        v2_free(&a);
    }
}

/* ---- decode: worked examples §7.9 ------------------------------------ */

static void build_79(V2Atlas *a, int sub) {
    int dx, dy;
    v2_header(a, sub, 0);
    /* Cell (10, 5), part 1, checkerboard */
    v2_cell(a, 10, 5, B4(1, 0, 0, 255), B4(132, 0, 0, 255), B4(255, 0, 0, 255), B4(136, 122, 0, 255));
    for (dy = 0; dy < 4; dy++)
        for (dx = 0; dx < 4; dx++) {
            uint8_t v = ((dx + dy) % 2 == 0) ? 200 : 100;
            v2_texel(a, 40 + dx, 20 + dy, v, v, v, 255);
        }
    /* Cell (11, 5), part 3 */
    v2_cell(a, 11, 5, B4(3, 0, 0, 255), B4(125, 100, 0, 255), B4(255, 0, 0, 255), B4(108, 138, 0x5A, 255));
    for (dy = 0; dy < 4; dy++)
        for (dx = 0; dx < 4; dx++) {
            if (dy < 2)
                v2_texel(a, 44 + dx, 20 + dy, 210, 120, 60, 255);
            else
                v2_texel(a, 44 + dx, 20 + dy, 190, 120, 60, 255);
        }
    v2_texel(a, 44, 20, 0, 0, 0, 255);
    v2_texel(a, 47, 23, 190, 120, 60, 0);
    /* Cell (60, 2), part 16 */
    v2_cell(a, 60, 2, B4(16, 0, 0, 255), B4(128, 0, 0, 255), B4(255, 0, 0, 255), B4(128, 128, 0, 255));
    v2_texel(a, 240, 8, 9, 9, 9, 255);
    v2_texel(a, 242, 9, 10, 20, 30, 255);
    v2_texel(a, 241, 10, 40, 50, 60, 255);
}

static void expected_79(R2DRotPoint e[3], int sub) {
    e[0] = zpoint(0, 0, 0, 16);
    set4(e[0].rgba, B4(10, 20, 30, 255));
    e[1] = zpoint(2, -3, 1, 1);
    set4(e[1].rgba, B4(200, 200, 200, 255));
    if (sub) {
        e[2] = zpoint(-4.921875f, 5.3125f, -0.671875f, 3);
        e[0].mapped = e[1].mapped = e[2].mapped = true;
    } else {
        e[2] = zpoint(-5, 5, -0.75f, 3);
    }
    set4(e[2].rgba, B4(190, 120, 60, 255));
}

static void test_decode_worked_examples(void) {
    int sub;
    for (sub = 0; sub <= 1; sub++) {
        V2Atlas a = v2_new(1024, 4096);
        R2DRotAtlas out = {NULL, 0};
        R2DRotPoint e[3];
        build_79(&a, sub);
        expected_79(e, sub);
        CHECK(r2d_rotsprite_v2_decode(a.buf, 1024, 1024, 4096, &out));
        CHECKF(out.count == 3, "count %d", out.count);
        if (out.count == 3) {
            point_eq(&out.points[0], &e[0], sub ? "SUB cell (60,2)" : "cell (60,2)");
            point_eq(&out.points[1], &e[1], sub ? "SUB cell (10,5)" : "cell (10,5)");
            point_eq(&out.points[2], &e[2], sub ? "SUB cell (11,5)" : "cell (11,5)");
        }
        r2d_rotsprite_v2_free(&out);
        v2_free(&a);
    }
}

/* The same atlas laid out at k = 2 and 3 with noise in every non-top-left
   pixel of each working texel decodes to the same points (reading rule §2). */
static void test_decode_reading_rule_scaled(void) {
    int k;
    for (k = 2; k <= 3; k++) {
        int w = 1024 * k, X, Y, sub;
        for (sub = 0; sub <= 1; sub++) {
            V2Atlas a = v2_new(w, 4 * w + 8);
            R2DRotAtlas out = {NULL, 0};
            R2DRotPoint e[3];
            build_79(&a, sub);
            for (Y = 0; Y < 1024; Y++)
                for (X = 0; X < 1024; X++) {
                    int dx, dy;
                    for (dy = 0; dy < k; dy++)
                        for (dx = 0; dx < k; dx++)
                            if (dx || dy)
                                v2_pixel(&a, k * X + dx, k * Y + dy, (uint8_t)(X * 7 + dy), (uint8_t)(Y * 3 + dx),
                                         (uint8_t)(X ^ Y), (uint8_t)(dx * 77 + dy));
                }
            expected_79(e, sub);
            CHECKF(r2d_rotsprite_v2_decode(a.buf, w, w, 4 * w + 8, &out), "k %d sub %d decode failed", k, sub);
            CHECKF(out.count == 3, "k %d: count %d", k, out.count);
            if (out.count == 3) {
                point_eq(&out.points[0], &e[0], "scaled (60,2)");
                point_eq(&out.points[1], &e[1], "scaled (10,5)");
                point_eq(&out.points[2], &e[2], "scaled (11,5)");
            }
            r2d_rotsprite_v2_free(&out);
            v2_free(&a);
        }
    }
}

/* ---- decode: rejection rules §7.4 ------------------------------------ */

typedef struct FailCase {
    const char *name;
    int sub, bld;
    uint8_t id[4], depth[4], cov[4], xy[4], anchor[4];
} FailCase;

static const FailCase FAILS[] = {
    {"part 0", 0, 0, {0, 0, 0, 255}, {128, 0, 0, 255}, {255, 0, 0, 255}, {128, 128, 0, 255}, {9, 9, 9, 255}},
    {"part 255", 0, 0, {255, 0, 0, 255}, {128, 0, 0, 255}, {255, 0, 0, 255}, {128, 128, 0, 255}, {9, 9, 9, 255}},
    {"coverage 200", 0, 0, {5, 0, 0, 255}, {128, 0, 0, 255}, {200, 0, 0, 255}, {128, 128, 0, 255}, {9, 9, 9, 255}},
    {"coverage 128 no SUB", 0, 0, {5, 0, 0, 255}, {128, 0, 0, 255}, {128, 0, 0, 255}, {128, 128, 0, 255}, {9, 9, 9, 255}},
    {"coverage 1 SUB", 1, 0, {5, 0, 0, 255}, {128, 0, 0, 255}, {1, 0, 0, 255}, {128, 128, 0, 255}, {9, 9, 9, 255}},
    {"coverage alpha 254", 0, 0, {5, 0, 0, 255}, {128, 0, 0, 255}, {255, 0, 0, 254}, {128, 128, 0, 255}, {9, 9, 9, 255}},
    {"ID alpha 254", 0, 0, {5, 0, 0, 254}, {128, 0, 0, 255}, {255, 0, 0, 255}, {128, 128, 0, 255}, {9, 9, 9, 255}},
    {"ID alpha 0", 0, 0, {5, 0, 0, 0}, {128, 0, 0, 255}, {255, 0, 0, 255}, {128, 128, 0, 255}, {9, 9, 9, 255}},
    {"depth alpha 254", 0, 0, {5, 0, 0, 255}, {128, 0, 0, 254}, {255, 0, 0, 255}, {128, 128, 0, 255}, {9, 9, 9, 255}},
    {"XY alpha 0", 0, 0, {5, 0, 0, 255}, {128, 0, 0, 255}, {255, 0, 0, 255}, {128, 128, 0, 0}, {9, 9, 9, 255}},
    {"anchor alpha 254", 0, 0, {5, 0, 0, 255}, {128, 0, 0, 255}, {255, 0, 0, 255}, {128, 128, 0, 255}, {9, 9, 9, 254}},
    {"anchor alpha 0 no SUB", 0, 0, {5, 0, 0, 255}, {128, 0, 0, 255}, {255, 0, 0, 255}, {128, 128, 0, 255}, {9, 9, 9, 0}},
    {"anchor alpha 128 SUB", 1, 0, {5, 0, 0, 255}, {128, 0, 0, 255}, {255, 0, 0, 255}, {128, 128, 0, 255}, {9, 9, 9, 128}},
    {"BLD ID.B 255", 1, 1, {5, 0, 255, 255}, {128, 0, 10, 255}, {255, 0, 0, 255}, {128, 128, 0, 255}, {9, 9, 9, 255}},
    {"BLD ID.B 0 depth.B 5", 1, 1, {5, 0, 0, 255}, {128, 0, 5, 255}, {255, 0, 0, 255}, {128, 128, 0, 255}, {9, 9, 9, 255}},
};

/* Fields of the struct (its 4 tail padding bytes carry nothing) and a hash of
   the points they designate. */
static void snapshot(const R2DRotAtlas *a, uint8_t sbytes[16], uint64_t *phash) {
    memset(sbytes, 0, 16);
    memcpy(sbytes, &a->points, sizeof a->points);
    memcpy(sbytes + 8, &a->count, sizeof a->count);
    *phash = fnv1a64(a->points, (size_t)a->count * 192);
}

static void test_decode_rejections_leave_out(void) {
    size_t i;
    V2Atlas good = v2_new(1024, 4096);
    R2DRotAtlas keep = {NULL, 0};
    uint8_t sb[16], sb2[16];
    uint64_t ph, ph2;
    v2_header(&good, 0, 0);
    v2_simple_cell(&good, 3, 4, 5, 130, 130, 130, 50, 60, 70);
    CHECK(r2d_rotsprite_v2_decode(good.buf, 1024, 1024, 4096, &keep) && keep.count == 1);
    snapshot(&keep, sb, &ph);
    for (i = 0; i < sizeof FAILS / sizeof FAILS[0]; i++) {
        int fn;
        const FailCase *f = &FAILS[i];
        V2Atlas a = v2_new(1024, 4096);
        v2_header(&a, f->sub, f->bld);
        v2_simple_cell(&a, 3, 4, 5, 130, 130, 130, 50, 60, 70); /* a valid cell first */
        v2_cell(&a, 100, 50, f->id, f->depth, f->cov, f->xy);
        v2_block(&a, 100, 50, 1, 2, 3, 255);
        v2_texel(&a, 400, 200, f->anchor[0], f->anchor[1], f->anchor[2], f->anchor[3]);
        for (fn = 0; fn < 2; fn++) {
            bool ok = fn ? r2d_rotsprite_v2_decode_anime(a.buf, 1024, 1024, 4096, &keep)
                         : r2d_rotsprite_v2_decode(a.buf, 1024, 1024, 4096, &keep);
            CHECKF(!ok, "%s: %s accepted", f->name, fn ? "decode_anime" : "decode");
            snapshot(&keep, sb2, &ph2);
            CHECKF(memcmp(sb, sb2, 16) == 0 && ph == ph2, "%s: previous atlas modified", f->name);
            if (ok) {
                r2d_rotsprite_v2_free(&keep);
                CHECK(r2d_rotsprite_v2_decode(good.buf, 1024, 1024, 4096, &keep));
                snapshot(&keep, sb, &ph);
            }
        }
        v2_free(&a);
    }
    r2d_rotsprite_v2_free(&keep);
    v2_free(&good);
}

static void test_decode_other_failures(void) {
    V2Atlas a = v2_new(1024, 4096);
    R2DRotAtlas keep = {NULL, 0};
    uint8_t sb[16], sb2[16];
    uint64_t ph, ph2;
    int fn;
    v2_header(&a, 1, 1);
    v2_simple_cell(&a, 7, 7, 5, 130, 130, 130, 50, 60, 70);
    CHECK(!r2d_rotsprite_v2_decode(a.buf, 1024, 1024, 4096, NULL));
    CHECK(!r2d_rotsprite_v2_decode_anime(a.buf, 1024, 1024, 4096, NULL));
    CHECK(r2d_rotsprite_v2_decode(a.buf, 1024, 1024, 4096, &keep));
    snapshot(&keep, sb, &ph);
    for (fn = 0; fn < 2; fn++) {
        bool (*dec)(const uint8_t *, int, int, int, R2DRotAtlas *) =
            fn ? r2d_rotsprite_v2_decode_anime : r2d_rotsprite_v2_decode;
        V2Atlas empty = v2_new(1024, 4096);
        CHECK(!dec(NULL, 1024, 1024, 4096, &keep));
        CHECK(!dec(a.buf, 1024, 1024, 4095, &keep));
        CHECK(!dec(a.buf, 1024, 1000, 4096, &keep));
        CHECK(!dec(a.buf, 512, 512, 4096, &keep));
        v2_header(&empty, 1, 1);
        CHECK(!dec(empty.buf, 1024, 1024, 4096, &keep)); /* no active cell */
        /* inactive cells holding garbage do not count */
        v2_cell(&empty, 9, 9, B4(0, 1, 255, 3), B4(1, 2, 3, 4), B4(0, 0, 0, 255), B4(5, 6, 7, 8));
        v2_cell(&empty, 10, 9, B4(255, 1, 255, 3), B4(1, 2, 3, 4), B4(200, 0, 0, 0), B4(5, 6, 7, 8));
        CHECK(!dec(empty.buf, 1024, 1024, 4096, &keep));
        empty.buf[960 * 4096] = 0; /* broken magic */
        v2_simple_cell(&empty, 1, 1, 5, 128, 128, 128, 1, 1, 1);
        CHECK(!dec(empty.buf, 1024, 1024, 4096, &keep));
        snapshot(&keep, sb2, &ph2);
        CHECK(memcmp(sb, sb2, 16) == 0 && ph == ph2);
        v2_free(&empty);
    }
    r2d_rotsprite_v2_free(&keep);
    v2_free(&a);
}

static void test_decode_inactive_cells_skipped(void) {
    V2Atlas a = v2_new(1024, 4096);
    R2DRotAtlas out = {NULL, 0};
    v2_header(&a, 0, 0);
    /* coverage R = 0 with garbage elsewhere, coverage A = 0 with R = 200 */
    v2_cell(&a, 1, 0, B4(0, 7, 7, 1), B4(9, 9, 9, 9), B4(0, 44, 44, 255), B4(1, 1, 1, 1));
    v2_cell(&a, 2, 0, B4(255, 7, 7, 1), B4(9, 9, 9, 9), B4(200, 44, 44, 0), B4(1, 1, 1, 1));
    v2_texel(&a, 8, 0, 5, 5, 5, 17);
    v2_simple_cell(&a, 3, 0, 9, 132, 124, 128, 10, 20, 30);
    CHECK(r2d_rotsprite_v2_decode(a.buf, 1024, 1024, 4096, &out));
    CHECK(out.count == 1);
    if (out.count == 1) {
        R2DRotPoint e = zpoint(1, -2, 0, 9);
        set4(e.rgba, B4(10, 20, 30, 255));
        point_eq(&out.points[0], &e, "only active cell");
    }
    r2d_rotsprite_v2_free(&out);
    v2_free(&a);
}

/* count = number of active cells, row-major order (my outer, mx inner). */
static void test_decode_count_and_order(void) {
    V2Atlas a = v2_new(1024, 4096);
    R2DRotAtlas out = {NULL, 0};
    int mx, my, n = 0, i, ok = 1;
    v2_header(&a, 0, 0);
    for (my = 0; my < 192; my += 7)
        for (mx = 255; mx >= 0; mx -= 13) {
            v2_simple_cell(&a, mx, my, (uint8_t)(1 + (mx % 200)), (uint8_t)mx, (uint8_t)my, 128, (uint8_t)mx,
                           (uint8_t)my, 1);
            n++;
        }
    CHECK(r2d_rotsprite_v2_decode(a.buf, 1024, 1024, 4096, &out));
    CHECKF(out.count == n, "count %d want %d", out.count, n);
    for (i = 1; i < out.count && i < n; i++) {
        const R2DRotPoint *p = &out.points[i - 1], *q = &out.points[i];
        int pk = p->rgba[1] * 256 + p->rgba[0], qk = q->rgba[1] * 256 + q->rgba[0];
        if (pk >= qk) ok = 0;
    }
    CHECK(ok);
    r2d_rotsprite_v2_free(&out);
    v2_free(&a);
}

/* Without SUB the G/B channels of the maps and a BLD texel have no effect. */
static void test_decode_no_sub_ignores_gb(void) {
    V2Atlas a = v2_new(1024, 4096), b = v2_new(1024, 4096);
    R2DRotAtlas oa = {NULL, 0}, ob = {NULL, 0};
    int i;
    v2_header(&a, 0, 0);
    v2_header(&b, 0, 0);
    v2_texel(&b, 4, 960, 66, 76, 68, 255); /* BLD without SUB is ignored */
    for (i = 0; i < 20; i++) {
        int mx = 10 + i, my = 3 + i;
        uint8_t part = (uint8_t)(1 + i * 11);
        v2_cell(&a, mx, my, B4(part, 0, 0, 255), B4((uint8_t)(100 + i), 0, 0, 255), B4(255, 0, 0, 255),
                B4((uint8_t)(90 + i), (uint8_t)(150 - i), 0, 255));
        v2_cell(&b, mx, my, B4(part, (uint8_t)(i + 1), 255, 255), B4((uint8_t)(100 + i), 200, 77, 255),
                B4(255, 9, 9, 255), B4((uint8_t)(90 + i), (uint8_t)(150 - i), 0xFF, 255));
        v2_block(&a, mx, my, (uint8_t)i, 2, 3, 255);
        v2_block(&b, mx, my, (uint8_t)i, 2, 3, 255);
    }
    CHECK(r2d_rotsprite_v2_decode(a.buf, 1024, 1024, 4096, &oa));
    CHECK(r2d_rotsprite_v2_decode(b.buf, 1024, 1024, 4096, &ob));
    CHECK(oa.count == 20 && ob.count == 20);
    if (oa.count == 20 && ob.count == 20) {
        CHECK(memcmp(oa.points, ob.points, 20 * 192) == 0);
        for (i = 0; i < 20; i++) {
            const R2DRotPoint *p = &ob.points[i];
            CHECK(!p->mapped && p->group == p->part && p->blend_part == 0 && p->blend_weight == 0);
            CHECK(p->x * 4 == (float)(int)(p->x * 4) && p->y * 2 == (float)(int)(p->y * 2));
            CHECK(p->z * 4 == (float)(int)(p->z * 4));
            CHECK(p->x == (float)(90 + i - 128) * 0.25f && p->y == (float)(150 - i - 128) * 0.5f);
        }
    }
    r2d_rotsprite_v2_free(&oa);
    r2d_rotsprite_v2_free(&ob);
    v2_free(&a);
    v2_free(&b);
}

static void test_decode_sub_and_bld(void) {
    int bld;
    for (bld = 0; bld <= 1; bld++) {
        V2Atlas a = v2_new(1024, 4096);
        R2DRotAtlas out = {NULL, 0};
        v2_header(&a, 1, bld);
        /* fine nibbles, group from ID.G, coverage 128 */
        v2_cell(&a, 5, 5, B4(20, 33, 44, 255), B4(127, 255, 9, 255), B4(128, 0, 0, 255), B4(129, 127, 0xF7, 255));
        v2_block(&a, 5, 5, 60, 70, 80, 255);
        /* ID.G = 0 -> group = part; transparent anchor; rep pick from the others */
        v2_cell(&a, 6, 5, B4(4, 0, 0, 255), B4(0, 16, 0, 255), B4(255, 0, 0, 255), B4(255, 255, 0x00, 255));
        v2_block(&a, 6, 5, 11, 12, 13, 255);
        v2_texel(&a, 24, 20, 250, 250, 250, 0);
        /* no opaque sample at all: anchor colour, alpha 0 */
        v2_cell(&a, 7, 5, B4(30, 0, 0, 255), B4(0, 0, 0, 255), B4(255, 0, 0, 255), B4(0, 0, 0x10, 255));
        v2_block(&a, 7, 5, 5, 6, 7, 100);
        v2_texel(&a, 28, 20, 77, 88, 99, 0);
        CHECK(r2d_rotsprite_v2_decode(a.buf, 1024, 1024, 4096, &out));
        CHECK(out.count == 3);
        if (out.count == 3) {
            R2DRotPoint e0 = zpoint(0.25f + 15 / 64.0f, -0.5f + 7 / 32.0f, -0.25f + 15 / 64.0f, 20);
            R2DRotPoint e1 = zpoint(31.75f, 63.5f, -32 + 0 / 64.0f, 4);
            R2DRotPoint e2 = zpoint(-32 + 1 / 64.0f, -64, -32, 30);
            e0.group = 33;
            e0.mapped = e1.mapped = e2.mapped = true;
            set4(e0.rgba, B4(60, 70, 80, 255));
            set4(e1.rgba, B4(11, 12, 13, 0));
            set4(e2.rgba, B4(77, 88, 99, 0));
            if (bld) {
                e0.blend_part = 44;
                e0.blend_weight = 9;
            }
            point_eq(&out.points[0], &e0, bld ? "BLD fine nibbles" : "SUB fine nibbles");
            point_eq(&out.points[1], &e1, "SUB transparent anchor");
            point_eq(&out.points[2], &e2, "SUB no opaque sample");
        }
        r2d_rotsprite_v2_free(&out);
        v2_free(&a);
    }
}

/* §7.7 preference order for parts >= 16 and §7.6 ties for parts < 16. */
static void test_decode_picks(void) {
    static const int order[16][2] = {{2, 2}, {2, 1}, {1, 2}, {3, 2}, {2, 3}, {1, 1}, {3, 1}, {1, 3},
                                     {3, 3}, {2, 0}, {0, 2}, {1, 0}, {3, 0}, {0, 1}, {0, 3}, {0, 0}};
    int i;
    for (i = 0; i < 16; i++) {
        /* opaque samples: order[i..15]; expected pick order[i] */
        V2Atlas a = v2_new(1024, 4096);
        R2DRotAtlas out = {NULL, 0};
        int j;
        v2_header(&a, 0, 0);
        v2_simple_cell(&a, 2, 3, 16, 128, 128, 128, 0, 0, 0);
        v2_block(&a, 2, 3, 0, 0, 0, 0);
        for (j = i; j < 16; j++)
            v2_texel(&a, 8 + order[j][0], 12 + order[j][1], (uint8_t)(10 * j), (uint8_t)order[j][0],
                     (uint8_t)order[j][1], 255);
        if (i == 15) {
            /* anchor opaque is required without SUB: (0,0) is the only one */
        }
        CHECK(r2d_rotsprite_v2_decode(a.buf, 1024, 1024, 4096, &out));
        if (out.count == 1) {
            const uint8_t *c = out.points[0].rgba;
            CHECKF(c[0] == 10 * i && c[1] == order[i][0] && c[2] == order[i][1],
                   "feature pick with samples from rank %d: got %d,%d,%d", i, c[0], c[1], c[2]);
        } else {
            CHECKF(0, "rank %d: decode count %d", i, out.count);
        }
        r2d_rotsprite_v2_free(&out);
        v2_free(&a);
        if (i == 15) break;
    }
    {
        /* rep pick: lone outline texel at the anchor does not win. */
        V2Atlas a = v2_new(1024, 4096);
        R2DRotAtlas out = {NULL, 0};
        v2_header(&a, 0, 0);
        v2_simple_cell(&a, 2, 3, 15, 128, 128, 128, 100, 50, 25);
        v2_texel(&a, 8, 12, 0, 0, 0, 255);
        v2_texel(&a, 11, 15, 101, 50, 25, 255);
        CHECK(r2d_rotsprite_v2_decode(a.buf, 1024, 1024, 4096, &out));
        CHECK(out.count == 1 && out.points[0].rgba[0] == 100 && out.points[0].rgba[3] == 255);
        r2d_rotsprite_v2_free(&out);
        /* part 16 uses the feature pick even for the same block: centre sample */
        a.buf[768 * 4096 + 4 * 2 + 3 * 4096] = 16;
        CHECK(r2d_rotsprite_v2_decode(a.buf, 1024, 1024, 4096, &out));
        CHECK(out.count == 1 && out.points[0].part == 16 && out.points[0].rgba[0] == 100);
        r2d_rotsprite_v2_free(&out);
        v2_free(&a);
    }
}

/* Records are fully initialised (padding zero), so two decodes memcmp-equal. */
static void test_decode_padding_and_repeatable(void) {
    V2Atlas a = v2_new(1024, 4096);
    R2DRotAtlas o1 = {NULL, 0}, o2 = {NULL, 0};
    int i, mx;
    v2_header(&a, 1, 1);
    for (mx = 0; mx < 40; mx++) {
        v2_cell(&a, mx, 9, B4((uint8_t)(1 + mx), (uint8_t)mx, (uint8_t)(mx % 3), 255),
                B4(128, (uint8_t)(mx * 5), (uint8_t)((mx % 3) ? mx : 0), 255), B4(255, 0, 0, 255),
                B4((uint8_t)(100 + mx), 128, (uint8_t)(mx * 6), 255));
        v2_block(&a, mx, 9, (uint8_t)mx, 1, 2, 255);
    }
    /* dirty heap: allocate, scribble and free a block of the same size first */
    {
        void *junk = malloc((size_t)CAP * 192);
        memset(junk, 0xFF, (size_t)CAP * 192);
        free(junk);
    }
    CHECK(r2d_rotsprite_v2_decode(a.buf, 1024, 1024, 4096, &o1));
    {
        void *junk = malloc((size_t)CAP * 192);
        memset(junk, 0x5A, (size_t)CAP * 192);
        free(junk);
    }
    CHECK(r2d_rotsprite_v2_decode(a.buf, 1024, 1024, 4096, &o2));
    CHECK(o1.count == 40 && o2.count == 40);
    if (o1.count == 40 && o2.count == 40) {
        CHECK(memcmp(o1.points, o2.points, 40 * 192) == 0);
        for (i = 0; i < 40; i++) {
            const uint8_t *b = (const uint8_t *)&o1.points[i];
            int j, bad = 0;
            for (j = 18; j < 22; j++) bad |= b[j];
            for (j = 24; j < 89; j++) bad |= b[j];
            for (j = 90; j < 192; j++) bad |= b[j];
            CHECKF(!bad, "point %d has non-zero unset fields or padding", i);
            CHECK(b[89] == 1);
        }
    }
    /* the plain decode hands out room for 49152 points (c-abi.md §3.5) */
    memset(o1.points, 0, (size_t)CAP * 192);
#ifdef EXACT_USABLE_SIZE
    CHECK(malloc_usable_size(o1.points) == (size_t)CAP * 192);
#else
    CHECK(malloc_usable_size(o1.points) >= (size_t)CAP * 192);
#endif
    r2d_rotsprite_v2_free(&o1);
    r2d_rotsprite_v2_free(&o2);
    v2_free(&a);
}

static void test_free_variants(void) {
    V2Atlas a = v2_new(1024, 4096);
    R2DRotAtlas o = {NULL, 0};
    R2DRotAtlas z = {NULL, 0};
    v2_header(&a, 0, 0);
    v2_simple_cell(&a, 1, 1, 5, 128, 128, 128, 1, 2, 3);
    v2_simple_cell(&a, 2, 1, 5, 128, 128, 128, 1, 2, 3);
    r2d_rotsprite_v2_free(NULL);
    r2d_rotsprite_v2_free(&z);
    CHECK(z.points == NULL && z.count == 0);
    CHECK(r2d_rotsprite_v2_decode(a.buf, 1024, 1024, 4096, &o));
    r2d_rotsprite_v2_free(&o);
    CHECK(o.points == NULL && o.count == 0);
    r2d_rotsprite_v2_free(&o);
    CHECK(o.points == NULL && o.count == 0);
    /* count is reset even when points is NULL */
    o.count = 12;
    r2d_rotsprite_v2_free(&o);
    CHECK(o.points == NULL && o.count == 0);
    /* C free() and realloc() on decoded arrays (both decoders) */
    CHECK(r2d_rotsprite_v2_decode(a.buf, 1024, 1024, 4096, &o));
    free(o.points);
    CHECK(r2d_rotsprite_v2_decode(a.buf, 1024, 1024, 4096, &o));
    {
        R2DRotPoint keep = o.points[1];
        R2DRotPoint *p = (R2DRotPoint *)realloc(o.points, (size_t)(CAP + 1000) * 192);
        CHECK(p != NULL);
        CHECK(memcmp(&p[1], &keep, 192) == 0);
        memset(p + CAP, 0, 1000 * 192);
        p = (R2DRotPoint *)realloc(p, 2 * 192);
        CHECK(memcmp(&p[1], &keep, 192) == 0);
        free(p);
    }
    CHECK(r2d_rotsprite_v2_decode_anime(a.buf, 1024, 1024, 4096, &o));
    {
        R2DRotPoint keep = o.points[1];
        R2DRotPoint *p = (R2DRotPoint *)realloc(o.points, 5000 * 192);
        CHECK(p != NULL && memcmp(&p[1], &keep, 192) == 0);
        o.points = p;
        o.count = 2;
        r2d_rotsprite_v2_free(&o);
        CHECK(o.points == NULL && o.count == 0);
    }
    CHECK(r2d_rotsprite_v2_decode_anime(a.buf, 1024, 1024, 4096, &o));
    free(o.points);
    /* a malloc'd caller array may be released with the library's free */
    o.points = (R2DRotPoint *)calloc(3, 192);
    o.count = 3;
    r2d_rotsprite_v2_free(&o);
    CHECK(o.points == NULL && o.count == 0);
    v2_free(&a);
}

/* ---- decode_anime ---------------------------------------------------- */

static void build_84(V2Atlas *a) {
    int X, Y;
    v2_header(a, 1, 1);
    v2_cell(a, 20, 30, B4(6, 0, 7, 255), B4(128, 0, 40, 255), B4(255, 0, 0, 255), B4(128, 128, 0x00, 255));
    v2_cell(a, 21, 30, B4(6, 0, 0, 255), B4(128, 0, 0, 255), B4(255, 0, 0, 255), B4(136, 129, 0x10, 255));
    v2_cell(a, 20, 31, B4(6, 0, 0, 255), B4(130, 34, 0, 255), B4(255, 0, 0, 255), B4(128, 132, 0x00, 255));
    v2_cell(a, 21, 31, B4(6, 0, 0, 255), B4(129, 0, 0, 255), B4(255, 0, 0, 255), B4(137, 133, 0x00, 255));
    for (Y = 120; Y < 128; Y++)
        for (X = 80; X < 88; X++) v2_texel(a, X, Y, (uint8_t)(2 * X), (uint8_t)Y, 50, 255);
    v2_texel(a, 81, 121, 0, 0, 0, 0);
    /* strip cells */
    v2_cell(a, 40, 10, B4(33, 0, 0, 255), B4(128, 0, 0, 255), B4(255, 0, 0, 255), B4(128, 129, 0x08, 255));
    v2_cell(a, 41, 10, B4(33, 0, 0, 255), B4(132, 0, 0, 255), B4(255, 0, 0, 255), B4(136, 129, 0x00, 255));
    v2_block(a, 40, 10, 150, 40, 40, 255);
    v2_block(a, 41, 10, 150, 40, 40, 255);
}

static void test_decode_anime_worked_example(void) {
    V2Atlas a = v2_new(1024, 4096);
    R2DRotAtlas out = {NULL, 0}, plain = {NULL, 0};
    build_84(&a);
    CHECK(r2d_rotsprite_v2_decode(a.buf, 1024, 1024, 4096, &plain));
    CHECK(r2d_rotsprite_v2_decode_anime(a.buf, 1024, 1024, 4096, &out));
    CHECKF(out.count == 6 && plain.count == 6, "counts %d %d", out.count, plain.count);
    if (out.count == 6) {
        R2DRotPoint s0, s1, P, R, D, B;
        int tx, ty;
        /* strip point (40,10) */
        s0 = zpoint(0, 0.75f, 0, 33);
        s0.mapped = true;
        set4(s0.rgba, B4(150, 40, 40, 255));
        s0.patch = true;
        s0.du[0] = 2;
        s0.du[1] = -0.25f;
        s0.du[2] = 1;
        s0.dv[1] = 0.24f;
        for (tx = 0; tx < 4; tx++) set4(s0.colors[tx], B4(150, 40, 40, 255));
        s1 = zpoint(2, 0.5f, 1, 33);
        s1.mapped = true;
        set4(s1.rgba, B4(150, 40, 40, 255));
        for (tx = 0; tx < 4; tx++) set4(s1.colors[tx], B4(150, 40, 40, 255));
        /* P (20,30) */
        P = zpoint(0, 0, 0, 6);
        P.mapped = true;
        P.blend_part = 7;
        P.blend_weight = 40;
        P.patch = true;
        P.du[0] = 2.015625f;
        P.du[1] = 0.5f;
        P.dv[1] = 2;
        P.dv[2] = 0.53125f;
        P.duv[0] = 0.234375f;
        P.duv[2] = -0.28125f;
        set4(P.rgba, B4(161, 120, 50, 255));
        set4(P.colors[0], B4(160, 120, 50, 255));
        set4(P.colors[1], B4(168, 120, 50, 255));
        set4(P.colors[2], B4(160, 124, 50, 255));
        set4(P.colors[3], B4(168, 124, 50, 255));
        P.textured = true;
        set4(P.corner_parts, B4(6, 6, 6, 6));
        set4(P.corner_blend_parts, B4(7, 0, 0, 0));
        set4(P.corner_blend_weights, B4(40, 0, 0, 0));
        for (ty = 0; ty < 5; ty++)
            for (tx = 0; tx < 5; tx++)
                set4(P.material + (ty * 5 + tx) * 4,
                     (tx == 1 && ty == 1) ? B4(0, 0, 0, 0) : B4((uint8_t)(160 + 2 * tx), (uint8_t)(120 + ty), 50, 255));
        /* R (21,30) */
        R = zpoint(2.015625f, 0.5f, 0, 6);
        R.mapped = true;
        set4(R.rgba, B4(169, 121, 50, 255));
        set4(R.colors[0], B4(168, 120, 50, 255));
        set4(R.colors[1], B4(169, 121, 50, 255));
        set4(R.colors[2], B4(168, 124, 50, 255));
        set4(R.colors[3], B4(169, 121, 50, 255));
        /* D (20,31): block (80..83, 124..127): top-left 2x2 = X 80,81 Y 124,125 */
        D = zpoint(0, 2, 0.53125f, 6);
        D.mapped = true;
        set4(D.rgba, B4(161, 125, 50, 255)); /* (160+162+160+162+2)/4, (124+124+125+125+2)/4 */
        set4(D.colors[0], B4(160, 124, 50, 255));
        set4(D.colors[1], B4(168, 124, 50, 255));
        set4(D.colors[2], B4(161, 125, 50, 255));
        set4(D.colors[3], B4(161, 125, 50, 255));
        B = zpoint(2.25f, 2.5f, 0.25f, 6);
        B.mapped = true;
        set4(B.rgba, B4(169, 125, 50, 255));
        set4(B.colors[0], B4(168, 124, 50, 255));
        set4(B.colors[1], B4(169, 125, 50, 255));
        set4(B.colors[2], B4(169, 125, 50, 255));
        set4(B.colors[3], B4(169, 125, 50, 255));
        point_eq(&out.points[0], &s0, "strip (40,10)");
        point_eq(&out.points[1], &s1, "strip end (41,10)");
        point_eq(&out.points[2], &P, "P (20,30)");
        point_eq(&out.points[3], &R, "R (21,30)");
        point_eq(&out.points[4], &D, "D (20,31)");
        point_eq(&out.points[5], &B, "B (21,31)");
    }
    r2d_rotsprite_v2_free(&out);
    r2d_rotsprite_v2_free(&plain);
    v2_free(&a);
}

/* decode_anime: same count and per-record decode fields as decode (contract). */
static void test_decode_anime_matches_decode(void) {
    V2Atlas a = v2_new(1024, 4096);
    R2DRotAtlas d = {NULL, 0}, an = {NULL, 0};
    int mx, my, i;
    v2_header(&a, 1, 1);
    for (my = 40; my < 60; my++)
        for (mx = 30; mx < 70; mx++) {
            uint8_t part = (uint8_t)(mx < 50 ? 6 : (my < 50 ? 33 : 17));
            uint8_t bp = (uint8_t)((mx + my) % 5 == 0 ? 9 : 0);
            v2_cell(&a, mx, my, B4(part, (uint8_t)(mx > 60 ? 2 : 0), bp, 255),
                    B4((uint8_t)(128 + (mx % 7)), (uint8_t)(my * 3), (uint8_t)(bp ? mx : 0), 255),
                    B4((uint8_t)((mx * my) % 9 == 0 ? 128 : 255), 0, 0, 255),
                    B4((uint8_t)(100 + mx - 30), (uint8_t)(100 + my - 40), (uint8_t)(mx * 17 + my), 255));
            v2_block(&a, mx, my, (uint8_t)(mx * 3), (uint8_t)(my * 5), (uint8_t)(mx ^ my),
                     (uint8_t)((mx + 2 * my) % 11 == 0 ? 0 : 255));
        }
    CHECK(r2d_rotsprite_v2_decode(a.buf, 1024, 1024, 4096, &d));
    CHECK(r2d_rotsprite_v2_decode_anime(a.buf, 1024, 1024, 4096, &an));
    CHECKF(d.count == 800 && an.count == 800, "counts %d %d", d.count, an.count);
#ifdef EXACT_USABLE_SIZE
    CHECK(malloc_usable_size(an.points) == (size_t)an.count * 192);
#endif
    for (i = 0; i < d.count && i < an.count; i++) {
        const R2DRotPoint *p = &d.points[i], *q = &an.points[i];
        const uint8_t *qb = (const uint8_t *)q;
        if (p->part != q->part || p->group != q->group || memcmp(&p->x, &q->x, 12) != 0 ||
            p->blend_part != q->blend_part || p->blend_weight != q->blend_weight || p->mapped != q->mapped ||
            p->rgba[3] != q->rgba[3] || qb[33] || qb[34] || qb[35] || qb[190] || qb[191]) {
            CHECKF(0, "record %d differs from decode", i);
            break;
        }
        if (!q->patch && p->part < 32) {
            int j, nz = 0;
            for (j = 0; j < 3; j++) nz |= (q->du[j] != 0) | (q->dv[j] != 0) | (q->duv[j] != 0);
            CHECKF(!nz && !q->textured, "record %d: non-patch with patch data", i);
        }
    }
    r2d_rotsprite_v2_free(&d);
    r2d_rotsprite_v2_free(&an);
    v2_free(&a);
}

/* Continuity uses group and allows |diff| <= 3 inclusive (§8.2). */
static void test_decode_anime_continuity(void) {
    static const struct {
        uint8_t r_xy0;   /* XY.R of the right neighbour; P has 128 */
        uint8_t r_group; /* ID.G of the right neighbour; others 0 (group = part 6) */
        uint8_t r_part;
        int continuous;
    } C[] = {
        {140, 0, 6, 1}, /* dx = 3 exactly */
        {141, 0, 6, 0}, /* dx = 3.25 */
        {128, 0, 7, 0}, /* other part, group 7 */
        {128, 6, 7, 1}, /* other part, same group */
        {128, 9, 6, 0}, /* same part, other group */
    };
    size_t i;
    for (i = 0; i < sizeof C / sizeof C[0]; i++) {
        V2Atlas a = v2_new(1024, 4096);
        R2DRotAtlas out = {NULL, 0};
        v2_header(&a, 1, 0);
        v2_cell(&a, 5, 5, B4(6, 0, 0, 255), B4(128, 0, 0, 255), B4(255, 0, 0, 255), B4(128, 128, 0, 255));
        v2_cell(&a, 6, 5, B4(C[i].r_part, C[i].r_group, 0, 255), B4(128, 0, 0, 255), B4(255, 0, 0, 255),
                B4(C[i].r_xy0, 128, 0, 255));
        v2_cell(&a, 5, 6, B4(6, 0, 0, 255), B4(140, 0, 0, 255), B4(255, 0, 0, 255), B4(128, 134, 0, 255));
        v2_cell(&a, 6, 6, B4(6, 0, 0, 255), B4(128, 0, 0, 255), B4(255, 0, 0, 255), B4(128, 122, 0, 255));
        v2_block(&a, 5, 5, 1, 1, 1, 255);
        v2_block(&a, 6, 5, 1, 1, 1, 255);
        v2_block(&a, 5, 6, 1, 1, 1, 255);
        v2_block(&a, 6, 6, 1, 1, 1, 255);
        CHECK(r2d_rotsprite_v2_decode_anime(a.buf, 1024, 1024, 4096, &out));
        if (out.count == 4) {
            const R2DRotPoint *p = &out.points[0];
            CHECKF(p->patch == (C[i].continuous != 0) && p->textured == (C[i].continuous != 0),
                   "case %zu: patch %d textured %d, want %d", i, p->patch, p->textured, C[i].continuous);
            if (C[i].continuous) {
                CHECK(p->dv[2] == 3 && p->dv[1] == 3 && p->du[0] == (C[i].r_xy0 - 128) * 0.25f);
                CHECK(p->corner_parts[1] == C[i].r_part);
                CHECK(p->duv[1] == ((-3.0f - 0.0f) - 3.0f) + 0.0f);
            }
        } else {
            CHECKF(0, "case %zu: count %d", i, out.count);
        }
        r2d_rotsprite_v2_free(&out);
        v2_free(&a);
    }
}

/* Area average over every physical pixel of the top-left 2k x 2k (k = 2),
   rounding half up; alpha untouched; feature pick uses top-left pixels. */
static void test_decode_anime_area_average_k2(void) {
    V2Atlas a = v2_new(2048, 8192);
    R2DRotAtlas out = {NULL, 0};
    int x, y;
    unsigned sr = 0, sg = 0, n = 0;
    v2_header(&a, 0, 0);
    v2_simple_cell(&a, 50, 60, 20, 128, 128, 128, 10, 10, 10);
    /* physical block of the cell: x in [400, 408), y in [480, 488) */
    for (y = 0; y < 8; y++)
        for (x = 0; x < 8; x++) {
            uint8_t r = (uint8_t)(x * 30 + y), g = (uint8_t)(y * 20 + 1), al = (x + y) % 5 == 4 ? 7 : 255;
            if (x == 0 && y == 0) al = 255;
            v2_pixel(&a, 400 + x, 480 + y, r, g, 5, al);
            if (x < 4 && y < 4 && al == 255) {
                sr += r;
                sg += g;
                n++;
            }
        }
    CHECK(r2d_rotsprite_v2_decode_anime(a.buf, 2048, 2048, 8192, &out));
    CHECK(out.count == 1);
    if (out.count == 1) {
        const uint8_t *c = out.points[0].rgba;
        CHECKF(c[0] == (sr + n / 2) / n && c[1] == (sg + n / 2) / n && c[2] == 5 && c[3] == 255,
               "rgba %d,%d,%d,%d want %u,%u,5,255", c[0], c[1], c[2], c[3], (sr + n / 2) / n, (sg + n / 2) / n);
    }
    r2d_rotsprite_v2_free(&out);
    v2_free(&a);
}

/* mx = 255: colors[1], colors[3] read row*stride + 4w without clamping (§8.2). */
static void test_decode_anime_right_edge_reads(void) {
    static const int extra[] = {4, 0, 1, 3};
    size_t t;
    for (t = 0; t < 4; t++) {
        int stride = 4096 + extra[t];
        V2Atlas a = v2_new(1024, stride);
        R2DRotAtlas out = {NULL, 0};
        uint8_t *r20 = a.buf + (size_t)20 * stride + 4096, *r24 = a.buf + (size_t)24 * stride + 4096;
        uint8_t want1[4], want3[4];
        int i;
        v2_header(&a, 0, 0);
        v2_simple_cell(&a, 255, 5, 9, 128, 128, 128, 40, 50, 60);
        /* padding bytes of rows 20 and 24, and pixel (0, 21), (0, 25) */
        for (i = 0; i < extra[t]; i++) {
            r20[i] = (uint8_t)(11 * (i + 1));
            r24[i] = (uint8_t)(13 * (i + 1));
        }
        v2_pixel(&a, 0, 21, 255, 201, 202, 203);
        v2_pixel(&a, 0, 25, 255, 211, 212, 213);
        if (extra[t] >= 4) {
            r20[3] = 255;
            memcpy(want1, r20, 4);
            r24[3] = 7; /* not opaque -> rgba */
            memcpy(want3, B4(40, 50, 60, 255), 4);
        } else if (extra[t] == 0) {
            memcpy(want1, B4(255, 201, 202, 203), 4);
            memcpy(want3, B4(40, 50, 60, 255), 4);
            a.buf[21 * stride + 3] = 255;
            want1[3] = 255;
        } else if (extra[t] == 1) {
            memcpy(want1, B4(11, 255, 201, 202), 4);
            memcpy(want3, B4(40, 50, 60, 255), 4); /* A = 212 */
            a.buf[21 * stride + 2] = 255;
            want1[3] = 255;
        } else {
            memcpy(want1, B4(11, 22, 33, 255), 4);
            memcpy(want3, B4(13, 26, 39, 255), 4);
        }
        CHECK(r2d_rotsprite_v2_decode_anime(a.buf, 1024, 1024, stride, &out));
        if (out.count == 1) {
            const R2DRotPoint *p = &out.points[0];
            CHECKF(memcmp(p->colors[1], want1, 4) == 0, "stride 4w+%d: colors[1] %d,%d,%d,%d want %d,%d,%d,%d",
                   extra[t], p->colors[1][0], p->colors[1][1], p->colors[1][2], p->colors[1][3], want1[0],
                   want1[1], want1[2], want1[3]);
            CHECKF(memcmp(p->colors[3], want3, 4) == 0, "stride 4w+%d: colors[3] %d,%d,%d,%d want %d,%d,%d,%d",
                   extra[t], p->colors[3][0], p->colors[3][1], p->colors[3][2], p->colors[3][3], want3[0],
                   want3[1], want3[2], want3[3]);
            CHECK(memcmp(p->colors[0], B4(40, 50, 60, 255), 4) == 0);
        } else {
            CHECKF(0, "stride 4w+%d: count %d", extra[t], out.count);
        }
        r2d_rotsprite_v2_free(&out);
        v2_free(&a);
    }
}

/* Byte offsets are formed in 64 bits: stride 2^31 - 1 (§2 revision note). */
static void test_decode_huge_stride(void) {
    const size_t stride = 2147483647u;
    size_t len = 1023 * stride + 4096 + 8;
    V2Atlas small = v2_new(1024, 4096);
    R2DRotAtlas ref = {NULL, 0}, big_out = {NULL, 0}, ref_a = {NULL, 0}, big_a = {NULL, 0};
    uint8_t *big;
    int y;
    big = (uint8_t *)mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (big == MAP_FAILED) {
        h_skip("cannot reserve 2 TB of address space");
        v2_free(&small);
        return;
    }
    build_84(&small);
    build_79(&small, 1);
    v2_simple_cell(&small, 255, 191, 8, 130, 130, 130, 1, 2, 3);
    for (y = 0; y < 1024; y++) {
        const uint8_t *row = small.buf + (size_t)y * 4096;
        size_t x;
        for (x = 0; x < 4096; x++)
            if (row[x]) break;
        if (x < 4096) memcpy(big + (size_t)y * stride, row, 4096);
    }
    CHECK(r2d_rotsprite_v2_header(big, 1024, 1024, 2147483647));
    CHECK(r2d_rotsprite_v2_decode(small.buf, 1024, 1024, 4096, &ref));
    CHECK(r2d_rotsprite_v2_decode(big, 1024, 1024, 2147483647, &big_out));
    CHECK(ref.count == big_out.count && ref.count > 0);
    if (ref.count == big_out.count && ref.count > 0)
        CHECK(points_hash(ref.points, ref.count) == points_hash(big_out.points, big_out.count));
    CHECK(r2d_rotsprite_v2_decode_anime(small.buf, 1024, 1024, 4096, &ref_a));
    CHECK(r2d_rotsprite_v2_decode_anime(big, 1024, 1024, 2147483647, &big_a));
    CHECK(ref_a.count == big_a.count && ref_a.count > 0);
    if (ref_a.count == big_a.count && ref_a.count > 0) {
        /* the mx = 255 corner reads differ (padding vs next row); compare the rest */
        int i, bad = 0;
        for (i = 0; i < ref_a.count - 1; i++) bad |= memcmp(&ref_a.points[i], &big_a.points[i], 192) != 0;
        CHECK(!bad);
    }
    r2d_rotsprite_v2_free(&ref);
    r2d_rotsprite_v2_free(&big_out);
    r2d_rotsprite_v2_free(&ref_a);
    r2d_rotsprite_v2_free(&big_a);
    munmap(big, len);
    v2_free(&small);
}

void atlas_tests(void) {
    RUN(test_header_sizes_and_args);
    RUN(test_header_texel_bytes);
    RUN(test_header_reads_block_top_left);
    RUN(test_decode_worked_examples);
    RUN(test_decode_reading_rule_scaled);
    RUN(test_decode_rejections_leave_out);
    RUN(test_decode_other_failures);
    RUN(test_decode_inactive_cells_skipped);
    RUN(test_decode_count_and_order);
    RUN(test_decode_no_sub_ignores_gb);
    RUN(test_decode_sub_and_bld);
    RUN(test_decode_picks);
    RUN(test_decode_padding_and_repeatable);
    RUN(test_free_variants);
    RUN(test_decode_anime_worked_example);
    RUN(test_decode_anime_matches_decode);
    RUN(test_decode_anime_continuity);
    RUN(test_decode_anime_area_average_k2);
    RUN(test_decode_anime_right_edge_reads);
    RUN(test_decode_huge_stride);
}
