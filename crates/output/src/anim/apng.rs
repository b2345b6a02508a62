// re2d anim — animated PNG (APNG) through the `png` crate.

use super::Timing;

/// Encodes `frames` (each `w`×`h` RGBA8) as an animated PNG: 8-bit RGBA, one
/// `fcTL` per frame with `timing.delay`, `acTL` with `timing.plays` (0 =
/// forever). Every frame covers the whole canvas and replaces the previous
/// one (blend `SOURCE`, dispose `NONE`); the first frame is also the default
/// image, so a viewer without APNG support shows it as a still PNG. Frames
/// are compressed by the `png` crate (adaptive filters, zlib level 6).
/// Equal input gives equal bytes.
pub fn encode_apng(frames: &[&[u8]], w: u32, h: u32, timing: Timing) -> Result<Vec<u8>, String> {
    super::check_frames(frames, w, h)?;
    let n = u32::try_from(frames.len()).map_err(|_| "too many frames")?;
    let err = |e: png::EncodingError| format!("APNG encoding failed: {e}");
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Balanced);
    enc.set_filter(png::Filter::Adaptive);
    enc.set_animated(n, timing.plays).map_err(err)?;
    enc.set_frame_delay(timing.delay.num, timing.delay.den)
        .map_err(err)?;
    enc.set_blend_op(png::BlendOp::Source).map_err(err)?;
    enc.set_dispose_op(png::DisposeOp::None).map_err(err)?;
    let mut writer = enc.write_header().map_err(err)?;
    for f in frames {
        writer.write_image_data(f).map_err(err)?;
    }
    writer.finish().map_err(err)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::Delay;
    use super::*;

    /// Decodes every frame of an APNG with the `png` crate's decoder:
    /// (plays, [(delay num, den, RGBA)]).
    fn decode(apng: &[u8]) -> (u32, Vec<(u16, u16, Vec<u8>)>) {
        let mut r = png::Decoder::new(std::io::Cursor::new(apng))
            .read_info()
            .unwrap();
        let actl = r.info().animation_control.unwrap();
        let mut frames = Vec::new();
        let mut buf = vec![0; r.output_buffer_size().unwrap()];
        for _ in 0..actl.num_frames {
            r.next_frame(&mut buf).unwrap();
            let fc = r.info().frame_control.unwrap();
            assert_eq!((fc.x_offset, fc.y_offset), (0, 0));
            assert_eq!(fc.blend_op, png::BlendOp::Source);
            frames.push((fc.delay_num, fc.delay_den, buf.clone()));
        }
        assert!(
            r.next_frame(&mut buf).is_err(),
            "more frames than acTL says"
        );
        (actl.num_plays, frames)
    }

    #[test]
    fn frames_delays_and_plays_decode_back() {
        let (w, h) = (5u32, 3u32);
        let frames: Vec<Vec<u8>> = (0..4u8)
            .map(|i| {
                (0..w * h * 4)
                    .map(|j| (j as u8).wrapping_mul(i + 1))
                    .collect()
            })
            .collect();
        let refs: Vec<&[u8]> = frames.iter().map(|f| &f[..]).collect();
        let t = Timing {
            delay: Delay::from_fps(12.5).unwrap(),
            plays: 0,
        };
        let a = encode_apng(&refs, w, h, t).unwrap();
        assert_eq!(a, encode_apng(&refs, w, h, t).unwrap(), "deterministic");
        let (plays, got) = decode(&a);
        assert_eq!(plays, 0);
        assert_eq!(got.len(), 4);
        for (g, f) in got.iter().zip(&frames) {
            assert_eq!((g.0, g.1), (80, 1000));
            assert!(&g.2 == f);
        }
        let once = Timing {
            delay: Delay::from_fps(24.0).unwrap(),
            plays: 1,
        };
        let (plays, got) = decode(&encode_apng(&refs[..1], w, h, once).unwrap());
        assert_eq!((plays, got.len(), got[0].0, got[0].1), (1, 1, 1, 24));
    }

    #[test]
    fn bad_frames_are_refused() {
        let t = Timing {
            delay: Delay { num: 1, den: 10 },
            plays: 0,
        };
        assert!(encode_apng(&[], 2, 2, t).is_err());
        assert!(encode_apng(&[&[0; 16], &[0; 15]], 2, 2, t).is_err());
        assert!(encode_apng(&[&[]], 0, 0, t).is_err());
    }
}
