// re2d tests: issue 30 — `$.mesh.load(pathOrObject, opts)` / `loadCharacter(mesh, …)`: result
// shape, clip sampling (loop, one-shot, step, root translations), draw order and z, textures
// relative to the JSON file, the same draws through the plain-JS `$.mesh`, scale/offset, and bad
// input → the documented error with nothing drawn. The pixel proof against the reference
// renderer is qjs/tests/mesh_load_rig.rs (make test-mesh-load).
import { installMesh, loadCharacter } from '../../src/highlevel/mesh.js';
import { readText } from 're2d/native';
import { plainMesh } from './_plainmesh.mjs';
import { test, ok, is, near, json, keys, throws, done } from './_harness.mjs';

const here = scriptArgs[0].replace(/[^/]*$/, '');
const ARM = `${here}../../tests/riv/fixtures/arm`;
const readJson = (p) => JSON.parse(readText(p));

// An engine that records textures and submissions; submitMesh returns the triangle count.
function recorder() {
    const rec = { textures: [], submits: [] };
    globalThis.engine = {
        loadTexture(path) {
            rec.textures.push(path);
            return 10 + rec.textures.length - 1;
        },
        submitMesh(flat, count, texture) {
            rec.submits.push({ count, texture, v: Array.from(flat.slice(0, count * 8)) });
            return count / 3;
        },
        log() {},
    };
    return rec;
}

// A small model: root `a` at (10, 20) with child `b`; parts p (depth 0.5) and q, r (depth 0.2, tie).
function model(over) {
    const quad = (x, bone) => ({
        verts: [x, 0, x + 4, 0, x + 4, 4, x, 4],
        uv: [0, 0, 1, 0, 1, 1, 0, 1],
        tris: [0, 1, 2, 0, 2, 3],
        weights: [[bone, 1], [[bone, 1]], [bone, 0.5, 'a', 0.5], null],
    });
    return Object.assign({
        version: 1,
        skeleton: { a: { x: 10, y: 20, length: 5, angle: 0 }, b: { parent: 'a', length: 3, angle: 0.5 } },
        parts: [Object.assign(quad(0, 'a'), { name: 'p', depth: 0.5 }), Object.assign(quad(8, 'b'), { name: 'q', depth: 0.2 }),
            Object.assign(quad(16, 'b'), { name: 'r', depth: 0.2 })],
        clips: {
            walk: { duration: 2, loop: true, tracks: { b: [[0, 0], [1, 1], [2, 0]] }, translations: { a: [[0, 0, 0], [2, 4, -8]] } },
            once: { duration: 1, tracks: { a: [[0.25, 0.5], [0.75, 1.5]] } },
            hop: { duration: 1, loop: true, interpolation: 'step', tracks: { b: [[0, 1], [0.5, 2]] } },
        },
    }, over || {});
}

test('shape: skeleton, parts, clips, pose, draw; $.mesh own keys unchanged', () => {
    recorder();
    const mesh = installMesh({});
    keys(mesh, ['skeleton', 'part', 'ik', 'fromSlice', 'draw', 'scratchSize', 'flatSize', 'posed']);
    is(typeof mesh.load, 'function');
    const ch = mesh.load(model());
    keys(ch, ['skeleton', 'parts', 'clips', 'layers', 'pose', 'draw']);
    json(ch.layers, []);
    json(ch.clips, { walk: { duration: 2, loop: true }, once: { duration: 1, loop: false }, hop: { duration: 1, loop: true } });
    json(ch.skeleton.bones(), ['a', 'b']);
    json(ch.parts.map((p) => p.name), ['p', 'q', 'r']);
    is(ch.parts[0].vertexCount, 4);
    // flat weights for $.mesh.part from pairs, nested pairs and null
    json(ch.parts[0].weights, [[['a', 1]], [['a', 1]], [['a', 0.5], ['a', 0.5]], []]);
});

