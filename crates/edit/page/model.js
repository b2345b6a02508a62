// re2d rig edit — the declaration and what the page does to it (docs/edit.md). Pure functions
// over the declaration object as the server sent it: every field the page does not know is
// left where it is, so a save keeps it.

// The bones' colours (tube outline and ownership tint): bone k takes PALETTE[k % 20].
export const PALETTE = [
    [230, 25, 75], [60, 180, 75], [255, 225, 25], [0, 130, 200], [245, 130, 48],
    [145, 30, 180], [70, 240, 240], [240, 50, 230], [210, 245, 60], [250, 190, 212],
    [0, 128, 128], [220, 190, 255], [170, 110, 40], [255, 250, 200], [128, 0, 0],
    [170, 255, 195], [128, 128, 0], [255, 215, 180], [0, 0, 128], [128, 128, 128],
];

export const colour = (k) => PALETTE[k % PALETTE.length];

// Coordinates and radii are saved to 0.1 px.
export const round1 = (v) => Math.round(v * 10) / 10;

// The radius of every point (`radius` is one number or one per point).
export function radii(b) {
    return Array.isArray(b.radius) ? b.radius.slice() : b.points.map(() => b.radius);
}

// Signed distance of p to the tube of b (<= 0 inside): the smallest |p - c(t)| - r(t) over
// the segments, c(t) the nearest point, r(t) the radius interpolated there (a zero-length
// segment takes the larger radius). The same operations, in the same order, as the rig's
// `tube_d` (crates/rig/src/cut/slice.rs), so a pixel is on an outline here exactly when it is
// in the Rust reference picture.
export function tubeD(b, rs, p) {
    let best = Number.MAX_VALUE;
    for (let i = 0; i + 1 < b.points.length; i++) {
        const a = b.points[i], q = b.points[i + 1];
        const ra = rs[i], rb = rs[i + 1];
        const dx = q[0] - a[0], dy = q[1] - a[1];
        const l2 = dx * dx + dy * dy;
        let t = 0;
        if (l2 > 0) t = Math.min(Math.max(((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2, 0), 1);
        const cx = a[0] + t * dx, cy = a[1] + t * dy;
        const ex = p[0] - cx, ey = p[1] - cy;
        const d = Math.sqrt(ex * ex + ey * ey);
        const r = l2 > 0 ? ra + (rb - ra) * t : Math.max(ra, rb);
        best = Math.min(best, d - r);
    }
    return best;
}

// The nearest point of bone b's axis to p: segment index, t, distance, radius there.
export function nearestOnAxis(b, rs, p) {
    let best = null;
    for (let i = 0; i + 1 < b.points.length; i++) {
        const a = b.points[i], q = b.points[i + 1];
        const dx = q[0] - a[0], dy = q[1] - a[1];
        const l2 = dx * dx + dy * dy;
        const t = l2 > 0 ? Math.min(Math.max(((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2, 0), 1) : 0;
        const d = Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
        const r = rs[i] + (rs[i + 1] - rs[i]) * t;
        if (!best || d < best.d) best = { seg: i, t, d, r };
    }
    return best;
}

export function index(decl, name) {
    return decl.bones.findIndex((b) => b.name === name);
}

const depthOf = (b) => (typeof b.depth === 'number' ? b.depth : 0);

// Bone indices from the nearest to the farthest: smaller depth is nearer; equal depths, the
// later declared is nearer (rig.md §1).
export function nearToFar(decl) {
    const order = decl.bones.map((_, i) => i);
    order.sort((a, b) => depthOf(decl.bones[a]) - depthOf(decl.bones[b]) || b - a);
    return order;
}

// Moves bone k one place nearer (dir -1) or farther (+1) in the drawing order; every depth is
// then renumbered 1, 2, … from the nearest, which keeps the order of all the others.
export function moveInDepth(decl, k, dir) {
    const order = nearToFar(decl);
    const at = order.indexOf(k);
    const to = at + dir;
    if (at < 0 || to < 0 || to >= order.length) return false;
    [order[at], order[to]] = [order[to], order[at]];
    order.forEach((i, n) => { decl.bones[i].depth = n + 1; });
    return true;
}

// Bone k and every bone below it.
export function descendants(decl, k) {
    const out = new Set([k]);
    let grew = true;
    while (grew) {
        grew = false;
        decl.bones.forEach((b, i) => {
            if (!out.has(i) && b.parent != null && out.has(index(decl, b.parent))) {
                out.add(i);
                grew = true;
            }
        });
    }
    return out;
}

// Renames bone k: its children's `parent` and its `mocap` key follow (the map keeps its order).
export function rename(decl, k, name) {
    const old = decl.bones[k].name;
    if (!name || name === old || decl.bones.some((b) => b.name === name)) return false;
    decl.bones[k].name = name;
    for (const b of decl.bones) if (b.parent === old) b.parent = name;
    if (decl.mocap && typeof decl.mocap === 'object' && old in decl.mocap) {
        const m = {};
        for (const [key, v] of Object.entries(decl.mocap)) m[key === old ? name : key] = v;
        decl.mocap = m;
    }
    return true;
}

// Sets bone k's parent (null: a root). A `"bend": "reversed"` needs a parent, so a root loses it.
export function setParent(decl, k, parent) {
    const b = decl.bones[k];
    if (parent == null) {
        delete b.parent;
        if (b.bend === 'reversed') delete b.bend;
    } else {
        if (descendants(decl, k).has(index(decl, parent))) return false;
        b.parent = parent;
    }
    return true;
}

// `part`: true is the default (the field is removed), false declares a partless bone.
export function setPart(decl, k, on) {
    if (on) delete decl.bones[k].part;
    else decl.bones[k].part = false;
}

// `bend`: "normal" is the default (the field is removed).
export function setBend(decl, k, reversed) {
    if (reversed) decl.bones[k].bend = 'reversed';
    else delete decl.bones[k].bend;
}

// The `mocap` joint of bone k ('' removes it; an empty map is removed: bones then map by name).
export function setJoint(decl, k, joint) {
    const name = decl.bones[k].name;
    if (joint) {
        if (!decl.mocap || typeof decl.mocap !== 'object') decl.mocap = {};
        decl.mocap[name] = joint;
    } else if (decl.mocap && typeof decl.mocap === 'object') {
        delete decl.mocap[name];
        if (Object.keys(decl.mocap).length === 0) delete decl.mocap;
    }
}

function uniqueName(decl, base) {
    if (!decl.bones.some((b) => b.name === base)) return base;
    for (let i = 2; ; i++) if (!decl.bones.some((b) => b.name === `${base}${i}`)) return `${base}${i}`;
}

// A new bone hanging from bone k (or a root when k is null): from k's last point, half k's
// length on along its direction (clamped into the drawing), four fifths of its last radius,
// its depth; declared after it, so it is drawn in front of it.
export function addChild(decl, k, w, h) {
    let start, dir, r, depth;
    if (k == null) {
        start = [w / 2, h / 2]; dir = [0, h / 8]; r = Math.max(4, Math.min(w, h) / 30); depth = 1;
    } else {
        const p = decl.bones[k];
        const a = p.points[0], e = p.points[p.points.length - 1];
        start = e.slice(); dir = [(e[0] - a[0]) / 2, (e[1] - a[1]) / 2];
        const rs = radii(p);
        r = Math.max(2, rs[rs.length - 1] * 0.8); depth = depthOf(p);
    }
    let end = [Math.min(Math.max(start[0] + dir[0], 0), w), Math.min(Math.max(start[1] + dir[1], 0), h)];
    if (Math.hypot(end[0] - start[0], end[1] - start[1]) < 2) {
        end = [start[0], start[1] + 10 <= h ? start[1] + 10 : start[1] - 10];
    }
    const b = { name: uniqueName(decl, 'bone') };
    if (k != null) b.parent = decl.bones[k].name;
    b.points = [start.map(round1), end.map(round1)];
    b.radius = round1(r);
    b.depth = depth;
    const at = k == null ? decl.bones.length : k + 1;
    decl.bones.splice(at, 0, b);
    return at;
}

// Removes bone k: its children hang from its parent, its `mocap` entry goes. The last bone stays.
export function removeBone(decl, k) {
    if (decl.bones.length <= 1) return false;
    const b = decl.bones[k];
    for (const c of decl.bones) {
        if (c.parent === b.name) setParent(decl, decl.bones.indexOf(c), b.parent ?? null);
    }
    setJoint(decl, k, '');
    decl.bones.splice(k, 1);
    return true;
}

// Inserts a point into segment `seg` of bone b at t (its radius interpolated when per point).
export function insertPoint(b, seg, t) {
    const a = b.points[seg], q = b.points[seg + 1];
    const p = [round1(a[0] + (q[0] - a[0]) * t), round1(a[1] + (q[1] - a[1]) * t)];
    b.points.splice(seg + 1, 0, p);
    if (Array.isArray(b.radius)) {
        b.radius.splice(seg + 1, 0, round1(b.radius[seg] + (b.radius[seg + 1] - b.radius[seg]) * t));
    }
    return seg + 1;
}

// Removes point i of bone b (a bone keeps two).
export function removePoint(b, i) {
    if (b.points.length <= 2) return false;
    b.points.splice(i, 1);
    if (Array.isArray(b.radius)) b.radius.splice(i, 1);
    return true;
}

// Sets the radius at point i: one number for the whole bone stays one number.
export function setRadius(b, i, r) {
    r = Math.max(1, round1(r));
    if (Array.isArray(b.radius)) b.radius[i] = r;
    else b.radius = r;
}

// Every point within `tol` px of `p` ([bone, point] pairs): a joint drawn as a parent's last
// point and its child's first moves as one.
export function pointsAt(decl, p, tol) {
    const out = [];
    decl.bones.forEach((b, k) => b.points.forEach((q, i) => {
        if (Math.hypot(q[0] - p[0], q[1] - p[1]) <= tol) out.push([k, i]);
    }));
    return out;
}
