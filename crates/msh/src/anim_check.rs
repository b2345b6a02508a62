// re2d MSH — animation validation, check 16 (spec: msh.md §5.8).
//! Runs when Res1 has the 38-byte layout and Res8/Res19 are both usable
//! (sizes are check 2, the pair is check 15). Node `i`'s **track** is the key
//! range `fallback_{i−1} + 1 ..= fallback_i` (`0 ..= fallback_0` for node 0).
//!
//! | code | rule | tolerant |
//! |---|---|---|
//! | `E_ANIM_FALLBACK` | `fallback_key < key_count` | static node, identity pose |
//! | `E_ANIM_MAP_RANGE` | `anim_map_start + frame_count ≤ map words` | static node |
//! | `E_ANIM_FALLBACK_ORDER` | `fallback_key` strictly increases node to node | static node |
//! | `E_ANIM_KEY_ORDER` | key times strictly increase within a track | static node |
//! | `E_ANIM_TRACK` | a node with a map has ≥ 2 keys in its track | static node |
//! | `E_ANIM_MAP_VALUE` | map value inside the track and `< fallback_key`, or `== fallback_key` | static node |
//! | `E_ANIM_FRAME_COUNT` | `frame_count > 0` when any node has a map | every node static |
//! | `W_ANIM_FIRST_TIME` | a track's first key has time 0 | lint |
//! | `W_ANIM_FRAME_COUNT` | `frame_count == max last key time + 1` | lint |
//! | `W_ANIM_MAP_LAYOUT` | map blocks consecutive in node order from 0 | lint |
//! | `W_ANIM_EXTRAPOLATE` | segment keys bracket `[f, f + 1]` | lint |

use crate::nres::Findings;

use super::model::Model;
use super::tables::{NONE16, RES_KEYS, RES_MAP, RES_NODES};

