// re2d ffi-tests: rotsprite_math.h and re2d.h compile as C++ (-Wall -Wextra -Werror); designated initialisers in declaration order.
#include "rotsprite_math.h"
#include "re2d.h"

#include <cstddef>
#include <cstdio>
#include <type_traits>

static_assert(R2D_ROTSPRITE_SIZE == 64, "R2D_ROTSPRITE_SIZE");
static_assert(RE2D_MAX_RENDER_THREADS == 64, "RE2D_MAX_RENDER_THREADS");
static_assert(std::is_same<decltype(&re2d_set_render_threads), bool (*)(int)>::value, "re2d_set_render_threads");
static_assert(std::is_same<decltype(&re2d_render_threads), int (*)()>::value, "re2d_render_threads");
static_assert(std::is_same<decltype(R2D_ROTSPRITE_SIZE), int>::value, "R2D_ROTSPRITE_SIZE is an int literal");
static_assert(sizeof(R2DRotPoint) == 192 && alignof(R2DRotPoint) == 4, "R2DRotPoint");
static_assert(sizeof(R2DRotAtlas) == 16 && alignof(R2DRotAtlas) == 8, "R2DRotAtlas");
static_assert(sizeof(R2DRotPartPose) == 104 && alignof(R2DRotPartPose) == 8, "R2DRotPartPose");
static_assert(sizeof(R2DRotModelPose) == 26632 && alignof(R2DRotModelPose) == 8, "R2DRotModelPose");
static_assert(sizeof(R2DRotRig) == 64 && alignof(R2DRotRig) == 8, "R2DRotRig");
static_assert(sizeof(R2DRotAnimeWorkspace) == 64 && alignof(R2DRotAnimeWorkspace) == 8, "R2DRotAnimeWorkspace");
static_assert(offsetof(R2DRotPoint, patch) == 32 && offsetof(R2DRotPoint, du) == 36, "R2DRotPoint offsets");
static_assert(offsetof(R2DRotPoint, material) == 90 && offsetof(R2DRotPoint, mapped) == 89, "R2DRotPoint offsets");
static_assert(offsetof(R2DRotRig, phase) == 16 && offsetof(R2DRotRig, brows) == 56, "R2DRotRig offsets");
static_assert(offsetof(R2DRotAnimeWorkspace, bounds) == 40 && offsetof(R2DRotAnimeWorkspace, size) == 56,
              "R2DRotAnimeWorkspace offsets");
static_assert(std::is_standard_layout<R2DRotPoint>::value && std::is_trivial<R2DRotPoint>::value, "POD");

// Exact C++ function types (C linkage, unmangled names are checked by nm).
static_assert(std::is_same<decltype(r2d_rotsprite_layout), bool(int, int, int *)>::value, "layout");
static_assert(std::is_same<decltype(r2d_rotsprite_angles), bool(double, double, double *, double *)>::value, "angles");
static_assert(std::is_same<decltype(r2d_rotsprite_raster),
                           bool(const uint8_t *, int, int, int, double, double, uint8_t *)>::value, "raster");
static_assert(std::is_same<decltype(r2d_rotsprite_v2_header), bool(const uint8_t *, int, int, int)>::value, "header");
static_assert(std::is_same<decltype(r2d_rotsprite_v2_decode),
                           bool(const uint8_t *, int, int, int, R2DRotAtlas *)>::value, "decode");
static_assert(std::is_same<decltype(r2d_rotsprite_v2_free), void(R2DRotAtlas *)>::value, "free");
static_assert(std::is_same<decltype(r2d_rotsprite_v2_raster),
                           bool(const R2DRotAtlas *, double, double, int, int, uint8_t *)>::value, "v2_raster");
static_assert(std::is_same<decltype(r2d_rotsprite_v2_draw),
                           bool(const R2DRotAtlas *, double, double, int, int, const R2DRotRig *, uint8_t *)>::value,
              "draw");
static_assert(std::is_same<decltype(r2d_rotsprite_v2_joint), void(int, double, double, double, double, double,
                                                                  const R2DRotRig *, double *, double *)>::value,
              "joint");
static_assert(std::is_same<decltype(r2d_rotsprite_v2_decode_anime),
                           bool(const uint8_t *, int, int, int, R2DRotAtlas *)>::value, "decode_anime");
static_assert(std::is_same<decltype(r2d_rotsprite_v2_anime),
                           bool(const R2DRotAtlas *, double, double, int, int, const R2DRotRig *, uint8_t *)>::value,
              "anime");
static_assert(std::is_same<decltype(r2d_rotsprite_anime_workspace_free), void(R2DRotAnimeWorkspace *)>::value,
              "workspace_free");
static_assert(std::is_same<decltype(r2d_rotsprite_v2_anime_workspace),
                           bool(const R2DRotAtlas *, double, double, int, int, const R2DRotRig *, uint8_t *,
                                R2DRotAnimeWorkspace *)>::value, "anime_workspace");
static_assert(std::is_same<decltype(r2d_rotsprite_v2_anime_sized),
                           bool(const R2DRotAtlas *, double, double, int, int, const R2DRotRig *, uint8_t *,
                                R2DRotAnimeWorkspace *, int)>::value, "anime_sized");

int main() {
    // C++20 designated initialisers must follow declaration order: this checks
    // the field order of every struct as well as the names.
    static R2DRotModelPose model{.scale = 1.5, .parts = {}};
    R2DRotPartPose pp{.matrix = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}, .defined = true, .visible = true,
                      .one_sided = false, .selector = 0, .variant = 0};
    model.parts[3] = pp;
    R2DRotPoint p{.x = 1, .y = 2, .z = 3, .rgba = {1, 2, 3, 255}, .part = 3, .group = 3, .corner_parts = {0, 0, 0, 0},
                  .blend_part = 0, .blend_weight = 0, .corner_blend_parts = {0, 0, 0, 0},
                  .corner_blend_weights = {0, 0, 0, 0}, .patch = false, .du = {0, 0, 0}, .dv = {0, 0, 0},
                  .duv = {0, 0, 0}, .colors = {}, .textured = false, .mapped = false, .material = {}};
    R2DRotAtlas a{.points = &p, .count = 1};
    R2DRotRig rig{.model = &model, .body = true, .phase = 0, .stride = 0, .arm_left = 0, .arm_right = 0,
                  .head_yaw = 0, .brows = 0};
    R2DRotAnimeWorkspace ws{.depth = nullptr, .distance = nullptr, .sample_depth = nullptr, .rgba = nullptr,
                            .resolved = nullptr, .bounds = {0, 0, 0, 0}, .size = 0};
    static uint8_t out[128 * 128 * 4];
    bool ok = r2d_rotsprite_v2_draw(&a, 0, 0, 0, 0, &rig, out);
    r2d_rotsprite_anime_workspace_free(&ws);
    std::printf("%d passed, %d failed\n", ok ? 1 : 0, ok ? 0 : 1);
    return ok ? 0 : 1;
}