test('pose: additive angles at t, linear between keys, held outside, looping and one-shot', () => {
    recorder();
    const ch = installMesh({}).load(model());
    json(ch.pose('walk', 0.5), { angles: { b: 0.5 }, offsets: { a: { x: 1, y: -2 } } });
    json(ch.pose('walk', 2.5), ch.pose('walk', 0.5), 'loop wraps at the duration');
    json(ch.pose('walk', -1.5), ch.pose('walk', 0.5), 'negative time wraps too');
    json(ch.pose('walk', 2).angles, { b: 0 }, 't = d is t = 0 for a loop');
    is(ch.pose('once', 0).angles.a, 0.5, 'before the first key: its value');
    is(ch.pose('once', 0.5).angles.a, 1, 'linear');
    is(ch.pose('once', 0.9).angles.a, 1.5, 'after the last key: its value');
    is(ch.pose('once', 7).angles.a, 1.5, 'one-shot holds its end');
    is(ch.pose('once', -3).angles.a, 0.5, 'and its start');
    is(ch.pose('hop', 0.49).angles.b, 1, 'step holds');
    is(ch.pose('hop', 0.5).angles.b, 2);
    json(ch.pose('once', 0.5).offsets, {});
});

test('layers (issue 47): pose([[clip, t], …]) mixes clips, each overriding the bones it keys', () => {
    recorder();
    const sm = { name: 'sm', input: 'speed', blend: [['walk', 0]], layers: [{ name: 'wave', clip: 'once', trigger: 'wave' }] };
    const ch = installMesh({}).load(model({ state_machine: sm }));
    json(ch.layers, [{ name: 'wave', clip: 'once', trigger: 'wave' }]);
    // once keys a only: walk's b and root offset stay, a is once's
    json(ch.pose([['walk', 0.5], ['once', 0.5]]), { angles: { b: 0.5, a: 1 }, offsets: { a: { x: 1, y: -2 } } });
    // hop keys b: the later layer wins on it
    json(ch.pose([['walk', 0.5], ['hop', 0.49]]).angles, { b: 1 });
    json(ch.pose([['hop', 0.49], ['walk', 0.5]]).angles, { b: 0.5 }, 'order matters');
    json(ch.pose([['walk', 0.5]]), ch.pose('walk', 0.5), 'one layer is the clip');
    // each layer at its own time
    json(ch.pose([['walk', 1], ['once', 0]]).angles, { b: 1, a: 0.5 });
    const rec = recorder();
    const ch2 = installMesh({}).load(model());
    is(ch2.draw([['walk', 0.5], ['once', 0.5]]), 6);
    is(rec.submits.length, 3);
    throws(() => ch.pose([]), TypeError);
    throws(() => ch.pose([['walk']]), TypeError);
    throws(() => ch.pose([['walk', 0], ['nope', 0]]), Error);
});

test('draw: far to near, z from the draw order (ties: later nearer), root translation moves the tree', () => {
    const rec = recorder();
    const ch = installMesh({}).load(model());
    const n = ch.draw('walk', 0.5);
    is(n, 6, 'the sum of what $.mesh.draw returned');
    is(rec.submits.length, 3);
    // p (depth 0.5) first, then q and r (0.2, r declared later → nearer → last)
    json(rec.submits.map((s) => s.v[2]), [3 / 4, 2 / 4, 1 / 4].map(Math.fround));
    json(ch.parts.map((p) => p.depth), [3 / 4, 2 / 4, 1 / 4]);
    // vertex 0 of p is weighted to the root only: moved by the translation (1, -2) alone
    near(rec.submits[0].v[0], 0 + 1, 1e-5);
    near(rec.submits[0].v[1], 0 - 2, 1e-5);
    // vertex 0 of q (bone b, rest (15, 20), rest angle 0.5, +0.5 at t = 0.5): rotation about b's start, then moved
    const c = Math.cos(0.5), s = Math.sin(0.5);
    near(rec.submits[1].v[0], (8 - 15) * c - (0 - 20) * s + 15 + 1, 1e-4);
    near(rec.submits[1].v[1], (8 - 15) * s + (0 - 20) * c + 20 - 2, 1e-4);
});

