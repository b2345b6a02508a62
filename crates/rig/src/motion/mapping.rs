//! Which capture joint drives which drawn bone (rig.md §1 `mocap`, §6), and
//! the limb segment a joint stands for.
//!
//! **Default mapping** (a bone without `joint`): the bone's name is split
//! into lower-case words (at `_`, `-`, spaces, digits and camelCase
//! boundaries: `upperArmL` → `upper arm l`, `thigh_near` → `thigh near`),
//! a side word and a role word are looked up, and the role's joint is
//! taken from the naming convention the capture uses (the convention with
//! the most joint names present in the file):
//!
//! | role (words in the bone name) | CMU BVH | MotionBuilder / Vicon / Mixamo | CMU ASF | Hips/Chest |
//! |---|---|---|---|---|
//! | thigh, upper leg, femur, leg | `LeftHip` | `LeftUpLeg` | `lfemur` | `LeftHip` |
//! | shin, calf, lower leg, tibia | `LeftKnee` | `LeftLeg` | `ltibia` | `LeftKnee` |
//! | foot, ankle | `LeftAnkle` | `LeftFoot` | `lfoot` | `LeftAnkle` |
//! | toe, toes | `LeftToe` | `LeftToeBase` | `ltoes` | `LeftToe` |
//! | upper arm, arm, humerus | `LeftShoulder` | `LeftArm` | `lhumerus` | `LeftShoulder` |
//! | forearm, lower arm, radius | `LeftElbow` | `LeftForeArm` | `lradius` | `LeftElbow` |
//! | hand, palm, fist | `lhand` | `LeftHand` | `lhand` | `LeftWrist` |
//! | torso, spine, body, trunk | `lowerback` | `Spine` | `lowerback` | `Chest` |
//! | chest, ribcage, thorax, upper body | `Chest` | `Spine1` | `thorax` | `Chest2` |
//! | neck | `Neck` | `Neck` | `upperneck` | `Neck` |
//! | head, skull | `Head` | `Head` | `head` | `Head` |
//!
//! Soft regions drawn as their own parts (`belly`, `abdomen`, `waist`) are
//! no trunk words: such a bone keeps its drawn pose on its parent (issue 47).
//!
//! (Right-side joints likewise: `RightHip`, `RightUpLeg`, `rfemur`, ….)
//! Joint names are matched without a `prefix:` namespace (`mixamorig:LeftArm`
//! is `LeftArm`, [`crate::motion::bvh::Bvh::find`]).
//! Side words: `near`/`far` (near = the capture's **Left** when the drawing
//! faces right, Right when it faces left: a side view facing right shows
//! the character's left side), `left`/`l` and `right`/`r` (the character's
//! own side, whatever the facing). A limb without a side word is the near
//! one. A bone whose name has no role word (pelvis, hips, root, tail, ear,
//! …) keeps its drawn pose relative to its parent; so does a bone whose
//! default joint is missing from the capture (with a warning). An explicit
//! `joint` written in another family's names ([`family_of`]) stands for its
//! role in the capture's family; one that is missing is an error
//! (`E_BVH_JOINT`) suggesting joints that could fit ([`suggestions`]).
//!
//! **Segment of a joint** ([`segment`]): from the joint to its child on the
//! limb's chain (a joint or an End Site); a child at offset 0 is followed
//! until the segment has length. No child or a zero-length end is an error
//! naming the joint. **The trunk chain** ([`trunk_chain`]): root → neck base.

use crate::motion::bvh::Bvh;

/// The character's side of a limb.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The character's left.
    Left,
    /// The character's right.
    Right,
}

/// A side as a bone name states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideWord {
    /// Nearer to the viewer.
    Near,
    /// Farther from the viewer.
    Far,
    /// The character's own side.
    Own(Side),
}

impl SideWord {
    /// The character's side for a drawing facing right (`facing_right`) or left.
    pub fn side(self, facing_right: bool) -> Side {
        match (self, facing_right) {
            (SideWord::Own(s), _) => s,
            (SideWord::Near, true) | (SideWord::Far, false) => Side::Left,
            (SideWord::Near, false) | (SideWord::Far, true) => Side::Right,
        }
    }
}

/// What part of the body a bone is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Thigh (hip joint).
    Thigh,
    /// Shin (knee joint).
    Shin,
    /// Foot (ankle joint).
    Foot,
    /// Toes.
    Toe,
    /// Upper arm (shoulder joint).
    UpperArm,
    /// Forearm (elbow joint).
    Forearm,
    /// Hand.
    Hand,
    /// Lower torso / spine.
    Spine,
    /// Chest / upper torso.
    Chest,
    /// Neck.
    Neck,
    /// Head.
    Head,
}

