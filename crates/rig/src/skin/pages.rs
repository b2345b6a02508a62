//! Texture pages (issue 26): every part's image, trimmed to what its mesh
//! covers and scaled by [`SCALE`], packed into as few pages of at most
//! [`PAGE`]² texels as fit; the meshes' UVs point into the page.
//!
//! - **Trim**: a part's texels are needed only under its mesh (the mesh covers
//!   the cells holding alpha > 0: the visible part and its hidden fill), so
//!   the part's rectangle is its mesh's rest bounding box, its origin
//!   rounded down to a multiple of the scale's factor so page texels stay on
//!   the crop's texel grid.
//! - **Scale**: `1 / FACTOR` per side, each page texel the average of its
//!   `FACTOR × FACTOR` crop texels (premultiplied, then back to straight
//!   alpha). The game frame (576×624) shows the 1696×2528 drawing at about
//!   a quarter of its size, so half the drawing's resolution is still twice
//!   the displayed one.
//! - **Pack**: shelves, tallest part first, [`GUTTER`] transparent texels
//!   around each rectangle (no bilinear bleed between parts); a page is as
//!   wide and tall as its content (texture memory is the decoded RGBA of the
//!   embedded images, so a page is not padded to [`PAGE`]).

use crate::cut::slice::PartImage;
use crate::skin::mesh::PartMesh;

/// Largest page side (texels): the texture limit every runtime meets.
pub const PAGE: usize = 2048;
/// Crop texels per page texel, per side.
pub const FACTOR: usize = 2;
/// The scale of a page texel (1 / [`FACTOR`]).
pub const SCALE: f64 = 1.0 / FACTOR as f64;
/// Transparent texels around each part's rectangle.
pub const GUTTER: usize = 2;

/// A part's place in a page.
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    /// Page index.
    pub page: usize,
    /// The rectangle in the page, texels `[x, y, w, h]` (without the gutter).
    pub rect: [usize; 4],
    /// The crop texel at the rectangle's top-left.
    pub trim: [usize; 2],
}

/// The pages and where each part went.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pages {
    /// Per page: width, height, RGBA8 straight alpha.
    pub pages: Vec<(usize, usize, Vec<u8>)>,
    /// Per declared bone (`None`: a partless bone).
    pub placed: Vec<Option<Placement>>,
}

impl Pages {
    /// The decoded RGBA bytes of every page.
    pub fn memory(&self) -> usize {
        self.pages.iter().map(|(w, h, _)| w * h * 4).sum()
    }

    /// The UVs of `mesh` (crop UVs of part `k`'s image `part`) in its page.
    pub fn uv(&self, k: usize, part: &PartImage, mesh: &PartMesh) -> Vec<[f64; 2]> {
        let Some(p) = &self.placed[k] else {
            return mesh.uv.clone();
        };
        let (pw, ph) = (self.pages[p.page].0 as f64, self.pages[p.page].1 as f64);
        mesh.uv
            .iter()
            .map(|uv| {
                let (x, y) = (uv[0] * part.width as f64, uv[1] * part.height as f64);
                [
                    (p.rect[0] as f64 + (x - p.trim[0] as f64) * SCALE) / pw,
                    (p.rect[1] as f64 + (y - p.trim[1] as f64) * SCALE) / ph,
                ]
            })
            .collect()
    }
}

/// The trimmed, scaled image of one part: `(trim, w, h, rgba)`.
type Shrunk = ([usize; 2], usize, usize, Vec<u8>);

