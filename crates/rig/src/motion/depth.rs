//! Step 10 of the retargeting (issue 42): draw order from the capture. The sagittal
//! projection drops one axis, the one the viewer looks along; this step keeps it as a depth
//! per bone and key, and turns the depths into a draw order per key.
//!
//! **Depth.** The viewing axis is the capture's horizontal axis across `forward` (up ×
//! forward), pointing at the viewer: a drawing that faces right shows the character's left
//! side, so the side of the near hip (the near leg's hip minus the far leg's at the first
//! key) is the viewer's. A bone's *nearness* at a key is the midpoint of the segment it
//! follows (its driving joint → the joint's child on the chain; a trunk piece's piece of
//! the chain) minus the root, along that axis, in capture units: larger is nearer. A bone
//! that follows no segment has none.
//!
//! **Order** ([`orders`]). Between two parts the capture decides when both have a nearness,
//! they are not a joint whose distal part is an end segment (a hand and its forearm, a foot
//! and its shin: they keep the declaration's order, their seam is drawn for it), nor both
//! of the axial body (the root, the trunk pieces, the neck and the head: one body, whose
//! pieces' hidden fill would show if they changed places), and they differ by more than the *band* ([`BAND`] of the capture's leg
//! length, about 5 cm; [`JOINT_BANDS`] bands between a part and its drawn parent, whose
//! seam was drawn for the declaration's order); otherwise the declaration's order holds
//! (depth ascending, the later declared nearer). With **hysteresis**: a pair keeps its order until the other one is
//! nearer by more than the band, so parts at nearly equal depth never flicker; what a pair
//! holds is the order the previous key showed (after the resolution below). A bone
//! without a segment takes its parent's nearness (the root: 0, the body's centre), a
//! partless bone passes it on; but a part off the axial body without a segment of its own (a
//! garment, hair, a prop) keeps the declaration's order against every part, as a locked pair:
//! the capture says nothing of its depth (a skirt stays over the thigh it was drawn over). The pairs' orders need not be transitive (a weak decision can
//! contradict two strong ones); the order is built from them strongest first — the locked
//! joints, then the pairs by the capture's depth difference, then the declaration's pairs —
//! each kept unless it contradicts the ones kept before, and the parts are then listed
//! nearest first, ties in the declaration's order.
//!
//! A one-shot clip starts and ends in the drawn stance (`ease` keys at each end blend the
//! pose into it), so its keys whose blend weight is below one half take the declaration's
//! order; a cyclic clip's last key is its first.

/// The band within which the capture does not change the order: this fraction of the
/// capture's hip → ankle length (about 5 cm on an adult).
pub const BAND: f64 = 0.06;
/// A joint (a part and its drawn parent) changes order only beyond this many bands: the
/// seam at the joint was drawn for the declaration's order.
pub const JOINT_BANDS: f64 = 4.0;

/// The depths of one clip, from [`super::retarget_with_report`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Depths {
    /// Per declared bone: its nearness at every key (capture units, larger is nearer), or
    /// `None` when it follows no capture segment.
    pub near: Vec<Option<Vec<f64>>>,
    /// Per declared bone: it follows an end-segment rule (hand, foot, toe, head).
    pub end: Vec<bool>,
    /// Per declared bone: the axial body — a trunk piece, the neck or the head (with the
    /// roots, what limbs hang from; its parts keep the declaration's order among themselves).
    pub trunk: Vec<bool>,
    /// The band (capture units).
    pub band: f64,
    /// Keys at each end of a one-shot that blend into the drawn stance (0: cyclic).
    pub ease: usize,
    /// The clip loops (its last key is its first).
    pub looped: bool,
}

/// The viewing axis (canonical frame, horizontal, unit): up × forward, turned so that the
/// near hip minus the far hip points along it (`hips`, when known).
pub fn viewing_axis(forward: [f64; 3], hips: Option<[f64; 3]>) -> [f64; 3] {
    let l = [forward[2], 0.0, -forward[0]];
    match hips {
        Some(h) if h[0] * l[0] + h[2] * l[2] < 0.0 => [-l[0], 0.0, -l[2]],
        _ => l,
    }
}

/// A part as the order sees it (declaration order).
#[derive(Clone, Debug, PartialEq)]
pub struct OrderBone {
    /// Declared parent.
    pub parent: Option<usize>,
    /// Declared depth (smaller is nearer).
    pub depth: f64,
    /// Has a part (is drawn).
    pub part: bool,
}

