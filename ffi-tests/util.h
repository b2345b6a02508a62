/* re2d ffi-tests: shared helpers (FNV-1a, canary buffers, atlas builders, spec reference scenes). */
#ifndef FFI_TESTS_UTIL_H
#define FFI_TESTS_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "rotsprite_math.h"

/* FNV-1a 64 as defined in rotsprite-v1.md / golden/README.md. */
uint64_t fnv1a64(const void *data, size_t n);
/* Hash of n points with padding bytes 33..35 and 190..191 zeroed (golden README). */
uint64_t points_hash(const R2DRotPoint *p, int n);
/* Number of RGBA pixels with non-zero alpha. */
int count_alpha(const uint8_t *rgba, size_t pixels);

/* Canary buffer: GUARD bytes of 0xA5 on each side of n payload bytes, payload
   filled with `fill`. canary_ok() checks the guards; payload_is() checks the
   payload is still all `fill`. */
#define GUARD 64
typedef struct Canary {
    uint8_t *block;
    uint8_t *p;
    size_t n;
} Canary;
Canary canary_new(size_t n, uint8_t fill);
int canary_ok(const Canary *c);
int payload_is(const Canary *c, uint8_t fill);
void canary_free(Canary *c);

/* v2 atlas builder (k = w/1024, stride >= 4w), all bytes zero at start. */
typedef struct V2Atlas {
    uint8_t *buf;
    int w, k, stride;
    size_t bytes;
} V2Atlas;
V2Atlas v2_new(int w, int stride);
void v2_free(V2Atlas *a);
/* Sets every physical pixel of working texel (X, Y) (k x k block). */
void v2_texel(V2Atlas *a, int X, int Y, uint8_t r, uint8_t g, uint8_t b, uint8_t al);
/* Sets only the physical pixel (px, py). */
void v2_pixel(V2Atlas *a, int px, int py, uint8_t r, uint8_t g, uint8_t b, uint8_t al);
/* Writes the R2D/ROT/v2 header texels and optionally SUB and BLD. */
void v2_header(V2Atlas *a, int sub, int bld);
/* Writes the four control-map cells of (mx, my). */
void v2_cell(V2Atlas *a, int mx, int my, const uint8_t id[4], const uint8_t depth[4],
             const uint8_t cov[4], const uint8_t xy[4]);
/* Simple active cell: part, coarse xy/depth bytes, opaque anchor block of colour rgb. */
void v2_simple_cell(V2Atlas *a, int mx, int my, uint8_t part, uint8_t xr, uint8_t xg, uint8_t dr,
                    uint8_t r, uint8_t g, uint8_t b);
/* Fills the 4x4 colour block of cell (mx, my). */
void v2_block(V2Atlas *a, int mx, int my, uint8_t r, uint8_t g, uint8_t b, uint8_t al);

/* v1 fixtures of rotsprite-v1.md "Observable contract". Caller frees. */
uint8_t *v1_fixture_a(void); /* 64x64, stride 256 */
uint8_t *v1_fixture_b(void); /* 128x128, stride 600, padding 0xEE */

/* Render reference scenes of rotsprite-render.md "Observable contract". */
void scene_a_points(R2DRotPoint pts[7]);
R2DRotRig scene_a_rig(void);
void scene_b_points(R2DRotPoint pts[5]);
/* Fills *model (zeroed first). */
void scene_b_model(R2DRotModelPose *model);
R2DRotRig scene_b_rig(const R2DRotModelPose *model);

/* Degrees to radians as the spec defines: (a*PI)/180. */
double rad(double deg);
/* Identity matrix plus translation. */
void mat_translate(double m[12], double tx, double ty, double tz);

#endif
