//! Step 1 of the retargeting: which part of the capture drives each bone — its joint (the
//! `mocap` map's, translated from another naming family, or the default table's), its rule
//! (long limb, trunk piece, end segment, drawn pose), its segment, the reversed bends — and the
//! legs; with the sampler that reads segments at fractional frames in the canonical frame.

use super::bvh::{Bvh, Xform};
use super::gait::Leg;
use super::mapping::{self, Convention, End, Role, SideWord};
use super::{Bend, MotionBone, MotionOptions, Rule, axes, pose};
use crate::error::RigError;

/// What drives each bone (declaration order), and the capture's legs.
pub(super) struct Drive {
    /// Per bone, the rule it follows.
    pub rules: Vec<Rule>,
    /// Per bone, its segment in the capture (`None`: drawn pose).
    pub segs: Vec<Option<Seg>>,
    /// Per bone, its target is mirrored about its parent's (a reversed bend that applies).
    pub reversed: Vec<bool>,
    /// The capture's joint-naming family.
    pub conv: Option<&'static Convention>,
    /// The legs (near, far): hip, knee, ankle joints.
    pub legs: Option<[Leg; 2]>,
    /// The legs' thigh and shin segments (the cut's pose match reads them).
    pub leg_segs: Vec<Seg>,
    /// The segments of the mapped bones, in bone order.
    pub mapped: Vec<Seg>,
}

impl Drive {
    /// Joints, rules and segments per bone; the legs. Warnings for what cannot be followed.
    pub(super) fn resolve(
        bvh: &Bvh,
        bones: &[MotionBone],
        order: &[usize],
        opts: &MotionOptions,
        warnings: &mut Vec<String>,
    ) -> Result<Drive, RigError> {
        let facing = opts.facing_right;
        let joints = resolve(bvh, bones, facing, warnings)?;
        let (rules, segs) = rules(bvh, bones, order, &joints, warnings);
        let reversed = reversed_bends(bones, &rules, warnings);
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
        let mapped: Vec<Seg> = segs.iter().flatten().cloned().collect();
        Ok(Drive {
            rules,
            segs,
            reversed,
            conv,
            legs,
            leg_segs,
            mapped,
        })
    }

    /// The name of the joint (or `first→last` of the chain) driving each bone.
    pub(super) fn joint_names(&self, bvh: &Bvh) -> Vec<Option<String>> {
        self.segs
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
            .collect()
    }
}

/// Per bone: its declared reversed bend applies (a long limb or trunk piece with a parent);
/// a warning for each one that has no effect.
fn reversed_bends(bones: &[MotionBone], rules: &[Rule], warnings: &mut Vec<String>) -> Vec<bool> {
    let reversed: Vec<bool> = bones
        .iter()
        .zip(rules)
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
    reversed
}

/// A bone's segment in the capture.
#[derive(Clone, Debug)]
pub(super) enum Seg {
    /// From a joint to its end.
    Limb { joint: usize, end: End },
    /// A piece of a chain of joints, by arc-length fractions.
    Chain { path: Vec<usize>, a: f64, b: f64 },
}

impl Seg {
    pub(super) fn joint(&self) -> usize {
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
pub(super) struct Sampler<'a> {
    bvh: &'a Bvh,
    turn: [[f64; 3]; 3],
    w0: Vec<Xform>,
    w1: Vec<Xform>,
}

impl<'a> Sampler<'a> {
    pub(super) fn new(bvh: &'a Bvh, turn: [[f64; 3]; 3]) -> Self {
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
    pub(super) fn sample(
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
pub(super) fn bone_role(b: &MotionBone, joint: Option<&str>) -> Option<Role> {
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
