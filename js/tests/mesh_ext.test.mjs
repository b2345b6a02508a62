// re2d tests: extensions beyond the engine — `opts.limits` in $.mesh.ik and `blend: 'rigid'` parts.
import { installMesh, createSkeleton, createPart, deformPart, normalizeAngle } from 're2d/mesh';
import { test, ok, is, near, json, throws, done, recordEngine } from './_harness.mjs';

const PI = Math.PI;
const api = installMesh({});
const arm = () => createSkeleton({ base: { x: 0, y: 0, length: 10 }, arm: { parent: 'base', length: 10 } });

test('limits that do not bind change nothing', () => {
    const rig = arm();
    const free = api.ik(rig, {}, { x: 12, y: 7 }, { chain: ['base', 'arm'] });
    const wide = api.ik(rig, {}, { x: 12, y: 7 }, { chain: ['base', 'arm'], limits: { base: [-3, 3], arm: [-3, 3] } });
    json(wide, free);
    const three = createSkeleton({ a: { length: 10 }, b: { parent: 'a', length: 10 }, c: { parent: 'b', length: 10 } });
    const f3 = api.ik(three, {}, { x: 5, y: 20 }, { chain: ['a', 'b', 'c'] });
    json(api.ik(three, {}, { x: 5, y: 20 }, { chain: ['a', 'b', 'c'], limits: { zz: [0, 0] } }), f3, 'limits on other bones');
    json(api.ik(three, {}, { x: 5, y: 20 }, { chain: ['a', 'b', 'c'], limits: {} }), f3);
});

test('two-bone: clamped first joint, re-aimed second, reached is the truth', () => {
    // Target (0,10): free solution has base at 150° (bend +1) or 30° (bend -1);
    // limiting base to [-0.5, 0.5] clamps both to 0.5 rad, and the arm
    // re-aimed from the elbow (10cos .5, 10sin .5) falls short by ≈0.204.
    const rig = arm();
    const r = api.ik(rig, {}, { x: 0, y: 10 }, { chain: ['base', 'arm'], limits: { base: [-0.5, 0.5] } });
    near(r.angles.base, 0.5, 1e-12);
    const ex = 10 * Math.cos(0.5), ey = 10 * Math.sin(0.5);
    near(r.distance, Math.hypot(0 - ex, 10 - ey) - 10, 1e-9);
    is(r.reached, false);
    json(rig.tip(rig.pose(r.angles), 'arm'), r.tip);
});

test('two-bone: a limit met by the other elbow side is reached', () => {
    // Target (10,10): bend +1 gives arm −π/2, bend −1 gives arm +π/2.
    const rig = arm();
    const r = api.ik(rig, {}, { x: 10, y: 10 }, { chain: ['base', 'arm'], limits: { arm: [0, 2] } });
    near(r.angles.base, 0, 1e-9);
    near(r.angles.arm, PI / 2, 1e-9);
    is(r.reached, true);
    ok(r.distance < 1e-6);
});

test('two-bone: limit on the second joint only', () => {
    const rig = arm();
    const r = api.ik(rig, {}, { x: 5, y: 5 }, { chain: ['base', 'arm'], limits: { arm: [-0.2, 0.2] } });
    ok(r.angles.arm >= -0.2 - 1e-12 && r.angles.arm <= 0.2 + 1e-12, `arm ${r.angles.arm}`);
    // a 0.2 rad bend cannot fold a 10+10 arm to reach a point at distance √50
    is(r.reached, false);
    ok(r.distance > 1, 'honest distance');
});

test('FABRIK: every joint stays inside its limits; unreachable reported', () => {
    const three = createSkeleton({ a: { length: 10 }, b: { parent: 'a', length: 10 }, c: { parent: 'b', length: 10 } });
    const lim = { a: [-0.3, 0.3], b: [-0.3, 0.3], c: [-0.3, 0.3] };
    // at most 0.9 rad of total turn: (0, 25) at 90° is out of reach
    const r = api.ik(three, {}, { x: 0, y: 25 }, { chain: ['a', 'b', 'c'], limits: lim });
    for (const k of ['a', 'b', 'c']) ok(Math.abs(r.angles[k]) <= 0.3 + 1e-9, `${k} = ${r.angles[k]}`);
    is(r.reached, false);
    ok(r.distance > 5);
    // (5, 20): the free solution bends b by ≈1.70 rad; with ±1.5 the chain can
    // still fold to any distance in [≈11.4, 30], so the clamped re-solve reaches it.
    const free = api.ik(three, {}, { x: 5, y: 20 }, { chain: ['a', 'b', 'c'] });
    ok(Math.abs(free.angles.b) > 1.5, 'the free solution breaks the limit');
    const l15 = { a: [-1.5, 1.5], b: [-1.5, 1.5], c: [-1.5, 1.5] };
    const g = api.ik(three, {}, { x: 5, y: 20 }, { chain: ['a', 'b', 'c'], limits: l15 });
    for (const k of ['a', 'b', 'c']) ok(Math.abs(g.angles[k]) <= 1.5 + 1e-9, `${k} = ${g.angles[k]}`);
    is(g.reached, true);
    ok(g.distance <= 0.5 + 1e-9, 'tip within tolerance');
    // (15, 12) at 19.2: bends of at most 1 rad cannot fold the chain below ≈20.8
    const far = api.ik(three, {}, { x: 15, y: 12 }, { chain: ['a', 'b', 'c'], limits: { a: [-1, 1], b: [-1, 1], c: [-1, 1] } });
    is(far.reached, false);
    ok(far.distance > 1, 'honest distance');
});

