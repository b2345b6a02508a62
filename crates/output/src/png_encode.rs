// re2d — the compact, deterministic RGBA8 PNG encoder behind every still PNG re2d writes (issue 9 item 5).
//! How a still image is encoded (see [`encode_rgba`]):
//!
//! 1. **Row filters** ([`choose_filter`]): every row is filtered with each of
//!    the five PNG filters (None, Sub, Up, Average, Paeth) and the one with
//!    the smallest sum of absolute signed bytes is kept ("minimum sum of
//!    absolute differences", the heuristic libpng and Pillow use); ties go to
//!    the lowest filter type. A row equal to the previous one takes Up (all
//!    zero bytes) and an all-zero row takes None without trying the others:
//!    that is the same choice, found faster.
//! 2. **Deflate**: the filtered rows go through zlib at level 9 (the
//!    `flate2` crate with its pure-Rust `zlib-rs` backend).
//! 3. **Chunks**: `IHDR` (8-bit RGBA, colour type 6, no interlace) written by
//!    the `png` crate, the zlib stream in `IDAT` chunks of at most 1 GiB,
//!    `IEND`. No colour chunks (`gAMA`, `sRGB`, `iCCP`, …) and no time
//!    stamps, so equal pixels always give equal bytes.
//!
//! Compared with the `png` crate's fastest setting that re2d used before, a
//! compiled 1024² atlas is 3.5–6× smaller and no larger than the existing
//! engine tool's PNG of the same pixels (see `make bench-png`).

use std::io::Write;

/// The five PNG filter types (PNG spec §9.2), by their type byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum RowFilter {
    /// `x`
    None = 0,
    /// `x − a`
    Sub = 1,
    /// `x − b`
    Up = 2,
    /// `x − ⌊(a + b) / 2⌋`
    Average = 3,
    /// `x − paeth(a, b, c)`
    Paeth = 4,
}

impl RowFilter {
    /// All filters in type order.
    pub const ALL: [RowFilter; 5] = [
        RowFilter::None,
        RowFilter::Sub,
        RowFilter::Up,
        RowFilter::Average,
        RowFilter::Paeth,
    ];
}

/// Bytes per pixel of RGBA8.
const BPP: usize = 4;

/// The Paeth predictor (PNG §9.4), written without branches (`p − a = b − c`,
/// `p − b = a − c`, `p − c = a + b − 2c`) so the row loop vectorises.
#[inline(always)]
fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let (ia, ib, ic) = (a as i16, b as i16, c as i16);
    let (pa, pb, pc) = ((ib - ic).abs(), (ia - ic).abs(), (ia + ib - 2 * ic).abs());
    let bc = if pb <= pc { b } else { c };
    if pa <= pb && pa <= pc { a } else { bc }
}

/// Writes `row` filtered with `f` against the row above `prev` (all zero for
/// the first row) into `out` (same length).
pub fn filter_row(f: RowFilter, row: &[u8], prev: &[u8], out: &mut [u8]) {
    debug_assert!(prev.len() == row.len() && out.len() == row.len());
    filter_span(f, row, prev, out, 0);
}

/// Writes bytes `lo .. lo + out.len()` of `row` filtered with `f` against
/// `prev` into `out` (the filters read the unfiltered bytes before `lo`).
fn filter_span(f: RowFilter, row: &[u8], prev: &[u8], out: &mut [u8], lo: usize) {
    let hi = lo + out.len();
    // the first pixel has no left neighbour (a = c = 0)
    let m = BPP.clamp(lo, hi);
    let (head, out) = out.split_at_mut(m - lo);
    for (k, o) in head.iter_mut().enumerate() {
        let (x, b) = (row[lo + k], prev[lo + k]);
        *o = match f {
            RowFilter::None | RowFilter::Sub => x,
            RowFilter::Up => x.wrapping_sub(b),
            RowFilter::Average => x.wrapping_sub(b >> 1),
            RowFilter::Paeth => x.wrapping_sub(paeth(0, b, 0)),
        };
    }
    let (row_x, row_a) = (&row[m..hi], &row[m - BPP.min(m)..hi - BPP.min(m)]);
    let (prev_b, prev_c) = (&prev[m..hi], &prev[m - BPP.min(m)..hi - BPP.min(m)]);
    match f {
        RowFilter::None => out.copy_from_slice(row_x),
        RowFilter::Sub => {
            for ((o, &x), &a) in out.iter_mut().zip(row_x).zip(row_a) {
                *o = x.wrapping_sub(a);
            }
        }
        RowFilter::Up => {
            for ((o, &x), &b) in out.iter_mut().zip(row_x).zip(prev_b) {
                *o = x.wrapping_sub(b);
            }
        }
        RowFilter::Average => {
            for (((o, &x), &a), &b) in out.iter_mut().zip(row_x).zip(row_a).zip(prev_b) {
                *o = x.wrapping_sub(((a as u16 + b as u16) >> 1) as u8);
            }
        }
        RowFilter::Paeth => {
            for ((((o, &x), &a), &b), &c) in
                out.iter_mut().zip(row_x).zip(row_a).zip(prev_b).zip(prev_c)
            {
                *o = x.wrapping_sub(paeth(a, b, c));
            }
        }
    }
}

