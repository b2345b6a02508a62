// re2d PixiJS report (make pixi-docs): fills the tables of docs/pixi.md from the last runs of
// `make test-pixi` (target/pixi-browser/results.json) and `make bench-pixi`
// (target/bench-pixi/out/bench.json), between their <!-- pixi-…:begin/end --> markers.
//
//   node pixi-report.mjs --results FILE --bench FILE --doc docs/pixi.md
import fs from 'node:fs';

const args = process.argv.slice(2);
const opt = (k) => { const i = args.indexOf(k); return i >= 0 ? args[i + 1] : undefined; };
// the harness's thresholds (tests/browser/pixi-harness.mjs: colour held at 0.99)
const T_IOU = 0.99, T_COLOUR = 0.99;
const passes = (s) => s.iou >= T_IOU && s.colour >= T_COLOUR;
const f4 = (x) => x.toFixed(4);

function pixels(res) {
    const out = [
        '| character | clip | frames | min IoU | min colour | t + d/4: frames failing (min IoU, min colour) | depths swapped: pair, frames failing (min colour) |',
        '|---|---|---|---|---|---|---|',
    ];
    for (const [name, p] of Object.entries(res.pixels)) {
        for (const clip of [...new Set(p.rows.map((r) => r.clip))]) {
            const rows = p.rows.filter((r) => r.clip === clip);
            const min = (k, m) => Math.min(...rows.map((r) => r[k][m]));
            const fails = (k) => rows.filter((r) => !passes(r[k])).length;
            out.push(`| ${name} | ${clip} | ${rows.length} | ${f4(min('good', 'iou'))} | ${f4(min('good', 'colour'))} | ` +
                `${fails('shifted')}/${rows.length} (${f4(min('shifted', 'iou'))}, ${f4(min('shifted', 'colour'))}) | ` +
                `${p.swap.names.join(' ↔ ')}, ${fails('swapped')}/${rows.length} (${f4(min('swapped', 'colour'))}) |`);
        }
    }
    const m = Object.entries(res.machine).map(([n, x]) => {
        const a = Math.max(...x.seeds.map((s) => s.angle)), p = Math.max(...x.seeds.map((s) => s.pos));
        const c = Object.entries(x.controls).map(([k, v]) => `${k} ${v.caught}/${v.seeds}`).join(', ');
        return `${n}: ${x.seeds.length} seeds, max differences ${a.toExponential(1)} rad and ${p.toExponential(1)} px; controls caught on ${c} seeds`;
    });
    const l = Object.entries(res.layers || {}).map(([n, x]) => {
        const r = (rs) => rs.map((s) => `${f4(s.iou)}/${f4(s.colour)}`).join(', ');
        const played = x.playing.filter(Boolean).length;
        const failed = x.nolayers.filter((s, i) => x.playing[i] && !passes(s)).length;
        return `${n}'s ${x.clip} over the walk: ${r(x.good)} (IoU/colour per shot); without the layers ${failed}/${played} shots where it plays fail (${r(x.nolayers)})`;
    });
    out.push('', `Machine against the Rive runtime — ${m.join('; ')}.`);
    if (l.length) out.push('', `Layers (motions by body part) against render-ref --layer — ${l.join('; ')}.`);
    out.push('', `Run: ${res.chromium}, pixi.js ${res.pinned['pixi.js']}, ${res.seconds} s.`);
    return out.join('\n');
}

function bench(b) {
    const kib = (x) => `${(x / 1024).toFixed(1)} KiB`;
    const out = ['| what | minified | minified + gzip -9 |', '|---|---|---|'];
    for (const s of b.sizes) out.push(`| ${s.what.replace(/^ +/, '').replace(/^…/, '…')} | ${kib(s.min)} | ${kib(s.gz)} |`);
    const name = { player: 're2d player (CPU skinning, batched)', unbatched: 'same, parts not batched', shader: 'same, skinning shader', rive: 'Rive runtime' };
    out.push('', '| characters | runtime | CPU ms/frame, page | CPU ms/frame, GPU process (SwiftShader) | wall ms/frame, page (median) | wall ms/frame to pixels (median) |', '|---|---|---|---|---|---|');
    for (const r of b.results) {
        out.push(`| ${r.n} | ${name[r.mode]} | ${r.cpu.page.toFixed(1)} | ${r.cpu.gpu.toFixed(1)} | ${r.main.median.toFixed(1)} | ${r.frame.median.toFixed(1)}${r.frames < 60 ? ` (${r.frames} frames a run)` : ''} |`);
    }
    out.push('', `Best of ${b.results[0].runs.length} interleaved runs each; ${b.machine}.`);
    return out.join('\n');
}

function fill(doc, key, text) {
    const re = new RegExp(`(<!-- ${key}:begin -->\\n)[\\s\\S]*?(<!-- ${key}:end -->)`);
    if (!re.test(doc)) throw new Error(`no ${key} markers in the document`);
    return doc.replace(re, `$1${text}\n$2`);
}

let doc = fs.readFileSync(opt('--doc'), 'utf8');
if (opt('--results')) doc = fill(doc, 'pixi-pixels', pixels(JSON.parse(fs.readFileSync(opt('--results'), 'utf8'))));
if (opt('--bench')) doc = fill(doc, 'pixi-bench', bench(JSON.parse(fs.readFileSync(opt('--bench'), 'utf8'))));
fs.writeFileSync(opt('--doc'), doc);
console.log(`pixi report: ${opt('--doc')} updated`);
