//! Stage 2: the silhouette (rig.md §2): which pixels are the character, with
//! fractional edge alpha and the key colour's spill removed.
//!
//! Rules (*choice* where rig.md is silent):
//! - **Key distance** of a pixel: the largest channel difference to the key
//!   colour. At most [`KEY_TOLERANCE`] is background (alpha 0).
//! - **Auto key**: the most frequent exact colour of the image border (the
//!   outermost row and column on each side). The key must own the border: at
//!   least [`MIN_BORDER_SHARE`] of the border pixels within the tolerance of
//!   it, else `E_RIG_KEY` (an image without a key-coloured border). An
//!   explicit `#rrggbb` key is held to the same rule.
//! - **Edge alpha** (*choice*): a pixel within two pixels of a background
//!   pixel is an edge pixel. Its paint colour `P` is the colour of the pixel
//!   farthest from the key in its 5×5 window; its alpha is the projection of
//!   `c − K` on `P − K` (`c = a·P + (1−a)·K`, the keyed-painting model),
//!   clamped to [0, 1]. Every other pixel off the key is opaque.
//! - **Despill**: an edge pixel's colour is unmixed from the key,
//!   `(c − (1−a)·K) / a`, clamped; under alpha 1/8 the paint colour `P` is
//!   used. No key colour is left in the fringe.
//! - **Alpha** background: the PNG's alpha as it is, colours unchanged; the
//!   border must have a transparent pixel (`E_RIG_KEY` otherwise).
//! - **Paper** background (a photo of a drawing on paper): the figure found
//!   by [`crate::declare::paper`] is opaque, everything else transparent;
//!   colours unchanged (the paper inside an outline stays paper-coloured).
//!   `"auto"` takes it when the border looks like paper
//!   ([`crate::declare::paper::looks_like_paper`]: light and grey) and no
//!   exact colour covers [`PAPER_EXACT_SHARE`] of it.

use crate::RigError;
use crate::declare::skeleton::Background;
use re2d::png_io::RgbaImage;

/// Largest channel difference to the key that still counts as key.
pub const KEY_TOLERANCE: u8 = 24;
/// Share of the border that must be key-coloured.
pub const MIN_BORDER_SHARE: f64 = 0.25;
/// `"auto"` takes a light grey border for paper ([`crate::declare::paper`])
/// unless one exact colour covers at least this share of it (a digital
/// drawing on white is keyed as before; a photo's paper is never one exact
/// colour).
pub const PAPER_EXACT_SHARE: f64 = 0.5;

/// The keyed drawing.
#[derive(Clone, Debug, PartialEq)]
pub struct Silhouette {
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// RGBA8, straight alpha, despilled; alpha 0 = background.
    pub rgba: Vec<u8>,
    /// The key colour used (`None` for an alpha background).
    pub key: Option<[u8; 3]>,
    /// The edge strengths ([`Silhouette::edges`]), computed on first use.
    pub edges: EdgeCache,
}

/// The edge strengths of a silhouette, computed once on first use (the
/// slicing, its confidence and the confidence's control all read them).
/// Equality ignores it: it is a function of the pixels.
#[derive(Clone, Debug, Default)]
pub struct EdgeCache(std::sync::OnceLock<Vec<u8>>);

impl PartialEq for EdgeCache {
    fn eq(&self, _: &EdgeCache) -> bool {
        true
    }
}

impl Silhouette {
    /// Alpha of pixel `i`.
    pub fn alpha(&self, i: usize) -> u8 {
        self.rgba[i * 4 + 3]
    }

    /// Edge strength per pixel: the largest step of any premultiplied
    /// channel (and alpha) to the pixels one and two away along the rows and
    /// columns (outside the image counts as transparent); 0 on the
    /// background. Computed once.
    pub fn edges(&self) -> &[u8] {
        self.edges.0.get_or_init(|| edge_strengths(self))
    }
}

