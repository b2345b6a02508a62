// re2d — smooth 256/512 px "anime" synthesis, bilinear quad fill and workspace (spec: rotsprite-render.md §7–9).
//
//! Points are rendered at 2× supersampling: patch points as bilinear quads
//! (`quad_fill`), isolated points as depth-tested discs. The supersamples
//! are resolved 2×2 → 1 with alpha weighting, then colour is extruded one
//! pixel into transparent neighbours. All buffers live in a reusable
//! workspace; only the rectangle touched by the previous frame is reset.

use super::rig::{Rig, View, anime_precull, facing, legacy_xform, model_xform, selected};
use super::types::{R2DRotModelPose, R2DRotPoint};
use super::{Frame, RenderError};
use crate::math::{colour_loses, fmax, fmin, trunc_i32};

/// The buffers of a smooth render of output size `S` (supersample side N = 2S).
pub struct WorkspaceBufs<'a> {
    /// N·N supersample depths.
    pub depth: &'a mut [f32],
    /// N·N supersample splat distances.
    pub distance: &'a mut [f32],
    /// S·S per-output-pixel depth.
    pub sample_depth: &'a mut [f32],
    /// N·N·4 supersample colours.
    pub rgba: &'a mut [u8],
    /// S·S·4 output before colour extrusion.
    pub resolved: &'a mut [u8],
    /// Supersample rectangle touched by the last frame (half-open).
    pub bounds: &'a mut [i32; 4],
}

/// An owned, reusable workspace for the Rust API.
#[derive(Default)]
pub struct AnimeWorkspace {
    depth: Vec<f32>,
    distance: Vec<f32>,
    sample_depth: Vec<f32>,
    rgba: Vec<u8>,
    resolved: Vec<u8>,
    bounds: [i32; 4],
    size: usize,
}

impl AnimeWorkspace {
    /// An empty workspace (buffers are allocated by the first render).
    pub fn new() -> Self {
        Self::default()
    }

    /// Output size S of the current buffers (0 when none).
    pub fn size(&self) -> usize {
        self.size
    }

    /// Supersample bounds of the last frame.
    pub fn bounds(&self) -> [i32; 4] {
        self.bounds
    }

    /// Per-output-pixel depth of the last frame (S·S).
    pub fn sample_depth(&self) -> &[f32] {
        &self.sample_depth
    }

    /// Output of the last frame before colour extrusion (S·S·4).
    pub fn resolved(&self) -> &[u8] {
        &self.resolved
    }

    /// Renders an S×S image (S = 256 or 512) into `out` (S·S·4 bytes).
    pub fn render(
        &mut self,
        points: &[R2DRotPoint],
        frame: &Frame<'_>,
        size: usize,
        out: &mut [u8],
    ) -> Result<(), RenderError> {
        check_size(size, out)?;
        if self.size != size {
            let n = 2 * size;
            *self = AnimeWorkspace::default();
            *self = AnimeWorkspace {
                depth: try_filled(n * n, 0.0)?,
                distance: try_filled(n * n, 0.0)?,
                sample_depth: try_filled(size * size, 0.0)?,
                rgba: try_filled(n * n * 4, 0)?,
                resolved: try_filled(size * size * 4, 0)?,
                bounds: [0, 0, n as i32, n as i32],
                size,
            };
        }
        let bufs = WorkspaceBufs {
            depth: &mut self.depth,
            distance: &mut self.distance,
            sample_depth: &mut self.sample_depth,
            rgba: &mut self.rgba,
            resolved: &mut self.resolved,
            bounds: &mut self.bounds,
        };
        render(points, frame, size, out, bufs)
    }
}

/// A vector of `n` copies of `v`, or `OutOfMemory` instead of aborting.
fn try_filled<T: Clone>(n: usize, v: T) -> Result<Vec<T>, RenderError> {
    let mut out = Vec::new();
    out.try_reserve_exact(n)
        .map_err(|_| RenderError::OutOfMemory)?;
    out.resize(n, v);
    Ok(out)
}

