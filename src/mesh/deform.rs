//! Skinning a [`MeshPart`] into an 8-float vertex buffer (spec js-mesh.md §7)
//! plus the re2d rigid (dual-number) blend.
//!
//! Per frame the caller resolves each part bone once into a [`BoneDelta`]
//! (current and rest start/angle); the vertex loop then touches only native
//! memory and allocates nothing. [`skin_vertex`] is the per-vertex step, shared
//! by [`deform_part`] and the JS host's one-pass loop over live JS values
//! (`qjs/src/mesh.rs`); [`unroll_index`] / [`unroll_block`] are §8.4's index rule.

use super::part::{Blend, MeshPart};

/// Rest → current motion of one bone, precomputed once per frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BoneDelta {
    /// Both poses have this bone (otherwise its pairs are skipped, §7).
    pub valid: bool,
    /// Current start.
    pub cur: (f64, f64),
    /// Rest start.
    pub rest: (f64, f64),
    /// `cos(cur.angle − rest.angle)`.
    pub cos: f64,
    /// `sin(cur.angle − rest.angle)`.
    pub sin: f64,
    /// Rigid motion as a 2D dual number: rotor `(w, z)` = half-angle
    /// cos/sin, dual part `(dx, dy)` = ½·t·rotor.
    pub dq: [f64; 4],
}

impl BoneDelta {
    /// A bone missing from either pose.
    pub const MISSING: BoneDelta = BoneDelta {
        valid: false,
        cur: (0.0, 0.0),
        rest: (0.0, 0.0),
        cos: 1.0,
        sin: 0.0,
        dq: [1.0, 0.0, 0.0, 0.0],
    };

    /// Motion from the rest start/angle to the current start/angle.
    pub fn new(cur: (f64, f64, f64), rest: (f64, f64, f64)) -> Self {
        let da = cur.2 - rest.2;
        let (c, s) = (da.cos(), da.sin());
        // v' = R·(v − rest) + cur = R·v + t
        let tx = cur.0 - (c * rest.0 - s * rest.1);
        let ty = cur.1 - (s * rest.0 + c * rest.1);
        let (w, z) = ((da * 0.5).cos(), (da * 0.5).sin());
        BoneDelta {
            valid: true,
            cur: (cur.0, cur.1),
            rest: (rest.0, rest.1),
            cos: c,
            sin: s,
            dq: [w, z, 0.5 * (w * tx + z * ty), 0.5 * (w * ty - z * tx)],
        }
    }
}

/// §7 for one vertex: `pairs` are the vertex's `(bone, weight)` pairs whose
/// bone is in both poses (`deltas[bone].valid`), in list order (the engine
/// skips the others).
///
/// [`Blend::Linear`] is the engine's blend with its operation order (so the
/// result is bit-identical to its JS): `total`, `dx`, `dy` summed pair by
/// pair, the vertex moved by `d / total` only when `total > 0.0001`.
/// [`Blend::Rigid`] blends the bone motions as dual numbers when at least two
/// pairs count, `total > 0.0001` and the blended rotor is not degenerate;
/// otherwise it falls back to the linear result exactly.
#[inline]
pub fn skin_vertex(
    vx: f64,
    vy: f64,
    deltas: &[BoneDelta],
    pairs: &[(u32, f64)],
    blend: Blend,
) -> (f64, f64) {
    let (mut dx, mut dy, mut total) = (0.0f64, 0.0f64, 0.0f64);
    for &(b, w) in pairs {
        let d = &deltas[b as usize];
        total += w;
        let lx = vx - d.rest.0;
        let ly = vy - d.rest.1;
        let rx = lx * d.cos - ly * d.sin + d.cur.0;
        let ry = lx * d.sin + ly * d.cos + d.cur.1;
        dx += (rx - vx) * w;
        dy += (ry - vy) * w;
    }
    if blend == Blend::Rigid
        && pairs.len() >= 2
        && total > 0.0001
        && let Some(p) = rigid(vx, vy, deltas, pairs)
    {
        return p;
    }
    if total > 0.0001 {
        (vx + dx / total, vy + dy / total)
    } else {
        (vx, vy)
    }
}