test('FABRIK: chain of 1 with a limit', () => {
    const one = createSkeleton({ a: { length: 10 } });
    const r = api.ik(one, {}, { x: 0, y: 10 }, { chain: ['a'], limits: { a: [-1, 1] } });
    near(r.angles.a, 1, 1e-12);
    is(r.reached, false);
    near(r.distance, Math.hypot(10 * Math.cos(1), 10 - 10 * Math.sin(1)), 1e-9);
});

test('limits with a hole in the chain: NaN length, no conversion error', () => {
    const rig = createSkeleton({ a: { length: 5 } });
    const r = api.ik(rig, {}, { x: 7, y: 3 }, { chain: ['a', ,], limits: { a: [0, 1] } });
    json(Object.keys(r.angles), ['a', 'undefined']);
    is(r.tip, null);
    is(r.distance, Infinity);
});

test('bad limits throw', () => {
    const rig = arm();
    throws(() => api.ik(rig, {}, { x: 1, y: 1 }, { chain: ['base', 'arm'], limits: { base: 5 } }), TypeError);
    throws(() => api.ik(rig, {}, { x: 1, y: 1 }, { chain: ['base', 'arm'], limits: { base: [1] } }), TypeError);
    throws(() => api.ik(rig, {}, { x: 1, y: 1 }, { chain: ['base', 'arm'], limits: { base: [1, 0] } }), RangeError);
    throws(() => api.ik(rig, {}, { x: 1, y: 1 }, { chain: ['base', 'arm'], limits: { base: [0, 'x'] } }), RangeError);
});

// Upper bone static, lower bone rotated by θ about the joint (10, 0); a vertex
// 4 units past the joint weighted 50/50.
const limb = createSkeleton({ upper: { x: 0, y: 0, length: 10 }, lower: { parent: 'upper', length: 10 } });
function halfWeight(blend, theta, out) {
    const part = createPart({ verts: [14, 0], weights: [['upper', 0.5, 'lower', 0.5]], blend });
    deformPart(part, limb.pose({ lower: theta }), limb.rest(), out);
    return [out[0], out[1]];
}

test("blend 'rigid' keeps the distance from the joint at 150° and 180°", () => {
    for (const deg of [150, 180]) {
        const th = (deg * PI) / 180;
        const [x, y] = halfWeight('rigid', th, new Float32Array(8));
        near(Math.hypot(x - 10, y), 4, 1e-5, `rigid ${deg}° distance`);
        near(x, 10 + 4 * Math.cos(th / 2), 1e-5, `rigid ${deg}° x at half angle`);
        near(y, 4 * Math.sin(th / 2), 1e-5, `rigid ${deg}° y at half angle`);
        const [lx, ly] = halfWeight(undefined, th, new Float32Array(8));
        near(Math.hypot(lx - 10, ly), 4 * Math.cos(th / 2), 1e-5, `linear ${deg}° collapses`);
        const [jx, jy] = halfWeight('rigid', th, new Array(8));
        near(jx, x, 1e-5, 'JS fallback path agrees');
        near(jy, y, 1e-5);
    }
});

test("blend 'rigid' single-bone vertices equal linear; default untouched; draw uses it", () => {
    const spec = { verts: [14, 0, 3, 1], weights: [['lower', 1], ['upper', 1]], tris: [0, 1, 1] };
    const a = new Float32Array(16), b = new Float32Array(16);
    deformPart(createPart({ ...spec, blend: 'rigid' }), limb.pose({ lower: 2 }), limb.rest(), a);
    deformPart(createPart(spec), limb.pose({ lower: 2 }), limb.rest(), b);
    json(Array.from(a), Array.from(b));
    ok(!('blend' in createPart({ blend: 'rigid' })), 'record keys unchanged');
    const rec = recordEngine();
    api.draw(createPart({ verts: [14, 0], weights: [['upper', 0.5, 'lower', 0.5]], tris: [0, 0, 0], blend: 'rigid' }), { lower: PI }, limb);
    near(Math.hypot(rec.submits[0].copy[0] - 10, rec.submits[0].copy[1]), 4, 1e-5);
    delete globalThis.engine;
});

test("blend 'rigid': the native pass and the JS per-vertex path agree bit for bit", () => {
    let a = 0x9e3779b9;
    const r = () => ((a = (Math.imul(a ^ (a >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 4294967296);
    for (let c = 0; c < 200; c++) {
        const n = 1 + Math.floor(r() * 6);
        const verts = [], weights = [];
        for (let i = 0; i < n; i++) {
            verts.push(r() * 30 - 5, r() * 10 - 5);
            weights.push(r() < 0.2 ? ['upper', r()] : ['upper', r(), r() < 0.2 ? 'ghost' : 'lower', r() < 0.1 ? 0 : r()]);
        }
        const part = createPart({ verts, weights, blend: 'rigid' });
        const pose = limb.pose({ upper: r() * 6 - 3, lower: r() * 6 - 3 }), rest = limb.rest();
        const f = new Float32Array(8 * n), j = new Array(8 * n);
        deformPart(part, pose, rest, f);
        deformPart(part, pose, rest, j);
        for (let i = 0; i < 8 * n; i++) is(f[i], Math.fround(j[i]), `case ${c} [${i}]`);
    }
});

done('mesh_ext');
