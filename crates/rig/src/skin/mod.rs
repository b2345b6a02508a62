//! Stage 3, skin: the parts as meshes with weights, on texture pages.
//!
//! | file | does | spec |
//! |---|---|---|
//! | `raster.rs` | shared helpers: affine maps, skinning, the mesh type, the rasteriser, alpha planes | §5 |
//! | `weights.rs` | weight schemes (rigid, ramp, blend zones), changed pixels, volume loss | §5 |
//! | `mesh.rs` | adaptive triangle meshes clipped to part alpha, the grid-step table | §5 |
//! | `overlap.rs` | every part reaches a few pixels under its nearer neighbours (no seam between parts) | issue 47 |
//! | `pages.rs` | texture pages: parts trimmed to their meshes, half scale, shelf-packed into pages of at most 2048², page UVs | §5 |
//! | `reveal.rs` | the hidden fill the build's clips can show (sampled poses, a margin); the rest is dropped before meshing and packing | §5 |
//!
//! Files in that order: each uses the ones above it, `declare` and `cut`.

pub mod mesh;
pub mod overlap;
pub mod pages;
pub mod raster;
pub mod reveal;
pub mod weights;
