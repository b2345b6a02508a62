// re2d tests: js-mesh.md §6 createPart and §7 deformPart (native fast path and literal JS path).
import { createPart, createSkeleton, deformPart } from '../../src/highlevel/mesh.js';
import * as ref from './_reference.mjs';
import { test, ok, is, near, json, keys, throws, arrayEq, done } from './_harness.mjs';

const PI = Math.PI;

test('record keys, defaults, copies', () => {
    const spec = { verts: [1, 2, 3, 4, 5], uv: [0, 1], tris: [0, 1, 0] };
    const p = createPart(spec);
    keys(p, ['verts', 'uv', 'tris', 'weights', 'colors', 'depth', 'texture', 'vertexCount', 'skinned', 'spec']);
    is(p.vertexCount, 2);
    is(p.skinned, false);
    json(p.weights, [[], []]);
    is(p.colors, null);
    is(p.depth, 0.5);
    is(p.texture, -1);
    ok(p.verts !== spec.verts && p.uv !== spec.uv && p.tris !== spec.tris, 'copies');
    json(p.verts, [1, 2, 3, 4, 5]);
    is(p.spec(), spec);
    const e = createPart(7);
    json([e.verts, e.uv, e.tris, e.weights, e.vertexCount], [[], [], [], [], 0]);
    ok(typeof e.spec() === 'object', 'non-object spec → {}');
});

test('shallow copies keep holes and raw elements', () => {
    const p = createPart({ verts: [1, , '3', 4], colors: [[1, 2, 3], , 'x'] });
    is(p.verts.length, 4);
    ok(!(1 in p.verts), 'hole stays a hole');
    is(p.verts[2], '3', 'not converted');
    is(p.colors.length, 3);
    ok(!(1 in p.colors));
});

test('bones → one weight pair per vertex', () => {
    const p = createPart({ verts: [0, 0, 1, 1], bones: ['a', 2] });
    json(p.weights, [[['a', 1]], [['2', 1]]]);
    is(p.skinned, true);
    const h = createPart({ verts: [0, 0, 1, 1], bones: [, 'b'] });
    ok(!(0 in h.weights), 'hole kept');
    is(h.skinned, true);
});

test('weights: flat pairs, at most two, odd name dropped, precedence over bones', () => {
    const p = createPart({
        verts: [0, 0],
        weights: [['root', 0.5, 'arm', 0.5, 'x', 1], ['a'], 'notarray', ['b', '2', 'c'], [3, null]],
        bones: ['ignored'],
    });
    json(p.weights, [[['root', 0.5], ['arm', 0.5]], [], [], [['b', 2]], [['3', 0]]]);
    is(p.weights.length, 5, 'length not forced to vertexCount');
    is(createPart({ verts: [0, 0], weights: [[], ['a']] }).skinned, false);
    is(createPart({ verts: [0, 0], weights: [, ['a', 1]] }).skinned, true);
    is(createPart({ verts: [0, 0], weights: [[['a', 1]]] }).skinned, false, 'nested pairs are not the format');
});

test('depth and texture coercion', () => {
    const d = (v) => createPart({ depth: v }).depth;
    is(d(undefined), 0.5);
    is(d(null), 0);
    is(d(''), 0);
    is(d('x'), 0.5);
    is(d(Infinity), 0.5);
    is(d('0.25'), 0.25);
    const t = (v) => createPart({ texture: v }).texture;
    is(t(undefined), -1);
    is(t(null), 0);
    is(t('7'), 7);
    is(t('abc'), NaN);
    is(createPart({ colors: 'x' }).colors, null);
});

test('deformPart unskinned: copy x,y, z = depth, uv falsy → 0, colours or 255s', () => {
    const p = createPart({ verts: [1, 2, 3, 4, 5, 6], uv: [0.5, 0, , 1], colors: [[10, '20', null], 'x'] });
    const out = new Float32Array(24);
    const r = deformPart(p, null, null, out);
    keys(r, ['buffer', 'count', 'need']);
    is(r.buffer, out);
    is(r.count, 3);
    is(r.need, 24);
    arrayEq(out, [1, 2, 0.5, 0.5, 0, 10, 20, 0, 3, 4, 0.5, 0, 1, 255, 255, 255, 5, 6, 0.5, 0, 0, 255, 255, 255]);
});

test('deformPart undersized out writes nothing', () => {
    const p = createPart({ verts: [1, 2, 3, 4] });
    const out = new Float32Array(15).fill(7);
    const r = deformPart(p, null, null, out);
    is(r.count, 0);
    is(r.need, 16);
    is(r.buffer, out);
    ok(out.every((v) => v === 7), 'untouched');
});

const rig = createSkeleton({ s: { length: 5 }, b: { x: 5, y: 5, length: 3 } });

test('skinning rotates about the bone start', () => {
    const p = createPart({ verts: [8, 5], bones: ['b'] });
    const out = new Float32Array(8);
    deformPart(p, rig.pose({ b: PI / 2 }), rig.rest(), out);
    near(out[0], 5, 1e-5);
    near(out[1], 8, 1e-5);
});

