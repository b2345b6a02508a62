// re2d — v2 PNG atlas: header check, point decode and anime decode (spec: rotsprite-atlas.md).
//
//! The v2 atlas is one square RGBA image (1024·k pixels) whose lower part
//! holds four 256×192 control maps (ID, depth, coverage, XY). Every active
//! control cell becomes one [`R2DRotPoint`]; the anime decode adds surface
//! patches, area-averaged colours, corner colours and a 5×5 material
//! footprint.
//!
//! Decoding never allocates per point: [`scan`] and [`anime_scan`] hand each
//! finished record to a sink, so the C ABI can write straight into its
//! `malloc` block and the Rust API can collect into a `Vec`.

use super::image::AtlasImage;
use super::types::{CBool, R2DRotPoint};

/// Control grid width in cells.
pub const GRID_W: usize = 256;
/// Control grid height in cells.
pub const GRID_H: usize = 192;
/// Maximum number of decoded points (one per control cell).
pub const MAX_POINTS: usize = GRID_W * GRID_H;

const MAP_ID: i64 = 0;
const MAP_DEPTH: i64 = 256;
const MAP_COVERAGE: i64 = 512;
const MAP_XY: i64 = 768;

/// Why a v2 atlas was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeErrorKind {
    /// Size, stride or the three header texels are wrong (§5.1).
    Header,
    /// An active cell's part id is 0 or 255 (§7.4 rule 1).
    PartRange,
    /// An active cell's coverage R is not 255 (or 128 under SUB) (rule 2).
    Coverage,
    /// An active cell's coverage alpha is not 255 (rule 3).
    CoverageAlpha,
    /// An active cell's ID map alpha is not 255 (rule 4).
    IdAlpha,
    /// An active cell's depth map alpha is not 255 (rule 5).
    DepthAlpha,
    /// An active cell's XY map alpha is not 255 (rule 6).
    XyAlpha,
    /// An active cell's anchor texel is not opaque (or transparent under SUB) (rule 7).
    AnchorAlpha,
    /// Under BLD: secondary part 255, or part 0 with a non-zero weight (rule 8).
    Blend,
    /// No active cell at all (§7.8).
    Empty,
}

/// A rejected atlas: what rule failed and at which control cell (if any).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// The failed rule.
    pub kind: DecodeErrorKind,
    /// Control cell `(mx, my)` that failed, when the rule is per cell.
    pub cell: Option<(u16, u16)>,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match self.kind {
            DecodeErrorKind::Header => "not a v2 atlas (size, stride or header texels)",
            DecodeErrorKind::PartRange => "active cell with part id 0 or 255",
            DecodeErrorKind::Coverage => "active cell with invalid coverage value",
            DecodeErrorKind::CoverageAlpha => "active cell with coverage alpha != 255",
            DecodeErrorKind::IdAlpha => "active cell with ID map alpha != 255",
            DecodeErrorKind::DepthAlpha => "active cell with depth map alpha != 255",
            DecodeErrorKind::XyAlpha => "active cell with XY map alpha != 255",
            DecodeErrorKind::AnchorAlpha => "active cell whose anchor texel alpha is invalid",
            DecodeErrorKind::Blend => "active cell with invalid blend part/weight",
            DecodeErrorKind::Empty => "atlas has no active cell",
        };
        match self.cell {
            Some((x, y)) => write!(f, "{what} at control cell ({x}, {y})"),
            None => f.write_str(what),
        }
    }
}

impl std::error::Error for DecodeError {}

fn fail(kind: DecodeErrorKind, mx: usize, my: usize) -> DecodeError {
    DecodeError {
        kind,
        cell: Some((mx as u16, my as u16)),
    }
}

/// Size rule of the header check (§5.1), without reading pixels.
pub fn v2_size_ok(w: i32, h: i32, stride: i32) -> bool {
    w == h && (1024..=4096).contains(&w) && w % 1024 == 0 && stride as i64 >= 4 * w as i64
}

/// Header extensions found in an atlas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Extensions {
    /// Sub-pixel (fractional coordinate) mode.
    pub sub: bool,
    /// Blending (secondary part) mode; only with SUB.
    pub bld: bool,
}

