// re2d tests: js-mesh.md §8 installMesh ($.mesh: ik, fromSlice, draw, buffers, posed) and §9 engine stub / log sink.
import { installMesh, createSkeleton, createPart } from '../../src/highlevel/mesh.js';
import { test, ok, is, near, json, keys, throws, arrayEq, done, recordEngine } from './_harness.mjs';

const PI = Math.PI;

test('draw reads tris live (in-place index edits)', () => {
    const rec = recordEngine();
    const api = installMesh({});
    const p = createPart({ verts: [0, 0, 1, 0, 0, 1], tris: [0, 1, 2] });
    api.draw(p);
    arrayEq(rec.submits[0].copy.slice(0, 2), [0, 0]);
    p.tris[0] = 2;
    api.draw(p);
    arrayEq(rec.submits[1].copy.slice(0, 2), [0, 1], 'index 0 now names vertex 2');
    p.tris[1] = 5000;
    api.draw(p);
    ok(rec.submits[2].copy.slice(8, 16).every(Number.isNaN), 'index past scratch copies NaN');
    p.tris[1] = '1';
    api.draw(p);
    arrayEq(rec.submits[3].copy.slice(8, 10), [1, 0], "string index '1'");
    delete globalThis.engine;
});

test('importing does not create the stub', () => {
    ok(!('__r2d_engine_stub' in globalThis), 'no stub yet');
});

test('installMesh: key order, argument untouched, private buffers', () => {
    const $ = {};
    const api = installMesh($);
    keys(api, ['skeleton', 'part', 'ik', 'fromSlice', 'draw', 'scratchSize', 'flatSize', 'posed']);
    keys($, []);
    installMesh(Object.freeze({}));
    installMesh(undefined);
    is(api.scratchSize(), 8192);
    is(api.flatSize(), 8192);
    json(api.skeleton({ a: {} }).bones(), ['a']);
    json(api.part({ verts: [1, 2] }).verts, [1, 2]);
});

const arm = () => createSkeleton({ base: { x: 0, y: 0, length: 10 }, arm: { parent: 'base', length: 10 } });

test('ik two-bone: additive angles, tip and distance consistent', () => {
    const api = installMesh({});
    const rig = arm();
    const r = api.ik(rig, {}, { x: 10, y: 10 }, { chain: ['base', 'arm'] });
    keys(r, ['angles', 'reached', 'distance', 'tip']);
    keys(r.angles, ['base', 'arm']);
    near(r.angles.base, PI / 2, 1e-12);
    near(r.angles.arm, -PI / 2, 1e-12);
    is(r.reached, true);
    json(rig.tip(rig.pose(r.angles), 'arm'), r.tip);
    is(r.distance, Math.hypot(10 - r.tip.x, 10 - r.tip.y));
    ok(r.distance < 1e-9);
    const l = api.ik(rig, {}, { x: 10, y: 10 }, { chain: ['base', 'arm'], bend: -1 });
    near(l.angles.base, 0, 1e-12);
    near(l.angles.arm, PI / 2, 1e-12);
});

test('ik null paths and logging', () => {
    const rec = recordEngine();
    const api = installMesh({});
    is(api.ik(null, {}, { x: 1, y: 1 }, { chain: ['base'] }), null);
    is(api.ik(arm(), {}, { x: 1, y: 1 }, {}), null);
    is(api.ik(arm(), {}, { x: 1, y: 1 }), null);
    is(rec.logs.length, 3);
    is(rec.logThis[0], globalThis.engine, 'engine.log called as a method');
    is(api.ik(arm(), {}, { x: 1, y: 1 }, { chain: ['nope', 'arm'] }), null);
    ok(String(rec.logs[3]).includes('nope'), 'message embeds chain[0]');
    const obj = { toString: () => 'TS', valueOf: () => 'VO' };
    api.ik(arm(), {}, { x: 1, y: 1 }, { chain: [obj] });
    ok(rec.logs[4].includes('TS') && !rec.logs[4].includes('VO'), 'template-literal ToString');
    throws(() => api.ik(arm(), {}, { x: 1, y: 1 }, { chain: [Symbol('s')] }), TypeError);
    is(rec.logs.length, 5, 'symbol: nothing logged');
    throws(() => api.ik(arm(), {}, undefined, { chain: ['base', 'arm'] }), TypeError, 'missing target');
    delete globalThis.engine;
});

