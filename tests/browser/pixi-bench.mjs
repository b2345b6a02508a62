// re2d PixiJS bench (make bench-pixi, issue 43 item 3): sizes and frame times, one machine, one run.
//
//   node pixi-bench.mjs --build DIR --out DIR [--frames 60] [--repeat 3] [--counts 1,20,100]
//                       [--modes player,unbatched,shader,rive]
//
// DIR is a `re2d rig build` folder with model.json, its texture pages and character.riv.
// Sizes (bytes, gzip level 9): the player bundled and minified by esbuild with pixi.js left out
// (what a game adds beside PixiJS); @esotericsoftware/spine-pixi-v8's own minified ES module
// (pixi.js left out too); the Rive runtime @rive-app/canvas-single, whose one JS file carries
// its wasm as base64, split into the wasm (decoded) and the JS; pixi.js itself for scale.
// Frame times: tests/browser/pixi-bench-page.js, 1/20/100 walking characters in Debian
// chromium, WebGL on SwiftShader started as the harness starts it: the CPU time per frame of the
// page's renderer process and of the GPU process (SwiftShader rasterises there), read from
// chromium (SystemInfo.getProcessInfo) around the timed frames, and the page's wall-clock times.
// Runtimes: the player, two alternatives of its skinning (not batched; a skinning shader), and
// the Rive runtime playing the same character's .riv.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { serve } from './server.mjs';
import { CHROMIUM, launch, openPage } from './browser.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PLAYER = path.join(HERE, '..', '..', 'js', 'pixi');
const NM = path.join(HERE, 'node_modules');

function args(argv) {
    const a = { frames: 60, repeat: 3, counts: [1, 20, 100], modes: ['player', 'unbatched', 'shader', 'rive'] };
    for (let i = 0; i < argv.length; i += 2) {
        const [k, v] = [argv[i], argv[i + 1]];
        if (k === '--build') a.build = v;
        else if (k === '--out') a.out = v;
        else if (k === '--frames') a.frames = Number(v);
        else if (k === '--counts') a.counts = v.split(',').map(Number);
        else if (k === '--modes') a.modes = v.split(',');
        else if (k === '--repeat') a.repeat = Number(v);
        else throw new Error(`unknown argument ${k}`);
    }
    if (!a.build || !a.out) throw new Error('usage: pixi-bench.mjs --build DIR --out DIR');
    return a;
}

const gz = (b) => zlib.gzipSync(b, { level: 9 }).length;
const version = (p) => JSON.parse(fs.readFileSync(path.join(NM, p, 'package.json'), 'utf8')).version;

async function sizes() {
    const built = await esbuild.build({
        entryPoints: [path.join(PLAYER, 'index.js')], bundle: true, minify: true, format: 'esm',
        external: ['pixi.js'], write: false, logLevel: 'silent',
    });
    const player = Buffer.from(built.outputFiles[0].contents);
    const src = fs.readdirSync(path.join(PLAYER, 'src')).map((f) => fs.readFileSync(path.join(PLAYER, 'src', f)));
    const spine = fs.readFileSync(path.join(NM, '@esotericsoftware', 'spine-pixi-v8', 'dist', 'esm', 'spine-pixi-v8.min.mjs'));
    const riveJs = fs.readFileSync(path.join(NM, '@rive-app', 'canvas-single', 'rive.js'), 'latin1');
    const i = riveJs.indexOf('AGFzbQ'); // the wasm magic, base64
    let a = i, b = i;
    while (/[A-Za-z0-9+/=]/.test(riveJs[a - 1])) a--;
    while (/[A-Za-z0-9+/=]/.test(riveJs[b])) b++;
    const wasm = Buffer.from(riveJs.slice(a, b), 'base64');
    if (wasm.readUInt32BE(0) !== 0x0061736d) throw new Error('rive.js: no embedded wasm found');
    const riveRest = Buffer.from(riveJs.slice(0, a) + riveJs.slice(b), 'latin1');
    const pixi = fs.readFileSync(path.join(NM, 'pixi.js', 'dist', 'pixi.min.mjs'));
    return [
        { what: `re2d player (js/pixi, esbuild ${version('esbuild')} --minify, pixi.js external)`, raw: src.reduce((s, x) => s + x.length, 0), min: player.length, gz: gz(player) },
        { what: `@esotericsoftware/spine-pixi-v8 ${version('@esotericsoftware/spine-pixi-v8')} (its dist/esm min.mjs, pixi.js external)`, raw: null, min: spine.length, gz: gz(spine) },
        { what: `Rive runtime @rive-app/canvas-single ${version('@rive-app/canvas-single')}: wasm`, raw: null, min: wasm.length, gz: gz(wasm) },
        { what: '  … its JS (without the embedded wasm)', raw: null, min: riveRest.length, gz: gz(riveRest) },
        { what: '  … wasm + JS', raw: null, min: wasm.length + riveRest.length, gz: gz(wasm) + gz(riveRest) },
        { what: `pixi.js ${version('pixi.js')} itself (dist/pixi.min.mjs; the player and spine need it, Rive does not)`, raw: null, min: pixi.length, gz: gz(pixi) },
    ];
}

