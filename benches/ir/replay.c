/* re2d bench-ir: replays one op group of tests/golden under callgrind, one measured region per call.
 *
 *   replay LIB.so RAW_DIR --groups        print "ATLAS OP" for every op group, manifest order
 *   replay LIB.so RAW_DIR ATLAS OP        run the calls of one group (e.g. dense-1024 anime512-model)
 *
 * RAW_DIR holds the *.rgba files written by ffi-tests/gen_golden.py; the case table
 * (golden_cases.h) is compiled in. LIB.so is any library exporting the functions of
 * rotsprite_math.h (re2d or the existing C library), loaded with dlopen(RTLD_NOW) so no
 * lazy symbol binding happens inside a call. Each library call runs inside measured_call();
 * `valgrind --tool=callgrind --toggle-collect=measured_call --dump-after=measured_call`
 * writes one count per call. Decoding the points a render op draws, allocating outputs,
 * hashing and freeing stay outside. The anime_sized calls of a group share one
 * zero-initialised workspace; raster/draw/anime calls of a group run in call order, so
 * call 0 also pays first-use costs. Same method as the development tool the baseline
 * numbers (baseline-c.tsv) were taken with.
 *
 * Prints one line per call: "ATLAS OP N ok" or "ATLAS OP N MISMATCH ..." (return value,
 * count or output hash differs from the manifest, sample_depth checked after its call).
 * Exit 1 on a mismatch, 2 on an error. */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden_cases.h"
#include "rotsprite_math.h"

typedef bool DecodeFn(const uint8_t *, int, int, int, R2DRotAtlas *);
typedef void FreeFn(R2DRotAtlas *);
typedef bool RasterFn(const R2DRotAtlas *, double, double, int, int, uint8_t *);
typedef bool RenderFn(const R2DRotAtlas *, double, double, int, int, const R2DRotRig *, uint8_t *);
typedef bool SizedFn(const R2DRotAtlas *, double, double, int, int, const R2DRotRig *, uint8_t *,
                     R2DRotAnimeWorkspace *, int);
typedef void WsFreeFn(R2DRotAnimeWorkspace *);

static struct {
    DecodeFn *decode, *decode_anime;
    FreeFn *free_points;
    RasterFn *raster;
    RenderFn *draw, *anime;
    SizedFn *anime_sized;
    WsFreeFn *ws_free;
} lib;

enum { F_DECODE, F_DECODE_ANIME, F_RASTER, F_DRAW, F_ANIME, F_SIZED };

typedef struct Call {
    int fn;
    const uint8_t *rgba;
    int w, h, stride;
    const R2DRotAtlas *points;
    double yaw, pitch;
    int eyes, mouth, size;
    const R2DRotRig *rig;
    uint8_t *out;
    R2DRotAnimeWorkspace *ws;
    R2DRotAtlas decoded;
    bool ret;
} Call;

/* The one measured region: exactly one library call, reached through a volatile
 * pointer so the compiler cannot inline or clone it. */
__attribute__((noinline)) void measured_call(Call *c);
static void (*volatile measured)(Call *) = measured_call;
void measured_call(Call *c) {
    switch (c->fn) {
    case F_DECODE: c->ret = lib.decode(c->rgba, c->w, c->h, c->stride, &c->decoded); break;
    case F_DECODE_ANIME: c->ret = lib.decode_anime(c->rgba, c->w, c->h, c->stride, &c->decoded); break;
    case F_RASTER: c->ret = lib.raster(c->points, c->yaw, c->pitch, c->eyes, c->mouth, c->out); break;
    case F_DRAW: c->ret = lib.draw(c->points, c->yaw, c->pitch, c->eyes, c->mouth, c->rig, c->out); break;
    case F_ANIME: c->ret = lib.anime(c->points, c->yaw, c->pitch, c->eyes, c->mouth, c->rig, c->out); break;
    case F_SIZED:
        c->ret = lib.anime_sized(c->points, c->yaw, c->pitch, c->eyes, c->mouth, c->rig, c->out, c->ws, c->size);
        break;
    }
}

