//! The tubes of the declared bones (rig.md §3): their exact geometry, what they say
//! about each pixel ([`Cover`]: the nearest tube, the tubes containing it, cores, inner
//! zones along the body and in the end caps), and the tubes fitted to the paint
//! ([`fitted`]). Used by every slicing rule.
//!
//! - **Tube** of a bone: pixel centres `(x + 0.5, y + 0.5)` whose distance to the nearest
//!   point of some segment of the polyline is at most the radius interpolated (linearly) at
//!   that point. Its **core**: within [`CORE`] · radius of the axis. Its **inner zone**:
//!   deeper than [`SEED_IN`] · radius inside the outline — along the **body** where the
//!   nearest axis point lies on the polyline, in an **end cap** where it is the polyline's
//!   first or last point (the round end beyond the points).

use crate::cut::ink::Ink;
use crate::declare::silhouette::Silhouette;
use crate::declare::skeleton::{Bone, Skeleton, tube_box};

/// Signed distance-like value of `p` to the tube of `b` (≤ 0 inside): the
/// smallest `|p − c(t)| − r(t)` over the segments, `t` the nearest point.
pub fn tube_d(b: &Bone, p: [f64; 2]) -> f64 {
    segments_d_r(b, p).fold(f64::MAX, |best, (d, r)| best.min(d - r))
}

/// [`tube_d`] of `p` and the axis point it is measured from.
pub(crate) fn tube_nearest(b: &Bone, p: [f64; 2]) -> (f64, [f64; 2]) {
    segments_d_r_c(b, p).fold((f64::MAX, p), |best, (d, r, c)| {
        if d - r < best.0 { (d - r, c) } else { best }
    })
}

/// Per segment of `b`: the distance `|p − c(t)|` from `p` to its nearest
/// point `c(t)` and the radius `r(t)` there (a zero-length segment takes
/// the larger of its two radii).
fn segments_d_r(b: &Bone, p: [f64; 2]) -> impl Iterator<Item = (f64, f64)> + '_ {
    segments_d_r_c(b, p).map(|(d, r, _)| (d, r))
}

/// [`segments_d_r`] with the nearest point `c(t)` of each segment.
fn segments_d_r_c(b: &Bone, p: [f64; 2]) -> impl Iterator<Item = (f64, f64, [f64; 2])> + '_ {
    b.points
        .windows(2)
        .zip(b.radii.windows(2))
        .map(move |(s, r)| {
            let (a, q) = (s[0], s[1]);
            let (ra, rb) = (r[0], r[1]);
            let (dx, dy) = (q[0] - a[0], q[1] - a[1]);
            let (t, l2) = re2d::math::nearest_on_segment(p, a, q);
            let (cx, cy) = (a[0] + t * dx, a[1] + t * dy);
            let (ex, ey) = (p[0] - cx, p[1] - cy);
            // sqrt of the sum, not hypot: the coordinates are small (a drawing's
            // pixels), and this runs per pixel per tube
            let d = (ex * ex + ey * ey).sqrt();
            let r = if l2 > 0.0 {
                ra + (rb - ra) * t
            } else {
                ra.max(rb)
            };
            (d, r, [cx, cy])
        })
}

/// Calls `f` with every pixel of the figure (alpha > 0) inside the tube of
/// `b`, row by row.
pub fn for_tube_pixels(b: &Bone, sil: &Silhouette, mut f: impl FnMut(usize)) {
    let w = sil.width as usize;
    for_tube_rows(b, w, sil.height as usize, |y, x0, x1| {
        // the widest span of the row surely inside (a pixel from its
        // segment's smaller radius): no distance to compute there
        let yc = y as f64 + 0.5;
        let (mut lo, mut hi) = (0.0, -1.0);
        for (s, r) in b.points.windows(2).zip(b.radii.windows(2)) {
            if let Some((a, c)) = inner_span(s[0], s[1], r[0].min(r[1]) - 1.0, yc)
                && c - a > hi - lo
            {
                (lo, hi) = (a, c);
            }
        }
        // pixel x is surely inside when x + 0.5 lies in [lo, hi]
        let (ia, ib) = if hi > lo {
            (
                (lo - 0.5).ceil().max(0.0) as usize,
                ((hi - 0.5).floor() + 1.0).max(0.0) as usize,
            )
        } else {
            (0, 0)
        };
        for x in x0..x1 {
            let i = y * w + x;
            if sil.alpha(i) > 0
                && ((ia..ib).contains(&x) || tube_d(b, [x as f64 + 0.5, y as f64 + 0.5]) <= 0.0)
            {
                f(i);
            }
        }
    });
}

