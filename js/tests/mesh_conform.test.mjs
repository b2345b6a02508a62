// re2d tests: issue 10 item 4 — behaviours where a randomized differential found re2d's `$.mesh`
// differing from the engine's module; expected values from js-mesh.md / the issue text, or from
// the literal spec transcription in _reference.mjs run on an identical fresh setup.
import { installMesh, createSkeleton, createPart, deformPart, solveChainIK, solveTwoBoneIK } from '../../src/highlevel/mesh.js';
import * as ref from './_reference.mjs';
import { test, ok, is, json, keys, throws, arrayEq, done, recordEngine } from './_harness.mjs';

const PI = Math.PI;

test('ik: a hole in opts.chain stays a hole (lengths mapped), NaN length in the solver', () => {
    const api = installMesh({});
    const rig = createSkeleton({ a: { length: 5 } });
    const r = api.ik(rig, {}, { x: 7, y: 3 }, { chain: ['a', ,] });
    keys(r, ['angles', 'reached', 'distance', 'tip']);
    keys(r.angles, ['a', 'undefined']);
    is(r.angles.a, 0);
    is(r.angles.undefined, 0);
    is(r.reached, true);
    is(r.distance, Infinity);
    is(r.tip, null);
    // FABRIK path (3 links, middle hole): the hole poisons the layout with NaN, total treats it as 0
    const rig3 = createSkeleton({ a: { length: 5 }, c: { parent: 'a', length: 5 } });
    const t = api.ik(rig3, {}, { x: 4, y: 3 }, { chain: ['a', , 'c'] });
    const want = ref.solveChainIK(0, 0, [5, , 5], 4, 3, {});
    is(t.reached, want.reached);
    keys(t.angles, ['a', 'undefined', 'c']);
    ok(Object.values(t.angles).every((v) => v === 0), 'normalizeAngle(NaN) = 0 for every bone');
});

test('ik, fromSlice and draw are methods: not constructors, no prototype', () => {
    const api = installMesh({});
    for (const name of ['ik', 'fromSlice', 'draw']) {
        ok(!('prototype' in api[name]), `'prototype' in $.mesh.${name}`);
        const e = throws(() => new api[name](), TypeError, `new $.mesh.${name}()`);
        ok(String(e.message).includes('not a constructor'), `message: ${e.message}`);
        is(api[name].name, name);
    }
    is(api.draw.length, 4);
    is(api.ik.length, 4);
    is(api.fromSlice.length, 4);
});

test('solveChainIK: a BigInt length throws where the engine multiplies it', () => {
    const msg = (f) => throws(f, TypeError).message;
    is(msg(() => solveChainIK(0, 0, [2n], 1, 0)), msg(() => ref.solveChainIK(0, 0, [2n], 1, 0)));
    // unreachable: the total (N0) accepts the BigInt and no multiplication happens
    json(solveChainIK(0, 0, [2n], 5, 0), ref.solveChainIK(0, 0, [2n], 5, 0));
    is(msg(() => solveTwoBoneIK(0, 0, 2n, 1, 1, 0)), msg(() => ref.solveTwoBoneIK(0, 0, 2n, 1, 1, 0)));
});

test('solveChainIK: object lengths convert at every use, as the engine does', () => {
    const run = (solve) => {
        let calls = 0;
        const len = (v) => ({ valueOf() { calls++; return v; } });
        const r = solve(0, 0, [len(3), len(4), 5], 6, 2, { iterations: 3, tolerance: 0 });
        return { r, calls };
    };
    const a = run(solveChainIK), b = run(ref.solveChainIK);
    json(a.r, b.r);
    is(a.calls, b.calls);
    ok(a.calls > 2, `valueOf ran ${a.calls} times`);
    // an array with an accessor element is read at every use too
    const reads = (solve) => {
        let n = 0;
        const lengths = [3, 4, 5];
        Object.defineProperty(lengths, 1, { get() { n++; return 4; } });
        return { r: solve(0, 0, lengths, 6, 2, { iterations: 2, tolerance: 0 }), n };
    };
    const c = reads(solveChainIK), d = reads(ref.solveChainIK);
    json(c.r, d.r);
    is(c.n, d.n);
});

