// Forward kinematics and linear blend skinning (rive-export.md §7).
// - world: bones in canonical order (parents first); a root starts at its (x, y) with its angle,
//   a child at its parent's tip, `parent.start + parent.length · (cos, sin)(parent.world_angle)`,
//   with world angle `parent.world_angle + local`;
// - skin matrices: per bone `Pose_b · Rest_b⁻¹`, a rotation by (pose − rest) world angle about
//   the rest start, then the move to the posed start: four numbers [cos, sin, tx, ty];
// - skinning: `v' = Σ wᵢ (Pose_bᵢ · Rest_bᵢ⁻¹) v` with the weights normalised at load (≤ 2 bones
//   a vertex); a vertex without weight (W ≤ 1e-4) stays where it is.

import { Pose } from './sampler.js';

/** World transforms of `pose` into `out` (Float64Array, three numbers a bone: x, y, angle). */
export function world(bones, pose, out) {
    for (let k = 0; k < bones.length; k++) {
        const p = bones[k].parent;
        const o = 3 * k;
        if (p < 0) {
            out[o] = pose.x[k];
            out[o + 1] = pose.y[k];
            out[o + 2] = pose.angle[k];
        } else {
            const q = 3 * p, len = bones[p].length, a = out[q + 2];
            out[o] = out[q] + len * Math.cos(a);
            out[o + 1] = out[q + 1] + len * Math.sin(a);
            out[o + 2] = a + pose.angle[k];
        }
    }
    return out;
}

/** Per bone `Pose·Rest⁻¹` as [cos, sin, tx, ty] into `out` (Float64Array, four a bone). */
export function skinMatrices(posed, rest, n, out) {
    for (let k = 0; k < n; k++) {
        const o = 3 * k;
        const d = posed[o + 2] - rest[o + 2];
        const c = Math.cos(d), s = Math.sin(d);
        const rx = rest[o], ry = rest[o + 1];
        const m = 4 * k;
        out[m] = c;
        out[m + 1] = s;
        out[m + 2] = posed[o] - (c * rx - s * ry);
        out[m + 3] = posed[o + 1] - (s * rx + c * ry);
    }
    return out;
}

/** Skins one part's rest vertices by the matrices into `out` (Float32Array, x, y a vertex). */
export function skin(part, mats, out) {
    const { verts, bone, weight } = part;
    const n = verts.length >> 1;
    for (let i = 0; i < n; i++) {
        const x = verts[2 * i], y = verts[2 * i + 1];
        const b0 = bone[2 * i];
        if (b0 < 0) {
            out[2 * i] = x;
            out[2 * i + 1] = y;
            continue;
        }
        let m = 4 * b0, w = weight[2 * i];
        let ox = w * (mats[m] * x - mats[m + 1] * y + mats[m + 2]);
        let oy = w * (mats[m + 1] * x + mats[m] * y + mats[m + 3]);
        const b1 = bone[2 * i + 1];
        if (b1 >= 0) {
            m = 4 * b1;
            w = weight[2 * i + 1];
            ox += w * (mats[m] * x - mats[m + 1] * y + mats[m + 2]);
            oy += w * (mats[m + 1] * x + mats[m] * y + mats[m + 3]);
        }
        out[2 * i] = ox;
        out[2 * i + 1] = oy;
    }
    return out;
}

/**
 * The artboard frame of rive-export.md §8.1 (what `export-riv` and `riv render-ref` use): the
 * rest-pose bounds of every vertex and bone end, a margin of max(16, ¼ of the larger span), the
 * offset that puts the bounds' corner at (margin, margin) and the size: place a character at
 * (x, y) on a width × height canvas to draw what `riv render-ref` draws.
 */
export function artboardFrame(model) {
    const rest = world(model.bones, new Pose(model.bones), new Float64Array(3 * model.bones.length));
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    const add = (x, y) => { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); };
    for (const p of model.parts) for (let i = 0; i < p.verts.length; i += 2) add(p.verts[i], p.verts[i + 1]);
    model.bones.forEach((b, k) => {
        const x = rest[3 * k], y = rest[3 * k + 1], a = rest[3 * k + 2];
        add(x, y);
        add(x + b.length * Math.cos(a), y + b.length * Math.sin(a));
    });
    if (x0 > x1) x0 = y0 = x1 = y1 = 0;
    const margin = Math.max(16, 0.25 * Math.max(x1 - x0, y1 - y0));
    return {
        x: margin - x0, y: margin - y0,
        width: Math.max(1, Math.ceil(x1 - x0 + 2 * margin)), height: Math.max(1, Math.ceil(y1 - y0 + 2 * margin)),
    };
}
