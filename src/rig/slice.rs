//! Stage 3: slicing the silhouette into parts (rig.md §3).
//!
//! - **Tube** of a bone: pixel centres `(x + 0.5, y + 0.5)` whose distance to
//!   the nearest point of some segment of the polyline is at most the radius
//!   interpolated (linearly) at that point.
//! - **Ownership** (`owner`, every pixel with alpha > 0): the nearest
//!   (smallest depth; equal depths: later declared) part whose tube contains
//!   the pixel; a pixel in no tube goes to the tube with the smallest signed
//!   distance (closest outline). `labels` is the ownership map of the
//!   pixels with alpha ≥ 128 (red of `labels.png`: 1 + bone index).
//! - **Part** `k`: its tube cut by the silhouette, plus the pixels it owns
//!   outside its tube. Visible = owned by `k`; hidden = the rest. A hidden
//!   pixel takes the despilled colour of the nearest visible pixel of the
//!   same part (exact Euclidean nearest: Felzenszwalb–Huttenlocher distance
//!   transform with nearest-index propagation; ties: the smaller row, then
//!   column) and its own silhouette alpha. No visible pixel: `E_RIG_PART`.
//! - **Crop**: the part's pixels' bounding box plus [`MARGIN`] px, clipped to
//!   the image. The **pivot** is the bone's first point in the crop's pixels.

use super::RigError;
use super::silhouette::Silhouette;
use super::skeleton::{Bone, Skeleton};

/// Transparent margin around each part's bounding box (px).
pub const MARGIN: usize = 2;

/// Signed distance-like value of `p` to the tube of `b` (≤ 0 inside): the
/// smallest `|p − c(t)| − r(t)` over the segments, `t` the nearest point.
pub fn tube_d(b: &Bone, p: [f64; 2]) -> f64 {
    let mut best = f64::MAX;
    for i in 0..b.points.len() - 1 {
        let (a, q) = (b.points[i], b.points[i + 1]);
        let (ra, rb) = (b.radii[i], b.radii[i + 1]);
        let (dx, dy) = (q[0] - a[0], q[1] - a[1]);
        let (t, l2) = crate::math::nearest_on_segment(p, a, q);
        let (cx, cy) = (a[0] + t * dx, a[1] + t * dy);
        let d = (p[0] - cx).hypot(p[1] - cy)
            - if l2 > 0.0 {
                ra + (rb - ra) * t
            } else {
                ra.max(rb)
            };
        best = best.min(d);
    }
    best
}

/// A tube's pixel bounding box `[x0, y0, x1, y1)` clipped to `w × h`.
pub fn tube_box(b: &Bone, w: usize, h: usize) -> [usize; 4] {
    let r = b.radii.iter().copied().fold(0.0, f64::max);
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for p in &b.points {
        x0 = x0.min(p[0] - r);
        y0 = y0.min(p[1] - r);
        x1 = x1.max(p[0] + r);
        y1 = y1.max(p[1] + r);
    }
    let c = |v: f64, m: usize| (v.floor().max(0.0) as usize).min(m);
    [
        c(x0 - 1.0, w),
        c(y0 - 1.0, h),
        c(x1 + 1.0, w),
        c(y1 + 1.0, h),
    ]
}

/// One part, cropped.
#[derive(Clone, Debug, PartialEq)]
pub struct PartImage {
    /// Bone name.
    pub name: String,
    /// Declared bone index.
    pub bone: usize,
    /// The crop's top-left pixel in the drawing (internal: never written to
    /// the pivot map).
    pub origin: [usize; 2],
    /// Crop width.
    pub width: usize,
    /// Crop height.
    pub height: usize,
    /// RGBA8, straight alpha: visible pixels and the filled hidden area.
    pub rgba: Vec<u8>,
    /// Per crop pixel: 1 where the pixel is hidden fill.
    pub hidden: Vec<u8>,
    /// The bone's first point in the crop's pixels.
    pub pivot: [f64; 2],
    /// Pixels of the part (tube ∩ silhouette, plus owned outside the tube).
    pub area: u64,
    /// Of them, hidden (owned by another part).
    pub hidden_px: u64,
}

impl PartImage {
    /// Hidden share of the part's area.
    pub fn hidden_fraction(&self) -> f64 {
        self.hidden_px as f64 / self.area.max(1) as f64
    }
}

/// The slicing of one drawing.
#[derive(Clone, Debug, PartialEq)]
pub struct Slicing {
    /// Width.
    pub width: usize,
    /// Height.
    pub height: usize,
    /// Owner per pixel with alpha > 0 (1 + bone index; 0 = background).
    pub owner: Vec<u8>,
    /// Parts, declaration order.
    pub parts: Vec<PartImage>,
}

