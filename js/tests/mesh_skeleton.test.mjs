// re2d tests: js-mesh.md §5 createSkeleton (ordering, pose, rest, tip) and the skeleton log line (§9).
import { createSkeleton, normalizeAngle } from 're2d/mesh';
import { test, ok, is, near, json, keys, done, recordEngine } from './_harness.mjs';

const PI = Math.PI;

test('child-first spec yields ancestor-first order; names/bones', () => {
    const rig = createSkeleton({ wrist: { parent: 'elbow' }, elbow: { parent: 'base' }, base: {} });
    json(rig.bones(), ['base', 'elbow', 'wrist']);
    ok(Array.isArray(rig.names), 'names is an array');
    json(rig.names, ['base', 'elbow', 'wrist']);
    ok(rig.bones() !== rig.bones(), 'bones() returns a new array each call');
    const b = rig.bones();
    b.push('x');
    json(rig.bones(), ['base', 'elbow', 'wrist'], 'copy');
    keys(rig, ['names', 'bones', 'spec', 'rest', 'pose', 'tip']);
});

test('roots come out in reverse key order; siblings of a later pass', () => {
    json(createSkeleton({ a: {}, b: {} }).bones(), ['b', 'a']);
    json(createSkeleton({ a: {}, b: { parent: 'a' }, c: { parent: 'a' } }).bones(), ['a', 'c', 'b']);
    json(createSkeleton({ 2: {}, 1: {}, z: {} }).bones(), ['z', '2', '1'], 'integer keys first, walked backwards');
    json(createSkeleton({ a: { parent: '' }, b: { parent: 0 }, c: { parent: null } }).bones(), ['c', 'b', 'a'], 'falsy parents are roots');
});

test('missing parent / cycle: leftovers appended in pending order, one log per stalled pass', () => {
    const rec = recordEngine();
    json(createSkeleton({ x: { parent: 'nope' }, r: {}, y: { parent: 'x' } }).bones(), ['r', 'x', 'y']);
    is(rec.logs.length, 1, 'one log line');
    json(createSkeleton({ a: { parent: 'b' }, b: { parent: 'a' } }).bones(), ['a', 'b']);
    is(rec.logs.length, 2);
    json(createSkeleton({ a: {} }).bones(), ['a']);
    is(rec.logs.length, 2, 'no log when ordering succeeds');
    delete globalThis.engine;
});

test('numeric parent never matches in ordering but is found by pose', () => {
    const rec = recordEngine();
    const rig = createSkeleton({ 1: { x: 2, length: 3 }, a: { parent: 1 } });
    json(rig.bones(), ['1', 'a']);
    is(rec.logs.length, 1);
    const rest = rig.rest();
    is(rest.a.x, 5, 'out[1] is the bone "1"');
    is(rest.a.y, 0);
    delete globalThis.engine;
});

test('rest places a child at its parent tip', () => {
    const rig = createSkeleton({ base: { x: 50, y: -10, length: 15 }, limb: { parent: 'base', length: 5 } });
    const r = rig.rest();
    json(r.base, { x: 50, y: -10, angle: 0 });
    json(r.limb, { x: 65, y: -10, angle: 0 });
    is(Object.getPrototypeOf(r), null, 'prototype-less');
    json(Object.keys(r), ['base', 'limb']);
    ok(rig.rest() !== r, 'recomputed on every call');
});

test('pose adds angles; children normalized, roots not; only roots read x/y', () => {
    const rig = createSkeleton({ root: { angle: 3, x: '4', y: null, length: 10 }, arm: { parent: 'root', angle: 0.5, x: 99, y: 99 } });
    const p = rig.pose({ root: 1 });
    is(p.root.angle, 4, 'root: rest + additive, not normalized');
    is(p.root.x, 4);
    is(p.root.y, 0);
    is(p.arm.angle, normalizeAngle(4.5));
    near(p.arm.angle, 4.5 - 2 * PI, 1e-15);
    is(p.arm.x, 4 + Math.cos(4) * 10, 'child at parent tip from the parent world angle');
    is(p.arm.y, Math.sin(4) * 10);
    keys(p.arm, ['x', 'y', 'angle']);
});

test('additive angle moves only that bone and its descendants', () => {
    const rig = createSkeleton({ a: { length: 10 }, b: { parent: 'a', length: 10 }, c: { parent: 'b', length: 10 }, d: { length: 1 } });
    const rest = rig.rest();
    const p = rig.pose({ b: 0.3 });
    json(p.a, rest.a);
    json(p.d, rest.d);
    json(p.b, { x: 10, y: 0, angle: 0.3 });
    is(p.c.angle, 0.3);
    is(p.c.x, 10 + Math.cos(0.3) * 10);
    is(p.c.y, Math.sin(0.3) * 10);
});

test('pose coercion of angles and non-object argument', () => {
    const rig = createSkeleton({ a: { angle: '0.5' } });
    is(rig.pose({ a: '0.25' }).a.angle, 0.75);
    is(rig.pose({ a: 'abc' }).a.angle, 0.5);
    is(rig.pose(5).a.angle, 0.5);
    is(rig.pose(null).a.angle, 0.5);
    const fn = () => 0;
    fn.a = 1;
    is(rig.pose(fn).a.angle, 0.5, 'functions are not objects for pose');
    is(rig.pose([]).a.angle, 0.5);
    is(createSkeleton({ a: { length: Infinity }, b: { parent: 'a' } }).rest().b.x, 0, 'non-finite length → 0');
});

test('tip', () => {
    const rig = createSkeleton({ limb: { x: 1, y: 2, length: 3 } });
    json(rig.tip(rig.rest(), 'limb'), { x: 4, y: 2 });
    is(rig.tip(rig.rest(), 'nope'), null);
    is(rig.tip(null, 'limb'), null);
    const p = rig.pose({ limb: PI / 2 });
    near(rig.tip(p, 'limb').x, 1, 1e-15);
    is(rig.tip(p, 'limb').y, 5);
});

test('spec() is the caller object and later mutation is visible', () => {
    const spec = { base: { x: 1 } };
    const rig = createSkeleton(spec);
    is(rig.spec(), spec);
    spec.base.x = 7;
    is(rig.rest().base.x, 7);
    json(rig.bones(), ['base'], 'order fixed at creation');
    const e = createSkeleton(5);
    json(e.bones(), []);
    ok(typeof e.spec() === 'object' && e.spec() !== null, 'internal {} for a non-object spec');
    json(createSkeleton(['r', 's']).bones(), ['1', '0'], 'arrays are objects; keys are indices');
});

test('pose is re-entrant (a spec getter may pose again)', () => {
    let rig = null;
    let inner = null;
    let started = false;
    const spec = { a: { x: 1, length: 2 }, b: { parent: 'a', get angle() { if (!started) { started = true; inner = rig.pose({ a: 1 }); } return 0.5; } } };
    rig = createSkeleton(spec);
    const p = rig.pose({});
    json(p.b, { x: 3, y: 0, angle: 0.5 });
    json(inner.a, { x: 1, y: 0, angle: 1 });
    json(inner.b, { x: 1 + Math.cos(1) * 2, y: Math.sin(1) * 2, angle: 1.5 });
    json(rig.pose({}).b, { x: 3, y: 0, angle: 0.5 }, 'scratch still consistent');
});

done('mesh_skeleton');
