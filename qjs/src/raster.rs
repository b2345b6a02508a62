//! CPU triangle rasteriser behind the default `engine.submitMesh` (issue 3 §5).
//!
//! Input is the `draw` vertex layout of js-mesh.md §7/§8.4: 8 floats per
//! vertex `x, y, z, u, v, r, g, b`, three vertices per triangle, in pixel
//! coordinates (y down). Depth test: a fragment is kept when its depth is
//! **smaller** than the stored one (smaller is nearer). Colour = vertex
//! colour / 255 × texel (nearest sampling, UV 0..1 across the texture);
//! texel alpha blends "over"; alpha 0 is discarded without writing depth.

use std::path::{Path, PathBuf};

/// An RGBA8 texture.
#[derive(Clone, Debug)]
pub struct Texture {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Row-major RGBA8.
    pub rgba: Vec<u8>,
}

impl Texture {
    fn sample(&self, u: f32, v: f32) -> [f32; 4] {
        // `as i64` truncates; it equals `floor` wherever the clamp keeps the
        // value (below 0 both clamp to 0; NaN is 0 either way) and needs no libm call
        let tx = ((u * self.width as f32) as i64).clamp(0, self.width as i64 - 1) as usize;
        let ty = ((v * self.height as f32) as i64).clamp(0, self.height as i64 - 1) as usize;
        let o = (ty * self.width as usize + tx) * 4;
        let p = &self.rgba[o..o + 4];
        [p[0] as f32, p[1] as f32, p[2] as f32, p[3] as f32]
    }
}

/// `x.round().clamp(0.0, 255.0) as u8` (round half away from zero) without
/// the libm call for the values blending makes (`0 ≤ x < 2^31`): `x − ⌊x⌋`
/// is exact there.
#[inline(always)]
fn round_u8(x: f32) -> u8 {
    if (0.0..2_147_483_648.0).contains(&x) {
        let i = x as i32;
        let r = if x - i as f32 >= 0.5 { i + 1 } else { i };
        r.min(255) as u8
    } else {
        x.round().clamp(0.0, 255.0) as u8
    }
}

/// `x.floor() as i64` for finite `x`, without the libm call.
#[inline(always)]
fn floor_i64(x: f32) -> i64 {
    let i = x as i64;
    if (i as f32) > x {
        i.saturating_sub(1)
    } else {
        i
    }
}

/// `x.ceil() as i64` for finite `x`, without the libm call.
#[inline(always)]
fn ceil_i64(x: f32) -> i64 {
    let i = x as i64;
    if (i as f32) < x {
        i.saturating_add(1)
    } else {
        i
    }
}

/// An RGBA8 colour buffer with a float depth buffer.
#[derive(Clone, Debug)]
pub struct Framebuffer {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Row-major RGBA8, stride `4 · width`.
    pub rgba: Vec<u8>,
    /// One depth per pixel; `+∞` after a clear.
    pub depth: Vec<f32>,
}

impl Framebuffer {
    /// The bytes a `width × height` framebuffer holds (RGBA8 + f32 depth).
    pub fn bytes(width: u32, height: u32) -> u64 {
        width as u64 * height as u64 * 8
    }

    /// A transparent-black framebuffer, or an error when the memory for it
    /// cannot be had (never an abort).
    pub fn try_new(width: u32, height: u32) -> Result<Self, String> {
        let n = width as usize * height as usize;
        let mut rgba = Vec::new();
        let mut depth = Vec::new();
        rgba.try_reserve_exact(n * 4)
            .and_then(|_| depth.try_reserve_exact(n))
            .map_err(|_| {
                format!(
                    "a {width}x{height} framebuffer needs {} bytes: out of memory",
                    Self::bytes(width, height)
                )
            })?;
        rgba.resize(n * 4, 0);
        depth.resize(n, f32::INFINITY);
        Ok(Framebuffer {
            width,
            height,
            rgba,
            depth,
        })
    }

    /// A transparent-black framebuffer.
    pub fn new(width: u32, height: u32) -> Self {
        let n = width as usize * height as usize;
        Framebuffer {
            width,
            height,
            rgba: vec![0; n * 4],
            depth: vec![f32::INFINITY; n],
        }
    }

