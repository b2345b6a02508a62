//! The painter: composites the parts near-to-far (front-to-back "under", which gives the
//! same pixels as painting far-to-near with "over") in bands of rows, and records per pixel
//! the ground-truth label and per part the painted, visible and hidden coverage.
//!
//! Truth at a pixel: if the painted coverage (alpha) is at least 0.5, the bone whose paint
//! contributes most to the pixel (its coverage times the transparency of everything nearer;
//! for a fully painted pixel, the nearest part covering it); otherwise 0 (background).
//! Working memory: the output (5 bytes per pixel) plus one band of 32 rows.

use super::Background;
use super::paint::coverage;
use super::part::Part;

/// Rows composited together.
const BAND: usize = 32;

/// What the painter measured of one part.
#[derive(Clone, Debug, PartialEq)]
pub struct PartStats {
    /// Bone name.
    pub name: String,
    /// Declared depth.
    pub depth: i32,
    /// Painted area: the sum of the part's coverage over all pixels (hidden or not).
    pub painted: f64,
    /// Visible area: the sum of the part's coverage times the transparency of the paint
    /// nearer than it.
    pub visible: f64,
    /// Pixels the part covers at least half.
    pub solid: u64,
    /// Pixels labelled with this bone in the truth.
    pub labelled: u64,
    /// Per bone (declaration order): pixels the part covers at least half whose nearest
    /// such part is that bone (its own index: pixels where it is the nearest).
    pub hidden_by: Vec<u64>,
}

impl PartStats {
    /// Fraction of the painted area that is hidden by nearer paint.
    pub fn hidden_fraction(&self) -> f64 {
        if self.painted > 0.0 {
            1.0 - self.visible / self.painted
        } else {
            0.0
        }
    }
}

/// Pixels, labels and per-part statistics of one painting.
pub struct Painting {
    /// RGBA8, row-major.
    pub rgba: Vec<u8>,
    /// One label per pixel: 0 background, else 1 + bone index.
    pub labels: Vec<u8>,
    /// One entry per part, declaration order.
    pub stats: Vec<PartStats>,
}

fn to8(v: f32) -> u8 {
    (v * 255.0).round().clamp(0.0, 255.0) as u8
}

/// Paints `parts` (declaration order, at most 255) on a `w × h` canvas.
pub fn paint(parts: &[Part], w: usize, h: usize, bg: Background, aa: bool) -> Painting {
    assert!(parts.len() <= 255, "labels are one byte");
    let n = parts.len();
    let mut order: Vec<usize> = (0..n).collect();
    // Nearest first: smaller depth, then later declared.
    order.sort_by(|&a, &b| parts[a].depth.cmp(&parts[b].depth).then(b.cmp(&a)));
    let boxes: Vec<[usize; 4]> = parts
        .iter()
        .map(|p| {
            let b = p.bounds();
            let c = |v: f64, hi: usize| v.clamp(0.0, hi as f64) as usize;
            [
                c(b[0].floor() - 1.0, w),
                c(b[1].floor() - 1.0, h),
                c(b[2].ceil() + 2.0, w),
                c(b[3].ceil() + 2.0, h),
            ]
        })
        .collect();
    let mut stats: Vec<PartStats> = parts
        .iter()
        .map(|p| PartStats {
            name: p.name.to_string(),
            depth: p.depth,
            painted: 0.0,
            visible: 0.0,
            solid: 0,
            labelled: 0,
            hidden_by: vec![0; n],
        })
        .collect();
    let mut rgba = vec![0u8; w * h * 4];
    let mut labels = vec![0u8; w * h];
    let cap = w * BAND;
    let mut tr = vec![1f32; cap];
    let mut acc = vec![[0f32; 3]; cap];
    let mut best = vec![0f32; cap];
    let mut best_l = vec![0u8; cap];
    let mut front = vec![0u8; cap];
    for y0 in (0..h).step_by(BAND) {
        let y1 = (y0 + BAND).min(h);
        tr.fill(1.0);
        acc.fill([0.0; 3]);
        best.fill(0.0);
        best_l.fill(0);
        front.fill(0);
        for &k in &order {
            let part = &parts[k];
            let b = boxes[k];
            let label = (k + 1) as u8;
            for y in b[1].max(y0)..b[3].min(y1) {
                for x in b[0]..b[2] {
                    let p = [x as f64 + 0.5, y as f64 + 0.5];
                    let sd = part.sd(p);
                    let c = coverage(sd, aa);
                    if c <= 0.0 {
                        continue;
                    }
                    let i = (y - y0) * w + x;
                    let st = &mut stats[k];
                    st.painted += c as f64;
                    if c >= 0.5 {
                        st.solid += 1;
                        if front[i] == 0 {
                            front[i] = label;
                        }
                        st.hidden_by[front[i] as usize - 1] += 1;
                    }
                    let t = tr[i];
                    let contrib = c * t;
                    if contrib > 0.0 {
                        st.visible += contrib as f64;
                        let m = part.tube.sample(p);
                        let col = part.colour(p, &m, sd, aa);
                        for (a, v) in acc[i].iter_mut().zip(col) {
                            *a += v * contrib;
                        }
                        tr[i] = t * (1.0 - c);
                        if contrib > best[i] {
                            best[i] = contrib;
                            best_l[i] = label;
                        }
                    }
                }
            }
        }
        for y in y0..y1 {
            for x in 0..w {
                let i = (y - y0) * w + x;
                let o = y * w + x;
                let alpha = 1.0 - tr[i];
                let a8 = to8(alpha);
                let px = &mut rgba[o * 4..o * 4 + 4];
                match bg {
                    Background::Key(key) => {
                        if a8 == 0 {
                            px.copy_from_slice(&[key[0], key[1], key[2], 255]);
                        } else {
                            let mut c = [0u8; 3];
                            for (ch, out) in c.iter_mut().enumerate() {
                                *out = to8(acc[i][ch] + key[ch] as f32 / 255.0 * tr[i]);
                            }
                            // A painted pixel never has the exact key colour.
                            if c == key {
                                c[0] = if key[0] < 255 { key[0] + 1 } else { 254 };
                            }
                            px.copy_from_slice(&[c[0], c[1], c[2], 255]);
                        }
                    }
                    Background::Alpha => {
                        if a8 > 0 {
                            for ch in 0..3 {
                                px[ch] = to8(acc[i][ch] / alpha);
                            }
                            px[3] = a8;
                        }
                    }
                }
                if alpha >= 0.5 && best_l[i] > 0 {
                    labels[o] = best_l[i];
                    stats[best_l[i] as usize - 1].labelled += 1;
                }
            }
        }
    }
    Painting {
        rgba,
        labels,
        stats,
    }
}
