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

use crate::RigError;
use crate::cut::slice::PartImage;
pub use crate::skin::raster::{
    Affine, Canvas, IDENTITY, PartMesh, apply, compose, raster, raster_masked, rotation_about, skin,
};
use crate::skin::weights::Pairs;

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

// ---- adaptive meshes (issue 26) ----

/// Leaf sizes of the adaptive mesh, fine to coarse (px): the quadtree's
/// levels. The coarsest is the cell of rigid interiors.
pub const LEVELS: [usize; 11] = [2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64];
/// The largest cell (px): root cells are the largest `fine · 2ⁿ` up to it.
pub const COARSE: usize = 64;

fn top_cell(fine: usize) -> usize {
    let mut t = fine.max(1);
    while t * 2 <= COARSE {
        t *= 2;
    }
    t
}
/// Cells on the part's alpha outline (some texels transparent, some not)
/// are split down to this size, so the mesh follows the outline.
pub const OUTLINE: usize = 32;

/// A leaf cell `[x0, x1) × [y0, y1)` in crop pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Leaf {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
    /// Every corner and every texel of the cell has the same one-bone weight.
    rigid: bool,
}

/// The adaptive mesh of `part` (declared bone `k`) whose blend cells are at
/// most `fine` px: a quadtree over the crop from cells of the coarsest
/// [`LEVELS`] size; a cell with no texel of alpha > 0 is dropped; a cell is
/// split while it is not rigid (some corner or texel of it is not on the
/// one bone of the others, weight 1) and larger than `fine`, or while it
/// straddles the alpha outline and is larger than [`OUTLINE`]. A leaf with
/// no vertex of a finer neighbour on its sides is two triangles (diagonal
/// top-left to bottom-right); one with such vertices is a fan from a vertex
/// at its centre through every vertex on its sides, so no T-junction can
/// open a crack.
pub fn adaptive(
    part: &PartImage,
    fine: usize,
    dir: [f64; 2],
    weights: &WeightFn<'_>,
) -> Result<PartMesh, RigError> {
    let sums = TexelSums::new(part, &texel_weights(part, weights));
    let leaves = leaves(part, fine, dir, weights, &sums);
    triangulate(part, fine, &leaves)
}

/// The weights at every texel centre of alpha > 0 (`None`: transparent).
fn texel_weights(part: &PartImage, weights: &WeightFn<'_>) -> Vec<Option<Pairs>> {
    let w = part.width;
    let o = [part.origin[0] as f64, part.origin[1] as f64];
    (0..w * part.height)
        .map(|i| {
            (part.rgba[i * 4 + 3] > 0).then(|| {
                weights(
                    part.bone,
                    [(i % w) as f64 + 0.5 + o[0], (i / w) as f64 + 0.5 + o[1]],
                )
            })
        })
        .collect()
}

/// The bone of weights that put everything on one bone at weight 1.
fn one_bone(wv: &Pairs) -> Option<usize> {
    (wv.len() == 1 && (wv[0].1 - 1.0).abs() < 1e-12).then_some(wv[0].0)
}

/// Summed-area tables of a part's texels, so that a cell of any size tells in
/// O(1) whether it holds texels of alpha > 0, whether all of its texels are
/// such, and whether those all lie on one bone at weight 1 (and which).
struct TexelSums {
    /// Row stride of the tables (`width + 1`).
    stride: usize,
    /// Texels of alpha > 0.
    opaque: Vec<u32>,
    /// Texels of alpha > 0 whose weights are blended (not one bone at weight 1).
    blended: Vec<u32>,
    /// Over the one-bone texels: Σ (bone + 1) and Σ (bone + 1)²
    /// (wrapping: a cell's sums, at most 64 × 64 texels, fit a `u32`).
    bone: Vec<u32>,
    bone_sq: Vec<u32>,
}

