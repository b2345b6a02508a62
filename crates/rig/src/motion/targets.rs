//! Step 5 of the retargeting: each mapped bone's target world angle per key, from the
//! projected capture angles and its rule (a hand keeps its drawn bend at the wrist plus the
//! capture's change; feet, toes and the head their drawn angle plus the change from a
//! reference pose; a reversed bend mirrored about its parent).

use super::bvh::Bvh;
use super::drive::{Drive, bone_role};
use super::mapping::Role;
use super::{Keys, MotionBone, Rule, pose};

/// The drawn world angle of every bone (start → end of its polyline).
pub(super) fn drawn_angles(bones: &[MotionBone]) -> Vec<f64> {
    bones
        .iter()
        .map(|b| (b.end[1] - b.start[1]).atan2(b.end[0] - b.start[0]))
        .collect()
}

/// Per bone, its target world angle at every key (`None`: not mapped), parents first.
pub(super) fn targets(
    bvh: &Bvh,
    bones: &[MotionBone],
    order: &[usize],
    drive: &Drive,
    keys: &Keys,
    drawn: &[f64],
    looped: bool,
) -> Vec<Option<Vec<f64>>> {
    let (segs, theta, start_h, kk) = (&drive.segs, &keys.theta, &keys.start_h, keys.kk);
    let mut target: Vec<Option<Vec<f64>>> = vec![None; bones.len()];
    let mut index = vec![usize::MAX; bones.len()];
    let mut mi = 0;
    for (b, s) in segs.iter().enumerate() {
        if s.is_some() {
            index[b] = mi;
            mi += 1;
        }
    }
    let reference_of = |b: usize, th: &[f64], h: &[f64]| {
        if !looped {
            th[0]
        } else if matches!(
            bone_role(
                &bones[b],
                segs[b]
                    .as_ref()
                    .map(|s| bvh.joints[s.joint()].name.as_str())
            ),
            Some(Role::Foot) | Some(Role::Toe)
        ) {
            stance_reference(&th[..kk], &h[..kk])
        } else {
            circular_mean(&th[..kk], th[0])
        }
    };
    for &b in order {
        let Some(s) = &segs[b] else { continue };
        let th = &theta[index[b]];
        let role = bone_role(&bones[b], Some(bvh.joints[s.joint()].name.as_str()));
        let parent = bones[b].parent.filter(|&p| segs[p].is_some());
        let t = match (&drive.rules[b], role, parent) {
            // a hand: the drawn bend at the wrist plus the capture's change of it
            (Rule::End, Some(Role::Hand), Some(p)) => {
                let thp = &theta[index[p]];
                let rel: Vec<f64> = th.iter().zip(thp).map(|(a, q)| a - q).collect();
                let reference = reference_of(b, &rel, &start_h[index[b]]);
                let pt = target[p].as_ref().unwrap_or(thp);
                let drawn_rel = drawn[b] - drawn[p];
                rel.iter()
                    .zip(pt)
                    .map(|(r, q)| q + drawn_rel + r - reference)
                    .collect()
            }
            // feet, toes, the head: the drawn world angle plus the capture's change
            (Rule::End, ..) => {
                let reference = reference_of(b, th, &start_h[index[b]]);
                th.iter().map(|x| drawn[b] + x - reference).collect()
            }
            _ => th.clone(),
        };
        // a reversed bend: mirrored about the parent's world angle
        let t = match bones[b].parent.filter(|_| drive.reversed[b]) {
            Some(p) => {
                let pw = parent_world(p, &target, bones, drawn);
                t.iter().enumerate().map(|(k, w)| 2.0 * pw(k) - w).collect()
            }
            None => t,
        };
        target[b] = Some(t);
    }
    target
}

/// Bone `p`'s world angle at key `k` before clamping: its target, or the
/// nearest ancestor's target plus the drawn angle between them (a bone
/// without a target keeps its drawn angle relative to its parent; a root
/// without one, its drawn angle).
fn parent_world<'a>(
    p: usize,
    target: &'a [Option<Vec<f64>>],
    bones: &[MotionBone],
    drawn: &'a [f64],
) -> impl Fn(usize) -> f64 + 'a {
    let mut a = p;
    while target[a].is_none()
        && let Some(q) = bones[a].parent
    {
        a = q;
    }
    move |k| match &target[a] {
        Some(t) => t[k] + (drawn[p] - drawn[a]),
        None => drawn[p],
    }
}

/// The mean of the angles at the stance keys (the start point — the
/// ankle — within 20 % of its height range above its lowest).
fn stance_reference(th: &[f64], h: &[f64]) -> f64 {
    let (lo, hi) = h
        .iter()
        .fold((f64::INFINITY, -f64::INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    let cut = lo + 0.2 * (hi - lo);
    let sel: Vec<f64> = th
        .iter()
        .zip(h)
        .filter(|(_, y)| **y <= cut)
        .map(|(t, _)| *t)
        .collect();
    if sel.is_empty() {
        circular_mean(th, th.first().copied().unwrap_or(0.0))
    } else {
        circular_mean(&sel, sel[0])
    }
}

/// The circular mean of `a`, on the branch nearest `near`.
fn circular_mean(a: &[f64], near: f64) -> f64 {
    let (s, c) = a
        .iter()
        .fold((0.0, 0.0), |(s, c), x| (s + x.sin(), c + x.cos()));
    if s == 0.0 && c == 0.0 {
        return near;
    }
    let m = s.atan2(c);
    near + pose::wrap(m - near)
}
