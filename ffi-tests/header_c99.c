/* re2d ffi-tests: rotsprite_math.h alone compiles as C99 and pulls in no header beyond stdbool/stdint. */
#include "rotsprite_math.h"
#include "rotsprite_math.h" /* #pragma once: a second inclusion is harmless */

/* Nothing but <stdbool.h> and <stdint.h> is included (c-abi.md §1): NULL,
   size_t's home <stddef.h>, <stdio.h> and <stdlib.h> macros are absent. */
#ifdef NULL
#error "rotsprite_math.h pulls in a header that defines NULL"
#endif
#ifdef EOF
#error "rotsprite_math.h includes <stdio.h>"
#endif
#ifdef EXIT_FAILURE
#error "rotsprite_math.h includes <stdlib.h>"
#endif
#ifndef __bool_true_false_are_defined
#error "rotsprite_math.h does not include <stdbool.h>"
#endif
#ifndef UINT8_MAX
#error "rotsprite_math.h does not include <stdint.h>"
#endif
#if R2D_ROTSPRITE_SIZE != 64
#error "R2D_ROTSPRITE_SIZE is not 64"
#endif

/* Compile-time layout checks (C99 has no _Static_assert: negative array size). */
#define ASSERT(name, cond) typedef char assert_##name[(cond) ? 1 : -1]
ASSERT(point_size, sizeof(R2DRotPoint) == 192);
ASSERT(atlas_size, sizeof(R2DRotAtlas) == 16);
ASSERT(part_pose_size, sizeof(R2DRotPartPose) == 104);
ASSERT(model_pose_size, sizeof(R2DRotModelPose) == 26632);
ASSERT(rig_size, sizeof(R2DRotRig) == 64);
ASSERT(workspace_size, sizeof(R2DRotAnimeWorkspace) == 64);
ASSERT(bool_size, sizeof(bool) == 1);

static const R2DRotModelPose model = {.scale = 1.0,
                                      .parts = {[255] = {.matrix = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0},
                                                         .defined = true,
                                                         .visible = true,
                                                         .one_sided = true,
                                                         .selector = 1,
                                                         .variant = 2}}};

int main(void) {
    R2DRotPoint p = {.x = 0.5f, .y = 1, .z = 2, .rgba = {1, 2, 3, 255}, .part = 1, .group = 1,
                     .corner_parts = {1, 1, 1, 1}, .blend_part = 0, .blend_weight = 0,
                     .corner_blend_parts = {0}, .corner_blend_weights = {0}, .patch = false,
                     .du = {0}, .dv = {0}, .duv = {0}, .colors = {{0}}, .textured = false,
                     .mapped = false, .material = {0}};
    R2DRotAtlas a = {.points = &p, .count = 1};
    R2DRotRig r = {.model = &model, .body = true, .phase = 0, .stride = 0, .arm_left = 0,
                   .arm_right = 0, .head_yaw = 0, .brows = 0};
    R2DRotAnimeWorkspace w = {.depth = 0, .distance = 0, .sample_depth = 0, .rgba = 0,
                              .resolved = 0, .bounds = {0, 0, 0, 0}, .size = 0};
    int cell = 0;
    uint8_t out[R2D_ROTSPRITE_SIZE * R2D_ROTSPRITE_SIZE * 4];
    (void)out;
    (void)w;
    /* link check: a program compiled against the header runs */
    if (!r2d_rotsprite_layout(128, 128, &cell) || cell != 16) return 1;
    if (a.count != 1 || r.model->parts[255].variant != 2) return 1;
    return 0;
}
