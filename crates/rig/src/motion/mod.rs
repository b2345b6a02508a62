//! Retargeting a capture onto a drawn skeleton (rig.md §6 as amended by
//! issue 25; the rules are written out in `docs/rig.md`, "Motion").
//!
//! | file | stage | spec |
//! |---|---|---|
//! | `bvh.rs` | BVH reader (any channel order, End Sites, CRLF) and forward kinematics | §6 |
//! | `axes.rs` | the capture's up axis (rest pose) and the canonical Y-up frame | §6, issue 25 |
//! | `mapping.rs` | bone name → capture joint (CMU, MotionBuilder/Vicon/Mixamo, ASF, Hips/Chest families; namespaces stripped), the child on a limb's chain, the trunk chain | §1 `mocap`, §6 |
//! | `gait.rs` | steady part of the walk, gait events (knee flexing into swing) | §6 |
//! | `drive.rs` | 1. which capture segment drives each bone (joint, rule, reversed bend), the legs, the sampler | §1 `mocap`, §6 |
//! | `span.rs` | 3. the span the clip plays: the gait cycle's cut or a one-shot excerpt; the forward direction | §6 |
//! | `targets.rs` | 5. each bone's target world angle per key from its rule | §6 |
//! | `pose.rs` | sagittal projection, unwrapping, the seam blend, angles relative to the declared parent and the drawn pose, clamping | §6 |
//! | `layer.rs` | motions by body part: the named sets (`arms`, `legs`, `upper`, `lower`) or a list of bones, the clip restricted to them | issue 47 |
//! | `paths.rs` | 9b. each hand's and foot's joint path in the clip against the capture's, drawing pixels (issue 42) | issue 42 |
//! | `depth.rs` | 10. the depth the projection drops (each bone's nearness along the viewing axis), and the draw order per key from it (issue 42) | §6, issue 42 |
//! | `mod.rs` | [`retarget_with_report`]: the steps in order — drive (1), up (2), span (3), keys (4), targets (5), seam or stance ease (6), root bob (7), deltas (8), fit (9), depths (10) | §6 |
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
//! - **Frontal figures** ([`MotionOptions::frontal`], `facing: "front"`):
//!   the arms (upper arms, forearms, hands) are projected on the frontal
//!   plane instead (the capture's left → drawing +x: a figure facing the
//!   viewer has its left on the image's right; up → −y); legs, trunk, neck
//!   and head on the side plane as facing right — the "twisted perspective"
//!   of AnimatedDrawings: a wave is seen from the front, a walk as a walk.
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
//! - **Stance ease** (one-shot, issue 42): the clip starts and ends in the drawn
//!   pose (the stance a state machine cuts to it from and back to): over
//!   [`EASE_SECONDS`] at each end (at most [`EASE_FRACTION`] of the clip) each
//!   target blends from the drawn world angle into the capture's (smoothstep
//!   weights), and the root bob from 0; `seam_keys` reports those keys and the
//!   fit leaves them out; `stance_mismatch` gives how far the excerpt's first
//!   and last poses were from the drawn one (RMS degrees over the mapped bones).
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
pub mod depth;
mod drive;
pub mod gait;
pub mod layer;
pub mod mapping;
pub mod paths;
pub mod pose;
mod span;
mod targets;

use std::f64::consts::FRAC_PI_2;

/// Which way a bone bends (declared in the skeleton, `"bend"`).
pub use crate::declare::skeleton::Bend;
use crate::declare::skeleton::Skeleton;
use crate::error::RigError;
use crate::motion::bvh::Bvh;
use axes::Axis;
use drive::{Drive, Sampler, Seg};
use gait::Leg;
use re2d::limits::Limits;
use span::{Capture, Span};

