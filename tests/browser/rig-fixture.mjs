// re2d rig → browser harness fixture (issue 19 item 8): turns the folder `re2d rig build` wrote
// into a fixture of tests/browser/harness.mjs.
//
//   node rig-fixture.mjs --build DIR --skeleton SKELETON.json --knee BONE --out FIXTURE_DIR
//                        [--thresholds FILE] [--scale S (default 0.25)] [--cross CLIP[:FRONT:BEHIND]]...
//
// `--cross` (issue 42) adds the draw-order check of draworder.mjs on CLIP, whose crossing frames
// are those where FRONT is keyed nearer than BEHIND and overlaps it (the fighter's punch: the far
// fist over the chest).
//
// The fixture is the built model.json (its walk clip as built) plus the probe clips the checks
// need, all keyed on bones of the build:
//   probe_root   the root bone turns by 0.3 rad (C6: one skeleton tree moves every part)
//   probe_knee   BONE (a child joint: knee, elbow) bends by 0.5 rad (C8: distal BONE, proximal
//                its parent part; the ramp control must change the proximal part)
//   probe_bob    the root bone is translated (C9T: root translation keys play)
// and `model-marker.json`, the same model whose texture pages have their hidden fill painted
// the marker colour (magenta). Which texture pixels are hidden fill is computed here, not taken
// from the build: a page texel of a part (its rectangle, trim corner and scale in pages.json) is
// placed in the drawing by the part's pivot (pivots.json) and its bone's first declared point
// (the skeleton), and it is hidden fill when the ownership map (labels.png) gives that drawing
// pixel to another part. W3 renders the walk of the marker
// model in the runtime and counts the marker pixels.
import fs from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';

const MARKER = [255, 0, 255];

function args(argv) {
    const a = { cross: [] };
    for (let i = 0; i < argv.length; i += 2) {
        const k = argv[i].replace(/^--/, '');
        if (!['build', 'skeleton', 'knee', 'out', 'thresholds', 'scale', 'seam-control', 'cross'].includes(k) || argv[i + 1] === undefined) throw new Error(`bad argument ${argv[i]}`);
        if (k === 'cross') {
            const [clip, front, behind, ...rest] = argv[i + 1].split(':');
            if (!clip || !front !== !behind || rest.length) throw new Error(`--cross ${argv[i + 1]}: not CLIP[:FRONT:BEHIND]`);
            a.cross.push(front ? { clip, front, behind } : { clip });
        } else a[k] = argv[i + 1];
    }
    for (const k of ['build', 'skeleton', 'knee', 'out']) if (!a[k]) throw new Error(`--${k} is required`);
    a.scale = a.scale === undefined ? 0.25 : Number(a.scale);
    if (!(a.scale > 0 && a.scale <= 1)) throw new Error('--scale must be in (0, 1]');
    return a;
}

// The model in smaller units (positions, lengths, vertices and root translations times s; angles,
// UVs, weights and textures unchanged): the runtime draws a quarter-size artboard, which keeps
// the harness fast on a 1696x2528 drawing without changing what is checked.
function scaleModel(m, s) {
    for (const b of Object.values(m.skeleton)) {
        for (const k of ['x', 'y', 'length']) if (typeof b[k] === 'number') b[k] *= s;
    }
    for (const p of m.parts) p.verts = p.verts.map((v) => v * s);
    for (const c of Object.values(m.clips)) {
        for (const keys of Object.values(c.translations || {})) for (const k of keys) { k[1] *= s; k[2] *= s; }
    }
}

const readPng = (f) => PNG.sync.read(fs.readFileSync(f));

