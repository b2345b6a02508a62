// re2d built-in module `re2d/rotsprite` (also served for any import ending in `highlevel/rotsprite.js`): `$.re2dSprite` / `$.rotSprite`, spec js-rotsprite.md.
//
// This file reproduces what JS observes (argument checks, error classes, key
// order, engine call order, node state, quirks). Definition and animation
// validation (§3.3, §3.4) and `relativeAsset` path resolution (§3.7) run in
// Rust (`src/model`) through the private native module
// `re2d/native/rotsprite`: the JS side makes the `cloneData` JSON text (§2),
// Rust validates and normalises it and returns JSON text. The small pure
// formulas that must follow JS semantics on arbitrary, unvalidated objects —
// `normalizeRotPose`, `rotPixelRect`, `sampleRotClip`, `buildRotModelPose`
// and the §4 matrix helpers — are transcribed here, in this one place; the
// Rust tests (`src/js/rotsprite_tests.rs`) check them against `src/model` on
// validated data.
//
// `engine` is the global engine object, read at every call (tests replace it).
import * as nat from 're2d/native/rotsprite';
import {
    TAGS as coreTags, def as coreDef, registerNodeRenderer as coreRegister, withAlpha as coreWithAlpha,
} from 're2d/core';

const TAU = Math.PI * 2;

// ---- §1 constants ----------------------------------------------------------

const FACE = {
    eyes: ['open', 'half', 'closed', 'happy'],
    mouth: ['closed', 'open', 'smile', 'talk'],
    brows: ['neutral', 'angry', 'sad', 'surprised'],
};
const SELECTORS = ['', 'eyes', 'mouth', 'brows'];
const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0];
const EMOTIONS = {
    neutral: {},
    happy: { eyes: 'happy', mouth: 'smile' },
    angry: { eyes: 'half', brows: 'angry' },
    sad: { eyes: 'half', brows: 'sad' },
    surprised: { mouth: 'open', brows: 'surprised' },
    sleepy: { eyes: 'half' },
};
const LEGACY_GROUPS = {
    head: 38, hair: 8, tail: 16, hat: 32, torso: 64, arms: 2176, legs: 4352,
    skirt: 512, shoes: 24576, costume: 31712,
};
const ALIASES = [
    'rotSpriteAtlas', 'rotStyle', 'rotPose', 'rotExpression', 'rotEmotion', 'rotRig', 'rotMotion',
    'rotPart', 'rotReload', 'rotHotReload', 'rotAttach', 'rotDetach', 'rotVariant', 'rotLayer',
    'rotBone', 'rotSeek', 'rotVisibleParts',
];

// ---- §0 module state -------------------------------------------------------

let rotApi;
let pollTime = 0;

// ---- §2 validation helpers -------------------------------------------------

function finite(v, label = 'value') {
    if (typeof v !== 'number' || !isFinite(v) || Math.abs(v) > 1e6) {
        throw new RangeError(`${label} must be a finite number with |v| <= 1e6`);
    }
    return v;
}

function vector(v, fallback, label = 'vector') {
    v = v ?? fallback;
    if (!Array.isArray(v) || v.length !== 3) throw new TypeError(`${label} must be an array of 3 numbers`);
    return v.map((x, i) => finite(x, `${label}[${i}]`));
}

function replacer(key, value) {
    if (typeof value === 'function' || typeof value === 'symbol' ||
        (typeof value === 'number' && !isFinite(value))) {
        throw new TypeError(`cannot clone ${typeof value} at '${key}'`);
    }
    return value;
}

// JSON text of the §2 clone (undefined for an undefined root).
function cloneText(v) {
    return JSON.stringify(v, replacer);
}

function cloneData(v) {
    return JSON.parse(cloneText(v));
}

function isFaceKey(v) {
    return Object.hasOwn(FACE, v);
}

// ---- §3 pure functions -----------------------------------------------------

export function normalizeRotPose(yaw = 0, pitch = 0) {
    if (typeof yaw !== 'number' || typeof pitch !== 'number' || !isFinite(yaw) || !isFinite(pitch)) {
        throw new RangeError('yaw and pitch must be finite numbers');
    }
    const y = (((yaw % 360) + 540) % 360) - 180;
    return { yaw: y === 0 ? 0 : y, pitch: Math.min(75, Math.max(-75, pitch)) };
}

export function rotPixelRect(t, rasterSize = 64) {
    const scale = Math.max(1, Math.round(Math.min(Math.abs(t.w), Math.abs(t.h)) / rasterSize));
    const size = rasterSize * scale;
    const left = Math.round(t.x - size / 2);
    const top = Math.round(t.y - size / 2);
    return { x: left + size / 2, y: top + size / 2, w: size, h: size, scale };
}

