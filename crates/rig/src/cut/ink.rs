//! Stage 3a: the painted lines ("ink") of a drawing, and who owns them
//! (issue 24; the rules are in docs/rig.md "How the parts are cut").
//!
//! - **Value** of a pixel: `max(r, g, b)`.
//! - **Ink colour**: the *rim* is the figure's pixels (alpha ≥ 128) within
//!   two pixels of the background; the ink colour is the mean colour of the
//!   rim pixels whose value is at most the rim's lower quartile (an outlined
//!   drawing's rim is its outline).
//! - **Line cores**: (a) pixels within [`TOLERANCE`] of the ink colour in
//!   every channel, minus what survives a morphological opening by a
//!   `(2·LINE_R + 1)²` square ([`LINE_R`]): thin lines stay, large areas
//!   painted in the ink colour (dark hair, black shoes) do not; (b) lines of
//!   any colour: a value at most [`DARK`] of the grey closing of the value
//!   (the local bright level, same square) and at least [`CONTRAST`] below it;
//!   (c) lines in the ink colour on paint near it (dark trousers, a dark
//!   sleeve), which (a) loses to the opening and (b) to the low contrast: a
//!   pixel within [`TOLERANCE`] of the ink colour whose distance to it is at
//!   least [`VALLEY`] below the grey closing of that distance (the paint
//!   around, same square) and whose value is at least [`VALLEY`] below the
//!   local bright level (a line is darker than its paint, never lighter).
//! - **Ink**: the cores, plus the pixels within [`CORE_R`] of a core that are
//!   at least halfway from the local bright level down to the ink's value
//!   (the anti-aliased sides of a line).
//! - **Ink owners** ([`ink_owners`]): every ink pixel is reached through ink
//!   (4-neighbours, step 1, plus [`INK_CHANGE`] where the colour changes by
//!   at least [`CHANGE`] in a channel: a line of another colour is another
//!   line) from the claimed paint beside it. It goes to its tube owner (the
//!   nearest tube containing it) when that part arrives within [`WINDOW`] of
//!   the first arrival, else to the nearest part (by depth) arriving within
//!   the window: an outline between two parts belongs to the part in front.

use crate::declare::silhouette::Silhouette;

/// Largest channel difference to the ink colour of a colour-core pixel.
pub const TOLERANCE: i32 = 40;
/// Half-size of the opening square that removes large ink-coloured areas
/// and of the grey closing (lines are thinner than `2·LINE_R + 1` px).
pub const LINE_R: usize = 6;
/// A line of any colour: value at most this share of the local bright level.
pub const DARK: f64 = 0.45;
/// … and at least this much below it.
pub const CONTRAST: i32 = 40;
/// A line in the ink colour on paint near it: at least this much nearer the
/// ink colour than the paint around (largest channel difference) and this
/// much darker (value).
pub const VALLEY: i32 = 6;
/// The anti-aliased sides of a line: within this many pixels of a core.
pub const CORE_R: usize = 3;
/// Arrivals within this distance of the first one compete for an ink pixel.
pub const WINDOW: u32 = 12;
/// Extra cost of a step where the ink's colour changes (another line).
pub const INK_CHANGE: u32 = WINDOW + 1;
/// A colour change of at least this much in a channel is another line.
pub const CHANGE: i32 = 24;

/// The ink of a drawing.
#[derive(Clone, Debug, PartialEq)]
pub struct Ink {
    /// Per pixel: on a painted line.
    pub mask: Vec<bool>,
    /// Per pixel: on a line found only by (c), a line in the ink colour on
    /// paint near it (its cores and their sides): a fold drawn on dark
    /// trousers looks the same as their outline, so the fitted tubes do not
    /// stop at these lines (see [`Ink::strong`]).
    pub faint: Vec<bool>,
    /// The ink colour read off the rim (`None`: no rim).
    pub colour: Option<[u8; 3]>,
}

impl Ink {
    /// On a line found by (a) or (b): thin areas of the ink colour, thin
    /// lines darker than their paint by a wide margin.
    pub fn strong(&self, i: usize) -> bool {
        self.mask[i] && !self.faint[i]
    }

