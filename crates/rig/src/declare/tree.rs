//! Stage 4: the bone tree of the output, with connector bones (rig.md §1).
//!
//! In Rive a child bone starts at its parent's tip. A declared child whose
//! first point is farther than [`CONNECT_EPS`] px from its parent's last
//! point is reached through a generated **connector bone**: a child of the
//! declared parent from the parent's tip to the child's first point, with no
//! part; the declared child then hangs from the connector. Connectors are
//! named `<child>.connector` (a `#n` suffix if that name is taken). A
//! declared bone's length and angle are those of its first → last point
//! (inner points only shape the tube).

use super::skeleton::Skeleton;

/// Largest gap (px) between a parent's tip and a child's first point that
/// needs no connector.
pub const CONNECT_EPS: f64 = 0.01;

/// A bone of the output tree.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeBone {
    /// Name (declared, or `<child>.connector`).
    pub name: String,
    /// Parent index into [`Tree::bones`].
    pub parent: Option<usize>,
    /// Declared bone index; `None` for a connector.
    pub declared: Option<usize>,
    /// Length, px.
    pub length: f64,
    /// Angle relative to the parent (the world angle for a root), radians.
    pub angle: f64,
    /// Rest world start (drawing pixels).
    pub start: [f64; 2],
    /// Rest world angle.
    pub world_angle: f64,
}

/// The output tree: parents before children.
#[derive(Clone, Debug, PartialEq)]
pub struct Tree {
    /// Bones, parents first.
    pub bones: Vec<TreeBone>,
    /// Per declared bone: its index in [`Tree::bones`].
    pub of_declared: Vec<usize>,
}

impl Tree {
    /// Number of connector bones.
    pub fn connectors(&self) -> usize {
        self.bones.iter().filter(|b| b.declared.is_none()).count()
    }
}

/// Builds the tree of `sk` (see the module doc).
pub fn build(sk: &Skeleton) -> Tree {
    let mut bones: Vec<TreeBone> = Vec::with_capacity(sk.bones.len() * 2);
    let mut of_declared = vec![usize::MAX; sk.bones.len()];
    let taken = |bones: &[TreeBone], n: &str| {
        bones.iter().any(|b| b.name == n) || sk.bones.iter().any(|b| b.name == n)
    };
    for i in sk.parents_first() {
        let b = &sk.bones[i];
        let (start, wa) = (b.start(), b.angle());
        let parent = match b.parent {
            None => None,
            Some(p) => {
                let pt = of_declared[p];
                let pb = &sk.bones[p];
                let tip = pb.end();
                let gap = (start[0] - tip[0]).hypot(start[1] - tip[1]);
                if gap <= CONNECT_EPS {
                    Some(pt)
                } else {
                    let mut name = format!("{}.connector", b.name);
                    let mut k = 2;
                    while taken(&bones, &name) {
                        name = format!("{}.connector#{k}", b.name);
                        k += 1;
                    }
                    let ca = (start[1] - tip[1]).atan2(start[0] - tip[0]);
                    bones.push(TreeBone {
                        name,
                        parent: Some(pt),
                        declared: None,
                        length: gap,
                        angle: ca - bones[pt].world_angle,
                        start: tip,
                        world_angle: ca,
                    });
                    Some(bones.len() - 1)
                }
            }
        };
        let angle = match parent {
            Some(q) => wa - bones[q].world_angle,
            None => wa,
        };
        of_declared[i] = bones.len();
        bones.push(TreeBone {
            name: b.name.clone(),
            parent,
            declared: Some(i),
            length: b.length(),
            angle,
            start,
            world_angle: wa,
        });
    }
    Tree { bones, of_declared }
}
