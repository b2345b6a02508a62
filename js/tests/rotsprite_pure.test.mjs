// re2d tests: js-rotsprite.md §3 pure functions (normalizeRotPose, rotPixelRect, validation, sampling, model pose, relativeAsset) and their quirks.
import {
    normalizeRotPose, rotPixelRect, validateRotDefinition, validateRotAnimations, sampleRotClip,
    buildRotModelPose, relativeAsset,
} from '../../src/highlevel/rotsprite.js';
import { test, ok, is, near, json, keys, throws, done } from './_harness.mjs';
import { testDefinition } from './_rotmock.mjs';

const def0 = () => ({ version: 1, atlas: 'a.png', rig: { bones: [{ name: 'b' }], parts: [{ id: 1, bone: 'b' }] } });
const withRig = (f) => {
    const d = def0();
    f(d);
    return d;
};

test('normalizeRotPose: wrap, clamp, no -0, spec examples', () => {
    is(normalizeRotPose(360).yaw, 0);
    is(normalizeRotPose(180).yaw, -180);
    is(normalizeRotPose(-540).yaw, -180);
    is(normalizeRotPose(-180.5).yaw, 179.5);
    is(normalizeRotPose(12.5).yaw, 12.5);
    is(normalizeRotPose(720, -90).pitch, -75);
    is(normalizeRotPose(0, 100).pitch, 75);
    is(normalizeRotPose(0, -100).pitch, -75);
    is(normalizeRotPose(-0).yaw, 0);
    is(normalizeRotPose(-360).yaw, 0);
    is(normalizeRotPose(0, -0).pitch, -0);
    json(normalizeRotPose(), { yaw: 0, pitch: 0 });
    keys(normalizeRotPose(1, 2), ['yaw', 'pitch']);
});

test('normalizeRotPose: RangeError for non-numbers and non-finite (null not defaulted)', () => {
    for (const [y, p] of [['5', 0], [null, 0], [0, null], [NaN, 0], [0, Infinity], [-Infinity, 0], [{}, 0], [1n, 0]]) {
        throws(() => normalizeRotPose(y, p), RangeError, `${String(y)},${String(p)}`);
    }
});

test('rotPixelRect: spec example, JS half-up rounding, scale >= 1', () => {
    json(rotPixelRect({ x: 0.5, y: -0.5, w: 64, h: 64 }), { x: 1, y: 0, w: 64, h: 64, scale: 1 });
    // left = round(-32.5) = -32 (not -33), top = round(-31.5) = -31
    json(rotPixelRect({ x: -0.5, y: 0.5, w: 64, h: 64 }), { x: 0, y: 1, w: 64, h: 64, scale: 1 });
    const r = rotPixelRect({ x: 100, y: 50, w: 384, h: 400 }, 128);
    is(r.scale, 3);
    is(r.w, 384);
    is(r.h, 384);
    json(rotPixelRect({ x: 10, y: 10, w: 8, h: 5 }), { x: 10, y: 10, w: 64, h: 64, scale: 1 });
    is(rotPixelRect({ x: 0, y: 0, w: -200, h: 200 }, 64).scale, 3); // round(3.125)
    is(rotPixelRect({ x: 0, y: 0, w: 96, h: 96 }, 64).scale, 2); // round(1.5) = 2
});

test('validateRotDefinition: defaults, key order, portrait defaults, unknown fields kept', () => {
    const src = def0();
    src.rig.bones.push({ name: 'c', parent: 'b', pivot: [1, 2, 3] });
    src.rig.parts[0].bind = { translation: [1, 0, 0], extra: 5 };
    src.animations = 'x.json';
    src.variants = { a: { b: 'c.png' } };
    src.defaults = { motion: 'walk' };
    const before = JSON.stringify(src);
    const d = validateRotDefinition(src);
    is(JSON.stringify(src), before, 'input untouched');
    keys(d, ['version', 'atlas', 'rig', 'animations', 'variants', 'defaults', 'style', 'groups', 'projection', 'emotions']);
    keys(d.rig, ['bones', 'parts', 'joints', 'controls', 'sockets']);
    is(d.style, 'anime');
    json(d.projection, { bodyScale: 1, portraitScale: 2 });
    json(d.defaults, { motion: 'walk' });
    json(d.rig.bones[0], { name: 'b', pivot: [0, 0, 0], portraitPivot: [0, 0, 0] });
    json(d.rig.bones[1], { name: 'c', parent: 'b', pivot: [1, 2, 3], portraitPivot: [1, 2, 3] });
    const bind = { scale: [1, 1, 1], translation: [1, 0, 0], rotation: [0, 0, 0] };
    json(d.rig.parts[0], { id: 1, bone: 'b', bind, portraitBind: bind });
    is(d.animations, 'x.json');
    json(d.variants, { a: { b: 'c.png' } });
    json(d.groups, {});
    json(d.emotions, {});
    ok(d !== src && d.rig !== src.rig);
});

