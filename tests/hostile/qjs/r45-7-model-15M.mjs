// args: --memory-limit 64M --size 4x4
// expect: code=0 max_mib=160
// Issue 45 class 7: $.mesh.load of a 15 MB model.json (7.5 M numbers): the file and the tree parsed
// from it (about 80 bytes a value) are counted against qjs-memory before they are allocated (a
// RangeError naming the limit), never 600 MB of native tree beside a 64 MiB heap.
import * as std from 'std';
import { installMesh } from 're2d/mesh';
let got;
try {
    installMesh({}).load('../in/r45-15M.model.json');
    got = 'loaded';
} catch (e) {
    got = `${e && e.constructor.name}: ${String(e && e.message).slice(0, 300)}`;
}
if (!(got.startsWith('RangeError') && got.includes('qjs-memory'))) {
    console.error(`r45-7: expected a RangeError naming qjs-memory, got ${got}`);
    std.exit(1);
}
print(got);
