// re2d — v1 atlas layout, pose normalisation and 64 px head raster (spec: rotsprite-v1.md).
//
//! The legacy head-only renderer: one orthographic ray per output pixel
//! against a built-in ellipsoid head and two triangular-prism ears, copying
//! exactly one atlas texel per covered pixel.

use super::RenderError;
use super::image::AtlasImage;
use crate::math::{PI, fmax, fmin, normalise_angles};

/// Side of the v1 raster output in pixels.
pub const V1_SIZE: usize = 64;
/// Bytes of a v1 raster output (64·64·4).
pub const V1_OUT_BYTES: usize = V1_SIZE * V1_SIZE * 4;

/// Checks the v1 atlas geometry (§2): square, a multiple of 8, 64..=2048.
/// Returns the cell size N = w/8.
pub fn layout(w: i32, h: i32) -> Option<i32> {
    if w != h || w % 8 != 0 || w < 64 || w > 2048 {
        return None;
    }
    Some(w / 8)
}

/// Pose normalisation (§3): yaw wrapped to [−180, 180), pitch clamped to
/// [−75, 75]; `None` for non-finite input.
pub fn angles(yaw: f64, pitch: f64) -> Option<(f64, f64)> {
    normalise_angles(yaw, pitch)
}

/// Ear half-spaces `n·p <= c` in test order (§5.2).
const EAR_PLANES: [([f64; 3], f64); 5] = [
    ([-18.0, -3.0, 0.0], 315.0),
    ([15.0, -9.0, 0.0], 48.0),
    ([3.0, 12.0, 0.0], -156.0),
    ([0.0, 0.0, 1.0], 3.0),
    ([0.0, 0.0, -1.0], 3.0),
];

/// Inverse posing R⁻¹ (§6.2 step 3).
struct InversePose {
    cy: f64,
    sy: f64,
    cp: f64,
    sp: f64,
}

impl InversePose {
    fn apply(&self, p: [f64; 3]) -> [f64; 3] {
        let y1 = self.cp * p[1] + self.sp * p[2];
        let z1 = (-self.sp) * p[1] + self.cp * p[2];
        [
            self.cy * p[0] - self.sy * z1,
            y1,
            self.sy * p[0] + self.cy * z1,
        ]
    }
}

/// Bounding spheres (centre, squared radius) of the parts in `raster`'s
/// order (head, `ear_hit(1.0)`, `ear_hit(-1.0)`) that let a pixel skip a
/// part's exact test. The head (semi-axes 14, 18, 12) lies within radius 18 of the
/// origin, tested with 19; the left ear prism (triangle (−13,−27), (−4,−12),
/// (−16,−9) of the first three planes, |z| ≤ 3) within √134 ≈ 11.6 of
/// (−11, −16, 0), tested with 13; the right ear mirrors x. A ray line that
/// stays outside a sphere misses its part by more than a unit, far beyond
/// the exact test's rounding (~1e-12), so that test would return `None`:
/// skipping it leaves every output byte unchanged (checked against the
/// plain per-pixel loop in the tests) and spares most pixels their ~17
/// divisions.
const PART_SPHERES: [([f64; 3], f64); 3] = [
    ([0.0, 0.0, 0.0], 19.0 * 19.0),
    ([-11.0, -16.0, 0.0], 13.0 * 13.0),
    ([11.0, -16.0, 0.0], 13.0 * 13.0),
];

/// Whether the line `o + t·d` passes farther than √r2 from `c`
/// (`|w|²·|d|² − (w·d)² > r2·|d|²` with `w = o − c`, no division; `dd` is
/// `|d|²`, the same for every pixel of a frame).
fn line_misses(o: [f64; 3], d: [f64; 3], dd: f64, (c, r2): ([f64; 3], f64)) -> bool {
    let w = [o[0] - c[0], o[1] - c[1], o[2] - c[2]];
    let ww = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
    let wd = w[0] * d[0] + w[1] * d[1] + w[2] * d[2];
    ww * dd - wd * wd > r2 * dd
}

fn head_hit(o: [f64; 3], d: [f64; 3]) -> Option<f64> {
    let a = [o[0] / 14.0, o[1] / 18.0, o[2] / 12.0];
    let b = [d[0] / 14.0, d[1] / 18.0, d[2] / 12.0];
    let qa = b[0] * b[0] + b[1] * b[1] + b[2] * b[2];
    let qb = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let qc = a[0] * a[0] + a[1] * a[1] + a[2] * a[2] - 1.0;
    let disc = qb * qb - qa * qc;
    if disc < 0.0 {
        return None;
    }
    let t = (-qb - disc.sqrt()) / qa;
    (t >= 0.0).then_some(t)
}

fn ear_hit(s: f64, o: [f64; 3], d: [f64; 3]) -> Option<f64> {
    let o = [s * o[0], o[1], o[2]];
    let d = [s * d[0], d[1], d[2]];
    let (mut lo, mut hi) = (0.0f64, 200.0f64);
    for (n, c) in EAR_PLANES {
        let p = n[0] * o[0] + n[1] * o[1] + n[2] * o[2] - c;
        let v = n[0] * d[0] + n[1] * d[1] + n[2] * d[2];
        if v.abs() < 1e-12 {
            if p <= 0.0 {
                continue;
            }
            return None;
        }
        let tau = (-p) / v;
        if v < 0.0 {
            lo = fmax(lo, tau);
        } else {
            hi = fmin(hi, tau);
        }
        if lo > hi {
            return None;
        }
    }
    Some(lo)
}

