// re2d tests: js-rotsprite.md §5–§9, §11 with a proxy engine mock — node methods, $.rotSprite, model mode, reload, sockets, renderer, tick, host subset.
import {
    installRotSprite, tickRotSprite, prepareRotWorldPose, registerRotWorldNode,
} from '../../src/highlevel/rotsprite.js';
import { createApi } from '../../src/highlevel/api.js';
import { renderers, withAlpha, TAGS } from '../../src/highlevel/core.js';
import { test, ok, is, near, json, keys, throws, done } from './_harness.mjs';
import { mockEngine, testDefinition } from './_rotmock.mjs';

const $ = createApi();
installRotSprite($);
const m = mockEngine();
const files = {};
const reads = [];
$.fs = { readText: (p) => (reads.push(p), files[p] ?? null) };

function fresh() {
    $('rotsprite').remove();
    m.clear();
    reads.length = 0;
    m.handles.length = 0;
}
const R = (w) => w.get(0).rot_sprite;
const last = (name) => m.of(name).at(-1);
const T3 = (mx) => [mx[3], mx[7], mx[11]];

function heroFiles(extra = {}) {
    const d = testDefinition(extra);
    const anim = d.animations;
    d.animations = 'hero.anim.json';
    files['models/hero.json'] = JSON.stringify(d);
    files['models/hero.anim.json'] = JSON.stringify(anim);
}

test('installRotSprite: tag defaults, re2dSprite identity, aliases dispatch dynamically', () => {
    fresh();
    json(TAGS.rotsprite, { w: 64, h: 64, body: null });
    is($.re2dSprite, $.rotSprite);
    const w = $.rotSprite.create('a.png');
    for (const n of ['SpriteAtlas', 'Style', 'Pose', 'Expression', 'Emotion', 'Rig', 'Motion', 'Part', 'Reload',
        'HotReload', 'Attach', 'Detach', 'Variant', 'Layer', 'Bone', 'Seek', 'VisibleParts']) {
        is(typeof w['re2d' + n], 'function', n);
    }
    w.rotPose = function (...a) {
        this.got = a;
        return 'own';
    };
    is(w.re2dPose(1, 2), 'own');
    json(w.got, [1, 2]);
    delete w.rotPose;
    is(w.re2dPose(10), w);
    is(last('rotSpritePose')[2], 10);
    const $2 = createApi();
    is($2('#nothing').length, 0);
    is(typeof $2(w.get(0)).rotPose, 'function', 'methods shared by every $');
    is($2.rotSprite !== undefined, true);
    installRotSprite($);
});

test('create: call order, state, unloadable atlas leaves no node and frees the id', () => {
    fresh();
    const w = $.rotSprite.create('hero.png', { id: 'hero', x: 5 });
    json(m.names(), ['rotSpriteLoad', 'rotSpriteInfo']);
    const node = w.get(0);
    keys(node.rot_sprite, ['handle', 'path', 'sprite', 'width', 'style', 'rig', 'motion', 'parts', 'stamps', 'hotReload', 'reloads']);
    is(node.rot_sprite.handle, m.handles[0]);
    is(node.rot_sprite.sprite, m.handles[0].state.sprite);
    json(node.rot_sprite.motion, { mode: 'idle', speed: 1 });
    is(node.rot_sprite.style, 'pixel');
    is(node.rot_cleanup, true);
    is(node.w, 64);
    is(node.x, 5);
    is($('#hero').get(0), node);
    m.fail.add('missing.png');
    const count = $('rotsprite').length;
    throws(() => $.rotSprite.create('missing.png', { id: 'gone' }), TypeError);
    is($('#gone').length, 0);
    is($('rotsprite').length, count);
    $.rotSprite.create('again.png', { id: 'gone' });
    is($('#gone').length, 1);
    throws(() => $('<box>').rotSpriteAtlas('a.png'), TypeError);
    throws(() => $.rotSprite.create(''), TypeError);
    throws(() => $.rotSprite.create(5), TypeError);
    $('box').remove();
});

test('rotSpriteAtlas: failure keeps resource, replacement disposes once, remove disposes', () => {
    fresh();
    const w = $.rotSprite.create('a.png');
    const h1 = R(w).handle;
    throws(() => w.rotSpriteAtlas('missing.png'), TypeError);
    is(R(w).handle, h1);
    is($.rotSprite.info(w).path, 'a.png');
    m.clear();
    is(w.rotSpriteAtlas('b.png'), w);
    json(m.names(), ['rotSpriteLoad', 'rotSpriteInfo', 'rotSpriteDispose']);
    is(m.calls[2][1], h1);
    is(h1.disposed, 1);
    const h2 = R(w).handle;
    w.remove();
    is(h2.disposed, 1);
    is(h1.disposed, 1);
    // rotSpriteInfo throwing right after a load: the new handle is not disposed
    const info = m.impl.rotSpriteInfo;
    m.impl.rotSpriteInfo = () => { throw new Error('info'); };
    throws(() => $.rotSprite.create('c.png'));
    m.impl.rotSpriteInfo = info;
    is(m.handles.at(-1).disposed, undefined);
});

