/* re2d ffi-tests: concurrent calls on distinct buffers equal sequential calls (c-abi.md §5). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "re2d.h"
#include "tests.h"
#include "util.h"

#define NTHREADS 4
#define ROUNDS 3

typedef struct Job {
    int id;
    const R2DRotAtlas *scene_a;
    const R2DRotAtlas *scene_b;
    const R2DRotRig *rig_b;
    const uint8_t *v1;
    const V2Atlas *v2;
    uint64_t hashes[ROUNDS][6];
    int ok;
} Job;

static void job_round(Job *j, int round, uint64_t h[6]) {
    uint8_t *o = (uint8_t *)malloc(1048576);
    R2DRotAnimeWorkspace ws;
    R2DRotAtlas dec = {NULL, 0};
    R2DRotRig legacy;
    double yaw = -150 + 37.0 * j->id + 11.0 * round, pitch = -40 + 13.0 * j->id;
    int ok = 1;
    memset(&ws, 0, sizeof ws);
    memset(&legacy, 0, sizeof legacy);
    legacy.body = true;
    legacy.phase = 0.3 * j->id;
    legacy.stride = 20;
    ok &= r2d_rotsprite_raster(j->v1, 128, 128, 600, yaw, pitch, o);
    h[0] = fnv1a64(o, 16384);
    ok &= r2d_rotsprite_v2_draw(j->scene_a, yaw, pitch, j->id % 4, 0, &legacy, o);
    h[1] = fnv1a64(o, 65536);
    ok &= r2d_rotsprite_v2_anime_sized(j->scene_b, yaw, pitch, j->id % 2, 0, j->rig_b, o, &ws, 512);
    h[2] = fnv1a64(o, 1048576) ^ fnv1a64(ws.sample_depth, 1048576);
    ok &= r2d_rotsprite_v2_anime_workspace(j->scene_a, yaw, pitch, 0, 0, &legacy, o, &ws);
    h[3] = fnv1a64(o, 262144) ^ fnv1a64(ws.resolved, 262144);
    ok &= r2d_rotsprite_v2_decode_anime(j->v2->buf, 1024, 1024, 4096, &dec);
    h[4] = points_hash(dec.points, dec.count);
    {
        double x = 0, y = 0;
        r2d_rotsprite_v2_joint(7, 1.5, 2.5, 3.5, yaw, pitch, &legacy, &x, &y);
        h[5] = fnv1a64(&x, 8) ^ (fnv1a64(&y, 8) * 3);
    }
    r2d_rotsprite_v2_free(&dec);
    r2d_rotsprite_anime_workspace_free(&ws);
    free(o);
    j->ok &= ok;
}

static void *job_main(void *arg) {
    Job *j = (Job *)arg;
    int r;
    for (r = 0; r < ROUNDS; r++) job_round(j, r, j->hashes[r]);
    return NULL;
}

static void test_threads_match_sequential(void) {
    R2DRotPoint pa[7], pb[5];
    R2DRotAtlas a, b;
    R2DRotModelPose *m = (R2DRotModelPose *)calloc(1, sizeof *m);
    R2DRotRig rb;
    uint8_t *v1 = v1_fixture_b();
    V2Atlas v2 = v2_new(1024, 4096);
    Job seq[NTHREADS], par[NTHREADS];
    pthread_t th[NTHREADS];
    int i, r, mx, my;
    scene_a_points(pa);
    scene_b_points(pb);
    scene_b_model(m);
    rb = scene_b_rig(m);
    a.points = pa;
    a.count = 7;
    b.points = pb;
    b.count = 5;
    v2_header(&v2, 1, 0);
    for (my = 10; my < 30; my++)
        for (mx = 10; mx < 40; mx++)
            v2_simple_cell(&v2, mx, my, (uint8_t)(mx < 25 ? 6 : 33), (uint8_t)(100 + mx), (uint8_t)(100 + my), 128,
                           (uint8_t)(mx * 5), (uint8_t)(my * 7), 99);
    for (i = 0; i < NTHREADS; i++) {
        memset(&seq[i], 0, sizeof seq[i]);
        seq[i].id = i;
        seq[i].scene_a = &a;
        seq[i].scene_b = &b;
        seq[i].rig_b = &rb;
        seq[i].v1 = v1;
        seq[i].v2 = &v2;
        seq[i].ok = 1;
        par[i] = seq[i];
    }
    for (i = 0; i < NTHREADS; i++) job_main(&seq[i]);
    for (i = 0; i < NTHREADS; i++) CHECK(pthread_create(&th[i], NULL, job_main, &par[i]) == 0);
    for (i = 0; i < NTHREADS; i++) CHECK(pthread_join(th[i], NULL) == 0);
    for (i = 0; i < NTHREADS; i++) {
        CHECK(seq[i].ok && par[i].ok);
        for (r = 0; r < ROUNDS; r++)
            CHECKF(memcmp(seq[i].hashes[r], par[i].hashes[r], sizeof seq[i].hashes[r]) == 0,
                   "thread %d round %d differs from the sequential run", i, r);
    }
    free(m);
    free(v1);
    v2_free(&v2);
}

/* Several caller threads at once while each render also cuts its frame into
   row bands (nested threads, per-thread scratch): still the sequential bytes. */