/// The blend weight of key `k` of `keys` keys with `ease` keys at each end (smoothstep 0 → 1
/// over the first `ease` keys, 1 → 0 over the last): 1 everywhere without ease.
pub fn ease_weight(k: usize, keys: usize, ease: usize) -> f64 {
    if ease == 0 || keys < 2 {
        return 1.0;
    }
    let from_end = (keys - 1).saturating_sub(k);
    let d = k.min(from_end) as f64 / ease as f64;
    if d >= 1.0 {
        1.0
    } else {
        d * d * (3.0 - 2.0 * d)
    }
}

/// Per key, the drawn bones (indices into `bones`) nearest first (see the module doc).
pub fn orders(bones: &[OrderBone], d: &Depths, keys: usize) -> Vec<Vec<usize>> {
    let parts: Vec<usize> = (0..bones.len()).filter(|&b| bones[b].part).collect();
    let n = parts.len();
    // declaration order: depth ascending, later declared nearer
    let mut decl: Vec<usize> = (0..n).collect();
    decl.sort_by(|&a, &b| {
        bones[parts[a]]
            .depth
            .total_cmp(&bones[parts[b]].depth)
            .then(parts[b].cmp(&parts[a]))
    });
    let mut rank = vec![0usize; n];
    for (r, &i) in decl.iter().enumerate() {
        rank[i] = r;
    }
    // nearness per part: its own, else its nearest ancestor's, else the root's (0)
    let near_of = |b: usize, k: usize| -> f64 {
        let mut x = Some(b);
        while let Some(y) = x {
            if let Some(t) = d.near.get(y).and_then(|t| t.as_ref()) {
                return t.get(k).copied().unwrap_or(0.0);
            }
            x = bones[y].parent;
        }
        0.0
    };
    // locked: a part and its nearest drawn ancestor, when the part is an end segment
    let drawn_parent = |b: usize| {
        let mut x = bones[b].parent;
        while let Some(y) = x {
            if bones[y].part {
                return Some(y);
            }
            x = bones[y].parent;
        }
        None
    };
    // the axial body (trunk pieces, roots, the neck and the head) is one body: its parts
    // keep their drawn layering among themselves
    let axial = |a: usize| d.trunk.get(a).copied().unwrap_or(false) || bones[a].parent.is_none();
    // a part off the axial body that follows no segment of its own (a garment, hair, a prop):
    // the capture says nothing of its depth, so it keeps the declaration's order against
    // every part (a thigh stays under the skirt drawn over it)
    let unmoored = |a: usize| !axial(a) && d.near.get(a).is_none_or(|t| t.is_none());
    let locked = |i: usize, j: usize| {
        let (a, b) = (parts[i], parts[j]);
        (d.end.get(a).copied().unwrap_or(false) && drawn_parent(a) == Some(b))
            || (d.end.get(b).copied().unwrap_or(false) && drawn_parent(b) == Some(a))
            || (axial(a) && axial(b))
            || unmoored(a)
            || unmoored(b)
    };
    // one limb: one part an ancestor of the other, the ancestor not the trunk
    let above = |a: usize, b: usize| {
        let mut x = bones[b].parent;
        while let Some(y) = x {
            if y == a {
                return true;
            }
            x = bones[y].parent;
        }
        false
    };
    let limb = |a: usize| !axial(a);
    let joined = |i: usize, j: usize| {
        let (a, b) = (parts[i], parts[j]);
        drawn_parent(a) == Some(b)
            || drawn_parent(b) == Some(a)
            || (above(a, b) && limb(a))
            || (above(b, a) && limb(b))
    };
    // per pair (i < j): i drawn nearer than j?
    let mut nearer = vec![false; n * n];
    for i in 0..n {
        for j in 0..n {
            nearer[i * n + j] = rank[i] < rank[j];
        }
    }
    let mut out: Vec<Vec<usize>> = Vec::with_capacity(keys);
    for k in 0..keys {
        let z: Vec<f64> = parts.iter().map(|&b| near_of(b, k)).collect();
        let w = ease_weight(k, keys, d.ease);
        // pairs: (strength, i nearer than j)
        let mut pairs: Vec<(f64, usize, usize)> = Vec::with_capacity(n * n / 2);
        for i in 0..n {
            for j in i + 1..n {
                if locked(i, j) {
                    let (a, b) = if rank[i] < rank[j] { (i, j) } else { (j, i) };
                    pairs.push((f64::INFINITY, a, b));
                    continue;
                }
                let delta = z[i] - z[j]; // > 0: i nearer
                let band = if joined(i, j) {
                    JOINT_BANDS * d.band
                } else {
                    d.band
                };
                if k == 0 {
                    if delta.abs() > band {
                        nearer[i * n + j] = delta > 0.0;
                    }
                } else if nearer[i * n + j] && delta < -band {
                    nearer[i * n + j] = false;
                } else if !nearer[i * n + j] && delta > band {
                    nearer[i * n + j] = true;
                }
                nearer[j * n + i] = !nearer[i * n + j];
                let (a, b) = if nearer[i * n + j] { (i, j) } else { (j, i) };
                let strength = if joined(i, j) {
                    // a joint holds against any chain of decisions weaker than its own band
                    delta.abs().max(band)
                } else if rank[a] < rank[b] && delta.abs() <= band {
                    0.0 // the declaration's order
                } else {
                    delta.abs()
                };
                pairs.push((strength, a, b));
            }
        }
        if w < 0.5 {
            out.push(decl.iter().map(|&i| parts[i]).collect());
            continue;
        }
        pairs.sort_by(|x, y| {
            y.0.total_cmp(&x.0)
                .then(rank[x.1].cmp(&rank[y.1]))
                .then(rank[x.2].cmp(&rank[y.2]))
        });
        let order = resolve(&pairs, &rank, n);
        // the pairs carry the order shown on to the next key (what the hysteresis holds)
        for (x, &a) in order.iter().enumerate() {
            for &b in &order[x + 1..] {
                if !locked(a, b) {
                    nearer[a * n + b] = true;
                    nearer[b * n + a] = false;
                }
            }
        }
        out.push(order.into_iter().map(|i| parts[i]).collect());
    }
    if d.looped && keys > 1 {
        out[keys - 1] = out[0].clone();
    }
    out
}