impl TexelSums {
    fn new(part: &PartImage, tw: &[Option<Pairs>]) -> TexelSums {
        let (w, h) = (part.width, part.height);
        let stride = w + 1;
        let n = stride * (h + 1);
        let mut t = TexelSums {
            stride,
            opaque: vec![0; n],
            blended: vec![0; n],
            bone: vec![0; n],
            bone_sq: vec![0; n],
        };
        for y in 0..h {
            let (mut o, mut bl, mut b, mut bq) = (0u32, 0u32, 0u32, 0u32);
            for x in 0..w {
                let i = y * w + x;
                if part.rgba[i * 4 + 3] > 0 {
                    o += 1;
                    match tw[i].and_then(|wv| one_bone(&wv)) {
                        None => bl += 1,
                        Some(k) => {
                            let c = k as u32 + 1;
                            b = b.wrapping_add(c);
                            bq = bq.wrapping_add(c.wrapping_mul(c));
                        }
                    }
                }
                let (up, at) = (y * stride + x + 1, (y + 1) * stride + x + 1);
                t.opaque[at] = t.opaque[up].wrapping_add(o);
                t.blended[at] = t.blended[up].wrapping_add(bl);
                t.bone[at] = t.bone[up].wrapping_add(b);
                t.bone_sq[at] = t.bone_sq[up].wrapping_add(bq);
            }
        }
        t
    }

    /// The one bone every texel of alpha > 0 in `[x0, x1) × [y0, y1)` lies on
    /// at weight 1 (`None`: some texel is blended, the texels lie on several
    /// bones, or there is none). The rectangle holds at most 64 × 64 texels
    /// (so its sums do not wrap).
    fn one_bone(&self, x0: usize, y0: usize, x1: usize, y1: usize) -> Option<usize> {
        let opaque = self.sum(&self.opaque, x0, y0, x1, y1) as u64;
        if opaque == 0 || self.sum(&self.blended, x0, y0, x1, y1) != 0 {
            return None;
        }
        // the one-bone texels' codes all equal: n·Σc² = (Σc)²
        let (b, bq) = (
            self.sum(&self.bone, x0, y0, x1, y1) as u64,
            self.sum(&self.bone_sq, x0, y0, x1, y1) as u64,
        );
        (opaque * bq == b * b).then(|| (b / opaque) as usize - 1)
    }

    /// The sum of `table` over `[x0, x1) × [y0, y1)`.
    fn sum(&self, table: &[u32], x0: usize, y0: usize, x1: usize, y1: usize) -> u32 {
        let s = self.stride;
        table[y1 * s + x1]
            .wrapping_sub(table[y0 * s + x1])
            .wrapping_sub(table[y1 * s + x0])
            .wrapping_add(table[y0 * s + x0])
    }
}

fn leaves(
    part: &PartImage,
    fine: usize,
    dir: [f64; 2],
    weights: &WeightFn<'_>,
    sums: &TexelSums,
) -> Vec<Leaf> {
    let (w, h) = (part.width, part.height);
    let top = top_cell(fine);
    let (ux, uy) = (dir[0].abs(), dir[1].abs());
    let o = [part.origin[0] as f64, part.origin[1] as f64];
    let k = part.bone;
    // the one bone of a texel / corner, or None when blended
    let single = |p: [f64; 2]| -> Option<usize> {
        let wv = weights(k, p);
        one_bone(&wv)
    };
    let mut out = Vec::new();
    let mut stack: Vec<(usize, usize, usize, usize)> = Vec::new();
    for y in (0..h).step_by(top) {
        for x in (0..w).step_by(top) {
            stack.push((x, y, top, top));
        }
    }
    while let Some((x0, y0, sw, sh)) = stack.pop() {
        let (x1, y1) = ((x0 + sw).min(w), (y0 + sh).min(h));
        let opaque = sums.sum(&sums.opaque, x0, y0, x1, y1) as u64;
        if opaque == 0 {
            continue;
        }
        let all = opaque == ((x1 - x0) * (y1 - y0)) as u64;
        // rigid texels: none blended, all on one bone
        let bone = sums.one_bone(x0, y0, x1, y1);
        let mut rigid = bone.is_some();
        if rigid {
            for (cx, cy) in [(x0, y0), (x1, y0), (x1, y1), (x0, y1)] {
                if single([cx as f64 + o[0], cy as f64 + o[1]]) != bone {
                    rigid = false;
                }
            }
        }
        // a blend cell is split across the bone (the weights vary along it only): its extent
        // along the bone, sw·|ux| + sh·|uy|, must reach at most `fine`
        let (ex, ey) = (sw as f64 * ux, sh as f64 * uy);
        let (split_x, split_y) = if !all && sw.max(sh) > OUTLINE {
            (sw > 1, sh > 1)
        } else if !rigid && ex + ey > fine as f64 {
            if ex >= ey {
                (sw > 1, false)
            } else {
                (false, sh > 1)
            }
        } else {
            (false, false)
        };
        if split_x || split_y {
            let (hw, hh) = (
                if split_x { sw / 2 } else { sw },
                if split_y { sh / 2 } else { sh },
            );
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                if (dx == 1 && !split_x) || (dy == 1 && !split_y) {
                    continue;
                }
                let (cx, cy) = (x0 + dx * hw, y0 + dy * hh);
                if cx < w && cy < h {
                    stack.push((cx, cy, hw, hh));
                }
            }
        } else {
            out.push(Leaf {
                x0,
                y0,
                x1,
                y1,
                rigid,
            });
        }
    }
    out.sort_by_key(|l| (l.y0, l.x0));
    out
}

