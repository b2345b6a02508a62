//! Regions of paint no seed reaches (rig.md §3, paint rule step 4): enclosed by ink, in no
//! inner zone (a hair bun drawn outside the declared tubes).

use crate::cut::ink::neighbours4;
use crate::cut::slice::{flood, how, pixels};
use crate::declare::silhouette::Silhouette;

/// How far (px, through ink) a region no seed reaches looks for the parts
/// beyond its outline.
pub const BEYOND: u32 = 12;

/// A region of paint no seed reaches (enclosed by ink, in no inner zone: a
/// hair bun drawn outside the declared tubes) goes whole to the part beyond
/// its outline whose paint is closest in colour to the region's (the mean
/// colour of the region against each part's mean over all its claimed
/// paint; parts reached through at most [`BEYOND`] px of ink, with at least
/// 8 pixels there). None reached: the tube rule stays.
pub(crate) fn unseeded_regions(
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
