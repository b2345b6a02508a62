// The player's model validator (src/model.js) against `re2d export-riv` (the judge: the Rust
// reader and exporter the validator transcribes). Every model of a family — targeted breakages,
// one per rule, and seeded random mutations of real models (`re2d rig build` output and a small
// hand-made one) — goes through both: the verdicts (accepted, or the error code) must agree.
// A texture file that is missing or not a PNG is the loader's verdict in the player (it fetches
// the file), so a model export-riv refuses for its *file* must pass the validator.
//
// Control: the same family against the validator with one rule deleted from its source (each
// of MUTANTS, imported from a rewritten copy); each must disagree with the judge somewhere.
//
//   node parity.mjs --re2d target/release/re2d --base DIR/model.json [--base …] --out DIR
//                   [--seeds 1-40] [--per-seed 12]
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mulberry32 } from './random.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SRC = path.join(HERE, '..', 'src');

// One rule each, deleted from src/model.js: [name, exact source line(s) to remove].
const MUTANTS = [
    ['tris index range', "            if (t < 0 || !Number.isInteger(t) || t >= n) fail('E_PART', `${at}.tris[${i}]`, `${at}.tris[${i}] = ${t} is not a vertex index below ${n}`);"],
    ['weight >= 0', "    const weight = (x, w) => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x"],
    ['key times increase', "        if (i > 0 && t <= times[i - 1]) fail('E_CLIP', kw, `${kw}: time ${t} does not increase`);"],
    ['binary32 range', "        if (Math.abs(v) > F32_MAX) fail(code, what, `${what} = ${v} is outside the binary32 range of .riv double fields`);"],
    ['draw_order every part once', "        if (missing >= 0) fail('E_CLIP', kw, `${kw}: part '${partNames[missing]}' is missing (every part once)`);"],
    ['draw_order times increase', "        if (keys.length && t <= keys[keys.length - 1].time) fail('E_CLIP', kw, `${kw}: time ${t} does not increase`);"],
    ['layer clip exists', "        if (clip < 0) no(`[${i}]: no clip '${cn}'`);"],
    ['key quantisation', "                if (i > 0 && f <= prev) fail('E_KEY_QUANT', `${w}[${i}]`, `${w}: keys at ${tr.times[i - 1]} s and ${t} s both land on frame ${f} at ${EXPORT_FPS} fps`);"],
];

function args(argv) {
    const a = { base: [], seeds: [1, 40], perSeed: 12 };
    for (let i = 0; i < argv.length; i += 2) {
        const [k, v] = [argv[i], argv[i + 1]];
        if (k === '--re2d') a.re2d = v;
        else if (k === '--base') a.base.push(v);
        else if (k === '--out') a.out = v;
        else if (k === '--seeds') a.seeds = v.split('-').map(Number);
        else if (k === '--per-seed') a.perSeed = Number(v);
        else throw new Error(`unknown argument ${k}`);
    }
    if (!a.re2d || !a.base.length || !a.out) throw new Error('usage: parity.mjs --re2d BIN --base MODEL.json… --out DIR');
    return a;
}

const clone = (x) => JSON.parse(JSON.stringify(x));

// A hand-made model using every form the format allows (rive-export.md §7 and its extensions).
function handMade(texture) {
    return {
        version: 1,
        name: 'hand',
        skeleton: {
            root: { x: 20, y: 30, length: 40, angle: 0.1 },
            arm: { parent: 'root', length: 30, angle: -0.3 },
            hand: { parent: 'arm', length: 10 },
        },
        textures: { atlas: texture, unused: 42 },
        parts: [
            {
                name: 'arm', texture: 'atlas', depth: 0.5,
                verts: [40, 30, 80, 30, 80, 50, 40, 50], uv: [0, 0, 1, 0, 1, 1, 0, 1], tris: [0, 1, 2, 0, 2, 3],
                weights: [['root', 0.5, 'arm', 0.5], [['arm', 1]], ['arm', 1, 'hand', 0, 'root', 2], null],
            },
            {
                texture: -1, verts: [0, 0, 10, 0, 0, 10], uv: [0, 0, 1, 0, 0, 1], tris: [0, 1, 2],
                bones: ['root', null, 'hand'], colors: [1, 2, 3],
            },
        ],
        clips: {
            walk: {
                duration: 1, loop: true, interpolation: 'linear',
                tracks: { arm: [[0, 0], [0.5, 0.6], [1, 0]], hand: [[0.25, 1]] },
                translations: { root: [[0, 0, 0], [0.5, 2, -3], [1, 0, 0]] },
                draw_order: [[0, ['part1', 'arm']], [0.5, ['arm', 'part1']]],
            },
            wave: { duration: 0.5, tracks: { hand: [[0, 0], [0.5, 1]] } },
            jump: { duration: 0.5, tracks: { root: [[0, 0], [0.5, 2]] }, interpolation: 'step' },
            idle: { duration: 1, loop: true },
        },
        state_machine: {
            name: 'sm', input: 'speed', blend: [['idle', 0], ['walk', 1]], triggers: [['jump', 'jump']],
            layers: [{ name: 'wave', clip: 'wave', trigger: 'wave' }],
        },
    };
}

