// re2d page check (issue 45 item 3, issue 47 item 5): the pages `re2d rig build` and `re2d rig page`
// write play when opened as files. Each page is opened in Debian chromium as a file:// URL, with
// every request that is not file:, data: or blob: aborted (and counted: a page must need nothing
// else); the harness waits for the page's first drawn frame (`<body data-state="drawn">`, set once the
// runtime's first frame is on the canvas) instead of a fixed time, then screenshots the canvas and counts the pixels
// that are not the canvas background: the character must cover at least MIN_COVER of it.
// A state machine page must also show a slider per Number input and a button per Trigger (as many as
// the model.json beside it declares). The
// canvas must be the artboard's size (`re2d riv check --json` of the page's .riv).
//
// Negative controls, each must fail the same check: the same page made to fetch its .riv (a browser
// refuses fetch of a file:// URL, so the canvas stays blank), the same page in a folder without
// rive.js, and the same page in a browser with WebGL turned off (the runtime draws image meshes with
// WebGL only: an empty canvas, which the page reports).
//
//   node pages.mjs --re2d target/release/re2d --out DIR FOLDER_OR_PAGE...
//
// Exit 0 when every page passes and every control fails; 1 otherwise. Screenshots go to --out.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';
import { PNG } from 'pngjs';

const CHROMIUM = '/usr/bin/chromium';
const BACKGROUND = [0x3a, 0x3a, 0x40]; // the page's canvas background
const MIN_COVER = 0.01; // a fraction of the canvas the character covers at least
// How long a page may stay "loading" before it counts as never drawn: a guard against a hung
// run, not a measurement (a page that works draws within a second or two).
const GUARD_MS = 120_000;

function parseArgs(argv) {
    const a = { inputs: [] };
    for (let i = 0; i < argv.length; i++) {
        if (argv[i] === '--re2d') a.re2d = argv[++i];
        else if (argv[i] === '--out') a.out = argv[++i];
        else if (argv[i].startsWith('--')) throw new Error(`unknown argument ${argv[i]}`);
        else a.inputs.push(argv[i]);
    }
    if (!a.re2d || !a.out || !a.inputs.length) throw new Error('usage: pages.mjs --re2d BIN --out DIR FOLDER_OR_PAGE...');
    return a;
}

// The pages of the inputs: a folder gives its *.html.
function pagesOf(inputs) {
    const out = [];
    for (const p of inputs) {
        if (fs.statSync(p).isDirectory()) {
            for (const f of fs.readdirSync(p).sort()) if (f.endsWith('.html')) out.push(path.resolve(p, f));
        } else out.push(path.resolve(p));
    }
    if (!out.length) throw new Error(`no pages in ${inputs.join(', ')}`);
    return out;
}

// The .riv a page plays, with its artboard size from `re2d riv check --json`.
function artboardOf(re2d, riv) {
    const j = JSON.parse(execFileSync(re2d, ['riv', 'check', '--json', riv], { encoding: 'utf8' }));
    const ab = j.summary?.artboard ?? j.artboard;
    if (!ab) throw new Error(`riv check --json ${riv}: no artboard in ${JSON.stringify(j).slice(0, 200)}`);
    return Array.isArray(ab) ? { w: ab[1], h: ab[2] } : { w: ab.width, h: ab.height };
}

// Opens one page as a file and judges it; returns { ok, why, ... }.
async function judge(browser, file, shot) {
    const page = await browser.newPage();
    const external = [];
    const errors = [];
    await page.setViewport({ width: 1000, height: 1000, deviceScaleFactor: 1 });
    await page.setRequestInterception(true);
    page.on('request', (r) => {
        const u = new URL(r.url());
        if (['file:', 'data:', 'blob:'].includes(u.protocol)) r.continue();
        else {
            external.push(r.url());
            r.abort();
        }
    });
    page.on('pageerror', (e) => errors.push(String(e.message || e)));
    try {
        await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
        let state;
        try {
            await page.waitForFunction(() => document.body.dataset.state !== 'loading', { timeout: GUARD_MS });
        } catch {
            // never drawn and no error reported: judged as a blank page below
        }
        state = await page.evaluate(() => ({ ...document.body.dataset }));
        const canvas = await page.$('canvas');
        const size = canvas ? await canvas.evaluate((c) => ({ w: c.width, h: c.height })) : null;
        const controls = await page.evaluate(() => ({
            ranges: document.querySelectorAll('#controls input[type=range]').length,
            buttons: document.querySelectorAll('#controls button').length,
        }));
        let cover = 0;
        if (canvas && state.state === 'drawn') {
            const png = PNG.sync.read(await canvas.screenshot({ path: shot }));
            let n = 0;
            for (let i = 0; i < png.data.length; i += 4) {
                const d = Math.max(...[0, 1, 2].map((k) => Math.abs(png.data[i + k] - BACKGROUND[k])));
                if (d > 24) n += 1;
            }
            cover = n / (png.width * png.height);
        }
        const why = [];
        if (state.state !== 'drawn') why.push(`never drew (state ${state.state}${state.error ? `: ${state.error}` : ''})`);
        if (state.state === 'drawn' && cover < MIN_COVER) why.push(`blank canvas (${(cover * 100).toFixed(2)} % covered)`);
        if (external.length) why.push(`requested ${external.join(', ')}`);
        if (errors.length) why.push(`page errors: ${errors.join('; ').slice(0, 200)}`);
        return { ok: why.length === 0, why: why.join('; '), cover, size, controls, state };
    } finally {
        await page.close();
    }
}

