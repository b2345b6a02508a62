//! What each clip does to the drawing, measured (issue 42): the share of every part that the
//! clip uncovers from its hidden fill, and the area change of every joint's blend zone under
//! the clip's poses (linear blend skinning shrinks a bent joint: the seed's 7.85 %).
//!
//! - **Uncovered**: per part, the hidden-fill texels some pose of the clip shows (the
//!   reveal's measure, `skin/reveal.rs`, per clip; its quarter-scale renders visit one texel
//!   in about sixteen, so the seen texels are grown by [`GROW`] texels before counting), over
//!   all the part's texels (visible paint and hidden fill).
//! - **Volume**: per joint (a part with a parent: its blend zone, the triangles with a vertex
//!   weighted to two bones), the zone's area in each of [`SAMPLES`] poses of the clip over its
//!   area at rest, minus one: the largest loss and the largest gain, percent.

use serde_json::{Value, json};

use crate::cut::slice::PartImage;
use crate::declare::skeleton::Skeleton;
use crate::skin::reveal::ORIGIN;
use re2d_riv::{Model, reference};

/// Texels the seen set is grown by before counting (the reveal renders at a quarter scale).
pub const GROW: usize = 2;
/// Poses per clip for the volume.
pub const SAMPLES: usize = 48;

/// One clip's measures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClipMeasure {
    /// Clip name.
    pub name: String,
    /// Per declared bone: (uncovered hidden texels, all texels of the part).
    pub uncovered: Vec<(u64, u64)>,
    /// Per joint (declared bone with a part and a parent): (bone, largest loss %, largest
    /// gain %) of its blend zone's area.
    pub volume: Vec<(usize, f64, f64)>,
}

/// `seen` (one part's texels) grown by [`GROW`] texels (a separable square dilation).
pub fn grown(p: &PartImage, seen: &[bool]) -> Vec<bool> {
    let (w, h) = (p.width, p.height);
    let mut rows = vec![false; w * h];
    for y in 0..h {
        for x in 0..w {
            if seen[y * w + x] {
                let (a, b) = (x.saturating_sub(GROW), (x + GROW + 1).min(w));
                rows[y * w + a..y * w + b].fill(true);
            }
        }
    }
    let mut out = vec![false; w * h];
    for x in 0..w {
        for y in 0..h {
            if rows[y * w + x] {
                for yy in y.saturating_sub(GROW)..(y + GROW + 1).min(h) {
                    out[yy * w + x] = true;
                }
            }
        }
    }
    out
}

/// Per declared bone: the hidden texels of `seen` (one clip's), grown by [`GROW`], and all
/// the part's texels.
pub fn uncovered(parts: &[PartImage], seen: &[Vec<bool>]) -> Vec<(u64, u64)> {
    parts
        .iter()
        .zip(seen)
        .map(|(p, s)| {
            let n = p.width * p.height;
            let all = (0..n).filter(|&i| p.rgba[i * 4 + 3] > 0).count() as u64;
            if !s.iter().any(|&x| x) {
                return (0, all);
            }
            let g = grown(p, s);
            let hit = (0..n)
                .filter(|&i| g[i] && p.hidden[i] == 1 && p.rgba[i * 4 + 3] > 0)
                .count() as u64;
            (hit, all)
        })
        .collect()
}

fn area(pts: &[[f64; 2]], tris: &[u16], keep: &[bool]) -> f64 {
    tris.chunks_exact(3)
        .zip(keep)
        .filter(|(_, k)| **k)
        .map(|(t, _)| {
            let (a, b, c) = (pts[t[0] as usize], pts[t[1] as usize], pts[t[2] as usize]);
            0.5 * ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])).abs()
        })
        .sum()
}

/// Per joint, the blend zone's area change over `clip`'s poses (see the module doc).
pub fn volume(sk: &Skeleton, model: &Model, clip: &str, fps: u32) -> Vec<(usize, f64, f64)> {
    let Some(c) = model.clip(clip) else {
        return Vec::new();
    };
    let rest = model.rest();
    // the clip's poses, sampled once for every part
    let poses: Vec<_> = (0..=SAMPLES)
        .filter_map(|i| {
            let t = c.duration * i as f64 / SAMPLES as f64;
            let (local, moved) = reference::clip_pose(model, Some(clip), t, fps).ok()?;
            Some(model.world_moved(&local, &moved, 0.0, 0.0))
        })
        .collect();
    let mut out = Vec::new();
    for (pk, part) in model.parts.iter().enumerate() {
        let Some(k) = sk.bones.iter().position(|b| b.name == part.name) else {
            continue;
        };
        if sk.bones[k].parent.is_none() {
            continue;
        }
        let blended: Vec<bool> = part.weights.iter().map(|w| w.len() == 2).collect();
        let keep: Vec<bool> = part
            .tris
            .chunks_exact(3)
            .map(|t| t.iter().any(|&v| blended[v as usize]))
            .collect();
        let a0 = area(&part.verts, &part.tris, &keep);
        if a0 <= 0.0 {
            continue;
        }
        let (mut lo, mut hi) = (0.0f64, 0.0f64);
        for pose in &poses {
            let pts = reference::deform(model, pk, pose, &rest, &ORIGIN);
            let r = area(&pts, &part.tris, &keep) / a0 - 1.0;
            lo = lo.min(r);
            hi = hi.max(r);
        }
        out.push((k, lo * 100.0, hi * 100.0));
    }
    out
}

/// The report's `measures` section for the clips.
pub fn json(sk: &Skeleton, clips: &[ClipMeasure]) -> Value {
    let mut m = serde_json::Map::new();
    for c in clips {
        let uncovered: Vec<Value> = sk
            .bones
            .iter()
            .zip(&c.uncovered)
            .filter(|(_, u)| u.0 > 0)
            .map(|(b, u)| {
                json!({"part": b.name, "uncovered_px": u.0, "part_px": u.1,
                                 "uncovered_pct": 100.0 * u.0 as f64 / u.1.max(1) as f64})
            })
            .collect();
        let volume: Vec<Value> = c
            .volume
            .iter()
            .map(|(k, lo, hi)| json!({"joint": sk.bones[*k].name, "loss_pct": -lo, "gain_pct": hi}))
            .collect();
        let worst = c.volume.iter().map(|v| -v.1).fold(0.0f64, f64::max);
        m.insert(
            c.name.clone(),
            json!({"uncovered": uncovered, "volume": volume, "volume_loss_max_pct": worst}),
        );
    }
    json!({
        "uncovered_grow_px": GROW, "volume_samples": SAMPLES,
        "volume_seed_anchor_pct": 7.85,
        "clips": Value::Object(m),
    })
}
