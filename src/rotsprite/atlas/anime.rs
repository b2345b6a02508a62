// re2d — anime decode: cell grid, patches, area colour, corners and material, in place (spec: rotsprite-atlas.md §8).

use super::super::image::AtlasImage;
use super::super::types::{CBool, R2DRotPoint};
use std::convert::Infallible;
use std::mem::MaybeUninit;

use super::decode::{for_active, point};
use super::texels::Texels;
use super::{DecodeError, DecodeErrorKind, GRID_H, GRID_W, MAX_POINTS, header_error, maps};

/// The active cells of §8.1 step 4 in scan order; cell `cells[i]` is
/// point `i`. The neighbours §8.2 reads are found by walking a grid row and
/// the row below it together (both sorted), so no 256×192 index grid is
/// filled per decode.
pub(crate) struct Grid {
    /// Active cells in row-major order, as `my·256 + mx`.
    cells: Vec<u32>,
}

impl Grid {
    /// One activity scan of a valid atlas; `None` when the header is
    /// invalid or memory is short.
    pub fn new(img: &AtlasImage<'_>) -> Option<Grid> {
        let t = maps(img)?;
        let mut cells = Vec::new();
        cells.try_reserve_exact(MAX_POINTS).ok()?;
        let Ok(()) = for_active::<Infallible>(&t, |mx, my| {
            cells.push((my * GRID_W + mx) as u32);
            Ok(())
        });
        Some(Grid { cells })
    }

    /// Point index per cell (`my·256 + mx`), −1 for inactive cells.
    fn index(&self) -> Option<Vec<i32>> {
        let mut index = Vec::new();
        index.try_reserve_exact(MAX_POINTS).ok()?;
        index.resize(MAX_POINTS, -1);
        for (i, &c) in self.cells.iter().enumerate() {
            index[c as usize] = i as i32;
        }
        Some(index)
    }

    /// Number of active cells (points).
    pub fn count(&self) -> usize {
        self.cells.len()
    }

    /// The anime decode of the active cells into `slots` (exactly
    /// [`Self::count`] of them): each grid row is decoded, then the row above
    /// it is augmented (§8.2 reads the right, lower and diagonal neighbours,
    /// all decoded by then). The atlas texels and the records of a row are
    /// still in cache when the row is augmented, where a plain decode of the
    /// whole atlas followed by an augment pass would read the atlas (16 MB
    /// at 2048²) and the records (8.8 MB for a dense atlas) from memory
    /// twice. The result is the same: augmenting never changes the fields a
    /// neighbour reads.
    pub fn decode_anime_into(
        &self,
        img: &AtlasImage<'_>,
        slots: &mut [MaybeUninit<R2DRotPoint>],
    ) -> Result<(), DecodeError> {
        let t = maps(img).ok_or_else(header_error)?;
        let ext = t.extensions();
        if self.cells.is_empty() {
            return Err(DecodeError {
                kind: DecodeErrorKind::Empty,
                cell: None,
            });
        }
        let slots = &mut slots[..self.cells.len()];
        // Cells ..decoded are decoded; cells above.. are not augmented yet
        // (the last decoded row).
        let (mut decoded, mut above) = (0usize, 0usize);
        while decoded < self.cells.len() {
            let my = self.cells[decoded] as usize / GRID_W;
            let start = decoded;
            while decoded < self.cells.len() && self.cells[decoded] as usize / GRID_W == my {
                let c = self.cells[decoded] as usize;
                point(&t, ext, c % GRID_W, my, &mut slots[decoded])?;
                decoded += 1;
            }
            // SAFETY: slots[..decoded] were initialised by `point` above.
            let points = unsafe { assume_init(&mut slots[..decoded]) };
            augment_row(&t, points, &self.cells, above..start, start..decoded);
            above = start;
        }
        // SAFETY: every slot is initialised now.
        let points = unsafe { assume_init(slots) };
        let n = self.cells.len();
        augment_row(&t, points, &self.cells, above..n, n..n);
        Ok(())
    }
}

