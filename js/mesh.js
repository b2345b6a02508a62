// re2d built-in module `re2d/mesh` (also served for any import ending in `highlevel/mesh.js`).
//
// JS face of the engine's `mesh` module, spec js-mesh.md (docs/). This file
// reproduces only what JS can observe (coercions, result shapes, key order,
// logging, quirks); the numeric hot paths — deformation (§7), triangle
// unrolling (§8.4 step 9), the IK solvers (§3, §4) and the re2d extensions
// (`opts.limits`, `blend: 'rigid'`) — run in Rust (`src/mesh`, `src/js/mesh.rs`).
//
// Live reads in one pass: `deformPart` and the unrolling in `draw` hand the
// live arguments to a native loop (`nat.deform`, `nat.unroll`) that reads
// every value where the engine's JS reads it — part arrays, weight lists, pose
// records, `tris` — and computes and writes vertex by vertex, so an element
// edited in place is simply read. It reads only what it can read without
// running JS; at a vertex that needs JS (a getter, a proxy, a string where the
// engine would concatenate, …) it stops, the literal JS below does that one
// vertex, and the native resumes after it. So the order and number of
// observable reads, calls and writes are the engine's.
import * as nat from 're2d/native/mesh';
import { exportRiv, readModel } from 're2d/native/riv';
import { makeLoader } from 're2d/meshload';

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

const allNumbers = (...v) => v.every((x) => typeof x === 'number');

// §3 literally: arguments used directly in arithmetic (non-numbers).
function twoBoneJS(startX, startY, len1, len2, targetX, targetY, bend) {
    const dx = targetX - startX, dy = targetY - startY;
    const dist = Math.hypot(dx, dy);
    const reachMax = len1 + len2, reachMin = Math.abs(len1 - len2);
    const base = Math.atan2(dy, dx);
    const side = bend < 0 ? -1 : 1;
    if (dist >= reachMax || len1 <= 0 || len2 <= 0) {
        return { a1: base, a2: base, elbow: { x: startX + Math.cos(base) * len1, y: startY + Math.sin(base) * len1 }, reached: dist <= reachMax };
    }
    const reach = Math.max(reachMin + 1e-6, dist);
    const cosA = (len1 * len1 + reach * reach - len2 * len2) / (2 * len1 * reach);
    const a1 = base + side * Math.acos(Math.max(-1, Math.min(1, cosA)));
    const elbow = { x: startX + Math.cos(a1) * len1, y: startY + Math.sin(a1) * len1 };
    const a2 = Math.atan2(targetY - elbow.y, targetX - elbow.x);
    return { a1, a2, elbow, reached: true };
}

// §3 (math in Rust: mesh::ik::solve_two_bone, for number arguments)
export function solveTwoBoneIK(startX, startY, len1, len2, targetX, targetY, bend) {
    if (!allNumbers(startX, startY, len1, len2, targetX, targetY)) {
        return twoBoneJS(startX, startY, len1, len2, targetX, targetY, bend);
    }
    const r = nat.twoBone([startX, startY, len1, len2, targetX, targetY, bend < 0 ? -1 : 1], null);
    return { a1: r[0], a2: r[1], elbow: { x: r[2], y: r[3] }, reached: r[4] === 1 };
}