/// Fraction of the cycle the seam blend spans (half at each end).
pub const SEAM_FRACTION: f64 = 0.12;
/// How far (fraction of the cycle) the cut's ends may move from the gait
/// events while searching for the best-matching pair …
pub const NEAR_FRACTION: f64 = 0.08;
/// … and at most this many capture frames (the search is quadratic in it).
pub const NEAR_MAX_FRAMES: f64 = 16.0;
/// A one-shot blends into the drawn stance over this long at each end …
pub const EASE_SECONDS: f64 = 0.15;
/// … and at most this fraction of the clip at each end.
pub const EASE_FRACTION: f64 = 0.15;

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
    /// A frontal figure (`facing: "front"`): the arms (upper arms, forearms,
    /// hands) are projected on the frontal plane — the capture's left on the
    /// drawing's +x, up on −y — and everything else on the side plane as a
    /// figure facing right ([`pose::frontal`]).
    pub frontal: bool,
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
            frontal: false,
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
    /// The bones the clip keys when it drives only a body part
    /// ([`layer::restrict`]; `None`: every bone it moves).
    pub keyed: Option<Vec<bool>>,
    /// The depths the projection drops, per bone and key (step 10, issue 42).
    pub depths: depth::Depths,
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
    /// Keys of the seam blend at each end (cyclic), or of the blend into the
    /// drawn stance at each end (one-shot).
    pub seam_keys: usize,
    /// One-shot: how far the excerpt's first and last poses are from the drawn
    /// pose, RMS degrees over the mapped bones (before the stance ease); 0 for
    /// a cyclic clip.
    pub stance_mismatch: (f64, f64),
    /// Drawing pixels per capture unit of the root bob (0: no bob).
    pub scale: f64,
    /// Per bone: keys whose delta was clamped.
    pub clamped: Vec<usize>,
    /// The clamp: the largest delta from the drawn pose, radians
    /// ([`MotionOptions::max_angle`]).
    pub max_angle: f64,
    /// Per bone: its target was mirrored about its parent's (a reversed
    /// [`Bend`]).
    pub reversed: Vec<bool>,
    /// Per bone: clip vs capture.
    pub fit: Vec<BoneFit>,
    /// Hands' and feet's joint paths against the capture's: (bone, fit), drawing pixels.
    pub paths: Vec<(usize, paths::PathFit)>,
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

