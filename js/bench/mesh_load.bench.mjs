// re2d benchmark (make bench-mesh-load, issue 30): frames of a rigged character drawn by
// re2d-qjs's CPU engine through `$.mesh.load(…).draw(clip, t)`, scaled to fit the engine's frame
// (576x624 in the make target: the seed's game frame). Each frame is `engine.clear` + `draw` at
// a time spread over the clip. MODULE `native` is `$.mesh`, `plain` is `loadCharacter` over the
// plain-JS module (for scale). Prints the wall-clock ms per frame; the make target also reports
// CPU time per frame from runs with FRAMES and with 0 frames (robust on a busy machine).
// Usage: re2d-qjs --size WxH mesh_load.bench.mjs MODEL.json MODULE FRAMES
import { createApi } from '../../src/highlevel/api.js';
import { loadCharacter } from '../../src/highlevel/mesh.js';
import { plainMesh } from '../tests/_plainmesh.mjs';

const [, model, module, frames] = scriptArgs;
const $ = createApi();
const W = engine.width, H = engine.height;
const now = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

// fit the rest-pose bounds of the parts into the frame (as js/demo/mesh_walk.mjs)
let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
for (const p of JSON.parse($.fs.readText(model)).parts) {
    for (let i = 0; i < p.verts.length; i += 2) {
        x0 = Math.min(x0, p.verts[i]); x1 = Math.max(x1, p.verts[i]);
        y0 = Math.min(y0, p.verts[i + 1]); y1 = Math.max(y1, p.verts[i + 1]);
    }
}
const scale = Math.min((0.92 * H) / (y1 - y0), (0.92 * W) / (x1 - x0));
const opts = { scale, offset: [W / 2 - (scale * (x0 + x1)) / 2, 0.96 * H - scale * y1] };

let ch;
if (module === 'native') ch = $.mesh.load(model, opts);
else if (module === 'plain') ch = loadCharacter(plainMesh(), model, opts);
else throw new TypeError(`MODULE must be native or plain, not ${module}`);
const d = ch.clips.walk.duration;
const n = Number(frames);
const t0 = now();
let tris = 0;
for (let i = 0; i < n; i++) {
    engine.clear(0, 0, 0, 0);
    tris += ch.draw('walk', (((i * 7) % 64) * d) / 64);
}
if (n > 0) {
    const verts = ch.parts.reduce((a, p) => a + p.vertexCount, 0);
    const all = ch.parts.reduce((a, p) => a + p.tris.length / 3, 0);
    print(`${module} $.mesh: ${verts} vertices, ${all} triangles (${Math.round(tris / n)} cover a pixel) at ${W}x${H}, scale ${scale.toFixed(4)}: ${((now() - t0) / n).toFixed(2)} ms per frame (wall clock)`);
}
