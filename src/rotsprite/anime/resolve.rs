// re2d — smooth synthesis, stage 3: 2×2 resolve and colour extrusion (spec: rotsprite-render.md §8.5–8.6).
//
//! Both work on a range of output rows, so row bands can run them in
//! parallel: the resolve of a band reads only its own supersample rows; the
//! extrusion reads the finished `resolved` snapshot of every band (one row
//! above and below its own) and writes only its own output rows.

use super::super::fill::{copy_bytes, fill_f32, zero_bytes};

/// The output rectangle of §8.5 step 4 for the frame `bounds`, half-open.
pub(super) fn region(bounds: [i32; 4]) -> [usize; 4] {
    [
        (bounds[0] / 2) as usize,
        (bounds[1] / 2) as usize,
        ((bounds[2] + 1) / 2) as usize,
        ((bounds[3] + 1) / 2) as usize,
    ]
}

/// Supersample rows 2·y0..2·y1 of the frame (N = 2·size wide).
pub(super) struct Samples<'a> {
    pub depth: &'a [f32],
    pub rgba: &'a [u8],
}

/// §8.5 steps 2, 5 and 6 for output rows `y0..y1` (`out`, `sample_depth`
/// and `resolved` hold exactly those rows; `samples` their supersamples).
#[allow(clippy::too_many_arguments)]
pub(super) fn resolve_rows(
    samples: &Samples<'_>,
    rows: (usize, usize),
    region: [usize; 4],
    size: usize,
    depth_scale: f64,
    out: &mut [u8],
    sample_depth: &mut [f32],
    resolved: &mut [u8],
) {
    zero_bytes(out);
    fill_f32(sample_depth, 0.0);
    let n = 2 * size;
    let [x0, ry0, x1, ry1] = region;
    let (ya, yb) = (ry0.max(rows.0), ry1.min(rows.1));
    for y in ya..yb {
        let s = 2 * (y - rows.0) * n;
        let (d0, d1) = (&samples.depth[s..s + n], &samples.depth[s + n..s + 2 * n]);
        let (c0, c1) = (
            &samples.rgba[4 * s..4 * (s + n)],
            &samples.rgba[4 * (s + n)..4 * (s + 2 * n)],
        );
        let o = (y - rows.0) * size;
        let out_row = &mut out[4 * (o + x0)..4 * (o + x1)];
        let depth_row = &mut sample_depth[o + x0..o + x1];
        for (i, (px, sd)) in out_row
            .chunks_exact_mut(4)
            .zip(depth_row.iter_mut())
            .enumerate()
        {
            let x = x0 + i;
            let top: [u8; 8] = c0[8 * x..8 * x + 8].try_into().unwrap();
            let bottom: [u8; 8] = c1[8 * x..8 * x + 8].try_into().unwrap();
            // No covered supersample: the pixel stays (0, 0, 0, 0) and its
            // sample depth 0, as the full computation would leave them.
            const ALPHAS: u64 = 0xFF00_0000_FF00_0000;
            if (u64::from_le_bytes(top) | u64::from_le_bytes(bottom)) & ALPHAS == 0 {
                continue;
            }
            let mut sum = [0u32; 3];
            let mut alpha = 0u32;
            let mut nearest = -1e9f32;
            for (c, d) in [
                (&top[..4], d0[2 * x]),
                (&top[4..], d0[2 * x + 1]),
                (&bottom[..4], d1[2 * x]),
                (&bottom[4..], d1[2 * x + 1]),
            ] {
                let a = c[3] as u32;
                alpha += a;
                for k in 0..3 {
                    sum[k] += c[k] as u32 * a;
                }
                if a != 0 && d > nearest {
                    nearest = d;
                }
            }
            for k in 0..3 {
                px[k] = ((sum[k] + alpha / 2) / alpha) as u8;
            }
            *sd = (nearest as f64 * depth_scale) as f32;
            px[3] = ((alpha + 2) / 4) as u8;
        }
    }
    copy_bytes(resolved, out);
}

/// §8.6 for output rows `y0..y1`: `out` holds those rows, `resolved` the
/// whole pre-extrusion image.
pub(super) fn extrude_rows(
    resolved: &[u8],
    rows: (usize, usize),
    region: [usize; 4],
    size: usize,
    out: &mut [u8],
) {
    let [mut x0, mut y0, mut x1, mut y1] = region;
    if x0 > 0 {
        x0 -= 1;
    }
    if y0 > 0 {
        y0 -= 1;
    }
    if x1 < size {
        x1 += 1;
    }
    if y1 < size {
        y1 += 1;
    }
    let (ya, yb) = (y0.max(rows.0), y1.min(rows.1));
    let row = |y: usize| &resolved[4 * y * size..4 * (y + 1) * size];
    // Per column, the largest alpha of the three rows: a transparent pixel
    // whose three columns are all 0 has no candidate and is skipped early.
    let mut column = [0u8; 512 + 2];
    for y in ya..yb {
        let above = (y > 0).then(|| row(y - 1));
        let here = row(y);
        let below = (y + 1 < size).then(|| row(y + 1));
        let (ca, cb) = (x0.saturating_sub(1), (x1 + 1).min(size));
        for x in ca..cb {
            let mut a = here[4 * x + 3];
            for r in [above, below].into_iter().flatten() {
                a = a.max(r[4 * x + 3]);
            }
            // column[x + 1] holds column x (column[0] stands for x = −1).
            column[x + 1] = a;
        }
        let o = (y - rows.0) * size;
        let out_row = &mut out[4 * o..4 * (o + size)];
        for x in x0..x1 {
            if out_row[4 * x + 3] != 0 || column[x] | column[x + 1] | column[x + 2] == 0 {
                continue;
            }
            let (xa, xb) = (x.saturating_sub(1), (x + 2).min(size));
            let mut best: Option<&[u8]> = None;
            for r in [above, Some(here), below].into_iter().flatten() {
                for c in r[4 * xa..4 * xb].chunks_exact(4) {
                    if c[3] != 0 && best.is_none_or(|b| c[3] > b[3]) {
                        best = Some(c);
                    }
                }
            }
            if let Some(c) = best {
                out_row[4 * x..4 * x + 3].copy_from_slice(&c[..3]);
            }
        }
    }
}
