// re2d built-in module `re2d/mesh` (also served for any import ending in `highlevel/mesh.js`).
//
// JS face of the engine's `mesh` module, spec js-mesh.md (docs/). This file
// reproduces only what JS can observe (coercions, result shapes, key order,
// logging, quirks); the numeric hot paths — deformation (§7), triangle
// unrolling (§8.4 step 9), the IK solvers (§3, §4) and the re2d extensions
// (`opts.limits`, `blend: 'rigid'`) — run in Rust (`src/mesh`, `src/js/mesh.rs`).
//
// Fast path: the first deformation of a part builds a native copy of it
// (WeakMap, invisible to scripts). Each later call re-validates it by the
// identity and length of `verts`, `uv`, `weights`, `colors` and the value of
// `vertexCount`, then natively against the live elements (`nat.verify`: an
// element edited in place is seen, as the spec's live reads see it); any
// difference rebuilds the copy. `draw` unrolls from the live `tris`. Parts holding
// values the native copy cannot represent (non-numbers, array-likes, more than
// two pairs, …) and non-Float32Array outputs take the literal JS path below.
import * as nat from 're2d/native/mesh';
import { exportRiv } from 're2d/native/riv';

const TAU = Math.PI * 2;

const N0 = (v) => {
    const n = Number(v);
    return n ? n : 0;
};
const finiteOr = (v, d) => {
    const n = Number(v);
    return isFinite(n) ? n : d;
};
const isObj = (v) => !!v && typeof v === 'object';

// §9 log sink.
function log(msg) {
    if (typeof engine !== 'undefined' && engine && typeof engine.log === 'function') {
        engine.log(msg);
        return;
    }
    if (typeof console !== 'undefined' && console && typeof console.log === 'function') {
        console.log(msg);
    }
}

// §9 fallback engine stub (no submitMesh).
function makeStub() {
    return {
        time: 0, dt: 0, frame: 0, fps: 0, seed: 12345, agent: false, headless: false, paused: false,
        now() { return 0; },
        log() {},
        setUpdate() {},
        setRender() {},
        setSnapshot() {},
        quit() {},
        setExit() {},
        markUI() {},
        setErrorHandler() {},
        requestReload() {},
        reloadPending() { return false; },
        hotReload() {},
        window: {
            size() { return [0, 0]; },
            pixelSize() { return [0, 0]; },
            focused() { return false; },
            visible() { return false; },
            fullscreen() { return false; },
            on() {},
        },
        setPosition() {},
        setAngle() {},
        bodyCount() { return 0; },
        getVelocity() { return [0, 0]; },
        setVelocity() {},
        applyImpulse() {},
        setGravityScale() {},
        createJoint() { return -1; },
        setAwake() {},
        setBullet() {},
        isBullet() { return false; },
        destroyJoint() {},
        createBody() { return -1; },
        destroyBody() {},
    };
}

// §9 engine(): global `engine`, else the (re)created global stub.
function currentEngine() {
    if (typeof engine !== 'undefined' && engine) return engine;
    if (!globalThis.__r2d_engine_stub) globalThis.__r2d_engine_stub = makeStub();
    return globalThis.__r2d_engine_stub;
}

// §2
export function normalizeAngle(a) {
    let x = N0(a) % TAU;
    if (x > Math.PI) x -= TAU;
    if (x <= -Math.PI) x += TAU;
    return x;
}

// §3 (math in Rust: mesh::ik::solve_two_bone)
export function solveTwoBoneIK(startX, startY, len1, len2, targetX, targetY, bend) {
    const r = nat.twoBone([+startX, +startY, +len1, +len2, +targetX, +targetY, bend < 0 ? -1 : 1], null);
    return { a1: r[0], a2: r[1], elbow: { x: r[2], y: r[3] }, reached: r[4] === 1 };
}

function chainIK(startX, startY, lengths, targetX, targetY, opts, limits) {
    const o = opts || {};
    const n = Array.isArray(lengths) ? lengths.length : 0;
    if (n === 0) return { angles: [], reached: false, distance: Infinity };
    const iterations = isFinite(Number(o.iterations)) ? Math.max(1, Number(o.iterations)) : 12;
    const tolerance = isFinite(Number(o.tolerance)) ? Math.max(0, Number(o.tolerance)) : 0.5;
    const L = new Array(n);
    for (let i = 0; i < n; i++) L[i] = Number(lengths[i]);
    const r = nat.chain([+startX, +startY, +targetX, +targetY, iterations, tolerance], L, limits || null);
    return { angles: r.slice(2), reached: r[0] === 1, distance: r[1] };
}

