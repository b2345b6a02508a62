//! Stage 3: slicing the silhouette into parts (rig.md §3; issue 24).
//!
//! - **Tube** of a bone: pixel centres `(x + 0.5, y + 0.5)` whose distance to
//!   the nearest point of some segment of the polyline is at most the radius
//!   interpolated (linearly) at that point. Its **core**: within
//!   [`CORE`] · radius of the axis. Its **inner zone**: deeper than
//!   [`SEED_IN`] · radius inside the outline (a declared radius may be that
//!   much wider than the paint). A bone declared `"part": false` has no tube
//!   here: it owns nothing.
//! - **Painted edge**: a step between two pixels where the largest
//!   premultiplied channel (or alpha) difference from a pixel to its
//!   4-neighbour, or to the pixel after that neighbour in the same direction
//!   (an anti-aliased edge spread over two pixels), is at least [`EDGE`].
//!   Stepping across it costs that difference / 8; any other step costs 0.
//!   (An *edge pixel*, [`Silhouette::edges`], is one with such a step to a pixel one or
//!   two away: seeds are never on one; the confidence's border test uses it.)
//! - **Ink**: the painted lines, found by [`crate::cut::ink`] (thin lines in the
//!   rim's ink colour, thin dark lines of any colour, their anti-aliased
//!   sides).
//! - **Ownership, `--slicing paint`** (the default, [`Rule::Paint`]):
//!   First every part's radii shrink to the paint its rays reach
//!   (*fitted tubes*, [`fitted`]); the tubes, cores and inner zones below are
//!   the fitted ones.
//!   1. *Seed candidates* of a bone: the pixels off edges and ink where its
//!      inner zone is the nearest inner zone containing them; a bone without
//!      any seeds on the pixels of its core that no other core contains.
//!   2. *Regions of paint*: the 4-connected components of pixels off edges
//!      and ink. In each, a bone keeps its candidates only with at least
//!      [`SEED_SHARE`] of the votes (candidate pixels) of the region's best
//!      bone; a bone outvoted in every region keeps its candidates in its
//!      best region. The share of votes that lost is the *seed
//!      disagreement*.
//!   3. A two-label Dijkstra (4-connected, over pixels with alpha > 0, never
//!      entering ink) of the geodesic distance from every bone's seeds:
//!      crossing a painted edge costs its step / 8, a step to a pixel in
//!      another tube but outside the bone's own costs [`OUT_COST`]. The key is
//!      `distance · n + rank` (rank 0 = the nearest bone), so of equal
//!      distances the nearer bone wins; each pixel keeps its best label and
//!      the best other one. A label spreads on from a pixel only where it is
//!      the best, or the second where its tube is the nearest tube (the
//!      claim step 4 compares): the step costs depend on the label, so a
//!      claim passing through another part's paint could win beyond it. A
//!      *pinned* seed, one that a nearer bone's tube contains only within
//!      [`PIN`] of its outline with ink or a colour change of [`WEAK`]
//!      between it and that bone's axis (within `PIN + 4` px), cannot be
//!      taken by that bone's claim (the fitted margin reaches past the
//!      part's outline).
//!   4. A pixel goes to its best label, except that the nearest tube
//!      containing it keeps it when that tube's claim is the second best and
//!      within [`SLACK`] of the best. A region no seed reaches (enclosed by
//!      ink) goes whole to the part beyond its outline closest to it in
//!      colour ([`BEYOND`]); failing that, by the tube rule.
//!   5. Ink pixels are owned through the lines ([`crate::cut::ink::ink_owners`]):
//!      the tube owner when it arrives within the window of the first
//!      arrival, else the nearest part arriving within it.
//!   6. A *trusted* tube (its visible inner ring of 1.5 px at least
//!      [`TRUST`] on ink, over at least [`TRUST_MIN`] px: drawn along its
//!      part's outline) keeps the tube rule where it is the nearest tube.
//!
//!   So paint decides the contested pixels where lines and edges separate
//!   them (a region enclosed by an outline belongs to the part whose seeds
//!   are in it), and the tubes decide where they do not (a garment painted
//!   as one shape).
//! - **Ownership, `--slicing tubes`** ([`Rule::Tubes`], the rule before issue
//!   24, for comparison): the nearest (smallest depth; equal depths: later
//!   declared) part whose tube contains the pixel; a pixel in no tube goes to
//!   the tube with the smallest signed distance (closest outline).
//! - `labels` is the ownership map of the pixels with alpha ≥ 128 (red of
//!   `labels.png`: 1 + bone index). [`how`] records per pixel whether
//!   geometry (inside one tube only), paint (a strictly smaller distance) or a
//!   tie-break (depth between equal distances, or the tube rule) decided it.
//! - **Part** `k`: its tube cut by the silhouette, less the pixels a part
//!   farther than `k` owns (its hidden fill never covers their paint at
//!   rest), plus the pixels it owns outside its tube. Visible = owned by `k`; hidden = the rest. A hidden
//!   pixel takes the despilled colour of the nearest visible pixel of the
//!   same part (exact Euclidean nearest: Felzenszwalb–Huttenlocher distance
//!   transform with nearest-index propagation; ties: the smaller row, then
//!   column) and its own silhouette alpha.
//! - **Partless bones**: a bone with no visible pixel has no part (a 0 × 0
//!   image, no mesh, no texture) but stays in the skeleton, animated, moving
//!   its children; unless declared `"part": false` this is a warning naming
//!   the tubes that own its tube's pixels (at most two with ≥ 10 % each),
//!   their depths and radii. A visible part under [`SLIVER`] of its tube's
//!   pixels is a *sliver* warning with the same culprits. `E_RIG_PART` is
//!   left for bad input: a bone (with a part) whose tube contains no pixel of
//!   the figure, or a declaration in which no bone has a part.
//! - **Confidence** ([`Confidence`], no truth needed): per part the visible
//!   pixels decided by geometry, paint or a tie-break; the part-to-part
//!   border pixel pairs and those on no painted edge; the seed
//!   disagreement; the tube excess (the share of the tubes' pixels another
//!   bone owns); the fit shrink ([`fit_shrink`]). *Doubt* = the mean of the
//!   tie share, the unpainted-border share, the seed disagreement, the tube
//!   excess and the fit shrink. Its control is the same
//!   drawing with every radius doubled ([`doubled`]).
//! - **Crop**: the part's pixels' bounding box plus [`MARGIN`] px, clipped to
//!   the image. The **pivot** is the bone's first point in the crop's pixels.

