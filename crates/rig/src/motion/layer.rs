//! Motions by body part (issue 47): which bones a motion drives, and the
//! retargeted clip restricted to them.
//!
//! A bone's **role** is the one the retargeting reads: from the words of its
//! name, else from its `mocap` joint's name (`mapping.rs`). The named sets:
//!
//! | set | bones |
//! |---|---|
//! | `arms` | every upper arm, forearm and hand, and every bone hanging from one (a sleeve, a held sword) |
//! | `legs` | every thigh, shin, foot and toe, and every bone hanging from one |
//! | `lower` | the legs, every bone between a leg and the root that is no trunk piece, neck, head or arm (a pelvis), and the bones without a role hanging from those (a tail on the pelvis) |
//! | `upper` | every bone not in `lower` (the trunk, neck, head, arms, a belly on the spine) |
//! | `a,b,…` | exactly these declared bones |
//!
//! The clip of such a motion keys only its bones (and the root's bob only
//! when the root is one of them): it plays as its own state-machine layer
//! over the locomotion layer (`re2d_riv::layers`). The capture is still
//! retargeted onto the whole skeleton — a bone's key is its angle relative
//! to its declared parent — so a waving arm is the capture's arm relative to
//! the capture's chest, laid over whatever chest the walk under it gives.

use super::mapping::{self, Role};
use super::{MotionBone, Retargeted};
use crate::declare::skeleton::BodySet;
use crate::error::RigError;

fn role(b: &MotionBone) -> Option<Role> {
    mapping::role_of(&b.name).map(|r| r.0).or_else(|| {
        b.joint
            .as_deref()
            .filter(|j| !j.is_empty())
            .and_then(mapping::joint_role)
            .map(|r| r.0)
    })
}

/// Marks every descendant of a marked bone (parents may come after children
/// in the declaration: repeated until nothing changes).
fn with_descendants(bones: &[MotionBone], mut m: Vec<bool>) -> Vec<bool> {
    loop {
        let mut changed = false;
        for (k, b) in bones.iter().enumerate() {
            if !m[k] && b.parent.is_some_and(|p| m[p]) {
                m[k] = true;
                changed = true;
            }
        }
        if !changed {
            return m;
        }
    }
}