// §4 (math in Rust: mesh::ik::solve_chain)
export function solveChainIK(startX, startY, lengths, targetX, targetY, opts) {
    return chainIK(startX, startY, lengths, targetX, targetY, opts, null);
}

// §5
export function createSkeleton(spec) {
    const raw = spec && typeof spec === 'object' ? spec : {};
    const bone = (name) => raw[name] || {};
    const restAngle = (name) => N0(bone(name).angle);
    const restLen = (name) => finiteOr(bone(name).length, 0);

    const order = [];
    let pending = Object.keys(raw);
    while (pending.length) {
        const before = pending.length;
        for (let i = pending.length - 1; i >= 0; i--) {
            const name = pending[i];
            const parent = raw[name] && raw[name].parent;
            if (!parent || order.includes(parent)) {
                order.push(name);
                pending.splice(i, 1);
            }
        }
        if (pending.length === before) {
            log('mesh.skeleton: cycle or unknown parent; appending the remaining bones as they are');
            for (const name of pending) order.push(name);
            pending = [];
        }
    }

    // §5.2: JS reads the live spec (coercions, parent lookup as `out[b.parent]`
    // over the bones computed so far); the math runs in Rust (mesh::pose_flat).
    // Scratch reused across calls (a re-entrant call from a spec getter gets its own).
    const poseBuf = new Float64Array(8 * order.length);
    const poseSeen = new Map();
    let posing = false;
    function pose(angles) {
        const add = isObj(angles) ? angles : {};
        const n = order.length;
        const reuse = !posing;
        const buf = reuse ? poseBuf : new Float64Array(8 * n);
        const seen = reuse ? poseSeen : new Map();
        seen.clear();
        posing = true;
        try {
            fillPose(add, buf, seen);
        } finally {
            if (reuse) posing = false;
        }
        nat.pose(buf);
        const out = Object.create(null);
        for (let k = 0; k < n; k++) {
            const o = 8 * k;
            out[order[k]] = { x: buf[o + 5], y: buf[o + 6], angle: buf[o + 7] };
        }
        return out;
    }

    function fillPose(add, buf, seen) {
        const n = order.length;
        for (let k = 0; k < n; k++) {
            const name = order[k];
            const b = bone(name);
            const p = b.parent;
            const pi = p && typeof p !== 'symbol' ? seen.get(String(p)) : undefined;
            const o = 8 * k;
            buf[o + 1] = restAngle(name) + N0(add[name]);
            if (pi !== undefined) {
                buf[o] = pi;
                buf[o + 4] = restLen(p);
            } else {
                buf[o] = -1;
                buf[o + 2] = N0(b.x);
                buf[o + 3] = N0(b.y);
            }
            seen.set(name, k);
        }
    }

    return {
        names: order.slice(),
        bones: () => order.slice(),
        spec: () => raw,
        rest: () => pose({}),
        pose,
        tip(poseObj, name) {
            const p = poseObj && poseObj[name];
            if (!p) return null;
            const len = restLen(name);
            return { x: p.x + Math.cos(p.angle) * len, y: p.y + Math.sin(p.angle) * len };
        },
    };
}

const rigidParts = new WeakSet();

// §6 (+ re2d extension: `blend: 'rigid'`)
export function createPart(spec) {
    const s = isObj(spec) ? spec : {};
    const verts = Array.isArray(s.verts) ? s.verts.slice() : [];
    const uv = Array.isArray(s.uv) ? s.uv.slice() : [];
    const tris = Array.isArray(s.tris) ? s.tris.slice() : [];
    const vertexCount = Math.floor(verts.length / 2);
    let weights;
    if (Array.isArray(s.weights)) {
        weights = s.weights.map((w) => {
            const list = Array.isArray(w) ? w : [];
            const pairs = [];
            for (let i = 0; i + 1 < list.length && pairs.length < 2; i += 2) {
                pairs.push([String(list[i]), N0(list[i + 1])]);
            }
            return pairs;
        });
    } else if (Array.isArray(s.bones)) {
        weights = s.bones.map((b) => [[String(b), 1]]);
    } else {
        weights = [];
        for (let i = 0; i < vertexCount; i++) weights.push([]);
    }
    const colors = Array.isArray(s.colors) ? s.colors.slice() : null;
    const depth = finiteOr(s.depth, 0.5);
    const texture = s.texture === undefined ? -1 : Number(s.texture);
    const part = {
        verts, uv, tris, weights, colors, depth, texture, vertexCount,
        skinned: weights.some((w) => w.length > 0),
        spec: () => s,
    };
    if (s.blend === 'rigid') rigidParts.add(part);
    return part;
}

