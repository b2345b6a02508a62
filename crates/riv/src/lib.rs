//! Rive `.riv` export of skeleton meshes (spec `rive-export.md`, issue 8).
//!
//! | file | stage | spec |
//! |---|---|---|
//! | `model.rs` | §7 input model (JSON + PNG textures) → validated [`Model`]; rest pose; §8.1 frame; clip `translations` of root bones (issue 19) | §7, §8.1 |
//! | `error.rs` | `E_*` validation codes and exit codes | §8.7 |
//! | `export.rs` | model → object list (bones, assets, parts, 8-bit weights, clips with rotation keys and keyed RootBone x/y), draw order, `--control` variants | §5, §6, §8, §9 |
//! | `draworder.rs` | a clip's `draw_order` keys (issue 42): validation, the order at a time, the DrawRules / DrawTargets and id keys that realise each key, a transcription of the runtime's sort that checks them | §11.6 |
//! | `machine.rs` | the model's `state_machine` (a 1-D blend over cyclic clips by a Number input, a Trigger per one-shot clip) and its records | §11 |
//! | `layers.rs` | motions by body part: state-machine layers over the locomotion layer, their records, the `layer-all` control | §11.4, issue 47 |
//! | `keys.rs` | type/property keys and the writer's field types | §1, §4 |
//! | `write.rs` | varuint, field values, object records, header and ToC (4 keys per u32 word) | §1–§3 |
//! | `read.rs` | independent structural reader (own varuint, own key table) | §10.1 |
//! | `contents.rs` | the state machines and draw rules a file holds, for `riv check`'s listing (issue 42) | §11 |
//! | `check.rs` | structural check of a decoded file (`re2d riv check`) | §10.1 |
//! | `roundtrip.rs` | decoded records == the writer's object list | §10.1 |
//! | `reference.rs` | reference renderer of the input model (`re2d riv render-ref`), root translations included; poses mixing clips as layers, a view (window and scale), the posed silhouette | §10.2, §11.4 |
//! | `page.rs` | a page that plays a `.riv` from `file://` in the official runtime (`re2d rig page`, the pages of `rig build`) | issue 45, 47 |
//! | `seams.rs` | pixels inside the posed silhouette the parts leave uncovered (`re2d riv seams`) | issue 47 |
//! | `frames.rs` | a clip as frames to look at (`re2d rig render`): times from its duration and loop, the motion box, frames rendered into it | issue 47 |
//!
//! Pipeline: [`Model::load`] → [`export::export`] → bytes (published by the
//! CLI); [`check::check_bytes`] and [`reference::render`] are the two
//! independent judges used by tests and the browser harness.

#![warn(missing_docs)]
#![allow(
    clippy::needless_range_loop,
    clippy::manual_range_contains,
    clippy::implicit_saturating_sub,
    clippy::manual_checked_ops
)]

pub mod check;
pub mod contents;
pub mod draworder;
pub mod error;
pub mod export;
pub mod frames;
pub mod keys;
pub mod layers;
pub mod machine;
pub mod model;
pub mod page;
pub mod read;
pub mod reference;
pub mod roundtrip;
pub mod seams;
pub mod write;

pub use error::{Code, RivError};
pub use export::{Control, Export, Options, export};
pub use model::Model;