test('rotPose: normalizes, passes exactly 3 arguments, same wrapper, empty wrapper never throws', () => {
    fresh();
    const w = $.rotSprite.create('a.png');
    m.clear();
    is(w.rotPose(720, -90), w);
    is(m.calls.length, 1);
    const c = m.calls[0];
    is(c.length, 4);
    is(c[0], 'rotSpritePose');
    is(c[1], R(w).handle);
    is(c[2], 0);
    is(c[3], -75);
    const e = $(null);
    is(e.rotPose('x'), e);
    is($.rotSprite.pose(e, NaN), e);
    const bare = $('<rotsprite>');
    throws(() => bare.rotPose('x'), RangeError);
    throws(() => bare.rotPose(0), TypeError);
    bare.remove();
});

test('legacy: expression, emotion, rig, motion, tick, errors', () => {
    fresh();
    const w = $.rotSprite.create('a.png');
    const h = R(w).handle;
    m.clear();
    is(w.rotEmotion('happy'), w);
    json(m.names(), ['rotSpriteInfo', 'rotSpritePose']);
    json(m.calls[1].slice(2), [0, 0, 3, 2, 0]);
    w.rotExpression({ mouth: 'open' });
    json(last('rotSpritePose').slice(2), [0, 0, 0, 1, 0], 'omitted fields reset to neutral');
    w.rotEmotion('sad');
    json(last('rotSpritePose').slice(4), [1, 0, 2]);
    throws(() => w.rotExpression({ eyes: 'wide' }), RangeError);
    throws(() => w.rotExpression({ eyes: null }), RangeError);
    throws(() => w.rotEmotion('bored'), RangeError);
    throws(() => w.rotEmotion('toString'), RangeError);
    m.clear();
    is(w.rotMotion('walk'), w);
    json(m.calls, [['rotSpriteRig', h, true, 0, 22, 0, 0, 0]]);
    json(R(w).motion, { mode: 'walk', speed: 1 });
    m.clear();
    tickRotSprite(0.1);
    near(m.of('rotSpriteRig')[0][3], 0.5, 1e-12, 'walk: dt·5·speed');
    w.rotMotion('run', 2);
    is(last('rotSpriteRig')[4], 38);
    m.clear();
    tickRotSprite(0.1);
    near(m.of('rotSpriteRig')[0][3], 2.5, 1e-12, 'run: +dt·10·speed');
    w.rotMotion('idle');
    is(last('rotSpriteRig')[4], 0);
    m.clear();
    tickRotSprite(0.1);
    is(m.of('rotSpriteRig').length, 0, 'idle does not tick');
    throws(() => w.rotMotion('fly', -1), TypeError, 'mode before speed');
    throws(() => w.rotMotion('walk', '2'), RangeError);
    throws(() => w.rotMotion('walk', -1), RangeError);
    throws(() => w.rotMotion('walk', Infinity), RangeError);
    w.rotRig({ phase: 1e7 });
    near(R(w).rig.phase, 1e7 % (2 * Math.PI), 1e-9, 'no 1e6 limit');
    throws(() => w.rotRig({ stride: '5' }), RangeError);
    throws(() => w.rotRig({ armLeft: NaN }), RangeError);
    is(w.rotRig({ stride: 100, armLeft: 270, headYaw: -190, armRight: null, extra: 1 }), w);
    const r = R(w).rig;
    is(r.stride, 75);
    is(r.armLeft, -90);
    is(r.headYaw, 170);
    is(r.armRight, 0);
    is(r.extra, 1);
    json(last('rotSpriteRig').slice(2), [true, r.phase, 75, -90, 0, 170]);
});

