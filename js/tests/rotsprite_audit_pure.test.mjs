// re2d tests: adversarial second reading of js-rotsprite.md §2–§4 (error classes, check order, cloneData, defaults, sampling, records).
// Expected values come from the spec text or hand computation.
import {
    normalizeRotPose, rotPixelRect, validateRotDefinition, validateRotAnimations, sampleRotClip,
    buildRotModelPose, relativeAsset,
} from '../../src/highlevel/rotsprite.js';
import { test, ok, is, near, json, keys, throws, done } from './_harness.mjs';

function base(extra = {}) {
    return {
        version: 1,
        atlas: 'a.png',
        rig: {
            bones: [{ name: 'root' }, { name: 'arm', parent: 'root', pivot: [1, 2, 3] }],
            parts: [{ id: 6, bone: 'root' }, { id: 16, bone: 'arm', selector: 'eyes', variant: 1 }],
        },
        ...extra,
    };
}
function withRig(rigExtra, extra = {}) {
    const d = base(extra);
    Object.assign(d.rig, rigExtra);
    return d;
}
const V = validateRotDefinition;
const exact = (fn, Type, msg) => {
    const e = throws(fn, Type, msg);
    is(Object.getPrototypeOf(e), Type.prototype, `${msg}: exact class`);
};

test('normalizeRotPose: classes and literal formula', () => {
    exact(() => normalizeRotPose(null), RangeError, 'null yaw');
    exact(() => normalizeRotPose(0, null), RangeError, 'null pitch');
    exact(() => normalizeRotPose('10'), RangeError, 'string yaw');
    exact(() => normalizeRotPose(10n), RangeError, 'bigint yaw');
    exact(() => normalizeRotPose(0, Infinity), RangeError, 'inf pitch');
    exact(() => normalizeRotPose(new Number(5)), RangeError, 'Number object');
    json(normalizeRotPose(), { yaw: 0, pitch: 0 });
    json(normalizeRotPose(undefined, 20), { yaw: 0, pitch: 20 });
    is(normalizeRotPose(-0).yaw, 0);
    is(normalizeRotPose(0, -0).pitch, -0);
    is(normalizeRotPose(540).yaw, -180);
    is(normalizeRotPose(-180).yaw, -180);
    is(normalizeRotPose(179.75).yaw, 179.75);
    is(normalizeRotPose(-720.5).yaw, -0.5);
    is(normalizeRotPose(1e9).yaw, ((1e9 % 360 + 540) % 360) - 180);
    is(normalizeRotPose(0, 75.5).pitch, 75);
    keys(normalizeRotPose(1, 2), ['yaw', 'pitch']);
});

test('rotPixelRect: spec examples and rounding', () => {
    json(rotPixelRect({ x: 100, y: 100, w: 384, h: 400 }, 128), { x: 100, y: 100, w: 384, h: 384, scale: 3 });
    // min(|w|,|h|)/raster = 96/64 = 1.5 → round 2; size 128; left = round(10 - 64) = -54
    json(rotPixelRect({ x: 10, y: -10.5, w: -96, h: 200 }), { x: 10, y: -10, w: 128, h: 128, scale: 2 });
    // round(-2.5) = -2: x = -2.5 + 32 → left = round(-34.5) = -34 → x = -2
    json(rotPixelRect({ x: -2.5, y: 0, w: 10, h: 10 }), { x: -2, y: 0, w: 64, h: 64, scale: 1 });
    json(rotPixelRect({ x: 0, y: 0, w: 0, h: 0 }, 128), { x: 0, y: 0, w: 128, h: 128, scale: 1 });
    keys(rotPixelRect({ x: 0, y: 0, w: 1, h: 1 }), ['x', 'y', 'w', 'h', 'scale']);
});