/// The span `[lo, hi]` of the row at height `yc` within `r` of the segment
/// `a`–`q` (the capsule's two end disks and its body, each an interval of
/// the row: their hull, the capsule being convex), `None` when empty.
fn inner_span(a: [f64; 2], q: [f64; 2], r: f64, yc: f64) -> Option<(f64, f64)> {
    if r <= 0.0 {
        return None;
    }
    let (mut lo, mut hi) = (f64::MAX, f64::MIN);
    for c in [a, q] {
        let dy = yc - c[1];
        if dy.abs() < r {
            let s = (r * r - dy * dy).sqrt();
            lo = lo.min(c[0] - s);
            hi = hi.max(c[0] + s);
        }
    }
    let (dx, dy) = (q[0] - a[0], q[1] - a[1]);
    let len = dx.hypot(dy);
    if len > 0.0 {
        let (ux, uy) = (dx / len, dy / len);
        // along: 0 <= (x - ax)·ux + (yc - ay)·uy <= len; across:
        // -r <= (x - ax)·(-uy) + (yc - ay)·ux <= r; as spans of x - ax
        let span = |slope: f64, off: f64, lo: f64, hi: f64| -> Option<(f64, f64)> {
            if slope.abs() < 1e-12 {
                (off >= lo && off <= hi).then_some((f64::MIN, f64::MAX))
            } else {
                let (u, v) = ((lo - off) / slope, (hi - off) / slope);
                Some((u.min(v), u.max(v)))
            }
        };
        let ey = yc - a[1];
        if let (Some(p), Some(n)) = (span(ux, ey * uy, 0.0, len), span(-uy, ey * ux, -r, r)) {
            let (u, v) = (p.0.max(n.0), p.1.min(n.1));
            if u <= v && u > f64::MIN && v < f64::MAX {
                lo = lo.min(a[0] + u);
                hi = hi.max(a[0] + v);
            }
        }
    }
    (lo < hi).then_some((lo, hi))
}

/// Calls `f(y, x0, x1)` for each row `y` of the tube box of `b` with the
/// columns `[x0, x1)` of that box that may hold pixel centres inside the
/// tube (`tube_d ≤ 0`): per segment, the rows' span of the segment points
/// within its larger radius (plus a pixel) of the row, widened by that
/// radius. Every pixel outside the columns is outside the tube.
pub fn for_tube_rows(b: &Bone, w: usize, h: usize, mut f: impl FnMut(usize, usize, usize)) {
    let [bx0, y0, bx1, y1] = tube_box(b, w, h);
    for y in y0..y1 {
        let yc = y as f64 + 0.5;
        let (mut lo, mut hi) = (f64::MAX, f64::MIN);
        for (s, r) in b.points.windows(2).zip(b.radii.windows(2)) {
            let (a, q) = (s[0], s[1]);
            let rr = r[0].max(r[1]) + 1.0;
            let dy = q[1] - a[1];
            let (t0, t1) = if dy.abs() < 1e-9 {
                if (yc - a[1]).abs() > rr {
                    continue;
                }
                (0.0, 1.0)
            } else {
                let (u, v) = ((yc - rr - a[1]) / dy, (yc + rr - a[1]) / dy);
                let (u, v) = (u.min(v).max(0.0), u.max(v).min(1.0));
                if u > v {
                    continue;
                }
                (u, v)
            };
            let dx = q[0] - a[0];
            let (c0, c1) = (a[0] + t0 * dx, a[0] + t1 * dx);
            lo = lo.min(c0.min(c1) - rr);
            hi = hi.max(c0.max(c1) + rr);
        }
        if lo > hi {
            continue;
        }
        // pixel x is inside when x + 0.5 lies in [lo, hi]
        let xa = ((lo - 1.0).floor().max(0.0) as usize).max(bx0);
        let xb = (((hi + 1.0).ceil().max(0.0)) as usize).min(bx1);
        if xa < xb {
            f(y, xa, xb);
        }
    }
}

