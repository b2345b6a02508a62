// re2d tests: second, adversarial reading of js-mesh.md — rules not asserted elsewhere
// (expected values from the spec text or by hand).
import {
    normalizeAngle, solveTwoBoneIK, solveChainIK, createSkeleton, createPart, deformPart, installMesh,
} from '../../src/highlevel/mesh.js';
import { test, ok, is, near, json, keys, throws, arrayEq, done, recordEngine } from './_harness.mjs';

const PI = Math.PI;

test('engine-suite style proxy engine: no-op functions returning 0', () => {
    delete globalThis.__r2d_engine_stub;
    const saved = globalThis.console;
    const printed = [];
    globalThis.console = { log: (m) => printed.push(m) };
    globalThis.engine = new Proxy({}, { get: () => () => 0 });
    const api = installMesh({});
    const p = api.part({ verts: [0, 0, 1, 0, 0, 1], tris: [0, 1, 2] });
    is(api.draw(p), 0, 'submitMesh of the proxy returns 0');
    is(api.fromSlice(null), null);
    json(createSkeleton({ a: { parent: 'zz' } }).bones(), ['a']);
    is(api.ik(null, {}, { x: 0, y: 0 }, {}), null);
    is(printed.length, 0, 'engine.log is a function: console never used');
    ok(!('__r2d_engine_stub' in globalThis), 'a global engine means no stub');
    globalThis.console = saved;
    delete globalThis.engine;
});

test('normalizeAngle: boxed and array inputs go through ToNumber', () => {
    is(normalizeAngle(new Number(2)), 2);
    is(normalizeAngle(['0.5']), 0.5);
    is(normalizeAngle([]), 0);
    is(normalizeAngle({}), 0);
    is(normalizeAngle(false), 0);
    is(normalizeAngle(' 1 '), 1);
    throws(() => normalizeAngle(Symbol('a')), TypeError);
});

test('solveTwoBoneIK: non-positive length takes the stretch branch', () => {
    // len1 = -1: dist 1 <= reachMax 3 → reached; a1 = a2 = base = 0; elbow = start + (cos 0)·len1
    json(solveTwoBoneIK(0, 0, -1, 4, 1, 0, 1), { a1: 0, a2: 0, elbow: { x: -1, y: 0 }, reached: true });
    json(solveTwoBoneIK(1, 1, 2, 0, 1, 4, -1), { a1: PI / 2, a2: PI / 2, elbow: { x: 1 + Math.cos(PI / 2) * 2, y: 3 }, reached: false });
    // bend is compared with < 0 as is: '-1' < 0
    json(solveTwoBoneIK(0, 0, 10, 10, 10, 10, '-1'), solveTwoBoneIK(0, 0, 10, 10, 10, 10, -1));
    is(Object.is(solveTwoBoneIK(0, 0, 1, 1, 5, -0).a1, -0), true, 'atan2(-0, 5) = -0 survives');
});

test('solveChainIK: raw lengths in the layout (hole → NaN), option coercion', () => {
    const h = solveChainIK(0, 0, [1, , 1], 1, 0);
    ok(h.angles.length === 3 && h.angles.every(Number.isNaN), 'a hole poisons the layout');
    is(h.distance, NaN);
    is(h.reached, false);
    const s = solveChainIK(0, 0, ['10', '10', '10'], 0, 40);
    is(s.distance, 10, "'10' counts in total");
    const lens = [10, 10, 10];
    json(solveChainIK(0, 0, lens, 5, 20, { iterations: Infinity }), solveChainIK(0, 0, lens, 5, 20), 'Infinity → 12');
    json(solveChainIK(0, 0, lens, 5, 20, { tolerance: -3 }), solveChainIK(0, 0, lens, 5, 20, { tolerance: 0 }), 'negative → 0');
    json(solveChainIK(0, 0, lens, 5, 20, { iterations: 0 }), solveChainIK(0, 0, lens, 5, 20, { iterations: 1 }), '0 → 1 pass');
    const one = solveChainIK(0, 0, [5], 3, 4, { tolerance: 0 });
    near(one.angles[0], Math.atan2(4, 3), 1e-15);
    is(one.reached, false, 'distance == total is unreachable');
    is(one.distance, 0);
    json(solveChainIK(0, 0, [1, 1], 1, 1, null).angles.length, 2, 'null opts');
});