test('cloneData through validateRotDefinition: classes and conversions', () => {
    exact(() => V(undefined), SyntaxError, 'undefined root');
    exact(() => V(), SyntaxError, 'no argument');
    exact(() => V(null), TypeError, 'null');
    exact(() => V(0), TypeError, 'zero');
    exact(() => V(() => 1), TypeError, 'function root');
    exact(() => V(Symbol('x')), TypeError, 'symbol root');
    exact(() => V(base({ extra: { f() {} } })), TypeError, 'function in unknown field');
    exact(() => V(base({ extra: [Symbol('s')] })), TypeError, 'symbol array entry');
    exact(() => V(base({ extra: 10n })), TypeError, 'bigint');
    const cyc = base();
    cyc.extra = { cyc };
    exact(() => V(cyc), TypeError, 'cycle');
    exact(() => V(base({ extra: NaN })), TypeError, 'NaN in unknown field');
    exact(() => V(base({ extra: [-Infinity] })), TypeError, '-Infinity entry');
    const p = base();
    p.rig.bones[0].pivot = [NaN, 0, 0];
    exact(() => V(p), TypeError, 'NaN pivot');
    p.rig.bones[0].pivot = [1e7, 0, 0];
    exact(() => V(p), RangeError, '1e7 pivot');
    const src = base({
        when: new Date(0), map: new Map([[1, 2]]), set: new Set([1]), gone: undefined, arr: [undefined, -0, 1.5],
        proto: Object.create({ inherited: 1 }),
    });
    const d = V(src);
    is(d.when, '1970-01-01T00:00:00.000Z');
    json(d.map, {});
    json(d.set, {});
    ok(!('gone' in d), 'undefined property vanishes');
    is(d.arr[0], null);
    is(d.arr[1], 0);
    is(d.arr[2], 1.5);
    json(d.proto, {});
    // input never mutated
    ok(!('style' in src) && !('groups' in src) && !('pivot' in src.rig.bones[0]), 'input untouched');
    ok(d.rig !== src.rig);
    // toJSON runs before the replacer
    const withJson = base({ extra: { toJSON: () => 'x' } });
    is(V(withJson).extra, 'x');
});

test('validateRotDefinition: defaults appended in order, existing positions kept', () => {
    const src = base({ emotions: { a: {} }, projection: { portraitScale: 3 }, defaults: null });
    src.rig.sockets = null;
    src.rig.parts[0].portraitBind = { rotation: [0, 0, 5], extra: 1 };
    src.rig.parts[0].bind = null;
    const d = V(src);
    keys(d, ['version', 'atlas', 'rig', 'emotions', 'projection', 'defaults', 'style', 'groups']);
    keys(d.rig, ['bones', 'parts', 'sockets', 'joints', 'controls']);
    keys(d.projection, ['portraitScale', 'bodyScale']);
    json(d.projection, { portraitScale: 3, bodyScale: 1 });
    json(d.defaults, {});
    keys(d.rig.bones[1], ['name', 'parent', 'pivot', 'portraitPivot']);
    json(d.rig.bones[1].portraitPivot, [1, 2, 3]);
    ok(d.rig.bones[1].portraitPivot !== d.rig.bones[1].pivot, 'portraitPivot is a copy');
    keys(d.rig.parts[0], ['id', 'bone', 'portraitBind', 'bind']);
    json(d.rig.parts[0].bind, { scale: [1, 1, 1], translation: [0, 0, 0], rotation: [0, 0, 0] });
    json(d.rig.parts[0].portraitBind, { scale: [1, 1, 1], translation: [0, 0, 0], rotation: [0, 0, 5] });
    // portraitBind defaults to the normalized bind
    json(d.rig.parts[1].portraitBind, d.rig.parts[1].bind);
    is(d.rig.parts[1].selector, 'eyes');
    ok(!('portrait' in d.rig.parts[1]) && !('oneSided' in d.rig.parts[1]), 'flags not defaulted');
    const d2 = V(base({ style: null }));
    is(d2.style, 'anime');
    keys(d2, ['version', 'atlas', 'rig', 'style', 'groups', 'projection', 'defaults', 'emotions']);
});

