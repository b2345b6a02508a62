// re2d PixiJS harness (issue 43): the player of js/pixi in Debian chromium (PixiJS v8's WebGL on
// SwiftShader, started as the .riv harness starts it), judged against `re2d riv render-ref` and
// the official Rive runtime. Every number comes from PNGs or poses this run produced.
//
//   node pixi-harness.mjs --re2d BIN --fixtures DIR --out DIR [--character NAME]… [--seeds A-B]
//
// DIR holds the `rig-<name>` fixtures of `make rig-fixtures` (the generated characters rigged by
// `re2d rig build`). Checks:
//   P  pixels: the walk and every one-shot of the state machine at eight times each, played by
//      `play(clip, t)`, against render-ref at the same times: IoU ≥ 0.99 and colour ≥ 0.99 (the issue
//      asks 0.97; T_COLOUR below says why it is held higher) on every frame (rive-export.md §10.4 metrics, tests/browser/metrics.mjs). Controls, each
//      must fail on some frame: the time off by a quarter of the clip (t + d/4), and the model
//      with two parts' depths swapped (the pair whose rest-pose overlap shows the most differing
//      colour in render-ref's per-part frames, chosen before the player draws anything).
//   M  the state machine: seeded random steps (speed set, trigger fired, update(dt)) through the
//      player and through the Rive runtime on the character's export-riv file: every bone's
//      rotation within 1e-4 rad and every root's x/y within 0.001 px after every step, and the
//      same state changes; the triggers of body-part layers (issue 47) are fired too. Controls:
//      the MUTANTS of js/pixi/test/mutants.js, each a machine with one rule of §11.5 broken, must
//      differ on some seed (and LAYER_MUTANTS where the machine has layers).
//   L  motions by body part (issue 47): a model whose machine has layers (the biped's wave on its
//      arms) stepped as the .riv harness's L1 steps it (walking, the layer's trigger fired, past
//      the clip's end, fired again) through the player's machine; each shot against render-ref's
//      mixed pose (--clip walk --time T --layer CLIP@T'): IoU ≥ 0.99 and colour ≥ 0.99. Control:
//      the same model without its layers must fail on the frames where the layer plays.
//   B  bad input: models export-riv refuses reject with a ModelError naming code and field; a
//      missing or broken texture rejects E_TEXTURE naming it; nothing is added to the stage and
//      no asset the failed load fetched stays cached. Controls: a good model resolves and adds
//      one child; a texture cached before the failed load stays cached.
// Exit 0 when every check passes and every control fails; 1 otherwise.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './server.mjs';
import { CHROMIUM, checkVersions, launch, openPage, re2d } from './browser.mjs';
import { mulberry32 } from '../../js/pixi/test/random.js';
import * as M from './metrics.mjs';
import { layerSchedule } from './layers.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PLAYER = path.join(HERE, '..', '..', 'js', 'pixi');
const CHARACTERS = ['biped', 'quadruped', 'girl', 'coat', 'skirt', 'fighter'];
// per frame against render-ref: the issue asks IoU >= 0.99 and colour >= 0.97; colour is held at
// 0.99 (correct frames score >= 0.9999) so that one pair of same-coloured parts swapped (the
// quadruped's hind legs, whose hidden fill now matches their paint: 0.973) still fails
const T_IOU = 0.99, T_COLOUR = 0.99;
const TOL_ANGLE = 1e-4, TOL_POS = 1e-3;

function parseArgs(argv) {
    const a = { characters: [], seeds: [1, 12] };
    for (let i = 0; i < argv.length; i += 2) {
        const [k, v] = [argv[i], argv[i + 1]];
        if (k === '--re2d') a.re2d = v;
        else if (k === '--fixtures') a.fixtures = v;
        else if (k === '--out') a.out = v;
        else if (k === '--character') a.characters.push(v);
        else if (k === '--seeds') a.seeds = v.split('-').map(Number);
        else throw new Error(`unknown argument ${k}`);
    }
    if (!a.re2d || !a.fixtures || !a.out) throw new Error('usage: pixi-harness.mjs --re2d BIN --fixtures DIR --out DIR');
    if (!a.characters.length) a.characters = CHARACTERS;
    return a;
}

