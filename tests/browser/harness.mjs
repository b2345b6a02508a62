// re2d riv browser harness (spec rive-export.md §10.3–§10.6): exports every fixture and every
// negative control with `re2d export-riv`, renders them in Debian chromium with the official Rive
// web runtime (pinned npm version, served from 127.0.0.1), renders the reference frames with
// `re2d riv render-ref`, and runs checks C0–C9 with all controls in this one invocation. A fixture
// whose harness.json names a `translationProbe` clip also gets C9T (issue 19): that clip only
// moves the root bone (keyed RootBone x/y); runtime vs reference like C9, and the file exported
// with `--control notranslate` (translation keys dropped) must fail it.
//
//   node harness.mjs --re2d target/release/re2d --fixtures tests/riv/fixtures [--fixtures DIR]...
//                    --out target/riv-browser [--calibrate] [--fixture NAME]...
//
// A fixture whose harness.json has a `walk` section (the characters `re2d rig build` makes,
// tests/browser/rig-fixture.mjs) also gets the walk checks of issue 19: W1 consecutive frames
// differ, W2 the loop closes with 0 px, W3 the visible hidden fill (its model variant with the
// hidden fill painted the marker colour) stays ≤ walk.hiddenMax of the frame, with controls.
//
// Every metric is computed from PNGs this run saved under --out; results.json holds every number
// (README tables are generated from it). --calibrate derives each fixture's thresholds from the
// controls (midpoint, margin ≥ 0.05 required) and writes thresholds.json beside the fixture.
// Exit 0 when every check passes and every control fails its check; 1 otherwise.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './server.mjs';
import { CHROMIUM, checkVersions, launch, openPage, re2d } from './browser.mjs';
import * as M from './metrics.mjs';
import { drawOrderChecks } from './draworder.mjs';
import { layerSchedule } from './layers.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MARGIN = 0.05;
const CONTROLS = ['zflip', 'tflip', 'unbind', 'forest', 'static', 'ramp', 'badversion', 'toc16', 'notranslate'];

function parseArgs(argv) {
    const a = { fixtures: [], calibrate: false, fixturesDirs: [] };
    for (let i = 0; i < argv.length; i++) {
        const k = argv[i];
        if (k === '--calibrate') a.calibrate = true;
        else if (k === '--re2d') a.re2d = argv[++i];
        else if (k === '--fixtures') a.fixturesDirs.push(argv[++i]);
        else if (k === '--out') a.out = argv[++i];
        else if (k === '--fixture') a.fixtures.push(argv[++i]);
        else throw new Error(`unknown argument ${k}`);
    }
    if (!a.re2d || !a.fixturesDirs.length || !a.out) throw new Error('usage: harness.mjs --re2d BIN --fixtures DIR... --out DIR [--calibrate] [--fixture NAME]');
    // every fixture (a folder with harness.json) of every --fixtures folder, by name
    a.dirOf = {};
    for (const d of a.fixturesDirs) {
        for (const f of fs.readdirSync(d)) {
            if (!fs.existsSync(path.join(d, f, 'harness.json'))) continue;
            if (a.dirOf[f]) throw new Error(`fixture ${f} is in both ${a.dirOf[f]} and ${d}`);
            a.dirOf[f] = path.join(d, f);
        }
    }
    return a;
}


function savePngs(dir, prefix, dataUrls) {
    return dataUrls.map((d, i) => {
        const f = path.join(dir, `${prefix}-${i}.png`);
        fs.writeFileSync(f, Buffer.from(d.split(',')[1], 'base64'));
        return f;
    });
}

const min = (xs) => xs.reduce((a, b) => Math.min(a, b), Infinity);
const max = (xs) => xs.reduce((a, b) => Math.max(a, b), -Infinity);
const r4 = (x) => Math.round(x * 1e4) / 1e4;