static void die(const char *what, const char *detail) {
    fprintf(stderr, "replay: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(2);
}

static uint64_t fnv1a64(const void *data, size_t n) {
    const uint8_t *p = data;
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3u;
    return h;
}

/* Decoded points as golden.json hashes them: padding bytes 33-35, 190-191 zeroed. */
static uint64_t hash_points(R2DRotPoint *p, int count) {
    for (int i = 0; i < count; i++) {
        uint8_t *r = (uint8_t *)&p[i];
        r[33] = r[34] = r[35] = r[190] = r[191] = 0;
    }
    return fnv1a64(p, (size_t)count * sizeof *p);
}

/* "ATLAS.OP[.N].ext" -> atlas and op (each at most 63 bytes); call number or -1. */
static int split_name(const char *file, char atlas[64], char op[64]) {
    const char *d1 = strchr(file, '.'), *d2 = d1 ? strchr(d1 + 1, '.') : NULL;
    if (!d1 || !d2 || d1 - file >= 64 || d2 - d1 - 1 >= 64) die("unexpected golden file name", file);
    memcpy(atlas, file, (size_t)(d1 - file));
    atlas[d1 - file] = 0;
    memcpy(op, d1 + 1, (size_t)(d2 - d1 - 1));
    op[d2 - d1 - 1] = 0;
    return (d2[1] >= '0' && d2[1] <= '9') ? atoi(d2 + 1) : -1;
}

static int fn_of(const char *name) {
    static const char *const names[] = {"r2d_rotsprite_v2_decode", "r2d_rotsprite_v2_decode_anime",
                                        "r2d_rotsprite_v2_raster", "r2d_rotsprite_v2_draw",
                                        "r2d_rotsprite_v2_anime",  "r2d_rotsprite_v2_anime_sized"};
    for (int i = 0; i < 6; i++)
        if (!strcmp(name, names[i])) return i;
    return -1;
}

static uint8_t *read_atlas(const char *dir, const GAtlas *a) {
    char path[4096];
    size_t n = (size_t)a->height * (size_t)a->stride;
    snprintf(path, sizeof path, "%s/%s.rgba", dir, a->file);
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open", path);
    uint8_t *buf = malloc(n);
    if (!buf || fread(buf, 1, n, f) != n) die("short atlas file", path);
    fclose(f);
    if (fnv1a64(buf, n) != a->fnv) die("atlas hash differs from the manifest", path);
    return buf;
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) die("usage: replay LIB.so RAW_DIR (--groups | ATLAS OP)", NULL);
    char atlas[64], op[64], last[128] = "";
    if (argc == 4) {
        if (strcmp(argv[3], "--groups")) die("usage: replay LIB.so RAW_DIR (--groups | ATLAS OP)", NULL);
        for (int i = 0; i < G_N_CASES; i++) {
            char group[128];
            if (strcmp(G_CASES[i].kind, "f32le") == 0) continue;
            split_name(G_CASES[i].file, atlas, op);
            snprintf(group, sizeof group, "%s %s", atlas, op);
            if (strcmp(group, last)) printf("%s\n", group);
            snprintf(last, sizeof last, "%s", group);
        }
        return 0;
    }
    void *so = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!so) die("dlopen", dlerror());
