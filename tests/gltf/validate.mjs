// Runs the Khronos glTF validator on every file given on the command line and
// prints one JSON line per file: {"file","errors","warnings","infos","messages":[first errors/warnings]}.
// Exit code 0 when every file was validated (whatever the counts), 3 on a usage/IO problem.
import { readFile } from 'node:fs/promises';
import { validateBytes } from 'gltf-validator';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node validate.mjs FILE.glb|FILE.gltf ...');
  process.exit(3);
}
for (const file of files) {
  const data = new Uint8Array(await readFile(file));
  const report = await validateBytes(data, {
    uri: file,
    maxIssues: 0,
    externalResourceFunction: () => Promise.reject(new Error('external resources are not allowed')),
  });
  const i = report.issues;
  const messages = i.messages
    .filter((m) => m.severity <= 1)
    .slice(0, 20)
    .map((m) => ({ code: m.code, severity: m.severity, pointer: m.pointer, message: m.message }));
  console.log(JSON.stringify({
    file,
    errors: i.numErrors,
    warnings: i.numWarnings,
    infos: i.numInfos,
    messages,
  }));
}
