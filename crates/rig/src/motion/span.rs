//! Step 3 of the retargeting: the span of the capture the clip plays — one gait cycle, cut
//! where its end pose best matches its start (cyclic), or an excerpt (one-shot) — and the
//! forward direction the limbs are projected on.

use super::bvh::Bvh;
use super::drive::{Drive, Sampler, Seg};
use super::gait::{self, Cut, Leg};
use super::mapping;
use super::{Mode, MotionOptions, NEAR_FRACTION, NEAR_MAX_FRAMES, axes, motion_err, pose};
use crate::error::RigError;

/// The capture as the cut reads it: per-frame root positions (canonical frame), the leg
/// length, and the feet and hips on demand.
pub(super) struct Capture<'a> {
    /// The capture.
    pub bvh: &'a Bvh,
    /// Its legs (near, far).
    pub legs: Option<[Leg; 2]>,
    /// Capture → canonical (Y-up) rotation.
    pub turn: [[f64; 3]; 3],
    /// The drawing faces right.
    pub facing: bool,
    /// The root's position at every frame, canonical frame.
    pub roots: Vec<[f64; 3]>,
    /// Hip → ankle length at rest (0 without legs).
    pub leg_len: f64,
}

impl<'a> Capture<'a> {
    /// Reads the roots of every frame and the leg length.
    pub(super) fn measure(
        bvh: &'a Bvh,
        legs: Option<[Leg; 2]>,
        turn: [[f64; 3]; 3],
        facing: bool,
        sampler: &mut Sampler,
    ) -> Self {
        let (mut buf, mut sbuf) = (Vec::new(), Vec::new());
        let roots: Vec<[f64; 3]> = (0..bvh.frames)
            .map(|f| sampler.sample(f as f64, &[], &mut buf, &mut sbuf))
            .collect();
        let leg_len = legs.map_or(0.0, |l| {
            let (h, a) = (
                axes::rest_position(bvh, l[0].hip),
                axes::rest_position(bvh, l[0].ankle),
            );
            pose::norm(pose::sub(a, h))
        });
        Capture {
            bvh,
            legs,
            turn,
            facing,
            roots,
            leg_len,
        }
    }

    /// The feet (ankle → toe, canonical), summed over frames `[a, b)`.
    fn feet_over(&self, sampler: &mut Sampler, a: usize, b: usize) -> Option<[f64; 3]> {
        let bvh = self.bvh;
        let l = self.legs?;
        let fs: Vec<Seg> = l
            .iter()
            .filter_map(|leg| {
                mapping::segment(bvh, leg.ankle)
                    .ok()
                    .map(|(end, _)| Seg::Limb {
                        joint: leg.ankle,
                        end,
                    })
            })
            .collect();
        if fs.is_empty() {
            return None;
        }
        let mut acc = [0.0; 3];
        let (mut o, mut st) = (Vec::new(), Vec::new());
        for f in a..b.max(a + 1).min(bvh.frames) {
            sampler.sample(f as f64, &fs, &mut o, &mut st);
            for v in &o {
                for k in 0..3 {
                    acc[k] += v[k];
                }
            }
        }
        Some(acc)
    }

    /// The hips' line (far → near when facing right), canonical, at frame `f`.
    fn hips_at(&self, f: usize) -> Option<[f64; 3]> {
        let bvh = self.bvh;
        self.legs.map(|l| {
            let mut w = Vec::with_capacity(bvh.joints.len());
            bvh.world(f.min(bvh.frames - 1), &mut w);
            let (near, far) = (w[l[0].hip].t, w[l[1].hip].t);
            let lr = if self.facing {
                pose::sub(near, far)
            } else {
                pose::sub(far, near)
            };
            axes::apply(&self.turn, lr)
        })
    }
}