/// The records of initialised slots.
///
/// # Safety
/// Every slot is initialised.
unsafe fn assume_init(s: &mut [MaybeUninit<R2DRotPoint>]) -> &mut [R2DRotPoint] {
    // SAFETY: MaybeUninit<T> has T's layout; the caller guarantees initialisation.
    unsafe { std::slice::from_raw_parts_mut(s.as_mut_ptr().cast(), s.len()) }
}

/// Cell → point index map of §8.1 step 4 (−1 for inactive cells). `None`
/// when the header is invalid or the grid cannot be allocated.
pub fn cell_grid(img: &AtlasImage<'_>) -> Option<Vec<i32>> {
    Grid::new(img)?.index()
}

/// What §8.2 reads of a neighbouring base point.
#[derive(Clone, Copy)]
struct Base {
    pos: [f32; 3],
    group: u8,
    part: u8,
    blend_part: u8,
    blend_weight: u8,
}

impl Base {
    #[inline(always)]
    fn of(p: &R2DRotPoint) -> Self {
        Base {
            pos: [p.x, p.y, p.z],
            group: p.group,
            part: p.part,
            blend_part: p.blend_part,
            blend_weight: p.blend_weight,
        }
    }

    #[inline(always)]
    fn close(&self, p: &Base) -> bool {
        self.group == p.group
            && (self.pos[0] - p.pos[0]).abs() <= 3.0
            && (self.pos[1] - p.pos[1]).abs() <= 3.0
            && (self.pos[2] - p.pos[2]).abs() <= 3.0
    }
}

/// Anime decode (§8.2) in place of the records of `cells`: `points` holds
/// the plain decode of every cell these and their right, lower and
/// diagonal neighbours index through `index` (the cell grid).
/// The fields a record's neighbours read (position, group, part, blend) are
/// never changed, so the order of the updates does not matter.
fn augment_cells(t: &Texels<'_>, points: &mut [R2DRotPoint], index: &[i32], cells: &[u32]) {
    let index = &index[..MAX_POINTS];
    let at = |i: i32| (i >= 0).then_some(i as usize);
    for &c in cells {
        let g = c as usize;
        let (mx, my) = (g % GRID_W, g / GRID_W);
        let right = if mx < GRID_W - 1 { index[g + 1] } else { -1 };
        let down = if my < GRID_H - 1 {
            index[g + GRID_W]
        } else {
            -1
        };
        let diag = if mx < GRID_W - 1 && my < GRID_H - 1 {
            index[g + GRID_W + 1]
        } else {
            -1
        };
        let idx = index[g] as usize;
        augment(t, points, g, idx, [at(right), at(down), at(diag)]);
    }
}

/// [`augment_cells`] for the grid row `cells[row]` (points `row`), with
/// `cells[next]` the active cells of the grid row that follows it in scan
/// order (its neighbours below when that row is the next one). Both lists
/// are sorted, so one forward walk over `next` finds every lower and
/// diagonal neighbour; the right neighbour is the row's next cell.
fn augment_row(
    t: &Texels<'_>,
    points: &mut [R2DRotPoint],
    cells: &[u32],
    row: std::ops::Range<usize>,
    next: std::ops::Range<usize>,
) {
    let Some(&first) = cells.get(row.start).filter(|_| !row.is_empty()) else {
        return;
    };
    let below = first as usize / GRID_W + 1;
    let next = match cells.get(next.clone()) {
        Some(n) if n.first().is_some_and(|&c| c as usize / GRID_W == below) => next,
        _ => next.start..next.start,
    };
    let mut j = next.start;
    for i in row.clone() {
        let g = cells[i] as usize;
        // Same row, so g + 1 is the cell to the right (mx < 255).
        let right = (i + 1 < row.end && cells[i + 1] as usize == g + 1).then_some(i + 1);
        while j < next.end && (cells[j] as usize) < g + GRID_W {
            j += 1;
        }
        let down = (j < next.end && cells[j] as usize == g + GRID_W).then_some(j);
        let k = j + down.is_some() as usize;
        // g + GRID_W + 1 in the next row: mx < 255 (else it would be two rows down).
        let diag = (k < next.end && cells[k] as usize == g + GRID_W + 1).then_some(k);
        augment(t, points, g, i, [right, down, diag]);
    }
}

