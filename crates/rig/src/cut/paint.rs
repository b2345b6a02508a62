//! The paint rule (rig.md §3, `--slicing paint`): the drawing's lines and edges decide the
//! pixels that two tubes (or none) claim. Its steps, each a function a reader can follow:
//!
//! 1. `crate::cut::seeds::candidates` — seed candidates per bone: inner zones along the
//!    body, end caps only where the body reaches them without crossing a line;
//! 2. `crate::cut::seeds::vote` — per region of paint, the bones with enough votes keep
//!    their seeds (a bone outvoted everywhere keeps its best region);
//! 3. `crate::cut::claims::grow` — the two-label geodesic claims from the seeds;
//! 4. `crate::cut::claims::decide` — each pixel to its best claim (the tube owner within
//!    [`SLACK`]), then `crate::cut::beyond::unseeded_regions` for regions no seed reaches;
//! 5. `own_ink` — the lines to the parts beside them;
//! 6. `trusted_tubes` — tubes drawn along their part's outline keep the tube rule.
//!
//! `Paint` carries what every step reads: the declaration (its fitted tubes), the
//! silhouette, the figure's pixels, what the tubes say about each pixel, the ink, the edge
//! strengths and the bones' depth ranks.

use crate::cut::slice::{how, pixels};
use crate::cut::tubes::Cover;
use crate::declare::silhouette::Silhouette;
use crate::declare::skeleton::Skeleton;

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

/// What every step of the paint rule reads.
pub(crate) struct Paint<'a> {
    /// The declaration with its fitted tubes.
    pub sk: &'a Skeleton,
    /// The keyed drawing.
    pub sil: &'a Silhouette,
    /// The figure's pixels (alpha > 0), ascending.
    pub figure: &'a [u32],
    /// What the fitted tubes say about each pixel.
    pub cv: &'a Cover,
    /// Per pixel: on a painted line.
    pub ink: &'a [bool],
    /// Edge strength per pixel ([`Silhouette::edges`]).
    pub e: &'a [u8],
    /// Width and height.
    pub w: usize,
    /// Height.
    pub h: usize,
    /// Depth rank per bone (0 = the nearest).
    pub rank: Vec<usize>,
}

impl Paint<'_> {
    /// Number of declared bones.
    pub fn n(&self) -> usize {
        self.sk.bones.len()
    }

    /// The figure's pixel indices.
    pub fn pixels(&self) -> impl Iterator<Item = usize> + '_ {
        pixels(self.figure)
    }
}

/// The paint rule (see the module doc) into `owner` / `howv`; returns the seed
/// disagreement (share of seed votes that lost to another bone's in their region).
pub(crate) fn paint_rule(
    sk: &Skeleton,
    sil: &Silhouette,
    figure: &[u32],
    cv: &Cover,
    ink: &[bool],
    owner: &mut [u8],
    howv: &mut [u8],
) -> f64 {
    let p = Paint {
        sk,
        sil,
        figure,
        cv,
        ink,
        e: sil.edges(),
        w: sil.width as usize,
        h: sil.height as usize,
        rank: sk.near_rank(),
    };
    let seeds = {
        let (plain, cand) = crate::cut::seeds::candidates(&p);
        crate::cut::seeds::vote(&p, &plain, &cand)
    };
    let claims = crate::cut::claims::grow(&p, &seeds.map);
    drop(seeds.map);
    crate::cut::claims::decide(&p, &claims, owner, howv);
    crate::cut::beyond::unseeded_regions(sil, figure, ink, &claims.settled, owner, howv);
    drop(claims);
    own_ink(&p, owner, howv);
    trusted_tubes(&p, owner, howv);
    seeds.disagreement
}

/// Step 5: the ink, owned through the lines from the claims beside them
/// ([`crate::cut::ink::ink_owners`]; off the figure the owner is 0).
fn own_ink(p: &Paint, owner: &mut [u8], howv: &mut [u8]) {
    let (cv, ink) = (p.cv, p.ink);
    let mut claims = vec![0u8; p.w * p.h];
    for i in p.pixels() {
        if !ink[i] {
            claims[i] = owner[i];
        }
    }
    let (ink_owner, tube_won) = crate::cut::ink::ink_owners(p.sil, ink, &claims, &cv.near, &p.rank);
    for i in p.pixels() {
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
}

/// Step 6: a trusted tube (its visible inner ring at least [`TRUST`] on ink, over at
/// least [`TRUST_MIN`] px: drawn along its part's outline) keeps the tube rule where it
/// is the nearest tube.
fn trusted_tubes(p: &Paint, owner: &mut [u8], howv: &mut [u8]) {
    let cv = p.cv;
    let mut ring = vec![[0u64; 2]; p.n()];
    for i in p.pixels() {
        if cv.near[i] != 0 && cv.rim[i] && p.sil.alpha(i) >= 128 {
            let k = cv.near[i] as usize - 1;
            ring[k][0] += 1;
            ring[k][1] += p.ink[i] as u64;
        }
    }
    let trusted: Vec<bool> = ring
        .iter()
        .map(|r| r[0] >= TRUST_MIN && r[1] as f64 >= TRUST * r[0] as f64)
        .collect();
    for i in p.pixels() {
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
}
