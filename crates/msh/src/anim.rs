// re2d MSH — animation sampling: frame index, key selection, segment sampling, the engine's quaternion interpolator, two-sample blend (spec: msh.md §5.2–§5.5, §5.7).
//! Everything is computed in `f32` like the engine, except the frame index,
//! which is `round_half_even(f64(t) − 0.5)` (§5.3). Quaternions are
//! `(x, y, z, w)` in file order.
//!
//! Nodes the tolerant profile made static (check 16) and nodes without a map
//! always take the FALLBACK path. A fallback key past Res8 (only possible in
//! a tolerant model) gives the identity pose: position 0, quaternion
//! `(0, 0, 0, 1)`.

use super::model::Model;
use super::tables::{Key, NONE16};

/// Decoded local pose: position and quaternion `(x, y, z, w)` (not normalised).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// Translation.
    pub pos: [f32; 3],
    /// Rotation quaternion `(x, y, z, w)`.
    pub q: [f32; 4],
}

impl Pose {
    /// Position 0, quaternion `(0, 0, 0, 1)`.
    pub const IDENTITY: Pose = Pose {
        pos: [0.0; 3],
        q: [0.0, 0.0, 0.0, 1.0],
    };

    /// A key's pose, verbatim.
    pub fn of_key(k: &Key) -> Pose {
        Pose {
            pos: k.pos,
            q: k.quat(),
        }
    }
}

/// How a key was chosen (§5.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyPath {
    /// `Res8[fallback_key]` used verbatim.
    Fallback,
    /// Interpolation between keys `m` and `m + 1`.
    Segment,
}

/// Result of key selection for one node at one time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    /// The frame index (`None` for NaN and `|t| ≥ 2^31`).
    pub frame: Option<i64>,
    /// The fallback key or the segment's first key `m`.
    pub key: u16,
    /// Which rule chose it.
    pub path: KeyPath,
}

/// A sampled node: the selection and the resulting local pose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Key selection.
    pub selection: Selection,
    /// Local pose.
    pub pose: Pose,
}

const TWO_31: f32 = 2_147_483_648.0;

/// Frame index of time `t` (§5.3): `round_half_even(f64(t) − 0.5)`; `None`
/// (the fallback key) for NaN and for `|t| ≥ 2^31` (re2d rule).
pub fn frame_index(t: f32) -> Option<i64> {
    if t.is_nan() || t.abs() >= TWO_31 {
        return None;
    }
    Some((t as f64 - 0.5).round_ties_even() as i64)
}

/// Key selection for `node` at `t` (§5.4); `None` for a node that does not exist.
pub fn select(m: &Model<'_>, node: usize, t: f32) -> Option<Selection> {
    let n = m.node(node)?;
    let fb = n.fallback_key;
    let frame = frame_index(t);
    let fallback = Selection {
        frame,
        key: fb,
        path: KeyPath::Fallback,
    };
    let Some(f) = frame else {
        return Some(fallback);
    };
    if f < 0 || f >= m.frame_count() as i64 || n.anim_map_start == NONE16 || !m.is_animated(node) {
        return Some(fallback);
    }
    let Some(v) = m.map_word(n.anim_map_start as usize + f as usize) else {
        return Some(fallback);
    };
    if v >= fb {
        return Some(fallback);
    }
    Some(Selection {
        frame,
        key: v,
        path: KeyPath::Segment,
    })
}

/// The engine's quaternion interpolator (§5.5), in `f32`, not normalised.
pub fn interpolate(q0: [f32; 4], q1: [f32; 4], alpha: f32) -> [f32; 4] {
    // the engine keeps [w, x, y, z] and sums in that order
    let mut dot = q0[3] * q1[3] + q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2];
    let mut sign = 1.0f32;
    if dot < 0.0 {
        dot = -dot;
        sign = -1.0;
    }
    let (w0, mut w1);
    if 1.0 - dot <= 1e-5_f32 {
        w0 = 1.0 - alpha;
        w1 = alpha;
    } else {
        let theta = dot.acos();
        w1 = (alpha * theta).sin() / theta.sin();
        w0 = (alpha * theta).cos() - w1 * dot;
    }
    w1 *= sign;
    [
        w0 * q0[0] + w1 * q1[0],
        w0 * q0[1] + w1 * q1[1],
        w0 * q0[2] + w1 * q1[2],
        w0 * q0[3] + w1 * q1[3],
    ]
}

