// re2d rig — from one drawing and a declared skeleton to parts, pivots, meshes, weights and a captured walk (spec: rig.md).
//! The stages of `re2d rig` (spec `rig.md`; its output is the input model of
//! `rive-export.md` §7).
//!
//! | folder | stage | spec |
//! |---|---|---|
//! | `error.rs` | [`RigError`]: `E_RIG_*` / `E_BVH_*` codes, one line each (every stage) | §1, §6 |
//! | `declare/` | 1. the skeleton declaration, the bone tree, the silhouette | §1, §2 |
//! | `guess/` | 1b. a skeleton declaration guessed from the figure (medial axis, ends, joints) | issue 41 |
//! | `cut/` | 2. ink, slicing into parts, reassembly proof | §3, §4 |
//! | `skin/` | 3. weights, adaptive meshes, texture pages, the hidden fill the clips reveal | §5 |
//! | `motion/` | 4. BVH captures retargeted onto the declared bones: clips | §6 |
//! | `build/` | 5. the whole pipeline → `export-riv` model, `.riv`, report, contact sheet | §7 |
//!
//! Imports run one way: a stage uses the stages above it (and `error`), never one below.
//!
//! Pipeline: [`declare::skeleton::Skeleton::parse`] → [`declare::silhouette::silhouette`] →
//! [`cut::slice::slice`] → [`declare::tree::build`] → [`cut::verify::verify`] →
//! [`skin::weights`] / [`skin::mesh`] → [`build::build`] (which runs them all, with
//! [`motion::retarget_with_report`] for the clips).

#![warn(missing_docs)]
#![allow(
    clippy::needless_range_loop,
    clippy::manual_range_contains,
    clippy::implicit_saturating_sub,
    clippy::manual_checked_ops
)]

pub mod build;
pub mod cut;
pub mod declare;
pub mod error;
pub mod guess;
pub mod motion;
pub mod skin;

pub use error::RigError;