// One breakage per rule of the validator (and a few that must still pass).
function targeted(m) {
    const out = [];
    const add = (name, f) => { const c = clone(m); f(c); out.push([name, c]); };
    add('version 2', (c) => { c.version = 2; });
    add('version "1"', (c) => { c.version = '1'; });
    add('version absent', (c) => { delete c.version; });
    add('not an object', () => {});
    out[out.length - 1][1] = [m];
    add('name 5', (c) => { c.name = 5; });
    add('skeleton array', (c) => { c.skeleton = []; });
    add('bone not an object', (c) => { c.skeleton.arm = 3; });
    add('parent number', (c) => { c.skeleton.arm.parent = 1; });
    add('parent empty (a root)', (c) => { c.skeleton.arm.parent = ''; });
    add('unknown parent', (c) => { c.skeleton.arm.parent = 'nobody'; });
    add('parent toString', (c) => { c.skeleton.arm.parent = 'toString'; });
    add('cycle', (c) => { c.skeleton.root.parent = 'hand'; });
    add('length -1', (c) => { c.skeleton.arm.length = -1; });
    add('length "x"', (c) => { c.skeleton.arm.length = 'x'; });
    add('angle 1e39', (c) => { c.skeleton.arm.angle = 1e39; });
    add('angle "NaN"', (c) => { c.skeleton.arm.angle = 'NaN'; });
    add('x on a child', (c) => { c.skeleton.arm.x = 5; });
    add('256 bones', (c) => { for (let i = 0; i < 253; i++) c.skeleton[`b${i}`] = { parent: 'root' }; });
    add('255 bones', (c) => { for (let i = 0; i < 252; i++) c.skeleton[`b${i}`] = { parent: 'root' }; });
    add('parts object', (c) => { c.parts = {}; });
    add('part not an object', (c) => { c.parts[1] = 'p'; });
    add('part name 3', (c) => { c.parts[0].name = 3; });
    add('verts odd', (c) => { c.parts[0].verts.push(1); });
    add('verts null item', (c) => { c.parts[0].verts[2] = null; });
    add('verts not array', (c) => { c.parts[0].verts = 'v'; });
    add('uv short', (c) => { c.parts[0].uv.pop(); });
    add('tris not multiple of 3', (c) => { c.parts[0].tris.push(0); });
    add('tris out of range', (c) => { c.parts[0].tris[4] = 4; });
    add('tris negative', (c) => { c.parts[0].tris[0] = -1; });
    add('tris fraction', (c) => { c.parts[0].tris[0] = 0.5; });
    add('depth string', (c) => { c.parts[0].depth = 'near'; });
    add('depth null (default)', (c) => { c.parts[0].depth = null; });
    add('weights length', (c) => { c.parts[0].weights.pop(); });
    add('weights not array', (c) => { c.parts[0].weights = {}; });
    add('weight negative', (c) => { c.parts[0].weights[0][1] = -0.5; });
    add('weight string', (c) => { c.parts[0].weights[0][1] = '1'; });
    add('weight pair of 3', (c) => { c.parts[0].weights[1] = [['arm', 1, 2]]; });
    add('weight odd flat', (c) => { c.parts[0].weights[0].pop(); });
    add('weight bone number', (c) => { c.parts[0].weights[0][0] = 7; });
    add('weight unknown bone', (c) => { c.parts[0].weights[0][0] = 'leg'; });
    add('third pair unknown (dropped)', (c) => { c.parts[0].weights[2][4] = 'leg'; });
    add('bones form number', (c) => { c.parts[1].bones[0] = 1; });
    add('bones form unknown', (c) => { c.parts[1].bones[0] = 'leg'; });
    add('bones form length', (c) => { c.parts[1].bones.push('root'); });
    add('bones not array', (c) => { c.parts[1].bones = 'root'; });
    add('texture unknown', (c) => { c.parts[0].texture = 'page9'; });
    add('texture object', (c) => { c.parts[0].texture = {}; });
    add('texture entry number', (c) => { c.textures.atlas = 3; });
    add('textures array', (c) => { c.textures = []; });
    add('texture -1 (white)', (c) => { c.parts[0].texture = -1; });
    add('clips array', (c) => { c.clips = []; });
    add('clip not an object', (c) => { c.clips.walk = 1; });
    add('duration 0', (c) => { c.clips.walk.duration = 0; });
    add('duration absent', (c) => { delete c.clips.walk.duration; });
    add('loop "yes"', (c) => { c.clips.walk.loop = 'yes'; });
    add('interpolation cubic', (c) => { c.clips.walk.interpolation = 'cubic'; });
    add('tracks array', (c) => { c.clips.walk.tracks = []; });
    add('track unknown bone', (c) => { c.clips.walk.tracks.leg = [[0, 1]]; });
    add('track empty', (c) => { c.clips.walk.tracks.arm = []; });
    add('track not array', (c) => { c.clips.walk.tracks.arm = 1; });
    add('key triple', (c) => { c.clips.walk.tracks.arm[0] = [0, 1, 2]; });
    add('key time null', (c) => { c.clips.walk.tracks.arm[1][0] = null; });
    add('key not increasing', (c) => { c.clips.walk.tracks.arm[1][0] = 0; });
    add('key past duration', (c) => { c.clips.walk.tracks.arm[2][0] = 1.5; });
    add('key negative time', (c) => { c.clips.walk.tracks.arm[0][0] = -0.1; });
    add('keys on one frame', (c) => { c.clips.walk.tracks.arm = [[0, 0], [0.001, 1]]; });
    add('translation on a child', (c) => { c.clips.walk.translations = { arm: [[0, 0, 0]] }; });
    add('translation pair', (c) => { c.clips.walk.translations.root[0] = [0, 0]; });
    add('translation unknown', (c) => { c.clips.walk.translations = { leg: [[0, 0, 0]] }; });
    add('translations on one frame', (c) => { c.clips.walk.translations.root = [[0, 0, 0], [0.004, 1, 1]]; });
    add('machine not object', (c) => { c.state_machine = 'sm'; });
    add('machine null (none)', (c) => { c.state_machine = null; });
    add('machine name empty', (c) => { c.state_machine.name = ''; });
    add('machine no blend', (c) => { delete c.state_machine.blend; });
    add('blend not increasing', (c) => { c.state_machine.blend[1][1] = 0; });
    add('blend unknown clip', (c) => { c.state_machine.blend[1][0] = 'run'; });
    add('blend threshold string', (c) => { c.state_machine.blend[1][1] = '1'; });
    add('trigger = input', (c) => { c.state_machine.triggers[0][1] = 'speed'; });
    add('trigger twice', (c) => { c.state_machine.triggers.push(['walk', 'jump']); });
    add('trigger unknown clip', (c) => { c.state_machine.triggers[0][0] = 'fly'; });
    add('trigger name empty', (c) => { c.state_machine.triggers[0][1] = ''; });
    add('triggers object', (c) => { c.state_machine.triggers = {}; });
    add('blend equal in binary32', (c) => { c.state_machine.blend[1][1] = 1e-46; });
    add('draw_order not array', (c) => { c.clips.walk.draw_order = {}; });
    add('draw_order empty', (c) => { c.clips.walk.draw_order = []; });
    add('draw_order null (none)', (c) => { c.clips.walk.draw_order = null; });
    add('draw_order part missing', (c) => { c.clips.walk.draw_order[0][1].pop(); });
    add('draw_order part twice', (c) => { c.clips.walk.draw_order[0][1] = ['arm', 'arm']; });
    add('draw_order unknown part', (c) => { c.clips.walk.draw_order[0][1][0] = 'leg'; });
    add('draw_order time not increasing', (c) => { c.clips.walk.draw_order[1][0] = 0; });
    add('draw_order time past duration', (c) => { c.clips.walk.draw_order[1][0] = 2; });
    add('draw_order key single', (c) => { c.clips.walk.draw_order[1] = [0.5]; });
    add('layers object', (c) => { c.state_machine.layers = {}; });
    add('layer unknown clip', (c) => { c.state_machine.layers[0].clip = 'fly'; });
    add('layer clip in the blend', (c) => { c.state_machine.layers[0].clip = 'walk'; });
    add('layer trigger = input', (c) => { c.state_machine.layers[0].trigger = 'speed'; });
    add('layer named locomotion', (c) => { c.state_machine.layers[0].name = 'locomotion'; });
    add('layer unknown field', (c) => { c.state_machine.layers[0].bones = 'arms'; });
    add('layer twice', (c) => { c.state_machine.layers.push({ name: 'wave2', clip: 'wave', trigger: 'wave2' }); });
    return out;
}