test('createSkeleton: a parent placed later by the fallback leaves the bone a root', () => {
    const rec = recordEngine();
    // a ↔ b cycle: pending walk stalls, order = [a, b]; in pose, a's parent b is not computed yet
    const rig = createSkeleton({ a: { parent: 'b', x: 3, y: 4, angle: 7, length: 2 }, b: { parent: 'a', x: 99, angle: 1 } });
    json(rig.bones(), ['a', 'b']);
    is(rec.logs.length, 1);
    const r = rig.rest();
    json(r.a, { x: 3, y: 4, angle: 7 }, 'root: own x/y, angle not normalized');
    is(r.b.x, 3 + Math.cos(7) * 2);
    is(r.b.y, 4 + Math.sin(7) * 2);
    is(r.b.angle, normalizeAngle(8));
    delete globalThis.engine;
});

test('createSkeleton: array angles are objects; spec strings keep their length', () => {
    const rig = createSkeleton([{ length: 2 }, { parent: '0' }]);
    const p = rig.pose([0.5]);
    is(p[0].angle, 0.5, 'angles[0] used for bone "0"');
    near(p[1].x, Math.cos(0.5) * 2, 1e-15);
    const s = createSkeleton({ r: 'abc', c: { parent: 'r' } });
    is(s.rest().c.x, 3, "bone('r') is the string; its .length 3 is the rest length");
    is(s.tip(s.rest(), 'c').x, 3, 'c has length 0');
    is(s.tip({ c: { x: 1, y: 1, angle: 0 } }, 'c').x, 1, 'tip works on any pose-like object');
});

test('createPart: non-array weight entries and typed arrays', () => {
    const p = createPart({ verts: [0, 0, 1, 1], weights: [new Float32Array([1, 2]), { 0: 'a', 1: 1, length: 2 }] });
    json(p.weights, [[], []]);
    is(p.skinned, false);
    json(createPart({ verts: new Float32Array(4), uv: 'ab', tris: { length: 3 } }).vertexCount, 0);
    const t = createPart({ tris: [0, 1, 2], colors: [] });
    json(t.colors, []);
    is(createPart({ texture: [5] }).texture, 5);
    is(createPart({ texture: {} }).texture, NaN);
    is(createPart({ depth: '1e1' }).depth, 10);
    is(createPart({ depth: [] }).depth, 0, '[] → 0 is finite');
});

test('deformPart: colour needs Array.isArray; signed zeros', () => {
    const colors = [new Uint8Array([1, 2, 3]), { 0: 1, 1: 2, 2: 3, length: 3 }, 'abc', [-0, true, '5']];
    const p = createPart({ verts: [-0, 1, 2, 3, 4, 5, 6, 7], uv: [-0, 0.5], colors });
    for (const out of [new Float32Array(32), new Array(32).fill(9)]) {
        deformPart(p, null, null, out);
        arrayEq(Array.from(out).slice(5, 8), [255, 255, 255], 'typed array');
        arrayEq(Array.from(out).slice(13, 16), [255, 255, 255], 'array-like');
        arrayEq(Array.from(out).slice(21, 24), [255, 255, 255], 'string');
        arrayEq(Array.from(out).slice(29, 32), [0, 1, 5], 'N0 channels');
        is(out[0], -0, 'raw x kept (no coercion)');
        is(out[3], 0, '-0 uv is falsy → +0');
    }
});

test('deformPart: a pair whose bone misses from one pose keeps the other weights whole', () => {
    const rig = createSkeleton({ m: { x: 0, y: 0, length: 1 }, s: { x: 0, y: 0, length: 1 } });
    const p = createPart({ verts: [2, 0], weights: [['m', 0.25, 'gone', 0.75]] });
    const out = new Float32Array(8);
    deformPart(p, rig.pose({ m: PI }), rig.rest(), out);
    near(out[0], -2, 1e-6, 'total = 0.25 only: full rotation by π');
    near(out[1], 0, 1e-6);
    const half = createPart({ verts: [2, 0], weights: [['m', 0.5, 's', 0.5]] });
    deformPart(half, rig.pose({ m: PI }), rig.rest(), out);
    near(out[0], 0, 1e-6, 'between (2,0) and (-2,0)');
    deformPart(half, rig.pose({ m: PI }), null, out);
    is(out[0], 2, 'rest null: unmoved');
    deformPart(half, 0, rig.rest(), out);
    is(out[0], 2, 'pose falsy: unmoved');
});

