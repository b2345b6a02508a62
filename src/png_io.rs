// re2d — the PNG reader of the runtime: any PNG to RGBA8, within the limits.
//
//! The decoder expands every colour type and depth to RGBA8 (the atlas
//! compiler keeps its own strict readers). The runtime only reads PNGs: the
//! one encoder every tool writes with is `re2d_output::png_encode`.

use std::io::{BufRead, Seek};

use crate::limits::Limits;

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

/// Decodes a PNG of any colour type and depth into RGBA8, within the
/// process-wide [`Limits::current`].
pub fn decode_rgba(r: impl BufRead + Seek) -> Result<RgbaImage, String> {
    decode_rgba_limited(r, &Limits::current())
}

/// Decodes a PNG of any colour type and depth into RGBA8. The header's
/// size is checked against `limits` (side, then RGBA8 bytes) **before** any
/// pixel buffer is allocated, and the image buffer then grows only as rows
/// are decoded: a 65-byte file declaring 16384² fails at its first missing
/// row having allocated one row, not 1 GiB. An interlaced image (whose
/// passes spread over the whole image) is first decoded once without
/// keeping its pixels ([`validate_limited`], one row of memory), and only
/// then into its buffer. Allocations that still fail are errors, not aborts.
pub fn decode_rgba_limited(
    mut r: impl BufRead + Seek,
    limits: &Limits,
) -> Result<RgbaImage, String> {
    let start = r.stream_position().map_err(|e| e.to_string())?;
    let mut reader = open(&mut r, limits)?;
    if reader.info().interlaced {
        drop(reader);
        r.seek(std::io::SeekFrom::Start(start))
            .map_err(|e| e.to_string())?;
        validate_limited(&mut r, limits)?;
        r.seek(std::io::SeekFrom::Start(start))
            .map_err(|e| e.to_string())?;
        return decode_whole(r, limits);
    }
    let (w, h) = (reader.info().width, reader.info().height);
    let total = w as usize * h as usize * 4;
    let (ct, _) = reader.output_color_type();
    let mut data: Vec<u8> = Vec::new();
    while let Some(row) = reader.next_row().map_err(|e| e.to_string())? {
        let row = row.data();
        let add = row.len() / ct.samples() * 4;
        if data.len() + add > total {
            return Err("more image data than the header's size".into());
        }
        if data.len() + add > data.capacity() {
            // at least double (amortised), never past the whole image
            let want = (data.capacity().max(add).max(64 << 10) * 2).min(total.max(add));
            data.try_reserve_exact(want - data.len())
                .map_err(|_| "out of memory for the image".to_string())?;
        }
        expand_row(&mut data, row, ct)?;
    }
    if data.len() != total {
        return Err("the image data ends early".into());
    }
    Ok(RgbaImage {
        data,
        width: w,
        height: h,
    })
}

/// Decodes every row of a PNG without keeping the pixels (memory: one row):
/// the check that a file declaring its size really holds that image, before
/// anything is allocated for it. Returns the size.
pub fn validate_limited(r: impl BufRead + Seek, limits: &Limits) -> Result<(u32, u32), String> {
    let mut reader = open(r, limits)?;
    let (w, h) = (reader.info().width, reader.info().height);
    while reader
        .next_interlaced_row()
        .map_err(|e| e.to_string())?
        .is_some()
    {}
    reader.finish().map_err(|e| e.to_string())?;
    Ok((w, h))
}

/// A decoder past the header, whose size is within `limits`.
fn open<R: BufRead + Seek>(r: R, limits: &Limits) -> Result<png::Reader<R>, String> {
    let cap = png::Limits {
        bytes: limits.png_max_bytes.min(usize::MAX as u64) as usize,
    };
    let mut dec = png::Decoder::new_with_limits(r, cap);
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let reader = dec.read_info().map_err(|e| e.to_string())?;
    let (w, h) = (reader.info().width, reader.info().height);
    limits.check_image(w, h, 4).map_err(|e| e.to_string())?;
    Ok(reader)
}

/// Appends one decoded row (8-bit grey, grey + alpha, RGB or RGBA) as RGBA8.
fn expand_row(out: &mut Vec<u8>, row: &[u8], ct: png::ColorType) -> Result<(), String> {
    match ct {
        png::ColorType::Rgba => out.extend_from_slice(row),
        png::ColorType::Rgb => {
            out.extend(row.chunks_exact(3).flat_map(|c| [c[0], c[1], c[2], 255]))
        }
        png::ColorType::GrayscaleAlpha => {
            out.extend(row.chunks_exact(2).flat_map(|c| [c[0], c[0], c[0], c[1]]))
        }
        png::ColorType::Grayscale => out.extend(row.iter().flat_map(|&c| [c, c, c, 255])),
        png::ColorType::Indexed => return Err("unexpanded palette".into()),
    }
    Ok(())
}