fn check_size(size: usize, out: &[u8]) -> Result<(), RenderError> {
    if size != 256 && size != 512 {
        return Err(RenderError::BadSize);
    }
    if out.len() < size * size * 4 {
        return Err(RenderError::BufferTooSmall);
    }
    Ok(())
}

/// A quad vertex: supersample position and corner colour.
#[derive(Clone, Copy)]
struct Vertex {
    p: [f64; 3],
    rgba: [u8; 4],
}

/// The supersample target of one frame.
struct Target<'a> {
    depth: &'a mut [f32],
    distance: &'a mut [f32],
    rgba: &'a mut [u8],
    bounds: [i32; 4],
    n: usize,
}

#[inline]
fn cross(a1: f64, a2: f64, b1: f64, b2: f64) -> f64 {
    a1 * b2 - a2 * b1
}

#[inline]
fn get4(b: &[u8], i: usize) -> [u8; 4] {
    [b[i], b[i + 1], b[i + 2], b[i + 3]]
}

/// `QUAD_FILL` (§7): rasterises the bilinear patch `V0 + b·u + c·v + d·u·v`.
fn quad_fill(t: &mut Target<'_>, v: &[Vertex; 4], p: &R2DRotPoint, one_sided: bool) {
    let s = t.n;
    let (mut minx, mut miny) = (v[0].p[0], v[0].p[1]);
    let (mut maxx, mut maxy) = (minx, miny);
    for q in &v[1..] {
        minx = fmin(minx, q.p[0]);
        maxx = fmax(maxx, q.p[0]);
        miny = fmin(miny, q.p[1]);
        maxy = fmax(maxy, q.p[1]);
    }
    let x0 = trunc_i32(fmax(0.0, minx.floor()));
    let x1 = trunc_i32(fmin((s - 1) as f64, maxx.ceil()));
    let y0 = trunc_i32(fmax(0.0, miny.floor()));
    let y1 = trunc_i32(fmin((s - 1) as f64, maxy.ceil()));
    if x0 > x1 || y0 > y1 {
        return;
    }
    // A minimum at or beyond 2^31 converts to −2^31: the engine would index
    // outside its buffers there (outside the contract); draw nothing.
    if x0 < 0 || y0 < 0 {
        return;
    }
    t.bounds[0] = t.bounds[0].min(x0);
    t.bounds[1] = t.bounds[1].min(y0);
    t.bounds[2] = t.bounds[2].max(x1 + 1);
    t.bounds[3] = t.bounds[3].max(y1 + 1);
    let [v0, v1, v2, v3] = *v;
    let bx = v1.p[0] - v0.p[0];
    let by = v1.p[1] - v0.p[1];
    let cx = v2.p[0] - v0.p[0];
    let cy = v2.p[1] - v0.p[1];
    let dx = v3.p[0] - v1.p[0] - v2.p[0] + v0.p[0];
    let dy = v3.p[1] - v1.p[1] - v2.p[1] + v0.p[1];
    let a = -cross(bx, by, dx, dy);
    let bc = cross(bx, by, cx, cy);
    let eps = 1e-10
        * fmax(
            1.0,
            (bx.abs() + by.abs() + cx.abs() + cy.abs()) * (dx.abs() + dy.abs() + 1.0),
        );
    let hi = 1.0 + 1e-7;
    let textured = p.textured.get();
    for y in y0..=y1 {
        for x in x0..=x1 {
            let rx = x as f64 + 0.5 - v0.p[0];
            let ry = y as f64 + 0.5 - v0.p[1];
            let b = cross(rx, ry, dx, dy) - bc;
            let c = cross(rx, ry, cx, cy);
            let mut roots = [0.0f64; 2];
            let mut nroots = 0;
            if a.abs() <= eps {
                if b.abs() > eps {
                    roots[0] = -c / b;
                    nroots = 1;
                }
            } else {
                let disc = b * b - 4.0 * a * c;
                if disc >= 0.0 {
                    let q = -0.5 * (b + disc.sqrt().copysign(b));
                    if q.abs() > eps {
                        roots = [q / a, c / q];
                        nroots = 2;
                    } else {
                        roots[0] = -b / (2.0 * a);
                        nroots = 1;
                    }
                }
            }
            for &root in &roots[..nroots] {
                let mut u = root;
                if u < -1e-7 || u > hi {
                    continue;
                }
                let vx = cx + dx * u;
                let vy = cy + dy * u;
                let den = vx * vx + vy * vy;
                if den < 1e-14 {
                    continue;
                }
                let mut vv = ((rx - bx * u) * vx + (ry - by * u) * vy) / den;
                if vv < -1e-7 || vv > hi {
                    continue;
                }
                let ex = bx * u + cx * vv + dx * u * vv - rx;
                let ey = by * u + cy * vv + dy * u * vv - ry;
                if ex * ex + ey * ey > 1e-8 {
                    continue;
                }
                if one_sided && cross(bx + dx * vv, by + dy * vv, vx, vy) <= eps {
                    continue;
                }
                u = fmax(0.0, fmin(1.0, u));
                vv = fmax(0.0, fmin(1.0, vv));
                let w = [
                    (1.0 - u) * (1.0 - vv),
                    u * (1.0 - vv),
                    (1.0 - u) * vv,
                    u * vv,
                ];
                let mut z = 0.0;
                for j in 0..4 {
                    z += w[j] * v[j].p[2];
                }
                let n = y as usize * s + x as usize;
                let d = t.depth[n] as f64;
                if z < d - 0.001 {
                    continue;
                }
                let colour = if textured {
                    let tu = u * 4.0;
                    let tv = vv * 4.0;
                    let ix = trunc_i32(fmin(3.0, tu.floor()));
                    let iy = trunc_i32(fmin(3.0, tv.floor()));
                    let fx = tu - ix as f64;
                    let fy = tv - iy as f64;
                    let wt = [
                        (1.0 - fx) * (1.0 - fy),
                        fx * (1.0 - fy),
                        (1.0 - fx) * fy,
                        fx * fy,
                    ];
                    let mut alpha = 0.0;
                    let mut sum = [0.0f64; 3];
                    for j in 0..4 {
                        let tx = ix as usize + j % 2;
                        let ty = iy as usize + j / 2;
                        let c = get4(&p.material, (ty * 5 + tx) * 4);
                        let wa = wt[j] * c[3] as f64;
                        alpha += wa;
                        for k in 0..3 {
                            sum[k] += wa * c[k] as f64;
                        }
                    }
                    if alpha < 128.0 {
                        continue;
                    }
                    let ch = |k: usize| fmin(255.0, (sum[k] / alpha).round()) as u8;
                    [ch(0), ch(1), ch(2), 255]
                } else {
                    let mut col = [0u8; 4];
                    for (k, out) in col.iter_mut().enumerate() {
                        let mut value = 0.0;
                        for j in 0..4 {
                            value += w[j] * v[j].rgba[k] as f64;
                        }
                        *out = fmax(0.0, fmin(255.0, value.round())) as u8;
                    }
                    if col[3] == 0 {
                        continue;
                    }
                    col
                };
                if (z - d).abs() <= 0.001 && colour_loses(colour, get4(t.rgba, n * 4)) {
                    continue;
                }
                t.depth[n] = z as f32;
                t.rgba[n * 4..n * 4 + 4].copy_from_slice(&colour);
            }
        }
    }
}