/// Sum of the filtered bytes read as signed values, by absolute value.
fn cost(filtered: &[u8]) -> u64 {
    // u32 sums over chunks (at most 128 per byte) vectorise
    filtered
        .chunks(1 << 24)
        .map(|c| {
            c.iter()
                .map(|&v| u32::from((v as i8).unsigned_abs()))
                .sum::<u32>() as u64
        })
        .sum()
}

/// Bytes filtered between two looks at a filter's running sum.
const SPAN: usize = 1024;

/// The filter [`encode_rgba`] uses for `row` below `prev`: the smallest sum
/// of absolute signed filtered bytes, ties to the lowest filter type.
/// `out` receives the filtered row, `scratch` is a buffer of the same length.
pub fn choose_filter(row: &[u8], prev: &[u8], out: &mut [u8], scratch: &mut [u8]) -> RowFilter {
    if row.iter().all(|&v| v == 0) {
        out.copy_from_slice(row);
        return RowFilter::None;
    }
    if row == prev {
        // Up gives all zeros; None, Sub and Average are zero only on an
        // all-zero row, so Up is the unique minimum below Paeth.
        out.fill(0);
        return RowFilter::Up;
    }
    // each filter's sum is taken span by span and given up once it reaches
    // the best so far (it can no longer be smaller): the same choice
    let mut best = (u64::MAX, RowFilter::None);
    for f in RowFilter::ALL {
        let mut c = 0u64;
        for (k, span) in scratch.chunks_mut(SPAN).enumerate() {
            filter_span(f, row, prev, span, k * SPAN);
            c += cost(span);
            if c >= best.0 {
                break;
            }
        }
        if c < best.0 {
            best = (c, f);
            out.copy_from_slice(scratch);
        }
    }
    best.1
}

/// The zlib level of [`encode_rgba`] and `re2d compile`: smallest files.
pub const SMALLEST: u32 = 9;
/// The zlib level of rendered frames and sheets (`re2d render`): 5–10×
/// faster than [`SMALLEST`] for 1–5 % larger files.
pub const BALANCED: u32 = 6;

/// Largest `IDAT` chunk written (the format allows 2³¹ − 1 bytes).
const IDAT_MAX: usize = 1 << 30;

/// Encodes `w`×`h` tightly packed RGBA8 pixels as a compact PNG (see the
/// module documentation). Equal pixels give equal bytes.
///
/// ```
/// let px = [255u8, 0, 0, 255, 0, 0, 255, 128]; // a red and a half-transparent blue pixel
/// let png = re2d_output::png_encode::encode_rgba(&px, 2, 1)?;
/// let back = re2d::png_io::decode_rgba(std::io::Cursor::new(&png))?;
/// assert_eq!((back.width, back.height, &back.data[..]), (2, 1, &px[..]));
/// # Ok::<(), String>(())
/// ```
pub fn encode_rgba(rgba: &[u8], w: u32, h: u32) -> Result<Vec<u8>, String> {
    encode_rgba_level(rgba, w, h, SMALLEST)
}