impl Role {
    fn limb_index(self) -> Option<usize> {
        Some(match self {
            Role::Thigh => 0,
            Role::Shin => 1,
            Role::Foot => 2,
            Role::Toe => 3,
            Role::UpperArm => 4,
            Role::Forearm => 5,
            Role::Hand => 6,
            _ => return None,
        })
    }

    fn center_index(self) -> usize {
        match self {
            Role::Spine => 0,
            Role::Chest => 1,
            Role::Neck => 2,
            _ => 3,
        }
    }
}

/// A joint naming convention of motion-capture files.
#[derive(Debug)]
pub struct Convention {
    /// Name for reports.
    pub name: &'static str,
    /// Left thigh, shin, foot, toe, upper arm, forearm, hand joints.
    pub left: [&'static str; 7],
    /// Right joints, same order.
    pub right: [&'static str; 7],
    /// Spine, chest, neck, head joints.
    pub center: [&'static str; 4],
}

impl Convention {
    /// The joint name of `role` on `side` (the side is ignored for the
    /// torso, neck and head).
    pub fn joint(&self, role: Role, side: Side) -> &'static str {
        match role.limb_index() {
            Some(i) => match side {
                Side::Left => self.left[i],
                Side::Right => self.right[i],
            },
            None => self.center[role.center_index()],
        }
    }

    /// Hip, knee and ankle joint names of one leg.
    pub fn leg(&self, side: Side) -> [&'static str; 3] {
        let l = match side {
            Side::Left => &self.left,
            Side::Right => &self.right,
        };
        [l[0], l[1], l[2]]
    }
}

/// The known conventions, tried in this order on ties.
pub const CONVENTIONS: &[Convention] = &[
    Convention {
        name: "CMU BVH",
        left: [
            "LeftHip",
            "LeftKnee",
            "LeftAnkle",
            "LeftToe",
            "LeftShoulder",
            "LeftElbow",
            "lhand",
        ],
        right: [
            "RightHip",
            "RightKnee",
            "RightAnkle",
            "RightToe",
            "RightShoulder",
            "RightElbow",
            "rhand",
        ],
        center: ["lowerback", "Chest", "Neck", "Head"],
    },
    Convention {
        name: "MotionBuilder / Vicon / Mixamo",
        left: [
            "LeftUpLeg",
            "LeftLeg",
            "LeftFoot",
            "LeftToeBase",
            "LeftArm",
            "LeftForeArm",
            "LeftHand",
        ],
        right: [
            "RightUpLeg",
            "RightLeg",
            "RightFoot",
            "RightToeBase",
            "RightArm",
            "RightForeArm",
            "RightHand",
        ],
        center: ["Spine", "Spine1", "Neck", "Head"],
    },
    Convention {
        name: "CMU ASF",
        left: [
            "lfemur", "ltibia", "lfoot", "ltoes", "lhumerus", "lradius", "lhand",
        ],
        right: [
            "rfemur", "rtibia", "rfoot", "rtoes", "rhumerus", "rradius", "rhand",
        ],
        center: ["lowerback", "thorax", "upperneck", "head"],
    },
    Convention {
        name: "Hips/Chest (Collar, Shoulder = upper arm, Elbow, Wrist, Hip, Knee, Ankle)",
        left: [
            "LeftHip",
            "LeftKnee",
            "LeftAnkle",
            "LeftToe",
            "LeftShoulder",
            "LeftElbow",
            "LeftWrist",
        ],
        right: [
            "RightHip",
            "RightKnee",
            "RightAnkle",
            "RightToe",
            "RightShoulder",
            "RightElbow",
            "RightWrist",
        ],
        center: ["Chest", "Chest2", "Neck", "Head"],
    },
];

/// The roles of a convention's `left` / `right` names, in order.
const LIMB_ROLES: [Role; 7] = [
    Role::Thigh,
    Role::Shin,
    Role::Foot,
    Role::Toe,
    Role::UpperArm,
    Role::Forearm,
    Role::Hand,
];
/// The roles of a convention's `center` names, in order.
const CENTER_ROLES: [Role; 4] = [Role::Spine, Role::Chest, Role::Neck, Role::Head];

/// The role and side of a joint name in any known convention (namespaces
/// ignored): `lowerback` → spine, `LeftArm` → left upper arm. The first
/// convention that knows the name wins.
pub fn joint_role(name: &str) -> Option<(Role, Side)> {
    CONVENTIONS.iter().find_map(|c| role_in(c, name))
}

/// The family a declaration's explicit joint names come from: the
/// convention naming the most of them (at least three), `None` otherwise.
pub fn family_of(names: &[&str]) -> Option<&'static Convention> {
    let mut best: Option<(&Convention, usize)> = None;
    for c in CONVENTIONS {
        let hits = names
            .iter()
            .filter(|n| {
                let b = crate::motion::bvh::base_name(n);
                c.left
                    .iter()
                    .chain(&c.right)
                    .chain(&c.center)
                    .any(|x| *x == b)
            })
            .count();
        if hits >= 3 && best.is_none_or(|(_, b)| hits > b) {
            best = Some((c, hits));
        }
    }
    best.map(|b| b.0)
}

/// The role and side of `name` in convention `c` (namespaces ignored).
pub fn role_in(c: &Convention, name: &str) -> Option<(Role, Side)> {
    let base = crate::motion::bvh::base_name(name);
    let limb = |names: &[&str; 7], side| {
        names
            .iter()
            .position(|x| *x == base)
            .map(|i| (LIMB_ROLES[i], side))
    };
    limb(&c.left, Side::Left)
        .or_else(|| limb(&c.right, Side::Right))
        .or_else(|| {
            c.center
                .iter()
                .position(|x| *x == base)
                .map(|i| (CENTER_ROLES[i], Side::Left))
        })
}

/// Up to `n` joint names of `bvh` that could stand for `role` (their names
/// share a word with the role's names in the conventions), else the first
/// `n` joints: the suggestions of an `E_BVH_JOINT` message.
pub fn suggestions(bvh: &Bvh, role: Option<Role>, n: usize) -> Vec<String> {
    let keys: &[&str] = match role {
        Some(Role::Thigh) => &["upleg", "hip", "femur", "thigh"],
        Some(Role::Shin) => &["leg", "knee", "tibia", "shin"],
        Some(Role::Foot) => &["foot", "ankle"],
        Some(Role::Toe) => &["toe"],
        Some(Role::UpperArm) => &["arm", "shoulder", "humerus"],
        Some(Role::Forearm) => &["forearm", "elbow", "radius"],
        Some(Role::Hand) => &["hand", "wrist"],
        Some(Role::Spine) | Some(Role::Chest) => &["spine", "back", "chest", "thorax"],
        Some(Role::Neck) => &["neck"],
        Some(Role::Head) => &["head"],
        None => &[],
    };
    let mut out: Vec<String> = bvh
        .joints
        .iter()
        .filter(|j| {
            let low = j.name.to_ascii_lowercase();
            keys.iter().any(|k| low.contains(k))
        })
        .map(|j| j.name.clone())
        .take(n)
        .collect();
    if out.is_empty() {
        out = bvh.joints.iter().take(n).map(|j| j.name.clone()).collect();
    }
    out
}

/// The capture's trunk chain: joint indices from the root to the neck's
/// base (the first joint whose name contains `neck` on the way from the
/// root to the head joint), root first. `None` when the capture has no
/// such neck joint.
pub fn trunk_chain(bvh: &Bvh) -> Option<Vec<usize>> {
    let is = |j: usize, w: &str| {
        crate::motion::bvh::base_name(&bvh.joints[j].name)
            .to_ascii_lowercase()
            .contains(w)
    };
    // the head: a joint named head whose path from the root has a neck
    for h in 0..bvh.joints.len() {
        if !is(h, "head") {
            continue;
        }
        let mut path = vec![h];
        let mut cur = h;
        while let Some(p) = bvh.joints[cur].parent {
            path.push(p);
            cur = p;
            if path.len() > bvh.joints.len() {
                return None;
            }
        }
        path.reverse();
        if let Some(k) = path.iter().position(|&j| is(j, "neck"))
            && k > 0
        {
            path.truncate(k + 1);
            return Some(path);
        }
    }
    None
}

/// The convention with the most joint names present in `bvh` (`None` when
/// no name of any convention is present).
pub fn convention(bvh: &Bvh) -> Option<&'static Convention> {
    let mut best: Option<(&Convention, usize)> = None;
    for c in CONVENTIONS {
        let hits = c
            .left
            .iter()
            .chain(&c.right)
            .chain(&c.center)
            .filter(|n| bvh.has(n))
            .count();
        if hits > 0 && best.is_none_or(|(_, b)| hits > b) {
            best = Some((c, hits));
        }
    }
    best.map(|b| b.0)
}

