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
///
/// `trunc(v)` is in range exactly when `-2^31 - 1 < v < 2^31` (both bounds
/// are doubles), so no rounding call is needed: one compare pair and one
/// truncating conversion.
#[inline]
pub fn trunc_i32(v: f64) -> i32 {
    if v > -2147483649.0 && v < 2147483648.0 {
        // SAFETY: v is finite and its truncation fits in i32 (checked above).
        unsafe { v.to_int_unchecked::<i32>() }
    } else {
        i32::MIN
    }
}

/// 2^52: every double of at least this magnitude is an integer.
const TWO_52: f64 = 4503599627370496.0;

/// Truncation of `|x| < 2^52` through a 64-bit integer (exact: such a double
/// has at most 52 fraction bits). The sign of a zero result is not fixed.
#[inline(always)]
fn trunc_small(x: f64) -> f64 {
    // SAFETY: callers pass |x| < 2^52, which fits in i64.
    unsafe { x.to_int_unchecked::<i64>() as f64 }
}

/// C `floor`, exact for every double (±0, NaN and ±∞ included), without a
/// libm call: on baseline x86-64 (no SSE4.1 `roundsd`) `f64::floor` is an
/// out-of-line software routine.
#[inline(always)]
pub fn floor(x: f64) -> f64 {
    if x.abs() < TWO_52 {
        let t = trunc_small(x);
        let r = if t > x { t - 1.0 } else { t };
        // floor(x) has the sign of x (it is ≤ −1 for x < 0), which also
        // gives floor(−0.0) = −0.0.
        r.copysign(x)
    } else {
        x
    }
}

/// C `ceil`, exact for every double, without a libm call.
#[inline(always)]
pub fn ceil(x: f64) -> f64 {
    if x.abs() < TWO_52 {
        let t = trunc_small(x);
        let r = if t < x { t + 1.0 } else { t };
        // ceil(x) has the sign of x (≥ 1 for x > 0; ceil(−0.5) = −0.0).
        r.copysign(x)
    } else {
        x
    }
}

/// C `round` (half away from zero), exact for every double, without a libm
/// call. `x - trunc(x)` is exact, so 0.49999999999999994 rounds to 0.
#[inline(always)]
pub fn round(x: f64) -> f64 {
    if x.abs() < TWO_52 {
        let t = trunc_small(x);
        let d = x - t;
        let r = if d >= 0.5 {
            t + 1.0
        } else if d <= -0.5 {
            t - 1.0
        } else {
            t
        };
        r.copysign(x)
    } else {
        x
    }
}

/// C `fmin`: a NaN operand yields the other operand (and `a` on a tie,
/// so `fmin(0.0, -0.0)` is `0.0`, as the engine's `fmin`).
#[inline]
pub fn fmin(a: f64, b: f64) -> f64 {
    // b < a is false for a NaN b (→ a) and for ties (→ a).
    if b < a || a.is_nan() { b } else { a }
}

/// C `fmax`: a NaN operand yields the other operand (and `a` on a tie).
#[inline]
pub fn fmax(a: f64, b: f64) -> f64 {
    if b > a || a.is_nan() { b } else { a }
}

/// `trunc_i32(floor(v))` in one step: `floor(v)` fits in `i32` exactly when
/// `-2^31 <= v < 2^31`; there the truncation is corrected by one for
/// negative non-integers.
#[inline(always)]
pub fn floor_i32(v: f64) -> i32 {
    if v >= -2147483648.0 && v < 2147483648.0 {
        // SAFETY: v is finite and its truncation fits in i32 (checked above).
        let t = unsafe { v.to_int_unchecked::<i32>() };
        // t > v only when v < 0 is not an integer; then t > -2^31.
        if t as f64 > v { t - 1 } else { t }
    } else {
        i32::MIN
    }
}

/// `trunc_i32(ceil(v))` in one step: `ceil(v)` fits in `i32` exactly when
/// `-2^31 - 1 < v <= 2^31 - 1`.
#[inline(always)]
pub fn ceil_i32(v: f64) -> i32 {
    if v > -2147483649.0 && v <= 2147483647.0 {
        // SAFETY: v is finite and its truncation fits in i32 (checked above).
        let t = unsafe { v.to_int_unchecked::<i32>() };
        // t < v only when v > 0 is not an integer; then t < 2^31 - 1.
        if (t as f64) < v { t + 1 } else { t }
    } else {
        i32::MIN
    }
}

