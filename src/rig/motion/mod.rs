//! Retargeting a captured walk onto a drawn skeleton (rig.md §6).
//!
//! | file | stage | spec |
//! |---|---|---|
//! | `mapping.rs` | bone name → capture joint (default table for CMU / Mixamo / ASF names), a joint's limb segment | §1 `mocap`, §6 |
//! | `gait.rs` | steady part of the walk, gait events (knee flexing into swing), the cycle cut | §6 |
//! | `pose.rs` | limb directions on the drawing's plane, angles relative to the declared parent and the drawn pose, clamping | §6 |
//! | `mod.rs` | [`retarget`]: the stages above, resampling to the clip's fps, exact loop closure, root bob | §6 |
//!
//! [`retarget`] takes a parsed capture ([`super::bvh::Bvh`]) and the
//! declared bones as [`MotionBone`]s and returns a [`Walk`]: one gait cycle
//! as per-bone angle deltas relative to the declared parent (0 = as drawn)
//! and a vertical root offset, keyed at the clip's fps, first key == last
//! key exactly. [`retarget_with_report`] also returns the numbers behind it
//! ([`CycleReport`]: the cut, the window, the raw loop-closure mismatch per
//! bone, the clamps).
//!
//! Rules (the choices where rig.md is silent are marked *choice*):
//! - **Limb directions**: a mapped bone's world angle is its joint's segment
//!   (see `mapping.rs`) after forward kinematics, projected on the sagittal
//!   plane: *forward* = the capture's horizontal walking direction (the
//!   root's travel over the cycle; for a capture that does not travel, the
//!   left hip → right hip axis turned to face forward), *up* = +Y (the BVH
//!   convention). Facing right, forward is drawing +x; facing left, −x; up
//!   is drawing −y. The bone takes that direction as it is (*choice*: the
//!   capture's direction, not a change around the drawn angle), so a limb
//!   drawn at an angle the capture never reaches is turned to the capture's
//!   angle — up to the clamp.
//! - **Deltas** are relative to the declared parent and to the drawn pose:
//!   `delta = (world − parent world) − (drawn angle − drawn parent angle)`,
//!   evaluated parents first with the parent's *clamped* world angle, so a
//!   child keeps its capture direction when its parent was clamped. A bone
//!   without a joint has delta 0 (it keeps its drawn pose relative to its
//!   parent).
//! - **Clamp**: a delta beyond ±[`MotionOptions::max_angle`] (90°, the
//!   working-pose limit) is clamped, with one warning per bone.
//! - **Cycle**: see `gait.rs`; or [`MotionOptions::cycle`] given
//!   explicitly. The cycle is resampled at `K = round(cycle seconds × fps)`
//!   keys plus the closing one: key `k` samples the capture at
//!   `start + k/K·(end − start)` (joint positions interpolated linearly
//!   between frames), so the clip lasts `K / fps` s (*choice*: a whole
//!   number of clip frames, the capture's time scaled by at most half a
//!   frame).
//! - **Loop closure**: the capture's pose at the cycle's end differs a
//!   little from its start (the raw mismatch, reported per bone). That
//!   difference is spread linearly over the cycle (key `k` gets `−k/K` of
//!   it) on every limb angle and the root height, and the last key is then
//!   set to the first exactly: frame 0 and frame `duration` are the same
//!   pose, bit for bit.
//! - **Root bob**: the capture root's height over the cycle, minus its mean
//!   over the cycle (*choice*: the drawn pose is the mean height), times
//!   drawing leg length / capture leg length (thigh + shin of the near leg
//!   as drawn, or of the far leg when the near one is not mapped; the
//!   capture's hip → knee → ankle rest lengths), y down. Forward travel is
//!   dropped: the walk is in place.
//! - **Limits**: the clip's key count is checked against `bvh-max-frames`
//!   of [`Limits::current`] before the keys are allocated.

/// The largest root bob (drawing pixels, 2^24): beyond it the `.riv`'s
/// binary32 no longer holds whole pixels.
pub const MAX_ROOT_DY: f64 = 16_777_216.0;

pub mod gait;
pub mod mapping;
pub mod pose;

use std::f64::consts::FRAC_PI_2;

use super::bvh::{Bvh, Xform};
use super::error::RigError;
use crate::limits::Limits;
use gait::{Cut, Leg};
use mapping::{End, SideWord};

