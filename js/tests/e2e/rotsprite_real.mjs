// re2d end-to-end test: $.re2dSprite on the REAL engine natives of re2d-qjs — renders the animal/prop atlases and checks pixel facts and native errors.
// Usage: re2d-qjs rotsprite_real.mjs FIXTURE_DIR OUT_DIR — FIXTURE_DIR holds animal.png/prop.png (golden atlases) and the
// {animal,prop}.{character,animations}.json data files (js/tests/run.sh prepares it).
import { createApi } from '../../../src/highlevel/api.js';
import { test, ok, is, json, keys, throws, done } from '../_harness.mjs';

const [, dir, out] = scriptArgs;
const $ = createApi();
const read = (name) => JSON.parse($.fs.readText(`${dir}/${name}`));

// Test-local definitions: pixel style, absolute paths, a socket on the animal's front paw and a grip on the prop.
function animalDef() {
    const d = read('animal.character.json');
    d.style = 'pixel';
    d.atlas = `${dir}/animal.png`;
    d.animations = `${dir}/animal.animations.json`;
    d.rig.sockets = [{ name: 'paw', bone: 'paw0', point: [-11, 14, 6] }];
    return d;
}
function propDef() {
    const d = read('prop.character.json');
    d.style = 'pixel';
    d.atlas = `${dir}/prop.png`;
    d.animations = `${dir}/prop.animations.json`;
    d.rig.sockets = [{ name: 'grip', bone: 'object', point: [0, 0, 0] }];
    return d;
}
const px = (w) => engine.spritePixels(w.get(0).rot_sprite.sprite);
const opaque = (p) => {
    let n = 0;
    for (let i = 3; i < p.length; i += 4) if (p[i]) n++;
    return n;
};
const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
function centroid(p, size) {
    let sx = 0, sy = 0, n = 0;
    for (let i = 0; i < size * size; i++) {
        if (p[i * 4 + 3]) {
            sx += i % size;
            sy += Math.floor(i / size);
            n++;
        }
    }
    return { x: sx / n, y: sy / n, n };
}

