//! Drawings as people have them (issue 41 item 1): PNG and JPEG (baseline,
//! progressive, greyscale), EXIF orientation, sizes checked before decoding.
//! The JPEGs are made here by an independent encoder (`jpeg-encoder`), the
//! EXIF block written by hand.

use re2d::limits::Limits;
use re2d_rig::declare::image::{self, Format};

/// The picture as the user sees it: 48×24, 8×8 blocks of distinct colours
/// (a transposed, turned or mirrored copy differs in most blocks).
fn shown() -> (Vec<u8>, usize, usize) {
    let (w, h) = (48usize, 24usize);
    let mut rgb = vec![0u8; w * h * 3];
    for y in 0..h {
        for x in 0..w {
            let (bx, by) = (x / 8, y / 8);
            let c = [
                (bx * 40 + 20) as u8,
                (by * 90 + 30) as u8,
                ((bx * 7 + by * 13) % 5 * 50) as u8,
            ];
            rgb[(y * w + x) * 3..][..3].copy_from_slice(&c);
        }
    }
    (rgb, w, h)
}

/// The stored pixels whose EXIF orientation `o` shows `rgb` (w × h shown).
fn stored_for(rgb: &[u8], w: usize, h: usize, o: u8) -> (Vec<u8>, usize, usize) {
    let (sw, sh) = if o >= 5 { (h, w) } else { (w, h) };
    let mut s = vec![0u8; rgb.len()];
    for y in 0..h {
        for x in 0..w {
            let (sx, sy) = match o {
                1 => (x, y),
                2 => (sw - 1 - x, y),
                3 => (sw - 1 - x, sh - 1 - y),
                4 => (x, sh - 1 - y),
                5 => (y, x),
                6 => (y, sh - 1 - x),
                7 => (sw - 1 - y, sh - 1 - x),
                _ => (sw - 1 - y, x),
            };
            s[(sy * sw + sx) * 3..][..3].copy_from_slice(&rgb[(y * w + x) * 3..][..3]);
        }
    }
    (s, sw, sh)
}

/// An EXIF APP1 payload with one IFD0 entry: orientation `o`.
fn exif(o: u16, little: bool) -> Vec<u8> {
    let mut v = b"Exif\0\0".to_vec();
    let u16b = |x: u16| {
        if little {
            x.to_le_bytes()
        } else {
            x.to_be_bytes()
        }
    };
    let u32b = |x: u32| {
        if little {
            x.to_le_bytes()
        } else {
            x.to_be_bytes()
        }
    };
    v.extend_from_slice(if little { b"II*\0" } else { b"MM\0*" });
    v.extend_from_slice(&u32b(8));
    v.extend_from_slice(&u16b(1));
    v.extend_from_slice(&u16b(0x0112));
    v.extend_from_slice(&u16b(3));
    v.extend_from_slice(&u32b(1));
    v.extend_from_slice(&u16b(o));
    v.extend_from_slice(&[0, 0]);
    v.extend_from_slice(&u32b(0));
    v
}

fn encode(
    rgb: &[u8],
    w: usize,
    h: usize,
    progressive: bool,
    grey: bool,
    app1: Option<Vec<u8>>,
) -> Vec<u8> {
    let mut out = Vec::new();
    let mut e = jpeg_encoder::Encoder::new(&mut out, 95);
    e.set_progressive(progressive);
    e.set_sampling_factor(jpeg_encoder::SamplingFactor::R_4_4_4);
    if let Some(a) = app1 {
        e.add_app_segment(1, &a).unwrap();
    }
    if grey {
        let luma: Vec<u8> = rgb.chunks(3).map(|p| p[1]).collect();
        e.encode(&luma, w as u16, h as u16, jpeg_encoder::ColorType::Luma)
            .unwrap();
    } else {
        e.encode(rgb, w as u16, h as u16, jpeg_encoder::ColorType::Rgb)
            .unwrap();
    }
    out
}

/// Largest channel difference between a decoded RGBA image and RGB pixels,
/// away from the block edges (JPEG rings there).
fn max_diff(rgba: &[u8], rgb: &[u8], w: usize, h: usize) -> u8 {
    let mut m = 0u8;
    for y in 0..h {
        for x in 0..w {
            if matches!(x % 8, 0 | 7) || matches!(y % 8, 0 | 7) {
                continue;
            }
            for c in 0..3 {
                m = m.max(rgba[(y * w + x) * 4 + c].abs_diff(rgb[(y * w + x) * 3 + c]));
            }
        }
    }
    m
}