/// The span the clip plays.
pub(super) struct Span {
    /// The capture frames searched, `[start, end)`.
    pub window: (usize, usize),
    /// The cut (fractional frames).
    pub cut: Cut,
    /// How the cut was found.
    pub event: String,
    /// Forward, canonical frame, unit and horizontal.
    pub forward: [f64; 3],
    /// Where forward came from.
    pub forward_from: String,
    /// The cut's pose mismatch (RMS, max degrees; 0 for a one-shot).
    pub mismatch: (f64, f64),
    /// A closed cycle (else a one-shot).
    pub looped: bool,
}

/// Cyclic (a gait cycle; with [`Mode::Auto`] a one-shot when the capture has none) or one-shot.
pub(super) fn choose(
    opts: &MotionOptions,
    cap: &Capture,
    drive: &Drive,
    sampler: &mut Sampler,
) -> Result<Span, RigError> {
    let mut once_reason = None;
    if opts.mode != Mode::Once {
        match cycle_cut(opts, cap, drive, sampler) {
            Ok((window, cut, event, forward, forward_from, mismatch)) => {
                return Ok(Span {
                    window,
                    cut,
                    event,
                    forward,
                    forward_from,
                    mismatch,
                    looped: true,
                });
            }
            Err(e) if opts.mode == Mode::Auto && e.code == "E_BVH_GAIT" => {
                once_reason = Some(e.message)
            }
            Err(e) => return Err(e),
        }
    }
    one_shot(opts, cap, sampler, once_reason)
}

/// The excerpt of a one-shot clip: [`MotionOptions::range`] or the whole capture.
fn one_shot(
    opts: &MotionOptions,
    cap: &Capture,
    sampler: &mut Sampler,
    once_reason: Option<String>,
) -> Result<Span, RigError> {
    let bvh = cap.bvh;
    let frame_time = bvh.frame_time;
    let (a, b) = match opts.range {
        Some((a, b)) => (a / frame_time, b / frame_time),
        None => (0.0, (bvh.frames - 1) as f64),
    };
    if !(a.is_finite() && b.is_finite() && 0.0 <= a && a < b) || b > (bvh.frames - 1) as f64 + 1e-9
    {
        return Err(motion_err(format!(
            "range {:.3}..{:.3} s is not an increasing range inside the capture's {:.3} s",
            a * frame_time,
            b * frame_time,
            (bvh.frames - 1) as f64 * frame_time
        )));
    }
    let b = b.min((bvh.frames - 1) as f64);
    let (fa, fb) = (a.floor() as usize, (b.ceil() as usize).min(bvh.frames - 1));
    let travel = pose::sub(cap.roots[fb], cap.roots[fa]);
    let feet = cap.feet_over(sampler, fa, fb + 1);
    let (forward, forward_from) =
        find_forward(opts, &cap.turn, travel, cap.leg_len, feet, cap.hips_at(fa))?;
    let event = match &once_reason {
        Some(r) => format!("one-shot (no repeating gait: {r})"),
        None => "one-shot".to_string(),
    };
    Ok(Span {
        window: (fa, fb + 1),
        cut: Cut {
            start: a,
            end: b,
            leg: 0,
        },
        event,
        forward,
        forward_from,
        mismatch: (0.0, 0.0),
        looped: false,
    })
}

type CycleCut = ((usize, usize), Cut, String, [f64; 3], String, (f64, f64));