const BAD = [null, -1, 0, 1, 0.5, -0.25, 2, 70000, 1e39, 'x', '', 'NaN', 'root', 'walk', true, false, [], {}, [0], [0, 1], ['root', 1], [[0, 0]]];

// All paths of the tree (arrays of keys), numbers inside long arrays sampled.
function paths(x, rnd, at = [], out = []) {
    if (at.length) out.push(at);
    if (Array.isArray(x)) {
        const n = x.length;
        const pick = n > 24 ? Array.from({ length: 6 }, () => Math.floor(rnd() * n)) : [...x.keys()];
        for (const i of pick) paths(x[i], rnd, [...at, i], out);
    } else if (x && typeof x === 'object') {
        for (const k of Object.keys(x)) paths(x[k], rnd, [...at, k], out);
    }
    return out;
}

function mutate(m, rnd) {
    const c = clone(m);
    const all = paths(c, rnd);
    const p = all[Math.floor(rnd() * all.length)];
    const parent = p.slice(0, -1).reduce((o, k) => o[k], c);
    const key = p[p.length - 1];
    const op = rnd();
    if (op < 0.12 && !Array.isArray(parent)) delete parent[key];
    else if (op < 0.2 && Array.isArray(parent[key])) parent[key].pop();
    else if (op < 0.28 && Array.isArray(parent[key])) parent[key].push(BAD[Math.floor(rnd() * BAD.length)]);
    else if (op < 0.36 && typeof parent[key] === 'number') parent[key] = -parent[key] || 1;
    else parent[key] = clone(BAD[Math.floor(rnd() * BAD.length)]);
    return [`${p.join('.')} (${op < 0.12 ? 'deleted' : 'changed'})`, c];
}

