/* re2d ffi-tests: replays every call of tests/golden/golden.json through the C ABI and compares hashes and PNG bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden_cases.h"
#include "harness.h"
#include "re2d.h"
#include "util.h"

/* Directory with the *.rgba files and, for .f32 files, the golden directory. */
static const char *raw_dir;
static const char *golden_dir;

static uint8_t *read_file(const char *dir, const char *name, const char *suffix, size_t want) {
    char path[4096];
    FILE *f;
    uint8_t *buf;
    size_t got;
    snprintf(path, sizeof path, "%s/%s%s", dir, name, suffix);
    f = fopen(path, "rb");
    if (!f) {
        h_fail(__FILE__, __LINE__, "cannot open %s", path);
        return NULL;
    }
    buf = (uint8_t *)malloc(want); /* exact size: ASan sees any over-read */
    got = fread(buf, 1, want, f);
    if (got == want && fgetc(f) != EOF) got++;
    fclose(f);
    if (got != want) {
        h_fail(__FILE__, __LINE__, "%s: %zu bytes, want %zu", path, got, want);
        free(buf);
        return NULL;
    }
    return buf;
}

typedef struct AtlasState {
    uint8_t *rgba;
    R2DRotAtlas plain, anime;
    int plain_ok, anime_ok;
} AtlasState;

static AtlasState atlases[G_N_ATLASES];
static R2DRotModelPose *models[G_N_MODELS > 0 ? G_N_MODELS : 1];

typedef struct Ws {
    const char *id;
    R2DRotAnimeWorkspace ws;
    const char *last_file;
} Ws;
static Ws workspaces[16];
static int n_ws;

static const GCase *cur;

static int atlas_index(const char *file) {
    int i;
    for (i = 0; i < G_N_ATLASES; i++)
        if (strcmp(G_ATLASES[i].file, file) == 0) return i;
    return -1;
}

static Ws *workspace_for(const char *id) {
    int i;
    for (i = 0; i < n_ws; i++)
        if (strcmp(workspaces[i].id, id) == 0) return &workspaces[i];
    memset(&workspaces[n_ws], 0, sizeof workspaces[n_ws]);
    workspaces[n_ws].id = id;
    return &workspaces[n_ws++];
}

/* Builds every R2DRotModelPose from the manifest: all parts zero except the listed ones. */
static void build_models(void) {
    int m, i;
    for (m = 0; m < G_N_MODELS; m++) {
        R2DRotModelPose *mp = (R2DRotModelPose *)calloc(1, sizeof *mp);
        mp->scale = G_MODELS[m].scale;
        for (i = 0; i < G_MODELS[m].nparts; i++) {
            const GPart *gp = &G_MODELS[m].parts[i];
            R2DRotPartPose *pp = &mp->parts[gp->id];
            memcpy(pp->matrix, gp->matrix, sizeof pp->matrix);
            pp->defined = gp->defined != 0;
            pp->visible = gp->visible != 0;
            pp->one_sided = gp->one_sided != 0;
            pp->selector = (uint8_t)gp->selector;
            pp->variant = (uint8_t)gp->variant;
        }
        models[m] = mp;
    }
}

static void test_atlas_inputs(void) {
    int i;
    for (i = 0; i < G_N_ATLASES; i++) {
        const GAtlas *a = &G_ATLASES[i];
        size_t n = (size_t)a->height * (size_t)a->stride;
        atlases[i].rgba = read_file(raw_dir, a->file, ".rgba", n);
        if (!atlases[i].rgba) continue;
        CHECKF(fnv1a64(atlases[i].rgba, n) == a->fnv, "%s: atlas bytes hash %016llx, want %016llx", a->file,
               (unsigned long long)fnv1a64(atlases[i].rgba, n), a->fnv);
        atlases[i].plain_ok =
            r2d_rotsprite_v2_decode(atlases[i].rgba, a->width, a->height, a->stride, &atlases[i].plain);
        atlases[i].anime_ok =
            r2d_rotsprite_v2_decode_anime(atlases[i].rgba, a->width, a->height, a->stride, &atlases[i].anime);
        CHECKF(atlases[i].plain_ok && atlases[i].anime_ok, "%s: decode %d, decode_anime %d", a->file,
               atlases[i].plain_ok, atlases[i].anime_ok);
        CHECK(r2d_rotsprite_v2_header(atlases[i].rgba, a->width, a->height, a->stride));
    }
}