test('legacy: rotPart masks and order, info key order, dispose, hot-reload flag', () => {
    fresh();
    const w = $.rotSprite.create('a.png');
    const h = R(w).handle;
    m.stamps['donor.png'] = '7:1';
    m.clear();
    is(w.rotPart('arms', 'donor.png'), w);
    json(m.calls, [['rotSpritePart', h, 'donor.png', 2176], ['rotSpriteFileStamp', 'donor.png']]);
    is(R(w).stamps.arms, '7:1');
    w.rotPart('costume', 'c.png');
    is(last('rotSpritePart')[3], 31712);
    w.rotPart('arms', 'd2.png');
    keys(R(w).parts, ['costume', 'arms']);
    throws(() => w.rotPart('wings', 'x.png'), TypeError);
    throws(() => w.rotPart('arms', 5), TypeError);
    throws(() => w.rotPart('toString', 'x.png'), TypeError);
    const info = $.rotSprite.info(w);
    keys(info, ['style', 'eyes', 'mouth', 'brows', 'yaw', 'pitch', 'version', 'sprite', 'width',
        'path', 'rig', 'motion', 'parts', 'hotReload', 'reloads', 'reloadError', 'milestone']);
    is(info.milestone, 'head');
    is(info.reloadError, null);
    ok(info.rig !== R(w).rig && info.parts !== R(w).parts);
    const native = m.impl.rotSpriteInfo;
    m.impl.rotSpriteInfo = () => ({ path: 'native', style: 'anime', joints: 1 });
    const i2 = $.rotSprite.info(w);
    m.impl.rotSpriteInfo = native;
    keys(i2, ['path', 'style', 'joints', 'rig', 'motion', 'parts', 'hotReload', 'reloads', 'reloadError', 'milestone']);
    is(i2.path, 'a.png');
    is(i2.style, 'anime');
    w.rotHotReload();
    is(R(w).hotReload, true);
    w.rotHotReload(0);
    is(R(w).hotReload, false);
    is($.rotSprite.dispose(w), undefined);
    is(h.disposed, 1);
    is(w.get(0).rot_sprite, null);
    throws(() => w.rotPose(0), TypeError);
    throws(() => w.rotRig({}), TypeError);
    is($.rotSprite.info(w), null);
    is($.rotSprite.info($(null)), null);
    w.rotSpriteAtlas('a.png');
    ok(R(w));
    $.rotSprite.dispose(w);
    w.remove();
    is(h.disposed, 1, 'remove after dispose does not dispose again');
});

test('legacy rotReload: call order, carried state, failure keeps the old resource', () => {
    fresh();
    const w = $.rotSprite.create('a.png');
    w.rotEmotion('sad');
    w.rotPose(30, 10);
    w.rotPart('arms', 'd.png');
    w.rotHotReload();
    const old = R(w);
    m.clear();
    is(w.rotReload(), w);
    json(m.names(), ['rotSpriteInfo', 'rotSpriteLoad', 'rotSpriteInfo', 'rotSpritePart', 'rotSpriteFileStamp',
        'rotSpriteRig', 'rotSpritePose', 'rotSpriteInfo', 'rotSpritePose', 'rotSpriteDispose']);
    json(m.calls[6].slice(2), [30, 10]);
    json(m.calls[8].slice(2), [30, 10, 1, 0, 2]);
    is(m.calls[9][1], old.handle);
    const r = R(w);
    ok(r !== old);
    is(r.reloads, 1);
    is(r.hotReload, true);
    json(r.parts, { arms: 'd.png' });
    is($('rotsprite').length, 1, 'temporary node removed');
    m.fail.add('a.png');
    throws(() => w.rotReload(), TypeError);
    m.fail.delete('a.png');
    is(R(w), r);
    is(r.handle.disposed, undefined);
});

test('model from(file): call order, relative atlas, state, defaults', () => {
    fresh();
    heroFiles();
    m.stamps['models/hero.json'] = 's1';
    const w = $.rotSprite.from('models/hero.json', { id: 'hero' });
    json(reads, ['models/hero.json', 'models/hero.anim.json']);
    json(m.names(), ['rotSpriteLoad', 'rotSpriteInfo', 'rotSpriteInfo', 'rotSpriteFileStamp', 'rotSpriteFileStamp',
        'rotSpriteInfo', 'rotSpriteModelPose', 'rotSpritePose', 'rotSpriteInfo', 'rotSpriteModelPose', 'rotSpritePose']);
    is(m.calls[0][1], 'models/model.png');
    const r = R(w);
    json(r.files, ['models/hero.json', 'models/hero.anim.json']);
    json(r.definitionStamps, { 'models/hero.json': 's1', 'models/hero.anim.json': null });
    json(r.motion, { mode: 'idle', speed: 1, time: 0 });
    json(r.rig, { body: true, phase: 0, stride: 0, armLeft: 0, armRight: 0, headYaw: 0, lift: 0 });
    json(r.faceBase, { eyes: 'open', mouth: 'closed', brows: 'neutral' });
    const mp = last('rotSpriteModelPose');
    is(mp[2], 1);
    is(mp[4], true);
    json(mp[3][0], [7, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]);
    json(last('rotSpritePose').slice(2), [0, 0, 0, 0, 0]);
    const info = $.rotSprite.info(w);
    is(info.path, 'models/model.png');
    is(info.definition, 'models/hero.json');
    is(info.milestone, 'body-prototype');
    keys(info, ['style', 'eyes', 'mouth', 'brows', 'yaw', 'pitch', 'version', 'sprite', 'width', 'joints',
        'definition', 'animationTime', 'layers', 'attachment', 'sockets', 'path', 'rig', 'motion', 'parts',
        'hotReload', 'reloads', 'reloadError', 'milestone']);
    keys(info.sockets, ['hand', 'top', 'grip']);
    is(info.attachment, null);
    // errors before any node exists
    m.clear();
    const count = $('rotsprite').length;
    const e = throws(() => $.rotSprite.from('models/none.json'), Error);
    ok(!(e instanceof TypeError) && !(e instanceof SyntaxError), 'plain Error for an unreadable file');
    files['bad.json'] = '{';
    throws(() => $.rotSprite.from('bad.json'), SyntaxError);
    is(m.calls.length, 0);
    is($('rotsprite').length, count);
});

