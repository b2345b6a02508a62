// re2d — v2 PNG atlas: header check, point decode and anime decode (spec: rotsprite-atlas.md).
//
//! The v2 atlas is one square RGBA image (1024·k pixels) whose lower part
//! holds four 256×192 control maps (ID, depth, coverage, XY). Every active
//! control cell becomes one [`super::R2DRotPoint`]; the anime decode adds surface
//! patches, area-averaged colours, corner colours and a 5×5 material
//! footprint.
//!
//! | file | stage | spec |
//! |---|---|---|
//! | `mod.rs` | errors, size and header rules, extensions | §5 |
//! | `texels.rs` | reading rule: texel (x, y) of a validated atlas, no per-read bounds check | §2 |
//! | `decode.rs` | activity, rejection rules, point construction, colour picks | §6–7 |
//! | `anime.rs` | cell grid, patches, area colour, corners, material, in place | §8 |
//!
//! Records are written where they end up: the C ABI hands the decoders its
//! `malloc` block, the Rust API a `Vec`'s spare capacity; the anime decode
//! augments the plain records in place, one grid row behind the decode
//! (no intermediate copy, each atlas row and record read while in cache).

mod anime;
mod decode;
mod texels;

pub(crate) use anime::Grid;
pub use anime::{anime_scan, cell_grid, decode_anime};
pub(crate) use decode::decode_into;
pub use decode::{decode, scan};

use super::image::AtlasImage;
use texels::Texels;

/// Asks the kernel to back the 2 MiB-aligned interior of a fresh record
/// block with huge pages (Linux; a no-op elsewhere, under Miri, which has
/// no `madvise`, and for blocks under 4 MiB). A dense atlas's records fill about 8.8 MB that the decoder
/// writes once; on 4 KiB pages the first write of each page is a page
/// fault, about 2 200 of them, which cost several times the decode itself.
/// The advice only changes how the pages are mapped, never what the block
/// holds, and a refusal (THP disabled) leaves ordinary pages.
pub(crate) fn advise_huge_pages(block: *mut u8, len: usize) {
    #[cfg(all(target_os = "linux", not(miri)))]
    {
        const HUGE: usize = 2 << 20;
        if len < 2 * HUGE {
            return;
        }
        let start = (block as usize).next_multiple_of(HUGE);
        let end = (block as usize + len) & !(HUGE - 1);
        if end > start {
            // SAFETY: the range lies inside the caller's live allocation;
            // MADV_HUGEPAGE changes no content and needs no particular state.
            unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(all(target_os = "linux", not(miri))))]
    let _ = (block, len);
}

/// [`advise_huge_pages`] for the spare capacity of a record vector.
pub(crate) fn advise_vec(v: &mut Vec<super::types::R2DRotPoint>) {
    let spare = v.spare_capacity_mut();
    advise_huge_pages(spare.as_mut_ptr().cast(), std::mem::size_of_val(spare));
}

/// Control grid width in cells.
pub const GRID_W: usize = 256;
/// Control grid height in cells.
pub const GRID_H: usize = 192;
/// Maximum number of decoded points (one per control cell).
pub const MAX_POINTS: usize = GRID_W * GRID_H;

/// Why a v2 atlas was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeErrorKind {
    /// Size, stride or the three header texels are wrong (§5.1).
    Header,
    /// An active cell's part id is 0 or 255 (§7.4 rule 1).
    PartRange,
    /// An active cell's coverage R is not 255 (or 128 under SUB) (rule 2).
    Coverage,
    /// An active cell's coverage alpha is not 255 (rule 3).
    CoverageAlpha,
    /// An active cell's ID map alpha is not 255 (rule 4).
    IdAlpha,
    /// An active cell's depth map alpha is not 255 (rule 5).
    DepthAlpha,
    /// An active cell's XY map alpha is not 255 (rule 6).
    XyAlpha,
    /// An active cell's anchor texel is not opaque (or transparent under SUB) (rule 7).
    AnchorAlpha,
    /// Under BLD: secondary part 255, or part 0 with a non-zero weight (rule 8).
    Blend,
    /// No active cell at all (§7.8).
    Empty,
}

/// A rejected atlas: what rule failed and at which control cell (if any).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// The failed rule.
    pub kind: DecodeErrorKind,
    /// Control cell `(mx, my)` that failed, when the rule is per cell.
    pub cell: Option<(u16, u16)>,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match self.kind {
            DecodeErrorKind::Header => "not a v2 atlas (size, stride or header texels)",
            DecodeErrorKind::PartRange => "active cell with part id 0 or 255",
            DecodeErrorKind::Coverage => "active cell with invalid coverage value",
            DecodeErrorKind::CoverageAlpha => "active cell with coverage alpha != 255",
            DecodeErrorKind::IdAlpha => "active cell with ID map alpha != 255",
            DecodeErrorKind::DepthAlpha => "active cell with depth map alpha != 255",
            DecodeErrorKind::XyAlpha => "active cell with XY map alpha != 255",
            DecodeErrorKind::AnchorAlpha => "active cell whose anchor texel alpha is invalid",
            DecodeErrorKind::Blend => "active cell with invalid blend part/weight",
            DecodeErrorKind::Empty => "atlas has no active cell",
        };
        match self.cell {
            Some((x, y)) => write!(f, "{what} at control cell ({x}, {y})"),
            None => f.write_str(what),
        }
    }
}

impl std::error::Error for DecodeError {}

/// Size rule of the header check (§5.1), without reading pixels.
pub fn v2_size_ok(w: i32, h: i32, stride: i32) -> bool {
    w == h && (1024..=4096).contains(&w) && w % 1024 == 0 && stride as i64 >= 4 * w as i64
}

/// Header extensions found in an atlas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Extensions {
    /// Sub-pixel (fractional coordinate) mode.
    pub sub: bool,
    /// Blending (secondary part) mode; only with SUB.
    pub bld: bool,
}

/// The texels of an atlas whose size and header rules hold (§5.1).
fn maps<'a>(img: &AtlasImage<'a>) -> Option<Texels<'a>> {
    if !v2_size_ok(img.w, img.h, img.stride.min(i32::MAX as usize) as i32) {
        return None;
    }
    let t = Texels::new(img)?;
    let ok = t.header(0)[..3] == [82, 50, 68]
        && t.header(1)[..3] == [82, 79, 84]
        && t.header(2)[..3] == [2, 4, 4];
    ok.then_some(t)
}

/// `r2d_rotsprite_v2_header` (§5.1): size rules and the three header texels
/// (alpha ignored).
pub fn header_ok(img: &AtlasImage<'_>) -> bool {
    maps(img).is_some()
}

/// The SUB/BLD extensions of an atlas whose header is valid (§5.2).
pub fn extensions(img: &AtlasImage<'_>) -> Option<Extensions> {
    maps(img).map(|t| t.extensions())
}

fn header_error() -> DecodeError {
    DecodeError {
        kind: DecodeErrorKind::Header,
        cell: None,
    }
}