/// Disc splat of an isolated point (§8.4 steps 7–9).
fn splat(t: &mut Target<'_>, s: [f64; 3], radius: f64, rgba: [u8; 4]) {
    let n = t.n as i32;
    let lo_x = trunc_i32((s[0] - radius).floor());
    let hi_x = trunc_i32((s[0] + radius).ceil());
    let lo_y = trunc_i32((s[1] - radius).floor());
    let hi_y = trunc_i32((s[1] + radius).ceil());
    // ceil(...) == 2^31 − 1 would loop forever in the engine (outside the
    // contract): draw nothing and leave the bounds unchanged.
    if hi_x == i32::MAX || hi_y == i32::MAX {
        return;
    }
    let bx0 = lo_x.max(0);
    let by0 = lo_y.max(0);
    let bx1 = if hi_x >= n { n } else { hi_x + 1 };
    let by1 = if hi_y >= n { n } else { hi_y + 1 };
    if bx0 < bx1 && by0 < by1 {
        t.bounds[0] = t.bounds[0].min(bx0);
        t.bounds[1] = t.bounds[1].min(by0);
        t.bounds[2] = t.bounds[2].max(bx1);
        t.bounds[3] = t.bounds[3].max(by1);
    } else {
        return;
    }
    let r2 = radius * radius;
    for y in by0..by1 {
        let ey = y as f64 + 0.5 - s[1];
        for x in bx0..bx1 {
            let ex = x as f64 + 0.5 - s[0];
            let d = ex * ex + ey * ey;
            if d > r2 {
                continue;
            }
            let i = y as usize * t.n + x as usize;
            let dd = t.depth[i] as f64;
            if s[2] < dd - 0.001 {
                continue;
            }
            if (s[2] - dd).abs() <= 0.001 {
                let q = t.distance[i] as f64;
                if d > q + 1e-6 {
                    continue;
                }
                if (d - q).abs() <= 1e-6 && colour_loses(rgba, get4(t.rgba, i * 4)) {
                    continue;
                }
            }
            t.depth[i] = s[2] as f32;
            t.distance[i] = d as f32;
            t.rgba[i * 4..i * 4 + 4].copy_from_slice(&rgba);
        }
    }
}