/// Retargets and reports (see the module doc): the nine steps in order.
pub fn retarget_with_report(
    bvh: &Bvh,
    bones: &[MotionBone],
    opts: &MotionOptions,
) -> Result<Retargeted, RigError> {
    let limits = Limits::current();
    check_options(bvh, opts)?;
    let order = pose::parents_first(bones)?;
    let mut warnings: Vec<String> = Vec::new();
    // 1. What drives each bone; the legs.
    let drive = Drive::resolve(bvh, bones, &order, opts, &mut warnings)?;
    // 2. Up: the canonical frame.
    let (up, up_from) = canonical_up(bvh, opts, drive.legs);
    let turn = up.to_y();
    let mut sampler = Sampler::new(bvh, turn);
    let cap = Capture::measure(bvh, drive.legs, turn, opts.facing_right, &mut sampler);
    // 3. Cyclic or one-shot; the cut.
    let span = span::choose(opts, &cap, &drive, &mut sampler)?;
    // 4. Keys: sample, unwrap.
    let mut keys = sample_keys(bvh, bones, opts, &limits, &drive, &span, &mut sampler)?;
    // 5. Targets per bone (world angles per key), before the seam.
    let drawn = targets::drawn_angles(bones);
    let target = targets::targets(bvh, bones, &order, &drive, &keys, &drawn, span.looped);
    // 6. The seam (cyclic): a local blend of the end-minus-start mismatch; a one-shot
    //    blends into the drawn stance at both ends instead.
    let mut seam = close_seam(&target, &mut keys, span.looped);
    let stance_mismatch = if span.looped {
        (0.0, 0.0)
    } else {
        ease_into_stance(&mut seam, &drawn, keys.kk, opts.fps)
    };
    // 7. The root bob.
    let mut bob = root_bob(bvh, opts, bones, &drive, &span, &keys, &mut warnings)?;
    if !span.looped {
        for (k, d) in bob.root_dy.iter_mut().enumerate() {
            *d *= depth::ease_weight(k, keys.kk + 1, seam.keys);
        }
    }
    // 8. Deltas relative to the declared parent and the drawn pose.
    let kk = keys.kk;
    let world_of: Vec<Option<&Vec<f64>>> = seam.blended.iter().map(|t| t.as_ref()).collect();
    let (mut angles, clamped, actual) =
        pose::deltas(bones, &order, &drawn, &world_of, kk + 1, opts.max_angle);
    if span.looped {
        for a in &mut angles {
            a[kk] = a[0];
        }
    }
    warn_clamped(bones, &clamped, kk + 1, opts.max_angle, &mut warnings);
    // 9. The fit: clip world angle vs the rule's target from the capture.
    let fit = fit(&target, &angles, &actual, opts.max_angle, seam.keys, kk);
    // 9b. The hands' and feet's joint paths against the capture's.
    let paths = joint_paths(
        bvh, bones, &order, &drawn, &drive, &keys, &actual, bob.scale, seam.keys,
    );
    // 10. The depths the projection dropped.
    let depths = depth::Depths {
        near: drive
            .segs
            .iter()
            .scan(0usize, |mi, s| {
                Some(s.as_ref().map(|_| {
                    *mi += 1;
                    keys.near[*mi - 1].clone()
                }))
            })
            .collect(),
        end: drive.rules.iter().map(|r| matches!(r, Rule::End)).collect(),
        trunk: (0..bones.len())
            .map(|b| {
                matches!(drive.rules[b], Rule::Trunk(..))
                    || drive.segs[b].as_ref().is_some_and(|s| {
                        matches!(
                            drive::bone_role(&bones[b], Some(bvh.joints[s.joint()].name.as_str())),
                            Some(mapping::Role::Neck) | Some(mapping::Role::Head)
                        )
                    })
            })
            .collect(),
        band: depth::BAND * cap.leg_len,
        ease: if span.looped { 0 } else { seam.keys },
        looped: span.looped,
    };
    let report = CycleReport {
        window: span.window,
        start: span.cut.start,
        end: span.cut.end,
        capture_fps: 1.0 / bvh.frame_time,
        event: span.event,
        keys: kk + 1,
        forward: to_capture(&turn, span.forward),
        forward_from: span.forward_from,
        up: up.name(),
        up_from,
        family: drive.conv.map(|c| c.name.to_string()),
        joints: drive.joint_names(bvh),
        closure: seam.closure,
        root_closure: -seam.root_raw * bob.scale,
        mismatch: span.mismatch,
        seam_keys: seam.keys,
        stance_mismatch,
        scale: bob.scale,
        clamped,
        max_angle: opts.max_angle,
        reversed: drive.reversed,
        rules: drive.rules,
        fit,
        paths,
    };
    Ok(Retargeted {
        walk: Walk {
            duration: keys.duration,
            times: keys.times,
            angles,
            root_dy: bob.root_dy,
            looped: span.looped,
            warnings,
            keyed: None,
            depths,
        },
        report,
    })
}

/// Step 2: the capture's up axis — [`MotionOptions::up`], else detected from the rest pose
/// (the legs' hip → ankle, the trunk chain) — and why.
fn canonical_up(bvh: &Bvh, opts: &MotionOptions, legs: Option<[Leg; 2]>) -> (Axis, String) {
    match opts.up {
        Some(a) => (a, "--up".to_string()),
        None => {
            let pairs: Vec<(usize, usize)> = legs
                .iter()
                .flat_map(|l| l.iter().map(|l| (l.hip, l.ankle)))
                .collect();
            let trunk_path = mapping::trunk_chain(bvh);
            axes::detect_up(bvh, &pairs, trunk_path.as_deref())
        }
    }
}

