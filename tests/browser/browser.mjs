// re2d browser harnesses, what they share: Debian chromium started the one way every harness
// starts it (headless, no sandbox, no background networking, a fresh profile; software WebGL
// through SwiftShader, or no WebGL at all), pages opened on the local server with every request
// outside 127.0.0.1 recorded and aborted (rive-export.md §10.3 "Offline"), the pinned npm
// versions checked, and the re2d CLI run.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const HERE = path.dirname(fileURLToPath(import.meta.url));

export const CHROMIUM = '/usr/bin/chromium';

export async function launch(outDir, webgl) {
    const profile = fs.mkdtempSync(path.join(outDir, 'profile-'));
    const args = ['--headless', '--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`];
    if (webgl) args.push('--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist');
    else args.push('--disable-webgl', '--disable-3d-apis');
    const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args, pipe: true });
    return { browser, profile };
}

// A page on the local server with request interception: anything not 127.0.0.1/localhost
// (or data:/blob:) is recorded in `external` and aborted.
export async function openPage(browser, port, log, pagePath = '/page.html') {
    const page = await browser.newPage();
    await page.setViewport({ width: 800, height: 600, deviceScaleFactor: 1 });
    await page.setRequestInterception(true);
    page.on('request', (r) => {
        const u = new URL(r.url());
        const local = u.protocol === 'data:' || u.protocol === 'blob:' ||
            ((u.protocol === 'http:' || u.protocol === 'https:') && (u.hostname === '127.0.0.1' || u.hostname === 'localhost'));
        if (local) r.continue();
        else {
            log.external.push(r.url());
            r.abort();
        }
    });
    page.on('console', (m) => { if (m.type() === 'error') log.errors.push(m.text()); });
    page.on('pageerror', (e) => log.errors.push(String(e.message || e)));
    await page.goto(`http://127.0.0.1:${port}${pagePath}`, { waitUntil: 'load' });
    return page;
}

export function re2d(bin, args) {
    try {
        return execFileSync(bin, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
        throw new Error(`re2d ${args.join(' ')}: ${(e.stderr || e.message).trim()}`);
    }
}

// The pinned npm versions must be exactly what is installed.
export function checkVersions() {
    const pkg = JSON.parse(fs.readFileSync(path.join(HERE, 'package.json'), 'utf8'));
    const out = {};
    for (const [name, want] of Object.entries(pkg.dependencies)) {
        const got = JSON.parse(fs.readFileSync(path.join(HERE, 'node_modules', name, 'package.json'), 'utf8')).version;
        if (got !== want) throw new Error(`${name}: installed ${got}, pinned ${want} (run npm ci in tests/browser)`);
        out[name] = got;
    }
    return out;
}
