// re2d surface compiler — PNG encode/decode of atlases and atomic publish (spec: surface-compiler.md §2.4, §8).
//! [`encode_png`] writes 8-bit RGBA (colour type 6) with fixed encoder
//! settings and no colour chunks, so identical pixels give identical files.
//! [`publish`] is the atomic replace of §8, through the crate's one publishing
//! path [`re2d_output::publish`].

use std::path::Path;

use super::error::{Code, CompileError};

/// Encode RGBA8 pixels as a PNG with fixed settings (deterministic bytes).
pub fn encode_png(rgba: &[u8], size: u32) -> Result<Vec<u8>, CompileError> {
    re2d_output::png_encode::encode_rgba(rgba, size, size)
        .map_err(|e| CompileError::new(Code::Io, "", format!("PNG encoding failed: {e}")))
}

/// Decoded 8-bit RGBA image.
#[derive(Clone, Debug, PartialEq)]
pub struct Rgba8 {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Pixels, stride `4·width`.
    pub rgba: Vec<u8>,
}

/// Decode an 8-bit RGBA PNG (the atlas format of §2.4) without any
/// conversion. Other colour types or depths are refused.
pub fn decode_rgba8(bytes: &[u8]) -> Result<Rgba8, String> {
    decode_rgba8_limited(bytes, &re2d::limits::Limits::current())
}

/// [`decode_rgba8`] within explicit limits (checked from the header, before
/// the pixel buffer is allocated).
pub fn decode_rgba8_limited(bytes: &[u8], limits: &re2d::limits::Limits) -> Result<Rgba8, String> {
    let cap = png::Limits {
        bytes: limits.png_max_bytes.min(usize::MAX as u64) as usize,
    };
    let mut dec = png::Decoder::new_with_limits(std::io::Cursor::new(bytes), cap);
    dec.set_transformations(png::Transformations::IDENTITY);
    let mut r = dec
        .read_info()
        .map_err(|e| format!("not a readable PNG: {e}"))?;
    limits
        .check_image(r.info().width, r.info().height, 4)
        .map_err(|e| e.to_string())?;
    let (ct, bd) = (r.info().color_type, r.info().bit_depth);
    if ct != png::ColorType::Rgba || bd != png::BitDepth::Eight {
        return Err(format!("expected 8-bit RGBA, found {ct:?} {bd:?}"));
    }
    let (w, h) = (r.info().width, r.info().height);
    if r.info().interlaced {
        // passes spread over the whole image: prove the data is there
        // (one row of memory) before the buffer is allocated
        re2d::png_io::validate_limited(std::io::Cursor::new(bytes), limits)
            .map_err(|e| format!("PNG data error: {e}"))?;
        let mut buf = re2d::png_io::zeroed(r.output_buffer_size().ok_or("image too large")?)?;
        let info = r
            .next_frame(&mut buf)
            .map_err(|e| format!("PNG data error: {e}"))?;
        buf.truncate(info.buffer_size());
        return Ok(Rgba8 {
            width: info.width,
            height: info.height,
            rgba: buf,
        });
    }
    // the buffer grows as rows arrive (a 65-byte file declaring 16384²
    // fails at its first missing row, not after allocating 1 GiB)
    let total = w as usize * h as usize * 4;
    let mut rgba: Vec<u8> = Vec::new();
    while let Some(row) = r.next_row().map_err(|e| format!("PNG data error: {e}"))? {
        let row = row.data();
        if rgba.len() + row.len() > total {
            return Err("PNG data error: more image data than the header's size".into());
        }
        if rgba.len() + row.len() > rgba.capacity() {
            let want = (rgba.capacity().max(row.len()).max(64 << 10) * 2).min(total.max(row.len()));
            rgba.try_reserve_exact(want - rgba.len())
                .map_err(|_| "out of memory for the image".to_string())?;
        }
        rgba.extend_from_slice(row);
    }
    if rgba.len() != total {
        return Err("PNG data error: the image data ends early".into());
    }
    Ok(Rgba8 {
        width: w,
        height: h,
        rgba,
    })
}

/// Atomically replace `target` with `bytes` (§8) through [`re2d_output::publish`],
/// refusing a target that is one of `inputs`.
pub fn publish(target: &Path, bytes: &[u8], inputs: &[&Path]) -> Result<(), CompileError> {
    re2d_output::publish::publish(target, bytes, inputs).map_err(|e| {
        let code = if e.exit_code() == 2 {
            Code::Output
        } else {
            Code::Io
        };
        CompileError::new(code, target.display().to_string(), e.to_string())
    })
}