// ---- native cache -------------------------------------------------------

const partCache = new WeakMap();

const isPrim = (v) => v === null || v === undefined || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string';

// Build the native copy from the part's current fields; `np` stays null when
// something is not representable (the JS path then runs).
function buildEntry(part) {
    const verts = part.verts, uv = part.uv, weights = part.weights;
    const colors = part.colors, n = part.vertexCount;
    const e = {
        verts, uv, weights, colors, n,
        vlen: verts && verts.length, uvlen: uv && uv.length,
        wlen: weights && weights.length, clen: colors && colors.length,
        np: null, names: null, boneBuf: null,
    };
    if (typeof n !== 'number' || !(n >= 0) || n !== Math.floor(n) || n > 0x4000000) return e;
    if (!Array.isArray(verts) || verts.length < 2 * n || !Array.isArray(uv) || !Array.isArray(weights)) return e;
    if (colors && !Array.isArray(colors)) return e;
    const V = new Array(2 * n), U = new Array(2 * n), C = new Array(3 * n);
    const I = new Array(4 * n);
    const names = [], index = new Map();
    for (let i = 0; i < 2 * n; i++) {
        const v = verts[i];
        if (typeof v !== 'number') return e;
        V[i] = v;
        const u = uv[i] || 0;
        if (typeof u !== 'number') return e;
        U[i] = u;
    }
    for (let i = 0; i < n; i++) {
        const c = colors ? colors[i] : null;
        if (Array.isArray(c)) {
            if (!isPrim(c[0]) || !isPrim(c[1]) || !isPrim(c[2])) return e;
            C[3 * i] = N0(c[0]); C[3 * i + 1] = N0(c[1]); C[3 * i + 2] = N0(c[2]);
        } else {
            C[3 * i] = 255; C[3 * i + 1] = 255; C[3 * i + 2] = 255;
        }
        I[4 * i] = -1; I[4 * i + 1] = 0; I[4 * i + 2] = -1; I[4 * i + 3] = 0;
        const w = weights[i];
        if (w && w.length) {
            if (!Array.isArray(w) || w.length > 2) return e;
            for (let k = 0; k < w.length; k++) {
                const p = w[k];
                if (!Array.isArray(p) || typeof p[0] !== 'string' || typeof p[1] !== 'number') return e;
                let j = index.get(p[0]);
                if (j === undefined) {
                    j = names.length;
                    names.push(p[0]);
                    index.set(p[0], j);
                }
                I[4 * i + 2 * k] = j;
                I[4 * i + 2 * k + 1] = p[1];
            }
        }
    }
    e.np = nat.newPart(V, U, C, I, names, rigidParts.has(part));
    e.names = names;
    e.boneBuf = new Float64Array(7 * names.length);
    return e;
}

function entryFor(part) {
    let e = partCache.get(part);
    if (
        !e || e.verts !== part.verts || e.uv !== part.uv ||
        e.weights !== part.weights || e.colors !== part.colors || e.n !== part.vertexCount ||
        (e.verts && e.vlen !== e.verts.length) || (e.uv && e.uvlen !== e.uv.length) ||
        (e.weights && e.wlen !== e.weights.length) ||
        (e.colors && e.clen !== e.colors.length)
    ) {
        e = buildEntry(part);
        partCache.set(part, e);
    } else if (e.np && !nat.verify(e.np, e.verts, e.uv, e.colors, e.weights)) {
        // an element was edited in place: rebuild from the live arrays
        e = buildEntry(part);
        partCache.set(part, e);
    }
    return e;
}

