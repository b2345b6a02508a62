// re2d host check: a script's own engine fully replaces the default one.
print(typeof engine.savePNG, engine.width, engine.height);
globalThis.engine = { submitMesh: () => 'mine' };
import { installMesh } from 're2d/mesh';
const api = installMesh({});
print(api.draw(api.part({ verts: [0, 0, 1, 0, 0, 1], tris: [0, 1, 2] })), typeof engine.savePNG);