/// The whole image at once (after [`validate_limited`] proved the data is
/// there): for interlaced files.
fn decode_whole(r: impl BufRead + Seek, limits: &Limits) -> Result<RgbaImage, String> {
    let mut reader = open(r, limits)?;
    let size = reader.output_buffer_size().ok_or("image too large")?;
    let mut buf = zeroed(size)?;
    let info = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
    buf.truncate(info.buffer_size());
    let px = info.width as usize * info.height as usize;
    let data = if info.color_type == png::ColorType::Rgba {
        buf
    } else {
        let mut out = Vec::new();
        out.try_reserve_exact(px * 4)
            .map_err(|_| "out of memory for the image".to_string())?;
        expand_row(&mut out, &buf, info.color_type)?;
        out
    };
    if data.len() != px * 4 {
        return Err("unexpected PNG layout".into());
    }
    Ok(RgbaImage {
        data,
        width: info.width,
        height: info.height,
    })
}

/// The `(width, height)` an `IHDR` right after the PNG signature declares,
/// without decoding anything (`None`: not a PNG header). Lets a caller size
/// the decode against a budget first.
pub fn header_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() < 24 || bytes[..8] != *b"\x89PNG\r\n\x1a\n" || bytes[12..16] != *b"IHDR" {
        return None;
    }
    let w = u32::from_be_bytes(bytes[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(bytes[20..24].try_into().ok()?);
    Some((w, h))
}

/// A zeroed buffer of `n` bytes, or an error instead of an allocation abort.
pub fn zeroed(n: usize) -> Result<Vec<u8>, String> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| format!("out of memory for {n} bytes"))?;
    v.resize(n, 0);
    Ok(v)
}

/// Reads and decodes a PNG file within the current limits (file size, then
/// image size). Errors name the problem, not the path.
pub fn read_png_file(path: &std::path::Path) -> Result<RgbaImage, PngFileError> {
    let bytes = crate::limits::read_binary_file(path).map_err(PngFileError::Read)?;
    decode_rgba(std::io::Cursor::new(bytes)).map_err(PngFileError::Decode)
}

/// Why [`read_png_file`] failed.
#[derive(Debug)]
pub enum PngFileError {
    /// The file could not be read (or is over the size limit).
    Read(crate::limits::ReadError),
    /// The bytes are not a PNG within the limits.
    Decode(String),
}