/// The static pose of `node`: `Res8[fallback_key]` (identity when the key is missing).
pub fn static_pose(m: &Model<'_>, node: usize) -> Pose {
    m.node(node)
        .and_then(|n| m.key(n.fallback_key as usize))
        .map_or(Pose::IDENTITY, |k| Pose::of_key(&k))
}

/// Samples `node` at time `t` (§5.4, §5.5); `None` for a node that does not exist.
pub fn sample(m: &Model<'_>, node: usize, t: f32) -> Option<Sample> {
    let sel = select(m, node, t)?;
    let pose = match sel.path {
        KeyPath::Fallback => m
            .key(sel.key as usize)
            .map_or(Pose::IDENTITY, |k| Pose::of_key(&k)),
        KeyPath::Segment => {
            let k0 = m.key(sel.key as usize);
            let k1 = m.key(sel.key as usize + 1);
            match (k0, k1) {
                (Some(k0), Some(k1)) => segment(&k0, &k1, t),
                (Some(k0), None) => Pose::of_key(&k0),
                _ => Pose::IDENTITY,
            }
        }
    };
    Some(Sample {
        selection: sel,
        pose,
    })
}

/// Interpolates between two keys at `t` (§5.5 SEGMENT).
pub fn segment(k0: &Key, k1: &Key, t: f32) -> Pose {
    if t == k0.time {
        return Pose::of_key(k0);
    }
    if t == k1.time {
        return Pose::of_key(k1);
    }
    if k1.time == k0.time {
        return Pose::of_key(k0); // invalid data (tolerant rule)
    }
    let a = (t - k0.time) / (k1.time - k0.time);
    let p = |i: usize| k0.pos[i] + (k1.pos[i] - k0.pos[i]) * a;
    Pose {
        pos: [p(0), p(1), p(2)],
        q: interpolate(k0.quat(), k1.quat(), a),
    }
}

/// Two-sample blend of `node` between times `ta` and `tb` with factor `b`
/// (§5.7). Neither sample valid → the static pose (re2d rule).
pub fn blend(m: &Model<'_>, node: usize, ta: f32, tb: f32, b: f32) -> Option<Pose> {
    let has_a = b < 1.0 && ta >= 0.0;
    let has_b = b > 0.0 && tb >= 0.0;
    Some(match (has_a, has_b) {
        (true, false) => sample(m, node, ta)?.pose,
        (false, true) => sample(m, node, tb)?.pose,
        (false, false) => {
            m.node(node)?;
            static_pose(m, node)
        }
        (true, true) => {
            let a = sample(m, node, ta)?.pose;
            let bb = sample(m, node, tb)?.pose;
            blend_poses(&a, &bb, b)
        }
    })
}

/// The "both valid" branch of §5.7.
pub fn blend_poses(a: &Pose, b: &Pose, f: f32) -> Pose {
    let (qa, mut qb) = (a.q, b.q);
    let sum2: f32 = (0..4).map(|i| (qa[i] + qb[i]) * (qa[i] + qb[i])).sum();
    let diff2: f32 = (0..4).map(|i| (qa[i] - qb[i]) * (qa[i] - qb[i])).sum();
    if sum2 < diff2 {
        qb = qb.map(|v| -v);
    }
    let p = |i: usize| (1.0 - f) * a.pos[i] + f * b.pos[i];
    Pose {
        pos: [p(0), p(1), p(2)],
        q: interpolate(qa, qb, f),
    }
}
