//! Stage 1, declare: what the user says and what the drawing is.
//!
//! | file | does | spec |
//! |---|---|---|
//! | `image.rs` | the drawing read as shown: PNG or JPEG (zune-jpeg), size checked before decoding, EXIF orientation | §2 |
//! | `skeleton.rs` | the declaration JSON, parsed and validated (the one skeleton type); tube boxes; part file names | §1 |
//! | `tree.rs` | the output bone tree with connector bones; the pivot map's bones | §1, §3 |
//! | `paper.rs` | the figure on a photographed paper: adaptive threshold, colour, closing, fill from the border, main components | §2 (issue 41) |
//! | `silhouette.rs` | chroma key (auto / explicit / alpha), fractional edge alpha, despill | §2 |
//! | `layers.rs` | layered drawings: the layer type, reading by kind, flattening, the layer on top | §1 (issue 40) |
//! | `ora.rs` | OpenRaster: zip entries checked before inflating, `stack.xml`, PNG layers | §1 (issue 40) |
//! | `psd.rs` | Photoshop: 8-bit RGB layer records, groups, raw/RLE channels | §1 (issue 40) |
//!
//! Uses nothing of the later stages.

pub mod image;
pub mod layers;
pub mod ora;
pub mod paper;
pub mod psd;
pub mod silhouette;
pub mod skeleton;
pub mod tree;