const savePngs = (dir, prefix, urls) => urls.map((d, i) => {
    const f = path.join(dir, `${prefix}-${i}.png`);
    fs.writeFileSync(f, Buffer.from(d.split(',')[1], 'base64'));
    return M.readPng(f);
});
const r4 = (x) => Math.round(x * 1e4) / 1e4;

// Composited over black, as metrics.colour compares.
const over = (img, i) => [0, 1, 2].map((k) => img.data[4 * i + k] * img.data[4 * i + 3] / 255);

// The two parts whose swap shows most: over every pair, the pixels both cover at rest (in
// render-ref's one-part frames) where their colours differ by more than 32.
function swapPair(masks, names) {
    let best = null;
    for (let i = 0; i < names.length; i++) {
        for (let j = i + 1; j < names.length; j++) {
            const a = masks[i], b = masks[j];
            let n = 0;
            for (let p = 0; p < a.w * a.h; p++) {
                if (!M.mask(a, p) || !M.mask(b, p)) continue;
                const ca = over(a, p), cb = over(b, p);
                if (Math.max(...ca.map((v, k) => Math.abs(v - cb[k]))) > 32) n++;
            }
            if (!best || n > best.pixels) best = { pair: [i, j], names: [names[i], names[j]], pixels: n };
        }
    }
    return best;
}

// P: one character's clips against the reference, with both controls.
async function pixels(a, page, name) {
    const fdir = path.join(a.fixtures, `rig-${name}`);
    const modelPath = path.join(fdir, 'model.json');
    const model = JSON.parse(fs.readFileSync(modelPath, 'utf8'));
    const out = path.join(a.out, name);
    fs.mkdirSync(out, { recursive: true });
    const ref = (args, f) => { re2d(a.re2d, ['riv', 'render-ref', modelPath, ...args, '--output', f]); return M.readPng(f); };
    const names = model.parts.map((p, i) => p.name || `part${i}`);
    const masks = names.map((p, i) => ref(['--part', p], path.join(out, `part-${i}.png`)));
    const swap = swapPair(masks, names);
    const oneShots = model.state_machine ? model.state_machine.triggers.map((t) => t[0]) : [];
    const url = `/fx/rig-${name}/model.json`;
    const rows = [];
    for (const clip of ['walk', ...oneShots]) {
        const c = model.clips[clip];
        const d = c.duration;
        // eight times: a loop's cycle without its repeated end, a one-shot's first to last frame
        const times = Array.from({ length: 8 }, (_, i) => (c.loop ? (i * d) / 8 : (i * d) / 7));
        const refs = times.map((t, i) => ref(['--clip', clip, '--time', String(t)], path.join(out, `ref-${clip}-${i}.png`)));
        const run = async (tag, opts) => {
            const r = await page.evaluate((u, cl, tt, o) => window.re2dPixi.frames(u, cl, tt, o), url, clip, times, opts);
            return { frames: savePngs(out, `${tag}-${clip}`, r.urls), renderer: r.renderer };
        };
        const good = await run('player', {});
        const shifted = await run('shifted', { shift: d / 4 });
        const swapped = await run('swapped', { swap: swap.pair });
        // a clip with draw-order keys (issue 42): the same frames with every key dropped
        const keyed = Array.isArray(c.draw_order) && c.draw_order.length > 0;
        const nokeys = keyed ? await run('nokeys', { nokeys: true }) : null;
        const score = (f, i) => ({ iou: M.iou(f, refs[i]), colour: M.colour(f, refs[i]) });
        times.forEach((t, i) => rows.push({
            character: name, clip, frame: i, t,
            good: score(good.frames[i], i), shifted: score(shifted.frames[i], i), swapped: score(swapped.frames[i], i),
            ...(nokeys ? { nokeys: score(nokeys.frames[i], i) } : {}),
            renderer: good.renderer,
        }));
    }
    return { rows, swap };
}

const passes = (s) => s.iou >= T_IOU && s.colour >= T_COLOUR;

