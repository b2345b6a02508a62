//! Cutting the parts out of an ownership map (rig.md §3): a part's pixels, its crop, its
//! hidden fill (exact Euclidean nearest visible pixel), the partless and sliver warnings.
//!
//! - **Part** `k`: its tube cut by the silhouette, less the pixels a part farther than `k`
//!   owns (its hidden fill never covers their paint at rest), plus the pixels it owns
//!   outside its tube. Visible = owned by `k`; hidden = the rest. A hidden pixel takes the
//!   despilled colour of the nearest visible pixel of the same part (exact Euclidean
//!   nearest: Felzenszwalb–Huttenlocher distance transform with nearest-index propagation;
//!   ties: the smaller row, then column) and its own silhouette alpha.
//! - A bone whose paint comes from layers of a layered drawing ([`Own`]): its part is its
//!   layers composited (their own colours and alpha, also under nearer layers: hidden paint,
//!   `hidden` = 2, never filled), plus the pixels it owns from layers of no bone.
//! - **Partless bones**: a bone with no visible pixel has no part (a 0 × 0 image); unless
//!   declared `"part": false` this is a warning naming the tubes that own its tube's pixels
//!   (at most two with ≥ 10 % each), their depths and radii. A visible part under [`SLIVER`]
//!   of its tube's pixels is a *sliver* warning with the same culprits.
//! - **Crop**: the part's pixels' bounding box plus [`MARGIN`] px, clipped to the image. The
//!   **pivot** is the bone's first point in the crop's pixels.

use crate::RigError;
use crate::cut::slice::{for_tube_pixels, tube_d};
use crate::declare::layers::Layered;
use crate::declare::silhouette::Silhouette;
use crate::declare::skeleton::{Skeleton, tube_box};

/// Transparent margin around each part's bounding box (px).
pub const MARGIN: usize = 2;

/// The layers of a layered drawing and the bone each belongs to (`None`: no bone).
pub struct Own<'a> {
    /// The drawing's layers.
    pub layered: &'a Layered,
    /// Per layer: its bone.
    pub bone_of: &'a [Option<usize>],
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
    /// Per crop pixel: 1 where the pixel is hidden fill, 2 where it is a layer's own paint
    /// under nearer layers, 0 where it is visible or transparent.
    pub hidden: Vec<u8>,
    /// The bone's first point in the crop's pixels.
    pub pivot: [f64; 2],
    /// Pixels of the part (tube ∩ silhouette, plus owned outside the tube).
    pub area: u64,
    /// Of them, hidden (owned by another part).
    pub hidden_px: u64,
    /// Of the hidden, filled with the nearest visible pixel's colour (`hidden` = 1); the
    /// rest is a layer's own paint under nearer layers (`hidden` = 2).
    pub filled_px: u64,
    /// Pixels of the figure inside the bone's tube.
    pub tube_px: u64,
    /// Visible pixels (owned by the bone).
    pub visible_px: u64,
}

impl PartImage {
    /// The 0 × 0 image of a bone without a part, `tube_px` figure pixels in its tube.
    pub fn partless(sk: &Skeleton, bone: usize, tube_px: u64) -> PartImage {
        PartImage {
            name: sk.bones[bone].name.clone(),
            bone,
            origin: [0, 0],
            width: 0,
            height: 0,
            rgba: Vec::new(),
            hidden: Vec::new(),
            pivot: [0.0, 0.0],
            area: 0,
            hidden_px: 0,
            filled_px: 0,
            tube_px,
            visible_px: 0,
        }
    }

    /// Hidden share of the part's area.
    pub fn hidden_fraction(&self) -> f64 {
        self.hidden_px as f64 / self.area.max(1) as f64
    }