/// The core of a tube: within this share of the radius of the axis.
pub const CORE: f64 = 0.5;
/// The inner zone of a tube: deeper than this share of the radius inside its
/// outline (a declared radius may be this much wider than the paint).
pub const SEED_IN: f64 = 0.25;
/// Tube and core distances of `p` to bone `b`: the smallest `|p − c(t)| − r(t)`
/// and the smallest `|p − c(t)| − CORE·r(t)` over the segments; and whether
/// `p` is in the inner zone (`|p − c(t)| ≤ (1 − SEED_IN)·r(t)` for a segment)
/// along the body, or only in an end cap (`c(t)` the polyline's first or
/// last point).
pub(crate) fn tube_core_d(b: &Bone, p: [f64; 2]) -> (f64, f64, bool, bool) {
    let (mut bt, mut bc) = (f64::MAX, f64::MAX);
    let (mut body, mut cap) = (false, false);
    let n = b.points.len() - 1;
    for (k, (d, r, c)) in segments_d_r_c(b, p).enumerate() {
        bt = bt.min(d - r);
        bc = bc.min(d - CORE * r);
        // the inner zone: deeper than SEED_IN of the radius; in an end cap
        // (the nearest axis point is the polyline's first or last point)
        // or along the body
        if d <= (1.0 - SEED_IN) * r {
            let end = (k == 0 && c == b.points[0]) || (k + 1 == n && c == b.points[n]);
            if end {
                cap = true;
            } else {
                body = true;
            }
        }
    }
    (bt, bc, body, cap && !body)
}

/// What the tubes say about each pixel of the figure.
pub struct Cover {
    /// 1 + the nearest bone whose tube contains the pixel (0: none).
    pub(crate) near: Vec<u8>,
    /// Number of tubes containing the pixel (saturating).
    pub(crate) count: Vec<u8>,
    /// The (up to) four nearest bones whose tubes contain the pixel, as
    /// `1 + index` bytes, the nearest in the low byte.
    pub(crate) ids: Vec<u32>,
    /// 1 + the bone whose core alone contains the pixel; 0 none; 255 several.
    pub(crate) core: Vec<u8>,
    /// 1 + the nearest bone whose inner zone along its body contains the
    /// pixel (0: none).
    pub(crate) inner_near: Vec<u8>,
    /// 1 + the nearest bone whose inner zone contains the pixel in an end cap
    /// only (0: none).
    pub(crate) inner_cap: Vec<u8>,
    /// The pixel lies within [`RING`] of its nearest tube's outline.
    pub(crate) rim: Vec<bool>,
}

