/* re2d ffi-tests: draw/raster, joint, smooth anime + workspace (rotsprite-render.md, c-abi.md §3.7-3.14). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "tests.h"
#include "util.h"

#define OUT128 65536u
#define OUT256 262144u
#define OUT512 1048576u

static R2DRotAtlas atlas_of(R2DRotPoint *p, int n) {
    R2DRotAtlas a;
    a.points = p;
    a.count = n;
    return a;
}

static int all_zero(const uint8_t *b, size_t n) {
    size_t i;
    for (i = 0; i < n; i++)
        if (b[i]) return 0;
    return 1;
}

static int same_bits(double a, double b) {
    return memcmp(&a, &b, sizeof a) == 0;
}

static R2DRotAnimeWorkspace ws_zero(void) {
    R2DRotAnimeWorkspace w;
    memset(&w, 0, sizeof w);
    return w;
}

/* ---- validation ------------------------------------------------------ */

typedef bool (*render_fn)(const R2DRotAtlas *, double, double, int, int, const R2DRotRig *, uint8_t *,
                          R2DRotAnimeWorkspace *, int);

/* Wraps every renderer into one signature: kind 0 draw, 1 v2_raster (rig
   ignored; skipped when a rig is needed), 2 anime, 3 anime_workspace, 4 sized. */
static bool call_kind(int kind, const R2DRotAtlas *a, double yaw, double pitch, int eyes, int mouth,
                      const R2DRotRig *rig, uint8_t *out, R2DRotAnimeWorkspace *ws, int size) {
    switch (kind) {
    case 0: return r2d_rotsprite_v2_draw(a, yaw, pitch, eyes, mouth, rig, out);
    case 1: return r2d_rotsprite_v2_raster(a, yaw, pitch, eyes, mouth, out);
    case 2: return r2d_rotsprite_v2_anime(a, yaw, pitch, eyes, mouth, rig, out);
    case 3: return r2d_rotsprite_v2_anime_workspace(a, yaw, pitch, eyes, mouth, rig, out, ws);
    default: return r2d_rotsprite_v2_anime_sized(a, yaw, pitch, eyes, mouth, rig, out, ws, size);
    }
}

static const char *KIND[] = {"draw", "v2_raster", "anime", "anime_workspace", "anime_sized"};

static size_t out_bytes(int kind, int size) {
    return kind <= 1 ? OUT128 : (kind == 4 ? (size_t)size * size * 4 : OUT256);
}

static void test_render_validation(void) {
    R2DRotPoint pts[7];
    R2DRotAtlas a, nullpts;
    R2DRotRig good = scene_a_rig();
    const double bad[] = {NAN, INFINITY, -INFINITY};
    int kind;
    scene_a_points(pts);
    a = atlas_of(pts, 7);
    nullpts = atlas_of(NULL, 7);
    for (kind = 0; kind < 5; kind++) {
        int size = kind == 4 ? 512 : 256;
        size_t n = out_bytes(kind, size);
        Canary c = canary_new(n, 0x6B);
        R2DRotAnimeWorkspace ws = ws_zero(), snap;
        size_t i;
        int f;
        /* a used workspace with live buffers, to check failures leave it alone */
        if (kind >= 3) {
            CHECK(r2d_rotsprite_v2_anime_sized(&a, 30, 10, 0, 0, NULL, c.p, &ws, size));
            memset(c.p, 0x6B, n);
        }
        snap = ws;
#define FAILS(expr, what)                                                                  \
    do {                                                                                   \
        bool r_ = (expr);                                                                  \
        CHECKF(!r_, "%s: %s returned true", KIND[kind], what);                             \
    } while (0)
        FAILS(call_kind(kind, NULL, 0, 0, 0, 0, NULL, c.p, &ws, size), "NULL atlas");
        FAILS(call_kind(kind, &nullpts, 0, 0, 0, 0, NULL, c.p, &ws, size), "NULL points");
        FAILS(call_kind(kind, &a, 0, 0, 0, 0, NULL, NULL, &ws, size), "NULL out");
        FAILS(call_kind(kind, &a, 0, 0, -1, 0, NULL, c.p, &ws, size), "eyes -1");
        FAILS(call_kind(kind, &a, 0, 0, 4, 0, NULL, c.p, &ws, size), "eyes 4");
        FAILS(call_kind(kind, &a, 0, 0, 0, -1, NULL, c.p, &ws, size), "mouth -1");
        FAILS(call_kind(kind, &a, 0, 0, 0, 4, NULL, c.p, &ws, size), "mouth 4");
        FAILS(call_kind(kind, &a, 0, 0, -2147483647 - 1, 0, NULL, c.p, &ws, size), "eyes INT_MIN");
        FAILS(call_kind(kind, &a, 0, 0, 0, 2147483647, NULL, c.p, &ws, size), "mouth INT_MAX");
        for (i = 0; i < 3; i++) {
            FAILS(call_kind(kind, &a, bad[i], 0, 0, 0, NULL, c.p, &ws, size), "bad yaw");
            FAILS(call_kind(kind, &a, 0, bad[i], 0, 0, NULL, c.p, &ws, size), "bad pitch");
        }
        if (kind != 1) {
            for (f = 0; f < 7; f++) {
                R2DRotRig r = good;
                const char *what = "";
                switch (f) {
                case 0: r.brows = -1; what = "brows -1"; break;
                case 1: r.brows = 4; what = "brows 4"; break;
                case 2: r.phase = NAN; what = "phase NaN"; break;
                case 3: r.stride = INFINITY; what = "stride inf"; break;
                case 4: r.arm_left = -INFINITY; what = "arm_left -inf"; break;
                case 5: r.arm_right = NAN; what = "arm_right NaN"; break;
                default: r.head_yaw = INFINITY; what = "head_yaw inf"; break;
                }
                FAILS(call_kind(kind, &a, 0, 0, 0, 0, &r, c.p, &ws, size), what);
            }
        }
        if (kind == 4) {
            static const int sizes[] = {0, 1, 128, 255, 257, 511, 513, 1024, -256, -512, 2147483647,
                                        -2147483647 - 1};
            for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
                FAILS(r2d_rotsprite_v2_anime_sized(&a, 0, 0, 0, 0, NULL, c.p, &ws, sizes[i]), "bad size");
            /* a pending size change must not happen on an argument failure */
            FAILS(r2d_rotsprite_v2_anime_sized(&a, 0, 0, 9, 0, NULL, c.p, &ws, 256), "eyes 9, size 256");
        }
        if (kind >= 3) {
            FAILS(call_kind(kind, &a, 0, 0, 0, 0, NULL, c.p, NULL, size), "NULL workspace");
            CHECKF(memcmp(&snap, &ws, sizeof ws) == 0, "%s: workspace struct modified by a failing call",
                   KIND[kind]);
        }
#undef FAILS
        CHECKF(payload_is(&c, 0x6B) && canary_ok(&c), "%s: out modified by a failing call", KIND[kind]);
        r2d_rotsprite_anime_workspace_free(&ws);
        canary_free(&c);
    }
}

