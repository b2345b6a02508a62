//! Which hidden fill the build's clips can reveal (issue 26): the texture
//! pages keep a part's hidden fill only where some pose of the clips shows it,
//! plus a margin. A layered drawing's hidden paint (a layer's own paint under
//! nearer layers, `hidden` = 2) is kept and dropped by the same measure.
//!
//! **Measure**: every clip of the model (the motions and `idle`, the drawn
//! pose) is sampled [`SAMPLES`] times over its duration; at each pose every
//! part is drawn through its mesh (far to near, at [`RENDER_SCALE`] of the
//! drawing) twice: first the depth of the nearest opaque texel (alpha 255)
//! per pixel, then every texel drawn at a pixel where nothing opaque is
//! nearer is *seen*. A hidden-fill texel is kept when it is seen in some
//! pose or lies within [`MARGIN`] crop pixels of one that is (the margin
//! covers the poses between the samples, the texels the half-scale render
//! skips, and the page's half-scale filtering).

use crate::cut::slice::PartImage;
use crate::declare::skeleton::Skeleton;
use crate::skin::raster::{AlphaPlane, PartMesh};
use re2d_riv::Model;
use re2d_riv::model::Frame;
use re2d_riv::reference;

/// Poses sampled per clip.
pub const SAMPLES: usize = 24;
/// Crop pixels kept around every seen hidden texel.
pub const MARGIN: usize = 8;
/// Scale of the measuring renders.
pub const RENDER_SCALE: f64 = 0.25;

/// Per declared bone, per crop texel: seen in some pose of `model`'s clips
/// (the meshes are the crop-UV meshes the model's parts were made from).
/// Only parts with hidden fill are looked at: the others' texels stay unseen.
pub fn seen(
    sk: &Skeleton,
    parts: &[PartImage],
    meshes: &[PartMesh],
    model: &Model,
    fps: u32,
) -> Vec<Vec<bool>> {
    let mut seen: Vec<Vec<bool>> = parts
        .iter()
        .map(|p| vec![false; p.width * p.height])
        .collect();
    let order: Vec<(usize, usize)> = sk
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
    let rest_local: Vec<f64> = model.bones.iter().map(|b| b.angle).collect();
    let rest = model.world(&rest_local, 0.0, 0.0);
    let frame = Frame {
        width: 1,
        height: 1,
        ox: 0.0,
        oy: 0.0,
    };
    let has_hidden: Vec<bool> = parts.iter().map(|p| p.hidden.iter().any(|&h| h != 0)).collect();
    // the renders read only alpha: one byte a texel keeps more of each part in the cache
    let alpha: Vec<AlphaPlane> = parts.iter().map(AlphaPlane::of).collect();
    let s = RENDER_SCALE;
    for clip in &model.clips {
        let mut last: Option<(Vec<f64>, Vec<[f64; 2]>)> = None;
        for i in 0..SAMPLES {
            let time = clip.duration * i as f64 / SAMPLES as f64;
            let (Ok(local), Ok(moved)) = (
                reference::pose_at(model, Some(&clip.name), time, fps),
                reference::moved_at(model, Some(&clip.name), time, fps),
            ) else {
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
    }
    seen
}

/// `parts` with the hidden fill that no pose shows (`seen`, grown by
/// [`MARGIN`]) made transparent; returns the parts and, per part, the hidden
/// texels kept and dropped.
pub fn trim(parts: &[PartImage], seen: &[Vec<bool>]) -> (Vec<PartImage>, Vec<(u64, u64)>) {
    let mut out = Vec::with_capacity(parts.len());
    let mut counts = Vec::with_capacity(parts.len());
    for (p, s) in parts.iter().zip(seen) {
        let (w, h) = (p.width, p.height);
        // the seen hidden texels grown by MARGIN (separable square dilation)
        let mut rows = vec![false; w * h];
        for y in 0..h {
            let mut last: Option<usize> = None;
            for x in 0..w {
                if s[y * w + x] && p.hidden[y * w + x] != 0 {
                    last = Some(x);
                }
                if last.is_some_and(|l| x - l <= MARGIN) {
                    rows[y * w + x] = true;
                }
            }
            let mut next: Option<usize> = None;
            for x in (0..w).rev() {
                if s[y * w + x] && p.hidden[y * w + x] != 0 {
                    next = Some(x);
                }
                if next.is_some_and(|l| l - x <= MARGIN) {
                    rows[y * w + x] = true;
                }
            }
        }
        let mut keep = vec![false; w * h];
        for x in 0..w {
            let mut last: Option<usize> = None;
            for y in 0..h {
                if rows[y * w + x] {
                    last = Some(y);
                }
                if last.is_some_and(|l| y - l <= MARGIN) {
                    keep[y * w + x] = true;
                }
            }
            let mut next: Option<usize> = None;
            for y in (0..h).rev() {
                if rows[y * w + x] {
                    next = Some(y);
                }
                if next.is_some_and(|l| l - y <= MARGIN) {
                    keep[y * w + x] = true;
                }
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
