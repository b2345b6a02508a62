//! Inverse kinematics: analytic two-bone IK (§3), FABRIK chains (§4) and the
//! re2d joint-limit extension used by `$.mesh.ik` (`opts.limits`, §8.2).
//!
//! Angles returned by the solvers are absolute world angles. Without limits
//! the results are bit-identical to the engine's JS solvers.

use super::{TAU, js_max, js_min, n0, normalize_angle};

/// Result of [`solve_two_bone`] (§3; JS key order `a1, a2, elbow, reached`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TwoBoneResult {
    /// Absolute angle of the first bone.
    pub a1: f64,
    /// Absolute angle of the second bone.
    pub a2: f64,
    /// Elbow (end of the first bone).
    pub elbow: (f64, f64),
    /// Whether the target is reached.
    pub reached: bool,
}

/// §3: analytic two-bone IK. `bend < 0` puts the elbow on the other side.
#[allow(clippy::too_many_arguments)]
pub fn solve_two_bone(
    start_x: f64,
    start_y: f64,
    len1: f64,
    len2: f64,
    target_x: f64,
    target_y: f64,
    bend: f64,
) -> TwoBoneResult {
    let dx = target_x - start_x;
    let dy = target_y - start_y;
    let dist = dx.hypot(dy);
    let reach_max = len1 + len2;
    let reach_min = (len1 - len2).abs();
    let base = dy.atan2(dx);
    let side = if bend < 0.0 { -1.0 } else { 1.0 };
    if dist >= reach_max || len1 <= 0.0 || len2 <= 0.0 {
        return TwoBoneResult {
            a1: base,
            a2: base,
            elbow: (start_x + base.cos() * len1, start_y + base.sin() * len1),
            reached: dist <= reach_max,
        };
    }
    let reach = js_max(reach_min + 1e-6, dist);
    let cos_a = (len1 * len1 + reach * reach - len2 * len2) / (2.0 * len1 * reach);
    let a1 = base + side * js_max(-1.0, js_min(1.0, cos_a)).acos();
    let ex = start_x + a1.cos() * len1;
    let ey = start_y + a1.sin() * len1;
    let a2 = (target_y - ey).atan2(target_x - ex);
    TwoBoneResult {
        a1,
        a2,
        elbow: (ex, ey),
        reached: true,
    }
}

/// Limit on one joint's **additive** angle (re2d extension, `opts.limits`).
///
/// The additive angle of bone `i` is
/// `normalizeAngle(abs[i] − parentAbs − restLocal)` (§8.2 step 9), where
/// `parentAbs` is the previous chain bone's absolute angle when `linked`,
/// else the fixed `parent_abs`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointLimit {
    /// Parent is the previous bone of the chain.
    pub linked: bool,
    /// Parent world angle when not `linked` (0 for a root).
    pub parent_abs: f64,
    /// Rest angle of the bone, local to its parent.
    pub rest_local: f64,
    /// Lower bound of the additive angle (−∞ = none).
    pub min: f64,
    /// Upper bound of the additive angle (+∞ = none).
    pub max: f64,
}

impl JointLimit {
    /// No limit for a bone with the given parent relation.
    pub fn free(linked: bool, parent_abs: f64, rest_local: f64) -> Self {
        JointLimit {
            linked,
            parent_abs,
            rest_local,
            min: f64::NEG_INFINITY,
            max: f64::INFINITY,
        }
    }

    /// Clamp an absolute angle so its additive angle lies in `[min, max]`.
    /// Returns the input unchanged (bit for bit) when it already does.
    pub fn clamp_abs(&self, abs: f64, parent_abs: f64) -> (f64, bool) {
        if !(self.min > f64::NEG_INFINITY || self.max < f64::INFINITY) {
            return (abs, false);
        }
        let add = normalize_angle(abs - parent_abs - self.rest_local);
        let inside = |a: f64| a >= self.min && a <= self.max;
        if inside(add) || inside(add + TAU) || inside(add - TAU) {
            return (abs, false);
        }
        let dist = |b: f64| {
            if b.is_finite() {
                normalize_angle(add - b).abs()
            } else {
                f64::INFINITY
            }
        };
        let bound = if dist(self.min) <= dist(self.max) {
            self.min
        } else {
            self.max
        };
        (parent_abs + self.rest_local + bound, true)
    }
}

