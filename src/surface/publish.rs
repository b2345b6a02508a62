// re2d surface compiler — PNG encode/decode of atlases and atomic publish (spec: surface-compiler.md §2.4, §8).
//! [`encode_png`] writes 8-bit RGBA (colour type 6) with fixed encoder
//! settings and no colour chunks, so identical pixels give identical files.
//! [`publish`] is the atomic replace of §8, through the crate's one publishing
//! path [`crate::publish`].

use std::path::Path;

use super::error::{Code, CompileError};

/// Encode RGBA8 pixels as a PNG with fixed settings (deterministic bytes).
pub fn encode_png(rgba: &[u8], size: u32) -> Result<Vec<u8>, CompileError> {
    crate::png_io::encode_rgba(rgba, size, size)
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
    decode_rgba8_limited(bytes, &crate::limits::Limits::current())
}

/// [`decode_rgba8`] within explicit limits (checked from the header, before
/// the pixel buffer is allocated).
pub fn decode_rgba8_limited(bytes: &[u8], limits: &crate::limits::Limits) -> Result<Rgba8, String> {
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
    let mut buf = crate::png_io::zeroed(r.output_buffer_size().ok_or("image too large")?)?;
    let info = r
        .next_frame(&mut buf)
        .map_err(|e| format!("PNG data error: {e}"))?;
    buf.truncate(info.buffer_size());
    Ok(Rgba8 {
        width: info.width,
        height: info.height,
        rgba: buf,
    })
}

/// Atomically replace `target` with `bytes` (§8) through [`crate::publish`],
/// refusing a target that is one of `inputs`.
pub fn publish(target: &Path, bytes: &[u8], inputs: &[&Path]) -> Result<(), CompileError> {
    crate::publish::publish(target, bytes, inputs).map_err(|e| {
        let code = if e.exit_code() == 2 {
            Code::Output
        } else {
            Code::Io
        };
        CompileError::new(code, target.display().to_string(), e.to_string())
    })
}
