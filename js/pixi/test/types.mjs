// The player's declarations (index.d.ts) checked by TypeScript (the pinned tsc of tests/browser)
// against PixiJS's own types: types/usage.ts, a game's use of every export, must compile; the
// control types/misuse.ts must fail with exactly one error per wrong line (the lines it has).
// And the declared exports must be the module's: the names index.d.ts declares against the
// names index.js exports.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TSC = path.join(HERE, '..', '..', '..', 'tests', 'browser', 'node_modules', 'typescript', 'bin', 'tsc');
const DIR = path.join(HERE, 'types');
let failed = false;
const say = (ok, text) => { if (!ok) failed = true; console.log(`${ok ? 'ok  ' : 'FAIL'} ${text}`); };

function tsc(file) {
    const cfg = JSON.parse(fs.readFileSync(path.join(DIR, 'tsconfig.json'), 'utf8'));
    cfg.files = [file];
    const tmp = path.join(DIR, `tsconfig.${path.basename(file, '.ts')}.tmp.json`);
    fs.writeFileSync(tmp, JSON.stringify(cfg));
    try {
        execFileSync(process.execPath, [TSC, '--project', tmp], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        return [];
    } catch (e) {
        if (!e.stdout) throw e;
        return e.stdout.split('\n').filter((l) => / error TS\d+/.test(l));
    } finally {
        fs.rmSync(tmp);
    }
}

if (!fs.existsSync(TSC)) {
    console.log(`FAIL types: ${TSC} missing (npm ci in tests/browser)`);
    process.exit(1);
}
const good = tsc('usage.ts');
say(good.length === 0, `index.d.ts: usage.ts compiles against pixi.js's types${good.length ? ':\n  ' + good.join('\n  ') : ''}`);
const wrongLines = fs.readFileSync(path.join(DIR, 'misuse.ts'), 'utf8').split('\n')
    .map((l, i) => [l, i + 1]).filter(([l]) => /^\s+(const hero|hero\.|const n)/.test(l)).map(([, i]) => i);
const bad = tsc('misuse.ts');
const hit = new Set(bad.map((l) => Number((l.match(/\((\d+),/) || [])[1])));
say(wrongLines.every((n) => hit.has(n)) && bad.length === wrongLines.length,
    `control misuse.ts: ${bad.length} errors on lines ${[...hit].join(', ')} (wrong lines ${wrongLines.join(', ')})`);
const js = fs.readFileSync(path.join(HERE, '..', 'index.js'), 'utf8');
const exported = [...js.matchAll(/^export \{([^}]*)\}/gm)].flatMap((m) => m[1].split(',').map((x) => x.trim())).filter(Boolean).sort();
const dts = fs.readFileSync(path.join(HERE, '..', 'index.d.ts'), 'utf8');
const declared = [...dts.matchAll(/^export declare (?:class|function|const) (\w+)/gm)].map((m) => m[1]).sort();
say(JSON.stringify(exported) === JSON.stringify(declared), `index.d.ts declares the exports of index.js: ${declared.join(', ')}${JSON.stringify(exported) === JSON.stringify(declared) ? '' : ` (index.js: ${exported.join(', ')})`}`);
process.exit(failed ? 1 : 0);