/// Projection of §8.3 for one frame.
struct Projector<'a> {
    view: View,
    rig: Option<&'a Rig<'a>>,
    model: Option<&'a R2DRotModelPose>,
    size: f64,
    /// `(scale*4)*density` (model) or `(4 or 8)*density` (legacy).
    k: f64,
    /// Premultiplied per-part matrices (model path).
    pm: [[f64; 12]; 256],
}

impl<'a> Projector<'a> {
    fn new(frame: &'a Frame<'a>, size: usize) -> Self {
        let density = size as f64 / 256.0;
        let view = frame.view;
        let rig = frame.rig.as_ref();
        let model = rig.and_then(|r| r.model);
        let mut pm = [[0.0f64; 12]; 256];
        let k = match model {
            Some(m) => {
                let k = m.scale * 4.0 * density;
                for (id, pose) in m.parts.iter().enumerate() {
                    if !(pose.defined.get() && pose.visible.get()) {
                        continue;
                    }
                    let mm = &pose.matrix;
                    let e = &mut pm[id];
                    for j in 0..4 {
                        let zc = -view.sy * mm[j] + view.cy * mm[8 + j];
                        e[j] = (view.cy * mm[j] + view.sy * mm[8 + j]) * k;
                        e[4 + j] = (view.cp * mm[4 + j] - view.sp * zc) * k;
                        e[8 + j] = view.sp * mm[4 + j] + view.cp * zc;
                    }
                }
                k
            }
            None => {
                (if rig.is_some_and(|r| r.body) {
                    4.0
                } else {
                    8.0
                }) * density
            }
        };
        Projector {
            view,
            rig,
            model,
            size: size as f64,
            k,
            pm,
        }
    }

    /// Model path, cached recipe (blend weight 0).
    fn cached(&self, id: u8, p: &R2DRotPoint) -> [f64; 3] {
        let m = &self.pm[id as usize];
        let (x, y, z) = (p.x as f64, p.y as f64, p.z as f64);
        let v0 = m[0] * x + m[1] * y + m[2] * z + m[3];
        let v1 = m[4] * x + m[5] * y + m[6] * z + m[7];
        let v2 = m[8] * x + m[9] * y + m[10] * z + m[11];
        [self.size + v0, self.size + v1, v2]
    }

