//! Retargeting a capture onto a drawn skeleton (rig.md §6 as amended by
//! issue 25; the rules are written out in `docs/rig.md`, "Motion").
//!
//! | file | stage | spec |
//! |---|---|---|
//! | `bvh.rs` | BVH reader (any channel order, End Sites, CRLF) and forward kinematics | §6 |
//! | `axes.rs` | the capture's up axis (rest pose) and the canonical Y-up frame | §6, issue 25 |
//! | `mapping.rs` | bone name → capture joint (CMU, MotionBuilder/Vicon/Mixamo, ASF, Hips/Chest families; namespaces stripped), the child on a limb's chain, the trunk chain | §1 `mocap`, §6 |
//! | `gait.rs` | steady part of the walk, gait events (knee flexing into swing) | §6 |
//! | `pose.rs` | sagittal projection, unwrapping, the seam blend, angles relative to the declared parent and the drawn pose, clamping | §6 |
//! | `mod.rs` | [`retarget`]: the stages above, the cut, resampling, root bob, the clip-vs-capture fit | §6 |
//!
//! [`retarget`] takes a parsed capture ([`crate::motion::bvh::Bvh`]) and the
//! declared bones as [`MotionBone`]s and returns a [`Walk`]: one clip as
//! per-bone angle deltas relative to the declared parent (0 = as drawn) and
//! a vertical root offset, keyed at the clip's fps. A **cyclic** clip is one
//! gait cycle whose first key equals its last exactly; a **one-shot** clip
//! ([`Mode::Once`]) is the whole excerpt or a range of it.
//! [`retarget_with_report`] also returns the numbers behind it
//! ([`CycleReport`]).
//!
//! Rules (the choices where the spec is silent are marked *choice*):
//! - **Axes** (`axes.rs`): up detected from the rest pose, or
//!   [`MotionOptions::up`]; the capture is read turned so its up is +Y.
//!   Forward: [`MotionOptions::forward`], else the root's travel (at least
//!   a quarter of a leg), else the feet (ankle → toe), else the hips.
//! - **Long limbs** (thighs, shins, upper arms, forearms, and any bone not
//!   listed below): the bone takes its joint's segment direction projected
//!   on the sagittal plane (forward → drawing ±x by `facing`, up → −y).
//! - **Trunk** (bones whose role is spine/torso/chest, or that are mapped
//!   to a joint on the capture's root → neck chain): the chain from the
//!   root to the neck's base is split over the drawn trunk bones in
//!   proportion to their drawn lengths (by arc length along the chain);
//!   each trunk bone takes the direction of its piece — never one short
//!   spine segment.
//! - **End segments** (feet, toes, hands, head): the drawn pose plus the
//!   capture's *change* from its reference pose. Reference: for a cyclic
//!   clip, feet and toes use their stance keys (the keys where their
//!   ankle is within 20 % of its height range above its lowest), hands and
//!   the head the circular mean over the cycle; for a one-shot, the first
//!   key (the capture standing). So a foot drawn flat is flat in stance.
//! - **Reversed bend** (a bone declared `"bend": "reversed"`, [`Bend`]): a
//!   long limb's or trunk piece's target is mirrored about its parent's
//!   world angle, `world' = 2·parent world − world` (the parent's target;
//!   for a parent without one, the world angle its ancestors' targets and
//!   the drawn pose give it), before the seam and the deltas, so the fit
//!   measures the clip against the mirrored target. On a bone without a
//!   parent or with another rule it has no effect (a warning).
//! - **Deltas** are relative to the declared parent and to the drawn pose:
//!   `delta = (world − parent world) − (drawn angle − drawn parent angle)`,
//!   parents first with the parent's *clamped* world angle. A bone without
//!   a joint has delta 0.
//! - **Clamp**: a delta beyond ±[`MotionOptions::max_angle`] (90°) is
//!   clamped, with one warning per bone.
//! - **The cut** (cyclic): gait events are the toe-offs of each knee
//!   (`gait.rs`); a candidate is two successive toe-offs of one foot, 0.4–
//!   2.5 s apart, **with a toe-off of the other foot in its middle half**
//!   (a gait alternates; a jump, whose knees flex together, has none).
//!   Around each candidate the start and the end are moved by up to
//!   ±[`NEAR_FRACTION`] of the cycle (at most [`NEAR_MAX_FRAMES`]) in whole
//!   frames, and the cut whose end
//!   pose best matches its start pose (RMS over the mapped and leg segments
//!   of the projected angle difference, plus that of their velocities) is
//!   taken. [`MotionOptions::cycle`] gives it explicitly.
//! - **Keys**: `K = round(seconds × fps)` keys plus the closing one; key
//!   `k` samples the capture at `start + k/K·(end − start)` (joint
//!   positions interpolated linearly between frames).
//! - **Seam** (cyclic): the end-minus-start mismatch `d` of every angle and
//!   of the root height is removed by a smooth local blend over
//!   [`SEAM_FRACTION`] of the cycle around the seam (half at each end: the
//!   first keys are raised by up to `d/2`, the last lowered by up to
//!   `d/2`, smoothstep weights), and the last key is set to the first
//!   exactly. Outside the blend the clip is the capture.
//! - **Root bob**: the root's height minus its mean over the cycle (cyclic)
//!   or minus its first key (one-shot), times drawing leg length / capture
//!   leg length, y down. Forward travel is dropped: the motion is in place.
//! - **Fit**: per bone, the RMS and max difference between the clip's world
//!   angle and the rule's target from the capture (before the seam blend),
//!   outside the blend and overall ([`BoneFit`]).
//! - **Limits**: the clip's key count is checked against `bvh-max-frames`
//!   of [`Limits::current`] before the keys are allocated.

