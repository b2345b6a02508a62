//! Stage 3: slicing the silhouette into parts (rig.md §3; issues 24, 40): the rules, the
//! slicing's types, the ownership map of each rule and [`slice_with`], which cuts the parts.
//! The steps live in their own files: `tubes.rs` (tube geometry, cover, fitted tubes),
//! `paint.rs` (the paint rule's steps in order), `seeds.rs`, `claims.rs`, `beyond.rs`,
//! `confidence.rs`, `parts.rs` (cropping, hidden fill), `layers.rs` (layered drawings).
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
//!   1. *Seed candidates* of a bone ([`crate::cut::seeds`]): the pixels off
//!      edges and ink where its inner zone along its body is the nearest
//!      inner zone containing them — or the nearer bone's inner zone in an end
//!      cap only (the round end beyond the polyline's first or last point),
//!      when that bone's body reaches the pixel without crossing a line (ink in
//!      an outlined drawing, at least half of whose rim is ink; painted edges
//!      in one without): a region beyond a line is not a nearer part's merely
//!      because its tube covers it (stocking tops below a hem, a neck between
//!      chin and collar). A bone without any seeds on the pixels of its core
//!      that no other core contains.
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
use crate::cut::tubes::{closest_outline, cover, fit_shrink, fitted};
use crate::declare::silhouette::Silhouette;
use crate::declare::skeleton::Skeleton;

pub use crate::cut::beyond::BEYOND;
pub use crate::cut::confidence::{Confidence, confidence, doubled};
pub use crate::cut::paint::{OUT_COST, PIN, SEED_SHARE, SLACK, TRUST, TRUST_MIN, WEAK};
pub use crate::cut::tubes::{
    CORE, Cover, FIT_MARGIN, FIT_MIN, FIT_SHARE, FIT_SPREAD, FIT_STEP, SEED_IN, for_tube_pixels,
    for_tube_rows, tube_d,
};

pub use crate::cut::parts::{MARGIN, PartImage, SLIVER, nearest_feature};

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

/// Edge strength (largest premultiplied channel step to a 4-neighbour, 0..255)
/// from which a pixel is a painted edge.
pub const EDGE: u8 = 32;
/// Crossing cost of an edge pixel: its strength shifted right by this.
pub(crate) const COST_SHIFT: u8 = 3;

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

/// The pixel indices of a list of pixels (`figure`: the pixels with alpha > 0).
pub(crate) fn pixels(list: &[u32]) -> impl Iterator<Item = usize> + '_ {
    list.iter().map(|&i| i as usize)
}

/// The 4-connected component of `pass` pixels around `s` (which passes and
/// is not yet `seen`) into `members`, marking each `seen`.
pub(crate) fn flood(
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
            seed_disagreement = crate::cut::paint::paint_rule(
                sk, sil, &figure, &cv, &ink.mask, &mut owner, &mut howv,
            )
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
    let (parts, warnings) = crate::cut::parts::cut_parts(sk, sil, &owner, None, &ink.mask)?;
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