/// The cyclic cut (see the module doc): window, cut, event, forward and
/// its source, the pose mismatch (RMS, max degrees).
fn cycle_cut(
    opts: &MotionOptions,
    cap: &Capture,
    drive: &Drive,
    sampler: &mut Sampler,
) -> Result<CycleCut, RigError> {
    let bvh = cap.bvh;
    let (roots, turn, leg_len) = (&cap.roots, &cap.turn, cap.leg_len);
    let frame_time = bvh.frame_time;
    let probe: Vec<Seg> = drive
        .mapped
        .iter()
        .chain(&drive.leg_segs)
        .cloned()
        .collect();
    let (mut buf, mut sbuf) = (Vec::new(), Vec::new());
    let angles_at = |sampler: &mut Sampler,
                     t: f64,
                     fwd: [f64; 3],
                     buf: &mut Vec<[f64; 3]>,
                     sbuf: &mut Vec<[f64; 3]>|
     -> Vec<f64> {
        sampler.sample(t, &probe, buf, sbuf);
        buf.iter()
            .map(|v| pose::sagittal(*v, fwd, opts.facing_right))
            .collect()
    };
    let mismatch_of = |a: &[f64], b: &[f64]| -> (f64, f64) {
        let n = a.len().max(1) as f64;
        let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| pose::wrap(y - x)).collect();
        (
            (d.iter().map(|x| x * x).sum::<f64>() / n)
                .sqrt()
                .to_degrees(),
            d.iter().fold(0.0f64, |m, x| m.max(x.abs())).to_degrees(),
        )
    };
    if let Some((s, e)) = opts.cycle {
        let window = opts.window.unwrap_or((0, bvh.frames));
        let (fa, fb) = (s.floor() as usize, (e.ceil() as usize).min(bvh.frames - 1));
        let feet = cap.feet_over(sampler, fa, fb + 1);
        let (fwd, from) = find_forward(
            opts,
            turn,
            pose::sub(roots[fb], roots[fa]),
            leg_len,
            feet,
            cap.hips_at(fa),
        )?;
        let a0 = angles_at(sampler, s, fwd, &mut buf, &mut sbuf);
        let a1 = angles_at(sampler, e, fwd, &mut buf, &mut sbuf);
        return Ok((
            window,
            Cut {
                start: s,
                end: e,
                leg: 0,
            },
            "explicit".to_string(),
            fwd,
            from,
            mismatch_of(&a0, &a1),
        ));
    }
    let Some(legs) = cap.legs else {
        return Err(RigError::new(
            "E_BVH_GAIT",
            "cannot find the legs in the capture (no hip/knee/ankle joints of a known naming family), so no gait cycle: make the clip one-shot (NAME=FILE.bvh or NAME=FILE.bvh:once, or --range A..B)",
        ));
    };
    let sig = gait::signals(bvh, legs);
    let window = opts
        .window
        .unwrap_or_else(|| gait::steady_window(roots, frame_time, 1));
    let (w0, w1) = (window.0, window.1.min(bvh.frames).max(window.0 + 1));
    let feet = cap.feet_over(sampler, w0, w1);
    let (fwd, from) = find_forward(
        opts,
        turn,
        pose::sub(roots[w1 - 1], roots[w0]),
        leg_len,
        feet,
        cap.hips_at(w0),
    )?;
    let ev = [
        gait::events(&sig.knee[0], w0, w1),
        gait::events(&sig.knee[1], w0, w1),
    ];
    let mut cands: Vec<Cut> = Vec::new();
    for leg in 0..2 {
        for c in gait::cuts(&sig.knee[leg], leg, w0, w1, frame_time) {
            let (lo, hi) = (
                c.start + 0.25 * (c.end - c.start),
                c.start + 0.75 * (c.end - c.start),
            );
            if ev[1 - leg].iter().any(|&x| lo <= x && x <= hi) {
                cands.push(c);
            }
        }
    }
    if cands.is_empty() {
        return Err(RigError::new(
            "E_BVH_GAIT",
            format!(
                "no repeating gait in capture frames {}-{}: {} near-knee and {} far-knee toe-off(s), and no two successive toe-offs of one foot 0.4-2.5 s apart with one of the other foot between them: make the clip one-shot (NAME=FILE.bvh without :loop, or --range A..B)",
                w0 + 1,
                w1,
                ev[0].len(),
                ev[1].len()
            ),
        ));
    }
    // per-frame angles of the probe segments, over the frames the search can reach
    let reach = |c: &Cut| {
        ((c.end - c.start) * NEAR_FRACTION)
            .round()
            .clamp(1.0, NEAR_MAX_FRAMES) as i64
    };
    let last = bvh.frames as i64 - 1;
    let mut cache: std::collections::HashMap<i64, Vec<f64>> = std::collections::HashMap::new();
    let mut at = |f: i64, sampler: &mut Sampler| -> Vec<f64> {
        cache
            .entry(f)
            .or_insert_with(|| angles_at(sampler, f as f64, fwd, &mut buf, &mut sbuf))
            .clone()
    };
    let lag = ((0.02 / frame_time).round() as i64).max(1);
    let mut best: Option<(f64, Cut, (f64, f64))> = None;
    for c in &cands {
        let r = reach(c);
        let (s0, e0) = (c.start.round() as i64, c.end.round() as i64);
        for ds in -r..=r {
            let s = s0 + ds;
            if s - lag < 0 || s + lag > last {
                continue;
            }
            let (sp, sm, s_) = (at(s + lag, sampler), at(s - lag, sampler), at(s, sampler));
            for de in -r..=r {
                let e = e0 + de;
                if e - lag < 0 || e + lag > last || e <= s {
                    continue;
                }
                let secs = (e - s) as f64 * frame_time;
                if !(0.4..=2.5).contains(&secs) {
                    continue;
                }
                let (ep, em, e_) = (at(e + lag, sampler), at(e - lag, sampler), at(e, sampler));
                let pose_m = mismatch_of(&s_, &e_);
                let vs: Vec<f64> = sp.iter().zip(&sm).map(|(a, b)| pose::wrap(a - b)).collect();
                let ve: Vec<f64> = ep.iter().zip(&em).map(|(a, b)| pose::wrap(a - b)).collect();
                let vel = mismatch_of(&vs, &ve).0;
                // a tiny pull towards the events themselves decides ties
                let score = pose_m.0 + vel + 1e-3 * (ds.abs() + de.abs()) as f64 / r as f64;
                if best.as_ref().is_none_or(|b| score < b.0 - 1e-9) {
                    best = Some((
                        score,
                        Cut {
                            start: s as f64,
                            end: e as f64,
                            leg: c.leg,
                        },
                        pose_m,
                    ));
                }
            }
        }
    }
    let Some((_, cut, m)) = best else {
        return Err(RigError::new(
            "E_BVH_GAIT",
            "the gait cycles found lie too close to the capture's ends to search around them: make the clip one-shot (NAME=FILE.bvh without :loop, or --range A..B)",
        ));
    };
    let knee = &bvh.joints[legs[cut.leg].knee].name;
    Ok((
        window,
        cut,
        format!(
            "toe-offs of {knee} (knee flexing into swing), the other foot's between them; ends moved to the best-matching frames"
        ),
        fwd,
        from,
        m,
    ))
}

