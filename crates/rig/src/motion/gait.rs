//! Finding one gait cycle in a capture (rig.md §6): the steady part of the
//! walk, the gait events of each foot, and the cut.
//!
//! **Steady window** ([`steady_window`]): the root's horizontal velocity is
//! measured over ±0.1 s around every frame. The dominant heading is the
//! direction whose ±10° neighbourhood carries the most speed (a histogram
//! of 1° bins), refined as the speed-weighted mean direction of the frames
//! within 10° of it. A frame is steady when its heading is within 10° of
//! the dominant one and its speed is at least 75 % of the median speed of
//! those frames; the window is the longest run of steady frames. A capture
//! that does not travel (a treadmill, a walk in place) is steady
//! everywhere. On the repository's
//! CMU 131_01 excerpt this finds frames 82–245 (1-based), the straight
//! walk its README describes as lines 81–245.
//!
//! **Gait events** ([`events`]): the moment a knee flexes up through the
//! middle of its range in the window (toe-off, the start of swing: the knee
//! angle changes fastest there, so the event is located to a fraction of a
//! frame by linear interpolation). The knee angle is the 3-D angle between
//! hip→knee and knee→ankle, so it does not depend on the walking
//! direction. A hysteresis of 10 % of the range keeps noise from firing an
//! event twice.
//!
//! **Cycle** ([`choose`]): two successive events of the same foot, both in
//! the window, 0.4–2.5 s apart. The near foot's cycles are preferred; when
//! none fits in the window the far foot's are used (which foot starts the
//! loop only shifts its phase). Among a foot's cycles the one whose end
//! pose best matches its start pose (smallest largest limb-angle
//! difference) is taken. On the CMU excerpt the near (Left) foot has only
//! one toe-off inside the steady part, so the cycle is cut at the far
//! (Right) foot's toe-offs, frames 103.64 and 236.57 (1-based): 132.9
//! frames, 1.108 s at 120 fps.

use crate::motion::bvh::{Bvh, Xform};

/// Hip, knee and ankle joint indices of one leg.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leg {
    /// Hip joint.
    pub hip: usize,
    /// Knee joint.
    pub knee: usize,
    /// Ankle joint.
    pub ankle: usize,
}