/* Model contents are never validated; count <= 0 renders blank and is true. */
static void test_render_not_validated(void) {
    R2DRotPoint pts[7];
    R2DRotAtlas a, empty, neg;
    R2DRotModelPose *m = (R2DRotModelPose *)calloc(1, sizeof *m);
    R2DRotRig rig = scene_a_rig();
    int kind;
    scene_a_points(pts);
    a = atlas_of(pts, 7);
    empty = atlas_of(pts, 0);
    neg = atlas_of(pts, -5);
    m->scale = NAN;
    m->parts[1].defined = m->parts[1].visible = true;
    m->parts[1].matrix[0] = NAN;
    m->parts[1].matrix[5] = INFINITY;
    rig.model = m;
    rig.body = 7; /* any non-zero value means true */
    for (kind = 0; kind < 5; kind++) {
        int size = kind == 4 ? 512 : 256;
        size_t n = out_bytes(kind, size);
        Canary c = canary_new(n, 0xAB);
        R2DRotAnimeWorkspace ws = ws_zero();
        CHECKF(call_kind(kind, &empty, 10, 5, 0, 0, NULL, c.p, &ws, size), "%s count 0", KIND[kind]);
        CHECKF(all_zero(c.p, n) && canary_ok(&c), "%s count 0 not blank", KIND[kind]);
        if (kind >= 3) {
            int N = 2 * size;
            CHECKF(ws.bounds[0] == N && ws.bounds[1] == N && ws.bounds[2] == 0 && ws.bounds[3] == 0,
                   "%s empty bounds %d,%d,%d,%d", KIND[kind], ws.bounds[0], ws.bounds[1], ws.bounds[2],
                   ws.bounds[3]);
            CHECK(ws.size == size);
        }
        memset(c.p, 0xAB, n);
        CHECKF(call_kind(kind, &neg, 10, 5, 0, 0, NULL, c.p, &ws, size), "%s count -5", KIND[kind]);
        CHECKF(all_zero(c.p, n) && canary_ok(&c), "%s count -5 not blank", KIND[kind]);
        if (kind != 1) {
            CHECKF(call_kind(kind, &a, 10, 5, 0, 0, &rig, c.p, &ws, size), "%s NaN model rejected", KIND[kind]);
            CHECK(canary_ok(&c));
        }
        r2d_rotsprite_anime_workspace_free(&ws);
        canary_free(&c);
    }
    free(m);
}

static void test_render_output_extent(void) {
    R2DRotPoint pts[7];
    R2DRotAtlas a;
    R2DRotRig rig = scene_a_rig();
    int kind;
    scene_a_points(pts);
    a = atlas_of(pts, 7);
    for (kind = 0; kind < 6; kind++) {
        int k = kind == 5 ? 4 : kind, size = kind == 5 ? 256 : 512;
        size_t n = out_bytes(k, size);
        Canary c = canary_new(n, 0xC3);
        R2DRotAnimeWorkspace ws = ws_zero();
        CHECK(call_kind(k, &a, 30, 10, 0, 0, k == 1 ? NULL : &rig, c.p, &ws, size));
        CHECKF(canary_ok(&c), "%s (size %d) wrote outside its %zu bytes", KIND[k], size, n);
        CHECKF(!payload_is(&c, 0xC3), "%s wrote nothing", KIND[k]);
        /* every byte is written: a second canary value gives the same output */
        {
            uint64_t h1 = fnv1a64(c.p, n);
            memset(c.p, 0x3C, n);
            CHECK(call_kind(k, &a, 30, 10, 0, 0, k == 1 ? NULL : &rig, c.p, &ws, size));
            CHECKF(fnv1a64(c.p, n) == h1, "%s: output depends on previous out contents", KIND[k]);
        }
        r2d_rotsprite_anime_workspace_free(&ws);
        canary_free(&c);
    }
}

/* ---- pixel raster ---------------------------------------------------- */

static void test_v2_raster_equals_draw_null(void) {
    R2DRotPoint pts[7];
    R2DRotAtlas a;
    static uint8_t r1[OUT128], r2[OUT128];
    const double poses[][2] = {{30, 10}, {-60, -20}, {0, 0}, {180, 75}, {123.5, -33}};
    size_t i;
    int eyes;
    scene_a_points(pts);
    a = atlas_of(pts, 7);
    for (i = 0; i < sizeof poses / sizeof poses[0]; i++)
        for (eyes = 0; eyes < 4; eyes++) {
            CHECK(r2d_rotsprite_v2_raster(&a, poses[i][0], poses[i][1], eyes, 3 - eyes, r1));
            CHECK(r2d_rotsprite_v2_draw(&a, poses[i][0], poses[i][1], eyes, 3 - eyes, NULL, r2));
            CHECKF(memcmp(r1, r2, OUT128) == 0, "pose %g,%g eyes %d", poses[i][0], poses[i][1], eyes);
        }
}

static void test_draw_angle_equivalences(void) {
    R2DRotPoint pts[7];
    R2DRotAtlas a;
    static uint8_t r1[OUT256], r2[OUT256];
    int yaw;
    scene_a_points(pts);
    a = atlas_of(pts, 7);
    for (yaw = -300; yaw <= 300; yaw += 47) {
        CHECK(r2d_rotsprite_v2_raster(&a, yaw, 10, 0, 0, r1));
        CHECK(r2d_rotsprite_v2_raster(&a, yaw + 360, 10, 0, 0, r2));
        CHECKF(memcmp(r1, r2, OUT128) == 0, "raster yaw %d vs +360", yaw);
        CHECK(r2d_rotsprite_v2_anime(&a, yaw, 10, 0, 0, NULL, r1));
        CHECK(r2d_rotsprite_v2_anime(&a, yaw + 360, 10, 0, 0, NULL, r2));
        CHECKF(memcmp(r1, r2, OUT256) == 0, "anime yaw %d vs +360", yaw);
    }
    CHECK(r2d_rotsprite_v2_raster(&a, 20, 80, 0, 0, r1));
    CHECK(r2d_rotsprite_v2_raster(&a, 20, 75, 0, 0, r2));
    CHECK(memcmp(r1, r2, OUT128) == 0);
    CHECK(r2d_rotsprite_v2_raster(&a, 20, -1000, 0, 0, r1));
    CHECK(r2d_rotsprite_v2_raster(&a, 20, -75, 0, 0, r2));
    CHECK(memcmp(r1, r2, OUT128) == 0);
    CHECK(r2d_rotsprite_v2_anime(&a, 20, 90, 0, 0, NULL, r1));
    CHECK(r2d_rotsprite_v2_anime(&a, 20, 75, 0, 0, NULL, r2));
    CHECK(memcmp(r1, r2, OUT256) == 0);
}

/* Transparent pixels are exactly 0; opaque pixels equal some point's rgba. */
static void test_draw_pixels_are_point_colours(void) {
    R2DRotPoint pts[7];
    R2DRotAtlas a;
    R2DRotRig rig = scene_a_rig();
    static uint8_t out[OUT128];
    int yaw, i, j, r, bad = 0;
    scene_a_points(pts);
    pts[3].rgba[3] = 77; /* partial alpha is copied as stored */
    a = atlas_of(pts, 7);
    for (r = 0; r < 2; r++)
        for (yaw = -180; yaw < 180; yaw += 20) {
            CHECK(r2d_rotsprite_v2_draw(&a, yaw, 15, 1, 0, r ? &rig : NULL, out));
            for (i = 0; i < 128 * 128; i++) {
                const uint8_t *q = out + 4 * i;
                int ok = 0;
                if (q[3] == 0) {
                    ok = q[0] == 0 && q[1] == 0 && q[2] == 0;
                } else {
                    for (j = 0; j < 7; j++)
                        if (memcmp(q, pts[j].rgba, 4) == 0) ok = 1;
                }
                if (!ok && bad++ < 5)
                    h_fail(__FILE__, __LINE__, "yaw %d pixel %d = %d,%d,%d,%d", yaw, i, q[0], q[1], q[2], q[3]);
            }
        }
}