test('native: load, info keys, sizes, errors by class', () => {
    const h = engine.rotSpriteLoad(`${dir}/animal.png`);
    const info = engine.rotSpriteInfo(h);
    keys(info, ['style', 'body', 'version', 'brows', 'eyes', 'mouth', 'surfaceSamples', 'sprite', 'texture',
        'revision', 'yaw', 'pitch', 'disposed', 'width', 'height', 'atlasWidth']);
    is(info.version, 2);
    is(info.width, 128);
    is(info.revision, 1);
    is(info.atlasWidth, 1024);
    ok(opaque(engine.spritePixels(info.sprite)) > 0, 'head-only initial raster');
    throws(() => engine.rotSpriteLoad(`${dir}/nope.png`), TypeError);
    throws(() => engine.rotSpriteLoad(5), TypeError);
    throws(() => engine.rotSpriteLoad(`${dir}/animal.character.json`), TypeError);
    throws(() => engine.rotSpriteInfo({}), TypeError);
    throws(() => engine.rotSpritePose(h, 0), TypeError, '< 3 args');
    throws(() => engine.rotSpritePose(h, NaN, 0), RangeError);
    throws(() => engine.rotSpritePose(h, 0, 0, 0, 0, 4), RangeError);
    throws(() => engine.rotSpritePose(h, 0, 0, 5), RangeError);
    is(engine.rotSpritePose(h, 370, 80), info.sprite);
    const i2 = engine.rotSpriteInfo(h);
    is(i2.yaw, 10);
    is(i2.pitch, 75);
    is(i2.revision, 2);
    engine.rotSpritePose(h, 10, 75);
    is(engine.rotSpriteInfo(h).revision, 2, 'same pose twice does no work');
    engine.rotSpritePrepare(h, 20, 0, 1);
    is(engine.rotSpriteInfo(h).revision, 2, 'prepare does not synthesise');
    is(engine.rotSpriteInfo(h).eyes, 1);
    throws(() => engine.rotSpriteRig(h, true, 0, 0, 0, 0), TypeError, '< 7 args');
    throws(() => engine.rotSpriteRig(h, true, NaN, 0, 0, 0, 0), RangeError);
    engine.rotSpriteRig(h, true, 0, 22, 0, 0, 0);
    is(engine.rotSpriteInfo(h).body, true);
    keys(engine.rotSpriteInfo(h).joints, ['head', 'shoulderLeft', 'shoulderRight', 'handLeft', 'handRight', 'hipLeft',
        'hipRight', 'kneeLeft', 'kneeRight', 'footLeft', 'footRight']);
    throws(() => engine.rotSpriteStyle(h, 5), TypeError);
    throws(() => engine.rotSpriteStyle(h, 'cel'), RangeError);
    throws(() => engine.rotSpritePart(h, `${dir}/prop.png`), TypeError, '< 3 args');
    throws(() => engine.rotSpritePart(h, `${dir}/prop.png`, 1), RangeError, 'bit 0');
    throws(() => engine.rotSpritePart(h, `${dir}/prop.png`, 1 << 10), RangeError, 'bit 10');
    throws(() => engine.rotSpritePart(h, `${dir}/prop.png`, [0]), RangeError);
    throws(() => engine.rotSpritePart(h, `${dir}/prop.png`, [3, 3]), RangeError);
    throws(() => engine.rotSpritePart(h, `${dir}/prop.png`, [90]), RangeError, 'donor contributes nothing');
    const row = [90, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0];
    throws(() => engine.rotSpriteModelPose(h, 1), TypeError);
    throws(() => engine.rotSpriteModelPose(h, 1, 'rows'), TypeError);
    throws(() => engine.rotSpriteModelPose(h, 9, [row]), RangeError);
    throws(() => engine.rotSpriteModelPose(h, 1, []), RangeError);
    throws(() => engine.rotSpriteModelPose(h, 1, [row.slice(1)]), TypeError);
    throws(() => engine.rotSpriteModelPose(h, 1, [[...row.slice(0, 16), 2e6]]), RangeError);
    throws(() => engine.rotSpriteModelPose(h, 1, [row, row]), RangeError, 'duplicate id');
    throws(() => engine.rotSpriteModelPose(h, 1, [[90, 4, ...row.slice(2)]]), RangeError, 'selector');
    throws(() => engine.rotSpriteModelPose(h, 1, [[90, -1, ...row.slice(2)]]), RangeError, 'selector -1 (array selector quirk)');
    is(engine.rotSpriteModelPose(h, 1, [row]), undefined);
    // conversions that re-enter the natives with the same handle (no RefCell panic)
    const reenter = { valueOf() { engine.rotSpritePose(h, 5, 0); return 1; } };
    is(engine.rotSpriteModelPose(h, reenter, [row]), undefined);
    is(typeof engine.rotSpritePose(h, reenter, reenter), 'number');
    is(typeof engine.rotSpriteRig(h, true, reenter, 0, 0, 0, 0), 'number');
    throws(() => engine.rotSpriteFileStamp(5), TypeError);
    is(engine.rotSpriteFileStamp(`${dir}/nope.png`), null);
    ok(/^\d+:\d+$/.test(engine.rotSpriteFileStamp(`${dir}/animal.png`)));
    is(engine.rotSpriteChanged(h), false);
    const sprite = engine.rotSpriteInfo(h).sprite;
    is(engine.rotSpriteDispose(h), undefined);
    engine.rotSpriteDispose(h);
    const d = engine.rotSpriteInfo(h);
    is(d.disposed, true);
    is(d.sprite, -1);
    is(d.texture, -1);
    is(d.atlasWidth, 0);
    is(engine.rotSpriteChanged(h), false);
    is(engine.spritePixels(sprite), null, 'sprite freed');
    throws(() => engine.rotSpritePose(h, 0, 0), TypeError);
    throws(() => engine.rotSpriteModelPose(h, 1, [row]), TypeError);
    throws(() => engine.saveSprite(sprite, `${out}/x.png`), RangeError);
});

test('style switch makes a new 512 sprite and frees the old one', () => {
    const h = engine.rotSpriteLoad(`${dir}/animal.png`);
    const s1 = engine.rotSpriteInfo(h).sprite;
    const s2 = engine.rotSpriteStyle(h, 'anime');
    ok(s2 !== s1);
    is(engine.rotSpriteInfo(h).width, 512);
    is(engine.rotSpriteInfo(h).style, 'anime');
    is(engine.spritePixels(s1), null);
    is(engine.spritePixels(s2).length, 512 * 512 * 4);
    is(engine.rotSpriteStyle(h, 'anime'), s2);
    engine.rotSpriteDispose(h);
});