// Resolve each part bone once per frame; false → values need the JS path.
function fillBones(e, pose, rest) {
    const buf = e.boneBuf, names = e.names;
    for (let j = 0; j < names.length; j++) {
        const name = names[j];
        const cur = pose ? pose[name] : null;
        const rst = rest ? rest[name] : null;
        const o = 7 * j;
        if (!cur || !rst) {
            buf[o] = 0;
            continue;
        }
        const cx = cur.x, cy = cur.y, ca = cur.angle, rx = rst.x, ry = rst.y, ra = rst.angle;
        if (typeof cx !== 'number' || typeof cy !== 'number' || typeof ca !== 'number' ||
            typeof rx !== 'number' || typeof ry !== 'number' || typeof ra !== 'number') return false;
        buf[o] = 1; buf[o + 1] = cx; buf[o + 2] = cy; buf[o + 3] = ca;
        buf[o + 4] = rx; buf[o + 5] = ry; buf[o + 6] = ra;
    }
    return true;
}

// §7 literally, in JS (fallback path); rigid parts blend as in src/mesh/deform.rs.
function deformPartJS(part, pose, rest, out) {
    const n = part.vertexCount;
    const need = n * 8;
    if (out.length < need) return { buffer: out, count: 0, need };
    const verts = part.verts, uv = part.uv;
    const rigid = rigidParts.has(part);
    for (let i = 0; i < n; i++) {
        let x = verts[2 * i], y = verts[2 * i + 1];
        const w = part.weights[i];
        if (w && w.length) {
            let dx = 0, dy = 0, total = 0, valid = 0;
            let bw = 0, bz = 0, bdx = 0, bdy = 0, fw = 0, fz = 0;
            for (let k = 0; k < w.length; k++) {
                const name = w[k][0], weight = w[k][1];
                const cur = pose ? pose[name] : null;
                const rst = rest ? rest[name] : null;
                if (!cur || !rst) continue;
                total += weight;
                const da = cur.angle - rst.angle;
                const lx = verts[2 * i] - rst.x, ly = verts[2 * i + 1] - rst.y;
                const rx = lx * Math.cos(da) - ly * Math.sin(da) + cur.x;
                const ry = lx * Math.sin(da) + ly * Math.cos(da) + cur.y;
                dx += (rx - verts[2 * i]) * weight;
                dy += (ry - verts[2 * i + 1]) * weight;
                if (rigid) {
                    const c = Math.cos(da), s = Math.sin(da);
                    const tx = cur.x - (c * rst.x - s * rst.y), ty = cur.y - (s * rst.x + c * rst.y);
                    const qw = Math.cos(da * 0.5), qz = Math.sin(da * 0.5);
                    let sign = 1;
                    if (valid === 0) { fw = qw; fz = qz; } else if (fw * qw + fz * qz < 0) sign = -1;
                    const f = sign * weight;
                    bw += f * qw; bz += f * qz;
                    bdx += f * 0.5 * (qw * tx + qz * ty); bdy += f * 0.5 * (qw * ty - qz * tx);
                }
                valid++;
            }
            const norm = Math.hypot(bw, bz);
            if (rigid && valid >= 2 && total > 0.0001 && norm >= 1e-12) {
                const qw = bw / norm, qz = bz / norm, ddx = bdx / norm, ddy = bdy / norm;
                const c = qw * qw - qz * qz, s = 2 * qw * qz;
                const vx = x, vy = y;
                x = c * vx - s * vy + 2 * (qw * ddx - qz * ddy);
                y = s * vx + c * vy + 2 * (qw * ddy + qz * ddx);
            } else if (total > 0.0001) {
                x += dx / total;
                y += dy / total;
            }
        }
        const o = 8 * i;
        out[o] = x;
        out[o + 1] = y;
        out[o + 2] = part.depth;
        out[o + 3] = uv[2 * i] || 0;
        out[o + 4] = uv[2 * i + 1] || 0;
        const c = part.colors ? part.colors[i] : null;
        if (Array.isArray(c)) {
            out[o + 5] = N0(c[0]); out[o + 6] = N0(c[1]); out[o + 7] = N0(c[2]);
        } else {
            out[o + 5] = 255; out[o + 6] = 255; out[o + 7] = 255;
        }
    }
    return { buffer: out, count: n, need };
}