test('ik: rig without tip → tip null, distance Infinity; lengths from spec()', () => {
    const api = installMesh({});
    const rig = { pose: () => ({ A: { x: 1, y: 1, angle: 0 } }) };
    const r = api.ik(rig, null, { x: 5, y: 1 }, { chain: ['A'] });
    keys(r, ['angles', 'reached', 'distance', 'tip']);
    json(r.angles, { A: 0 });
    is(r.reached, false, 'no spec() → length 0 → unreachable');
    is(r.tip, null);
    is(r.distance, Infinity);
    const sk = createSkeleton({ a: { length: 10, angle: 0.25 }, b: { parent: 'a', length: 'x' } });
    const q = api.ik(sk, {}, { x: 0, y: 30 }, { chain: ['a', 'b'] });
    is(q.reached, false, "length 'x' → 0: degenerate branch");
    near(q.angles.a, PI / 2 - 0.25, 1e-12, 'additive = abs − rest');
    near(q.angles.b, 0, 1e-12, 'b: abs − parent abs');
    keys(api.ik(createSkeleton({ z: { length: 1 }, y: { parent: 'z', length: 1 }, x: { parent: 'y', length: 1 } }), {}, { x: 1, y: 1 }, { chain: ['z', 'y', 'x'] }).angles, ['z', 'y', 'x']);
});

test('draw: a function as angles with a rig is not an object', () => {
    const rec = recordEngine();
    const api = installMesh({});
    const rig = createSkeleton({ b: { x: 0, y: 0, length: 1 } });
    const p = api.part({ verts: [1, 0, 1, 1, 0, 1], tris: [0, 1, 2], bones: ['b', 'b', 'b'] });
    const fn = () => 0;
    fn.b = PI;
    api.draw(p, fn, rig);
    is(rec.submits[0].copy[0], 1, 'fn.b ignored');
    api.draw(p, [PI], rig);
    is(rec.submits[1].copy[0], 1, "array angles have no 'b'");
    is(api.draw(p, null, null, { texture: null }), 'submitted');
    is(rec.submits[2].texture, 0, 'ToNumber(null)');
    is(api.draw({ vertexCount: 1, tris: 'abc', verts: [1, 2], weights: [], uv: [], depth: 0.5 }), 'submitted', "tris 'abc': length 3");
    is(api.draw({ vertexCount: '1', tris: [0, 0, 0], verts: [1, 2], weights: [], uv: [], depth: 0.5 }), 'submitted', "vertexCount '1'");
    arrayEq(rec.submits[4].copy.slice(0, 3), [1, 2, 0.5]);
    delete globalThis.engine;
});

test('fromSlice: missing slice.frame falls back to names[0]; name is String(sliceName)', () => {
    const rec = recordEngine();
    const api = installMesh({});
    const sheet = {
        slice: () => ({ w: 2, h: 2, pivotLx: 1, pivotLy: 1 }),
        frames: () => ['a', 'b'],
        info: (n) => (n === 'a' ? { x: 2, y: 2, w: 2, h: 2 } : null),
        size: () => [4, 4],
        texture: '6',
    };
    const p = api.fromSlice(sheet, 12, undefined, null);
    json(p.verts, [-1, -1, 1, -1, 1, 1, -1, 1]);
    json(p.uv, [0.5, 0.5, 1, 0.5, 1, 1, 0.5, 1]);
    is(p.slice.name, '12');
    is(p.slice.frame, undefined);
    is(p.texture, 6, 'sheet.texture goes through createPart ToNumber');
    is(p.spec().texture, '6', 'raw in the part spec');
    is(rec.logs.length, 0);
    delete globalThis.engine;
});

done('mesh_audit');