impl Slicing {
    /// The ownership map of pixels with alpha ≥ 128 (the `labels.png` red).
    pub fn labels(&self, sil: &Silhouette) -> Vec<u8> {
        self.owner
            .iter()
            .enumerate()
            .map(|(i, &o)| if sil.alpha(i) >= 128 { o } else { 0 })
            .collect()
    }

    /// Hidden share of all parts' area together.
    pub fn hidden_total(&self) -> f64 {
        let h: u64 = self.parts.iter().map(|p| p.hidden_px).sum();
        let a: u64 = self.parts.iter().map(|p| p.area).sum();
        h as f64 / a.max(1) as f64
    }
}

/// The ownership map (see the module doc).
pub fn ownership(sk: &Skeleton, sil: &Silhouette) -> Vec<u8> {
    let (w, h) = (sil.width as usize, sil.height as usize);
    let mut owner = vec![0u8; w * h];
    for k in sk.far_to_near() {
        let b = &sk.bones[k];
        let [x0, y0, x1, y1] = tube_box(b, w, h);
        for y in y0..y1 {
            for x in x0..x1 {
                let i = y * w + x;
                if sil.alpha(i) > 0 && tube_d(b, [x as f64 + 0.5, y as f64 + 0.5]) <= 0.0 {
                    owner[i] = k as u8 + 1;
                }
            }
        }
    }
    for (i, o) in owner.iter_mut().enumerate() {
        if *o == 0 && sil.alpha(i) > 0 {
            let p = [(i % w) as f64 + 0.5, (i / w) as f64 + 0.5];
            let mut best = (f64::MAX, 0usize);
            for (k, b) in sk.bones.iter().enumerate() {
                let d = tube_d(b, p);
                // equal distance: the nearer part (smaller depth, later declared)
                let better = d < best.0
                    || (d == best.0
                        && (b.depth < sk.bones[best.1].depth
                            || (b.depth == sk.bones[best.1].depth && k > best.1)));
                if better {
                    best = (d, k);
                }
            }
            *o = best.1 as u8 + 1;
        }
    }
    owner
}

const FAR: f64 = 1e20;

/// One 1-D squared distance transform (Felzenszwalb–Huttenlocher) of `f`
/// into `d`, with the index of the minimising sample in `arg`.
fn edt1d(f: &[f64], d: &mut [f64], arg: &mut [usize], v: &mut [usize], z: &mut [f64]) {
    let n = f.len();
    if n == 0 {
        return;
    }
    let mut k = 0usize;
    v[0] = 0;
    z[0] = f64::NEG_INFINITY;
    z[1] = f64::INFINITY;
    let s_of = |q: usize, p: usize| {
        ((f[q] + (q * q) as f64) - (f[p] + (p * p) as f64)) / (2.0 * (q as f64 - p as f64))
    };
    for q in 1..n {
        let mut s = s_of(q, v[k]);
        while s <= z[k] {
            k -= 1; // z[0] = -inf stops this at k = 0
            s = s_of(q, v[k]);
        }
        k += 1;
        v[k] = q;
        z[k] = s;
        z[k + 1] = f64::INFINITY;
    }
    let mut k = 0usize;
    for q in 0..n {
        while z[k + 1] < q as f64 {
            k += 1;
        }
        let p = v[k];
        let dq = q as f64 - p as f64;
        d[q] = dq * dq + f[p];
        arg[q] = p;
    }
}

/// Exact Euclidean nearest feature of every pixel of a `w × h` grid
/// (`feature[i]`); returns the index of the nearest feature pixel per pixel
/// (`usize::MAX` when there is none).
pub fn nearest_feature(feature: &[bool], w: usize, h: usize) -> Vec<usize> {
    let m = w.max(h);
    let (mut f, mut d) = (vec![0.0; m], vec![0.0; m]);
    let (mut arg, mut v, mut z) = (vec![0usize; m], vec![0usize; m], vec![0.0; m + 1]);
    // columns: squared vertical distance and the row of the nearest feature
    let mut col_d = vec![FAR; w * h];
    let mut col_row = vec![0usize; w * h];
    for x in 0..w {
        for y in 0..h {
            f[y] = if feature[y * w + x] { 0.0 } else { FAR };
        }
        edt1d(
            &f[..h],
            &mut d[..h],
            &mut arg[..h],
            &mut v[..h],
            &mut z[..=h],
        );
        for y in 0..h {
            col_d[y * w + x] = d[y];
            col_row[y * w + x] = arg[y];
        }
    }
    let mut out = vec![usize::MAX; w * h];
    for y in 0..h {
        for x in 0..w {
            f[x] = col_d[y * w + x];
        }
        edt1d(
            &f[..w],
            &mut d[..w],
            &mut arg[..w],
            &mut v[..w],
            &mut z[..=w],
        );
        for x in 0..w {
            if d[x] < FAR / 2.0 {
                let cx = arg[x];
                out[y * w + x] = col_row[y * w + cx] * w + cx;
            }
        }
    }
    out
}

