//! Stage 2, cut: the drawing into parts, and the proof that they reassemble it.
//!
//! | file | does | spec |
//! |---|---|---|
//! | `ink.rs` | the painted lines (ink) and their owners; the pixel grid's 4-neighbours | §3 |
//! | `slice.rs` | tubes, ownership that follows the paint (or `--slicing tubes`), partless bones, confidence, hidden fill by an exact distance transform, cropped parts | §3 |
//! | `parts.rs` | cutting parts out of an ownership map: crop, hidden fill by an exact distance transform, layered bones' own paint, partless and sliver warnings | §3 |
//! | `layers.rs` | a layered drawing's layers as parts: layer → bone, ownership by the layer on top, depths from the layer order | §3 (issue 40) |
//! | `verify.rs` | reassembly from the pivot map alone, IoU + colour, three controls | §4 |
//!
//! Uses `declare` only.

pub mod beyond;
pub mod claims;
pub mod confidence;
pub mod ink;
pub mod layers;
pub mod paint;
pub mod parts;
pub mod seeds;
pub mod slice;
pub mod tubes;
pub mod verify;
