// re2d demo (make demo, issue 30): the character `re2d rig build` made, played by re2d-qjs's CPU
// engine through `$.mesh.load` — eight frames of its walk in the engine's game frame.
// Usage: re2d-qjs --size WxH mesh_walk.mjs MODEL.json OUT_PREFIX [CLIP]
// The character is scaled to fit the frame's height with a 4 % margin, centred, feet down.
import { createApi } from '../../src/highlevel/api.js';

const [, model, prefix, clip = 'walk'] = scriptArgs;
const $ = createApi();
const W = engine.width, H = engine.height;

// the fit: the rest-pose bounds of the parts, in the drawing's pixels
let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
for (const p of JSON.parse($.fs.readText(model)).parts) {
    for (let i = 0; i < p.verts.length; i += 2) {
        x0 = Math.min(x0, p.verts[i]); x1 = Math.max(x1, p.verts[i]);
        y0 = Math.min(y0, p.verts[i + 1]); y1 = Math.max(y1, p.verts[i + 1]);
    }
}
const scale = Math.min((0.92 * H) / (y1 - y0), (0.92 * W) / (x1 - x0));
const offset = [W / 2 - (scale * (x0 + x1)) / 2, 0.96 * H - scale * y1];

// the few lines a game needs (docs/rig.md):
const ch = $.mesh.load(model, { scale, offset });
const { duration } = ch.clips[clip];
for (let i = 0; i < 8; i++) {
    engine.clear(0, 0, 0, 0);
    const tris = ch.draw(clip, (i * duration) / 8);
    engine.savePNG(`${prefix}${i}.png`);
    print(`frame ${i}: ${tris} triangles`);
}