async function main() {
    const a = args(process.argv.slice(2));
    if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found (make deps installs it)`);
    fs.mkdirSync(a.out, { recursive: true });
    const kb = (x) => (x === null ? '' : `${(x / 1024).toFixed(1)} KiB`);
    console.log('== size (gzip -9)');
    for (const s of await sizes()) console.log(`  ${s.what.padEnd(100)} ${kb(s.raw).padStart(11)} ${kb(s.min).padStart(11)} min ${kb(s.gz).padStart(11)} gz`);
    const { server, port } = await serve({
        '/': HERE, '/player/': PLAYER, '/pixi/': path.join(NM, 'pixi.js', 'dist'),
        '/rive/': path.join(NM, '@rive-app', 'canvas-single'), '/build/': a.build,
    });
    const gl = await launch(a.out, true);
    const log = { external: [], errors: [] };
    try {
        const page = await openPage(gl.browser, port, log, '/pixi-bench.html');
        await page.waitForFunction(() => window.benchReady === true, { timeout: 30000 });
        const cdp = await gl.browser.target().createCDPSession();
        // cumulative CPU seconds of the page's renderer processes and of the GPU process
        const cpu = async () => {
            const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
            const sum = (t) => processInfo.filter((p) => p.type === t).reduce((x, p) => x + p.cpuTime, 0);
            return { page: sum('renderer'), gpu: sum('GPU') };
        };
        console.log(`== frame time, best of ${a.repeat} runs of ${a.frames} frames after 20 of warm-up, 1280x720, ${await gl.browser.version()}, WebGL on SwiftShader; ` +
            `${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
        console.log('   CPU ms per frame: page = the page\'s renderer process (JS, PixiJS, command submission); GPU = the GPU process (SwiftShader)');
        console.log('   wall ms per frame (median / p90): main = stepping the characters and submitting; frame = until the pixels exist');
        console.log('  characters  runtime                       CPU page    CPU GPU     wall main          wall frame');
        // every (count, runtime) run `repeat` times, interleaved, each time freshly prepared; the
        // table keeps the best of the runs (the machine is shared: the least disturbed run)
        const runs = {};
        for (let rep = 0; rep < a.repeat; rep++) {
            for (const n of a.counts) {
                for (const mode of a.modes) {
                    const url = mode === 'rive' ? '/build/character.riv' : '/build/model.json';
                    await page.evaluate((m, u, k) => window.bench.prepare(m, u, k), mode, url, n);
                    const c0 = await cpu();
                    const r = await page.evaluate((f) => window.bench.run(f), a.frames);
                    const c1 = await cpu();
                    r.cpu = { page: ((c1.page - c0.page) * 1000) / r.frames, gpu: ((c1.gpu - c0.gpu) * 1000) / r.frames };
                    if (rep === 0) fs.writeFileSync(path.join(a.out, `${mode}-${n}.png`), Buffer.from(r.shot.split(',')[1], 'base64'));
                    delete r.shot;
                    (runs[`${n} ${mode}`] ||= []).push(r);
                }
            }
        }
        const best = (rs, f) => Math.min(...rs.map(f));
        const results = [];
        for (const n of a.counts) {
            for (const mode of a.modes) {
                const rs = runs[`${n} ${mode}`];
                const r = {
                    n, mode, runs: rs, frames: best(rs, (x) => x.frames),
                    cpu: { page: best(rs, (x) => x.cpu.page), gpu: best(rs, (x) => x.cpu.gpu) },
                    main: { median: best(rs, (x) => x.main.median), p90: best(rs, (x) => x.main.p90) },
                    frame: { median: best(rs, (x) => x.frame.median), p90: best(rs, (x) => x.frame.p90) },
                };
                results.push(r);
                const f2 = (x) => x.toFixed(2).padStart(7);
                console.log(`  ${String(n).padStart(10)}  ${{ player: 're2d player (CPU skinning)', unbatched: 're2d, parts not batched', shader: 're2d, skinning shader', rive: 'Rive runtime' }[mode].padEnd(28)}` +
                    `  ${f2(r.cpu.page)}    ${f2(r.cpu.gpu)}    ${f2(r.main.median)} / ${f2(r.main.p90)}  ${f2(r.frame.median)} / ${f2(r.frame.p90)}${r.frames < a.frames ? `  (${r.frames} frames in the time budget)` : ''}`);
            }
        }
        const machine = `${await gl.browser.version()}, ${os.cpus().length} × ${os.cpus()[0].model}, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} at the end, ${new Date().toISOString().slice(0, 10)}`;
        fs.writeFileSync(path.join(a.out, 'bench.json'), JSON.stringify({ sizes: await sizes(), results, machine }, null, 1) + '\n');
        if (log.errors.length) console.log(`page errors: ${log.errors.slice(0, 3).join(' | ')}`);
        console.log(`screenshots: ${a.out}/{player,shader,rive}-N.png`);
    } finally {
        await gl.browser.close();
        server.close();
        fs.rmSync(gl.profile, { recursive: true, force: true });
    }
}

main().catch((e) => {
    console.error(`pixi bench: ${e && e.stack ? e.stack : e}`);
    process.exit(1);
});
