// re2d rig — from one drawing and a declared skeleton to parts, pivots, meshes, weights and a captured walk (spec: rig.md).
//! The stages of `re2d rig` (spec `rig.md`; its output is the input model of
//! `rive-export.md` §7).
//!
//! | file | stage | spec |
//! |---|---|---|
//! | `error.rs` | [`RigError`]: `E_RIG_*` / `E_BVH_*` codes, one line each | §1, §6 |
//! | `bvh.rs` | BVH reader (any channel order, End Sites, CRLF) and forward kinematics | §6 |
//! | `motion.rs` | retargeting: limb directions on the drawing's plane, one closed gait cycle, root bob | §6 |
//! | `drawings/` | painted test characters on a chroma key with ground-truth labels | issue 19 §7 |
//!
//! (The slicing, reassembly, mesh and weight stages are being added.)

pub mod bvh;
pub mod drawings;
pub mod error;
pub mod motion;

pub use error::RigError;