/// The order (nearest first) from `pairs` (strength, a nearer than b) strongest first: each
/// kept unless it closes a cycle with the kept ones; ties listed by `rank`.
fn resolve(pairs: &[(f64, usize, usize)], rank: &[usize], n: usize) -> Vec<usize> {
    // reach[a * n + b]: a is above b in the kept relation (transitively)
    let mut reach = vec![false; n * n];
    for &(_, a, b) in pairs {
        if reach[b * n + a] || reach[a * n + b] {
            continue; // contradicts, or already implied
        }
        // every x at or above a is now above every y at or below b
        let above: Vec<usize> = (0..n).filter(|&x| x == a || reach[x * n + a]).collect();
        let below: Vec<usize> = (0..n).filter(|&y| y == b || reach[b * n + y]).collect();
        for &x in &above {
            for &y in &below {
                reach[x * n + y] = true;
            }
        }
    }
    let mut left: Vec<usize> = (0..n).collect();
    let mut out = Vec::with_capacity(n);
    while !left.is_empty() {
        // the parts nothing left is above, the first in the declaration's order
        let pick = left
            .iter()
            .copied()
            .filter(|&x| !left.iter().any(|&y| y != x && reach[y * n + x]))
            .min_by_key(|&x| rank[x])
            .unwrap_or(left[0]);
        out.push(pick);
        left.retain(|&x| x != pick);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A partless root (index 0) and one part per depth hanging from it (indices 1…).
    fn bones(depths: &[f64]) -> Vec<OrderBone> {
        let mut v = vec![OrderBone {
            parent: None,
            depth: 0.0,
            part: false,
        }];
        v.extend(depths.iter().map(|&depth| OrderBone {
            parent: Some(0),
            depth,
            part: true,
        }));
        v
    }

    fn depths(near: Vec<Option<Vec<f64>>>, band: f64) -> Depths {
        let n = near.len();
        Depths {
            near,
            end: vec![false; n],
            trunk: vec![false; n],
            band,
            ease: 0,
            looped: false,
        }
    }

    #[test]
    fn the_capture_decides_beyond_the_band_with_hysteresis() {
        // part 1 (declared nearer) and 2; 2's nearness crosses 1's back and forth
        let b = bones(&[1.0, 2.0]);
        let wiggle = [0.0, 0.05, -0.05, 0.3, 0.05, -0.05, -0.3, 0.0];
        let d = depths(vec![None, Some(vec![0.0; 8]), Some(wiggle.to_vec())], 0.1);
        let first: Vec<usize> = orders(&b, &d, 8).iter().map(|x| x[0]).collect();
        // within the band nothing changes; 0.3 brings 2 in front, which stays until -0.3
        assert_eq!(first, vec![1, 1, 1, 2, 2, 2, 1, 1]);
        // without the band it flickers: the control
        let d0 = Depths { band: 0.0, ..d };
        let f0: Vec<usize> = orders(&b, &d0, 8).iter().map(|x| x[0]).collect();
        assert_eq!(f0, vec![1, 2, 1, 2, 2, 1, 1, 1]);
    }

    #[test]
    fn an_end_segment_keeps_its_joint_and_contradictions_are_resolved_strongest_first() {
        // chest 1 (trunk), forearm 2, hand 3 (child of 2, an end segment, declared behind it):
        // the capture brings both in front of the chest, the hand further
        let mut b = bones(&[11.0, 19.0, 20.0]);
        b[3].parent = Some(2);
        let mut d = depths(
            vec![None, Some(vec![0.0]), Some(vec![0.5]), Some(vec![3.0])],
            0.1,
        );
        d.trunk[1] = true;
        d.end[3] = true;
        // the hand stays behind its forearm (the joint is locked), both in front of the chest
        assert_eq!(orders(&b, &d, 1)[0], vec![2, 3, 1]);
        // unlocked (the control), the hand comes in front of its forearm
        let free = Depths {
            end: vec![false; 4],
            ..d.clone()
        };
        assert_eq!(orders(&b, &free, 1)[0], vec![3, 2, 1]);
        // a contradiction: the locked joint says hand above forearm (hand declared nearer),
        // the capture says chest above the hand strongly (3) and the forearm above the chest
        // weakly (0.5): the weak one gives way
        let mut c = bones(&[1.0, 5.0, 4.0]);
        c[3].parent = Some(2);
        let e = Depths {
            near: vec![None, Some(vec![0.0]), Some(vec![0.5]), Some(vec![-3.0])],
            ..d
        };
        assert_eq!(orders(&c, &e, 1)[0], vec![1, 3, 2]);
    }

    #[test]
    fn the_axial_body_keeps_its_layering() {
        // chest 1 and spine 2 (both trunk): the capture says the spine is far nearer; they
        // keep the declaration's order, a limb 3 does not
        let b = bones(&[1.0, 2.0, 3.0]);
        let mut d = depths(
            vec![None, Some(vec![0.0]), Some(vec![2.0]), Some(vec![3.0])],
            0.1,
        );
        d.trunk[1] = true;
        d.trunk[2] = true;
        assert_eq!(orders(&b, &d, 1)[0], vec![3, 1, 2]);
        d.trunk[2] = false; // the control: a spine that is not axial comes in front
        assert_eq!(orders(&b, &d, 1)[0], vec![3, 2, 1]);
    }

    #[test]
    fn a_part_with_no_segment_keeps_the_declared_order() {
        // a skirt 1 (no segment of its own, declared nearer) over a thigh 2 that the capture
        // brings far nearer than the body: the skirt stays over the thigh
        let b = bones(&[1.0, 2.0]);
        let d = depths(vec![None, None, Some(vec![1.0])], 0.1);
        assert_eq!(orders(&b, &d, 1)[0], vec![1, 2]);
        // the control: the skirt given its parent's nearness as a segment of its own
        let c = depths(vec![None, Some(vec![0.0]), Some(vec![1.0])], 0.1);
        assert_eq!(orders(&b, &c, 1)[0], vec![2, 1]);
    }

    #[test]
    fn a_one_shot_starts_and_ends_in_the_declared_order() {
        let b = bones(&[1.0, 2.0]);
        let mut d = depths(vec![None, Some(vec![0.0; 9]), Some(vec![1.0; 9])], 0.1);
        d.ease = 3;
        let f: Vec<usize> = orders(&b, &d, 9).iter().map(|x| x[0]).collect();
        assert_eq!(f, vec![1, 1, 2, 2, 2, 2, 2, 1, 1]);
    }
}