test('50/50 vertex lands between the single-bone results; missing bones skipped', () => {
    const p = createPart({ verts: [8, 5], weights: [['s', 0.5, 'b', 0.5]] });
    const out = new Float32Array(8);
    deformPart(p, rig.pose({ b: PI / 2 }), rig.rest(), out);
    // static bone keeps (8,5), moving bone gives (5,8): midpoint
    near(out[0], 6.5, 1e-5);
    near(out[1], 6.5, 1e-5);
    const g = createPart({ verts: [8, 5], weights: [['b', 1, 'ghost', 1]] });
    deformPart(g, rig.pose({ b: PI / 2 }), rig.rest(), out);
    near(out[0], 5, 1e-5, 'ghost pair does not dilute');
    near(out[1], 8, 1e-5);
});

test('tiny total leaves the vertex; null pose leaves it', () => {
    const out = new Float32Array(8);
    const p = createPart({ verts: [8, 5], weights: [['b', 0.00005]] });
    deformPart(p, rig.pose({ b: PI / 2 }), rig.rest(), out);
    json([out[0], out[1]], [8, 5]);
    const q = createPart({ verts: [8, 5], bones: ['b'] });
    deformPart(q, null, rig.rest(), out);
    json([out[0], out[1]], [8, 5]);
    deformPart(q, rig.pose({ b: 1 }), 0, out);
    json([out[0], out[1]], [8, 5], 'falsy rest');
});

test('plain array out keeps doubles; Float32Array rounds', () => {
    const p = createPart({ verts: [0.1, 0.2], depth: 0.3 });
    const a = [];
    a.length = 8;
    const r = deformPart(p, null, null, a);
    is(r.buffer, a);
    is(a[0], 0.1);
    is(a[2], 0.3);
    const f = new Float32Array(8);
    deformPart(p, null, null, f);
    is(f[0], Math.fround(0.1));
});

test('hole / null pair entries throw TypeError (plain index loop)', () => {
    const p = createPart({ verts: [1, 1], bones: ['b'] });
    p.weights[0] = [undefined];
    throws(() => deformPart(p, rig.pose({}), rig.rest(), new Float32Array(8)), TypeError);
    p.weights[0] = [null];
    throws(() => deformPart(p, rig.pose({}), rig.rest(), new Float32Array(8)), TypeError);
    p.weights[0] = ['b!'];
    // a string entry yields its characters: name 'b', weight '!' → NaN math
    const out = new Float32Array(8);
    deformPart(p, rig.pose({ b: 1 }), rig.rest(), out);
    is(out[0], 1, "'b!' → weight '!' makes total NaN: vertex unmoved");
});

test('native path equals the spec transcription bit for bit', () => {
    const r = ref.rng(3);
    const skel = createSkeleton({ upper: { x: 3, y: -2, length: 120, angle: 0.1 }, lower: { parent: 'upper', length: 80, angle: -0.2 } });
    for (const n of [1, 7, 100, 1000]) {
        const spec = ref.armPart(n, n);
        spec.colors = spec.verts.map((_, i) => (i % 5 ? [i % 256, (i * 7) % 256, 3] : 'none')).slice(0, n);
        spec.depth = 0.7;
        const part = createPart(spec);
        for (let f = 0; f < 5; f++) {
            const pose = skel.pose({ upper: r() * 6 - 3, lower: r() * 6 - 3 });
            const rest = skel.rest();
            const a = new Float32Array(n * 8 + 3), b = new Float32Array(n * 8 + 3);
            const ra = deformPart(part, pose, rest, a);
            ref.deformPart(part, pose, rest, b);
            arrayEq(a, b, `n=${n} frame ${f}`);
            is(ra.count, part.vertexCount);
        }
    }
});

test('native copy follows replaced arrays, length changes and depth', () => {
    const p = createPart({ verts: [8, 5], bones: ['b'] });
    const out = new Float32Array(16);
    deformPart(p, rig.pose({}), rig.rest(), out);
    is(out[0], 8);
    p.verts = [9, 5];
    deformPart(p, rig.pose({}), rig.rest(), out);
    is(out[0], 9, 'replaced verts');
    p.verts.push(1, 1);
    p.weights.push([]);
    p.vertexCount = 2;
    const r = deformPart(p, rig.pose({}), rig.rest(), out);
    is(r.count, 2);
    json([out[8], out[9]], [1, 1]);
    p.depth = 0.125;
    deformPart(p, rig.pose({}), rig.rest(), out);
    is(out[2], 0.125);
    p.colors = [[1, 2, 3]];
    deformPart(p, rig.pose({}), rig.rest(), out);
    json(Array.from(out.slice(5, 8)), [1, 2, 3]);
});

test('hand-made part objects and odd pose values use the JS semantics', () => {
    const part = { vertexCount: 1, verts: [2, 0], uv: [], weights: [[{ 0: 'b', 1: 1, length: 2 }]], depth: 'd', colors: null };
    const out = new Float32Array(8);
    const r = deformPart(part, { b: { x: 0, y: 0, angle: PI } }, { b: { x: 0, y: 0, angle: 0 } }, out);
    is(r.count, 1);
    near(out[0], -2, 1e-6, 'array-like pair works');
    is(out[2], NaN, "depth 'd' stored as NaN");
    const und = deformPart({ verts: [] }, null, null, new Float32Array(8));
    is(und.count, undefined);
    is(und.need, NaN);
});