fn limited_pair(
    start: (f64, f64),
    len1: f64,
    target: (f64, f64),
    r: &TwoBoneResult,
    lim: &[JointLimit; 2],
) -> (f64, f64, bool) {
    let (a1, c1) = lim[0].clamp_abs(r.a1, lim[0].parent_abs);
    let a2_aim = if c1 {
        let ex = start.0 + a1.cos() * len1;
        let ey = start.1 + a1.sin() * len1;
        (target.1 - ey).atan2(target.0 - ex)
    } else {
        r.a2
    };
    let p2 = if lim[1].linked { a1 } else { lim[1].parent_abs };
    let (a2, c2) = lim[1].clamp_abs(a2_aim, p2);
    (a1, a2, c1 || c2)
}

/// Two-bone IK with joint limits: solve, clamp the first joint, re-aim and
/// clamp the second; when a clamp binds the other elbow side is tried too
/// and the closer tip wins. `reached` is the truth about the clamped tip.
#[allow(clippy::too_many_arguments)]
pub fn solve_two_bone_limited(
    start_x: f64,
    start_y: f64,
    len1: f64,
    len2: f64,
    target_x: f64,
    target_y: f64,
    bend: f64,
    lim: &[JointLimit; 2],
) -> TwoBoneResult {
    let r = solve_two_bone(start_x, start_y, len1, len2, target_x, target_y, bend);
    let start = (start_x, start_y);
    let target = (target_x, target_y);
    let (a1, a2, clamped) = limited_pair(start, len1, target, &r, lim);
    if !clamped {
        return r;
    }
    let tip_dist = |a1: f64, a2: f64| {
        let ex = start_x + a1.cos() * len1;
        let ey = start_y + a1.sin() * len1;
        (target_x - (ex + a2.cos() * len2)).hypot(target_y - (ey + a2.sin() * len2))
    };
    let mut best = (a1, a2, tip_dist(a1, a2));
    let other_bend = if bend < 0.0 { 1.0 } else { -1.0 };
    let r2 = solve_two_bone(start_x, start_y, len1, len2, target_x, target_y, other_bend);
    let (b1, b2, _) = limited_pair(start, len1, target, &r2, lim);
    let d2 = tip_dist(b1, b2);
    if d2 < best.2 {
        best = (b1, b2, d2);
    }
    let eps = 1e-6 * js_max(1.0, (len1 + len2).abs());
    TwoBoneResult {
        a1: best.0,
        a2: best.1,
        elbow: (start_x + best.0.cos() * len1, start_y + best.0.sin() * len1),
        reached: best.2 <= eps,
    }
}

/// FABRIK options (§4 steps 3–4, already resolved to numbers).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChainOptions {
    /// Pass count bound (`it < iterations`, so a fraction rounds up).
    pub iterations: f64,
    /// Stop when the tip is this close.
    pub tolerance: f64,
}

impl Default for ChainOptions {
    fn default() -> Self {
        ChainOptions {
            iterations: 12.0,
            tolerance: 0.5,
        }
    }
}

/// Result of [`solve_chain`] (§4; JS key order `angles, reached, distance`).
#[derive(Clone, Debug, PartialEq)]
pub struct ChainResult {
    /// Absolute angle per bone.
    pub angles: Vec<f64>,
    /// Whether the tip is within tolerance.
    pub reached: bool,
    /// Remaining tip distance (or `distance − total` when unreachable).
    pub distance: f64,
}