/// The crop texel a part's page rectangle starts at and its size in page
/// texels (see the module doc: trim).
fn trim(part: &PartImage, mesh: &PartMesh) -> ([usize; 2], usize, usize) {
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for v in &mesh.verts {
        let (x, y) = (v[0] - part.origin[0] as f64, v[1] - part.origin[1] as f64);
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    let f = FACTOR;
    let tx = ((x0.max(0.0).floor() as usize) / f) * f;
    let ty = ((y0.max(0.0).floor() as usize) / f) * f;
    let ex = (x1.ceil() as usize).min(part.width);
    let ey = (y1.ceil() as usize).min(part.height);
    ([tx, ty], (ex - tx).div_ceil(f), (ey - ty).div_ceil(f))
}

fn shrink(part: &PartImage, mesh: &PartMesh) -> Shrunk {
    let ([tx, ty], w, h) = trim(part, mesh);
    let f = FACTOR;
    let mut out = vec![0u8; w * h * 4];
    for j in 0..h {
        for i in 0..w {
            let mut acc = [0u32; 4];
            for y in ty + j * f..(ty + (j + 1) * f).min(part.height) {
                for x in tx + i * f..(tx + (i + 1) * f).min(part.width) {
                    let s = &part.rgba[(y * part.width + x) * 4..][..4];
                    let a = s[3] as u32;
                    for c in 0..3 {
                        acc[c] += s[c] as u32 * a;
                    }
                    acc[3] += a;
                }
            }
            let o = &mut out[(j * w + i) * 4..][..4];
            if acc[3] > 0 {
                for c in 0..3 {
                    o[c] = ((acc[c] + acc[3] / 2) / acc[3]).min(255) as u8;
                }
                o[3] = ((acc[3] + (f * f) as u32 / 2) / (f * f) as u32).min(255) as u8;
            }
        }
    }
    ([tx, ty], w, h, out)
}

/// Packs the parts (one mesh per declared bone, crop UVs) into pages.
pub fn pack(parts: &[PartImage], meshes: &[PartMesh]) -> Pages {
    pack_with(parts, meshes, true)
}

/// [`pack`]'s placements and page sizes without the pixels (every page's
/// RGBA is empty): all a model needs to place its UVs.
pub fn layout(parts: &[PartImage], meshes: &[PartMesh]) -> Pages {
    pack_with(parts, meshes, false)
}

fn pack_with(parts: &[PartImage], meshes: &[PartMesh], pixels: bool) -> Pages {
    let shrunk: Vec<Option<Shrunk>> = parts
        .iter()
        .zip(meshes)
        .map(|(p, m)| {
            (p.has_part() && !m.verts.is_empty()).then(|| {
                if pixels {
                    shrink(p, m)
                } else {
                    let (t, w, h) = trim(p, m);
                    (t, w, h, Vec::new())
                }
            })
        })
        .collect();
    // tallest first, then by bone: deterministic
    let mut order: Vec<usize> = (0..parts.len()).filter(|&k| shrunk[k].is_some()).collect();
    order.sort_by_key(|&k| (std::cmp::Reverse(shrunk[k].as_ref().map_or(0, |s| s.2)), k));
    let boxes: Vec<(usize, usize)> = order
        .iter()
        .map(|&k| {
            shrunk[k]
                .as_ref()
                .map_or((0, 0), |s| (s.1 + 2 * GUTTER, s.2 + 2 * GUTTER))
        })
        .collect();
    // the page width is chosen by measurement: every width from the widest part to PAGE (step
    // 8), the one whose pages hold the fewest texels (then the fewest pages, then the narrowest)
    let widest = boxes.iter().map(|b| b.0).max().unwrap_or(1).min(PAGE);
    let mut best: Option<(usize, usize, usize)> = None;
    for limit in (widest..=PAGE).step_by(8).chain([PAGE]) {
        let (_, shelves) = shelf(&boxes, limit);
        let texels: usize = extents(&shelves).iter().map(|(w, h)| w * h).sum();
        let key = (texels, shelves.len(), limit);
        if best.is_none_or(|b| key < b) {
            best = Some(key);
        }
    }
    let (spots, shelves) = shelf(&boxes, best.map_or(PAGE, |b| b.2));
    let mut placed: Vec<Option<Placement>> = vec![None; parts.len()];
    for (i, &k) in order.iter().enumerate() {
        let Some((trim, w, h, _)) = &shrunk[k] else {
            continue;
        };
        let (pi, x, y) = spots[i];
        placed[k] = Some(Placement {
            page: pi,
            rect: [x + GUTTER, y + GUTTER, *w, *h],
            trim: *trim,
        });
    }
    let mut pages: Vec<(usize, usize, Vec<u8>)> = extents(&shelves)
        .into_iter()
        .map(|(w, h)| (w, h, vec![0u8; if pixels { w * h * 4 } else { 0 }]))
        .collect();
    for (k, p) in placed.iter().enumerate().filter(|_| pixels) {
        let (Some(p), Some((_, w, h, rgba))) = (p, &shrunk[k]) else {
            continue;
        };
        let (pw, _, px) = &mut pages[p.page];
        for y in 0..*h {
            let dst = ((p.rect[1] + y) * *pw + p.rect[0]) * 4;
            px[dst..dst + w * 4].copy_from_slice(&rgba[y * w * 4..(y + 1) * w * 4]);
        }
    }
    Pages { pages, placed }
}

/// Shelves of one page: `(y, height, x cursor)`.
type Shelves = Vec<(usize, usize, usize)>;

/// Each page's width and height.
fn extents(pages: &[Shelves]) -> Vec<(usize, usize)> {
    pages
        .iter()
        .map(|sh| {
            let w = sh.iter().map(|s| s.2).max().unwrap_or(1).max(1);
            let h = sh.last().map_or(1, |s| s.0 + s.1).max(1);
            (w, h)
        })
        .collect()
}

/// Shelf packing of `boxes` (tallest first) into pages `limit` wide and at
/// most [`PAGE`] tall: each box on the first shelf of the first page with
/// room, else on a new shelf, else on a new page. Returns each box's
/// `(page, x, y)` and the pages' shelves.
fn shelf(boxes: &[(usize, usize)], limit: usize) -> (Vec<(usize, usize, usize)>, Vec<Shelves>) {
    let mut pages: Vec<Shelves> = Vec::new();
    let mut spots = Vec::with_capacity(boxes.len());
    for &(bw, bh) in boxes {
        let mut spot = None;
        'pages: for (pi, sh) in pages.iter_mut().enumerate() {
            for s in sh.iter_mut() {
                if bh <= s.1 && s.2 + bw <= limit {
                    spot = Some((pi, s.2, s.0));
                    s.2 += bw;
                    break 'pages;
                }
            }
            let top = sh.last().map_or(0, |s| s.0 + s.1);
            if top + bh <= PAGE {
                sh.push((top, bh, bw));
                spot = Some((pi, 0, top));
                break;
            }
        }
        spots.push(spot.unwrap_or_else(|| {
            pages.push(vec![(0, bh, bw)]);
            (pages.len() - 1, 0, 0)
        }));
    }
    (spots, pages)
}