// Runs one fixture: exports, reference frames, runtime frames, raw scores.
async function runFixture(a, name, page, pageNoGl, logs) {
    const fdir = a.dirOf[name];
    if (!fdir) throw new Error(`no fixture ${name} in ${a.fixturesDirs.join(', ')}`);
    const cfg = JSON.parse(fs.readFileSync(path.join(fdir, 'harness.json'), 'utf8'));
    const model = JSON.parse(fs.readFileSync(path.join(fdir, 'model.json'), 'utf8'));
    const out = path.join(a.out, name);
    fs.rmSync(out, { recursive: true, force: true });
    fs.mkdirSync(path.join(out, 'runtime'), { recursive: true });
    fs.mkdirSync(path.join(out, 'ref'), { recursive: true });
    const modelPath = path.join(fdir, 'model.json');
    const files = { good: [], emptytoc: ['--empty-toc'] };
    for (const c of CONTROLS) files[c] = ['--control', c];
    for (const [k, extra] of Object.entries(files)) re2d(a.re2d, ['export-riv', modelPath, '--output', path.join(out, `${k}.riv`), ...extra]);
    // Walk checks (issue 19 item 8): a fixture made by `re2d rig build` names the variant of its
    // model whose hidden fill is painted the marker colour; it is exported as is and with its
    // draw order reversed (the control: hidden fill comes to the front).
    const markerPath = cfg.walk ? path.join(fdir, cfg.walk.markerModel) : null;
    if (markerPath) {
        re2d(a.re2d, ['export-riv', markerPath, '--output', path.join(out, 'marker.riv')]);
        re2d(a.re2d, ['export-riv', markerPath, '--output', path.join(out, 'marker-zflip.riv'), '--control', 'zflip']);
    }
    // structural check (§10.1) on every file, as the CLI reports it
    const structural = {};
    for (const k of Object.keys(files)) {
        try { re2d(a.re2d, ['riv', 'check', path.join(out, `${k}.riv`)]); structural[k] = 'ok'; }
        catch (e) { structural[k] = 'rejected'; }
    }
    const clip = cfg.clip;
    const dur = Math.round(model.clips[clip].duration * 60) / 60;
    const n = cfg.samples || 8;
    const times = Array.from({ length: n + 1 }, (_, i) => (i * dur) / n);
    const ref0 = (mpath, args, file) => { re2d(a.re2d, ['riv', 'render-ref', mpath, ...args, '--output', file]); return file; };
    const ref = (args, file) => ref0(modelPath, args, file);
    const refAt = times.map((t, i) => ref(['--clip', clip, '--time', String(t)], path.join(out, 'ref', `ref-${i}.png`)));
    const refShift = times.map((t, i) => ref(['--clip', clip, '--time', String(t + dur / 4)], path.join(out, 'ref', `shift-${i}.png`)));
    const masks = {};
    for (const p of model.parts) masks[p.name] = M.regionOf(M.readPng(ref(['--part', p.name], path.join(out, 'ref', `mask-${p.name}.png`))));
    const url = (k) => `/out/${name}/${k}.riv`;
    const frames = async (k, c, ts, pg = page, tag = '') =>
        savePngs(path.join(out, 'runtime'), `${tag}${k}-${c}`, await pg.evaluate((u, cl, tt) => window.re2d.frames(u, cl, tt), url(k), c, ts)).map(M.readPng);
    // C1 info
    const info = {};
    for (const k of ['good', 'emptytoc', 'badversion', 'toc16']) {
        const before = logs.page.errors.length;
        info[k] = await page.evaluate((u) => window.re2d.info(u), url(k));
        info[k].consoleErrors = logs.page.errors.slice(before);
    }
    const main = {};
    for (const k of ['good', 'zflip', 'tflip', 'unbind', 'static']) main[k] = await frames(k, clip, times);
    const refImgs = refAt.map(M.readPng), shiftImgs = refShift.map(M.readPng);
    const rootProbe = {}, distal = {};
    for (const k of ['good', 'forest']) rootProbe[k] = await frames(k, cfg.rootProbe, [0, 1]);
    for (const k of ['good', 'ramp']) distal[k] = await frames(k, cfg.distalProbe.clip, [0, 1]);
    // C2 control: the same good file in a browser without WebGL
    const noGl = { webgl: await pageNoGl.evaluate(() => window.re2d.webgl()) };
    try {
        noGl.frame = (await frames('good', clip, [0], pageNoGl, 'nowebgl-'))[0];
    } catch (e) {
        noGl.error = String(e.message || e);
    }
    const [W, H] = [main.good[0].w, main.good[0].h];
    // ---- raw scores ----
    const colourMin = (fr) => min(fr.map((f, i) => M.colour(f, refImgs[i])));
    const iouMin = (fr, refs) => min(fr.map((f, i) => M.iou(f, refs[i])));
    const motion = (fr) => fr.slice(1).map((f, i) => ({ changed: M.changed(fr[i], f), union: M.union(fr[i], f) }));
    const names = model.parts.map((p) => p.name);
    const regionScore = (fr) => min(names.map((p) => M.changed(fr[0], fr[1], masks[p]) / Math.max(1, M.count(masks[p]))));
    const ex = (p) => M.exclusive(masks[p], names.filter((q) => q !== p).map((q) => masks[q]), W, H, cfg.erode ?? 2);
    const exD = ex(cfg.distalProbe.distal), exP = ex(cfg.distalProbe.proximal);
    const locality = (fr) => ({ distal: M.changed(fr[0], fr[1], exD), proximal: M.changed(fr[0], fr[1], exP), proximalSize: M.count(exP), distalSize: M.count(exD) });
    const bind = (fr) => {
        const k = Math.floor(n / 2);
        return { changed: M.changed(fr[0], fr[k]), union: M.union(fr[0], fr[k]), cover: [M.coverage(fr[0]), M.coverage(fr[k])] };
    };
    const sortedClips = Object.keys(model.clips).sort();
    // C9T (root translations, issue 19): a probe clip that only moves the root bone (keyed
    // RootBone x/y) against the reference at the probe's sample times; the control drops the
    // translation keys (--control notranslate). The main clip's notranslate score is recorded too.
    let c9t = null;
    if (cfg.translationProbe) {
        const pclip = cfg.translationProbe;
        const pdur = Math.round(model.clips[pclip].duration * 60) / 60;
        const ptimes = Array.from({ length: n + 1 }, (_, i) => (i * pdur) / n);
        const pref = ptimes.map((t, i) => M.readPng(ref(['--clip', pclip, '--time', String(t)], path.join(out, 'ref', `probe-${i}.png`))));
        const score = (fr) => ({
            iou: iouMin(fr, pref),
            colour: min(fr.map((f, i) => M.colour(f, pref[i]))),
            perFrame: fr.map((f, i) => ({ t: r4(ptimes[i]), iou: r4(M.iou(f, pref[i])), colour: r4(M.colour(f, pref[i])) })),
        });
        const mainNt = await frames('notranslate', clip, times);
        c9t = {
            clip: pclip,
            times: ptimes.map(r4),
            good: score(await frames('good', pclip, ptimes)),
            notranslate: score(await frames('notranslate', pclip, ptimes)),
            mainNotranslate: { iou: iouMin(mainNt, refImgs), colour: colourMin(mainNt) },
        };
    }
    let walk = null;
    if (markerPath) {
        const wt = Array.from({ length: cfg.walk.samples + 1 }, (_, i) => (i * dur) / cfg.walk.samples);
        const good = await frames('good', clip, wt, page, 'walk-');
        const figure = (f) => M.coverage(f) * f.w * f.h;
        const pairs = good.slice(1).map((f, i) => M.changed(good[i], f) / Math.max(1, Math.max(figure(good[i]), figure(f))));
        const hidden = async (k) => (await frames(k, clip, wt, page, 'walk-')).map((f) => M.markerFraction(f, cfg.walk.marker));
        walk = {
            samples: cfg.walk.samples,
            times: wt.map(r4),
            differ: pairs,
            loop: M.changed(good[0], good[cfg.walk.samples]),
            half: M.changed(good[0], good[Math.floor(cfg.walk.samples / 2)]),
            hidden: await hidden('marker'),
            hiddenZflip: await hidden('marker-zflip'),
            hiddenMax: cfg.walk.hiddenMax,
            differMin: cfg.walk.differMin,
        };
    }
    // State machine (issue 25, rive-export.md §11): with the machine advancing, the speed input
    // chooses the clip (speed 1: the walk's frame at the same time; speed 0: the idle pose), and
    // a trigger plays its one-shot from 0 and returns to the blend when it ends (the walk resumes
    // at the overshoot). Every frame is compared with the reference renderer's frame of that clip
    // at that time (IoU). Controls: the Entry and Any transitions pointing at the Exit state, and
    // the blend and the conditions reading inputs that are not the named ones.
    let sm = null;
    if (cfg.sm) {
        const s = cfg.sm;
        for (const c of ['sm-wrongtarget', 'sm-unread']) re2d(a.re2d, ['export-riv', modelPath, '--output', path.join(out, `${c}.riv`), '--control', c]);
        const shots = async (k, steps, tag) => savePngs(path.join(out, 'runtime'), `sm-${tag}-${k}`,
            await page.evaluate((u, m, st) => window.re2d.machine(u, m, st), url(k), s.name, steps)).map(M.readPng);
        const refOf = (c, t, tag) => M.readPng(ref(['--clip', c, '--time', String(t)], path.join(out, 'ref', `sm-${tag}.png`)));
        // S1: speed 1 for 0.4 s → the walk at 0.4 s; then speed 0 → the idle pose
        const s1Steps = [{ dt: 0 }, { set: { [s.input]: 1 }, dt: 0.4, shot: true }, { set: { [s.input]: 0 }, dt: 0.1, shot: true }];
        const s1Ref = [refOf(s.walk, 0.4, 'walk-0.4'), refOf(s.idle, 0.5, 'idle')];
        const s1 = async (k) => { const f = await shots(k, s1Steps, 's1'); return min(f.map((x, i) => M.iou(x, s1Ref[i]))); };
        sm = { s1: { good: await s1('good'), wrongtarget: await s1('sm-wrongtarget'), unread: await s1('sm-unread') } };
        if (s.trigger) {
            // S2: walking, fire → the one-shot at 0 … at 0.5 s; past its end by 0.2 s → the walk at 0.2 s
            const d = Math.round(model.clips[s.trigger].duration * 60) / 60;
            const s2Steps = [{ dt: 0 }, { set: { [s.input]: 1 }, dt: 0.3 }, { fire: [s.trigger], dt: 0.05 },
                { dt: 0.5, shot: true }, { dt: d - 0.5 + 0.2, shot: true }];
            const s2Ref = [refOf(s.trigger, 0.5, `${s.trigger}-0.5`), refOf(s.walk, 0.2, 'walk-0.2')];
            const s2 = async (k) => { const f = await shots(k, s2Steps, 's2'); return min(f.map((x, i) => M.iou(x, s2Ref[i]))); };
            sm.s2 = { trigger: s.trigger, good: await s2('good'), wrongtarget: await s2('sm-wrongtarget'), unread: await s2('sm-unread') };
        }
        if (s.layer) {
            // L1 (issue 47, layers.rs): the body-part layer's clip plays over the walk on the bones it
            // keys, stepped by layerSchedule (layers.mjs); each shot vs the reference renderer's mixed
            // pose (render-ref --clip walk --time T --layer CLIP@T'). Control: the layer's clip keyed
            // on every bone (--control layer-all), which holds the legs still under the wave.
            re2d(a.re2d, ['export-riv', modelPath, '--output', path.join(out, 'layer-all.riv'), '--control', 'layer-all']);
            const L = s.layer;
            const mixOf = (tw, tl, tag) => M.readPng(ref(['--clip', s.walk, '--time', String(tw), ...(tl === null ? [] : ['--layer', `${L.clip}@${tl}`])], path.join(out, 'ref', `l1-${tag}.png`)));
            const { steps, shots: at } = layerSchedule(s.input, L.trigger, model.clips[L.clip].duration);
            const refs = at.map((x, i) => mixOf(x.walk, x.layer, 'abcd'[i]));
            const l1 = async (k) => { const f = await shots(k, steps, 'l1'); return f.map((x, i) => M.iou(x, refs[i])); };
            const good = await l1('good'), all = await l1('layer-all');
            // the layer must show: the mixed reference differs from the walk alone at the same time
            const walkOnly = M.readPng(ref(['--clip', s.walk, '--time', '0.85'], path.join(out, 'ref', 'l1-walkonly.png')));
            sm.l1 = { clip: L.clip, perFrame: good.map(r4), control: all.map(r4), good: min(good), layerAll: min(all),
                mixVsWalk: M.iou(refs[0], walkOnly) };
        }
    }
    // N1 seams (issue 47, crates/riv/src/seams.rs): the runtime's walk frames, counted on the seam
    // mask of the same pose (render-ref --seam-mask: where two or more parts meet inside the posed
    // silhouette, eroded by its soft rim: `seams.rim` px, the quarter-size fixture's two texels
    // (1 px) plus 1 px for the runtime's edges, which it rasterises about a pixel softer than the
    // reference): pixels with alpha < 250 there, as a share of the silhouette. Control: the same character built with --seam-pad 0 (no part reaches under its
    // nearer neighbours), counted against its own masks.
    let seams = null;
    if (cfg.seams) {
        const count = async (k, mpath, tag) => {
            const fr = await frames(k, clip, times, page, `${tag}-`);
            return fr.map((f, i) => {
                const mfile = path.join(out, 'ref', `${tag}-mask-${i}.png`);
                const rimg = M.readPng(ref0(mpath, ['--clip', clip, '--time', String(times[i]), '--seam-mask', mfile, '--seam-rim', String(cfg.seams.rim)], path.join(out, 'ref', `${tag}-frame-${i}.png`)));
                const u = M.uncovered(f, M.readPng(mfile));
                let sil = 0;
                for (let j = 0; j < rimg.w * rimg.h; j++) if (rimg.data[j * 4 + 3] > 0) sil++;
                return { uncovered: u.uncovered, silhouette: sil, share: u.uncovered / Math.max(1, sil) };
            });
        };
        const ctlPath = path.join(fdir, cfg.seams.controlModel);
        re2d(a.re2d, ['export-riv', ctlPath, '--output', path.join(out, 'seam-control.riv')]);
        const good = await count('good', modelPath, 'seams');
        const control = await count('seam-control', ctlPath, 'seams-control');
        seams = { good, control, max: cfg.seams.maxShare, worst: max(good.map((x) => x.share)), controlWorst: max(control.map((x) => x.share)) };
    }
    const c1ok = (i) => i.ok && i.artboard === (model.name ?? 're2d') && JSON.stringify(i.animations.map((x) => x.name).sort()) === JSON.stringify(sortedClips) && i.consoleErrors.length === 0;
    const raw = {
        size: [W, H],
        structural,
        info,
        c2: { good: M.coverage(main.good[0]), noGl: noGl.frame ? M.coverage(noGl.frame) : 0, noGlWebgl: noGl.webgl, noGlError: noGl.error || null },
        c3: { good: motion(main.good), static: motion(main.static), loop: M.changed(main.good[0], main.good[n]) },
        c45: { good: colourMin(main.good), zflip: colourMin(main.zflip), tflip: colourMin(main.tflip) },
        c6: { good: regionScore(rootProbe.good), forest: regionScore(rootProbe.forest) },
        c7: { good: bind(main.good), unbind: bind(main.unbind) },
        c8: { good: locality(distal.good), ramp: locality(distal.ramp) },
        c9: { good: { iou: iouMin(main.good, refImgs), colour: colourMin(main.good) }, shifted: { iou: iouMin(main.good, shiftImgs), colour: min(main.good.map((f, i) => M.colour(f, shiftImgs[i]))) } },
        c1ok: Object.fromEntries(Object.entries(info).map(([k, v]) => [k, c1ok(v)])),
        perFrame: times.map((t, i) => ({ t: r4(t), iou: r4(M.iou(main.good[i], refImgs[i])), colour: r4(M.colour(main.good[i], refImgs[i])) })),
        c9t,
        walk,
        sm,
        seams,
    };
    return { cfg, raw, times, out };
}