test('validateRotDefinition: first failure wins across steps (class tells which)', () => {
    // step 4 (RangeError pivot) before step 5 (TypeError part id)
    let d = base();
    d.rig.bones[1].pivot = [0, 2e6, 0];
    d.rig.parts[0].id = 0;
    exact(() => V(d), RangeError, 'bone pivot before part id');
    // step 5 (TypeError) before step 9 (RangeError projection)
    d = base({ projection: { bodyScale: 0 } });
    d.rig.parts[1].selector = 'nose';
    exact(() => V(d), TypeError, 'selector before projection');
    // part bind (RangeError) before part selector (TypeError) in one part
    d = base();
    d.rig.parts[1].bind = { translation: [0, 0, 1e7] };
    d.rig.parts[1].selector = 'nose';
    exact(() => V(d), RangeError, 'bind before selector');
    // step 6 groups (TypeError) before step 7 joint point (RangeError)
    d = withRig({ joints: [{ name: 'j', bone: 'root', point: [2e6, 0, 0] }] }, { groups: { g: [99] } });
    exact(() => V(d), TypeError, 'groups before joints');
    // step 7 joint point (RangeError) before step 8 controls (TypeError)
    d = withRig({ joints: [{ name: 'j', bone: 'root', point: [2e6, 0, 0] }], controls: { c: { bone: 'root', axis: 'w' } } });
    exact(() => V(d), RangeError, 'joints before controls');
    // step 8 controls (TypeError) before step 9 projection (RangeError)
    d = withRig({ controls: { c: { bone: 'nope', axis: 'x' } } }, { projection: { bodyScale: 9 } });
    exact(() => V(d), TypeError, 'controls before projection');
    // step 9 projection (RangeError) before step 10 sockets (TypeError)
    d = withRig({ sockets: [{ name: 's', bone: 'nope' }] }, { projection: { portraitScale: -1 } });
    exact(() => V(d), RangeError, 'projection before sockets');
    // step 10 socket rotation (RangeError) before step 11 defaults.body (TypeError)
    d = withRig({ sockets: [{ name: 's', bone: 'root', rotation: [0, 0, -1e7] }] }, { defaults: { body: 1 } });
    exact(() => V(d), RangeError, 'sockets before defaults');
    // bodyScale checked before portraitScale
    exact(() => V(base({ projection: { bodyScale: 'x', portraitScale: 0 } })), RangeError, 'string scale');
    // step 1 before step 2
    exact(() => V(base({ atlas: '', style: 'x' })), TypeError, 'atlas');
});