    /// Transform-then-project (blended model recipe and legacy recipe).
    fn project(&self, [x, y, z]: [f64; 3]) -> [f64; 3] {
        let v = &self.view;
        let zz = -v.sy * x + v.cy * z;
        [
            self.size + (v.cy * x + v.sy * z) * self.k,
            self.size + (v.cp * y - v.sp * zz) * self.k,
            v.sp * y + v.cp * zz,
        ]
    }

    /// The projection of a point (or patch corner) whose part, blend part and
    /// weight are already set.
    fn point(&self, p: &R2DRotPoint) -> [f64; 3] {
        match self.model {
            Some(m) if p.blend_weight != 0 => self.project(model_xform(m, p)),
            Some(_) => self.cached(p.part, p),
            None => self.project(legacy_xform(p, self.rig)),
        }
    }
}

/// Renders one frame into `out` (S·S·4 bytes) using the workspace buffers
/// (§8.2 steps 3–4, §8.3–8.6). Buffers must have the sizes of
/// [`WorkspaceBufs`] for this `size`; the stored bounds say what the
/// previous frame touched.
pub fn render(
    points: &[R2DRotPoint],
    frame: &Frame<'_>,
    size: usize,
    out: &mut [u8],
    ws: WorkspaceBufs<'_>,
) -> Result<(), RenderError> {
    check_size(size, out)?;
    let n = 2 * size;
    if ws.depth.len() < n * n
        || ws.distance.len() < n * n
        || ws.rgba.len() < n * n * 4
        || ws.sample_depth.len() < size * size
        || ws.resolved.len() < size * size * 4
    {
        return Err(RenderError::BufferTooSmall);
    }
    // Restore what the previous frame touched.
    let [bx0, by0, bx1, by1] = ws.bounds.map(|b| b.clamp(0, n as i32) as usize);
    for y in by0..by1 {
        let row = y * n;
        ws.depth[row + bx0..row + bx1.max(bx0)].fill(-1e9f32);
        ws.distance[row + bx0..row + bx1.max(bx0)].fill(1e9f32);
        ws.rgba[(row + bx0) * 4..(row + bx1.max(bx0)) * 4].fill(0);
    }
    let mut target = Target {
        depth: ws.depth,
        distance: ws.distance,
        rgba: ws.rgba,
        bounds: [n as i32, n as i32, 0, 0],
        n,
    };
    let proj = Projector::new(frame, size);
    let density = size as f64 / 256.0;
    let rig = frame.rig.as_ref();
    let view = &frame.view;
    for p in points {
        draw_point(&mut target, &proj, p, frame, rig, view, density);
    }
    let bounds = target.bounds;
    *ws.bounds = bounds;
    resolve(&target, frame, size, out, ws.sample_depth, ws.resolved);
    Ok(())
}

fn draw_point(
    t: &mut Target<'_>,
    proj: &Projector<'_>,
    p: &R2DRotPoint,
    frame: &Frame<'_>,
    rig: Option<&Rig<'_>>,
    view: &View,
    density: f64,
) {
    if !selected(p, frame.eyes, frame.mouth, rig) {
        return;
    }
    let patch = p.patch.get();
    match proj.model {
        Some(m) => {
            let pose = &m.parts[p.part as usize];
            if pose.one_sided.get() && !patch && anime_precull(pose, p, view) {
                return;
            }
        }
        None => {
            if !patch && !facing(p, view, rig) {
                return;
            }
        }
    }
    if patch {
        let mut v = [Vertex {
            p: [0.0; 3],
            rgba: [0; 4],
        }; 4];
        for (j, vert) in v.iter_mut().enumerate() {
            let (u, w) = ((j % 2) as f32, (j / 2) as f32);
            let uw = u * w;
            let mut c = *p;
            let off = |a: usize| ((u * p.du[a]) + (w * p.dv[a])) + (uw * p.duv[a]);
            c.x = p.x + off(0);
            c.y = p.y + off(1);
            c.z = p.z + off(2);
            if let Some(m) = proj.model {
                let mut id = p.corner_parts[j];
                if id == 0 {
                    id = p.part;
                }
                let cp = &m.parts[id as usize];
                if !(cp.defined.get() && cp.visible.get()) {
                    id = p.part;
                }
                c.part = id;
                c.blend_part = p.corner_blend_parts[j];
                c.blend_weight = p.corner_blend_weights[j];
            }
            *vert = Vertex {
                p: proj.point(&c),
                rgba: p.colors[j],
            };
        }
        let one_sided = match proj.model {
            Some(m) => m.parts[p.part as usize].one_sided.get(),
            None => p.part >= 16,
        };
        quad_fill(t, &v, p, one_sided);
        return;
    }
    let part = p.part;
    let mapped = p.mapped.get();
    if (proj.model.is_none() && (part == 2 || part == 3)) || (mapped && (part == 3 || part == 24)) {
        return;
    }
    if p.rgba[3] == 0 {
        return;
    }
    let s = proj.point(p);
    let r0 = if mapped {
        0.9
    } else if (32..=35).contains(&part) {
        1.2
    } else if part >= 16 {
        2.7
    } else {
        3.2
    };
    splat(t, s, r0 * density, p.rgba);
}

