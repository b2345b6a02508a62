// re2d tests: adversarial second reading of js-rotsprite.md §5–§9, §11 (rollbacks, error classes, listener order, polling, proxy engine).
// Expected values come from the spec text or hand computation.
import { installRotSprite, tickRotSprite } from '../../src/highlevel/rotsprite.js';
import { createApi } from '../../src/highlevel/api.js';
import { test, ok, is, near, json, keys, throws, done } from './_harness.mjs';
import { mockEngine, testDefinition } from './_rotmock.mjs';

const $ = createApi();
installRotSprite($);
let m = mockEngine();
const files = {};
$.fs = { readText: (p) => files[p] ?? null };
const R = (w) => w.get(0).rot_sprite;
const exact = (fn, Type, msg) => {
    const e = throws(fn, Type, msg);
    is(Object.getPrototypeOf(e), Type.prototype, `${msg}: exact class`);
};
function fresh() {
    $('rotsprite').remove();
    m.clear();
    m.handles.length = 0;
}
// a full poll resets the shared pollTime to 0
function resetPoll() {
    tickRotSprite(0.5, 0);
    m.clear();
}

test('proxy engine with unmocked natives: create works, from() rejects (Info returns 0)', () => {
    const saved = globalThis.engine;
    globalThis.engine = new Proxy({}, { get: (t, k) => (k in t ? t[k] : () => 0), set: (t, k, v) => ((t[k] = v), true) });
    const w = $.rotSprite.create('x.png', { id: 'bare' });
    is(R(w).handle, 0);
    is(R(w).sprite, undefined);
    is(R(w).width, undefined);
    is(w.rotPose(10), w);
    is(R(w).sprite, 0);
    is(w.rotEmotion('happy'), w);
    json($.rotSprite.info(w).rig, {});
    exact(() => $.rotSprite.from(testDefinition(), { id: 'nomodel' }), TypeError, 'version 0 !== 2');
    is($('#nomodel').length, 0);
    w.remove();
    globalThis.engine = saved;
});

test('from(): error classes before any node or native call', () => {
    fresh();
    const before = $('rotsprite').length;
    exact(() => $.rotSprite.from('missing.json'), Error, 'unreadable file is a plain Error');
    files['bad.json'] = '{ nope';
    exact(() => $.rotSprite.from('bad.json'), SyntaxError, 'bad JSON');
    files['inv.json'] = JSON.stringify({ version: 1, atlas: '' });
    exact(() => $.rotSprite.from('inv.json'), TypeError, 'invalid definition');
    files['m/noanim.json'] = JSON.stringify({ ...testDefinition(), animations: 'a.json' });
    exact(() => $.rotSprite.from('m/noanim.json'), Error, 'unreadable animation file');
    exact(() => $.rotSprite.from(undefined), SyntaxError, 'undefined source');
    exact(() => $.rotSprite.from(testDefinition({ atlas: '../../x.png' })), RangeError, 'object source: atlas escapes the root');
    is(m.of('rotSpriteLoad').length, 0);
    is($('rotsprite').length, before);
});