test('validateRotDefinition: per-rule classes', () => {
    exact(() => V(base({ version: '1' })), TypeError, 'version string');
    exact(() => V(base({ atlas: 5 })), TypeError, 'atlas number');
    exact(() => V(base({ style: 'Anime' })), TypeError, 'style case');
    exact(() => V(base({ rig: null })), TypeError, 'rig null');
    exact(() => V(withRig({ bones: [] })), TypeError, 'no bones');
    exact(() => V(withRig({ bones: Array.from({ length: 65 }, (_, i) => ({ name: 'b' + i })) })), TypeError, '65 bones');
    exact(() => V(withRig({ parts: [] })), TypeError, 'no parts');
    exact(() => V(withRig({ bones: [{ name: 'root', parent: 'root' }] })), TypeError, 'self parent');
    exact(() => V(withRig({ bones: [{ name: 'a', parent: 'b' }, { name: 'b' }, { name: 'root' }] })), TypeError, 'forward');
    exact(() => V(withRig({ bones: [{ name: 'root' }, { name: 'root' }] })), TypeError, 'dup bone');
    exact(() => V(withRig({ bones: [{ name: 'root', parent: '' }] })), TypeError, 'empty parent');
    exact(() => V(withRig({ bones: [{ name: 'x'.repeat(81) }] })), TypeError, 'long name');
    exact(() => V(withRig({ bones: [{ name: 'constructor' }] })), TypeError, 'reserved name');
    exact(() => V(withRig({ bones: [null] })), TypeError, 'null bone');
    exact(() => V(withRig({ bones: [{ name: 'root', portraitPivot: [1, 2] }] })), TypeError, 'portraitPivot len');
    exact(() => V(withRig({ bones: [{ name: 'root', pivot: [1, 2, '3'] }] })), RangeError, 'pivot string');
    exact(() => V(withRig({ parts: [{ id: 1.5, bone: 'root' }] })), TypeError, 'frac id');
    exact(() => V(withRig({ parts: [{ id: 255, bone: 'root' }] })), TypeError, 'id 255');
    exact(() => V(withRig({ parts: [{ id: '5', bone: 'root' }] })), TypeError, 'id string');
    exact(() => V(withRig({ parts: [{ id: 5, bone: 'root' }, { id: 5, bone: 'arm' }] })), TypeError, 'dup id');
    exact(() => V(withRig({ parts: [{ id: 5, bone: ['root'] }] })), TypeError, 'array bone');
    exact(() => V(withRig({ parts: [{ id: 5, bone: 'root', bind: { scale: [1, 1] } }] })), TypeError, 'bind len');
    exact(() => V(withRig({ parts: [{ id: 5, bone: 'root', selector: 'eyes' }] })), TypeError, 'selector no variant');
    exact(() => V(withRig({ parts: [{ id: 5, bone: 'root', selector: 'eyes', variant: 4 }] })), TypeError, 'variant 4');
    exact(() => V(withRig({ parts: [{ id: 5, bone: 'root', selector: 0 }] })), TypeError, 'selector 0');
    exact(() => V(withRig({ parts: [{ id: 5, bone: 'root', selector: '' }] })), TypeError, 'selector empty');
    exact(() => V(withRig({ parts: [{ id: 5, bone: 'root', selector: 'toString', variant: 0 }] })), TypeError, 'inherited');
    exact(() => V(withRig({ parts: [{ id: 5, bone: 'root', portrait: 1 }] })), TypeError, 'portrait 1');
    exact(() => V(withRig({ parts: [{ id: 5, bone: 'root', oneSided: 'yes' }] })), TypeError, 'oneSided');
    exact(() => V(base({ groups: { g: [] } })), TypeError, 'empty group');
    exact(() => V(base({ groups: { g: [6, 6] } })), TypeError, 'dup group');
    exact(() => V(base({ groups: { g: 6 } })), TypeError, 'group not array');
    exact(() => V(base({ groups: { prototype: [6] } })), TypeError, 'group key');
    exact(() => V(withRig({ joints: {} })), TypeError, 'joints object');
    exact(() => V(withRig({ joints: [{ name: 'j', bone: 'root' }, { name: 'j', bone: 'arm' }] })), TypeError, 'dup joint');
    exact(() => V(withRig({ joints: Array.from({ length: 129 }, (_, i) => ({ name: 'j' + i, bone: 'root' })) })), TypeError, '129 joints');
    exact(() => V(withRig({ controls: { c: { bone: 'root' } } })), TypeError, 'control axis');
    exact(() => V(withRig({ controls: { c: null } })), TypeError, 'control null');
    exact(() => V(base({ projection: { bodyScale: 8.000001 } })), RangeError, 'scale > 8');
    exact(() => V(base({ projection: { portraitScale: 2e6 } })), RangeError, 'scale > 1e6');
    exact(() => V(withRig({ sockets: [{ name: 's', bone: 'root', portrait: 'no' }] })), TypeError, 'socket portrait');
    exact(() => V(withRig({ sockets: [{ name: 's', bone: 'root', point: [0, 0] }] })), TypeError, 'socket point');
    exact(() => V(base({ defaults: { body: 'yes' } })), TypeError, 'defaults.body');
    exact(() => V(base({ emotions: { e: { eyes: 'wink' } } })), TypeError, 'emotion state');
    exact(() => V(base({ emotions: { e: { nose: 'open' } } })), TypeError, 'emotion component');
    exact(() => V(base({ emotions: { e: { mouth: 'half' } } })), TypeError, 'state of another component');
    exact(() => V(base({ emotions: { e: null } })), TypeError, 'null emotion');
    exact(() => V(base({ emotions: { __proto__: null, constructor: {} } })), TypeError, 'emotion key');
});

test('validateRotDefinition: accepted literal-reading edge values', () => {
    const d = V(withRig({
        parts: [
            { id: 1, bone: 'root', selector: ['mouth'], variant: 3 },
            { id: 254, bone: 'arm', variant: 'free', portrait: null, oneSided: false },
            { id: 2, bone: 'root', selector: null, variant: 9 },
        ],
        controls: { c: { bone: 'arm', axis: 'y', extra: 1 } },
    }, { emotions: { e: {}, f: { brows: 'sad' } }, projection: { bodyScale: 8, portraitScale: 1e-9 }, defaults: { body: false, motion: 'x' } }));
    json(d.rig.parts[0].selector, ['mouth']);
    is(d.rig.parts[1].variant, 'free');
    is(d.rig.parts[1].portrait, null);
    json(d.projection, { bodyScale: 8, portraitScale: 1e-9 });
    is(d.defaults.motion, 'x');
    is(d.rig.controls.c.extra, 1);
    const e = V(base({ animations: 'x.json', surface: { a: 1 }, equipment: { sword: { model: 's.json' } } }));
    is(e.animations, 'x.json');
    json(e.surface, { a: 1 });
    json(e.equipment, { sword: { model: 's.json' } });
});

const anims = (clips) => ({ version: 1, clips });
const defn = V(base());
const A = (clips) => validateRotAnimations(anims(clips), defn);
const tr = (extra) => ({ target: 'arm', channel: 'rotation.z', keys: [[0, 1]], ...extra });