/// A declared bone as motion sees it: drawing pixels, y down, declaration order.
#[derive(Clone, Debug, PartialEq)]
pub struct MotionBone {
    /// Bone name (used by the default mapping and in messages).
    pub name: String,
    /// Declared parent (index into the same slice).
    pub parent: Option<usize>,
    /// First point of the bone's polyline.
    pub start: [f64; 2],
    /// Last point of the bone's polyline.
    pub end: [f64; 2],
    /// Capture joint where the bone's limb segment starts (`None`: the
    /// default mapping when the name allows, else the drawn pose; `""`: the
    /// drawn pose — a declaration with a `mocap` map leaves its other bones
    /// unmapped, rig.md §1).
    pub joint: Option<String>,
}

/// The joints of the two legs, by name: hip, knee, ankle.
#[derive(Clone, Debug, PartialEq)]
pub struct LegNames {
    /// The near leg (the capture's Left when facing right).
    pub near: [String; 3],
    /// The far leg.
    pub far: [String; 3],
}

/// Retargeting options.
#[derive(Clone, Debug, PartialEq)]
pub struct MotionOptions {
    /// The drawing faces right (default) or left.
    pub facing_right: bool,
    /// Keys per second of the clip (the export fps), > 0.
    pub fps: f64,
    /// Capture frames `[start, end)` (0-based) to search for the cycle;
    /// `None` = the detected steady part (`gait.rs`).
    pub window: Option<(usize, usize)>,
    /// The cut, in fractional capture frames (0-based), instead of the
    /// detected one.
    pub cycle: Option<(f64, f64)>,
    /// Leg joints for the gait events and the leg length; `None` = the
    /// naming convention's.
    pub legs: Option<LegNames>,
    /// Keep the root's vertical motion (default true); false = no bob.
    pub root_bob: bool,
    /// Largest delta from the drawn pose, radians (default π/2).
    pub max_angle: f64,
}

impl Default for MotionOptions {
    fn default() -> Self {
        MotionOptions {
            facing_right: true,
            fps: 60.0,
            window: None,
            cycle: None,
            legs: None,
            root_bob: true,
            max_angle: FRAC_PI_2,
        }
    }
}

/// One closed gait cycle, ready to become a clip.
#[derive(Clone, Debug, PartialEq)]
pub struct Walk {
    /// Seconds, one gait cycle.
    pub duration: f64,
    /// Key times, `times[0] = 0`, last = `duration`.
    pub times: Vec<f64>,
    /// Per declared bone (same order as the input slice): per key, the
    /// change of the bone's angle RELATIVE TO ITS DECLARED PARENT versus
    /// the drawn pose, radians (0 = as drawn). First key == last key exactly.
    pub angles: Vec<Vec<f64>>,
    /// Per key: root vertical offset in drawing pixels, y down; first == last.
    pub root_dy: Vec<f64>,
    /// Clamps beyond ±90°, unmapped bones, ….
    pub warnings: Vec<String>,
}

/// The numbers behind a [`Walk`].
#[derive(Clone, Debug, PartialEq)]
pub struct CycleReport {
    /// The capture frames searched, `[start, end)` (0-based).
    pub window: (usize, usize),
    /// Cycle start, fractional capture frame (0-based).
    pub start: f64,
    /// Cycle end.
    pub end: f64,
    /// Capture frames per second.
    pub capture_fps: f64,
    /// How the cut was found (`"toe-off of LeftKnee"`, `"explicit"`).
    pub event: String,
    /// Keys in the clip (including the closing one).
    pub keys: usize,
    /// Horizontal walking direction in capture coordinates (unit).
    pub forward: [f64; 3],
    /// Joint driving each bone (`None`: drawn pose).
    pub joints: Vec<Option<String>>,
    /// Per bone: the raw closure mismatch of its limb direction (end minus
    /// start of the cut, before the linear correction), radians; 0 when
    /// unmapped.
    pub closure: Vec<f64>,
    /// The raw closure mismatch of the root height, drawing pixels.
    pub root_closure: f64,
    /// Drawing pixels per capture unit of the root bob (0: no bob).
    pub scale: f64,
    /// Per bone: keys whose delta was clamped.
    pub clamped: Vec<usize>,
}

/// A walk and its report.
#[derive(Clone, Debug, PartialEq)]
pub struct Retargeted {
    /// The walk.
    pub walk: Walk,
    /// Its numbers.
    pub report: CycleReport,
}