test('from(): escaping atlas path is a RangeError; v3 atlas removes the node and disposes once', () => {
    fresh();
    files['m/esc.json'] = JSON.stringify(testDefinition({ atlas: '../../x.png' }));
    exact(() => $.rotSprite.from('m/esc.json'), RangeError, 'escape');
    m.version['v3.png'] = 3;
    exact(() => $.rotSprite.from(testDefinition({ atlas: 'v3.png' }), { id: 'v3' }), TypeError, 'v3');
    is($('#v3').length, 0);
    is(m.handles.at(-1).disposed, 1);
    const w = $.rotSprite.from(testDefinition({ atlas: 'ok.png', defaults: { motion: 'wave', body: false, rig: { lift: 30 }, expression: { eyes: 'closed' } } }));
    const r = R(w);
    json(r.motion, { mode: 'wave', speed: 1, time: 0 });
    is(r.rig.body, false);
    is(r.rig.lift, 30);
    json(r.faceBase, { eyes: 'closed', mouth: 'closed', brows: 'neutral' });
    json(r.files, []);
    json(r.definitionStamps, {});
    ok(r.children instanceof Set);
    is(r.attachment, null);
    keys(r, ['handle', 'path', 'sprite', 'width', 'style', 'rig', 'motion', 'parts', 'stamps', 'hotReload', 'reloads',
        'definition', 'animations', 'atlas', 'source', 'files', 'boneOverrides', 'layers', 'children', 'attachment',
        'definitionStamps', 'modelPose', 'faceBase']);
    // the model pose sent to the native: 4 arguments, portrait scale, lift on arm z
    const mp = m.of('rotSpriteModelPose').at(-1);
    is(mp.length, 5);
    is(mp[2], 2);
    is(mp[4], false);
    json(mp[3].map((x) => x.slice(0, 5)), [[7, 0, 0, 0, 0], [9, 1, 1, 0, 0], [12, 0, 0, 1, 1]]);
    // clip face tracks override the face base: wave sets mouth 'open' (1); eyes closed (2)
    json(m.of('rotSpritePose').at(-1).slice(2), [0, 0, 2, 1, 0]);
});

test('rotAttach: rollback when applyModel throws; re-attach moves between parents', () => {
    fresh();
    const p1 = $.rotSprite.from(testDefinition(), { id: 'p1' });
    const p2 = $.rotSprite.from(testDefinition(), { id: 'p2' });
    const item = $.rotSprite.from(testDefinition(), { id: 'it' });
    const n = item.get(0);
    item.rotAttach(p1, 'hand');
    const a = R(item).attachment;
    keys(a, ['parent', 'socket', 'grip', 'offset', 'rotation', 'scale']);
    json([a.grip, a.offset, a.rotation, a.scale], [null, [0, 0, 0], [0, 0, 0], [1, 1, 1]]);
    const mp = m.impl.rotSpriteModelPose;
    m.impl.rotSpriteModelPose = () => {
        throw new RangeError('native rejects');
    };
    exact(() => item.rotAttach(p2, 'top'), RangeError, 'applyModel failure');
    m.impl.rotSpriteModelPose = mp;
    is(R(item).attachment, a, 'previous attachment restored');
    ok(R(p1).children.has(n), 'still a child of the previous parent');
    ok(!R(p2).children.has(n), 'not a child of the new parent');
    exact(() => item.rotAttach(p2, 'hand', { offset: [1, 2] }), TypeError, 'offset length');
    exact(() => item.rotAttach(p2, 'hand', { rotation: [0, 0, '1'] }), RangeError, 'rotation string');
    exact(() => item.rotAttach(p2, 'hand', { scale: [1, 1, -1] }), RangeError, 'negative scale');
    exact(() => item.rotAttach(null, 'hand'), TypeError, 'no parent');
    exact(() => item.rotAttach(p2, 'hand', null), TypeError, 'null options');
    is(R(item).attachment, a);
    item.rotAttach(p2, 'hand', { offset: [1, 2, 3] });
    ok(!R(p1).children.has(n) && R(p2).children.has(n), 'moved');
    is(R(item).attachment.parent, p2.get(0));
    json($.rotSprite.info(item).attachment, { socket: 'hand', grip: null, parent: 'p2' });
    // item removed → gone from the parent's children
    item.remove();
    is(R(p2).children.size, 0);
    // a parent that has a host parent_node is rejected
    const item2 = $.rotSprite.from(testDefinition());
    p1.get(0).parent_node = {};
    exact(() => item2.rotAttach(p1, 'hand'), TypeError, 'parent not at scene root');
    p1.get(0).parent_node = null;
    item2.get(0).parent_node = {};
    exact(() => item2.rotAttach(p1, 'hand'), TypeError, 'item not at scene root');
    item2.get(0).parent_node = null;
    item2.rotAttach(p1, 'hand', { grip: 'hand' });
    is(R(item2).attachment.grip, 'hand');
});