/// The control maps of a v2 atlas at scale `k`, read by the reading rule.
struct Maps<'a> {
    img: AtlasImage<'a>,
    k: i64,
}

impl Maps<'_> {
    /// Working texel (x, y): the top-left physical pixel of its k×k block.
    #[inline]
    fn texel(&self, x: i64, y: i64) -> [u8; 4] {
        self.img.pixel_at(self.k * x, self.k * y)
    }
    #[inline]
    fn cell(&self, base: i64, mx: usize, my: usize) -> [u8; 4] {
        self.texel(base + mx as i64, 768 + my as i64)
    }
    #[inline]
    fn active(&self, mx: usize, my: usize) -> bool {
        let c = self.cell(MAP_COVERAGE, mx, my);
        c[0] != 0 && c[3] != 0
    }
    fn header_row(&self) -> i64 {
        (self.img.h as i64 * 15) / 16
    }
    fn header_texel(&self, i: i64) -> [u8; 4] {
        self.img.pixel_at(self.k * i, self.header_row())
    }
}

fn maps<'a>(img: &AtlasImage<'a>) -> Option<Maps<'a>> {
    if !v2_size_ok(img.w, img.h, img.stride.min(i32::MAX as usize) as i32) {
        return None;
    }
    let m = Maps {
        img: *img,
        k: img.w as i64 / 1024,
    };
    let ok = m.header_texel(0)[..3] == [82, 50, 68]
        && m.header_texel(1)[..3] == [82, 79, 84]
        && m.header_texel(2)[..3] == [2, 4, 4];
    ok.then_some(m)
}

/// `r2d_rotsprite_v2_header` (§5.1): size rules and the three header texels
/// (alpha ignored).
pub fn header_ok(img: &AtlasImage<'_>) -> bool {
    maps(img).is_some()
}

/// The SUB/BLD extensions of an atlas whose header is valid (§5.2).
pub fn extensions(img: &AtlasImage<'_>) -> Option<Extensions> {
    let m = maps(img)?;
    Some(m.extensions())
}

