// The sampler: a clip's keys at a time, applied to a pose. The conventions of `re2d riv
// render-ref` and `$.mesh.load` (rive-export.md §7, §10.2):
// - clip time: a looping clip wraps (`t mod duration`, negative t too); a one-shot clip holds its
//   first frame before 0 and its last after the duration;
// - a track: its first value before its first key, its last after its last key; linear between
//   keys, or held with `"interpolation": "step"`; keys at their JSON times (`re2d rig build`
//   writes them on the 60 fps grid that the `.riv` and the reference renderer quantise to);
// - a rotation key is added to the bone's rest angle; a translation key `[t, dx, dy]` to the
//   root's rest position;
// - applying at weight w moves a value towards the key's (Rive's `v ← v + (key − v)·w`, §11.5):
//   weight 1 replaces it.

/** A pose: each bone's local angle and each root's position (absolute: rest plus keys). */
export class Pose {
    constructor(bones) {
        this.bones = bones;
        this.angle = new Float64Array(bones.length);
        this.x = new Float64Array(bones.length);
        this.y = new Float64Array(bones.length);
        this.reset();
    }

    /** Back to the rest pose. */
    reset() {
        this.bones.forEach((b, k) => {
            this.angle[k] = b.angle;
            this.x[k] = b.x;
            this.y[k] = b.y;
        });
    }

    copyFrom(p) {
        this.angle.set(p.angle);
        this.x.set(p.x);
        this.y.set(p.y);
    }
}

/**
 * The draw order a clip's keys give at clip time `time` (issue 42; as `$.mesh.load` and `re2d riv
 * render-ref` read them): the last key at or before it, else the first; its part indices far to
 * near, or null for a clip without draw-order keys.
 */
export function drawOrderAt(clip, time) {
    const keys = clip.drawOrder;
    if (!keys || !keys.length) return null;
    let k = keys[0];
    for (const key of keys) {
        if (key.time <= time) k = key;
        else break;
    }
    return k.far;
}

/** The time a clip shows at `t` seconds of play: looping wraps, one-shot holds its ends. */
export function clipTime(clip, t) {
    const d = clip.duration;
    if (clip.loop) {
        const r = t % d;
        return r < 0 ? r + d : r;
    }
    return t < 0 ? 0 : t > d ? d : t;
}

/** Component `c` (of `stride` values a key) of keys at `times` sampled at `t`. */
export function sampleKeys(times, values, stride, c, t, step) {
    const n = times.length;
    if (t <= times[0]) return values[c];
    if (t >= times[n - 1]) return values[(n - 1) * stride + c];
    let lo = 0, hi = n - 1; // times[lo] <= t < times[hi]
    while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (times[mid] <= t) lo = mid; else hi = mid;
    }
    const a = values[lo * stride + c];
    if (step) return a;
    return a + (values[hi * stride + c] - a) * ((t - times[lo]) / (times[hi] - times[lo]));
}

/**
 * Applies `clip` at clip time `time` (already wrapped or held, see clipTime) to `pose` at
 * weight `w`: every keyed bone angle and root position moves by `(key − v)·w`.
 */
export function applyClip(clip, time, pose, w) {
    const bones = pose.bones;
    for (const tr of clip.tracks) {
        const k = tr.bone;
        const v = bones[k].angle + sampleKeys(tr.times, tr.values, 1, 0, time, clip.step);
        pose.angle[k] += (v - pose.angle[k]) * w;
    }
    for (const tr of clip.translations) {
        const k = tr.bone;
        const x = bones[k].x + sampleKeys(tr.times, tr.values, 2, 0, time, clip.step);
        const y = bones[k].y + sampleKeys(tr.times, tr.values, 2, 1, time, clip.step);
        pose.x[k] += (x - pose.x[k]) * w;
        pose.y[k] += (y - pose.y[k]) * w;
    }
}

/** The value `clip` gives each property it keys at its first key (Rive's Reset baseline). */
export function firstKeys(clip, pose) {
    const bones = pose.bones;
    for (const tr of clip.tracks) pose.angle[tr.bone] = bones[tr.bone].angle + tr.values[0];
    for (const tr of clip.translations) {
        pose.x[tr.bone] = bones[tr.bone].x + tr.values[0];
        pose.y[tr.bone] = bones[tr.bone].y + tr.values[1];
    }
}
