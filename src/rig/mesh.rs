//! Stage 6a: triangle grids clipped to part alpha, adaptive meshes, and
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
pub use super::raster::{
    Affine, Canvas, IDENTITY, PartMesh, apply, compose, raster, raster_masked, rotation_about, skin,
};
use super::slice::PartImage;
use super::weights::Pairs;

/// Candidate steps, fine to coarse (px).
pub const STEPS: [usize; 8] = [2, 4, 8, 12, 16, 24, 32, 48];
/// Most vertices per part (u16 indices).
pub const MAX_VERTICES: usize = 65_535;

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

/// Weights of a point of part `k`: `(bone, weight)` pairs.
pub type WeightFn<'a> = dyn Fn(usize, [f64; 2]) -> Pairs + 'a;

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
            let cw: Vec<Pairs> = corners.iter().map(|&p| weights(k, p)).collect();
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