fn motion_err(msg: impl Into<String>) -> RigError {
    RigError::new("E_RIG_MOTION", msg)
}

/// Retargets one gait cycle of `bvh` onto `bones` (see the module doc).
pub fn retarget(bvh: &Bvh, bones: &[MotionBone], opts: &MotionOptions) -> Result<Walk, RigError> {
    retarget_with_report(bvh, bones, opts).map(|r| r.walk)
}

/// A bone's limb segment in the capture.
#[derive(Clone, Copy, Debug)]
struct Seg {
    joint: usize,
    end: End,
}

fn seg_points(bvh: &Bvh, w: &[Xform], s: &Seg) -> ([f64; 3], [f64; 3]) {
    let a = w[s.joint].t;
    let b = match s.end {
        End::Joint(c) => w[c].t,
        End::Site(j, k) => w[j].apply(bvh.joints[j].end_sites[k]),
    };
    (a, b)
}

/// Segment vectors at fractional frames: joint positions interpolated
/// linearly between the two neighbouring frames.
struct Sampler<'a> {
    bvh: &'a Bvh,
    w0: Vec<Xform>,
    w1: Vec<Xform>,
}

impl<'a> Sampler<'a> {
    fn new(bvh: &'a Bvh) -> Self {
        Sampler {
            bvh,
            w0: Vec::with_capacity(bvh.joints.len()),
            w1: Vec::with_capacity(bvh.joints.len()),
        }
    }

    /// Segment vectors (end − start) of `segs` into `out`, and the root
    /// position, at fractional frame `t`.
    fn sample(&mut self, t: f64, segs: &[Seg], out: &mut Vec<[f64; 3]>) -> [f64; 3] {
        let last = self.bvh.frames - 1;
        let f0 = (t.floor().max(0.0) as usize).min(last);
        let f1 = (f0 + 1).min(last);
        let a = (t - f0 as f64).clamp(0.0, 1.0);
        self.bvh.world(f0, &mut self.w0);
        self.bvh.world(f1, &mut self.w1);
        let lerp = |p: [f64; 3], q: [f64; 3]| {
            [
                p[0] + (q[0] - p[0]) * a,
                p[1] + (q[1] - p[1]) * a,
                p[2] + (q[2] - p[2]) * a,
            ]
        };
        out.clear();
        for s in segs {
            let (p0, q0) = seg_points(self.bvh, &self.w0, s);
            let (p1, q1) = seg_points(self.bvh, &self.w1, s);
            out.push(pose::sub(lerp(q0, q1), lerp(p0, p1)));
        }
        lerp(self.w0[0].t, self.w1[0].t)
    }
}

/// Joint and segment of each bone (explicit joints must resolve; default
/// ones that do not are warned about and left unmapped).
fn resolve(
    bvh: &Bvh,
    bones: &[MotionBone],
    facing: bool,
    warnings: &mut Vec<String>,
) -> Result<Vec<Option<Seg>>, RigError> {
    let conv = mapping::convention(bvh);
    let mut segs = Vec::with_capacity(bones.len());
    for b in bones {
        let seg = match &b.joint {
            // explicitly unmapped: the drawn pose, no default joint
            Some(name) if name.is_empty() => None,
            Some(name) => {
                let j = bvh.find(name).map_err(|e| {
                    RigError::new(e.code, format!("bone '{}': {}", b.name, e.message))
                })?;
                let (end, _) = mapping::segment(bvh, j)
                    .map_err(|m| RigError::new("E_BVH_JOINT", format!("bone '{}': {m}", b.name)))?;
                Some(Seg { joint: j, end })
            }
            None => {
                let role = mapping::role_of(&b.name);
                let want =
                    role.and_then(|(role, side)| conv.map(|c| c.joint(role, side.side(facing))));
                match want {
                    None if role.is_some() => {
                        warnings.push(format!(
                            "bone '{}': the capture uses none of the known joint names (CMU, Mixamo, ASF); it keeps its drawn pose (name its joint in `mocap`)",
                            b.name
                        ));
                        None
                    }
                    None => {
                        if b.parent.is_some() {
                            warnings.push(format!(
                                "bone '{}': no capture joint (no role word of the default table in its name); it keeps its drawn pose",
                                b.name
                            ));
                        }
                        None
                    }
                    Some(jn) => match bvh.find(jn) {
                        Err(_) => {
                            warnings.push(format!(
                                "bone '{}': the default joint '{jn}' is not in the capture; it keeps its drawn pose",
                                b.name
                            ));
                            None
                        }
                        Ok(j) => match mapping::segment(bvh, j) {
                            Ok((end, _)) => Some(Seg { joint: j, end }),
                            Err(m) => {
                                warnings.push(format!(
                                    "bone '{}': the default joint is unusable: {m}; it keeps its drawn pose",
                                    b.name
                                ));
                                None
                            }
                        },
                    },
                }
            }
        };
        segs.push(seg);
    }
    Ok(segs)
}

