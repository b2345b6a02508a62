//! Draw order that changes over a clip (rive-export.md §11.6, issue 42): a clip's
//! `draw_order` keys in the model, validated; the DrawRules, DrawTargets and id keys that
//! make the Rive runtime draw each key's order; the order a clip shows at a time (what the
//! reference renderer and `$.mesh.load` draw); and a transcription of the runtime's sort
//! (`Artboard::sortDrawOrder`) that proves, for every key, that its targets give its order.
//!
//! The model (optional, per clip):
//!
//! ```json
//! "draw_order": [[0, ["hand_near", "forearm_near", "…every part once, nearest first"]],
//!                [0.35, ["…"]]]
//! ```
//!
//! Times follow the rules of `tracks` (strictly increasing, in `[0, duration]`, quantised
//! to the export fps). At time `t` a clip shows the order of its last key at or before `t`;
//! before its first key, the first key's order (as the runtime applies a keyed property
//! before its first key). A clip without `draw_order` shows the default order of §6 (depth
//! ascending, later declared nearer). Every list names every part exactly once, by its
//! name, so the model's part names must be unique when any clip has keys (`E_CLIP`).
//!
//! **How the `.riv` holds it** ([`Plan`]). The parts whose place changes are the
//! *mobile* parts: a vertex cover of the pairs that some key orders unlike the default
//! order (greedy: the part in the most such pairs first), so every other part (*static*)
//! keeps its default place relative to the others in every key and needs no rule. Each
//! mobile part's Image gets a DrawRules and one DrawTarget per place it takes: a key whose
//! order is the default one sets every rule to "no target" (4294967295: the stream order);
//! any other key gives every mobile part a target, placed by [`realise`]: the static parts
//! cut the key's order into gaps; in a gap the mobile part that comes first in the default
//! order is drawn right on top of the static part below the gap (`before`), or right under
//! the one above when the gap is at the back (`after`); then each side of it is a smaller
//! gap whose part placed first goes right next to it, and so on. So a target names a static
//! part or a mobile part earlier in the default order: the runtime's dependency sort of the
//! targets (a target after the targets of its drawable's rules) has no cycle, and no two
//! active targets share a side of one drawable, so the result does not depend on the order
//! in which the runtime applies independent targets. [`Plan::new`] checks every key
//! against [`runtime_order`] with independent targets applied in either order.
//!
//! Every clip keys every DrawRules (at least at its first frame): a state machine that
//! leaves a clip must not keep that clip's order (properties are not reset, §11.5). The one
//! exception is a clip without keys that plays as a body-part layer (`layers.rs`): it keys no
//! rule, so the order stays the one the layers under it key — what every player draws (the
//! last layer whose clip has keys, else the default order).

use serde_json::Value as Json;

use super::error::{Code, RivError, err};
use super::keys::{prop, ty};
use super::model::{Clip, Model};
use super::write::{RivObject, Value};

/// "No target" (the runtime's missing id): the governed Image keeps its stream position.
pub const NO_TARGET: u64 = 4_294_967_295;

/// One `draw_order` key: time and the parts nearest first (indices into the model's parts).
#[derive(Clone, Debug, PartialEq)]
pub struct OrderKey {
    /// Seconds.
    pub time: f64,
    /// Part indices, nearest first; a permutation of all parts.
    pub order: Vec<usize>,
}

