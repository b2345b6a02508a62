// re2d MSH — 3D models stored as NRes archives of typed tables: reader, validator, editor, animation sampler, exporters (spec: msh.md).
//! An MSH model is an NRes archive ([`crate::nres`]) whose entries are the
//! tables Res1..Res20, found by `type_id`.
//!
//! | file | stage | spec |
//! |---|---|---|
//! | `tables.rs` | table numbers, record layouts, scalar codecs (normals, UVs, quaternions, selectors) | §2.1, §3, §5.1 |
//! | `names.rs` | Res10 record walk and encoder | §3.4 |
//! | `model.rs` | the [`Model`] IR: the archive kept losslessly + the reading plan; accessors | §2, §3 |
//! | `check.rs` | checks 1–15, 17, 18 and the tolerant plan | §4.1 |
//! | `anim_check.rs` | check 16 (animation validation and lints) | §5.8 |
//! | `read.rs` | direct or nested models, strict/tolerant decoding, the validator | §1.6, §2.2, §4.1 |
//! | `anim.rs` | frame index, key selection, sampling, the engine's interpolator, two-sample blend | §5.2–§5.5, §5.7 |
//! | `pose.rs` | the engine's pose matrix, world matrices (parent before child), static pose | §5.6 |
//! | `edit.rs` | editing API that keeps every validator invariant | §6 |
//! | `synth.rs` | synthetic models from a seed with an independent byte-level encoder | §9.1 |
//! | `export/` | geometry selection, OBJ, glTF 2.0 (`.glb`/`.gltf`) | §7 |
//! | `render.rs` | a small flat-shaded CPU rasteriser for previews | — |
//! | `nres/` | the NRes archive format the models live in (read, validate, write, lookup; spec msh.md §1) | §1 |
//! | `invariants.rs` | the checks run by the fuzz targets and the corpus replay test | §9.6 |

#![warn(missing_docs)]
#![allow(
    clippy::needless_range_loop,
    clippy::manual_range_contains,
    clippy::implicit_saturating_sub,
    clippy::manual_checked_ops
)]

pub mod anim;
mod anim_check;
mod check;
pub mod edit;
pub mod export;
#[doc(hidden)]
pub mod invariants;
mod model;
pub mod names;
pub mod nres;
pub mod pose;
mod read;
pub mod render;
pub mod synth;
pub mod tables;

pub use model::{Model, NodeLayout};
pub use read::{decode, read, validate, validate_with};