// §4 steps 5–12 literally, for lengths that are not all numbers: each raw
// element is converted by every operation that uses it (a BigInt throws in
// the layout's multiplication, an object's valueOf runs each time, a hole is
// NaN there and 0 in the total).
function chainJS(startX, startY, lengths, targetX, targetY, n, iterations, tolerance) {
    let total = 0;
    for (let i = 0; i < n; i++) total += N0(lengths[i]);
    let distance = Math.hypot(targetX - startX, targetY - startY);
    if (distance >= total) {
        const a = Math.atan2(targetY - startY, targetX - startX);
        return { angles: new Array(n).fill(a), reached: false, distance: distance - total };
    }
    if (distance <= 1e-9) {
        const angles = [];
        for (let i = 0; i < n; i++) angles.push(i % 2 ? Math.PI : 0);
        return { angles, reached: true, distance: 0 };
    }
    const dir = Math.atan2(targetY - startY, targetX - startX);
    const px = [startX], py = [startY];
    for (let i = 0; i < n; i++) {
        px.push(px[i] + Math.cos(dir) * lengths[i]);
        py.push(py[i] + Math.sin(dir) * lengths[i]);
    }
    for (let it = 0; it < iterations; it++) {
        px[n] = targetX; py[n] = targetY;
        for (let i = n - 1; i >= 0; i--) {
            let dx = px[i] - px[i + 1], dy = py[i] - py[i + 1];
            let len = Math.hypot(dx, dy);
            if (len < 1e-9) { dx = 1; dy = 0; len = 1; }
            px[i] = px[i + 1] + (dx / len) * lengths[i];
            py[i] = py[i + 1] + (dy / len) * lengths[i];
        }
        px[0] = startX; py[0] = startY;
        for (let i = 0; i < n; i++) {
            let dx = px[i + 1] - px[i], dy = py[i + 1] - py[i];
            let len = Math.hypot(dx, dy);
            if (len < 1e-9) { dx = Math.cos(dir); dy = Math.sin(dir); len = 1; }
            px[i + 1] = px[i] + (dx / len) * lengths[i];
            py[i + 1] = py[i] + (dy / len) * lengths[i];
        }
        distance = Math.hypot(targetX - px[n], targetY - py[n]);
        if (distance <= tolerance) break;
    }
    const angles = [];
    for (let i = 0; i < n; i++) angles.push(Math.atan2(py[i + 1] - py[i], px[i + 1] - px[i]));
    return { angles, reached: distance <= tolerance, distance };
}

function chainIK(startX, startY, lengths, targetX, targetY, opts, limits) {
    const o = opts || {};
    const n = Array.isArray(lengths) ? lengths.length : 0;
    if (n === 0) return { angles: [], reached: false, distance: Infinity };
    const iterations = isFinite(Number(o.iterations)) ? Math.max(1, Number(o.iterations)) : 12;
    const tolerance = isFinite(Number(o.tolerance)) ? Math.max(0, Number(o.tolerance)) : 0.5;
    // native only when reading each length once is unobservable: a dense
    // array of numbers (no holes, getters or proxy)
    if (!limits && !(allNumbers(startX, startY, targetX, targetY) && nat.plainNumbers(lengths))) {
        return chainJS(startX, startY, lengths, targetX, targetY, n, iterations, tolerance);
    }
    const L = new Array(n);
    for (let i = 0; i < n; i++) L[i] = Number(lengths[i]);
    const r = nat.chain([+startX, +startY, +targetX, +targetY, iterations, tolerance], L, limits || null);
    return { angles: r.slice(2), reached: r[0] === 1, distance: r[1] };
}

// §4 (math in Rust: mesh::ik::solve_chain, for number arguments)
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

// ---- §7 deformation -----------------------------------------------------

// §7 colour of vertex `i` into `rgb[3i..]`. The engine reads every vertex's
// colour (`part.colors ? part.colors[i] : null`, N0 of an Array's first
// three elements, else 255s) before it deforms the first vertex: a getter
// that edits the colours during the call does not change the output
// (issue 20 item 7).
function colorVertex(part, rgb, i) {
    const c = part.colors ? part.colors[i] : null;
    if (Array.isArray(c)) {
        rgb[3 * i] = N0(c[0]); rgb[3 * i + 1] = N0(c[1]); rgb[3 * i + 2] = N0(c[2]);
    } else {
        rgb[3 * i] = 255; rgb[3 * i + 1] = 255; rgb[3 * i + 2] = 255;
    }
}

// The colours of vertices 0 … n−1, natively where no JS can run.
function readColors(part, n) {
    if (typeof n === 'number' && n > 0 && n <= 0x1000000) {
        const rgb = new Float64Array(3 * Math.ceil(n));
        for (let i = 0, stuck = 0; i < n;) {
            const j = stuck < 2 ? nat.colors(part, n, i, rgb) : i;
            stuck = j === i ? stuck + 1 : 0;
            i = j;
            if (i < n) colorVertex(part, rgb, i++);
        }
        return rgb;
    }
    const rgb = [];
    for (let i = 0; i < n; i++) colorVertex(part, rgb, i);
    return rgb;
}

// §7 step 3 for vertex `i`, literally (the engine's reads and writes in its
// order, the colour from `rgb`); rigid parts blend as in src/mesh/deform.rs.
function deformVertex(part, pose, rest, out, verts, uv, i, rigid, rgb) {
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
                bdx += f * (0.5 * (qw * tx + qz * ty)); bdy += f * (0.5 * (qw * ty - qz * tx));
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
    out[o + 5] = rgb[3 * i]; out[o + 6] = rgb[3 * i + 1]; out[o + 7] = rgb[3 * i + 2];
}