    /// False for a partless bone (no visible paint, or `"part": false`): no
    /// image (0 × 0), no mesh.
    pub fn has_part(&self) -> bool {
        self.width > 0
    }
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
    // columns: squared vertical distance and the row of the nearest feature.
    // On 0/FAR samples the transform is exact: a column with a feature gets the
    // nearest feature row (equal distances: the row above, as `edt1d` picks the
    // left parabola where two meet), found by a scan down and one up, row by row
    let mut col_d = vec![FAR; w * h];
    let mut col_row = vec![0usize; w * h];
    let mut above = vec![usize::MAX; w];
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if feature[i] {
                above[x] = y;
            }
            if above[x] != usize::MAX {
                let dq = (y - above[x]) as f64;
                col_d[i] = dq * dq;
                col_row[i] = above[x];
            }
        }
    }
    let mut below = vec![usize::MAX; w];
    for y in (0..h).rev() {
        for x in 0..w {
            let i = y * w + x;
            if feature[i] {
                below[x] = y;
            }
            // no feature above (the first scan left FAR), or the one below is nearer
            if below[x] != usize::MAX && (col_d[i] == FAR || below[x] - y < y - col_row[i]) {
                let dq = (below[x] - y) as f64;
                col_d[i] = dq * dq;
                col_row[i] = below[x];
            }
        }
    }
    // a column without features: the transform of FAR everywhere, as `edt1d` gives it
    if above.contains(&usize::MAX) {
        f[..h].fill(FAR);
        edt1d(
            &f[..h],
            &mut d[..h],
            &mut arg[..h],
            &mut v[..h],
            &mut z[..=h],
        );
        for x in (0..w).filter(|&x| above[x] == usize::MAX) {
            for y in 0..h {
                col_d[y * w + x] = d[y];
                col_row[y * w + x] = arg[y];
            }
        }
    }
    let mut out = vec![usize::MAX; w * h];
    for y in 0..h {
        let cd = &col_d[y * w..(y + 1) * w];
        // a row no column's feature reaches stays without one
        if cd.iter().all(|&c| c >= FAR / 2.0) {
            continue;
        }
        f[..w].copy_from_slice(cd);
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

/// Share of its tube below which a visible part is a sliver (a warning).
pub const SLIVER: f64 = 0.005;

/// Whether bone `k` (declared with a part) gets one, from the pixels it owns and the figure
/// pixels of its tube (`by`: those per owner), and the warning it earns: partless (0 visible
/// px) or a sliver (under [`SLIVER`] of its tube), naming the tubes that took its paint; a
/// tube on no pixel of the figure is `E_RIG_PART`. The slicing's and the editor preview's
/// rule.
pub fn verdict(
    sk: &Skeleton,
    k: usize,
    owned: u64,
    tube_px: u64,
    by: &[u64],
) -> Result<(bool, Option<String>), RigError> {
    let b = &sk.bones[k];
    if tube_px == 0 {
        return Err(RigError::new(
            "E_RIG_PART",
            format!(
                "bone '{}': its tube contains no pixel of the figure; move its points onto the drawing or declare \"part\": false",
                b.name
            ),
        ));
    }
    if owned == 0 {
        let w = format!(
            "{}: 0 visible px, no part (a partless bone that still moves its children); {}",
            b.name,
            culprits(sk, k, by)
        );
        return Ok((false, Some(w)));
    }
    let sliver = ((owned as f64) < SLIVER * tube_px as f64).then(|| {
        format!(
            "{}: only {} visible px ({:.2} % of its tube), a sliver; {}",
            b.name,
            owned,
            owned as f64 * 100.0 / tube_px as f64,
            culprits(sk, k, by)
        )
    });
    Ok((true, sliver))
}

/// The tubes owning most of bone `k`'s tube pixels (at least 10 % each, at
/// most two), as a clause naming each with its depth and radius.
fn culprits(sk: &Skeleton, k: usize, counts: &[u64]) -> String {
    let total: u64 = counts.iter().sum();
    let mut list: Vec<(u64, usize)> = counts
        .iter()
        .enumerate()
        .filter(|&(j, &c)| j != k && c > 0 && c * 10 >= total)
        .map(|(j, &c)| (c, j))
        .collect();
    list.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    list.truncate(2);
    if list.is_empty() {
        return "its tube lies on no other part's paint; move its points onto the paint".into();
    }
    let s = sk.bones[k].start();
    let named: Vec<String> = list
        .iter()
        .map(|&(_, j)| {
            let b = &sk.bones[j];
            let (mut bi, mut bd) = (0usize, f64::MAX);
            for (i, p) in b.points.iter().enumerate() {
                let d = (p[0] - s[0]).hypot(p[1] - s[1]);
                if d < bd {
                    (bi, bd) = (i, d);
                }
            }
            format!(
                "{} (depth {}, radius {} px at its point {bi})",
                b.name,
                b.depth,
                (b.radii[bi] * 10.0).round() / 10.0
            )
        })
        .collect();
    format!(
        "its paint lies inside the tubes of {}; lower those radii at the joint, or declare \"part\": false if it is hidden",
        named.join(" and ")
    )
}

/// The error when the cut leaves no bone a part (`E_RIG_PART`).
pub(crate) fn no_part() -> RigError {
    RigError::new(
        "E_RIG_PART",
        "no bone has a part: every bone is partless or declared \"part\": false",
    )
}

/// Cuts every bone's part out of the ownership map `owner` (1 + bone per pixel with
/// alpha above 0); with `layers`, the bones with layers take their layers' paint. Returns
/// the parts (declaration order; a partless bone has a 0 × 0 image) and the warnings;
/// `E_RIG_PART` when no bone has a part.
pub fn cut_parts(
    sk: &Skeleton,
    sil: &Silhouette,
    owner: &[u8],
    layers: Option<&Own>,
    ink: &[bool],
) -> Result<(Vec<PartImage>, Vec<String>), RigError> {
    let (w, h) = (sil.width as usize, sil.height as usize);
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
    // place nearest-first: a part's hidden fill never covers the visible
    // paint of a part behind it
    let place = sk.near_rank();
    let mut parts = Vec::with_capacity(nb);
    let mut warnings = Vec::new();
    for (k, b) in sk.bones.iter().enumerate() {
        let tb = tube_box(b, w, h);
        // the figure inside the tube, by owner (for the culprits)
        let mut by = vec![0u64; nb];
        let mut tube_px = 0u64;
        for_tube_pixels(b, sil, |i| {
            tube_px += 1;
            if owner[i] > 0 {
                by[owner[i] as usize - 1] += 1;
            }
        });
        if !b.part {
            parts.push(PartImage::partless(sk, k, tube_px));
            continue;
        }
        if let Some(own) = layers
            && own.bone_of.contains(&Some(k))
        {
            parts.push(layer_part(
                k,
                sk,
                sil,
                owner,
                own,
                (own_box[k], owned[k]),
                tube_px,
            ));
            continue;
        }
        let (has_part, warning) = verdict(sk, k, owned[k], tube_px, &by)?;
        warnings.extend(warning);
        if !has_part {
            parts.push(PartImage::partless(sk, k, tube_px));
            continue;
        }
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
                let o = owner[i] as usize;
                let m = o == k + 1
                    || ((o == 0 || place[o - 1] < place[k])
                        && x >= tb[0]
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
        // the fill's sources: clean visible paint, off the lines and the border (fill.rs)
        let clean = crate::cut::fill::sources(
            &visible,
            |ci| ink.get((ci / cw + y0) * w + ci % cw + x0) == Some(&true),
            cw,
            ch,
        );
        let near = nearest_feature(&clean, cw, ch);
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
            filled_px: hidden_px,
            tube_px,
            visible_px: owned[k],
        });
    }
    if parts.iter().all(|p| !p.has_part()) {
        return Err(no_part());
    }
    Ok((parts, warnings))
}

