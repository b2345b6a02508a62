//! Seams between parts (issue 47): pixels inside the posed silhouette that
//! the parts leave uncovered.
//!
//! The **silhouette** of a pose is every pixel where some part drew a texel
//! of alpha > 0 ([`crate::reference::Rendered::silhouette`]). Its
//! **interior** is the silhouette eroded by the `rim` (a square): the
//! outline's own soft edge is not a seam. The **joins** are the pixels where
//! two or more parts drew such a texel: where parts meet. A pixel of the
//! interior's joins is **uncovered** when the frame's alpha there is below
//! [`OPAQUE`]: the background (the paper) shows through between two parts.
//! Two parts whose soft edges meet without one lying under the other leave
//! such a hairline (each edge lets a share of the background through:
//! `1 − (1−a)(1−b) < 1`). A semi-transparent texel inside one part (the
//! edge of its own fill) is that part's paint, not a seam, and is not
//! counted.
//!
//! The rim is [`RIM_TEXELS`] texels of the model's textures (the pages are
//! sampled bilinearly: a soft edge is about two texels wide), in pixels of
//! the render: 4 px for a `rig build` model (its pages hold the drawing at
//! half scale), 1 px for the browser harness's quarter-size fixtures.
//!
//! The same count is made on the official runtime's frames in Chromium
//! (`tests/browser/metrics.mjs`, `uncovered`), against the silhouette the
//! reference renderer gives for the same pose (`re2d riv render-ref
//! --silhouette`).

use super::error::{Code, RivError, err};
use super::model::Model;
use super::reference::{Scene, render_scene};
use re2d::limits::Limits;

/// Texels of the textures the silhouette is eroded by before counting.
pub const RIM_TEXELS: f64 = 2.0;
/// Alpha below which an interior pixel counts as uncovered.
pub const OPAQUE: u8 = 250;
/// The bound of the seam check: uncovered pixels at most this share of the
/// silhouette in every sampled frame (0.05 %).
pub const MAX_SHARE: f64 = 0.0005;

/// A frame's seam count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seams {
    /// Interior pixels with alpha below [`OPAQUE`].
    pub uncovered: u64,
    /// Pixels of the silhouette.
    pub silhouette: u64,
}

impl Seams {
    /// Uncovered pixels as a share of the silhouette (0 for an empty one).
    pub fn share(&self) -> f64 {
        if self.silhouette == 0 {
            0.0
        } else {
            self.uncovered as f64 / self.silhouette as f64
        }
    }
}

/// `mask` (`w`×`h`, row-major) eroded by `r` pixels (a square): a pixel
/// stays when every pixel within `r` in x and y is set (outside the image
/// counts as unset).
pub fn erode(mask: &[bool], w: usize, h: usize, r: usize) -> Vec<bool> {
    // a run-length pass per row, then per column
    let run = |get: &dyn Fn(usize) -> bool, n: usize, out: &mut dyn FnMut(usize, bool)| {
        // distance to the nearest unset pixel on the left and on the right
        let mut left = vec![0usize; n];
        let mut d = 0usize;
        for i in 0..n {
            d = if get(i) { d + 1 } else { 0 };
            left[i] = d;
        }
        let mut d = 0usize;
        for i in (0..n).rev() {
            d = if get(i) { d + 1 } else { 0 };
            out(i, left[i] > r && d > r);
        }
    };
    let mut rows = vec![false; w * h];
    for y in 0..h {
        run(&|x| mask[y * w + x], w, &mut |x, v| rows[y * w + x] = v);
    }
    let mut out = vec![false; w * h];
    for x in 0..w {
        run(&|y| rows[y * w + x], h, &mut |y, v| out[y * w + x] = v);
    }
    out
}

/// The model's texel size in model pixels: the median over its textured
/// triangles of `sqrt(model area / texel area)` (1 without any).
pub fn texel_size(model: &Model) -> f64 {
    let mut sizes: Vec<f64> = Vec::new();
    for p in &model.parts {
        let Some(t) = p.texture.map(|t| &model.textures[t]) else {
            continue;
        };
        let (tw, th) = (t.width as f64, t.height as f64);
        for tri in p.tris.chunks_exact(3) {
            let [a, b, c] = [tri[0] as usize, tri[1] as usize, tri[2] as usize];
            let cross = |p: [f64; 2], q: [f64; 2], r: [f64; 2]| {
                ((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])).abs()
            };
            let am = cross(p.verts[a], p.verts[b], p.verts[c]);
            let at = cross(p.uv[a], p.uv[b], p.uv[c]) * tw * th;
            if am > 0.0 && at > 0.0 && (am / at).is_finite() {
                sizes.push((am / at).sqrt());
            }
        }
    }
    if sizes.is_empty() {
        return 1.0;
    }
    sizes.sort_by(f64::total_cmp);
    sizes[sizes.len() / 2]
}

/// The rim eroded from the silhouette, in render pixels, for a render at
/// `scale` render pixels per model pixel: [`RIM_TEXELS`] texels, at least 1.
pub fn rim(model: &Model, scale: f64) -> usize {
    (RIM_TEXELS * texel_size(model) * scale)
        .ceil()
        .clamp(1.0, 1024.0) as usize
}