/// Validates a clip's `draw_order` against the part names (`E_CLIP`).
pub fn parse(
    v: Option<&Json>,
    at: &str,
    duration: f64,
    parts: &[String],
) -> Result<Vec<OrderKey>, RivError> {
    let list = match v {
        None | Some(Json::Null) => return Ok(Vec::new()),
        Some(Json::Array(a)) => a,
        Some(_) => return err(Code::Clip, format!("{at}.draw_order is not an array")),
    };
    if list.is_empty() {
        return err(Code::Clip, format!("{at}.draw_order has no keys"));
    }
    for (i, a) in parts.iter().enumerate() {
        if let Some(j) = parts[..i].iter().position(|b| b == a) {
            return err(
                Code::Clip,
                format!(
                    "{at}.draw_order names parts, but the name '{a}' is used by parts {j} and {i}"
                ),
            );
        }
    }
    let mut out: Vec<OrderKey> = Vec::with_capacity(list.len());
    for (i, k) in list.iter().enumerate() {
        let kw = format!("{at}.draw_order[{i}]");
        let Some([t, names]) = k.as_array().map(Vec::as_slice) else {
            return err(Code::Clip, format!("{kw} is not a [time, [parts…]] pair"));
        };
        let time = match t.as_f64() {
            Some(x) if x.is_finite() => x,
            _ => return err(Code::Clip, format!("{kw}: the time is not a finite number")),
        };
        if !(0.0..=duration).contains(&time) {
            return err(
                Code::Clip,
                format!("{kw}: time {time} is outside [0, {duration}]"),
            );
        }
        if out.last().is_some_and(|p| time <= p.time) {
            return err(Code::Clip, format!("{kw}: time {time} does not increase"));
        }
        let Json::Array(names) = names else {
            return err(
                Code::Clip,
                format!("{kw}: the order is not an array of part names"),
            );
        };
        let mut seen = vec![false; parts.len()];
        let mut order = Vec::with_capacity(parts.len());
        for n in names {
            let Json::String(n) = n else {
                return err(Code::Clip, format!("{kw}: {n} is not a part name"));
            };
            let Some(p) = parts.iter().position(|q| q == n) else {
                return err(Code::Clip, format!("{kw}: unknown part '{n}'"));
            };
            if seen[p] {
                return err(Code::Clip, format!("{kw}: part '{n}' is named twice"));
            }
            seen[p] = true;
            order.push(p);
        }
        if let Some(p) = seen.iter().position(|s| !s) {
            return err(
                Code::Clip,
                format!("{kw}: part '{}' is missing (every part once)", parts[p]),
            );
        }
        out.push(OrderKey { time, order });
    }
    Ok(out)
}

/// The default order of §6, nearest first: depth ascending, declaration index descending.
pub fn default_order(model: &Model) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..model.parts.len()).collect();
    idx.sort_by(|&a, &b| {
        model.parts[a]
            .depth
            .total_cmp(&model.parts[b].depth)
            .then(b.cmp(&a))
    });
    idx
}

/// The index of the key a clip shows at clip time `time` (seconds, already wrapped or held
/// by the caller), keys at their frames at `fps`: the last key at or before it, else the
/// first. `None` for a clip without keys.
pub fn key_at(c: &Clip, time: f64, fps: u32) -> Option<usize> {
    if c.draw_order.is_empty() {
        return None;
    }
    let frame = time * fps as f64;
    let mut k = 0;
    for (i, key) in c.draw_order.iter().enumerate() {
        let f = (key.time * fps as f64).round_ties_even();
        if f <= frame + 1e-6 {
            k = i;
        } else {
            break;
        }
    }
    Some(k)
}

/// A DrawTarget: the part it draws next to, and on which side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// The part (index into the model's parts) whose Image is the target drawable.
    pub part: usize,
    /// `before` (placement 0): drawn right on top of it; else `after` (1): right under it.
    pub before: bool,
}

/// The DrawRules, DrawTargets and keys of a model (see the module doc).
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Mobile parts (indices), in default order: each has a DrawRules, written in this order.
    pub mobile: Vec<usize>,
    /// Per mobile part, its DrawTargets in writing order.
    pub targets: Vec<Vec<Target>>,
    /// Per clip of the model: per key `(time, per mobile part the index of its active
    /// target in `targets`, `None` = no target)`; a clip without keys has one key at 0
    /// with no targets.
    pub keys: Vec<Vec<(f64, Vec<Option<usize>>)>>,
}

/// Mobile part `m` of a key: its target (part and side) and the part placed.
type Placement = (usize, Target);