/// The sampled capture: key count and times, and per mapped segment the projected angle
/// (unwrapped) and start height at every key; the root height per key.
struct Keys {
    /// Keys in the clip minus the closing one (`K`).
    kk: usize,
    /// Seconds (`K / fps`).
    duration: f64,
    /// Key times, `k / fps`.
    times: Vec<f64>,
    /// Per mapped segment (bone order), per key: the sagittal angle.
    theta: Vec<Vec<f64>>,
    /// Per mapped segment, per key: the height of its start point.
    start_h: Vec<Vec<f64>>,
    /// Per key: the root's height.
    height: Vec<f64>,
    /// Per mapped segment, per key: its midpoint's nearness along the viewing axis
    /// (capture units, larger is nearer; step 10).
    near: Vec<Vec<f64>>,
    /// Per mapped segment, per key: its start relative to the root on the drawing's plane
    /// (capture units, y down; step 9b).
    start2d: Vec<Vec<[f64; 2]>>,
}

/// Step 4: `K = round(seconds × fps)` keys plus the closing one, each sampling the capture at
/// `start + k/K·(end − start)`; the key count checked against `bvh-max-frames` first.
fn sample_keys(
    bvh: &Bvh,
    bones: &[MotionBone],
    opts: &MotionOptions,
    limits: &Limits,
    drive: &Drive,
    span: &Span,
    sampler: &mut Sampler,
) -> Result<Keys, RigError> {
    let (cut, forward, facing) = (&span.cut, span.forward, opts.facing_right);
    let seconds = (cut.end - cut.start) * bvh.frame_time;
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
    let mapped = &drive.mapped;
    // per mapped segment: projected on the frontal plane (a frontal figure's arms)
    let frontal: Vec<bool> = drive
        .segs
        .iter()
        .zip(bones)
        .filter(|(s, _)| s.is_some())
        .map(|(s, b)| {
            opts.frontal
                && matches!(
                    drive::bone_role(b, s.as_ref().map(|s| bvh.joints[s.joint()].name.as_str())),
                    Some(mapping::Role::UpperArm | mapping::Role::Forearm | mapping::Role::Hand)
                )
        })
        .collect();
    let mut theta: Vec<Vec<f64>> = vec![Vec::with_capacity(kk + 1); mapped.len()];
    let mut start_h: Vec<Vec<f64>> = vec![Vec::with_capacity(kk + 1); mapped.len()];
    let mut height: Vec<f64> = Vec::with_capacity(kk + 1);
    let mut near: Vec<Vec<f64>> = vec![Vec::with_capacity(kk + 1); mapped.len()];
    let mut start2d: Vec<Vec<[f64; 2]>> = vec![Vec::with_capacity(kk + 1); mapped.len()];
    let side = if facing { 1.0 } else { -1.0 };
    let (mut buf, mut sbuf) = (Vec::new(), Vec::new());
    // the viewing axis: across forward, towards the near hip at the first key
    let hips = (drive.leg_segs.len() >= 4).then(|| {
        sampler.sample(cut.start, &drive.leg_segs, &mut buf, &mut sbuf);
        pose::sub(sbuf[0], sbuf[2])
    });
    let axis = depth::viewing_axis(forward, hips);
    for k in 0..=kk {
        let t = cut.start + (cut.end - cut.start) * k as f64 / kk as f64;
        let root = sampler.sample(t, mapped, &mut buf, &mut sbuf);
        for (i, v) in buf.iter().enumerate() {
            theta[i].push(if frontal[i] {
                pose::frontal(*v, forward)
            } else {
                pose::sagittal(*v, forward, facing)
            });
            start_h[i].push(sbuf[i][1]);
            let mid = pose::sub(
                [
                    sbuf[i][0] + 0.5 * v[0],
                    sbuf[i][1] + 0.5 * v[1],
                    sbuf[i][2] + 0.5 * v[2],
                ],
                root,
            );
            near[i].push(mid[0] * axis[0] + mid[2] * axis[2]);
            let rel = pose::sub(sbuf[i], root);
            start2d[i].push([side * (rel[0] * forward[0] + rel[2] * forward[2]), -rel[1]]);
        }
        height.push(root[1]);
    }
    for th in &mut theta {
        pose::unwrap(th);
    }
    Ok(Keys {
        kk,
        duration: kk as f64 / fps,
        times: (0..=kk).map(|k| k as f64 / fps).collect(),
        theta,
        start_h,
        height,
        near,
        start2d,
    })
}

