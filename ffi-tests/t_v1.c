/* re2d ffi-tests: v1 entry points — layout, angles, 64 px raster (rotsprite-v1.md Observable contract). */
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "harness.h"
#include "tests.h"
#include "util.h"

#define OUT1 16384

static void test_layout_accepts_exactly(void) {
    int w, h, bad = 0;
    for (w = -16; w <= 4200; w++) {
        int cell = -7;
        bool want = (w % 8 == 0) && w >= 64 && w <= 2048;
        bool got = r2d_rotsprite_layout(w, w, &cell);
        if (got != want || (got && cell != w / 8) || (!got && cell != -7)) {
            if (bad++ < 5) h_fail(__FILE__, __LINE__, "layout(%d,%d): got %d cell %d", w, w, got, cell);
        }
    }
    for (w = 64; w <= 2048; w += 8) {
        for (h = w - 16; h <= w + 16; h += 8) {
            int cell = -7;
            if (h == w) continue;
            if (r2d_rotsprite_layout(w, h, &cell) || cell != -7)
                if (bad++ < 10) h_fail(__FILE__, __LINE__, "non-square layout(%d,%d) accepted", w, h);
        }
    }
    {
        int cell = -7;
        CHECK(!r2d_rotsprite_layout(56, 56, &cell) && cell == -7);
        CHECK(!r2d_rotsprite_layout(65, 65, &cell) && cell == -7);
        CHECK(!r2d_rotsprite_layout(2056, 2056, &cell) && cell == -7);
        CHECK(!r2d_rotsprite_layout(4096, 4096, &cell) && cell == -7);
        CHECK(!r2d_rotsprite_layout(64, 72, &cell) && cell == -7);
        CHECK(!r2d_rotsprite_layout(-2147483647 - 1, -2147483647 - 1, &cell) && cell == -7);
        CHECK(!r2d_rotsprite_layout(2147483647, 2147483647, &cell) && cell == -7);
        CHECK(r2d_rotsprite_layout(2048, 2048, &cell) && cell == 256);
        CHECK(r2d_rotsprite_layout(64, 64, &cell) && cell == 8);
    }
    CHECK(r2d_rotsprite_layout(64, 64, NULL));
    CHECK(r2d_rotsprite_layout(128, 128, NULL));
    CHECK(!r2d_rotsprite_layout(63, 63, NULL));
}

static int same_double(double a, double b) {
    return memcmp(&a, &b, sizeof a) == 0;
}

static void test_angles_reference_table(void) {
    static const double in[][4] = {
        /* yaw, pitch, out_yaw, out_pitch */
        {-0.0, -0.0, 0.0, -0.0}, {-720, 80, 0.0, 75}, {540, -80, -180, -75}, {-540, 0, -180, 0},
        {180, 0, -180, 0},       {-180, 0, -180, 0},  {-190, 0, 170, 0},      {359.5, 75, -0.5, 75},
        {725, -75, 5, -75},
    };
    size_t i;
    for (i = 0; i < sizeof in / sizeof in[0]; i++) {
        double oy = 1234, op = 5678;
        bool ok = r2d_rotsprite_angles(in[i][0], in[i][1], &oy, &op);
        CHECKF(ok, "angles(%g,%g) returned false", in[i][0], in[i][1]);
        CHECKF(same_double(oy, in[i][2]) && same_double(op, in[i][3]),
               "angles(%g,%g) = (%a,%a), want (%a,%a)", in[i][0], in[i][1], oy, op, in[i][2], in[i][3]);
    }
    {
        /* -0.0 yaw with a non-zero pitch; pitch inside the range passes through. */
        double oy = 1, op = 1;
        CHECK(r2d_rotsprite_angles(-360.0, 12.25, &oy, &op));
        CHECK(same_double(oy, 0.0) && same_double(op, 12.25));
    }
}

static void test_angles_rejects(void) {
    const double bad[] = {NAN, INFINITY, -INFINITY};
    size_t i;
    for (i = 0; i < 3; i++) {
        double oy = 1234, op = 5678;
        CHECK(!r2d_rotsprite_angles(bad[i], 0, &oy, &op));
        CHECK(oy == 1234 && op == 5678);
        CHECK(!r2d_rotsprite_angles(0, bad[i], &oy, &op));
        CHECK(oy == 1234 && op == 5678);
    }
    {
        double v = 99;
        CHECK(!r2d_rotsprite_angles(10, 10, NULL, &v));
        CHECK(v == 99);
        CHECK(!r2d_rotsprite_angles(10, 10, &v, NULL));
        CHECK(v == 99);
        CHECK(!r2d_rotsprite_angles(10, 10, NULL, NULL));
    }
}