use crate::RigError;
use crate::cut::ink::{Ink, neighbours4};
use crate::declare::silhouette::Silhouette;
use crate::declare::skeleton::{Bone, Skeleton, tube_box};

pub use crate::cut::parts::{MARGIN, PartImage, SLIVER, nearest_feature};

/// Signed distance-like value of `p` to the tube of `b` (≤ 0 inside): the
/// smallest `|p − c(t)| − r(t)` over the segments, `t` the nearest point.
pub fn tube_d(b: &Bone, p: [f64; 2]) -> f64 {
    segments_d_r(b, p).fold(f64::MAX, |best, (d, r)| best.min(d - r))
}

/// [`tube_d`] of `p` and the axis point it is measured from.
fn tube_nearest(b: &Bone, p: [f64; 2]) -> (f64, [f64; 2]) {
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

/// The truth-free slicing confidence: how the visible pixels were decided
/// and how much of the part-to-part border follows a painted edge.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Confidence {
    /// Per bone: visible pixels decided by geometry, by paint, by a tie-break.
    pub parts: Vec<[u64; 3]>,
    /// Border pixel pairs (4-neighbours with alpha ≥ 128, different owners).
    pub border: u64,
    /// Of them, pairs where neither pixel is a painted edge.
    pub border_unpainted: u64,
    /// Share of the seed votes that lost to another bone's in their region
    /// of paint.
    pub seed_disagreement: f64,
    /// Pixels (alpha ≥ 128) inside the tubes of bones with a part, counted
    /// once per tube.
    pub tube_px: u64,
    /// Of them, pixels another bone owns.
    pub tube_other: u64,
    /// How much the fit shrank the declared tubes (see [`fit_shrink`]).
    pub fit_shrink: f64,
}

impl Confidence {
    /// Totals over the parts: geometry, paint, tie.
    pub fn totals(&self) -> [u64; 3] {
        let mut t = [0u64; 3];
        for p in &self.parts {
            for k in 0..3 {
                t[k] += p[k];
            }
        }
        t
    }

    /// Share of the visible pixels decided by a tie-break.
    pub fn tie_share(&self) -> f64 {
        let t = self.totals();
        t[2] as f64 / (t[0] + t[1] + t[2]).max(1) as f64
    }

    /// Share of the part-to-part border that follows no painted edge.
    pub fn unpainted_share(&self) -> f64 {
        self.border_unpainted as f64 / self.border.max(1) as f64
    }

    /// The doubt score: the mean of the tie share, the unpainted-border
    /// share, the seed disagreement, the tube excess and the fit shrink (0 =
    /// every contested pixel decided by paint, every border on a painted
    /// edge, every region of paint seeded by one bone, every tube holding its
    /// own part only and drawn along its paint).
    pub fn doubt(&self) -> f64 {
        (self.tie_share()
            + self.unpainted_share()
            + self.seed_disagreement
            + self.tube_excess()
            + self.fit_shrink)
            / 5.0
    }

    /// Share of the tubes' pixels that another bone owns (a tube much wider
    /// than its part's paint covers its neighbours).
    pub fn tube_excess(&self) -> f64 {
        self.tube_other as f64 / self.tube_px.max(1) as f64
    }
}