// Scores per check: correct score, best control score, and the threshold rule.
function scores(raw) {
    const motionScore = (ms) => min(ms.map((m) => (m.union ? m.changed / m.union : 0)));
    const motionMaxScore = (ms) => max(ms.map((m) => (m.union ? m.changed / m.union : 0)));
    const canvas = raw.size[0] * raw.size[1];
    const bindScore = (b) => (b.union ? b.changed / b.union : 0);
    const loc = (l) => 1 - l.proximal / Math.max(1, l.proximalSize);
    return {
        C2: { good: raw.c2.good, control: { 'no WebGL': raw.c2.noGl } },
        C3: { good: motionScore(raw.c3.good), control: { static: motionMaxScore(raw.c3.static) }, minCanvasFraction: min(raw.c3.good.map((m) => m.changed / canvas)) },
        C4: { good: raw.c45.good, control: { zflip: raw.c45.zflip } },
        C5: { good: raw.c45.good, control: { tflip: raw.c45.tflip } },
        C6: { good: raw.c6.good, control: { forest: raw.c6.forest } },
        C7: { good: bindScore(raw.c7.good), control: { unbind: bindScore(raw.c7.unbind) } },
        C8: { good: loc(raw.c8.good), control: { ramp: loc(raw.c8.ramp) } },
        C9: { good: raw.c9.good.iou, control: { 'reference at t+d/4': raw.c9.shifted.iou } },
        ...(raw.c9t ? { C9T: { good: raw.c9t.good.iou, control: { notranslate: raw.c9t.notranslate.iou } } } : {}),
        // W3 (lower is better): the visible hidden-fill marker, correct vs draw order reversed
        ...(raw.walk ? { W3: { good: max(raw.walk.hidden), control: { 'draw order reversed': max(raw.walk.hiddenZflip) } } } : {}),
    };
}