/* Two opaque non-patch points with the same position and part but different
   colours: same image in either order; brighter wins, equal luminance ->
   lexicographically smaller bytes. Both renderers. The smooth renderer is
   checked at size 256: at 512 the splat radius is 6.4, squared distances
   reach 40.96 and f32(d) stored in `distance` may round down by more than the
   1e-6 tolerance of §8.4 step 9.4, so the spec's own algorithm makes the
   order observable there. */
static void test_order_independence(void) {
    static const uint8_t cols[][2][4] = {
        {{200, 10, 10, 255}, {10, 200, 10, 255}}, /* L: 12890 vs 37330 -> green */
        {{19, 0, 0, 255}, {0, 0, 54, 255}},       /* equal L 1026 -> (0,0,54) */
        {{5, 5, 5, 255}, {5, 5, 5, 200}},         /* equal L -> alpha 200 smaller */
    };
    static const uint8_t win[][4] = {{10, 200, 10, 255}, {0, 0, 54, 255}, {5, 5, 5, 200}};
    static uint8_t o1[OUT256], o2[OUT256];
    size_t c;
    int path;
    for (c = 0; c < 3; c++)
        for (path = 0; path < 2; path++) {
            R2DRotPoint p[2];
            R2DRotAtlas a;
            R2DRotModelPose *m = (R2DRotModelPose *)calloc(1, sizeof *m);
            R2DRotRig rig;
            R2DRotAnimeWorkspace ws = ws_zero();
            int i, k, seen = 0, bad = 0;
            memset(p, 0, sizeof p);
            for (k = 0; k < 2; k++) {
                p[k].part = 1;
                p[k].x = 3.3f;
                p[k].y = -2.1f;
                p[k].z = 4;
                memcpy(p[k].rgba, cols[c][k], 4);
            }
            m->scale = 1.5;
            mat_translate(m->parts[1].matrix, 1, 2, 3);
            m->parts[1].defined = m->parts[1].visible = true;
            rig = scene_b_rig(m);
            a = atlas_of(p, 2);
            CHECK(r2d_rotsprite_v2_draw(&a, 10, 5, 0, 0, path ? &rig : NULL, o1));
            for (i = 0; i < 128 * 128; i++)
                if (o1[4 * i + 3]) {
                    seen++;
                    if (memcmp(o1 + 4 * i, win[c], 4) != 0) bad++;
                }
            CHECKF(seen == 4 && bad == 0, "case %zu path %d: %d opaque, %d not the winner", c, path, seen, bad);
            R2DRotPoint t = p[0];
            p[0] = p[1];
            p[1] = t;
            CHECK(r2d_rotsprite_v2_draw(&a, 10, 5, 0, 0, path ? &rig : NULL, o2));
            CHECKF(memcmp(o1, o2, OUT128) == 0, "draw case %zu path %d: order matters", c, path);
            CHECK(r2d_rotsprite_v2_anime_sized(&a, 10, 5, 0, 0, path ? &rig : NULL, o1, &ws, 256));
            p[1] = p[0];
            p[0] = t;
            CHECK(r2d_rotsprite_v2_anime_sized(&a, 10, 5, 0, 0, path ? &rig : NULL, o2, &ws, 256));
            CHECKF(memcmp(o1, o2, OUT256) == 0, "anime case %zu path %d: order matters", c, path);
            for (i = 0; i < 256 * 256; i++)
                if (o1[4 * i + 3] == 255 && memcmp(o1 + 4 * i, win[c], 3) != 0) {
                    CHECKF(0, "anime case %zu: covered pixel not the winner", c);
                    break;
                }
            r2d_rotsprite_anime_workspace_free(&ws);
            free(m);
        }
}

/* Legacy far-eye rule (render Observable contract). */
static void test_legacy_far_eye_rule(void) {
    R2DRotPoint p;
    R2DRotAtlas a;
    R2DRotRig rig;
    static uint8_t o[OUT256];
    memset(&p, 0, sizeof p);
    p.part = 16;
    p.x = 5;
    p.y = 9;
    p.z = 10;
    p.rgba[0] = 255;
    p.rgba[3] = 255;
    a = atlas_of(&p, 1);
    memset(&rig, 0, sizeof rig);
    rig.body = true;
    rig.head_yaw = 90;
    CHECK(r2d_rotsprite_v2_raster(&a, 90, 0, 0, 0, o));
    CHECKF(count_alpha(o, 128 * 128) == 0, "raster yaw 90: far eye visible");
    CHECK(r2d_rotsprite_v2_raster(&a, -90, 0, 0, 0, o));
    CHECKF(count_alpha(o, 128 * 128) > 0, "raster yaw -90: near eye invisible");
    CHECK(r2d_rotsprite_v2_anime(&a, 90, 0, 0, 0, NULL, o));
    CHECKF(count_alpha(o, 256 * 256) == 0, "anime yaw 90: far eye visible");
    CHECK(r2d_rotsprite_v2_anime(&a, -90, 0, 0, 0, NULL, o));
    CHECKF(count_alpha(o, 256 * 256) > 0, "anime yaw -90: near eye invisible");
    CHECK(r2d_rotsprite_v2_draw(&a, 0, 0, 0, 0, &rig, o));
    CHECKF(count_alpha(o, 128 * 128) == 0, "draw head_yaw 90 at yaw 0: eye visible");
    CHECK(r2d_rotsprite_v2_anime(&a, 0, 0, 0, 0, &rig, o));
    CHECKF(count_alpha(o, 256 * 256) == 0, "anime head_yaw 90 at yaw 0: eye visible");
    rig.head_yaw = 0;
    CHECK(r2d_rotsprite_v2_draw(&a, 0, 0, 0, 0, &rig, o));
    CHECKF(count_alpha(o, 128 * 128) > 0, "draw head_yaw 0 at yaw 0: eye invisible");
}

/* Model path pixel test (render Observable contract). */
static void test_model_path_pixels(void) {
    R2DRotPoint p;
    R2DRotAtlas a;
    R2DRotModelPose *m = (R2DRotModelPose *)calloc(1, sizeof *m);
    R2DRotRig rig;
    static uint8_t o[OUT128];
    int i, n = 0;
    memset(&p, 0, sizeof p);
    p.part = 42;
    p.rgba[1] = 200;
    p.rgba[3] = 255;
    a = atlas_of(&p, 1);
    m->scale = 1;
    mat_translate(m->parts[42].matrix, 5, 3, 0);
    m->parts[42].defined = m->parts[42].visible = true;
    memset(&rig, 0, sizeof rig);
    rig.model = m;
    CHECK(r2d_rotsprite_v2_draw(&a, 0, 0, 0, 0, &rig, o));
    CHECK(o[(67 * 128 + 69) * 4 + 3] && o[(67 * 128 + 70) * 4 + 3]);
    CHECK(o[(68 * 128 + 69) * 4 + 3] && o[(68 * 128 + 70) * 4 + 3]);
    for (i = 0; i < 128 * 128; i++) n += o[4 * i + 3] != 0;
    CHECKF(n == 4, "%d opaque pixels, want the 2x2 splat", n);
    /* invisible or undefined part: nothing */
    m->parts[42].visible = false;
    CHECK(r2d_rotsprite_v2_draw(&a, 0, 0, 0, 0, &rig, o));
    CHECK(count_alpha(o, 128 * 128) == 0);
    free(m);
}