export function validateRotDefinition(source) {
    const text = cloneText(source);
    if (text === undefined) JSON.parse(text); // SyntaxError, as the engine's JSON round trip
    const d = JSON.parse(nat.validateDefinition(text));
    // `d.projection = d.projection ?? {}` keeps an array (an object to the
    // engine), which then gets the two scale properties; JSON text cannot
    // carry them, and an array of the clone can only take the defaults.
    if (Array.isArray(d.projection)) {
        d.projection.bodyScale = 1;
        d.projection.portraitScale = 2;
    }
    return d;
}

export function validateRotAnimations(source, definition) {
    const text = cloneText(source);
    if (text === undefined) JSON.parse(text);
    const bones = definition.rig.bones.map((b) => b.name).filter((n) => typeof n === 'string');
    return JSON.parse(nat.validateAnimations(text, JSON.stringify(bones)));
}

export function sampleRotClip(clip, time) {
    finite(time, 'time');
    if (time < 0) throw new RangeError('time must not be negative');
    const t = clip.loop ? time % clip.duration : Math.min(time, clip.duration);
    const bones = {};
    const face = {};
    for (const track of clip.tracks) {
        const K = track.keys;
        let value = K[0][1];
        for (let i = 0; i < K.length; i++) {
            if (t < K[i][0]) break;
            value = K[i][1];
            if (i + 1 < K.length && t < K[i + 1][0]) {
                if (track.interpolation === 'linear') {
                    value = value + (K[i + 1][1] - value) * (t - K[i][0]) / (K[i + 1][0] - K[i][0]);
                }
                break;
            }
        }
        if (track.target === 'face') {
            face[track.channel] = value;
        } else {
            if (!bones[track.target]) bones[track.target] = {};
            bones[track.target][track.channel] = value;
        }
    }
    return { bones, face, time: t, ended: !clip.loop && time >= clip.duration };
}

export function buildRotModelPose(definition, sample = {}, rig = {}, manual = {}, visibleParts = null) {
    const body = rig.body !== false;
    const bones = {};
    const controls = Object.entries(definition.rig.controls ?? {});
    for (const b of definition.rig.bones) {
        const values = { ...sample.bones?.[b.name], ...manual[b.name] };
        const rotation = [values['rotation.x'] ?? 0, values['rotation.y'] ?? 0, values['rotation.z'] ?? 0];
        const translation = [values['translation.x'] ?? 0, values['translation.y'] ?? 0, values['translation.z'] ?? 0];
        for (const [key, c] of controls) {
            if (c.bone === b.name) rotation['xyz'.indexOf(c.axis)] += rig[key] || 0;
        }
        const local = affine(body ? b.pivot : b.portraitPivot, translation, rotation);
        bones[b.name] = multiply(b.parent ? bones[b.parent] : IDENTITY, local);
    }
    const records = definition.rig.parts.map((p) => {
        const bind = body ? p.bind : p.portraitBind;
        const M = multiply(bones[p.bone], affine([0, 0, 0], bind.translation, bind.rotation, bind.scale));
        const visible = (body || p.portrait) && (visibleParts === null || visibleParts.includes(p.id)) ? 1 : 0;
        const sel = p.selector ? SELECTORS.indexOf(p.selector) : 0;
        return [p.id, sel, p.variant ?? 0, p.oneSided ? 1 : 0, visible, ...M];
    });
    const projection = definition.projection;
    return { records, bones, scale: body ? projection?.bodyScale : projection?.portraitScale };
}

export function relativeAsset(file, path) {
    if (typeof path !== 'string' || path === '') throw new TypeError('asset path must be a non-empty string');
    if (path.startsWith('/')) return path;
    if (file && typeof file !== 'string') throw new TypeError('model file must be a string');
    return JSON.parse(nat.relativeAsset(JSON.stringify(file || null), JSON.stringify(path)));
}

// ---- §4 matrix helpers -----------------------------------------------------

function multiply(a, b) {
    const m = new Array(12);
    for (let r = 0; r < 3; r++) {
        for (let c = 0; c < 3; c++) {
            m[4 * r + c] = 0 + a[4 * r] * b[c] + a[4 * r + 1] * b[4 + c] + a[4 * r + 2] * b[8 + c];
        }
        m[4 * r + 3] = ((a[4 * r + 3] + a[4 * r] * b[3]) + a[4 * r + 1] * b[7]) + a[4 * r + 2] * b[11];
    }
    return m;
}

function affine(pivot, translation, rotation, scale = [1, 1, 1]) {
    const x = (rotation[0] * Math.PI) / 180, y = (rotation[1] * Math.PI) / 180, z = (rotation[2] * Math.PI) / 180;
    const cx = Math.cos(x), sx = Math.sin(x), cy = Math.cos(y), sy = Math.sin(y), cz = Math.cos(z), sz = Math.sin(z);
    const R = [
        cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx,
        sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx,
        -sy, cy * sx, cy * cx,
    ];
    const m = new Array(12);
    for (let r = 0; r < 3; r++) {
        for (let c = 0; c < 3; c++) m[4 * r + c] = R[3 * r + c] * scale[c];
        m[4 * r + 3] = pivot[r] + translation[r] - m[4 * r] * pivot[0] - m[4 * r + 1] * pivot[1] - m[4 * r + 2] * pivot[2];
    }
    return m;
}

