//! Step 9b of the retargeting (issue 42): the path of each hand's and foot's joint in the
//! clip against the capture's. The clip's wrist (ankle) is the start point of the hand (foot)
//! bone, carried by forward kinematics of the drawn skeleton at the clip's world angles; the
//! capture's is its driving joint projected on the drawing's plane like the limbs (forward →
//! ±x by `facing`, up → −y) and scaled to drawing pixels (the root bob's drawn leg / capture
//! leg ratio). Both are taken relative to the root (the clip is in place) and the paths'
//! mean offset is removed (the drawing's proportions put a wrist elsewhere than the
//! capture's at the same pose): what is left is how far the clip's path strays from the
//! capture's shape, in drawing pixels, over the keys outside the seam or the stance ease.

use super::MotionBone;

/// How closely one joint's path follows the capture's (drawing pixels).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PathFit {
    /// RMS distance after removing the mean offset, outside the blend.
    pub rms: f64,
    /// Largest such distance, outside the blend.
    pub max: f64,
    /// The removed mean offset (the proportions' share), length.
    pub offset: f64,
}

/// The start point of every bone (drawing pixels, relative to the root bone's start) at
/// every key, for world angles `world[b][k]` (the clip's) and the drawn pose.
pub fn starts(
    bones: &[MotionBone],
    order: &[usize],
    drawn: &[f64],
    world: &[Vec<f64>],
) -> Vec<Vec<[f64; 2]>> {
    let keys = world.first().map_or(0, Vec::len);
    let mut out = vec![vec![[0.0; 2]; keys]; bones.len()];
    for &b in order {
        let Some(p) = bones[b].parent else { continue };
        let off = [
            bones[b].start[0] - bones[p].start[0],
            bones[b].start[1] - bones[p].start[1],
        ];
        for k in 0..keys {
            let (s, c) = (world[p][k] - drawn[p]).sin_cos();
            let q = out[p][k];
            out[b][k] = [
                q[0] + c * off[0] - s * off[1],
                q[1] + s * off[0] + c * off[1],
            ];
        }
    }
    out
}

/// One path against the capture's (`capture` already in drawing pixels), keys `[from, to]`.
pub fn fit(clip: &[[f64; 2]], capture: &[[f64; 2]], from: usize, to: usize) -> PathFit {
    let n = (to + 1).saturating_sub(from).max(1) as f64;
    let (mut mx, mut my) = (0.0, 0.0);
    for k in from..=to.min(clip.len().saturating_sub(1)) {
        mx += clip[k][0] - capture[k][0];
        my += clip[k][1] - capture[k][1];
    }
    let (mx, my) = (mx / n, my / n);
    let (mut ss, mut worst) = (0.0, 0.0f64);
    for k in from..=to.min(clip.len().saturating_sub(1)) {
        let d = (clip[k][0] - capture[k][0] - mx).hypot(clip[k][1] - capture[k][1] - my);
        ss += d * d;
        worst = worst.max(d);
    }
    PathFit {
        rms: (ss / n).sqrt(),
        max: worst,
        offset: mx.hypot(my),
    }
}
