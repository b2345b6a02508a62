//! A layered drawing's layers as parts (issue 40; the reading is
//! [`crate::declare::layers`]).
//!
//! - **Layer → bone** ([`bone_of`]): a layer named after a bone (with a part) is that
//!   bone's; else the declaration's `"layers"` map names its bone (`{"hat": "head"}`); else
//!   the innermost group named after a bone or mapped; else it belongs to no bone.
//!   `E_RIG_LAYER` when no layer belongs to a bone, when a `layers` key names no layer or
//!   group, or when two visible layers whose name names a bone (or is mapped) share it.
//! - **Depth** ([`depths_from_layers`]): a bone that declares no `depth` and has layers
//!   takes the rank of its top-most layer (1 = the top layer of the file, counting every
//!   visible layer); declared depths stay.
//! - **Ownership**: a pixel belongs to the bone of the layer that contributes most to it
//!   ([`Layered::top_layer`]: its alpha times the transparency above; how = `how::LAYER`).
//!   Where that layer belongs to no bone, the slicing rule decides (the paint rule over the
//!   flattened drawing, or `--slicing tubes`).
//! - **Parts** ([`crate::cut::parts`]): a bone with layers is its layers composited — its
//!   paint under nearer layers is real, not filled (the hidden fill reports 0 px filled);
//!   bones without layers are cut as from a flat drawing.

use crate::RigError;
use crate::cut::ink::Ink;
use crate::cut::parts::{Own, cut_parts};
use crate::cut::slice::how::LAYER;
use crate::cut::slice::{Ownership, Rule, Slicing, confidence, ownership_with_ink};
use crate::declare::layers::Layered;
use crate::declare::silhouette::Silhouette;
use crate::declare::skeleton::Skeleton;

/// The bone of each layer (see the module doc).
pub fn bone_of(sk: &Skeleton, l: &Layered) -> Result<Vec<Option<usize>>, RigError> {
    let named = |n: &str| -> Option<usize> {
        sk.bones
            .iter()
            .position(|b| b.part && b.name == n)
            .or_else(|| sk.layers.iter().find(|(k, _)| k == n).map(|x| x.1))
    };
    for (key, _) in &sk.layers {
        let used = l
            .layers
            .iter()
            .any(|x| x.name == *key || x.groups.iter().any(|g| g == key));
        if !used {
            return Err(RigError::new(
                "E_RIG_LAYER",
                format!("layers maps '{key}', but no visible layer or group has that name"),
            ));
        }
    }
    let mut names: Vec<&str> = l
        .layers
        .iter()
        .map(|x| x.name.as_str())
        .filter(|n| named(n).is_some())
        .collect();
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(RigError::new(
            "E_RIG_LAYER",
            format!(
                "two visible layers are called '{}'; which is the bone's? Rename one or merge them",
                w[0]
            ),
        ));
    }
    let out: Vec<Option<usize>> = l
        .layers
        .iter()
        .map(|x| named(&x.name).or_else(|| x.groups.iter().rev().find_map(|g| named(g))))
        .collect();
    if out.iter().all(Option::is_none) {
        let bones: Vec<&str> = sk.bones.iter().take(4).map(|b| b.name.as_str()).collect();
        return Err(RigError::new(
            "E_RIG_LAYER",
            format!(
                "no layer or group is named after a bone (e.g. '{}') or mapped by \"layers\"",
                bones.join("', '")
            ),
        ));
    }
    Ok(out)
}

/// Gives every bone without a declared depth that has layers the rank of its top-most
/// layer (1 = top).
pub fn depths_from_layers(sk: &mut Skeleton, l: &Layered, bone_of: &[Option<usize>]) {
    let n = l.layers.len();
    for (i, b) in bone_of.iter().enumerate() {
        if let Some(k) = *b
            && !sk.bones[k].depth_given
        {
            // layers are far to near: the later, the nearer
            let rank = (n - i) as f64;
            let d = &mut sk.bones[k].depth;
            *d = if *d == 0.0 { rank } else { d.min(rank) };
        }
    }
}

/// Slices a layered drawing (see the module doc); `sil` is the flattened drawing's
/// silhouette.
pub fn slice_layered(
    sk: &Skeleton,
    sil: &Silhouette,
    l: &Layered,
    bone_of: &[Option<usize>],
    rule: Rule,
) -> Result<Slicing, RigError> {
    let (w, h) = (sil.width as usize, sil.height as usize);
    let top = l.top_layer();
    let mut owner = vec![0u8; w * h];
    let mut how = vec![0u8; w * h];
    let mut unmapped = false;
    for i in 0..w * h {
        if sil.alpha(i) == 0 || top[i] == 0 {
            continue;
        }
        match bone_of[top[i] as usize - 1] {
            Some(k) => {
                owner[i] = k as u8 + 1;
                how[i] = LAYER;
            }
            None => unmapped = true,
        }
    }
    let mut ink = Ink::none();
    let mut rule_used = rule;
    let mut own = if unmapped {
        // the pixels of layers of no bone: the slicing rule over the flattened drawing
        if rule == Rule::Paint {
            ink = crate::cut::ink::ink(sil);
        }
        let o = ownership_with_ink(sk, sil, rule, &ink);
        for i in 0..w * h {
            if sil.alpha(i) > 0 && (top[i] == 0 || bone_of[top[i] as usize - 1].is_none()) {
                owner[i] = o.owner[i];
                how[i] = o.how[i];
            }
        }
        Ownership {
            owner: Vec::new(),
            how: Vec::new(),
            ..o
        }
    } else {
        rule_used = Rule::Layers;
        Ownership {
            owner: Vec::new(),
            how: Vec::new(),
            seed_disagreement: 0.0,
            fit_shrink: 0.0,
        }
    };
    own.owner = owner;
    own.how = how;
    let confidence = confidence(sk, sil, &own);
    let o = Own {
        layered: l,
        bone_of,
    };
    let (parts, warnings) = cut_parts(sk, sil, &own.owner, Some(&o), &ink.mask)?;
    Ok(Slicing {
        width: w,
        height: h,
        owner: own.owner,
        how: own.how,
        rule: rule_used,
        ink,
        parts,
        confidence,
        warnings,
    })
}
