// re2d riv browser harness: draw-order keys (issue 42, rive-export.md §11.6) in the official
// runtime. Used by harness.mjs for every fixture whose harness.json has a `drawOrder` section:
//
//   "drawOrder": {"clips": [{"clip": "punch", "front": "hand_far", "behind": "chest"}, …],
//                 "samples": 24, "only": false}
//
// For each clip, at `samples` times (the middle of equal steps over the clip), the file is
// rendered by the runtime and by `re2d riv render-ref` of the same model; the runtime must
// match at every time: IoU ≥ 0.99 and colour IoU ≥ 0.99 (metrics.mjs `colourNear`: the share of
// the union whose colour agrees within 32, with one pixel of slack for the rasterisers' edges).
// The control is the same file exported with `--control nodraworder` (its draw-order keys
// dropped). It must fail where the keys clearly change the reference's picture (the reference
// against the reference of the model without its `draw_order`: colour IoU below 0.985) and
// pass where they change nothing (≥ 0.999); times in between are listed, not judged (the
// runtime's own sub-percent differences would decide them). A crossing time is one where
// `front` is drawn nearer than `behind` by the keys and overlaps it by at least 40 pixels
// (per-part masks of render-ref at that time); there must be at least one, and the control
// must fail on every one.
//
// `writeShuffle` writes a synthetic fixture (`only: true`: no other check runs on it): seven
// overlapping quads of seven colours, one clip whose keys are random orders (one of them the
// default order), so the runtime's sort is judged against the reference on orders nobody chose.
import fs from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import * as M from './metrics.mjs';

const T = 0.99;
const OVERLAP_MIN = 40;
// the keys change the reference's picture clearly below this colour IoU, not at all from SAME on
const VISIBLE = 0.985;
const SAME = 0.999;

// xorshift32, seeded
function rng(seed) {
    let x = seed >>> 0 || 1;
    return () => {
        x ^= x << 13; x >>>= 0;
        x ^= x >>> 17;
        x ^= x << 5; x >>>= 0;
        return x / 4294967296;
    };
}

// The shuffle fixture: `n` quads around a centre (each overlaps every other), one texture
// each, a root bone, clip `shuffle` of `keys` keys 0.25 s apart: random orders, key 3 the
// default one. Returns the harness.json section.
export function writeShuffle(dir, seed = 42, n = 7, keys = 10) {
    fs.mkdirSync(dir, { recursive: true });
    const next = rng(seed);
    const names = Array.from({ length: n }, (_, i) => `q${i}`);
    const textures = {};
    const parts = names.map((nm, i) => {
        const png = new PNG({ width: 4, height: 4 });
        const hue = i / n;
        const c = [0, 1, 2].map((k) => Math.round(255 * (0.5 + 0.5 * Math.cos(2 * Math.PI * (hue + k / 3)))));
        for (let p = 0; p < 16; p++) png.data.set([c[0], c[1], c[2], 255], p * 4);
        fs.writeFileSync(path.join(dir, `${nm}.png`), PNG.sync.write(png));
        textures[nm] = `${nm}.png`;
        const a = (2 * Math.PI * i) / n;
        const cx = 100 + 30 * Math.cos(a), cy = 100 + 30 * Math.sin(a);
        const h = 45;
        return {
            name: nm, texture: nm, depth: i / n,
            verts: [cx - h, cy - h, cx + h, cy - h, cx + h, cy + h, cx - h, cy + h],
            uv: [0, 0, 1, 0, 1, 1, 0, 1], tris: [0, 1, 2, 0, 2, 3],
            bones: ['root', 'root', 'root', 'root'],
        };
    });
    // default order (nearest first): depth ascending
    const def = names.slice();
    const order = [];
    for (let k = 0; k < keys; k++) {
        const o = names.slice();
        for (let i = o.length - 1; i > 0; i--) {
            const j = Math.floor(next() * (i + 1));
            [o[i], o[j]] = [o[j], o[i]];
        }
        order.push([k * 0.25, k === 3 ? def.slice() : o]);
    }
    const model = {
        version: 1, name: 'shuffle',
        skeleton: { root: { x: 100, y: 100, length: 10, angle: 0 } },
        textures, parts,
        clips: { shuffle: { duration: keys * 0.25, loop: false, tracks: { root: [[0, 0], [keys * 0.25, 0]] }, draw_order: order } },
    };
    fs.writeFileSync(path.join(dir, 'model.json'), JSON.stringify(model, null, 1) + '\n');
    fs.writeFileSync(path.join(dir, 'harness.json'), JSON.stringify({
        drawOrder: { only: true, clips: [{ clip: 'shuffle' }], times: order.map(([t]) => t + 0.125) },
    }, null, 2) + '\n');
}

// The part order (nearest first) a model's clip keys at clip time t (the rule of
// rive-export.md §11.6 / draworder.rs: the last key at or before t, else the first), or null.
function keyedOrder(model, clip, t) {
    const keys = model.clips[clip].draw_order;
    if (!keys || !keys.length) return null;
    let o = keys[0][1];
    for (const [kt, names] of keys) if (Math.round(kt * 60) <= t * 60 + 1e-6) o = names;
    return o;
}