/// Per bone (declaration order): the motion drives it. `E_RIG_MOTION` for
/// an unknown bone or a set with no bone in this skeleton.
pub fn resolve(bones: &[MotionBone], set: &BodySet) -> Result<Vec<bool>, RigError> {
    let roles: Vec<Option<Role>> = bones.iter().map(role).collect();
    let is = |k: usize, rs: &[Role]| roles[k].is_some_and(|r| rs.contains(&r));
    const ARM: [Role; 3] = [Role::UpperArm, Role::Forearm, Role::Hand];
    const LEG: [Role; 4] = [Role::Thigh, Role::Shin, Role::Foot, Role::Toe];
    let marked = |rs: &[Role]| -> Vec<bool> {
        with_descendants(bones, (0..bones.len()).map(|k| is(k, rs)).collect())
    };
    let lower = || {
        let mut m = marked(&LEG);
        let legs = m.clone();
        for k in (0..bones.len()).filter(|&k| legs[k]) {
            let mut p = bones[k].parent;
            while let Some(q) = p {
                if roles[q].is_some() {
                    break; // a trunk piece, neck, head or arm: upper from here
                }
                m[q] = true;
                p = bones[q].parent;
            }
        }
        // bones without a role hanging from the pelvis (a tail) go with it
        let core: Vec<bool> = (0..bones.len()).map(|k| m[k] && !legs[k]).collect();
        loop {
            let mut changed = false;
            for (k, b) in bones.iter().enumerate() {
                if !m[k]
                    && roles[k].is_none()
                    && b.parent.is_some_and(|p| m[p] && (core[p] || !legs[p]))
                {
                    m[k] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        m
    };
    let m = match set {
        BodySet::Arms => marked(&ARM),
        BodySet::Legs => marked(&LEG),
        BodySet::Lower => lower(),
        BodySet::Upper => lower().into_iter().map(|x| !x).collect(),
        BodySet::Bones(list) => {
            let mut m = vec![false; bones.len()];
            for n in list {
                let Some(k) = bones.iter().position(|b| &b.name == n) else {
                    let names: Vec<&str> = bones.iter().map(|b| b.name.as_str()).collect();
                    return Err(RigError::new(
                        "E_RIG_MOTION",
                        format!("no bone '{n}' (the bones: {})", names.join(", ")),
                    ));
                };
                m[k] = true;
            }
            m
        }
    };
    if !m.contains(&true) {
        return Err(RigError::new(
            "E_RIG_MOTION",
            format!(
                "the set '{}' has no bone in this skeleton ({} are found by the role words of the bone names or their `mocap` joints: upper arm, forearm, hand; thigh, shin, foot, toe)",
                set.label(),
                set.label()
            ),
        ));
    }
    Ok(m)
}

/// The clip restricted to the bones `only` marks: their keys only, the
/// root's bob only when a root is among them; the report's clamps, fit and
/// warnings only for them.
pub fn restrict(r: &mut Retargeted, bones: &[MotionBone], only: &[bool]) {
    let roots = bones
        .iter()
        .zip(only)
        .any(|(b, &m)| m && b.parent.is_none());
    if !roots {
        r.walk.root_dy.iter_mut().for_each(|d| *d = 0.0);
    }
    for (k, &m) in only.iter().enumerate() {
        if !m {
            r.walk.angles[k].iter_mut().for_each(|a| *a = 0.0);
            r.report.clamped[k] = 0;
            r.report.fit[k] = Default::default();
        }
    }
    let outside: Vec<String> = bones
        .iter()
        .zip(only)
        .filter(|(_, m)| !**m)
        .map(|(b, _)| format!("bone '{}'", b.name))
        .collect();
    r.walk
        .warnings
        .retain(|w| !outside.iter().any(|p| w.starts_with(p.as_str())));
    r.walk.keyed = Some(only.to_vec());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bone(name: &str, parent: Option<usize>) -> MotionBone {
        MotionBone {
            name: name.into(),
            parent,
            start: [0.0, 0.0],
            end: [0.0, 1.0],
            joint: None,
            bend: Default::default(),
        }
    }

    fn skeleton() -> Vec<MotionBone> {
        vec![
            bone("pelvis", None),           // 0
            bone("spine", Some(0)),         // 1
            bone("chest", Some(1)),         // 2
            bone("head", Some(2)),          // 3
            bone("upper_arm_far", Some(2)), // 4
            bone("forearm_far", Some(4)),   // 5
            bone("sleeve", Some(5)),        // 6
            bone("thigh_near", Some(0)),    // 7
            bone("shin_near", Some(7)),     // 8
            bone("tail", Some(0)),          // 9
            bone("belly", Some(1)),         // 10
        ]
    }

    fn set(m: &[bool]) -> Vec<usize> {
        m.iter()
            .enumerate()
            .filter(|(_, x)| **x)
            .map(|(k, _)| k)
            .collect()
    }

    #[test]
    fn named_sets_follow_roles_and_the_tree() {
        let b = skeleton();
        assert_eq!(set(&resolve(&b, &BodySet::Arms).unwrap()), [4, 5, 6]);
        assert_eq!(set(&resolve(&b, &BodySet::Legs).unwrap()), [7, 8]);
        assert_eq!(set(&resolve(&b, &BodySet::Lower).unwrap()), [0, 7, 8, 9]);
        assert_eq!(
            set(&resolve(&b, &BodySet::Upper).unwrap()),
            [1, 2, 3, 4, 5, 6, 10]
        );
        let l = BodySet::Bones(vec!["head".into(), "tail".into()]);
        assert_eq!(set(&resolve(&b, &l).unwrap()), [3, 9]);
    }

    #[test]
    fn a_set_with_no_bone_or_an_unknown_bone_is_refused() {
        let b = vec![bone("pelvis", None), bone("tail", Some(0))];
        let e = resolve(&b, &BodySet::Arms).unwrap_err();
        assert_eq!(e.code, "E_RIG_MOTION");
        let e = resolve(&skeleton(), &BodySet::Bones(vec!["wing".into()])).unwrap_err();
        assert!(e.message.contains("no bone 'wing'"), "{}", e.message);
    }

    #[test]
    fn roles_come_from_mocap_joints_too() {
        let mut b = skeleton();
        b[4].name = "a".into();
        b[4].joint = Some("RightShoulder".into());
        b[5].name = "b".into();
        b[5].joint = Some("RightElbow".into());
        assert_eq!(set(&resolve(&b, &BodySet::Arms).unwrap()), [4, 5, 6]);
    }
}
