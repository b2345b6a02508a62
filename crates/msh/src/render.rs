// re2d MSH — a small flat-shaded CPU rasteriser for model previews (demo and docs; not part of the format spec).
//! Draws the chosen `(lod, group)` of a posed model: every node's batches
//! under its world matrix, orthographic view from `yaw`/`pitch` (degrees,
//! engine Y up), a z-buffer, one flat colour per material lit by a fixed
//! directional light, and dark edges. The model is fitted to the image.

use super::anim::Pose;
use super::model::Model;
use super::pose::{transform_point, world_matrices};

/// Preview settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// Rotation about the vertical axis, degrees.
    pub yaw: f32,
    /// Rotation about the horizontal axis, degrees (positive looks down).
    pub pitch: f32,
    /// LOD 0..2.
    pub lod: usize,
    /// Group 0..4.
    pub group: usize,
    /// Fit the image to these world bounds (min, max) instead of the model's.
    pub bounds: Option<([f32; 3], [f32; 3])>,
}

impl Default for View {
    fn default() -> Self {
        View {
            width: 256,
            height: 256,
            yaw: 30.0,
            pitch: 20.0,
            lod: 0,
            group: 0,
            bounds: None,
        }
    }
}

const PALETTE: [[f32; 3]; 6] = [
    [0.86, 0.42, 0.32],
    [0.35, 0.62, 0.86],
    [0.45, 0.78, 0.42],
    [0.92, 0.78, 0.35],
    [0.68, 0.48, 0.85],
    [0.40, 0.80, 0.78],
];

/// World-space triangles of the posed model for `(lod, group)`: `(a, b, c, material)`.
pub fn triangles(
    m: &Model<'_>,
    poses: &[Pose],
    lod: usize,
    group: usize,
) -> Vec<([[f32; 3]; 3], u16)> {
    let w = world_matrices(m, poses);
    let mut out = Vec::new();
    for n in 0..m.node_count() {
        let Some(s) = m.slot_of(n, lod, group) else {
            continue;
        };
        for (_, b) in m.slot_batches(s) {
            let k = m.batch_index_bytes(&b).len() / 2;
            for t in 0..k / 3 {
                let p = |j: usize| {
                    m.batch_vertex(&b, 3 * t + j)
                        .and_then(|v| m.position(v))
                        .map(|p| transform_point(&w[n], p))
                        .unwrap_or([0.0; 3])
                };
                out.push(([p(0), p(1), p(2)], b.material_index));
            }
        }
    }
    out
}

/// World bounds of triangles.
pub fn bounds(tris: &[([[f32; 3]; 3], u16)]) -> ([f32; 3], [f32; 3]) {
    let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
    for (t, _) in tris {
        for p in t {
            for k in 0..3 {
                if p[k].is_finite() {
                    lo[k] = lo[k].min(p[k]);
                    hi[k] = hi[k].max(p[k]);
                }
            }
        }
    }
    if lo[0] > hi[0] {
        return ([-1.0; 3], [1.0; 3]);
    }
    (lo, hi)
}

