//! Stage 2, cut: the drawing into parts, and the proof that they reassemble it.
//!
//! | file | does | spec |
//! |---|---|---|
//! | `ink.rs` | the painted lines (ink) and their owners; the pixel grid's 4-neighbours | §3 |
//! | `slice.rs` | tubes, ownership that follows the paint (or `--slicing tubes`), partless bones, confidence, hidden fill by an exact distance transform, cropped parts | §3 |
//! | `tubes.rs` | the tubes' exact geometry, what they say about each pixel (nearest tube, cores, inner zones, end caps), tubes fitted to the paint | §3 |
//! | `paint.rs` | the paint rule in named steps: seeds, votes, claims, decision, unseeded regions, ink, trusted tubes | §3 |
//! | `seeds.rs` | steps 1–2: where each bone's paint surely is, voted per region of paint (end caps seed only where the bone's body reaches them) | §3 (issue 40) |
//! | `claims.rs` | steps 3–4: the geodesic growth of the seeds across painted edges, the claims it settles | §3 |
//! | `beyond.rs` | regions of paint no seed reaches (enclosed by ink, in no inner zone) | §3 |
//! | `confidence.rs` | the truth-free slicing confidence and its doubled-radii control | §3 |
//! | `preview.rs` | an editor's slicing: ownership, confidence and warnings without part images, from a silhouette and ink found once | §3 |
//! | `parts.rs` | cutting parts out of an ownership map: crop, hidden fill by an exact distance transform, layered bones' own paint, partless and sliver warnings | §3 |
//! | `layers.rs` | a layered drawing's layers as parts: layer → bone, ownership by the layer on top, depths from the layer order | §3 (issue 40) |
//! | `fill.rs` | the hidden fill's sources: clean visible paint, off the painted lines and 3 px inside the part's paint (issue 42) | §3 |
//! | `verify.rs` | reassembly from the pivot map alone, IoU + colour, three controls | §4 |
//!
//! Uses `declare` only.

pub mod beyond;
pub mod claims;
pub mod confidence;
pub mod fill;
pub mod ink;
pub mod layers;
pub mod paint;
pub mod parts;
pub mod preview;
pub mod seeds;
pub mod slice;
pub mod tubes;
pub mod verify;