fn triangulate(part: &PartImage, fine: usize, leaves: &[Leaf]) -> Result<PartMesh, RigError> {
    use std::collections::{BTreeMap, HashMap};
    let (w, h) = (part.width as f64, part.height as f64);
    let mut index: HashMap<(usize, usize), u16> = HashMap::new();
    let mut verts: Vec<[f64; 2]> = Vec::new();
    let mut uv: Vec<[f64; 2]> = Vec::new();
    let mut tris: Vec<u16> = Vec::new();
    let too_many = || {
        RigError::new(
            "E_RIG_MESH",
            format!(
                "part '{}' needs more than {MAX_VERTICES} vertices at blend step {fine}",
                part.name
            ),
        )
    };
    let o = [part.origin[0] as f64, part.origin[1] as f64];
    let push = |verts: &mut Vec<[f64; 2]>, uv: &mut Vec<[f64; 2]>, x: f64, y: f64| {
        if verts.len() >= MAX_VERTICES {
            return Err(too_many());
        }
        verts.push([x + o[0], y + o[1]]);
        uv.push([x / w, y / h]);
        Ok((verts.len() - 1) as u16)
    };
    // corners first (rows top to bottom), so the side walk below finds them
    for l in leaves {
        for c in [(l.x0, l.y0), (l.x1, l.y0), (l.x1, l.y1), (l.x0, l.y1)] {
            if let std::collections::hash_map::Entry::Vacant(e) = index.entry(c) {
                e.insert(push(&mut verts, &mut uv, c.0 as f64, c.1 as f64)?);
            }
        }
    }
    // per row / column of vertices, the vertices along it (a side's inner vertices are a range)
    let mut rows: HashMap<usize, BTreeMap<usize, u16>> = HashMap::new();
    let mut cols: HashMap<usize, BTreeMap<usize, u16>> = HashMap::new();
    for (&(x, y), &id) in &index {
        rows.entry(y).or_default().insert(x, id);
        cols.entry(x).or_default().insert(y, id);
    }
    for l in leaves {
        // the cell's outline, clockwise from the top-left, with every vertex on its sides
        let mut ring: Vec<u16> = Vec::new();
        let mut starts = [0usize; 4];
        let corners = [(l.x0, l.y0), (l.x1, l.y0), (l.x1, l.y1), (l.x0, l.y1)];
        for c in 0..4 {
            starts[c] = ring.len();
            let (a, b) = (corners[c], corners[(c + 1) % 4]);
            ring.push(index[&a]);
            // the vertices strictly inside the side, in walking order
            let (line, key, from, to) = if a.1 == b.1 {
                (&rows, a.1, a.0, b.0)
            } else {
                (&cols, a.0, a.1, b.1)
            };
            let mut inner: Vec<u16> = line
                .get(&key)
                .map(|m| {
                    m.range(from.min(to) + 1..from.max(to))
                        .map(|(_, &id)| id)
                        .collect()
                })
                .unwrap_or_default();
            if to < from {
                inner.reverse();
            }
            ring.extend(inner);
        }
        let n = ring.len();
        // side c holds ring[starts[c] .. starts[c + 1]] (its first corner and its inner vertices)
        let plain = |c: usize| {
            let end = if c == 3 { n } else { starts[c + 1] };
            end - starts[c] == 1
        };
        if n == 4 {
            tris.extend_from_slice(&[ring[0], ring[1], ring[2], ring[0], ring[2], ring[3]]);
        } else if let Some(c) = (0..4).find(|&c| plain(c) && plain((c + 3) % 4)) {
            // a fan from corner c, whose two sides hold no other vertex: no triangle is flat
            let at = starts[c];
            for i in 1..n - 1 {
                tris.extend_from_slice(&[ring[at], ring[(at + i) % n], ring[(at + i + 1) % n]]);
            }
        } else {
            let cx = (l.x0 + l.x1) as f64 / 2.0;
            let cy = (l.y0 + l.y1) as f64 / 2.0;
            let c = push(&mut verts, &mut uv, cx, cy)?;
            for i in 0..n {
                tris.extend_from_slice(&[c, ring[i], ring[(i + 1) % n]]);
            }
        }
    }
    Ok(PartMesh {
        step: fine,
        verts,
        uv,
        tris,
    })
}