/// The §8.2 update of point `idx` (cell `g`) from its right, lower and
/// diagonal neighbours' points.
#[inline(always)]
fn augment(
    t: &Texels<'_>,
    points: &mut [R2DRotPoint],
    g: usize,
    idx: usize,
    [right, down, diag]: [Option<usize>; 3],
) {
    let (mx, my) = (g % GRID_W, g / GRID_W);
    let at = |i: Option<usize>| i.map(|i| Base::of(&points[i]));
    let p = Base::of(&points[idx]);
    let (r, d, b) = (at(right), at(down), at(diag));
    let corners = match (r, d, b) {
        (Some(r), Some(d), Some(b)) if r.close(&p) && d.close(&p) && b.close(&p) => {
            Some([p, r, d, b])
        }
        _ => None,
    };
    cell(t, mx, my, p, r, corners, &mut points[idx]);
}

/// The updates of one record (§8.2): `p` is its base, `r` the right
/// neighbour's, `corners` the four corner bases when the cell is continuous.
/// Not inlined, for the reason given at `decode::point`.
#[inline(never)]
fn cell(
    t: &Texels<'_>,
    mx: usize,
    my: usize,
    p: Base,
    r: Option<Base>,
    corners: Option<[Base; 4]>,
    q: &mut R2DRotPoint,
) {
    let k = t.k;
    if let Some([_, r, d, b]) = corners {
        let (r, d, b, pp) = (r.pos, d.pos, b.pos, p.pos);
        q.patch = CBool::new(true);
        for i in 0..3 {
            q.du[i] = r[i] - pp[i];
            q.dv[i] = d[i] - pp[i];
            q.duv[i] = ((b[i] - r[i]) - d[i]) + pp[i];
        }
    }
    // Area-averaged colour over the block's top-left 2k×2k pixels.
    let (sum, count) = match k {
        1 => area::<1, 2>(t, mx, my),
        2 => area::<2, 4>(t, mx, my),
        3 => area::<3, 6>(t, mx, my),
        _ => area::<4, 8>(t, mx, my),
    };
    if count > 0 {
        for j in 0..3 {
            q.rgba[j] = ((sum[j] + count / 2) / count) as u8;
        }
    }
    if corners.is_none()
        && p.part >= 32
        && let Some(r) = r
        && r.part == p.part
        && (r.pos[0] - p.pos[0]).abs() < 3.0
        && (r.pos[1] - p.pos[1]).abs() < 1.0
        && (r.pos[2] - p.pos[2]).abs() < 3.0
    {
        q.patch = CBool::new(true);
        q.du = [
            r.pos[0] - p.pos[0],
            r.pos[1] - p.pos[1],
            r.pos[2] - p.pos[2],
        ];
        q.dv[1] = 0.24f32;
    }
    if let Some(corners) = corners {
        q.textured = CBool::new(true);
        for (c, t) in corners.iter().enumerate() {
            q.corner_parts[c] = t.part;
            q.corner_blend_parts[c] = t.blend_part;
            q.corner_blend_weights[c] = t.blend_weight;
        }
        for ty in 0..5 {
            // SAFETY: x = 4·mx + 4 ≤ 1024, y = 4·my + ty ≤ 768.
            let row = unsafe { t.row5(4 * mx, 4 * my + ty) };
            q.material[ty * 20..ty * 20 + 20].copy_from_slice(&row);
        }
    }
    for j in 0..4 {
        // SAFETY: x ≤ 4·255 + 4 = 1024, y ≤ 4·191 + 4 = 768.
        let c = unsafe { t.texel(4 * mx + 4 * (j % 2), 4 * my + 4 * (j / 2)) };
        q.colors[j] = if c[3] == 255 { c } else { q.rgba };
    }
}

