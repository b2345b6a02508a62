//! Stage 1: the drawing as people have it — a PNG or a JPEG (a phone photo
//! of paper), read into RGBA8 in the orientation the user sees.
//!
//! Rules:
//! - **Format** by content, not by file name: the PNG signature, or a JPEG's
//!   start-of-image marker `FF D8 FF`; anything else is `E_RIG_IMAGE`.
//! - **Size first**: the width and height are read from the header (PNG:
//!   IHDR; JPEG: its frame header, through the decoder's header pass) and
//!   checked against the limits table ([`Limits::check_image`]: `png-max-side`,
//!   `png-max-bytes` for the RGBA8 buffer; `rig-max-pixels`) before a pixel is
//!   decoded; `E_RIG_LIMIT` names the limit.
//! - **JPEG** through `zune-jpeg` (baseline, extended and progressive;
//!   greyscale, YCbCr, RGB and CMYK all come out RGBA8, alpha 255). Chosen
//!   over `jpeg-decoder` by measurement (docs/rig.md, "Photos"): 1.5× faster
//!   on a baseline and 1.6× on a progressive 12-megapixel photo, and the
//!   decoder the `image` crate itself moved to; it is fuzzed here (`make
//!   fuzz-quick`, target `jpeg`). A panic inside the decoder is caught and
//!   becomes `E_RIG_IMAGE`.
//! - **EXIF orientation** (JPEG APP1, tag 0x0112, values 1–8) is applied:
//!   the image is turned and mirrored the way a viewer shows it, and every
//!   coordinate (the declaration, `labels.png`, the sheet) refers to that
//!   picture. A missing, malformed or out-of-range orientation is 1 (as
//!   shown). PNG's rarely used `eXIf` chunk is not read.

use crate::RigError;
use re2d::limits::{Limits, RIG_BYTES_PER_PIXEL};
use re2d::png_io::RgbaImage;

/// What kind of file a drawing is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// PNG.
    Png,
    /// JPEG (JFIF or EXIF).
    Jpeg,
}

/// The format of `bytes` by its signature.
pub fn sniff(bytes: &[u8]) -> Option<Format> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(Format::Png)
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some(Format::Jpeg)
    } else {
        None
    }
}

/// A drawing's header: its format, its size as shown (after the EXIF
/// orientation) and that orientation (1–8; 1 = stored as shown).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// PNG or JPEG.
    pub format: Format,
    /// Width as shown.
    pub width: u32,
    /// Height as shown.
    pub height: u32,
    /// EXIF orientation (1–8).
    pub orientation: u8,
}

fn image_err(what: &str, e: impl std::fmt::Display) -> RigError {
    RigError::new("E_RIG_IMAGE", format!("{what}: {e}"))
}

/// The decoder's options: any size a JPEG can declare (the limits table is
/// checked on the header by [`check_size`]), RGBA8 out.
fn jpeg_options() -> zune_jpeg::zune_core::options::DecoderOptions {
    zune_jpeg::zune_core::options::DecoderOptions::default()
        .set_max_width(u16::MAX as usize)
        .set_max_height(u16::MAX as usize)
        .jpeg_set_out_colorspace(zune_jpeg::zune_core::colorspace::ColorSpace::RGBA)
}

/// Reads the header of a PNG or JPEG (`what` names the file in messages).
pub fn header(bytes: &[u8], what: &str) -> Result<Header, RigError> {
    match sniff(bytes) {
        Some(Format::Png) => {
            let (w, h) = png_size(bytes).ok_or_else(|| image_err(what, "a truncated PNG"))?;
            Ok(Header {
                format: Format::Png,
                width: w,
                height: h,
                orientation: 1,
            })
        }
        Some(Format::Jpeg) => {
            let mut d = zune_jpeg::JpegDecoder::new_with_options(
                zune_jpeg::zune_core::bytestream::ZCursor::new(bytes),
                jpeg_options(),
            );
            catch(what, || d.decode_headers().map_err(|e| image_err(what, e)))??;
            let (w, h) = d
                .dimensions()
                .ok_or_else(|| image_err(what, "the JPEG has no frame header"))?;
            let orientation = d.exif().map_or(1, |e| orientation(e));
            let (w, h) = (w as u32, h as u32);
            let (w, h) = if orientation >= 5 { (h, w) } else { (w, h) };
            Ok(Header {
                format: Format::Jpeg,
                width: w,
                height: h,
                orientation,
            })
        }
        None => Err(image_err(what, "neither a PNG nor a JPEG")),
    }
}

/// The IHDR size of a PNG.
fn png_size(b: &[u8]) -> Option<(u32, u32)> {
    if b.len() < 24 || &b[12..16] != b"IHDR" {
        return None;
    }
    let be = |i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    Some((be(16), be(20)))
}