    /// No ink (the tube rule does not look for lines).
    pub fn none() -> Ink {
        Ink {
            mask: Vec::new(),
            faint: Vec::new(),
            colour: None,
        }
    }
}

fn value(sil: &Silhouette, i: usize) -> i32 {
    let p = &sil.rgba[i * 4..i * 4 + 3];
    p[0].max(p[1]).max(p[2]) as i32
}

/// The `(2r + 1)²` square maximum (`MAX`) or minimum filter of `src`, the
/// pixels outside the image taking the value `pad` (separable: a row pass,
/// then a column pass; every pass takes the extremum of shifted slices, so
/// the loops vectorise).
fn square_filter<const MAX: bool>(src: &[u8], w: usize, h: usize, r: usize, pad: u8) -> Vec<u8> {
    let op = |a: u8, b: u8| if MAX { a.max(b) } else { a.min(b) };
    let mut tmp = vec![0u8; w * h];
    let mut row = vec![pad; w + 2 * r];
    for y in 0..h {
        row[r..r + w].copy_from_slice(&src[y * w..(y + 1) * w]);
        let out = &mut tmp[y * w..(y + 1) * w];
        out.copy_from_slice(&row[..w]);
        for d in 1..=2 * r {
            for (o, &v) in out.iter_mut().zip(&row[d..d + w]) {
                *o = op(*o, v);
            }
        }
    }
    let mut out = vec![0u8; w * h];
    for y in 0..h {
        let (lo, hi) = (y.saturating_sub(r), (y + r + 1).min(h));
        let acc = &mut out[y * w..(y + 1) * w];
        if hi - lo < 2 * r + 1 {
            // the window leaves the image: the rows outside are `pad`
            acc.fill(pad);
            for yy in lo..hi {
                for (o, &v) in acc.iter_mut().zip(&tmp[yy * w..(yy + 1) * w]) {
                    *o = op(*o, v);
                }
            }
        } else {
            acc.copy_from_slice(&tmp[lo * w..(lo + 1) * w]);
            for yy in lo + 1..hi {
                for (o, &v) in acc.iter_mut().zip(&tmp[yy * w..(yy + 1) * w]) {
                    *o = op(*o, v);
                }
            }
        }
    }
    out
}

/// Per pixel: some pixel of `mask` (0 or 1 per pixel) is set in the
/// `(2r + 1)²` square around it (a binary dilation).
fn dilate(mask: &[u8], w: usize, h: usize, r: usize) -> Vec<u8> {
    square_filter::<true>(mask, w, h, r, 0)
}

/// Binary opening of `mask` (0 or 1 per pixel) by the `(2r + 1)²` square
/// (outside the image is unset).
fn opening(mask: &[u8], w: usize, h: usize, r: usize) -> Vec<u8> {
    let eroded = square_filter::<false>(mask, w, h, r, 0);
    dilate(&eroded, w, h, r)
}

/// The ink colour: mean of the rim pixels at or below the rim's lower
/// quartile of value.
fn rim_colour(sil: &Silhouette) -> Option<[u8; 3]> {
    let (w, h) = (sil.width as usize, sil.height as usize);
    let bg: Vec<u8> = sil
        .rgba
        .chunks_exact(4)
        .map(|p| (p[3] == 0) as u8)
        .collect();
    let near_bg = dilate(&bg, w, h, 2);
    drop(bg);
    let rim: Vec<usize> = (0..w * h)
        .filter(|&i| near_bg[i] > 0 && sil.alpha(i) >= 128)
        .collect();
    if rim.is_empty() {
        return None;
    }
    let mut vals: Vec<i32> = rim.iter().map(|&i| value(sil, i)).collect();
    vals.sort_unstable();
    let q = vals[vals.len() / 4];
    let (mut s, mut n) = ([0u64; 3], 0u64);
    for &i in &rim {
        if value(sil, i) <= q {
            for c in 0..3 {
                s[c] += sil.rgba[i * 4 + c] as u64;
            }
            n += 1;
        }
    }
    Some([0, 1, 2].map(|c| ((s[c] + n / 2) / n) as u8))
}