/// `trunc_i32(fmax(0, floor(v)))` in one step (the low corner of a box
/// clamped to the grid): 0 for NaN and `v < 1`, `i32::MIN` when
/// `floor(v) ≥ 2^31`, else the truncation.
#[inline(always)]
pub fn floor_clamp0_i32(v: f64) -> i32 {
    if v >= 2147483648.0 {
        i32::MIN
    } else if v > 0.0 {
        // SAFETY: 0 < v < 2^31.
        unsafe { v.to_int_unchecked::<i32>() }
    } else {
        0
    }
}

/// `trunc_i32(fmin(last, ceil(v)))` in one step, for an integral
/// `last` in `[0, 2^31)` (the high corner of a box clamped to the grid):
/// `last` for NaN and `v > last − 1`, else `ceil_i32(v)`.
#[inline(always)]
pub fn ceil_clamp_i32(v: f64, last: i32) -> i32 {
    if v <= (last - 1) as f64 {
        ceil_i32(v)
    } else {
        last
    }
}

/// C `fmin(k, x)` for a constant `k` that is not NaN: `x` when `x < k`,
/// else `k` (a NaN `x` and ties give `k`, as `fmin` does).
#[inline(always)]
pub fn fmin_k(k: f64, x: f64) -> f64 {
    if x < k { x } else { k }
}

/// C `fmax(k, x)` for a constant `k` that is not NaN: `x` when `x > k`,
/// else `k` (a NaN `x` and ties give `k`, as `fmax` does).
#[inline(always)]
pub fn fmax_k(k: f64, x: f64) -> f64 {
    if x > k { x } else { k }
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
    match b {
        Some(b) if weight != 0 => blend_point_dq(
            a,
            rigid_dual(a).as_ref(),
            Some((b, rigid_dual(b).as_ref())),
            weight,
            p,
        ),
        _ => mat_apply(a, p),
    }
}

