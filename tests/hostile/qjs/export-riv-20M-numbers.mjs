// args: --time-limit 60
// Issue 29 row 7: 20 M numbers reach $.mesh.exportRiv as one JSON text (the parsed tree lives outside
// the QuickJS heap): refused with a RangeError naming the limit, never an abort.
import { installMesh } from 're2d/mesh';
const api = installMesh({});
const rig = api.skeleton({ root: { x: 0, y: 0, length: 10, angle: 0 } });
const verts = new Array(20000000).fill(0);
try {
    api.exportRiv(rig, [{ name: 'p', verts, uv: [0, 0, 1, 0, 0, 1], tris: [0, 1, 2], weights: [] }], {});
    print('exported');
} catch (e) {
    print(e.constructor.name + ': ' + String(e.message).slice(0, 160));
}