static void check_image(const uint8_t *out, size_t bytes) {
    const GCase *c = cur;
    uint64_t h = fnv1a64(out, bytes);
    uint8_t *want;
    int nz = count_alpha(out, bytes / 4);
    CHECKF(h == c->fnv, "%s: hash %016llx, want %016llx", c->file, (unsigned long long)h, c->fnv);
    CHECKF(nz == c->nonzero, "%s: %d pixels with alpha, want %d", c->file, nz, c->nonzero);
    want = read_file(raw_dir, c->file, ".rgba", bytes);
    if (want) {
        CHECKF(fnv1a64(want, bytes) == c->fnv, "%s: PNG pixels do not match the manifest hash", c->file);
        if (memcmp(want, out, bytes) != 0) {
            size_t i, diff = 0, first = 0;
            for (i = 0; i < bytes; i++)
                if (want[i] != out[i]) {
                    if (!diff) first = i;
                    diff++;
                }
            h_fail(__FILE__, __LINE__, "%s: %zu bytes differ from the PNG, first at pixel (%zu,%zu) got %d want %d",
                   c->file, diff, (first / 4) % (size_t)c->width, (first / 4) / (size_t)c->width, out[first],
                   want[first]);
        }
        free(want);
    }
}

/* Compares a decode with its summary file: per-part counts, flag counts and
   the first records field by field (through their padding-zeroed bytes). */
static void check_summary(const R2DRotAtlas *d) {
    const GCase *c = cur;
    const GSummary *sm = NULL;
    int i, counts[256], blend = 0, patch = 0, textured = 0, mapped = 0;
    for (i = 0; i < G_N_SUMMARIES; i++)
        if (strcmp(G_SUMMARIES[i].file, c->file) == 0) sm = &G_SUMMARIES[i];
    if (!sm) {
        h_fail(__FILE__, __LINE__, "%s: no summary", c->file);
        return;
    }
    CHECKF(sm->fnv == c->fnv && sm->count == c->count, "%s: summary disagrees with golden.json", c->file);
    memset(counts, 0, sizeof counts);
    for (i = 0; i < d->count; i++) {
        const R2DRotPoint *p = &d->points[i];
        counts[p->part]++;
        blend += p->blend_weight != 0;
        patch += p->patch;
        textured += p->textured;
        mapped += p->mapped;
    }
    for (i = 0; i < sm->nparts; i++) {
        CHECKF(counts[sm->parts[i][0]] == sm->parts[i][1], "%s: part %d has %d points, want %d", c->file,
               sm->parts[i][0], counts[sm->parts[i][0]], sm->parts[i][1]);
        counts[sm->parts[i][0]] = 0;
    }
    for (i = 0; i < 256; i++) CHECKF(counts[i] == 0, "%s: unexpected part %d", c->file, i);
    CHECKF(blend == sm->with_blend_weight && patch == sm->with_patch && textured == sm->textured &&
               mapped == sm->mapped,
           "%s: blend/patch/textured/mapped %d/%d/%d/%d, want %d/%d/%d/%d", c->file, blend, patch, textured, mapped,
           sm->with_blend_weight, sm->with_patch, sm->textured, sm->mapped);
    for (i = 0; i < sm->nfirst && i < d->count; i++) {
        uint8_t rec[192];
        memcpy(rec, &d->points[i], 192);
        rec[33] = rec[34] = rec[35] = rec[190] = rec[191] = 0;
        CHECKF(memcmp(rec, sm->first[i], 192) == 0, "%s: point %d differs from first_points", c->file, i);
    }
}

