//! Limb directions on the drawing's plane and the per-bone deltas
//! (rig.md §6): sagittal projection, unwrapping over time, loop closure,
//! angles relative to the declared parent and the drawn pose, clamping.

use std::f64::consts::{PI, TAU};

use super::MotionBone;
use crate::error::RigError;

/// `a − b`.
pub fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// Euclidean length.
pub fn norm(a: [f64; 3]) -> f64 {
    (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt()
}

/// The horizontal walking direction (unit, y = 0): the root's travel from
/// `r0` to `r1`, or, when it does not travel, `left_minus_right` (left hip −
/// right hip) × up. `None` when neither gives a direction.
pub fn forward(r0: [f64; 3], r1: [f64; 3], left_minus_right: Option<[f64; 3]>) -> Option<[f64; 3]> {
    let unit = |x: f64, z: f64| {
        let n = x.hypot(z);
        (n > 1e-9 && n.is_finite()).then(|| [x / n, 0.0, z / n])
    };
    let d = sub(r1, r0);
    let travel = d[0].hypot(d[2]);
    // less than a millimetre-scale drift relative to a body part is no travel
    if travel > 1e-6 {
        return unit(d[0], d[2]);
    }
    // L × Y with Y = (0, 1, 0): (−L.z, 0, L.x)
    let l = left_minus_right?;
    unit(-l[2], l[0])
}

/// The drawing-plane angle (radians, y down, 0 = +x, positive clockwise on
/// screen) of capture vector `v`: forward component on drawing ±x (+x when
/// `facing_right`), up component (+Y) on drawing −y.
pub fn sagittal(v: [f64; 3], forward: [f64; 3], facing_right: bool) -> f64 {
    let f = v[0] * forward[0] + v[2] * forward[2];
    let u = v[1];
    let s = if facing_right { 1.0 } else { -1.0 };
    (-u).atan2(s * f)
}

/// The drawing-plane angle of capture vector `v` seen from the front: the
/// capture's left (up × forward, forward horizontal) on drawing +x — a figure
/// facing the viewer has its left on the image's right — and up (+Y) on −y.
pub fn frontal(v: [f64; 3], forward: [f64; 3]) -> f64 {
    // left = Y × F = (F.z, 0, −F.x)
    let l = v[0] * forward[2] - v[2] * forward[0];
    (-v[1]).atan2(l)
}

/// Wraps an angle to (−π, π].
pub fn wrap(a: f64) -> f64 {
    let r = a.rem_euclid(TAU);
    if r > PI { r - TAU } else { r }
}

/// Makes a sequence of angles continuous (no step larger than π).
pub fn unwrap(a: &mut [f64]) {
    for i in 1..a.len() {
        let d = wrap(a[i] - a[i - 1]);
        a[i] = a[i - 1] + d;
    }
}

/// Closes a sampled cycle: subtracts `k/K` of the end-minus-start mismatch
/// from sample `k` and sets the last sample to the first exactly. Returns
/// the raw mismatch.
pub fn close(a: &mut [f64]) -> f64 {
    let n = a.len();
    if n < 2 {
        return 0.0;
    }
    let kk = (n - 1) as f64;
    let m = a[n - 1] - a[0];
    for (k, x) in a.iter_mut().enumerate() {
        *x -= m * k as f64 / kk;
    }
    a[n - 1] = a[0];
    m
}

/// Closes a sampled cycle with a local seam blend: `d` = last − first;
/// the first `h` samples are raised by `d/2·(1 − smoothstep(k/h))`, the
/// last `h` lowered by `d/2·(1 − smoothstep((K−k)/h))`, and the last sample
/// is set to the first exactly; samples `h..=K−h` are untouched. `h = 0`
/// only copies the first sample onto the last. Returns `d`.
pub fn seam(a: &mut [f64], h: usize) -> f64 {
    let n = a.len();
    if n < 2 {
        return 0.0;
    }
    let kk = n - 1;
    let d = a[kk] - a[0];
    let h = h.min(kk / 2);
    let smooth = |x: f64| {
        let x = x.clamp(0.0, 1.0);
        x * x * (3.0 - 2.0 * x)
    };
    for k in 0..h {
        let w = 1.0 - smooth(k as f64 / h as f64);
        a[k] += 0.5 * d * w;
        a[kk - k] -= 0.5 * d * w;
    }
    a[kk] = a[0];
    d
}

/// Bone indices with every parent before its children; `E_RIG_CYCLE` for a
/// cycle, `E_RIG_MOTION` for a parent out of range.
pub fn parents_first(bones: &[MotionBone]) -> Result<Vec<usize>, RigError> {
    let n = bones.len();
    for b in bones {
        if let Some(p) = b.parent
            && p >= n
        {
            return Err(RigError::new(
                "E_RIG_MOTION",
                format!("bone '{}': parent index {p} is out of range", b.name),
            ));
        }
        if !(b.start.iter().chain(&b.end).all(|v| v.is_finite())) {
            return Err(RigError::new(
                "E_RIG_MOTION",
                format!("bone '{}': a point is not finite", b.name),
            ));
        }
    }
    let mut order = Vec::with_capacity(n);
    let mut placed = vec![false; n];
    while order.len() < n {
        let before = order.len();
        for (i, b) in bones.iter().enumerate() {
            if !placed[i] && b.parent.is_none_or(|p| placed[p]) {
                placed[i] = true;
                order.push(i);
            }
        }
        if order.len() == before {
            let stuck = (0..n).find(|&i| !placed[i]).unwrap_or(0);
            return Err(RigError::new(
                "E_RIG_CYCLE",
                format!("bone '{}' is in a parent cycle", bones[stuck].name),
            ));
        }
    }
    Ok(order)
}

/// Per bone and key: the delta relative to the declared parent and the
/// drawn pose, clamped to ±`max`; per bone the number of clamped keys; and
/// per bone and key the world angle the clip gives it.
/// `drawn[b]` is the drawn world angle, `world[b]` the target world angles
/// per key (`None`: keep the drawn relative angle).
pub fn deltas(
    bones: &[MotionBone],
    order: &[usize],
    drawn: &[f64],
    world: &[Option<&Vec<f64>>],
    keys: usize,
    max: f64,
) -> (Vec<Vec<f64>>, Vec<usize>, Vec<Vec<f64>>) {
    let n = bones.len();
    let mut out = vec![vec![0.0; keys]; n];
    let mut actual = vec![vec![0.0; keys]; n];
    let mut clamped = vec![0usize; n];
    for &b in order {
        let (drawn_p, parent) = match bones[b].parent {
            Some(p) => (drawn[p], Some(p)),
            None => (0.0, None),
        };
        let rest_rel = drawn[b] - drawn_p;
        for k in 0..keys {
            let pw = parent.map_or(0.0, |p| actual[p][k]);
            let d = match world[b] {
                Some(w) => {
                    let raw = wrap(w[k] - pw - rest_rel);
                    if raw.abs() > max {
                        clamped[b] += 1;
                        raw.clamp(-max, max)
                    } else {
                        raw
                    }
                }
                None => 0.0,
            };
            out[b][k] = d;
            actual[b][k] = pw + rest_rel + d;
        }
    }
    (out, clamped, actual)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bone(name: &str, parent: Option<usize>, s: [f64; 2], e: [f64; 2]) -> MotionBone {
        MotionBone {
            name: name.into(),
            parent,
            start: s,
            end: e,
            joint: None,
            bend: super::super::Bend::Normal,
        }
    }

    #[test]
    fn sagittal_projection_follows_facing() {
        let fwd = [0.0, 0.0, 1.0];
        // straight down in the capture is straight down in the drawing
        assert!((sagittal([0.0, -1.0, 0.0], fwd, true) - PI / 2.0).abs() < 1e-12);
        // forward is +x facing right, −x facing left
        assert!(sagittal([0.0, 0.0, 1.0], fwd, true).abs() < 1e-12);
        assert!((sagittal([0.0, 0.0, 1.0], fwd, false).abs() - PI).abs() < 1e-12);
        // sideways components do not count
        assert!((sagittal([5.0, -1.0, 1.0], fwd, true) - PI / 4.0).abs() < 1e-12);
        // forward from travel, and from the hips when the root stays put
        assert_eq!(
            forward([0.0; 3], [3.0, 7.0, 4.0], None),
            Some([0.6, 0.0, 0.8])
        );
        assert_eq!(
            forward([1.0; 3], [1.0; 3], Some([2.0, 0.0, 0.0])),
            Some([0.0, 0.0, 1.0])
        );
        assert_eq!(forward([1.0; 3], [1.0; 3], None), None);
    }

    #[test]
    fn closing_spreads_the_mismatch_and_copies_the_first_key() {
        let mut a = vec![1.0, 2.0, 3.0, 1.3];
        let m = close(&mut a);
        assert!((m - 0.3).abs() < 1e-12);
        assert_eq!(a[3], a[0]);
        assert!((a[1] - (2.0 - 0.1)).abs() < 1e-12);
        assert!((a[2] - (3.0 - 0.2)).abs() < 1e-12);
        let mut w = vec![3.0, -3.0, 3.1];
        unwrap(&mut w);
        assert!((w[1] - (TAU - 3.0)).abs() < 1e-12, "{w:?}");
    }

    #[test]
    fn seam_is_local_and_closes() {
        let mut a: Vec<f64> = (0..=20).map(|k| k as f64 * 0.1).collect();
        a[20] = 1.0; // mismatch d = 1.0 - 0.0
        let orig = a.clone();
        let d = seam(&mut a, 4);
        assert_eq!(d, 1.0);
        assert_eq!(a[20], a[0]);
        assert!((a[0] - 0.5).abs() < 1e-12);
        for k in 4..=16 {
            assert_eq!(a[k], orig[k], "key {k} outside the blend is untouched");
        }
        assert!(a[1] > orig[1] && a[19] < orig[19]);
    }

    #[test]
    fn deltas_are_relative_to_parent_and_drawn_pose() {
        // thigh drawn straight down, shin drawn straight down below it
        let bones = vec![
            bone("pelvis", None, [0.0, 0.0], [0.0, -10.0]),
            bone("thigh", Some(0), [0.0, 0.0], [0.0, 10.0]),
            bone("shin", Some(1), [0.0, 10.0], [0.0, 20.0]),
        ];
        let order = parents_first(&bones).unwrap();
        let drawn: Vec<f64> = bones
            .iter()
            .map(|b| (b.end[1] - b.start[1]).atan2(b.end[0] - b.start[0]))
            .collect();
        // key 0: thigh 30° forward (world 60°), shin straight down (90°)
        // key 1: thigh straight, shin pointing up-forward at −80°: 170° from drawn → clamped
        let th = vec![60f64.to_radians(), 90f64.to_radians()];
        let sh = vec![90f64.to_radians(), -80f64.to_radians()];
        let world = vec![None, Some(&th), Some(&sh)];
        let (d, c, _) = deltas(&bones, &order, &drawn, &world, 2, PI / 2.0);
        assert_eq!(d[0], vec![0.0, 0.0]);
        assert!((d[1][0] - (-30f64).to_radians()).abs() < 1e-12);
        assert!(
            (d[2][0] - 30f64.to_radians()).abs() < 1e-12,
            "{}",
            d[2][0].to_degrees()
        );
        assert!(d[1][1].abs() < 1e-12);
        assert!(
            (d[2][1] + PI / 2.0).abs() < 1e-12,
            "{}",
            d[2][1].to_degrees()
        );
        assert_eq!(c, vec![0, 0, 1]);
    }

    #[test]
    fn cycles_and_bad_parents_are_errors() {
        let mut bones = vec![
            bone("a", Some(1), [0.0; 2], [1.0; 2]),
            bone("b", Some(0), [0.0; 2], [1.0; 2]),
        ];
        assert_eq!(parents_first(&bones).unwrap_err().code, "E_RIG_CYCLE");
        bones[0].parent = Some(7);
        assert_eq!(parents_first(&bones).unwrap_err().code, "E_RIG_MOTION");
        bones[0].parent = None;
        bones[1].end = [f64::NAN, 0.0];
        assert_eq!(parents_first(&bones).unwrap_err().code, "E_RIG_MOTION");
        bones[1].end = [1.0, 1.0];
        // a child declared before its parent is fine
        let b2 = vec![
            bone("c", Some(1), [0.0; 2], [1.0; 2]),
            bone("p", None, [0.0; 2], [1.0; 2]),
        ];
        assert_eq!(parents_first(&b2).unwrap(), vec![1, 0]);
    }
}
