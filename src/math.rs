// re2d — numeric helpers shared by every renderer (spec: rotsprite-render.md §0, §1).
//
//! Exact numeric building blocks: degree conversion, C-style conversions,
//! angle normalisation, 3×4 affine matrices and the rigid (dual-quaternion)
//! decomposition and blend of two part matrices.
//!
//! Every formula is evaluated in the order the spec writes it (left to right,
//! one rounding per operation, never `mul_add`), because the results must be
//! bit-identical to the existing C library. `sin`/`cos`/`atan2`/`acos` are the
//! platform libm (std calls it on `*-linux-gnu`).

/// π as the nearest double.
pub const PI: f64 = std::f64::consts::PI;

/// Degrees to radians as the engine computes it: `(a*PI)/180`, two roundings.
/// (Not `a*(PI/180)` and not `f64::to_radians`.)
#[inline]
pub fn rad(a: f64) -> f64 {
    a * PI / 180.0
}

/// C `(int)` of a double on x86-64: truncation toward zero; NaN or a value
/// whose truncation lies outside the `i32` range gives `i32::MIN`.
#[inline]
pub fn trunc_i32(v: f64) -> i32 {
    let t = v.trunc();
    if t >= -2147483648.0 && t <= 2147483647.0 {
        t as i32
    } else {
        i32::MIN
    }
}

/// C `fmin`: a NaN operand yields the other operand.
#[inline]
pub fn fmin(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a <= b {
        a
    } else {
        b
    }
}

/// C `fmax`: a NaN operand yields the other operand.
#[inline]
pub fn fmax(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a >= b {
        a
    } else {
        b
    }
}

/// Pose normalisation (rotsprite-v1.md §3, rotsprite-render.md §0.4).
///
/// Returns `None` for a non-finite angle; otherwise yaw wrapped to
/// `[-180, 180)` (never −0.0) and pitch clamped to `[-75, 75]`.
///
/// ```
/// use re2d::math::normalise_angles;
/// assert_eq!(normalise_angles(540.0, 100.0), Some((-180.0, 75.0)));
/// assert_eq!(normalise_angles(-190.0, -10.0), Some((170.0, -10.0)));
/// assert_eq!(normalise_angles(f64::INFINITY, 0.0), None);
/// ```
pub fn normalise_angles(yaw: f64, pitch: f64) -> Option<(f64, f64)> {
    if !yaw.is_finite() || !pitch.is_finite() {
        return None;
    }
    let mut y = yaw % 360.0;
    if y >= 180.0 {
        y -= 360.0;
    }
    if y < -180.0 {
        y += 360.0;
    }
    if y == 0.0 {
        y = 0.0;
    }
    Some((y, fmax(-75.0, fmin(75.0, pitch))))
}

/// Luminance weight of an RGBA byte quadruple: `54R + 183G + 19B`.
#[inline]
pub fn luminance(c: [u8; 4]) -> i32 {
    54 * c[0] as i32 + 183 * c[1] as i32 + 19 * c[2] as i32
}

/// The colour tie-break shared by both renderers: on an exact depth and
/// distance tie, a new colour replaces `old` only when it is brighter, or
/// equally bright and lexicographically smaller.
#[inline]
pub fn colour_loses(new: [u8; 4], old: [u8; 4]) -> bool {
    let (ln, lo) = (luminance(new), luminance(old));
    ln < lo || (ln == lo && new >= old)
}

/// A 3×4 affine matrix, row-major: `m[4*r + c]`, column 3 is the translation.
pub type Mat3x4 = [f64; 12];

/// `M·P` with each row evaluated `((a*x + b*y) + c*z) + t`.
#[inline]
pub fn mat_apply(m: &Mat3x4, p: [f64; 3]) -> [f64; 3] {
    [
        m[0] * p[0] + m[1] * p[1] + m[2] * p[2] + m[3],
        m[4] * p[0] + m[5] * p[1] + m[6] * p[2] + m[7],
        m[8] * p[0] + m[9] * p[1] + m[10] * p[2] + m[11],
    ]
}

/// A rigid transform as a unit quaternion `q = (x, y, z, w)` and its dual part.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DualQuat {
    /// Rotation quaternion (x, y, z, w), not re-normalised.
    pub q: [f64; 4],
    /// Dual (translation) part.
    pub d: [f64; 4],
}

