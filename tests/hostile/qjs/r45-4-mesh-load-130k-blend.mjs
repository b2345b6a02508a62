// args: --size 4x4
// expect: code=0 max_cpu=8
// Issue 45 class 4: $.mesh.load of a model whose blend lists 130 000 clips: linear validation.
import { installMesh } from 're2d/mesh';
const ch = installMesh({}).load('../in/r45-blend-130k.model.json');
print(`loaded: ${Object.keys(ch.clips).length} clips`);
