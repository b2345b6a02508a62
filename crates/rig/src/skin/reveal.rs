//! Which hidden fill the build's clips can reveal (issue 26): the texture
//! pages keep a part's hidden fill only where some pose of the clips shows it,
//! plus a margin. A layered drawing's hidden paint (a layer's own paint under
//! nearer layers, `hidden` = 2) is kept and dropped by the same measure.
//!
//! **Measure**: every clip of the model (the motions and `idle`, the drawn
//! pose), and every body-part layer's clip over every looping clip of the
//! blend, is sampled [`SAMPLES`] times over its duration; at each pose every
//! part is drawn through its mesh (far to near, at [`RENDER_SCALE`] of the
//! drawing) twice: first the depth of the nearest opaque texel (alpha 255)
//! per pixel, then every texel drawn at a pixel where nothing opaque is
//! nearer is *seen*. A hidden-fill texel is kept when it is seen in some
//! pose or lies within [`MARGIN`] crop pixels of one that is (the margin
//! covers the poses between the samples, the texels the half-scale render
//! skips, and the page's half-scale filtering).
//!
//! Each pose draws the parts in the order its clip shows at that time (the
//! clip's draw-order keys, issue 42, else the declaration's). [`seen_per_clip`]
//! hands each clip's own seen texels to a callback (the report's uncovered
//! areas per clip, the fill judge's colour errors).

use crate::cut::slice::PartImage;
use crate::declare::skeleton::Skeleton;
use crate::skin::overlap::dilate;
use crate::skin::raster::{AlphaPlane, PartMesh};
use re2d_riv::Model;
use re2d_riv::model::Frame;
use re2d_riv::reference;

/// Poses sampled per clip.
pub const SAMPLES: usize = 24;
/// Crop pixels kept around every seen hidden texel.
pub const MARGIN: usize = 8;
/// Crop pixels of hidden fill kept around a part's own paint whatever the
/// poses show: the far part stays opaque under the soft edge of a nearer
/// neighbour (issue 47: without it the two half-transparent edges leave a
/// hairline of background between the parts).
pub const SEAM_PAD: usize = 8;
/// Scale of the measuring renders.
pub const RENDER_SCALE: f64 = 0.25;

/// A frame with its origin at the model's: the model's own coordinates, unshifted.
pub const ORIGIN: Frame = Frame {
    width: 1,
    height: 1,
    ox: 0.0,
    oy: 0.0,
};

