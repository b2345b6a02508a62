// The model reader: a parsed `model.json` (rive-export.md §7 plus the `state_machine` section of
// src/riv/machine.rs) validated by the rules of `re2d export-riv` (src/riv/model.rs,
// src/riv/machine.rs and the key-time checks of src/riv/export.rs at its default 60 fps), in
// their order, into the plain arrays the player runs on. A model export-riv refuses is refused
// here with a ModelError carrying the same code (E_MODEL_JSON, E_BONE, E_PART, E_WEIGHT,
// E_TEXTURE, E_CLIP, E_KEY_QUANT, E_KEY_RANGE) and the field it names. Texture *files* are not
// read here: the loader (load.js) fetches them after the model passed.
//
// Output (`Model`): bones in canonical order (js-mesh.md §5.1, parents before children), parts in
// declaration order with per-vertex influences (≤ 2 bones, same-bone pairs merged), clips in
// ascending name order with their tracks in canonical bone order, the machine, the warnings.

/** The error of a model that export-riv would refuse: `code` (§8.7) and `field` (the JSON path). */
export class ModelError extends Error {
    constructor(code, field, message) {
        super(`re2d: ${code}: ${message}`);
        this.name = 'ModelError';
        this.code = code;
        this.field = field;
    }
}

export const MAX_BONES = 255;
export const MAX_VERTICES = 65535;
const F32_MAX = 3.4028234663852886e38;
const EXPORT_FPS = 60;

const fail = (code, field, message) => { throw new ModelError(code, field, message); };
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const absent = (v) => v === undefined || v === null;
const show = (v) => (v === undefined ? 'nothing' : JSON.stringify(v));

// A number field: absent/null → default; a finite number within binary32; else the field's error.
function num(v, dflt, code, what) {
    if (absent(v)) return dflt;
    if (typeof v === 'number') {
        if (!Number.isFinite(v)) fail(code, what, `${what} is not a finite number`);
        if (Math.abs(v) > F32_MAX) fail(code, what, `${what} = ${v} is outside the binary32 range of .riv double fields`);
        return v;
    }
    if (v === 'NaN' || v === 'Infinity' || v === '-Infinity') fail(code, what, `${what} is ${v}, not a finite number`);
    return fail(code, what, `${what} is not a number`);
}

// A number that must be there (an array element, a key value): null is refused.
function item(v, code, what) {
    if (v === null) fail(code, what, `${what} is null, not a number (a NaN or infinity becomes null in JSON)`);
    return num(v, 0, code, what);
}

function numbers(v, code, what) {
    if (absent(v)) return [];
    if (!Array.isArray(v)) fail(code, what, `${what} is not an array`);
    return v.map((x, i) => item(x, code, `${what}[${i}]`));
}

// js-mesh.md §5.1: parents before children; returns [order, stalled passes].
function orderBones(names, parents) {
    const order = [];
    const placed = new Set();
    let pending = names.map((_, i) => i);
    let stalls = 0;
    while (pending.length) {
        const before = pending.length;
        for (let i = pending.length - 1; i >= 0; i--) {
            const p = parents[pending[i]];
            if (p === null || placed.has(p)) {
                order.push(pending[i]);
                placed.add(names[pending[i]]);
                pending.splice(i, 1);
            }
        }
        if (pending.length === before) {
            stalls++;
            for (const i of pending) order.push(i);
            pending = [];
        }
    }
    return [order, stalls];
}