// A part whose vertex 0 (and 3) is skinned to bone `g`, the others to `b`; `hook(ctx)` installs
// getters that edit the part, the rest pose or the output mid-call. Runs the same scenario with
// `deform` and returns everything observable.
function scenario(deform, hook) {
    const rig = createSkeleton({ b: { x: 1, y: 2, length: 4 }, g: { x: -3, y: 0, length: 2 } });
    const part = createPart({
        verts: [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6],
        uv: [0.5, 0.25, 1, 1, 0, 0, 0.75, 0.5, 1, 0, 0, 1],
        weights: [['g', 1], ['b', 1], ['b', 0.5, 'g', 0.5], ['g', 1], ['b', 1], ['b', 1]],
        colors: [[1, 2, 3], [4, 5, 6], 'none', [7, 8, 9], [10, 11, 12], [13, 14, 15]],
        depth: 0.25,
    });
    const pose = rig.pose({ b: 0.7, g: -0.4 });
    const rest = rig.rest();
    const log = [];
    const ctx = { part, pose, rest, log, out: new Float32Array(48) };
    hook(ctx);
    let result, error = null;
    try {
        const r = deform(ctx.part, ctx.pose, ctx.rest, ctx.out);
        result = { count: r.count, need: r.need, same: r.buffer === ctx.out };
    } catch (e) {
        error = `${e.name}: ${e.message}`;
    }
    const out = [];
    for (let i = 0; i < ctx.out.length; i++) out.push(ctx.out[i]); // (Array.from throws once detached)
    return { out, log, result, error };
}

function sameScenario(hook, label) {
    const got = scenario(deformPart, hook), want = scenario(ref.deformPart, hook);
    json(got.result, want.result, `${label}: result`);
    is(got.error, want.error, `${label}: error`);
    json(got.log, want.log, `${label}: getter calls`);
    arrayEq(got.out, want.out, `${label}: out`);
    return got;
}

test('getter on a pose entry editing part.verts / weights / rest: later vertices see it', () => {
    const edit = ({ part, pose, rest, log }) => {
        const g = pose.g;
        let n = 0;
        Object.defineProperty(pose, 'g', {
            get() {
                log.push(`pose.g ${n}`);
                if (n++ === 0) {
                    part.verts[2] = 20;                           // vertex 1 (bone b)
                    part.weights[4] = [['g', 1]];                 // vertex 4 now follows g
                    rest.b = { x: 0, y: 0, angle: 0.3 };          // bone b's rest record replaced
                    part.uv[11] = 0.125;                          // vertex 5's v
                    part.colors[5][1] = 99;                       // vertex 5's green: read before, not seen
                }
                return g;
            },
        });
    };
    const r = sameScenario(edit, 'pose entry');
    is(r.out[8], ref.deformPart(
        createPart({ verts: [20, 2], bones: ['b'] }),
        createSkeleton({ b: { x: 1, y: 2, length: 4 } }).pose({ b: 0.7 }),
        { b: { x: 0, y: 0, angle: 0.3 } },
        new Float32Array(8),
    ).buffer[0], 'vertex 1 used the edited x and the replaced rest record');
    is(r.out[46], 14);
    is(r.out[44], 0.125);
});

test('getter on a bone record (cur.angle / rst.x) editing the part: seen by every later vertex', () => {
    sameScenario(({ part, pose, log }) => {
        let n = 0;
        const g = pose.g;
        const angle = g.angle;
        Object.defineProperty(g, 'angle', {
            get() {
                log.push(`g.angle ${n}`);
                part.verts[2 * 5] = 100 + n++;                   // the last vertex moves each time
                part.weights[1] = n > 1 ? [] : part.weights[1];   // vertex 1 unskinned after 2 reads
                return angle;
            },
        });
    }, 'pose record');
    sameScenario(({ part, rest, log }) => {
        const gx = rest.g.x;
        Object.defineProperty(rest.g, 'x', {
            get() {
                log.push('rest.g.x');
                part.depth = part.depth + 1;                      // z of every later vertex
                part.colors = null;                               // colours were read before: kept
                return gx;
            },
        });
    }, 'rest record');
});

test('a getter editing the colours mid-call changes nothing: every colour is read before the first vertex', () => {
    // issue 20 item 7: the engine's output keeps the colours as they were when the call began
    const before = [[1, 2, 3], [4, 5, 6], [255, 255, 255], [7, 8, 9], [10, 11, 12], [13, 14, 15]];
    const edits = {
        'in place': (part) => { part.colors[5][1] = 99; part.colors[0][0] = 98; },
        'element replaced': (part) => { part.colors[4] = [0, 0, 0]; part.colors[2] = [1, 1, 1]; },
        'array replaced': (part) => { part.colors = before.map(() => [50, 60, 70]); },
        'null': (part) => { part.colors = null; },
    };
    for (const [label, edit] of Object.entries(edits)) {
        for (const where of ['pose', 'rest']) {
            const r = sameScenario(({ part, pose, rest, log }) => {
                const rec = where === 'pose' ? pose : rest;
                const g = rec.g;
                let n = 0;
                Object.defineProperty(rec, 'g', { get() { log.push(`${where}.g`); if (n++ === 0) edit(part); return g; } });
            }, `${label} (${where} getter)`);
            for (let i = 0; i < 6; i++) {
                json([r.out[8 * i + 5], r.out[8 * i + 6], r.out[8 * i + 7]], before[i], `${label} (${where}): vertex ${i}`);
            }
        }
    }
    // valueOf of a colour runs before the first pose read
    const order = sameScenario(({ part, pose, log }) => {
        part.colors[3][2] = { valueOf() { log.push('b3'); return 9; } };
        const g = pose.g;
        Object.defineProperty(pose, 'g', { get() { log.push('pose.g'); return g; } });
    }, 'colour valueOf first');
    is(order.log[0], 'b3');
});