test('in-place element edits are seen on the next deformation (live reads)', () => {
    const p = createPart({ verts: [8, 5, 1, 1], uv: [0.5, 0.5, 0, 0], colors: [[1, 2, 3], [4, 5, 6]], bones: ['b', 'b'] });
    const out = new Float32Array(16);
    const rest = rig.rest();
    deformPart(p, rest, rest, out);
    json(Array.from(out), [8, 5, 0.5, 0.5, 0.5, 1, 2, 3, 1, 1, 0.5, 0, 0, 4, 5, 6]);
    p.verts[0] = 9;
    p.uv[1] = 0.25;
    p.colors[0][2] = 7;
    p.colors[1] = 'none';
    deformPart(p, rest, rest, out);
    json(Array.from(out), [9, 5, 0.5, 0.5, 0.25, 1, 2, 7, 1, 1, 0.5, 0, 0, 255, 255, 255]);
    // bone b starts at (5,5): +π/2 takes (9,5) to (5,9)
    const pose = rig.pose({ b: PI / 2 });
    deformPart(p, pose, rest, out);
    near(out[0], 5, 1e-5);
    near(out[1], 9, 1e-5);
    p.weights[0][0][1] = 0;
    deformPart(p, pose, rest, out);
    json([out[0], out[1]], [9, 5], 'weight edited to 0: total 0, unmoved');
    p.weights[0][0][1] = 1;
    p.weights[0][0][0] = 's';
    deformPart(p, pose, rest, out);
    json([out[0], out[1]], [9, 5], 'pair renamed to the unmoved bone s');
    p.weights[0] = [['b', 1]];
    deformPart(p, pose, rest, out);
    near(out[0], 5, 1e-5, 'entry replaced');
    near(out[1], 9, 1e-5, 'entry replaced');
    p.weights[0] = [];
    deformPart(p, pose, rest, out);
    json([out[0], out[1]], [9, 5], 'emptied entry');
    p.weights[0] = [['b', 1], ['s', 1]];
    deformPart(p, pose, rest, out);
    near(out[0], 7, 1e-5, '50/50 of (5,9) and (9,5)');
    near(out[1], 7, 1e-5, '50/50 of (5,9) and (9,5)');
    p.weights[0][1] = null;
    throws(() => deformPart(p, pose, rest, out), TypeError, 'null pair');
    p.weights[0][1] = ['s', 1];
    p.verts[1] = '5';
    deformPart(p, pose, rest, out);
    near(out[0], 7, 1e-5, 'numeric x still skinned');
    is(out[1], 52, "raw y '5' += 2 concatenates to '52' (§7: raw values)");
});

test('in-place edits: inner weight lists, colour entries, uv values', () => {
    const pose = rig.pose({ b: PI / 2 }), rest = rig.rest();
    const p = createPart({ verts: [9, 5], weights: [['b', 1, 's', 1]], colors: ['none'] });
    const out = new Float32Array(8);
    const xy = () => [Math.round(out[0] * 1e4) / 1e4, Math.round(out[1] * 1e4) / 1e4];
    deformPart(p, pose, rest, out);
    json(xy(), [7, 7], '50/50 of (5,9) and (9,5)');
    p.weights[0].pop();
    deformPart(p, pose, rest, out);
    json(xy(), [5, 9], 'second pair popped');
    p.weights[0].push(['s', 1]);
    deformPart(p, pose, rest, out);
    json(xy(), [7, 7], 'pushed back');
    p.weights[0][1] = ['s', 3];
    deformPart(p, pose, rest, out);
    json(xy(), [8, 6], 'weights 1:3');
    p.colors[0] = [1, 2, 3];
    deformPart(p, pose, rest, out);
    json(Array.from(out.slice(5)), [1, 2, 3]);
    p.colors[0] = ['4', 5, 6];
    deformPart(p, pose, rest, out);
    json(Array.from(out.slice(5)), [4, 5, 6]);
    p.colors[0] = null;
    deformPart(p, pose, rest, out);
    json(Array.from(out.slice(5)), [255, 255, 255]);
    p.uv = [0.5, 0.5];
    deformPart(p, pose, rest, out);
    is(out[3], 0.5);
    p.uv[0] = 'x';
    deformPart(p, pose, rest, out);
    is(out[3], NaN, "truthy 'x' stored as NaN");
    p.uv[0] = '';
    deformPart(p, pose, rest, out);
    is(out[3], 0, "falsy '' → 0");
    p.weights[0][0] = ['b', 1, 'ignored'];
    p.weights[0].length = 1;
    deformPart(p, pose, rest, out);
    json(xy(), [5, 9], 'truncated by length');
    p.weights[0][0][0] = 'bb';
    deformPart(p, pose, rest, out);
    json(xy(), [9, 5], 'unknown bone skipped');
});

done('mesh_part');