/// The forward direction (canonical frame, unit, horizontal) and where it came from.
fn find_forward(
    opts: &MotionOptions,
    turn: &[[f64; 3]; 3],
    travel: [f64; 3],
    leg_len: f64,
    feet: Option<[f64; 3]>,
    hips: Option<[f64; 3]>,
) -> Result<([f64; 3], String), RigError> {
    let unit = |v: [f64; 3]| {
        let n = v[0].hypot(v[2]);
        (n > 1e-9 && n.is_finite()).then(|| [v[0] / n, 0.0, v[2] / n])
    };
    if let Some(ax) = opts.forward {
        let v = axes::apply(turn, ax.vector());
        if v[1].abs() > 0.5 {
            return Err(RigError::new(
                "E_RIG_MOTION",
                format!(
                    "--forward {} is the capture's vertical axis; give a horizontal one",
                    ax.name()
                ),
            ));
        }
        return Ok((unit(v).unwrap_or([0.0, 0.0, 1.0]), "--forward".into()));
    }
    if travel[0].hypot(travel[2]) > 0.25 * leg_len
        && let Some(u) = unit(travel)
    {
        return Ok((u, "travel".into()));
    }
    if let Some(u) = feet.and_then(unit) {
        return Ok((u, "toes".into()));
    }
    if let Some(l) = hips
        && let Some(u) = unit([-l[2], 0.0, l[0]])
    {
        return Ok((u, "hips".into()));
    }
    if let Some(u) = unit(travel) {
        return Ok((u, "travel".into()));
    }
    Err(RigError::new(
        "E_BVH_GAIT",
        "the capture neither travels nor has feet or hips to tell where it faces; give --forward",
    ))
}