// §7
export function deformPart(part, pose, rest, out) {
    if (out instanceof Float32Array && part && typeof part === 'object' && typeof part.depth === 'number') {
        const e = entryFor(part);
        if (e.np) {
            const n = e.n;
            const need = n * 8;
            if (out.length < need) return { buffer: out, count: 0, need };
            if (fillBones(e, pose, rest)) {
                nat.deform(e.np, e.boneBuf, part.depth, out);
                return { buffer: out, count: n, need };
            }
        }
    }
    return deformPartJS(part, pose, rest, out);
}

// `opts.limits` (re2d extension) → flat per-bone [linked, parentAbs, restLocal, min, max], or null.
function limitsFor(limits, chain, spec, poseNow) {
    if (!isObj(limits)) return null;
    const flat = [];
    let any = false;
    for (let i = 0; i < chain.length; i++) {
        const name = chain[i];
        const b = spec[name] || {};
        const linked = i > 0 && b.parent === chain[i - 1];
        const parentAbs = !linked && b.parent && poseNow[b.parent] ? Number(poseNow[b.parent].angle) : 0;
        let min = -Infinity, max = Infinity;
        const l = limits[name];
        if (l !== undefined && l !== null) {
            if (!Array.isArray(l) || l.length !== 2) {
                throw new TypeError(`mesh.ik: limits.${name} must be [minRad, maxRad]`);
            }
            min = Number(l[0]);
            max = Number(l[1]);
            if (Number.isNaN(min) || Number.isNaN(max) || min > max) {
                throw new RangeError(`mesh.ik: limits.${name} must be numbers with min <= max`);
            }
            any = true;
        }
        flat.push(linked ? 1 : 0, parentAbs, N0(b.angle), min, max);
    }
    return any ? flat : null;
}

