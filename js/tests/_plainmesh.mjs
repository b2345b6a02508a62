// A plain-JS `$.mesh` (no natives): js-mesh.md §5 (createSkeleton), §6 (createPart) and §8.4
// (draw) transcribed literally over _reference.mjs's §7 deformPart. It stands for the engine's
// own JS module: `loadCharacter(plainMesh(), …)` must draw what `$.mesh.load(…)` draws (issue 30).
import * as ref from './_reference.mjs';

const N0 = (v) => {
    const n = Number(v);
    return n ? n : 0;
};
const finiteOr = (v, d) => {
    const n = Number(v);
    return isFinite(n) ? n : d;
};
const isObj = (v) => !!v && typeof v === 'object';
const TAU = Math.PI * 2;

function normalizeAngle(a) {
    let x = N0(a) % TAU;
    if (x > Math.PI) x -= TAU;
    if (x <= -Math.PI) x += TAU;
    return x;
}

function skeleton(spec) {
    const raw = spec && typeof spec === 'object' ? spec : {};
    const bone = (name) => raw[name] || {};
    const restLen = (name) => finiteOr(bone(name).length, 0);
    const order = [];
    let pending = Object.keys(raw);
    while (pending.length) {
        const before = pending.length;
        for (let i = pending.length - 1; i >= 0; i--) {
            const parent = raw[pending[i]] && raw[pending[i]].parent;
            if (!parent || order.includes(parent)) {
                order.push(pending[i]);
                pending.splice(i, 1);
            }
        }
        if (pending.length === before) {
            order.push(...pending);
            pending = [];
        }
    }
    function pose(angles) {
        const add = isObj(angles) ? angles : {};
        const out = Object.create(null);
        for (const name of order) {
            const b = bone(name);
            const parent = b.parent && out[b.parent] ? out[b.parent] : null;
            const local = N0(b.angle) + N0(add[name]);
            if (parent) {
                out[name] = {
                    x: parent.x + Math.cos(parent.angle) * restLen(b.parent),
                    y: parent.y + Math.sin(parent.angle) * restLen(b.parent),
                    angle: normalizeAngle(parent.angle + local),
                };
            } else {
                out[name] = { x: N0(b.x), y: N0(b.y), angle: local };
            }
        }
        return out;
    }
    return {
        names: order.slice(),
        bones: () => order.slice(),
        spec: () => raw,
        rest: () => pose({}),
        pose,
        tip(p, name) {
            const q = p && p[name];
            return q ? { x: q.x + Math.cos(q.angle) * restLen(name), y: q.y + Math.sin(q.angle) * restLen(name) } : null;
        },
    };
}

function part(spec) {
    const s = isObj(spec) ? spec : {};
    const verts = Array.isArray(s.verts) ? s.verts.slice() : [];
    const vertexCount = Math.floor(verts.length / 2);
    let weights;
    if (Array.isArray(s.weights)) {
        weights = s.weights.map((w) => {
            const list = Array.isArray(w) ? w : [];
            const pairs = [];
            for (let i = 0; i + 1 < list.length && pairs.length < 2; i += 2) pairs.push([String(list[i]), N0(list[i + 1])]);
            return pairs;
        });
    } else if (Array.isArray(s.bones)) {
        weights = s.bones.map((b) => [[String(b), 1]]);
    } else {
        weights = [];
        for (let i = 0; i < vertexCount; i++) weights.push([]);
    }
    return {
        verts,
        uv: Array.isArray(s.uv) ? s.uv.slice() : [],
        tris: Array.isArray(s.tris) ? s.tris.slice() : [],
        weights,
        colors: Array.isArray(s.colors) ? s.colors.slice() : null,
        depth: finiteOr(s.depth, 0.5),
        texture: s.texture === undefined ? -1 : Number(s.texture),
        vertexCount,
        skinned: weights.some((w) => w.length > 0),
        spec: () => s,
    };
}

/// A fresh plain-JS `$.mesh` (skeleton, part, draw, posed), drawing into the global `engine`.
export function plainMesh() {
    let scratch = new Float32Array(8192);
    let flat = new Float32Array(8192);
    return {
        skeleton,
        part,
        draw(p, poseOrAngles, rig, opts) {
            if (!p || !p.vertexCount || !p.tris.length) return 0;
            const o = opts || {};
            let pose = null, rest = null;
            if (rig) {
                pose = rig.pose(isObj(poseOrAngles) ? poseOrAngles : {});
                rest = rig.rest();
            } else if (poseOrAngles && poseOrAngles.__pose) {
                pose = poseOrAngles.__pose;
                rest = poseOrAngles.__rest || poseOrAngles.__pose;
            }
            const need = p.vertexCount * 8;
            if (scratch.length < need) {
                let size = scratch.length;
                while (size < need) size *= 2;
                scratch = new Float32Array(size);
            }
            const r = ref.deformPart(p, pose, rest, scratch);
            if (!r.count) return 0;
            const k = p.tris.length;
            if (k % 3) return 0;
            if (flat.length < k * 8) {
                let size = flat.length;
                while (size < k * 8) size *= 2;
                flat = new Float32Array(size);
            }
            for (let i = 0; i < k; i++) {
                const src = p.tris[i] * 8, dst = i * 8;
                for (let j = 0; j < 8; j++) flat[dst + j] = scratch[src + j];
            }
            return engine.submitMesh(flat, k, o.texture === undefined ? p.texture : Number(o.texture));
        },
        posed: (rig, angles) => ({ __pose: rig.pose(angles), __rest: rig.rest() }),
    };
}