// export-riv's verdict: 'ok' or the error code; a refusal for the texture *file* is 'file'.
function judge(bin, file) {
    try {
        execFileSync(bin, ['export-riv', file, '--output', '/dev/null'], { stdio: ['ignore', 'pipe', 'pipe'] });
        return { verdict: 'ok' };
    } catch (e) {
        const line = String(e.stderr).trim();
        const code = (line.match(/: (E_[A-Z_]+): /) || [])[1];
        if (e.status !== 1 || !code) throw new Error(`export-riv ${file}: exit ${e.status}: ${line}`);
        const file_ = code === 'E_TEXTURE' && /No such file|not a PNG|not a readable PNG|Is a directory/.test(line);
        return { verdict: file_ ? 'file' : code, line };
    }
}

function verdictOf(readModel, model) {
    try {
        readModel(model);
        return { verdict: 'ok' };
    } catch (e) {
        if (!e || e.name !== 'ModelError' || typeof e.code !== 'string') throw new Error(`the validator threw a ${e && e.name}: ${e && e.message}`);
        return { verdict: e.code, message: e.message, field: e.field };
    }
}

async function main() {
    const a = args(process.argv.slice(2));
    fs.rmSync(a.out, { recursive: true, force: true });
    fs.mkdirSync(a.out, { recursive: true });
    // the family: one folder per base model with its textures copied in
    const bases = a.base.map((f, i) => {
        const m = JSON.parse(fs.readFileSync(f, 'utf8'));
        const dir = path.join(a.out, `base${i}`);
        fs.mkdirSync(dir);
        for (const t of Object.values(m.textures || {})) fs.copyFileSync(path.join(path.dirname(f), t), path.join(dir, t));
        return { name: path.basename(path.dirname(f)), model: m, dir };
    });
    const firstTex = Object.values(bases[0].model.textures)[0];
    const hand = { name: 'hand-made', model: handMade(firstTex), dir: bases[0].dir };
    const cases = [];
    for (const [n, m] of targeted(hand.model)) cases.push({ base: hand, name: `targeted: ${n}`, model: m });
    for (let seed = a.seeds[0]; seed <= a.seeds[1]; seed++) {
        const rnd = mulberry32(seed);
        for (const b of [hand, ...bases]) {
            for (let k = 0; k < a.perSeed; k++) {
                const [n, m] = mutate(b.model, rnd);
                cases.push({ base: b, name: `seed ${seed}: ${b.name}: ${n}`, model: m });
            }
        }
    }
    // the judge's verdicts, once
    cases.forEach((c, i) => {
        const f = path.join(c.base.dir, `case-${i}.json`);
        fs.writeFileSync(f, JSON.stringify(c.model));
        c.judge = judge(a.re2d, f);
        fs.rmSync(f);
    });
    const run = (readModel) => cases.filter((c) => {
        const v = verdictOf(readModel, c.model);
        const want = c.judge.verdict === 'file' ? 'ok' : c.judge.verdict;
        c.got = v;
        return v.verdict !== want;
    });
    const { readModel } = await import(pathToFileURL(path.join(SRC, 'model.js')).href);
    const wrong = run(readModel);
    const tally = {};
    for (const c of cases) tally[c.judge.verdict] = (tally[c.judge.verdict] || 0) + 1;
    console.log(`pixi parity: ${cases.length} models (${Object.entries(tally).map(([k, v]) => `${k} ${v}`).join(', ')})`);
    for (const c of wrong.slice(0, 20)) console.log(`  DIFFERS ${c.name}: export-riv ${c.judge.verdict} (${c.judge.line || ''}) | player ${c.got.verdict} ${c.got.message || ''}`);
    // every refusal names a field (the ModelError's `field`, inside its message)
    const unnamed = cases.filter((c) => c.got.verdict !== 'ok' && c.got.verdict !== 'E_MODEL_JSON' && !c.got.field);
    for (const c of unnamed.slice(0, 5)) console.log(`  NO FIELD ${c.name}: ${c.got.message}`);
    let failed = wrong.length > 0 || unnamed.length > 0;
    console.log(`${failed ? 'FAIL' : 'ok  '} validator agrees with export-riv on ${cases.length - wrong.length}/${cases.length}`);
    // controls: one rule deleted each
    const text = fs.readFileSync(path.join(SRC, 'model.js'), 'utf8');
    for (const [name, line] of MUTANTS) {
        if (!text.includes(line)) { console.log(`FAIL control ${name}: its line is not in src/model.js`); failed = true; continue; }
        const removed = line.includes('const weight') ? text.replace(line, "    const weight = (x, w) => (typeof x === 'number' && Number.isFinite(x) ? x") : text.replace(line, '');
        const f = path.join(a.out, `mutant-${MUTANTS.findIndex((m) => m[0] === name)}.mjs`);
        fs.writeFileSync(f, removed);
        let misses;
        try {
            misses = run((await import(pathToFileURL(f).href)).readModel).length;
        } finally {
            fs.rmSync(f);
        }
        const ok = misses > 0;
        if (!ok) failed = true;
        console.log(`${ok ? 'ok  ' : 'FAIL'} control without "${name}": ${misses} disagreements${ok ? ' (caught, as it must be)' : ' (NOT caught)'}`);
    }
    process.exit(failed ? 1 : 0);
}

main().catch((e) => {
    console.error(`pixi parity: ${e.stack || e}`);
    process.exit(1);
});