/// Renders RGBA8 pixels (`4·width·height` bytes).
pub fn render(m: &Model<'_>, poses: &[Pose], v: &View) -> Vec<u8> {
    let (w, h) = (v.width.max(1) as usize, v.height.max(1) as usize);
    let mut rgba = vec![0u8; w * h * 4];
    for px in rgba.chunks_exact_mut(4) {
        px.copy_from_slice(&[236, 238, 242, 255]);
    }
    let tris = triangles(m, poses, v.lod, v.group);
    let (lo, hi) = v.bounds.unwrap_or_else(|| bounds(&tris));
    let c = [
        (lo[0] + hi[0]) / 2.0,
        (lo[1] + hi[1]) / 2.0,
        (lo[2] + hi[2]) / 2.0,
    ];
    let r =
        ((hi[0] - lo[0]).powi(2) + (hi[1] - lo[1]).powi(2) + (hi[2] - lo[2]).powi(2)).sqrt() / 2.0;
    let scale = 0.92 * (w.min(h) as f32) / (2.0 * r.max(1e-6));
    let (sy, cy) = v.yaw.to_radians().sin_cos();
    let (sp, cp) = v.pitch.to_radians().sin_cos();
    let view = |p: [f32; 3]| {
        let (x, y, z) = (p[0] - c[0], p[1] - c[1], p[2] - c[2]);
        let (x1, z1) = (cy * x - sy * z, sy * x + cy * z);
        let (y2, z2) = (cp * y + sp * z1, -sp * y + cp * z1);
        [w as f32 / 2.0 + x1 * scale, h as f32 / 2.0 - y2 * scale, z2]
    };
    let light = {
        let l = [-0.4f32, 0.8, -0.45];
        let n = (l[0] * l[0] + l[1] * l[1] + l[2] * l[2]).sqrt();
        [l[0] / n, l[1] / n, l[2] / n]
    };
    let mut depth = vec![f32::INFINITY; w * h];
    let mut edges = Vec::new();
    for (t, mat) in &tris {
        let n = {
            let e1 = [t[1][0] - t[0][0], t[1][1] - t[0][1], t[1][2] - t[0][2]];
            let e2 = [t[2][0] - t[0][0], t[2][1] - t[0][1], t[2][2] - t[0][2]];
            let n = [
                e1[1] * e2[2] - e1[2] * e2[1],
                e1[2] * e2[0] - e1[0] * e2[2],
                e1[0] * e2[1] - e1[1] * e2[0],
            ];
            let l = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt().max(1e-12);
            [n[0] / l, n[1] / l, n[2] / l]
        };
        let lit = 0.35 + 0.65 * (n[0] * light[0] + n[1] * light[1] + n[2] * light[2]).abs();
        let base = PALETTE[*mat as usize % PALETTE.len()];
        let col = base.map(|b| (b * lit * 255.0).clamp(0.0, 255.0) as u8);
        let s = t.map(view);
        if s.iter().any(|p| !p.iter().all(|x| x.is_finite())) {
            continue;
        }
        fill(&mut rgba, &mut depth, w, h, &s, col);
        edges.push(s);
    }
    // dark edges where they are in front
    for s in &edges {
        for k in 0..3 {
            line(&mut rgba, &depth, w, h, s[k], s[(k + 1) % 3]);
        }
    }
    rgba
}

fn fill(rgba: &mut [u8], depth: &mut [f32], w: usize, h: usize, s: &[[f32; 3]; 3], col: [u8; 3]) {
    let minx = s
        .iter()
        .map(|p| p[0])
        .fold(f32::INFINITY, f32::min)
        .floor()
        .max(0.0) as usize;
    let maxx = s
        .iter()
        .map(|p| p[0])
        .fold(f32::NEG_INFINITY, f32::max)
        .ceil()
        .min(w as f32 - 1.0);
    let miny = s
        .iter()
        .map(|p| p[1])
        .fold(f32::INFINITY, f32::min)
        .floor()
        .max(0.0) as usize;
    let maxy = s
        .iter()
        .map(|p| p[1])
        .fold(f32::NEG_INFINITY, f32::max)
        .ceil()
        .min(h as f32 - 1.0);
    if maxx < 0.0 || maxy < 0.0 {
        return;
    }
    let area =
        (s[1][0] - s[0][0]) * (s[2][1] - s[0][1]) - (s[2][0] - s[0][0]) * (s[1][1] - s[0][1]);
    if area.abs() < 1e-9 {
        return;
    }
    for y in miny..=maxy as usize {
        for x in minx..=maxx as usize {
            let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
            let e = |a: &[f32; 3], b: &[f32; 3]| {
                (b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0])
            };
            let (w0, w1, w2) = (
                e(&s[1], &s[2]) / area,
                e(&s[2], &s[0]) / area,
                e(&s[0], &s[1]) / area,
            );
            if w0 < 0.0 || w1 < 0.0 || w2 < 0.0 {
                continue;
            }
            let z = w0 * s[0][2] + w1 * s[1][2] + w2 * s[2][2];
            let i = y * w + x;
            if z < depth[i] {
                depth[i] = z;
                rgba[4 * i..4 * i + 3].copy_from_slice(&col);
            }
        }
    }
}

fn line(rgba: &mut [u8], depth: &[f32], w: usize, h: usize, a: [f32; 3], b: [f32; 3]) {
    let n = ((b[0] - a[0]).abs().max((b[1] - a[1]).abs()).ceil() as usize).clamp(1, 4 * (w + h));
    for k in 0..=n {
        let t = k as f32 / n as f32;
        let (x, y, z) = (
            a[0] + (b[0] - a[0]) * t,
            a[1] + (b[1] - a[1]) * t,
            a[2] + (b[2] - a[2]) * t,
        );
        if x < 0.0 || y < 0.0 || x >= w as f32 || y >= h as f32 {
            continue;
        }
        let i = y as usize * w + x as usize;
        if z <= depth[i] + 1e-3 {
            for c in &mut rgba[4 * i..4 * i + 3] {
                *c = (*c as u16 * 2 / 5) as u8;
            }
        }
    }
}