/// The confidence of an ownership map.
pub fn confidence(sk: &Skeleton, sil: &Silhouette, own: &Ownership) -> Confidence {
    let (w, h) = (sil.width as usize, sil.height as usize);
    let e = sil.edges();
    let mut c = Confidence {
        parts: vec![[0; 3]; sk.bones.len()],
        seed_disagreement: own.seed_disagreement,
        fit_shrink: own.fit_shrink,
        ..Confidence::default()
    };
    for i in 0..w * h {
        let o = own.owner[i];
        if o == 0 || sil.alpha(i) < 128 {
            continue;
        }
        let slot = match own.how[i] {
            how::GEOMETRY => 0,
            how::PAINT | how::LAYER => 1,
            _ => 2,
        };
        c.parts[o as usize - 1][slot] += 1;
        let (x, y) = (i % w, i / w);
        for j in [(x + 1 < w).then(|| i + 1), (y + 1 < h).then(|| i + w)]
            .into_iter()
            .flatten()
        {
            let oj = own.owner[j];
            if oj == 0 || oj == o || sil.alpha(j) < 128 {
                continue;
            }
            c.border += 1;
            if e[i] < EDGE && e[j] < EDGE {
                c.border_unpainted += 1;
            }
        }
    }
    for (k, b) in sk.bones.iter().enumerate() {
        if !b.part || c.parts[k].iter().sum::<u64>() == 0 {
            continue;
        }
        for_tube_pixels(b, sil, |i| {
            if sil.alpha(i) >= 128 {
                c.tube_px += 1;
                c.tube_other += (own.owner[i] as usize != k + 1) as u64;
            }
        });
    }
    c
}

/// The deliberately bad declaration of the confidence control: every radius
/// doubled.
pub fn doubled(sk: &Skeleton) -> Skeleton {
    let mut bad = sk.clone();
    for b in &mut bad.bones {
        for r in &mut b.radii {
            *r *= 2.0;
        }
    }
    bad
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
    /// How each owner was decided ([`how`]).
    pub how: Vec<u8>,
    /// The rule used.
    pub rule: Rule,
    /// The painted lines (empty for the tube rule).
    pub ink: crate::cut::ink::Ink,
    /// Parts, declaration order (a partless bone has a 0 × 0 image).
    pub parts: Vec<PartImage>,
    /// The truth-free confidence.
    pub confidence: Confidence,
    /// Warnings (partless bones without `"part": false`, slivers), each
    /// naming the culprit tubes.
    pub warnings: Vec<String>,
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

/// How the owners of contested pixels are decided (`--slicing`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Rule {
    /// Paint: geodesic distance over painted edges from each bone's seeds,
    /// depth only between equal claims (the default).
    #[default]
    Paint,
    /// Tubes: the nearest tube containing the pixel (the rule before issue
    /// 24, kept for comparison).
    Tubes,
    /// Layers: every pixel decided by the layers of a layered drawing (set by
    /// [`crate::cut::layers::slice_layered`]; never a flag value).
    Layers,
}

impl Rule {
    /// The flag value.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Paint => "paint",
            Rule::Tubes => "tubes",
            Rule::Layers => "layers",
        }
    }

    /// Parses a flag value.
    pub fn parse(s: &str) -> Option<Rule> {
        match s {
            "paint" => Some(Rule::Paint),
            "tubes" => Some(Rule::Tubes),
            _ => None,
        }
    }
}

/// The core of a tube: within this share of the radius of the axis.
pub const CORE: f64 = 0.5;
/// The inner zone of a tube: deeper than this share of the radius inside its
/// outline (a declared radius may be this much wider than the paint).
pub const SEED_IN: f64 = 0.25;
/// Edge strength (largest premultiplied channel step to a 4-neighbour, 0..255)
/// from which a pixel is a painted edge.
pub const EDGE: u8 = 32;
/// Crossing cost of an edge pixel: its strength shifted right by this.
const COST_SHIFT: u8 = 3;

/// How a pixel's owner was decided (`Slicing::how`).
pub mod how {
    /// Background.
    pub const NONE: u8 = 0;
    /// Inside exactly one tube, which owns it.
    pub const GEOMETRY: u8 = 1;
    /// Contested, decided by the paint (a strictly smaller geodesic distance).
    pub const PAINT: u8 = 2;
    /// Contested, decided by depth between equal claims (or by the tube rule
    /// where no seed reaches).
    pub const TIE: u8 = 3;
    /// Decided by the layers of a layered drawing (the layer on top).
    pub const LAYER: u8 = 4;
}

