// re2d surface compiler — material PNG decoding and nearest resampling (spec: surface-compiler.md §6.2, §6.8.4).
//! Decodes every PNG colour type to 8-bit RGBA by hand (so the legacy
//! 16-bit and `tRNS` quirks of §6.8.4 can be reproduced), checks the square
//! size, and resamples to the canonical 1024² grid by taking source texel
//! `(m·x + ⌊m/2⌋, m·y + ⌊m/2⌋)`.

use super::compile::CANON;
use super::error::{Code, CompileError, err};
use png::{BitDepth, ColorType};

/// Decode `bytes` and resample to a 1024×1024 RGBA8 image.
pub fn load(bytes: &[u8], legacy: bool) -> Result<Vec<u8>, CompileError> {
    let fmt = |m: String| CompileError::new(Code::MaterialFormat, "--material", m);
    let mut dec =
        png::Decoder::new_with_limits(std::io::Cursor::new(bytes), png::Limits { bytes: 1 << 30 });
    dec.set_transformations(png::Transformations::IDENTITY);
    let mut reader = dec
        .read_info()
        .map_err(|e| fmt(format!("not a readable PNG: {e}")))?;
    let info = reader.info();
    let (w, h) = (info.width as usize, info.height as usize);
    let (ct, bd) = (info.color_type, info.bit_depth);
    if bd == BitDepth::Sixteen && !legacy {
        return Err(fmt("16-bit samples are not supported".into()));
    }
    if w != h || ![1024, 2048, 3072, 4096].contains(&w) {
        return err(
            Code::MaterialSize,
            "--material",
            format!("{w}x{h}: must be square with side 1024, 2048, 3072 or 4096"),
        );
    }
    let palette: Vec<u8> = info
        .palette
        .as_ref()
        .map(|p| p.to_vec())
        .unwrap_or_default();
    let trns: Option<Vec<u8>> = info.trns.as_ref().map(|t| t.to_vec());
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| fmt("image too large".into()))?;
    let mut buf = vec![0u8; size];
    let out = reader
        .next_frame(&mut buf)
        .map_err(|e| fmt(format!("PNG data error: {e}")))?;
    let line = out.line_size;
    let bits = bd as usize;
    let m = w / CANON;
    let mut img = vec![0u8; CANON * CANON * 4];
    // tRNS grey/RGB values: the png crate keeps two bytes per value for
    // 16-bit images and only the low byte (the value mod 256) otherwise.
    let t16 = |i: usize| -> Option<u16> {
        let t = trns.as_ref()?;
        if bd == BitDepth::Sixteen {
            t.get(2 * i..2 * i + 2)
                .map(|b| u16::from_be_bytes([b[0], b[1]]))
        } else {
            t.get(i).map(|&b| b as u16)
        }
    };
    for y in 0..CANON {
        let row = &buf[(m * y + m / 2) * line..][..line];
        for x in 0..CANON {
            let sx = m * x + m / 2;
            // raw sample `i` of this pixel (channel index within the pixel)
            let chans = ct.samples();
            let sample = |c: usize| -> u16 {
                let idx = sx * chans + c;
                match bits {
                    16 => u16::from_be_bytes([row[2 * idx], row[2 * idx + 1]]),
                    8 => row[idx] as u16,
                    _ => {
                        let bit = idx * bits;
                        let byte = row[bit / 8];
                        ((byte >> (8 - bits - bit % 8)) & ((1u8 << bits) - 1)) as u16
                    }
                }
            };
            // 8-bit value of a colour/alpha sample.
            let to8 = |s: u16, grey16: bool| -> u8 {
                match bits {
                    16 if grey16 => s.min(255) as u8,
                    16 => (s >> 8) as u8,
                    8 => s as u8,
                    1 => (s * 255) as u8,
                    2 => (s * 85) as u8,
                    _ => (s * 17) as u8,
                }
            };
            let px: [u8; 4] = match ct {
                ColorType::Grayscale => {
                    let s = sample(0);
                    let g = to8(s, legacy);
                    let transparent = match t16(0) {
                        None => false,
                        Some(t) if !legacy => t == s,
                        Some(t) if bits == 1 => (if t == 0 { 0 } else { 255 }) == g,
                        Some(t) => (t % 256) as u8 == g,
                    };
                    [g, g, g, if transparent { 0 } else { 255 }]
                }
                ColorType::Rgb => {
                    let s = [sample(0), sample(1), sample(2)];
                    let c = [to8(s[0], false), to8(s[1], false), to8(s[2], false)];
                    let transparent = match (t16(0), t16(1), t16(2)) {
                        (Some(r), Some(g), Some(b)) if !legacy => [r, g, b] == s,
                        (Some(r), Some(g), Some(b)) => {
                            [(r % 256) as u8, (g % 256) as u8, (b % 256) as u8] == c
                        }
                        _ => false,
                    };
                    [c[0], c[1], c[2], if transparent { 0 } else { 255 }]
                }
                ColorType::Indexed => {
                    let i = sample(0) as usize;
                    match palette.get(3 * i..3 * i + 3) {
                        Some(p) => [
                            p[0],
                            p[1],
                            p[2],
                            trns.as_ref().and_then(|t| t.get(i).copied()).unwrap_or(255),
                        ],
                        None => [0, 0, 0, 255],
                    }
                }
                ColorType::GrayscaleAlpha => {
                    let g = to8(sample(0), false);
                    [g, g, g, to8(sample(1), false)]
                }
                ColorType::Rgba => [
                    to8(sample(0), false),
                    to8(sample(1), false),
                    to8(sample(2), false),
                    to8(sample(3), false),
                ],
            };
            let o = (y * CANON + x) * 4;
            img[o..o + 4].copy_from_slice(&px);
        }
    }
    Ok(img)
}