/// The largest root bob (drawing pixels, 2^24): beyond it the `.riv`'s
/// binary32 no longer holds whole pixels.
pub const MAX_ROOT_DY: f64 = 16_777_216.0;

pub mod axes;
pub mod bvh;
pub mod gait;
pub mod mapping;
pub mod pose;

use std::f64::consts::FRAC_PI_2;

/// Which way a bone bends (declared in the skeleton, `"bend"`).
pub use crate::declare::skeleton::Bend;
use crate::declare::skeleton::Skeleton;
use crate::error::RigError;
use crate::motion::bvh::{Bvh, Xform};
use axes::Axis;
use gait::{Cut, Leg};
use mapping::{End, Role, SideWord};
use re2d::limits::Limits;

/// Fraction of the cycle the seam blend spans (half at each end).
pub const SEAM_FRACTION: f64 = 0.12;
/// How far (fraction of the cycle) the cut's ends may move from the gait
/// events while searching for the best-matching pair …
pub const NEAR_FRACTION: f64 = 0.08;
/// … and at most this many capture frames (the search is quadratic in it).
pub const NEAR_MAX_FRAMES: f64 = 16.0;

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
    /// Which way its joint with its parent bends (the declaration's `bend`).
    pub bend: Bend,
}

/// The declared bones as motion takes them (same order). With a `mocap`
/// map, a bone not in it is explicitly unmapped (`""`: drawn pose);
/// without one, every bone gets the default table where its name allows.
pub fn bones_of(sk: &Skeleton) -> Vec<MotionBone> {
    sk.bones
        .iter()
        .map(|b| MotionBone {
            name: b.name.clone(),
            parent: b.parent,
            start: b.start(),
            end: b.end(),
            joint: match (&b.joint, sk.mocap_given) {
                (Some(j), _) => Some(j.clone()),
                (None, true) => Some(String::new()),
                (None, false) => None,
            },
            bend: b.bend,
        })
        .collect()
}

/// The joints of the two legs, by name: hip, knee, ankle.
#[derive(Clone, Debug, PartialEq)]
pub struct LegNames {
    /// The near leg (the capture's Left when facing right).
    pub near: [String; 3],
    /// The far leg.
    pub far: [String; 3],
}

/// Cyclic or one-shot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One gait cycle, closed (an error when there is none).
    Cycle,
    /// The whole excerpt (or [`MotionOptions::range`]), not looped.
    Once,
    /// A cycle when the capture has a repeating (alternating) gait, else once.
    Auto,
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
    /// The capture's up axis (`None`: detected from the rest pose).
    pub up: Option<Axis>,
    /// The capture's forward axis (`None`: detected).
    pub forward: Option<Axis>,
    /// Cyclic, one-shot or either (default [`Mode::Cycle`]).
    pub mode: Mode,
    /// One-shot: seconds `[a, b]` of the capture (`None`: all of it).
    pub range: Option<(f64, f64)>,
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
            up: None,
            forward: None,
            mode: Mode::Cycle,
            range: None,
        }
    }
}

/// One clip, ready to be keyed.
#[derive(Clone, Debug, PartialEq)]
pub struct Walk {
    /// Seconds.
    pub duration: f64,
    /// Key times, `times[0] = 0`, last = `duration`.
    pub times: Vec<f64>,
    /// Per declared bone (same order as the input slice): per key, the
    /// change of the bone's angle RELATIVE TO ITS DECLARED PARENT versus
    /// the drawn pose, radians (0 = as drawn). Cyclic: first key == last key exactly.
    pub angles: Vec<Vec<f64>>,
    /// Per key: root vertical offset in drawing pixels, y down.
    pub root_dy: Vec<f64>,
    /// The clip loops (a closed cycle) or plays once.
    pub looped: bool,
    /// Clamps beyond ±90°, unmapped bones, ….
    pub warnings: Vec<String>,
}