function readBones(v, warnings) {
    if (absent(v)) return [];
    if (!isObject(v)) fail('E_BONE', 'skeleton', 'skeleton is not an object');
    const keys = Object.keys(v);
    if (keys.length > MAX_BONES) fail('E_BONE', 'skeleton', `${keys.length} bones; at most ${MAX_BONES} fit in a weight slot byte`);
    const raw = keys.map((k) => {
        const b = v[k];
        const at = `skeleton.${k}`;
        if (!isObject(b)) fail('E_BONE', at, `${at} is not an object`);
        let parent = null;
        if (typeof b.parent === 'string') parent = b.parent === '' ? null : b.parent;
        else if (!absent(b.parent)) fail('E_BONE', `${at}.parent`, `${at}.parent is not a string`);
        const length = num(b.length, 0, 'E_BONE', `${at}.length`);
        if (length < 0) fail('E_BONE', `${at}.length`, `${at}.length is negative`);
        const angle = num(b.angle, 0, 'E_BONE', `${at}.angle`);
        const x = num(b.x, 0, 'E_BONE', `${at}.x`);
        const y = num(b.y, 0, 'E_BONE', `${at}.y`);
        if (parent !== null && ('x' in b || 'y' in b)) warnings.push(`${at}: x/y ignored (a child bone starts at its parent's tip)`);
        return { name: k, parent, length, angle, x, y };
    });
    for (const r of raw) {
        if (r.parent !== null && !Object.prototype.hasOwnProperty.call(v, r.parent)) fail('E_BONE', `skeleton.${r.name}.parent`, `skeleton.${r.name}: unknown parent '${r.parent}'`);
    }
    const [order, stalls] = orderBones(keys, raw.map((r) => r.parent));
    if (stalls > 0) {
        const seen = new Set();
        const cycle = [];
        for (const i of order) {
            if (raw[i].parent !== null && !seen.has(raw[i].parent)) cycle.push(raw[i].name);
            seen.add(raw[i].name);
        }
        fail('E_BONE', 'skeleton', `the parent links form a cycle (${cycle.join(', ')})`);
    }
    const index = new Map();
    return order.map((i, k) => {
        const r = raw[i];
        index.set(r.name, k);
        const root = r.parent === null;
        return { name: r.name, parent: root ? -1 : index.get(r.parent), length: r.length, angle: r.angle, x: root ? r.x : 0, y: root ? r.y : 0 };
    });
}

// One vertex's `weights` entry: null, [[name, w], …] or a flat [name, w, …].
function pairsOf(v, what) {
    if (v === null) return [];
    if (!Array.isArray(v)) fail('E_WEIGHT', what, `${what} is not an array`);
    const name = (x, w) => (typeof x === 'string' ? x : fail('E_WEIGHT', w, `${w}: bone name is not a string`));
    const weight = (x, w) => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x
        : fail('E_WEIGHT', w, `${w}: weight ${show(x)} is negative, non-finite or not a number`));
    if (v.every(Array.isArray)) {
        return v.map((p, i) => {
            const w = `${what}[${i}]`;
            if (p.length !== 2) fail('E_WEIGHT', w, `${w} is not a [name, weight] pair`);
            return [name(p[0], w), weight(p[1], w)];
        });
    }
    if (v.length % 2) fail('E_WEIGHT', what, `${what} has an odd length (name, weight pairs)`);
    const out = [];
    for (let i = 0; i < v.length; i += 2) out.push([name(v[i], `${what}[${i}]`), weight(v[i + 1], `${what}[${i}]`)]);
    return out;
}

function readWeights(p, n, at) {
    if (Array.isArray(p.weights)) {
        if (p.weights.length !== n) fail('E_WEIGHT', `${at}.weights`, `${at}.weights has ${p.weights.length} entries for ${n} vertices`);
        return p.weights.map((x, i) => pairsOf(x, `${at}.weights[${i}]`));
    }
    if (!absent(p.weights)) fail('E_WEIGHT', `${at}.weights`, `${at}.weights is not an array`);
    if (Array.isArray(p.bones)) {
        if (p.bones.length !== n) fail('E_WEIGHT', `${at}.bones`, `${at}.bones has ${p.bones.length} entries for ${n} vertices`);
        return p.bones.map((x, i) => (x === null ? [] : typeof x === 'string' ? [[x, 1]]
            : fail('E_WEIGHT', `${at}.bones[${i}]`, `${at}.bones[${i}] is not a bone name`)));
    }
    if (!absent(p.bones)) fail('E_WEIGHT', `${at}.bones`, `${at}.bones is not an array`);
    return new Array(n).fill([]);
}