/// Check 16; marks the nodes whose map is used.
pub(crate) fn check(m: &mut Model<'_>, f: &mut Findings) {
    let keys = m.keys;
    let words = m.map_words as u64;
    let fc = m.frame_count as u64;
    let any_map = (0..m.nodes).any(|i| m.node(i).is_some_and(|n| n.anim_map_start != NONE16));
    if any_map && fc == 0 {
        f.error(
            "E_ANIM_FRAME_COUNT",
            Some(RES_MAP),
            None,
            "nodes have animation maps but Res19.attr2 (frame_count) is 0; tolerant: every node uses its static pose",
        );
    }
    let mut prev_fb: Option<u16> = None;
    let mut max_last = f32::NEG_INFINITY;
    let mut layout_next: u64 = 0;
    let mut layout_ok = true;
    let mut animated = vec![false; m.nodes];
    for i in 0..m.nodes {
        let Some(n) = m.node(i) else { continue };
        let fb = n.fallback_key;
        let ix = Some(i as u64);
        let has_map = n.anim_map_start != NONE16;
        let mut ok = true;
        if fb as usize >= keys {
            ok = false;
            f.error(
                "E_ANIM_FALLBACK",
                Some(RES_NODES),
                ix,
                format!(
                    "node {i}: fallback_key {fb} is past the {keys} keys; tolerant: static pose is the identity"
                ),
            );
        }
        let start = match prev_fb {
            None => Some(0usize),
            Some(p) if fb > p => Some(p as usize + 1),
            Some(p) => {
                f.error(
                    "E_ANIM_FALLBACK_ORDER",
                    Some(RES_NODES),
                    ix,
                    format!(
                        "node {i}: fallback_key {fb} does not increase (previous node: {p}); tolerant: the node uses its static pose"
                    ),
                );
                None
            }
        };
        prev_fb = Some(fb);
        if has_map && n.anim_map_start as u64 + fc > words {
            ok = false;
            f.error(
                "E_ANIM_MAP_RANGE",
                Some(RES_NODES),
                ix,
                format!(
                    "node {i}: map {}..{} is past the {words} Res19 words; tolerant: the node uses its static pose",
                    n.anim_map_start,
                    n.anim_map_start as u64 + fc
                ),
            );
        }
        let Some(start) = start else { continue };
        if fb as usize >= keys {
            continue;
        }
        // times strictly increase within the track
        let mut times_ok = true;
        for k in start + 1..=fb as usize {
            let (Some(a), Some(b)) = (m.key(k - 1), m.key(k)) else {
                continue;
            };
            if a.time.partial_cmp(&b.time) != Some(std::cmp::Ordering::Less) {
                times_ok = false;
                f.error(
                    "E_ANIM_KEY_ORDER",
                    Some(RES_KEYS),
                    Some(k as u64),
                    format!(
                        "node {i}: key {k} time {} does not follow key {} time {}; tolerant: the node uses its static pose",
                        b.time,
                        k - 1,
                        a.time
                    ),
                );
                break;
            }
        }
        ok &= times_ok;
        if let Some(k0) = m.key(start)
            && k0.time != 0.0
        {
            f.diag(
                "W_ANIM_FIRST_TIME",
                Some(RES_KEYS),
                Some(start as u64),
                format!(
                    "node {i}: the track's first key {start} has time {}, not 0",
                    k0.time
                ),
            );
        }
        if let Some(kl) = m.key(fb as usize)
            && times_ok
        {
            max_last = max_last.max(kl.time);
        }
        if !has_map {
            continue;
        }
        if (fb as usize) < start + 1 {
            ok = false;
            f.error(
                "E_ANIM_TRACK",
                Some(RES_NODES),
                ix,
                format!("node {i}: has a map but its track {start}..={fb} has fewer than 2 keys; tolerant: the node uses its static pose"),
            );
        }
        if ok && fc > 0 {
            let ms = n.anim_map_start as usize;
            for fr in 0..fc as usize {
                let v = m.map_word(ms + fr).unwrap_or(NONE16);
                if !((v as usize >= start && v < fb) || v == fb) {
                    ok = false;
                    f.error(
                        "E_ANIM_MAP_VALUE",
                        Some(RES_MAP),
                        Some((ms + fr) as u64),
                        format!(
                            "node {i} frame {fr}: map value {v} is neither in its track {start}..{fb} nor the fallback key {fb}; tolerant: the node uses its static pose"
                        ),
                    );
                    break;
                }
            }
        }
        if has_map && fc > 0 {
            if n.anim_map_start as u64 != layout_next {
                layout_ok = false;
            }
            layout_next = n.anim_map_start as u64 + fc;
        }
        if ok && fc > 0 {
            animated[i] = true;
            // lint: segment keys bracket [f, f + 1]
            let ms = n.anim_map_start as usize;
            for fr in 0..fc as usize {
                let v = m.map_word(ms + fr).unwrap_or(fb);
                if v >= fb {
                    continue;
                }
                let (Some(k0), Some(k1)) = (m.key(v as usize), m.key(v as usize + 1)) else {
                    continue;
                };
                let ff = fr as f32;
                if !(k0.time <= ff && k1.time >= ff + 1.0) {
                    f.diag(
                        "W_ANIM_EXTRAPOLATE",
                        Some(RES_MAP),
                        Some((ms + fr) as u64),
                        format!(
                            "node {i} frame {fr}: keys {v}..{} (times {}..{}) do not bracket [{fr}, {}]; sampling extrapolates",
                            v + 1,
                            k0.time,
                            k1.time,
                            fr + 1
                        ),
                    );
                }
            }
        }
    }
    if !layout_ok {
        f.diag(
            "W_ANIM_MAP_LAYOUT",
            Some(RES_MAP),
            None,
            "animation map blocks are not laid out consecutively in node order from 0",
        );
    }
    if max_last.is_finite() && (max_last + 1.0) != fc as f32 {
        f.diag(
            "W_ANIM_FRAME_COUNT",
            Some(RES_MAP),
            None,
            format!(
                "frame_count is {fc}, the longest track ends at time {max_last} (expected {})",
                max_last + 1.0
            ),
        );
    }
    if fc == 0 {
        animated.iter_mut().for_each(|a| *a = false);
    }
    m.animated = animated;
}
