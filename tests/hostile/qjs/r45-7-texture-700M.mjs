// args: --memory-limit 64M --size 4x4
// expect: code=0 max_mib=160
// Issue 45 class 7: $.mesh.load of a model whose texture is a 1x1 PNG carrying 700 MB: the file is
// counted against qjs-memory before it is read (a RangeError naming the limit), never read into
// native memory beside a 64 MiB heap. One line and exit 1 otherwise.
import * as std from 'std';
import { installMesh } from 're2d/mesh';
let got;
try {
    installMesh({}).load('../in/r45-tex-700M.model.json');
    got = 'loaded';
} catch (e) {
    got = `${e && e.constructor.name}: ${String(e && e.message).slice(0, 300)}`;
}
if (!(got.startsWith('RangeError') && got.includes('qjs-memory'))) {
    console.error(`r45-7: expected a RangeError naming qjs-memory, got ${got}`);
    std.exit(1);
}
print(got);
