// re2d built-in module `re2d/native` (also served for any import ending in `highlevel/native.js`): the `$` host's bridge to the engine object and files.
//
// Exports: `engine()` → the current `globalThis.engine` (read at call time),
// `setEngine(e)` (test hook: replaces `globalThis.engine`), `readText(path)`
// → file text or `null`, `pushSprite(id, x, y, w, h, rotation, color, blend)`
// → `engine.drawSprite(...)` when the engine has one (else nothing).
import { readText as hostReadText } from 're2d/native/host';

export function engine() {
    return globalThis.engine;
}

export function setEngine(e) {
    globalThis.engine = e;
}

export function readText(path) {
    if (typeof path !== 'string') throw new TypeError('readText: path must be a string');
    return hostReadText(path);
}

export function pushSprite(id, x, y, w, h, rotation, color, blend) {
    const e = globalThis.engine;
    if (e && typeof e.drawSprite === 'function') return e.drawSprite(id, x, y, w, h, rotation, color, blend);
    return undefined;
}