test('ik drops caller angles outside the chain when computing tip', () => {
    const api = installMesh({});
    const rig = createSkeleton({ torso: { x: 0, y: 0, length: 5 }, base: { parent: 'torso', length: 10 }, arm: { parent: 'base', length: 10 } });
    const r = api.ik(rig, { torso: 0.5 }, { x: 12, y: 8 }, { chain: ['base', 'arm'] });
    keys(r.angles, ['base', 'arm']);
    const tip = rig.tip(rig.pose(r.angles), 'arm');
    json(tip, r.tip);
    is(r.distance, Math.hypot(12 - tip.x, 8 - tip.y));
    ok(r.distance > 0.1, 'solved with torso 0.5 but posed without it');
    is(r.reached, true, 'reached comes from the solver');
    // with the torso angle included the chain does hit the target
    const withTorso = rig.tip(rig.pose({ torso: 0.5, ...r.angles }), 'arm');
    near(withTorso.x, 12, 1e-9);
    near(withTorso.y, 8, 1e-9);
});

test('ik chains of 1 and 3 use FABRIK with opts', () => {
    const api = installMesh({});
    const one = createSkeleton({ a: { length: 10 } });
    const r = api.ik(one, {}, { x: 0, y: 20 }, { chain: ['a'] });
    is(r.reached, false);
    near(r.angles.a, PI / 2, 1e-12);
    near(r.tip.x, 0, 1e-9);
    near(r.tip.y, 10, 1e-9);
    is(r.distance, Math.hypot(0 - r.tip.x, 20 - r.tip.y));
    const three = createSkeleton({ a: { length: 10 }, b: { parent: 'a', length: 10 }, c: { parent: 'b', length: 10 } });
    const t = api.ik(three, {}, { x: 5, y: 20 }, { chain: ['a', 'b', 'c'] });
    is(t.reached, true);
    ok(t.distance <= 0.5 + 1e-9);
    const loose = api.ik(three, {}, { x: 5, y: 20 }, { chain: ['a', 'b', 'c'], tolerance: 100, iterations: 1 });
    is(loose.reached, true);
    const target = { x: '3', y: null };
    const c = api.ik(three, {}, target, { chain: ['a', 'b', 'c'] });
    ok(Number.isFinite(c.distance), 'goal coerced with N0');
});

const sheet = {
    slice(name, frame) {
        return name === 'arm' ? { frame: 1, w: 10, h: 8, pivotLx: 2, pivotLy: 6, extra: 1 } : null;
    },
    frames() { return ['f0', 'f1']; },
    info(n) { return n === 'f1' ? { x: 20, y: 40, w: 10, h: 8 } : n === 'f0' ? { x: 0, y: 0, w: 1, h: 1 } : null; },
    size() { return [100, 200]; },
    texture: 7,
};