const a = parseArgs(process.argv.slice(2));
if (!fs.existsSync(CHROMIUM)) {
    console.error(`pages: FAILED: ${CHROMIUM} missing (make deps installs it)`);
    process.exit(1);
}
fs.rmSync(a.out, { recursive: true, force: true });
fs.mkdirSync(a.out, { recursive: true });
const pages = pagesOf(a.inputs);
const profile = fs.mkdtempSync(path.join(a.out, 'profile-'));
const launch = (webgl) => puppeteer.launch({
    executablePath: CHROMIUM, headless: true, pipe: true,
    args: ['--headless', '--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update',
        '--disable-sync', `--user-data-dir=${fs.mkdtempSync(path.join(profile, 'p-'))}`,
        // the runtime draws image meshes through WebGL: software WebGL, as in harness.mjs
        ...(webgl ? ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist']
            : ['--disable-webgl', '--disable-3d-apis'])],
});
const browser = await launch(true);
let failed = 0;
try {
    for (const file of pages) {
        const html = fs.readFileSync(file, 'utf8');
        const riv = path.join(path.dirname(file), html.match(/Generated by re2d \(re2d rig page\): (\S+)/)?.[1] ?? 'character.riv');
        const ab = artboardOf(a.re2d, riv);
        const tag = path.basename(path.dirname(file)) + '-' + path.basename(file, '.html');
        const r = await judge(browser, file, path.join(a.out, `${tag}.png`));
        const why = r.why ? [r.why] : [];
        if (!r.size || r.size.w !== Math.ceil(ab.w) || r.size.h !== Math.ceil(ab.h)) {
            why.push(`canvas ${r.size?.w}x${r.size?.h}, artboard ${ab.w}x${ab.h}`);
        }
        if (path.basename(file) === 'machine.html') {
            // what the model says: one Number input, a Trigger per one-shot clip
            const modelFile = path.join(path.dirname(file), 'model.json');
            const sm = fs.existsSync(modelFile) ? JSON.parse(fs.readFileSync(modelFile, 'utf8')).state_machine : null;
            // a button per one-shot trigger and per body-part layer's trigger (issue 47)
            const want = sm ? { ranges: 1, buttons: (sm.triggers || []).length + (sm.layers || []).length } : null;
            if (want ? r.controls.ranges !== want.ranges || r.controls.buttons !== want.buttons : r.controls.ranges < 1) {
                why.push(`state machine controls: ${r.controls.ranges} sliders, ${r.controls.buttons} buttons${want ? `, the model has ${want.ranges} and ${want.buttons}` : ''}`);
            }
        }
        console.log(`${why.length ? 'FAIL' : 'ok  '} ${file}: ${(r.cover * 100).toFixed(1)} % of the ${r.size?.w}x${r.size?.h} canvas drawn after ${r.state.frames} frame(s)${why.length ? ' — ' + why.join('; ') : ''}`);
        if (why.length) failed += 1;
    }
    // the controls, on the first page: it must fail when it fetches its .riv, and without rive.js
    const first = pages[0];
    const src = fs.readFileSync(first, 'utf8');
    const dir = path.dirname(first);
    const fetchDir = path.join(a.out, 'control-fetch');
    const bareDir = path.join(a.out, 'control-no-runtime');
    fs.mkdirSync(fetchDir, { recursive: true });
    fs.mkdirSync(bareDir, { recursive: true });
    fs.copyFileSync(path.join(dir, 'rive.js'), path.join(fetchDir, 'rive.js'));
    fs.copyFileSync(path.join(dir, 'character.riv'), path.join(fetchDir, 'character.riv'));
    const fetching = src.replace('buffer: bytes.buffer', "src: 'character.riv'");
    if (fetching === src) throw new Error('control: the page does not pass its bytes as `buffer: bytes.buffer`');
    fs.writeFileSync(path.join(fetchDir, 'page.html'), fetching);
    fs.writeFileSync(path.join(bareDir, 'page.html'), src);
    for (const [name, file] of [['fetches its .riv', path.join(fetchDir, 'page.html')], ['no rive.js beside it', path.join(bareDir, 'page.html')]]) {
        const r = await judge(browser, file, path.join(a.out, `control-${name.split(' ')[0]}.png`));
        if (r.ok) {
            console.log(`FAIL control (${name}): passed the check (${(r.cover * 100).toFixed(1)} % drawn)`);
            failed += 1;
        } else console.log(`ok   control (${name}) fails as it must: ${r.why}`);
    }
    const noGl = await launch(false);
    try {
        const r = await judge(noGl, first, path.join(a.out, 'control-nowebgl.png'));
        if (r.ok) {
            console.log(`FAIL control (WebGL off): passed the check (${(r.cover * 100).toFixed(1)} % drawn)`);
            failed += 1;
        } else console.log(`ok   control (WebGL off) fails as it must: ${r.why}`);
    } finally {
        await noGl.close();
    }
} finally {
    await browser.close();
    fs.rmSync(profile, { recursive: true, force: true });
}
console.log(failed ? `pages: ${failed} FAILED` : `pages: ${pages.length} pages play from file://, the three controls fail`);
process.exit(failed ? 1 : 0);
