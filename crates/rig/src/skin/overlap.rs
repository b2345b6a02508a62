//! Parts overlap their nearer neighbours (issue 47): every part reaches
//! [`crate::skin::reveal::SEAM_PAD`] drawing pixels under the parts in
//! front of it, so no seam opens between two parts.
//!
//! **Why.** The slicing gives every pixel one owner, so two parts meet
//! edge to edge. The texture pages hold the parts at half scale and the
//! runtime samples them bilinearly: both parts' edges turn half-transparent
//! along the same line, and the background shows through between them
//! (`1 − (1 − a)(1 − b) < 1`): the white hairlines at shoulders and knees.
//! A far part whose hidden fill lies under the near part's edge covers the
//! seam; where its tube ends at the boundary (a forearm lying against the
//! torso's outline) it has no fill there.
//!
//! **Rule.** A part's *ring* is every opaque figure pixel (alpha 255: the
//! outline's own anti-aliased rim is left alone) within `pad` pixels
//! (Chebyshev distance) of a pixel the part owns, owned by a part *nearer*
//! than it (or by none), and not already in the part. Ring pixels are hidden
//! fill: the colour of the part's nearest owned pixel, as the slicing fills
//! its hidden area. At rest they lie under the nearer part, so the
//! reassembly is unchanged; the reveal keeps hidden fill within `pad` of a
//! part's own paint whatever the poses show (`reveal::trim`).

use crate::cut::slice::{MARGIN, PartImage, Slicing, nearest_feature};
use crate::declare::silhouette::Silhouette;
use crate::declare::skeleton::Skeleton;

/// Every part of `sl` extended by its ring (see the module doc); the crops
/// grow where the ring reaches past them. Returns the ring pixels added per
/// part (declaration order).
pub fn extend(sk: &Skeleton, sil: &Silhouette, sl: &mut Slicing, pad: usize) -> Vec<u64> {
    let (w, h) = (sl.width, sl.height);
    let place = sk.near_rank();
    let mut added = vec![0u64; sl.parts.len()];
    if pad == 0 {
        return added;
    }
    for (k, part) in sl.parts.iter_mut().enumerate() {
        if !part.has_part() {
            continue;
        }
        // the ring's box: the crop grown by pad (the owned pixels lie in the crop)
        let gx0 = part.origin[0].saturating_sub(pad);
        let gy0 = part.origin[1].saturating_sub(pad);
        let gx1 = (part.origin[0] + part.width + pad).min(w);
        let gy1 = (part.origin[1] + part.height + pad).min(h);
        let (bw, bh) = (gx1 - gx0, gy1 - gy0);
        let owned: Vec<bool> = (0..bw * bh)
            .map(|i| sl.owner[(i / bw + gy0) * w + i % bw + gx0] as usize == k + 1)
            .collect();
        let near = dilate(&owned, bw, bh, pad);
        let in_part = |gx: usize, gy: usize| {
            gx >= part.origin[0]
                && gy >= part.origin[1]
                && gx < part.origin[0] + part.width
                && gy < part.origin[1] + part.height
                && part.rgba[((gy - part.origin[1]) * part.width + gx - part.origin[0]) * 4 + 3] > 0
        };
        let mut ring: Vec<(usize, usize)> = Vec::new();
        for y in 0..bh {
            for x in 0..bw {
                let (gx, gy) = (x + gx0, y + gy0);
                let gi = gy * w + gx;
                if !near[y * bw + x] || sil.alpha(gi) < 255 || in_part(gx, gy) {
                    continue;
                }
                let o = sl.owner[gi] as usize;
                if o == 0 || place[o - 1] < place[k] {
                    ring.push((gx, gy));
                }
            }
        }
        if ring.is_empty() {
            continue;
        }
        added[k] = ring.len() as u64;
        grow(part, &ring, w, h);
        fill_ring(part, sil, &sl.owner, k, &ring, w);
    }
    added
}