/// Step 6 of a one-shot: the first and last [`EASE_SECONDS`] (at most [`EASE_FRACTION`] of
/// the clip) of every target blend from the drawn world angle into the capture's
/// (smoothstep), so the clip starts and ends in the drawn stance; sets `seam.keys` to the
/// blend's keys and returns the excerpt's first and last pose mismatch to the drawn pose
/// (RMS degrees over the mapped bones).
fn ease_into_stance(seam: &mut Seam, drawn: &[f64], kk: usize, fps: f64) -> (f64, f64) {
    let ease = ((EASE_SECONDS * fps).round() as usize)
        .min((EASE_FRACTION * kk as f64).floor() as usize)
        .max(1);
    let (mut s0, mut s1, mut n) = (0.0, 0.0, 0usize);
    for (b, t) in seam.blended.iter_mut().enumerate() {
        let Some(t) = t else { continue };
        let d0 = pose::wrap(t[0] - drawn[b]).to_degrees();
        let d1 = pose::wrap(t[kk] - drawn[b]).to_degrees();
        s0 += d0 * d0;
        s1 += d1 * d1;
        n += 1;
        for (k, x) in t.iter_mut().enumerate() {
            let w = depth::ease_weight(k, kk + 1, ease);
            if w < 1.0 {
                *x = drawn[b] + w * pose::wrap(*x - drawn[b]);
            }
        }
    }
    seam.keys = ease;
    if n == 0 {
        return (0.0, 0.0);
    }
    ((s0 / n as f64).sqrt(), (s1 / n as f64).sqrt())
}

/// The seam of a cyclic clip, closed.
struct Seam {
    /// Keys of the blend at each end (0 for a one-shot).
    keys: usize,
    /// Per bone, the raw end-minus-start mismatch of its target.
    closure: Vec<f64>,
    /// The targets with the seam blended in.
    blended: Vec<Option<Vec<f64>>>,
    /// The raw mismatch of the root height.
    root_raw: f64,
}

/// Step 6: a cyclic clip's end-minus-start mismatch of every target and of the root height
/// (blended in place into `keys.height`) removed by a local blend around the seam.
fn close_seam(target: &[Option<Vec<f64>>], keys: &mut Keys, looped: bool) -> Seam {
    let seam = if looped {
        ((SEAM_FRACTION / 2.0) * keys.kk as f64).floor() as usize
    } else {
        0
    };
    let mut closure = vec![0.0; target.len()];
    let mut blended: Vec<Option<Vec<f64>>> = target.to_vec();
    if looped {
        for (b, t) in blended.iter_mut().enumerate() {
            if let Some(t) = t {
                closure[b] = pose::seam(t, seam);
            }
        }
    }
    let root_raw = if looped {
        pose::seam(&mut keys.height, seam)
    } else {
        0.0
    };
    Seam {
        keys: seam,
        closure,
        blended,
        root_raw,
    }
}

/// The root's vertical motion in drawing pixels.
struct Bob {
    /// Drawing pixels per capture unit (0: no bob).
    scale: f64,
    /// Per key, y down.
    root_dy: Vec<f64>,
}