test('model from(object): style switch, v3 rejected, defaults.motion, bad default motion', () => {
    fresh();
    const src = testDefinition({ style: 'anime', defaults: { motion: 'wave', rig: { lift: 10 }, expression: { eyes: 'closed' } } });
    const w = $.rotSprite.from(src);
    json(m.names().slice(0, 5), ['rotSpriteLoad', 'rotSpriteInfo', 'rotSpriteInfo', 'rotSpriteStyle', 'rotSpriteInfo']);
    const r = R(w);
    is(r.style, 'anime');
    is(r.width, 512);
    is(r.motion.mode, 'wave');
    is(r.rig.lift, 10);
    ok(r.source !== src);
    json(r.source, JSON.parse(JSON.stringify(src)));
    json(r.files, []);
    is($.rotSprite.info(w).definition, null);
    is(last('rotSpritePose')[4], 2, 'eyes closed');
    is(last('rotSpritePose')[5], 1, 'wave clip face track mouth=open overrides faceBase');
    m.version['v3.png'] = 3;
    const count = $('rotsprite').length;
    throws(() => $.rotSprite.from(testDefinition({ atlas: 'v3.png' }), { id: 'v3' }), TypeError);
    is($('rotsprite').length, count);
    is($('#v3').length, 0);
    is(m.handles.at(-1).disposed, 1);
    throws(() => $.rotSprite.from(testDefinition({ defaults: { motion: 'fly' } })), TypeError);
    is(m.handles.at(-1).disposed, 1);
});

test('model: rotSeek + joints, animationTime, rotBone, unknown bone/clip, definition() copy', () => {
    fresh();
    const w = $.rotSprite.from(testDefinition());
    is(w.rotSeek(1), w);
    const s = Math.SQRT1_2 * 10;
    let j = $.rotSprite.info(w).joints.hand;
    near(j.x, 64 + 10 + s, 1e-9);
    near(j.y, 64 + s, 1e-9);
    is($.rotSprite.info(w).animationTime, 1);
    w.rotPose(90);
    j = $.rotSprite.info(w).joints.hand;
    near(j.x, 64, 1e-9);
    near(j.y, 64 + s, 1e-9);
    w.rotPose(0);
    throws(() => w.rotSeek(-1), RangeError);
    throws(() => w.rotSeek('1'), RangeError);
    throws(() => w.rotBone('leg', {}), TypeError);
    throws(() => w.rotMotion('fly'), TypeError);
    throws(() => w.rotBone('arm', { rotation: [0, 0, 1e7] }), RangeError);
    throws(() => w.rotBone('arm', { rotation: [1, 2] }), TypeError);
    w.rotBone('arm', { rotation: [0, 0, 30] });
    w.rotBone('arm', { translation: [1, 2, 3] });
    json(R(w).boneOverrides.arm, { 'rotation.x': 0, 'rotation.y': 0, 'rotation.z': 30, 'translation.x': 1, 'translation.y': 2, 'translation.z': 3 });
    near(R(w).modelPose.bones.arm[4], 0.5, 1e-12, 'override wins over the clip (45°)');
    const d1 = $.rotSprite.definition(w);
    d1.rig.bones[0].name = 'zzz';
    is($.rotSprite.definition(w).rig.bones[0].name, 'root');
    const legacy = $.rotSprite.create('a.png');
    is($.rotSprite.definition(legacy), null);
    for (const f of [() => legacy.rotSeek(0), () => legacy.rotBone('arm'), () => legacy.rotLayer('idle'), () => legacy.rotVisibleParts()]) {
        throws(f, TypeError);
    }
});