/// Retargets and reports (see the module doc).
pub fn retarget_with_report(
    bvh: &Bvh,
    bones: &[MotionBone],
    opts: &MotionOptions,
) -> Result<Retargeted, RigError> {
    let limits = Limits::current();
    check_options(bvh, opts)?;
    let order = pose::parents_first(bones)?;
    let facing = opts.facing_right;
    let mut warnings: Vec<String> = Vec::new();
    // 1. Joints and segments per bone; the legs (near, far).
    let segs = resolve(bvh, bones, facing, &mut warnings)?;
    let conv_legs = mapping::convention(bvh).map(|c| {
        [
            c.leg(SideWord::Near.side(facing)),
            c.leg(SideWord::Far.side(facing)),
        ]
    });
    let legs = find_legs(bvh, opts, conv_legs)?;
    let leg_segs: Vec<Seg> = legs
        .iter()
        .flat_map(|l| l.iter())
        .flat_map(|l| {
            [
                Seg {
                    joint: l.hip,
                    end: End::Joint(l.knee),
                },
                Seg {
                    joint: l.knee,
                    end: End::Joint(l.ankle),
                },
            ]
        })
        .collect();
    let mapped: Vec<Seg> = segs.iter().flatten().copied().collect();
    // 2. The cut.
    let frame_time = bvh.frame_time;
    let mut sampler = Sampler::new(bvh);
    let mut buf: Vec<[f64; 3]> = Vec::new();
    let (window, cut, event) = match opts.cycle {
        Some((s, e)) => (
            opts.window.unwrap_or((0, bvh.frames)),
            Cut {
                start: s,
                end: e,
                leg: 0,
            },
            "explicit".to_string(),
        ),
        None => {
            let Some(legs) = legs else {
                return Err(RigError::new(
                    "E_BVH_GAIT",
                    "cannot find the legs in the capture (no known hip/knee/ankle joint names); name them or give the cycle explicitly",
                ));
            };
            let sig = gait::signals(bvh, legs);
            let window = opts
                .window
                .unwrap_or_else(|| gait::steady_window(&sig.root, frame_time, 1));
            let near = gait::cuts(&sig.knee[0], 0, window.0, window.1, frame_time);
            let far = gait::cuts(&sig.knee[1], 1, window.0, window.1, frame_time);
            let probe: Vec<Seg> = mapped.iter().chain(&leg_segs).copied().collect();
            let mut score = |c: &Cut| -> (f64, Cut) {
                let r0 = sampler.sample(c.start, &probe, &mut buf);
                let v0 = buf.clone();
                let r1 = sampler.sample(c.end, &probe, &mut buf);
                let fwd = pose::forward(r0, r1, None).unwrap_or([0.0, 0.0, 1.0]);
                let worst = v0
                    .iter()
                    .zip(&buf)
                    .map(|(a, b)| {
                        pose::wrap(
                            pose::sagittal(*b, fwd, facing) - pose::sagittal(*a, fwd, facing),
                        )
                        .abs()
                    })
                    .fold(0.0, f64::max);
                (worst, *c)
            };
            let near_scored: Vec<(f64, Cut)> = near.iter().map(&mut score).collect();
            let far_scored: Vec<(f64, Cut)> = far.iter().map(&mut score).collect();
            let cut = gait::choose(&near_scored, &far_scored).ok_or_else(|| {
                RigError::new(
                    "E_BVH_GAIT",
                    format!(
                        "no gait cycle in capture frames {}-{}: {} near-foot and {} far-foot cycle(s) fit (two successive toe-offs of one foot, 0.4-2.5 s apart); give a window or the cycle",
                        window.0 + 1,
                        window.1,
                        near.len(),
                        far.len()
                    ),
                )
            })?;
            let knee = &bvh.joints[legs[cut.leg].knee].name;
            (
                window,
                cut,
                format!("toe-off of {knee} (knee flexing into swing)"),
            )
        }
    };
    // 3. Walking direction over the cut.
    let r0 = sampler.sample(cut.start, &[], &mut buf);
    let r1 = sampler.sample(cut.end, &[], &mut buf);
    let first = (cut.start as usize).min(bvh.frames - 1);
    let hips = legs.map(|l| {
        let mut w = Vec::with_capacity(bvh.joints.len());
        bvh.world(first, &mut w);
        let (near, far) = (w[l[0].hip].t, w[l[1].hip].t);
        if facing {
            pose::sub(near, far)
        } else {
            pose::sub(far, near)
        }
    });
    let forward = pose::forward(r0, r1, hips).ok_or_else(|| {
        RigError::new(
            "E_BVH_GAIT",
            "the capture neither travels over the cycle nor has legs to tell where it faces",
        )
    })?;
    // 4. Keys: sample, unwrap, close.
    let seconds = (cut.end - cut.start) * frame_time;
    let k_count = (seconds * opts.fps).round();
    if k_count.is_nan() || k_count < 2.0 {
        return Err(motion_err(format!(
            "the cycle lasts {seconds} s: fewer than 2 keys at {} fps",
            opts.fps
        )));
    }
    if k_count + 1.0 > limits.bvh_max_frames as f64 {
        return Err(RigError::new(
            "E_BVH_LIMIT",
            format!(
                "the cycle needs {} keys, more than {} (limit bvh-max-frames, see --limit)",
                k_count + 1.0,
                limits.bvh_max_frames
            ),
        ));
    }
    let kk = k_count as usize;
    let fps = opts.fps;
    let duration = kk as f64 / fps;
    let times: Vec<f64> = (0..=kk).map(|k| k as f64 / fps).collect();
    let mut theta: Vec<Vec<f64>> = vec![Vec::with_capacity(kk + 1); mapped.len()];
    let mut height: Vec<f64> = Vec::with_capacity(kk + 1);
    for k in 0..=kk {
        let t = cut.start + (cut.end - cut.start) * k as f64 / kk as f64;
        let root = sampler.sample(t, &mapped, &mut buf);
        for (i, v) in buf.iter().enumerate() {
            theta[i].push(pose::sagittal(*v, forward, facing));
        }
        height.push(root[1]);
    }
    let mut raw_closure = Vec::with_capacity(mapped.len());
    for th in &mut theta {
        pose::unwrap(th);
        raw_closure.push(pose::close(th));
    }
    let root_raw = pose::close(&mut height);
    // 5. The root bob.
    let scale = if !opts.root_bob {
        0.0
    } else {
        match leg_scale(bvh, first, bones, &segs, legs) {
            Some(s) => s,
            None => {
                warnings.push(
                    "no leg bone is mapped to the capture's hip and knee joints: the root does not bob"
                        .to_string(),
                );
                0.0
            }
        }
    };
    let mean = height[..kk].iter().sum::<f64>() / kk as f64;
    let mut root_dy: Vec<f64> = height.iter().map(|h| -(h - mean) * scale).collect();
    root_dy[kk] = root_dy[0];
    // A bob no drawing can show (a root height of 8e37 in the capture) is
    // refused here, not later as a `.riv` number out of range.
    if let Some(v) = root_dy
        .iter()
        .find(|v| !(v.is_finite() && v.abs() <= MAX_ROOT_DY))
    {
        return Err(RigError::new(
            "E_BVH_NAN",
            format!(
                "the capture's root height gives a vertical offset of {v:e} drawing pixels, beyond ±{MAX_ROOT_DY} (the root channel is out of range)"
            ),
        ));
    }
    // 6. Deltas relative to the declared parent and the drawn pose.
    let mut world_of: Vec<Option<&Vec<f64>>> = Vec::with_capacity(bones.len());
    let mut closure = Vec::with_capacity(bones.len());
    let mut mi = 0;
    for s in &segs {
        if s.is_some() {
            world_of.push(Some(&theta[mi]));
            closure.push(raw_closure[mi]);
            mi += 1;
        } else {
            world_of.push(None);
            closure.push(0.0);
        }
    }
    let drawn: Vec<f64> = bones
        .iter()
        .map(|b| (b.end[1] - b.start[1]).atan2(b.end[0] - b.start[0]))
        .collect();
    let (mut angles, clamped) =
        pose::deltas(bones, &order, &drawn, &world_of, kk + 1, opts.max_angle);
    for a in &mut angles {
        a[kk] = a[0];
    }
    for (b, &n) in bones.iter().zip(&clamped) {
        if n > 0 {
            warnings.push(format!(
                "bone '{}': {n} of {} keys were more than {:.0}° from the drawn pose and were clamped",
                b.name,
                kk + 1,
                opts.max_angle.to_degrees()
            ));
        }
    }
    let report = CycleReport {
        window,
        start: cut.start,
        end: cut.end,
        capture_fps: 1.0 / frame_time,
        event,
        keys: kk + 1,
        forward,
        joints: segs
            .iter()
            .map(|s| s.map(|s| bvh.joints[s.joint].name.clone()))
            .collect(),
        closure,
        root_closure: -root_raw * scale,
        scale,
        clamped,
    };
    Ok(Retargeted {
        walk: Walk {
            duration,
            times,
            angles,
            root_dy,
            warnings,
        },
        report,
    })
}

