//! The figure's medial axis: the mask at a working size, its distance to the
//! edge, its skeleton (thinning) pruned of spurs, as a tree of pixel paths.
//!
//! Rules:
//! - **Working size**: the figure's box scaled by an integer factor so its
//!   longer side is at most [`WORK_SIDE`] px; a cell is figure when at least
//!   half of its pixels are. The largest 4-connected component is kept and
//!   its holes filled.
//! - **Distance to the edge** `D`: exact Euclidean distance of each figure
//!   cell to the nearest background cell (outside the box is background).
//! - **Skeleton**: Zhang–Suen thinning (8-connected, one cell wide).
//! - **Spurs**: an end branch (end → first junction) shorter than
//!   [`SPUR`] × (`D` at its junction − `D` at its end) + 2 cells is removed,
//!   repeated until none is: a bump of the outline only crosses the depth
//!   between the axis and the edge, a limb goes on beyond it. The ends that
//!   remain are the figure's limbs, head, tail (and ears, hair: `body.rs`).

/// Longest side of the working mask (cells).
pub const WORK_SIDE: usize = 240;
/// An end branch shorter than this many times the depth it crosses (plus
/// two cells) is a spur.
pub const SPUR: f64 = 1.2;

/// The working mask and what is measured on it.
pub struct Axis {
    /// Working width (cells).
    pub w: usize,
    /// Working height.
    pub h: usize,
    /// Drawing pixels per cell.
    pub scale: f64,
    /// The cell grid's origin in the drawing (pixels).
    pub origin: [f64; 2],
    /// Per cell: figure.
    pub mask: Vec<bool>,
    /// Per cell: distance to the edge (cells).
    pub dist: Vec<f64>,
    /// Per cell: on the pruned skeleton.
    pub skel: Vec<bool>,
}

impl Axis {
    /// A cell's centre in drawing pixels.
    pub fn to_image(&self, i: usize) -> [f64; 2] {
        [
            self.origin[0] + ((i % self.w) as f64 + 0.5) * self.scale,
            self.origin[1] + ((i / self.w) as f64 + 0.5) * self.scale,
        ]
    }

    /// The skeleton neighbours (8-connected) of cell `i`.
    pub fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let (x, y) = ((i % self.w) as isize, (i / self.w) as isize);
        (-1..=1isize)
            .flat_map(move |dy| (-1..=1isize).map(move |dx| (dx, dy)))
            .filter(|&(dx, dy)| dx != 0 || dy != 0)
            .filter_map(move |(dx, dy)| {
                let (nx, ny) = (x + dx, y + dy);
                (nx >= 0 && ny >= 0 && (nx as usize) < self.w && (ny as usize) < self.h)
                    .then(|| ny as usize * self.w + nx as usize)
            })
            .filter(|&j| self.skel[j])
    }

    /// The number of separate groups of skeleton cells around cell `i` (the
    /// 0 → 1 transitions of its 8-ring): 1 at an end, 2 along a path, 3 or
    /// more at a junction (a staircase corner is a path, not a junction).
    pub fn groups(&self, i: usize) -> usize {
        let (x, y) = ((i % self.w) as isize, (i / self.w) as isize);
        const RING: [(isize, isize); 8] = [
            (0, -1),
            (1, -1),
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
        ];
        let on = |k: usize| {
            let (nx, ny) = (x + RING[k].0, y + RING[k].1);
            nx >= 0
                && ny >= 0
                && (nx as usize) < self.w
                && (ny as usize) < self.h
                && self.skel[ny as usize * self.w + nx as usize]
        };
        let t = (0..8).filter(|&k| !on(k) && on((k + 1) % 8)).count();
        if t == 0 && (0..8).any(on) { 1 } else { t }
    }

    /// The skeleton's ends.
    pub fn ends(&self) -> Vec<usize> {
        (0..self.skel.len())
            .filter(|&i| self.skel[i] && self.groups(i) == 1)
            .collect()
    }
}

