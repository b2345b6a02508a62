// args: --root . --size 4x4
// expect: code=0
// Issue 45 class 6: every path outside --root gets one answer, whether it exists or not, so a
// script cannot learn which paths exist on the machine ($.mesh.load, its texture paths,
// loadTexture, std.loadFile, dynamic import). One line and exit 1 when two answers differ.
import * as std from 'std';
import { installMesh } from 're2d/mesh';
const mesh = installMesh({});
const probes = {
    'mesh.load': (p) => mesh.load(p),
    'mesh.load texture': (p) => mesh.load({ version: 1, textures: { t: p }, parts: [{ verts: [0, 0], uv: [0, 0], texture: 't' }] }),
    'loadTexture': (p) => engine.loadTexture(p),
    'loadFile': (p) => std.loadFile(p),
};
// the answer with the path itself taken out
const answer = (f, p) => {
    try { return 'returned ' + JSON.stringify(f(p)); } catch (e) {
        return `${e && e.constructor.name} ${e && e.code} ${String(e && e.message).split(p).join('PATH')}`;
    }
};
// (exists, does not exist) outside the root: a file, a folder, a path above the root
const pairs = [['/etc/passwd', '/etc/no-such-file-r45'], ['/etc', '/no-such-dir-r45/x'],
               ['../../../..', '../../../../no-such-r45'], ['/proc/self/status', '/proc/self/no-such-r45']];
const bad = [];
for (const [name, f] of Object.entries(probes)) {
    for (const [a, b] of pairs) {
        const x = answer(f, a), y = answer(f, b);
        if (x !== y || !x.includes('outside the --root')) bad.push(`${name}: '${a}' -> ${x} / '${b}' -> ${y}`);
    }
}
const importAnswer = (p) => import(p).then(() => 'imported', (e) => String(e && e.message).split(p).join('PATH'));
const [ia, ib] = [await importAnswer('/etc/passwd'), await importAnswer('/etc/no-such-file-r45.mjs')];
if (ia.replace('.mjs', '') !== ib.replace('.mjs', '') || !ia.includes('outside the --root')) bad.push(`import: ${ia} / ${ib}`);
if (bad.length) {
    console.error(`r45-6: ${bad.length} different answers outside --root: ${bad.join(' | ').slice(0, 600)}`);
    std.exit(1);
}
print('one answer for every path outside --root');