test('fromSlice builds a pivot-centred quad', () => {
    const api = installMesh({});
    const p = api.fromSlice(sheet, 'arm', 0, { bone: 'hand' });
    json(p.verts, [-2, -6, 8, -6, 8, 2, -2, 2]);
    json(p.uv, [0.2, 0.2, 0.3, 0.2, 0.3, 0.24, 0.2, 0.24]);
    json(p.tris, [0, 1, 2, 0, 2, 3]);
    is(p.texture, 7);
    is(p.depth, 0.5);
    json(p.weights, [[['hand', 1]], [['hand', 1]], [['hand', 1]], [['hand', 1]]]);
    is(p.skinned, true);
    json(p.slice, { name: 'arm', frame: 1 });
    json(p.pivot, { x: 2, y: 6 });
    keys(p.spec(), ['verts', 'uv', 'tris', 'texture', 'depth', 'bones']);
    const q = api.fromSlice(sheet, 'arm', 0, { texture: '3', depth: 0.25 });
    is(q.texture, 3);
    is(q.depth, 0.25);
    is(q.skinned, false);
    keys(q.spec(), ['verts', 'uv', 'tris', 'texture', 'depth']);
    const bones = api.fromSlice(sheet, 'arm', 0, { bones: ['a', 'b', 'c', 'd'], bone: 'x' });
    json(bones.weights, [[['a', 1]], [['b', 1]], [['c', 1]], [['d', 1]]]);
    const plain = api.fromSlice({ slice: () => ({ frame: 5, w: 4, h: 4, pivotLx: 0, pivotLy: 0 }), frames: () => ['only'], info: (n) => (n === 'only' ? { x: 1, y: 1, w: 2, h: 2 } : null) }, 's');
    ok(plain !== null, 'frame out of range → names[0]');
    json(plain.uv, [1, 1, 3, 1, 3, 3, 1, 3], 'no size() → [1,1]');
    is(plain.texture, -1);
    const zero = api.fromSlice({ ...sheet, size: () => [0, -1] }, 'arm');
    json(zero.uv, [20, 40, 30, 40, 30, 48, 20, 48], 'non-positive size → 1');
});

test('fromSlice null paths log, symbols throw', () => {
    const rec = recordEngine();
    const api = installMesh({});
    is(api.fromSlice(null, 'arm'), null);
    is(api.fromSlice({ slice: 5 }, 'arm'), null);
    is(api.fromSlice(sheet, 'leg'), null);
    ok(rec.logs[2].includes('leg'), 'slice name in message');
    const noFrame = { ...sheet, info: () => null };
    is(api.fromSlice(noFrame, 'arm'), null);
    ok(rec.logs[3].includes('f1'), 'frame name in message');
    is(rec.logs.length, 4);
    throws(() => api.fromSlice(sheet, Symbol('x')), TypeError);
    const symFrame = { ...sheet, frames: () => [Symbol('f'), Symbol('g')], info: () => null };
    throws(() => api.fromSlice(symFrame, 'arm'), TypeError, 'symbol frame name');
    is(rec.logs.length, 4);
    delete globalThis.engine;
});

function quad(extra) {
    return createPart({ verts: [0, 0, 10, 0, 10, 10, 0, 10], uv: [0, 0, 1, 0, 1, 1, 0, 1], tris: [0, 1, 2, 0, 2, 3], ...extra });
}

test('draw: undrawable parts return 0; missing tris throws', () => {
    const rec = recordEngine();
    const api = installMesh({});
    is(api.draw(null), 0);
    is(api.draw(createPart({ verts: [], tris: [0, 1, 2] })), 0);
    is(api.draw(createPart({ verts: [1, 1] })), 0, 'no tris');
    is(api.draw({ vertexCount: 1, tris: {} }), 0, 'tris object has no length');
    throws(() => api.draw({ vertexCount: 1 }), TypeError);
    is(rec.submits.length, 0);
    delete globalThis.engine;
});

test('draw submits the whole flat buffer, index count and texture', () => {
    const rec = recordEngine('RET');
    const api = installMesh({});
    const p = quad({ texture: 4, colors: [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]] });
    is(api.draw(p), 'RET');
    const s = rec.submits[0];
    ok(s.flat instanceof Float32Array, 'Float32Array');
    is(s.flat.length, 8192, 'capacity-sized');
    is(s.count, 6);
    is(s.texture, 4);
    // unrolled by index: 0,1,2,0,2,3
    arrayEq(s.copy.slice(0, 8), [0, 0, 0.5, 0, 0, 1, 2, 3]);
    arrayEq(s.copy.slice(16, 24), [10, 10, 0.5, 1, 1, 7, 8, 9]);
    arrayEq(s.copy.slice(40, 48), [0, 10, 0.5, 0, 1, 10, 11, 12]);
    api.draw(p, null, null, { texture: '9' });
    is(rec.submits[1].texture, 9);
    api.draw(p, null, null, { texture: undefined });
    is(rec.submits[2].texture, 4);
    is(rec.submits[0].flat, rec.submits[2].flat, 'same reusable buffer');
    delete globalThis.engine;
});

