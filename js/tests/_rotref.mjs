// Plain-JS literal transcription of js-rotsprite.md §2, §3.3 and §3.4 (test oracle for the Rust validators; no natives).
const FACE = {
    eyes: ['open', 'half', 'closed', 'happy'],
    mouth: ['closed', 'open', 'smile', 'talk'],
    brows: ['neutral', 'angry', 'sad', 'surprised'],
};

function finite(v) {
    if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > 1e6) throw new RangeError('finite');
    return v;
}
function vector(v, fallback) {
    v = v ?? fallback;
    if (!Array.isArray(v) || v.length !== 3) throw new TypeError('vector');
    return v.map((x) => finite(x));
}
function cloneData(v) {
    return JSON.parse(JSON.stringify(v, (k, x) => {
        if (typeof x === 'function' || typeof x === 'symbol' || (typeof x === 'number' && !Number.isFinite(x))) {
            throw new TypeError('clone');
        }
        return x;
    }));
}
function name(v) {
    if (typeof v !== 'string' || v === '' || v.length > 80 || v === '__proto__' || v === 'constructor' || v === 'prototype') {
        throw new TypeError('name');
    }
    return v;
}
const isBool = (v) => v == null || typeof v === 'boolean';

export function validateRotDefinition(source) {
    const d = cloneData(source);
    if (!d || d.version !== 1 || typeof d.atlas !== 'string' || d.atlas === '') throw new TypeError('head');
    d.style = d.style ?? 'anime';
    if (d.style !== 'anime' && d.style !== 'pixel') throw new TypeError('style');
    const rig = d.rig;
    if (!rig || !Array.isArray(rig.bones) || rig.bones.length < 1 || rig.bones.length > 64 ||
        !Array.isArray(rig.parts) || rig.parts.length < 1 || rig.parts.length > 254) throw new TypeError('rig');
    const bones = new Set();
    for (const b of rig.bones) {
        name(b.name);
        if (bones.has(b.name) || (b.parent != null && !bones.has(b.parent))) throw new TypeError('bone');
        b.pivot = vector(b.pivot, [0, 0, 0]);
        b.portraitPivot = vector(b.portraitPivot, b.pivot);
        bones.add(b.name);
    }
    const binding = (x) => {
        x = x ?? {};
        return { scale: vector(x.scale, [1, 1, 1]), translation: vector(x.translation, [0, 0, 0]), rotation: vector(x.rotation, [0, 0, 0]) };
    };
    const ids = new Set();
    for (const p of rig.parts) {
        if (!Number.isInteger(p.id) || p.id < 1 || p.id > 254 || ids.has(p.id) || !bones.has(p.bone)) throw new TypeError('part');
        ids.add(p.id);
        p.bind = binding(p.bind);
        p.portraitBind = binding(p.portraitBind ?? p.bind);
        if (p.selector != null && !Object.hasOwn(FACE, p.selector)) throw new TypeError('selector');
        if (p.selector && !(Number.isInteger(p.variant) && p.variant >= 0 && p.variant <= 3)) throw new TypeError('variant');
        if (!isBool(p.portrait) || !isBool(p.oneSided)) throw new TypeError('flags');
    }
    d.groups = d.groups ?? {};
    for (const [key, list] of Object.entries(d.groups)) {
        name(key);
        if (!Array.isArray(list) || list.length === 0 || new Set(list).size !== list.length || !list.every((id) => ids.has(id))) {
            throw new TypeError('group');
        }
    }
    rig.joints = rig.joints ?? [];
    if (!Array.isArray(rig.joints) || rig.joints.length > 128) throw new TypeError('joints');
    const joints = new Set();
    for (const j of rig.joints) {
        name(j.name);
        if (joints.has(j.name) || !bones.has(j.bone)) throw new TypeError('joint');
        joints.add(j.name);
        j.point = vector(j.point, [0, 0, 0]);
    }
    rig.controls = rig.controls ?? {};
    for (const [key, c] of Object.entries(rig.controls)) {
        name(key);
        if (!bones.has(c.bone) || !['x', 'y', 'z'].includes(c.axis)) throw new TypeError('control');
    }
    d.projection = d.projection ?? {};
    for (const [key, def] of [['bodyScale', 1], ['portraitScale', 2]]) {
        const v = finite(d.projection[key] ?? def);
        if (!(v > 0 && v <= 8)) throw new RangeError('scale');
        d.projection[key] = v;
    }
    rig.sockets = rig.sockets ?? [];
    if (!Array.isArray(rig.sockets) || rig.sockets.length > 128) throw new TypeError('sockets');
    const sockets = new Set();
    for (const s of rig.sockets) {
        name(s.name);
        if (sockets.has(s.name) || !bones.has(s.bone)) throw new TypeError('socket');
        sockets.add(s.name);
        s.point = vector(s.point, [0, 0, 0]);
        s.rotation = vector(s.rotation, [0, 0, 0]);
        if (!isBool(s.portrait)) throw new TypeError('socket portrait');
    }
    d.defaults = d.defaults ?? {};
    if (!isBool(d.defaults.body)) throw new TypeError('defaults');
    d.emotions = d.emotions ?? {};
    for (const [key, e] of Object.entries(d.emotions)) {
        name(key);
        for (const [component, value] of Object.entries(e)) {
            if (!['eyes', 'mouth', 'brows'].includes(component) || !FACE[component].includes(value)) throw new TypeError('emotion');
        }
    }
    return d;
}