// W3's bound needs the reversed draw order to show at least this many times the correct marker
// (the skirt, whose rigid weights open its joints, shows 1.18 % vs 1.57 % reversed).
const W3_RATIO = 1.25;

// Thresholds from the controls: midpoint between the correct score and the best control score.
function derive(sc) {
    const t = {};
    const bad = [];
    const mid = (id, s) => {
        const best = max(Object.values(s.control));
        if (s.good - best < MARGIN) bad.push(`${id}: correct ${r4(s.good)} vs best control ${r4(best)} (margin < ${MARGIN})`);
        return r4((s.good + best) / 2);
    };
    t.T_cover = 0.01; // §10.4 non-empty
    t.T_motion = mid('C3', sc.C3);
    t.T_motion_canvas = 0.01; // §10.5 C3: at least 1 % of the canvas
    t.T_colour = r4((Math.min(sc.C4.good, sc.C5.good) + Math.max(sc.C4.control.zflip, sc.C5.control.tflip)) / 2);
    mid('C4', sc.C4);
    mid('C5', sc.C5);
    t.T_region = mid('C6', sc.C6);
    t.T_bind = mid('C7', sc.C7);
    t.epsilon = 0; // C8: proximal exclusive region may change by at most ε = 0 pixels
    mid('C8', sc.C8);
    t.T_iou = mid('C9', sc.C9);
    if (sc.C9T) mid('C9T', sc.C9T); // judged with C9's T_iou / T_colour; only the margin is checked here
    // W3: the hidden fill is trimmed to what the clips can reveal (docs/rig.md), so the reversed
    // draw order has little fill left to expose; the bound is the midpoint between the correct
    // marker share and the reversed one, valid only while the reversed shows >= W3_RATIO times it
    if (sc.W3) {
        const g = sc.W3.good;
        const c = sc.W3.control['draw order reversed'];
        if (c < W3_RATIO * g || c === 0) bad.push(`W3: correct ${r4(g)} vs draw order reversed ${r4(c)} (ratio < ${W3_RATIO})`);
        t.T_hidden = Number(((g + c) / 2).toFixed(6));
    }
    return { t, bad };
}