test('validateRotDefinition: class of every rejection', () => {
    const T = TypeError, R = RangeError;
    const cases = [
        [T, (d) => { d.version = 2; }],
        [T, (d) => { d.atlas = ''; }],
        [T, (d) => { d.atlas = 5; }],
        [T, (d) => { d.style = 'cel'; }],
        [T, (d) => { d.rig.bones = []; }],
        [T, (d) => { d.rig.parts = []; }],
        [T, (d) => { d.rig.bones.push({ name: 'x', parent: 'y' }, { name: 'y' }); }],
        [T, (d) => { d.rig.bones[0].parent = 'b'; }],
        [T, (d) => { d.rig.bones.push({ name: 'b' }); }],
        [T, (d) => { d.rig.bones[0].name = '__proto__'; }],
        [T, (d) => { d.rig.bones[0].name = 'x'.repeat(81); }],
        [T, (d) => { d.rig.parts[0].id = 0; }],
        [T, (d) => { d.rig.parts[0].id = 255; }],
        [T, (d) => { d.rig.parts[0].id = 1.5; }],
        [T, (d) => { d.rig.parts.push({ id: 1, bone: 'b' }); }],
        [T, (d) => { d.rig.parts[0].bone = 'nope'; }],
        [T, (d) => { d.rig.bones[0].pivot = [NaN, 0, 0]; }],
        [R, (d) => { d.rig.bones[0].pivot = [1e7, 0, 0]; }],
        [T, (d) => { d.rig.bones[0].pivot = [0, 0]; }],
        [R, (d) => { d.rig.bones[0].pivot = ['1', 0, 0]; }],
        [T, (d) => { d.rig.parts[0].selector = 'nose'; }],
        [T, (d) => { Object.assign(d.rig.parts[0], { selector: 'eyes', variant: 4 }); }],
        [T, (d) => { Object.assign(d.rig.parts[0], { selector: 'eyes' }); }],
        [T, (d) => { d.rig.parts[0].portrait = 'yes'; }],
        [T, (d) => { d.rig.parts[0].oneSided = 1; }],
        [T, (d) => { d.groups = { g: [] }; }],
        [T, (d) => { d.groups = { g: [1, 1] }; }],
        [T, (d) => { d.groups = { g: [2] }; }],
        [T, (d) => { d.groups = JSON.parse('{"__proto__":[1]}'); }],
        [T, (d) => { d.rig.joints = [{ name: 'j', bone: 'x' }]; }],
        [T, (d) => { d.rig.joints = [{ name: 'j', bone: 'b' }, { name: 'j', bone: 'b' }]; }],
        [T, (d) => { d.rig.joints = Array.from({ length: 129 }, (_, i) => ({ name: 'j' + i, bone: 'b' })); }],
        [T, (d) => { d.rig.controls = { c: { bone: 'b', axis: 'w' } }; }],
        [T, (d) => { d.rig.controls = { c: { bone: 'q', axis: 'x' } }; }],
        [R, (d) => { d.projection = { bodyScale: 0 }; }],
        [R, (d) => { d.projection = { portraitScale: 8.5 }; }],
        [R, (d) => { d.projection = { bodyScale: '2' }; }],
        [T, (d) => { d.rig.sockets = [{ name: 's', bone: 'q' }]; }],
        [T, (d) => { d.rig.sockets = [{ name: 's', bone: 'b' }, { name: 's', bone: 'b' }]; }],
        [T, (d) => { d.rig.sockets = [{ name: 's', bone: 'b', portrait: 1 }]; }],
        [T, (d) => { d.defaults = { body: 'yes' }; }],
        [T, (d) => { d.emotions = { e: { eyes: 'wide' } }; }],
        [T, (d) => { d.emotions = { e: { nose: 'open' } }; }],
    ];
    cases.forEach(([cls, f], i) => throws(() => validateRotDefinition(withRig(f)), cls, `case ${i}`));
    throws(() => validateRotDefinition(withRig((d) => { d.emotions = { e: null }; })), TypeError, 'Object.entries(null)');
    throws(() => validateRotDefinition(withRig((d) => { d.projection = 5; })), TypeError, 'default written onto a primitive');
    throws(() => validateRotDefinition(undefined), SyntaxError);
    throws(() => validateRotDefinition(null), TypeError);
    throws(() => validateRotDefinition(withRig((d) => { d.f = () => 1; })), TypeError);
    throws(() => validateRotDefinition(withRig((d) => { d.s = Symbol('x'); })), TypeError);
    throws(() => validateRotDefinition(withRig((d) => { d.n = 1n; })), TypeError);
    throws(() => validateRotDefinition(withRig((d) => { d.self = d; })), TypeError);
});