// Per vertex: the first two pairs, names resolved, same-bone pairs merged → flat arrays of
// bone index (−1: none) and normalised weight, two slots a vertex; `W ≤ 1e-4` is static.
function influences(lists, boneIndex, at, warnings) {
    const n = lists.length;
    const bone = new Int16Array(2 * n).fill(-1);
    const weight = new Float32Array(2 * n);
    let dropped = 0;
    for (let i = 0; i < n; i++) {
        const l = lists[i];
        if (l.length > 2) dropped++;
        const merged = [];
        for (const [bn, w] of l.slice(0, 2)) {
            const b = boneIndex.get(bn);
            if (b === undefined) fail('E_WEIGHT', `${at}.weights[${i}]`, `${at} vertex ${i}: unknown bone '${bn}'`);
            const m = merged.find((x) => x[0] === b);
            if (m) m[1] += w; else merged.push([b, w]);
        }
        const total = merged.reduce((s, x) => s + x[1], 0);
        if (total <= 1e-4) continue;
        merged.forEach(([b, w], k) => { bone[2 * i + k] = b; weight[2 * i + k] = w / total; });
    }
    if (dropped) warnings.push(`${at}: ${dropped} vertices had more than two weight pairs; the extra pairs were dropped`);
    return { bone, weight };
}

function readParts(root, boneIndex, warnings) {
    const decl = absent(root.textures) ? {} : root.textures;
    if (!isObject(decl)) fail('E_TEXTURE', 'textures', 'textures is not an object');
    if (absent(root.parts)) return { parts: [], textures: [] };
    if (!Array.isArray(root.parts)) fail('E_PART', 'parts', 'parts is not an array');
    const textures = [];
    const parts = root.parts.map((p, pi) => {
        if (!isObject(p)) fail('E_PART', `parts[${pi}]`, `parts[${pi}] is not an object`);
        let name = `part${pi}`;
        if (typeof p.name === 'string') name = p.name;
        else if (!absent(p.name)) fail('E_PART', `parts[${pi}].name`, `parts[${pi}].name is not a string`);
        const at = `parts[${pi}] ('${name}')`;
        const verts = numbers(p.verts, 'E_PART', `${at}.verts`);
        const uv = numbers(p.uv, 'E_PART', `${at}.uv`);
        if (verts.length % 2) fail('E_PART', `${at}.verts`, `${at}.verts has an odd length`);
        const n = verts.length / 2;
        if (n > MAX_VERTICES) fail('E_PART', `${at}.verts`, `${at} has ${n} vertices; at most ${MAX_VERTICES}`);
        if (uv.length !== verts.length) fail('E_PART', `${at}.uv`, `${at}: ${uv.length} uv numbers for ${n} vertices (need ${2 * n})`);
        const tris = numbers(p.tris, 'E_PART', `${at}.tris`);
        if (tris.length % 3) fail('E_PART', `${at}.tris`, `${at}.tris has ${tris.length} indices, not a multiple of 3`);
        tris.forEach((t, i) => {
            if (t < 0 || !Number.isInteger(t) || t >= n) fail('E_PART', `${at}.tris[${i}]`, `${at}.tris[${i}] = ${t} is not a vertex index below ${n}`);
        });
        const depth = num(p.depth, 0.5, 'E_PART', `${at}.depth`);
        if (!absent(p.colors)) warnings.push(`${at}: per-vertex colours cannot be represented on Rive image meshes; ignored`);
        const inf = influences(readWeights(p, n, at), boneIndex, at, warnings);
        return {
            name, depth, texture: readTexture(p.texture, at, decl, textures),
            verts: Float64Array.from(verts), uv: Float32Array.from(uv), tris: Uint16Array.from(tris),
            bone: inf.bone, weight: inf.weight,
        };
    });
    return { parts, textures };
}

// A part's `texture`: none (absent, null, -1) or an id of `textures` whose entry is a path.
function readTexture(t, at, decl, textures) {
    if (absent(t) || t === -1) return -1;
    if (typeof t !== 'string' && typeof t !== 'number') fail('E_TEXTURE', `${at}.texture`, `${at}.texture is not an id`);
    const id = String(t);
    const known = textures.findIndex((x) => x.id === id);
    if (known >= 0) return known;
    if (!Object.prototype.hasOwnProperty.call(decl, id)) fail('E_TEXTURE', `${at}.texture`, `${at}: unknown texture id '${id}'`);
    if (typeof decl[id] !== 'string') fail('E_TEXTURE', `textures.${id}`, `textures.${id} is not a file path string`);
    textures.push({ id, path: decl[id] });
    return textures.length - 1;
}