static uint64_t raster_hash(const uint8_t *atlas, int w, int stride, double yaw, double pitch, int *cov) {
    uint8_t out[OUT1];
    memset(out, 0x5C, sizeof out);
    if (!r2d_rotsprite_raster(atlas, w, w, stride, yaw, pitch, out)) {
        *cov = -1;
        return 0;
    }
    *cov = count_alpha(out, 4096);
    return fnv1a64(out, sizeof out);
}

static const struct {
    double yaw, pitch;
    uint64_t ha;
    int ca;
    uint64_t hb;
    int cb;
} DIGESTS[] = {
    {0, 0, 0x80620cf13301f139ULL, 838, 0x3d8f181bab3f8c32ULL, 962},
    {37.5, 12.25, 0xdc4dfbc9eeacbc88ULL, 817, 0xb054a062418af714ULL, 949},
    {-123, -60, 0x196880970f8b945eULL, 578, 0x198e4a2b10a90158ULL, 658},
    {180, 75, 0xd0a4fadbaa0c3159ULL, 534, 0x1c336f70b2c9c1ddULL, 600},
    {400, -100, 0xa55ce797f0fc6590ULL, 515, 0x34ee7c94f4ac672cULL, 582},
    {90, 0, 0x716573aa4aaef2d1ULL, 649, 0xd0c7b5f5596831c2ULL, 738},
    {-90, 45, 0x09620676a2f860f7ULL, 600, 0x9e78c746c20b7c0eULL, 684},
};

static void test_raster_fixture_a_digests(void) {
    uint8_t *a = v1_fixture_a();
    size_t i;
    for (i = 0; i < sizeof DIGESTS / sizeof DIGESTS[0]; i++) {
        int cov;
        uint64_t h = raster_hash(a, 64, 256, DIGESTS[i].yaw, DIGESTS[i].pitch, &cov);
        CHECKF(h == DIGESTS[i].ha && cov == DIGESTS[i].ca, "A yaw %g pitch %g: %016llx/%d, want %016llx/%d",
               DIGESTS[i].yaw, DIGESTS[i].pitch, (unsigned long long)h, cov,
               (unsigned long long)DIGESTS[i].ha, DIGESTS[i].ca);
    }
    free(a);
}

static void test_raster_fixture_b_digests(void) {
    uint8_t *b = v1_fixture_b();
    size_t i;
    for (i = 0; i < sizeof DIGESTS / sizeof DIGESTS[0]; i++) {
        int cov;
        uint64_t h = raster_hash(b, 128, 600, DIGESTS[i].yaw, DIGESTS[i].pitch, &cov);
        CHECKF(h == DIGESTS[i].hb && cov == DIGESTS[i].cb, "B yaw %g pitch %g: %016llx/%d, want %016llx/%d",
               DIGESTS[i].yaw, DIGESTS[i].pitch, (unsigned long long)h, cov,
               (unsigned long long)DIGESTS[i].hb, DIGESTS[i].cb);
    }
    free(b);
}