/// Largest deviation (px) between `mesh` (of `part`, declared bone `k`) and
/// exact per-pixel skinning over the bends `maps`: every texel of alpha > 0
/// is placed in the rest triangle holding its centre and deformed by the
/// triangle's deformed vertices; triangles whose three vertices and every
/// texel share one bone at weight 1 move by one affine map and are exact.
pub fn mesh_deviation(
    part: &PartImage,
    k: usize,
    mesh: &PartMesh,
    weights: &WeightFn<'_>,
    maps: &[Vec<Affine>],
) -> f64 {
    let tw = if k == part.bone {
        texel_weights(part, weights)
    } else {
        let other = PartImage {
            bone: k,
            ..part.clone()
        };
        texel_weights(&other, weights)
    };
    deviation_with(part, k, mesh, weights, maps, &tw, None)
}

fn deviation_with(
    part: &PartImage,
    k: usize,
    mesh: &PartMesh,
    weights: &WeightFn<'_>,
    maps: &[Vec<Affine>],
    tw: &[Option<Pairs>],
    sums: Option<&TexelSums>,
) -> f64 {
    if maps.is_empty() {
        return 0.0;
    }
    let w = part.width;
    let o = [part.origin[0] as f64, part.origin[1] as f64];
    let vw: Vec<Pairs> = mesh.verts.iter().map(|&v| weights(k, v)).collect();
    let moved: Vec<Vec<[f64; 2]>> = maps
        .iter()
        .map(|m| {
            mesh.verts
                .iter()
                .zip(&vw)
                .map(|(&v, wv)| skin(v, wv, m))
                .collect()
        })
        .collect();
    let mut worst = 0.0f64;
    for t in mesh.tris.chunks_exact(3) {
        let (ia, ib, ic) = (t[0] as usize, t[1] as usize, t[2] as usize);
        let (a, b, d) = (mesh.verts[ia], mesh.verts[ib], mesh.verts[ic]);
        let area = (b[0] - a[0]) * (d[1] - a[1]) - (b[1] - a[1]) * (d[0] - a[0]);
        if area.abs() < 1e-12 {
            continue;
        }
        let x0 = (a[0].min(b[0]).min(d[0]) - o[0]).floor().max(0.0) as usize;
        let x1 = ((a[0].max(b[0]).max(d[0]) - o[0]).ceil() as usize).min(w);
        let y0 = (a[1].min(b[1]).min(d[1]) - o[1]).floor().max(0.0) as usize;
        let y1 = ((a[1].max(b[1]).max(d[1]) - o[1]).ceil() as usize).min(part.height);
        let one = vw[ia].len() == 1 && vw[ia] == vw[ib] && vw[ia] == vw[ic];
        // a triangle on one bone whose bounding box's texels all lie on it at weight 1
        // moves by one affine map: exact (every texel below would be skipped)
        if one
            && (x1 - x0) <= COARSE
            && (y1 - y0) <= COARSE
            && sums.is_some_and(|s| {
                s.sum(&s.opaque, x0, y0, x1, y1) == 0
                    || one_bone(&vw[ia]).is_some_and(|b| s.one_bone(x0, y0, x1, y1) == Some(b))
            })
        {
            continue;
        }
        // per row, l1 and l2 below are affine in the texel centre's x: the columns
        // where each can reach -1e-9, widened by a pixel, bound the scan (the exact
        // test below still decides every texel)
        let (al1, al2) = ((d[1] - a[1]) / area, -(b[1] - a[1]) / area);
        for y in y0..y1 {
            let row = &tw[y * w..(y + 1) * w];
            let py = y as f64 + 0.5 + o[1] - a[1];
            let be1 = (-a[0] * (d[1] - a[1]) - py * (d[0] - a[0])) / area;
            let be2 = ((b[0] - a[0]) * py + (b[1] - a[1]) * a[0]) / area;
            let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
            for (al, be) in [(al1, be1), (al2, be2), (-al1 - al2, 1.0 - be1 - be2)] {
                if al > 1e-12 {
                    lo = lo.max((-1e-9 - be) / al);
                } else if al < -1e-12 {
                    hi = hi.min((-1e-9 - be) / al);
                }
            }
            // x + 0.5 + o[0] in [lo, hi], widened by a pixel
            let xa = ((lo - 0.5 - o[0] - 1.0).floor().max(x0 as f64)) as usize;
            let xb = ((hi - 0.5 - o[0] + 2.0).ceil().min(x1 as f64)).max(0.0) as usize;
            for x in xa..xb {
                let Some(wp) = &row[x] else {
                    continue;
                };
                let p = [x as f64 + 0.5 + o[0], y as f64 + 0.5 + o[1]];
                let l1 = ((p[0] - a[0]) * (d[1] - a[1]) - (p[1] - a[1]) * (d[0] - a[0])) / area;
                let l2 = ((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])) / area;
                let l0 = 1.0 - l1 - l2;
                if l0 < -1e-9 || l1 < -1e-9 || l2 < -1e-9 {
                    continue;
                }
                if one && *wp == vw[ia] {
                    continue; // one affine map over the texel and the triangle: exact
                }
                for (m, dm) in maps.iter().zip(&moved) {
                    let exact = skin(p, wp, m);
                    let q = [
                        l0 * dm[ia][0] + l1 * dm[ib][0] + l2 * dm[ic][0],
                        l0 * dm[ia][1] + l1 * dm[ib][1] + l2 * dm[ic][1],
                    ];
                    let (ex, ey) = (q[0] - exact[0], q[1] - exact[1]);
                    // hypot (the reported value) only where it may beat the worst:
                    // sqrt(ex² + ey²) is within a few ulps of it (tiny worsts, whose
                    // squares lose precision, always compare)
                    if worst < 1e-100 || ex * ex + ey * ey >= worst * worst * (1.0 - 1e-9) {
                        worst = worst.max(ex.hypot(ey));
                    }
                }
            }
        }
    }
    worst
}