/// [`Silhouette::edges`], computed row by row over a ring of five
/// premultiplied rows, each padded by two transparent pixels per side.
fn edge_strengths(sil: &Silhouette) -> Vec<u8> {
    let (w, h) = (sil.width as usize, sil.height as usize);
    let stride = (w + 4) * 4;
    // premultiplied row y (all zero outside the image: transparent)
    let fill = |row: &mut [u8], y: usize| {
        row.fill(0);
        if y < h {
            for (d, s) in row[8..8 + 4 * w]
                .chunks_exact_mut(4)
                .zip(sil.rgba[y * w * 4..(y + 1) * w * 4].chunks_exact(4))
            {
                let a = s[3] as u32;
                for c in 0..3 {
                    d[c] = ((s[c] as u32 * a + 127) / 255) as u8;
                }
                d[3] = s[3];
            }
        }
    };
    // ring slot of image row y - 2 + r is r % 5; rows -2 and -1 stay transparent
    let slot = |r: usize| (r % 5) * stride;
    let mut ring = vec![0u8; 5 * stride];
    for y in 0..3 {
        fill(&mut ring[slot(y + 2)..][..stride], y);
    }
    let mut acc = vec![0u8; 4 * w];
    let mut e = vec![0u8; w * h];
    for y in 0..h {
        let cur = &ring[slot(y + 2)..][..stride];
        let own = &cur[8..8 + 4 * w];
        acc.fill(0);
        let mut step = |other: &[u8]| {
            for ((m, &a), &b) in acc.iter_mut().zip(own).zip(other) {
                *m = (*m).max(a.abs_diff(b));
            }
        };
        // the pixels one and two away: left and right in the row, then the
        // rows y - 2, y - 1, y + 1, y + 2
        for off in [0, 4, 12, 16] {
            step(&cur[off..off + 4 * w]);
        }
        for r in [y, y + 1, y + 3, y + 4] {
            step(&ring[slot(r) + 8..][..4 * w]);
        }
        for (x, px) in acc.chunks_exact(4).enumerate() {
            if own[4 * x + 3] != 0 {
                e[y * w + x] = px[0].max(px[1]).max(px[2]).max(px[3]);
            }
        }
        // the oldest row (y - 2) makes room for row y + 3
        let s = slot(y + 5);
        fill(&mut ring[s..s + stride], y + 3);
    }
    e
}

fn border_indices(w: usize, h: usize) -> impl Iterator<Item = usize> {
    let top = 0..w;
    let bottom = (0..w).map(move |x| (h - 1) * w + x);
    let left = (1..h.saturating_sub(1)).map(move |y| y * w);
    let right = (1..h.saturating_sub(1)).map(move |y| y * w + w - 1);
    top.chain(bottom).chain(left).chain(right)
}

fn dist(px: &[u8], k: [u8; 3]) -> u8 {
    (0..3).map(|c| px[c].abs_diff(k[c])).max().unwrap_or(0)
}

/// The dominant border colour and the share of the border within the
/// tolerance of it.
pub fn dominant_border(img: &RgbaImage) -> ([u8; 3], f64) {
    let (w, h) = (img.width as usize, img.height as usize);
    let mut counts: std::collections::HashMap<[u8; 3], usize> = std::collections::HashMap::new();
    let mut n = 0usize;
    for i in border_indices(w, h) {
        let p = &img.data[i * 4..i * 4 + 3];
        *counts.entry([p[0], p[1], p[2]]).or_insert(0) += 1;
        n += 1;
    }
    let key = counts
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
        .map_or([0, 0, 0], |(k, _)| *k);
    (key, border_share(img, key, n))
}

/// The share of the border that is exactly `key`.
fn exact_share(img: &RgbaImage, key: [u8; 3]) -> f64 {
    let (w, h) = (img.width as usize, img.height as usize);
    let n = border_indices(w, h).count();
    let same = border_indices(w, h)
        .filter(|&i| img.data[i * 4..i * 4 + 3] == key)
        .count();
    same as f64 / n.max(1) as f64
}

fn border_share(img: &RgbaImage, key: [u8; 3], n: usize) -> f64 {
    let (w, h) = (img.width as usize, img.height as usize);
    let near = border_indices(w, h)
        .filter(|&i| dist(&img.data[i * 4..i * 4 + 3], key) <= KEY_TOLERANCE)
        .count();
    near as f64 / n.max(1) as f64
}

/// The figure on paper as a silhouette: opaque where
/// [`crate::declare::paper::figure`] finds it, transparent elsewhere.
fn on_paper(img: &RgbaImage) -> Silhouette {
    let fig = crate::declare::paper::figure(img);
    let mut rgba = img.data.clone();
    for (p, &m) in rgba.chunks_exact_mut(4).zip(&fig.mask) {
        p[3] = if m { 255 } else { 0 };
        if !m {
            p[..3].fill(0);
        }
    }
    Silhouette {
        width: img.width,
        height: img.height,
        rgba,
        key: None,
        edges: EdgeCache::default(),
    }
}