function transform(m, p) {
    return [
        m[0] * p[0] + m[1] * p[1] + m[2] * p[2] + m[3],
        m[4] * p[0] + m[5] * p[1] + m[6] * p[2] + m[7],
        m[8] * p[0] + m[9] * p[1] + m[10] * p[2] + m[11],
    ];
}

function inverse(m) {
    const [a, b, c] = [m[0], m[1], m[2]], [d, e, f] = [m[4], m[5], m[6]], [g, h, i] = [m[8], m[9], m[10]];
    const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    if (Math.abs(det) < 1e-8) throw new RangeError('degenerate grip matrix');
    const n = [
        (e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det, 0,
        (f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det, 0,
        (d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det, 0,
    ];
    for (let r = 0; r < 3; r++) n[4 * r + 3] = -n[4 * r] * m[3] - n[4 * r + 1] * m[7] - n[4 * r + 2] * m[11];
    return n;
}

function socketMatrix(r, key, pose = r.modelPose) {
    const socket = r.definition.rig.sockets.find((s) => s.name === key);
    if (!socket) throw new TypeError(`unknown socket '${key}'`);
    return multiply(pose.bones[socket.bone], affine([0, 0, 0], socket.point, socket.rotation));
}

function modelJoints(r, pose) {
    const a = (pose.yaw * Math.PI) / 180, b = (pose.pitch * Math.PI) / 180;
    const s = r.modelPose.scale;
    const result = {};
    for (const j of r.definition.rig.joints) {
        const [x, y, z] = transform(r.modelPose.bones[j.bone], j.point);
        const zz = -Math.sin(a) * x + Math.cos(a) * z;
        result[j.name] = { x: 64 + (Math.cos(a) * x + Math.sin(a) * z) * s, y: 64 + (Math.cos(b) * y - Math.sin(b) * zz) * s };
    }
    return result;
}

// ---- §3.8 world composition ------------------------------------------------

export function prepareRotWorldPose(node, yaw, pitch) {
    const p = normalizeRotPose(yaw, pitch);
    const r = node.rot_sprite;
    if (!r) throw new TypeError('node has no rotsprite resource');
    r.worldComposed = true;
    const prepare = typeof engine.rotSpritePrepare === 'function' ? engine.rotSpritePrepare : engine.rotSpritePose;
    r.sprite = prepare(r.handle, p.yaw, p.pitch);
    for (const child of r.children ?? []) {
        if (child.rot_sprite) {
            child.rot_sprite.worldComposed = true;
            applyModel(rotApi, child);
        }
    }
}

export function registerRotWorldNode(node) {
    const r = node.rot_sprite;
    if (!r) return;
    r.worldComposed = true;
    r.nativeChildren = [...(r.children || [])];
    for (const child of r.nativeChildren) registerRotWorldNode(child);
}

// ---- §6 internal procedures ------------------------------------------------

function readDefinition($, source) {
    const read = (p) => {
        const text = $.fs.readText(p);
        if (text == null) throw new Error(`cannot read '${p}'`);
        return JSON.parse(text);
    };
    const file = typeof source === 'string' ? source : null;
    const d = validateRotDefinition(file ? read(file) : source);
    const atlas = relativeAsset(file, d.atlas);
    const animationPath = typeof d.animations === 'string' ? relativeAsset(file, d.animations) : null;
    const animations = validateRotAnimations(
        animationPath ? read(animationPath) : (d.animations ?? { version: 1, clips: {} }), d);
    return {
        definition: d, animations, atlas, source: file ?? cloneData(source),
        files: [file, animationPath].filter((f) => f !== null),
    };
}

function release(node, detach = true) {
    const r = node.rot_sprite;
    if (detach && r?.definition) {
        if (r.attachment) r.attachment.parent.rot_sprite?.children?.delete(node);
        for (const child of [...r.children]) {
            if (child.rot_sprite) rotApi(child).rotDetach();
        }
    }
    if (node.rot_sprite) engine.rotSpriteDispose(node.rot_sprite.handle);
    node.rot_sprite = null;
}

function faceIndex(component, value) {
    return FACE[component].indexOf(value);
}

function applyModel($, node) {
    const r = node.rot_sprite;
    const clips = r.animations.clips;
    const c = clips[r.motion.mode];
    const sample = c ? sampleRotClip(c, r.motion.time || 0) : { bones: {}, face: {} };
    for (const [key, layer] of Object.entries(r.layers)) {
        const extra = sampleRotClip(clips[key], layer.time);
        for (const [bone, values] of Object.entries(extra.bones)) {
            sample.bones[bone] = { ...sample.bones[bone], ...values };
        }
        Object.assign(sample.face, extra.face);
    }
    r.modelPose = buildRotModelPose(r.definition, sample, r.rig, r.boneOverrides, r.visibleParts ?? null);
    let pose = engine.rotSpriteInfo(r.handle);
    const a = r.attachment;
    if (a) {
        const P = a.parent.rot_sprite;
        if (!P || !P.definition) throw new TypeError('attachment parent was released');
        let mount = multiply(socketMatrix(P, a.socket), affine([0, 0, 0], a.offset, a.rotation, a.scale));
        if (a.grip) mount = multiply(mount, inverse(socketMatrix(r, a.grip)));
        const mp = r.modelPose;
        mp.records = mp.records.map((rec) => [...rec.slice(0, 5), ...multiply(mount, rec.slice(5, 17))]);
        for (const bone of Object.keys(mp.bones)) mp.bones[bone] = multiply(mount, mp.bones[bone]);
        mp.scale = P.modelPose.scale;
        const socket = P.definition.rig.sockets.find((s) => s.name === a.socket);
        if (!P.rig.body && !(socket && socket.portrait === true)) {
            for (const rec of mp.records) rec[4] = 0;
        }
        pose = engine.rotSpriteInfo(P.handle);
        const pos = $(a.parent).globalPos();
        $(node).at(pos.x, pos.y).size(a.parent.w * Math.abs(a.parent.scale_x), a.parent.h * Math.abs(a.parent.scale_y));
        const center = transform(mount, [0, 0, 0]);
        const psi = ((pose.yaw ?? 0) * Math.PI) / 180, phi = ((pose.pitch ?? 0) * Math.PI) / 180;
        const z = Math.sin(phi) * center[1] + Math.cos(phi) * (-Math.sin(psi) * center[0] + Math.cos(psi) * center[2]);
        node.layer = a.parent.layer;
        node.depth = a.parent.depth + (z >= 0 ? 0.01 : -0.01);
    }
    engine.rotSpriteModelPose(r.handle, r.modelPose.scale, r.modelPose.records, !!r.rig.body);
    const face = {
        eyes: FACE.eyes[pose.eyes ?? 0], mouth: FACE.mouth[pose.mouth ?? 0], brows: FACE.brows[pose.brows ?? 0],
        ...r.faceBase, ...sample.face,
    };
    const submit = r.worldComposed && typeof engine.rotSpritePrepare === 'function'
        ? engine.rotSpritePrepare : engine.rotSpritePose;
    r.sprite = submit(r.handle, pose.yaw ?? 0, pose.pitch ?? 0,
        faceIndex('eyes', face.eyes), faceIndex('mouth', face.mouth), faceIndex('brows', face.brows));
    for (const child of r.children) {
        if (child.rot_sprite) applyModel($, child);
    }
}

function needResource(node) {
    const r = node.rot_sprite;
    if (!r) throw new TypeError('node has no rotsprite resource');
    return r;
}

function needModel(node) {
    const r = node.rot_sprite;
    if (!r?.definition) throw new TypeError('node is not a rotsprite model node');
    return r;
}

function isNonNegFiniteNumber(v) {
    return typeof v === 'number' && isFinite(v) && v >= 0;
}

// ---- §7 installRotSprite ---------------------------------------------------

export function installRotSprite($) {
    rotApi = $;
    // §11 facilities: the ones `$` carries (createApi() puts the shared
    // core's there; a test may stub them before installing), else the core's.
    const def = typeof $.def === 'function' ? (n, fn) => $.def(n, fn) : coreDef;
    const registerNodeRenderer = typeof $.registerNodeRenderer === 'function'
        ? (tag, fn) => $.registerNodeRenderer(tag, fn) : coreRegister;
    const withAlpha = (c, a) => (typeof $.withAlpha === 'function' ? $.withAlpha(c, a) : coreWithAlpha(c, a));
    const tags = $.TAGS !== null && typeof $.TAGS === 'object' ? $.TAGS : coreTags;
    tags.rotsprite = { w: 64, h: 64, body: null };
    coreTags.rotsprite = tags.rotsprite;

    def('rotSpriteAtlas', function (path) {
        return this.eachNode((i, node) => {
            if (node.tag !== 'rotsprite') throw new TypeError('rotSpriteAtlas: node is not a rotsprite');
            if (typeof path !== 'string' || path === '') throw new TypeError('rotSpriteAtlas: path must be a non-empty string');
            const handle = engine.rotSpriteLoad(path);
            const info = engine.rotSpriteInfo(handle);
            release(node);
            node.rot_sprite = {
                handle, path, sprite: info.sprite, width: info.width, style: 'pixel', rig: {},
                motion: { mode: 'idle', speed: 1 }, parts: {}, stamps: {}, hotReload: false, reloads: 0,
            };
            if (!node.rot_cleanup) {
                node.rot_cleanup = true;
                node.on('remove', () => release(node));
            }
        });
    });

    def('rotStyle', function (style = 'anime') {
        return this.eachNode((i, node) => {
            const r = needResource(node);
            if (style !== 'pixel' && style !== 'anime') throw new TypeError(`rotStyle: unknown style '${style}'`);
            if (r.style === style) return;
            const previous = r.style;
            r.style = style;
            try {
                $(node).rotReload();
            } catch (e) {
                r.style = previous;
                throw e;
            }
        });
    });

    def('rotPose', function (yaw, pitch = 0) {
        return this.eachNode((i, node) => {
            const p = normalizeRotPose(yaw, pitch);
            const r = needResource(node);
            if (r.attachment) throw new TypeError('rotPose: an attached node follows its parent');
            r.sprite = engine.rotSpritePose(r.handle, p.yaw, p.pitch);
            for (const child of r.children ?? []) {
                if (child.rot_sprite) applyModel($, child);
            }
        });
    });

    def('rotExpression', function ({ eyes = 'open', mouth = 'closed', brows = 'neutral' } = {}) {
        const e = faceIndex('eyes', eyes), m = faceIndex('mouth', mouth), b = faceIndex('brows', brows);
        if (e < 0 || m < 0 || b < 0) throw new RangeError('rotExpression: unknown expression state');
        return this.eachNode((i, node) => {
            const r = needResource(node);
            if (r.definition) {
                r.faceBase = { eyes, mouth, brows };
                applyModel($, node);
            } else {
                const p = engine.rotSpriteInfo(r.handle);
                r.sprite = engine.rotSpritePose(r.handle, p.yaw, p.pitch, e, m, b);
            }
        });
    });

    def('rotEmotion', function (name) {
        return this.eachNode((i, node) => {
            const table = node.rot_sprite?.definition ? node.rot_sprite.definition.emotions : EMOTIONS;
            if (!Object.hasOwn(table, name)) throw new RangeError(`rotEmotion: unknown emotion '${name}'`);
            $(node).rotExpression(table[name]);
        });
    });

    def('rotVisibleParts', function (parts = null) {
        return this.eachNode((i, node) => {
            const r = needModel(node);
            const ids = r.definition.rig.parts.map((p) => p.id);
            if (parts !== null && (!Array.isArray(parts) ||
                !parts.every((id) => Number.isInteger(id) && ids.includes(id)))) {
                throw new TypeError('rotVisibleParts: expected null or an array of part ids');
            }
            r.visibleParts = parts === null ? null : [...new Set(parts)];
            applyModel($, node);
        });
    });

    def('rotRig', function (options = {}) {
        return this.eachNode((i, node) => {
            const rs = needResource(node);
            const r = { body: false, phase: 0, stride: 0, armLeft: 0, armRight: 0, headYaw: 0, ...rs.rig, ...options };
            const keys = ['phase', 'stride', 'armLeft', 'armRight', 'headYaw',
                ...(rs.definition ? Object.keys(rs.definition.rig.controls) : [])];
            for (const key of keys) {
                r[key] ??= 0;
                if (typeof r[key] !== 'number' || !isFinite(r[key])) throw new RangeError(`rotRig: ${key} must be a finite number`);
            }
            r.phase = r.phase % TAU;
            r.stride = Math.min(75, Math.max(-75, r.stride));
            r.armLeft = normalizeRotPose(r.armLeft).yaw;
            r.armRight = normalizeRotPose(r.armRight).yaw;
            r.headYaw = normalizeRotPose(r.headYaw).yaw;
            rs.rig = r;
            if (rs.definition) applyModel($, node);
            else rs.sprite = engine.rotSpriteRig(rs.handle, !!r.body, r.phase, r.stride, r.armLeft, r.armRight, r.headYaw);
        });
    });

    def('rotMotion', function (mode = 'idle', speed = 1) {
        return this.eachNode((i, node) => {
            const r = needResource(node);
            const ok = r.definition ? Object.hasOwn(r.animations.clips, mode) : ['idle', 'walk', 'run'].includes(mode);
            if (!ok) throw new TypeError(`rotMotion: unknown mode '${mode}'`);
            if (!isNonNegFiniteNumber(speed)) throw new RangeError('rotMotion: speed must be a finite number >= 0');
            if (r.definition) {
                r.motion = { mode, speed, time: 0 };
                r.rig.body = true;
                applyModel($, node);
            } else {
                $(node).rotRig({ body: true, stride: mode === 'run' ? 38 : mode === 'walk' ? 22 : 0 });
                r.motion = { mode, speed };
            }
        });
    });

    def('rotPart', function (part, path) {
        return this.eachNode((i, node) => {
            const groups = node.rot_sprite?.definition?.groups ?? LEGACY_GROUPS;
            const r = needResource(node);
            if (!Object.hasOwn(groups, part)) throw new TypeError(`rotPart: unknown group '${part}'`);
            if (typeof path !== 'string') throw new TypeError('rotPart: path must be a string');
            r.sprite = engine.rotSpritePart(r.handle, path, groups[part]);
            delete r.parts[part];
            r.parts[part] = path;
            r.stamps[part] = engine.rotSpriteFileStamp(path);
        });
    });

    def('rotReload', function () {
        return this.eachNode((i, node) => {
            const old = needResource(node);
            const pose = engine.rotSpriteInfo(old.handle);
            const temp = old.definition ? $.rotSprite.from(old.source) : $.rotSprite.create(old.path);
            try {
                const tn = temp.get(0);
                const T = tn.rot_sprite;
                if (old.style !== T.style) {
                    T.sprite = engine.rotSpriteStyle(T.handle, old.style);
                    T.width = engine.rotSpriteInfo(T.handle).width;
                    T.style = old.style;
                }
                for (const [part, path] of Object.entries(old.parts)) temp.rotPart(part, path);
                if (old.definition) {
                    const clips = T.animations.clips;
                    if (Object.keys(clips).length && !Object.hasOwn(clips, old.motion.mode)) {
                        throw new TypeError(`rotReload: clip '${old.motion.mode}' no longer exists`);
                    }
                    const ids = T.definition.rig.parts.map((p) => p.id);
                    if (old.visibleParts && old.visibleParts.some((id) => !ids.includes(id))) {
                        throw new TypeError('rotReload: a visible part no longer exists');
                    }
                    T.worldComposed = old.worldComposed;
                    T.visibleParts = old.visibleParts ? [...old.visibleParts] : null;
                    T.motion = { ...old.motion };
                    T.boneOverrides = cloneData(old.boneOverrides);
                    T.layers = cloneData(old.layers);
                    T.faceBase = { ...old.faceBase };
                    for (const key of Object.keys(T.layers)) {
                        if (!Object.hasOwn(clips, key)) throw new TypeError(`rotReload: layer '${key}' no longer exists`);
                    }
                }
                if (pose.version === 2) temp.rotRig(old.rig);
                temp.rotPose(pose.yaw, pose.pitch);
                if (old.definition) {
                    for (const child of old.children) {
                        const socket = child.rot_sprite?.attachment?.socket;
                        if (child.rot_sprite?.attachment && !T.definition.rig.sockets.some((s) => s.name === socket)) {
                            throw new TypeError(`rotReload: socket '${socket}' no longer exists`);
                        }
                    }
                    T.attachment = old.attachment;
                    applyModel($, tn);
                } else {
                    temp.rotExpression({ eyes: FACE.eyes[pose.eyes], mouth: FACE.mouth[pose.mouth], brows: FACE.brows[pose.brows || 0] });
                }
                release(node, false);
                node.rot_sprite = T;
                tn.rot_sprite = null;
                if (old.definition) {
                    T.children = old.children;
                    if (T.worldComposed) registerRotWorldNode(node);
                    for (const child of T.children) {
                        if (child.rot_sprite) applyModel($, child);
                    }
                }
                T.motion = { ...old.motion };
                T.hotReload = old.hotReload;
                T.reloads = old.reloads + 1;
            } finally {
                temp.remove();
            }
        });
    });

    def('rotHotReload', function (enabled = true) {
        return this.eachNode((i, node) => {
            needResource(node).hotReload = !!enabled;
        });
    });

    def('rotAttach', function (parentTarget, socket, options = {}) {
        const parent = $(parentTarget).get(0);
        if (!parent?.rot_sprite?.definition) throw new TypeError('rotAttach: parent must be a model node');
        if (this.length !== 1) throw new TypeError('rotAttach: exactly one node expected');
        return this.eachNode((i, node) => {
            const r = node.rot_sprite;
            if (!r?.definition || node.parent_node) throw new TypeError('rotAttach: item must be a root model node');
            if (parent.parent_node) throw new TypeError('rotAttach: parent must be at the scene root');
            for (let n = parent; n; n = n.rot_sprite?.attachment?.parent) {
                if (n === node) throw new TypeError('rotAttach: attachment cycle');
            }
            socketMatrix(parent.rot_sprite, socket);
            if (options.grip) inverse(socketMatrix(r, options.grip));
            const a = {
                parent, socket, grip: options.grip ?? null,
                offset: vector(options.offset, [0, 0, 0], 'offset'),
                rotation: vector(options.rotation, [0, 0, 0], 'rotation'),
                scale: vector(options.scale, [1, 1, 1], 'scale'),
            };
            if (a.scale.some((v) => v <= 0)) throw new RangeError('rotAttach: scale must be positive');
            const previous = r.attachment;
            const reRegister = () => {
                if (parent.rot_sprite?.worldComposed) registerRotWorldNode(parent);
                if (previous?.parent.rot_sprite?.worldComposed) registerRotWorldNode(previous.parent);
            };
            if (previous) previous.parent.rot_sprite?.children?.delete(node);
            r.attachment = a;
            parent.rot_sprite.children.add(node);
            reRegister();
            try {
                applyModel($, node);
            } catch (e) {
                parent.rot_sprite?.children?.delete(node);
                r.attachment = previous;
                if (previous) previous.parent.rot_sprite?.children?.add(node);
                reRegister();
                throw e;
            }
        });
    });

    def('rotDetach', function () {
        return this.eachNode((i, node) => {
            const r = node.rot_sprite;
            if (!r?.attachment) return;
            const parent = r.attachment.parent;
            parent.rot_sprite?.children?.delete(node);
            r.attachment = null;
            if (parent.rot_sprite?.worldComposed) registerRotWorldNode(parent);
            applyModel($, node);
        });
    });

    def('rotVariant', function (group, key) {
        return this.eachNode((i, node) => {
            const r = node.rot_sprite;
            const path = r?.definition?.variants?.[group]?.[key];
            if (typeof path !== 'string') throw new TypeError(`rotVariant: unknown variant '${group}.${key}'`);
            $(node).rotPart(group, relativeAsset(typeof r.source === 'string' ? r.source : null, path));
        });
    });

    def('rotLayer', function (key, enabled = true, speed = 1) {
        return this.eachNode((i, node) => {
            const r = needModel(node);
            if (!Object.hasOwn(r.animations.clips, key)) throw new TypeError(`rotLayer: unknown clip '${key}'`);
            finite(speed, 'speed');
            if (speed < 0) throw new RangeError('rotLayer: speed must be >= 0');
            if (enabled) r.layers[key] = { time: r.layers[key]?.time ?? 0, speed };
            else delete r.layers[key];
            applyModel($, node);
        });
    });

    def('rotBone', function (bone, options = {}) {
        return this.eachNode((i, node) => {
            const r = needModel(node);
            if (!r.definition.rig.bones.some((b) => b.name === bone)) throw new TypeError(`rotBone: unknown bone '${bone}'`);
            const values = { ...r.boneOverrides[bone] };
            for (const k of ['rotation', 'translation']) {
                if (options[k] != null) {
                    const v = vector(options[k], null, k);
                    values[k + '.x'] = v[0];
                    values[k + '.y'] = v[1];
                    values[k + '.z'] = v[2];
                }
            }
            r.boneOverrides[bone] = values;
            applyModel($, node);
        });
    });

    def('rotSeek', function (time = 0) {
        return this.eachNode((i, node) => {
            const r = needModel(node);
            finite(time, 'time');
            if (time < 0) throw new RangeError('rotSeek: time must be >= 0');
            r.motion.time = time;
            applyModel($, node);
        });
    });

    for (const name of ALIASES) {
        def('re2d' + name.slice(3), function (...args) {
            return this[name](...args);
        });
    }

    const rotSprite = {
        create(path, opts = {}) {
            const node = $('<rotsprite>', opts);
            try {
                return node.rotSpriteAtlas(path);
            } catch (e) {
                node.remove();
                throw e;
            }
        },
        from(source, opts = {}) {
            const loaded = readDefinition($, source);
            const node = $.rotSprite.create(loaded.atlas, opts);
            try {
                const r = node.get(0).rot_sprite;
                const d = loaded.definition;
                if (engine.rotSpriteInfo(r.handle).version !== 2) throw new TypeError('model mode needs a PNG v2 atlas');
                Object.assign(r, {
                    definition: loaded.definition, animations: loaded.animations, atlas: loaded.atlas,
                    source: loaded.source, files: loaded.files,
                    boneOverrides: {}, layers: {}, children: new Set(), attachment: null, definitionStamps: {},
                });
                for (const f of r.files) r.definitionStamps[f] = engine.rotSpriteFileStamp(f);
                if (r.style !== d.style) {
                    r.sprite = engine.rotSpriteStyle(r.handle, d.style);
                    r.style = d.style;
                    r.width = engine.rotSpriteInfo(r.handle).width;
                }
                const clips = r.animations.clips;
                r.motion = { mode: d.defaults.motion ?? Object.keys(clips)[0] ?? 'idle', speed: 1, time: 0 };
                if (Object.keys(clips).length && !Object.hasOwn(clips, r.motion.mode)) {
                    throw new TypeError(`unknown default motion '${r.motion.mode}'`);
                }
                node.rotRig({ body: d.defaults.body ?? true, ...d.defaults.rig });
                node.rotExpression(d.defaults.expression ?? {});
                return node;
            } catch (e) {
                node.remove();
                throw e;
            }
        },
        equip(parentTarget, key, opts = {}) {
            const parent = $(parentTarget);
            const spec = $.rotSprite.definition(parent)?.equipment?.[key];
            if (!spec || typeof spec.model !== 'string' || typeof spec.socket !== 'string') {
                throw new TypeError(`equip: unknown equipment '${key}'`);
            }
            const src = parent.get(0).rot_sprite.source;
            const item = $.rotSprite.from(relativeAsset(typeof src === 'string' ? src : null, spec.model), opts);
            try {
                item.rotAttach(parent, spec.socket, { grip: spec.grip, rotation: spec.rotation, offset: spec.offset, scale: spec.scale });
            } catch (e) {
                item.remove();
                throw e;
            }
            return item;
        },
        definition(target) {
            const r = $(target).get(0)?.rot_sprite;
            return r?.definition ? cloneData(r.definition) : null;
        },
        pose(target, yaw, pitch = 0) {
            return $(target).rotPose(yaw, pitch);
        },
        info(target) {
            const node = $(target).get(0);
            const r = node?.rot_sprite;
            if (!r) return null;
            const native = engine.rotSpriteInfo(r.handle);
            const out = { ...native };
            if (r.definition) {
                out.joints = modelJoints(r, native);
                out.definition = typeof r.source === 'string' ? r.source : null;
                out.animationTime = r.motion.time;
                out.layers = cloneData(r.layers);
                out.attachment = r.attachment
                    ? { socket: r.attachment.socket, grip: r.attachment.grip, parent: r.attachment.parent.id }
                    : null;
                const sockets = {};
                for (const s of r.definition.rig.sockets) sockets[s.name] = { matrix: socketMatrix(r, s.name) };
                out.sockets = sockets;
            }
            out.path = r.path;
            out.rig = { ...r.rig };
            out.motion = { ...r.motion };
            out.parts = { ...r.parts };
            out.hotReload = r.hotReload;
            out.reloads = r.reloads;
            out.reloadError = r.reloadError ?? null;
            out.milestone = r.rig.body ? 'body-prototype' : 'head';
            return out;
        },
        dispose(target) {
            for (const node of [...$(target).nodes]) release(node);
            return undefined;
        },
    };
    $.rotSprite = rotSprite;
    $.re2dSprite = rotSprite;

    registerNodeRenderer('rotsprite', (node, t, cam) => {
        const r = node.rot_sprite;
        if (!r) return;
        let frame = r;
        while (frame.attachment?.parent?.rot_sprite) frame = frame.attachment.parent.rot_sprite;
        const p = frame.style === 'anime' ? t : rotPixelRect(t, frame.width);
        if (p.x + p.w / 2 < 0 || p.y + p.h / 2 < 0 || p.x - p.w / 2 > cam.w || p.y - p.h / 2 > cam.h) return;
        let sprite = r.sprite;
        if (r.worldComposed) {
            const info = engine.rotSpriteInfo(r.handle);
            sprite = engine.rotSpritePose(r.handle, info.yaw, info.pitch);
        }
        $.gfx.push.sprite(sprite, p.x, p.y, p.w, p.h, 0, withAlpha(node.color, node.alpha), node.blend_mode);
    });
}

// ---- §8 tick ---------------------------------------------------------------

export function tickRotSprite(dt, motionDt = dt) {
    if (!rotApi) return;
    const roots = new Set();
    for (const node of [...rotApi('rotsprite').nodes]) {
        const r = node.rot_sprite;
        if (!r) continue;
        if (r.definition) {
            const clips = r.animations.clips;
            let changed = false;
            const clip = clips[r.motion.mode];
            if (clip && r.motion.speed && (clip.loop || r.motion.time < clip.duration)) {
                r.motion.time = (r.motion.time || 0) + motionDt * r.motion.speed;
                r.rig.phase = ((r.motion.time / clip.duration) * Math.PI * 2) % TAU;
                changed = true;
            }
            for (const [key, L] of Object.entries(r.layers)) {
                if (L.speed && (clips[key].loop || L.time < clips[key].duration)) {
                    L.time += motionDt * L.speed;
                    changed = true;
                }
            }
            if (changed) {
                let root = node;
                while (root.rot_sprite?.attachment?.parent) root = root.rot_sprite.attachment.parent;
                roots.add(root);
            }
        } else if (r.motion.mode !== 'idle' && r.motion.speed) {
            const rate = r.motion.mode === 'run' ? 10 : 5;
            rotApi(node).rotRig({ phase: ((r.rig.phase || 0) + motionDt * rate * r.motion.speed) % TAU });
        }
    }
    for (const root of roots) {
        if (root.rot_sprite) applyModel(rotApi, root);
    }
    pollTime += dt;
    if (pollTime < 0.5) return;
    pollTime = 0;
    for (const node of [...rotApi('rotsprite').nodes]) {
        const r = node.rot_sprite;
        if (!r || !r.hotReload) continue;
        const changed = engine.rotSpriteChanged(r.handle) ||
            (r.files ?? []).some((f) => engine.rotSpriteFileStamp(f) !== r.definitionStamps[f]) ||
            Object.entries(r.parts).some(([part, path]) => engine.rotSpriteFileStamp(path) !== r.stamps[part]);
        if (changed) {
            try {
                rotApi(node).rotReload();
            } catch (e) {
                node.rot_sprite.reloadError = String(e);
            }
        }
    }
}