/// Finds the ink of a drawing (see the module doc).
pub fn ink(sil: &Silhouette) -> Ink {
    let (w, h) = (sil.width as usize, sil.height as usize);
    let colour = rim_colour(sil);
    // per pixel: the largest channel difference to the ink colour (255 on
    // the background), for (a) and (c)
    let to_ink: Option<Vec<u8>> = colour.map(|c| {
        sil.rgba
            .chunks_exact(4)
            .map(|p| {
                if p[3] == 0 {
                    255
                } else {
                    (0..3).map(|k| p[k].abs_diff(c[k])).max().unwrap_or(0)
                }
            })
            .collect()
    });
    // (a) thin lines in the ink colour
    let mut cores = vec![0u8; w * h];
    if let Some(to_ink) = &to_ink {
        let like: Vec<u8> = to_ink
            .iter()
            .zip(sil.rgba.chunks_exact(4))
            .map(|(&t, p)| (p[3] >= 128 && t as i32 <= TOLERANCE) as u8)
            .collect();
        let thick = opening(&like, w, h, LINE_R);
        for ((o, &l), &t) in cores.iter_mut().zip(&like).zip(&thick) {
            *o = l & (t ^ 1);
        }
    }
    // (b) thin dark lines of any colour, against the grey closing
    let v: Vec<u8> = sil
        .rgba
        .chunks_exact(4)
        .map(|p| {
            if p[3] > 0 {
                p[0].max(p[1]).max(p[2])
            } else {
                0
            }
        })
        .collect();
    let mut dil = square_filter::<true>(&v, w, h, LINE_R, 0);
    for (d, p) in dil.iter_mut().zip(sil.rgba.chunks_exact(4)) {
        if p[3] == 0 {
            *d = 255;
        }
    }
    let bright = square_filter::<false>(&dil, w, h, LINE_R, 255);
    drop(dil);
    for (i, p) in sil.rgba.chunks_exact(4).enumerate() {
        let (vi, bi) = (v[i] as i32, bright[i] as i32);
        if p[3] >= 128 && vi as f64 <= DARK * bi as f64 && bi - vi >= CONTRAST {
            cores[i] = 1;
        }
    }
    // (c) thin lines in the ink colour on paint of a near colour
    let strong_cores = cores.clone();
    if let Some(to_ink) = &to_ink {
        let around = square_filter::<false>(
            &square_filter::<true>(to_ink, w, h, LINE_R, 0),
            w,
            h,
            LINE_R,
            255,
        );
        for (i, p) in sil.rgba.chunks_exact(4).enumerate() {
            let (t, a) = (to_ink[i] as i32, around[i] as i32);
            if p[3] >= 128
                && t <= TOLERANCE
                && a - t >= VALLEY
                && bright[i] as i32 - v[i] as i32 >= VALLEY
            {
                cores[i] = 1;
            }
        }
    }
    // the anti-aliased sides: near a core, at least halfway down to the ink
    let ink_v = colour.map_or(0, |c| c[0].max(c[1]).max(c[2]) as i32);
    let side = |i: usize| sil.rgba[i * 4 + 3] >= 128 && 2 * v[i] as i32 <= bright[i] as i32 + ink_v;
    let near = dilate(&cores, w, h, CORE_R);
    let mask: Vec<bool> = (0..w * h)
        .map(|i| cores[i] != 0 || (near[i] > 0 && side(i)))
        .collect();
    let near = dilate(&strong_cores, w, h, CORE_R);
    let faint = (0..w * h)
        .map(|i| mask[i] && !(strong_cores[i] != 0 || (near[i] > 0 && side(i))))
        .collect();
    Ink {
        mask,
        faint,
        colour,
    }
}