// A seeded run of 96 steps: the speed set now and then (its thresholds, between, outside), a
// trigger fired now and then, dt of 0, a 60 Hz or 30 Hz frame, or up to 0.4 s.
function steps(seed, input, triggers) {
    const rnd = mulberry32(seed);
    const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
    return Array.from({ length: 96 }, () => {
        const st = { dt: pick([0, 1 / 60, 1 / 30, Math.round(rnd() * 0.4 * 1e4) / 1e4]) };
        if (rnd() < 0.3) st.set = { [input]: pick([0, 1, 0.5, Math.round((rnd() * 1.6 - 0.3) * 1e3) / 1e3]) };
        if (triggers.length && rnd() < 0.15) st.fire = [pick(triggers)];
        return st;
    });
}

// Largest rotation and position differences over all steps, and whether the state changes match.
function compare(p, r) {
    let angle = 0, pos = 0, states = 0;
    p.poses.forEach((bones, s) => bones.forEach((v, k) => {
        angle = Math.max(angle, Math.abs(v[0] - r.poses[s][k][0]));
        if (v.length > 1) pos = Math.max(pos, Math.abs(v[1] - r.poses[s][k][1]), Math.abs(v[2] - r.poses[s][k][2]));
    }));
    p.states.forEach((n, s) => { if (JSON.stringify(n) !== JSON.stringify(r.states[s])) states++; });
    return { angle, pos, states, same: angle <= TOL_ANGLE && pos <= TOL_POS && states === 0 };
}

// M: the player's machine against the Rive runtime's, per seed; and the mutants.
async function machine(a, page, name, mutants) {
    const fdir = path.join(a.fixtures, `rig-${name}`);
    const model = JSON.parse(fs.readFileSync(path.join(fdir, 'model.json'), 'utf8'));
    const sm = model.state_machine;
    const riv = path.join(a.out, `${name}.riv`);
    re2d(a.re2d, ['export-riv', path.join(fdir, 'model.json'), '--output', riv]);
    const bones = (await page.evaluate((u) => import('/player/index.js').then(async (P) => {
        const j = await (await fetch(u)).json();
        return P.readModel(j).bones.map((b) => [b.name, b.parent < 0]);
    }), `/fx/rig-${name}/model.json`));
    const res = { seeds: [], controls: {} };
    for (const m of mutants) res.controls[m] = { caught: 0, seeds: 0 };
    for (let seed = a.seeds[0]; seed <= a.seeds[1]; seed++) {
        // the one-shots' triggers and the body-part layers' (issue 47), fired alike
        const st = steps(seed * 7919 + name.length, sm.input, [...sm.triggers.map((t) => t[1]), ...(sm.layers || []).map((l) => l.trigger)]);
        const rive = await page.evaluate((u, n, s, b) => window.re2dPixi.riveMachine(u, n, s, b), `/out/${name}.riv`, sm.name, st, bones);
        const player = await page.evaluate((u, s) => window.re2dPixi.machine(u, s), `/fx/rig-${name}/model.json`, st);
        res.seeds.push({ seed, ...compare(player, rive), fires: st.filter((x) => x.fire).length });
        for (const m of mutants) {
            const mp = await page.evaluate((u, s, mm) => window.re2dPixi.machine(u, s, mm), `/fx/rig-${name}/model.json`, st, m);
            res.controls[m].seeds++;
            if (!compare(mp, rive).same) res.controls[m].caught++;
        }
    }
    return res;
}

// L: the first one-shot layer of the machine played over the walk by the player's machine, shot
// where the .riv harness's L1 shoots it (tests/browser/harness.mjs), against render-ref's mixed
// pose; the control drops the model's layers. null when the machine has no one-shot layer.
async function layered(a, page, name) {
    const fdir = path.join(a.fixtures, `rig-${name}`);
    const modelPath = path.join(fdir, 'model.json');
    const model = JSON.parse(fs.readFileSync(modelPath, 'utf8'));
    const sm = model.state_machine;
    const L = sm && (sm.layers || []).find((l) => !model.clips[l.clip].loop);
    if (!L) return null;
    const out = path.join(a.out, name, 'layers');
    fs.mkdirSync(out, { recursive: true });
    const walk = sm.blend[sm.blend.length - 1][0];
    const ref = (tw, tl, tag) => {
        const f = path.join(out, `ref-${tag}.png`);
        re2d(a.re2d, ['riv', 'render-ref', modelPath, '--clip', walk, '--time', String(tw), ...(tl === null ? [] : ['--layer', `${L.clip}@${tl}`]), '--output', f]);
        return M.readPng(f);
    };
    const { steps, shots } = layerSchedule(sm.input, L.trigger, model.clips[L.clip].duration);
    const refs = shots.map((x, i) => ref(x.walk, x.layer, 'abcd'[i]));
    const playing = shots.map((x) => x.layer !== null);
    const run = async (tag, opts) => {
        const r = await page.evaluate((u, s, o) => window.re2dPixi.machineShots(u, s, o), `/fx/rig-${name}/model.json`, steps, opts);
        return savePngs(out, tag, r.urls).map((f, i) => ({ iou: M.iou(f, refs[i]), colour: M.colour(f, refs[i]) }));
    };
    return { clip: L.clip, playing, good: await run('player', {}), nolayers: await run('nolayers', { nolayers: true }) };
}