/// §4: FABRIK. `lengths` hold `ToNumber` values (NaN allowed; only the total
/// treats them as 0). With `limits` (one per bone) every pass ends with a
/// clamp of the additive angles and a forward-kinematics rebuild.
pub fn solve_chain(
    start: (f64, f64),
    lengths: &[f64],
    target: (f64, f64),
    opts: &ChainOptions,
    limits: Option<&[JointLimit]>,
) -> ChainResult {
    let n = lengths.len();
    if n == 0 {
        return ChainResult {
            angles: vec![],
            reached: false,
            distance: f64::INFINITY,
        };
    }
    let (sx, sy) = start;
    let (tx, ty) = target;
    let total: f64 = lengths.iter().fold(0.0, |acc, &l| acc + n0(l));
    let distance = (tx - sx).hypot(ty - sy);
    let limits = limits.filter(|l| l.len() == n);
    let mut clamped_any = false;
    let mut result = if distance >= total {
        let a = (ty - sy).atan2(tx - sx);
        ChainResult {
            angles: vec![a; n],
            reached: false,
            distance: distance - total,
        }
    } else if distance <= 1e-9 {
        let angles = (0..n)
            .map(|i| {
                if i % 2 == 1 {
                    std::f64::consts::PI
                } else {
                    0.0
                }
            })
            .collect();
        ChainResult {
            angles,
            reached: true,
            distance: 0.0,
        }
    } else {
        let dir = (ty - sy).atan2(tx - sx);
        let (dc, ds) = (dir.cos(), dir.sin());
        let mut p: Vec<(f64, f64)> = Vec::with_capacity(n + 1);
        p.push((sx, sy));
        for &l in lengths {
            let last = p[p.len() - 1];
            p.push((last.0 + dc * l, last.1 + ds * l));
        }
        let mut distance = distance;
        let mut it = 0.0;
        while it < opts.iterations {
            p[n] = (tx, ty);
            for i in (0..n).rev() {
                let (mut dx, mut dy) = (p[i].0 - p[i + 1].0, p[i].1 - p[i + 1].1);
                let mut len = dx.hypot(dy);
                if len < 1e-9 {
                    dx = 1.0;
                    dy = 0.0;
                    len = 1.0;
                }
                p[i] = (
                    p[i + 1].0 + dx / len * lengths[i],
                    p[i + 1].1 + dy / len * lengths[i],
                );
            }
            p[0] = (sx, sy);
            for i in 0..n {
                let (mut dx, mut dy) = (p[i + 1].0 - p[i].0, p[i + 1].1 - p[i].1);
                let mut len = dx.hypot(dy);
                if len < 1e-9 {
                    dx = dc;
                    dy = ds;
                    len = 1.0;
                }
                p[i + 1] = (
                    p[i].0 + dx / len * lengths[i],
                    p[i].1 + dy / len * lengths[i],
                );
            }
            if let Some(lim) = limits {
                clamped_any |= clamp_chain(&mut p, lengths, lim);
            }
            distance = (tx - p[n].0).hypot(ty - p[n].1);
            if distance <= opts.tolerance {
                break;
            }
            it += 1.0;
        }
        let angles = (0..n)
            .map(|i| (p[i + 1].1 - p[i].1).atan2(p[i + 1].0 - p[i].0))
            .collect();
        ChainResult {
            angles,
            reached: distance <= opts.tolerance,
            distance,
        }
    };

    if let Some(lim) = limits {
        // The closed-form branches (unreachable, target at root) may break a
        // limit too: clamp them. Whenever a limit bound, re-solve with a
        // limit-aware CCD and report the true tip distance.
        let mut abs = result.angles.clone();
        let mut parent_prev = 0.0;
        for i in 0..n {
            let parent = if lim[i].linked && i > 0 {
                parent_prev
            } else {
                lim[i].parent_abs
            };
            let (a, c) = lim[i].clamp_abs(abs[i], parent);
            abs[i] = a;
            clamped_any |= c;
            parent_prev = a;
        }
        if clamped_any {
            let sweeps = (opts.iterations.ceil().clamp(1.0, 1e4) as usize).max(32);
            let mut best_d = ccd_refine(
                start,
                lengths,
                target,
                lim,
                &mut abs,
                opts.tolerance,
                sweeps,
            );
            // CCD can stall with an over-extended chain: retry from bent
            // seeds (additive angles at ±half of each joint's range).
            for seed in 0..4 {
                if best_d <= opts.tolerance {
                    break;
                }
                let mut cand = vec![0.0; n];
                for i in 0..n {
                    let hi = if lim[i].max.is_finite() {
                        lim[i].max
                    } else {
                        1.0
                    };
                    let lo = if lim[i].min.is_finite() {
                        lim[i].min
                    } else {
                        -1.0
                    };
                    let add = match seed {
                        0 => 0.5 * hi,
                        1 => 0.5 * lo,
                        2 if i % 2 == 0 => 0.5 * hi,
                        2 => 0.5 * lo,
                        _ if i % 2 == 0 => 0.5 * lo,
                        _ => 0.5 * hi,
                    };
                    let add = add.clamp(lim[i].min, lim[i].max);
                    let parent = if lim[i].linked && i > 0 {
                        cand[i - 1]
                    } else {
                        lim[i].parent_abs
                    };
                    cand[i] = parent + lim[i].rest_local + add;
                }
                let d = ccd_refine(
                    start,
                    lengths,
                    target,
                    lim,
                    &mut cand,
                    opts.tolerance,
                    sweeps,
                );
                if d < best_d {
                    best_d = d;
                    abs = cand;
                }
            }
            result = ChainResult {
                angles: abs,
                reached: best_d <= opts.tolerance,
                distance: best_d,
            };
        }
    }
    result
}