test('draw pose selection: rig (pose before rest), posed(), bare pose ignored', () => {
    const rec = recordEngine();
    const api = installMesh({});
    const calls = [];
    const base = createSkeleton({ b: { x: 0, y: 0, length: 10 } });
    const rig = {
        pose(a) { calls.push('pose'); return base.pose(a); },
        rest() { calls.push('rest'); return base.rest(); },
    };
    const p = quad({ bones: ['b', 'b', 'b', 'b'] });
    api.draw(p, { b: PI }, rig);
    json(calls, ['pose', 'rest']);
    near(rec.submits[0].copy[8], -10, 1e-5, 'vertex (10,0) rotated by π');
    api.draw(p, base.pose({ b: PI }));
    is(rec.submits[1].copy[8], 10, 'a bare pose without rig does not deform');
    api.draw(p, api.posed(base, { b: PI }));
    near(rec.submits[2].copy[8], -10, 1e-5, 'posed() deforms');
    const posed = api.posed(base, { b: 1 });
    keys(posed, ['__pose', '__rest']);
    api.draw(p, { __pose: base.pose({ b: PI }) });
    near(rec.submits[3].copy[8], 10, 1e-5, '__rest defaults to __pose: no motion');
    api.draw(p, 5, base);
    is(rec.submits[4].copy[8], 10, 'non-object angles with rig → {}');
    delete globalThis.engine;
});

test('draw grows buffers by doubling; scratch may grow when tris % 3 != 0', () => {
    const rec = recordEngine();
    const api = installMesh({});
    const n = 1025;
    const verts = [];
    for (let i = 0; i < n; i++) verts.push(i, 0);
    const bad = createPart({ verts, tris: [0, 1, 2, 3] });
    is(api.draw(bad), 0);
    is(api.scratchSize(), 16384, 'grew before the %3 check');
    is(api.flatSize(), 8192);
    is(rec.submits.length, 0);
    const tris = [];
    for (let i = 0; i < 1101; i++) tris.push(i % n);
    api.draw(createPart({ verts, tris }));
    is(api.flatSize(), 16384);
    const big = [];
    for (let i = 0; i < 5000; i++) big.push(i, 1);
    api.draw(createPart({ verts: big, tris: [0, 1, 2] }));
    is(api.scratchSize(), 65536, '8192 → 16384 → 32768 → 65536');
    const other = installMesh({});
    is(other.scratchSize(), 8192, 'each install has its own buffers');
    delete globalThis.engine;
});

test('draw: out-of-range index copies NaN; NaN remainder does not stop the draw', () => {
    const rec = recordEngine();
    const api = installMesh({});
    api.draw(createPart({ verts: [1, 2, 3, 4, 5, 6], tris: [0, 1, 5000] }));
    ok(rec.submits[0].copy.slice(16, 24).every((v) => Number.isNaN(v)), 'NaN vertex');
    api.draw(createPart({ verts: [1, 2, 3, 4, 5, 6], tris: [0, 1, 1.5] }));
    arrayEq(rec.submits[1].copy.slice(16, 24), [0, 255, 255, 255, 5, 6, 0.5, 0], 'index 1.5 reads floats 12..19');
    const p = quad();
    p.tris = { length: 'x' };
    const before = api.flatSize();
    is(api.draw(p), 'submitted', 'NaN % 3 is falsy');
    is(rec.submits[2].count, 'x');
    is(api.flatSize(), before, 'NaN keeps flat');
    delete globalThis.engine;
});