impl Maps<'_> {
    fn extensions(&self) -> Extensions {
        let sub = self.header_texel(3) == [83, 85, 66, 255];
        let bld = sub && self.header_texel(4) == [66, 76, 68, 255];
        Extensions { sub, bld }
    }

    /// Representative pick (§7.6): the opaque block sample nearest the mean.
    fn representative(&self, mx: usize, my: usize, anchor: [u8; 4]) -> [u8; 4] {
        let mut samples = [[0u8; 4]; 16];
        let mut n = 0usize;
        let (mut sr, mut sg, mut sb) = (0i32, 0i32, 0i32);
        for dy in 0..4 {
            for dx in 0..4 {
                let s = self.texel(4 * mx as i64 + dx, 4 * my as i64 + dy);
                if s[3] == 255 {
                    samples[n] = s;
                    n += 1;
                    sr += s[0] as i32;
                    sg += s[1] as i32;
                    sb += s[2] as i32;
                }
            }
        }
        if n == 0 {
            return anchor;
        }
        let ni = n as i32;
        let mut best = samples[0];
        let mut best_d = i32::MAX;
        for s in &samples[..n] {
            let dr = ni * s[0] as i32 - sr;
            let dg = ni * s[1] as i32 - sg;
            let db = ni * s[2] as i32 - sb;
            let d = dr * dr + dg * dg + db * db;
            if d < best_d {
                best_d = d;
                best = *s;
            }
        }
        best
    }

    /// Feature pick (§7.7): the opaque block sample nearest sample (2, 2).
    fn feature(&self, mx: usize, my: usize, anchor: [u8; 4]) -> [u8; 4] {
        let mut best = anchor;
        let mut dist = 100;
        for dy in 0..4i64 {
            for dx in 0..4i64 {
                let s = self.texel(4 * mx as i64 + dx, 4 * my as i64 + dy);
                let e = (dx - 2) * (dx - 2) + (dy - 2) * (dy - 2);
                if s[3] == 255 && e < dist {
                    best = s;
                    dist = e;
                }
            }
        }
        best
    }

    /// Validates one active cell and builds its point (§7.4, §7.5).
    fn point(&self, ext: Extensions, mx: usize, my: usize) -> Result<R2DRotPoint, DecodeError> {
        use DecodeErrorKind::*;
        let id = self.cell(MAP_ID, mx, my);
        let depth = self.cell(MAP_DEPTH, mx, my);
        let cov = self.cell(MAP_COVERAGE, mx, my);
        let xy = self.cell(MAP_XY, mx, my);
        let anchor = self.texel(4 * mx as i64, 4 * my as i64);
        let part = id[0];
        if part == 0 || part == 255 {
            return Err(fail(PartRange, mx, my));
        }
        if cov[0] != 255 && !(ext.sub && cov[0] == 128) {
            return Err(fail(Coverage, mx, my));
        }
        if cov[3] != 255 {
            return Err(fail(CoverageAlpha, mx, my));
        }
        if id[3] != 255 {
            return Err(fail(IdAlpha, mx, my));
        }
        if depth[3] != 255 {
            return Err(fail(DepthAlpha, mx, my));
        }
        if xy[3] != 255 {
            return Err(fail(XyAlpha, mx, my));
        }
        if anchor[3] != 255 && !(ext.sub && anchor[3] == 0) {
            return Err(fail(AnchorAlpha, mx, my));
        }
        if ext.bld && (id[2] == 255 || (id[2] == 0 && depth[2] != 0)) {
            return Err(fail(Blend, mx, my));
        }
        let mut p = R2DRotPoint::ZERO;
        p.x = (xy[0] as i32 - 128) as f32 * 0.25f32;
        p.y = (xy[1] as i32 - 128) as f32 * 0.5f32;
        p.z = (depth[0] as i32 - 128) as f32 * 0.25f32;
        if ext.sub {
            p.x += (xy[2] >> 4) as f32 / 64.0f32;
            p.y += (xy[2] & 15) as f32 / 32.0f32;
            p.z += (depth[1] / 17) as f32 / 64.0f32;
        }
        if ext.bld {
            p.blend_part = id[2];
            p.blend_weight = depth[2];
        }
        p.mapped = CBool::new(ext.sub);
        p.group = if ext.sub && id[1] != 0 { id[1] } else { part };
        p.part = part;
        p.rgba = if part < 16 {
            self.representative(mx, my, anchor)
        } else {
            self.feature(mx, my, anchor)
        };
        if ext.sub {
            p.rgba[3] = anchor[3];
        }
        Ok(p)
    }
}

/// Decodes every active control cell in row-major order (§7), handing each
/// point to `sink`. Returns the point count.
///
/// On error some points may already have been handed out; callers discard
/// them (the C ABI frees its block, the Rust API drops its `Vec`).
pub fn scan(img: &AtlasImage<'_>, mut sink: impl FnMut(R2DRotPoint)) -> Result<usize, DecodeError> {
    let m = maps(img).ok_or(DecodeError {
        kind: DecodeErrorKind::Header,
        cell: None,
    })?;
    let ext = m.extensions();
    let mut count = 0usize;
    for my in 0..GRID_H {
        for mx in 0..GRID_W {
            if !m.active(mx, my) {
                continue;
            }
            sink(m.point(ext, mx, my)?);
            count += 1;
        }
    }
    if count == 0 {
        return Err(DecodeError {
            kind: DecodeErrorKind::Empty,
            cell: None,
        });
    }
    Ok(count)
}

/// Decodes an atlas into a `Vec` of points (Rust API of
/// `r2d_rotsprite_v2_decode`).
pub fn decode(img: &AtlasImage<'_>) -> Result<Vec<R2DRotPoint>, DecodeError> {
    let mut points = Vec::new();
    scan(img, |p| points.push(p))?;
    Ok(points)
}

/// Cell → point index map of §8.1 step 4 (−1 for inactive cells). `None`
/// when the header is invalid or the grid cannot be allocated.
pub fn cell_grid(img: &AtlasImage<'_>) -> Option<Vec<i32>> {
    let m = maps(img)?;
    let mut grid = Vec::new();
    grid.try_reserve_exact(MAX_POINTS).ok()?;
    grid.resize(MAX_POINTS, -1i32);
    let mut n = 0;
    for my in 0..GRID_H {
        for mx in 0..GRID_W {
            if m.active(mx, my) {
                grid[my * GRID_W + mx] = n;
                n += 1;
            }
        }
    }
    Some(grid)
}