test('equip: attach failure removes the item; definition() copies', () => {
    fresh();
    files['m/hero.json'] = JSON.stringify(testDefinition({ equipment: { bad: { model: 'item.json', socket: 'nope' }, odd: { model: 5, socket: 'hand' } } }));
    files['m/item.json'] = JSON.stringify(testDefinition());
    const p = $.rotSprite.from('m/hero.json');
    const count = $('rotsprite').length;
    exact(() => $.rotSprite.equip(p, 'bad', { id: 'eq' }), TypeError, 'unknown socket');
    is($('rotsprite').length, count);
    is($('#eq').length, 0);
    exact(() => $.rotSprite.equip(p, 'odd'), TypeError, 'model not a string');
    exact(() => $.rotSprite.equip(p, 'toString'), TypeError, 'inherited key');
    exact(() => $.rotSprite.equip($.rotSprite.create('legacy.png'), 'bad'), TypeError, 'legacy parent');
    is($.rotSprite.definition($(null)), null);
    const d = $.rotSprite.definition(p);
    d.rig.bones.length = 0;
    is(R(p).definition.rig.bones.length, 2);
    ok($.rotSprite.definition(p) !== R(p).definition);
});

test('host: remove emits after unregistering; listener errors are swallowed', () => {
    fresh();
    const w = $('<rotsprite>', { id: 'lst' });
    const n = w.get(0);
    const seen = [];
    n.on('remove', () => {
        seen.push([n.removed, $('#lst').length, $('rotsprite').nodes.includes(n)]);
        throw new Error('listener boom');
    });
    n.on('remove', () => seen.push('second'));
    is(w.remove(), w);
    json(seen, [[true, 0, false], 'second']);
    w.remove();
    is(seen.length, 2, 'destroyed once');
    const a = $('<rotsprite>');
    const b = $('<rotsprite>');
    const snap = $('rotsprite');
    a.remove();
    is(snap.length, 2, 'snapshot');
    is(snap.get(0), a.get(0));
    is(snap.get(1), b.get(0));
    is(snap.get(2), undefined);
    is($(snap), snap);
    const seenThis = [];
    is(snap.eachNode(function (i, node) { seenThis.push([this, i, node]); }), snap);
    is(seenThis[1][0], snap);
    is(seenThis[1][1], 1);
    json($(null).globalPos(), { x: 0, y: 0 });
    b.at(3, 4);
    json(b.globalPos(), { x: 3, y: 4 });
    b.size(10);
    is(b.get(0).h, 10);
    is($(undefined).length, 0);
    is($(false).length, 0);
    is($([a.get(0), b.get(0)]).length, 2);
    is($.withAlpha(0x00112233, 0.5), -2146360781);
    is($.withAlpha(-1, 0.5), -2130706433);
    is($.withAlpha(0xffffffff, 1), 0xffffffff, 'same alpha returns packed unchanged');
    is($.withAlpha(0x12345678, -3), 0x345678);
    is($.withAlpha(0x12345678, 7), -13347208);
    b.remove();
});

