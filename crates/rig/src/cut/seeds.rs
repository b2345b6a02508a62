//! Seeds of the paint rule (rig.md §3, steps 1–2 of [`crate::cut::paint`]): where each
//! bone's paint surely is, voted per region of paint.
//!
//! - *Plain* pixels: off painted edges and ink (seeds are never on either).
//! - *Candidates* (`candidates`): a plain pixel seeds the bone whose inner zone along its
//!   body is the nearest containing it — or the nearer bone whose inner zone contains it
//!   only in an end cap, when that bone's body reaches the pixel without crossing a line
//!   (ink in an outlined drawing, at least half of whose rim is ink; painted edges in one
//!   without outlines). A bone without any candidates seeds on the pixels of its core that
//!   no other core contains.
//! - *Votes* (`vote`): per region of paint (4-connected plain pixels) a bone keeps its
//!   candidates only with at least [`SEED_SHARE`] of the votes of the region's best bone; a
//!   bone outvoted in every region keeps its candidates in its best region. The share of
//!   votes that lost is the seed disagreement.

use crate::cut::ink::neighbours4;
use crate::cut::paint::{Paint, SEED_SHARE};
use crate::cut::slice::{EDGE, flood, pixels};

/// The seeds: per pixel 1 + the bone it seeds (0: none), and the seed disagreement.
pub(crate) struct Seeds {
    /// Per pixel: 1 + bone, 0 none.
    pub map: Vec<u8>,
    /// Share of the seed votes that lost to another bone's in their region.
    pub disagreement: f64,
}

/// Step 1: the plain pixels and every plain pixel's candidate bone (1 + index, 0 none).
pub(crate) fn candidates(p: &Paint) -> (Vec<bool>, Vec<u8>) {
    let (w, h, n, sk, sil, cv, ink, figure, rank) =
        (p.w, p.h, p.n(), p.sk, p.sil, p.cv, p.ink, p.figure, &p.rank);
    let e = p.e;
    // seeds are never on a painted edge or on ink
    let mut plain = vec![false; w * h];
    for i in pixels(figure) {
        plain[i] = e[i] < EDGE && !ink[i];
    }
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
    (plain, cand)
}

/// Step 2: the candidates kept per region of paint (see the module doc).
pub(crate) fn vote(p: &Paint, plain: &[bool], cand: &[u8]) -> Seeds {
    let (w, h, n, figure) = (p.w, p.h, p.n(), p.figure);
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
    Seeds {
        map: seed,
        disagreement: if votes_all == 0 {
            0.0
        } else {
            votes_lost as f64 / votes_all as f64
        },
    }
}
