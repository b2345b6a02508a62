//! The capture's axes (rig.md §6 as amended by issue 25): which way is up
//! and which way the motion faces.
//!
//! - **Up** ([`detect_up`]): in the rest pose (every channel 0, the joints
//!   at their summed `OFFSET`s) the legs point down from the hips: up is
//!   the axis (±X, ±Y or ±Z) most opposed to the hip → ankle vectors of
//!   both legs. Without legs, the axis the root → neck chain points along.
//!   Without either, +Y (the BVH convention). `--up` overrides.
//! - The motion is then read in a **canonical frame**: [`Axis::to_y`] turns
//!   the capture so that its up is +Y (a right-handed rotation by 90° or
//!   180°), so the rest of the module treats every capture as Y-up.
//! - **Forward** (`forward` in `mod.rs`): the root's horizontal travel over
//!   the cycle or the excerpt when it travels at least a quarter of a leg;
//!   otherwise the mean horizontal direction of the feet (ankle → toe);
//!   otherwise the left hip → right hip axis turned to face forward.
//!   `--forward` overrides.

use crate::motion::bvh::Bvh;

/// A signed capture axis: `index` 0 = X, 1 = Y, 2 = Z, `sign` ±1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axis {
    /// 0 = X, 1 = Y, 2 = Z.
    pub index: usize,
    /// +1 or −1.
    pub sign: f64,
}

impl Axis {
    /// +Y.
    pub const Y: Axis = Axis {
        index: 1,
        sign: 1.0,
    };

    /// Parses `+y`, `y`, `-z`, `Z`, `+X` …; `None` for anything else.
    pub fn parse(s: &str) -> Option<Axis> {
        let t = s.trim().to_ascii_lowercase();
        let (sign, rest) = match t.strip_prefix('-') {
            Some(r) => (-1.0, r),
            None => (1.0, t.strip_prefix('+').unwrap_or(&t)),
        };
        let index = match rest {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            _ => return None,
        };
        Some(Axis { index, sign })
    }

    /// `+Y`, `-Z`, ….
    pub fn name(self) -> String {
        format!(
            "{}{}",
            if self.sign < 0.0 { '-' } else { '+' },
            ['X', 'Y', 'Z'][self.index.min(2)]
        )
    }

    /// The unit vector.
    pub fn vector(self) -> [f64; 3] {
        let mut v = [0.0; 3];
        v[self.index.min(2)] = self.sign;
        v
    }

    /// The rotation (row-major) that takes this axis to +Y: identity for
    /// +Y, 180° about X for −Y, ∓90° about X for ±Z, ±90° about Z for ±X.
    pub fn to_y(self) -> [[f64; 3]; 3] {
        match (self.index, self.sign > 0.0) {
            (1, true) => [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            (1, false) => [[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]],
            // Rx(−90°): (x, y, z) → (x, z, −y)
            (2, true) => [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, -1.0, 0.0]],
            // Rx(+90°): (x, y, z) → (x, −z, y)
            (2, false) => [[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]],
            // Rz(+90°): (x, y, z) → (−y, x, z)
            (_, true) => [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]],
            // Rz(−90°): (x, y, z) → (y, −x, z)
            (_, false) => [[0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 1.0]],
        }
    }
}

/// `m · v`.
pub fn apply(m: &[[f64; 3]; 3], v: [f64; 3]) -> [f64; 3] {
    [
        m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
        m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
        m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2],
    ]
}

/// Rest-pose position of joint `j` (the sum of the offsets from the root).
pub fn rest_position(bvh: &Bvh, j: usize) -> [f64; 3] {
    let mut p = [0.0; 3];
    let mut cur = Some(j);
    let mut guard = 0;
    while let Some(c) = cur {
        let o = bvh.joints[c].offset;
        for k in 0..3 {
            p[k] += o[k];
        }
        cur = bvh.joints[c].parent;
        guard += 1;
        if guard > bvh.joints.len() {
            break;
        }
    }
    p
}

/// The signed axis closest to `v` (`None` for a zero vector).
pub fn nearest_axis(v: [f64; 3]) -> Option<Axis> {
    let (mut best, mut m) = (None, 0.0);
    for (i, x) in v.iter().enumerate() {
        if x.abs() > m {
            m = x.abs();
            best = Some(Axis {
                index: i,
                sign: x.signum(),
            });
        }
    }
    best
}

/// The up axis from the rest pose (see the module doc): `legs` are
/// (hip, ankle) joint pairs, `trunk` the root → neck chain.
pub fn detect_up(bvh: &Bvh, legs: &[(usize, usize)], trunk: Option<&[usize]>) -> (Axis, String) {
    let mut down = [0.0; 3];
    for &(h, a) in legs {
        let (ph, pa) = (rest_position(bvh, h), rest_position(bvh, a));
        for k in 0..3 {
            down[k] += pa[k] - ph[k];
        }
    }
    if let Some(ax) = nearest_axis(down) {
        return (
            Axis {
                index: ax.index,
                sign: -ax.sign,
            },
            "the rest pose's legs point down".into(),
        );
    }
    if let Some(chain) = trunk
        && let (Some(&a), Some(&b)) = (chain.first(), chain.last())
        && let Some(ax) = nearest_axis(super::pose::sub(
            rest_position(bvh, b),
            rest_position(bvh, a),
        ))
    {
        return (ax, "the rest pose's trunk points up".into());
    }
    (Axis::Y, "no legs or trunk: the BVH convention".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_parse_and_turn_to_y() {
        for s in ["+x", "-x", "y", "-Y", "+z", "-z"] {
            let a = Axis::parse(s).unwrap();
            let v = apply(&a.to_y(), a.vector());
            assert!((v[1] - 1.0).abs() < 1e-12, "{s}: {v:?}");
            // a proper rotation: determinant +1
            let m = a.to_y();
            let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
            assert!((det - 1.0).abs() < 1e-12, "{s}");
        }
        assert_eq!(Axis::parse("w"), None);
        assert_eq!(Axis::parse("-z").unwrap().name(), "-Z");
    }
}