/// Step 7: the root's height minus its mean over the cycle (cyclic) or its first key
/// (one-shot), times drawing leg length / capture leg length; refused beyond
/// ±[`MAX_ROOT_DY`].
fn root_bob(
    bvh: &Bvh,
    opts: &MotionOptions,
    bones: &[MotionBone],
    drive: &Drive,
    span: &Span,
    keys: &Keys,
    warnings: &mut Vec<String>,
) -> Result<Bob, RigError> {
    let (kk, height, looped) = (keys.kk, &keys.height, span.looped);
    let first = (span.cut.start as usize).min(bvh.frames - 1);
    let scale = if !opts.root_bob {
        0.0
    } else {
        match leg_scale(bvh, first, bones, &drive.segs, drive.legs) {
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
    Ok(Bob { scale, root_dy })
}

/// Step 8's warning: one line per bone with clamped keys.
fn warn_clamped(
    bones: &[MotionBone],
    clamped: &[usize],
    keys: usize,
    max_angle: f64,
    warnings: &mut Vec<String>,
) {
    for (b, &n) in bones.iter().zip(clamped) {
        if n > 0 {
            warnings.push(format!(
                "bone '{}': {n} of {keys} keys were more than {:.0}° from the drawn pose and were clamped (--max-turn)",
                b.name,
                max_angle.to_degrees()
            ));
        }
    }
}

/// Step 9b: per hand and foot bone, its start point's path in the clip (forward kinematics of
/// the drawn skeleton at the clip's world angles) against its driving joint's in the capture,
/// drawing pixels (`scale` per capture unit), outside `blend` keys at each end.
#[allow(clippy::too_many_arguments)]
fn joint_paths(
    bvh: &Bvh,
    bones: &[MotionBone],
    order: &[usize],
    drawn: &[f64],
    drive: &Drive,
    keys: &Keys,
    actual: &[Vec<f64>],
    scale: f64,
    blend: usize,
) -> Vec<(usize, paths::PathFit)> {
    if scale <= 0.0 {
        return Vec::new();
    }
    let clip = paths::starts(bones, order, drawn, actual);
    let mut mi = 0;
    let mut out = Vec::new();
    for (b, s) in drive.segs.iter().enumerate() {
        let Some(s) = s else { continue };
        let i = mi;
        mi += 1;
        let role = drive::bone_role(&bones[b], Some(bvh.joints[s.joint()].name.as_str()));
        if !matches!(role, Some(mapping::Role::Hand) | Some(mapping::Role::Foot)) {
            continue;
        }
        let cap: Vec<[f64; 2]> = keys.start2d[i]
            .iter()
            .map(|p| [p[0] * scale, p[1] * scale])
            .collect();
        let to = keys.kk.saturating_sub(blend);
        out.push((b, paths::fit(&clip[b], &cap, blend.min(to), to)));
    }
    out
}

/// Step 9: per bone, the clip's world angle against the rule's target (degrees), outside the
/// seam blend and overall; keys clamped at the working-pose limit are left out.
fn fit(
    target: &[Option<Vec<f64>>],
    angles: &[Vec<f64>],
    actual: &[Vec<f64>],
    max_angle: f64,
    seam: usize,
    kk: usize,
) -> Vec<BoneFit> {
    (0..target.len())
        .map(|b| match &target[b] {
            None => BoneFit::default(),
            Some(t) => {
                let (mut ss, mut n, mut mx, mut mxa) = (0.0, 0usize, 0.0f64, 0.0f64);
                for k in 0..=kk {
                    // a clamped key follows the working-pose limit, not the capture
                    if angles[b][k].abs() >= max_angle - 1e-12 {
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
        .collect()
}

/// A canonical-frame vector back in capture coordinates (the inverse of `turn`).
fn to_capture(m: &[[f64; 3]; 3], v: [f64; 3]) -> [f64; 3] {
    [
        m[0][0] * v[0] + m[1][0] * v[1] + m[2][0] * v[2],
        m[0][1] * v[0] + m[1][1] * v[1] + m[2][1] * v[2],
        m[0][2] * v[0] + m[1][2] * v[1] + m[2][2] * v[2],
    ]
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