/// Per-frame signals of a whole capture (one forward-kinematics pass).
pub struct Signals {
    /// World position of the root joint (joint 0) per frame.
    pub root: Vec<[f64; 3]>,
    /// Knee flexion in degrees per frame, per leg (near, far).
    pub knee: [Vec<f64>; 2],
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn angle_deg(a: [f64; 3], b: [f64; 3]) -> f64 {
    let dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let n = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt()
        * (b[0] * b[0] + b[1] * b[1] + b[2] * b[2]).sqrt();
    if n > 0.0 {
        (dot / n).clamp(-1.0, 1.0).acos().to_degrees()
    } else {
        0.0
    }
}

/// Root positions and knee angles of every frame (`legs`: near, far).
pub fn signals(bvh: &Bvh, legs: [Leg; 2]) -> Signals {
    let mut w: Vec<Xform> = Vec::with_capacity(bvh.joints.len());
    let mut s = Signals {
        root: Vec::with_capacity(bvh.frames),
        knee: [
            Vec::with_capacity(bvh.frames),
            Vec::with_capacity(bvh.frames),
        ],
    };
    for f in 0..bvh.frames {
        bvh.world(f, &mut w);
        s.root.push(w[0].t);
        for (k, leg) in legs.iter().enumerate() {
            let (h, n, a) = (w[leg.hip].t, w[leg.knee].t, w[leg.ankle].t);
            s.knee[k].push(angle_deg(sub(n, h), sub(a, n)));
        }
    }
    s
}

fn wrap(a: f64) -> f64 {
    let t = std::f64::consts::TAU;
    let r = a.rem_euclid(t);
    if r > std::f64::consts::PI { r - t } else { r }
}

/// The longest run of steady frames `[start, end)` (see the module doc);
/// `up` is the vertical axis. Returns the whole capture when it does not
/// travel.
pub fn steady_window(root: &[[f64; 3]], frame_time: f64, up: usize) -> (usize, usize) {
    let n = root.len();
    if n < 3 {
        return (0, n);
    }
    let (a0, a1) = match up {
        0 => (1, 2),
        1 => (2, 0),
        _ => (0, 1),
    };
    let h = ((0.1 / frame_time).round() as usize).clamp(1, n / 2);
    let vel: Vec<[f64; 2]> = (0..n)
        .map(|f| {
            let (a, b) = (f.saturating_sub(h), (f + h).min(n - 1));
            let dt = (b - a) as f64 * frame_time;
            [
                (root[b][a0] - root[a][a0]) / dt,
                (root[b][a1] - root[a][a1]) / dt,
            ]
        })
        .collect();
    let speeds: Vec<f64> = vel.iter().map(|v| v[0].hypot(v[1])).collect();
    let peak = speeds.iter().cloned().fold(0.0, f64::max);
    if peak.is_nan() || peak <= 1e-9 {
        return (0, n);
    }
    let tol = 10f64.to_radians();
    // the dominant heading: the 1° bin whose ±10° neighbourhood carries the
    // most speed (a histogram, so turning parts do not pull it aside) …
    let mut bins = [0.0f64; 360];
    for (v, &s) in vel.iter().zip(&speeds) {
        if s > 0.0 {
            let d = v[1].atan2(v[0]).to_degrees().rem_euclid(360.0);
            bins[(d as usize).min(359)] += s;
        }
    }
    let reach = tol.to_degrees() as i64;
    let best_bin = (0..360i64)
        .map(|c| {
            let w: f64 = (-reach..=reach)
                .map(|o| bins[(c + o).rem_euclid(360) as usize])
                .sum();
            (w, c)
        })
        .fold((-1.0, 0), |a, b| if b.0 > a.0 { b } else { a })
        .1;
    let mut heading = (best_bin as f64 + 0.5).to_radians();
    let near =
        |v: &[f64; 2], hd: f64| v[0].hypot(v[1]) > 0.0 && wrap(v[1].atan2(v[0]) - hd).abs() <= tol;
    // … refined as the speed-weighted mean direction of the frames near it
    let (mut sx, mut sy) = (0.0, 0.0);
    for v in &vel {
        if near(v, heading) {
            sx += v[0];
            sy += v[1];
        }
    }
    if sx.hypot(sy) > 0.0 {
        heading = sy.atan2(sx);
    }
    let mut ok_speeds: Vec<f64> = vel
        .iter()
        .zip(&speeds)
        .filter(|(v, _)| near(v, heading))
        .map(|(_, &s)| s)
        .collect();
    if ok_speeds.is_empty() {
        return (0, n);
    }
    ok_speeds.sort_by(f64::total_cmp);
    let median = ok_speeds[ok_speeds.len() / 2];
    let steady: Vec<bool> = vel
        .iter()
        .zip(&speeds)
        .map(|(v, &s)| near(v, heading) && s >= 0.75 * median)
        .collect();
    let (mut best, mut run_start) = ((0, 0), None);
    for f in 0..=n {
        match (f < n && steady[f], run_start) {
            (true, None) => run_start = Some(f),
            (false, Some(s)) => {
                if f - s > best.1 - best.0 {
                    best = (s, f);
                }
                run_start = None;
            }
            _ => {}
        }
    }
    if best.1 == best.0 { (0, n) } else { best }
}

/// Rising crossings of the middle of `knee`'s range within `[lo, hi)`, as
/// fractional frames (see the module doc).
pub fn events(knee: &[f64], lo: usize, hi: usize) -> Vec<f64> {
    let hi = hi.min(knee.len());
    if hi < lo + 2 {
        return Vec::new();
    }
    let w = &knee[lo..hi];
    let (mn, mx) = w
        .iter()
        .fold((f64::INFINITY, -f64::INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    let range = mx - mn;
    if range.is_nan() || range <= 1.0 {
        return Vec::new();
    }
    let mid = 0.5 * (mn + mx);
    let low = mid - 0.1 * range;
    let mut armed = false;
    let mut out = Vec::new();
    for f in lo..hi {
        let k = knee[f];
        if k < low {
            armed = true;
        }
        if armed && f > lo && knee[f - 1] < mid && k >= mid {
            let t = (mid - knee[f - 1]) / (k - knee[f - 1]);
            out.push((f - 1) as f64 + t);
            armed = false;
        }
    }
    out
}

/// A candidate cycle: start and end (fractional frames) and which leg.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cut {
    /// Start frame (fractional, 0-based).
    pub start: f64,
    /// End frame.
    pub end: f64,
    /// 0 = the near leg, 1 = the far leg.
    pub leg: usize,
}

/// The longest gait cycle (seconds) a cut may span; the cut search of
/// `motion/mod.rs` holds its moved cuts to the same bound, so a cyclic
/// clip never lasts longer (what `rig build` charges a `:loop` motion
/// against `rig-max-keys`).
pub const CYCLE_MAX_SECONDS: f64 = 2.5;

/// Every cycle of successive events of one leg lying in `[lo, hi)` and
/// lasting 0.4–2.5 s ([`CYCLE_MAX_SECONDS`]).
pub fn cuts(knee: &[f64], leg: usize, lo: usize, hi: usize, frame_time: f64) -> Vec<Cut> {
    let ev = events(knee, lo, hi);
    ev.windows(2)
        .filter(|p| {
            let d = (p[1] - p[0]) * frame_time;
            (0.4..=CYCLE_MAX_SECONDS).contains(&d) && p[1] <= (hi - 1) as f64
        })
        .map(|p| Cut {
            start: p[0],
            end: p[1],
            leg,
        })
        .collect()
}

/// Picks the cycle from `(mismatch, cut)` pairs: near-leg cuts first, else
/// far-leg cuts; among them the smallest mismatch.
pub fn choose(near: &[(f64, Cut)], far: &[(f64, Cut)]) -> Option<Cut> {
    let pick = |c: &[(f64, Cut)]| c.iter().min_by(|a, b| a.0.total_cmp(&b.0)).map(|x| x.1);
    pick(near).or_else(|| pick(far))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rising_mid_crossings_are_interpolated() {
        // a triangle wave 0..100, period 20 frames: rising through 50 at 5, 25, 45
        let k: Vec<f64> = (0..60)
            .map(|f| {
                let p = f % 20;
                if p <= 10 {
                    p as f64 * 10.0
                } else {
                    (20 - p) as f64 * 10.0
                }
            })
            .collect();
        let ev = events(&k, 0, 60);
        assert_eq!(ev, vec![5.0, 25.0, 45.0]);
        // a plateau exactly at mid does not fire twice (hysteresis)
        let mut k2 = k.clone();
        k2[6] = 50.0;
        k2[7] = 49.0;
        k2[8] = 80.0;
        assert_eq!(events(&k2, 0, 60), vec![5.0, 25.0, 45.0]);
        let c = cuts(&k, 0, 0, 60, 1.0 / 30.0);
        assert_eq!(c.len(), 2);
        assert_eq!((c[0].start, c[0].end), (5.0, 25.0));
        // too short a cycle at 120 fps (20 frames = 0.17 s) is not a gait cycle
        assert!(cuts(&k, 0, 0, 60, 1.0 / 120.0).is_empty());
    }

    #[test]
    fn steady_window_is_the_straight_fast_run() {
        // 100 frames turning (heading changes), 200 straight at speed 1, 100 slow
        let mut root = Vec::new();
        let mut p = [0.0, 10.0, 0.0];
        for f in 0..400 {
            let (dir, speed): (f64, f64) = if f < 100 {
                (-1.5 + 1.5 * f as f64 / 100.0, 1.0)
            } else if f < 300 {
                (0.0, 1.0)
            } else {
                (0.0, 0.2)
            };
            p[2] += speed * dir.cos();
            p[0] += speed * dir.sin();
            root.push(p);
        }
        let (a, b) = steady_window(&root, 1.0 / 100.0, 1);
        assert!((80..=100).contains(&a), "{a}");
        assert!((295..=305).contains(&b), "{b}");
        // no travel: everywhere
        let still = vec![[0.0, 10.0, 0.0]; 50];
        assert_eq!(steady_window(&still, 0.01, 1), (0, 50));
    }
}