function main() {
    const a = args(process.argv.slice(2));
    const model = JSON.parse(fs.readFileSync(path.join(a.build, 'model.json'), 'utf8'));
    const pivots = JSON.parse(fs.readFileSync(path.join(a.build, 'pivots.json'), 'utf8'));
    const skel = JSON.parse(fs.readFileSync(a.skeleton, 'utf8'));
    const labels = readPng(path.join(a.build, 'labels.png'));
    fs.rmSync(a.out, { recursive: true, force: true });
    fs.mkdirSync(a.out, { recursive: true });

    const roots = Object.entries(model.skeleton).filter(([, b]) => b.parent === undefined).map(([n]) => n);
    if (roots.length !== 1) throw new Error(`expected one root bone, found ${roots.join(', ')}`);
    const root = roots[0];
    const partOf = new Set(model.parts.map((p) => p.name));
    if (!partOf.has(a.knee)) throw new Error(`--knee ${a.knee} is not a part`);
    let proximal = model.skeleton[a.knee].parent;
    while (proximal && !partOf.has(proximal)) proximal = model.skeleton[proximal].parent;
    if (!proximal) throw new Error(`--knee ${a.knee} has no parent part`);
    scaleModel(model, a.scale);
    const reach = Math.max(...Object.values(model.skeleton).map((b) => b.length || 0));
    model.clips.probe_root = { duration: 1.0, tracks: { [root]: [[0, 0], [1, 0.3]] } };
    model.clips.probe_knee = { duration: 1.0, tracks: { [a.knee]: [[0, 0], [1, 0.5]] } };
    model.clips.probe_bob = {
        duration: 1.0,
        translations: { [root]: [[0, 0, 0], [0.5, 0.1 * reach, -0.2 * reach], [1, 0, 0]] },
    };

    // textures (the texture pages of pages.json): copied, and a marker copy with the hidden fill
    // painted. A page texel of a part's rectangle covers 1/scale crop texels per side from the
    // part's trim corner; the crop is placed in the drawing by its pivot.
    const pages = JSON.parse(fs.readFileSync(path.join(a.build, 'pages.json'), 'utf8'));
    const declared = new Map(skel.bones.map((b, i) => [b.name, { start: b.points[0], index: i }]));
    const markerTextures = {};
    let hiddenPx = 0;
    for (const [name, file] of Object.entries(model.textures)) {
        fs.copyFileSync(path.join(a.build, file), path.join(a.out, file));
        const pi = pages.pages.findIndex((p) => p.file === file);
        if (pi < 0) throw new Error(`texture ${file}: not a page of pages.json`);
        const img = readPng(path.join(a.build, file));
        for (const part of pages.parts.filter((q) => q.page === pi)) {
            const pv = pivots.bones.find((b) => b.name === part.name);
            const d = declared.get(part.name);
            if (!pv || !d) throw new Error(`part ${part.name}: no pivot or declared bone`);
            const ox = d.start[0] - pv.pivot[0] + part.trim[0], oy = d.start[1] - pv.pivot[1] + part.trim[1];
            const [rx, ry, rw, rh] = part.rect;
            for (let v = ry; v < ry + rh; v++) {
                for (let u = rx; u < rx + rw; u++) {
                    const o = (v * img.width + u) * 4;
                    if (img.data[o + 3] === 0) continue;
                    const x = Math.floor(ox + (u - rx + 0.5) / part.scale), y = Math.floor(oy + (v - ry + 0.5) / part.scale);
                    if (x < 0 || y < 0 || x >= labels.width || y >= labels.height) continue;
                    const owner = labels.data[(y * labels.width + x) * 4];
                    if (owner !== 0 && owner !== d.index + 1) {
                        img.data[o] = MARKER[0];
                        img.data[o + 1] = MARKER[1];
                        img.data[o + 2] = MARKER[2];
                        hiddenPx++;
                    }
                }
            }
        }
        const mfile = `marker_${file}`;
        fs.writeFileSync(path.join(a.out, mfile), PNG.sync.write(img));
        markerTextures[name] = mfile;
    }
    if (hiddenPx === 0) throw new Error('no hidden fill found: the marker model would prove nothing');
    fs.writeFileSync(path.join(a.out, 'model.json'), JSON.stringify(model) + '\n');
    fs.writeFileSync(path.join(a.out, 'model-marker.json'), JSON.stringify({ ...model, textures: markerTextures }) + '\n');
    const harness = {
        clip: 'walk',
        samples: 8,
        rootProbe: 'probe_root',
        distalProbe: { clip: 'probe_knee', distal: a.knee, proximal },
        erode: 2,
        translationProbe: 'probe_bob',
        walk: { markerModel: 'model-marker.json', marker: MARKER, samples: 16, hiddenMax: 0.02, differMin: 0.02 },
    };
    // the state machine of `rig build` (issue 25): idle at speed 0, the walk at 1, the first one-shot's trigger
    const sm = model.state_machine;
    if (sm) {
        const at = (v) => (sm.blend.find((b) => b[1] === v) || [null])[0];
        harness.sm = { name: sm.name, input: sm.input, idle: at(0), walk: at(1), trigger: sm.triggers.length ? sm.triggers[0][1] : null };
        if (!harness.sm.idle || !harness.sm.walk) throw new Error('the state machine has no idle at 0 or walk at 1');
        // a body-part layer (issue 47): L1 plays its first one-shot layer over the walk
        const layer = (sm.layers || []).find((l) => !model.clips[l.clip].loop);
        if (layer) harness.sm.layer = { name: layer.name, clip: layer.clip, trigger: layer.trigger };
    }
    // N1 (issue 47): the same character built with --seam-pad 0, scaled alike, as the seams' control
    if (a['seam-control']) {
        const cdir = path.join(a.out, 'seam-control');
        fs.mkdirSync(cdir, { recursive: true });
        const cm = JSON.parse(fs.readFileSync(path.join(a['seam-control'], 'model.json'), 'utf8'));
        scaleModel(cm, a.scale);
        for (const file of Object.values(cm.textures)) fs.copyFileSync(path.join(a['seam-control'], file), path.join(cdir, file));
        fs.writeFileSync(path.join(cdir, 'model.json'), JSON.stringify(cm) + '\n');
        harness.seams = { controlModel: 'seam-control/model.json', maxShare: 0.0005, rim: Math.ceil(2 * 2 * a.scale) + 1 };
    }
    // draw-order keys (issue 42): the clips named by --cross, each with its crossing pair
    for (const c of a.cross) {
        if (!model.clips[c.clip] || !model.clips[c.clip].draw_order) throw new Error(`--cross: clip ${c.clip} has no draw-order keys`);
        for (const p of [c.front, c.behind]) if (p && !partOf.has(p)) throw new Error(`--cross: ${p} is not a part`);
    }
    if (a.cross.length) harness.drawOrder = { clips: a.cross, samples: 24 };
    fs.writeFileSync(path.join(a.out, 'harness.json'), JSON.stringify(harness, null, 2) + '\n');
    if (a.thresholds && fs.existsSync(a.thresholds)) fs.copyFileSync(a.thresholds, path.join(a.out, 'thresholds.json'));
    console.log(`rig-fixture: ${a.out}: ${model.parts.length} parts, root ${root}, knee ${a.knee} (proximal ${proximal}), ${hiddenPx} hidden-fill texels marked`);
}

try {
    main();
} catch (e) {
    console.error(`rig-fixture: ${e.message}`);
    process.exit(1);
}