test('textures: loaded once each through engine.loadTexture, relative to the JSON file', () => {
    const rec = recorder();
    const ch = installMesh({}).load(`${ARM}/model.json`);
    is(rec.textures.length, 2);
    ok(rec.textures[0].endsWith('fixtures/arm/upper.png') && rec.textures[1].endsWith('fixtures/arm/fore.png'), rec.textures.join());
    json(ch.parts.map((p) => p.texture), [10, 11]);
    json(Object.keys(ch.clips), ['wave', 'probe_root', 'probe_elbow']);
    // an object model: textures relative to opts.dir
    const m = readJson(`${ARM}/model.json`);
    recorder();
    throws(() => installMesh({}).load(m), Error, 'no dir: upper.png is not in the working directory');
    const r2 = recorder();
    installMesh({}).load(m, { dir: ARM });
    is(r2.textures.length, 2);
});

test('the validator\'s warnings go to the $.mesh log sink', () => {
    const rec = recorder();
    const logs = [];
    engine.log = (m) => logs.push(m);
    const m = model();
    m.parts[0].colors = [[1, 2, 3], [1, 2, 3], [1, 2, 3], [1, 2, 3]];
    m.parts[1].weights[0] = ['a', 1, 'b', 1, 'a', 1];
    const ch = installMesh({}).load(m);
    is(logs.length, 2, logs.join('|'));
    ok(logs[0].startsWith('mesh.load: warning: parts[0]') && logs[0].includes('colour'), logs[0]);
    ok(logs[1].includes('parts[1]') && logs[1].includes('dropped'), logs[1]);
    is(ch.parts[0].colors, null, 'colours are not drawn');
    is(rec.submits.length, 0);
});

test('any name is a plain key: a bone, clip and texture called __proto__', () => {
    const rec = recorder();
    const m = JSON.parse(readText(`${ARM}/model.json`));
    const text = JSON.stringify(m).replaceAll('"upper"', '"__proto__"');
    const ch = installMesh({}).load(JSON.parse(text), { dir: ARM });
    ok(Object.keys(ch.skeleton.spec()).includes('__proto__'), 'a bone');
    json(Object.keys(ch.clips), ['wave', 'probe_root', 'probe_elbow']);
    is(ch.pose('wave', 0.6).angles.__proto__, -0.5, 'its track');
    is(rec.textures.length, 2);
    ok(rec.textures[0].endsWith('upper.png'), rec.textures[0]);
    const ch2 = installMesh({}).load(JSON.parse(text.replace('"wave":', '"__proto__":')), { dir: ARM });
    json(Object.keys(ch2.clips), ['__proto__', 'probe_root', 'probe_elbow'], 'a clip');
    is(ch2.clips.__proto__.duration, 1.2);
    is(ch2.pose('__proto__', 0.6).angles.__proto__, -0.5);
    let code = null;
    try { ch2.draw('toString', 0); } catch (e) { code = e.code; }
    is(code, 'E_CLIP', 'an inherited name is not a clip');
});

test('the plain-JS $.mesh draws what the native one draws', () => {
    for (const [src, opts, clip, t] of [[model(), {}, 'walk', 0.7], [`${ARM}/model.json`, { scale: 2, offset: [5, 6] }, 'wave', 0.4]]) {
        const a = recorder();
        const na = installMesh({}).load(src, opts).draw(clip, t);
        const b = recorder();
        const nb = loadCharacter(plainMesh(), src, opts).draw(clip, t);
        is(na, nb);
        is(a.submits.length, b.submits.length);
        a.submits.forEach((s, i) => {
            is(s.count, b.submits[i].count);
            is(s.texture, b.submits[i].texture);
            s.v.forEach((x, k) => near(x, b.submits[i].v[k], 1e-3, `submit ${i} float ${k}`));
        });
    }
});

test('scale and offset: every drawn vertex is s·v + o of the unscaled draw', () => {
    const a = recorder();
    installMesh({}).load(model()).draw('walk', 1.3);
    const b = recorder();
    const ch = installMesh({}).load(model(), { scale: 0.5, offset: [100, -40] });
    ch.draw('walk', 1.3);
    json(ch.pose('walk', 1.3).angles, { b: 0.7 });
    near(ch.pose('walk', 1.3).offsets.a.y, -0.5 * 8 * 1.3 / 2, 1e-12, 'offsets in the scaled frame');
    a.submits.forEach((s, i) => {
        for (let k = 0; k < s.v.length; k += 8) {
            near(b.submits[i].v[k], 0.5 * s.v[k] + 100, 1e-3);
            near(b.submits[i].v[k + 1], 0.5 * s.v[k + 1] - 40, 1e-3);
        }
    });
});