test('validateRotAnimations: classes and order', () => {
    exact(() => validateRotAnimations(undefined, defn), SyntaxError, 'undefined');
    exact(() => validateRotAnimations(null, defn), TypeError, 'null');
    exact(() => validateRotAnimations({ version: 1, clips: [] }, defn), TypeError, 'array clips');
    exact(() => validateRotAnimations({ version: 1 }, defn), TypeError, 'no clips');
    exact(() => validateRotAnimations({ version: 1, clips: 5 }, defn), TypeError, 'number clips');
    const many = {};
    for (let i = 0; i < 65; i++) many['c' + i] = { duration: 1, loop: true, tracks: [] };
    exact(() => A(many), TypeError, '65 clips');
    exact(() => A({ c: null }), TypeError, 'null clip');
    exact(() => A({ c: 5 }), RangeError, 'number clip: duration undefined');
    exact(() => A({ c: { loop: true, tracks: [] } }), RangeError, 'no duration');
    exact(() => A({ c: { duration: '1', loop: true, tracks: [] } }), RangeError, 'string duration');
    exact(() => A({ c: { duration: 0, loop: true, tracks: [] } }), TypeError, 'zero duration');
    exact(() => A({ c: { duration: -1, loop: 'x', tracks: [] } }), TypeError, 'negative');
    exact(() => A({ c: { duration: 1, loop: 1, tracks: [] } }), TypeError, 'loop number');
    exact(() => A({ c: { duration: 1, loop: true } }), TypeError, 'no tracks');
    exact(() => A({ __proto__: null, prototype: { duration: 1, loop: true, tracks: [] } }), TypeError, 'clip name');
    const C = (tracks, duration = 1) => A({ c: { duration, loop: false, tracks } });
    exact(() => C([tr({ target: 'leg' })]), TypeError, 'unknown bone');
    exact(() => C([tr({ target: ['arm'] })]), TypeError, 'array target');
    exact(() => C([tr({ channel: 'rotation.w' })]), TypeError, 'bad axis');
    exact(() => C([tr({ channel: 'scale.x' })]), TypeError, 'scale channel');
    exact(() => C([tr({ channel: 'rotation.x ' })]), TypeError, 'trailing space');
    exact(() => C([tr({ channel: 'rotation.x\n' })]), TypeError, 'trailing newline');
    exact(() => C([tr({}), tr({ channel: ['rotation.z'] })]), TypeError, 'dup via string conversion');
    exact(() => C([tr({ interpolation: 'cubic' })]), TypeError, 'interp');
    exact(() => C([{ target: 'face', channel: 'eyes', interpolation: 'linear', keys: [[0, 'open']] }]), TypeError, 'face linear');
    exact(() => C([{ target: 'face', channel: 'nose', keys: [[0, 'open']] }]), TypeError, 'face channel');
    exact(() => C([{ target: 'face', channel: 'eyes', keys: [[0, 'smile']] }]), TypeError, 'face value');
    exact(() => C([tr({ keys: [] })]), TypeError, 'no keys');
    exact(() => C([tr({ keys: [[0, 1, 2]] })]), TypeError, 'key len 3');
    exact(() => C([tr({ keys: [{ 0: 0, 1: 1 }] })]), TypeError, 'key object');
    exact(() => C([tr({ keys: [['0', 1]] })]), RangeError, 'key time string');
    exact(() => C([tr({ keys: [[-0.5, 1]] })]), RangeError, 'negative time');
    exact(() => C([tr({ keys: [[1.5, 1]] })]), RangeError, 'time > duration');
    exact(() => C([tr({ keys: [[0.5, 1], [0.5, 2]] })]), RangeError, 'equal times');
    exact(() => C([tr({ keys: [[0, 'x']] })]), RangeError, 'bone value string');
    exact(() => C([tr({ keys: [[0, 2e6]] })]), RangeError, 'bone value > 1e6');
    // first failure wins: a RangeError key in track 0 before a duplicate in track 1
    exact(() => C([tr({ keys: [[2, 1]] }), tr({})]), RangeError, 'order');
    exact(() => C([tr({ keys: [[0, 'x']] }), { target: 'nope' }]), RangeError, 'order 2');
    // key time check before the value check
    exact(() => C([{ target: 'face', channel: 'eyes', keys: [[3, 'bogus']] }]), RangeError, 'time before value');
});