/// The pixels a seam is counted on: the joins (`cover ≥ 2`) inside the
/// silhouette (`cover ≥ 1`) eroded by `rim`.
pub fn mask(cover: &[u8], w: usize, h: usize, rim: usize) -> Vec<bool> {
    let sil: Vec<bool> = cover.iter().map(|&c| c > 0).collect();
    let mut m = erode(&sil, w, h, rim);
    for (m, &c) in m.iter_mut().zip(cover) {
        *m &= c >= 2;
    }
    m
}

/// Counts the uncovered pixels of `rgba` (`w`×`h` straight-alpha RGBA8) on
/// the [`mask`] of `cover` (the render's per-pixel part count).
pub fn count(rgba: &[u8], cover: &[u8], w: usize, h: usize, rim: usize) -> Seams {
    let uncovered = mask(cover, w, h, rim)
        .iter()
        .enumerate()
        .filter(|&(i, &m)| m && rgba[i * 4 + 3] < OPAQUE)
        .count() as u64;
    Seams {
        uncovered,
        silhouette: cover.iter().filter(|&&c| c > 0).count() as u64,
    }
}

/// One counted frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Counted {
    /// The clip (`None`: the rest pose).
    pub clip: Option<String>,
    /// Clip time, seconds.
    pub time: f64,
    /// Its count.
    pub seams: Seams,
}

/// Counts the rest pose and `samples` frames of each of `clips` (evenly
/// over its duration, from 0), rendered by the reference renderer.
pub fn survey(
    model: &Model,
    clips: &[String],
    samples: u32,
    fps: u32,
    limits: &Limits,
) -> Result<Vec<Counted>, RivError> {
    for c in clips {
        if model.clip(c).is_none() {
            return err(Code::Clip, format!("unknown clip '{c}'"));
        }
    }
    let mut out = Vec::new();
    let r = rim(model, 1.0);
    let mut frame = |clip: Option<&String>, time: f64| -> Result<(), RivError> {
        let sc = Scene {
            layers: clip.iter().map(|c| ((*c).clone(), time)).collect(),
            fps,
            silhouette: true,
            ..Scene::default()
        };
        let rgba = render_scene(model, &sc, limits)?;
        let cover = rgba.silhouette.clone().unwrap_or_default();
        let (w, h) = (rgba.image.width as usize, rgba.image.height as usize);
        out.push(Counted {
            clip: clip.cloned(),
            time,
            seams: count(&rgba.image.data, &cover, w, h, r),
        });
        Ok(())
    };
    frame(None, 0.0)?;
    for c in clips {
        let d = model.clip(c).map_or(0.0, |x| x.duration);
        for i in 0..samples {
            frame(Some(c), d * i as f64 / samples.max(1) as f64)?;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erosion_keeps_pixels_r_inside() {
        // a 7×5 block in a 9×7 image: eroded by 1 it is 5×3, by 2 it is 3×1
        let (w, h) = (9, 7);
        let m: Vec<bool> = (0..w * h)
            .map(|i| (1..8).contains(&(i % w)) && (1..6).contains(&(i / w)))
            .collect();
        assert_eq!(erode(&m, w, h, 1).iter().filter(|&&v| v).count(), 15);
        let e2 = erode(&m, w, h, 2);
        assert_eq!(e2.iter().filter(|&&v| v).count(), 3);
        assert!(e2[3 * w + 3] && e2[3 * w + 5] && !e2[2 * w + 4]);
        assert_eq!(erode(&m, w, h, 0), m);
    }

    #[test]
    fn a_hairline_between_parts_is_counted_and_the_rim_is_not() {
        // two parts side by side in a 10×10 square (columns 1..=5 and 6..=10)
        // whose soft edges both touch column 6 (alpha 180 there: a seam); the
        // square's outer rim is half transparent; a semi-transparent pixel
        // inside one part only (column 3) is its own paint, not a seam
        let (w, h) = (12, 12);
        let mut rgba = vec![0u8; w * h * 4];
        let mut cover = vec![0u8; w * h];
        for y in 1..11 {
            for x in 1..11 {
                let rim = x == 1 || x == 10 || y == 1 || y == 10;
                rgba[(y * w + x) * 4 + 3] = if rim {
                    128
                } else if x == 6 || x == 3 {
                    180
                } else {
                    255
                };
                cover[y * w + x] = if x == 6 { 2 } else { 1 };
            }
        }
        let s = count(&rgba, &cover, w, h, 2);
        assert_eq!(s.silhouette, 100);
        // the interior (eroded by 2) is rows/columns 3..=8; the seam column crosses it
        assert_eq!(s.uncovered, 6);
        assert!((s.share() - 0.06).abs() < 1e-12);
        assert_eq!(mask(&cover, w, h, 2).iter().filter(|&&m| m).count(), 6);
        for y in 1..11 {
            rgba[(y * w + 6) * 4 + 3] = 255;
        }
        assert_eq!(count(&rgba, &cover, w, h, 2).uncovered, 0);
    }
}
