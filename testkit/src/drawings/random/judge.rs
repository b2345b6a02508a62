//! The judge of the random characters: slices a character's flattened drawing with its
//! declaration and scores every part against the truth (visible pixels, alpha ≥ 128).
//!
//! Gate (issue 40): every part with at least [`MIN_PX`] visible pixels scores IoU ≥ 0.90;
//! at least 95 % of those parts ≥ 0.95; each character's mean over those parts ≥ 0.97; no
//! bone with visible paint is made partless.

use re2d::limits::Limits;
use re2d::png_io::RgbaImage;
use re2d_rig::cut::slice::{Rule, Slicing, slice_with};
use re2d_rig::declare::silhouette::silhouette;
use re2d_rig::declare::skeleton::Skeleton;

use super::RandomCharacter;

/// Parts with fewer visible pixels are reported but not gated.
pub const MIN_PX: u64 = 200;

/// One part's score.
#[derive(Clone, Debug, PartialEq)]
pub struct PartScore {
    /// Bone name.
    pub name: String,
    /// Visible pixels in the truth.
    pub truth_px: u64,
    /// Visible pixels the slicing gave it.
    pub owned_px: u64,
    /// IoU of the two.
    pub iou: f64,
    /// The slicing made it partless.
    pub partless: bool,
}

/// One character's score.
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    /// The character's name.
    pub name: String,
    /// Parts with visible paint in the truth, declaration order.
    pub parts: Vec<PartScore>,
}

impl Score {
    /// The gated parts (at least [`MIN_PX`] visible pixels).
    pub fn gated(&self) -> impl Iterator<Item = &PartScore> {
        self.parts.iter().filter(|p| p.truth_px >= MIN_PX)
    }

    /// Mean IoU over the gated parts.
    pub fn mean(&self) -> f64 {
        let v: Vec<f64> = self.gated().map(|p| p.iou).collect();
        v.iter().sum::<f64>() / v.len().max(1) as f64
    }

    /// Lowest IoU over the gated parts.
    pub fn min(&self) -> f64 {
        self.gated().map(|p| p.iou).fold(1.0, f64::min)
    }

    /// Bones with visible paint that have no part.
    pub fn partless(&self) -> Vec<&PartScore> {
        self.parts.iter().filter(|p| p.partless).collect()
    }
}

/// Scores `sl` (the slicing of `c`'s drawing, whose silhouette gives `alpha`) against the
/// truth `truth` (1 + bone, 0 background).
pub fn score_labels(name: &str, sk: &Skeleton, sl: &Slicing, labels: &[u8], truth: &[u8]) -> Score {
    let n = sk.bones.len();
    let (mut inter, mut t, mut o) = (vec![0u64; n + 1], vec![0u64; n + 1], vec![0u64; n + 1]);
    for (&l, &g) in labels.iter().zip(truth) {
        t[g as usize] += 1;
        o[l as usize] += 1;
        if l == g {
            inter[l as usize] += 1;
        }
    }
    let parts = (0..n)
        .filter(|&k| t[k + 1] > 0)
        .map(|k| PartScore {
            name: sk.bones[k].name.clone(),
            truth_px: t[k + 1],
            owned_px: o[k + 1],
            iou: inter[k + 1] as f64 / (t[k + 1] + o[k + 1] - inter[k + 1]).max(1) as f64,
            partless: !sl.parts[k].has_part(),
        })
        .collect();
    Score {
        name: name.to_string(),
        parts,
    }
}

/// Slices `c`'s flattened drawing with `rule` and scores it.
pub fn score(c: &RandomCharacter, rule: Rule) -> Score {
    score_with_labels(c, rule).0
}

/// [`score`] and the slicing's labels (1 + bone where alpha ≥ 128).
pub fn score_with_labels(c: &RandomCharacter, rule: Rule) -> (Score, Vec<u8>) {
    let d = &c.drawing;
    let sk = Skeleton::parse(d.skeleton_json.as_bytes(), &Limits::DEFAULT).expect("parses");
    let img = RgbaImage {
        data: d.rgba.clone(),
        width: d.width,
        height: d.height,
    };
    let sil = silhouette(&img, sk.background).expect("keys");
    let sl = slice_with(&sk, &sil, rule).expect("slices");
    let labels = sl.labels(&sil);
    (score_labels(&d.name, &sk, &sl, &labels, &d.labels), labels)
}

/// The batch's verdict and its table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// One line per character.
    pub lines: Vec<String>,
    /// Gated parts.
    pub parts: usize,
    /// Of them, at least 0.95.
    pub good: usize,
    /// Parts below 0.90 (name of character and part, IoU).
    pub bad: Vec<String>,
    /// Characters whose mean is below 0.97.
    pub low_mean: Vec<String>,
    /// Bones with visible paint made partless.
    pub partless: Vec<String>,
    /// Each character's mean.
    pub means: Vec<f64>,
}

impl Table {
    /// Adds a character.
    pub fn add(&mut self, s: &Score) {
        let g: Vec<&PartScore> = s.gated().collect();
        let good = g.iter().filter(|p| p.iou >= 0.95).count();
        self.parts += g.len();
        self.good += good;
        let mut worst: Vec<&&PartScore> = g.iter().collect();
        worst.sort_by(|a, b| a.iou.total_cmp(&b.iou));
        let low: Vec<String> = worst
            .iter()
            .take(3)
            .map(|p| format!("{} {:.3}", p.name, p.iou))
            .collect();
        for p in &g {
            if p.iou < 0.90 {
                self.bad.push(format!("{} {} {:.3}", s.name, p.name, p.iou));
            }
        }
        self.means.push(s.mean());
        if s.mean() < 0.97 {
            self.low_mean.push(format!("{} {:.4}", s.name, s.mean()));
        }
        for p in s.partless() {
            self.partless
                .push(format!("{} {} ({} px)", s.name, p.name, p.truth_px));
        }
        self.lines.push(format!(
            "{:14} mean {:.4} min {:.4}  {:2}/{:2} >= 0.95  lowest: {}",
            s.name,
            s.mean(),
            s.min(),
            good,
            g.len(),
            low.join(", ")
        ));
    }

    /// Share of gated parts at least 0.95.
    pub fn share(&self) -> f64 {
        self.good as f64 / self.parts.max(1) as f64
    }

    /// True when the batch passes the gate.
    pub fn passes(&self) -> bool {
        self.bad.is_empty()
            && self.low_mean.is_empty()
            && self.partless.is_empty()
            && self.share() >= 0.95
    }

    /// The summary lines.
    pub fn summary(&self) -> Vec<String> {
        vec![
            format!(
                "{} characters, {} parts with >= {MIN_PX} visible px: {:.1} % >= 0.95 (gate 95 %)",
                self.lines.len(),
                self.parts,
                self.share() * 100.0
            ),
            format!("parts < 0.90 ({}): {}", self.bad.len(), self.bad.join("; ")),
            format!(
                "characters with mean < 0.97 ({}): {}",
                self.low_mean.len(),
                self.low_mean.join("; ")
            ),
            format!(
                "bones with visible paint made partless ({}): {}",
                self.partless.len(),
                self.partless.join("; ")
            ),
        ]
    }
}