test('validateRotAnimations: normalisation and accepted values', () => {
    const a = A({
        c: {
            duration: 2, loop: false, extra: 1, tracks: [
                { keys: [[0, 1], [2, 3]], target: 'arm', channel: 'translation.y' },
                { target: 'face', channel: 'mouth', interpolation: null, keys: [[0, 'talk']] },
                { target: 'root', channel: 'rotation.x', interpolation: 'step', keys: [[0, 0]] },
            ],
        },
    });
    keys(a.clips.c, ['duration', 'loop', 'extra', 'tracks']);
    keys(a.clips.c.tracks[0], ['keys', 'target', 'channel', 'interpolation']);
    is(a.clips.c.tracks[0].interpolation, 'linear');
    keys(a.clips.c.tracks[1], ['target', 'channel', 'interpolation', 'keys']);
    is(a.clips.c.tracks[1].interpolation, 'step');
    is(a.clips.c.tracks[2].interpolation, 'step');
    // validation never mutates the source
    const src = anims({ c: { duration: 1, loop: true, tracks: [tr({})] } });
    validateRotAnimations(src, defn);
    ok(!('interpolation' in src.clips.c.tracks[0]), 'source untouched');
    // empty clip set
    json(validateRotAnimations({ version: 1, clips: {} }, defn), { version: 1, clips: {} });
});

test('sampleRotClip: hand-computed values', () => {
    const clip = {
        duration: 2, loop: true, tracks: [
            { target: 'a', channel: 'rotation.z', interpolation: 'linear', keys: [[0.5, 10], [1.5, 30]] },
            { target: 'a', channel: 'translation.x', interpolation: 'step', keys: [[0, 1], [1, 5]] },
            { target: 'face', channel: 'eyes', interpolation: 'step', keys: [[0, 'open'], [1, 'closed']] },
            { target: 'b', channel: 'rotation.x', keys: [[0, 0], [2, 100]] },
        ],
    };
    let s = sampleRotClip(clip, 2.5); // t = 0.5
    json(s, { bones: { a: { 'rotation.z': 10, 'translation.x': 1 }, b: { 'rotation.x': 0 } }, face: { eyes: 'open' }, time: 0.5, ended: false });
    s = sampleRotClip(clip, 3); // t = 1
    is(s.bones.a['rotation.z'], 20);
    is(s.bones.a['translation.x'], 5);
    is(s.face.eyes, 'closed');
    is(s.bones.b['rotation.x'], 0, 'missing interpolation is step');
    is(sampleRotClip(clip, 0.25).bones.a['rotation.z'], 10, 'before first key');
    is(sampleRotClip(clip, 1.75).bones.a['rotation.z'], 30, 'after last key');
    is(sampleRotClip(clip, 4).time, 0);
    const once = { ...clip, loop: false };
    s = sampleRotClip(once, 5);
    is(s.time, 2);
    is(s.ended, true);
    is(sampleRotClip(once, 2).ended, true);
    is(sampleRotClip(once, 1.999).ended, false);
    is(sampleRotClip(once, 1e6).time, 2);
    exact(() => sampleRotClip(once, -1), RangeError, 'negative');
    exact(() => sampleRotClip(once, '1'), RangeError, 'string');
    exact(() => sampleRotClip(once, 2e6), RangeError, '> 1e6');
    exact(() => sampleRotClip(once), RangeError, 'undefined time');
    keys(sampleRotClip(once, 0), ['bones', 'face', 'time', 'ended']);
});

const deg = Math.PI / 180;