test('tick: layers advance by motionDt, one-shot layers stop, pollTime uses dt', () => {
    fresh();
    resetPoll();
    const w = $.rotSprite.from(testDefinition());
    w.rotLayer('wave', true, 2);
    m.clear();
    tickRotSprite(0.125, 0.2);
    near(R(w).layers.wave.time, 0.4, 1e-12);
    near(R(w).motion.time, 0.2, 1e-12);
    near(R(w).rig.phase, (0.2 / 2) * Math.PI * 2, 1e-12);
    json(m.names(), ['rotSpriteInfo', 'rotSpriteModelPose', 'rotSpritePose']);
    tickRotSprite(0.125, 0.4); // layer 1.2 > 1: still advanced this tick (0.4 < 1)
    near(R(w).layers.wave.time, 1.2, 1e-12);
    w.rotMotion('wave', 0);
    m.clear();
    tickRotSprite(0.125, 1);
    is(m.calls.length, 0, 'one-shot layer past its end and speed-0 motion: nothing');
    near(R(w).layers.wave.time, 1.2, 1e-12);
    // pollTime accumulated 3 × 0.125 = 0.375 of dt; hot reload on a changed file
    w.rotHotReload();
    m.changed.add(R(w).path);
    tickRotSprite(0.0625, 100);
    is(m.of('rotSpriteChanged').length, 0, '0.4375 < 0.5');
    tickRotSprite(0.0625, 0);
    is(m.of('rotSpriteChanged').length, 1, 'poll at 0.5');
    is(R(w).reloads, 1);
    m.clear();
    tickRotSprite(0.49, 0);
    is(m.of('rotSpriteChanged').length, 0, 'pollTime reset to 0 after a poll');
    m.changed.clear();
    w.remove();
});

test('hot reload: failure stores String(error) on the current state, retries, success drops it', () => {
    fresh();
    resetPoll();
    files['m/h.json'] = JSON.stringify(testDefinition());
    m.stamps['m/h.json'] = '1:1';
    const w = $.rotSprite.from('m/h.json');
    w.rotHotReload(true);
    const r = R(w);
    json(r.definitionStamps, { 'm/h.json': '1:1' });
    files['m/h.json'] = '{ broken';
    m.stamps['m/h.json'] = '2:2';
    tickRotSprite(0.5);
    is(R(w), r);
    ok(typeof r.reloadError === 'string' && r.reloadError.startsWith('SyntaxError'), String(r.reloadError));
    is($.rotSprite.info(w).reloadError, r.reloadError);
    m.clear();
    tickRotSprite(0.5);
    is(m.of('rotSpriteFileStamp').length >= 1, true, 'retried');
    files['m/h.json'] = JSON.stringify(testDefinition());
    tickRotSprite(0.5);
    ok(R(w) !== r);
    is(R(w).reloads, 1);
    ok(!('reloadError' in R(w)));
    is($.rotSprite.info(w).reloadError, null);
    json(R(w).definitionStamps, { 'm/h.json': '2:2' });
    w.remove();
});

test('rotStyle: failure restores the style; unknown style is a TypeError; default anime', () => {
    fresh();
    const w = $.rotSprite.create('s.png');
    exact(() => w.rotStyle('toon'), TypeError, 'unknown style');
    m.fail.add('s.png');
    exact(() => w.rotStyle(), TypeError, 'reload failure rethrown');
    is(R(w).style, 'pixel');
    m.fail.delete('s.png');
    m.clear();
    w.rotStyle();
    is(R(w).style, 'anime');
    is(R(w).width, 512);
    json(m.names().slice(0, 5), ['rotSpriteInfo', 'rotSpriteLoad', 'rotSpriteInfo', 'rotSpriteStyle', 'rotSpriteInfo']);
    is(m.calls[3][2], 'anime');
    m.clear();
    w.rotStyle('anime');
    is(m.calls.length, 0, 'same style: no-op');
    exact(() => $('<rotsprite>').rotStyle('anime'), TypeError, 'needs resource');
});