test('model: layers override the base clip, are removed cleanly, re-enabling keeps time and order', () => {
    fresh();
    const w = $.rotSprite.from(testDefinition());
    w.rotSeek(0.5);
    near(R(w).modelPose.bones.arm[4], Math.sin(Math.PI / 8), 1e-12, 'idle at 0.5 s: 22.5°');
    is(w.rotLayer('wave'), w);
    near(R(w).modelPose.bones.arm[4], Math.SQRT1_2, 1e-12, 'wave layer: 45°');
    is(last('rotSpritePose')[5], 1, 'layer face track');
    json($.rotSprite.info(w).layers, { wave: { time: 0, speed: 1 } });
    w.rotLayer('wave', false);
    near(R(w).modelPose.bones.arm[4], Math.sin(Math.PI / 8), 1e-12);
    json(R(w).layers, {});
    is(last('rotSpritePose')[5], 0);
    w.rotLayer('wave');
    w.rotLayer('idle');
    w.rotMotion('idle', 0);
    tickRotSprite(0.25);
    w.rotLayer('wave', true, 2);
    keys(R(w).layers, ['wave', 'idle']);
    json(R(w).layers.wave, { time: 0.25, speed: 2 });
    throws(() => w.rotLayer('nope'), TypeError);
    throws(() => w.rotLayer('wave', true, -1), RangeError);
    throws(() => w.rotLayer('wave', true, '1'), RangeError);
});

test('model: visible parts (validation, dedupe, survive reload and style), rotPart ids, rotVariant', () => {
    fresh();
    heroFiles();
    const w = $.rotSprite.from('models/hero.json');
    is(w.rotVisibleParts([12, 12]), w);
    json(R(w).visibleParts, [12]);
    json(last('rotSpriteModelPose')[3].map((r) => r[4]), [0, 0, 1]);
    throws(() => w.rotVisibleParts([5]), TypeError);
    throws(() => w.rotVisibleParts([1.5]), TypeError);
    throws(() => w.rotVisibleParts('7'), TypeError);
    json(R(w).visibleParts, [12]);
    w.rotReload();
    json(R(w).visibleParts, [12]);
    json(last('rotSpriteModelPose')[3].map((r) => r[4]), [0, 0, 1]);
    const before = R(w);
    is(w.rotStyle('anime'), w);
    ok(R(w) !== before);
    is($.rotSprite.info(w).style, 'anime');
    is(R(w).style, 'anime');
    json(R(w).visibleParts, [12]);
    throws(() => w.rotStyle('cel'), TypeError);
    w.rotVisibleParts();
    is(R(w).visibleParts, null);
    m.clear();
    w.rotPart('arm', 'x.png');
    json(m.calls[0].slice(2), ['x.png', [9, 12]]);
    w.rotVariant('arm', 'long');
    is(last('rotSpritePart')[2], 'models/arms/long.png');
    throws(() => w.rotVariant('arm', 'short'), TypeError);
    const o = $.rotSprite.from(testDefinition());
    o.rotVariant('arm', 'long');
    is(last('rotSpritePart')[2], 'arms/long.png');
    // a failed style switch restores the style
    files['models/hero.json'] = '{';
    throws(() => w.rotStyle('pixel'), SyntaxError);
    is(R(w).style, 'anime');
});

test('model: hot reload polls every 0.5 s of dt, reloads, reports and retries errors', () => {
    fresh();
    tickRotSprite(1); // resets the shared poll timer
    heroFiles();
    m.stamps['models/hero.json'] = 's1';
    const w = $.rotSprite.from('models/hero.json');
    w.rotHotReload();
    w.rotMotion('idle', 0);
    m.clear();
    tickRotSprite(0.3, 0);
    is(m.of('rotSpriteChanged').length, 0);
    tickRotSprite(0.3, 0);
    is(m.of('rotSpriteChanged').length, 1, 'poll uses dt, not motionDt');
    is(R(w).reloads, 0);
    m.stamps['models/hero.json'] = 's2';
    tickRotSprite(0.5);
    is(R(w).reloads, 1);
    is(R(w).hotReload, true);
    const sprite = R(w).sprite, handle = R(w).handle;
    m.stamps['models/hero.json'] = 's3';
    files['models/hero.json'] = '{bad';
    tickRotSprite(0.5);
    ok(String(R(w).reloadError).includes('SyntaxError'));
    is($.rotSprite.info(w).reloadError, R(w).reloadError);
    is(R(w).handle, handle);
    is(R(w).sprite, sprite);
    throws(() => w.rotReload(), SyntaxError);
    is(R(w).handle, handle);
    heroFiles();
    tickRotSprite(0.5);
    is(R(w).reloads, 2);
    ok(!('reloadError' in R(w)));
    is($.rotSprite.info(w).reloadError, null);
    m.clear();
    m.changed.add('models/model.png');
    tickRotSprite(0.5);
    is(R(w).reloads, 3, 'atlas change');
    m.changed.clear();
    // part stamps
    w.rotPart('arm', 'p.png');
    m.stamps['p.png'] = 'x';
    tickRotSprite(0.5);
    is(R(w).reloads, 4);
    json(R(w).parts, { arm: 'p.png' });
    is(R(w).stamps.arm, 'x');
    tickRotSprite(0.5);
    is(R(w).reloads, 4);
    const created = [...m.handles];
    $('rotsprite').remove();
    for (const h of created) is(h.disposed, 1, `handle ${h.id} disposed once`);
});

