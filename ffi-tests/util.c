/* re2d ffi-tests: shared helpers (FNV-1a, canary buffers, atlas builders, spec reference scenes). */
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t fnv1a64(const void *data, size_t n) {
    const uint8_t *b = (const uint8_t *)data;
    uint64_t h = 0xcbf29ce484222325ULL;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

uint64_t points_hash(const R2DRotPoint *p, int n) {
    uint64_t h = 0xcbf29ce484222325ULL;
    int i;
    size_t j;
    for (i = 0; i < n; i++) {
        uint8_t rec[192];
        memcpy(rec, &p[i], 192);
        rec[33] = rec[34] = rec[35] = 0;
        rec[190] = rec[191] = 0;
        for (j = 0; j < 192; j++) {
            h ^= rec[j];
            h *= 0x100000001b3ULL;
        }
    }
    return h;
}

int count_alpha(const uint8_t *rgba, size_t pixels) {
    size_t i;
    int c = 0;
    for (i = 0; i < pixels; i++)
        if (rgba[4 * i + 3] != 0) c++;
    return c;
}

Canary canary_new(size_t n, uint8_t fill) {
    Canary c;
    c.block = (uint8_t *)malloc(n + 2 * GUARD);
    c.p = c.block + GUARD;
    c.n = n;
    memset(c.block, 0xA5, GUARD);
    memset(c.p, fill, n);
    memset(c.p + n, 0xA5, GUARD);
    return c;
}

int canary_ok(const Canary *c) {
    size_t i;
    for (i = 0; i < GUARD; i++)
        if (c->block[i] != 0xA5 || c->p[c->n + i] != 0xA5) return 0;
    return 1;
}

int payload_is(const Canary *c, uint8_t fill) {
    size_t i;
    for (i = 0; i < c->n; i++)
        if (c->p[i] != fill) return 0;
    return 1;
}

void canary_free(Canary *c) {
    free(c->block);
    c->block = c->p = NULL;
}

V2Atlas v2_new(int w, int stride) {
    V2Atlas a;
    a.w = w;
    a.k = w / 1024;
    a.stride = stride;
    /* exactly the (h-1)*stride + 4w bytes the contract lets the library read,
       so that ASan catches any read past the last pixel */
    a.bytes = (size_t)(w - 1) * (size_t)stride + 4 * (size_t)w;
    a.buf = (uint8_t *)calloc(a.bytes, 1);
    return a;
}

void v2_free(V2Atlas *a) {
    free(a->buf);
    a->buf = NULL;
}

void v2_pixel(V2Atlas *a, int px, int py, uint8_t r, uint8_t g, uint8_t b, uint8_t al) {
    uint8_t *q = a->buf + (size_t)py * (size_t)a->stride + 4 * (size_t)px;
    q[0] = r;
    q[1] = g;
    q[2] = b;
    q[3] = al;
}

void v2_texel(V2Atlas *a, int X, int Y, uint8_t r, uint8_t g, uint8_t b, uint8_t al) {
    int dx, dy;
    for (dy = 0; dy < a->k; dy++)
        for (dx = 0; dx < a->k; dx++) v2_pixel(a, a->k * X + dx, a->k * Y + dy, r, g, b, al);
}

void v2_header(V2Atlas *a, int sub, int bld) {
    v2_texel(a, 0, 960, 82, 50, 68, 255);
    v2_texel(a, 1, 960, 82, 79, 84, 255);
    v2_texel(a, 2, 960, 2, 4, 4, 255);
    if (sub) v2_texel(a, 3, 960, 83, 85, 66, 255);
    if (bld) v2_texel(a, 4, 960, 66, 76, 68, 255);
}

void v2_cell(V2Atlas *a, int mx, int my, const uint8_t id[4], const uint8_t depth[4],
             const uint8_t cov[4], const uint8_t xy[4]) {
    v2_texel(a, mx, 768 + my, id[0], id[1], id[2], id[3]);
    v2_texel(a, 256 + mx, 768 + my, depth[0], depth[1], depth[2], depth[3]);
    v2_texel(a, 512 + mx, 768 + my, cov[0], cov[1], cov[2], cov[3]);
    v2_texel(a, 768 + mx, 768 + my, xy[0], xy[1], xy[2], xy[3]);
}

void v2_block(V2Atlas *a, int mx, int my, uint8_t r, uint8_t g, uint8_t b, uint8_t al) {
    int dx, dy;
    for (dy = 0; dy < 4; dy++)
        for (dx = 0; dx < 4; dx++) v2_texel(a, 4 * mx + dx, 4 * my + dy, r, g, b, al);
}

void v2_simple_cell(V2Atlas *a, int mx, int my, uint8_t part, uint8_t xr, uint8_t xg, uint8_t dr,
                    uint8_t r, uint8_t g, uint8_t b) {
    uint8_t id[4], depth[4], cov[4], xy[4];
    id[0] = part; id[1] = 0; id[2] = 0; id[3] = 255;
    depth[0] = dr; depth[1] = 0; depth[2] = 0; depth[3] = 255;
    cov[0] = 255; cov[1] = 0; cov[2] = 0; cov[3] = 255;
    xy[0] = xr; xy[1] = xg; xy[2] = 0; xy[3] = 255;
    v2_cell(a, mx, my, id, depth, cov, xy);
    v2_block(a, mx, my, r, g, b, 255);
}

uint8_t *v1_fixture_a(void) {
    uint8_t *buf = (uint8_t *)calloc(256 * 64, 1);
    int X, Y;
    for (Y = 0; Y < 64; Y++)
        for (X = 0; X < 64; X++) {
            uint8_t *q = buf + Y * 256 + 4 * X;
            q[0] = (uint8_t)(4 * X);
            q[1] = (uint8_t)(4 * Y);
            q[2] = (uint8_t)((X * Y) & 255);
            q[3] = ((3 * X + 5 * Y) % 7 == 0) ? 0 : 255;
        }
    return buf;
}

uint8_t *v1_fixture_b(void) {
    /* exactly (h-1)*stride + 4w bytes: no padding after the last row */
    uint8_t *buf = (uint8_t *)malloc(600 * 127 + 512);
    int X, Y;
    memset(buf, 0xEE, 600 * 127 + 512);
    for (Y = 0; Y < 128; Y++)
        for (X = 0; X < 128; X++) {
            uint8_t *q = buf + Y * 600 + 4 * X;
            q[0] = (uint8_t)X;
            q[1] = (uint8_t)Y;
            q[2] = 7;
            q[3] = 255;
        }
    return buf;
}

double rad(double deg) {
    return deg * 3.141592653589793 / 180;
}

void mat_translate(double m[12], double tx, double ty, double tz) {
    memset(m, 0, 12 * sizeof(double));
    m[0] = 1;
    m[5] = 1;
    m[10] = 1;
    m[3] = tx;
    m[7] = ty;
    m[11] = tz;
}

static void set_rgba(uint8_t d[4], int r, int g, int b, int a) {
    d[0] = (uint8_t)r;
    d[1] = (uint8_t)g;
    d[2] = (uint8_t)b;
    d[3] = (uint8_t)a;
}

static void pt(R2DRotPoint *p, int part, float x, float y, float z, int r, int g, int b, int a) {
    memset(p, 0, sizeof *p);
    p->part = (uint8_t)part;
    p->x = x;
    p->y = y;
    p->z = z;
    set_rgba(p->rgba, r, g, b, a);
}

void scene_a_points(R2DRotPoint pts[7]) {
    pt(&pts[0], 1, 0, 0, 0, 200, 50, 40, 255);
    pt(&pts[1], 16, 5, 9, 10, 255, 100, 0, 255);
    pt(&pts[2], 17, -5, 9, 10, 0, 0, 255, 255);
    pt(&pts[3], 6, 0, 20, 0, 10, 200, 10, 255);
    pt(&pts[4], 1, 1.25f, -3.5f, 4, 90, 90, 90, 255);
    pt(&pts[5], 2, -7.5f, 2, -1, 10, 20, 30, 0);
    pt(&pts[6], 1, -4, -4, 2, 120, 130, 140, 255);
    pts[6].patch = true;
    pts[6].du[0] = 4;
    pts[6].dv[1] = 4;
    pts[6].duv[2] = 1;
    set_rgba(pts[6].colors[0], 255, 0, 0, 255);
    set_rgba(pts[6].colors[1], 0, 255, 0, 255);
    set_rgba(pts[6].colors[2], 0, 0, 255, 255);
    set_rgba(pts[6].colors[3], 255, 255, 255, 128);
}

R2DRotRig scene_a_rig(void) {
    R2DRotRig r;
    memset(&r, 0, sizeof r);
    r.model = NULL;
    r.body = true;
    r.phase = 0.7;
    r.stride = 25;
    r.arm_left = 20;
    r.arm_right = -10;
    r.head_yaw = -15;
    r.brows = 0;
    return r;
}

void scene_b_points(R2DRotPoint pts[5]) {
    int tx, ty;
    pt(&pts[0], 80, 1, 2, 3, 250, 200, 150, 255);
    pts[0].blend_part = 81;
    pts[0].blend_weight = 100;
    pt(&pts[1], 80, 0, 0, 0, 1, 2, 3, 255);
    pts[1].patch = true;
    pts[1].textured = true;
    pts[1].du[0] = 3;
    pts[1].dv[1] = 3;
    pts[1].duv[2] = 0.5f;
    pts[1].corner_parts[0] = 80;
    pts[1].corner_parts[1] = 81;
    pts[1].corner_parts[2] = 0;
    pts[1].corner_parts[3] = 82;
    pts[1].corner_blend_parts[2] = 81;
    pts[1].corner_blend_weights[2] = 60;
    for (tx = 0; tx < 4; tx++) set_rgba(pts[1].colors[tx], 9, 9, 9, 255);
    for (ty = 0; ty < 5; ty++)
        for (tx = 0; tx < 5; tx++)
            set_rgba(pts[1].material + (ty * 5 + tx) * 4, 60 * tx, 60 * ty, 100,
                     ((tx + ty) % 4 == 3) ? 0 : 255);
    pt(&pts[2], 83, 0, 0, 5, 30, 60, 90, 255);
    pt(&pts[3], 84, 2, 0, 5, 255, 255, 0, 255);
    pt(&pts[4], 82, -3, 4, -2, 0, 128, 255, 200);
    pts[4].blend_part = 80;
    pts[4].blend_weight = 200;
}

void scene_b_model(R2DRotModelPose *model) {
    double c = cos(rad(20)), s = sin(rad(20));
    double c3 = cos(rad(30)), s3 = sin(rad(30));
    double m80[12], m81[12], m82[12];
    int i;
    memset(model, 0, sizeof *model);
    model->scale = 1.5;
    m80[0] = c; m80[1] = 0; m80[2] = s; m80[3] = 2;
    m80[4] = 0; m80[5] = 1; m80[6] = 0; m80[7] = -3;
    m80[8] = -s; m80[9] = 0; m80[10] = c; m80[11] = 1;
    m81[0] = 1; m81[1] = 0; m81[2] = 0; m81[3] = 0;
    m81[4] = 0; m81[5] = c3; m81[6] = -s3; m81[7] = 5;
    m81[8] = 0; m81[9] = s3; m81[10] = c3; m81[11] = 0;
    memset(m82, 0, sizeof m82);
    m82[0] = 1.2; m82[5] = 1.2; m82[10] = 1.2;
    memcpy(model->parts[80].matrix, m80, sizeof m80);
    memcpy(model->parts[81].matrix, m81, sizeof m81);
    memcpy(model->parts[82].matrix, m82, sizeof m82);
    mat_translate(model->parts[83].matrix, 0, -10, 0);
    mat_translate(model->parts[84].matrix, 0, -10, 0);
    for (i = 80; i <= 84; i++) {
        model->parts[i].defined = true;
        model->parts[i].visible = true;
    }
    model->parts[83].one_sided = true;
    model->parts[83].selector = 1;
    model->parts[83].variant = 0;
    model->parts[84].selector = 1;
    model->parts[84].variant = 1;
}

R2DRotRig scene_b_rig(const R2DRotModelPose *model) {
    R2DRotRig r;
    memset(&r, 0, sizeof r);
    r.model = model;
    r.body = true;
    r.brows = 0;
    return r;
}