/// Clamp every joint of a solved chain (root first) and rebuild positions.
fn clamp_chain(p: &mut [(f64, f64)], lengths: &[f64], lim: &[JointLimit]) -> bool {
    let mut parent_prev = 0.0;
    let mut any = false;
    for i in 0..lengths.len() {
        let abs = (p[i + 1].1 - p[i].1).atan2(p[i + 1].0 - p[i].0);
        let parent = if lim[i].linked && i > 0 {
            parent_prev
        } else {
            lim[i].parent_abs
        };
        let (a, c) = lim[i].clamp_abs(abs, parent);
        any |= c;
        if c {
            p[i + 1] = (p[i].0 + a.cos() * lengths[i], p[i].1 + a.sin() * lengths[i]);
        } else {
            // keep the point but re-project it at the exact length
            let (dx, dy) = (p[i + 1].0 - p[i].0, p[i + 1].1 - p[i].1);
            let len = dx.hypot(dy);
            if len >= 1e-9 {
                p[i + 1] = (
                    p[i].0 + dx / len * lengths[i],
                    p[i].1 + dy / len * lengths[i],
                );
            }
        }
        parent_prev = a;
    }
    any
}

/// Tip of a chain laid out from `start` with absolute angles.
fn chain_tip(start: (f64, f64), abs: &[f64], lengths: &[f64]) -> (f64, f64) {
    let (mut x, mut y) = start;
    for (a, l) in abs.iter().zip(lengths) {
        x += a.cos() * l;
        y += a.sin() * l;
    }
    (x, y)
}