test('model reload rejects a vanished clip, part, layer or socket and keeps state', () => {
    fresh();
    heroFiles();
    const w = $.rotSprite.from('models/hero.json');
    w.rotLayer('wave');
    const r = R(w);
    const d = testDefinition();
    delete d.animations.clips.wave;
    const anim = d.animations;
    d.animations = 'hero.anim.json';
    files['models/hero.anim.json'] = JSON.stringify(anim);
    throws(() => w.rotReload(), TypeError);
    is(R(w), r);
    heroFiles();
    w.rotLayer('wave', false);
    w.rotVisibleParts([12]);
    const d2 = testDefinition();
    d2.rig.parts.pop();
    d2.groups = {};
    files['models/hero.json'] = JSON.stringify({ ...d2, animations: 'hero.anim.json' });
    throws(() => w.rotReload(), TypeError);
    is(R(w), r);
    is($('rotsprite').length, 1);
    heroFiles();
    w.rotReload();
    is(R(w).worldComposed, undefined);
    ok(Object.hasOwn(R(w), 'worldComposed'), 'worldComposed key always written');
});

test('sockets: grip follows the parent socket, pose follows the parent, survives overrides and reloads', () => {
    fresh();
    heroFiles();
    const parent = $.rotSprite.from('models/hero.json', { id: 'P', x: 100, y: 80, layer: 3, depth: 2 });
    parent.size(96, 80);
    const item = $.rotSprite.from(testDefinition(), { id: 'I' });
    const match = (msg) => {
        const a = T3($.rotSprite.info(item).sockets.grip.matrix);
        const b = T3($.rotSprite.info(parent).sockets.hand.matrix);
        for (let k = 0; k < 3; k++) near(a[k], b[k], 1e-9, `${msg} [${k}]`);
    };
    is(item.rotAttach(parent, 'hand', { grip: 'grip', rotation: [0, 0, 15] }), item);
    match('attach');
    json($.rotSprite.info(item).attachment, { socket: 'hand', grip: 'grip', parent: 'P' });
    ok(R(parent).children.has(item.get(0)));
    const n = item.get(0);
    is(n.x, 100);
    is(n.y, 80);
    is(n.w, 96);
    is(n.h, 80);
    is(n.layer, 3);
    ok(n.depth === 2.01 || n.depth === 1.99);
    m.clear();
    item.rotSeek(0);
    json(m.names(), ['rotSpriteInfo', 'rotSpriteInfo', 'rotSpriteModelPose', 'rotSpritePose'], 'attached applyModel order');
    is(m.calls[0][1], R(item).handle);
    is(m.calls[1][1], R(parent).handle);
    is(m.calls[2][1], R(item).handle);
    is(m.calls[2][2], R(parent).modelPose.scale);
    parent.rotPose(40, 20);
    const p = m.of('rotSpritePose').filter((c) => c[1] === R(item).handle).at(-1);
    json(p.slice(2, 4), [40, 20]);
    is(R(item).modelPose.scale, R(parent).modelPose.scale);
    parent.rotBone('arm', { rotation: [0, 0, 70] });
    match('after parent override');
    parent.rotReload();
    match('after parent reload');
    ok(R(parent).children.has(n));
    item.rotReload();
    match('after item reload');
    is(R(item).attachment.parent, parent.get(0));
    throws(() => item.rotPose('x'), RangeError, 'angles first');
    throws(() => item.rotPose(0), TypeError, 'attached');
    // rejected without changing the attachment
    const a = R(item).attachment;
    throws(() => parent.rotAttach(item, 'hand'), TypeError, 'cycle');
    throws(() => item.rotAttach(item, 'hand'), TypeError, 'self');
    throws(() => item.rotAttach(parent, 'nope'), TypeError, 'unknown socket');
    throws(() => item.rotAttach(parent, 'hand', { grip: 'nope' }), TypeError, 'unknown grip');
    throws(() => item.rotAttach(parent, 'hand', { scale: [1, 0, 1] }), RangeError);
    throws(() => $([n, parent.get(0)]).rotAttach(parent, 'hand'), TypeError, 'two nodes');
    throws(() => item.rotAttach($.rotSprite.create('a.png'), 'hand'), TypeError, 'legacy parent');
    is(R(item).attachment, a);
    is(R(parent).attachment, null);
    // portrait parent hides items on non-portrait sockets only
    parent.rotRig({ body: false });
    json(R(item).modelPose.records.map((r) => r[4]), [0, 0, 0]);
    item.rotAttach(parent, 'top');
    json(R(item).modelPose.records.map((r) => r[4]), [1, 1, 1]);
    ok(!R(parent).children.has(n) === false);
    // removing the parent detaches the child
    parent.remove();
    is($.rotSprite.info(item).attachment, null);
    ok(R(item));
});