/// [`blend_point`] with the rigid decompositions of `a` and `b` already
/// computed (`da = rigid_dual(a)`, and likewise for `b`), so a renderer can
/// decompose each part matrix once per frame. Same arithmetic, same result.
pub fn blend_point_dq(
    a: &Mat3x4,
    da: Option<&DualQuat>,
    b: Option<(&Mat3x4, Option<&DualQuat>)>,
    weight: u8,
    p: [f64; 3],
) -> [f64; 3] {
    let out = mat_apply(a, p);
    let (b, db) = match b {
        Some(b) if weight != 0 => b,
        _ => return out,
    };
    let w = weight as f64 / 255.0;
    let (da, db) = match (da, db) {
        (Some(da), Some(db)) => (da, db),
        _ => {
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

/// The point of segment `a`→`b` nearest to `p`: its parameter `t` in
/// `[0, 1]` (0 on a degenerate segment) and the segment's squared length,
/// evaluated as `((p−a)·(b−a)) / |b−a|²` clamped. Shared by the rig's tubes
/// and weight ramps and the `.riv` ramp control.
#[inline]
pub fn nearest_on_segment(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> (f64, f64) {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let l2 = dx * dx + dy * dy;
    let t = if l2 > 0.0 {
        (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (t, l2)
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

    /// Doubles that exercise every branch of floor/ceil/round: signed zeros,
    /// halves, neighbours of integers and of 2^52, huge, subnormal, NaN, ±∞,
    /// plus pseudo-random bit patterns and values in the renderers' ranges.
    fn rounding_inputs() -> Vec<f64> {
        let mut v = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.5,
            -1.5,
            2.5,
            -2.5,
            0.49999999999999994,
            -0.49999999999999994,
            1.0,
            -1.0,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            5e-324,
            -5e-324,
            4503599627370495.5,
            -4503599627370495.5,
            4503599627370496.0,
            -4503599627370496.0,
            4503599627370497.0,
            9007199254740993.0,
            1e300,
            -1e300,
            f64::MAX,
            f64::MIN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
            2147483647.5,
            -2147483648.5,
            255.5,
            254.49999999999997,
        ];
        for base in [
            0.0f64,
            1.0,
            2.0,
            3.0,
            4.0,
            255.0,
            1023.0,
            2147483648.0,
            4503599627370496.0,
        ] {
            for sign in [1.0, -1.0] {
                let b = base * sign;
                v.extend([
                    b.next_up(),
                    b.next_down(),
                    (b + 0.5).next_up(),
                    (b + 0.5).next_down(),
                ]);
            }
        }
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..200_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            v.push(match i % 4 {
                0 => f64::from_bits(s),
                1 => (s >> 11) as f64 / (1u64 << 53) as f64 * 1100.0 - 50.0,
                2 => ((s >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 2e7,
                _ => ((s >> 40) as f64 - (1u64 << 23) as f64) / 8.0,
            });
        }
        v
    }

    #[test]
    fn inline_rounding_equals_libm_bit_for_bit() {
        for x in rounding_inputs() {
            for (name, got, want) in [
                ("floor", floor(x), x.floor()),
                ("ceil", ceil(x), x.ceil()),
                ("round", round(x), x.round()),
            ] {
                let same = got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan());
                assert!(
                    same,
                    "{name}({x:e} = {:#x}): {got:e}, libm {want:e}",
                    x.to_bits()
                );
            }
        }
    }

    #[test]
    fn fused_floor_ceil_conversions_equal_the_composition() {
        let edges = [
            -2147483649.0,
            (-2147483649.0f64).next_up(),
            (-2147483648.0f64).next_down(),
            -2147483648.0,
            -2147483647.5,
            2147483646.5,
            2147483647.0,
            (2147483647.0f64).next_up(),
            (2147483648.0f64).next_down(),
            2147483648.0,
        ];
        for x in rounding_inputs().into_iter().chain(edges) {
            assert_eq!(floor_i32(x), trunc_i32(floor(x)), "floor_i32({x:e})");
            assert_eq!(ceil_i32(x), trunc_i32(ceil(x)), "ceil_i32({x:e})");
        }
    }

    #[test]
    fn fused_box_clamps_equal_the_composition() {
        let more = [
            -0.5, 0.5, 0.99, 1.0, 1.5, 1022.5, 1023.0, 1023.2, 1024.0, 511.0, 511.5, 4e9,
        ];
        for x in rounding_inputs().into_iter().chain(more) {
            assert_eq!(
                floor_clamp0_i32(x),
                trunc_i32(fmax_k(0.0, floor(x))),
                "floor_clamp0_i32({x:e})"
            );
            for last in [0, 1, 511, 1023] {
                assert_eq!(
                    ceil_clamp_i32(x, last),
                    trunc_i32(fmin_k(last as f64, ceil(x))),
                    "ceil_clamp_i32({x:e}, {last})"
                );
            }
        }
    }

    #[test]
    fn trunc_i32_equals_the_reference_definition() {
        let reference = |v: f64| {
            let t = v.trunc();
            if t >= -2147483648.0 && t <= 2147483647.0 {
                t as i32
            } else {
                i32::MIN
            }
        };
        let edges = [
            -2147483649.0,
            (-2147483649.0f64).next_up(),
            -2147483648.0,
            2147483647.0,
            2147483647.9999998,
            2147483648.0,
            (2147483648.0f64).next_down(),
        ];
        for x in rounding_inputs().into_iter().chain(edges) {
            assert_eq!(trunc_i32(x), reference(x), "trunc_i32({x:e})");
        }
    }

    #[test]
    fn constant_operand_min_max_equal_fmin_fmax() {
        let xs = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            3.0,
            255.0,
            256.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        for k in [0.0, -0.0, 1.0, 3.0, 255.0, 1023.0] {
            for x in xs {
                assert_eq!(
                    fmin_k(k, x).to_bits(),
                    fmin(k, x).to_bits(),
                    "fmin({k}, {x})"
                );
                assert_eq!(
                    fmax_k(k, x).to_bits(),
                    fmax(k, x).to_bits(),
                    "fmax({k}, {x})"
                );
            }
        }
    }

    #[test]
    fn fmin_fmax_follow_the_reference_definition() {
        // The definition: a NaN yields the other operand, a tie yields a.
        let fmin_ref = |a: f64, b: f64| {
            if a.is_nan() {
                b
            } else if b.is_nan() || a <= b {
                a
            } else {
                b
            }
        };
        let fmax_ref = |a: f64, b: f64| {
            if a.is_nan() {
                b
            } else if b.is_nan() || a >= b {
                a
            } else {
                b
            }
        };
        let xs = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            2.5,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1e-300,
        ];
        for a in xs {
            for b in xs {
                let same =
                    |x: f64, y: f64| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan());
                assert!(same(fmin(a, b), fmin_ref(a, b)), "fmin({a}, {b})");
                assert!(same(fmax(a, b), fmax_ref(a, b)), "fmax({a}, {b})");
            }
        }
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