// Runs the checks of one fixture's `drawOrder` section. `ctx`: {re2d, exportRiv(args), ref(args,
// file), frames(rivKey, clip, times), out}. Returns rows for the harness table and the raw numbers.
export async function drawOrderChecks(ctx, name, fdir, cfg) {
    const d = cfg.drawOrder;
    const modelPath = path.join(fdir, 'model.json');
    const model = JSON.parse(fs.readFileSync(modelPath, 'utf8'));
    const out = path.join(ctx.out, name, 'draworder');
    fs.mkdirSync(out, { recursive: true });
    // the model without its draw_order keys: what the default order shows
    const plain = JSON.parse(JSON.stringify(model));
    for (const c of Object.values(plain.clips)) delete c.draw_order;
    const plainPath = path.join(fdir, 'model-nodraworder.json');
    fs.writeFileSync(plainPath, JSON.stringify(plain) + '\n');
    ctx.exportRiv(['export-riv', modelPath, '--output', path.join(ctx.out, name, 'do-good.riv')]);
    ctx.exportRiv(['export-riv', modelPath, '--output', path.join(ctx.out, name, 'do-nodraworder.riv'), '--control', 'nodraworder']);
    const rows = [];
    const raw = {};
    for (const spec of d.clips) {
        const clip = spec.clip;
        const dur = Math.round(model.clips[clip].duration * 60) / 60;
        const n = d.samples || 24;
        // the middle of each step: never on a key's frame
        const times = d.times || Array.from({ length: n }, (_, i) => ((i + 0.5) * dur) / n);
        const refOf = (m, t, tag, extra = []) => M.readPng(ctx.ref([m, '--clip', clip, '--time', String(t), ...extra], path.join(out, `${clip}-${tag}.png`)));
        const good = await ctx.frames('do-good', clip, times, 'do-');
        const ctl = await ctx.frames('do-nodraworder', clip, times, 'do-');
        const per = [];
        for (let i = 0; i < times.length; i++) {
            const t = times[i];
            const ref = refOf(modelPath, t, `ref-${i}`);
            const plainRef = refOf(plainPath, t, `plain-${i}`);
            // what the keys change in the reference itself: clearly, nothing, or a little
            const effect = M.colourNear(ref, plainRef);
            const visible = effect < VISIBLE;
            const same = effect >= SAME;
            let crossing = false, overlap = 0;
            if (spec.front && spec.behind) {
                const o = keyedOrder(model, clip, t) || [];
                const nearer = o.indexOf(spec.front) >= 0 && o.indexOf(spec.front) < o.indexOf(spec.behind);
                const a = M.regionOf(refOf(modelPath, t, `mask-front-${i}`, ['--part', spec.front]));
                const b = M.regionOf(refOf(modelPath, t, `mask-behind-${i}`, ['--part', spec.behind]));
                for (let k = 0; k < a.length; k++) if (a[k] && b[k]) overlap++;
                crossing = nearer && overlap >= OVERLAP_MIN;
            }
            per.push({
                t: Math.round(t * 1e4) / 1e4, visible, same, effect, crossing, overlap,
                good: { iou: M.iou(good[i], ref), colour: M.colourNear(good[i], ref), colourExact: M.colour(good[i], ref) },
                control: { iou: M.iou(ctl[i], ref), colour: M.colourNear(ctl[i], ref), colourExact: M.colour(ctl[i], ref) },
            });
        }
        const pass = (x) => x.iou >= T && x.colour >= T;
        const goodOk = per.every((p) => pass(p.good));
        // exactly: the control fails where the keys change what is visible and passes elsewhere
        const exact = per.every((p) => (p.visible ? !pass(p.control) : p.same ? pass(p.control) : true));
        const crossings = per.filter((p) => p.crossing);
        const crossOk = spec.front ? crossings.length > 0 && crossings.every((p) => !pass(p.control)) : true;
        const failing = per.filter((p) => !pass(p.control));
        raw[clip] = { times: per.map((p) => p.t), frames: per };
        const worst = (xs, f) => xs.reduce((m, p) => Math.min(m, f(p)), 1);
        rows.push({
            id: 'D1',
            claim: `draw-order keys play (${clip}${spec.front ? `: ${spec.front} in front of ${spec.behind} on ${crossings.length} crossing frames` : ''})`,
            pass: goodOk,
            good: worst(per, (p) => Math.min(p.good.iou, p.good.colour)),
            controlName: 'nodraworder',
            controlScore: worst(crossings.length ? crossings : failing.length ? failing : per, (p) => Math.min(p.control.iou, p.control.colour)),
            controlFails: exact && crossOk && failing.length > 0,
            threshold: `IoU and colour ≥ ${T} at ${per.length} times; the control fails where the keys clearly change the picture (< ${VISIBLE}) and passes where they change nothing (≥ ${SAME})`,
            note: `control fails at ${failing.length}/${per.length} times (${failing.map((p) => p.t).join(', ')}); keys change the picture clearly at ${per.filter((p) => p.visible).length}, not at all at ${per.filter((p) => p.same).length}; crossing at ${crossings.map((p) => p.t).join(', ') || 'none'}`,
        });
    }
    return { rows, raw };
}

// `node draworder.mjs --shuffle DIR [--seed N]`: writes the shuffle fixture.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
    const args = process.argv.slice(2);
    const at = args.indexOf('--shuffle');
    if (at < 0 || !args[at + 1]) {
        console.error('usage: draworder.mjs --shuffle DIR [--seed N]');
        process.exit(2);
    }
    const s = args.indexOf('--seed');
    writeShuffle(args[at + 1], s >= 0 ? Number(args[s + 1]) : 42);
    console.log(`draworder: shuffle fixture -> ${args[at + 1]}`);
}
