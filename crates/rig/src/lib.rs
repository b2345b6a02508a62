// re2d rig — from one drawing and a declared skeleton to parts, pivots, meshes, weights and a captured walk (spec: rig.md).
//! The stages of `re2d rig` (spec `rig.md`; its output is the input model of
//! `rive-export.md` §7).
//!
//! | file | stage | spec |
//! |---|---|---|
//! | `error.rs` | [`RigError`]: `E_RIG_*` / `E_BVH_*` codes, one line each | §1, §6 |
//! | `skeleton.rs` | 1. the declaration JSON, parsed and validated (the one skeleton type) | §1 |
//! | `silhouette.rs` | 2. chroma key (auto / explicit / alpha), fractional edge alpha, despill | §2 |
//! | `ink.rs` | 3a. the painted lines (ink) and their owners | §3 |
//! | `slice.rs` | 3. tubes, ownership that follows the paint (or `--slicing tubes`), partless bones, confidence, hidden fill by an exact distance transform, cropped parts | §3 |
//! | `tree.rs` | 4. the output bone tree with connector bones; the pivot map | §1, §3 |
//! | `verify.rs` | 5. reassembly from the pivot map alone, IoU + colour, three controls | §4 |
//! | `raster.rs` | 6. shared helpers: affine maps, skinning, the mesh type, the rasteriser (uses neither file below) | §5 |
//! | `weights.rs` | 6b. weight schemes (rigid, ramp, blend zones), changed pixels, volume loss (uses `raster`) | §5 |
//! | `mesh.rs` | 6a. triangle grids clipped to part alpha, the grid-step table (uses `weights`, `raster`) | §5 |
//! | `pages.rs` | 6c. texture pages: parts trimmed to their meshes, half scale, shelf-packed into pages of at most 2048², page UVs | §5 |
//! | `reveal.rs` | 6d. the hidden fill the build's clips can show (sampled poses, a margin); the rest is dropped before meshing and packing | §5 |
//! | `build.rs` | 7. the whole pipeline → `export-riv` model, `.riv`, report, contact sheet | §7 |
//! | `bvh.rs` | BVH reader (any channel order, End Sites, CRLF) and forward kinematics | §6 |
//! | `motion/` | retargeting: limb directions on the drawing's plane, one closed gait cycle, root bob | §6 |
//!
//! Pipeline: [`skeleton::Skeleton::parse`] → [`silhouette::silhouette`] →
//! [`slice::slice`] → [`tree::build`] → [`verify::verify`] →
//! [`weights`] / [`mesh`] → [`build::build`] (which runs them all).

#![warn(missing_docs)]
#![allow(
    clippy::needless_range_loop,
    clippy::manual_range_contains,
    clippy::implicit_saturating_sub,
    clippy::manual_checked_ops
)]

pub mod build;
pub mod bvh;
pub mod error;
pub mod ink;
pub mod mesh;
pub mod motion;
pub mod pages;
pub mod raster;
pub mod reveal;
pub mod silhouette;
pub mod skeleton;
pub mod slice;
pub mod tree;
pub mod verify;
pub mod weights;

pub use error::RigError;
