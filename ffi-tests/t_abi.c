/* re2d ffi-tests: C ABI layout, macro and prototype checks (c-abi.md §1-§3, Observable contract). */
#include <stddef.h>
#include <string.h>

#include "harness.h"
#include "tests.h"
#include "util.h"

#define STR2(x) #x
#define STR(x) STR2(x)

#define OFF(T, f, want) \
    CHECKF(offsetof(T, f) == (want), "offsetof(%s, %s) = %zu, want %d", #T, #f, offsetof(T, f), want)
#define SIZE(T, s, a)                                                                           \
    do {                                                                                        \
        struct al_##T { char c; T t; };                                                         \
        CHECKF(sizeof(T) == (s), "sizeof(%s) = %zu, want %d", #T, sizeof(T), s);                \
        CHECKF(offsetof(struct al_##T, t) == (a), "alignof(%s) = %zu, want %d", #T,             \
               offsetof(struct al_##T, t), a);                                                   \
    } while (0)

static void test_point_layout(void) {
    SIZE(R2DRotPoint, 192, 4);
    OFF(R2DRotPoint, x, 0);
    OFF(R2DRotPoint, y, 4);
    OFF(R2DRotPoint, z, 8);
    OFF(R2DRotPoint, rgba, 12);
    OFF(R2DRotPoint, part, 16);
    OFF(R2DRotPoint, group, 17);
    OFF(R2DRotPoint, corner_parts, 18);
    OFF(R2DRotPoint, blend_part, 22);
    OFF(R2DRotPoint, blend_weight, 23);
    OFF(R2DRotPoint, corner_blend_parts, 24);
    OFF(R2DRotPoint, corner_blend_weights, 28);
    OFF(R2DRotPoint, patch, 32);
    OFF(R2DRotPoint, du, 36);
    OFF(R2DRotPoint, dv, 48);
    OFF(R2DRotPoint, duv, 60);
    OFF(R2DRotPoint, colors, 72);
    OFF(R2DRotPoint, textured, 88);
    OFF(R2DRotPoint, mapped, 89);
    OFF(R2DRotPoint, material, 90);
    {
        R2DRotPoint p;
        CHECK(sizeof p.rgba == 4 && sizeof p.corner_parts == 4 && sizeof p.corner_blend_parts == 4);
        CHECK(sizeof p.corner_blend_weights == 4 && sizeof p.du == 12 && sizeof p.dv == 12);
        CHECK(sizeof p.duv == 12 && sizeof p.colors == 16 && sizeof p.colors[0] == 4);
        CHECK(sizeof p.material == 100 && sizeof p.patch == 1 && sizeof p.textured == 1);
        CHECK(sizeof p.mapped == 1 && sizeof p.x == 4 && sizeof p.part == 1);
    }
}

static void test_atlas_layout(void) {
    SIZE(R2DRotAtlas, 16, 8);
    OFF(R2DRotAtlas, points, 0);
    OFF(R2DRotAtlas, count, 8);
    {
        R2DRotAtlas a;
        CHECK(sizeof a.points == 8 && sizeof a.count == 4);
    }
}

static void test_part_pose_layout(void) {
    SIZE(R2DRotPartPose, 104, 8);
    OFF(R2DRotPartPose, matrix, 0);
    OFF(R2DRotPartPose, defined, 96);
    OFF(R2DRotPartPose, visible, 97);
    OFF(R2DRotPartPose, one_sided, 98);
    OFF(R2DRotPartPose, selector, 99);
    OFF(R2DRotPartPose, variant, 100);
    {
        R2DRotPartPose p;
        CHECK(sizeof p.matrix == 96 && sizeof p.matrix[0] == 8);
        CHECK(sizeof p.defined == 1 && sizeof p.visible == 1 && sizeof p.one_sided == 1);
        CHECK(sizeof p.selector == 1 && sizeof p.variant == 1);
    }
}

static void test_model_pose_layout(void) {
    SIZE(R2DRotModelPose, 26632, 8);
    OFF(R2DRotModelPose, scale, 0);
    OFF(R2DRotModelPose, parts, 8);
    {
        R2DRotModelPose *m = NULL;
        CHECK(sizeof m->parts == 26624 && sizeof m->parts[0] == 104 && sizeof m->scale == 8);
    }
}

static void test_rig_layout(void) {
    SIZE(R2DRotRig, 64, 8);
    OFF(R2DRotRig, model, 0);
    OFF(R2DRotRig, body, 8);
    OFF(R2DRotRig, phase, 16);
    OFF(R2DRotRig, stride, 24);
    OFF(R2DRotRig, arm_left, 32);
    OFF(R2DRotRig, arm_right, 40);
    OFF(R2DRotRig, head_yaw, 48);
    OFF(R2DRotRig, brows, 56);
    {
        R2DRotRig r;
        CHECK(sizeof r.model == 8 && sizeof r.body == 1 && sizeof r.brows == 4 && sizeof r.phase == 8);
    }
}

static void test_workspace_layout(void) {
    SIZE(R2DRotAnimeWorkspace, 64, 8);
    OFF(R2DRotAnimeWorkspace, depth, 0);
    OFF(R2DRotAnimeWorkspace, distance, 8);
    OFF(R2DRotAnimeWorkspace, sample_depth, 16);
    OFF(R2DRotAnimeWorkspace, rgba, 24);
    OFF(R2DRotAnimeWorkspace, resolved, 32);
    OFF(R2DRotAnimeWorkspace, bounds, 40);
    OFF(R2DRotAnimeWorkspace, size, 56);
    {
        R2DRotAnimeWorkspace w;
        CHECK(sizeof w.bounds == 16 && sizeof w.size == 4 && sizeof w.depth == 8);
    }
}

/* R2D_ROTSPRITE_SIZE is the plain literal 64 (c-abi.md §1). */
static void test_size_macro(void) {
    int v = R2D_ROTSPRITE_SIZE;
    CHECK(v == 64);
    CHECK(sizeof(R2D_ROTSPRITE_SIZE) == sizeof(int));
    CHECKF(strcmp(STR(R2D_ROTSPRITE_SIZE), "64") == 0, "R2D_ROTSPRITE_SIZE expands to \"%s\"",
           STR(R2D_ROTSPRITE_SIZE));
#if R2D_ROTSPRITE_SIZE != 64
    CHECK(!"preprocessor value of R2D_ROTSPRITE_SIZE is not 64");
#endif
}

/* Each of the 14 functions has exactly the prototype of c-abi.md §3: assigning
   to a pointer of the exact type is a constraint violation otherwise (-Werror). */
static void test_prototypes(void) {
    bool (*f1)(int, int, int *) = r2d_rotsprite_layout;
    bool (*f2)(double, double, double *, double *) = r2d_rotsprite_angles;
    bool (*f3)(const uint8_t *, int, int, int, double, double, uint8_t *) = r2d_rotsprite_raster;
    bool (*f4)(const uint8_t *, int, int, int) = r2d_rotsprite_v2_header;
    bool (*f5)(const uint8_t *, int, int, int, R2DRotAtlas *) = r2d_rotsprite_v2_decode;
    void (*f6)(R2DRotAtlas *) = r2d_rotsprite_v2_free;
    bool (*f7)(const R2DRotAtlas *, double, double, int, int, uint8_t *) = r2d_rotsprite_v2_raster;
    bool (*f8)(const R2DRotAtlas *, double, double, int, int, const R2DRotRig *, uint8_t *) =
        r2d_rotsprite_v2_draw;
    void (*f9)(int, double, double, double, double, double, const R2DRotRig *, double *, double *) =
        r2d_rotsprite_v2_joint;
    bool (*f10)(const uint8_t *, int, int, int, R2DRotAtlas *) = r2d_rotsprite_v2_decode_anime;
    bool (*f11)(const R2DRotAtlas *, double, double, int, int, const R2DRotRig *, uint8_t *) =
        r2d_rotsprite_v2_anime;
    void (*f12)(R2DRotAnimeWorkspace *) = r2d_rotsprite_anime_workspace_free;
    bool (*f13)(const R2DRotAtlas *, double, double, int, int, const R2DRotRig *, uint8_t *,
                R2DRotAnimeWorkspace *) = r2d_rotsprite_v2_anime_workspace;
    bool (*f14)(const R2DRotAtlas *, double, double, int, int, const R2DRotRig *, uint8_t *,
                R2DRotAnimeWorkspace *, int) = r2d_rotsprite_v2_anime_sized;
    CHECK(f1 && f2 && f3 && f4 && f5 && f6 && f7 && f8 && f9 && f10 && f11 && f12 && f13 && f14);
}

/* Struct tags equal typedef names (c-abi.md §2.1). */
static void test_struct_tags(void) {
    struct R2DRotPoint p;
    struct R2DRotAtlas a;
    struct R2DRotPartPose pp;
    struct R2DRotModelPose *mp = NULL;
    struct R2DRotRig r;
    struct R2DRotAnimeWorkspace w;
    R2DRotPoint *pp1 = &p;
    R2DRotAtlas *pa1 = &a;
    R2DRotPartPose *ppp = &pp;
    R2DRotModelPose *pmp = mp;
    R2DRotRig *pr = &r;
    R2DRotAnimeWorkspace *pw = &w;
    CHECK(pp1 == &p && pa1 == &a && ppp == &pp && pmp == NULL && pr == &r && pw == &w);
}

/* Designated initialisers of every field (C99). */
static void test_designated_initialisers(void) {
    static const R2DRotModelPose model = {.scale = 2.0, .parts = {[7] = {.matrix = {1, 0, 0, 0}}}};
    R2DRotPoint p = {.x = 1.0f, .y = 2.0f, .z = 3.0f, .rgba = {1, 2, 3, 4}, .part = 5, .group = 6,
                     .corner_parts = {7, 8, 9, 10}, .blend_part = 11, .blend_weight = 12,
                     .corner_blend_parts = {13, 14, 15, 16}, .corner_blend_weights = {17, 18, 19, 20},
                     .patch = true, .du = {1, 2, 3}, .dv = {4, 5, 6}, .duv = {7, 8, 9},
                     .colors = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}},
                     .textured = true, .mapped = true, .material = {[99] = 42}};
    R2DRotAtlas a = {.points = &p, .count = 1};
    R2DRotPartPose pp = {.matrix = {[11] = 3.5}, .defined = true, .visible = true, .one_sided = false,
                         .selector = 2, .variant = 3};
    R2DRotRig r = {.model = &model, .body = true, .phase = 0.5, .stride = 30, .arm_left = 1,
                   .arm_right = 2, .head_yaw = 3, .brows = 2};
    R2DRotAnimeWorkspace w = {.depth = NULL, .distance = NULL, .sample_depth = NULL, .rgba = NULL,
                              .resolved = NULL, .bounds = {1, 2, 3, 4}, .size = 256};
    const uint8_t *pb = (const uint8_t *)&p;
    CHECK(pb[16] == 5 && pb[32] == 1 && pb[88] == 1 && pb[89] == 1 && pb[189] == 42);
    CHECK(a.count == 1 && pp.matrix[11] == 3.5 && pp.variant == 3 && r.brows == 2);
    CHECK(r.model->parts[7].matrix[0] == 1 && w.bounds[3] == 4 && w.size == 256);
}

void abi_tests(void) {
    RUN(test_point_layout);
    RUN(test_atlas_layout);
    RUN(test_part_pose_layout);
    RUN(test_model_pose_layout);
    RUN(test_rig_layout);
    RUN(test_workspace_layout);
    RUN(test_size_macro);
    RUN(test_prototypes);
    RUN(test_struct_tags);
    RUN(test_designated_initialisers);
}
