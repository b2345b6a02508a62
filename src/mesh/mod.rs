//! re2d mesh core: bone skeletons, IK and skinned parts (spec `js-mesh.md`).
//!
//! This is the Rust side of the `mesh` JS module; the JS adapter (`qjs/src/`,
//! `js/mesh.js`) reproduces the JS-observable coercions and result shapes and
//! calls into this module for the numeric hot paths.
//!
//! | file | spec section |
//! |---|---|
//! | [`mod@self`] `normalize_angle` | §2 |
//! | [`skeleton`] bone order, pose, tip | §5 |
//! | [`ik`] two-bone IK, FABRIK, joint limits (re2d extension) | §3, §4, §8.2 |
//! | [`part`] validated native part (verts, uv, colours, weights) | §6 |
//! | [`deform`] linear skinning per vertex (§7), rigid blend (re2d extension), the unroll index rule (§8.4 step 9) | §7, §8.4 |
//!
//! All arithmetic is in `f64` in the same operation order as the JS
//! reference, so results are bit-identical to the engine's JS module;
//! values are rounded to `f32` only when stored into an output buffer.
//!
//! ```
//! use re2d::mesh::solve_two_bone;
//!
//! // shoulder at the origin, upper arm 3, forearm 4: reach for (5, 0)
//! let r = solve_two_bone(0.0, 0.0, 3.0, 4.0, 5.0, 0.0, 1.0);
//! assert!(r.reached);
//! let hand = (r.elbow.0 + 4.0 * r.a2.cos(), r.elbow.1 + 4.0 * r.a2.sin());
//! assert!((hand.0 - 5.0).abs() < 1e-9 && hand.1.abs() < 1e-9);
//! assert!(((r.elbow.0).hypot(r.elbow.1) - 3.0).abs() < 1e-9);
//! // out of reach: the arm points straight at the target
//! let far = solve_two_bone(0.0, 0.0, 3.0, 4.0, 0.0, 10.0, 1.0);
//! assert!(!far.reached && (far.a1 - far.a2).abs() < 1e-12);
//! ```

pub mod deform;
pub mod ik;
pub mod part;
pub mod skeleton;

pub use deform::{BoneDelta, deform_part, skin_vertex, unroll_block, unroll_index};
pub use ik::{
    ChainOptions, ChainResult, JointLimit, TwoBoneResult, solve_chain, solve_two_bone,
    solve_two_bone_limited,
};
pub use part::{Blend, Influence, MeshPart};
pub use skeleton::{BoneData, BoneWorld, POSE_STRIDE, SkeletonData, order_bones, pose_flat};

use std::f64::consts::PI;

/// `Math.PI * 2`.
pub const TAU: f64 = PI * 2.0;

/// The spec's `N0`: NaN, +0 and −0 become +0; everything else (including
/// ±Infinity) is kept.
#[inline]
pub fn n0(v: f64) -> f64 {
    if v.is_nan() || v == 0.0 { 0.0 } else { v }
}

/// §2: wrap an angle (radians) into (−π, π] exactly as the engine does
/// (`x % TAU`, then one correction step each way). `−TAU` gives −0 and
/// ±Infinity gives NaN, as in JS.
pub fn normalize_angle(a: f64) -> f64 {
    let mut x = n0(a) % TAU;
    if x > PI {
        x -= TAU;
    }
    if x <= -PI {
        x += TAU;
    }
    x
}

/// JS `Math.max(a, b)`: NaN if either is NaN, +0 preferred over −0.
#[inline]
pub fn js_max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a > b {
        a
    } else if b > a {
        b
    } else if a.is_sign_positive() {
        a
    } else {
        b
    }
}

/// JS `Math.min(a, b)`: NaN if either is NaN, −0 preferred over +0.
#[inline]
pub fn js_min(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a < b {
        a
    } else if b < a {
        b
    } else if a.is_sign_negative() {
        a
    } else {
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_examples_from_spec() {
        assert_eq!(normalize_angle(0.0), 0.0);
        assert!((normalize_angle(4.0 * PI + 1.0) - 1.0).abs() < 1e-15);
        assert!((normalize_angle(-1.5 * PI) - PI / 2.0).abs() < 1e-15);
        assert_eq!(normalize_angle(5.0 * PI), PI);
        assert_eq!(normalize_angle(PI), PI);
        assert_eq!(normalize_angle(-PI), PI);
        assert_eq!(normalize_angle(f64::NAN), 0.0);
        let z = normalize_angle(-TAU);
        assert_eq!(z, 0.0);
        assert!(z.is_sign_negative());
        assert!(normalize_angle(f64::INFINITY).is_nan());
        assert!(normalize_angle(f64::NEG_INFINITY).is_nan());
        assert_eq!(normalize_angle(1.5), 1.5);
    }

    #[test]
    fn js_min_max_semantics() {
        assert!(js_max(1.0, f64::NAN).is_nan());
        assert!(js_min(f64::NAN, 1.0).is_nan());
        assert!(js_max(-0.0, 0.0).is_sign_positive());
        assert!(js_min(0.0, -0.0).is_sign_negative());
        assert_eq!(js_max(2.0, 3.0), 3.0);
        assert_eq!(js_min(2.0, 3.0), 2.0);
    }
}
