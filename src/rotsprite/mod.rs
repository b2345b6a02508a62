//! The rotsprite pipeline: atlas → rig/pose → project → raster.
//!
//! | file | stage | spec |
//! |---|---|---|
//! | `types.rs` | C-layout records shared with the C ABI | c-abi.md §2 |
//! | `v1.rs` | v1 layout, pose normalisation, 64 px head raster | rotsprite-v1.md |
//! | `atlas.rs` | v2 header check, point decode, anime decode | rotsprite-atlas.md |
//! | `rig.rs` | legacy walking rig, model transform dispatch, facing, joint | rotsprite-render.md §2–5 |
//! | `draw.rs` | 128 px pixel raster | rotsprite-render.md §6 |
//! | `anime.rs` | 256/512 px smooth synthesis, quad fill, workspace | rotsprite-render.md §7–9 |

mod types;
pub use types::*;