/// The medial axis of `mask` (`w × h` drawing pixels, row-major); `None`
/// when the mask is empty.
pub fn axis(mask: &[bool], w: usize, h: usize) -> Option<Axis> {
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for y in 0..h {
        for x in 0..w {
            if mask[y * w + x] {
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x + 1), y1.max(y + 1));
            }
        }
    }
    if x0 >= x1 {
        return None;
    }
    let f = (x1 - x0).max(y1 - y0).div_ceil(WORK_SIDE).max(1);
    // a margin of one empty cell around the figure
    let (ww, wh) = ((x1 - x0).div_ceil(f) + 2, (y1 - y0).div_ceil(f) + 2);
    let mut cells = vec![false; ww * wh];
    for cy in 0..wh - 2 {
        for cx in 0..ww - 2 {
            let mut n = 0;
            let mut tot = 0;
            for y in y0 + cy * f..(y0 + (cy + 1) * f).min(y1) {
                for x in x0 + cx * f..(x0 + (cx + 1) * f).min(x1) {
                    tot += 1;
                    n += usize::from(mask[y * w + x]);
                }
            }
            cells[(cy + 1) * ww + cx + 1] = 2 * n >= tot && n > 0;
        }
    }
    let cells = largest_filled(&cells, ww, wh);
    if !cells.iter().any(|&c| c) {
        return None;
    }
    let dist = edt(&cells, ww, wh);
    let skel = thin(&cells, ww, wh);
    let mut a = Axis {
        w: ww,
        h: wh,
        scale: f as f64,
        origin: [x0 as f64 - f as f64, y0 as f64 - f as f64],
        mask: cells,
        dist,
        skel,
    };
    prune(&mut a);
    Some(a)
}

/// The largest 4-connected component, holes filled.
fn largest_filled(m: &[bool], w: usize, h: usize) -> Vec<bool> {
    let (label, sizes) = crate::declare::paper::components(m, w, h);
    let Some(best) = (1..sizes.len()).max_by_key(|&l| sizes[l]) else {
        return m.to_vec();
    };
    let one: Vec<bool> = label.iter().map(|&l| l as usize == best).collect();
    // holes: the background the border cannot reach
    let off: Vec<bool> = one.iter().map(|&b| !b).collect();
    let (bl, _) = crate::declare::paper::components(&off, w, h);
    let mut outside = vec![
        false;
        sizes
            .len()
            .max(bl.iter().copied().max().unwrap_or(0) as usize + 1)
    ];
    for x in 0..w {
        outside[bl[x] as usize] = true;
        outside[bl[(h - 1) * w + x] as usize] = true;
    }
    for y in 0..h {
        outside[bl[y * w] as usize] = true;
        outside[bl[y * w + w - 1] as usize] = true;
    }
    (0..w * h)
        .map(|i| one[i] || !outside[bl[i] as usize])
        .collect()
}

/// Exact Euclidean distance of each set cell to the nearest unset cell
/// (Felzenszwalb–Huttenlocher, rows then columns).
pub fn edt(m: &[bool], w: usize, h: usize) -> Vec<f64> {
    const INF: f64 = 1e20;
    let mut f: Vec<f64> = m.iter().map(|&b| if b { INF } else { 0.0 }).collect();
    let mut buf = vec![0.0; w.max(h)];
    let mut out = vec![0.0; w.max(h)];
    for x in 0..w {
        for y in 0..h {
            buf[y] = f[y * w + x];
        }
        dt1(&buf[..h], &mut out[..h]);
        for y in 0..h {
            f[y * w + x] = out[y];
        }
    }
    for y in 0..h {
        buf[..w].copy_from_slice(&f[y * w..(y + 1) * w]);
        dt1(&buf[..w], &mut out[..w]);
        f[y * w..(y + 1) * w].copy_from_slice(&out[..w]);
    }
    f.into_iter().map(f64::sqrt).collect()
}