test('validateRotDefinition: accepted edge values', () => {
    const d = validateRotDefinition(withRig((d) => {
        d.rig.parts[0].variant = 9; // variant without selector is not checked
        d.rig.parts.push({ id: 254, bone: 'b', selector: ['eyes'], variant: 3 });
        d.projection = { bodyScale: 8, portraitScale: 0.5 };
        d.when = new Date(0);
        d.undef = undefined;
        d.list = [undefined, -0];
    }));
    json(d.rig.parts[1].selector, ['eyes'], 'one-element array selector kept');
    is(d.rig.parts[0].variant, 9);
    is(d.when, '1970-01-01T00:00:00.000Z');
    ok(!('undef' in d));
    json(d.list, [null, 0]);
    is(d.list[1], 0);
    for (const v of [5, 's', [1], true]) {
        json(validateRotDefinition(withRig((d) => { d.defaults = v; })).defaults, v, 'only defaults.body is read');
    }
    json(validateRotDefinition(withRig((d) => { d.emotions = 5; d.groups = 5; d.rig.controls = 5; })).emotions, 5);
});

test('validateRotDefinition: numbers survive the Rust round trip bit for bit', () => {
    let seed = 12345;
    const rnd = () => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed / 2147483648;
    };
    for (let k = 0; k < 300; k++) {
        const v = [rnd() * 1000 - 500, rnd() * 1e-3, (rnd() - 0.5) * 1e6 * rnd()];
        const d = validateRotDefinition(withRig((d) => { d.rig.bones[0].pivot = v; }));
        for (let i = 0; i < 3; i++) is(d.rig.bones[0].pivot[i], v[i], `pivot ${k}.${i}`);
    }
    is(validateRotDefinition(withRig((d) => { d.rig.bones[0].pivot = [0.1 + 0.2, 1 / 3, -1e-300]; })).rig.bones[0].pivot[0], 0.30000000000000004);
});

const anims = (clips) => ({ version: 1, clips });
const vdef = () => validateRotDefinition(testDefinition());

test('validateRotAnimations: defaults and accepted array channels', () => {
    const a = validateRotAnimations(anims({
        c: { duration: 1, loop: true, tracks: [
            { target: 'arm', channel: 'rotation.x', keys: [[0, 1]] },
            { target: 'face', channel: 'eyes', keys: [[0, 'half'], [1, 'closed']] },
            { target: 'root', channel: ['translation.y'], keys: [[0.5, 2]] },
        ] },
    }), vdef());
    const t = a.clips.c.tracks;
    is(t[0].interpolation, 'linear');
    is(t[1].interpolation, 'step');
    json(t[2].channel, ['translation.y']);
    keys(t[0], ['target', 'channel', 'keys', 'interpolation']);
});