/// Dual-number blend of the pairs' motions (rotors aligned to the first);
/// `None` when the blended rotor is degenerate (or NaN).
#[inline]
fn rigid(vx: f64, vy: f64, deltas: &[BoneDelta], pairs: &[(u32, f64)]) -> Option<(f64, f64)> {
    let mut acc = [0.0f64; 4];
    let first = deltas[pairs[0].0 as usize].dq;
    for &(b, w) in pairs {
        let q = deltas[b as usize].dq;
        let sign = if first[0] * q[0] + first[1] * q[1] < 0.0 {
            -1.0
        } else {
            1.0
        };
        let f = sign * w;
        for (a, v) in acc.iter_mut().zip(q) {
            *a += f * v;
        }
    }
    let norm = acc[0].hypot(acc[1]);
    // (a NaN norm fails this test too, as in the JS fallback)
    if norm.is_nan() || norm < 1e-12 {
        return None;
    }
    let [w, z, ddx, ddy] = acc.map(|v| v / norm);
    let c = w * w - z * z;
    let s = 2.0 * w * z;
    let tx = 2.0 * (w * ddx - z * ddy);
    let ty = 2.0 * (w * ddy + z * ddx);
    Some((c * vx - s * vy + tx, s * vx + c * vy + ty))
}

/// §8.4 step 9: the element that `scratch[t·8 + j]` reads in JS — a number
/// key names an element only when it is an integer index below `len`;
/// otherwise JS reads `undefined` (stored into the flat buffer as NaN).
#[inline]
pub fn unroll_index(t: f64, j: usize, len: usize) -> Option<usize> {
    let k = t * 8.0 + j as f64;
    // (`k < len` bounds k, so the cast is exact for integers)
    (k >= 0.0 && k < len as f64 && (k as usize) as f64 == k).then_some(k as usize)
}

/// The common case of [`unroll_index`]: `Some(8t)` when all eight elements
/// `8t .. 8t + 8` exist (t a non-negative integer index into a `len`-float
/// buffer).
#[inline]
pub fn unroll_block(t: i32, len: usize) -> Option<usize> {
    let s = usize::try_from(t).ok()? * 8;
    (s + 8 <= len).then_some(s)
}

