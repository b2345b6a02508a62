// re2d anim — integer box downscale with alpha weighting (thumbnails for docs and previews).

/// Shrinks a `w`×`h` RGBA8 image by an integer `factor` (≥ 1): every output
/// pixel averages a `factor`×`factor` block (the blocks of the last row and
/// column may be smaller). Colour is averaged weighted by alpha, so
/// transparent pixels do not darken edges (a fully transparent block becomes
/// 0,0,0,0); alpha is the plain mean. All means round half up. Returns the pixels and the new width and height
/// (`⌈w/factor⌉`, `⌈h/factor⌉`).
pub fn downscale(rgba: &[u8], w: u32, h: u32, factor: u32) -> Result<(Vec<u8>, u32, u32), String> {
    super::check_frames(&[rgba], w, h)?;
    if factor == 0 {
        return Err("downscale factor must be at least 1".into());
    }
    let (ow, oh) = (w.div_ceil(factor), h.div_ceil(factor));
    let (wu, f) = (w as usize, factor as usize);
    let mut out = Vec::with_capacity(ow as usize * oh as usize * 4);
    for oy in 0..oh as usize {
        for ox in 0..ow as usize {
            let (mut sum, mut alpha, mut n) = ([0u64; 3], 0u64, 0u64);
            for y in oy * f..((oy + 1) * f).min(h as usize) {
                for x in ox * f..((ox + 1) * f).min(wu) {
                    let p = &rgba[(y * wu + x) * 4..][..4];
                    let a = p[3] as u64;
                    for c in 0..3 {
                        sum[c] += p[c] as u64 * a;
                    }
                    alpha += a;
                    n += 1;
                }
            }
            for s in sum {
                out.push(if alpha == 0 {
                    0
                } else {
                    ((s + alpha / 2) / alpha) as u8
                });
            }
            out.push(((alpha + n / 2) / n) as u8);
        }
    }
    Ok((out, ow, oh))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn averages_blocks_weighted_by_alpha() {
        // 3×2 image, factor 2 → 2×1: block [0..2)×[0..2) and the 1-wide column 2
        #[rustfmt::skip]
        let px = [
            200, 0, 0, 255,   0, 0, 0, 0,     10, 20, 30, 255,
            100, 0, 0, 255,   0, 255, 0, 128, 30, 40, 50, 0,
        ];
        let (out, w, h) = downscale(&px, 3, 2, 2).unwrap();
        assert_eq!((w, h), (2, 1));
        // R: (200·255 + 100·255) / (255 + 255 + 128) = 119.9 → 120;
        // G: 255·128 / 638 = 51.2 → 51; A: (255 + 0 + 255 + 128) / 4 = 159.5 → 160
        assert_eq!(&out[..4], &[120, 51, 0, 160]);
        // the transparent pixel adds nothing to the colour: A (255 + 0) / 2 → 128
        assert_eq!(&out[4..], &[10, 20, 30, 128]);
        // factor 1 keeps every pixel, except that a fully transparent one becomes 0,0,0,0
        let mut same = px.to_vec();
        same[20..24].fill(0);
        assert_eq!(downscale(&px, 3, 2, 1).unwrap().0, same);
        let (clear, _, _) = downscale(&[0; 16], 2, 2, 2).unwrap();
        assert_eq!(clear, [0, 0, 0, 0]);
        assert!(downscale(&px, 3, 2, 0).is_err());
        assert!(downscale(&px, 2, 2, 2).is_err());
    }
}