// Keys `[[t, v…], …]` of one track: `arity` numbers each, times strictly increasing in [0, d].
function readKeys(ks, at, arity, duration, names) {
    if (!Array.isArray(ks)) fail('E_CLIP', at, `${at} is not an array`);
    if (!ks.length) fail('E_CLIP', at, `${at} has no keys`);
    const times = new Float64Array(ks.length);
    const values = new Float64Array(ks.length * (arity - 1));
    ks.forEach((k, i) => {
        const kw = `${at}[${i}]`;
        if (!Array.isArray(k) || k.length !== arity) fail('E_CLIP', kw, `${kw} is not a [${names.join(', ')}] ${arity === 2 ? 'pair' : 'triple'}`);
        const t = item(k[0], 'E_CLIP', `${kw} time`);
        for (let c = 1; c < arity; c++) values[i * (arity - 1) + c - 1] = item(k[c], 'E_CLIP', `${kw} ${names[c]}`);
        if (!(t >= 0 && t <= duration)) fail('E_CLIP', kw, `${kw}: time ${t} is outside [0, ${duration}]`);
        if (i > 0 && t <= times[i - 1]) fail('E_CLIP', kw, `${kw}: time ${t} does not increase`);
        times[i] = t;
    });
    return { times, values };
}

// A clip's draw-order keys (issue 42; src/riv/draworder.rs): `[[t, [part names nearest first]], …]`,
// times in [0, duration] strictly increasing, every part named exactly once per key.
function readDrawOrder(v, at, duration, partNames) {
    if (absent(v)) return [];
    const w = `${at}.draw_order`;
    if (!Array.isArray(v)) fail('E_CLIP', w, `${w} is not an array`);
    if (!v.length) fail('E_CLIP', w, `${w} has no keys`);
    partNames.forEach((a, i) => {
        const j = partNames.indexOf(a);
        if (j < i) fail('E_CLIP', w, `${w} names parts, but the name '${a}' is used by parts ${j} and ${i}`);
    });
    const keys = [];
    v.forEach((k, i) => {
        const kw = `${w}[${i}]`;
        if (!Array.isArray(k) || k.length !== 2) fail('E_CLIP', kw, `${kw} is not a [time, [parts…]] pair`);
        const t = k[0];
        if (typeof t !== 'number' || !Number.isFinite(t)) fail('E_CLIP', kw, `${kw}: the time is not a finite number`);
        if (!(t >= 0 && t <= duration)) fail('E_CLIP', kw, `${kw}: time ${t} is outside [0, ${duration}]`);
        if (keys.length && t <= keys[keys.length - 1].time) fail('E_CLIP', kw, `${kw}: time ${t} does not increase`);
        if (!Array.isArray(k[1])) fail('E_CLIP', kw, `${kw}: the order is not an array of part names`);
        const seen = new Array(partNames.length).fill(false);
        const order = k[1].map((n) => {
            if (typeof n !== 'string') fail('E_CLIP', kw, `${kw}: ${show(n)} is not a part name`);
            const p = partNames.indexOf(n);
            if (p < 0) fail('E_CLIP', kw, `${kw}: unknown part '${n}'`);
            if (seen[p]) fail('E_CLIP', kw, `${kw}: part '${n}' is named twice`);
            seen[p] = true;
            return p;
        });
        const missing = seen.indexOf(false);
        if (missing >= 0) fail('E_CLIP', kw, `${kw}: part '${partNames[missing]}' is missing (every part once)`);
        keys.push({ time: t, order, far: order.slice().reverse() });
    });
    return keys;
}