// §7: the native pass does every vertex it can; `deformVertex` the others.
// After two passes in a row that made no progress (every vertex needs JS,
// e.g. getters on the pose records) the JS finishes the call alone.
export function deformPart(part, pose, rest, out) {
    const n = part.vertexCount;
    const need = n * 8;
    if (out.length < need) return { buffer: out, count: 0, need };
    const verts = part.verts, uv = part.uv;
    const rigid = rigidParts.has(part);
    const rgb = readColors(part, n);
    let i = 0;
    if (rgb instanceof Float64Array) {
        for (let stuck = 0; stuck < 2 && i < n;) {
            const j = nat.deform(part, pose, rest, out, verts, uv, n, i, rigid, rgb);
            stuck = j === i ? stuck + 1 : 0;
            i = j;
            if (i < n) deformVertex(part, pose, rest, out, verts, uv, i++, rigid, rgb);
        }
    }
    for (; i < n; i++) deformVertex(part, pose, rest, out, verts, uv, i, rigid, rgb);
    return { buffer: out, count: n, need };
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

// §8.4 step 9 for index `i`, literally.
function unrollOne(scratch, flat, tris, i) {
    const src = tris[i] * 8, dst = i * 8;
    for (let j = 0; j < 8; j++) flat[dst + j] = scratch[src + j];
}

// §8
export function installMesh($) {
    let scratch = new Float32Array(1024 * 8);
    let flat = new Float32Array(1024 * 8);

    // The API object: `ik`, `fromSlice` and `draw` are methods, as in the
    // engine (not constructors, no `prototype`).
    const api = {
        skeleton: (spec) => createSkeleton(spec),
        part: (spec) => createPart(spec),
        // §8.2 (+ re2d extension: opts.limits)
        ik(rig, angles, target, opts) {
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
            // mapped as the engine does: a hole in the chain stays a hole (NaN length)
            const lengths = chain.map((name) => finiteOr((spec[name] || {}).length, 0));
            const goal = { x: N0(target.x), y: N0(target.y) };
            const limits = limitsFor(o.limits, chain, spec, poseNow);
            let abs, reached;
            if (chain.length === 2) {
                let r;
                if (limits) {
                    const a = nat.twoBone([+head.x, +head.y, +lengths[0], +lengths[1], goal.x, goal.y, o.bend < 0 ? -1 : 1], limits);
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
        },

        // §8.3
        fromSlice(sheet, sliceName, frame, opts) {
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
        },

        // §8.4
        draw(part, poseOrAngles, rig, opts) {
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
            // step 9 in one pass (live `tris`); an index that needs JS is copied
            // here and the native resumes after it
            const tris = part.tris;
            let i = 0;
            if (typeof k === 'number') {
                for (let stuck = 0; stuck < 2 && i < k;) {
                    const j = nat.unroll(scratch, flat, tris, k, i);
                    stuck = j === i ? stuck + 1 : 0;
                    i = j;
                    if (i < k) unrollOne(scratch, flat, tris, i++);
                }
            }
            for (; i < k; i++) unrollOne(scratch, flat, tris, i);
            const texture = o.texture === undefined ? part.texture : Number(o.texture);
            return eng.submitMesh(flat, k, texture);
        },
        scratchSize: () => scratch.length,
        flatSize: () => flat.length,
        posed: (rig, angles) => ({ __pose: rig.pose(angles), __rest: rig.rest() }),
    };
    // re2d extension (rive-export.md): non-enumerable, so §8's own-key list is unchanged.
    Object.defineProperty(api, 'exportRiv', { value: exportRiv, writable: true, configurable: true });
    // re2d extension (issue 30, js/meshload.js): a rigged character, drawn through this API.
    Object.defineProperty(api, 'load', {
        value: (source, opts) => loadCharacter(api, source, opts),
        writable: true,
        configurable: true,
    });
    return api;
}

// `loadCharacter(mesh, source, opts)`: `$.mesh.load` over any `$.mesh` API object (e.g. the
// engine's plain-JS module), validated by the same native model reader.
export const loadCharacter = makeLoader(readModel, log);