/// The lower-case words of a bone name (split at non-letters and at
/// camelCase boundaries: `upperArmL` → `["upper", "arm", "l"]`).
pub fn words(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphabetic() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        let boundary = c.is_uppercase()
            && i > 0
            && (chars[i - 1].is_lowercase()
                || (chars[i - 1].is_uppercase()
                    && chars.get(i + 1).is_some_and(|n| n.is_lowercase())));
        if boundary && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The role and side a bone name states (`None`: no role word).
pub fn role_of(name: &str) -> Option<(Role, SideWord)> {
    let w = words(name);
    let has = |x: &str| w.iter().any(|v| v == x);
    let side = if has("near") {
        SideWord::Near
    } else if has("far") {
        SideWord::Far
    } else if has("left") || has("l") {
        SideWord::Own(Side::Left)
    } else if has("right") || has("r") {
        SideWord::Own(Side::Right)
    } else {
        SideWord::Near
    };
    let upper = has("upper");
    let lower = has("lower");
    let role = if has("forearm") || has("radius") || (lower && has("arm")) {
        Role::Forearm
    } else if has("upperarm") || has("humerus") || has("arm") {
        Role::UpperArm
    } else if has("hand") || has("palm") || has("fist") {
        Role::Hand
    } else if has("shin") || has("calf") || has("tibia") || has("lowerleg") || (lower && has("leg"))
    {
        Role::Shin
    } else if has("thigh") || has("femur") || has("upperleg") || has("leg") {
        Role::Thigh
    } else if has("toe") || has("toes") {
        Role::Toe
    } else if has("foot") || has("feet") || has("ankle") {
        Role::Foot
    } else if has("chest") || has("ribcage") || has("thorax") || (upper && has("body")) {
        Role::Chest
    } else if has("torso") || has("spine") || has("body") || has("trunk") {
        Role::Spine
    } else if has("neck") {
        Role::Neck
    } else if has("head") || has("skull") {
        Role::Head
    } else {
        return None;
    };
    Some((role, side))
}

/// The end of a limb segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// A child joint.
    Joint(usize),
    /// End Site `k` of joint `j`.
    Site(usize, usize),
}