/// The part of bone `k` whose paint comes from layers: its layers composited far to near
/// (their own colours and alpha; under nearer layers `hidden` = 2), plus the pixels it owns
/// where none of its layers paints (the drawing's colour there), cropped with [`MARGIN`].
fn layer_part(
    k: usize,
    sk: &Skeleton,
    sil: &Silhouette,
    owner: &[u8],
    own: &Own,
    (owned_box, visible_px): ([usize; 4], u64),
    tube_px: u64,
) -> PartImage {
    let (w, h) = (sil.width as usize, sil.height as usize);
    let mine: Vec<&crate::declare::layers::Layer> = own
        .layered
        .layers
        .iter()
        .zip(own.bone_of)
        .filter(|(_, b)| **b == Some(k))
        .map(|(l, _)| l)
        .collect();
    // the box of its layers and of its owned pixels
    let mut bb = [usize::MAX, usize::MAX, 0usize, 0usize];
    for l in &mine {
        bb = [
            bb[0].min(l.x),
            bb[1].min(l.y),
            bb[2].max(l.x + l.w),
            bb[3].max(l.y + l.h),
        ];
    }
    if visible_px > 0 {
        let o = owned_box;
        bb = [
            bb[0].min(o[0]),
            bb[1].min(o[1]),
            bb[2].max(o[2]),
            bb[3].max(o[3]),
        ];
    }
    let (bw, bh) = (bb[2] - bb[0], bb[3] - bb[1]);
    // its layers composited (straight colour, alpha) as the drawing is flattened; one
    // layer (the usual case) is its own paint
    let mut paint = vec![0u8; bw * bh * 4];
    if let [l] = mine.as_slice() {
        for ly in 0..l.h {
            let o = ((l.y + ly - bb[1]) * bw + (l.x - bb[0])) * 4;
            paint[o..o + l.w * 4].copy_from_slice(&l.rgba[ly * l.w * 4..(ly + 1) * l.w * 4]);
        }
    } else {
        let mut acc = vec![[0f32; 4]; bw * bh];
        for l in &mine {
            for ly in 0..l.h {
                for lx in 0..l.w {
                    let sp = &l.rgba[(ly * l.w + lx) * 4..(ly * l.w + lx) * 4 + 4];
                    if sp[3] == 0 {
                        continue;
                    }
                    let a = sp[3] as f32 / 255.0;
                    let d = &mut acc[(l.y + ly - bb[1]) * bw + (l.x + lx - bb[0])];
                    let da = d[3] * (1.0 - a);
                    let na = a + da;
                    for ch in 0..3 {
                        d[ch] = (sp[ch] as f32 / 255.0 * a + d[ch] * da) / na;
                    }
                    d[3] = na;
                }
            }
        }
        let to8 = |v: f32| (v * 255.0).round().clamp(0.0, 255.0) as u8;
        for (px, d) in paint.chunks_exact_mut(4).zip(&acc) {
            if d[3] > 0.0 {
                px.copy_from_slice(&[to8(d[0]), to8(d[1]), to8(d[2]), to8(d[3])]);
            }
        }
    }
    // the tight box of its paint, then the crop
    let mut tb = [usize::MAX, usize::MAX, 0usize, 0usize];
    for y in 0..bh {
        for x in 0..bw {
            let (gx, gy) = (x + bb[0], y + bb[1]);
            if paint[(y * bw + x) * 4 + 3] > 0 || owner[gy * w + gx] as usize == k + 1 {
                tb = [
                    tb[0].min(gx),
                    tb[1].min(gy),
                    tb[2].max(gx + 1),
                    tb[3].max(gy + 1),
                ];
            }
        }
    }
    let b = &sk.bones[k];
    if tb[0] == usize::MAX {
        return PartImage::partless(sk, k, tube_px);
    }
    let x0 = tb[0].saturating_sub(MARGIN);
    let y0 = tb[1].saturating_sub(MARGIN);
    let x1 = (tb[2] + MARGIN).min(w);
    let y1 = (tb[3] + MARGIN).min(h);
    let (cw, ch) = (x1 - x0, y1 - y0);
    let mut rgba = vec![0u8; cw * ch * 4];
    let mut hidden = vec![0u8; cw * ch];
    let (mut area, mut hidden_px) = (0u64, 0u64);
    for y in 0..ch {
        for x in 0..cw {
            let (gx, gy) = (x + x0, y + y0);
            let gi = gy * w + gx;
            let ci = y * cw + x;
            let inside = gx >= bb[0] && gx < bb[2] && gy >= bb[1] && gy < bb[3];
            let d: [u8; 4] = if inside {
                let o = ((gy - bb[1]) * bw + (gx - bb[0])) * 4;
                [paint[o], paint[o + 1], paint[o + 2], paint[o + 3]]
            } else {
                [0; 4]
            };
            let mine_here = owner[gi] as usize == k + 1;
            if d[3] > 0 {
                rgba[ci * 4..ci * 4 + 4].copy_from_slice(&d);
                area += 1;
                if !mine_here {
                    hidden[ci] = 2;
                    hidden_px += 1;
                }
            } else if mine_here {
                rgba[ci * 4..ci * 4 + 4].copy_from_slice(&sil.rgba[gi * 4..gi * 4 + 4]);
                area += 1;
            }
        }
    }
    let s = b.start();
    PartImage {
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
        filled_px: 0,
        tube_px,
        visible_px,
    }
}