fn close(q: &R2DRotPoint, p: &R2DRotPoint) -> bool {
    q.group == p.group
        && (q.x - p.x).abs() <= 3.0
        && (q.y - p.y).abs() <= 3.0
        && (q.z - p.z).abs() <= 3.0
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
    let Some(m) = maps(img) else { return };
    let k = m.k;
    let at = |i: i32| &base[i as usize];
    for my in 0..GRID_H {
        for mx in 0..GRID_W {
            let idx = grid[my * GRID_W + mx];
            if idx < 0 {
                continue;
            }
            let p = at(idx);
            let right = if mx < GRID_W - 1 {
                grid[my * GRID_W + mx + 1]
            } else {
                -1
            };
            let down = if my < GRID_H - 1 {
                grid[(my + 1) * GRID_W + mx]
            } else {
                -1
            };
            let diag = if mx < GRID_W - 1 && my < GRID_H - 1 {
                grid[(my + 1) * GRID_W + mx + 1]
            } else {
                -1
            };
            let continuous = right >= 0
                && down >= 0
                && diag >= 0
                && close(at(right), p)
                && close(at(down), p)
                && close(at(diag), p);
            let mut q = *p;
            let pos = |t: &R2DRotPoint| [t.x, t.y, t.z];
            if continuous {
                let (r, d, b, pp) = (pos(at(right)), pos(at(down)), pos(at(diag)), pos(p));
                q.patch = CBool::new(true);
                for i in 0..3 {
                    q.du[i] = r[i] - pp[i];
                    q.dv[i] = d[i] - pp[i];
                    q.duv[i] = ((b[i] - r[i]) - d[i]) + pp[i];
                }
            }
            // Area-averaged colour over the block's top-left 2k×2k pixels.
            let (mut sum, mut count) = ([0u32; 3], 0u32);
            for yy in 0..2 * k {
                for xx in 0..2 * k {
                    let c = m
                        .img
                        .pixel_at(4 * k * mx as i64 + xx, 4 * k * my as i64 + yy);
                    if c[3] == 255 {
                        for j in 0..3 {
                            sum[j] += c[j] as u32;
                        }
                        count += 1;
                    }
                }
            }
            if count > 0 {
                for j in 0..3 {
                    q.rgba[j] = ((sum[j] + count / 2) / count) as u8;
                }
            }
            if !continuous && p.part >= 32 && right >= 0 {
                let r = at(right);
                if r.part == p.part
                    && (r.x - p.x).abs() < 3.0
                    && (r.y - p.y).abs() < 1.0
                    && (r.z - p.z).abs() < 3.0
                {
                    q.patch = CBool::new(true);
                    q.du = [r.x - p.x, r.y - p.y, r.z - p.z];
                    q.dv[1] = 0.24f32;
                }
            }
            if continuous {
                q.textured = CBool::new(true);
                for (c, &i) in [idx, right, down, diag].iter().enumerate() {
                    let t = at(i);
                    q.corner_parts[c] = t.part;
                    q.corner_blend_parts[c] = t.blend_part;
                    q.corner_blend_weights[c] = t.blend_weight;
                }
                for ty in 0..5 {
                    for tx in 0..5 {
                        let c = m.texel(4 * mx as i64 + tx, 4 * my as i64 + ty);
                        q.material[((ty * 5 + tx) * 4) as usize..][..4].copy_from_slice(&c);
                    }
                }
            }
            for j in 0..4i64 {
                let c = m.texel(4 * mx as i64 + 4 * (j % 2), 4 * my as i64 + 4 * (j / 2));
                q.colors[j as usize] = if c[3] == 255 { c } else { q.rgba };
            }
            sink(q);
        }
    }
}

/// Decodes an atlas for the smooth renderer (Rust API of
/// `r2d_rotsprite_v2_decode_anime`).
pub fn decode_anime(img: &AtlasImage<'_>) -> Result<Vec<R2DRotPoint>, DecodeError> {
    let base = decode(img)?;
    let grid = cell_grid(img).ok_or(DecodeError {
        kind: DecodeErrorKind::Header,
        cell: None,
    })?;
    let mut out = Vec::with_capacity(base.len());
    anime_scan(img, &base, &grid, |p| out.push(p));
    Ok(out)
}