test('resizable out shrunk mid-call: count kept, out-of-range writes dropped, no throw', () => {
    for (const size of [20, 6, 0]) {
        const r = sameScenario((c) => {
            const buf = new ArrayBuffer(48 * 4, { maxByteLength: 64 * 4 });
            c.out = new Float32Array(buf);
            const g = c.pose.g;
            Object.defineProperty(c.pose, 'g', {
                get() {
                    c.log.push(`len ${c.out.length}`);
                    buf.resize(size * 4);
                    return g;
                },
            });
        }, `shrink to ${size}`);
        json(r.result, { count: 6, need: 48, same: true });
        is(r.error, null);
        is(r.out.length, size);
    }
    // grown again mid-call: later writes land
    const g = sameScenario((c) => {
        const buf = new ArrayBuffer(8 * 4, { maxByteLength: 48 * 4 });
        c.out = new Float32Array(buf);
        Object.defineProperty(c.out, 'length', { value: 48 }); // the engine reads out.length once
        const e = c.pose.g;
        Object.defineProperty(c.pose, 'g', { get() { buf.resize(48 * 4); return e; } });
    }, 'grow');
    is(g.out.length, 48);
    // detached mid-call (transfer): every later write is dropped
    const d = sameScenario((c) => {
        const e = c.pose.g;
        Object.defineProperty(c.pose, 'g', { get() { c.log.push(c.out.buffer.transfer().byteLength); return e; } });
    }, 'detach');
    is(d.out.length, 0);
});

test('an out over an immutable buffer is written as JS writes it (not at all)', () => {
    const d = sameScenario((c) => {
        c.out = new Float32Array(new ArrayBuffer(48 * 4).transferToImmutable());
    }, 'immutable');
    ok(d.out.every((v) => v === 0), 'untouched');
    json(d.result, { count: 6, need: 48, same: true });
});

test('accessors on the part are read exactly where the engine reads them', () => {
    const counted = (key, value) => ({ part, log }) => {
        let v = value === undefined ? part[key] : value;
        Object.defineProperty(part, key, { get() { log.push(key); return v; }, set(x) { v = x; } });
    };
    is(sameScenario(counted('weights'), 'weights').log.length, 6, 'part.weights once per vertex');
    is(sameScenario(counted('depth'), 'depth').log.length, 6, 'part.depth once per vertex');
    is(sameScenario(counted('colors'), 'colors').log.length, 12, 'part.colors twice per vertex');
    is(sameScenario(counted('colors', null), 'colors null').log.length, 6, 'falsy colors: once');
    is(sameScenario(counted('verts'), 'verts').log.length, 1, 'part.verts once per call');
    is(sameScenario(counted('uv'), 'uv').log.length, 1, 'part.uv once per call');
    is(sameScenario(counted('vertexCount'), 'vertexCount').log.length, 1);
});

test('valueOf of raw values runs at each JS operation, in order', () => {
    sameScenario(({ part, log }) => {
        part.verts[3] = { valueOf() { log.push('y1'); return 2; } };   // vertex 1 y: read 3 times
        part.depth = { valueOf() { log.push('depth'); return 0.5; } };
        part.uv[4] = { valueOf() { log.push('u2'); return 0.5; } };
        part.colors[4][0] = { valueOf() { log.push('r4'); return 8; } };
    }, 'valueOf');
    sameScenario(({ part, log }) => {
        part.weights[2][1][1] = { valueOf() { log.push('w'); return 0.5; } };
    }, 'weight object');
});

test('draw: each tris index is read once per draw, in order, live', () => {
    const rec = recordEngine();
    const api = installMesh({});
    const p = createPart({ verts: [0, 0, 1, 0, 0, 1, 1, 1], tris: [0, 1, 2, 1, 3, 2] });
    const reads = [];
    Object.defineProperty(p.tris, 4, {
        get() {
            reads.push(4);
            return reads.length > 1 ? 0 : 3;
        },
    });
    api.draw(p);
    api.draw(p);
    json(reads, [4, 4]);
    arrayEq(rec.submits[0].copy.slice(32, 40), [1, 1, 0.5, 0, 0, 255, 255, 255]);
    arrayEq(rec.submits[1].copy.slice(32, 40), [0, 0, 0.5, 0, 0, 255, 255, 255], 'second read names vertex 0');
    arrayEq(rec.submits[1].copy.slice(40, 48), [0, 1, 0.5, 0, 0, 255, 255, 255], 'later indices still copied');
    delete globalThis.engine;
});

done('mesh_conform');
