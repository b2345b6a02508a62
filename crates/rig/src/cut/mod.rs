//! Stage 2, cut: the drawing into parts, and the proof that they reassemble it.
//!
//! | file | does | spec |
//! |---|---|---|
//! | `ink.rs` | the painted lines (ink) and their owners; the pixel grid's 4-neighbours | §3 |
//! | `slice.rs` | tubes, ownership that follows the paint (or `--slicing tubes`), partless bones, confidence, hidden fill by an exact distance transform, cropped parts | §3 |
//! | `preview.rs` | an editor's slicing: ownership, confidence and warnings without part images, from a silhouette and ink found once | §3 |
//! | `verify.rs` | reassembly from the pivot map alone, IoU + colour, three controls | §4 |
//!
//! Uses `declare` only.

pub mod ink;
pub mod preview;
pub mod slice;
pub mod verify;
