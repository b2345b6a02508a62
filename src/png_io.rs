// re2d — PNG in and out for tools, hosts and demos: deterministic RGBA8 encoding, decoding any PNG to RGBA8.
//
//! One encoder for every PNG re2d writes (atlases, sprites, sheets, frames):
//! 8-bit RGBA, no colour chunks, fixed compression and filter choice, so equal
//! pixels always give equal files (see [`crate::png_encode`]). The decoder expands every colour type and
//! depth to RGBA8 (the atlas compiler keeps its own strict readers).

use std::io::{BufRead, Seek};

/// A decoded RGBA8 image (tightly packed, `4·width` bytes per row).
#[derive(Clone, Debug, PartialEq)]
pub struct RgbaImage {
    /// Pixels, 4 bytes each.
    pub data: Vec<u8>,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

/// Encodes `w`×`h` RGBA8 pixels as a compact PNG with fixed settings
/// ([`crate::png_encode::encode_rgba`]: per-row filter choice, zlib level 9).
pub fn encode_rgba(rgba: &[u8], w: u32, h: u32) -> Result<Vec<u8>, String> {
    crate::png_encode::encode_rgba(rgba, w, h)
}

/// Decodes a PNG of any colour type and depth into RGBA8.
pub fn decode_rgba(r: impl BufRead + Seek) -> Result<RgbaImage, String> {
    let mut dec = png::Decoder::new(r);
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = dec.read_info().map_err(|e| e.to_string())?;
    let size = reader.output_buffer_size().ok_or("image too large")?;
    let mut buf = vec![0u8; size];
    let info = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
    buf.truncate(info.buffer_size());
    let data = match info.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf
            .chunks(3)
            .flat_map(|c| [c[0], c[1], c[2], 255])
            .collect(),
        png::ColorType::GrayscaleAlpha => buf
            .chunks(2)
            .flat_map(|c| [c[0], c[0], c[0], c[1]])
            .collect(),
        png::ColorType::Grayscale => buf.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::Indexed => return Err("unexpanded palette".into()),
    };
    if data.len() != info.width as usize * info.height as usize * 4 {
        return Err("unexpected PNG layout".into());
    }
    Ok(RgbaImage {
        data,
        width: info.width,
        height: info.height,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_determinism() {
        let px: Vec<u8> = (0..6 * 4 * 4).map(|i| (i * 37 % 256) as u8).collect();
        let a = encode_rgba(&px, 6, 4).unwrap();
        assert_eq!(a, encode_rgba(&px, 6, 4).unwrap());
        let back = decode_rgba(std::io::Cursor::new(&a)).unwrap();
        assert_eq!((back.width, back.height, back.data), (6, 4, px));
        assert!(encode_rgba(&[0; 7], 1, 2).is_err());
    }

    #[test]
    fn expands_grey_and_rgb() {
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, 2, 1);
        enc.set_color(png::ColorType::Grayscale);
        enc.write_header()
            .unwrap()
            .write_image_data(&[7, 200])
            .unwrap();
        let img = decode_rgba(std::io::Cursor::new(&out)).unwrap();
        assert_eq!(img.data, [7, 7, 7, 255, 200, 200, 200, 255]);
    }
}
