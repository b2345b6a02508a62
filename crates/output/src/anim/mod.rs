// re2d — animated and cropped output of rendered frames: APNG, GIF, sprite sheets, --fit (issue 9 item 4).
//! Turns a sequence of equally sized RGBA8 frames (what `re2d render`
//! produces) into files a person can look at.
//!
//! | file | does |
//! |---|---|
//! | `timing.rs` | [`Delay`] per frame from a frame rate, [`Timing`] (delay + play count) |
//! | `fit.rs` | opaque bounds of a frame, their union over a clip plus a margin ([`fit_rect`]), [`crop`] |
//! | `sheet.rs` | frames in a grid, left to right, top to bottom ([`sheet`]) |
//! | `resize.rs` | integer box downscale with alpha weighting ([`downscale`]) |
//! | `apng.rs` | animated PNG through the `png` crate ([`encode_apng`]) |
//! | `gif.rs` | animated GIF through the `gif` crate ([`encode_gif`]) |
//!
//! Frames are tightly packed RGBA8, `4·w` bytes per row, all `w`×`h`.
//!
//! ```
//! use re2d_output::anim::{Delay, Timing, crop, encode_apng, fit_rect};
//! // two 4×4 frames, each with one opaque pixel
//! let mut a = vec![0u8; 4 * 4 * 4];
//! let mut b = a.clone();
//! a[(1 * 4 + 1) * 4..][..4].copy_from_slice(&[255, 0, 0, 255]);
//! b[(2 * 4 + 2) * 4..][..4].copy_from_slice(&[0, 0, 255, 255]);
//! let r = fit_rect(&[&a, &b], 4, 4, 0); // union of the opaque pixels
//! assert_eq!((r.x, r.y, r.w, r.h), (1, 1, 2, 2));
//! let frames = [crop(&a, 4, 4, r), crop(&b, 4, 4, r)];
//! let timing = Timing { delay: Delay::from_fps(12.0)?, plays: 0 };
//! let apng = encode_apng(&[&frames[0], &frames[1]], r.w, r.h, timing)?;
//! assert_eq!(&apng[1..4], b"PNG");
//! # Ok::<(), String>(())
//! ```

mod apng;
mod fit;
mod gif;
mod resize;
mod sheet;
mod timing;

pub use apng::encode_apng;
pub use fit::{Rect, crop, fit_rect, opaque_bounds};
pub use gif::{GIF_ALPHA_THRESHOLD, encode_gif};
pub use resize::downscale;
pub use sheet::sheet;
pub use timing::{Delay, Timing};

/// Checks that `frames` is a non-empty list of `w`×`h` RGBA8 images and
/// returns the byte length of one frame.
pub(crate) fn check_frames(frames: &[&[u8]], w: u32, h: u32) -> Result<usize, String> {
    let len = (w as usize)
        .checked_mul(h as usize)
        .and_then(|n| n.checked_mul(4))
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("{w}x{h} is not a usable frame size"))?;
    if frames.is_empty() {
        return Err("no frames".into());
    }
    if let Some(i) = frames.iter().position(|f| f.len() != len) {
        return Err(format!(
            "frame {i} has {} bytes, not {len} ({w}x{h} RGBA)",
            frames[i].len()
        ));
    }
    Ok(len)
}
