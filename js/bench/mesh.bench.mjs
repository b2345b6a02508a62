// re2d benchmark (make bench-js): native deformPart/draw vs a plain-JS implementation of the same algorithm, same re2d-qjs.
import { installMesh, createSkeleton, createPart, deformPart } from 're2d/mesh';
import * as ref from '../tests/_reference.mjs';

const now = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();
const MIN_MS = Number(scriptArgs[1]) || 400;

// Run `frame(i)` until at least MIN_MS elapsed; returns ms per frame.
function time(frame) {
    for (let i = 0; i < 3; i++) frame(i);
    let n = 0;
    const t0 = now();
    let t = t0;
    while (t - t0 < MIN_MS) {
        for (let k = 0; k < 8; k++) frame(n++);
        t = now();
    }
    return (t - t0) / n;
}

// Plain-JS draw: same steps as §8.4 with the JS deform and unroll.
function makeJsDraw() {
    let scratch = new Float32Array(8192), flat = new Float32Array(8192);
    return (part, angles, rig) => {
        const pose = rig.pose(angles), rest = rig.rest();
        const need = part.vertexCount * 8;
        if (scratch.length < need) { let s = scratch.length; while (s < need) s *= 2; scratch = new Float32Array(s); }
        ref.deformPart(part, pose, rest, scratch);
        const k = part.tris.length;
        if (flat.length < k * 8) { let s = flat.length; while (s < k * 8) s *= 2; flat = new Float32Array(s); }
        const tris = part.tris;
        for (let i = 0; i < k; i++) {
            const src = tris[i] * 8, dst = i * 8;
            for (let j = 0; j < 8; j++) flat[dst + j] = scratch[src + j];
        }
        return engine.submitMesh(flat, k, part.texture);
    };
}

globalThis.engine = { submitMesh: () => 0, log() {} };
const rig = createSkeleton({ upper: { x: 0, y: 0, length: 100 }, lower: { parent: 'upper', length: 100 } });
const api = installMesh({});
const jsDraw = makeJsDraw();
const fmt = (ms) => (ms < 0.01 ? `${(ms * 1000).toFixed(2)} us` : `${ms.toFixed(3)} ms`);
print('re2d-qjs mesh bench: two-bone weighted grid parts, ms per frame (lower is better)');
print('verts  op          native        plain-JS      speed-up');
for (const n of [100, 1000, 10000]) {
    const part = createPart(ref.armPart(n, 1));
    const rest = rig.rest();
    const poses = [];
    for (let i = 0; i < 16; i++) poses.push(rig.pose({ upper: Math.sin(i) * 0.5, lower: 0.3 + i * 0.1 }));
    const out = new Float32Array(part.vertexCount * 8);
    const a = new Float32Array(out.length), b = new Float32Array(out.length);
    deformPart(part, poses[3], rest, a);
    ref.deformPart(part, poses[3], rest, b);
    for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) throw new Error(`mismatch at ${i}`);
    const dn = time((i) => deformPart(part, poses[i & 15], rest, out));
    const dj = time((i) => ref.deformPart(part, poses[i & 15], rest, out));
    print(`${String(part.vertexCount).padStart(5)}  deformPart  ${fmt(dn).padStart(12)}  ${fmt(dj).padStart(12)}  ${(dj / dn).toFixed(1).padStart(7)}x`);
    const angles = [];
    for (let i = 0; i < 16; i++) angles.push({ upper: Math.sin(i) * 0.5, lower: 0.3 + i * 0.1 });
    const wn = time((i) => api.draw(part, angles[i & 15], rig));
    const wj = time((i) => jsDraw(part, angles[i & 15], rig));
    print(`${String(part.vertexCount).padStart(5)}  draw        ${fmt(wn).padStart(12)}  ${fmt(wj).padStart(12)}  ${(wj / wn).toFixed(1).padStart(7)}x   (${part.tris.length} indices)`);
    // the timed path still reads live: an in-place edit shows up in the next call
    const last = part.vertexCount - 1;
    part.verts[2 * last] += 1;
    part.weights[last][0][1] = 0.25;
    deformPart(part, poses[3], rest, a);
    ref.deformPart(part, poses[3], rest, b);
    for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) throw new Error(`in-place edit not seen at ${i}`);
}
print('(in-place edits of verts and weights checked after each size: seen)');