/// The placements that realise `order` (nearest first) with the static parts `fixed`:
/// per gap between static parts, its first part in the default order (`rank`) next to the
/// static part below it (`before`), or above it at the back (`after`); each side of a
/// placed part is a smaller gap whose first part goes right next to it.
pub fn realise(order: &[usize], fixed: &[bool], rank: &[usize]) -> Vec<Placement> {
    fn gap(
        items: &[usize],
        above: Option<usize>,
        below: Option<usize>,
        newest_below: Option<bool>,
        rank: &[usize],
        out: &mut Vec<Placement>,
    ) {
        let Some(i) = (0..items.len()).min_by_key(|&i| rank[items[i]]) else {
            return;
        };
        let m = items[i];
        // next to the bound placed last (its sides are free); at the top level, on top of
        // the static part below, or under the one above when the gap is at the back
        let use_below = match newest_below {
            Some(b) => b,
            None => below.is_some(),
        };
        let target = if use_below {
            Target {
                part: below.unwrap_or(m),
                before: true,
            }
        } else {
            Target {
                part: above.unwrap_or(m),
                before: false,
            }
        };
        out.push((m, target));
        gap(&items[..i], above, Some(m), Some(true), rank, out);
        gap(&items[i + 1..], Some(m), below, Some(false), rank, out);
    }
    let mut out = Vec::new();
    let mut start = 0;
    let mut above: Option<usize> = None;
    for (k, &p) in order.iter().enumerate() {
        if fixed[p] {
            gap(&order[start..k], above, Some(p), None, rank, &mut out);
            above = Some(p);
            start = k + 1;
        }
    }
    gap(&order[start..], above, None, None, rank, &mut out);
    out
}

/// The mobile parts: a greedy vertex cover of the pairs some key orders unlike `default`
/// (the part in the most such pairs first; ties: the later in the default order).
fn mobile_parts(default: &[usize], orders: &[&[usize]], n: usize) -> Vec<bool> {
    let mut rank = vec![0usize; n];
    for (k, &p) in default.iter().enumerate() {
        rank[p] = k;
    }
    let mut inverted = vec![false; n * n];
    for order in orders {
        for (i, &a) in order.iter().enumerate() {
            for &b in &order[i + 1..] {
                // a is drawn nearer than b here; the default says b nearer
                if rank[b] < rank[a] {
                    inverted[a * n + b] = true;
                    inverted[b * n + a] = true;
                }
            }
        }
    }
    let mut mobile = vec![false; n];
    loop {
        let degree = |p: usize| {
            (0..n)
                .filter(|&q| !mobile[q] && inverted[p * n + q])
                .count()
        };
        let best = (0..n)
            .filter(|&p| !mobile[p])
            .map(|p| (degree(p), rank[p], p))
            .max();
        match best {
            Some((d, _, p)) if d > 0 => mobile[p] = true,
            _ => break,
        }
    }
    mobile
}

impl Plan {
    /// The plan of `model`'s clips (`None` when no key orders the parts unlike the default
    /// order: no rules are needed). Every key is checked against [`runtime_order`].
    pub fn new(model: &Model) -> Result<Option<Plan>, RivError> {
        let n = model.parts.len();
        let default = default_order(model);
        let orders: Vec<&[usize]> = model
            .clips
            .iter()
            .flat_map(|c| c.draw_order.iter().map(|k| k.order.as_slice()))
            .filter(|o| *o != default.as_slice())
            .collect();
        if orders.is_empty() {
            return Ok(None);
        }
        let is_mobile = mobile_parts(&default, &orders, n);
        let mut rank = vec![0usize; n];
        for (k, &p) in default.iter().enumerate() {
            rank[p] = k;
        }
        let fixed: Vec<bool> = is_mobile.iter().map(|m| !m).collect();
        let mobile: Vec<usize> = default.iter().copied().filter(|&p| is_mobile[p]).collect();
        let slot: Vec<Option<usize>> = (0..n)
            .map(|p| mobile.iter().position(|&m| m == p))
            .collect();
        let mut targets: Vec<Vec<Target>> = vec![Vec::new(); mobile.len()];
        let layer_clips: Vec<usize> = model
            .machine
            .iter()
            .flat_map(|m| m.layers.iter().map(|l| l.clip))
            .collect();
        let mut keys = Vec::with_capacity(model.clips.len());
        for (ci, c) in model.clips.iter().enumerate() {
            let mut ck = Vec::with_capacity(c.draw_order.len().max(1));
            // a keyless clip resets every rule, unless it plays as a body-part layer: there it
            // leaves the order to the layers under it
            if c.draw_order.is_empty() && !layer_clips.contains(&ci) {
                ck.push((0.0, vec![None; mobile.len()]));
            }
            for key in &c.draw_order {
                let mut active = vec![None; mobile.len()];
                if key.order != default {
                    for (m, t) in realise(&key.order, &fixed, &rank) {
                        let s = slot[m].unwrap_or(0);
                        let ti = match targets[s].iter().position(|x| *x == t) {
                            Some(i) => i,
                            None => {
                                targets[s].push(t);
                                targets[s].len() - 1
                            }
                        };
                        active[s] = Some(ti);
                    }
                }
                ck.push((key.time, active));
            }
            keys.push(ck);
        }
        let plan = Plan {
            mobile,
            targets,
            keys,
        };
        for (c, ck) in model.clips.iter().zip(&plan.keys) {
            for (k, (_, active)) in ck.iter().enumerate() {
                let want = c.draw_order.get(k).map_or(&default, |x| &x.order);
                for reverse in [false, true] {
                    let got = runtime_order(&default, &plan, active, reverse);
                    if got != *want {
                        return err(
                            Code::Clip,
                            format!(
                                "internal: the draw rules of clips.{}.draw_order[{k}] give another order",
                                c.name
                            ),
                        );
                    }
                }
            }
        }
        Ok(Some(plan))
    }

