//! Claims of the paint rule (rig.md §3, steps 3–4 of [`crate::cut::paint`]).
//!
//! - `grow`: a two-label Dijkstra (4-connected, over pixels with alpha > 0, never entering
//!   ink) of the geodesic distance from every bone's seeds: crossing a painted edge costs its
//!   step / 8 (the largest premultiplied channel step to the neighbour or the pixel after
//!   it), a step to a pixel in another tube but outside the bone's own costs [`OUT_COST`].
//!   The key is `distance · n + rank` (rank 0 = the nearest bone), so of equal distances
//!   the nearer bone wins; each pixel keeps its best label and the best other one. A label
//!   spreads on from a pixel only where it is the best, or the second where its tube is the
//!   nearest tube. A *pinned* seed (one that a nearer bone's tube contains only within
//!   [`PIN`] of its outline, with ink or a colour change of [`WEAK`] between it and that
//!   bone's axis within `PIN + 4` px) cannot be taken by that bone's claim.
//! - `decide`: a pixel goes to its best label, except that the nearest tube containing it
//!   keeps it when that tube's claim is the second best and within [`SLACK`] of the best; a
//!   pixel no seed reaches keeps the tube rule.

use crate::cut::paint::{OUT_COST, PIN, Paint, SLACK, WEAK};
use crate::cut::slice::{COST_SHIFT, EDGE, how, pixels};
use crate::cut::tubes::tube_nearest;

/// No claim (yet).
const UNSET: u32 = u32::MAX;

/// Per pixel the best and second claims (key `distance · n + rank` and label) and how far
/// the search settled it: 0 unreached, 1 its best label, 2 both; 3 never entered
/// (background or ink).
pub(crate) struct Claims {
    /// Best key.
    pub t1: Vec<u32>,
    /// Best label.
    pub l1: Vec<u8>,
    /// Second key.
    pub t2: Vec<u32>,
    /// Second label.
    pub l2: Vec<u8>,
    /// Settled state.
    pub settled: Vec<u8>,
}

/// Step 3: the claims grown from `seed` (see the module doc).
pub(crate) fn grow(p: &Paint, seed: &[u8]) -> Claims {
    let (w, h, n, sk, sil, cv, ink, figure, rank) =
        (p.w, p.h, p.n(), p.sk, p.sil, p.cv, p.ink, p.figure, &p.rank);
    let e = p.e;
    let nr = n as u64;
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
    drop(buckets);
    Claims {
        t1,
        l1,
        t2,
        l2,
        settled,
    }
}

/// Step 4: each pixel to its best claim, unless the tube owner's is within [`SLACK`].
pub(crate) fn decide(p: &Paint, c: &Claims, owner: &mut [u8], howv: &mut [u8]) {
    let (n, cv, ink, figure) = (p.n(), p.cv, p.ink, p.figure);
    let nr = n as u64;
    let (t1, l1, t2, l2, settled) = (&c.t1, &c.l1, &c.t2, &c.l2, &c.settled);
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
}