test('model methods: class of every rejection, legacy nodes rejected', () => {
    fresh();
    const w = $.rotSprite.from(testDefinition());
    const leg = $.rotSprite.create('l.png');
    exact(() => leg.rotLayer('wave'), TypeError, 'legacy layer');
    exact(() => leg.rotBone('arm', {}), TypeError, 'legacy bone');
    exact(() => leg.rotSeek(0), TypeError, 'legacy seek');
    exact(() => leg.rotVisibleParts(null), TypeError, 'legacy visible');
    exact(() => leg.rotVariant('arm', 'long'), TypeError, 'legacy variant');
    exact(() => w.rotLayer('nope'), TypeError, 'unknown clip');
    exact(() => w.rotLayer('toString'), TypeError, 'inherited clip');
    exact(() => w.rotLayer('wave', true, -1), RangeError, 'negative speed');
    exact(() => w.rotLayer('wave', true, '1'), RangeError, 'string speed');
    exact(() => w.rotLayer('wave', false, NaN), RangeError, 'speed checked even when disabling');
    exact(() => w.rotBone('nope', {}), TypeError, 'unknown bone');
    exact(() => w.rotBone('arm', { rotation: [0, 0] }), TypeError, 'vector length');
    exact(() => w.rotBone('arm', { translation: [0, 0, 2e6] }), RangeError, 'vector range');
    exact(() => w.rotSeek(-1), RangeError, 'negative seek');
    exact(() => w.rotSeek('1'), RangeError, 'string seek');
    exact(() => w.rotVisibleParts([7, 8]), TypeError, 'unknown id');
    exact(() => w.rotVisibleParts(['7']), TypeError, 'string id');
    exact(() => w.rotVisibleParts(7), TypeError, 'number');
    exact(() => w.rotVariant('arm', 'short'), TypeError, 'unknown variant');
    exact(() => w.rotMotion('run'), TypeError, 'legacy mode on a model');
    exact(() => w.rotPart('legs', 'x.png'), TypeError, 'legacy group on a model');
    exact(() => w.rotEmotion('happy'), RangeError, 'built-in emotion on a model');
    exact(() => w.rotRig({ lift: '3' }), RangeError, 'control value');
    leg.rotRig({ lift: '3' });
    is(R(leg).rig.lift, '3', 'legacy nodes do not validate model controls');
    // accepted values
    w.rotBone('arm', { rotation: [0, 0, 30] });
    w.rotBone('arm', { translation: [1, 2, 3], rotation: null });
    keys(R(w).boneOverrides.arm, ['rotation.x', 'rotation.y', 'rotation.z', 'translation.x', 'translation.y', 'translation.z']);
    w.rotVisibleParts([12, 7, 12]);
    json(R(w).visibleParts, [12, 7]);
    json(m.of('rotSpriteModelPose').at(-1)[3].map((x) => x[4]), [1, 0, 1]);
    w.rotVisibleParts();
    is(R(w).visibleParts, null);
    w.rotSeek();
    is(R(w).motion.time, 0);
    w.rotRig({ lift: null });
    is(R(w).rig.lift, 0);
    m.clear();
    w.rotVariant('arm', 'long');
    json(m.calls[0].slice(2), ['arms/long.png', [9, 12]], 'object source: path relative to no directory');
});

test('install: uses the renderer hook, def and TAGS carried by $ (stubbed before a second install)', () => {
    fresh();
    const $2 = createApi();
    const got = [];
    $2.registerNodeRenderer = (tag, fn) => got.push([tag, fn]);
    const pushed = [];
    $2.gfx = { push: { sprite: (...a) => pushed.push(a) } };
    installRotSprite($2);
    is(got.length, 1);
    is(got[0][0], 'rotsprite');
    const w = $2.rotSprite.create('r.png');
    const n = w.get(0);
    got[0][1](n, { x: 100.5, y: 50, w: 64, h: 64 }, { w: 800, h: 600 });
    json(pushed, [[R(w).sprite, 101, 50, 128, 128, 0, -1, 0]]);
    got[0][1](n, { x: -70, y: 50, w: 64, h: 64 }, { w: 800, h: 600 });
    is(pushed.length, 1, 'culled: right edge 128/2 - 70 < 0');
    $2.withAlpha = (c, a) => 'alpha:' + c + ':' + a;
    n.alpha = 0.25;
    got[0][1](n, { x: 100, y: 50, w: 64, h: 64 }, { w: 800, h: 600 });
    is(pushed[1][6], 'alpha:-1:0.25');
    w.remove();
    installRotSprite($);
    is(typeof $('<rotsprite>').rotPose, 'function');
});