/// The segment of joint `j`: its end and its rest length (the end's offset
/// length). A child at offset 0 is followed along until the segment has
/// length. A joint with several children (joints or End Sites) uses **the
/// child on its limb's chain**: the one whose rest offset points most
/// nearly the way the joint's own offset does (a hand → `*HandEnd` or the
/// middle finger rather than the thumb; a chest → the neck rather than a
/// collar); the first in file order on a tie. `Err` holds the reason,
/// naming the joint.
pub fn segment(bvh: &Bvh, j: usize) -> Result<(End, f64), String> {
    let len = |o: &[f64; 3]| (o[0] * o[0] + o[1] * o[1] + o[2] * o[2]).sqrt();
    let mut cur = j;
    // the direction the chain arrives from (the first non-zero offset up the parents)
    let mut dir = [0.0; 3];
    let mut up = Some(j);
    while let Some(u) = up {
        let o = bvh.joints[u].offset;
        if len(&o) > 0.0 {
            dir = o;
            break;
        }
        up = bvh.joints[u].parent;
    }
    // A chain of zero offsets cannot be longer than the joint count.
    for _ in 0..=bvh.joints.len() {
        let jt = &bvh.joints[cur];
        let n = jt.children.len() + jt.end_sites.len();
        if n == 0 {
            return Err(format!("joint '{}' has no child to point at", jt.name));
        }
        // candidates: (end, offset)
        let mut cands: Vec<(End, [f64; 3])> = jt
            .children
            .iter()
            .map(|&c| (End::Joint(c), bvh.joints[c].offset))
            .collect();
        cands.extend(
            jt.end_sites
                .iter()
                .enumerate()
                .map(|(k, o)| (End::Site(cur, k), *o)),
        );
        let pick = if cands.len() == 1 || len(&dir) == 0.0 {
            cands[0]
        } else {
            // a child at offset 0 points the way of the first non-zero offset below it
            let reach = |e: End, o: [f64; 3]| -> [f64; 3] {
                let mut o = o;
                let mut cur = e;
                for _ in 0..=bvh.joints.len() {
                    if len(&o) > 0.0 {
                        break;
                    }
                    let End::Joint(c) = cur else { break };
                    let jt = &bvh.joints[c];
                    if let Some(&n) = jt.children.first() {
                        cur = End::Joint(n);
                        o = bvh.joints[n].offset;
                    } else if let Some(site) = jt.end_sites.first() {
                        cur = End::Site(c, 0);
                        o = *site;
                    } else {
                        break;
                    }
                }
                o
            };
            let cands: Vec<(End, [f64; 3])> =
                cands.iter().map(|&(e, o)| (e, reach(e, o))).collect();
            let score = |o: &[f64; 3]| {
                let l = len(o);
                if l == 0.0 {
                    -2.0
                } else {
                    (o[0] * dir[0] + o[1] * dir[1] + o[2] * dir[2]) / (l * len(&dir))
                }
            };
            let mut best = cands[0];
            for c in &cands[1..] {
                if score(&c.1) > score(&best.1) + 1e-9 {
                    best = *c;
                }
            }
            best
        };
        let offset = match pick.0 {
            End::Joint(c) => bvh.joints[c].offset,
            End::Site(jj, k) => bvh.joints[jj].end_sites[k],
        };
        let pick = (pick.0, offset);
        let l = len(&pick.1);
        match pick.0 {
            End::Site(..) => {
                if l > 0.0 {
                    return Ok((pick.0, l));
                }
                return Err(format!(
                    "joint '{}' ends at an End Site at offset 0 (no direction)",
                    bvh.joints[j].name
                ));
            }
            End::Joint(c) => {
                if l > 0.0 {
                    return Ok((pick.0, l));
                }
                cur = c;
            }
        }
    }
    Err(format!(
        "joint '{}' has no segment of non-zero length",
        bvh.joints[j].name
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_at_case_and_separators() {
        assert_eq!(words("upperArmL"), ["upper", "arm", "l"]);
        assert_eq!(words("thigh_near"), ["thigh", "near"]);
        assert_eq!(words("LThigh"), ["l", "thigh"]);
        assert_eq!(words("forearm-far 2"), ["forearm", "far"]);
        assert_eq!(words("HEAD"), ["head"]);
    }

    #[test]
    fn roles_and_sides_from_names() {
        use Role::*;
        use SideWord::*;
        assert_eq!(role_of("thigh_near"), Some((Thigh, Near)));
        assert_eq!(role_of("shin_far"), Some((Shin, Far)));
        assert_eq!(role_of("upperArmL"), Some((UpperArm, Own(Side::Left))));
        assert_eq!(role_of("forearmR"), Some((Forearm, Own(Side::Right))));
        assert_eq!(role_of("lower_arm_far"), Some((Forearm, Far)));
        assert_eq!(role_of("arm_near"), Some((UpperArm, Near)));
        assert_eq!(role_of("leg_upper_far"), Some((Thigh, Far)));
        assert_eq!(role_of("lower leg left"), Some((Shin, Own(Side::Left))));
        assert_eq!(role_of("footL"), Some((Foot, Own(Side::Left))));
        assert_eq!(role_of("hand_near"), Some((Hand, Near)));
        assert_eq!(role_of("torso"), Some((Spine, Near)));
        assert_eq!(role_of("chest"), Some((Chest, Near)));
        assert_eq!(role_of("neck"), Some((Neck, Near)));
        assert_eq!(role_of("head"), Some((Head, Near)));
        assert_eq!(role_of("pelvis"), None);
        assert_eq!(role_of("hip"), None);
        assert_eq!(role_of("tail_1"), None);
        assert_eq!(role_of("ear_far"), None);
    }

    #[test]
    fn near_is_left_when_facing_right() {
        assert_eq!(SideWord::Near.side(true), Side::Left);
        assert_eq!(SideWord::Near.side(false), Side::Right);
        assert_eq!(SideWord::Far.side(true), Side::Right);
        assert_eq!(SideWord::Own(Side::Right).side(true), Side::Right);
        assert_eq!(SideWord::Own(Side::Right).side(false), Side::Right);
        let c = &CONVENTIONS[0];
        assert_eq!(c.joint(Role::Thigh, Side::Left), "LeftHip");
        assert_eq!(c.joint(Role::Hand, Side::Right), "rhand");
        assert_eq!(c.joint(Role::Head, Side::Right), "Head");
        assert_eq!(c.leg(Side::Right), ["RightHip", "RightKnee", "RightAnkle"]);
    }
}