#[test]
fn baseline_progressive_and_grey_jpegs_decode_to_what_was_encoded() {
    let (rgb, w, h) = shown();
    let limits = Limits::DEFAULT;
    for progressive in [false, true] {
        let j = encode(&rgb, w, h, progressive, false, None);
        assert_eq!(image::sniff(&j), Some(Format::Jpeg));
        let img = image::decode(&j, "t.jpg", &limits).unwrap();
        assert_eq!((img.width, img.height), (w as u32, h as u32));
        assert!(img.data.chunks(4).all(|p| p[3] == 255));
        let d = max_diff(&img.data, &rgb, w, h);
        assert!(d <= 12, "progressive {progressive}: max difference {d}");
    }
    let j = encode(&rgb, w, h, false, true, None);
    let img = image::decode(&j, "g.jpg", &limits).unwrap();
    assert!(img.data.chunks(4).all(|p| p[0] == p[1] && p[1] == p[2]));
    let grey: Vec<u8> = rgb.chunks(3).flat_map(|p| [p[1]; 3]).collect();
    let d = max_diff(&img.data, &grey, w, h);
    assert!(d <= 12, "greyscale: max difference {d}");
}

/// Every EXIF orientation shows the picture upright; the control — the same
/// stored pixels without the EXIF block — does not match (orientations 2–8).
#[test]
fn every_exif_orientation_is_shown_upright() {
    let (rgb, w, h) = shown();
    let limits = Limits::DEFAULT;
    for o in 1..=8u8 {
        for little in [true, false] {
            let (s, sw, sh) = stored_for(&rgb, w, h, o);
            let j = encode(&s, sw, sh, o % 2 == 0, false, Some(exif(o as u16, little)));
            let head = image::header(&j, "o.jpg").unwrap();
            assert_eq!(head.orientation, o);
            assert_eq!((head.width, head.height), (w as u32, h as u32));
            let img = image::decode(&j, "o.jpg", &limits).unwrap();
            assert_eq!(
                (img.width, img.height),
                (w as u32, h as u32),
                "orientation {o}"
            );
            let d = max_diff(&img.data, &rgb, w, h);
            assert!(d <= 12, "orientation {o}: max difference {d}");
            // control: the orientation ignored
            let plain = encode(&s, sw, sh, false, false, None);
            let img = image::decode(&plain, "p.jpg", &limits).unwrap();
            if o != 1 {
                let same = (img.width, img.height) == (w as u32, h as u32)
                    && max_diff(&img.data, &rgb, w, h) <= 12;
                assert!(!same, "orientation {o}: the control matches without EXIF");
            }
        }
    }
    // malformed or out-of-range orientations are 1
    assert_eq!(image::orientation(&exif(9, true)), 1);
    assert_eq!(image::orientation(&exif(0, false)), 1);
    assert_eq!(image::orientation(b"Exif\0\0II*\0\xff\xff\xff\xff"), 1);
    assert_eq!(image::orientation(b""), 1);
}

/// Sizes are checked from the header, before any pixel is decoded.
#[test]
fn sizes_are_checked_before_decoding() {
    let (rgb, w, h) = shown();
    let j = encode(&rgb, w, h, false, false, None);
    let mut small = Limits::DEFAULT;
    small.png_max_side = 40;
    let e = image::decode(&j, "t.jpg", &small).unwrap_err();
    assert_eq!(e.code, "E_RIG_LIMIT", "{e}");
    let mut few = Limits::DEFAULT;
    few.rig_max_pixels = 1000;
    let e = image::decode(&j, "t.jpg", &few).unwrap_err();
    assert_eq!(e.code, "E_RIG_LIMIT", "{e}");
    assert!(e.message.contains("rig-max-pixels"), "{e}");
    // a frame header declaring 40000 x 40000 (the rest of the file is the
    // small image's): refused from the header
    let mut big = j.clone();
    let sof = big
        .windows(2)
        .position(|p| p == [0xFF, 0xC0])
        .expect("a baseline frame header");
    big[sof + 5..sof + 9].copy_from_slice(&[0x9C, 0x40, 0x9C, 0x40]);
    let e = image::decode(&big, "big.jpg", &Limits::DEFAULT).unwrap_err();
    assert_eq!(e.code, "E_RIG_LIMIT", "{e}");
    assert!(e.to_string().lines().count() == 1);
    // not an image, a truncated JPEG, an empty file
    for bad in [
        &b"GIF89a"[..],
        &j[..j.len() / 3],
        &[][..],
        &[0xFF, 0xD8, 0xFF][..],
    ] {
        let e = image::decode(bad, "bad", &Limits::DEFAULT).unwrap_err();
        assert!(e.code == "E_RIG_IMAGE", "{e}");
    }
}

/// A PNG still reads as before.
#[test]
fn png_reads_as_before() {
    let (rgb, w, h) = shown();
    let rgba: Vec<u8> = rgb
        .chunks(3)
        .flat_map(|p| [p[0], p[1], p[2], 200])
        .collect();
    let png = re2d_output::png_encode::encode_rgba(&rgba, w as u32, h as u32).unwrap();
    assert_eq!(image::sniff(&png), Some(Format::Png));
    let img = image::decode(&png, "t.png", &Limits::DEFAULT).unwrap();
    assert_eq!(img.data, rgba);
}
