//! Stage 6a: triangle grids clipped to part alpha, their rasterisation, and
//! the grid-step table (rig.md §5).
//!
//! - **Grid** of step `s` over a part's crop: nodes at `x = 0, s, 2s, …`
//!   and at the crop's right/bottom edge; a cell is kept when any texel in it
//!   has alpha > 0; each kept cell is two triangles (diagonal from its
//!   top-left to its bottom-right corner). Vertices are in drawing pixels at
//!   rest (skeleton space), UVs are crop pixels / crop size.
//! - **Deviation** of a step: every texel centre of every part with alpha > 0
//!   is deformed twice, exactly (per-pixel skinning with the scheme's weight
//!   function) and through the mesh (the weights at the vertices, positions
//!   interpolated linearly in the texel's triangle), under a bend of each
//!   part's own joint by +30° and −30°; the largest distance is the step's
//!   deviation. Cells where the weight function is constant are exact by
//!   construction (one affine map) and are skipped.
//! - **Choice**: the coarsest step with deviation < 1 px whose next coarser
//!   step is not (steps whose grid needs more than 65 535 vertices in a part
//!   are not candidates).

use super::RigError;
use super::slice::PartImage;

/// Candidate steps, fine to coarse (px).
pub const STEPS: [usize; 8] = [2, 4, 8, 12, 16, 24, 32, 48];
/// Most vertices per part (u16 indices).
pub const MAX_VERTICES: usize = 65_535;

/// A part's mesh.
#[derive(Clone, Debug, PartialEq)]
pub struct PartMesh {
    /// Grid step.
    pub step: usize,
    /// Rest positions, drawing pixels.
    pub verts: Vec<[f64; 2]>,
    /// UVs 0..1.
    pub uv: Vec<[f64; 2]>,
    /// Triangles.
    pub tris: Vec<u16>,
}

fn nodes(n: usize, step: usize) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).step_by(step).collect();
    v.push(n);
    v
}

/// The grid of `step` over `part` (see the module doc).
pub fn grid(part: &PartImage, step: usize) -> Result<PartMesh, RigError> {
    let (w, h) = (part.width, part.height);
    let xs = nodes(w, step);
    let ys = nodes(h, step);
    let (nx, ny) = (xs.len(), ys.len());
    let mut index = vec![u32::MAX; nx * ny];
    let mut verts = Vec::new();
    let mut uv = Vec::new();
    let mut tris: Vec<u16> = Vec::new();
    for cy in 0..ny - 1 {
        for cx in 0..nx - 1 {
            let any = (ys[cy]..ys[cy + 1])
                .any(|y| (xs[cx]..xs[cx + 1]).any(|x| part.rgba[(y * w + x) * 4 + 3] > 0));
            if !any {
                continue;
            }
            let mut id = [0u16; 4];
            for (c, (gx, gy)) in [(cx, cy), (cx + 1, cy), (cx + 1, cy + 1), (cx, cy + 1)]
                .into_iter()
                .enumerate()
            {
                let slot = &mut index[gy * nx + gx];
                if *slot == u32::MAX {
                    if verts.len() >= MAX_VERTICES {
                        return Err(RigError::new(
                            "E_RIG_MESH",
                            format!(
                                "part '{}' needs more than {MAX_VERTICES} vertices at grid step {step}",
                                part.name
                            ),
                        ));
                    }
                    *slot = verts.len() as u32;
                    let (x, y) = (xs[gx] as f64, ys[gy] as f64);
                    verts.push([x + part.origin[0] as f64, y + part.origin[1] as f64]);
                    uv.push([x / w as f64, y / h as f64]);
                }
                id[c] = *slot as u16;
            }
            tris.extend_from_slice(&[id[0], id[1], id[2], id[0], id[2], id[3]]);
        }
    }
    Ok(PartMesh {
        step,
        verts,
        uv,
        tris,
    })
}

/// An affine map `[a, b, c, d, e, f]`: `(a x + b y + c, d x + e y + f)`.
pub type Affine = [f64; 6];

/// Identity.
pub const IDENTITY: Affine = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0];

/// Rotation by `theta` about `p`.
pub fn rotation_about(p: [f64; 2], theta: f64) -> Affine {
    let (s, c) = theta.sin_cos();
    [
        c,
        -s,
        p[0] - c * p[0] + s * p[1],
        s,
        c,
        p[1] - s * p[0] - c * p[1],
    ]
}

/// `m` applied to `p`.
pub fn apply(m: &Affine, p: [f64; 2]) -> [f64; 2] {
    [
        m[0] * p[0] + m[1] * p[1] + m[2],
        m[3] * p[0] + m[4] * p[1] + m[5],
    ]
}

