//! The truth-free slicing confidence (rig.md §3): how the visible pixels were decided, how
//! much of the part-to-part border follows a painted edge, the seed disagreement, the tube
//! excess and the fit shrink; its control is the same drawing with every radius doubled.

use crate::cut::slice::{EDGE, Ownership, how};
use crate::cut::tubes::for_tube_pixels;
use crate::declare::silhouette::Silhouette;
use crate::declare::skeleton::Skeleton;

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
    /// How much the fit shrank the declared tubes (see `fit_shrink`).
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