/// Keys `img` by `bg` (see the module doc).
pub fn silhouette(img: &RgbaImage, bg: Background) -> Result<Silhouette, RigError> {
    let (w, h) = (img.width as usize, img.height as usize);
    let key = match bg {
        Background::Alpha => {
            if !border_indices(w, h).any(|i| img.data[i * 4 + 3] == 0) {
                return Err(RigError::new(
                    "E_RIG_KEY",
                    "background \"alpha\" but no border pixel of the image is transparent",
                ));
            }
            return Ok(Silhouette {
                width: img.width,
                height: img.height,
                rgba: img.data.clone(),
                key: None,
                edges: EdgeCache::default(),
            });
        }
        Background::Paper => return Ok(on_paper(img)),
        Background::Auto => {
            let (k, share) = dominant_border(img);
            if exact_share(img, k) < PAPER_EXACT_SHARE
                && crate::declare::paper::looks_like_paper(img)
            {
                return Ok(on_paper(img));
            }
            if share < MIN_BORDER_SHARE {
                return Err(RigError::new(
                    "E_RIG_KEY",
                    format!(
                        "no key-coloured border: the most frequent border colour #{:02x}{:02x}{:02x} covers {:.1} % of the border (at least {:.0} % needed)",
                        k[0],
                        k[1],
                        k[2],
                        share * 100.0,
                        MIN_BORDER_SHARE * 100.0
                    ),
                ));
            }
            k
        }
        Background::Key(k) => {
            let n = border_indices(w, h).count();
            let share = border_share(img, k, n);
            if share < MIN_BORDER_SHARE {
                return Err(RigError::new(
                    "E_RIG_KEY",
                    format!(
                        "no key-coloured border: #{:02x}{:02x}{:02x} covers {:.1} % of the border (at least {:.0} % needed)",
                        k[0],
                        k[1],
                        k[2],
                        share * 100.0,
                        MIN_BORDER_SHARE * 100.0
                    ),
                ));
            }
            k
        }
    };
    let n = w * h;
    // key distance per pixel, and "background within 2 px" by a separable dilation
    let d: Vec<u8> = img.data.chunks_exact(4).map(|p| dist(p, key)).collect();
    let mut near = vec![false; n];
    {
        let mut row = vec![false; n];
        for y in 0..h {
            for x in 0..w {
                let lo = x.saturating_sub(2);
                let hi = (x + 2).min(w - 1);
                row[y * w + x] = (lo..=hi).any(|xx| d[y * w + xx] <= KEY_TOLERANCE);
            }
        }
        for y in 0..h {
            let lo = y.saturating_sub(2);
            let hi = (y + 2).min(h - 1);
            for x in 0..w {
                near[y * w + x] = (lo..=hi).any(|yy| row[yy * w + x]);
            }
        }
    }
    let mut out = img.data.clone();
    let kf = [key[0] as f64, key[1] as f64, key[2] as f64];
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            let src_a = img.data[i * 4 + 3] as f64 / 255.0;
            if d[i] <= KEY_TOLERANCE {
                out[i * 4..i * 4 + 4].copy_from_slice(&[0, 0, 0, 0]);
                continue;
            }
            if !near[i] {
                continue; // opaque paint, unchanged
            }
            // paint colour: the pixel farthest from the key in the 5x5 window
            let mut best = i;
            for yy in y.saturating_sub(2)..=(y + 2).min(h - 1) {
                for xx in x.saturating_sub(2)..=(x + 2).min(w - 1) {
                    let j = yy * w + xx;
                    if d[j] > d[best] {
                        best = j;
                    }
                }
            }
            let c = &img.data[i * 4..i * 4 + 3];
            let p = &img.data[best * 4..best * 4 + 3];
            let (mut num, mut den) = (0.0, 0.0);
            for k in 0..3 {
                let pk = p[k] as f64 - kf[k];
                num += (c[k] as f64 - kf[k]) * pk;
                den += pk * pk;
            }
            let a = if best == i || den <= 0.0 {
                1.0
            } else {
                (num / den).clamp(0.0, 1.0)
            };
            let mut rgb = [0u8; 3];
            for k in 0..3 {
                rgb[k] = if a < 0.125 {
                    p[k]
                } else {
                    ((c[k] as f64 - (1.0 - a) * kf[k]) / a)
                        .round()
                        .clamp(0.0, 255.0) as u8
                };
            }
            let alpha = (a * src_a * 255.0).round().clamp(0.0, 255.0) as u8;
            out[i * 4..i * 4 + 4].copy_from_slice(&[rgb[0], rgb[1], rgb[2], alpha]);
        }
    }
    Ok(Silhouette {
        width: img.width,
        height: img.height,
        rgba: out,
        key: Some(key),
        edges: EdgeCache::default(),
    })
}