/// The part's crop grown (with the slicing's margin) to hold `ring`.
fn grow(part: &mut PartImage, ring: &[(usize, usize)], w: usize, h: usize) {
    let (mut x0, mut y0) = (part.origin[0], part.origin[1]);
    let (mut x1, mut y1) = (x0 + part.width, y0 + part.height);
    for &(x, y) in ring {
        x0 = x0.min(x.saturating_sub(MARGIN));
        y0 = y0.min(y.saturating_sub(MARGIN));
        x1 = x1.max((x + 1 + MARGIN).min(w));
        y1 = y1.max((y + 1 + MARGIN).min(h));
    }
    if [x0, y0, x1, y1]
        == [
            part.origin[0],
            part.origin[1],
            part.origin[0] + part.width,
            part.origin[1] + part.height,
        ]
    {
        return;
    }
    let (cw, ch) = (x1 - x0, y1 - y0);
    let (dx, dy) = (part.origin[0] - x0, part.origin[1] - y0);
    let mut rgba = vec![0u8; cw * ch * 4];
    let mut hidden = vec![0u8; cw * ch];
    for y in 0..part.height {
        let src = y * part.width;
        let dst = (y + dy) * cw + dx;
        rgba[dst * 4..(dst + part.width) * 4]
            .copy_from_slice(&part.rgba[src * 4..(src + part.width) * 4]);
        hidden[dst..dst + part.width].copy_from_slice(&part.hidden[src..src + part.width]);
    }
    part.origin = [x0, y0];
    part.width = cw;
    part.height = ch;
    part.rgba = rgba;
    part.hidden = hidden;
    part.pivot = [part.pivot[0] + dx as f64, part.pivot[1] + dy as f64];
}

/// Paints the ring: hidden fill in the colour of the part's nearest owned
/// pixel, opaque.
fn fill_ring(
    part: &mut PartImage,
    sil: &Silhouette,
    owner: &[u8],
    k: usize,
    ring: &[(usize, usize)],
    w: usize,
) {
    let (cw, ch) = (part.width, part.height);
    let (x0, y0) = (part.origin[0], part.origin[1]);
    let visible: Vec<bool> = (0..cw * ch)
        .map(|i| owner[(i / cw + y0) * w + i % cw + x0] as usize == k + 1)
        .collect();
    let near = nearest_feature(&visible, cw, ch);
    for &(gx, gy) in ring {
        let ci = (gy - y0) * cw + gx - x0;
        let j = near[ci];
        let src = ((j / cw + y0) * w + j % cw + x0) * 4;
        part.rgba[ci * 4..ci * 4 + 3].copy_from_slice(&sil.rgba[src..src + 3]);
        part.rgba[ci * 4 + 3] = 255;
        part.hidden[ci] = 1;
        part.area += 1;
        part.hidden_px += 1;
    }
}

/// `mask` grown by `r` pixels (a square): a separable dilation.
pub fn dilate(mask: &[bool], w: usize, h: usize, r: usize) -> Vec<bool> {
    let pass = |get: &dyn Fn(usize) -> bool, n: usize, out: &mut dyn FnMut(usize)| {
        let mut last: Option<usize> = None;
        let mut hit = vec![false; n];
        for i in 0..n {
            if get(i) {
                last = Some(i);
            }
            if last.is_some_and(|l| i - l <= r) {
                hit[i] = true;
            }
        }
        let mut next: Option<usize> = None;
        for i in (0..n).rev() {
            if get(i) {
                next = Some(i);
            }
            if hit[i] || next.is_some_and(|l| l - i <= r) {
                out(i);
            }
        }
    };
    let mut rows = vec![false; w * h];
    for y in 0..h {
        pass(&|x| mask[y * w + x], w, &mut |x| rows[y * w + x] = true);
    }
    let mut out = vec![false; w * h];
    for x in 0..w {
        pass(&|y| rows[y * w + x], h, &mut |y| out[y * w + x] = true);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dilation_grows_by_r_in_both_axes() {
        let (w, h) = (9, 7);
        let mut m = vec![false; w * h];
        m[3 * w + 4] = true;
        let d = dilate(&m, w, h, 2);
        assert_eq!(d.iter().filter(|&&v| v).count(), 25);
        assert!(d[w + 2] && d[5 * w + 6] && !d[w + 1] && !d[6 * w + 4]);
        assert_eq!(dilate(&m, w, h, 0), m);
    }
}
