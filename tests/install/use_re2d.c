/* re2d install test: a C program built only from what `make install` put under PREFIX,
   with `pkg-config --cflags --libs [--static] re2d`. Exit 0 and "c program ok" on success. */
#include <re2d.h>
#include <rotsprite_math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c)                                          \
    do {                                                  \
        if (!(c)) {                                       \
            fprintf(stderr, "check failed: %s\n", #c);    \
            return 1;                                     \
        }                                                 \
    } while (0)

int main(void) {
    int cell = 0;
    CHECK(r2d_rotsprite_layout(128, 128, &cell) && cell == 16);
    CHECK(!r2d_rotsprite_layout(100, 128, &cell) && cell == 16);

    double yaw = 0, pitch = 0;
    CHECK(r2d_rotsprite_angles(30.0, 10.0, &yaw, &pitch));
    CHECK(yaw == yaw && pitch == pitch); /* not NaN */

    /* a blank 1024² buffer is no v2 atlas: false, and the caller's struct stays untouched */
    uint8_t *blank = calloc(1024 * 1024 * 4, 1);
    CHECK(blank != NULL);
    CHECK(!r2d_rotsprite_v2_header(blank, 1024, 1024, 4096));
    R2DRotAtlas atlas;
    memset(&atlas, 0xAB, sizeof atlas);
    R2DRotAtlas before = atlas;
    CHECK(!r2d_rotsprite_v2_decode(blank, 1024, 1024, 4096, &atlas));
    CHECK(memcmp(&atlas, &before, sizeof atlas) == 0);
    free(blank);

    /* re2d.h: one render thread by default, the count can be changed */
    CHECK(re2d_render_threads() >= 1);
    CHECK(re2d_set_render_threads(2) && re2d_render_threads() == 2);
    CHECK(!re2d_set_render_threads(RE2D_MAX_RENDER_THREADS + 1));

    /* freeing zeroed structs is allowed and idempotent */
    R2DRotAtlas empty = {0};
    r2d_rotsprite_v2_free(&empty);
    R2DRotAnimeWorkspace ws = {0};
    r2d_rotsprite_anime_workspace_free(&ws);
    r2d_rotsprite_anime_workspace_free(&ws);
    puts("c program ok");
    return 0;
}