    /// The (mobile slot, target) pairs of every DrawTarget, in writing order.
    pub fn all_targets(&self) -> impl Iterator<Item = (usize, &Target)> {
        self.targets
            .iter()
            .enumerate()
            .flat_map(|(s, ts)| ts.iter().map(move |t| (s, t)))
    }
}

/// Where the plan's records sit in the artboard's component list.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    /// Per mobile slot, the artboard index of its DrawRules.
    pub rules: Vec<u64>,
    /// Per mobile slot, per target, the artboard index of the DrawTarget.
    pub targets: Vec<Vec<u64>>,
}

impl Plan {
    /// The DrawRules and DrawTargets records (each DrawRules followed by its targets), from
    /// component index `first`; `image[p]` is part `p`'s Image index. Every rule starts with
    /// no target (the stream order, which is the default order).
    pub fn records(&self, image: &[u64], first: u64, out: &mut Vec<RivObject>) -> Placed {
        let mut at = first;
        let mut placed = Placed {
            rules: Vec::with_capacity(self.mobile.len()),
            targets: Vec::with_capacity(self.mobile.len()),
        };
        for (s, &m) in self.mobile.iter().enumerate() {
            let rules = at;
            out.push(
                RivObject::new(ty::DRAW_RULES)
                    .with(prop::PARENT_ID, Value::Uint(image[m]))
                    .with(prop::DRAW_TARGET_ID, Value::Uint(NO_TARGET)),
            );
            at += 1;
            let mut ts = Vec::with_capacity(self.targets[s].len());
            for t in &self.targets[s] {
                out.push(
                    RivObject::new(ty::DRAW_TARGET)
                        .with(prop::PARENT_ID, Value::Uint(rules))
                        .with(prop::DRAWABLE_ID, Value::Uint(image[t.part]))
                        .with(
                            prop::PLACEMENT_VALUE,
                            Value::Uint(if t.before { 0 } else { 1 }),
                        ),
                );
                ts.push(at);
                at += 1;
            }
            placed.rules.push(rules);
            placed.targets.push(ts);
        }
        placed
    }

    /// Clip `ci`'s draw-order keys: per DrawRules a KeyedObject, its KeyedProperty 121 and a
    /// KeyFrameId at the first key and wherever its target changes; `frames` are the keys'
    /// frames (the export checks them with the other keys' times: `checked_frames`).
    pub fn clip_records(
        &self,
        ci: usize,
        placed: &Placed,
        frames: &[u64],
        out: &mut Vec<RivObject>,
    ) {
        let keys = &self.keys[ci];
        if keys.is_empty() {
            return; // a keyless clip that plays as a body-part layer keys no rule
        }
        for s in 0..self.mobile.len() {
            out.push(
                RivObject::new(ty::KEYED_OBJECT)
                    .with(prop::OBJECT_ID, Value::Uint(placed.rules[s])),
            );
            out.push(
                RivObject::new(ty::KEYED_PROPERTY)
                    .with(prop::PROPERTY_KEY, Value::Uint(prop::DRAW_TARGET_ID)),
            );
            let mut last: Option<Option<usize>> = None;
            for ((_, active), &f) in keys.iter().zip(frames) {
                if last == Some(active[s]) {
                    continue;
                }
                last = Some(active[s]);
                let value = active[s].map_or(NO_TARGET, |t| placed.targets[s][t]);
                out.push(
                    RivObject::new(ty::KEY_FRAME_ID)
                        .with(prop::FRAME, Value::Uint(f))
                        .with(prop::INTERPOLATION_TYPE, Value::Uint(0))
                        .with(prop::KEY_FRAME_ID_VALUE, Value::Uint(value)),
                );
            }
        }
    }
}

