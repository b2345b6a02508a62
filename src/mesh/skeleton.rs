//! Bone tree: parent-first ordering, pose, rest and tip (spec js-mesh.md §5).
//!
//! `SkeletonData` is the immutable setup (bones in declaration order);
//! `pose` returns world transforms in bone order. The JS adapter keeps the
//! live JS spec object (§5 re-reads it on every call) and mirrors these rules.

use super::{n0, normalize_angle};

/// One bone of the setup pose (§5: `{ parent?, length?, angle?, x?, y? }`).
#[derive(Clone, Debug, PartialEq)]
pub struct BoneData {
    /// Bone name (the key in the JS spec object).
    pub name: String,
    /// Parent name; `None` (or an empty name) makes a root.
    pub parent: Option<String>,
    /// Rest length (the spec's `finiteOr(length, 0)`).
    pub length: f64,
    /// Rest angle, local to the parent (radians).
    pub angle: f64,
    /// Root position (ignored for children).
    pub x: f64,
    /// Root position (ignored for children).
    pub y: f64,
}

/// World transform of a posed bone: start point and world angle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoneWorld {
    /// Start x.
    pub x: f64,
    /// Start y.
    pub y: f64,
    /// World angle (children normalized into (−π, π], roots not).
    pub angle: f64,
}

/// §5.1: order bones so parents come before children.
///
/// `parents[i]` is the parent name of `names[i]` (`None` or `""` = root).
/// Returns the order (indices into `names`) and the number of stalled
/// passes (each of which the JS module logs once).
pub fn order_bones(names: &[&str], parents: &[Option<&str>]) -> (Vec<usize>, usize) {
    let mut order: Vec<usize> = Vec::with_capacity(names.len());
    let mut pending: Vec<usize> = (0..names.len()).collect();
    let mut stalls = 0;
    while !pending.is_empty() {
        let before = pending.len();
        let mut i = pending.len();
        while i > 0 {
            i -= 1;
            let idx = pending[i];
            let ok = match parents.get(idx).copied().flatten() {
                None | Some("") => true,
                Some(p) => order.iter().any(|&o| names[o] == p),
            };
            if ok {
                order.push(idx);
                pending.remove(i);
            }
        }
        if pending.len() == before {
            stalls += 1;
            order.append(&mut pending);
        }
    }
    (order, stalls)
}

/// A validated skeleton: bones plus their parent-first order.
#[derive(Clone, Debug)]
pub struct SkeletonData {
    bones: Vec<BoneData>,
    order: Vec<usize>,
    stalls: usize,
}

impl SkeletonData {
    /// Build from bones in declaration (JS key) order.
    pub fn new(bones: Vec<BoneData>) -> Self {
        let names: Vec<&str> = bones.iter().map(|b| b.name.as_str()).collect();
        let parents: Vec<Option<&str>> = bones.iter().map(|b| b.parent.as_deref()).collect();
        let (order, stalls) = order_bones(&names, &parents);
        SkeletonData {
            bones,
            order,
            stalls,
        }
    }

    /// Bone names, parents first (§5.3 `bones()`).
    pub fn names(&self) -> Vec<&str> {
        self.order
            .iter()
            .map(|&i| self.bones[i].name.as_str())
            .collect()
    }

    /// Number of stalled ordering passes (cycle / missing parent).
    pub fn stalls(&self) -> usize {
        self.stalls
    }

    /// Bone data by name.
    pub fn bone(&self, name: &str) -> Option<&BoneData> {
        self.bones.iter().find(|b| b.name == name)
    }

    /// §5.2: world transforms for additive angles (looked up by name; a
    /// missing name adds 0). Result is in bone order, paired with names.
    pub fn pose(&self, add: impl Fn(&str) -> f64) -> Vec<(&str, BoneWorld)> {
        let mut buf = vec![0.0; self.order.len() * POSE_STRIDE];
        for (k, &i) in self.order.iter().enumerate() {
            let b = &self.bones[i];
            let parent = b.parent.as_deref().filter(|p| !p.is_empty()).and_then(|p| {
                self.order[..k]
                    .iter()
                    .position(|&j| self.bones[j].name == p)
            });
            let r = &mut buf[k * POSE_STRIDE..k * POSE_STRIDE + 5];
            r[0] = parent.map_or(-1.0, |p| p as f64);
            r[1] = n0(b.angle) + n0(add(&b.name));
            r[2] = n0(b.x);
            r[3] = n0(b.y);
            r[4] = parent.map_or(0.0, |p| finite_or(self.bones[self.order[p]].length, 0.0));
        }
        pose_flat(&mut buf);
        self.order
            .iter()
            .enumerate()
            .map(|(k, &i)| {
                let o = &buf[k * POSE_STRIDE + 5..k * POSE_STRIDE + 8];
                (
                    self.bones[i].name.as_str(),
                    BoneWorld {
                        x: o[0],
                        y: o[1],
                        angle: o[2],
                    },
                )
            })
            .collect()
    }

    /// §5.3 `rest()`: the pose with no additive angles.
    pub fn rest(&self) -> Vec<(&str, BoneWorld)> {
        self.pose(|_| 0.0)
    }