static void run_case(void) {
    const GCase *c = cur;
    int ai = atlas_index(c->atlas);
    AtlasState *as;
    R2DRotRig rig;
    const R2DRotRig *rigp = NULL;
    const R2DRotAtlas *pts;
    bool ret;
    uint8_t *out;
    if (ai < 0 || !atlases[ai].rgba) {
        h_fail(__FILE__, __LINE__, "%s: atlas %s unavailable", c->file, c->atlas);
        return;
    }
    as = &atlases[ai];
    if (strcmp(c->kind, "points") == 0) {
        R2DRotAtlas d = {NULL, 0};
        int anime = strcmp(c->function, "r2d_rotsprite_v2_decode_anime") == 0;
        ret = anime ? r2d_rotsprite_v2_decode_anime(as->rgba, c->w, c->h, c->stride, &d)
                    : r2d_rotsprite_v2_decode(as->rgba, c->w, c->h, c->stride, &d);
        CHECKF(ret == (c->returned != 0), "%s: returned %d", c->file, ret);
        CHECKF(d.count == c->count, "%s: count %d, want %d", c->file, d.count, c->count);
        if (ret && d.count == c->count) {
            uint64_t h = points_hash(d.points, d.count);
            CHECKF(h == c->fnv, "%s: points hash %016llx, want %016llx", c->file, (unsigned long long)h, c->fnv);
            check_summary(&d);
        }
        r2d_rotsprite_v2_free(&d);
        return;
    }
    if (strcmp(c->kind, "f32le") == 0) {
        Ws *w = workspace_for(c->ws_id);
        uint8_t *want;
        size_t n = (size_t)c->bytes;
        if (!w->last_file || strcmp(w->last_file, c->image_file) != 0 || !w->ws.sample_depth) {
            h_fail(__FILE__, __LINE__, "%s: the call of %s did not run on workspace %s", c->file, c->image_file,
                   c->ws_id);
            return;
        }
        CHECKF(fnv1a64(w->ws.sample_depth, n) == c->fnv, "%s: sample_depth hash %016llx, want %016llx", c->file,
               (unsigned long long)fnv1a64(w->ws.sample_depth, n), c->fnv);
        {
            size_t i;
            int nz = 0;
            for (i = 0; i < n / 4; i++) nz += w->ws.sample_depth[i] != 0.0f;
            CHECKF(nz == c->nonzero, "%s: %d non-zero entries, want %d", c->file, nz, c->nonzero);
        }
        want = read_file(golden_dir, c->file, "", n);
        if (want) {
            CHECKF(memcmp(want, w->ws.sample_depth, n) == 0, "%s: sample_depth differs from the file", c->file);
            free(want);
        }
        return;
    }
    pts = strcmp(c->points_from, "r2d_rotsprite_v2_decode_anime") == 0 ? &as->anime : &as->plain;
    if (c->rig.present) {
        memset(&rig, 0, sizeof rig);
        rig.model = c->rig.model >= 0 ? models[c->rig.model] : NULL;
        rig.body = c->rig.body != 0;
        rig.phase = c->rig.phase;
        rig.stride = c->rig.stride;
        rig.arm_left = c->rig.arm_left;
        rig.arm_right = c->rig.arm_right;
        rig.head_yaw = c->rig.head_yaw;
        rig.brows = c->rig.brows;
        rigp = &rig;
    }
    out = (uint8_t *)malloc((size_t)c->bytes);
    memset(out, 0xCD, (size_t)c->bytes);
    if (strcmp(c->function, "r2d_rotsprite_v2_raster") == 0) {
        ret = r2d_rotsprite_v2_raster(pts, c->yaw, c->pitch, c->eyes, c->mouth, out);
    } else if (strcmp(c->function, "r2d_rotsprite_v2_draw") == 0) {
        ret = r2d_rotsprite_v2_draw(pts, c->yaw, c->pitch, c->eyes, c->mouth, rigp, out);
    } else if (strcmp(c->function, "r2d_rotsprite_v2_anime") == 0) {
        ret = r2d_rotsprite_v2_anime(pts, c->yaw, c->pitch, c->eyes, c->mouth, rigp, out);
    } else if (strcmp(c->function, "r2d_rotsprite_v2_anime_sized") == 0) {
        Ws *w = workspace_for(c->ws_id);
        ret = r2d_rotsprite_v2_anime_sized(pts, c->yaw, c->pitch, c->eyes, c->mouth, rigp, out, &w->ws, c->size);
        w->last_file = c->file;
        if (c->has_ws_after) {
            CHECKF(w->ws.size == c->ws_after_size, "%s: workspace size %d, want %d", c->file, w->ws.size,
                   c->ws_after_size);
            CHECKF(memcmp(w->ws.bounds, c->ws_after_bounds, sizeof w->ws.bounds) == 0,
                   "%s: bounds (%d,%d,%d,%d), want (%d,%d,%d,%d)", c->file, w->ws.bounds[0], w->ws.bounds[1],
                   w->ws.bounds[2], w->ws.bounds[3], c->ws_after_bounds[0], c->ws_after_bounds[1],
                   c->ws_after_bounds[2], c->ws_after_bounds[3]);
        }
    } else {
        h_fail(__FILE__, __LINE__, "%s: unknown function %s", c->file, c->function);
        free(out);
        return;
    }
    CHECKF(ret == (c->returned != 0), "%s: returned %d", c->file, ret);
    if (ret) check_image(out, (size_t)c->bytes);
    free(out);
}