/// How closely one bone's clip follows the capture (degrees; keys clamped
/// at the working-pose limit are left out).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BoneFit {
    /// RMS of clip − target outside the seam blend.
    pub rms: f64,
    /// Largest |clip − target| outside the seam blend.
    pub max: f64,
    /// Largest |clip − target| over all keys (inside the blend too).
    pub max_all: f64,
}

/// How a bone follows the capture.
#[derive(Clone, Debug, PartialEq)]
pub enum Rule {
    /// Drawn pose (no joint).
    Drawn,
    /// Long limb: the projected direction of its joint's segment.
    Limb,
    /// A piece of the root → neck chain, as arc-length fractions.
    Trunk(f64, f64),
    /// End segment: drawn pose + change from the reference.
    End,
}

/// The numbers behind a [`Walk`].
#[derive(Clone, Debug, PartialEq)]
pub struct CycleReport {
    /// The capture frames searched, `[start, end)` (0-based).
    pub window: (usize, usize),
    /// Cut start (cyclic) or excerpt start (one-shot), fractional capture frame (0-based).
    pub start: f64,
    /// Cut / excerpt end.
    pub end: f64,
    /// Capture frames per second.
    pub capture_fps: f64,
    /// How the cut was found (`"toe-off of LeftKnee …"`, `"explicit"`, `"one-shot …"`).
    pub event: String,
    /// Keys in the clip (including the closing one).
    pub keys: usize,
    /// Horizontal forward direction in capture coordinates (unit).
    pub forward: [f64; 3],
    /// Where forward came from (`travel`, `toes`, `hips`, `--forward`).
    pub forward_from: String,
    /// The capture's up axis (`+Y`, `+Z`, …).
    pub up: String,
    /// Why that up axis.
    pub up_from: String,
    /// The naming family the default mapping used (`None`: none matched).
    pub family: Option<String>,
    /// Joint driving each bone (`None`: drawn pose).
    pub joints: Vec<Option<String>>,
    /// Per bone, the rule it follows.
    pub rules: Vec<Rule>,
    /// Per bone: the raw closure mismatch of its angle (end minus start of
    /// the cut, before the seam blend), radians; 0 when unmapped or one-shot.
    pub closure: Vec<f64>,
    /// The raw closure mismatch of the root height, drawing pixels.
    pub root_closure: f64,
    /// The cut's pose mismatch over the mapped and leg segments: RMS and
    /// max, degrees (0 for a one-shot).
    pub mismatch: (f64, f64),
    /// Keys of the seam blend at each end (0 for a one-shot).
    pub seam_keys: usize,
    /// Drawing pixels per capture unit of the root bob (0: no bob).
    pub scale: f64,
    /// Per bone: keys whose delta was clamped.
    pub clamped: Vec<usize>,
    /// Per bone: its target was mirrored about its parent's (a reversed
    /// [`Bend`]).
    pub reversed: Vec<bool>,
    /// Per bone: clip vs capture.
    pub fit: Vec<BoneFit>,
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

/// Retargets one clip of `bvh` onto `bones` (see the module doc).
pub fn retarget(bvh: &Bvh, bones: &[MotionBone], opts: &MotionOptions) -> Result<Walk, RigError> {
    retarget_with_report(bvh, bones, opts).map(|r| r.walk)
}

/// A bone's segment in the capture.
#[derive(Clone, Debug)]
enum Seg {
    /// From a joint to its end.
    Limb { joint: usize, end: End },
    /// A piece of a chain of joints, by arc-length fractions.
    Chain { path: Vec<usize>, a: f64, b: f64 },
}

impl Seg {
    fn joint(&self) -> usize {
        match self {
            Seg::Limb { joint, .. } => *joint,
            Seg::Chain { path, .. } => path[0],
        }
    }
}

/// Start point and end point of a segment.
fn seg_points(bvh: &Bvh, w: &[Xform], s: &Seg) -> ([f64; 3], [f64; 3]) {
    match s {
        Seg::Limb { joint, end } => {
            let a = w[*joint].t;
            let b = match *end {
                End::Joint(c) => w[c].t,
                End::Site(j, k) => w[j].apply(bvh.joints[j].end_sites[k]),
            };
            (a, b)
        }
        Seg::Chain { path, a, b } => {
            let pts: Vec<[f64; 3]> = path.iter().map(|&j| w[j].t).collect();
            (chain_point(&pts, *a), chain_point(&pts, *b))
        }
    }
}

/// The point at arc-length fraction `f` of a polyline.
fn chain_point(pts: &[[f64; 3]], f: f64) -> [f64; 3] {
    let lens: Vec<f64> = pts
        .windows(2)
        .map(|p| pose::norm(pose::sub(p[1], p[0])))
        .collect();
    let total: f64 = lens.iter().sum();
    if total <= 0.0 || pts.len() < 2 {
        return pts.last().copied().unwrap_or([0.0; 3]);
    }
    let mut want = f.clamp(0.0, 1.0) * total;
    for (i, &l) in lens.iter().enumerate() {
        if want <= l || i + 1 == lens.len() {
            let t = if l > 0.0 { (want / l).min(1.0) } else { 0.0 };
            let (p, q) = (pts[i], pts[i + 1]);
            return [
                p[0] + (q[0] - p[0]) * t,
                p[1] + (q[1] - p[1]) * t,
                p[2] + (q[2] - p[2]) * t,
            ];
        }
        want -= l;
    }
    pts[pts.len() - 1]
}

/// Segment vectors at fractional frames, in the canonical (Y-up) frame:
/// joint positions interpolated linearly between the two neighbouring frames.
struct Sampler<'a> {
    bvh: &'a Bvh,
    turn: [[f64; 3]; 3],
    w0: Vec<Xform>,
    w1: Vec<Xform>,
}

