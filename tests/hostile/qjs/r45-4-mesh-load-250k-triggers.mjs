// args: --size 4x4
// expect: code=0 max_cpu=8
// Issue 45 class 4: $.mesh.load of a 5 MB model whose state machine has 250 000 triggers: the
// validation is linear (it was quadratic and ran into the 20 s CPU cap).
import { installMesh } from 're2d/mesh';
const ch = installMesh({}).load('../in/r45-triggers-250k.model.json');
print(`loaded: ${Object.keys(ch.clips).length} clips`);