test('engine stub: created on demand, exact shape, no submitMesh', () => {
    delete globalThis.engine;
    delete globalThis.__r2d_engine_stub;
    const api = installMesh({});
    is(api.draw(createPart({ verts: [1, 1] })), 0, 'undrawable: no stub');
    ok(!('__r2d_engine_stub' in globalThis));
    is(api.draw(createPart({ verts: [1, 1, 2, 2], tris: [0, 1] })), 0, 'tris % 3 != 0');
    ok('__r2d_engine_stub' in globalThis, 'the stub was created before the % 3 check');
    delete globalThis.__r2d_engine_stub;
    throws(() => api.draw(quad()), TypeError, 'stub lacks submitMesh');
    const stub = globalThis.__r2d_engine_stub;
    keys(stub, ['time', 'dt', 'frame', 'fps', 'seed', 'agent', 'headless', 'paused', 'now', 'log', 'setUpdate', 'setRender',
        'setSnapshot', 'quit', 'setExit', 'markUI', 'setErrorHandler', 'requestReload', 'reloadPending', 'hotReload', 'window',
        'setPosition', 'setAngle', 'bodyCount', 'getVelocity', 'setVelocity', 'applyImpulse', 'setGravityScale', 'createJoint',
        'setAwake', 'setBullet', 'isBullet', 'destroyJoint', 'createBody', 'destroyBody']);
    json([stub.time, stub.dt, stub.frame, stub.fps, stub.seed, stub.agent, stub.headless, stub.paused], [0, 0, 0, 0, 12345, false, false, false]);
    is(stub.now(), 0);
    is(stub.bodyCount(), 0);
    is(stub.reloadPending(), false);
    is(stub.isBullet(), false);
    is(stub.createJoint(), -1);
    is(stub.createBody(), -1);
    json(stub.getVelocity(), [0, 0]);
    ok(stub.getVelocity() !== stub.getVelocity(), 'fresh array');
    is(stub.quit(), undefined);
    keys(stub.window, ['size', 'pixelSize', 'focused', 'visible', 'fullscreen', 'on']);
    json(stub.window.size(), [0, 0]);
    json(stub.window.pixelSize(), [0, 0]);
    is(stub.window.focused(), false);
    is(stub.window.on(), undefined);
    for (const k of Object.keys(stub)) if (typeof stub[k] === 'function') is(stub[k].length, 0, `${k} declares no parameters`);
    const d = Object.getOwnPropertyDescriptor(globalThis, '__r2d_engine_stub');
    ok(d.writable && d.enumerable && d.configurable, 'ordinary assignment');
    throws(() => api.draw(quad()), TypeError);
    is(globalThis.__r2d_engine_stub, stub, 'kept while truthy');
    globalThis.__r2d_engine_stub = 0;
    throws(() => api.draw(quad()), TypeError);
    ok(globalThis.__r2d_engine_stub && globalThis.__r2d_engine_stub !== stub, 'recreated when falsy');
    globalThis.__r2d_engine_stub = { submitMesh: (f, k, t) => `host ${k} ${t}` };
    is(api.draw(quad()), 'host 6 -1', 'host-provided value used');
    globalThis.engine = 5;
    throws(() => api.draw(quad()), TypeError, 'a truthy non-object engine is used as is');
    delete globalThis.engine;
    delete globalThis.__r2d_engine_stub;
});

test('log sink: engine.log, else console.log, never a non-function', () => {
    delete globalThis.engine;
    const api = installMesh({});
    const saved = globalThis.console;
    const got = [];
    globalThis.console = { log: (m) => got.push(m) };
    api.fromSlice(null);
    is(got.length, 1, 'console.log used without engine');
    globalThis.engine = { log: 5 };
    api.fromSlice(null);
    is(got.length, 2, 'engine.log not a function → console');
    globalThis.console = { log: 5 };
    api.fromSlice(null);
    globalThis.console = null;
    api.fromSlice(null);
    globalThis.console = saved;
    delete globalThis.engine;
    ok(!('__r2d_engine_stub' in globalThis), 'log never creates the stub');
});

done('mesh_api');