/// Checks a drawing's size against the limits table: the RGBA8 buffer
/// (`png-max-side`, `png-max-bytes`) and the rig's pixels (`rig-max-pixels`).
pub fn check_size(w: u32, h: u32, what: &str, limits: &Limits) -> Result<(), RigError> {
    limits
        .check_image(w, h, 4)
        .map_err(|e| RigError::new("E_RIG_LIMIT", format!("{what}: {e}")))?;
    let px = w as u64 * h as u64;
    if px > limits.rig_max_pixels {
        return Err(RigError::new(
            "E_RIG_LIMIT",
            format!(
                "{what}: the {w}x{h} drawing has {px} pixels, more than {} (limit rig-max-pixels, see --limit; the rig holds about {RIG_BYTES_PER_PIXEL} bytes per pixel)",
                limits.rig_max_pixels
            ),
        ));
    }
    if w == 0 || h == 0 {
        return Err(image_err(what, format!("the image is {w}x{h}")));
    }
    Ok(())
}

/// Reads a PNG or JPEG into RGBA8 as shown (see the module doc): the header
/// and the size checks first, then the pixels, then the EXIF orientation.
pub fn decode(bytes: &[u8], what: &str, limits: &Limits) -> Result<RgbaImage, RigError> {
    let head = header(bytes, what)?;
    check_size(head.width, head.height, what, limits)?;
    match head.format {
        Format::Png => re2d::png_io::decode_rgba_limited(std::io::Cursor::new(bytes), limits)
            .map_err(|e| image_err(what, e)),
        Format::Jpeg => {
            let mut d = zune_jpeg::JpegDecoder::new_with_options(
                zune_jpeg::zune_core::bytestream::ZCursor::new(bytes),
                jpeg_options(),
            );
            let data = catch(what, || d.decode().map_err(|e| image_err(what, e)))??;
            let (w, h) = if head.orientation >= 5 {
                (head.height, head.width)
            } else {
                (head.width, head.height)
            };
            if data.len() as u64 != w as u64 * h as u64 * 4 {
                return Err(image_err(what, "the JPEG decoded to an unexpected size"));
            }
            let img = RgbaImage {
                data,
                width: w,
                height: h,
            };
            Ok(orient(img, head.orientation))
        }
    }
}

/// Runs `f`, turning a panic inside a decoder into `E_RIG_IMAGE`.
fn catch<T>(what: &str, f: impl FnOnce() -> T) -> Result<T, RigError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .map_err(|_| image_err(what, "the decoder failed on this file"))
}

/// The orientation tag (0x0112) of an EXIF block starting at its TIFF header
/// (`II*\0` or `MM\0*`; an `Exif\0\0` prefix is skipped); 1 when absent,
/// malformed or out of range. Reads only inside `exif`.
pub fn orientation(exif: &[u8]) -> u8 {
    let t = exif.strip_prefix(b"Exif\0\0").unwrap_or(exif);
    let le = match t.get(0..4) {
        Some(b"II*\0") => true,
        Some(b"MM\0*") => false,
        _ => return 1,
    };
    let u16_at = |i: usize| -> Option<u16> {
        let b = t.get(i..i + 2)?;
        Some(if le {
            u16::from_le_bytes([b[0], b[1]])
        } else {
            u16::from_be_bytes([b[0], b[1]])
        })
    };
    let u32_at = |i: usize| -> Option<u32> {
        let b = t.get(i..i + 4)?;
        Some(if le {
            u32::from_le_bytes([b[0], b[1], b[2], b[3]])
        } else {
            u32::from_be_bytes([b[0], b[1], b[2], b[3]])
        })
    };
    let find = || -> Option<u8> {
        let ifd = u32_at(4)? as usize;
        let n = u16_at(ifd)? as usize;
        for k in 0..n {
            let e = ifd.checked_add(2 + 12 * k)?;
            if u16_at(e)? == 0x0112 {
                // type SHORT (3), count 1: the value sits in the entry
                if u16_at(e + 2)? != 3 {
                    return None;
                }
                let v = u16_at(e + 8)?;
                return (1..=8).contains(&v).then_some(v as u8);
            }
        }
        None
    };
    find().unwrap_or(1)
}

/// The stored image turned and mirrored as EXIF orientation `o` says it is
/// shown (1 = unchanged; 5–8 swap width and height).
pub fn orient(img: RgbaImage, o: u8) -> RgbaImage {
    if !(2..=8).contains(&o) {
        return img;
    }
    let (w, h) = (img.width as usize, img.height as usize);
    let (ow, oh) = if o >= 5 { (h, w) } else { (w, h) };
    let mut out = vec![0u8; img.data.len()];
    for y in 0..oh {
        for x in 0..ow {
            // the stored pixel shown at (x, y)
            let (sx, sy) = match o {
                2 => (w - 1 - x, y),
                3 => (w - 1 - x, h - 1 - y),
                4 => (x, h - 1 - y),
                5 => (y, x),
                6 => (y, h - 1 - x),
                7 => (w - 1 - y, h - 1 - x),
                _ => (w - 1 - y, x),
            };
            let s = (sy * w + sx) * 4;
            out[(y * ow + x) * 4..][..4].copy_from_slice(&img.data[s..s + 4]);
        }
    }
    RgbaImage {
        data: out,
        width: ow as u32,
        height: oh as u32,
    }
}