/// Rigid decomposition `DQ(M)` (rotsprite-render.md §1.1): `None` when the
/// 3×3 part is not orthonormal within 1e-5, is a reflection, or is degenerate.
pub fn rigid_dual(m: &Mat3x4) -> Option<DualQuat> {
    let at = |r: usize, c: usize| m[4 * r + c];
    for (i, j) in [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)] {
        let dot = at(0, i) * at(0, j) + at(1, i) * at(1, j) + at(2, i) * at(2, j);
        let target = if i == j { 1.0 } else { 0.0 };
        if (dot - target).abs() > 1e-5 {
            return None;
        }
    }
    let det = at(0, 0) * (at(1, 1) * at(2, 2) - at(1, 2) * at(2, 1))
        - at(0, 1) * (at(1, 0) * at(2, 2) - at(1, 2) * at(2, 0))
        + at(0, 2) * (at(1, 0) * at(2, 1) - at(1, 1) * at(2, 0));
    if det < 0.0 {
        return None;
    }
    let mut q = [0.0f64; 4];
    let t = at(0, 0) + at(1, 1) + at(2, 2);
    if t > 0.0 {
        let s = (t + 1.0).sqrt() * 2.0;
        q[3] = s * 0.25;
        q[0] = (at(2, 1) - at(1, 2)) / s;
        q[1] = (at(0, 2) - at(2, 0)) / s;
        q[2] = (at(1, 0) - at(0, 1)) / s;
    } else {
        let mut i = if at(1, 1) > at(0, 0) { 1 } else { 0 };
        if at(2, 2) > at(i, i) {
            i = 2;
        }
        let j = (i + 1) % 3;
        let k = (i + 2) % 3;
        let s = fmax(0.0, 1.0 + at(i, i) - at(j, j) - at(k, k)).sqrt() * 2.0;
        if s < 1e-12 {
            return None;
        }
        q[i] = s * 0.25;
        q[j] = (at(j, i) + at(i, j)) / s;
        q[k] = (at(k, i) + at(i, k)) / s;
        q[3] = (at(k, j) - at(j, k)) / s;
    }
    let (x, y, z) = (m[3], m[7], m[11]);
    let d = [
        0.5 * (x * q[3] + y * q[2] - z * q[1]),
        0.5 * (-x * q[2] + y * q[3] + z * q[0]),
        0.5 * (x * q[1] - y * q[0] + z * q[3]),
        -0.5 * (x * q[0] + y * q[1] + z * q[2]),
    ];
    Some(DualQuat { q, d })
}

/// Blend of two part matrices applied to a point (rotsprite-render.md §1.2,
/// steps 1 and 3–9): `A·P` blended toward `B·P` with weight `w = weight/255`.
///
/// Rigid pairs blend as dual quaternions (shortest arc), so the point keeps
/// its distance from the joint; a non-rigid matrix on either side falls back
/// to a linear blend of the two affine results. `weight == 0` or `b == None`
/// gives exactly `A·P`.
pub fn blend_point(a: &Mat3x4, b: Option<&Mat3x4>, weight: u8, p: [f64; 3]) -> [f64; 3] {
    let out = mat_apply(a, p);
    let b = match b {
        Some(b) if weight != 0 => b,
        _ => return out,
    };
    let w = weight as f64 / 255.0;
    let (da, db) = match rigid_dual(a).and_then(|da| rigid_dual(b).map(|db| (da, db))) {
        Some(pair) => pair,
        None => {
            let bp = mat_apply(b, p);
            return [
                out[0] * (1.0 - w) + w * bp[0],
                out[1] * (1.0 - w) + w * bp[1],
                out[2] * (1.0 - w) + w * bp[2],
            ];
        }
    };
    let (qa, qb) = (da.q, db.q);
    let dot = qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3];
    let sign = if dot < 0.0 { -1.0 } else { 1.0 };
    let mut q = [0.0f64; 4];
    let mut d = [0.0f64; 4];
    for i in 0..4 {
        q[i] = (1.0 - w) * qa[i] + w * sign * qb[i];
        d[i] = (1.0 - w) * da.d[i] + w * sign * db.d[i];
    }
    let norm = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    if norm < 1e-12 {
        return out;
    }
    for i in 0..4 {
        q[i] /= norm;
        d[i] /= norm;
    }
    let [px, py, pz] = p;
    let [q0, q1, q2, q3] = q;
    let [d0, d1, d2, d3] = d;
    let tx = 2.0 * (q1 * pz - q2 * py);
    let ty = 2.0 * (q2 * px - q0 * pz);
    let tz = 2.0 * (q0 * py - q1 * px);
    [
        px + q3 * tx + q1 * tz - q2 * ty + 2.0 * (-d3 * q0 + d0 * q3 - d1 * q2 + d2 * q1),
        py + q3 * ty + q2 * tx - q0 * tz + 2.0 * (-d3 * q1 + d0 * q2 + d1 * q3 - d2 * q0),
        pz + q3 * tz + q0 * ty - q1 * tx + 2.0 * (-d3 * q2 - d0 * q1 + d1 * q0 + d2 * q3),
    ]
}