// B: the bad-input cases, written under --out/bad and served as /out/bad/.
function badCases(a) {
    const dir = path.join(a.out, 'bad');
    fs.mkdirSync(dir, { recursive: true });
    const src = path.join(a.fixtures, 'rig-biped');
    const base = JSON.parse(fs.readFileSync(path.join(src, 'model.json'), 'utf8'));
    const page = Object.values(base.textures)[0];
    fs.copyFileSync(path.join(src, page), path.join(dir, page));
    fs.writeFileSync(path.join(dir, 'notapng.png'), 'this is not an image\n');
    const variant = (file, f) => {
        const m = JSON.parse(JSON.stringify(base));
        f(m);
        fs.writeFileSync(path.join(dir, file), JSON.stringify(m));
        return m;
    };
    const u = (f) => `/out/bad/${f}`;
    const cases = [];
    const add = (name, c, expect) => cases.push({ name, ...c, expect });
    variant('version.json', (m) => { m.version = 2; });
    add('version 2 (URL)', { url: u('version.json'), watch: [u('version.json'), u(page)] }, { code: 'E_MODEL_JSON', field: /^version$/ });
    variant('tris.json', (m) => { m.parts[3].tris[7] = 100000; });
    add('a triangle index past the vertices', { url: u('tris.json'), watch: [u('tris.json'), u(page)] }, { code: 'E_PART', field: /^parts\[3\] \('.*'\)\.tris\[7\]$/ });
    const w = variant('weight.json', (m) => { m.parts[0].weights[2] = [['tail', 1]]; });
    add('a weight on an unknown bone (object)', { model: w, baseUrl: u('weight.json'), watch: [u(page)] }, { code: 'E_WEIGHT', field: /^parts\[0\] .*weights\[2\]$/ });
    const k = variant('keys.json', (m) => { const t = Object.values(m.clips.walk.tracks)[0]; t[2][0] = t[1][0]; });
    add('walk keys not increasing (object)', { model: k, baseUrl: u('keys.json'), watch: [u(page)] }, { code: 'E_CLIP', field: /^clips\.walk\.tracks\..*\[2\]$/ });
    variant('machine.json', (m) => { m.state_machine.blend[1][0] = 'run'; });
    add('the machine blends an unknown clip', { url: u('machine.json'), watch: [u('machine.json'), u(page)] }, { code: 'E_MODEL_JSON', field: /^state_machine\.blend\[1\]$/ });
    variant('missing.json', (m) => { m.textures.page0 = 'nowhere.png'; });
    add('a missing texture', { url: u('missing.json'), watch: [u('missing.json'), u('nowhere.png')] }, { code: 'E_TEXTURE', field: /^textures\.page0$/ });
    variant('second.json', (m) => { m.textures.page1 = 'nowhere.png'; m.parts[0].texture = 'page1'; });
    add('one of two textures missing', { url: u('second.json'), watch: [u('second.json'), u(page)] }, { code: 'E_TEXTURE', field: /^textures\.page1$/ });
    add('control: a texture cached before the failed load stays', { url: u('second.json'), preload: [u(page)], watch: [u(page)] },
        { code: 'E_TEXTURE', field: /^textures\.page1$/, cached: [u(page)] });
    variant('notapng.json', (m) => { m.textures.page0 = 'notapng.png'; });
    add('a texture that is not an image', { url: u('notapng.json'), watch: [u('notapng.json'), u('notapng.png')] }, { code: 'E_TEXTURE', field: /^textures\.page0$/ });
    add('a model.json that is not there', { url: u('absent.json'), watch: [u('absent.json')] }, { code: 'E_IO' });
    variant('good.json', () => {});
    add('control: the good model resolves', { url: u('good.json'), watch: [] }, { resolves: true });
    return cases;
}

