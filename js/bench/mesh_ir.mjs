// re2d instruction-count bench (make bench-js-ir): one workload per run — `mode` is deform | draw
// (native) or jsdeform | jsdraw (plain JS, same algorithm as js/bench/mesh.bench.mjs), on a
// two-bone grid part of `verts` vertices, warmed once, then called `N` times. mk/js.mk runs it under
// callgrind with N = 0 and N = k and prints the difference / k = instructions per call.
// Usage: re2d-qjs js/bench/mesh_ir.mjs MODE VERTS N
import { installMesh, createSkeleton, createPart, deformPart } from 're2d/mesh';
import * as ref from '../tests/_reference.mjs';
const [, mode, nv, N] = scriptArgs;
globalThis.engine = { submitMesh: () => 0, log() {} };
const rig = createSkeleton({ upper: { x: 0, y: 0, length: 100 }, lower: { parent: 'upper', length: 100 } });
const part = createPart(ref.armPart(Number(nv), 1));
const rest = rig.rest(), pose = rig.pose({ upper: 0.1, lower: 0.4 });
const out = new Float32Array(part.vertexCount * 8);
const api = installMesh({});
let scratch = new Float32Array(8192), flat = new Float32Array(8192);
function jsDraw(part, angles, rig) {
    const pose = rig.pose(angles), rest = rig.rest();
    const need = part.vertexCount * 8;
    if (scratch.length < need) { let s = scratch.length; while (s < need) s *= 2; scratch = new Float32Array(s); }
    ref.deformPart(part, pose, rest, scratch);
    const k = part.tris.length;
    if (flat.length < k * 8) { let s = flat.length; while (s < k * 8) s *= 2; flat = new Float32Array(s); }
    const tris = part.tris;
    for (let i = 0; i < k; i++) { const src = tris[i] * 8, dst = i * 8; for (let j = 0; j < 8; j++) flat[dst + j] = scratch[src + j]; }
    return engine.submitMesh(flat, k, part.texture);
}
const ang = { upper: 0.1, lower: 0.4 };
const f = { deform: () => deformPart(part, pose, rest, out), jsdeform: () => ref.deformPart(part, pose, rest, out),
            draw: () => api.draw(part, ang, rig), jsdraw: () => jsDraw(part, ang, rig) }[mode];
f(); // warm (buffers grown)
for (let i = 0; i < Number(N); i++) f();
