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
    out.fill(0);
    let two_pi = 2.0 * PI;
    for y in 0..V1_SIZE {
        for x in 0..V1_SIZE {
            let o = inv.apply([(x as f64 + 0.5) - 32.0, (y as f64 + 0.5) - 32.0, 100.0]);
            let mut nearest = 201.0;
            let mut chosen: Option<[u8; 4]> = None;
            for part in 0..3 {
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