// Evaluates every check with the thresholds; rows for the table.
function evaluate(fx, raw, sc, t, logs, c0) {
    const rows = [];
    const row = (id, claim, pass, good, controlName, controlScore, controlFails, threshold, note) =>
        rows.push({ fixture: fx, id, claim, pass, good, controlName, controlScore, controlFails, threshold, note });
    // C0 (browser-wide, reported per fixture run)
    row('C0', 'offline', c0.goodExternal === 0, c0.goodExternal, 'external probe page', c0.caught, c0.caught > 0, '0 external requests', 'requests outside 127.0.0.1');
    const c1 = raw.c1ok;
    row('C1', 'loads in the runtime', c1.good && c1.emptytoc, c1.good && c1.emptytoc ? 1 : 0, 'badversion, toc16',
        (c1.badversion ? 1 : 0) + (c1.toc16 ? 1 : 0), !c1.badversion && !c1.toc16, 'loads, names match, no console error',
        `badversion: ${raw.info.badversion.consoleErrors[0] || raw.info.badversion.error}; toc16: ${raw.info.toc16.consoleErrors[0] || raw.info.toc16.error}`);
    // The control counts only as the runtime's own verdict: a page that really has no WebGL and
    // returned a frame. A page error (a crashed judge) is a failure, not an empty frame.
    row('C2', 'meshes are drawn', sc.C2.good >= t.T_cover, sc.C2.good, 'WebGL disabled', sc.C2.control['no WebGL'],
        !raw.c2.noGlWebgl && !raw.c2.noGlError && sc.C2.control['no WebGL'] < t.T_cover, `coverage ≥ ${t.T_cover}`,
        raw.c2.noGlWebgl ? 'WebGL unexpectedly present' : `no WebGL${raw.c2.noGlError ? ': ' + raw.c2.noGlError : ''}`);
    const loopOk = raw.c3.loop === 0;
    row('C3', 'the character moves', sc.C3.good >= t.T_motion && sc.C3.minCanvasFraction >= t.T_motion_canvas && loopOk, sc.C3.good, 'static', sc.C3.control.static,
        sc.C3.control.static < t.T_motion, `changed/union ≥ ${t.T_motion}, ≥ 1 % of canvas, loop closes`, `loop frame(0) vs frame(d): ${raw.c3.loop} px; min canvas fraction ${r4(sc.C3.minCanvasFraction)}`);
    row('C4', 'draw order', sc.C4.good >= t.T_colour, sc.C4.good, 'zflip', sc.C4.control.zflip, sc.C4.control.zflip < t.T_colour, `colour ≥ ${t.T_colour}`);
    row('C5', 'textures and UVs', sc.C5.good >= t.T_colour, sc.C5.good, 'tflip', sc.C5.control.tflip, sc.C5.control.tflip < t.T_colour, `colour ≥ ${t.T_colour}`);
    row('C6', 'one skeleton tree', sc.C6.good >= t.T_region, sc.C6.good, 'forest', sc.C6.control.forest, sc.C6.control.forest < t.T_region, `every part region changed ≥ ${t.T_region}`);
    const bothNonEmpty = (b) => b.cover.every((c) => c >= t.T_cover);
    row('C7', 'skin binding', sc.C7.good >= t.T_bind && bothNonEmpty(raw.c7.good), sc.C7.good, 'unbind', sc.C7.control.unbind,
        sc.C7.control.unbind < t.T_bind && bothNonEmpty(raw.c7.unbind), `changed/union ≥ ${t.T_bind}, both non-empty`);
    row('C8', 'bends are local', raw.c8.good.proximal <= t.epsilon && raw.c8.good.distal >= 1, sc.C8.good, 'ramp', sc.C8.control.ramp,
        raw.c8.ramp.proximal > t.epsilon, `proximal changed ≤ ${t.epsilon} px, distal ≥ 1 px`,
        `distal ${raw.c8.good.distal}/${raw.c8.good.distalSize} px, proximal ${raw.c8.good.proximal}/${raw.c8.good.proximalSize} px; ramp proximal ${raw.c8.ramp.proximal} px`);
    row('C9', 'math agrees with the runtime', raw.c9.good.iou >= t.T_iou && raw.c9.good.colour >= t.T_colour, sc.C9.good, 'reference at t+d/4', sc.C9.control['reference at t+d/4'],
        raw.c9.shifted.iou < t.T_iou || raw.c9.shifted.colour < t.T_colour, `IoU ≥ ${t.T_iou}, colour ≥ ${t.T_colour}`,
        `colour ${r4(raw.c9.good.colour)} (shifted ${r4(raw.c9.shifted.colour)})`);
    if (raw.c9t) {
        const g = raw.c9t.good, c = raw.c9t.notranslate;
        row('C9T', 'root translation keys play', g.iou >= t.T_iou && g.colour >= t.T_colour, g.iou, 'notranslate', c.iou,
            c.iou < t.T_iou || c.colour < t.T_colour, `IoU ≥ ${t.T_iou}, colour ≥ ${t.T_colour} (clip ${raw.c9t.clip})`,
            `colour ${r4(g.colour)} (notranslate ${r4(c.colour)}); main clip without translations: IoU ${r4(raw.c9t.mainNotranslate.iou)}, colour ${r4(raw.c9t.mainNotranslate.colour)}`);
    }
    if (raw.walk) {
        const w = raw.walk;
        // W1: consecutive frames of the walk differ (changed pixels over the figure's size); the
        // control is the static file of C3 (no keys), whose consecutive frames are identical.
        const staticDiff = min(raw.c3.static.map((m) => m.changed));
        row('W1', 'consecutive walk frames differ', min(w.differ) >= w.differMin, min(w.differ), 'static', staticDiff,
            staticDiff === 0, `changed/figure ≥ ${w.differMin} for each of ${w.samples} steps`,
            `changed/figure ${r4(min(w.differ))}–${r4(max(w.differ))}`);
        row('W2', 'the walk loop closes', w.loop === 0, w.loop, 'frame(0) vs frame(d/2)', w.half,
            w.half > 0, '0 px between frame(0) and frame(d)', `${w.loop} px; frame(0) vs frame(d/2): ${w.half} px`);
        const hiddenMax = t.T_hidden ?? w.hiddenMax;
        row('W3', 'hidden fill stays hidden', max(w.hidden) <= hiddenMax, max(w.hidden), 'draw order reversed', max(w.hiddenZflip),
            max(w.hiddenZflip) > hiddenMax && max(w.hiddenZflip) >= W3_RATIO * max(w.hidden),
            `visible marker ≤ ${hiddenMax} of the frame at each of ${w.samples + 1} times`,
            `max ${r4(100 * max(w.hidden))} % (reversed ${r4(100 * max(w.hiddenZflip))} %)`);
    }
    if (raw.sm) {
        const T = 0.99;
        const ctl = (x) => Math.max(x.wrongtarget, x.unread);
        const which = (x) => (x.wrongtarget >= x.unread ? 'Entry/Any → Exit' : 'inputs unread');
        const s1 = raw.sm.s1;
        row('S1', 'the speed input chooses the clip (state machine)', s1.good >= T, s1.good, which(s1), ctl(s1), ctl(s1) < T,
            `IoU ≥ ${T} vs the reference (speed 1: walk at 0.4 s; speed 0: idle)`,
            `wrong target ${r4(s1.wrongtarget)}, unread input ${r4(s1.unread)}`);
        if (raw.sm.s2) {
            const s2 = raw.sm.s2;
            row('S2', `the ${s2.trigger} trigger plays the one-shot and returns`, s2.good >= T, s2.good, which(s2), ctl(s2), ctl(s2) < T,
                `IoU ≥ ${T} vs the reference (${s2.trigger} at 0.5 s; then the walk at its 0.2 s overshoot)`,
                `wrong target ${r4(s2.wrongtarget)}, unread input ${r4(s2.unread)}`);
        }
    }
    if (raw.sm && raw.sm.l1) {
        const l = raw.sm.l1, T = 0.99;
        row('L1', `the ${l.clip} layer plays over the walk on its own bones`, l.good >= T && l.mixVsWalk < T, l.good, `${l.clip} keyed on all bones`,
            l.layerAll, l.layerAll < T, `IoU ≥ ${T} vs the reference's mixed pose at each of ${l.perFrame.length} shots`,
            `per frame ${l.perFrame.join(', ')}; control ${l.control.join(', ')}; mixed vs walk alone ${r4(l.mixVsWalk)}`);
    }
    if (raw.seams) {
        const z = raw.seams;
        const pct = (x) => `${r4(100 * x)} %`;
        row('N1', 'no seams between parts', z.worst <= z.max, z.worst, '--seam-pad 0', z.controlWorst, z.controlWorst > z.max,
            `uncovered ≤ ${pct(z.max)} of the silhouette at each of ${z.good.length} walk frames`,
            `worst ${z.good.reduce((b, x) => (x.share > b.share ? x : b)).uncovered} px (${pct(z.worst)}); control worst ${pct(z.controlWorst)}`);
    }
    // live margins: a threshold is valid only while the controls stay ≥ 0.05 below the correct score
    for (const r of rows) {
        if (['C0', 'C1', 'W1', 'W2', 'W3', 'N1'].includes(r.id)) continue;
        const margin = r.good - r.controlScore;
        r.margin = r4(margin);
        if (margin < MARGIN) {
            r.pass = false;
            r.note = `${r.note ? r.note + '; ' : ''}margin ${r4(margin)} < ${MARGIN}`;
        }
    }
    return rows;
}