function judgeBad(c, r) {
    const e = c.expect;
    const cached = (r.cached || []).map((x) => x.replace(/^https?:\/\/[^/]+/, ''));
    const wantCached = (e.cached || []);
    const sameCached = JSON.stringify(cached.sort()) === JSON.stringify([...wantCached].sort());
    if (e.resolves) return { ok: r.resolved && r.stageAdded === 1, note: `resolved ${r.resolved}, stage +${r.stageAdded}` };
    const ok = !r.resolved && r.isError && r.code === e.code && (!e.field || e.field.test(r.field || '')) && r.stageAdded === 0 && sameCached;
    return { ok, note: `${r.resolved ? 'RESOLVED' : `${r.name} ${r.code} field '${r.field}'`}; stage +${r.stageAdded}; cached after: [${cached.join(', ')}]${r.message ? ` — ${r.message}` : ''}` };
}

async function main() {
    const a = parseArgs(process.argv.slice(2));
    const t0 = Date.now();
    if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found (make deps installs it)`);
    const pinned = checkVersions();
    fs.rmSync(a.out, { recursive: true, force: true });
    fs.mkdirSync(a.out, { recursive: true });
    const { server, port } = await serve({
        '/': HERE,
        '/player/': PLAYER,
        '/pixi/': path.join(HERE, 'node_modules', 'pixi.js', 'dist'),
        '/rive/': path.join(HERE, 'node_modules', '@rive-app', 'canvas-single'),
        '/fx/': a.fixtures,
        '/out/': a.out,
    });
    const gl = await launch(a.out, true);
    const log = { external: [], errors: [] };
    let failed = 0;
    const results = { pinned, chromium: await gl.browser.version(), pixels: {}, machine: {}, bad: [] };
    const say = (ok, text) => { if (!ok) failed++; console.log(`${ok ? 'ok  ' : 'FAIL'} ${text}`); };
    try {
        const page = await openPage(gl.browser, port, log, '/pixi.html');
        await page.waitForFunction(() => window.re2dPixiReady === true, { timeout: 30000 });
        // P
        for (const name of a.characters) {
            const p = await pixels(a, page, name);
            results.pixels[name] = p;
            for (const clip of [...new Set(p.rows.map((r) => r.clip))]) {
                const rows = p.rows.filter((r) => r.clip === clip);
                for (const r of rows) {
                    console.log(`     ${name} ${clip} t=${r4(r.t).toFixed(4)}: IoU ${r.good.iou.toFixed(4)} colour ${r.good.colour.toFixed(4)}` +
                        ` | t+d/4: IoU ${r.shifted.iou.toFixed(4)} colour ${r.shifted.colour.toFixed(4)}` +
                        ` | swapped: IoU ${r.swapped.iou.toFixed(4)} colour ${r.swapped.colour.toFixed(4)}`);
                }
                const min = (k, m) => Math.min(...rows.map((r) => r[k][m]));
                say(rows.every((r) => passes(r.good)), `P ${name} ${clip}: ${rows.length} frames, IoU ≥ ${min('good', 'iou').toFixed(4)}, colour ≥ ${min('good', 'colour').toFixed(4)} (need ${T_IOU}, ${T_COLOUR}; ${rows[0].renderer})`);
                const sf = rows.filter((r) => !passes(r.shifted)).length;
                say(sf > 0, `P ${name} ${clip} control t+d/4: ${sf}/${rows.length} frames fail (min IoU ${min('shifted', 'iou').toFixed(4)}, min colour ${min('shifted', 'colour').toFixed(4)})`);
                const wf = rows.filter((r) => !passes(r.swapped)).length;
                say(wf > 0, `P ${name} ${clip} control depths of ${p.swap.names.join(' and ')} swapped: ${wf}/${rows.length} frames fail (min IoU ${min('swapped', 'iou').toFixed(4)}, min colour ${min('swapped', 'colour').toFixed(4)})`);
                if (rows[0].nokeys) {
                    // the keys must matter somewhere in the eight frames of the punch (the far fist
                    // crosses the chest); elsewhere the control is reported, not required
                    const kf = rows.filter((r) => !passes(r.nokeys)).length;
                    const crossing = name === 'fighter' && clip === 'punch';
                    say(!crossing || kf > 0, `P ${name} ${clip} control draw-order keys dropped: ${kf}/${rows.length} frames fail (min IoU ${min('nokeys', 'iou').toFixed(4)}, min colour ${min('nokeys', 'colour').toFixed(4)})${crossing ? '' : ' (reported)'}`);
                }
            }
        }
        // M
        for (const name of a.characters.filter((n) => n === 'biped' || n === 'quadruped')) {
            const model = JSON.parse(fs.readFileSync(path.join(a.fixtures, `rig-${name}`, 'model.json'), 'utf8'));
            const oneShots = model.state_machine.triggers.length > 0;
            const layers = (model.state_machine.layers || []).length > 0;
            const mutants = [...(oneShots ? ['restart', 'nospill', 'lazy', 'sticky'] : ['lazy']), ...(layers ? ['nohold'] : [])];
            const m = await machine(a, page, name, mutants);
            results.machine[name] = m;
            const worst = m.seeds.reduce((w, s) => ({ angle: Math.max(w.angle, s.angle), pos: Math.max(w.pos, s.pos), states: w.states + s.states }), { angle: 0, pos: 0, states: 0 });
            say(m.seeds.every((s) => s.same), `M ${name}: ${m.seeds.length} seeds × 96 steps, player vs Rive runtime: max rotation diff ${worst.angle.toExponential(2)} rad, max root diff ${worst.pos.toExponential(2)} px, ${worst.states} state-change mismatches (tolerance ${TOL_ANGLE} rad, ${TOL_POS} px)`);
            for (const [mu, c] of Object.entries(m.controls)) say(c.caught > 0, `M ${name} control ${mu}: differs from the Rive runtime on ${c.caught}/${c.seeds} seeds`);
        }
        // L
        for (const name of a.characters) {
            const l = await layered(a, page, name);
            if (!l) continue;
            results.layers = { ...(results.layers || {}), [name]: l };
            const fmt = (rs) => rs.map((r) => `${r.iou.toFixed(4)}/${r.colour.toFixed(4)}`).join(' ');
            say(l.good.every(passes), `L ${name} ${l.clip} layer over the walk, ${l.good.length} shots vs render-ref's mixed pose (IoU/colour): ${fmt(l.good)}`);
            const lf = l.nolayers.filter((r, i) => l.playing[i] && !passes(r)).length;
            say(lf === l.playing.filter(Boolean).length, `L ${name} control without the layer: ${lf}/${l.playing.filter(Boolean).length} shots where the layer plays fail (${fmt(l.nolayers)})`);
        }
        // B
        const cases = badCases(a);
        const got = await page.evaluate((cs) => window.re2dPixi.bad(cs), cases.map(({ expect, ...c }) => c));
        cases.forEach((c, i) => {
            const j = judgeBad(c, got[i]);
            results.bad.push({ name: c.name, ...got[i], ok: j.ok });
            say(j.ok, `B ${c.name}: ${j.note}`);
        });
        say(log.external.length === 0, `offline: ${log.external.length} requests outside 127.0.0.1`);
        const unexpected = log.errors.filter((e) => !/Failed to load resource|\[Loader\.load\]|Assets/.test(e));
        say(unexpected.length === 0, `page errors: ${unexpected.length}${unexpected.length ? ': ' + unexpected.slice(0, 3).join(' | ') : ''}`);
    } finally {
        await gl.browser.close();
        server.close();
        fs.rmSync(gl.profile, { recursive: true, force: true });
    }
    results.seconds = Math.round((Date.now() - t0) / 100) / 10;
    fs.writeFileSync(path.join(a.out, 'results.json'), JSON.stringify(results, (k, v) => (v instanceof RegExp ? String(v) : v), 1) + '\n');
    console.log(`pixi harness: pixi.js ${pinned['pixi.js']}, ${results.chromium}, ${results.seconds} s: ${failed ? `${failed} FAILED` : 'all passed'}`);
    process.exit(failed ? 1 : 0);
}

main().catch((e) => {
    console.error(`pixi harness: ${e && e.stack ? e.stack : e}`);
    process.exit(1);
});