test('sockets: rotDetach keeps the placement; equip attaches a definition item', () => {
    fresh();
    heroFiles({ equipment: { sword: { model: 'sword.json', socket: 'hand', grip: 'grip' } } });
    files['models/sword.json'] = JSON.stringify(testDefinition());
    const parent = $.rotSprite.from('models/hero.json', { id: 'P2' });
    const item = $.rotSprite.equip(parent, 'sword', { id: 'S' });
    json($.rotSprite.info(item).attachment, { socket: 'hand', grip: 'grip', parent: 'P2' });
    ok(reads.includes('models/sword.json'));
    throws(() => $.rotSprite.equip(parent, 'shield'), TypeError);
    const n = item.get(0);
    n.x = 5;
    parent.at(50, 60);
    parent.rotPose(10);
    is(n.x, 50);
    is(item.rotDetach(), item);
    is(R(item).attachment, null);
    ok(!R(parent).children.has(n));
    parent.at(0, 0);
    parent.rotPose(20);
    is(n.x, 50, 'keeps its last position');
});

test('world composition: prepareRotWorldPose uses Prepare, registerRotWorldNode snapshots children', () => {
    fresh();
    const parent = $.rotSprite.from(testDefinition());
    const item = $.rotSprite.from(testDefinition());
    item.rotAttach(parent, 'hand');
    throws(() => prepareRotWorldPose({}, 'x', 0), RangeError);
    throws(() => prepareRotWorldPose({}, 0, 0), TypeError);
    registerRotWorldNode({});
    registerRotWorldNode(parent.get(0));
    is(R(parent).worldComposed, true);
    ok(Array.isArray(R(parent).nativeChildren));
    is(R(parent).nativeChildren[0], item.get(0));
    is(R(item).worldComposed, true);
    m.clear();
    prepareRotWorldPose(parent.get(0), 370, 80);
    json(m.calls[0].slice(0, 4), ['rotSpritePrepare', R(parent).handle, 10, 75]);
    ok(m.names().includes('rotSpriteModelPose'));
    is(m.of('rotSpritePose').length, 0, 'children submit through Prepare');
    is(m.of('rotSpritePrepare').at(-1)[1], R(item).handle);
});

test('renderer: pixel snapping, anime rect, culling, withAlpha, worldComposed forces a pose', () => {
    fresh();
    const pushes = [];
    const gfx = $.gfx;
    $.gfx = { push: { sprite: (...a) => pushes.push(a) } };
    const draw = renderers.get('rotsprite');
    const w = $.rotSprite.create('a.png');
    const n = w.get(0);
    draw(n, { x: 100.5, y: 50.5, w: 64, h: 64 }, { w: 640, h: 480 });
    json(pushes[0], [R(w).sprite, 101, 51, 128, 128, 0, -1, 0]);
    n.alpha = 0.5;
    draw(n, { x: 100, y: 100, w: 300, h: 300 }, { w: 640, h: 480 });
    json(pushes[1].slice(1, 7), [100, 100, 256, 256, 0, -2130706433]);
    draw(n, { x: -200, y: 100, w: 64, h: 64 }, { w: 640, h: 480 });
    draw(n, { x: 100, y: 700, w: 64, h: 64 }, { w: 640, h: 480 });
    is(pushes.length, 2, 'culled');
    const a = $.rotSprite.from(testDefinition({ style: 'anime' }));
    draw(a.get(0), { x: 10.5, y: 20.5, w: 33, h: 44 }, { w: 640, h: 480 });
    json(pushes[2].slice(1, 5), [10.5, 20.5, 33, 44]);
    registerRotWorldNode(a.get(0));
    m.clear();
    draw(a.get(0), { x: 10, y: 20, w: 30, h: 30 }, { w: 640, h: 480 });
    json(m.names(), ['rotSpriteInfo', 'rotSpritePose']);
    is(m.calls[1].length, 4);
    const bare = $('<rotsprite>');
    draw(bare.get(0), { x: 0, y: 0, w: 64, h: 64 }, { w: 640, h: 480 });
    is(pushes.length, 4);
    $.gfx = gfx;
    is(withAlpha(0x11223344, 0x11 / 255), 0x11223344);
    is(withAlpha(-1, 2), -1);
    is(withAlpha(0x7f000000, -1), 0);
    is(withAlpha(0, 0.5), -2147483648);
});