/// The order the runtime draws (nearest first), transcribed from `Artboard::sortDrawOrder`:
/// the Images in stream order (`stream`, nearest first) without the ones whose rules have
/// an active target; then each active target, in the dependency order of the targets (a
/// target after every target of its drawable's rules; independent ones in writing order,
/// or in reverse with `reverse`), puts its Image right before (on top of) or after (under)
/// the target drawable.
pub fn runtime_order(
    stream: &[usize],
    plan: &Plan,
    active: &[Option<usize>],
    reverse: bool,
) -> Vec<usize> {
    let slot_of = |p: usize| plan.mobile.iter().position(|&m| m == p);
    let mut list: Vec<usize> = stream
        .iter()
        .copied()
        .filter(|&p| slot_of(p).is_none_or(|s| active[s].is_none()))
        .collect();
    // active targets: (slot, target); dependency: a target on drawable d waits for d's own
    let mut todo: Vec<(usize, Target)> = (0..plan.mobile.len())
        .filter_map(|s| active[s].map(|t| (s, plan.targets[s][t])))
        .collect();
    if reverse {
        todo.reverse();
    }
    let mut placed = vec![false; plan.mobile.len()];
    while !todo.is_empty() {
        let ready = todo
            .iter()
            .position(|(_, t)| slot_of(t.part).is_none_or(|d| placed[d] || active[d].is_none()));
        let Some(i) = ready else {
            break; // a cycle: the runtime would not sort it either
        };
        let (s, t) = todo.remove(i);
        let m = plan.mobile[s];
        match list.iter().position(|&p| p == t.part) {
            Some(at) => list.insert(if t.before { at } else { at + 1 }, m),
            None => list.push(m),
        }
        placed[s] = true;
    }
    list
}

