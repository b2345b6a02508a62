// re2d built-in module `os`: the subset of the qjs CLI's `os` module that scripts and test harnesses use.
//
// setTimeout/clearTimeout (the host's timer queue, also global), now() in ms, sleep(ms),
// getcwd() → [path, 0], platform.
import * as sys from 're2d/native/sys';

export const setTimeout = (fn, ms, ...args) => globalThis.setTimeout(fn, ms, ...args);
export const clearTimeout = (id) => globalThis.clearTimeout(id);
export function now() { return sys.now(); }
export function sleep(ms) { sys.sleep(Number(ms) || 0); }
export function getcwd() { return [sys.cwd(), 0]; }
export const platform = 'linux';
export default { setTimeout, clearTimeout, now, sleep, getcwd, platform };
