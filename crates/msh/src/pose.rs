// re2d MSH — the engine's pose matrix, world matrices parent before child, glTF rotation (spec: msh.md §5.6, §7.2).
//! Matrices are row-major `m0..m15` acting on column points
//! (`x' = m0·x + m1·y + m2·z + m3`), translation in `m3, m7, m11`. The
//! rotation block is the **transpose** of the textbook matrix of `q`
//! (the format documents' reading of the engine; Open question 1), built
//! without normalising `q` — [`pose_matrix`] is the one place that choice
//! lives. glTF's textbook convention therefore gets the normalised
//! conjugate ([`gltf_rotation`]).

use super::anim::{Pose, sample, static_pose};
use super::model::Model;

/// Row-major 4×4 matrix `m0..m15`.
pub type Mat4 = [f32; 16];

/// The identity matrix.
pub const IDENTITY: Mat4 = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

/// The engine's local matrix of a pose (§5.6), `q = (x, y, z, w)` not normalised.
pub fn pose_matrix(p: &Pose) -> Mat4 {
    let [x, y, z, w] = p.q;
    let mut m = IDENTITY;
    m[0] = 1.0 - 2.0 * (y * y + z * z);
    m[1] = 2.0 * (x * y + w * z);
    m[2] = 2.0 * (x * z - w * y);
    m[4] = 2.0 * (x * y - w * z);
    m[5] = 1.0 - 2.0 * (x * x + z * z);
    m[6] = 2.0 * (y * z + w * x);
    m[8] = 2.0 * (x * z + w * y);
    m[9] = 2.0 * (y * z - w * x);
    m[10] = 1.0 - 2.0 * (x * x + y * y);
    m[3] = p.pos[0];
    m[7] = p.pos[1];
    m[11] = p.pos[2];
    m
}

/// `a · b`.
pub fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut r = [0.0f32; 16];
    for i in 0..4 {
        for j in 0..4 {
            r[4 * i + j] = (0..4).map(|k| a[4 * i + k] * b[4 * k + j]).sum();
        }
    }
    r
}

/// Applies `m` to a point.
pub fn transform_point(m: &Mat4, p: [f32; 3]) -> [f32; 3] {
    [
        m[0] * p[0] + m[1] * p[1] + m[2] * p[2] + m[3],
        m[4] * p[0] + m[5] * p[1] + m[6] * p[2] + m[7],
        m[8] * p[0] + m[9] * p[1] + m[10] * p[2] + m[11],
    ]
}

/// Applies the upper 3×3 of `m` to a direction.
pub fn transform_dir(m: &Mat4, v: [f32; 3]) -> [f32; 3] {
    [
        m[0] * v[0] + m[1] * v[1] + m[2] * v[2],
        m[4] * v[0] + m[5] * v[1] + m[6] * v[2],
        m[8] * v[0] + m[9] * v[1] + m[10] * v[2],
    ]
}

/// World matrices `W[n] = W[parent] · L[n]` (`L[n]` for roots and for every
/// node of a flattened model), parents first (§5.6).
pub fn world_matrices(m: &Model<'_>, poses: &[Pose]) -> Vec<Mat4> {
    let mut w: Vec<Mat4> = Vec::with_capacity(poses.len());
    for (i, p) in poses.iter().enumerate() {
        let l = pose_matrix(p);
        let wm = match m.parent(i) {
            Some(par) if par < w.len() => mul(&w[par], &l),
            _ => l,
        };
        w.push(wm);
    }
    w
}

/// Local static poses of every node (`Res8[fallback_key]`).
pub fn static_poses(m: &Model<'_>) -> Vec<Pose> {
    (0..m.node_count()).map(|n| static_pose(m, n)).collect()
}

/// Local poses of every node sampled at `t`.
pub fn poses_at(m: &Model<'_>, t: f32) -> Vec<Pose> {
    (0..m.node_count())
        .map(|n| sample(m, n, t).map_or_else(|| static_pose(m, n), |s| s.pose))
        .collect()
}

/// The glTF (textbook) rotation whose matrix equals [`pose_matrix`]'s
/// rotation block: the normalised conjugate `(−x, −y, −z, w) / |q|`
/// (identity for a zero `q`), and whether `|q|` is off 1 by more than 1e-3
/// (the engine's matrix then also scales, which glTF TRS cannot express).
pub fn gltf_rotation(q: [f32; 4]) -> ([f32; 4], bool) {
    let n2: f64 = q.iter().map(|&v| v as f64 * v as f64).sum();
    let n = n2.sqrt();
    if n == 0.0 {
        return ([0.0, 0.0, 0.0, 1.0], false); // the engine's matrix is the identity too
    }
    if !n.is_finite() {
        return ([0.0, 0.0, 0.0, 1.0], true);
    }
    let g = [
        (-q[0] as f64 / n) as f32,
        (-q[1] as f64 / n) as f32,
        (-q[2] as f64 / n) as f32,
        (q[3] as f64 / n) as f32,
    ];
    (g, (n - 1.0).abs() > 1e-3)
}

/// The textbook (column-vector) rotation matrix of a unit quaternion, row-major;
/// used by tests to check [`gltf_rotation`] against [`pose_matrix`].
pub fn textbook_matrix(q: [f32; 4]) -> Mat4 {
    let [x, y, z, w] = q;
    let mut m = IDENTITY;
    m[0] = 1.0 - 2.0 * (y * y + z * z);
    m[1] = 2.0 * (x * y - w * z);
    m[2] = 2.0 * (x * z + w * y);
    m[4] = 2.0 * (x * y + w * z);
    m[5] = 1.0 - 2.0 * (x * x + z * z);
    m[6] = 2.0 * (y * z - w * x);
    m[8] = 2.0 * (x * z - w * y);
    m[9] = 2.0 * (y * z + w * x);
    m[10] = 1.0 - 2.0 * (x * x + y * y);
    m
}