test('validateRotAnimations: rejections and classes', () => {
    const d = vdef();
    const tr = (x) => anims({ c: { duration: 1, loop: false, tracks: [{ target: 'arm', channel: 'rotation.z', keys: [[0, 0]], ...x }] } });
    const T = TypeError, R = RangeError;
    const cases = [
        [T, null], [T, { version: 2, clips: {} }], [T, { version: 1, clips: [] }], [T, { version: 1 }],
        [T, anims(Object.fromEntries(Array.from({ length: 65 }, (_, i) => ['c' + i, { duration: 1, loop: true, tracks: [] }])))],
        [T, anims({ c: { duration: 0, loop: true, tracks: [] } })],
        [T, anims({ c: { duration: -1, loop: true, tracks: [] } })],
        [R, anims({ c: { duration: '1', loop: true, tracks: [] } })],
        [T, anims({ c: { duration: 1, loop: 1, tracks: [] } })],
        [T, anims({ c: { duration: 1, loop: true, tracks: {} } })],
        [T, tr({ target: 'leg' })],
        [T, tr({ channel: 'rotation.w' })],
        [T, tr({ channel: 'scale.x' })],
        [T, tr({ target: 'face', channel: 'rotation.x' })],
        [T, tr({ target: 'face', channel: 'nose', interpolation: 'step', keys: [[0, 'open']] })],
        [T, tr({ target: 'face', channel: 'eyes', interpolation: 'linear', keys: [[0, 'open']] })],
        [T, tr({ target: 'face', channel: 'eyes', keys: [[0, 'wide']] })],
        [T, tr({ interpolation: 'cubic' })],
        [T, tr({ keys: [] })],
        [T, tr({ keys: [[0]] })],
        [R, tr({ keys: [[0, 0], [0, 1]] })],
        [R, tr({ keys: [[0.5, 0], [0.25, 1]] })],
        [R, tr({ keys: [[-1, 0]] })],
        [R, tr({ keys: [[2, 0]] })],
        [R, tr({ keys: [[0, '1']] })],
        [R, tr({ keys: [['0', 1]] })],
    ];
    cases.forEach(([cls, a], i) => throws(() => validateRotAnimations(a, d), cls, `case ${i}`));
    const dup = anims({ c: { duration: 1, loop: true, tracks: [
        { target: 'arm', channel: 'rotation.z', keys: [[0, 0]] },
        { target: 'arm', channel: ['rotation.z'], keys: [[0, 0]] },
    ] } });
    throws(() => validateRotAnimations(dup, d), TypeError, 'array channel collides with the string channel');
    throws(() => validateRotAnimations(undefined, d), SyntaxError);
    throws(() => validateRotAnimations(anims({ c: null }), d), TypeError, 'null clip');
    throws(() => validateRotAnimations(anims({ c: 5 }), d), RangeError, '(5).duration is undefined');
});

test('sampleRotClip: linear, loop, one-shot end, face step, first key, quirks', () => {
    const clip = { duration: 2, loop: true, tracks: [
        { target: 'arm', channel: 'rotation.z', interpolation: 'linear', keys: [[0.5, 10], [1.5, 30]] },
        { target: 'face', channel: 'eyes', interpolation: 'step', keys: [[0, 'open'], [1, 'closed']] },
    ] };
    json(sampleRotClip(clip, 1), { bones: { arm: { 'rotation.z': 20 } }, face: { eyes: 'closed' }, time: 1, ended: false });
    is(sampleRotClip(clip, 0.25).bones.arm['rotation.z'], 10, 'before first key');
    is(sampleRotClip(clip, 1.75).bones.arm['rotation.z'], 30, 'after last key');
    is(sampleRotClip(clip, 3).time, 1, 'loop mod duration');
    is(sampleRotClip(clip, 3).bones.arm['rotation.z'], 20);
    is(sampleRotClip(clip, 0.99).face.eyes, 'open', 'face is step');
    const once = { ...clip, loop: false };
    json(sampleRotClip(once, 5), { bones: { arm: { 'rotation.z': 30 } }, face: { eyes: 'closed' }, time: 2, ended: true });
    is(sampleRotClip(once, 2).ended, true);
    is(sampleRotClip(once, 1.999).ended, false);
    const noInterp = { duration: 2, loop: false, tracks: [{ target: 'a', channel: 'x', keys: [[0, 0], [2, 10]] }] };
    is(sampleRotClip(noInterp, 1).bones.a.x, 0, 'missing interpolation = step');
    throws(() => sampleRotClip(clip, -1), RangeError);
    throws(() => sampleRotClip(clip, '1'), RangeError);
    throws(() => sampleRotClip(clip, 2e6), RangeError);
    const proto = { duration: 1, loop: false, tracks: [{ target: '__proto__', channel: 'q_r2d', keys: [[0, 5]] }] };
    sampleRotClip(proto, 0);
    is(({}).q_r2d, 5, '__proto__ target writes into Object.prototype');
    delete Object.prototype.q_r2d;
});