/// Owners of the ink pixels (see the module doc). `owner` holds the claims
/// of the paint (1 + bone, 0 for ink and unclaimed pixels), `near` the tube
/// owner per pixel, `rank` per bone its place nearest-first (0 = nearest).
/// Returns per pixel the owner of each reached ink pixel (0 elsewhere) and
/// whether its tube owner won.
pub fn ink_owners(
    sil: &Silhouette,
    mask: &[bool],
    owner: &[u8],
    near: &[u8],
    rank: &[usize],
) -> (Vec<u8>, Vec<bool>) {
    let (w, h) = (sil.width as usize, sil.height as usize);
    let n = rank.len();
    let nbrs = |i: usize| neighbours4(i, w, h);
    let step = |i: usize, j: usize| -> u32 {
        let d = (0..3)
            .map(|c| (sil.rgba[i * 4 + c] as i32 - sil.rgba[j * 4 + c] as i32).abs())
            .max()
            .unwrap_or(0);
        1 + if d >= CHANGE { INK_CHANGE } else { 0 }
    };
    // the sources of each bone: ink pixels beside paint it claimed
    let mut sources: Vec<Vec<u32>> = vec![Vec::new(); n];
    for i in 0..w * h {
        if !mask[i] || sil.alpha(i) == 0 {
            continue;
        }
        let mut seen = [0u8; 4];
        for (s, j) in nbrs(i).into_iter().flatten().enumerate() {
            let o = owner[j];
            if o != 0 && !mask[j] && !seen.contains(&o) {
                seen[s] = o;
                sources[o as usize - 1].push(i as u32);
            }
        }
    }
    let dijkstra = |srcs: &mut dyn Iterator<Item = u32>,
                    dist: &mut [u32],
                    touched: &mut Vec<u32>,
                    limit: Option<&[u32]>| {
        // a bucket queue: the steps are 1 or 1 + INK_CHANGE, so the keys in
        // flight span at most RING buckets (the distances do not depend on
        // the order of equal keys)
        const RING: usize = INK_CHANGE as usize + 2;
        let mut buckets: [Vec<u32>; RING] = Default::default();
        let mut pending = 0usize;
        for s in srcs {
            if dist[s as usize] > 1 {
                if dist[s as usize] == u32::MAX {
                    touched.push(s);
                }
                dist[s as usize] = 1;
                buckets[1].push(s);
                pending += 1;
            }
        }
        let mut d = 1u32;
        while pending > 0 {
            let slot = d as usize % RING;
            let mut cur = std::mem::take(&mut buckets[slot]);
            pending -= cur.len();
            for &i in &cur {
                let i = i as usize;
                if dist[i] != d {
                    continue;
                }
                for j in nbrs(i).into_iter().flatten() {
                    if !mask[j] || sil.alpha(j) == 0 {
                        continue;
                    }
                    let nd = d + step(i, j);
                    if limit.is_some_and(|l| nd > l[j].saturating_add(WINDOW)) {
                        continue;
                    }
                    if nd < dist[j] {
                        if dist[j] == u32::MAX {
                            touched.push(j as u32);
                        }
                        dist[j] = nd;
                        buckets[nd as usize % RING].push(j as u32);
                        pending += 1;
                    }
                }
            }
            cur.clear();
            buckets[slot] = cur;
            d += 1;
        }
    };
    // the first arrival of any part
    let mut first = vec![u32::MAX; w * h];
    let mut touched = Vec::new();
    dijkstra(
        &mut sources.iter().flatten().copied(),
        &mut first,
        &mut touched,
        None,
    );
    // each part's arrivals within the window, nearest parts first
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&k| rank[k]);
    let mut result = vec![0u8; w * h];
    let mut tube_won = vec![false; w * h];
    let mut dist = vec![u32::MAX; w * h];
    for k in order {
        if sources[k].is_empty() {
            continue;
        }
        let mut t = Vec::new();
        dijkstra(
            &mut sources[k].iter().copied(),
            &mut dist,
            &mut t,
            Some(&first),
        );
        for &i in &t {
            let i = i as usize;
            if dist[i] <= first[i].saturating_add(WINDOW) {
                if near[i] as usize == k + 1 {
                    result[i] = k as u8 + 1;
                    tube_won[i] = true;
                } else if result[i] == 0 {
                    result[i] = k as u8 + 1;
                }
            }
            dist[i] = u32::MAX;
        }
    }
    (result, tube_won)
}