    /// Fill with a colour and reset depth.
    pub fn clear(&mut self, rgba: [u8; 4]) {
        for p in self.rgba.chunks_exact_mut(4) {
            p.copy_from_slice(&rgba);
        }
        self.depth.fill(f32::INFINITY);
    }

    /// Pixel at `(x, y)`.
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        let o = (y as usize * self.width as usize + x as usize) * 4;
        [
            self.rgba[o],
            self.rgba[o + 1],
            self.rgba[o + 2],
            self.rgba[o + 3],
        ]
    }

    /// Rasterise `count` unrolled vertices (`count / 3` triangles) from
    /// `verts`; returns the number of triangles that covered any pixel.
    pub fn draw_triangles(&mut self, verts: &[f32], count: usize, tex: Option<&Texture>) -> usize {
        let tris = (count / 3).min(verts.len() / 24);
        let mut drawn = 0;
        for t in 0..tris {
            let v = &verts[t * 24..t * 24 + 24];
            let vertex = |k: usize| -> [f32; 8] {
                let mut a = [0.0; 8];
                a.copy_from_slice(&v[8 * k..8 * k + 8]);
                a
            };
            if self.triangle([vertex(0), vertex(1), vertex(2)], tex) {
                drawn += 1;
            }
        }
        drawn
    }

    fn triangle(&mut self, v: [[f32; 8]; 3], tex: Option<&Texture>) -> bool {
        if v.iter().any(|p| !(p[0].is_finite() && p[1].is_finite())) {
            return false;
        }
        let (x0, y0, x1, y1, x2, y2) = (v[0][0], v[0][1], v[1][0], v[1][1], v[2][0], v[2][1]);
        let area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
        if area == 0.0 {
            return false;
        }
        // the pixels whose centre `p + 0.5` can lie in the triangle's bounds
        // (the same pixels are covered as with the wider floor/ceil box: `- 0.5`
        // is exact below 2^23, and a bound beyond that is off-screen or clamped)
        let minx = ceil_i64(x0.min(x1).min(x2) - 0.5).max(0);
        let miny = ceil_i64(y0.min(y1).min(y2) - 0.5).max(0);
        let maxx = floor_i64(x0.max(x1).max(x2) - 0.5).min(self.width as i64 - 1);
        let maxy = floor_i64(y0.max(y1).max(y2) - 0.5).min(self.height as i64 - 1);
        let mut any = false;
        let pts = [(x0, y0), (x1, y1), (x2, y2)];
        for py in miny..=maxy {
            // the row's span: where the centre line crosses the edges, widened by a pixel on
            // each side (the exact barycentric test below still decides every pixel, so the
            // span only skips pixels that test would reject: a long thin triangle no longer
            // costs its whole bounding box)
            let sy = py as f32 + 0.5;
            let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
            for k in 0..3 {
                let ((ax, ay), (bx, by)) = (pts[k], pts[(k + 1) % 3]);
                if (ay <= sy && sy <= by) || (by <= sy && sy <= ay) {
                    let x = if ay == by {
                        lo = lo.min(ax.min(bx));
                        ax.max(bx)
                    } else {
                        ax + (sy - ay) * (bx - ax) / (by - ay)
                    };
                    lo = lo.min(x);
                    hi = hi.max(x);
                }
            }
            let (rx0, rx1) = if lo <= hi {
                (
                    (floor_i64(lo - 0.5) - 1).max(minx),
                    (ceil_i64(hi - 0.5) + 1).min(maxx),
                )
            } else {
                (minx, maxx)
            };
            for px in rx0..=rx1 {
                let sx = px as f32 + 0.5;
                let w0 = ((x2 - x1) * (sy - y1) - (y2 - y1) * (sx - x1)) / area;
                let w1 = ((x0 - x2) * (sy - y2) - (y0 - y2) * (sx - x2)) / area;
                let w2 = 1.0 - w0 - w1;
                if w0 < 0.0 || w1 < 0.0 || w2 < 0.0 {
                    continue;
                }
                let at = |k: usize| w0 * v[0][k] + w1 * v[1][k] + w2 * v[2][k];
                let z = at(2);
                let i = py as usize * self.width as usize + px as usize;
                // NaN depth never passes
                if z.partial_cmp(&self.depth[i]) != Some(std::cmp::Ordering::Less) {
                    continue;
                }
                let texel = tex.map_or([255.0; 4], |t| t.sample(at(3), at(4)));
                if texel[3] <= 0.0 {
                    continue;
                }
                let a = texel[3] / 255.0;
                let o = i * 4;
                for (c, &tc) in texel.iter().take(3).enumerate() {
                    let src = (at(5 + c) / 255.0).clamp(0.0, 1.0) * tc;
                    let dst = self.rgba[o + c] as f32;
                    self.rgba[o + c] = round_u8(src * a + dst * (1.0 - a));
                }
                let da = self.rgba[o + 3] as f32 / 255.0;
                self.rgba[o + 3] = round_u8((a + da * (1.0 - a)) * 255.0);
                self.depth[i] = z;
                any = true;
            }
        }
        any
    }

    /// Draw `tex` scaled into the centre-based rectangle `(cx, cy, w, h)`:
    /// nearest sampling, colour multiplied by `tint` (RGBA 0–255), source
    /// alpha × tint alpha blended "over"; depth is neither tested nor written.
    pub fn blit(&mut self, tex: &Texture, cx: f64, cy: f64, w: f64, h: f64, tint: [u8; 4]) {
        if !(w.is_finite() && h.is_finite() && cx.is_finite() && cy.is_finite())
            || w == 0.0
            || h == 0.0
        {
            return;
        }
        let (left, top) = (cx - w.abs() / 2.0, cy - h.abs() / 2.0);
        let x0 = left.floor().max(0.0) as i64;
        let y0 = top.floor().max(0.0) as i64;
        let x1 = ((left + w.abs()).ceil() as i64).min(self.width as i64);
        let y1 = ((top + h.abs()).ceil() as i64).min(self.height as i64);
        for y in y0..y1 {
            let v = (y as f64 + 0.5 - top) / h.abs();
            if !(0.0..1.0).contains(&v) {
                continue;
            }
            let sy = ((v * tex.height as f64) as u32).min(tex.height - 1);
            for x in x0..x1 {
                let u = (x as f64 + 0.5 - left) / w.abs();
                if !(0.0..1.0).contains(&u) {
                    continue;
                }
                let sx = ((u * tex.width as f64) as u32).min(tex.width - 1);
                let so = (sy as usize * tex.width as usize + sx as usize) * 4;
                let src = &tex.rgba[so..so + 4];
                let a = src[3] as f64 / 255.0 * tint[3] as f64 / 255.0;
                if a <= 0.0 {
                    continue;
                }
                let o = (y as usize * self.width as usize + x as usize) * 4;
                for c in 0..3 {
                    let s = src[c] as f64 * tint[c] as f64 / 255.0;
                    let d = self.rgba[o + c] as f64;
                    self.rgba[o + c] = (s * a + d * (1.0 - a)).round().clamp(0.0, 255.0) as u8;
                }
                let da = self.rgba[o + 3] as f64 / 255.0;
                self.rgba[o + 3] = ((a + da * (1.0 - a)) * 255.0).round().clamp(0.0, 255.0) as u8;
            }
        }
    }
}