#define SYM(field, name) \
    if (!(*(void **)&lib.field = dlsym(so, name))) die("missing symbol", name)
    SYM(decode, "r2d_rotsprite_v2_decode");
    SYM(decode_anime, "r2d_rotsprite_v2_decode_anime");
    SYM(free_points, "r2d_rotsprite_v2_free");
    SYM(raster, "r2d_rotsprite_v2_raster");
    SYM(draw, "r2d_rotsprite_v2_draw");
    SYM(anime, "r2d_rotsprite_v2_anime");
    SYM(anime_sized, "r2d_rotsprite_v2_anime_sized");
    SYM(ws_free, "r2d_rotsprite_anime_workspace_free");

    const char *want_atlas = argv[3], *want_op = argv[4];
    uint8_t *rgba = NULL;
    const GAtlas *ga = NULL;
    R2DRotAtlas points = {0};
    R2DRotAnimeWorkspace ws = {0};
    R2DRotModelPose *model = calloc(1, sizeof *model);
    int calls = 0;
    bool all_ok = true;
    if (!model) die("out of memory", NULL);
    for (int i = 0; i < G_N_CASES; i++) {
        const GCase *gc = &G_CASES[i];
        int n = split_name(gc->file, atlas, op);
        if (strcmp(atlas, want_atlas) || strcmp(op, want_op)) continue;
        if (strcmp(gc->kind, "f32le") == 0) { /* sample_depth of the call just made */
            size_t bytes = ws.sample_depth ? (size_t)ws.size * (size_t)ws.size * 4 : 0;
            uint64_t h = fnv1a64(ws.sample_depth, bytes);
            if (h != gc->fnv) {
                printf("%s %s sample_depth MISMATCH %016llx\n", atlas, op, (unsigned long long)h);
                all_ok = false;
            }
            continue;
        }
        if (!rgba) {
            for (int a = 0; a < G_N_ATLASES; a++)
                if (!strcmp(G_ATLASES[a].file, gc->atlas)) ga = &G_ATLASES[a];
            if (!ga) die("atlas not in the manifest", gc->atlas);
            rgba = read_atlas(argv[2], ga);
        }
        Call c = {.rgba = rgba, .w = ga->width, .h = ga->height, .stride = ga->stride, .points = &points};
        c.fn = fn_of(gc->function);
        if (c.fn < 0) die("unsupported function", gc->function);
        bool decode = c.fn == F_DECODE || c.fn == F_DECODE_ANIME;
        if (decode && (gc->w != ga->width || gc->h != ga->height || gc->stride != ga->stride))
            die("decode arguments differ from the atlas", gc->file);
        c.yaw = gc->yaw, c.pitch = gc->pitch, c.eyes = gc->eyes, c.mouth = gc->mouth, c.size = gc->size;
        c.ws = &ws;
        R2DRotRig rig = {0};
        if (gc->rig.present) {
            rig.body = gc->rig.body != 0;
            rig.phase = gc->rig.phase, rig.stride = gc->rig.stride;
            rig.arm_left = gc->rig.arm_left, rig.arm_right = gc->rig.arm_right;
            rig.head_yaw = gc->rig.head_yaw, rig.brows = gc->rig.brows;
            if (gc->rig.model >= 0) {
                const GModel *gm = &G_MODELS[gc->rig.model];
                memset(model, 0, sizeof *model);
                model->scale = gm->scale;
                for (int k = 0; k < gm->nparts; k++) {
                    const GPart *gp = &gm->parts[k];
                    R2DRotPartPose *pp = &model->parts[gp->id];
                    memcpy(pp->matrix, gp->matrix, sizeof pp->matrix);
                    pp->defined = gp->defined, pp->visible = gp->visible, pp->one_sided = gp->one_sided;
                    pp->selector = (uint8_t)gp->selector, pp->variant = (uint8_t)gp->variant;
                }
                rig.model = model;
            }
            c.rig = &rig;
        }
        if (!decode && !points.points) { /* once per group, not measured */
            DecodeFn *d = gc->points_from && !strcmp(gc->points_from, "r2d_rotsprite_v2_decode_anime")
                              ? lib.decode_anime
                              : lib.decode;
            if (!d(rgba, ga->width, ga->height, ga->stride, &points)) die("decode for the render op failed", gc->file);
        }
        if (!decode && !(c.out = calloc(1, (size_t)gc->bytes))) die("out of memory", NULL);

        measured(&c);

        calls++;
        bool ok = c.ret == (gc->returned != 0);
        uint64_t h;
        if (decode) {
            ok &= c.decoded.count == gc->count;
            h = hash_points(c.decoded.points, c.decoded.count);
            lib.free_points(&c.decoded);
        } else {
            h = fnv1a64(c.out, (size_t)gc->bytes);
            free(c.out);
        }
        ok &= h == gc->fnv;
        if (ok) printf("%s %s %d ok\n", atlas, op, n < 0 ? 0 : n);
        else printf("%s %s %d MISMATCH returned=%d hash=%016llx\n", atlas, op, n < 0 ? 0 : n, c.ret,
                    (unsigned long long)h);
        fflush(stdout);
        all_ok &= ok;
    }
    if (!calls) die("no such op group", want_op);
    if (points.points) lib.free_points(&points);
    if (ws.size) lib.ws_free(&ws);
    free(model);
    free(rgba);
    return all_ok ? 0 : 1;
}