/// Tube and core distances of `p` to bone `b`: the smallest `|p − c(t)| − r(t)`
/// and the smallest `|p − c(t)| − CORE·r(t)` over the segments; and whether
/// `p` is in the inner zone (`|p − c(t)| ≤ (1 − SEED_IN)·r(t)` for a segment)
/// along the body, or only in an end cap (`c(t)` the polyline's first or
/// last point).
fn tube_core_d(b: &Bone, p: [f64; 2]) -> (f64, f64, bool, bool) {
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
struct Cover {
    /// 1 + the nearest bone whose tube contains the pixel (0: none).
    near: Vec<u8>,
    /// Number of tubes containing the pixel (saturating).
    count: Vec<u8>,
    /// The (up to) four nearest bones whose tubes contain the pixel, as
    /// `1 + index` bytes, the nearest in the low byte.
    ids: Vec<u32>,
    /// 1 + the bone whose core alone contains the pixel; 0 none; 255 several.
    core: Vec<u8>,
    /// 1 + the nearest bone whose inner zone along its body contains the
    /// pixel (0: none).
    inner_near: Vec<u8>,
    /// 1 + the nearest bone whose inner zone contains the pixel in an end cap
    /// only (0: none).
    inner_cap: Vec<u8>,
    /// The pixel lies within [`RING`] of its nearest tube's outline.
    rim: Vec<bool>,
}

fn cover(sk: &Skeleton, sil: &Silhouette) -> Cover {
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
fn closest_outline(sk: &Skeleton, p: [f64; 2]) -> usize {
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

/// The pixel indices of a list of pixels (`figure`: the pixels with alpha > 0).
fn pixels(list: &[u32]) -> impl Iterator<Item = usize> + '_ {
    list.iter().map(|&i| i as usize)
}

/// The 4-connected component of `pass` pixels around `s` (which passes and
/// is not yet `seen`) into `members`, marking each `seen`.
fn flood(
    s: usize,
    (w, h): (usize, usize),
    pass: impl Fn(usize) -> bool,
    seen: &mut [bool],
    stack: &mut Vec<usize>,
    members: &mut Vec<usize>,
) {
    members.clear();
    seen[s] = true;
    stack.push(s);
    while let Some(i) = stack.pop() {
        members.push(i);
        for j in neighbours4(i, w, h).into_iter().flatten() {
            if pass(j) && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
}

/// The ownership map and how each owner was decided.
pub struct Ownership {
    /// Per pixel with alpha > 0: 1 + bone index (0 = background).
    pub owner: Vec<u8>,
    /// Per pixel: a [`how`] class.
    pub how: Vec<u8>,
    /// Share of the seed votes that lost to another bone's in their region
    /// of paint (0 for the tube rule).
    pub seed_disagreement: f64,
    /// How much the fit shrank the declared tubes ([`fit_shrink`]; 0 for
    /// the tube rule).
    pub fit_shrink: f64,
}

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

/// The ownership map of `rule` (see the module doc).
pub fn ownership(sk: &Skeleton, sil: &Silhouette, rule: Rule) -> Ownership {
    ownership_with_ink(sk, sil, rule, &ink_for(sil, rule))
}

/// The ink `rule` looks at: the drawing's for the paint rule, none for the
/// tube rule.
fn ink_for(sil: &Silhouette, rule: Rule) -> Ink {
    match rule {
        Rule::Paint => crate::cut::ink::ink(sil),
        Rule::Tubes | Rule::Layers => Ink::none(),
    }
}

/// [`ownership`] with the drawing's ink already found (it does not depend
/// on the declaration: the confidence control reuses it).
pub fn ownership_with_ink(sk: &Skeleton, sil: &Silhouette, rule: Rule, ink: &Ink) -> Ownership {
    let (w, h) = (sil.width as usize, sil.height as usize);
    let fit;
    let mut shrink = 0.0;
    let sk = match rule {
        Rule::Paint => {
            fit = fitted(sk, sil, ink);
            shrink = fit_shrink(sk, &fit);
            &fit
        }
        Rule::Tubes | Rule::Layers => sk,
    };
    let cv = cover(sk, sil);
    // the pixels of the figure (alpha > 0), ascending: the loops below skip the rest
    let figure: Vec<u32> = (0..w * h)
        .filter(|&i| sil.alpha(i) > 0)
        .map(|i| i as u32)
        .collect();
    let mut owner = cv.near.clone();
    let mut howv = vec![how::NONE; w * h];
    let mut seed_disagreement = 0.0;
    match rule {
        Rule::Tubes | Rule::Layers => {
            for i in 0..w * h {
                if sil.alpha(i) == 0 {
                    continue;
                }
                howv[i] = if cv.count[i] == 1 {
                    how::GEOMETRY
                } else {
                    how::TIE
                };
            }
        }
        Rule::Paint => {
            seed_disagreement = paint_rule(sk, sil, &figure, &cv, &ink.mask, &mut owner, &mut howv)
        }
    }
    for i in pixels(&figure) {
        if owner[i] == 0 {
            let p = [(i % w) as f64 + 0.5, (i / w) as f64 + 0.5];
            let k = closest_outline(sk, p);
            if k != usize::MAX {
                owner[i] = k as u8 + 1;
                howv[i] = how::TIE;
            }
        }
    }
    Ownership {
        owner,
        how: howv,
        seed_disagreement,
        fit_shrink: shrink,
    }
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

/// Claims of the paint rule that enter no other tube for free: a step to a
/// pixel outside the claim's own tube costs this much.
pub const OUT_COST: u64 = 1;
/// Seeds of a bone stay in a region of paint only with at least this share
/// of the votes of the region's best bone.
pub const SEED_SHARE: f64 = 0.1;
/// A seed within this distance (px) inside a nearer part's fitted tube, cut
/// off from that part's paint by a line or a change of colour, keeps its
/// pixel (the fitted tube's margin reaches past the part's own outline).
pub const PIN: f64 = 3.0;
/// … a change of colour: at least this much in a channel.
pub const WEAK: i32 = 8;
/// The tube owner keeps a pixel when its claim is within this distance of
/// the best claim.
pub const SLACK: u64 = 4;
/// A tube whose visible inner ring lies at least this much on ink was drawn
/// along its part's outline: its pixels follow the tube rule.
pub const TRUST: f64 = 0.7;
/// … when the visible ring has at least this many pixels.
pub const TRUST_MIN: u64 = 100;
/// Width of that inner ring (px).
const RING: f64 = 1.5;

/// The paint rule (see the module doc): ink found by [`crate::cut::ink`];
/// seeds voted per region of paint; a two-label Dijkstra of the geodesic
/// distance (edge steps cost, steps outside the claim's tube cost
/// [`OUT_COST`], ink is never crossed) with the key `distance · n + rank`;
/// ink pixels owned by [`crate::cut::ink::ink_owners`]; trusted tubes keep the
/// tube rule. Returns the seed disagreement (share of seed votes that lost
/// to another bone's in their region).
fn paint_rule(
    sk: &Skeleton,
    sil: &Silhouette,
    figure: &[u32],
    cv: &Cover,
    ink: &[bool],
    owner: &mut [u8],
    howv: &mut [u8],
) -> f64 {
    let (w, h) = (sil.width as usize, sil.height as usize);
    let n = sk.bones.len();
    // seeds are never on a painted edge or on ink
    let e = sil.edges();
    let mut plain = vec![false; w * h];
    for i in pixels(figure) {
        plain[i] = e[i] < EDGE && !ink[i];
    }
    let pm = |i: usize| -> [i32; 4] {
        let p = &sil.rgba[i * 4..i * 4 + 4];
        let a = p[3] as i32;
        [
            (p[0] as i32 * a + 127) / 255,
            (p[1] as i32 * a + 127) / 255,
            (p[2] as i32 * a + 127) / 255,
            a,
        ]
    };
    // the cost of stepping from i to j: the largest step of any premultiplied
    // channel from i to j or to the pixel after j in the same direction (an
    // anti-aliased edge spread over two pixels still shows its whole step),
    // shifted, when it is a painted edge
    // (the edge strength of i is the largest of these steps over the four
    // directions: below EDGE every link from i is free)
    let link = |a: [i32; 4], j: usize, j2: Option<usize>| -> u64 {
        let b = pm(j);
        let mut m = (0..4).map(|c| (a[c] - b[c]).abs()).max().unwrap_or(0);
        if let Some(j2) = j2 {
            let c2 = pm(j2);
            m = m.max((0..4).map(|c| (a[c] - c2[c]).abs()).max().unwrap_or(0));
        }
        if m >= EDGE as i32 {
            (m.min(255) as u64) >> COST_SHIFT
        } else {
            0
        }
    };
    // rank: 0 = nearest
    let rank = sk.near_rank();
    let nr = n as u64;
    // seed candidates: plain pixels where the bone's inner zone is the
    // nearest inner zone; a bone without any seeds on the part of its core
    // no other core reaches
    let mut cand = vec![0u8; w * h];
    let mut has = vec![false; n];
    for i in pixels(figure) {
        for c in [cv.inner_near[i], cv.inner_cap[i]] {
            if plain[i] && c != 0 && sk.bones[c as usize - 1].part {
                has[c as usize - 1] = true;
            }
        }
    }
    for i in pixels(figure) {
        let c = cv.core[i];
        if plain[i] && c != 0 && c != 255 && !has[c as usize - 1] {
            cand[i] = c;
        }
    }
    // a pixel in a bone's end cap only is that bone's candidate when the
    // bone's body reaches it without crossing ink (a drawing without
    // outlines: without crossing a painted edge): a cap beyond a painted
    // line (a dress's round end below its hem, a head's below the chin) is not
    // the bone's paint merely because its tube covers it, while a band painted
    // at a dress's round hem is
    {
        // an outlined drawing (at least half its rim on ink) is divided by its
        // lines; one without outlines by its painted edges
        let (mut rim, mut rim_ink) = (0u64, 0u64);
        for i in pixels(figure) {
            if sil.alpha(i) >= 128
                && neighbours4(i, w, h)
                    .into_iter()
                    .flatten()
                    .any(|j| sil.alpha(j) < 128)
            {
                rim += 1;
                rim_ink += ink[i] as u64;
            }
        }
        let outlined = 2 * rim_ink >= rim;
        let mut seen = vec![false; w * h];
        let (mut stack, mut members) = (Vec::new(), Vec::new());
        let inked = |j: usize| sil.alpha(j) > 0 && if outlined { !ink[j] } else { plain[j] };
        for s in pixels(figure) {
            if !inked(s) || seen[s] {
                continue;
            }
            flood(s, (w, h), inked, &mut seen, &mut stack, &mut members);
            let mut body = 0u128;
            for &i in &members {
                let b = cv.inner_near[i];
                if b != 0 {
                    body |= 1 << (b - 1);
                }
            }
            for &i in &members {
                if !plain[i] {
                    continue;
                }
                let (b, c) = (cv.inner_near[i], cv.inner_cap[i]);
                let ok = |k: u8| k != 0 && sk.bones[k as usize - 1].part;
                let c_first = ok(c) && (!ok(b) || rank[c as usize - 1] < rank[b as usize - 1]);
                if c_first && body >> (c - 1) & 1 == 1 {
                    cand[i] = c;
                } else if ok(b) {
                    cand[i] = b;
                }
            }
        }
    }
    // regions of paint (4-connected plain pixels): a bone keeps its seeds in
    // a region only with SEED_SHARE of the region's best votes
    let mut region_seen = vec![false; w * h];
    let mut seed = vec![0u8; w * h];
    let (mut votes_all, mut votes_lost) = (0u64, 0u64);
    let mut votes = vec![0u64; n];
    let mut stack = Vec::new();
    let mut members = Vec::new();
    // per bone: whether it kept seeds somewhere, and its best region (votes,
    // a pixel of it)
    let mut kept = vec![false; n];
    let mut best_region = vec![(0u64, 0usize); n];
    for s in pixels(figure) {
        if !plain[s] || region_seen[s] {
            continue;
        }
        flood(
            s,
            (w, h),
            |j| plain[j],
            &mut region_seen,
            &mut stack,
            &mut members,
        );
        votes.iter_mut().for_each(|v| *v = 0);
        for &i in &members {
            if cand[i] != 0 {
                votes[cand[i] as usize - 1] += 1;
            }
        }
        let best = votes.iter().copied().max().unwrap_or(0);
        let total: u64 = votes.iter().sum();
        votes_all += total;
        votes_lost += total - best;
        for (k, &v) in votes.iter().enumerate() {
            if v > best_region[k].0 {
                best_region[k] = (v, s);
            }
        }
        for &i in &members {
            let c = cand[i];
            if c != 0 && votes[c as usize - 1] as f64 >= SEED_SHARE * best as f64 {
                seed[i] = c;
                kept[c as usize - 1] = true;
            }
        }
    }
    // a bone outvoted everywhere keeps its seeds in its best region: losing
    // every seed would make it partless on a vote
    let mut again: Vec<bool> = Vec::new();
    for k in 0..n {
        let (v, s) = best_region[k];
        if kept[k] || v == 0 {
            continue;
        }
        again.resize(w * h, false);
        again.fill(false);
        flood(
            s,
            (w, h),
            |j| plain[j],
            &mut again,
            &mut stack,
            &mut members,
        );
        for &i in &members {
            if cand[i] as usize == k + 1 {
                seed[i] = k as u8 + 1;
            }
        }
    }
    // the seeds are placed: the candidate maps are not needed any more
    drop((region_seen, cand, plain));
    let in_tube = |j: usize, l: u8| {
        let ids = cv.ids[j];
        (0..4).any(|b| (ids >> (8 * b)) & 255 == l as u32)
    };
    // a seed of another bone that `l`'s tube contains only within PIN of
    // its outline, with a line or a change of colour between it and `l`'s
    // axis (within PIN + 4 px): `l` cannot take it from the seed
    let pinned = |j: usize, l: u8| -> bool {
        if seed[j] == 0 || seed[j] == l {
            return false;
        }
        let p = [(j % w) as f64 + 0.5, (j / w) as f64 + 0.5];
        let (d, c) = tube_nearest(&sk.bones[l as usize - 1], p);
        if d <= -PIN {
            return false;
        }
        let (vx, vy) = (c[0] - p[0], c[1] - p[1]);
        let len = vx.hypot(vy).max(1e-9);
        let colour = &sil.rgba[j * 4..j * 4 + 3];
        (1..=PIN as usize + 4).any(|k| {
            let (qx, qy) = (p[0] + vx / len * k as f64, p[1] + vy / len * k as f64);
            if qx < 0.0 || qy < 0.0 || qx as usize >= w || qy as usize >= h {
                return false;
            }
            let q = qy as usize * w + qx as usize;
            ink[q]
                || sil.rgba[q * 4..q * 4 + 3]
                    .iter()
                    .zip(colour)
                    .any(|(&a, &b)| (a as i32 - b as i32).abs() >= WEAK)
        })
    };
    const UNSET: u32 = u32::MAX;
    let mut t1 = vec![UNSET; w * h];
    let mut l1 = vec![0u8; w * h];
    let mut t2 = vec![UNSET; w * h];
    let mut l2 = vec![0u8; w * h];
    // settled: 0 unreached, 1 its best label, 2 both; 3 never entered
    // (background or ink)
    let mut settled = vec![3u8; w * h];
    for i in pixels(figure) {
        if !ink[i] {
            settled[i] = 0;
        }
    }
    let nbk = ((255 >> COST_SHIFT) as u64 + OUT_COST + 1) * nr + nr + 1;
    let mut buckets: Vec<Vec<u64>> = vec![Vec::new(); nbk as usize];
    let mut pending = 0usize;
    for i in pixels(figure) {
        let c = seed[i];
        if c == 0 {
            continue;
        }
        let k = c as usize - 1;
        t1[i] = rank[k] as u32;
        l1[i] = c;
        buckets[rank[k]].push(((i as u64) << 8) | c as u64);
        pending += 1;
    }
    let mut key = 0u64;
    while pending > 0 {
        let slot = (key % nbk) as usize;
        while let Some(entry) = buckets[slot].pop() {
            pending -= 1;
            let i = (entry >> 8) as usize;
            let l = (entry & 255) as u8;
            match settled[i] {
                0 if l1[i] == l && t1[i] as u64 == key => {
                    settled[i] = 1;
                }
                1 if l1[i] != l && l2[i] == l && t2[i] as u64 == key => {
                    settled[i] = 2;
                    // a claim spreads from the pixels it wins, and as the
                    // second claim only where its tube is the nearest (the
                    // tube owner's claim SLACK compares): never through
                    // another part's paint to win beyond it
                    if cv.near[i] != l {
                        continue;
                    }
                }
                _ => continue,
            }
            let d = key / nr;
            let rk = rank[l as usize - 1] as u64;
            let (x, y) = (i % w, i / w);
            let a = (e[i] >= EDGE).then(|| pm(i));
            let nbrs = [
                (x > 0).then(|| (i - 1, (x > 1).then(|| i - 2))),
                (x + 1 < w).then(|| (i + 1, (x + 2 < w).then(|| i + 2))),
                (y > 0).then(|| (i - w, (y > 1).then(|| i - 2 * w))),
                (y + 1 < h).then(|| (i + w, (y + 2 < h).then(|| i + 2 * w))),
            ];
            for (j, j2) in nbrs.into_iter().flatten() {
                // ink is never crossed (nor the background)
                if settled[j] >= 2 {
                    continue;
                }
                let out = if cv.count[j] > 0 && !in_tube(j, l) {
                    OUT_COST
                } else {
                    0
                };
                let cost = a.map_or(0, |a| link(a, j, j2));
                let nk = ((d + cost + out) * nr + rk).min(UNSET as u64 - 1) as u32;
                let push = if settled[j] == 1 {
                    if l1[j] != l && nk < t2[j] {
                        t2[j] = nk;
                        l2[j] = l;
                        true
                    } else {
                        false
                    }
                } else if l1[j] == l {
                    if nk < t1[j] {
                        t1[j] = nk;
                        true
                    } else {
                        false
                    }
                } else if nk < t1[j] && !pinned(j, l) {
                    // the old best (another label) becomes the second
                    t2[j] = t1[j];
                    l2[j] = l1[j];
                    t1[j] = nk;
                    l1[j] = l;
                    true
                } else if nk < t2[j] {
                    t2[j] = nk;
                    l2[j] = l;
                    true
                } else {
                    false
                };
                if push {
                    buckets[(nk as u64 % nbk) as usize].push(((j as u64) << 8) | l as u64);
                    pending += 1;
                }
            }
        }
        key += 1;
    }
    // the pins are decided: the seed map is not needed any more
    drop((buckets, seed));
    // the claims: the best label, unless the tube owner's is within SLACK
    for i in pixels(figure) {
        if ink[i] {
            continue;
        }
        if settled[i] == 0 {
            // no seed reaches: the tube rule (or the closest outline, by
            // the caller)
            owner[i] = cv.near[i];
            howv[i] = how::TIE;
            continue;
        }
        let (d1, d2) = (t1[i] as u64 / nr, t2[i] as u64 / nr);
        let near = cv.near[i];
        if near != 0 && near != l1[i] && l2[i] == near && t2[i] != UNSET && d2 <= d1 + SLACK {
            owner[i] = near;
            howv[i] = how::TIE;
            continue;
        }
        owner[i] = l1[i];
        howv[i] = if cv.count[i] == 1 && near == l1[i] {
            how::GEOMETRY
        } else if t2[i] != UNSET && d2 == d1 {
            how::TIE
        } else {
            how::PAINT
        };
    }
    unseeded_regions(sil, figure, ink, &settled, owner, howv);
    drop((t1, l1, t2, l2, settled));
    // the ink: owned through the lines from the claims beside them
    // (off the figure the owner is 0)
    let mut claims = vec![0u8; w * h];
    for i in pixels(figure) {
        if !ink[i] {
            claims[i] = owner[i];
        }
    }
    let (ink_owner, tube_won) = crate::cut::ink::ink_owners(sil, ink, &claims, &cv.near, &rank);
    for i in pixels(figure) {
        if !ink[i] {
            continue;
        }
        if ink_owner[i] != 0 {
            owner[i] = ink_owner[i];
            howv[i] = if cv.count[i] == 1 && tube_won[i] {
                how::GEOMETRY
            } else {
                how::PAINT
            };
        } else {
            owner[i] = cv.near[i];
            howv[i] = how::TIE;
        }
    }
    // trusted tubes (drawn along their part's outline): the tube rule
    let mut ring = vec![[0u64; 2]; n];
    for i in pixels(figure) {
        if cv.near[i] != 0 && cv.rim[i] && sil.alpha(i) >= 128 {
            let k = cv.near[i] as usize - 1;
            ring[k][0] += 1;
            ring[k][1] += ink[i] as u64;
        }
    }
    let trusted: Vec<bool> = ring
        .iter()
        .map(|r| r[0] >= TRUST_MIN && r[1] as f64 >= TRUST * r[0] as f64)
        .collect();
    for i in pixels(figure) {
        let c = cv.near[i];
        if c != 0 && trusted[c as usize - 1] {
            if owner[i] != c {
                howv[i] = how::PAINT;
            }
            owner[i] = c;
            if cv.count[i] == 1 {
                howv[i] = how::GEOMETRY;
            }
        }
    }
    if votes_all == 0 {
        0.0
    } else {
        votes_lost as f64 / votes_all as f64
    }
}

/// How far (px, through ink) a region no seed reaches looks for the parts
/// beyond its outline.
pub const BEYOND: u32 = 12;

/// A region of paint no seed reaches (enclosed by ink, in no inner zone: a
/// hair bun drawn outside the declared tubes) goes whole to the part beyond
/// its outline whose paint is closest in colour to the region's (the mean
/// colour of the region against each part's mean over all its claimed
/// paint; parts reached through at most [`BEYOND`] px of ink, with at least
/// 8 pixels there). None reached: the tube rule stays.
fn unseeded_regions(
    sil: &Silhouette,
    figure: &[u32],
    ink: &[bool],
    settled: &[u8],
    owner: &mut [u8],
    howv: &mut [u8],
) {
    let (w, h) = (sil.width as usize, sil.height as usize);
    let nbrs = |i: usize| neighbours4(i, w, h);
    let rgb = |i: usize| -> [f64; 3] {
        let p = &sil.rgba[i * 4..i * 4 + 3];
        [p[0] as f64, p[1] as f64, p[2] as f64]
    };
    let free = |i: usize| sil.alpha(i) > 0 && !ink[i] && settled[i] == 0;
    // each part's mean colour over its claimed paint
    let mut part_mean = vec![(0u64, [0.0f64; 3]); 256];
    for i in pixels(figure) {
        if !ink[i] && settled[i] != 0 && owner[i] != 0 {
            let e = &mut part_mean[owner[i] as usize];
            e.0 += 1;
            let c = rgb(i);
            for ch in 0..3 {
                e.1[ch] += c[ch];
            }
        }
    }
    let mut seen = vec![false; w * h];
    let mut region = Vec::new();
    let mut stack = Vec::new();
    let mut band: Vec<(usize, u32)> = Vec::new();
    let mut touched = Vec::new();
    let mut reached = vec![false; w * h];
    for s in pixels(figure) {
        if !free(s) || seen[s] {
            continue;
        }
        flood(s, (w, h), free, &mut seen, &mut stack, &mut region);
        // through the ink around the region, to the claimed paint beyond:
        // the pixels each part has there
        let mut per: std::collections::BTreeMap<u8, u64> = Default::default();
        band.clear();
        touched.clear();
        for &i in &region {
            for j in nbrs(i).into_iter().flatten() {
                if ink[j] && !reached[j] {
                    reached[j] = true;
                    touched.push(j);
                    band.push((j, 1));
                }
            }
        }
        let mut k = 0;
        while k < band.len() {
            let (i, d) = band[k];
            k += 1;
            for j in nbrs(i).into_iter().flatten() {
                if reached[j] || sil.alpha(j) == 0 {
                    continue;
                }
                reached[j] = true;
                touched.push(j);
                if ink[j] {
                    if d < BEYOND {
                        band.push((j, d + 1));
                    }
                } else if settled[j] != 0 && owner[j] != 0 {
                    *per.entry(owner[j]).or_insert(0) += 1;
                }
            }
        }
        for &i in &touched {
            reached[i] = false;
        }
        let mut mean = [0.0; 3];
        for &i in &region {
            let c = rgb(i);
            for ch in 0..3 {
                mean[ch] += c[ch] / region.len() as f64;
            }
        }
        let best = per
            .iter()
            .filter(|&(_, &n)| n >= 8)
            .map(|(&l, _)| {
                let (n, sum) = part_mean[l as usize];
                let d: f64 = (0..3)
                    .map(|ch| (sum[ch] / n as f64 - mean[ch]).powi(2))
                    .sum();
                (d, l)
            })
            .min_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((_, l)) = best {
            for &i in &region {
                owner[i] = l;
                howv[i] = how::PAINT;
            }
        }
    }
}

/// Cuts every part with the paint rule (see the module doc).
pub fn slice(sk: &Skeleton, sil: &Silhouette) -> Result<Slicing, RigError> {
    slice_with(sk, sil, Rule::Paint)
}

/// Cuts every part with `rule` (see the module doc).
pub fn slice_with(sk: &Skeleton, sil: &Silhouette, rule: Rule) -> Result<Slicing, RigError> {
    let (w, h) = (sil.width as usize, sil.height as usize);
    let ink = ink_for(sil, rule);
    let own = ownership_with_ink(sk, sil, rule, &ink);
    let confidence = confidence(sk, sil, &own);
    let Ownership { owner, how, .. } = own;
    let (parts, warnings) = crate::cut::parts::cut_parts(sk, sil, &owner, None)?;
    if parts.iter().all(|p| !p.has_part()) {
        return Err(RigError::new(
            "E_RIG_PART",
            "no bone has a part: every bone is partless or declared \"part\": false",
        ));
    }
    Ok(Slicing {
        width: w,
        height: h,
        owner,
        how,
        rule,
        ink,
        parts,
        confidence,
        warnings,
    })
}