pub(crate) fn cover(sk: &Skeleton, sil: &Silhouette) -> Cover {
    let (w, h) = (sil.width as usize, sil.height as usize);
    let mut c = Cover {
        near: vec![0u8; w * h],
        count: vec![0u8; w * h],
        ids: vec![0u32; w * h],
        core: vec![0u8; w * h],
        inner_near: vec![0u8; w * h],
        inner_cap: vec![0u8; w * h],
        rim: vec![false; w * h],
    };
    for k in sk.far_to_near() {
        let b = &sk.bones[k];
        if !b.part {
            continue;
        }
        // inner zone and core lie in the tube
        for_tube_rows(b, w, h, |y, x0, x1| {
            for x in x0..x1 {
                let i = y * w + x;
                if sil.alpha(i) == 0 {
                    continue;
                }
                let (dt, dc, inner, cap) = tube_core_d(b, [x as f64 + 0.5, y as f64 + 0.5]);
                if inner {
                    c.inner_near[i] = k as u8 + 1;
                }
                if cap {
                    c.inner_cap[i] = k as u8 + 1;
                }
                if dt <= 0.0 {
                    c.rim[i] = dt > -RING;
                    c.near[i] = k as u8 + 1;
                    c.count[i] = c.count[i].saturating_add(1);
                    c.ids[i] = (c.ids[i] << 8) | (k as u32 + 1);
                }
                if dc <= 0.0 {
                    c.core[i] = if c.core[i] == 0 { k as u8 + 1 } else { 255 };
                }
            }
        });
    }
    c
}

/// The closest tube outline (smallest signed distance; equal: the nearer part).
pub(crate) fn closest_outline(sk: &Skeleton, p: [f64; 2]) -> usize {
    let mut best = (f64::MAX, usize::MAX);
    for (k, b) in sk.bones.iter().enumerate() {
        if !b.part {
            continue;
        }
        let d = tube_d(b, p);
        let better = best.1 == usize::MAX
            || d < best.0
            || (d == best.0
                && (b.depth < sk.bones[best.1].depth
                    || (b.depth == sk.bones[best.1].depth && k > best.1)));
        if better {
            best = (d, k);
        }
    }
    best.1
}

/// Width of a tube's inner ring (px) that tells a tube drawn along its part's outline
/// (the paint rule's trusted tubes).
pub(crate) const RING: f64 = 1.5;

/// Rays per side and step along a segment when fitting tubes to the paint (px).
pub const FIT_STEP: f64 = 6.0;
/// The fitted scale is this quantile of the rays' `stop / radius` (the
/// median: rays may also stop early on lines crossing the part).
pub const FIT_SHARE: f64 = 0.5;
/// … and only when the middle half of its rays lies within this much
/// (`stop / radius`): rays that agree on one outline. (Lines crossing a
/// part, or a pattern, stop rays at scattered distances.)
pub const FIT_SPREAD: f64 = 0.1;
/// A bone is fitted only from at least this many rays.
pub const FIT_MIN: usize = 24;
/// Margin added to a fitted radius (px).
pub const FIT_MARGIN: f64 = 2.0;