/// Per declared bone, per crop texel: seen in some pose of `model`'s clips (the meshes are
/// the crop-UV meshes the model's parts were made from; only parts with hidden fill are
/// looked at, the others' texels stay unseen). On the way, clip by clip:
/// `each(clip index, seen texels per declared bone)` for every clip of `model`, then
/// `each(None, …)` for every body-part layer's clip over each looping clip of the blend (the
/// bitmaps are reused between calls).
pub fn seen_per_clip(
    sk: &Skeleton,
    parts: &[PartImage],
    meshes: &[PartMesh],
    model: &Model,
    fps: u32,
    mut each: impl FnMut(Option<usize>, &[Vec<bool>]),
) -> Vec<Vec<bool>> {
    let mut seen: Vec<Vec<bool>> = parts
        .iter()
        .map(|p| vec![false; p.width * p.height])
        .collect();
    let mut all = seen.clone();
    // declared bone of each model part
    let bone_of: Vec<Option<usize>> = model
        .parts
        .iter()
        .map(|p| sk.bones.iter().position(|b| b.name == p.name))
        .collect();
    let declared: Vec<(usize, usize)> = sk
        .far_to_near()
        .into_iter()
        .filter_map(|k| {
            model
                .parts
                .iter()
                .position(|p| p.name == sk.bones[k].name)
                .map(|pk| (k, pk))
        })
        .collect();
    let rest = model.rest();
    let frame = ORIGIN;
    let has_hidden: Vec<bool> = parts
        .iter()
        .map(|p| p.hidden.iter().any(|&h| h != 0))
        .collect();
    // the renders read only alpha: one byte a texel keeps more of each part in the cache
    let alpha: Vec<AlphaPlane> = parts.iter().map(AlphaPlane::of).collect();
    let s = RENDER_SCALE;
    for stack in stacks(model) {
        for s in &mut seen {
            s.fill(false);
        }
        let duration = stack
            .iter()
            .filter_map(|c| model.clip(c).map(|c| c.duration))
            .fold(0.0, f64::max);
        // the clip whose draw-order keys decide the order: the stack's last one that has them
        let keyed = stack
            .iter()
            .rev()
            .filter_map(|c| model.clip(c))
            .find(|c| !c.draw_order.is_empty());
        let mut last: Option<(Vec<f64>, Vec<[f64; 2]>)> = None;
        for i in 0..SAMPLES {
            let time = duration * i as f64 / SAMPLES as f64;
            // far to near in the clip's order at that time
            let order: Vec<(usize, usize)> = match keyed {
                None => declared.clone(),
                Some(clip) => re2d_riv::draworder::order_at(model, Some(clip), time, fps)
                    .into_iter()
                    .rev()
                    .filter_map(|pk| bone_of[pk].map(|k| (k, pk)))
                    .collect(),
            };
            let layers: Vec<(String, f64)> = stack.iter().map(|c| (c.clone(), time)).collect();
            let Ok((local, moved)) = reference::pose_layers(model, &layers, fps) else {
                continue;
            };
            // a held pose (the idle clip) is measured once
            if last
                .as_ref()
                .is_some_and(|(l, m)| *l == local && *m == moved)
            {
                continue;
            }
            let pose = model.world_moved(&local, &moved, 0.0, 0.0);
            last = Some((local, moved));
            let pts: Vec<Vec<[f64; 2]>> = order
                .iter()
                .map(|&(_, pk)| {
                    reference::deform(model, pk, &pose, &rest, &frame)
                        .into_iter()
                        .map(|p| [p[0] * s, p[1] * s])
                        .collect()
                })
                .collect();
            let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
            for p in pts.iter().flatten() {
                x0 = x0.min(p[0]);
                y0 = y0.min(p[1]);
                x1 = x1.max(p[0]);
                y1 = y1.max(p[1]);
            }
            if x0 > x1 {
                continue;
            }
            let win = [
                x0.floor() as i64,
                y0.floor() as i64,
                x1.ceil() as i64 + 1,
                y1.ceil() as i64 + 1,
            ];
            let ww = (win[2] - win[0]) as usize;
            let n = ww * (win[3] - win[1]) as usize;
            // pass 1: per pixel, the rank (in far-to-near order, + 1) of the nearest opaque texel
            let mut top = vec![0u32; n];
            for (rank, &(k, _)) in order.iter().enumerate() {
                let a = &alpha[k];
                a.walk(&meshes[k], &pts[rank], win, |ci, ti| {
                    if a.alpha[ti] == 255 {
                        top[ci] = rank as u32 + 1;
                    }
                });
            }
            // pass 2: a texel drawn where nothing opaque is nearer is seen (only
            // the parts with hidden fill: the trim looks at nothing else)
            for (rank, &(k, _)) in order.iter().enumerate() {
                if !has_hidden[k] {
                    continue;
                }
                let sk = &mut seen[k];
                alpha[k].walk(&meshes[k], &pts[rank], win, |ci, ti| {
                    if top[ci] <= rank as u32 + 1 {
                        sk[ti] = true;
                    }
                });
            }
        }
        // a clip alone: its index; a layer over a blend's clip: None
        let clip = match stack.as_slice() {
            [one] => model.clips.iter().position(|c| c.name == *one),
            _ => None,
        };
        each(clip, &seen);
        for (a, s) in all.iter_mut().zip(&seen) {
            for (x, &y) in a.iter_mut().zip(s) {
                *x |= y;
            }
        }
    }
    all
}

/// The poses measured: every clip alone, and every layer's clip (a motion
/// by body part, issue 47) over every looping clip of the blend, both from
/// their start.
fn stacks(model: &Model) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = model.clips.iter().map(|c| vec![c.name.clone()]).collect();
    if let Some(m) = &model.machine {
        for l in &m.layers {
            for &(b, _) in &m.blend {
                if model.clips[b].looping {
                    out.push(vec![
                        model.clips[b].name.clone(),
                        model.clips[l.clip].name.clone(),
                    ]);
                }
            }
        }
    }
    out
}

/// `parts` with the hidden fill that no pose shows (`seen`, grown by
/// [`MARGIN`]) made transparent; returns the parts and, per part, the hidden
/// texels kept and dropped.
pub fn trim(
    parts: &[PartImage],
    seen: &[Vec<bool>],
    pad: usize,
) -> (Vec<PartImage>, Vec<(u64, u64)>) {
    let mut out = Vec::with_capacity(parts.len());
    let mut counts = Vec::with_capacity(parts.len());
    for (p, s) in parts.iter().zip(seen) {
        let (w, h) = (p.width, p.height);
        // the seen hidden texels grown by MARGIN
        let seen_hidden: Vec<bool> = (0..w * h).map(|i| s[i] && p.hidden[i] != 0).collect();
        let mut keep = dilate(&seen_hidden, w, h, MARGIN);
        // the part's own paint grown by `pad`: the hidden fill under a nearer
        // neighbour's edge, which covers the seam between the two parts
        if pad > 0 {
            let paint: Vec<bool> = (0..w * h)
                .map(|i| p.hidden[i] == 0 && p.rgba[i * 4 + 3] > 0)
                .collect();
            for (k, x) in keep.iter_mut().zip(dilate(&paint, w, h, pad)) {
                *k |= x;
            }
        }
        let mut q = p.clone();
        let (mut kept, mut dropped) = (0u64, 0u64);
        for i in 0..w * h {
            if p.hidden[i] != 0 && p.rgba[i * 4 + 3] > 0 {
                if keep[i] {
                    kept += 1;
                } else {
                    dropped += 1;
                    q.rgba[i * 4..i * 4 + 4].copy_from_slice(&[0, 0, 0, 0]);
                }
            }
        }
        out.push(q);
        counts.push((kept, dropped));
    }
    (out, counts)
}