/// One-dimensional squared distance transform of `f` into `d`.
fn dt1(f: &[f64], d: &mut [f64]) {
    let n = f.len();
    let mut v = vec![0usize; n];
    let mut z = vec![0.0f64; n + 1];
    let mut k = 0;
    z[0] = f64::NEG_INFINITY;
    z[1] = f64::INFINITY;
    for q in 1..n {
        loop {
            let p = v[k];
            let s = ((f[q] + (q * q) as f64) - (f[p] + (p * p) as f64)) / (2.0 * (q - p) as f64);
            if s <= z[k] && k > 0 {
                k -= 1;
                continue;
            }
            if s <= z[k] {
                // k == 0: replace
                v[0] = q;
                z[1] = f64::INFINITY;
                break;
            }
            k += 1;
            v[k] = q;
            z[k] = s;
            z[k + 1] = f64::INFINITY;
            break;
        }
    }
    k = 0;
    for q in 0..n {
        while z[k + 1] < q as f64 {
            k += 1;
        }
        let p = v[k];
        d[q] = (q as f64 - p as f64).powi(2) + f[p];
    }
}

/// Zhang–Suen thinning.
fn thin(m: &[bool], w: usize, h: usize) -> Vec<bool> {
    let mut s = m.to_vec();
    let mut del = Vec::new();
    loop {
        let mut changed = false;
        for pass in 0..2 {
            del.clear();
            for y in 1..h - 1 {
                for x in 1..w - 1 {
                    let i = y * w + x;
                    if !s[i] {
                        continue;
                    }
                    // p2..p9 clockwise from north
                    let p = [
                        s[i - w],
                        s[i - w + 1],
                        s[i + 1],
                        s[i + w + 1],
                        s[i + w],
                        s[i + w - 1],
                        s[i - 1],
                        s[i - w - 1],
                    ];
                    let b = p.iter().filter(|&&v| v).count();
                    if !(2..=6).contains(&b) {
                        continue;
                    }
                    let a = (0..8).filter(|&k| !p[k] && p[(k + 1) % 8]).count();
                    if a != 1 {
                        continue;
                    }
                    // Zhang–Suen: P2·P4·P6 = 0 and P4·P6·P8 = 0 (pass 1), P2·P4·P8 = 0 and
                    // P2·P6·P8 = 0 (pass 2); p[0], p[2], p[4], p[6] are P2, P4, P6, P8
                    let ok = if pass == 0 {
                        !p[2] || !p[4] || (!p[0] && !p[6])
                    } else {
                        !p[0] || !p[6] || (!p[2] && !p[4])
                    };
                    if ok {
                        del.push(i);
                    }
                }
            }
            for &i in &del {
                s[i] = false;
            }
            changed |= !del.is_empty();
        }
        if !changed {
            return s;
        }
    }
}

/// Removes spurs (see the module doc), repeatedly.
fn prune(a: &mut Axis) {
    for _ in 0..64 {
        let mut removed = false;
        for e in a.ends() {
            if !a.skel[e] {
                continue;
            }
            let (path, junction) = branch(a, e);
            let Some(j) = junction else { continue };
            if (path.len() as f64) < SPUR * (a.dist[j] - a.dist[e]).max(0.0) + 2.0 {
                for &p in &path {
                    a.skel[p] = false;
                }
                removed = true;
            }
        }
        if !removed {
            return;
        }
    }
}

/// From end `e` along the skeleton to the first junction (a cell with three
/// or more neighbours): the cells before the junction, and the junction.
pub fn branch(a: &Axis, e: usize) -> (Vec<usize>, Option<usize>) {
    let mut path = vec![e];
    let mut prev = usize::MAX;
    let mut cur = e;
    loop {
        let next: Vec<usize> = a
            .neighbours(cur)
            .filter(|&n| n != prev && !path.contains(&n))
            .collect();
        if a.groups(cur) >= 3 && cur != e {
            path.pop();
            return (path, Some(cur));
        }
        match next.first() {
            Some(&n) => {
                prev = cur;
                cur = n;
                path.push(n);
                if path.len() > a.w * a.h {
                    return (path, None);
                }
            }
            None => return (path, None),
        }
    }
}