/// An upper bound of the heap bytes [`encode_rgba`] allocates for a `w × h`
/// image (beside the pixels it is given): the zlib stream (zlib's
/// `compressBound` of the filtered rows, twice for the growing buffer), the
/// PNG copy of it, three row buffers and 1 MiB for the deflate state. Lets a
/// caller check a memory limit before encoding.
pub fn encode_peak_bytes(w: u32, h: u32) -> u64 {
    let stride = w as u64 * BPP as u64;
    let raw = (stride + 1) * h as u64;
    let bound = raw + (raw >> 12) + (raw >> 14) + (raw >> 25) + 13;
    3 * bound + 3 * stride + (1 << 20)
}

/// [`encode_rgba`] with another zlib level (1 fastest … 9 smallest).
pub fn encode_rgba_level(rgba: &[u8], w: u32, h: u32, level: u32) -> Result<Vec<u8>, String> {
    let (wu, hu) = (w as usize, h as usize);
    let stride = wu
        .checked_mul(BPP)
        .ok_or_else(|| format!("{w}x{h} is too large"))?;
    if w == 0 || h == 0 || stride.checked_mul(hu) != Some(rgba.len()) {
        return Err(format!("{} bytes is not a {w}x{h} RGBA image", rgba.len()));
    }
    let mut z = flate2::write::ZlibEncoder::new(
        Vec::with_capacity(rgba.len() / 16 + 1024),
        flate2::Compression::new(level.clamp(1, 9)),
    );
    let zero = vec![0u8; stride];
    let mut out = vec![0u8; stride + 1];
    let mut scratch = vec![0u8; stride];
    let mut prev: &[u8] = &zero;
    for row in rgba.chunks_exact(stride) {
        let f = choose_filter(row, prev, &mut out[1..], &mut scratch);
        out[0] = f as u8;
        z.write_all(&out).map_err(|e| e.to_string())?;
        prev = row;
    }
    let idat = z.finish().map_err(|e| e.to_string())?;

    let mut png = Vec::with_capacity(idat.len() + 64);
    let mut enc = png::Encoder::new(&mut png, w, h);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().map_err(|e| e.to_string())?;
    for chunk in idat.chunks(IDAT_MAX) {
        writer
            .write_chunk(png::chunk::IDAT, chunk)
            .map_err(|e| e.to_string())?;
    }
    writer.finish().map_err(|e| e.to_string())?;
    Ok(png)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The filter types stored in a PNG, read back from its IDAT stream.
    fn stored_filters(png: &[u8], w: usize, h: usize) -> Vec<u8> {
        let mut i = 8;
        let mut idat = Vec::new();
        while i + 8 <= png.len() {
            let n = u32::from_be_bytes(png[i..i + 4].try_into().unwrap()) as usize;
            if &png[i + 4..i + 8] == b"IDAT" {
                idat.extend_from_slice(&png[i + 8..i + 8 + n]);
            }
            i += 12 + n;
        }
        let mut raw = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::ZlibDecoder::new(&idat[..]), &mut raw)
            .unwrap();
        assert_eq!(raw.len(), h * (4 * w + 1));
        (0..h).map(|y| raw[y * (4 * w + 1)]).collect()
    }

    fn lcg(seed: &mut u64) -> u8 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*seed >> 56) as u8
    }

    const MIXED_H: usize = 9;

    /// Rows whose best filter can be worked out by hand (`w` ≥ 19).
    fn mixed_image(w: usize) -> Vec<u8> {
        let s = 4 * w;
        let mut seed = 7u64;
        let noise: Vec<u8> = (0..s).map(|_| lcg(&mut seed)).collect();
        let px = |f: &dyn Fn(usize) -> u8| -> Vec<u8> { (0..s).map(|i| f(i / 4)).collect() };
        let mut img = Vec::new();
        img.extend(px(&|_| 0)); // 0: all zero
        img.extend(px(&|_| 3)); // 1: flat
        // 2: every byte is the average of its left and upper neighbours
        img.extend(px(&|x| if x == 0 { 1 } else { 2 }));
        img.extend(&noise); // 3: noise
        img.extend(&noise); // 4: the same noise
        // 5: a left part with strong vertical edges, a right part almost flat
        img.extend(px(&|x| match (x < 10, x % 2) {
            (true, 0) => 0,
            (true, _) => 120,
            (false, 0) => 100,
            (false, _) => 101,
        }));
        // 6: the left part repeats row 5, the right part is flat 200
        img.extend(px(&|x| match (x < 10, x % 2) {
            (true, 0) => 0,
            (true, _) => 120,
            (false, _) => 200,
        }));
        img.extend(px(&|_| 0)); // 7: all zero
        img.extend(px(&|x| u8::from(matches!(x, 1 | 3 | 5)))); // 8: isolated ones
        for row in img.chunks_mut(s) {
            let last = row[4 * 18]; // pixels past 19 repeat pixel 18
            row[4 * 19..].fill(last);
        }
        img
    }

    #[test]
    fn pixels_round_trip_through_the_png_crate_decoder() {
        let w = 37;
        let mut seed = 1u64;
        for h in [1usize, 2, 7, 40] {
            let px: Vec<u8> = (0..w * h * 4)
                .map(|i| {
                    if i % 11 < 6 {
                        (i / 13) as u8
                    } else {
                        lcg(&mut seed)
                    }
                })
                .collect();
            let png = encode_rgba(&px, w as u32, h as u32).unwrap();
            assert_eq!(png, encode_rgba(&px, w as u32, h as u32).unwrap());
            let back = re2d::png_io::decode_rgba(std::io::Cursor::new(&png)).unwrap();
            assert_eq!((back.width, back.height), (w as u32, h as u32));
            assert!(back.data == px, "pixels differ at h = {h}");
        }
        let img = mixed_image(23);
        let png = encode_rgba(&img, 23, MIXED_H as u32).unwrap();
        let back = re2d::png_io::decode_rgba(std::io::Cursor::new(&png)).unwrap();
        assert!(back.data == img);
    }

    #[test]
    fn every_filter_decodes_and_the_smallest_cost_wins() {
        let w = 19;
        let img = mixed_image(w);
        let png = encode_rgba(&img, w as u32, MIXED_H as u32).unwrap();
        // Worked out by hand from the row contents (costs: sum of |signed byte|):
        // 1: Sub 12 = Paeth 12 < Avg 156 < None = Up 228 (tie to the lower type);
        // 2: Avg 0; 4: Up 0; 6: Paeth 400 < Avg 2160 < Up 3584 < Sub 4320 < None 4416;
        // 8: None 12 = Up 12 = Avg 12 < Sub 24 = Paeth 24. Rows 3 and 5 follow noise.
        let got = stored_filters(&png, w, MIXED_H);
        for (row, want) in [(0, 0), (1, 1), (2, 3), (4, 2), (6, 4), (7, 0), (8, 0)] {
            assert_eq!(got[row], want, "row {row}: {got:?}");
        }
        forced_filters_decode(&img, w, MIXED_H);
        // and on noise with many Paeth ties (|b − c| = |a − c|)
        let mut seed = 5u64;
        let noise: Vec<u8> = (0..64 * 32 * 4).map(|_| lcg(&mut seed) % 8).collect();
        forced_filters_decode(&noise, 64, 32);
    }

    /// Every filter type, forced on every row, decodes (by the `png` crate)
    /// to the same pixels.
    fn forced_filters_decode(img: &[u8], w: usize, h: usize) {
        let s = 4 * w;
        for f in RowFilter::ALL {
            let mut raw = Vec::new();
            let mut prev = vec![0u8; s];
            let mut out = vec![0u8; s];
            for row in img.chunks(s) {
                filter_row(f, row, &prev, &mut out);
                raw.push(f as u8);
                raw.extend_from_slice(&out);
                prev = row.to_vec();
            }
            let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
            z.write_all(&raw).unwrap();
            let mut png = Vec::new();
            let mut e = png::Encoder::new(&mut png, w as u32, h as u32);
            e.set_color(png::ColorType::Rgba);
            let mut wr = e.write_header().unwrap();
            wr.write_chunk(png::chunk::IDAT, &z.finish().unwrap())
                .unwrap();
            wr.finish().unwrap();
            let back = re2d::png_io::decode_rgba(std::io::Cursor::new(&png)).unwrap();
            assert!(back.data == img, "{f:?} does not decode back");
        }
    }

    #[test]
    fn shortcuts_agree_with_trying_every_filter() {
        let mut seed = 3u64;
        for _ in 0..200 {
            let s = 4 * (1 + lcg(&mut seed) as usize % 9);
            let prev: Vec<u8> = (0..s).map(|_| lcg(&mut seed) % 4).collect();
            for row in [prev.clone(), vec![0; s]] {
                let (mut o, mut sc) = (vec![0; s], vec![0; s]);
                let got = choose_filter(&row, &prev, &mut o, &mut sc);
                let mut best = (u64::MAX, RowFilter::None);
                for f in RowFilter::ALL {
                    filter_row(f, &row, &prev, &mut sc);
                    if cost(&sc) < best.0 {
                        best = (cost(&sc), f);
                    }
                }
                assert_eq!(got, best.1, "row {row:?} below {prev:?}");
                filter_row(got, &row, &prev, &mut sc);
                assert_eq!(o, sc);
            }
        }
    }

    /// PNG §9.4's Paeth predictor, as the spec writes it.
    fn spec_paeth(a: u8, b: u8, c: u8) -> u8 {
        let p = a as i16 + b as i16 - c as i16;
        let (pa, pb, pc) = (
            (p - a as i16).abs(),
            (p - b as i16).abs(),
            (p - c as i16).abs(),
        );
        if pa <= pb && pa <= pc {
            a
        } else if pb <= pc {
            b
        } else {
            c
        }
    }

    /// Rows longer than a span: the filters, span by span, are the spec's
    /// per-byte formulas, and the choice that gives up on a filter early is
    /// the smallest full sum (ties to the lower type).
    #[test]
    fn long_rows_filter_and_choose_like_the_spec() {
        let spec = |f: RowFilter, row: &[u8], prev: &[u8], i: usize| -> u8 {
            let (x, b) = (row[i], prev[i]);
            let (a, c) = if i >= 4 {
                (row[i - 4], prev[i - 4])
            } else {
                (0, 0)
            };
            x.wrapping_sub(match f {
                RowFilter::None => 0,
                RowFilter::Sub => a,
                RowFilter::Up => b,
                RowFilter::Average => ((a as u16 + b as u16) / 2) as u8,
                RowFilter::Paeth => spec_paeth(a, b, c),
            })
        };
        let mut seed = 11u64;
        let mut chosen = [0usize; 5];
        for t in 0..300 {
            let s = 4 * (1 + (lcg(&mut seed) as usize * 7 + t) % 700);
            // smooth, noisy and mixed rows, so that every filter wins somewhere
            let amp = [1u8, 4, 64, 255][t % 4];
            let prev: Vec<u8> = (0..s)
                .map(|i| (i as u8).wrapping_mul(3) ^ (lcg(&mut seed) % amp))
                .collect();
            let row: Vec<u8> = (0..s)
                .map(|i| {
                    prev[i].wrapping_add(((i / 4) as u8).wrapping_mul((t % 3) as u8))
                        ^ (lcg(&mut seed) % amp)
                })
                .collect();
            let (mut o, mut sc) = (vec![0; s], vec![0; s]);
            let mut best = (u64::MAX, RowFilter::None);
            for f in RowFilter::ALL {
                filter_row(f, &row, &prev, &mut sc);
                let want: Vec<u8> = (0..s).map(|i| spec(f, &row, &prev, i)).collect();
                assert_eq!(sc, want, "{f:?}, {s} bytes");
                let c: u64 = want.iter().map(|&v| (v as i8).unsigned_abs() as u64).sum();
                if c < best.0 {
                    best = (c, f);
                }
            }
            let got = choose_filter(&row, &prev, &mut o, &mut sc);
            assert_eq!(got, best.1, "{s} bytes");
            filter_row(got, &row, &prev, &mut sc);
            assert_eq!(o, sc);
            chosen[got as usize] += 1;
        }
        assert!(chosen.iter().all(|&n| n > 0), "{chosen:?}");
    }

    /// The branch-free predictor is PNG §9.4's on every input.
    #[test]
    fn paeth_is_the_specs_predictor_everywhere() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                for c in 0..=255u8 {
                    assert_eq!(paeth(a, b, c), spec_paeth(a, b, c), "{a} {b} {c}");
                }
            }
        }
    }

    #[test]
    fn rejects_wrong_sizes() {
        assert!(encode_rgba(&[0; 7], 1, 2).is_err());
        assert!(encode_rgba(&[], 0, 0).is_err());
        assert!(encode_rgba(&[0; 4], u32::MAX, 1).is_err());
    }
}