fn check_options(bvh: &Bvh, o: &MotionOptions) -> Result<(), RigError> {
    if !(o.fps.is_finite() && o.fps > 0.0 && o.fps <= 1000.0) {
        return Err(motion_err(format!("fps {} is not in (0, 1000]", o.fps)));
    }
    if !(o.max_angle > 0.0 && o.max_angle <= std::f64::consts::PI) {
        return Err(motion_err(format!(
            "max_angle {} is not in (0, π]",
            o.max_angle
        )));
    }
    if bvh.frames < 2 {
        return Err(RigError::new(
            "E_BVH_GAIT",
            format!(
                "the capture has {} frame(s); a cycle needs more",
                bvh.frames
            ),
        ));
    }
    if let Some((a, b)) = o.window
        && !(a < b && b <= bvh.frames)
    {
        return Err(motion_err(format!(
            "window {a}..{b} is not inside the capture's {} frames",
            bvh.frames
        )));
    }
    if let Some((a, b)) = o.cycle
        && !(a.is_finite() && b.is_finite() && 0.0 <= a && a < b && b <= (bvh.frames - 1) as f64)
    {
        return Err(motion_err(format!(
            "cycle {a}..{b} is not an increasing range of frames 0..{}",
            bvh.frames - 1
        )));
    }
    Ok(())
}