test('tick: model motion time and rig.phase without native rig calls, one-shot stops, roots only', () => {
    fresh();
    const w = $.rotSprite.from(testDefinition());
    m.clear();
    tickRotSprite(0.5);
    is(R(w).motion.time, 0.5);
    near(R(w).rig.phase, Math.PI / 2, 1e-12);
    is(m.of('rotSpriteRig').length, 0);
    is(m.of('rotSpriteModelPose').length, 1);
    is($.rotSprite.info(w).animationTime, 0.5);
    w.rotMotion('wave', 2);
    tickRotSprite(0.75);
    is(R(w).motion.time, 1.5);
    tickRotSprite(0.5);
    is(R(w).motion.time, 1.5, 'one-shot stops once time >= duration');
    w.rotMotion('idle', 0);
    m.clear();
    tickRotSprite(0.1);
    is(m.of('rotSpriteModelPose').length, 0, 'speed 0: nothing changes');
    const item = $.rotSprite.from(testDefinition());
    item.rotAttach(w, 'hand');
    item.rotMotion('idle');
    m.clear();
    tickRotSprite(0.1);
    const mp = m.of('rotSpriteModelPose');
    is(mp.length, 2, 'root applyModel covers the child once');
    is(mp[0][1], R(w).handle);
    is(mp[1][1], R(item).handle);
});

test('quirks: atlas style always pixel, model rotPose does not rebuild, model emotions, same-style no-op', () => {
    fresh();
    const info = m.impl.rotSpriteInfo;
    m.impl.rotSpriteInfo = (h) => ({ ...info(h), style: 'anime', width: 512 });
    const w = $.rotSprite.create('a.png');
    m.impl.rotSpriteInfo = info;
    is(R(w).style, 'pixel');
    is(R(w).width, 512);
    keys($.rotSprite, ['create', 'from', 'equip', 'definition', 'pose', 'info', 'dispose']);
    const md = $.rotSprite.from(testDefinition());
    m.clear();
    md.rotPose(15, 5);
    json(m.names(), ['rotSpritePose'], 'no model rebuild');
    md.rotEmotion('glad');
    json(R(md).faceBase, { eyes: 'happy', mouth: 'smile', brows: 'neutral' });
    json(last('rotSpritePose').slice(2), [15, 5, 3, 2, 0]);
    throws(() => md.rotEmotion('happy'), RangeError, 'model nodes use their own table');
    m.clear();
    is(md.rotStyle('pixel'), md);
    is(m.calls.length, 0, 'same style: no reload');
    throws(() => $('<rotsprite>').rotStyle('anime'), TypeError);
    $('rotsprite').remove();
});

test('host subset: selection, eachNode, remove listeners, globalPos, at/size', () => {
    fresh();
    const a = $('<rotsprite>', { id: 'ha', x: 1, y: 2 });
    const b = $('<rotsprite>');
    is($(a), a);
    ok($(a.get(0)) !== a && $(a.get(0)).get(0) === a.get(0));
    json($([a.get(0), b.get(0)]).nodes.map((n) => n.id), ['ha', null]);
    const snap = $('rotsprite');
    is(snap.length, 2);
    is(snap.get(0), a.get(0));
    is(snap.get(5), undefined);
    is($(false).length, 0);
    is($(undefined).length, 0);
    const seen = [];
    is(snap.eachNode(function (i, n) { seen.push([i, n === snap.get(i), this === snap]); }), snap);
    json(seen, [[0, true, true], [1, true, true]]);
    json(a.globalPos(), { x: 1, y: 2 });
    json($(null).globalPos(), { x: 0, y: 0 });
    is(a.at(7, 8).size(10), a);
    json([a.get(0).x, a.get(0).y, a.get(0).w, a.get(0).h], [7, 8, 10, 10]);
    const n = a.get(0);
    keys(n, ['tag', 'id', 'x', 'y', 'w', 'h', 'scale_x', 'scale_y', 'layer', 'depth', 'color', 'alpha', 'blend_mode', 'parent_node', 'removed']);
    let order = [];
    n.on('remove', () => { order.push('first'); throw new Error('listener error is logged'); });
    n.on('remove', () => order.push(['second', n.removed, $('#ha').length, $('rotsprite').length]));
    is(a.remove(), a);
    json(order, ['first', ['second', true, 0, 1]]);
    is($('#ha').length, 0);
    b.remove();
});

done('rotsprite_node');