/* ---- blending (observed through the smooth renderer's sample_depth) ---- */

/* Renders one point (part 10 with blend part 11, weight w) at yaw 90, pitch 0
   with model scale 1; returns the depth of the covered pixels (= -X / 128)
   and the covered row range. */
static int blend_probe(const double mb[12], int weight, float *depth, int *row0, int *row1) {
    R2DRotPoint p;
    R2DRotAtlas a;
    R2DRotModelPose *m = (R2DRotModelPose *)calloc(1, sizeof *m);
    R2DRotRig rig;
    R2DRotAnimeWorkspace ws = ws_zero();
    static uint8_t o[OUT256];
    int i, n = 0, consistent = 1;
    memset(&p, 0, sizeof p);
    p.part = 10;
    p.x = 10;
    p.blend_part = 11;
    p.blend_weight = (uint8_t)weight;
    p.rgba[0] = 255;
    p.rgba[3] = 255;
    a = atlas_of(&p, 1);
    m->scale = 1;
    mat_translate(m->parts[10].matrix, 0, 0, 0);
    memcpy(m->parts[11].matrix, mb, 12 * sizeof(double));
    m->parts[10].defined = m->parts[10].visible = true;
    m->parts[11].defined = true; /* visibility of the blend part is ignored */
    memset(&rig, 0, sizeof rig);
    rig.model = m;
    rig.body = true;
    *row0 = 1 << 30;
    *row1 = -1;
    CHECK(r2d_rotsprite_v2_anime_workspace(&a, 90, 0, 0, 0, &rig, o, &ws));
    for (i = 0; i < 256 * 256; i++)
        if (ws.resolved[4 * i + 3]) {
            if (n == 0) *depth = ws.sample_depth[i];
            else if (ws.sample_depth[i] != *depth) consistent = 0;
            if (i / 256 < *row0) *row0 = i / 256;
            if (i / 256 > *row1) *row1 = i / 256;
            n++;
        }
    CHECK(consistent);
    r2d_rotsprite_anime_workspace_free(&ws);
    free(m);
    return n;
}