/// The 4-neighbours of pixel `i` of a `w × h` grid (left, right, up, down;
/// `None` off the grid).
pub fn neighbours4(i: usize, w: usize, h: usize) -> [Option<usize>; 4] {
    let (x, y) = (i % w, i / w);
    [
        (x > 0).then(|| i - 1),
        (x + 1 < w).then(|| i + 1),
        (y > 0).then(|| i - w),
        (y + 1 < h).then(|| i + w),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sil(w: usize, h: usize, f: impl Fn(usize, usize) -> [u8; 4]) -> Silhouette {
        let mut rgba = Vec::with_capacity(w * h * 4);
        for y in 0..h {
            for x in 0..w {
                rgba.extend_from_slice(&f(x, y));
            }
        }
        Silhouette {
            width: w as u32,
            height: h as u32,
            rgba,
            key: None,
            edges: Default::default(),
        }
    }

    /// A 3-px black outline around a light square with a 3-px dark line
    /// across it and a 20-px black block: outline and line are ink, the
    /// block (thicker than the opening square) and the light paint are not.
    #[test]
    fn thin_lines_are_ink_and_thick_dark_paint_is_not() {
        let s = sil(80, 80, |x, y| {
            if !(5..75).contains(&x) || !(5..75).contains(&y) {
                [0, 255, 0, 0]
            } else if x < 8 || x >= 72 || y < 8 || y >= 72 {
                [20, 20, 30, 255]
            } else if (39..42).contains(&y) {
                [30, 25, 25, 255]
            } else if (50..70).contains(&x) && (50..70).contains(&y) {
                [15, 15, 20, 255]
            } else {
                [200, 180, 150, 255]
            }
        });
        let ink = ink(&s);
        let c = ink.colour.expect("a rim");
        assert!(c.iter().all(|&v| v < 40), "{c:?}");
        let at = |x: usize, y: usize| ink.mask[y * 80 + x];
        assert!(at(6, 30) && at(30, 40), "outline and line");
        assert!(!at(60, 60), "the block's middle");
        assert!(!at(20, 20) && !at(30, 60), "light paint");
    }

    /// Dark trousers (58, 58, 72) under an outlined figure (ink 36, 26, 34):
    /// a 7-px outline across them is ink, though it is neither a thin area
    /// of the ink colour (the trousers are within the tolerance too) nor
    /// contrasted enough against them; the trousers are not ink, and a line
    /// lighter than paint darker than the ink (the control) is not ink.
    #[test]
    fn an_outline_on_paint_near_the_ink_colour_is_ink() {
        let s = sil(120, 120, |x, y| {
            if !(5..115).contains(&x) || !(5..115).contains(&y) {
                [255, 0, 255, 0]
            } else if x < 9 || x >= 111 || y < 9 || y >= 111 {
                [36, 26, 34, 255]
            } else if (40..47).contains(&y) {
                [40, 32, 41, 255]
            } else if y >= 70 && (60..63).contains(&x) {
                [30, 28, 35, 255]
            } else if y >= 70 {
                [21, 20, 25, 255]
            } else {
                [58, 58, 72, 255]
            }
        });
        let ink = ink(&s);
        let at = |x: usize, y: usize| ink.mask[y * 120 + x];
        assert!(at(30, 43) && at(80, 43), "the outline across the trousers");
        assert!(!at(30, 25) && !at(80, 60), "the trousers");
        assert!(!at(61, 90), "a lighter line on paint darker than the ink");
    }

    /// Two claimed parts meet at a line: the line goes to the tube owner
    /// when it arrives within the window, else to the nearer part.
    #[test]
    fn a_line_goes_to_its_tube_owner_or_the_nearer_part() {
        let s = sil(40, 10, |x, _| {
            if (19..22).contains(&x) {
                [0, 0, 0, 255]
            } else {
                [200, 200, 200, 255]
            }
        });
        let mask: Vec<bool> = (0..400).map(|i| (19..22).contains(&(i % 40))).collect();
        let owner: Vec<u8> = (0..400)
            .map(|i| match i % 40 {
                x if x < 19 => 1,
                x if x >= 22 => 2,
                _ => 0,
            })
            .collect();
        // tube owner = part 1 everywhere: it wins
        let near = vec![1u8; 400];
        let (o, won) = ink_owners(&s, &mask, &owner, &near, &[1, 0]);
        assert!((0..10).all(|y| o[y * 40 + 20] == 1 && won[y * 40 + 20]));
        // no tube: the nearer part (bone 2, rank 0) wins
        let (o, _) = ink_owners(&s, &mask, &owner, &[0u8; 400], &[1, 0]);
        assert!((0..10).all(|y| o[y * 40 + 20] == 2), "{:?}", &o[..40]);
    }
}