test('buildRotModelPose: records, controls, overrides, selector, visibility, scale', () => {
    const d = V({
        version: 1, atlas: 'a.png', style: 'pixel',
        projection: { bodyScale: 1.5, portraitScale: 3 },
        rig: {
            bones: [{ name: 'root', pivot: [0, 0, 0] }, { name: 'arm', parent: 'root', pivot: [10, 0, 0], portraitPivot: [0, 10, 0] }],
            parts: [
                { id: 200, bone: 'root' },
                { id: 3, bone: 'arm', selector: 'brows', variant: 2, oneSided: true, portrait: true, bind: { translation: [1, 2, 3], scale: [2, 2, 2] } },
            ],
            controls: { lift: { bone: 'arm', axis: 'z' }, tilt: { bone: 'arm', axis: 'z' } },
        },
    });
    const p = buildRotModelPose(d);
    is(p.scale, 1.5);
    is(p.records.length, 2);
    is(p.records[0].length, 17);
    json(p.records[0], [200, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]);
    json(p.records[1], [3, 3, 2, 1, 1, 2, 0, 0, 1, 0, 2, 0, 2, 0, 0, 2, 3]);
    keys(p, ['records', 'bones', 'scale']);
    keys(p.bones, ['root', 'arm']);
    // sample 30 + manual override 90 (replaces) + controls 10 + 5 → 105° about z at pivot (10,0,0)
    const q = buildRotModelPose(d, { bones: { arm: { 'rotation.z': 30, 'translation.x': 7 } } }, { lift: 10, tilt: 5 }, { arm: { 'rotation.z': 90 } });
    const c = Math.cos(105 * deg), s = Math.sin(105 * deg);
    const arm = q.bones.arm;
    near(arm[0], c, 1e-12);
    near(arm[1], -s, 1e-12);
    near(arm[4], s, 1e-12);
    near(arm[5], c, 1e-12);
    near(arm[3], 10 + 7 - c * 10, 1e-9, 'translation x keeps the clip channel');
    near(arm[7], -s * 10, 1e-9);
    // portrait mode: portraitPivot, visibility, portrait scale
    const r = buildRotModelPose(d, {}, { body: false, lift: 90 });
    is(r.scale, 3);
    is(r.records[0][4], 0, 'non-portrait part hidden in portrait mode');
    is(r.records[1][4], 1);
    near(r.bones.arm[3], 10, 1e-9, 'rotation about portrait pivot (0,10,0)');
    near(r.bones.arm[7], 10, 1e-9);
    // visibleParts hides but keeps bones; selector strictness
    const v = buildRotModelPose(d, {}, {}, {}, [3]);
    is(v.records[0][4], 0);
    is(v.records[1][4], 1);
    const raw = { rig: { controls: {}, bones: [{ name: 'b', pivot: [0, 0, 0] }], parts: [
        { id: 1, bone: 'b', selector: 'face', variant: 'v', bind: { translation: [0, 0, 0], rotation: [0, 0, 0], scale: [1, 1, 1] } },
        { id: 2, bone: 'b', selector: ['mouth'], bind: { translation: [0, 0, 0], rotation: [0, 0, 0], scale: [1, 1, 1] } },
    ] }, projection: { bodyScale: 1, portraitScale: 2 } };
    const w = buildRotModelPose(raw);
    json(w.records.map((x) => x.slice(0, 5)), [[1, -1, 'v', 0, 1], [2, -1, 0, 0, 1]]);
});

test('relativeAsset: spec examples and classes', () => {
    is(relativeAsset('models/prop.json', 'prop.png'), 'models/prop.png');
    is(relativeAsset(null, 'a.png'), 'a.png');
    is(relativeAsset(undefined, './x/../y.png'), 'y.png');
    is(relativeAsset('/abs/m.json', '../x.png'), '/x.png');
    is(relativeAsset('a//b/c.json', './d/../e.png'), 'a/b/e.png');
    is(relativeAsset('./m/x.json', 'a.png'), './m/a.png');
    is(relativeAsset('../m/x.json', '../a.png'), '../a.png');
    is(relativeAsset('/m.json', 'a.png'), '/a.png');
    is(relativeAsset('m/', 'a/'), 'm/a');
    exact(() => relativeAsset('a.json', '../x'), RangeError, 'escape');
    exact(() => relativeAsset('/a.json', '../x'), RangeError, 'escape abs');
    exact(() => relativeAsset(5, 'a.png'), TypeError, 'number file');
    exact(() => relativeAsset(true, 'a.png'), TypeError, 'true file');
    exact(() => relativeAsset({}, 'a.png'), TypeError, 'object file');
    exact(() => relativeAsset(['m/x.json'], 'a.png'), TypeError, 'array file');
    is(relativeAsset(5, '/a.png'), '/a.png');
    exact(() => relativeAsset(0, '../a.png'), RangeError, 'falsy file');
    is(relativeAsset(false, 'a.png'), 'a.png');
    is(relativeAsset(NaN, 'a.png'), 'a.png');
    is(relativeAsset('', 'b/./c.png'), 'b/c.png');
    exact(() => relativeAsset('m.json', ''), TypeError, 'empty path');
    exact(() => relativeAsset('m.json', 5), TypeError, 'number path');
    exact(() => relativeAsset(5, null), TypeError, 'path checked first');
});

done('rotsprite_audit_pure');