#[cfg(test)]
// Spec values are quoted verbatim with 17 significant digits.
#[allow(clippy::excessive_precision, clippy::approx_constant)]
mod tests {
    use super::*;

    const ID: Mat3x4 = [1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0.];

    #[test]
    fn trunc_follows_x86_conversion() {
        assert_eq!(trunc_i32(-1.5), -1);
        assert_eq!(trunc_i32(2147483647.9), 2147483647);
        assert_eq!(trunc_i32(2147483648.0), i32::MIN);
        assert_eq!(trunc_i32(-2147483648.9), i32::MIN);
        assert_eq!(trunc_i32(f64::NAN), i32::MIN);
        assert_eq!(trunc_i32(f64::INFINITY), i32::MIN);
    }

    #[test]
    fn fmin_fmax_nan_rule() {
        assert_eq!(fmin(f64::NAN, 3.0), 3.0);
        assert_eq!(fmax(3.0, f64::NAN), 3.0);
        assert_eq!(fmin(1.0, 2.0), 1.0);
        assert_eq!(fmax(1.0, 2.0), 2.0);
    }

    #[test]
    fn rad_is_two_roundings() {
        // 0.5° differs between (a*PI)/180 and a*(PI/180) for some inputs;
        // the spec's form is the product first.
        for i in 0..720 {
            let a = i as f64 * 0.5;
            assert_eq!(rad(a).to_bits(), ((a * PI) / 180.0).to_bits());
        }
    }

    #[test]
    fn normalise_reference_table() {
        let cases: [(f64, f64, f64, f64); 9] = [
            (-0.0, -0.0, 0.0, -0.0),
            (-720.0, 80.0, 0.0, 75.0),
            (540.0, -80.0, -180.0, -75.0),
            (-540.0, 0.0, -180.0, 0.0),
            (180.0, 0.0, -180.0, 0.0),
            (-180.0, 0.0, -180.0, 0.0),
            (-190.0, 0.0, 170.0, 0.0),
            (359.5, 75.0, -0.5, 75.0),
            (725.0, -75.0, 5.0, -75.0),
        ];
        for (y, p, ey, ep) in cases {
            let (oy, op) = normalise_angles(y, p).unwrap();
            assert_eq!(oy.to_bits(), ey.to_bits(), "yaw {y}");
            assert_eq!(op.to_bits(), ep.to_bits(), "pitch {p}");
        }
        assert!(normalise_angles(f64::NAN, 0.0).is_none());
        assert!(normalise_angles(0.0, f64::NEG_INFINITY).is_none());
    }

    #[test]
    fn dq_reference_values() {
        let m = [0., -1., 0., 3., 1., 0., 0., -2., 0., 0., 1., 5.];
        let dq = rigid_dual(&m).unwrap();
        assert_eq!(dq.q, [0.0, 0.0, 0.70710678118654746, 0.70710678118654757]);
        assert_eq!(
            dq.d,
            [
                0.35355339059327395,
                -1.7677669529663689,
                1.7677669529663689,
                -1.7677669529663687
            ]
        );
        let m = [1., 0., 0., 1., 0., -1., 0., 2., 0., 0., -1., 3.];
        let dq = rigid_dual(&m).unwrap();
        assert_eq!(dq.q, [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(dq.d, [0.0, 1.5, -1.0, -0.5]);
        let reflect = [-1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0.];
        assert!(rigid_dual(&reflect).is_none());
    }

    #[test]
    fn blend_reference_values() {
        let rot = [0., -1., 0., 0., 1., 0., 0., 0., 0., 0., 1., 0.];
        let p = [10.0, 0.0, 0.0];
        assert_eq!(
            blend_point(&ID, Some(&rot), 128, p),
            [7.0480585404305973, 7.0940024535281436, 0.0]
        );
        let scale2 = [2., 0., 0., 0., 0., 2., 0., 0., 0., 0., 2., 0.];
        assert_eq!(
            blend_point(&ID, Some(&scale2), 128, p),
            [15.019607843137255, 0.0, 0.0]
        );
        // A reflection is not rigid: linear fallback gives the same formula.
        let mirror = [-1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0.];
        let w = 128.0 / 255.0;
        let lin = 10.0 * (1.0 - w) + w * -10.0;
        assert_eq!(blend_point(&ID, Some(&mirror), 128, p), [lin, 0.0, 0.0]);
        assert_eq!(blend_point(&rot, Some(&ID), 0, p), mat_apply(&rot, p));
    }
}