// Bad input: the documented error, no texture loaded, nothing drawn.
function rejects(name, f, check) {
    test(`bad input: ${name}`, () => {
        const rec = recorder();
        let err = null;
        try {
            f();
        } catch (e) {
            err = e;
        }
        ok(err, 'did not throw');
        check(err);
        is(rec.submits.length, 0, 'nothing drawn');
        is(rec.textures.length, 0, 'no texture loaded');
    });
}
const coded = (code) => (e) => {
    ok(e instanceof Error && !(e instanceof TypeError), `${e}`);
    is(e.code, code);
    ok(e.message.startsWith(`mesh.load: ${code}: `), e.message);
};
const load = (m, o) => () => installMesh({}).load(m, o);
rejects('version 2', load(model({ version: 2 })), coded('E_MODEL_JSON'));
rejects('a missing file', load(`${here}no-such-model.json`), coded('E_IO'));
rejects('a file that is not JSON', load(scriptArgs[0]), coded('E_MODEL_JSON'));
rejects('an unknown parent', load(model({ skeleton: { a: { parent: 'ghost' } } })), coded('E_BONE'));
rejects('a cycle', load(model({ skeleton: { a: { parent: 'b' }, b: { parent: 'a' } } })), coded('E_BONE'));
rejects('a triangle index out of range', load(model({ parts: [{ verts: [0, 0, 1, 0, 0, 1], uv: [0, 0, 0, 0, 0, 0], tris: [0, 1, 3] }] })), coded('E_PART'));
rejects('a NaN vertex', load(model({ parts: [{ verts: [0, NaN, 1, 0, 0, 1], uv: [0, 0, 0, 0, 0, 0], tris: [0, 1, 2] }] })), coded('E_PART'));
rejects('a negative weight', load(model({ parts: [{ verts: [0, 0], uv: [0, 0], weights: [['a', -1]] }] })), coded('E_WEIGHT'));
rejects('an unknown texture id', load(model({ parts: [{ verts: [0, 0], uv: [0, 0], texture: 'skin' }] })), coded('E_TEXTURE'));
rejects('a missing texture file', load(model({ textures: { skin: 'nope.png' }, parts: [{ verts: [0, 0], uv: [0, 0], texture: 'skin' }] }), { dir: here }), coded('E_TEXTURE'));
rejects('a texture that is not a PNG', load(model({ textures: { skin: 'mesh_load.test.mjs' }, parts: [{ verts: [0, 0], uv: [0, 0], texture: 'skin' }] }), { dir: here }), coded('E_TEXTURE'));
rejects('a zero duration', load(model({ clips: { w: { duration: 0 } } })), coded('E_CLIP'));
rejects('keys out of order', load(model({ clips: { w: { duration: 1, tracks: { a: [[0.5, 0], [0.2, 1]] } } } })), coded('E_CLIP'));
rejects('a translated child bone', load(model({ clips: { w: { duration: 1, translations: { b: [[0, 1, 1]] } } } })), coded('E_CLIP'));
rejects('a number as source', load(5), (e) => ok(e instanceof TypeError, `${e}`));
rejects('a bad scale', load(model(), { scale: -1 }), (e) => ok(e instanceof RangeError, `${e}`));
rejects('a bad offset', load(model(), { offset: [1] }), (e) => ok(e instanceof TypeError, `${e}`));
rejects('no $.mesh', () => loadCharacter({}, model()), (e) => ok(e instanceof TypeError, `${e}`));
rejects('draw of an unknown clip', () => {
    const ch = installMesh({}).load(model());
    ch.draw('run', 0);
}, coded('E_CLIP'));
rejects('draw at NaN', () => {
    const ch = installMesh({}).load(model());
    ch.draw('walk', NaN);
}, (e) => ok(e instanceof RangeError, `${e}`));
rejects('a model with textures but an engine without loadTexture', () => {
    globalThis.engine = { submitMesh() { throw new Error('drawn'); } };
    installMesh({}).load(`${ARM}/model.json`);
}, (e) => ok(e instanceof TypeError, `${e}`));

done('mesh_load');
