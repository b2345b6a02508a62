//! The rotsprite pipeline: atlas → rig/pose → project → raster.
//!
//! | file | stage | spec |
//! |---|---|---|
//! | `types.rs` | C-layout records shared with the C ABI | c-abi.md §2 |
//! | `image.rs` | borrowed RGBA8 input with a stride | c-abi.md §7 rule 8 |
//! | `v1.rs` | v1 layout, pose normalisation, 64 px head raster | rotsprite-v1.md |
//! | `atlas/` | v2 header check, point decode, anime decode | rotsprite-atlas.md |
//! | `rig.rs` | model/legacy transforms, facing, selection, joint | rotsprite-render.md §1–5 |
//! | `draw.rs` | 128 px pixel raster | rotsprite-render.md §6 |
//! | `anime/` | 256/512 px smooth synthesis, quad fill, workspace, row bands | rotsprite-render.md §7–9 |
//! | `fill.rs` | buffer clears and copies with vector stores | — |
//! | `threads.rs` | thread count of the C API's smooth renders (`RE2D_THREADS`) | — |
//!
//! A typical Rust caller (here with the generated dense atlas of the workspace's
//! test-data crate `re2d-testkit`; a real one comes from a PNG, e.g. through
//! [`crate::png_io::decode_rgba`]):
//! ```
//! use re2d_testkit::atlas::{dense_atlas, walk_pose};
//! use re2d::rotsprite::{AnimeWorkspace, AtlasImage, Frame, Rig, decode, decode_anime, draw};
//!
//! let rgba = dense_atlas(1); // a 1024² v2 atlas, RGBA8
//! let img = AtlasImage::new(&rgba, 1024, 1024, 4 * 1024)?;
//! let pose = walk_pose(0.25); // a data-driven model pose
//! let frame = Frame::new(30.0, 10.0, 0, 0, Some(Rig::model(&pose)))?; // yaw, pitch, eyes, mouth
//!
//! // 128 px pixel sprite
//! let points = decode(&img)?;
//! let mut small = vec![0u8; 128 * 128 * 4];
//! draw(&points, &frame, &mut small)?;
//! assert!(small.chunks(4).any(|p| p[3] == 255));
//!
//! // 256 px smooth sprite; the workspace is reused across frames
//! let smooth = decode_anime(&img)?;
//! let mut ws = AnimeWorkspace::new();
//! let mut out = vec![0u8; 256 * 256 * 4];
//! ws.render(&smooth, &frame, 256, &mut out)?;
//! assert!(out.chunks(4).filter(|p| p[3] != 0).count() > 1000);
//!
//! // bad input is an error, not a panic
//! assert!(Frame::new(f64::NAN, 0.0, 0, 0, None).is_err());
//! assert!(AtlasImage::new(&rgba, 1024, 1024, 100).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod anime;
pub mod atlas;
pub mod draw;
mod fill;
mod image;
pub mod rig;
pub mod threads;
mod types;
pub mod v1;

pub use anime::AnimeWorkspace;
pub use atlas::{DecodeError, DecodeErrorKind, decode, decode_anime, header_ok};
pub use draw::draw;
pub use image::{AtlasImage, ImageError};
pub use rig::{Rig, View, joint};
pub use types::*;

/// Why a render call was refused. Nothing is written when one is returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderError {
    /// Yaw or pitch is NaN or infinite.
    NonFinite,
    /// `eyes` or `mouth` outside 0..=3.
    Expression,
    /// Rig brows outside 0..=3 or a non-finite rig angle.
    Rig,
    /// Image or output size not supported (v1 layout, smooth size 256/512).
    BadSize,
    /// The output or a workspace buffer is shorter than required.
    BufferTooSmall,
    /// Scratch memory could not be allocated.
    OutOfMemory,
}

impl std::fmt::Display for RenderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RenderError::NonFinite => "yaw and pitch must be finite",
            RenderError::Expression => "eyes and mouth must be in 0..=3",
            RenderError::Rig => "rig brows must be in 0..=3 and rig angles finite",
            RenderError::BadSize => "unsupported size",
            RenderError::BufferTooSmall => "buffer too small",
            RenderError::OutOfMemory => "out of memory",
        })
    }
}

impl std::error::Error for RenderError {}

/// A validated frame request shared by the 128 px and smooth renderers
/// (rotsprite-render.md §6.1): normalised view, expression and rig.
#[derive(Clone, Copy, Debug)]
pub struct Frame<'a> {
    /// View terms of the normalised angles.
    pub view: View,
    /// Eye variant 0..=3.
    pub eyes: i32,
    /// Mouth variant 0..=3.
    pub mouth: i32,
    /// Rig, or `None`.
    pub rig: Option<Rig<'a>>,
}

impl<'a> Frame<'a> {
    /// Validates and normalises a frame request.
    pub fn new(
        yaw: f64,
        pitch: f64,
        eyes: i32,
        mouth: i32,
        rig: Option<Rig<'a>>,
    ) -> Result<Self, RenderError> {
        if !(0..=3).contains(&eyes) || !(0..=3).contains(&mouth) {
            return Err(RenderError::Expression);
        }
        let (yaw, pitch) =
            crate::math::normalise_angles(yaw, pitch).ok_or(RenderError::NonFinite)?;
        if rig.as_ref().is_some_and(|r| !r.is_valid()) {
            return Err(RenderError::Rig);
        }
        Ok(Frame {
            view: View::new(yaw, pitch),
            eyes,
            mouth,
            rig,
        })
    }
}