test('buildRotModelPose: record layout, ancestor rotation, pivots, visibility, scale', () => {
    const d = validateRotDefinition(testDefinition({ projection: { bodyScale: 1.5, portraitScale: 3 } }));
    const p0 = buildRotModelPose(d);
    keys(p0, ['records', 'bones', 'scale']);
    is(p0.scale, 1.5);
    json(p0.records.map((r) => r.slice(0, 5)), [[7, 0, 0, 0, 1], [9, 1, 1, 0, 1], [12, 0, 0, 1, 1]]);
    json(p0.records[0].slice(5), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]);
    is(p0.records[0].length, 17);
    // rotate root by 90° about Z (pivot 0): arm bone and its parts carry [cos, -sin; sin, cos]
    const p = buildRotModelPose(d, {}, {}, { root: { 'rotation.z': 90 } });
    for (const m of [p.bones.arm, p.records[1].slice(5), p.records[2].slice(5)]) {
        near(m[0], 0, 1e-12); near(m[1], -1, 1e-12); near(m[4], 1, 1e-12); near(m[5], 0, 1e-12);
    }
    // the hand joint (20,0,0) rotates about the root pivot (0,0,0) → (0,20,0)
    const a = p.bones.arm;
    near(a[0] * 20 + a[3], 0, 1e-9);
    near(a[4] * 20 + a[7], 20, 1e-9);
    // rotation about the arm's own pivot (10,0,0): (20,0,0) → (10,10,0)
    const q = buildRotModelPose(d, { bones: { arm: { 'rotation.z': 90 } } }).bones.arm;
    near(q[0] * 20 + q[3], 10, 1e-9);
    near(q[4] * 20 + q[7], 10, 1e-9);
    // visibleParts hides without removing bones
    const v = buildRotModelPose(d, {}, {}, {}, [9]);
    json(v.records.map((r) => r[4]), [0, 1, 0]);
    json(Object.keys(v.bones), ['root', 'arm']);
    // portrait: only portrait parts visible, portraitScale
    const pt = buildRotModelPose(d, {}, { body: false });
    json(pt.records.map((r) => r[4]), [0, 0, 1]);
    is(pt.scale, 3);
});

test('buildRotModelPose: controls add, overrides replace, portrait pivots, selector quirks', () => {
    const d = validateRotDefinition(testDefinition());
    d.rig.bones[1].portraitPivot = [0, 0, 0];
    const sample = { bones: { arm: { 'rotation.z': 30, 'translation.y': 4 } } };
    const add = buildRotModelPose(d, sample, { lift: 60 }).bones.arm;
    near(add[0], 0, 1e-12, 'clip 30 + control 60 = 90');
    const rep = buildRotModelPose(d, sample, { lift: 60 }, { arm: { 'rotation.z': 0 } }).bones.arm;
    near(rep[0], Math.cos(Math.PI / 3), 1e-12, 'override 0 + control 60');
    near(rep[7], 4 - 10 * Math.sin(Math.PI / 3), 1e-12, 'clip translation kept: pivot.y + t.y - sin60·pivot.x');
    // portrait pivot (0,0,0) vs body pivot (10,0,0): 180° about Z
    const body = buildRotModelPose(d, {}, {}, { arm: { 'rotation.z': 180 } }).bones.arm;
    const por = buildRotModelPose(d, {}, { body: false }, { arm: { 'rotation.z': 180 } }).bones.arm;
    near(body[3], 20, 1e-9);
    near(por[3], 0, 1e-9);
    const odd = JSON.parse(JSON.stringify(d));
    odd.rig.parts[0].selector = ['mouth'];
    odd.rig.parts[1].selector = 'face';
    odd.rig.parts[1].variant = 'two';
    const r = buildRotModelPose(odd).records;
    is(r[0][1], -1);
    is(r[1][1], -1);
    is(r[1][2], 'two');
});

test('relativeAsset: spec examples', () => {
    is(relativeAsset('models/prop.json', 'prop.png'), 'models/prop.png');
    is(relativeAsset(null, 'a.png'), 'a.png');
    is(relativeAsset('/abs/m.json', '../x.png'), '/x.png');
    is(relativeAsset('a//b/c.json', './d/../e.png'), 'a/b/e.png');
    is(relativeAsset('./m/x.json', 'a.png'), './m/a.png');
    is(relativeAsset(5, '/a.png'), '/a.png');
    is(relativeAsset(undefined, 'q/r.png'), 'q/r.png');
    for (const f of [0, false, NaN, '']) is(relativeAsset(f, 'a.png'), 'a.png');
    throws(() => relativeAsset('a.json', '../x'), RangeError);
    throws(() => relativeAsset(0, '../a.png'), RangeError);
    for (const f of [5, true, ['m/x.json'], {}]) throws(() => relativeAsset(f, 'a.png'), TypeError);
    throws(() => relativeAsset('a.json', ''), TypeError);
    throws(() => relativeAsset('a.json', 5), TypeError);
});

done('rotsprite_pure');