fn find_legs(
    bvh: &Bvh,
    opts: &MotionOptions,
    conv: Option<[[&str; 3]; 2]>,
) -> Result<Option<[Leg; 2]>, RigError> {
    let leg = |n: [&str; 3]| -> Result<Leg, RigError> {
        Ok(Leg {
            hip: bvh.find(n[0])?,
            knee: bvh.find(n[1])?,
            ankle: bvh.find(n[2])?,
        })
    };
    match &opts.legs {
        Some(l) => {
            fn r(a: &[String; 3]) -> [&str; 3] {
                [a[0].as_str(), a[1].as_str(), a[2].as_str()]
            }
            Ok(Some([leg(r(&l.near))?, leg(r(&l.far))?]))
        }
        None => Ok(conv.and_then(|c| Some([leg(c[0]).ok()?, leg(c[1]).ok()?]))),
    }
}

/// Drawing pixels per capture unit: drawn thigh + shin over the capture's
/// hip → knee → ankle lengths (at frame `frame`), near leg first.
fn leg_scale(
    bvh: &Bvh,
    frame: usize,
    bones: &[MotionBone],
    segs: &[Option<Seg>],
    legs: Option<[Leg; 2]>,
) -> Option<f64> {
    let legs = legs?;
    let mut w = Vec::with_capacity(bvh.joints.len());
    bvh.world(frame, &mut w);
    let dist = |a: usize, b: usize| {
        let d = pose::sub(w[a].t, w[b].t);
        (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
    };
    for l in legs {
        let drawn = |joint: usize| {
            bones.iter().zip(segs).find_map(|(b, s)| {
                s.filter(|s| s.joint == joint)
                    .map(|_| (b.end[0] - b.start[0]).hypot(b.end[1] - b.start[1]))
            })
        };
        if let (Some(t), Some(s)) = (drawn(l.hip), drawn(l.knee)) {
            let cap = dist(l.knee, l.hip) + dist(l.ankle, l.knee);
            if cap > 0.0 && t + s > 0.0 {
                return Some((t + s) / cap);
            }
        }
    }
    None
}