function readClips(v, bones, boneIndex, partNames) {
    if (absent(v)) return [];
    if (!isObject(v)) fail('E_CLIP', 'clips', 'clips is not an object');
    const clips = Object.keys(v).map((name) => {
        const c = v[name];
        const at = `clips.${name}`;
        if (!isObject(c)) fail('E_CLIP', at, `${at} is not an object`);
        const duration = num(c.duration, NaN, 'E_CLIP', `${at}.duration`);
        if (!(duration > 0)) fail('E_CLIP', `${at}.duration`, `${at}.duration must be > 0`);
        if (!absent(c.loop) && typeof c.loop !== 'boolean') fail('E_CLIP', `${at}.loop`, `${at}.loop is not a bool`);
        const step = c.interpolation === 'step';
        if (!absent(c.interpolation) && c.interpolation !== 'linear' && !step) {
            fail('E_CLIP', `${at}.interpolation`, `${at}.interpolation ${show(c.interpolation)} is not "linear" or "step"`);
        }
        const tracks = [];
        const tmap = absent(c.tracks) ? {} : c.tracks;
        if (!isObject(tmap)) fail('E_CLIP', `${at}.tracks`, `${at}.tracks is not an object`);
        for (const bn of Object.keys(tmap)) {
            const bone = boneIndex.get(bn);
            if (bone === undefined) fail('E_CLIP', `${at}.tracks.${bn}`, `${at}.tracks: unknown bone '${bn}'`);
            tracks.push({ bone, ...readKeys(tmap[bn], `${at}.tracks.${bn}`, 2, duration, ['time', 'angle']) });
        }
        const translations = [];
        const mmap = absent(c.translations) ? {} : c.translations;
        if (!isObject(mmap)) fail('E_CLIP', `${at}.translations`, `${at}.translations is not an object`);
        for (const bn of Object.keys(mmap)) {
            const bone = boneIndex.get(bn);
            const w = `${at}.translations.${bn}`;
            if (bone === undefined) fail('E_CLIP', w, `${at}.translations: unknown bone '${bn}'`);
            if (bones[bone].parent >= 0) fail('E_CLIP', w, `${w}: only a root bone can be translated (a child sits at its parent's tip)`);
            translations.push({ bone, ...readKeys(mmap[bn], w, 3, duration, ['time', 'dx', 'dy']) });
        }
        tracks.sort((a, b) => a.bone - b.bone);
        translations.sort((a, b) => a.bone - b.bone);
        const drawOrder = readDrawOrder(c.draw_order, at, duration, partNames);
        return { name, duration, loop: c.loop === true, step, tracks, translations, drawOrder };
    });
    return clips.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

// Rust's f64::round_ties_even.
function roundHalfEven(x) {
    const r = Math.round(x);
    return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

// export-riv's key-time rules at 60 fps (§8.6): after quantisation the frames of a keyed
// property strictly increase (E_KEY_QUANT) and none lies beyond the duration (E_KEY_RANGE).
function checkKeyTimes(clips, bones) {
    for (const c of clips) {
        const dur = Math.max(0, roundHalfEven(c.duration * EXPORT_FPS));
        const check = (tr, field) => {
            let prev = -1;
            tr.times.forEach((t, i) => {
                const f = Math.max(0, roundHalfEven(t * EXPORT_FPS));
                const w = `clips.${c.name}.${field}.${bones[tr.bone].name}`;
                if (i > 0 && f <= prev) fail('E_KEY_QUANT', `${w}[${i}]`, `${w}: keys at ${tr.times[i - 1]} s and ${t} s both land on frame ${f} at ${EXPORT_FPS} fps`);
                if (f > dur) fail('E_KEY_RANGE', `${w}[${i}]`, `${w}: key at ${t} s is frame ${f}, beyond the duration of ${dur} frames`);
                prev = f;
            });
        };
        const keyed = [...new Set([...c.tracks, ...c.translations].map((t) => t.bone))].sort((a, b) => a - b);
        for (const b of keyed) {
            const tr = c.tracks.find((t) => t.bone === b);
            const mv = c.translations.find((t) => t.bone === b);
            if (tr) check(tr, 'tracks');
            if (mv) check(mv, 'translations');
        }
    }
}

// The `state_machine` section (src/riv/machine.rs): one Number input over a 1-D blend of clips
// at strictly ascending thresholds, one trigger per one-shot clip.
function readMachine(v, clips) {
    if (absent(v)) return null;
    const bad = (field, msg) => fail('E_MODEL_JSON', `state_machine${field ? '.' + field : ''}`, `state_machine: ${msg}`);
    if (!isObject(v)) bad('', 'is not an object');
    const text = (k, d) => (absent(v[k]) ? d : typeof v[k] === 'string' && v[k] !== '' ? v[k] : bad(k, `${k} is not a non-empty string`));
    const name = text('name', 'sm');
    const input = text('input', 'speed');
    const clip = (c, at) => {
        if (typeof c !== 'string') bad(at, `${at}: the clip is not a string`);
        const i = clips.findIndex((x) => x.name === c);
        return i >= 0 ? i : bad(at, `${at}: no clip '${c}'`);
    };
    const list = (k) => (absent(v[k]) ? [] : Array.isArray(v[k]) ? v[k] : bad(k, `${k} is not an array`));
    const blend = [];
    list('blend').forEach((e, i) => {
        const at = `blend[${i}]`;
        if (!Array.isArray(e) || e.length !== 2) bad(at, `${at} is not a [clip, threshold] pair`);
        const t = e[1];
        if (typeof t !== 'number' || !Number.isFinite(t)) bad(at, `${at}: the threshold is not a finite number`);
        // the .riv stores binary32: finite there, and increasing there
        if (!Number.isFinite(Math.fround(t))) bad(at, `${at}: threshold ${t} is beyond binary32 (the .riv would hold an infinity)`);
        if (blend.length && Math.fround(t) <= Math.fround(blend[blend.length - 1].threshold)) {
            bad(at, `${at}: threshold ${t} does not increase in binary32 (the runtime never sorts them)`);
        }
        blend.push({ clip: clip(e[0], at), threshold: t });
    });
    if (!blend.length) bad('blend', 'blend needs at least one clip');
    const triggers = [];
    list('triggers').forEach((e, i) => {
        const at = `triggers[${i}]`;
        if (!Array.isArray(e) || e.length !== 2) bad(at, `${at} is not a [clip, trigger] pair`);
        const n = e[1];
        if (typeof n !== 'string' || n === '') bad(at, `${at}: the trigger name is not a non-empty string`);
        if (n === input || triggers.some((t) => t.name === n)) bad(at, `${at}: input name '${n}' is used twice`);
        triggers.push({ clip: clip(e[0], at), name: n });
    });
    const layers = readLayers(v.layers, clips, [input, ...triggers.map((t) => t.name)], [...blend.map((b) => b.clip), ...triggers.map((t) => t.clip)], bad);
    return { name, input, blend, triggers, layers };
}

// `state_machine.layers` (issue 47; src/riv/layers.rs): motions by body part, each its own layer
// over the locomotion layer: `[{ name, clip, trigger }]`, names, clips and inputs used once.
function readLayers(v, clips, takenInputs, takenClips, bad) {
    if (absent(v)) return [];
    if (!Array.isArray(v)) bad('layers', 'layers: is not an array');
    const out = [];
    v.forEach((e, i) => {
        const at = `layers[${i}]`;
        const no = (msg) => bad(at, `layers: ${msg}`);
        if (!isObject(e)) no(`[${i}] is not an object`);
        const text = (k) => (typeof e[k] === 'string' && e[k] !== '' ? e[k] : no(`[${i}].${k} is not a non-empty string`));
        const name = text('name');
        if (name === 'locomotion' || out.some((l) => l.name === name)) no(`[${i}]: the layer name '${name}' is used twice`);
        const cn = text('clip');
        const clip = clips.findIndex((c) => c.name === cn);
        if (clip < 0) no(`[${i}]: no clip '${cn}'`);
        if (takenClips.includes(clip) || out.some((l) => l.clip === clip)) no(`[${i}]: the clip '${cn}' already plays in another layer or the blend`);
        const trigger = text('trigger');
        if (takenInputs.includes(trigger) || out.some((l) => l.trigger === trigger)) no(`[${i}]: input name '${trigger}' is used twice`);
        for (const k of Object.keys(e)) if (!['name', 'clip', 'trigger'].includes(k)) no(`[${i}]: unknown field '${k}' (name, clip, trigger)`);
        out.push({ name, clip, trigger });
    });
    return out;
}

/**
 * Validates a parsed model.json; throws a ModelError naming the field, else returns the Model.
 * @param {unknown} json
 */
export function readModel(json) {
    if (!isObject(json)) fail('E_MODEL_JSON', '', 'the model is not a JSON object');
    if (json.version !== 1) fail('E_MODEL_JSON', 'version', `version must be 1 (got ${show(json.version)})`);
    let name = 're2d';
    if (typeof json.name === 'string') name = json.name;
    else if (!absent(json.name)) fail('E_MODEL_JSON', 'name', 'name is not a string');
    const warnings = [];
    const bones = readBones(json.skeleton, warnings);
    const boneIndex = new Map(bones.map((b, i) => [b.name, i]));
    const { parts, textures } = readParts(json, boneIndex, warnings);
    const clips = readClips(json.clips, bones, boneIndex, parts.map((p) => p.name));
    const machine = readMachine(json.state_machine, clips);
    checkKeyTimes(clips, bones);
    return { name, bones, textures, parts, clips, machine, warnings };
}