/// Limit-aware cyclic coordinate descent, used to re-solve after a clamp
/// left FABRIK short of the target. Rotates joints tip-first toward the
/// target, clamping each; linked descendants follow. Returns the distance.
fn ccd_refine(
    start: (f64, f64),
    lengths: &[f64],
    target: (f64, f64),
    lim: &[JointLimit],
    abs: &mut [f64],
    tolerance: f64,
    sweeps: usize,
) -> f64 {
    let n = abs.len();
    let mut tip = chain_tip(start, abs, lengths);
    let mut dist = (target.0 - tip.0).hypot(target.1 - tip.1);
    for _ in 0..sweeps {
        if dist <= tolerance {
            break;
        }
        for i in (0..n).rev() {
            // joint position of bone i
            let joint = chain_tip(start, &abs[..i], &lengths[..i]);
            let (vx, vy) = (tip.0 - joint.0, tip.1 - joint.1);
            let (wx, wy) = (target.0 - joint.0, target.1 - joint.1);
            let delta = (vx * wy - vy * wx).atan2(vx * wx + vy * wy);
            if !delta.is_finite() || delta == 0.0 {
                continue;
            }
            let parent = if lim[i].linked && i > 0 {
                abs[i - 1]
            } else {
                lim[i].parent_abs
            };
            let (a, _) = lim[i].clamp_abs(abs[i] + delta, parent);
            let applied = a - abs[i];
            abs[i] = a;
            for j in i + 1..n {
                if !lim[j].linked {
                    break;
                }
                abs[j] += applied;
            }
            tip = chain_tip(start, abs, lengths);
        }
        dist = (target.0 - tip.0).hypot(target.1 - tip.1);
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    fn tip2(r: &TwoBoneResult, l2: f64) -> (f64, f64) {
        (r.elbow.0 + r.a2.cos() * l2, r.elbow.1 + r.a2.sin() * l2)
    }

    #[test]
    fn two_bone_reaches_and_flips() {
        let r = solve_two_bone(0.0, 0.0, 10.0, 10.0, 10.0, 10.0, 1.0);
        let t = tip2(&r, 10.0);
        assert!((t.0 - 10.0).abs() < 1e-9 && (t.1 - 10.0).abs() < 1e-9);
        assert!(r.reached);
        // base = 45°, cosA = 200/(2·10·√200) = √2/2 → a1 = 45° + 45° = 90°
        assert!((r.a1 - PI / 2.0).abs() < 1e-12);
        let l = solve_two_bone(0.0, 0.0, 10.0, 10.0, 10.0, 10.0, -1.0);
        assert!(l.a1.abs() < 1e-12);
        assert!((l.elbow.0 - 10.0).abs() < 1e-9 && l.elbow.1.abs() < 1e-9);
    }

    #[test]
    fn two_bone_out_of_reach_and_edges() {
        let r = solve_two_bone(0.0, 0.0, 3.0, 4.0, 0.0, 10.0, 0.0);
        assert!(!r.reached);
        assert_eq!(r.a1, PI / 2.0);
        assert_eq!(r.a2, PI / 2.0);
        let e = solve_two_bone(0.0, 0.0, 3.0, 4.0, 7.0, 0.0, 0.0);
        assert!(e.reached);
        assert_eq!((e.a1, e.a2), (0.0, 0.0));
        assert_eq!(e.elbow, (3.0, 0.0));
        let z = solve_two_bone(1.0, 1.0, 3.0, 4.0, 1.0, 1.0, 0.0);
        assert!(z.a1.is_finite() && z.a2.is_finite() && z.reached);
        let neg = solve_two_bone(0.0, 0.0, 0.0, 4.0, 1.0, 0.0, 0.0);
        assert!(neg.reached);
        assert_eq!(neg.elbow, (0.0, 0.0));
    }

    #[test]
    fn chain_reaches_and_reports_unreachable() {
        let lens = [10.0, 10.0, 10.0];
        // (A target on the straight initial layout only bends through
        // rounding noise, as in the engine; (5, 20) converges.)
        let r = solve_chain(
            (0.0, 0.0),
            &lens,
            (5.0, 20.0),
            &ChainOptions::default(),
            None,
        );
        assert!(r.reached && r.distance <= 0.5);
        let mut x = 0.0;
        let mut y = 0.0;
        for (a, l) in r.angles.iter().zip(lens) {
            x += a.cos() * l;
            y += a.sin() * l;
        }
        assert!(((x - 5.0).hypot(y - 20.0) - r.distance).abs() < 1e-9);
        let u = solve_chain(
            (0.0, 0.0),
            &lens,
            (0.0, 40.0),
            &ChainOptions::default(),
            None,
        );
        assert!(!u.reached);
        assert_eq!(u.distance, 10.0);
        assert_eq!(u.angles, vec![PI / 2.0; 3]);
        let exact = solve_chain(
            (0.0, 0.0),
            &lens,
            (30.0, 0.0),
            &ChainOptions::default(),
            None,
        );
        assert!(!exact.reached);
        assert_eq!(exact.distance, 0.0);
        let root = solve_chain(
            (2.0, 2.0),
            &lens,
            (2.0, 2.0),
            &ChainOptions::default(),
            None,
        );
        assert_eq!(root.angles, vec![0.0, PI, 0.0]);
        assert!(root.reached);
        let e = solve_chain((0.0, 0.0), &[], (1.0, 1.0), &ChainOptions::default(), None);
        assert!(e.angles.is_empty() && !e.reached && e.distance.is_infinite());
    }

    #[test]
    fn clamp_abs_keeps_inside_and_clamps_outside() {
        let l = JointLimit {
            linked: false,
            parent_abs: 0.0,
            rest_local: 0.0,
            min: -0.5,
            max: 0.5,
        };
        assert_eq!(l.clamp_abs(0.25, 0.0), (0.25, false));
        assert_eq!(l.clamp_abs(1.0, 0.0), (0.5, true));
        assert_eq!(l.clamp_abs(-2.0, 0.0), (-0.5, true));
        let f = JointLimit::free(true, 0.0, 0.0);
        assert_eq!(f.clamp_abs(3.0, 1.0), (3.0, false));
    }

    #[test]
    fn two_bone_limits_hold_and_report_truth() {
        // Target straight up at distance 10 with len 10+10: natural elbow
        // angle is ±60° off the base; limit the first joint to [0, 0.1].
        let lim = [
            JointLimit {
                min: 0.0,
                max: 0.1,
                ..JointLimit::free(false, 0.0, 0.0)
            },
            JointLimit::free(true, 0.0, 0.0),
        ];
        let r = solve_two_bone_limited(0.0, 0.0, 10.0, 10.0, 0.0, 10.0, 1.0, &lim);
        assert!(r.a1 >= -1e-12 && r.a1 <= 0.1 + 1e-12);
        let t = tip2(&r, 10.0);
        let d = t.0.hypot(t.1 - 10.0);
        assert_eq!(r.reached, d <= 1e-5);
        assert!(!r.reached);
        // A limit that does not bind changes nothing.
        let wide = [
            JointLimit {
                min: -3.0,
                max: 3.0,
                ..JointLimit::free(false, 0.0, 0.0)
            },
            JointLimit::free(true, 0.0, 0.0),
        ];
        let a = solve_two_bone_limited(0.0, 0.0, 10.0, 10.0, 3.0, 10.0, 1.0, &wide);
        let b = solve_two_bone(0.0, 0.0, 10.0, 10.0, 3.0, 10.0, 1.0);
        assert_eq!(a, b);
    }

    #[test]
    fn chain_limits_hold() {
        let lens = [10.0, 10.0, 10.0];
        let lim: Vec<JointLimit> = (0..3)
            .map(|i| JointLimit {
                min: -0.2,
                max: 0.2,
                ..JointLimit::free(i > 0, 0.0, 0.0)
            })
            .collect();
        let r = solve_chain(
            (0.0, 0.0),
            &lens,
            (0.0, 20.0),
            &ChainOptions::default(),
            Some(&lim),
        );
        let mut parent = 0.0;
        for a in &r.angles {
            let add = normalize_angle(a - parent);
            assert!((-0.2 - 1e-9..=0.2 + 1e-9).contains(&add), "add {add}");
            parent = *a;
        }
        assert!(!r.reached);
        let mut x = 0.0;
        let mut y = 0.0;
        for (a, l) in r.angles.iter().zip(lens) {
            x += a.cos() * l;
            y += a.sin() * l;
        }
        assert!(((x).hypot(y - 20.0) - r.distance).abs() < 1e-9);
    }
}