async function main() {
    const a = parseArgs(process.argv.slice(2));
    const t0 = Date.now();
    if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found (apt-get install -y chromium)`);
    const versions = checkVersions();
    fs.mkdirSync(a.out, { recursive: true });
    const fixtures = a.fixtures.length ? a.fixtures : Object.keys(a.dirOf).sort();
    const { server, port } = await serve({
        '/': HERE,
        '/rive/': path.join(HERE, 'node_modules', '@rive-app', 'canvas-single'),
        '/out/': a.out,
    });
    const gl = await launch(a.out, true);
    const nogl = await launch(a.out, false);
    const logs = { page: { external: [], errors: [] }, nogl: { external: [], errors: [] }, probe: { external: [], errors: [] } };
    let exitCode = 0;
    const results = { runtime: versions, chromium: await gl.browser.version(), fixtures: {}, rows: [] };
    try {
        const page = await openPage(gl.browser, port, logs.page);
        const pageNoGl = await openPage(nogl.browser, port, logs.nogl);
        if (!(await page.evaluate(() => window.re2d.webgl()))) throw new Error('no WebGL in the harness browser (software WebGL flags)');
        const runs = [];
        const drawOrderRows = [];
        for (const fx of fixtures) {
            const cfg = JSON.parse(fs.readFileSync(path.join(a.dirOf[fx], 'harness.json'), 'utf8'));
            if (!(cfg.drawOrder && cfg.drawOrder.only)) {
                const run = await runFixture(a, fx, page, pageNoGl, logs);
                if (runs.length === 0) {
                    const missing = await page.evaluate((u) => window.re2d.api(u), `/out/${fx}/good.riv`);
                    if (missing.length) throw new Error(`runtime ${versions['@rive-app/canvas-single']} lacks: ${missing.join(', ')}`);
                }
                runs.push([fx, run]);
            }
            // draw-order keys (issue 42, draworder.mjs): runtime vs reference, and the file without its keys
            if (cfg.drawOrder) {
                fs.mkdirSync(path.join(a.out, fx, 'runtime'), { recursive: true });
                const ctx = {
                    out: a.out,
                    exportRiv: (args) => re2d(a.re2d, args),
                    ref: (args, file) => { re2d(a.re2d, ['riv', 'render-ref', ...args, '--output', file]); return file; },
                    frames: async (k, clip, times, tag) => savePngs(path.join(a.out, fx, 'runtime'), `${tag}${k}-${clip}`,
                        await page.evaluate((u, cl, tt) => window.re2d.frames(u, cl, tt), `/out/${fx}/${k}.riv`, clip, times)).map(M.readPng),
                };
                const d = await drawOrderChecks(ctx, fx, a.dirOf[fx], cfg);
                results.fixtures[fx] = { ...(results.fixtures[fx] || {}), drawOrder: d.raw };
                for (const r of d.rows) drawOrderRows.push({ fixture: fx, ...r });
            }
        }
        // C0 control: a page that requests external URLs; the interception must catch them.
        const probe = await openPage(gl.browser, port, logs.probe);
        await probe.evaluate(() => window.re2d.external());
        const c0 = { goodExternal: logs.page.external.length + logs.nogl.external.length, caught: logs.probe.external.length, urls: logs.probe.external };
        for (const [fx, run] of runs) {
            const sc = scores(run.raw);
            const tfile = path.join(a.dirOf[fx], 'thresholds.json');
            let t;
            if (a.calibrate) {
                const d = derive(sc);
                if (d.bad.length) {
                    console.error(`riv browser: ${fx}: thresholds cannot be derived: ${d.bad.join('; ')}`);
                    exitCode = 1;
                }
                t = d.t;
                const doc = { fixture: fx, note: 'Derived by `make riv-calibrate` (tests/browser/harness.mjs --calibrate): each threshold is the midpoint between the correct score and the best control score, valid only with a margin >= 0.05.', runtime: versions, chromium: results.chromium, thresholds: t, scores: JSON.parse(JSON.stringify(sc, (k, v) => (typeof v === 'number' ? r4(v) : v))) };
                fs.writeFileSync(tfile, JSON.stringify(doc, null, 2) + '\n');
            } else {
                t = JSON.parse(fs.readFileSync(tfile, 'utf8')).thresholds;
            }
            const rows = evaluate(fx, run.raw, sc, t, logs, c0);
            results.fixtures[fx] = { ...(results.fixtures[fx] || {}), config: run.cfg, thresholds: t, raw: run.raw, times: run.times };
            results.rows.push(...rows);
        }
        results.rows.push(...drawOrderRows);
        results.c0 = c0;
    } finally {
        await gl.browser.close();
        await nogl.browser.close();
        server.close();
        fs.rmSync(gl.profile, { recursive: true, force: true });
        fs.rmSync(nogl.profile, { recursive: true, force: true });
    }
    results.seconds = Math.round((Date.now() - t0) / 100) / 10;
    fs.writeFileSync(path.join(a.out, 'results.json'), JSON.stringify(results, (k, v) => (v instanceof Uint8Array ? undefined : v), 1) + '\n');
    let passed = 0, failed = 0;
    const fmt = (x) => (typeof x === 'number' ? String(r4(x)) : String(x));
    for (const r of results.rows) {
        const ok = r.pass && r.controlFails;
        ok ? passed++ : failed++;
        console.log(`${ok ? 'ok  ' : 'FAIL'} ${r.fixture} ${r.id} ${r.claim}: correct ${fmt(r.good)}${r.pass ? '' : ' (FAILS)'} | ${r.controlName} ${fmt(r.controlScore)}${r.controlFails ? ' (fails, as it must)' : ' (PASSES: control not caught)'} | ${r.threshold}${r.note ? ' | ' + r.note : ''}`);
    }
    console.log(`riv browser: runtime @rive-app/canvas-single ${results.runtime['@rive-app/canvas-single']}, ${results.chromium}, ${results.seconds} s`);
    console.log(`riv-browser: ${passed} passed, ${failed} failed`);
    process.exit(failed || exitCode ? 1 : 0);
}

main().catch((e) => {
    console.error(`riv browser: ${e && e.stack ? e.stack : e}`);
    process.exit(1);
});