static void test_raster_fixture_b_probes(void) {
    static const struct {
        double yaw, pitch;
        uint8_t px[4][4];
    } P[] = {
        {0, 0, {{32, 16, 7, 255}, {70, 3, 7, 255}, {84, 3, 7, 255}, {0, 0, 0, 0}}},
        {90, 0, {{16, 16, 7, 255}, {0, 0, 0, 0}, {0, 0, 0, 0}, {67, 0, 7, 255}}},
        {180, 0, {{0, 16, 7, 255}, {86, 19, 7, 255}, {68, 19, 7, 255}, {0, 0, 0, 0}}},
        {-45, 30, {{39, 20, 7, 255}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
        {0, -75, {{32, 4, 7, 255}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
    };
    static const int XY[4][2] = {{32, 32}, {20, 8}, {44, 8}, {32, 5}};
    uint8_t *b = v1_fixture_b();
    uint8_t out[OUT1];
    size_t i;
    int j;
    for (i = 0; i < sizeof P / sizeof P[0]; i++) {
        CHECK(r2d_rotsprite_raster(b, 128, 128, 600, P[i].yaw, P[i].pitch, out));
        for (j = 0; j < 4; j++) {
            const uint8_t *q = out + (XY[j][1] * 64 + XY[j][0]) * 4;
            CHECKF(memcmp(q, P[i].px[j], 4) == 0, "yaw %g pitch %g pixel (%d,%d) = %d,%d,%d,%d want %d,%d,%d,%d",
                   P[i].yaw, P[i].pitch, XY[j][0], XY[j][1], q[0], q[1], q[2], q[3], P[i].px[j][0],
                   P[i].px[j][1], P[i].px[j][2], P[i].px[j][3]);
        }
    }
    free(b);
}

static void test_raster_failures_leave_out(void) {
    uint8_t *b = v1_fixture_b();
    Canary c = canary_new(OUT1, 0x3C);
    const double bad[] = {NAN, INFINITY, -INFINITY};
    size_t i;
    CHECK(!r2d_rotsprite_raster(NULL, 128, 128, 600, 0, 0, c.p));
    CHECK(!r2d_rotsprite_raster(b, 128, 128, 600, 0, 0, NULL));
    CHECK(!r2d_rotsprite_raster(b, 128, 120, 600, 0, 0, c.p));
    CHECK(!r2d_rotsprite_raster(b, 120, 128, 600, 0, 0, c.p));
    CHECK(!r2d_rotsprite_raster(b, 56, 56, 600, 0, 0, c.p));
    CHECK(!r2d_rotsprite_raster(b, 65, 65, 600, 0, 0, c.p));
    CHECK(!r2d_rotsprite_raster(b, 128, 128, 1, 0, 0, c.p));
    CHECK(!r2d_rotsprite_raster(b, 128, 128, 511, 0, 0, c.p));
    CHECK(!r2d_rotsprite_raster(b, 128, 128, 0, 0, 0, c.p));
    CHECK(!r2d_rotsprite_raster(b, 128, 128, -600, 0, 0, c.p));
    CHECK(!r2d_rotsprite_raster(b, 2147483647, 2147483647, 2147483647, 0, 0, c.p));
    CHECK(!r2d_rotsprite_raster(b, 128, 128, -2147483647 - 1, 0, 0, c.p));
    for (i = 0; i < 3; i++) {
        CHECK(!r2d_rotsprite_raster(b, 128, 128, 600, bad[i], 0, c.p));
        CHECK(!r2d_rotsprite_raster(b, 128, 128, 600, 0, bad[i], c.p));
    }
    CHECK(payload_is(&c, 0x3C) && canary_ok(&c));
    /* stride exactly 4w is accepted */
    CHECK(r2d_rotsprite_raster(b, 128, 128, 512, 0, 0, c.p));
    canary_free(&c);
    free(b);
}

static void test_raster_writes_exactly_16384(void) {
    uint8_t *b = v1_fixture_b();
    Canary c = canary_new(OUT1, 0x77);
    CHECK(r2d_rotsprite_raster(b, 128, 128, 600, 37.5, 12.25, c.p));
    CHECK(canary_ok(&c));
    CHECK(fnv1a64(c.p, OUT1) == 0xb054a062418af714ULL);
    canary_free(&c);
    free(b);
}

/* Every output pixel is (0,0,0,0) or a texel with non-zero alpha of the head
   region [0,0,4N,2N] or an ear region [4N,0,2N,2N]. Fixture B encodes (X,Y). */
static void test_raster_pixels_are_region_texels(void) {
    uint8_t *b = v1_fixture_b();
    uint8_t out[OUT1];
    double yaw, pitch;
    int i, bad = 0;
    for (yaw = -180; yaw < 180; yaw += 22.5)
        for (pitch = -75; pitch <= 75; pitch += 25) {
            CHECK(r2d_rotsprite_raster(b, 128, 128, 600, yaw, pitch, out));
            for (i = 0; i < 4096; i++) {
                const uint8_t *q = out + 4 * i;
                int zero = q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 0;
                int texel = q[2] == 7 && q[3] == 255 && q[0] < 96 && q[1] < 32;
                if (!zero && !texel && bad++ < 5)
                    h_fail(__FILE__, __LINE__, "yaw %g pitch %g pixel %d = %d,%d,%d,%d", yaw, pitch, i, q[0],
                           q[1], q[2], q[3]);
            }
        }
    free(b);
}

static void test_raster_transparent_regions_give_zero(void) {
    uint8_t *b = v1_fixture_b();
    uint8_t out[OUT1];
    int X, Y;
    for (Y = 0; Y < 32; Y++)
        for (X = 0; X < 96; X++) b[Y * 600 + 4 * X + 3] = 0;
    memset(out, 0xAB, sizeof out);
    CHECK(r2d_rotsprite_raster(b, 128, 128, 600, 0, 0, out));
    CHECK(count_alpha(out, 4096) == 0);
    for (X = 0; X < OUT1; X++)
        if (out[X] != 0) {
            CHECKF(0, "byte %d = %d", X, out[X]);
            break;
        }
    memset(out, 0xAB, sizeof out);
    CHECK(r2d_rotsprite_raster(b, 128, 128, 600, -123, -60, out));
    for (X = 0; X < OUT1; X++)
        if (out[X] != 0) {
            CHECKF(0, "byte %d = %d", X, out[X]);
            break;
        }
    free(b);
}

static void test_raster_ignores_unread_bytes(void) {
    uint8_t *b = v1_fixture_b();
    uint8_t ref[OUT1], out[OUT1];
    const double poses[][2] = {{0, 0}, {90, 0}, {-90, 45}, {180, 75}, {37.5, 12.25}};
    size_t i;
    int X, Y;
    for (Y = 0; Y < 128; Y++)
        for (X = 0; X < 150; X++) {
            int read = (Y < 32 && X < 96);
            if (Y == 127 && X >= 128) continue; /* no padding after the last row */
            if (!read) {
                uint8_t *q = b + Y * 600 + 4 * X;
                if (X >= 128) {
                    q[0] = q[1] = q[2] = q[3] = 0x11; /* row padding */
                } else {
                    q[0] = 250;
                    q[1] = 1;
                    q[2] = 99;
                    q[3] = 255;
                }
            }
        }
    {
        uint8_t *orig = v1_fixture_b();
        for (i = 0; i < sizeof poses / sizeof poses[0]; i++) {
            CHECK(r2d_rotsprite_raster(orig, 128, 128, 600, poses[i][0], poses[i][1], ref));
            CHECK(r2d_rotsprite_raster(b, 128, 128, 600, poses[i][0], poses[i][1], out));
            CHECKF(memcmp(ref, out, OUT1) == 0, "pose %g,%g changed by unread bytes", poses[i][0], poses[i][1]);
        }
        free(orig);
    }
    free(b);
}

static void test_raster_angle_equivalences(void) {
    uint8_t *a = v1_fixture_a();
    uint8_t r1[OUT1], r2[OUT1];
    int yaw;
    for (yaw = -200; yaw <= 200; yaw += 37) {
        CHECK(r2d_rotsprite_raster(a, 64, 64, 256, yaw, 10, r1));
        CHECK(r2d_rotsprite_raster(a, 64, 64, 256, yaw + 360, 10, r2));
        CHECKF(memcmp(r1, r2, OUT1) == 0, "yaw %d vs %d", yaw, yaw + 360);
        CHECK(r2d_rotsprite_raster(a, 64, 64, 256, yaw - 720, 10, r2));
        CHECKF(memcmp(r1, r2, OUT1) == 0, "yaw %d vs %d", yaw, yaw - 720);
    }
    CHECK(r2d_rotsprite_raster(a, 64, 64, 256, 180, 0, r1));
    CHECK(r2d_rotsprite_raster(a, 64, 64, 256, -180, 0, r2));
    CHECK(memcmp(r1, r2, OUT1) == 0);
    CHECK(r2d_rotsprite_raster(a, 64, 64, 256, 30, 90, r1));
    CHECK(r2d_rotsprite_raster(a, 64, 64, 256, 30, 75, r2));
    CHECK(memcmp(r1, r2, OUT1) == 0);
    CHECK(r2d_rotsprite_raster(a, 64, 64, 256, 30, -200, r1));
    CHECK(r2d_rotsprite_raster(a, 64, 64, 256, 30, -75, r2));
    CHECK(memcmp(r1, r2, OUT1) == 0);
    free(a);
}

/* Centroid of red pixels: an atlas whose head strip is grey except a red
   band around the face front (u = 0.5, v in the middle). */
static void red_centroid(const uint8_t *atlas, double yaw, double pitch, double *cx, double *cy) {
    uint8_t out[OUT1];
    int i, n = 0;
    double sx = 0, sy = 0;
    CHECK(r2d_rotsprite_raster(atlas, 64, 64, 256, yaw, pitch, out));
    for (i = 0; i < 4096; i++)
        if (out[4 * i] == 255 && out[4 * i + 1] == 0) {
            sx += i % 64;
            sy += i / 64;
            n++;
        }
    CHECKF(n > 0, "no red pixel at yaw %g pitch %g", yaw, pitch);
    *cx = n ? sx / n : 0;
    *cy = n ? sy / n : 0;
}

static void test_raster_yaw_pitch_directions(void) {
    uint8_t *a = (uint8_t *)calloc(256 * 64, 1);
    int X, Y;
    double cx0, cy0, cx1, cy1;
    for (Y = 0; Y < 16; Y++)
        for (X = 0; X < 32; X++) {
            uint8_t *q = a + Y * 256 + 4 * X;
            int front = X >= 14 && X < 18 && Y >= 6 && Y < 10;
            q[0] = front ? 255 : 128;
            q[1] = front ? 0 : 128;
            q[2] = front ? 0 : 128;
            q[3] = 255;
        }
    red_centroid(a, 0, 0, &cx0, &cy0);
    CHECK(cx0 > 30 && cx0 < 34);
    red_centroid(a, 30, 0, &cx1, &cy1);
    CHECKF(cx1 > cx0 + 2, "positive yaw: red centroid x %g -> %g (must move right)", cx0, cx1);
    red_centroid(a, -30, 0, &cx1, &cy1);
    CHECKF(cx1 < cx0 - 2, "negative yaw: red centroid x %g -> %g (must move left)", cx0, cx1);
    red_centroid(a, 0, 30, &cx1, &cy1);
    CHECKF(cy1 < cy0 - 2, "positive pitch: red centroid y %g -> %g (must move up)", cy0, cy1);
    free(a);
}

/* Texel offsets are formed in 64-bit: a huge stride (2^31 - 1) addresses the
   same texels as a compact copy (rotsprite-v1.md §4 revision note). */
static void test_raster_huge_stride(void) {
    const size_t stride = 2147483647u;
    size_t len = 63 * stride + 4 * 64;
    uint8_t *a = v1_fixture_a();
    uint8_t *big, ref[OUT1], out[OUT1];
    int Y;
    big = (uint8_t *)mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (big == MAP_FAILED) {
        h_skip("cannot reserve 135 GB of address space");
        free(a);
        return;
    }
    for (Y = 0; Y < 64; Y++) memcpy(big + (size_t)Y * stride, a + Y * 256, 256);
    CHECK(r2d_rotsprite_raster(a, 64, 64, 256, 37.5, 12.25, ref));
    memset(out, 0, sizeof out);
    CHECK(r2d_rotsprite_raster(big, 64, 64, 2147483647, 37.5, 12.25, out));
    CHECK(memcmp(ref, out, OUT1) == 0);
    munmap(big, len);
    free(a);
}

/* Only alpha 0 is transparent: alpha 1..254 texels are copied verbatim. */
static void test_raster_partial_alpha_is_opaque(void) {
    uint8_t *a = v1_fixture_a(), *b = v1_fixture_a();
    uint8_t r1[OUT1], r2[OUT1];
    int X, Y, i, bad = 0;
    for (Y = 0; Y < 64; Y++)
        for (X = 0; X < 64; X++)
            if (b[Y * 256 + 4 * X + 3]) b[Y * 256 + 4 * X + 3] = (uint8_t)(1 + (X + Y) % 254);
    CHECK(r2d_rotsprite_raster(a, 64, 64, 256, 37.5, 12.25, r1));
    CHECK(r2d_rotsprite_raster(b, 64, 64, 256, 37.5, 12.25, r2));
    CHECK(count_alpha(r2, 4096) == 817);
    for (i = 0; i < 4096; i++) {
        int same_rgb = memcmp(r1 + 4 * i, r2 + 4 * i, 3) == 0;
        int alpha_ok = r1[4 * i + 3] == 0 ? r2[4 * i + 3] == 0 : (r2[4 * i + 3] >= 1 && r2[4 * i + 3] <= 254);
        if (!same_rgb || !alpha_ok) bad++;
    }
    CHECKF(bad == 0, "%d pixels differ beyond alpha", bad);
    free(a);
    free(b);
}

void v1_tests(void) {
    RUN(test_layout_accepts_exactly);
    RUN(test_angles_reference_table);
    RUN(test_angles_rejects);
    RUN(test_raster_fixture_a_digests);
    RUN(test_raster_fixture_b_digests);
    RUN(test_raster_fixture_b_probes);
    RUN(test_raster_failures_leave_out);
    RUN(test_raster_writes_exactly_16384);
    RUN(test_raster_pixels_are_region_texels);
    RUN(test_raster_transparent_regions_give_zero);
    RUN(test_raster_ignores_unread_bytes);
    RUN(test_raster_angle_equivalences);
    RUN(test_raster_yaw_pitch_directions);
    RUN(test_raster_huge_stride);
    RUN(test_raster_partial_alpha_is_opaque);
}