/// Write tightly packed RGBA8 pixels as a PNG file (the shared deterministic
/// encoder of [`re2d::png_io`], published atomically by [`re2d_output::publish`]).
/// The run's guards apply first: the path must be inside `--root`, the
/// encoder's worst-case buffers must fit the memory limit (a `RangeError`
/// naming `qjs-memory`), and the script's own files are inputs the output
/// may not replace.
pub fn write_png(
    ctx: &rquickjs::Ctx<'_>,
    what: &str,
    path: &Path,
    width: u32,
    height: u32,
    rgba: &[u8],
) -> rquickjs::Result<()> {
    use super::guard;
    let fail = |e: String| rquickjs::Exception::throw_message(ctx, &format!("{what}: {e}"));
    guard::confine_write(path).map_err(fail)?;
    guard::check_native(
        ctx,
        re2d_output::png_encode::encode_peak_bytes(width, height),
        what,
    )?;
    let bytes = re2d_output::png_encode::encode_rgba(rgba, width, height).map_err(fail)?;
    let inputs = guard::inputs();
    let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    re2d_output::publish::publish(path, &bytes, &inputs).map_err(|e| fail(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vtx(x: f32, y: f32, z: f32, rgb: [f32; 3]) -> [f32; 8] {
        [x, y, z, 0.0, 0.0, rgb[0], rgb[1], rgb[2]]
    }

    #[test]
    fn fills_triangle_and_depth_test_keeps_nearer() {
        let mut fb = Framebuffer::new(8, 8);
        fb.clear([0, 0, 0, 255]);
        let far: Vec<f32> = [
            vtx(0.0, 0.0, 0.9, [255.0, 0.0, 0.0]),
            vtx(8.0, 0.0, 0.9, [255.0, 0.0, 0.0]),
            vtx(0.0, 8.0, 0.9, [255.0, 0.0, 0.0]),
        ]
        .concat();
        let near: Vec<f32> = [
            vtx(0.0, 0.0, 0.1, [0.0, 0.0, 255.0]),
            vtx(8.0, 0.0, 0.1, [0.0, 0.0, 255.0]),
            vtx(0.0, 8.0, 0.1, [0.0, 0.0, 255.0]),
        ]
        .concat();
        assert_eq!(fb.draw_triangles(&near, 3, None), 1);
        assert_eq!(fb.draw_triangles(&far, 3, None), 0);
        assert_eq!(fb.pixel(1, 1), [0, 0, 255, 255]);
        assert_eq!(fb.pixel(7, 7), [0, 0, 0, 255]);
    }

    #[test]
    fn round_u8_is_round_clamp_cast() {
        let mut xs = vec![
            -1.0,
            -0.5,
            -0.0,
            0.0,
            0.49999997,
            0.5,
            1.5,
            2.5,
            254.49998,
            254.5,
            255.0,
            255.5,
            300.0,
            2_147_483_648.0,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        xs.extend((0..=1 << 16).map(|k| k as f32 / 256.0));
        for x in xs {
            assert_eq!(round_u8(x), x.round().clamp(0.0, 255.0) as u8, "{x}");
        }
    }

    #[test]
    fn floor_and_ceil_without_libm() {
        let mut xs = vec![
            -0.5,
            -0.0,
            0.0,
            0.49999997,
            0.5,
            -1.5,
            1e10,
            -1e10,
            9.3e18,
            -9.3e18,
            f32::MAX,
            f32::MIN,
            16_777_217.0,
        ];
        xs.extend((-4096..=4096).map(|k| k as f32 / 64.0 - 0.5));
        for x in xs {
            assert_eq!(floor_i64(x), x.floor() as i64, "floor {x}");
            assert_eq!(ceil_i64(x), x.ceil() as i64, "ceil {x}");
        }
    }

    #[test]
    fn texture_times_vertex_colour() {
        let tex = Texture {
            width: 2,
            height: 1,
            rgba: vec![200, 100, 50, 255, 0, 255, 0, 255],
        };
        let mut fb = Framebuffer::new(4, 4);
        let mut t: Vec<f32> = [
            vtx(0.0, 0.0, 0.5, [255.0, 255.0, 255.0]),
            vtx(4.0, 0.0, 0.5, [255.0, 255.0, 255.0]),
            vtx(0.0, 4.0, 0.5, [255.0, 255.0, 255.0]),
        ]
        .concat();
        // u = 0.25 everywhere → left texel; half-intensity red channel
        for k in 0..3 {
            t[k * 8 + 3] = 0.25;
            t[k * 8 + 5] = 127.5;
        }
        fb.draw_triangles(&t, 3, Some(&tex));
        assert_eq!(fb.pixel(0, 0), [100, 100, 50, 255]);
    }
}