/// `a ∘ b` (b first).
pub fn compose(a: &Affine, b: &Affine) -> Affine {
    [
        a[0] * b[0] + a[1] * b[3],
        a[0] * b[1] + a[1] * b[4],
        a[0] * b[2] + a[1] * b[5] + a[2],
        a[3] * b[0] + a[4] * b[3],
        a[3] * b[1] + a[4] * b[4],
        a[3] * b[2] + a[4] * b[5] + a[5],
    ]
}

/// Linear blend skinning of `p` with `(bone, weight)` pairs and per-bone maps.
pub fn skin(p: [f64; 2], w: &[(usize, f64)], maps: &[Affine]) -> [f64; 2] {
    let total: f64 = w.iter().map(|x| x.1).sum();
    if total <= 1e-4 {
        return p;
    }
    let (mut x, mut y) = (0.0, 0.0);
    for &(b, wi) in w {
        let q = apply(&maps[b], p);
        x += q[0] * wi / total;
        y += q[1] * wi / total;
    }
    [x, y]
}

/// A canvas window `[x0, y0, x1, y1)` of RGBA8 straight alpha.
pub struct Canvas {
    /// Window in drawing pixels.
    pub win: [i64; 4],
    /// Pixels.
    pub rgba: Vec<u8>,
}

impl Canvas {
    /// A transparent window.
    pub fn new(win: [i64; 4]) -> Canvas {
        let n = ((win[2] - win[0]).max(0) * (win[3] - win[1]).max(0)) as usize;
        Canvas {
            win,
            rgba: vec![0; n * 4],
        }
    }

    /// A transparent window reusing `buf`'s allocation.
    pub fn reuse(win: [i64; 4], mut buf: Vec<u8>) -> Canvas {
        let n = ((win[2] - win[0]).max(0) * (win[3] - win[1]).max(0)) as usize;
        buf.clear();
        buf.resize(n * 4, 0);
        Canvas { win, rgba: buf }
    }

    /// Width.
    pub fn width(&self) -> usize {
        (self.win[2] - self.win[0]).max(0) as usize
    }
}

/// Rasterises `part` with deformed vertices `pts` into `c` (pixel centres,
/// nearest texel, "over"); calls
/// `covered` with each canvas pixel index and the alpha of the texel landing there.
pub fn raster(
    part: &PartImage,
    mesh: &PartMesh,
    pts: &[[f64; 2]],
    c: &mut Canvas,
    covered: impl FnMut(usize, u8),
) {
    raster_masked(part, mesh, pts, c, None, covered)
}

/// [`raster`] limited to the canvas pixels where `mask` is set.
pub fn raster_masked(
    part: &PartImage,
    mesh: &PartMesh,
    pts: &[[f64; 2]],
    c: &mut Canvas,
    mask: Option<&[bool]>,
    mut covered: impl FnMut(usize, u8),
) {
    let cw = c.width() as i64;
    for t in mesh.tris.chunks_exact(3) {
        let (ia, ib, ic) = (t[0] as usize, t[1] as usize, t[2] as usize);
        let (a, b, d) = (pts[ia], pts[ib], pts[ic]);
        let area = (b[0] - a[0]) * (d[1] - a[1]) - (b[1] - a[1]) * (d[0] - a[0]);
        if area.abs() < 1e-12 {
            continue;
        }
        let x0 = (a[0].min(b[0]).min(d[0]).floor() as i64).max(c.win[0]);
        let x1 = (a[0].max(b[0]).max(d[0]).ceil() as i64).min(c.win[2]);
        let y0 = (a[1].min(b[1]).min(d[1]).floor() as i64).max(c.win[1]);
        let y1 = (a[1].max(b[1]).max(d[1]).ceil() as i64).min(c.win[3]);
        let (ua, ub, ud) = (mesh.uv[ia], mesh.uv[ib], mesh.uv[ic]);
        for y in y0..y1 {
            for x in x0..x1 {
                let ci = ((y - c.win[1]) * cw + (x - c.win[0])) as usize;
                if mask.is_some_and(|m| !m[ci]) {
                    continue;
                }
                // pixel centre nudged off the grid lines: a centre never lies on a
                // shared edge at rest, so no pixel is drawn by two triangles
                let p = [x as f64 + 0.5 + 1.0e-7, y as f64 + 0.5 + 1.3e-7];
                let l1 = ((p[0] - a[0]) * (d[1] - a[1]) - (p[1] - a[1]) * (d[0] - a[0])) / area;
                let l2 = ((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])) / area;
                let l0 = 1.0 - l1 - l2;
                if l0 < 0.0 || l1 < 0.0 || l2 < 0.0 {
                    continue;
                }
                let u = l0 * ua[0] + l1 * ub[0] + l2 * ud[0];
                let v = l0 * ua[1] + l1 * ub[1] + l2 * ud[1];
                let tx = ((u * part.width as f64).floor() as i64).clamp(0, part.width as i64 - 1)
                    as usize;
                let ty = ((v * part.height as f64).floor() as i64).clamp(0, part.height as i64 - 1)
                    as usize;
                let s = &part.rgba[(ty * part.width + tx) * 4..][..4];
                if s[3] == 0 {
                    continue;
                }
                super::verify::over(&mut c.rgba[ci * 4..ci * 4 + 4], s);
                covered(ci, s[3]);
            }
        }
    }
}

