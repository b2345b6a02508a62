// re2d tests: the one-pass native deformation and unrolling (issue 10 item 3) against the literal
// spec transcription (_reference.mjs §7, and §8.4 written out below) on randomized parts that mix
// plain numbers with values that need JS (strings, holes, objects with valueOf, getters, proxies,
// odd pose records, short / plain-array / resizable outputs). Each case is built twice from the
// same seed, so both sides see identical fresh inputs; results, thrown errors, every logged
// getter / valueOf call and every output element must match.
// `re2d-qjs js/tests/mesh_onepass.test.mjs N` runs N deformPart cases (default 1500) and N/5 draws,
// e.g. for a long run under a sanitizer build.
import { installMesh, createSkeleton, createPart, deformPart } from '../../src/highlevel/mesh.js';
import * as ref from './_reference.mjs';
import { test, ok, is, json, arrayEq, done } from './_harness.mjs';

const CASES = Number(scriptArgs[1]) || 1500;

// Builds one case from `seed`; `log` receives the observable calls.
function build(seed, log) {
    const r = ref.rng(seed);
    const pick = (a) => a[Math.floor(r() * a.length)];
    const odd = (p) => r() < p;
    const logged = (tag, v) => ({ valueOf() { log.push(tag); return v; } });
    const getter = (obj, key, tag) => {
        const v = obj[key];
        Object.defineProperty(obj, key, { get() { log.push(tag); return v; }, configurable: true });
    };
    const rate = pick([0, 0, 0.02, 0.1, 0.3]);
    const num = () => pick([r() * 20 - 10, Math.round(r() * 10), -0, 0, 0.5]);
    const raw = (tag) => (odd(rate) ? pick([NaN, Infinity, '3', 'x', '', null, true, undefined, logged(tag, 2), [4]]) : num());
    const n = 1 + Math.floor(r() * 12);
    const verts = [], uv = [], weights = [], colors = [];
    for (let i = 0; i < n; i++) {
        verts.push(raw(`x${i}`), raw(`y${i}`));
        uv.push(odd(0.3) ? raw(`u${i}`) : r(), odd(0.3) ? raw(`v${i}`) : r());
        const pair = () => {
            const name = odd(rate) ? pick(['ghost', 5, null, 'c']) : pick(['a', 'b', 'c']);
            const w = odd(rate) ? pick(['0.5', NaN, logged(`w${i}`, 0.25), 0, -1]) : r();
            return odd(rate / 2) ? pick([{ 0: name, 1: w, length: 2 }, null, 'bq', undefined]) : [name, w];
        };
        const k = odd(rate) ? pick([0, 3, 5]) : pick([0, 1, 2, 2]);
        const list = [];
        for (let j = 0; j < k; j++) list.push(pair());
        weights.push(odd(rate / 2) ? pick([null, 'ab', undefined, { length: 1, 0: ['a', 1] }]) : list);
        colors.push(odd(0.2) ? pick(['none', null, new Uint8Array([1, 2, 3]), [raw(`r${i}`), 2, 3], [1, true, '7']]) : [i, 2 * i, 255 - i]);
    }
    const part = createPart({ verts, uv, tris: [], colors: odd(0.5) ? colors : undefined });
    part.weights = weights; // hand-set: keeps every odd entry (createPart would normalise them)
    if (odd(rate)) part.depth = pick(['0.25', null, logged('depth', 0.75), 'd']);
    if (odd(rate)) part.vertexCount = pick([n - 1, n + 2, 2.5, '3']);
    if (odd(rate / 2)) getter(part, pick(['weights', 'depth', 'colors']), 'part-get');
    if (odd(rate / 2)) getter(verts, Math.floor(r() * verts.length), 'vert-get');
    const rig = createSkeleton({ a: { x: 1, y: 2, length: 3, angle: 0.2 }, b: { parent: 'a', length: 2 }, c: { x: -1, y: 0 } });
    const pose = rig.pose({ a: r() * 6 - 3, b: r() * 6 - 3, c: r() });
    let rest = rig.rest();
    if (odd(rate)) pose.b = pick([null, 5, { x: '1', y: 2, angle: 0.1 }, { x: 1, y: 2 }, Object.create({ x: 1, y: 1, angle: 1 })]);
    if (odd(rate)) getter(pose, 'c', 'pose-get');
    if (odd(rate)) pose.a = new Proxy({ x: 0, y: 0, angle: 1 }, { get(t, k) { log.push(`proxy ${String(k)}`); return t[k]; } });
    if (odd(rate)) rest = pick([null, pose, { a: rest.a }]);
    const count = part.vertexCount * 8;
    let out = new Float32Array(Math.max(0, (Number(count) | 0) + Math.floor(r() * 3)));
    if (odd(0.1)) out = new Array(out.length).fill(-1);
    else if (odd(0.05)) out = new Float32Array(Math.max(0, (Number(count) | 0) - 1));
    if (odd(rate)) {
        // shrink a length-tracking output when the first getter fires
        const buf = new ArrayBuffer(out.length * 4, { maxByteLength: out.length * 4 + 64 });
        out = new Float32Array(buf);
        const a = pose.a;
        Object.defineProperty(pose, 'a', { get() { log.push('shrink'); buf.resize(Math.floor(buf.byteLength / 8) * 4); return a; } });
    }
    return { part, pose: odd(0.05) ? null : pose, rest, out };
}