/// Cuts every part (see the module doc).
pub fn slice(sk: &Skeleton, sil: &Silhouette) -> Result<Slicing, RigError> {
    let (w, h) = (sil.width as usize, sil.height as usize);
    let owner = ownership(sk, sil);
    let nb = sk.bones.len();
    // bounding boxes of owned pixels
    let mut own_box = vec![[usize::MAX, usize::MAX, 0usize, 0usize]; nb];
    let mut owned = vec![0u64; nb];
    for (i, &o) in owner.iter().enumerate() {
        if o > 0 {
            let k = o as usize - 1;
            let (x, y) = (i % w, i / w);
            let b = &mut own_box[k];
            b[0] = b[0].min(x);
            b[1] = b[1].min(y);
            b[2] = b[2].max(x + 1);
            b[3] = b[3].max(y + 1);
            owned[k] += 1;
        }
    }
    let mut parts = Vec::with_capacity(nb);
    for (k, b) in sk.bones.iter().enumerate() {
        if owned[k] == 0 {
            return Err(RigError::new(
                "E_RIG_PART",
                format!(
                    "bone '{}' has no visible pixel (its tube is off the silhouette or hidden by nearer parts)",
                    b.name
                ),
            ));
        }
        let tb = tube_box(b, w, h);
        let ob = own_box[k];
        // part pixels: tube ∩ silhouette, plus owned; first their bounding box
        let (sx0, sy0, sx1, sy1) = (
            tb[0].min(ob[0]),
            tb[1].min(ob[1]),
            tb[2].max(ob[2]),
            tb[3].max(ob[3]),
        );
        let sw = sx1 - sx0;
        let mut member = vec![false; sw * (sy1 - sy0)];
        let mut bb = [usize::MAX, usize::MAX, 0usize, 0usize];
        for y in sy0..sy1 {
            for x in sx0..sx1 {
                let i = y * w + x;
                if sil.alpha(i) == 0 {
                    continue;
                }
                let m = owner[i] as usize == k + 1
                    || (x >= tb[0]
                        && x < tb[2]
                        && y >= tb[1]
                        && y < tb[3]
                        && tube_d(b, [x as f64 + 0.5, y as f64 + 0.5]) <= 0.0);
                if m {
                    member[(y - sy0) * sw + (x - sx0)] = true;
                    bb[0] = bb[0].min(x);
                    bb[1] = bb[1].min(y);
                    bb[2] = bb[2].max(x + 1);
                    bb[3] = bb[3].max(y + 1);
                }
            }
        }
        let x0 = bb[0].saturating_sub(MARGIN);
        let y0 = bb[1].saturating_sub(MARGIN);
        let x1 = (bb[2] + MARGIN).min(w);
        let y1 = (bb[3] + MARGIN).min(h);
        let (cw, ch) = (x1 - x0, y1 - y0);
        let is_member = |x: usize, y: usize| {
            x >= sx0 && x < sx1 && y >= sy0 && y < sy1 && member[(y - sy0) * sw + (x - sx0)]
        };
        let mut visible = vec![false; cw * ch];
        for y in 0..ch {
            for x in 0..cw {
                visible[y * cw + x] = owner[(y + y0) * w + x + x0] as usize == k + 1;
            }
        }
        let near = nearest_feature(&visible, cw, ch);
        let mut rgba = vec![0u8; cw * ch * 4];
        let mut hidden = vec![0u8; cw * ch];
        let (mut area, mut hidden_px) = (0u64, 0u64);
        for y in 0..ch {
            for x in 0..cw {
                let (gx, gy) = (x + x0, y + y0);
                if !is_member(gx, gy) {
                    continue;
                }
                let ci = y * cw + x;
                let gi = gy * w + gx;
                area += 1;
                let a = sil.alpha(gi);
                if visible[ci] {
                    rgba[ci * 4..ci * 4 + 4].copy_from_slice(&sil.rgba[gi * 4..gi * 4 + 4]);
                } else {
                    hidden_px += 1;
                    hidden[ci] = 1;
                    let j = near[ci];
                    let (nx, ny) = (j % cw + x0, j / cw + y0);
                    let src = (ny * w + nx) * 4;
                    rgba[ci * 4..ci * 4 + 3].copy_from_slice(&sil.rgba[src..src + 3]);
                    rgba[ci * 4 + 3] = a;
                }
            }
        }
        let s = b.start();
        parts.push(PartImage {
            name: b.name.clone(),
            bone: k,
            origin: [x0, y0],
            width: cw,
            height: ch,
            rgba,
            hidden,
            pivot: [s[0] - x0 as f64, s[1] - y0 as f64],
            area,
            hidden_px,
        });
    }
    Ok(Slicing {
        width: w,
        height: h,
        owner,
        parts,
    })
}
