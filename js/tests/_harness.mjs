// re2d JS test harness for re2d-qjs: test(), assertions, and a summary line "N passed, N failed".
let passed = 0;
let failed = 0;

function show(v) {
    if (typeof v === 'number' && Object.is(v, -0)) return '-0';
    if (typeof v === 'symbol') return v.toString();
    try {
        const s = JSON.stringify(v);
        return s === undefined ? String(v) : s;
    } catch (e) {
        return String(v);
    }
}

export function test(name, fn) {
    try {
        fn();
        passed++;
    } catch (e) {
        failed++;
        print(`FAIL ${name}: ${e && e.message}`);
        if (e && e.stack) print(e.stack);
    }
}

export function ok(cond, msg) {
    if (!cond) throw new Error(msg || 'expected truthy');
}

// SameValue (so -0 !== 0 and NaN === NaN)
export function is(a, b, msg) {
    if (!Object.is(a, b)) throw new Error(`${msg || 'is'}: got ${show(a)}, want ${show(b)}`);
}

export function near(a, b, eps, msg) {
    if (!(Math.abs(a - b) <= eps)) throw new Error(`${msg || 'near'}: got ${show(a)}, want ${show(b)} ± ${eps}`);
}

export function json(a, b, msg) {
    const sa = JSON.stringify(a), sb = JSON.stringify(b);
    if (sa !== sb) throw new Error(`${msg || 'json'}: got ${sa}, want ${sb}`);
}

export function keys(obj, want, msg) {
    json(Object.keys(obj), want, msg || 'keys');
}

export function throws(fn, Type, msg) {
    try {
        fn();
    } catch (e) {
        if (Type && !(e instanceof Type)) throw new Error(`${msg || 'throws'}: threw ${e}, want ${Type.name}`);
        return e;
    }
    throw new Error(`${msg || 'throws'}: did not throw`);
}

export function arrayEq(a, b, msg) {
    if (a.length !== b.length) throw new Error(`${msg || 'arrayEq'}: length ${a.length} vs ${b.length}`);
    for (let i = 0; i < a.length; i++) {
        if (!Object.is(a[i], b[i])) throw new Error(`${msg || 'arrayEq'}: [${i}] ${show(a[i])} vs ${show(b[i])}`);
    }
}

// Replace globalThis.engine with a recording proxy; returns the record.
export function recordEngine(ret) {
    const rec = { logs: [], submits: [], logThis: [] };
    globalThis.engine = {
        log(msg) {
            rec.logs.push(msg);
            rec.logThis.push(this);
        },
        submitMesh(flat, count, texture) {
            rec.submits.push({ flat, count, texture, copy: Array.from(flat.slice(0, count * 8)) });
            return ret === undefined ? 'submitted' : ret;
        },
    };
    return rec;
}

export function done(name) {
    print(`${name}: ${passed} passed, ${failed} failed`);
    if (failed) throw new Error(`${name}: ${failed} test(s) failed`);
}
