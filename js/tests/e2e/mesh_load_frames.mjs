// re2d end-to-end (issue 30): a rigged character's clip drawn by re2d-qjs's CPU engine through
// `$.mesh.load` — or, with MODULE `plain`, through `loadCharacter` over the plain-JS `$.mesh` of
// ../_plainmesh.mjs — one PNG per time (transparent background, the model's own coordinates).
// Usage: re2d-qjs --size WxH mesh_load_frames.mjs MODULE MODEL.json CLIP OUT_PREFIX T0 T1 …
// writes OUT_PREFIX<i>.png and prints "frame i t triangles" per time.
import { installMesh, loadCharacter } from '../../../src/highlevel/mesh.js';
import { plainMesh } from '../_plainmesh.mjs';

const [, module, model, clip, prefix, ...times] = scriptArgs;
let ch;
if (module === 'native') ch = installMesh({}).load(model);
else if (module === 'plain') ch = loadCharacter(plainMesh(), model);
else throw new TypeError(`MODULE must be native or plain, not ${module}`);
times.forEach((t, i) => {
    engine.clear(0, 0, 0, 0);
    const n = ch.draw(clip, Number(t));
    engine.savePNG(`${prefix}${i}.png`);
    print(`frame ${i} ${t} ${n}`);
});
