//! Stage 2 for an editor (`re2d rig edit`): the slicing of a declaration
//! without its part images — the ownership map, how each owner was decided,
//! the confidence and the warnings — from a drawing's silhouette and ink
//! prepared once ([`Prepared`]: neither depends on the skeleton).
//!
//! The ownership and the confidence are the very functions
//! [`slice_with`](crate::cut::slice::slice_with) calls
//! ([`ownership_with_ink`], [`confidence`]) on the same silhouette and ink,
//! so a preview's map is the map `rig slice` / `rig build` write to
//! `labels.png`. The warnings and the `E_RIG_PART` errors follow
//! `slice_with`'s rules (partless bones, slivers, their culprit tubes);
//! `crates/rig/tests/rig_preview.rs` compares the two on every generated
//! character and on moved declarations, so a change of the rules there
//! that is not made here fails.
//!
//! [`preview`] checks a cancel flag between its stages: a newer change can
//! stop an older preview before its next stage.

use crate::RigError;
use crate::cut::ink::{self, Ink};
use crate::cut::parts::{no_part, verdict};
use crate::cut::slice::{
    Confidence, Ownership, Rule, confidence, for_tube_pixels, ownership_with_ink,
};
use crate::declare::silhouette::Silhouette;
use crate::declare::skeleton::Skeleton;

/// What a preview reuses: the keyed drawing (its edge strengths computed)
/// and its ink.
pub struct Prepared {
    /// The silhouette.
    pub sil: Silhouette,
    /// The painted lines (what the paint rule looks at).
    pub ink: Ink,
    /// No ink (what the tube rule looks at).
    none: Ink,
}

impl Prepared {
    /// Finds the silhouette's edges and ink once.
    pub fn new(sil: Silhouette) -> Prepared {
        sil.edges();
        let ink = ink::ink(&sil);
        Prepared {
            sil,
            ink,
            none: Ink::none(),
        }
    }

    /// The ink `rule` looks at.
    pub fn ink_for(&self, rule: Rule) -> &Ink {
        match rule {
            Rule::Paint => &self.ink,
            Rule::Tubes | Rule::Layers => &self.none,
        }
    }

    /// Bytes held (pixels, edges, ink), for the memory report.
    pub fn bytes(&self) -> usize {
        self.sil.rgba.len() + self.sil.edges().len() + self.ink.mask.len() + self.ink.faint.len()
    }
}

/// The slicing of a declaration, without the part images.
pub struct Preview {
    /// Per pixel with alpha ≥ 128: 1 + the owning bone's index; 0 elsewhere
    /// (the red of `labels.png`).
    pub labels: Vec<u8>,
    /// Per pixel: how the owner was decided ([`crate::cut::slice::how`]).
    pub how: Vec<u8>,
    /// The truth-free confidence.
    pub confidence: Confidence,
    /// `slice_with`'s warnings (partless bones, slivers, with the culprit
    /// tubes).
    pub warnings: Vec<String>,
    /// Per bone: it has a part (visible pixels, `"part"` not false).
    pub has_part: Vec<bool>,
}

/// The preview of `sk` with `rule`; `Ok(None)` when `cancelled()` turned
/// true between two stages.
pub fn preview(
    sk: &Skeleton,
    prep: &Prepared,
    rule: Rule,
    cancelled: &dyn Fn() -> bool,
) -> Result<Option<Preview>, RigError> {
    let sil = &prep.sil;
    let own = ownership_with_ink(sk, sil, rule, prep.ink_for(rule));
    if cancelled() {
        return Ok(None);
    }
    let confidence = confidence(sk, sil, &own);
    if cancelled() {
        return Ok(None);
    }
    let (warnings, has_part) = warnings(sk, sil, &own)?;
    let labels = own
        .owner
        .iter()
        .enumerate()
        .map(|(i, &o)| if sil.alpha(i) >= 128 { o } else { 0 })
        .collect();
    Ok(Some(Preview {
        labels,
        how: own.how,
        confidence,
        warnings,
        has_part,
    }))
}

/// `slice_with`'s partless and sliver warnings and its `E_RIG_PART` errors
/// for the ownership `own`, and which bones have a part.
fn warnings(
    sk: &Skeleton,
    sil: &Silhouette,
    own: &Ownership,
) -> Result<(Vec<String>, Vec<bool>), RigError> {
    let nb = sk.bones.len();
    let mut owned = vec![0u64; nb];
    for &o in &own.owner {
        if o > 0 {
            owned[o as usize - 1] += 1;
        }
    }
    let mut warnings = Vec::new();
    let mut has_part = vec![false; nb];
    for (k, b) in sk.bones.iter().enumerate() {
        let mut by = vec![0u64; nb];
        let mut tube_px = 0u64;
        for_tube_pixels(b, sil, |i| {
            tube_px += 1;
            if own.owner[i] > 0 {
                by[own.owner[i] as usize - 1] += 1;
            }
        });
        if !b.part {
            continue;
        }
        let (part, warning) = verdict(sk, k, owned[k], tube_px, &by)?;
        has_part[k] = part;
        warnings.extend(warning);
    }
    if !has_part.iter().any(|&p| p) {
        return Err(no_part());
    }
    Ok((warnings, has_part))
}