test('model render: non-empty, yaw changes it, deterministic bytes, PNG output', () => {
    const a = $.re2dSprite.from(animalDef());
    a.rotMotion('walk', 0);
    a.rotPose(30, 10);
    const p1 = px(a);
    is(p1.length, 128 * 128 * 4);
    ok(opaque(p1) > 300, `opaque pixels: ${opaque(p1)}`);
    a.rotPose(120, 10);
    const p2 = px(a);
    ok(!same(p1, p2), 'turning changes the sprite');
    const b = $.re2dSprite.from(animalDef());
    b.rotMotion('walk', 0);
    b.rotPose(30, 10);
    ok(same(p1, px(b)), 'identical inputs give identical bytes');
    a.rotPose(30, 10);
    ok(same(p1, px(a)), 'back to the same pose');
    engine.saveSprite(a.get(0).rot_sprite.sprite, `${out}/animal-model.png`);
    a.at(160, 120).size(256, 256);
    b.remove();
    engine.clear(30, 30, 40, 255);
    $.render();
    engine.savePNG(`${out}/animal-frame.png`);
    const bg = (x, y) => {
        const c = engine.readPixel(x, y);
        return c[0] === 30 && c[1] === 30 && c[2] === 40;
    };
    let inside = 0, outside = 0;
    for (let y = 0; y < 480; y += 2) {
        for (let x = 0; x < 640; x += 2) {
            const inRect = x >= 32 && x < 288 && y >= -8 && y < 248;
            if (!bg(x, y)) inRect ? inside++ : outside++;
        }
    }
    ok(inside > 200, `the sprite is drawn into its 256×256 rect: ${inside}`);
    is(outside, 0, 'nothing outside the rect');
    a.remove();
});

test('rotVisibleParts hides the head', () => {
    const a = $.re2dSprite.from(animalDef());
    a.rotMotion('walk', 0);
    a.rotPose(90, 0);
    const full = px(a);
    a.rotVisibleParts([91]);
    const head = px(a);
    a.rotVisibleParts([90, 92, 93, 94, 95, 96]);
    const rest = px(a);
    engine.saveSprite(a.get(0).rot_sprite.sprite, `${out}/animal-headless.png`);
    let headOnly = 0;
    for (let i = 3; i < head.length; i += 4) if (head[i] && !rest[i]) headOnly++;
    ok(opaque(head) > 20, 'head alone is visible');
    ok(headOnly > 20, `head pixels vanish when hidden: ${headOnly}`);
    ok(opaque(rest) < opaque(full));
    a.rotVisibleParts(null);
    ok(same(px(a), full));
    a.remove();
});

test('a socket-attached prop moves with the paw', () => {
    const a = $.re2dSprite.from(animalDef(), { id: 'cat' });
    a.rotMotion('walk', 0);
    const item = $.re2dSprite.from(propDef());
    item.rotMotion('spin', 0);
    item.rotAttach(a, 'paw', { grip: 'grip', scale: [0.25, 0.25, 0.25] });
    const sock = () => {
        const m = $.rotSprite.info(a).sockets.paw.matrix;
        return { x: 64 + m[3], y: 64 + m[7] };
    };
    const c0 = centroid(px(item), 128), s0 = sock();
    ok(c0.n > 10, `item is drawn: ${c0.n}`);
    a.rotBone('paw0', { rotation: [0, 0, 60] });
    const c1 = centroid(px(item), 128), s1 = sock();
    engine.saveSprite(item.get(0).rot_sprite.sprite, `${out}/prop-on-paw.png`);
    ok(Math.hypot(s1.x - s0.x, s1.y - s0.y) > 5, 'the paw socket moved');
    ok(Math.abs((c1.x - c0.x) - (s1.x - s0.x)) < 1.5 && Math.abs((c1.y - c0.y) - (s1.y - s0.y)) < 1.5,
        `item moved with the socket: item Δ(${(c1.x - c0.x).toFixed(2)}, ${(c1.y - c0.y).toFixed(2)}) socket Δ(${(s1.x - s0.x).toFixed(2)}, ${(s1.y - s0.y).toFixed(2)})`);
    a.rotPose(60, 0);
    const i = engine.rotSpriteInfo(item.get(0).rot_sprite.handle);
    is(i.yaw, 60, 'item takes the parent yaw');
    a.remove();
    is($.rotSprite.info(item).attachment, null);
    item.remove();
});

done('rotsprite_real');