export function validateRotAnimations(source, definition) {
    const a = cloneData(source);
    const bones = new Set(definition.rig.bones.map((b) => b.name));
    if (!a || a.version !== 1 || !a.clips || typeof a.clips !== 'object' || Array.isArray(a.clips) ||
        Object.keys(a.clips).length > 64) throw new TypeError('head');
    for (const [key, c] of Object.entries(a.clips)) {
        name(key);
        finite(c.duration);
        if (c.duration <= 0 || typeof c.loop !== 'boolean' || !Array.isArray(c.tracks) || c.tracks.length > 256) throw new TypeError('clip');
        const used = new Set();
        for (const t of c.tracks) {
            const face = t.target === 'face';
            if (face ? !Object.hasOwn(FACE, t.channel) : (!bones.has(t.target) || !/^(rotation|translation)\.[xyz]$/.test(t.channel))) {
                throw new TypeError('track');
            }
            const k = t.target + ':' + t.channel;
            if (used.has(k)) throw new TypeError('dup');
            used.add(k);
            t.interpolation = t.interpolation ?? (face ? 'step' : 'linear');
            if ((t.interpolation !== 'linear' && t.interpolation !== 'step') || (face && t.interpolation !== 'step')) throw new TypeError('interp');
            if (!Array.isArray(t.keys) || t.keys.length < 1 || t.keys.length > 1024) throw new TypeError('keys');
            let prev = -1;
            for (const key of t.keys) {
                if (!Array.isArray(key) || key.length !== 2) throw new TypeError('key');
                finite(key[0]);
                if (key[0] < 0 || key[0] > c.duration || key[0] <= prev) throw new RangeError('time');
                prev = key[0];
                if (face) {
                    if (!FACE[t.channel].includes(key[1])) throw new TypeError('face value');
                } else {
                    finite(key[1]);
                }
            }
        }
    }
    return a;
}

export function relativeAsset(file, path) {
    if (typeof path !== 'string' || path === '') throw new TypeError('path');
    if (path.startsWith('/')) return path;
    const root = typeof file === 'string' && file.startsWith('/') ? '/' : '';
    let parts = [];
    if (file) {
        if (typeof file !== 'string') throw new TypeError('file');
        parts = file.slice(0, file.lastIndexOf('/') + 1).split('/').filter((s) => s !== '');
    }
    for (const s of path.split('/')) {
        if (s === '..') {
            if (parts.length === 0) throw new RangeError('escape');
            parts.pop();
        } else if (s !== '' && s !== '.') {
            parts.push(s);
        }
    }
    return root + parts.join('/');
}