/// Resolve (§8.5) and colour extrusion (§8.6).
fn resolve(
    t: &Target<'_>,
    frame: &Frame<'_>,
    size: usize,
    out: &mut [u8],
    sample_depth: &mut [f32],
    resolved: &mut [u8],
) {
    let out = &mut out[..size * size * 4];
    let sample_depth = &mut sample_depth[..size * size];
    let resolved = &mut resolved[..size * size * 4];
    out.fill(0);
    sample_depth.fill(0.0);
    let rig = frame.rig.as_ref();
    let s = match rig {
        Some(Rig { model: Some(m), .. }) => m.scale,
        Some(r) if r.body => 1.0,
        _ => 2.0,
    };
    let depth_scale = s / 128.0;
    let b = t.bounds;
    let mut x0 = (b[0] / 2) as usize;
    let mut y0 = (b[1] / 2) as usize;
    let mut x1 = ((b[2] + 1) / 2) as usize;
    let mut y1 = ((b[3] + 1) / 2) as usize;
    let n = t.n;
    for y in y0..y1 {
        for x in x0..x1 {
            let mut sum = [0u32; 3];
            let mut alpha = 0u32;
            let mut nearest = -1e9f32;
            for dy in 0..2 {
                for dx in 0..2 {
                    let i = (2 * y + dy) * n + 2 * x + dx;
                    let c = get4(t.rgba, i * 4);
                    let a = c[3] as u32;
                    alpha += a;
                    for k in 0..3 {
                        sum[k] += c[k] as u32 * a;
                    }
                    if a != 0 && t.depth[i] > nearest {
                        nearest = t.depth[i];
                    }
                }
            }
            let o = (y * size + x) * 4;
            for k in 0..3 {
                out[o + k] = if alpha != 0 {
                    ((sum[k] + alpha / 2) / alpha) as u8
                } else {
                    0
                };
            }
            out[o + 3] = ((alpha + 2) / 4) as u8;
            if alpha != 0 {
                sample_depth[y * size + x] = (nearest as f64 * depth_scale) as f32;
            }
        }
    }
    resolved.copy_from_slice(out);
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
    for y in y0..y1 {
        for x in x0..x1 {
            let o = (y * size + x) * 4;
            if out[o + 3] != 0 {
                continue;
            }
            let mut best: Option<[u8; 4]> = None;
            for dy in -1i64..=1 {
                for dx in -1i64..=1 {
                    let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                    if nx < 0 || ny < 0 || nx >= size as i64 || ny >= size as i64 {
                        continue;
                    }
                    let c = get4(resolved, (ny as usize * size + nx as usize) * 4);
                    if c[3] == 0 {
                        continue;
                    }
                    if best.is_none_or(|b| c[3] > b[3]) {
                        best = Some(c);
                    }
                }
            }
            if let Some(c) = best {
                out[o..o + 3].copy_from_slice(&c[..3]);
            }
        }
    }
}