static void test_blend_vectors(void) {
    static const double rotz[12] = {0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0};
    static const double scale2[12] = {2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0};
    static const double mirror[12] = {-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    float d;
    int r0, r1;
    double w = 128 / 255.0, lin;
    /* DQ: (7.0480585404305973, 7.0940024535281436, 0); screen row = 128 + Y*4/2 */
    CHECK(blend_probe(rotz, 128, &d, &r0, &r1) > 0);
    CHECKF(d == (float)-7.0480585404305973 * 0.0078125f, "DQ blend X: depth %.9g want %.9g", d,
           (float)-7.0480585404305973 * 0.0078125f);
    CHECKF(r0 <= 142 && r1 >= 142, "DQ blend Y: rows %d..%d, want 142 (Y = 7.094)", r0, r1);
    /* non-rigid B: linear fallback (15.019607843137255, 0, 0) */
    CHECK(blend_probe(scale2, 128, &d, &r0, &r1) > 0);
    CHECKF(d == (float)-15.019607843137255 * 0.0078125f, "linear fallback X: depth %.9g", d);
    CHECKF(r0 <= 128 && r1 >= 128, "linear fallback Y: rows %d..%d", r0, r1);
    /* reflection (det < 0): linear too */
    lin = 10 * (1 - w) + w * -10.0;
    CHECK(blend_probe(mirror, 128, &d, &r0, &r1) > 0);
    CHECKF(d == (float)-lin * 0.0078125f, "reflection fallback X: depth %.9g want %.9g", d, (float)-lin * 0.0078125f);
}

/* Weight 0 (and an undefined blend part) give exactly the primary transform. */
static void test_blend_skipped(void) {
    static const double rotz[12] = {0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0};
    R2DRotPoint p[2];
    R2DRotAtlas a;
    R2DRotModelPose *m = (R2DRotModelPose *)calloc(1, sizeof *m);
    R2DRotRig rig;
    static uint8_t o1[OUT128], o2[OUT128];
    memset(p, 0, sizeof p);
    p[0].part = 10;
    p[0].x = 10.3f;
    p[0].y = 1.7f;
    p[0].rgba[3] = 255;
    p[0].rgba[0] = 9;
    p[1] = p[0];
    p[1].blend_part = 11;
    p[1].blend_weight = 0;
    m->scale = 3;
    mat_translate(m->parts[10].matrix, 0.37, 0.11, 0);
    memcpy(m->parts[11].matrix, rotz, sizeof rotz);
    m->parts[10].defined = m->parts[10].visible = m->parts[11].defined = true;
    memset(&rig, 0, sizeof rig);
    rig.model = m;
    a = atlas_of(&p[0], 1);
    CHECK(r2d_rotsprite_v2_draw(&a, 13, 7, 0, 0, &rig, o1));
    a = atlas_of(&p[1], 1);
    CHECK(r2d_rotsprite_v2_draw(&a, 13, 7, 0, 0, &rig, o2));
    CHECK(memcmp(o1, o2, OUT128) == 0);
    p[1].blend_weight = 200;
    m->parts[11].defined = false;
    CHECK(r2d_rotsprite_v2_draw(&a, 13, 7, 0, 0, &rig, o2));
    CHECK(memcmp(o1, o2, OUT128) == 0);
    free(m);
}

/* ---- joint ----------------------------------------------------------- */

static void joint_check(int line, int part, double x, double y, double z, double yaw, double pitch,
                        const R2DRotRig *rig, double wx, double wy) {
    double ox = -1, oy = -1;
    r2d_rotsprite_v2_joint(part, x, y, z, yaw, pitch, rig, &ox, &oy);
    if (!same_bits(ox, wx) || !same_bits(oy, wy))
        h_fail(__FILE__, line, "joint(part %d, %g,%g,%g, yaw %g, pitch %g) = (%.17g, %.17g), want (%.17g, %.17g)",
               part, x, y, z, yaw, pitch, ox, oy, wx, wy);
}

static void test_joint_vectors(void) {
    R2DRotRig r;
    memset(&r, 0, sizeof r);
    r.body = true;
    r.stride = 30;
    joint_check(__LINE__, 7, -11, 18, 0, 0, 0, &r, 53, 82);
    r.arm_left = 90;
    joint_check(__LINE__, 7, -11, 18, 0, 0, 0, &r, 26.5, 52.5);
    r.arm_left = 0;
    r.phase = 1;
    joint_check(__LINE__, 8, -5, 40, 0, 20, 10, &r, 62.544598578593117, 99.047409500262916);
    joint_check(__LINE__, 12, 5, 40, 1, 20, 10, &r, 66.090551808987541, 103.47247740001211);
    r.head_yaw = 30;
    joint_check(__LINE__, 1, 3, -5, 8, -40, 30, &r, 65.252190270160952, 38.123576878765206);
    joint_check(__LINE__, 1, 3, -5, 8, -40, 30, NULL, 58.311664903729238, 47.283027588144172);
    joint_check(__LINE__, 1, 3, -5, 8, 320, 30, NULL, 58.311664903729231, 47.283027588144172);
    /* part is taken modulo 256 */
    r.head_yaw = 0;
    r.phase = 1;
    joint_check(__LINE__, 8 + 256, -5, 40, 0, 20, 10, &r, 62.544598578593117, 99.047409500262916);
    joint_check(__LINE__, 8 - 512, -5, 40, 0, 20, 10, &r, 62.544598578593117, 99.047409500262916);
}

static void test_joint_quirks(void) {
    R2DRotModelPose *m = (R2DRotModelPose *)calloc(1, sizeof *m);
    R2DRotRig r;
    double ox = 5, oy = 6;
    memset(&r, 0, sizeof r);
    /* inputs rounded to float; no-body scale 2 */
    joint_check(__LINE__, 1, 0.1, 0.3, 0, 0, 0, NULL, 64 + (double)0.1f * 2, 64 + (double)0.3f * 2);
    CHECK(64 + (double)0.1f * 2 != 64 + 0.1 * 2);
    /* pitch is not clamped: 90 */
    joint_check(__LINE__, 1, 0, 0, 10, 0, 90, NULL, 64, 64 - sin(rad(90)) * (cos(rad(0)) * 10) * 2);
    /* model rig: the part matrix is used even when undefined; scale ignored */
    m->scale = 10;
    mat_translate(m->parts[7].matrix, 5, 3, 0);
    r.model = m;
    r.body = true;
    joint_check(__LINE__, 7, 0, 0, 0, 0, 0, &r, 69, 67);
    r.body = false;
    joint_check(__LINE__, 7, 0, 0, 0, 0, 0, &r, 74, 70);
    /* NaN propagates, nothing rejected */
    r2d_rotsprite_v2_joint(1, NAN, 0, 0, 0, 0, NULL, &ox, &oy);
    CHECK(ox != ox);
    r2d_rotsprite_v2_joint(1, 0, 0, 0, INFINITY, 0, NULL, &ox, &oy);
    CHECK(ox != ox && oy != oy);
    /* NULL outputs: the other one is still written */
    ox = oy = -1;
    r2d_rotsprite_v2_joint(1, 3, -5, 8, -40, 30, NULL, NULL, &oy);
    CHECK(same_bits(oy, 47.283027588144172));
    r2d_rotsprite_v2_joint(1, 3, -5, 8, -40, 30, NULL, &ox, NULL);
    CHECK(same_bits(ox, 58.311664903729238));
    r2d_rotsprite_v2_joint(1, 3, -5, 8, -40, 30, NULL, NULL, NULL);
    free(m);
}

/* ---- smooth synthesis ------------------------------------------------ */

typedef struct Frame {
    uint64_t out, sd, res;
    int alpha;
    int bounds[4];
    int size;
} Frame;

static void frame_of(Frame *f, const uint8_t *out, const R2DRotAnimeWorkspace *ws, int size) {
    size_t n = (size_t)size * size;
    f->out = fnv1a64(out, n * 4);
    f->sd = fnv1a64(ws->sample_depth, n * 4);
    f->res = fnv1a64(ws->resolved, n * 4);
    f->alpha = count_alpha(out, n);
    memcpy(f->bounds, ws->bounds, sizeof f->bounds);
    f->size = ws->size;
}

static void frame_expect(int line, const char *what, const Frame *f, uint64_t out, int alpha, int b0, int b1,
                         int b2, int b3, uint64_t sd, uint64_t res) {
    if (f->out != out || f->alpha != alpha)
        h_fail(__FILE__, line, "%s: out %016llx (%d) want %016llx (%d)", what, (unsigned long long)f->out,
               f->alpha, (unsigned long long)out, alpha);
    if (f->bounds[0] != b0 || f->bounds[1] != b1 || f->bounds[2] != b2 || f->bounds[3] != b3)
        h_fail(__FILE__, line, "%s: bounds (%d,%d,%d,%d) want (%d,%d,%d,%d)", what, f->bounds[0], f->bounds[1],
               f->bounds[2], f->bounds[3], b0, b1, b2, b3);
    if (f->sd != sd)
        h_fail(__FILE__, line, "%s: sample_depth %016llx want %016llx", what, (unsigned long long)f->sd,
               (unsigned long long)sd);
    if (f->res != res)
        h_fail(__FILE__, line, "%s: resolved %016llx want %016llx", what, (unsigned long long)f->res,
               (unsigned long long)res);
}

static void test_scene_a_reference(void) {
    R2DRotPoint pts[7];
    R2DRotAtlas a;
    R2DRotRig rig = scene_a_rig();
    R2DRotAnimeWorkspace ws = ws_zero();
    static uint8_t o[OUT512];
    Frame f;
    scene_a_points(pts);
    a = atlas_of(pts, 7);
    CHECK(r2d_rotsprite_v2_raster(&a, 30, 10, 0, 0, o));
    CHECKF(fnv1a64(o, OUT128) == 0x0c9e448d2d6602edULL && count_alpha(o, 16384) == 16,
           "raster: %016llx (%d)", (unsigned long long)fnv1a64(o, OUT128), count_alpha(o, 16384));
    CHECK(r2d_rotsprite_v2_draw(&a, -60, -20, 1, 0, &rig, o));
    CHECKF(fnv1a64(o, OUT128) == 0x5ff4a38b59f36c75ULL && count_alpha(o, 16384) == 16, "draw R: %016llx (%d)",
           (unsigned long long)fnv1a64(o, OUT128), count_alpha(o, 16384));
    CHECK(r2d_rotsprite_v2_anime_sized(&a, 30, 10, 0, 0, NULL, o, &ws, 256));
    frame_of(&f, o, &ws, 256);
    frame_expect(__LINE__, "A anime 256", &f, 0xed35a88a40b97ca4ULL, 273, 236, 219, 335, 323, 0x518cc3751ec4c4a6ULL,
                 0x520cf13c001f0b38ULL);
    CHECK(r2d_rotsprite_v2_anime_sized(&a, -60, -20, 1, 0, &rig, o, &ws, 256));
    frame_of(&f, o, &ws, 256);
    frame_expect(__LINE__, "A anime 256 rig R", &f, 0x241f68b67f5ea25fULL, 42, 241, 157, 261, 336,
                 0x3b21097567fe26b4ULL, 0xf387a69e8316c7f8ULL);
    CHECK(r2d_rotsprite_v2_anime_sized(&a, 30, 10, 0, 0, NULL, o, &ws, 512));
    frame_of(&f, o, &ws, 512);
    frame_expect(__LINE__, "A anime 512", &f, 0x2b44fff44c8a32ccULL, 1053, 472, 438, 668, 644, 0x975235f1a0932d13ULL,
                 0xa7c756bbebebd182ULL);
    CHECK(ws.size == 512);
    r2d_rotsprite_anime_workspace_free(&ws);
}

static void test_scene_b_reference(void) {
    R2DRotPoint pts[5];
    R2DRotAtlas a;
    R2DRotModelPose *m = (R2DRotModelPose *)calloc(1, sizeof *m);
    R2DRotRig rig;
    R2DRotAnimeWorkspace ws = ws_zero();
    static uint8_t o[OUT512];
    Frame f;
    scene_b_points(pts);
    scene_b_model(m);
    rig = scene_b_rig(m);
    a = atlas_of(pts, 5);
    CHECK(r2d_rotsprite_v2_draw(&a, 25, -5, 0, 0, &rig, o));
    CHECKF(fnv1a64(o, OUT128) == 0x78110086f47514edULL && count_alpha(o, 16384) == 16, "draw 25: %016llx (%d)",
           (unsigned long long)fnv1a64(o, OUT128), count_alpha(o, 16384));
    CHECK(r2d_rotsprite_v2_draw(&a, 160, -5, 0, 0, &rig, o));
    CHECKF(fnv1a64(o, OUT128) == 0xd001c2b8e73663ddULL && count_alpha(o, 16384) == 12, "draw 160: %016llx (%d)",
           (unsigned long long)fnv1a64(o, OUT128), count_alpha(o, 16384));
    CHECK(r2d_rotsprite_v2_anime_sized(&a, 25, -5, 0, 0, &rig, o, &ws, 256));
    frame_of(&f, o, &ws, 256);
    frame_expect(__LINE__, "B anime 256", &f, 0x8e2d0020a3bb0d67ULL, 66, 241, 195, 283, 287, 0x72357290cbdedc8fULL,
                 0x7c8c8ecf85707cf5ULL);
    CHECK(r2d_rotsprite_v2_anime_sized(&a, 25, -5, 1, 0, &rig, o, &ws, 512));
    frame_of(&f, o, &ws, 512);
    frame_expect(__LINE__, "B anime 512 eyes 1", &f, 0x82284fee279ff3acULL, 214, 483, 390, 566, 572,
                 0xb5129495123195d8ULL, 0xa07aa8946acd6988ULL);
    r2d_rotsprite_anime_workspace_free(&ws);
    CHECK(r2d_rotsprite_v2_anime(&a, 160, -5, 0, 0, &rig, o));
    CHECKF(fnv1a64(o, OUT256) == 0xac9020529e4d2103ULL && count_alpha(o, 65536) == 56, "anime 160: %016llx (%d)",
           (unsigned long long)fnv1a64(o, OUT256), count_alpha(o, 65536));
    free(m);
}

/* anime == anime_workspace (fresh) == sized 256. */
static void test_anime_wrappers_agree(void) {
    R2DRotPoint pa[7], pb[5];
    R2DRotModelPose *m = (R2DRotModelPose *)calloc(1, sizeof *m);
    R2DRotRig ra = scene_a_rig(), rb;
    static uint8_t o1[OUT256], o2[OUT256], o3[OUT256];
    int s;
    scene_a_points(pa);
    scene_b_points(pb);
    scene_b_model(m);
    rb = scene_b_rig(m);
    for (s = 0; s < 3; s++) {
        R2DRotAtlas a = s == 2 ? atlas_of(pb, 5) : atlas_of(pa, 7);
        const R2DRotRig *rig = s == 0 ? NULL : (s == 1 ? &ra : &rb);
        R2DRotAnimeWorkspace w1 = ws_zero(), w2 = ws_zero();
        CHECK(r2d_rotsprite_v2_anime(&a, 33, -12, 1, 0, rig, o1));
        CHECK(r2d_rotsprite_v2_anime_workspace(&a, 33, -12, 1, 0, rig, o2, &w1));
        CHECK(r2d_rotsprite_v2_anime_sized(&a, 33, -12, 1, 0, rig, o3, &w2, 256));
        CHECKF(memcmp(o1, o2, OUT256) == 0 && memcmp(o2, o3, OUT256) == 0, "scene %d: wrappers differ", s);
        CHECK(w1.size == 256 && w2.size == 256);
        CHECK(memcmp(w1.bounds, w2.bounds, sizeof w1.bounds) == 0);
        CHECK(memcmp(w1.sample_depth, w2.sample_depth, 256 * 256 * 4) == 0);
        CHECK(memcmp(w1.resolved, w2.resolved, OUT256) == 0);
        r2d_rotsprite_anime_workspace_free(&w1);
        r2d_rotsprite_anime_workspace_free(&w2);
    }
    free(m);
}

/* Smooth output has fractional alphas 64/128/191 and extruded colours. */
static void test_anime_silhouette_and_extrusion(void) {
    R2DRotPoint pts[7];
    R2DRotAtlas a;
    R2DRotAnimeWorkspace ws = ws_zero();
    static uint8_t o[OUT256];
    int i, h64 = 0, h128 = 0, h191 = 0, extr = 0, x, y;
    scene_a_points(pts);
    a = atlas_of(pts, 7);
    CHECK(r2d_rotsprite_v2_anime_workspace(&a, 30, 10, 0, 0, NULL, o, &ws));
    for (i = 0; i < 256 * 256; i++) {
        h64 += o[4 * i + 3] == 64;
        h128 += o[4 * i + 3] == 128;
        h191 += o[4 * i + 3] == 191;
    }
    CHECKF(h64 && h128 && h191, "alpha 64/128/191 counts %d/%d/%d", h64, h128, h191);
    for (y = 1; y < 255; y++)
        for (x = 1; x < 255; x++) {
            const uint8_t *q = o + (y * 256 + x) * 4;
            if (q[3] == 0 && (q[0] | q[1] | q[2])) {
                /* the RGB is that of a neighbour in resolved with non-zero alpha */
                int dx, dy, found = 0;
                extr++;
                for (dy = -1; dy <= 1; dy++)
                    for (dx = -1; dx <= 1; dx++) {
                        const uint8_t *r = ws.resolved + ((y + dy) * 256 + x + dx) * 4;
                        if (r[3] && memcmp(r, q, 3) == 0) found = 1;
                    }
                if (!found) {
                    CHECKF(0, "extruded pixel (%d,%d) matches no neighbour", x, y);
                    y = 255;
                    break;
                }
                CHECK(ws.resolved[(y * 256 + x) * 4 + 3] == 0);
            }
        }
    CHECKF(extr > 0, "no extruded pixel");
    /* resolved differs from out only by the extrusion */
    for (i = 0; i < 256 * 256; i++) {
        const uint8_t *q = o + 4 * i, *r = ws.resolved + 4 * i;
        if (r[3] != q[3] || (r[3] != 0 && memcmp(r, q, 4) != 0)) {
            CHECKF(0, "pixel %d: out and resolved differ on a covered pixel", i);
            break;
        }
    }
    /* sample_depth is +0.0 wherever the pixel is uncovered */
    for (i = 0; i < 256 * 256; i++) {
        const uint8_t *r = ws.resolved + 4 * i;
        float z = 0.0f;
        if (r[0] == 0 && r[1] == 0 && r[2] == 0 && r[3] == 0 && memcmp(&ws.sample_depth[i], &z, 4) != 0) {
            CHECKF(0, "pixel %d uncovered but sample_depth %g", i, ws.sample_depth[i]);
            break;
        }
    }
    r2d_rotsprite_anime_workspace_free(&ws);
}

/* Reuse of one workspace == fresh workspace for every call. */
static void test_workspace_reuse_equals_fresh(void) {
    R2DRotPoint pa[7], pb[5], big[40];
    R2DRotModelPose *m = (R2DRotModelPose *)calloc(1, sizeof *m), *hidden;
    R2DRotRig ra = scene_a_rig(), rb, rh;
    R2DRotAnimeWorkspace reused = ws_zero();
    static uint8_t o1[OUT512], o2[OUT512];
    int step, i;
    scene_a_points(pa);
    scene_b_points(pb);
    scene_b_model(m);
    hidden = (R2DRotModelPose *)malloc(sizeof *hidden);
    memcpy(hidden, m, sizeof *m);
    for (i = 80; i <= 84; i++) hidden->parts[i].visible = false;
    rb = scene_b_rig(m);
    rh = scene_b_rig(hidden);
    for (i = 0; i < 40; i++) {
        big[i] = pa[i % 7];
        big[i].x += (float)(i * 3 - 60);
        big[i].y += (float)((i % 5) * 7 - 14);
    }
    for (step = 0; step < 14; step++) {
        static const int sizes[] = {256, 256, 512, 512, 256, 256, 512, 256, 256, 512, 512, 256, 256, 256};
        int size = sizes[step];
        size_t n = (size_t)size * size;
        R2DRotAtlas a;
        const R2DRotRig *rig;
        R2DRotAnimeWorkspace fresh = ws_zero();
        double yaw = -170 + step * 29.5, pitch = -60 + step * 9;
        switch (step % 7) {
        case 0: a = atlas_of(pa, 7); rig = NULL; break;
        case 1: a = atlas_of(big, 40); rig = &ra; break;
        case 2: a = atlas_of(pb, 5); rig = &rb; break;
        case 3: a = atlas_of(pa, 0); rig = NULL; break; /* empty frame */
        case 4: a = atlas_of(pb, 5); rig = &rh; break;  /* hidden parts */
        case 5: a = atlas_of(big, 40); rig = NULL; break;
        default: a = atlas_of(pb, 5); rig = &rb; break;
        }
        CHECK(r2d_rotsprite_v2_anime_sized(&a, yaw, pitch, step % 4, 0, rig, o1, &reused, size));
        CHECK(r2d_rotsprite_v2_anime_sized(&a, yaw, pitch, step % 4, 0, rig, o2, &fresh, size));
        CHECKF(memcmp(o1, o2, n * 4) == 0, "step %d: out differs", step);
        CHECKF(memcmp(reused.sample_depth, fresh.sample_depth, n * 4) == 0, "step %d: sample_depth differs", step);
        CHECKF(memcmp(reused.resolved, fresh.resolved, n * 4) == 0, "step %d: resolved differs", step);
        CHECKF(memcmp(reused.bounds, fresh.bounds, sizeof fresh.bounds) == 0, "step %d: bounds differ", step);
        CHECKF(reused.size == size && fresh.size == size, "step %d: size %d/%d want %d", step, reused.size,
               fresh.size, size);
        r2d_rotsprite_anime_workspace_free(&fresh);
    }
    r2d_rotsprite_anime_workspace_free(&reused);
    free(m);
    free(hidden);
}

/* Bounds of the last frame; outside bounds the supersample buffers are clear. */
static void test_workspace_state_after_call(void) {
    R2DRotPoint pts[7];
    R2DRotAtlas a;
    R2DRotAnimeWorkspace ws = ws_zero();
    static uint8_t o[OUT256];
    int x, y, bad = 0;
    scene_a_points(pts);
    a = atlas_of(pts, 7);
    CHECK(r2d_rotsprite_v2_anime_workspace(&a, 30, 10, 0, 0, NULL, o, &ws));
    CHECK(ws.size == 256 && ws.depth && ws.distance && ws.rgba && ws.resolved && ws.sample_depth);
    for (y = 0; y < 512; y++)
        for (x = 0; x < 512; x++) {
            int inside = x >= ws.bounds[0] && x < ws.bounds[2] && y >= ws.bounds[1] && y < ws.bounds[3];
            size_t n = (size_t)y * 512 + x;
            if (!inside && (ws.depth[n] != -1e9f || ws.distance[n] != 1e9f || ws.rgba[4 * n] || ws.rgba[4 * n + 1] ||
                            ws.rgba[4 * n + 2] || ws.rgba[4 * n + 3]))
                bad++;
        }
    CHECKF(bad == 0, "%d supersamples outside bounds not in the cleared state", bad);
    r2d_rotsprite_anime_workspace_free(&ws);
}

static void test_workspace_free(void) {
    R2DRotPoint pts[7];
    R2DRotAtlas a;
    R2DRotAnimeWorkspace ws = ws_zero(), z;
    static uint8_t o[OUT512];
    scene_a_points(pts);
    a = atlas_of(pts, 7);
    memset(&z, 0, sizeof z);
    r2d_rotsprite_anime_workspace_free(NULL);
    r2d_rotsprite_anime_workspace_free(&ws);
    CHECK(memcmp(&ws, &z, sizeof z) == 0);
    CHECK(r2d_rotsprite_v2_anime_sized(&a, 0, 0, 0, 0, NULL, o, &ws, 512));
    CHECK(ws.size == 512);
    r2d_rotsprite_anime_workspace_free(&ws);
    CHECK(memcmp(&ws, &z, sizeof z) == 0);
    r2d_rotsprite_anime_workspace_free(&ws);
    CHECK(memcmp(&ws, &z, sizeof z) == 0);
    /* bounds and size are zeroed even with NULL buffers */
    ws.bounds[0] = 5;
    ws.bounds[3] = 9;
    ws.size = 256;
    r2d_rotsprite_anime_workspace_free(&ws);
    CHECK(memcmp(&ws, &z, sizeof z) == 0);
    /* after 512, a 256 call reallocates */
    CHECK(r2d_rotsprite_v2_anime_sized(&a, 0, 0, 0, 0, NULL, o, &ws, 512));
    CHECK(r2d_rotsprite_v2_anime_sized(&a, 0, 0, 0, 0, NULL, o, &ws, 256));
    CHECK(ws.size == 256);
    ws.depth[512 * 512 - 1] = 0; /* buffers really are N = 512 sized (ASan) */
    ws.rgba[512 * 512 * 4 - 1] = 0;
    ws.resolved[256 * 256 * 4 - 1] = 0;
    /* workspace buffers may be released with C free() */
    free(ws.depth);
    free(ws.distance);
    free(ws.sample_depth);
    free(ws.rgba);
    free(ws.resolved);
}

/* A caller may hand over buffers it allocated with malloc (c-abi.md §4). */
static void test_workspace_caller_malloc(void) {
    R2DRotPoint pts[7];
    R2DRotAtlas a;
    R2DRotAnimeWorkspace ws = ws_zero(), fresh = ws_zero();
    static uint8_t o1[OUT512], o2[OUT512];
    scene_a_points(pts);
    a = atlas_of(pts, 7);
    ws.depth = (float *)malloc(512 * 512 * 4);
    ws.distance = (float *)malloc(512 * 512 * 4);
    ws.rgba = (uint8_t *)malloc(512 * 512 * 4);
    ws.resolved = (uint8_t *)malloc(256 * 256 * 4);
    ws.sample_depth = (float *)malloc(256 * 256 * 4);
    memset(ws.depth, 0x41, 512 * 512 * 4);
    memset(ws.distance, 0x42, 512 * 512 * 4);
    memset(ws.rgba, 0x43, 512 * 512 * 4);
    memset(ws.resolved, 0x44, 256 * 256 * 4);
    memset(ws.sample_depth, 0x45, 256 * 256 * 4);
    ws.bounds[0] = 0;
    ws.bounds[1] = 0;
    ws.bounds[2] = 512;
    ws.bounds[3] = 512;
    ws.size = 256;
    CHECK(r2d_rotsprite_v2_anime_sized(&a, 30, 10, 0, 0, NULL, o1, &ws, 256));
    CHECK(r2d_rotsprite_v2_anime_sized(&a, 30, 10, 0, 0, NULL, o2, &fresh, 256));
    CHECK(memcmp(o1, o2, OUT256) == 0);
    CHECK(memcmp(ws.sample_depth, fresh.sample_depth, OUT256) == 0);
    /* size change: the library releases the caller's buffers with C free */
    CHECK(r2d_rotsprite_v2_anime_sized(&a, 30, 10, 0, 0, NULL, o1, &ws, 512));
    CHECK(ws.size == 512);
    CHECK(fnv1a64(o1, OUT512) == 0x2b44fff44c8a32ccULL);
    r2d_rotsprite_anime_workspace_free(&ws);
    r2d_rotsprite_anime_workspace_free(&fresh);
}

/* Quirk 21: non-finite / far-away points draw nothing and stay in bounds. */
static void test_far_and_nonfinite_points(void) {
    static const float vals[] = {NAN, INFINITY, -INFINITY, 1e12f, -1e12f, 3e9f};
    static uint8_t o[OUT512];
    size_t i;
    int path;
    R2DRotModelPose *m = (R2DRotModelPose *)calloc(1, sizeof *m);
    R2DRotRig rig;
    mat_translate(m->parts[1].matrix, 0, 0, 0);
    m->parts[1].defined = m->parts[1].visible = true;
    m->scale = 1;
    rig = scene_b_rig(m);
    for (path = 0; path < 2; path++)
        for (i = 0; i < sizeof vals / sizeof vals[0]; i++) {
            R2DRotPoint p;
            R2DRotAtlas a;
            R2DRotAnimeWorkspace ws = ws_zero();
            memset(&p, 0, sizeof p);
            p.part = 1;
            p.x = vals[i];
            p.y = vals[i];
            p.rgba[0] = 1;
            p.rgba[3] = 255;
            a = atlas_of(&p, 1);
            CHECK(r2d_rotsprite_v2_draw(&a, 0, 0, 0, 0, path ? &rig : NULL, o));
            CHECKF(all_zero(o, OUT128), "draw: point at %g drew something", (double)vals[i]);
            CHECK(r2d_rotsprite_v2_anime_sized(&a, 0, 0, 0, 0, path ? &rig : NULL, o, &ws, 512));
            CHECKF(all_zero(o, OUT512), "anime: point at %g drew something", (double)vals[i]);
            CHECKF(ws.bounds[0] == 1024 && ws.bounds[1] == 1024 && ws.bounds[2] == 0 && ws.bounds[3] == 0,
                   "anime: point at %g recorded bounds %d,%d,%d,%d", (double)vals[i], ws.bounds[0], ws.bounds[1],
                   ws.bounds[2], ws.bounds[3]);
            /* an all-NaN patch: box = whole grid, nothing written */
            if (vals[i] != vals[i]) {
                p.patch = true;
                p.z = NAN;
                p.du[0] = 1;
                p.dv[1] = 1;
                memset(p.colors, 255, sizeof p.colors);
                CHECK(r2d_rotsprite_v2_anime_sized(&a, 0, 0, 0, 0, path ? &rig : NULL, o, &ws, 256));
                CHECK(all_zero(o, OUT256));
                CHECKF(ws.bounds[0] == 0 && ws.bounds[1] == 0 && ws.bounds[2] == 512 && ws.bounds[3] == 512,
                       "NaN patch bounds %d,%d,%d,%d", ws.bounds[0], ws.bounds[1], ws.bounds[2], ws.bounds[3]);
            }
            r2d_rotsprite_anime_workspace_free(&ws);
        }
    free(m);
}

/* bool fields read from callers: any non-zero byte is true (c-abi.md §2.8). */
static void test_nonzero_bool_bytes_are_true(void) {
    R2DRotPoint pts[7], pb[5], pb2[5];
    R2DRotAtlas a, b, b2;
    R2DRotRig rig = scene_a_rig(), rig2, rb, rb2;
    R2DRotModelPose *m = (R2DRotModelPose *)calloc(1, sizeof *m), *m2 = (R2DRotModelPose *)malloc(sizeof *m);
    static uint8_t o1[OUT256], o2[OUT256];
    const uint8_t two = 2, big = 0x80;
    int i;
    scene_a_points(pts);
    a = atlas_of(pts, 7);
    rig2 = rig;
    memcpy((uint8_t *)&rig2 + offsetof(R2DRotRig, body), &two, 1);
    CHECK(r2d_rotsprite_v2_draw(&a, -60, -20, 1, 0, &rig, o1));
    CHECK(r2d_rotsprite_v2_draw(&a, -60, -20, 1, 0, &rig2, o2));
    CHECK(memcmp(o1, o2, OUT128) == 0);
    CHECK(r2d_rotsprite_v2_anime(&a, -60, -20, 1, 0, &rig, o1));
    CHECK(r2d_rotsprite_v2_anime(&a, -60, -20, 1, 0, &rig2, o2));
    CHECK(memcmp(o1, o2, OUT256) == 0);
    scene_b_points(pb);
    scene_b_model(m);
    memcpy(m2, m, sizeof *m);
    memcpy(pb2, pb, sizeof pb);
    for (i = 80; i <= 84; i++) {
        memcpy((uint8_t *)&m2->parts[i] + offsetof(R2DRotPartPose, defined), &big, 1);
        memcpy((uint8_t *)&m2->parts[i] + offsetof(R2DRotPartPose, visible), &two, 1);
    }
    memcpy((uint8_t *)&m2->parts[83] + offsetof(R2DRotPartPose, one_sided), &big, 1);
    memcpy((uint8_t *)&pb2[1] + offsetof(R2DRotPoint, patch), &two, 1);
    memcpy((uint8_t *)&pb2[1] + offsetof(R2DRotPoint, textured), &big, 1);
    rb = scene_b_rig(m);
    rb2 = scene_b_rig(m2);
    b = atlas_of(pb, 5);
    b2 = atlas_of(pb2, 5);
    CHECK(r2d_rotsprite_v2_draw(&b, 25, -5, 0, 0, &rb, o1));
    CHECK(r2d_rotsprite_v2_draw(&b2, 25, -5, 0, 0, &rb2, o2));
    CHECK(memcmp(o1, o2, OUT128) == 0);
    CHECK(r2d_rotsprite_v2_anime(&b, 25, -5, 0, 0, &rb, o1));
    CHECK(r2d_rotsprite_v2_anime(&b2, 25, -5, 0, 0, &rb2, o2));
    CHECK(memcmp(o1, o2, OUT256) == 0);
    CHECK(fnv1a64(o2, OUT256) == 0x8e2d0020a3bb0d67ULL);
    free(m);
    free(m2);
}

void render_tests(void) {
    RUN(test_render_validation);
    RUN(test_render_not_validated);
    RUN(test_render_output_extent);
    RUN(test_v2_raster_equals_draw_null);
    RUN(test_draw_angle_equivalences);
    RUN(test_draw_pixels_are_point_colours);
    RUN(test_order_independence);
    RUN(test_legacy_far_eye_rule);
    RUN(test_model_path_pixels);
    RUN(test_blend_vectors);
    RUN(test_blend_skipped);
    RUN(test_joint_vectors);
    RUN(test_joint_quirks);
    RUN(test_scene_a_reference);
    RUN(test_scene_b_reference);
    RUN(test_anime_wrappers_agree);
    RUN(test_anime_silhouette_and_extrusion);
    RUN(test_workspace_reuse_equals_fresh);
    RUN(test_workspace_state_after_call);
    RUN(test_workspace_free);
    RUN(test_workspace_caller_malloc);
    RUN(test_far_and_nonfinite_points);
    RUN(test_nonzero_bool_bytes_are_true);
}
