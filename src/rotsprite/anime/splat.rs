// re2d — smooth synthesis, stage 2b: the depth-tested disc of an isolated point (spec: rotsprite-render.md §8.4 step 9).

use super::Band;
use super::project::Splat;
use crate::math::colour_loses;

/// Draws the rows of disc `s` that lie in `band`.
pub(super) fn splat(band: &mut Band<'_>, s: &Splat) {
    let ya = (s.by0 as i32).max(band.r0);
    let yb = (s.by1 as i32).min(band.r1);
    let (x0, x1) = (s.bx0 as usize, s.bx1 as usize);
    for y in ya..yb {
        let ey = y as f64 + 0.5 - s.s[1];
        let row = (y - band.r0) as usize * band.n;
        let depth = &mut band.depth[row + x0..row + x1];
        let distance = &mut band.distance[row + x0..row + x1];
        let rgba = &mut band.rgba[(row + x0) * 4..(row + x1) * 4];
        for (i, x) in (x0..x1).enumerate() {
            let ex = x as f64 + 0.5 - s.s[0];
            let d = ex * ex + ey * ey;
            if d > s.r2 {
                continue;
            }
            let dd = depth[i] as f64;
            if s.s[2] < dd - 0.001 {
                continue;
            }
            let px: &mut [u8; 4] = (&mut rgba[i * 4..i * 4 + 4]).try_into().unwrap();
            if (s.s[2] - dd).abs() <= 0.001 {
                let q = distance[i] as f64;
                if d > q + 1e-6 {
                    continue;
                }
                if (d - q).abs() <= 1e-6 && colour_loses(s.rgba, *px) {
                    continue;
                }
            }
            depth[i] = s.s[2] as f32;
            distance[i] = d as f32;
            *px = s.rgba;
        }
    }
}