/// The part order (nearest first) `clip` shows at `t` seconds of playback (looping clips
/// wrap, one-shots hold; the caller passes the clip time), or the default order.
pub fn order_at(model: &Model, clip: Option<&Clip>, time: f64, fps: u32) -> Vec<usize> {
    match clip.and_then(|c| key_at(c, time, fps).map(|k| &c.draw_order[k].order)) {
        Some(o) => o.clone(),
        None => default_order(model),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic xorshift for the property tests.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    fn plan_of(default: &[usize], orders: &[Vec<usize>]) -> Plan {
        let n = default.len();
        let refs: Vec<&[usize]> = orders.iter().map(|o| o.as_slice()).collect();
        let is_mobile = mobile_parts(default, &refs, n);
        let mut rank = vec![0; n];
        for (k, &p) in default.iter().enumerate() {
            rank[p] = k;
        }
        let fixed: Vec<bool> = is_mobile.iter().map(|m| !m).collect();
        let mobile: Vec<usize> = default.iter().copied().filter(|&p| is_mobile[p]).collect();
        let mut targets: Vec<Vec<Target>> = vec![Vec::new(); mobile.len()];
        let mut keys = Vec::new();
        for o in orders {
            let mut active = vec![None; mobile.len()];
            if o.as_slice() != default {
                for (m, t) in realise(o, &fixed, &rank) {
                    let s = mobile.iter().position(|&x| x == m).expect("mobile");
                    let ti = targets[s].iter().position(|x| *x == t).unwrap_or_else(|| {
                        targets[s].push(t);
                        targets[s].len() - 1
                    });
                    active[s] = Some(ti);
                }
            }
            keys.push((0.0, active));
        }
        Plan {
            mobile,
            targets,
            keys: vec![keys],
        }
    }

    #[test]
    fn random_orders_are_realised_whatever_the_order_of_independent_targets() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for case in 0..400 {
            let n = 2 + rng.below(11);
            let mut default: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                default.swap(i, rng.below(i + 1));
            }
            let keys = 1 + rng.below(6);
            let orders: Vec<Vec<usize>> = (0..keys)
                .map(|_| {
                    let mut o = default.clone();
                    // a few swaps of a few parts, or a full shuffle
                    if rng.below(3) == 0 {
                        for i in (1..n).rev() {
                            o.swap(i, rng.below(i + 1));
                        }
                    } else {
                        for _ in 0..rng.below(4) {
                            let (a, b) = (rng.below(n), rng.below(n));
                            let x = o.remove(a);
                            o.insert(b, x);
                        }
                    }
                    o
                })
                .collect();
            let plan = plan_of(&default, &orders);
            assert!(
                plan.mobile.len() < n.max(2),
                "case {case}: every part mobile"
            );
            for (k, o) in orders.iter().enumerate() {
                for reverse in [false, true] {
                    let got = runtime_order(&default, &plan, &plan.keys[0][k].1, reverse);
                    assert_eq!(&got, o, "case {case} key {k} reverse {reverse}");
                }
            }
            // the targets' dependencies have no cycle: a target names a static part or a
            // mobile part earlier in the default order
            let rank = |p: usize| default.iter().position(|&q| q == p).unwrap_or(0);
            for (s, t) in plan.all_targets() {
                if plan.mobile.contains(&t.part) {
                    assert!(
                        rank(t.part) < rank(plan.mobile[s]),
                        "case {case}: backward target"
                    );
                }
            }
        }
    }

    #[test]
    fn a_swapped_pair_of_targets_is_caught_by_the_transcribed_sort() {
        // negative control of the property test: flipping every target's side breaks a
        // realised order, so the comparison above can fail
        let default = vec![0, 1, 2, 3, 4];
        let orders = vec![vec![3, 0, 1, 4, 2], vec![0, 4, 3, 1, 2]];
        let mut plan = plan_of(&default, &orders);
        for ts in &mut plan.targets {
            for t in ts {
                t.before = !t.before;
            }
        }
        let broken = (0..orders.len())
            .filter(|&k| runtime_order(&default, &plan, &plan.keys[0][k].1, false) != orders[k])
            .count();
        assert!(broken > 0);
    }

    #[test]
    fn keys_hold_until_the_next_and_the_first_holds_before_it() {
        let c = Clip {
            name: "c".into(),
            duration: 1.0,
            looping: false,
            step: false,
            tracks: Vec::new(),
            translations: Vec::new(),
            draw_order: vec![
                OrderKey {
                    time: 0.25,
                    order: vec![1, 0],
                },
                OrderKey {
                    time: 0.5,
                    order: vec![0, 1],
                },
            ],
        };
        assert_eq!(key_at(&c, 0.0, 60), Some(0));
        assert_eq!(key_at(&c, 0.49, 60), Some(0));
        assert_eq!(key_at(&c, 0.5, 60), Some(1));
        assert_eq!(key_at(&c, 1.0, 60), Some(1));
    }

    #[test]
    fn parse_refuses_what_it_cannot_draw() {
        let parts: Vec<String> = ["a", "b"].iter().map(|s| s.to_string()).collect();
        let ok = serde_json::json!([[0, ["a", "b"]], [0.5, ["b", "a"]]]);
        assert_eq!(parse(Some(&ok), "c", 1.0, &parts).map(|k| k.len()), Ok(2));
        for bad in [
            serde_json::json!([[0, ["a"]]]),
            serde_json::json!([[0, ["a", "a"]]]),
            serde_json::json!([[0, ["a", "x"]]]),
            serde_json::json!([[0.5, ["a", "b"]], [0.5, ["b", "a"]]]),
            serde_json::json!([[2, ["a", "b"]]]),
            serde_json::json!([[0, "a"]]),
            serde_json::json!([]),
            serde_json::json!({}),
        ] {
            let e = parse(Some(&bad), "c", 1.0, &parts).expect_err("refused");
            assert_eq!(e.code, Code::Clip, "{bad}");
        }
        let twice: Vec<String> = ["a", "a"].iter().map(|s| s.to_string()).collect();
        assert!(parse(Some(&ok), "c", 1.0, &twice).is_err());
    }
}