/// Weights of a point of part `k`: `(bone, weight)` pairs.
pub type WeightFn<'a> = dyn Fn(usize, [f64; 2]) -> super::weights::Pairs + 'a;

/// Largest deviation (px) between mesh and exact per-pixel skinning of
/// `part` (declared bone `k`) at grid `step`, over the bends `maps`.
pub fn deviation(
    part: &PartImage,
    k: usize,
    step: usize,
    weights: &WeightFn<'_>,
    maps: &[Vec<Affine>],
) -> f64 {
    let (w, h) = (part.width, part.height);
    let xs = nodes(w, step);
    let ys = nodes(h, step);
    let o = [part.origin[0] as f64, part.origin[1] as f64];
    let mut worst = 0.0f64;
    for cy in 0..ys.len() - 1 {
        for cx in 0..xs.len() - 1 {
            let corners = [
                [xs[cx] as f64 + o[0], ys[cy] as f64 + o[1]],
                [xs[cx + 1] as f64 + o[0], ys[cy] as f64 + o[1]],
                [xs[cx + 1] as f64 + o[0], ys[cy + 1] as f64 + o[1]],
                [xs[cx] as f64 + o[0], ys[cy + 1] as f64 + o[1]],
            ];
            let cw: Vec<super::weights::Pairs> = corners.iter().map(|&p| weights(k, p)).collect();
            if cw.iter().all(|x| x.len() == 1 && *x == cw[0]) {
                continue; // one affine map over the whole cell: exact
            }
            for m in maps {
                let d: Vec<[f64; 2]> = corners
                    .iter()
                    .zip(&cw)
                    .map(|(&p, wv)| skin(p, wv, m))
                    .collect();
                for y in ys[cy]..ys[cy + 1] {
                    for x in xs[cx]..xs[cx + 1] {
                        if part.rgba[(y * w + x) * 4 + 3] == 0 {
                            continue;
                        }
                        let p = [x as f64 + 0.5 + o[0], y as f64 + 0.5 + o[1]];
                        let exact = skin(p, &weights(k, p), m);
                        // local cell coordinates; triangles (0,1,2) and (0,2,3)
                        let fx = (p[0] - corners[0][0]) / (corners[1][0] - corners[0][0]);
                        let fy = (p[1] - corners[0][1]) / (corners[3][1] - corners[0][1]);
                        let q = if fx >= fy {
                            // l0 = 1 - fx, l1 = fx - fy, l2 = fy
                            [
                                (1.0 - fx) * d[0][0] + (fx - fy) * d[1][0] + fy * d[2][0],
                                (1.0 - fx) * d[0][1] + (fx - fy) * d[1][1] + fy * d[2][1],
                            ]
                        } else {
                            [
                                (1.0 - fy) * d[0][0] + fx * d[2][0] + (fy - fx) * d[3][0],
                                (1.0 - fy) * d[0][1] + fx * d[2][1] + (fy - fx) * d[3][1],
                            ]
                        };
                        worst = worst.max((q[0] - exact[0]).hypot(q[1] - exact[1]));
                    }
                }
            }
        }
    }
    worst
}

/// One row of the grid-step table.
#[derive(Clone, Debug, PartialEq)]
pub struct StepRow {
    /// Step, px.
    pub step: usize,
    /// Largest deviation over all parts and bends (px).
    pub deviation: f64,
    /// Vertices over all parts.
    pub vertices: usize,
    /// Some part would need more than 65 535 vertices.
    pub too_many: bool,
}

/// The grid-step table and the chosen step (`None` when no step satisfies
/// the rule).
pub fn step_table(
    parts: &[PartImage],
    weights: &WeightFn<'_>,
    bends: &dyn Fn(usize) -> Vec<Vec<Affine>>,
) -> (Vec<StepRow>, Option<usize>) {
    let mut rows = Vec::new();
    for &step in &STEPS {
        let (mut dev, mut verts, mut too_many) = (0.0f64, 0usize, false);
        for p in parts {
            match grid(p, step) {
                Ok(m) => verts += m.verts.len(),
                Err(_) => too_many = true,
            }
            dev = dev.max(deviation(p, p.bone, step, weights, &bends(p.bone)));
        }
        rows.push(StepRow {
            step,
            deviation: dev,
            vertices: verts,
            too_many,
        });
    }
    let chosen = (0..rows.len() - 1)
        .filter(|&i| !rows[i].too_many && rows[i].deviation < 1.0 && rows[i + 1].deviation >= 1.0)
        .map(|i| rows[i].step)
        .next_back();
    (rows, chosen)
}