int main(int argc, char **argv) {
    int i;
    if (argc < 3) {
        fprintf(stderr, "usage: %s RAW_DIR GOLDEN_DIR [filters...]\n", argv[0]);
        return 2;
    }
    raw_dir = argv[1];
    golden_dir = argv[2];
    h_init(argc - 2, argv + 2);
    build_models();
    h_run_inline("golden atlas inputs and decodes", test_atlas_inputs);
    for (i = 0; i < G_N_CASES; i++) {
        char name[512];
        cur = &G_CASES[i];
        snprintf(name, sizeof name, "golden %s (%s)", cur->file, cur->function);
        h_run_inline(name, run_case);
    }
    /* The smooth scenes again with row bands on 2, 3 and 8 threads (re2d.h),
       each pass with fresh workspaces: the same bytes. */
    {
        static const int counts[3] = {2, 3, 8};
        int t;
        for (t = 0; t < 3; t++) {
            for (i = 0; i < n_ws; i++) r2d_rotsprite_anime_workspace_free(&workspaces[i].ws);
            n_ws = 0;
            if (!re2d_set_render_threads(counts[t])) h_fail(__FILE__, __LINE__, "set %d threads", counts[t]);
            for (i = 0; i < G_N_CASES; i++) {
                char name[512];
                cur = &G_CASES[i];
                if (strncmp(cur->function, "r2d_rotsprite_v2_anime", 22) != 0) continue;
                snprintf(name, sizeof name, "golden %s (%s) on %d threads", cur->file, cur->function, counts[t]);
                h_run_inline(name, run_case);
            }
        }
        re2d_set_render_threads(1);
    }
    for (i = 0; i < n_ws; i++) r2d_rotsprite_anime_workspace_free(&workspaces[i].ws);
    for (i = 0; i < G_N_ATLASES; i++) {
        r2d_rotsprite_v2_free(&atlases[i].plain);
        r2d_rotsprite_v2_free(&atlases[i].anime);
        free(atlases[i].rgba);
    }
    for (i = 0; i < G_N_MODELS; i++) free(models[i]);
    return h_summary();
}