/// One part's row of the adaptive table.
#[derive(Clone, Debug, PartialEq)]
pub struct PartSteps {
    /// Part (declared bone) name.
    pub name: String,
    /// Per [`LEVELS`] blend step measured, fine to coarse, from the chosen
    /// one: (step, largest deviation px, vertices).
    pub rows: Vec<(usize, f64, usize)>,
    /// The chosen blend step (`None`: no step satisfies the rule).
    pub chosen: Option<usize>,
    /// Deviation at the chosen step.
    pub deviation: f64,
    /// Deviation at the next coarser step (`None`: the chosen is the coarsest).
    pub coarser_deviation: Option<f64>,
    /// Every texel and vertex on one bone at weight 1 at the coarsest step.
    pub rigid: bool,
}

/// An earlier [`adaptive_table`] under the same weights, bends and
/// directions: a part whose crop is unchanged (same origin, size and texels)
/// keeps its row and mesh instead of being measured again.
pub struct Earlier<'a> {
    /// The parts it measured.
    pub parts: &'a [PartImage],
    /// Its table.
    pub table: &'a [PartSteps],
    /// Its meshes.
    pub meshes: &'a [PartMesh],
}

/// Per part: the adaptive meshes at the blend steps of [`LEVELS`] from the
/// coarsest down to the first whose deviation at the part's own joint bends
/// is < 1 px, and the choice — that step (the coarsest with deviation < 1 px
/// whose next coarser step has ≥ 1 px); when even the coarsest is < 1 px (a
/// rigid part: any triangulation is exact), the coarsest. Returns the table
/// and the chosen meshes (a part whose rule fails, `chosen: None`, gets the
/// finest step's mesh).
pub fn adaptive_table(
    parts: &[PartImage],
    weights: &WeightFn<'_>,
    bends: &dyn Fn(usize) -> Vec<Vec<Affine>>,
    dirs: &dyn Fn(usize) -> [f64; 2],
    earlier: Option<&Earlier<'_>>,
) -> Result<(Vec<PartSteps>, Vec<PartMesh>), RigError> {
    let mut table = Vec::new();
    let mut meshes = Vec::new();
    for (i, p) in parts.iter().enumerate() {
        if let Some(e) = earlier.filter(|e| {
            e.parts.get(i).is_some_and(|q| {
                (q.bone, q.origin, q.width, q.height) == (p.bone, p.origin, p.width, p.height)
                    && q.rgba == p.rgba
            })
        }) {
            table.push(e.table[i].clone());
            meshes.push(e.meshes[i].clone());
            continue;
        }
        if !p.has_part() {
            table.push(PartSteps {
                name: p.name.clone(),
                rows: Vec::new(),
                chosen: Some(*LEVELS.last().unwrap_or(&64)),
                deviation: 0.0,
                coarser_deviation: None,
                rigid: true,
            });
            meshes.push(PartMesh {
                step: *LEVELS.last().unwrap_or(&64),
                verts: Vec::new(),
                uv: Vec::new(),
                tris: Vec::new(),
            });
            continue;
        }
        let maps = bends(p.bone);
        let tw = texel_weights(p, weights);
        let sums = TexelSums::new(p, &tw);
        let mut rows = Vec::new();
        let mut built: Vec<Option<PartMesh>> = Vec::new();
        // coarse to fine, down to the first step under 1 px
        for &s in LEVELS.iter().rev() {
            match triangulate(p, s, &leaves(p, s, dirs(p.bone), weights, &sums)) {
                Ok(m) => {
                    let d = deviation_with(p, p.bone, &m, weights, &maps, &tw, Some(&sums));
                    rows.push((s, d, m.verts.len()));
                    built.push(Some(m));
                    if d < 1.0 {
                        // the first step under 1 px from the coarse end is the choice: the
                        // finer ones are not measured
                        break;
                    }
                }
                Err(_) => {
                    rows.push((s, f64::INFINITY, 0));
                    built.push(None);
                }
            }
        }
        rows.reverse();
        built.reverse();
        let n = rows.len();
        let pick = if rows[n - 1].1 < 1.0 && built[n - 1].is_some() {
            Some(n - 1)
        } else {
            (0..n - 1).rfind(|&i| built[i].is_some() && rows[i].1 < 1.0 && rows[i + 1].1 >= 1.0)
        };
        let rigid = leaves(p, LEVELS[n - 1], dirs(p.bone), weights, &sums)
            .iter()
            .all(|l| l.rigid);
        let i = pick.unwrap_or(0);
        table.push(PartSteps {
            name: p.name.clone(),
            rows: rows.clone(),
            chosen: pick.map(|i| rows[i].0),
            deviation: rows[i].1,
            coarser_deviation: rows.get(i + 1).map(|r| r.1),
            rigid,
        });
        match built[i].take() {
            Some(m) => meshes.push(m),
            None => meshes.push(adaptive(p, LEVELS[0], dirs(p.bone), weights)?),
        }
    }
    Ok((table, meshes))
}

/// Vertices of `mesh` lying strictly inside an edge of a triangle they are
/// not a corner of (T-junctions: where a deformed mesh can crack).
pub fn t_junctions(mesh: &PartMesh) -> usize {
    let mut edges: Vec<(u16, u16)> = mesh
        .tris
        .chunks_exact(3)
        .flat_map(|t| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])])
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    edges.sort_unstable();
    edges.dedup();
    let mut n = 0;
    for (a, b) in edges {
        let (pa, pb) = (mesh.verts[a as usize], mesh.verts[b as usize]);
        let (x0, x1) = (pa[0].min(pb[0]), pa[0].max(pb[0]));
        let (y0, y1) = (pa[1].min(pb[1]), pa[1].max(pb[1]));
        for (i, v) in mesh.verts.iter().enumerate() {
            if i == a as usize
                || i == b as usize
                || v[0] < x0
                || v[0] > x1
                || v[1] < y0
                || v[1] > y1
            {
                continue;
            }
            let cross = (pb[0] - pa[0]) * (v[1] - pa[1]) - (pb[1] - pa[1]) * (v[0] - pa[0]);
            if cross.abs() < 1e-9 {
                n += 1;
            }
        }
    }
    n
}