    /// §5.3 `tip(pose, name)`: end point of a posed bone, `None` if absent.
    pub fn tip(&self, pose: &[(&str, BoneWorld)], name: &str) -> Option<(f64, f64)> {
        let (_, p) = pose.iter().find(|(n, _)| *n == name)?;
        let len = self.bone(name).map_or(0.0, |b| finite_or(b.length, 0.0));
        Some((p.x + p.angle.cos() * len, p.y + p.angle.sin() * len))
    }
}

/// Numbers per bone in a [`pose_flat`] buffer.
pub const POSE_STRIDE: usize = 8;

/// §5.2 on a flat buffer, bones in parent-first order, [`POSE_STRIDE`]
/// numbers each: inputs `[parent, local, rootX, rootY, parentLen]` and
/// outputs `[x, y, angle]`. `parent` is the index of an **earlier** bone or
/// −1 (root); `local` = rest angle + additive angle; `parentLen` = the
/// parent's rest length. A child starts at its parent's tip and gets
/// `normalizeAngle(parent.angle + local)`; a root keeps `local` as is.
/// This is the pose math behind both [`SkeletonData::pose`] and the JS
/// `rig.pose()`.
pub fn pose_flat(buf: &mut [f64]) {
    for k in 0..buf.len() / POSE_STRIDE {
        let o = k * POSE_STRIDE;
        let (parent, local) = (buf[o], buf[o + 1]);
        let (x, y, angle) = if parent >= 0.0 && (parent as usize) < k {
            let p = parent as usize * POSE_STRIDE;
            let (px, py, pa) = (buf[p + 5], buf[p + 6], buf[p + 7]);
            let len = buf[o + 4];
            (
                px + pa.cos() * len,
                py + pa.sin() * len,
                normalize_angle(pa + local),
            )
        } else {
            (buf[o + 2], buf[o + 3], local)
        };
        buf[o + 5] = x;
        buf[o + 6] = y;
        buf[o + 7] = angle;
    }
}

/// The spec's `finiteOr(v, d)` for an already numeric value.
#[inline]
pub fn finite_or(v: f64, d: f64) -> f64 {
    if v.is_finite() { v } else { d }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bone(name: &str, parent: Option<&str>, length: f64, angle: f64, x: f64, y: f64) -> BoneData {
        BoneData {
            name: name.into(),
            parent: parent.map(Into::into),
            length,
            angle,
            x,
            y,
        }
    }

    #[test]
    fn order_child_first_and_roots_reversed() {
        let (o, s) = order_bones(
            &["wrist", "elbow", "base"],
            &[Some("elbow"), Some("base"), None],
        );
        assert_eq!(o, vec![2, 1, 0]);
        assert_eq!(s, 0);
        let (o, _) = order_bones(&["a", "b"], &[None, None]);
        assert_eq!(o, vec![1, 0]);
        let (o, _) = order_bones(&["a", "b", "c"], &[None, Some("a"), Some("a")]);
        assert_eq!(o, vec![0, 2, 1]);
    }

    #[test]
    fn order_missing_parent_falls_back_once() {
        let (o, s) = order_bones(&["x", "r", "y"], &[Some("nope"), None, Some("x")]);
        // pass 1: y (parent x not placed), r placed; x stalls next pass with y.
        assert_eq!(o, vec![1, 0, 2]);
        assert_eq!(s, 1);
    }

    #[test]
    fn rest_places_child_at_parent_tip() {
        let sk = SkeletonData::new(vec![
            bone("base", None, 15.0, 0.0, 50.0, -10.0),
            bone("limb", Some("base"), 5.0, 0.0, 99.0, 99.0),
        ]);
        let r = sk.rest();
        assert_eq!(sk.names(), vec!["base", "limb"]);
        assert_eq!(
            r[0].1,
            BoneWorld {
                x: 50.0,
                y: -10.0,
                angle: 0.0
            }
        );
        assert_eq!(
            r[1].1,
            BoneWorld {
                x: 65.0,
                y: -10.0,
                angle: 0.0
            }
        );
        assert_eq!(sk.tip(&r, "limb"), Some((70.0, -10.0)));
        assert_eq!(sk.tip(&r, "nope"), None);
    }

    #[test]
    fn pose_flat_later_parent_index_is_a_root() {
        // bone 0 claims parent 1 (not yet computed) → behaves as a root
        let mut buf = [
            1.0, 0.5, 3.0, 4.0, 9.0, 0.0, 0.0, 0.0, -1.0, 0.25, 7.0, 8.0, 0.0, 0.0, 0.0, 0.0,
        ];
        pose_flat(&mut buf);
        assert_eq!(&buf[5..8], &[3.0, 4.0, 0.5]);
        assert_eq!(&buf[13..16], &[7.0, 8.0, 0.25]);
    }

    #[test]
    fn pose_adds_angles_and_normalizes_children_only() {
        let sk = SkeletonData::new(vec![
            bone("root", None, 10.0, 3.0, 0.0, 0.0),
            bone("arm", Some("root"), 10.0, 0.5, 0.0, 0.0),
        ]);
        let p = sk.pose(|n| if n == "root" { 1.0 } else { 0.0 });
        assert_eq!(p[0].1.angle, 4.0); // root: 3 + 1, not normalized
        let want = 4.0 + 0.5 - std::f64::consts::TAU;
        assert!((p[1].1.angle - want).abs() < 1e-15);
        assert!((p[1].1.x - 10.0 * 4f64.cos()).abs() < 1e-12);
    }
}
