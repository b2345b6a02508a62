// re2d riv browser harness: a static file server bound to 127.0.0.1 (spec rive-export.md §10.3 "Offline").
// Serves GET requests from a map of URL prefixes to local directories; nothing else.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const TYPES = {
    '.html': 'text/html; charset=utf-8',
    '.js': 'text/javascript; charset=utf-8',
    '.mjs': 'text/javascript; charset=utf-8',
    '.json': 'application/json',
    '.png': 'image/png',
    '.riv': 'application/octet-stream',
    '.wasm': 'application/wasm',
};

// roots: { '/': dir, '/rive/': dir2, ... } (longest prefix wins)
export function serve(roots) {
    const prefixes = Object.keys(roots).sort((a, b) => b.length - a.length);
    const server = http.createServer((req, res) => {
        const url = new URL(req.url, 'http://127.0.0.1');
        const p = decodeURIComponent(url.pathname);
        const prefix = prefixes.find((x) => p.startsWith(x));
        if (req.method !== 'GET' || !prefix) {
            res.writeHead(404).end();
            return;
        }
        const root = path.resolve(roots[prefix]);
        const file = path.resolve(root, '.' + path.sep + p.slice(prefix.length));
        if (!file.startsWith(root + path.sep) && file !== root) {
            res.writeHead(403).end();
            return;
        }
        fs.readFile(file, (err, data) => {
            if (err) {
                res.writeHead(404).end();
                return;
            }
            res.writeHead(200, {
                'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
                'cache-control': 'no-store',
            });
            res.end(data);
        });
    });
    return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve({ server, port: server.address().port }));
    });
}