/// Sums of R, G, B over the opaque pixels among the top-left `S`×`S`
/// (S = 2k) pixels of cell (mx, my)'s block, and their count (§8.2). Without
/// a branch per pixel (the opaque test is a mask), so a textured atlas costs
/// no mispredictions; integer sums, so the order does not matter.
///
/// x86-64: four pixels per SSE2 register, the sums kept in 16-bit lanes
/// (at most 64 pixels of 255) and reduced once per cell, not once per row.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn area<const K: usize, const S: usize>(t: &Texels<'_>, mx: usize, my: usize) -> ([u32; 3], u32) {
    use std::arch::x86_64::*;
    debug_assert!(t.k == K && S == 2 * K && S <= 8);
    // SAFETY: SSE2 is part of the x86-64 baseline; each row's loads read
    // its S pixels (col = 4k·mx, col + S ≤ w; row = 4k·my + yy < h − 1), the
    // 8-byte load of a row's last two pixels when S is not a multiple of 4.
    unsafe {
        let ones = _mm_set1_epi8(-1);
        let zero = _mm_setzero_si128();
        let (mut sum, mut count) = (zero, zero);
        for yy in 0..S {
            let p = t.pixel_ptr(4 * K * mx, 4 * K * my + yy);
            for c in (0..S).step_by(4) {
                let px = if c + 4 <= S {
                    _mm_loadu_si128(p.add(4 * c).cast())
                } else {
                    _mm_loadl_epi64(p.add(4 * c).cast())
                };
                // −1 in the 32-bit lanes of opaque pixels (alpha, the top byte, 255).
                let m = _mm_srai_epi32::<24>(_mm_cmpeq_epi8(px, ones));
                let px = _mm_and_si128(px, m);
                sum = _mm_add_epi16(sum, _mm_unpacklo_epi8(px, zero));
                sum = _mm_add_epi16(sum, _mm_unpackhi_epi8(px, zero));
                count = _mm_sub_epi32(count, m);
            }
        }
        // Lanes [r, g, b, a, r, g, b, a] → [r, g, b, a] in 32 bits.
        let sum = _mm_add_epi32(_mm_unpacklo_epi16(sum, zero), _mm_unpackhi_epi16(sum, zero));
        let count = _mm_add_epi32(count, _mm_shuffle_epi32::<0b01_00_11_10>(count));
        let count = _mm_add_epi32(count, _mm_shuffle_epi32::<0b10_11_00_01>(count));
        let mut out = [0u32; 4];
        _mm_storeu_si128(out.as_mut_ptr().cast(), sum);
        ([out[0], out[1], out[2]], _mm_cvtsi128_si32(count) as u32)
    }
}

/// [`area`] one pixel at a time.
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
fn area_scalar<const K: usize, const S: usize>(
    t: &Texels<'_>,
    mx: usize,
    my: usize,
) -> ([u32; 3], u32) {
    debug_assert!(t.k == K && S == 2 * K);
    let (mut sum, mut count) = ([0u32; 3], 0u32);
    for yy in 0..S {
        // SAFETY: col = 4k·mx + S − 1 < 4k·256 = w, row = 4k·my + yy
        // < 768k < h − 1.
        let row = unsafe { t.pixels::<S>(4 * K * mx, 4 * K * my + yy) };
        for c in row {
            let m = (c[3] == 255) as u32;
            sum[0] += c[0] as u32 * m;
            sum[1] += c[1] as u32 * m;
            sum[2] += c[2] as u32 * m;
            count += m;
        }
    }
    (sum, count)
}

