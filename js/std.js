// re2d built-in module `std`: the subset of the qjs CLI's `std` module that scripts and test harnesses use.
//
// exit, getenv, loadFile, sprintf/printf (%d %i %u %f %s %x %X %c %%, flags -0, width, precision),
// out/err { puts, printf, flush }, gc (no-op). Output shares the host's stdout/stderr with print().
import * as sys from 're2d/native/sys';

function format(f, args) {
    let i = 0;
    return String(f).replace(/%([-+ 0#]*)(\d*)(?:\.(\d+))?([diufsxXc%])/g, (m, flags, w, p, c) => {
        if (c === '%') return '%';
        const a = args[i++];
        let s;
        switch (c) {
            case 'd': case 'i': case 'u': s = String(Math.trunc(Number(a))); break;
            case 'f': s = Number(a).toFixed(p === undefined ? 6 : +p); break;
            case 'x': s = (Number(a) >>> 0).toString(16); break;
            case 'X': s = (Number(a) >>> 0).toString(16).toUpperCase(); break;
            case 'c': s = String.fromCharCode(Number(a)); break;
            default: s = String(a); if (p !== undefined) s = s.slice(0, +p);
        }
        if (flags.includes('+') && 'dif'.includes(c) && Number(a) >= 0) s = '+' + s;
        const width = +w || 0;
        if (s.length < width) {
            s = flags.includes('-') ? s.padEnd(width) : s.padStart(width, flags.includes('0') && c !== 's' ? '0' : ' ');
        }
        return s;
    });
}

export function exit(code) { sys.exit(code | 0); }
export function getenv(name) { return sys.getenv(String(name)) ?? undefined; }
export function loadFile(path) { return sys.loadFile(String(path)) ?? null; }
export function sprintf(f, ...args) { return format(f, args); }
export const out = {
    puts(s) { sys.write(1, String(s)); },
    printf(f, ...args) { sys.write(1, format(f, args)); },
    flush() { sys.flush(1); },
};
export const err = {
    puts(s) { sys.write(2, String(s)); },
    printf(f, ...args) { sys.write(2, format(f, args)); },
    flush() { sys.flush(2); },
};
export function printf(f, ...args) { out.printf(f, ...args); }
export function gc() {}
export default { exit, getenv, loadFile, sprintf, out, err, printf, gc };