impl std::fmt::Display for PngFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PngFileError::Read(e) => write!(f, "{e}"),
            PngFileError::Decode(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PngFileError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_size_reads_ihdr_only() {
        let mut png = Vec::new();
        let mut enc = png::Encoder::new(&mut png, 6, 4);
        enc.set_color(png::ColorType::Rgba);
        enc.write_header()
            .unwrap()
            .write_image_data(&[0; 6 * 4 * 4])
            .unwrap();
        assert_eq!(header_size(&png), Some((6, 4)));
        assert_eq!(header_size(&png[..23]), None);
        assert_eq!(header_size(b"GIF89a.................."), None);
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

    /// A PNG whose IHDR claims `w`×`h` (no pixel data needed to be refused).
    pub(crate) fn huge_header(w: u32, h: u32) -> Vec<u8> {
        let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
        let mut ihdr = b"IHDR".to_vec();
        ihdr.extend(w.to_be_bytes());
        ihdr.extend(h.to_be_bytes());
        ihdr.extend([8, 6, 0, 0, 0]);
        png.extend(13u32.to_be_bytes());
        png.extend(&ihdr);
        png.extend(crc32(&ihdr).to_be_bytes());
        let idat = b"IDAT\x78\x9c\x03\x00\x00\x00\x00\x01";
        png.extend(((idat.len() - 4) as u32).to_be_bytes());
        png.extend(idat);
        png.extend(crc32(idat).to_be_bytes());
        png.extend(0u32.to_be_bytes());
        png.extend(b"IEND");
        png.extend(crc32(b"IEND").to_be_bytes());
        png
    }

    fn crc32(data: &[u8]) -> u32 {
        let mut c = !0u32;
        for &b in data {
            c ^= b as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
        }
        !c
    }

    #[test]
    fn header_size_is_checked_before_allocating() {
        let png = huge_header(100_000, 100_000);
        let e = decode_rgba(std::io::Cursor::new(&png)).unwrap_err();
        assert!(e.contains("png-max-side"), "{e}");
        let l = Limits {
            png_max_side: 1 << 20,
            ..Limits::DEFAULT
        };
        let e = decode_rgba_limited(std::io::Cursor::new(&png), &l).unwrap_err();
        assert!(e.contains("png-max-bytes"), "{e}");
        // within the limits the same header is decoded (and fails on data)
        let small = huge_header(3, 2);
        assert!(decode_rgba(std::io::Cursor::new(&small)).is_err());
    }

    /// Issue 29: the row-streaming decoder (and the validate-then-decode
    /// path of interlaced files) gives exactly what the whole-buffer decoder
    /// gives, on every PNG of the fuzz corpus (interlaced ones included),
    /// and refuses the same files.
    #[test]
    fn streaming_decode_matches_the_whole_buffer_decode() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/png");
        let l = Limits {
            png_max_bytes: 64 << 20,
            ..Limits::DEFAULT
        };
        let (mut ok, mut interlaced) = (0, 0);
        for e in std::fs::read_dir(&dir).expect("the png corpus") {
            let bytes = std::fs::read(e.unwrap().path()).unwrap();
            let whole = decode_whole(std::io::Cursor::new(&bytes), &l);
            let rows = decode_rgba_limited(std::io::Cursor::new(&bytes), &l);
            assert_eq!(whole.is_ok(), rows.is_ok(), "{whole:?} vs {rows:?}");
            if let (Ok(a), Ok(b)) = (whole, rows) {
                assert_eq!(a, b);
                ok += 1;
                interlaced += usize::from(bytes.len() > 28 && bytes[28] == 1);
            }
        }
        assert!(ok >= 3, "{ok} decoded, {interlaced} interlaced");
    }

    /// An Adam7-interlaced RGBA8 PNG of `w × h` with pixel `f(x, y)`, written
    /// by hand (the encoder writes no interlaced files).
    fn adam7_png(w: u32, h: u32, f: impl Fn(u32, u32) -> [u8; 4]) -> Vec<u8> {
        use std::io::Write;
        const P: [(u32, u32, u32, u32); 7] = [
            (0, 0, 8, 8),
            (4, 0, 8, 8),
            (0, 4, 4, 8),
            (2, 0, 4, 4),
            (0, 2, 2, 4),
            (1, 0, 2, 2),
            (0, 1, 1, 2),
        ];
        let mut raw = Vec::new();
        for (x0, y0, dx, dy) in P {
            if x0 >= w || y0 >= h {
                continue;
            }
            for y in (y0..h).step_by(dy as usize) {
                raw.push(0);
                for x in (x0..w).step_by(dx as usize) {
                    raw.extend(f(x, y));
                }
            }
        }
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(&raw).unwrap();
        let idat = z.finish().unwrap();
        let chunk = |out: &mut Vec<u8>, kind: &[u8], data: &[u8]| {
            out.extend((data.len() as u32).to_be_bytes());
            let mut c = kind.to_vec();
            c.extend(data);
            out.extend(&c);
            out.extend(crc32(&c).to_be_bytes());
        };
        let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
        let mut ihdr = w.to_be_bytes().to_vec();
        ihdr.extend(h.to_be_bytes());
        ihdr.extend([8, 6, 0, 0, 1]);
        chunk(&mut out, b"IHDR", &ihdr);
        chunk(&mut out, b"IDAT", &idat);
        chunk(&mut out, b"IEND", &[]);
        out
    }

    /// Issue 29: interlaced files decode through validate-then-decode to the
    /// right pixels; a truncated one is refused (by the validation pass,
    /// before its buffer is allocated).
    #[test]
    fn interlaced_files_decode_and_truncated_ones_are_refused() {
        let f = |x: u32, y: u32| [x as u8, y as u8, (x * 7 + y) as u8, 200];
        for (w, h) in [(1, 1), (13, 7), (33, 20)] {
            let png = adam7_png(w, h, f);
            let img = decode_rgba(std::io::Cursor::new(&png)).expect("decodes");
            assert_eq!((img.width, img.height), (w, h));
            for y in 0..h {
                for x in 0..w {
                    let i = ((y * w + x) * 4) as usize;
                    assert_eq!(img.data[i..i + 4], f(x, y), "({x}, {y}) of {w}x{h}");
                }
            }
            assert_eq!(
                validate_limited(std::io::Cursor::new(&png), &Limits::DEFAULT),
                Ok((w, h))
            );
        }
        let png = adam7_png(33, 20, f);
        let cut = &png[..png.len() - 30];
        assert!(decode_rgba(std::io::Cursor::new(cut)).is_err());
        assert!(validate_limited(std::io::Cursor::new(cut), &Limits::DEFAULT).is_err());
    }
}