/// The scalar form is the sum off x86-64.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn area<const K: usize, const S: usize>(t: &Texels<'_>, mx: usize, my: usize) -> ([u32; 3], u32) {
    area_scalar::<K, S>(t, mx, my)
}

/// Anime decode (§8.2): given the plain decode `base` of `img` and its
/// [`cell_grid`], hands one augmented record per base point to `sink`, in
/// the same order.
pub fn anime_scan(
    img: &AtlasImage<'_>,
    base: &[R2DRotPoint],
    grid: &[i32],
    mut sink: impl FnMut(R2DRotPoint),
) {
    let Some(t) = maps(img) else { return };
    let mut points = base.to_vec();
    let cells: Vec<u32> = (0..MAX_POINTS as u32)
        .filter(|&g| grid.get(g as usize).is_some_and(|&i| i >= 0))
        .collect();
    augment_cells(&t, &mut points, grid, &cells);
    points.into_iter().for_each(&mut sink);
}

/// Decodes an atlas for the smooth renderer (Rust API of
/// `r2d_rotsprite_v2_decode_anime`).
pub fn decode_anime(img: &AtlasImage<'_>) -> Result<Vec<R2DRotPoint>, DecodeError> {
    let grid = Grid::new(img).ok_or_else(header_error)?;
    let mut points = Vec::with_capacity(grid.count());
    super::advise_vec(&mut points);
    grid.decode_anime_into(img, points.spare_capacity_mut())?;
    // SAFETY: decode_anime_into initialised all `count` slots.
    unsafe { points.set_len(grid.count()) };
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SSE2 area sums are the per-pixel sums at every working-texel
    /// size k = 1..4, with opaque, translucent and transparent pixels.
    #[test]
    fn area_matches_the_scalar_form() {
        let mut seed = 0x9e37_79b9_u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        let mut checked = 0;
        for k in 1..=4usize {
            let side = 1024 * k;
            let mut rgba = vec![0u8; side * side * 4];
            // Cells (mx, my) of the first grid rows and columns, and the
            // last column (its block ends at the image's right edge).
            let cells: Vec<(usize, usize)> = (0..6)
                .flat_map(|my| (0..8).chain([255]).map(move |mx| (mx, my)))
                .collect();
            for &(mx, my) in &cells {
                let opaque_share = next() % 9;
                // The whole 4k×4k block: the sum must ignore what lies
                // beyond its top-left 2k×2k pixels.
                for yy in 0..4 * k {
                    for xx in 0..4 * k {
                        let r = next();
                        let alpha = if r % 8 < opaque_share {
                            255
                        } else {
                            [0, 254, 1][r as usize % 3]
                        };
                        let o = ((4 * k * my + yy) * side + 4 * k * mx + xx) * 4;
                        let c = (r >> 8).to_le_bytes();
                        rgba[o..o + 4].copy_from_slice(&[c[0], c[1], c[2], alpha]);
                    }
                }
            }
            let img = AtlasImage::new(&rgba, side as i32, side as i32, 4 * side as i32).unwrap();
            let t = Texels::new(&img).unwrap();
            for &(mx, my) in &cells {
                let (a, b) = match k {
                    1 => (area::<1, 2>(&t, mx, my), area_scalar::<1, 2>(&t, mx, my)),
                    2 => (area::<2, 4>(&t, mx, my), area_scalar::<2, 4>(&t, mx, my)),
                    3 => (area::<3, 6>(&t, mx, my), area_scalar::<3, 6>(&t, mx, my)),
                    _ => (area::<4, 8>(&t, mx, my), area_scalar::<4, 8>(&t, mx, my)),
                };
                assert_eq!(a, b, "k {k} cell ({mx}, {my})");
                checked += (a.1 > 0) as usize;
            }
        }
        assert!(checked > 150, "{checked} cells with opaque pixels");
    }
}