impl<'a> Sampler<'a> {
    fn new(bvh: &'a Bvh, turn: [[f64; 3]; 3]) -> Self {
        Sampler {
            bvh,
            turn,
            w0: Vec::with_capacity(bvh.joints.len()),
            w1: Vec::with_capacity(bvh.joints.len()),
        }
    }

    /// Segment vectors (end − start) of `segs` into `out`, their start
    /// points into `starts`, and the root position, at fractional frame
    /// `t`, all turned so that up is +Y.
    fn sample(
        &mut self,
        t: f64,
        segs: &[Seg],
        out: &mut Vec<[f64; 3]>,
        starts: &mut Vec<[f64; 3]>,
    ) -> [f64; 3] {
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
        starts.clear();
        for s in segs {
            let (p0, q0) = seg_points(self.bvh, &self.w0, s);
            let (p1, q1) = seg_points(self.bvh, &self.w1, s);
            let p = lerp(p0, p1);
            out.push(axes::apply(&self.turn, pose::sub(lerp(q0, q1), p)));
            starts.push(axes::apply(&self.turn, p));
        }
        axes::apply(&self.turn, lerp(self.w0[0].t, self.w1[0].t))
    }
}

/// Joint and segment of each bone (explicit joints must resolve — a name of
/// another naming family is translated by its role; default ones that do not
/// resolve are warned about and left unmapped).
fn resolve(
    bvh: &Bvh,
    bones: &[MotionBone],
    facing: bool,
    warnings: &mut Vec<String>,
) -> Result<Vec<Option<(usize, End)>>, RigError> {
    let conv = mapping::convention(bvh);
    // a `mocap` map written for another naming family (the demo's CMU names
    // on a MotionBuilder capture): each name stands for its role there
    let explicit: Vec<&str> = bones
        .iter()
        .filter_map(|b| b.joint.as_deref().filter(|n| !n.is_empty()))
        .collect();
    let translate = match (mapping::family_of(&explicit), conv) {
        (Some(d), Some(c)) if !std::ptr::eq(d, c) => Some((d, c)),
        _ => None,
    };
    let mut segs = Vec::with_capacity(bones.len());
    for b in bones {
        let seg = match &b.joint {
            // explicitly unmapped: the drawn pose, no default joint
            Some(name) if name.is_empty() => None,
            Some(name) => {
                let translated = translate.and_then(|(d, c)| {
                    let (r, side) = mapping::role_in(d, name)?;
                    let j = bvh.find(c.joint(r, side)).ok()?;
                    (bvh.joints[j].name != *name).then_some(j)
                });
                if let (Some(j), Some((d, c))) = (translated, translate) {
                    warnings.push(format!(
                        "bone '{}': the `mocap` map uses {} names and the capture {} names: '{name}' is the capture's '{}'",
                        b.name, d.name, c.name, bvh.joints[j].name
                    ));
                }
                let j = match translated.map_or_else(|| bvh.find(name), Ok) {
                    Ok(j) => j,
                    Err(e) => {
                        // a joint name of another family: the same role in this capture's
                        let alt = mapping::joint_role(name)
                            .and_then(|(r, side)| conv.map(|c| c.joint(r, side)))
                            .and_then(|n| bvh.find(n).ok());
                        match alt {
                            Some(j) => {
                                warnings.push(format!(
                                    "bone '{}': the capture has no joint '{name}'; its '{}' plays the same part",
                                    b.name, bvh.joints[j].name
                                ));
                                j
                            }
                            None => {
                                let role = mapping::joint_role(name)
                                    .map(|r| r.0)
                                    .or(mapping::role_of(&b.name).map(|r| r.0));
                                return Err(RigError::new(
                                    e.code,
                                    format!(
                                        "bone '{}': {} (joints that could fit: {})",
                                        b.name,
                                        e.message,
                                        mapping::suggestions(bvh, role, 8).join(", ")
                                    ),
                                ));
                            }
                        }
                    }
                };
                let (end, _) = mapping::segment(bvh, j)
                    .map_err(|m| RigError::new("E_BVH_JOINT", format!("bone '{}': {m}", b.name)))?;
                Some((j, end))
            }
            None => {
                let role = mapping::role_of(&b.name);
                let want =
                    role.and_then(|(role, side)| conv.map(|c| c.joint(role, side.side(facing))));
                match want {
                    None if role.is_some() => {
                        warnings.push(format!(
                            "bone '{}': the capture uses none of the known joint-name families (CMU, MotionBuilder/Vicon/Mixamo, ASF, Hips/Chest); it keeps its drawn pose (name its joint in `mocap`)",
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
                            Ok((end, _)) => Some((j, end)),
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

/// The role a bone plays: from its name, else from its joint's name.
fn bone_role(b: &MotionBone, joint: Option<&str>) -> Option<Role> {
    mapping::role_of(&b.name)
        .map(|r| r.0)
        .or_else(|| joint.and_then(mapping::joint_role).map(|r| r.0))
}

/// Rules and segments per bone (see the module doc).
fn rules(
    bvh: &Bvh,
    bones: &[MotionBone],
    order: &[usize],
    joints: &[Option<(usize, End)>],
    warnings: &mut Vec<String>,
) -> (Vec<Rule>, Vec<Option<Seg>>) {
    let chain = mapping::trunk_chain(bvh);
    let mut rules = vec![Rule::Drawn; bones.len()];
    let mut segs: Vec<Option<Seg>> = vec![None; bones.len()];
    let mut trunk: Vec<usize> = Vec::new();
    for &b in order {
        let Some((j, end)) = joints[b] else { continue };
        let role = bone_role(&bones[b], Some(&bvh.joints[j].name));
        let on_chain = chain
            .as_ref()
            .is_some_and(|c| c[..c.len() - 1].contains(&j));
        let is_trunk = matches!(role, Some(Role::Spine) | Some(Role::Chest))
            || (on_chain && !matches!(role, Some(Role::Neck) | Some(Role::Head)));
        if is_trunk && chain.is_some() {
            trunk.push(b);
            continue;
        }
        if is_trunk {
            warnings.push(format!(
                "bone '{}': the capture has no root → neck chain (no neck joint below a head); it follows its own joint's segment",
                bones[b].name
            ));
        }
        rules[b] = match role {
            Some(Role::Foot) | Some(Role::Toe) | Some(Role::Hand) | Some(Role::Head) => Rule::End,
            _ => Rule::Limb,
        };
        segs[b] = Some(Seg::Limb { joint: j, end });
    }
    if let Some(path) = chain
        && !trunk.is_empty()
    {
        let len = |b: usize| {
            let m = &bones[b];
            (m.end[0] - m.start[0]).hypot(m.end[1] - m.start[1])
        };
        let total: f64 = trunk.iter().map(|&b| len(b)).sum();
        let mut acc = 0.0;
        for &b in &trunk {
            let a = if total > 0.0 { acc / total } else { 0.0 };
            acc += len(b);
            let e = if total > 0.0 { acc / total } else { 1.0 };
            rules[b] = Rule::Trunk(a, e);
            segs[b] = Some(Seg::Chain {
                path: path.clone(),
                a,
                b: e,
            });
        }
    }
    (rules, segs)
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
    // 1. Joints, rules and segments per bone; the legs (near, far).
    let joints = resolve(bvh, bones, facing, &mut warnings)?;
    let (rules, segs) = rules(bvh, bones, &order, &joints, &mut warnings);
    let reversed: Vec<bool> = bones
        .iter()
        .zip(&rules)
        .map(|(b, r)| {
            b.bend == Bend::Reversed
                && b.parent.is_some()
                && matches!(r, Rule::Limb | Rule::Trunk(..))
        })
        .collect();
    for (b, &m) in bones.iter().zip(&reversed) {
        if b.bend == Bend::Reversed && !m {
            warnings.push(format!(
                "bone '{}': \"bend\": \"reversed\" has no effect: {}",
                b.name,
                if b.parent.is_none() {
                    "it has no parent to bend from"
                } else {
                    "only a long limb or a trunk piece that follows the capture is mirrored"
                }
            ));
        }
    }
    let conv = mapping::convention(bvh);
    let conv_legs = conv.map(|c| {
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
                Seg::Limb {
                    joint: l.hip,
                    end: End::Joint(l.knee),
                },
                Seg::Limb {
                    joint: l.knee,
                    end: End::Joint(l.ankle),
                },
            ]
        })
        .collect();
    // 2. Up: the canonical frame.
    let trunk_path = mapping::trunk_chain(bvh);
    let (up, up_from) = match opts.up {
        Some(a) => (a, "--up".to_string()),
        None => {
            let pairs: Vec<(usize, usize)> = legs
                .iter()
                .flat_map(|l| l.iter().map(|l| (l.hip, l.ankle)))
                .collect();
            axes::detect_up(bvh, &pairs, trunk_path.as_deref())
        }
    };
    let turn = up.to_y();
    let mapped: Vec<Seg> = segs.iter().flatten().cloned().collect();
    let frame_time = bvh.frame_time;
    let mut sampler = Sampler::new(bvh, turn);
    let mut buf: Vec<[f64; 3]> = Vec::new();
    let mut sbuf: Vec<[f64; 3]> = Vec::new();
    // per-frame root (canonical) and leg length
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
    // feet (ankle → toe, canonical) over frames [a, b)
    let feet_over = |sampler: &mut Sampler, a: usize, b: usize| -> Option<[f64; 3]> {
        let l = legs?;
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
    };
    let hips_at = |f: usize| {
        legs.map(|l| {
            let mut w = Vec::with_capacity(bvh.joints.len());
            bvh.world(f.min(bvh.frames - 1), &mut w);
            let (near, far) = (w[l[0].hip].t, w[l[1].hip].t);
            let lr = if facing {
                pose::sub(near, far)
            } else {
                pose::sub(far, near)
            };
            axes::apply(&turn, lr)
        })
    };
    // 3. Cyclic or one-shot; the cut.
    let mut once_reason = None;
    let mut cyc: Option<CycleCut> = None;
    if opts.mode != Mode::Once {
        match cycle_cut(
            bvh,
            opts,
            legs,
            &roots,
            &mapped,
            &leg_segs,
            &mut sampler,
            &|s: &mut Sampler, a, b| feet_over(s, a, b),
            &hips_at,
            &turn,
            leg_len,
        ) {
            Ok(c) => cyc = Some(c),
            Err(e) if opts.mode == Mode::Auto && e.code == "E_BVH_GAIT" => {
                once_reason = Some(e.message)
            }
            Err(e) => return Err(e),
        }
    }
    let looped = cyc.is_some();
    let (window, cut, event, forward, forward_from, mismatch) = match cyc {
        Some(c) => c,
        None => {
            let (a, b) = match opts.range {
                Some((a, b)) => (a / frame_time, b / frame_time),
                None => (0.0, (bvh.frames - 1) as f64),
            };
            if !(a.is_finite() && b.is_finite() && 0.0 <= a && a < b)
                || b > (bvh.frames - 1) as f64 + 1e-9
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
            let travel = pose::sub(roots[fb], roots[fa]);
            let feet = feet_over(&mut sampler, fa, fb + 1);
            let (fwd, from) = find_forward(opts, &turn, travel, leg_len, feet, hips_at(fa))?;
            let why = match &once_reason {
                Some(r) => format!("one-shot (no repeating gait: {r})"),
                None => "one-shot".to_string(),
            };
            (
                (fa, fb + 1),
                Cut {
                    start: a,
                    end: b,
                    leg: 0,
                },
                why,
                fwd,
                from,
                (0.0, 0.0),
            )
        }
    };
    // 4. Keys: sample, unwrap.
    let seconds = (cut.end - cut.start) * frame_time;
    let k_count = (seconds * opts.fps).round();
    if k_count.is_nan() || k_count < 2.0 {
        return Err(motion_err(format!(
            "the clip lasts {seconds} s: fewer than 2 keys at {} fps",
            opts.fps
        )));
    }
    if k_count + 1.0 > limits.bvh_max_frames as f64 {
        return Err(RigError::new(
            "E_BVH_LIMIT",
            format!(
                "the clip needs {} keys, more than {} (limit bvh-max-frames, see --limit)",
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
    let mut start_h: Vec<Vec<f64>> = vec![Vec::with_capacity(kk + 1); mapped.len()];
    let mut height: Vec<f64> = Vec::with_capacity(kk + 1);
    for k in 0..=kk {
        let t = cut.start + (cut.end - cut.start) * k as f64 / kk as f64;
        let root = sampler.sample(t, &mapped, &mut buf, &mut sbuf);
        for (i, v) in buf.iter().enumerate() {
            theta[i].push(pose::sagittal(*v, forward, facing));
            start_h[i].push(sbuf[i][1]);
        }
        height.push(root[1]);
    }
    for th in &mut theta {
        pose::unwrap(th);
    }
    // 5. Targets per bone (world angles per key), before the seam.
    let drawn: Vec<f64> = bones
        .iter()
        .map(|b| (b.end[1] - b.start[1]).atan2(b.end[0] - b.start[0]))
        .collect();
    let mut target: Vec<Option<Vec<f64>>> = vec![None; bones.len()];
    let mut index = vec![usize::MAX; bones.len()];
    let mut mi = 0;
    for (b, s) in segs.iter().enumerate() {
        if s.is_some() {
            index[b] = mi;
            mi += 1;
        }
    }
    let reference_of = |b: usize, th: &[f64], h: &[f64]| {
        if !looped {
            th[0]
        } else if matches!(
            bone_role(
                &bones[b],
                segs[b]
                    .as_ref()
                    .map(|s| bvh.joints[s.joint()].name.as_str())
            ),
            Some(Role::Foot) | Some(Role::Toe)
        ) {
            stance_reference(&th[..kk], &h[..kk])
        } else {
            circular_mean(&th[..kk], th[0])
        }
    };
    for &b in &order {
        let Some(s) = &segs[b] else { continue };
        let th = &theta[index[b]];
        let role = bone_role(&bones[b], Some(bvh.joints[s.joint()].name.as_str()));
        let parent = bones[b].parent.filter(|&p| segs[p].is_some());
        let t = match (&rules[b], role, parent) {
            // a hand: the drawn bend at the wrist plus the capture's change of it
            (Rule::End, Some(Role::Hand), Some(p)) => {
                let thp = &theta[index[p]];
                let rel: Vec<f64> = th.iter().zip(thp).map(|(a, q)| a - q).collect();
                let reference = reference_of(b, &rel, &start_h[index[b]]);
                let pt = target[p].as_ref().unwrap_or(thp);
                let drawn_rel = drawn[b] - drawn[p];
                rel.iter()
                    .zip(pt)
                    .map(|(r, q)| q + drawn_rel + r - reference)
                    .collect()
            }
            // feet, toes, the head: the drawn world angle plus the capture's change
            (Rule::End, ..) => {
                let reference = reference_of(b, th, &start_h[index[b]]);
                th.iter().map(|x| drawn[b] + x - reference).collect()
            }
            _ => th.clone(),
        };
        // a reversed bend: mirrored about the parent's world angle
        let t = match bones[b].parent.filter(|_| reversed[b]) {
            Some(p) => {
                let pw = parent_world(p, &target, bones, &drawn);
                t.iter().enumerate().map(|(k, w)| 2.0 * pw(k) - w).collect()
            }
            None => t,
        };
        target[b] = Some(t);
    }
    // 6. The seam (cyclic): a local blend of the end-minus-start mismatch.
    let seam = if looped {
        ((SEAM_FRACTION / 2.0) * kk as f64).floor() as usize
    } else {
        0
    };
    let mut closure = vec![0.0; bones.len()];
    let mut blended: Vec<Option<Vec<f64>>> = target.clone();
    if looped {
        for (b, t) in blended.iter_mut().enumerate() {
            if let Some(t) = t {
                closure[b] = pose::seam(t, seam);
            }
        }
    }
    let root_raw = if looped {
        pose::seam(&mut height, seam)
    } else {
        0.0
    };
    // 7. The root bob.
    let first = (cut.start as usize).min(bvh.frames - 1);
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
    let base = if looped {
        height[..kk].iter().sum::<f64>() / kk as f64
    } else {
        height[0]
    };
    let mut root_dy: Vec<f64> = height.iter().map(|h| -(h - base) * scale).collect();
    if looped {
        root_dy[kk] = root_dy[0];
    }
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
    // 8. Deltas relative to the declared parent and the drawn pose.
    let world_of: Vec<Option<&Vec<f64>>> = blended.iter().map(|t| t.as_ref()).collect();
    let (mut angles, clamped, actual) =
        pose::deltas(bones, &order, &drawn, &world_of, kk + 1, opts.max_angle);
    if looped {
        for a in &mut angles {
            a[kk] = a[0];
        }
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
    // 9. The fit: clip world angle vs the rule's target from the capture.
    let fit: Vec<BoneFit> = (0..bones.len())
        .map(|b| match &target[b] {
            None => BoneFit::default(),
            Some(t) => {
                let (mut ss, mut n, mut mx, mut mxa) = (0.0, 0usize, 0.0f64, 0.0f64);
                for k in 0..=kk {
                    // a clamped key follows the working-pose limit, not the capture
                    if angles[b][k].abs() >= opts.max_angle - 1e-12 {
                        continue;
                    }
                    let d = pose::wrap(actual[b][k] - t[k]).to_degrees().abs();
                    mxa = mxa.max(d);
                    if k >= seam && k + seam <= kk {
                        ss += d * d;
                        n += 1;
                        mx = mx.max(d);
                    }
                }
                BoneFit {
                    rms: if n > 0 { (ss / n as f64).sqrt() } else { 0.0 },
                    max: mx,
                    max_all: mxa,
                }
            }
        })
        .collect();
    // the forward direction back in capture coordinates
    let back = {
        let m = turn;
        let v = forward;
        [
            m[0][0] * v[0] + m[1][0] * v[1] + m[2][0] * v[2],
            m[0][1] * v[0] + m[1][1] * v[1] + m[2][1] * v[2],
            m[0][2] * v[0] + m[1][2] * v[1] + m[2][2] * v[2],
        ]
    };
    let report = CycleReport {
        window,
        start: cut.start,
        end: cut.end,
        capture_fps: 1.0 / frame_time,
        event,
        keys: kk + 1,
        forward: back,
        forward_from,
        up: up.name(),
        up_from,
        family: conv.map(|c| c.name.to_string()),
        joints: segs
            .iter()
            .map(|s| {
                s.as_ref().map(|s| match s {
                    Seg::Limb { joint, .. } => bvh.joints[*joint].name.clone(),
                    Seg::Chain { path, .. } => format!(
                        "{}→{}",
                        bvh.joints[path[0]].name,
                        bvh.joints[path[path.len() - 1]].name
                    ),
                })
            })
            .collect(),
        rules,
        closure,
        root_closure: -root_raw * scale,
        mismatch,
        seam_keys: seam,
        scale,
        clamped,
        reversed,
        fit,
    };
    Ok(Retargeted {
        walk: Walk {
            duration,
            times,
            angles,
            root_dy,
            looped,
            warnings,
        },
        report,
    })
}

/// Bone `p`'s world angle at key `k` before clamping: its target, or the
/// nearest ancestor's target plus the drawn angle between them (a bone
/// without a target keeps its drawn angle relative to its parent; a root
/// without one, its drawn angle).
fn parent_world<'a>(
    p: usize,
    target: &'a [Option<Vec<f64>>],
    bones: &[MotionBone],
    drawn: &'a [f64],
) -> impl Fn(usize) -> f64 + 'a {
    let mut a = p;
    while target[a].is_none()
        && let Some(q) = bones[a].parent
    {
        a = q;
    }
    move |k| match &target[a] {
        Some(t) => t[k] + (drawn[p] - drawn[a]),
        None => drawn[p],
    }
}

/// The mean of the angles at the stance keys (the start point — the
/// ankle — within 20 % of its height range above its lowest).
fn stance_reference(th: &[f64], h: &[f64]) -> f64 {
    let (lo, hi) = h
        .iter()
        .fold((f64::INFINITY, -f64::INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    let cut = lo + 0.2 * (hi - lo);
    let sel: Vec<f64> = th
        .iter()
        .zip(h)
        .filter(|(_, y)| **y <= cut)
        .map(|(t, _)| *t)
        .collect();
    if sel.is_empty() {
        circular_mean(th, th.first().copied().unwrap_or(0.0))
    } else {
        circular_mean(&sel, sel[0])
    }
}

/// The circular mean of `a`, on the branch nearest `near`.
fn circular_mean(a: &[f64], near: f64) -> f64 {
    let (s, c) = a
        .iter()
        .fold((0.0, 0.0), |(s, c), x| (s + x.sin(), c + x.cos()));
    if s == 0.0 && c == 0.0 {
        return near;
    }
    let m = s.atan2(c);
    near + pose::wrap(m - near)
}

type CycleCut = ((usize, usize), Cut, String, [f64; 3], String, (f64, f64));

/// The summed foot directions (ankle → toe) over a range of frames.
type FeetOver<'a> = dyn Fn(&mut Sampler, usize, usize) -> Option<[f64; 3]> + 'a;

/// The cyclic cut (see the module doc): window, cut, event, forward and
/// its source, the pose mismatch (RMS, max degrees).
#[allow(clippy::too_many_arguments)]
fn cycle_cut(
    bvh: &Bvh,
    opts: &MotionOptions,
    legs: Option<[Leg; 2]>,
    roots: &[[f64; 3]],
    mapped: &[Seg],
    leg_segs: &[Seg],
    sampler: &mut Sampler,
    feet_over: &FeetOver<'_>,
    hips_at: &dyn Fn(usize) -> Option<[f64; 3]>,
    turn: &[[f64; 3]; 3],
    leg_len: f64,
) -> Result<CycleCut, RigError> {
    let frame_time = bvh.frame_time;
    let probe: Vec<Seg> = mapped.iter().chain(leg_segs).cloned().collect();
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
        let feet = feet_over(sampler, fa, fb + 1);
        let (fwd, from) = find_forward(
            opts,
            turn,
            pose::sub(roots[fb], roots[fa]),
            leg_len,
            feet,
            hips_at(fa),
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
    let Some(legs) = legs else {
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
    let feet = feet_over(sampler, w0, w1);
    let (fwd, from) = find_forward(
        opts,
        turn,
        pose::sub(roots[w1 - 1], roots[w0]),
        leg_len,
        feet,
        hips_at(w0),
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
    let segs: Vec<Option<usize>> = segs
        .iter()
        .map(|s| match s {
            Some(Seg::Limb { joint, .. }) => Some(*joint),
            _ => None,
        })
        .collect();
    let legs = legs?;
    let mut w = Vec::with_capacity(bvh.joints.len());
    bvh.world(frame, &mut w);
    let dist = |a: usize, b: usize| {
        let d = pose::sub(w[a].t, w[b].t);
        (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
    };
    for l in legs {
        let drawn = |joint: usize| {
            bones.iter().zip(&segs).find_map(|(b, s)| {
                s.filter(|&s| s == joint)
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