static void test_threads_match_sequential_with_row_bands(void) {
    CHECK(re2d_set_render_threads(3));
    test_threads_match_sequential();
}

/* re2d.h: the thread count API and its range. */
static void test_render_thread_count(void) {
    const char *env = getenv("RE2D_THREADS");
    if (!env || !*env) CHECKF(re2d_render_threads() == 1, "default %d, want 1", re2d_render_threads());
    CHECK(re2d_set_render_threads(2));
    CHECK(re2d_render_threads() == 2);
    CHECK(!re2d_set_render_threads(-1));
    CHECK(!re2d_set_render_threads(RE2D_MAX_RENDER_THREADS + 1));
    CHECK(re2d_render_threads() == 2);
    CHECK(re2d_set_render_threads(RE2D_MAX_RENDER_THREADS));
    CHECK(re2d_render_threads() == RE2D_MAX_RENDER_THREADS);
    CHECK(re2d_set_render_threads(0));
    CHECK(re2d_render_threads() >= 1 && re2d_render_threads() <= RE2D_MAX_RENDER_THREADS);
    CHECK(RE2D_MAX_RENDER_THREADS == 64);
    CHECK(re2d_set_render_threads(1));
}

typedef struct Shot {
    uint64_t out, depth, resolved;
    int bounds[4];
} Shot;

/* A sequence of smooth frames of the spec's scenes A and B on one reused
   workspace (256, 512 and back), with `threads` render threads. */
static void shots(int threads, Shot s[8]) {
    R2DRotPoint pa[7], pb[5];
    R2DRotAtlas a = {pa, 7}, b = {pb, 5};
    R2DRotModelPose *m = (R2DRotModelPose *)calloc(1, sizeof *m);
    R2DRotRig ra, rb;
    R2DRotAnimeWorkspace ws;
    uint8_t *o = (uint8_t *)malloc(512 * 512 * 4);
    int i;
    memset(&ws, 0, sizeof ws);
    scene_a_points(pa);
    scene_b_points(pb);
    scene_b_model(m);
    ra = scene_a_rig();
    rb = scene_b_rig(m);
    CHECK(re2d_set_render_threads(threads));
    for (i = 0; i < 8; i++) {
        int size = (i % 3 == 1) ? 512 : 256, n = size * size;
        const R2DRotAtlas *at = (i % 2) ? &b : &a;
        const R2DRotRig *rig = (i % 2) ? &rb : (i % 4 == 2 ? &ra : NULL);
        CHECK(r2d_rotsprite_v2_anime_sized(at, -170.0 + 47.0 * i, -30.0 + 11.0 * i, i % 2, 0, rig, o, &ws, size));
        s[i].out = fnv1a64(o, (size_t)n * 4);
        s[i].depth = fnv1a64(ws.sample_depth, (size_t)n * 4);
        s[i].resolved = fnv1a64(ws.resolved, (size_t)n * 4);
        memcpy(s[i].bounds, ws.bounds, sizeof s[i].bounds);
    }
    CHECK(re2d_set_render_threads(1));
    r2d_rotsprite_anime_workspace_free(&ws);
    free(o);
    free(m);
}

/* Row bands give the same bytes (image, sample depth, pre-extrusion image,
   bounds) on 1, 2, 3 and 8 threads. */
static void test_row_bands_same_bytes(void) {
    Shot one[8], many[8];
    int t, i;
    static const int counts[3] = {2, 3, 8};
    shots(1, one);
    for (t = 0; t < 3; t++) {
        shots(counts[t], many);
        for (i = 0; i < 8; i++)
            CHECKF(memcmp(&one[i], &many[i], sizeof one[i]) == 0, "frame %d differs on %d threads", i, counts[t]);
    }
}

void thread_tests(void) {
    RUN(test_threads_match_sequential);
    RUN(test_threads_match_sequential_with_row_bands);
    RUN(test_render_thread_count);
    RUN(test_row_bands_same_bytes);
}