// §8
export function installMesh($) {
    let scratch = new Float32Array(1024 * 8);
    let flat = new Float32Array(1024 * 8);

    // §8.2 (+ re2d extension: opts.limits)
    function ik(rig, angles, target, opts) {
        const o = opts || {};
        const chain = Array.isArray(o.chain) ? o.chain.slice() : [];
        if (!rig || chain.length === 0) {
            log('mesh.ik: needs a rig and opts.chain');
            return null;
        }
        const spec = typeof rig.spec === 'function' ? rig.spec() : {};
        const poseNow = rig.pose(angles || {});
        const head = poseNow[chain[0]];
        if (!head) {
            log(`mesh.ik: unknown bone ${chain[0]}`);
            return null;
        }
        const lengths = new Array(chain.length);
        for (let i = 0; i < chain.length; i++) lengths[i] = finiteOr((spec[chain[i]] || {}).length, 0);
        const goal = { x: N0(target.x), y: N0(target.y) };
        const limits = limitsFor(o.limits, chain, spec, poseNow);
        let abs, reached;
        if (chain.length === 2) {
            let r;
            if (limits) {
                const a = nat.twoBone([+head.x, +head.y, lengths[0], lengths[1], goal.x, goal.y, o.bend < 0 ? -1 : 1], limits);
                r = { a1: a[0], a2: a[1], reached: a[4] === 1 };
            } else {
                r = solveTwoBoneIK(head.x, head.y, lengths[0], lengths[1], goal.x, goal.y, o.bend);
            }
            abs = [r.a1, r.a2];
            reached = r.reached;
        } else {
            const r = chainIK(head.x, head.y, lengths, goal.x, goal.y, o, limits);
            abs = r.angles;
            reached = r.reached;
        }
        const out = {};
        for (let i = 0; i < chain.length; i++) {
            const name = chain[i];
            const b = spec[name] || {};
            const restLocal = N0(b.angle);
            let parentAbs = 0;
            if (i > 0 && b.parent === chain[i - 1]) parentAbs = abs[i - 1];
            else if (b.parent && poseNow[b.parent]) parentAbs = poseNow[b.parent].angle;
            out[name] = normalizeAngle(abs[i] - parentAbs - restLocal);
        }
        const solved = rig.pose(out);
        const tip = typeof rig.tip === 'function' ? rig.tip(solved, chain[chain.length - 1]) : null;
        const distance = tip ? Math.hypot(goal.x - tip.x, goal.y - tip.y) : Infinity;
        return { angles: out, reached, distance, tip };
    }

    // §8.3
    function fromSlice(sheet, sliceName, frame, opts) {
        if (!sheet || typeof sheet.slice !== 'function') {
            log('mesh.fromSlice: no usable sheet');
            return null;
        }
        const sl = sheet.slice(sliceName, frame);
        if (!sl) {
            log(`mesh.fromSlice: unknown slice ${sliceName}`);
            return null;
        }
        const names = typeof sheet.frames === 'function' ? sheet.frames() : [];
        const frameName = names[sl.frame] !== undefined ? names[sl.frame] : names[0];
        const info = typeof sheet.info === 'function' ? sheet.info(frameName) : null;
        if (!info) {
            log(`mesh.fromSlice: unknown frame ${frameName}`);
            return null;
        }
        const size = typeof sheet.size === 'function' ? sheet.size() : [1, 1];
        const sw = size[0] > 0 ? size[0] : 1;
        const sh = size[1] > 0 ? size[1] : 1;
        const u0 = info.x / sw, v0 = info.y / sh;
        const u1 = (info.x + info.w) / sw, v1 = (info.y + info.h) / sh;
        const x0 = -sl.pivotLx, y0 = -sl.pivotLy;
        const x1 = x0 + sl.w, y1 = y0 + sl.h;
        const o = opts || {};
        const bones = o.bones ? o.bones : o.bone ? [o.bone, o.bone, o.bone, o.bone] : null;
        const spec = {
            verts: [x0, y0, x1, y0, x1, y1, x0, y1],
            uv: [u0, v0, u1, v0, u1, v1, u0, v1],
            tris: [0, 1, 2, 0, 2, 3],
            texture: o.texture === undefined ? (sheet.texture === undefined ? -1 : sheet.texture) : Number(o.texture),
            depth: o.depth,
        };
        if (bones) spec.bones = bones;
        const part = createPart(spec);
        part.slice = { name: String(sliceName), frame: sl.frame };
        part.pivot = { x: sl.pivotLx, y: sl.pivotLy };
        return part;
    }

    // §8.4
    function draw(part, poseOrAngles, rig, opts) {
        if (!part || !part.vertexCount || !part.tris.length) return 0;
        const o = opts || {};
        let pose = null, rest = null;
        if (rig) {
            const angles = isObj(poseOrAngles) ? poseOrAngles : {};
            pose = rig.pose(angles);
            rest = rig.rest();
        } else if (poseOrAngles && poseOrAngles.__pose) {
            pose = poseOrAngles.__pose;
            rest = poseOrAngles.__rest || poseOrAngles.__pose;
        }
        const need = part.vertexCount * 8;
        if (scratch.length < need) {
            let size = scratch.length;
            while (size < need) size *= 2;
            scratch = new Float32Array(size);
        }
        const r = deformPart(part, pose, rest, scratch);
        if (!r.count) return 0;
        const eng = currentEngine();
        const k = part.tris.length;
        if (k % 3) return 0;
        if (flat.length < k * 8) {
            let size = flat.length;
            while (size < k * 8) size *= 2;
            flat = new Float32Array(size);
        }
        if (!(typeof k === 'number' && Array.isArray(part.tris) && nat.unroll(scratch, flat, part.tris, k))) {
            const tris = part.tris;
            for (let i = 0; i < k; i++) {
                const src = tris[i] * 8, dst = i * 8;
                for (let j = 0; j < 8; j++) flat[dst + j] = scratch[src + j];
            }
        }
        const texture = o.texture === undefined ? part.texture : Number(o.texture);
        return eng.submitMesh(flat, k, texture);
    }

    const api = {
        skeleton: (spec) => createSkeleton(spec),
        part: (spec) => createPart(spec),
        ik,
        fromSlice,
        draw,
        scratchSize: () => scratch.length,
        flatSize: () => flat.length,
        posed: (rig, angles) => ({ __pose: rig.pose(angles), __rest: rig.rest() }),
    };
    // re2d extension (rive-export.md): non-enumerable, so §8's own-key list is unchanged.
    Object.defineProperty(api, 'exportRiv', { value: exportRiv, writable: true, configurable: true });
    return api;
}