test('host: numeric ids are found by #selector and freed on removal', () => {
    const w = $('<rotsprite>', { id: 5 });
    is(w.get(0).id, 5);
    is($('#5').get(0), w.get(0));
    w.remove();
    is($('#5').length, 0);
    const a = $('<rotsprite>', { id: 'dup' });
    const b = $('<rotsprite>', { id: 'dup' });
    is($('#dup').get(0), b.get(0), 'the later node wins the index');
    a.remove();
    is($('#dup').get(0), b.get(0), 'removing the shadowed node keeps the index');
    b.remove();
    is($('#dup').length, 0);
});

test('attached placement: depth side from the parent yaw, size from |scale|, layer copied', () => {
    fresh();
    const parent = $.rotSprite.from(testDefinition(), { x: 10, y: 20, layer: 4, depth: 2, w: 50, h: 40 });
    parent.get(0).scale_x = -2;
    parent.get(0).scale_y = 0.5;
    const item = $.rotSprite.from(testDefinition(), { layer: 9, depth: 7 });
    item.rotAttach(parent, 'hand'); // socket centre (20, 0, 0) at clip time 0
    const n = item.get(0);
    json([n.x, n.y, n.w, n.h, n.layer], [10, 20, 100, 20, 4]);
    is(n.depth, 2.01, 'yaw 0: z = 0 → in front');
    parent.rotPose(90); // z = -sin(90°)·20 = -20
    is(n.depth, 1.99);
    parent.rotPose(-90);
    is(n.depth, 2.01);
    // the item's own pose follows the parent's native yaw/pitch and the parent's scale
    parent.rotPose(30, -80);
    const pose = m.of('rotSpritePose').filter((c) => c[1] === R(item).handle).at(-1);
    json(pose.slice(2, 4), [30, -75]);
    const mp = m.of('rotSpriteModelPose').filter((c) => c[1] === R(item).handle).at(-1);
    is(mp[2], R(parent).modelPose.scale);
    is(mp[4], true, "own rig's body flag");
});

test('legacy hot reload: part stamp change reloads and re-applies parts; checks short-circuit', () => {
    fresh();
    resetPoll();
    m.stamps['d.png'] = '1';
    const w = $.rotSprite.create('l.png');
    w.rotPart('arms', 'd.png');
    w.rotHotReload();
    m.clear();
    tickRotSprite(0.5);
    json(m.names(), ['rotSpriteChanged', 'rotSpriteFileStamp'], 'nothing changed');
    m.stamps['d.png'] = '2';
    const old = R(w);
    m.clear();
    tickRotSprite(0.5);
    json(m.names(), ['rotSpriteChanged', 'rotSpriteFileStamp', 'rotSpriteInfo', 'rotSpriteLoad', 'rotSpriteInfo',
        'rotSpritePart', 'rotSpriteFileStamp', 'rotSpriteRig', 'rotSpritePose', 'rotSpriteInfo', 'rotSpritePose',
        'rotSpriteDispose']);
    is(m.calls.at(-1)[1], old.handle);
    is(R(w).stamps.arms, '2');
    is(R(w).reloads, 1);
    is(R(w).hotReload, true);
    m.changed.add('l.png');
    m.clear();
    tickRotSprite(0.5);
    json(m.names().slice(0, 2), ['rotSpriteChanged', 'rotSpriteInfo'], 'short-circuit: no stamp reads');
    m.changed.clear();
    w.rotHotReload(false);
    m.clear();
    tickRotSprite(0.5);
    is(m.calls.length, 0, 'hot reload off: not polled');
    w.remove();
});

done('rotsprite_audit_node');