/// Deform `part` into `out` (8 floats per vertex: `x, y, z, u, v, r, g, b`).
///
/// `deltas[k]` belongs to `part.bones[k]`; `depth` is written as `z`. Returns the vertex count, or
/// `None` (nothing written) when `out` is shorter than `8 · n` or `deltas`
/// is shorter than the bone list.
pub fn deform_part(
    part: &MeshPart,
    deltas: &[BoneDelta],
    depth: f64,
    out: &mut [f32],
) -> Option<usize> {
    let n = part.vertex_count();
    if out.len() < n * 8 || deltas.len() < part.bones.len() {
        return None;
    }
    let z = depth as f32;
    for (i, (o, c)) in out.chunks_exact_mut(8).zip(&part.consts).enumerate() {
        let vx = part.verts[2 * i];
        let vy = part.verts[2 * i + 1];
        let mut pairs = [(0, 0.0); 2];
        let mut k = 0;
        for inf in part.influences[i].iter().flatten() {
            if deltas[inf.bone as usize].valid {
                pairs[k] = (inf.bone, inf.weight);
                k += 1;
            }
        }
        let (x, y) = skin_vertex(vx, vy, deltas, &pairs[..k], part.blend);
        o[0] = x as f32;
        o[1] = y as f32;
        o[2] = z;
        o[3..8].copy_from_slice(c);
    }
    Some(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    fn quad(blend: Blend, weights: &[(i32, f64, i32, f64)], verts: &[f64]) -> MeshPart {
        let n = verts.len() / 2;
        let mut infl = vec![];
        let mut w = vec![];
        for &(a, wa, b, wb) in weights {
            infl.extend([a, b]);
            w.extend([wa, wb]);
        }
        MeshPart::from_flat(
            verts,
            &vec![0.25; 2 * n],
            &vec![10.0; 3 * n],
            &infl,
            &w,
            vec!["static".into(), "moving".into()],
            blend,
        )
        .unwrap()
    }

    #[test]
    fn rotates_about_bone_start() {
        // bone starting at (5,5), rest angle 0, posed +π/2: (8,5) → (5,8)
        let p = quad(Blend::Linear, &[(1, 1.0, -1, 0.0)], &[8.0, 5.0]);
        let deltas = [
            BoneDelta::MISSING,
            BoneDelta::new((5.0, 5.0, PI / 2.0), (5.0, 5.0, 0.0)),
        ];
        let mut out = [0f32; 8];
        assert_eq!(deform_part(&p, &deltas, 0.5, &mut out), Some(1));
        assert!((out[0] - 5.0).abs() < 1e-5 && (out[1] - 8.0).abs() < 1e-5);
        assert_eq!(&out[2..], &[0.5, 0.25, 0.25, 10.0, 10.0, 10.0]);
    }

    #[test]
    fn short_buffer_writes_nothing() {
        let p = quad(
            Blend::Linear,
            &[(-1, 0.0, -1, 0.0); 2],
            &[1.0, 2.0, 3.0, 4.0],
        );
        let mut out = [7f32; 15];
        assert_eq!(
            deform_part(&p, &[BoneDelta::MISSING; 2], 0.5, &mut out),
            None
        );
        assert!(out.iter().all(|&v| v == 7.0));
    }

    #[test]
    fn tiny_total_leaves_vertex() {
        let p = quad(Blend::Linear, &[(1, 0.00005, -1, 0.0)], &[8.0, 5.0]);
        let deltas = [
            BoneDelta::MISSING,
            BoneDelta::new((5.0, 5.0, PI / 2.0), (5.0, 5.0, 0.0)),
        ];
        let mut out = [0f32; 8];
        deform_part(&p, &deltas, 0.5, &mut out);
        assert_eq!((out[0], out[1]), (8.0, 5.0));
    }

    /// Half-weight vertex between a static bone and a bone rotated by θ
    /// about the joint (10, 0); the vertex sits 4 units past the joint.
    fn half_weight(blend: Blend, theta: f64) -> (f64, f64) {
        let p = quad(blend, &[(0, 0.5, 1, 0.5)], &[14.0, 0.0]);
        let deltas = [
            BoneDelta::new((0.0, 0.0, 0.0), (0.0, 0.0, 0.0)),
            BoneDelta::new((10.0, 0.0, theta), (10.0, 0.0, 0.0)),
        ];
        let mut out = [0f32; 8];
        deform_part(&p, &deltas, 0.5, &mut out);
        (out[0] as f64, out[1] as f64)
    }

    #[test]
    fn rigid_blend_keeps_distance_at_150_and_180() {
        for deg in [150.0f64, 180.0] {
            let th = deg.to_radians();
            let (x, y) = half_weight(Blend::Rigid, th);
            let r = (x - 10.0).hypot(y);
            assert!((r - 4.0).abs() < 1e-5, "rigid {deg}: r = {r}");
            // and it sits at half the angle
            let want = (10.0 + 4.0 * (th / 2.0).cos(), 4.0 * (th / 2.0).sin());
            assert!((x - want.0).abs() < 1e-5 && (y - want.1).abs() < 1e-5);
            // the default linear blend collapses toward the joint: 4·cos(θ/2)
            let (lx, ly) = half_weight(Blend::Linear, th);
            let lr = (lx - 10.0).hypot(ly);
            assert!(
                (lr - 4.0 * (th / 2.0).cos()).abs() < 1e-5,
                "linear {deg}: {lr}"
            );
        }
    }

    #[test]
    fn rigid_single_bone_equals_linear() {
        let deltas = [
            BoneDelta::MISSING,
            BoneDelta::new((1.0, 2.0, 0.7), (0.5, 0.0, 0.1)),
        ];
        let mut a = [0f32; 8];
        let mut b = [0f32; 8];
        deform_part(
            &quad(Blend::Rigid, &[(1, 1.0, 0, 1.0)], &[3.0, 4.0]),
            &deltas,
            0.5,
            &mut a,
        );
        deform_part(
            &quad(Blend::Linear, &[(1, 1.0, 0, 1.0)], &[3.0, 4.0]),
            &deltas,
            0.5,
            &mut b,
        );
        assert_eq!(a, b);
    }
}