/// `texel(q, m)` of §6.6: `floor(q·m)` clamped into `[0, m)`.
fn texel(q: f64, m: i32) -> i64 {
    let i = (q * m as f64).floor() as i64;
    i.clamp(0, m as i64 - 1)
}

/// Renders the 64×64 head and ears of a v1 atlas (§6).
///
/// `out` must hold at least [`V1_OUT_BYTES`]; exactly that many bytes are
/// written on success and none on error.
pub fn raster(
    img: &AtlasImage<'_>,
    yaw: f64,
    pitch: f64,
    out: &mut [u8],
) -> Result<(), RenderError> {
    raster_with(img, yaw, pitch, out, true)
}

/// [`raster`], with or without the bounding-sphere skip (`false` is the
/// plain loop of §6, kept to check that the skip changes nothing).
fn raster_with(
    img: &AtlasImage<'_>,
    yaw: f64,
    pitch: f64,
    out: &mut [u8],
    skip: bool,
) -> Result<(), RenderError> {
    let n = layout(img.w, img.h).ok_or(RenderError::BadSize)?;
    let (yaw, pitch) = angles(yaw, pitch).ok_or(RenderError::NonFinite)?;
    let out = out.get_mut(..V1_OUT_BYTES).ok_or(RenderError::BadSize)?;
    let (a, b) = (yaw * PI / 180.0, pitch * PI / 180.0);
    let inv = InversePose {
        cy: a.cos(),
        sy: a.sin(),
        cp: b.cos(),
        sp: b.sin(),
    };
    let d = inv.apply([0.0, 0.0, -1.0]);
    let dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    out.fill(0);
    let two_pi = 2.0 * PI;
    for y in 0..V1_SIZE {
        for x in 0..V1_SIZE {
            let o = inv.apply([(x as f64 + 0.5) - 32.0, (y as f64 + 0.5) - 32.0, 100.0]);
            let mut nearest = 201.0;
            let mut chosen: Option<[u8; 4]> = None;
            for part in 0..3 {
                if skip && line_misses(o, d, dd, PART_SPHERES[part]) {
                    continue;
                }
                let t = match part {
                    0 => head_hit(o, d),
                    1 => ear_hit(1.0, o, d),
                    _ => ear_hit(-1.0, o, d),
                };
                let Some(t) = t else { continue };
                if t >= nearest {
                    continue;
                }
                let p = [o[0] + d[0] * t, o[1] + d[1] * t, o[2] + d[2] * t];
                let (col, row) = if part == 0 {
                    let u0 = 0.5 + (p[0] / 14.0).atan2(p[2] / 12.0) / two_pi;
                    let u = u0 - u0.floor();
                    let v = fmax(-1.0, fmin(1.0, (-p[1]) / 18.0)).acos() / PI;
                    (texel(u, 4 * n), texel(v, 2 * n))
                } else {
                    let (px, base) = if part == 1 {
                        (p[0], 4 * n)
                    } else {
                        (-p[0], 5 * n)
                    };
                    let col = base as i64 + texel((px + 16.0) / 12.0, n);
                    let row =
                        if p[2] < 0.0 { n as i64 } else { 0 } + texel((p[1] + 27.0) / 18.0, n);
                    (col, row)
                };
                let c = img.pixel_at(col, row);
                if c[3] == 0 {
                    continue;
                }
                chosen = Some(c);
                nearest = t;
            }
            if let Some(c) = chosen {
                out[(y * V1_SIZE + x) * 4..][..4].copy_from_slice(&c);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bounding-sphere skip is byte-identical to the plain loop: 400
    /// poses (yaw over the full circle, pitch to the clamps, values near
    /// the wrap and the clamp) on an opaque atlas whose texels all differ,
    /// so that any pixel the skip dropped or kept wrongly shows.
    #[test]
    fn sphere_skip_changes_no_pixel() {
        let side = 64usize;
        let mut px = vec![0u8; side * side * 4];
        for (i, p) in px.chunks_mut(4).enumerate() {
            p.copy_from_slice(&[i as u8, (i >> 8) as u8, 7, 255]);
        }
        let img = AtlasImage::new(&px, side as i32, side as i32, 4 * side as i32).unwrap();
        let (mut a, mut b) = (vec![0u8; V1_OUT_BYTES], vec![0u8; V1_OUT_BYTES]);
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        const POSES: usize = 400;
        let mut covered = 0usize;
        for i in 0..POSES {
            let (yaw, pitch) = match i % 4 {
                0 => (next() * 720.0 - 360.0, next() * 180.0 - 90.0),
                1 => (180.0 - next() * 1e-9, 75.0 - next() * 1e-9),
                2 => ((i / 4) as f64 * 3.7, ((i / 4) % 31) as f64 * 5.0 - 75.0),
                _ => (next() * 360.0 - 180.0, next() * 10.0 - 5.0),
            };
            raster_with(&img, yaw, pitch, &mut a, true).unwrap();
            raster_with(&img, yaw, pitch, &mut b, false).unwrap();
            assert!(a == b, "pose ({yaw}, {pitch})");
            covered += a.chunks(4).filter(|p| p[3] != 0).count();
        }
        // The poses do draw: a head covers hundreds of pixels.
        assert!(covered > POSES * 400, "covered {covered}");
    }
}