function runCase(deform, seed) {
    const log = [];
    const c = build(seed, log);
    let result = null, error = null;
    try {
        const res = deform(c.part, c.pose, c.rest, c.out);
        result = { count: res.count, need: res.need, same: res.buffer === c.out };
    } catch (e) {
        error = `${e && e.name}: ${e && e.message}`;
    }
    const out = [];
    for (let i = 0; i < c.out.length; i++) {
        const v = c.out[i]; // a plain-array out keeps raw values (objects compared by shape)
        out.push(v && typeof v === 'object' ? `object ${JSON.stringify(v)}` : v);
    }
    return { result, error, log, out };
}

test('deformPart: randomized odd parts, native pass vs the literal §7', () => {
    let native = 0;
    for (let seed = 1; seed <= CASES; seed++) {
        const got = runCase(deformPart, seed), want = runCase(ref.deformPart, seed);
        const at = `seed ${seed}`;
        is(got.error, want.error, `${at}: error`);
        json(got.result, want.result, `${at}: result`);
        json(got.log, want.log, `${at}: observable calls`);
        arrayEq(got.out, want.out, `${at}: out`);
        if (!got.error && got.log.length === 0) native++;
    }
    ok(native > CASES / 5, `${native} cases without any JS-visible call`);
});

// §8.4 literally (steps 1–11) with its own buffers, for the unrolling comparison.
function literalDraw(engine) {
    let scratch = new Float32Array(8192), flat = new Float32Array(8192);
    return (part, poseOrAngles, rig) => {
        if (!part || !part.vertexCount || !part.tris.length) return 0;
        const pose = rig.pose(poseOrAngles), rest = rig.rest();
        const need = part.vertexCount * 8;
        if (scratch.length < need) { let s = scratch.length; while (s < need) s *= 2; scratch = new Float32Array(s); }
        const r = ref.deformPart(part, pose, rest, scratch);
        if (!r.count) return 0;
        const k = part.tris.length;
        if (k % 3) return 0;
        if (flat.length < k * 8) { let s = flat.length; while (s < k * 8) s *= 2; flat = new Float32Array(s); }
        const tris = part.tris;
        for (let i = 0; i < k; i++) {
            const src = tris[i] * 8, dst = i * 8;
            for (let j = 0; j < 8; j++) flat[dst + j] = scratch[src + j];
        }
        return engine.submitMesh(flat, k, part.texture);
    };
}

test('draw: randomized index lists (odd indices, getters), native unroll vs the literal §8.4', () => {
    const rig = createSkeleton({ a: { x: 1, y: 2, length: 3 }, b: { parent: 'a', length: 2 } });
    for (let seed = 1; seed <= CASES / 5; seed++) {
        const runs = [];
        for (const side of ['native', 'literal']) {
            const r = ref.rng(seed);
            const log = [];
            const n = 1 + Math.floor(r() * 40);
            const spec = ref.armPart(n, seed);
            const part = createPart({ ...spec, weights: undefined, bones: spec.weights.map((_, i) => (i % 3 ? 'a' : 'b')) });
            const rate = [0, 0.05, 0.3][seed % 3];
            const tris = part.tris;
            for (let i = 0; i < tris.length; i++) {
                if (r() < rate) tris[i] = [-1, 1.5, 0.1, 1 / 3, NaN, 1e9, '2', -0, 2 ** 31, { valueOf() { log.push(`t${i}`); return 1; } }][Math.floor(r() * 10)];
            }
            if (r() < rate) {
                const i = Math.floor(r() * tris.length), v = tris[i];
                Object.defineProperty(tris, i, { get() { log.push(`get${i}`); return v; } });
            }
            const sent = [];
            const engine = { submitMesh(flat, k, tex) { sent.push(Array.from(flat.slice(0, k * 8)), k, tex); return 'ok'; } };
            globalThis.engine = engine;
            const draw = side === 'native' ? installMesh({}).draw : literalDraw(engine);
            const angles = { a: r() * 2, b: r() * 2 };
            const ret = [draw(part, angles, rig), draw(part, angles, rig)];
            runs.push({ ret, sent, log });
        }
        json(runs[0].ret, runs[1].ret, `seed ${seed}: returns`);
        json(runs[0].log, runs[1].log, `seed ${seed}: calls`);
        is(runs[0].sent.length, runs[1].sent.length);
        for (let s = 0; s < runs[0].sent.length; s += 3) {
            arrayEq(runs[0].sent[s], runs[1].sent[s], `seed ${seed}: flat`);
            is(runs[0].sent[s + 1], runs[1].sent[s + 1]);
        }
    }
    delete globalThis.engine;
});

test('a large plain part goes through the native pass bit-exactly', () => {
    const rig = createSkeleton({ upper: { x: 3, y: -2, length: 120, angle: 0.1 }, lower: { parent: 'upper', length: 80 } });
    const part = createPart(ref.armPart(5000, 9));
    const a = new Float32Array(5000 * 8), b = new Float32Array(5000 * 8);
    const pose = rig.pose({ upper: 0.4, lower: -1.2 }), rest = rig.rest();
    deformPart(part, pose, rest, a);
    ref.deformPart(part, pose, rest, b);
    arrayEq(a, b);
});

done('mesh_onepass');