/// The declaration with each part's radii fitted to its paint: rays normal
/// to each segment, every [`FIT_STEP`] px on both sides, march out from
/// half the radius to the first background pixel or past the first strong
/// line of ink ([`Ink::strong`]: the outline's outer side). A ray that reaches the declared radius,
/// or enters the declared tube of a nearer part first (what lies beyond may
/// be that part's paint), says nothing. A bone's scale is the
/// [`FIT_SHARE`] quantile of `stop / radius` over the rays that stopped,
/// when at least [`FIT_MIN`] did and their quartiles lie within
/// [`FIT_SPREAD`]. A part with fewer (hidden under nearer
/// paint) takes the median scale of the measured parts when at least half
/// of the parts were measured (a user widens every radius alike), else
/// keeps its radii. Radii only shrink:
/// `min(r, scale · r + FIT_MARGIN)`. A declared radius may be wider than
/// the paint (docs/rig.md "How to draw one"); the fitted tubes are the
/// prior of the paint rule.
pub fn fitted(sk: &Skeleton, sil: &Silhouette, ink: &Ink) -> Skeleton {
    let (w, h) = (sil.width as i64, sil.height as i64);
    let stop_at = |x: f64, y: f64| -> Option<bool> {
        let (xi, yi) = (x.floor() as i64, y.floor() as i64);
        if xi < 0 || yi < 0 || xi >= w || yi >= h {
            return None;
        }
        let i = (yi * w + xi) as usize;
        if sil.alpha(i) < 128 {
            None
        } else {
            Some(ink.strong(i))
        }
    };
    // 1 + the nearest declared tube containing each pixel
    let (wu, hu) = (w as usize, h as usize);
    let mut near = vec![0u8; wu * hu];
    for k in sk.far_to_near() {
        let b = &sk.bones[k];
        if !b.part {
            continue;
        }
        for_tube_pixels(b, sil, |i| near[i] = k as u8 + 1);
    }
    let rank = sk.near_rank();
    let mut out = sk.clone();
    let mut ratios = Vec::new();
    let mut scales = Vec::new();
    for (bk, b) in out.bones.iter().enumerate() {
        if !b.part {
            continue;
        }
        ratios.clear();
        for (s, r) in b.points.windows(2).zip(b.radii.windows(2)) {
            let (a, q) = (s[0], s[1]);
            let (dx, dy) = (q[0] - a[0], q[1] - a[1]);
            let len = dx.hypot(dy);
            if len < 1.0 {
                continue;
            }
            let (nx, ny) = (-dy / len, dx / len);
            let steps = (len / FIT_STEP).ceil() as usize;
            for k in 0..=steps {
                let t = k as f64 / steps as f64;
                let (cx, cy) = (a[0] + t * dx, a[1] + t * dy);
                let rad = r[0] + (r[1] - r[0]) * t;
                for side in [-1.0, 1.0] {
                    let mut d = (0.5 * rad).floor();
                    let mut in_line = false;
                    let mut stop = f64::NAN;
                    while d <= rad {
                        let (x, y) = (cx + side * nx * d, cy + side * ny * d);
                        // behind a nearer tube the paint may be that part's
                        if x >= 0.0 && y >= 0.0 && (x as i64) < w && (y as i64) < h {
                            let nb = near[y as usize * wu + x as usize];
                            if nb != 0 && rank[nb as usize - 1] < rank[bk] {
                                break;
                            }
                        }
                        match stop_at(x, y) {
                            None => {
                                stop = d;
                                break;
                            }
                            Some(true) => in_line = true,
                            Some(false) if in_line => {
                                stop = d;
                                break;
                            }
                            Some(false) => {}
                        }
                        d += 1.0;
                    }
                    if stop.is_finite() {
                        ratios.push(stop / rad.max(1.0));
                    }
                }
            }
        }
        if ratios.len() < FIT_MIN {
            scales.push(None);
            continue;
        }
        ratios.sort_by(f64::total_cmp);
        let q = |f: f64| ratios[((ratios.len() - 1) as f64 * f).round() as usize];
        // the rays agree on one outline, or the part is not measured
        scales.push((q(0.75) - q(0.25) <= FIT_SPREAD).then(|| q(FIT_SHARE)));
    }
    let mut known: Vec<f64> = scales.iter().flatten().copied().collect();
    known.sort_by(f64::total_cmp);
    // a user widens every radius alike: the parts the rays cannot measure
    // take the median scale, when at least half of the parts were measured
    let fallback =
        (!known.is_empty() && 2 * known.len() >= scales.len()).then(|| known[known.len() / 2]);
    let mut si = scales.into_iter();
    for b in out.bones.iter_mut() {
        if !b.part {
            continue;
        }
        if let Some(q) = si.next().flatten().or(fallback) {
            for r in b.radii.iter_mut() {
                *r = r.min(q * *r + FIT_MARGIN);
            }
        }
    }
    out
}

/// How much the fit shrank the declaration: over the bones with a part,
/// the mean of `1 − Σ fitted radii / Σ declared radii` (a declaration a
/// little wider than the paint: about 0.1; every radius doubled: about 0.5).
pub fn fit_shrink(declared: &Skeleton, fit: &Skeleton) -> f64 {
    let (mut sum, mut n) = (0.0, 0usize);
    for (a, b) in declared.bones.iter().zip(&fit.bones) {
        if a.part {
            let (ra, rb): (f64, f64) = (a.radii.iter().sum(), b.radii.iter().sum());
            sum += 1.0 - rb / ra.max(1e-9);
            n += 1;
        }
    }
    sum / n.max(1) as f64
}
