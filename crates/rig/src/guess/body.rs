//! From the medial axis to a body: which ends are the head, the hands, the
//! feet and the tail, and where the joints sit along the paths to them.
//!
//! Rules (cells of the working mask; `c` = the skeleton cell deepest inside
//! the figure, the trunk's or body's centre; paths run over the skeleton
//! from `c`):
//! - **Ends**: two ends closer than the sum of their distances to the
//!   edge are one (a hand or foot drawn as two blobs); the one farther along
//!   the skeleton stays.
//! - **Quadruped** when at least three ends lie in the bottom fifth of the
//!   figure's height (feet on the ground; a fourth leg may hide behind
//!   another); else **humanoid**.
//! - Humanoid: the **feet** are the two lowest ends below `c`; the **head**
//!   the end above `c` whose direction from `c` is nearest straight up; the
//!   **hands** the leftmost end left of the trunk and the rightmost right of
//!   it (ends whose path shares more than 60 % of the head's are the head's:
//!   hair, ears); a side without one takes the other side's second arm.
//!   The **crotch** is where the feet's paths part; the trunk runs from it
//!   through `c` to the head's end; the shoulders' centre is where the arms'
//!   paths leave the trunk.
//! - Quadruped: the **legs** are the four lowest ends (by x, hind to fore
//!   along the facing); the **head** the other end with the widest last
//!   third; the **tail** the end farthest from it on the other side of `c`;
//!   facing toward the head.
//! - **Where a limb leaves the trunk** (shoulder, hip, a leg's top): along
//!   its path from the junction, the first cell whose distance to the edge is
//!   at most 1.4 × the limb's radius (the median distance over the outer 60 %
//!   of its path), at most 45 % of the way (30 % for legs).
//! - **Along a limb** from there to its end: the wrist/ankle at
//!   `L − max(1.2 r_end, 0.15 L)`, the elbow/knee halfway between; the end
//!   is extended by its distance to the edge (to the outline).
//! - **Head**: above the shoulders' centre, its base is the narrowest cell
//!   between 10 % and 70 % of the way when it is under 0.85 × the widest
//!   cell beyond it (a neck), else at 30 %; its centre the widest cell beyond
//!   the base.
//! - **Facing** of a humanoid: `right`/`left` when both feet (ankle → tip)
//!   point that way (|dx| > 0.5 |dy|), else `front`.
//! - The **root** is the legs' tops' centre (where AnimatedDrawings puts its
//!   `root` too); the trunk runs from it up the skeleton to the shoulders.
//! - **Confidence** per end: how clearly its branch stands out — its length
//!   over twice the distance to the edge where it joins, at most 1 — times
//!   0.5 when a side had to borrow the other's limb.

use super::axis::{Axis, branch};

/// A found point: drawing pixels and the distance to the edge there (pixels).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pt {
    /// Position, drawing pixels.
    pub p: [f64; 2],
    /// Distance to the edge, drawing pixels.
    pub r: f64,
}

/// A limb: its points from the trunk outward and its confidence.
#[derive(Clone, Debug, PartialEq)]
pub struct Limb {
    /// Root (shoulder, hip, leg top), middle joint, wrist/ankle, end.
    pub joints: [Pt; 4],
    /// 0..1.
    pub confidence: f64,
}

/// A humanoid found in the figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Humanoid {
    /// The crotch (root, the hips' centre).
    pub crotch: Pt,
    /// The trunk's points from the crotch to the shoulders' centre.
    pub trunk: Vec<Pt>,
    /// Head base, centre, top.
    pub head: [Pt; 3],
    /// Head confidence.
    pub head_confidence: f64,
    /// Arms: the image's left one first.
    pub arms: [Limb; 2],
    /// Legs: the image's left one first.
    pub legs: [Limb; 2],
    /// `"front"`, `"left"` or `"right"`.
    pub facing: &'static str,
}

/// A quadruped found in the figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Quadruped {
    /// The body's points from the hind legs' top to the fore legs' top.
    pub body: [Pt; 3],
    /// Neck base, head base, head centre, head end.
    pub head: [Pt; 4],
    /// Head confidence.
    pub head_confidence: f64,
    /// The tail's start and end (`None`: no tail found).
    pub tail: Option<[Pt; 2]>,
    /// Hind legs then fore legs, each pair the more forward first.
    pub legs: [Limb; 4],
    /// `"left"` or `"right"`.
    pub facing: &'static str,
}

/// What the figure is.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// Two legs, two arms, a head.
    Humanoid(Humanoid),
    /// Four legs, a head, perhaps a tail.
    Quadruped(Quadruped),
}

struct Tree<'a> {
    a: &'a Axis,
    centre: usize,
    parent: Vec<usize>,
}

impl Tree<'_> {
    /// The path from the centre to cell `e` (centre first).
    fn path(&self, e: usize) -> Vec<usize> {
        let mut p = vec![e];
        let mut c = e;
        while c != self.centre && self.parent[c] != usize::MAX {
            c = self.parent[c];
            p.push(c);
        }
        p.reverse();
        p
    }

    fn xy(&self, i: usize) -> [f64; 2] {
        [(i % self.a.w) as f64, (i / self.a.w) as f64]
    }

    fn pt(&self, i: usize) -> Pt {
        Pt {
            p: self.a.to_image(i),
            r: self.a.dist[i] * self.a.scale,
        }
    }
}

fn tree(a: &Axis) -> Option<Tree<'_>> {
    let centre = (0..a.skel.len())
        .filter(|&i| a.skel[i])
        .max_by(|&i, &j| a.dist[i].total_cmp(&a.dist[j]).then(j.cmp(&i)))?;
    let mut parent = vec![usize::MAX; a.skel.len()];
    let mut seen = vec![false; a.skel.len()];
    let mut q = std::collections::VecDeque::from([centre]);
    seen[centre] = true;
    while let Some(i) = q.pop_front() {
        for n in a.neighbours(i) {
            if !seen[n] {
                seen[n] = true;
                parent[n] = i;
                q.push_back(n);
            }
        }
    }
    Some(Tree { a, centre, parent })
}

/// Arc length along a cell path, cumulative.
fn arc(t: &Tree, path: &[usize]) -> Vec<f64> {
    let mut s = vec![0.0];
    for w in path.windows(2) {
        let (a, b) = (t.xy(w[0]), t.xy(w[1]));
        let l = s[s.len() - 1] + (b[0] - a[0]).hypot(b[1] - a[1]);
        s.push(l);
    }
    s
}

/// The cell at arc length `at` along `path`.
fn at_len(path: &[usize], s: &[f64], at: f64) -> usize {
    let k = s.partition_point(|&v| v < at).min(path.len() - 1);
    path[k]
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// A limb along `path` (from its junction outward): where it leaves the
/// trunk (at most `cap` of the way), the middle joint, the wrist/ankle, the
/// end extended to the outline.
fn limb(t: &Tree, path: &[usize], cap: f64, confidence: f64) -> Limb {
    let a = t.a;
    let s = arc(t, path);
    let l = s[s.len() - 1].max(1e-9);
    let outer: Vec<f64> = path
        .iter()
        .zip(&s)
        .filter(|(_, v)| **v >= 0.4 * l)
        .map(|(&i, _)| a.dist[i])
        .collect();
    let r = median(outer).max(0.5);
    let k0 = path
        .iter()
        .zip(&s)
        .position(|(&i, &v)| a.dist[i] <= 1.4 * r || v >= cap * l)
        .unwrap_or(0);
    let s0 = s[k0];
    let end = path[path.len() - 1];
    let r_end = a.dist[end];
    let s2 = (l - (1.2 * r_end).max(0.15 * l)).max(s0 + 0.5 * (l - s0));
    let s1 = 0.5 * (s0 + s2);
    let tip = extend(t, path, r_end);
    Limb {
        joints: [
            t.pt(path[k0]),
            t.pt(at_len(path, &s, s1)),
            t.pt(at_len(path, &s, s2)),
            tip,
        ],
        confidence,
    }
}

/// The end of `path` moved outward by `by` cells along its last stretch.
fn extend(t: &Tree, path: &[usize], by: f64) -> Pt {
    let end = path[path.len() - 1];
    let back = path[path.len().saturating_sub(6).min(path.len() - 1)];
    let (e, b) = (t.xy(end), t.xy(back));
    let (dx, dy) = (e[0] - b[0], e[1] - b[1]);
    let n = dx.hypot(dy);
    let mut pt = t.pt(end);
    if n > 0.0 {
        pt.p[0] += dx / n * by * t.a.scale;
        pt.p[1] += dy / n * by * t.a.scale;
    }
    pt.r = (t.a.dist[end] * 0.6 * t.a.scale).max(1.0);
    pt
}

/// How clearly the branch to end `e` stands out (see the module doc).
fn clarity(a: &Axis, e: usize) -> f64 {
    let (path, j) = branch(a, e);
    match j {
        Some(j) => (path.len() as f64 / (2.0 * a.dist[j].max(0.5))).min(1.0),
        None => 1.0,
    }
}

/// The last cell two paths from the centre share.
fn parting(p: &[usize], q: &[usize]) -> usize {
    let mut k = 0;
    while k + 1 < p.len() && k + 1 < q.len() && p[k + 1] == q[k + 1] {
        k += 1;
    }
    p[k]
}

/// Finds the body in the medial axis (see the module doc); `None` when the
/// skeleton has fewer than two ends.
pub fn body(a: &Axis) -> Option<Body> {
    let t = tree(a)?;
    let reach: Vec<usize> = a
        .ends()
        .into_iter()
        .filter(|&e| t.parent[e] != usize::MAX || e == t.centre)
        .collect();
    // ends closer than the sum of their widths are one limb (a hand
    // drawn as two blobs): the one farther along the skeleton stays
    let len = |e: usize| t.path(e).len();
    let ends: Vec<usize> = reach
        .iter()
        .copied()
        .filter(|&e| {
            !reach.iter().any(|&f| {
                let (p, q) = (t.xy(e), t.xy(f));
                f != e
                    && (p[0] - q[0]).hypot(p[1] - q[1]) < a.dist[e] + a.dist[f]
                    && (len(f), f) > (len(e), e)
            })
        })
        .collect();
    if ends.len() < 2 {
        return None;
    }
    let bottom = (0..a.mask.len())
        .filter(|&i| a.mask[i])
        .map(|i| (i / a.w) as f64)
        .fold(0.0, f64::max);
    let y0 = (0..a.mask.len())
        .filter(|&i| a.mask[i])
        .map(|i| (i / a.w) as f64)
        .fold(f64::MAX, f64::min);
    let low: Vec<usize> = ends
        .iter()
        .copied()
        .filter(|&e| t.xy(e)[1] >= bottom - 0.2 * (bottom - y0))
        .collect();
    if low.len() >= 3 {
        quadruped(&t, &ends, &low).map(Body::Quadruped)
    } else {
        humanoid(&t, &ends).map(Body::Humanoid)
    }
}

fn humanoid(t: &Tree, ends: &[usize]) -> Option<Humanoid> {
    let a = t.a;
    let c = t.xy(t.centre);
    // feet: the two lowest ends below the centre
    let mut by_y: Vec<usize> = ends
        .iter()
        .copied()
        .filter(|&e| t.xy(e)[1] > c[1])
        .collect();
    by_y.sort_by(|&p, &q| t.xy(q)[1].total_cmp(&t.xy(p)[1]));
    let feet: Vec<usize> = by_y.iter().copied().take(2).collect();
    // head: above the centre, nearest straight up
    let head = ends
        .iter()
        .copied()
        .filter(|e| !feet.contains(e) && t.xy(*e)[1] < c[1])
        .min_by(|&p, &q| {
            let ang = |e: usize| {
                let v = t.xy(e);
                (v[0] - c[0]).atan2(c[1] - v[1]).abs()
            };
            ang(p).total_cmp(&ang(q))
        })?;
    let head_path = t.path(head);
    let shares_head = |e: usize| {
        let p = t.path(e);
        let k = p.iter().zip(&head_path).take_while(|(x, y)| x == y).count();
        k as f64 > 0.6 * head_path.len() as f64
    };
    let rest: Vec<usize> = ends
        .iter()
        .copied()
        .filter(|&e| e != head && !feet.contains(&e) && !shares_head(e))
        .collect();
    let left = rest
        .iter()
        .copied()
        .filter(|&e| t.xy(e)[0] < c[0])
        .min_by(|&p, &q| t.xy(p)[0].total_cmp(&t.xy(q)[0]));
    let right = rest
        .iter()
        .copied()
        .filter(|&e| t.xy(e)[0] >= c[0])
        .max_by(|&p, &q| t.xy(p)[0].total_cmp(&t.xy(q)[0]));
    // a side without a hand borrows the other side's (a side view's far arm)
    let (hands, borrowed) = match (left, right) {
        (Some(l), Some(r)) => ([l, r], false),
        (Some(l), None) => ([l, l], true),
        (None, Some(r)) => ([r, r], true),
        (None, None) => return None,
    };
    let (feet, feet_borrowed) = match feet.as_slice() {
        [f] => ([*f, *f], true),
        [f, g] => {
            if t.xy(*f)[0] <= t.xy(*g)[0] {
                ([*f, *g], false)
            } else {
                ([*g, *f], false)
            }
        }
        _ => return None,
    };
    // the crotch: where the feet's paths part
    let (pf, pg) = (t.path(feet[0]), t.path(feet[1]));
    let crotch = if feet_borrowed {
        pf[pf.len() / 3]
    } else {
        parting(&pf, &pg)
    };
    // the trunk: crotch -> centre -> head end
    let mut up: Vec<usize> = t.path(crotch);
    up.reverse();
    up.extend(head_path.iter().skip(1));
    // shoulders' centre: where the arms leave the trunk
    let leave = |e: usize| {
        let p = t.path(e);
        let j = p.iter().rposition(|x| up.contains(x)).unwrap_or(0);
        (p[j], p[j..].to_vec())
    };
    let (j0, arm0) = leave(hands[0]);
    let (j1, arm1) = leave(hands[1]);
    let k_of = |j: usize| up.iter().position(|&x| x == j).unwrap_or(0);
    let ks = ((k_of(j0) + k_of(j1)) / 2).max(1).min(up.len() - 1);
    let trunk: Vec<usize> = up[..=ks].to_vec();
    // head: above the shoulders' centre
    let above = &up[ks..];
    let sa = arc(t, above);
    let la = sa[sa.len() - 1].max(1e-9);
    let widest_beyond = |k: usize| above[k..].iter().map(|&i| a.dist[i]).fold(0.0, f64::max);
    let narrow = (0..above.len())
        .filter(|&k| k >= 1 && sa[k] <= 0.7 * la)
        .min_by(|&p, &q| a.dist[above[p]].total_cmp(&a.dist[above[q]]));
    let kb = match narrow {
        Some(k) if a.dist[above[k]] < 0.85 * widest_beyond(k) => k,
        _ => sa.partition_point(|&v| v < 0.3 * la).min(above.len() - 1),
    };
    let kc = (kb..above.len())
        .max_by(|&p, &q| a.dist[above[p]].total_cmp(&a.dist[above[q]]))
        .unwrap_or(kb);
    let top = extend(t, above, a.dist[head]);
    let legs = [0, 1].map(|s| {
        let p = t.path(feet[s]);
        let k = p.iter().position(|&x| x == crotch).unwrap_or(0);
        let conf = clarity(a, feet[s]) * if feet_borrowed { 0.5 } else { 1.0 };
        limb(t, &p[k..], 0.3, conf)
    });
    let arms = [arm0, arm1].map(|p| p.to_vec());
    let arms = [0, 1].map(|s| {
        let conf = clarity(a, hands[s]) * if borrowed { 0.5 } else { 1.0 };
        limb(t, &arms[s], 0.45, conf)
    });
    // facing: both feet pointing the same way (ankle -> tip)
    let facing = {
        let side = |l: &Limb| {
            let (d0, d1) = (
                l.joints[3].p[0] - l.joints[2].p[0],
                l.joints[3].p[1] - l.joints[2].p[1],
            );
            if d0.abs() > 0.5 * d1.abs() {
                d0.signum()
            } else {
                0.0
            }
        };
        match (side(&legs[0]), side(&legs[1])) {
            (s, q) if s == q && s > 0.0 && !feet_borrowed => "right",
            (s, q) if s == q && s < 0.0 && !feet_borrowed => "left",
            _ => "front",
        }
    };
    // a side view: the near arm covers the chest and the thighs the pelvis,
    // so the limbs start on the trunk's axis: the shoulders at 80 % of the
    // way from the crotch to the head's base, the hips one leg radius above
    // the crotch
    let (mut arms, mut legs) = (arms, legs);
    let mut trunk = trunk;
    if facing != "front" {
        let kh = (ks + kb).min(up.len() - 1);
        let su = arc(t, &up[..=kh]);
        let lu = su[su.len() - 1];
        let k_sh = su.partition_point(|&v| v < 0.8 * lu).min(kh);
        let r_leg = 0.5 * (legs[0].joints[0].r + legs[1].joints[0].r) / a.scale;
        let k_hip = su
            .partition_point(|&v| v < r_leg)
            .min(k_sh.saturating_sub(1));
        for l in arms.iter_mut() {
            l.joints[0] = t.pt(up[k_sh]);
        }
        for l in legs.iter_mut() {
            l.joints[0] = t.pt(up[k_hip]);
        }
        trunk = up[k_hip..=k_sh].to_vec();
    }
    // the root: the legs' tops' centre
    let crotch_pt = Pt {
        p: [
            0.5 * (legs[0].joints[0].p[0] + legs[1].joints[0].p[0]),
            0.5 * (legs[0].joints[0].p[1] + legs[1].joints[0].p[1]),
        ],
        r: 0.5 * (legs[0].joints[0].r + legs[1].joints[0].r),
    };
    let mut trunk_pts = vec![crotch_pt];
    trunk_pts.extend(
        trunk
            .iter()
            .map(|&i| t.pt(i))
            .filter(|p| p.p[1] < crotch_pt.p[1]),
    );
    if trunk_pts.len() < 2 {
        trunk_pts.push(t.pt(up[ks]));
    }
    Some(Humanoid {
        crotch: crotch_pt,
        trunk: trunk_pts,
        head: [t.pt(above[kb]), t.pt(above[kc]), top],
        head_confidence: clarity(a, head),
        arms,
        legs,
        facing,
    })
}

fn quadruped(t: &Tree, ends: &[usize], low: &[usize]) -> Option<Quadruped> {
    let a = t.a;
    let c = t.xy(t.centre);
    let _ = c;
    let mut legs: Vec<usize> = low.to_vec();
    legs.sort_by(|&p, &q| t.xy(q)[1].total_cmp(&t.xy(p)[1]));
    legs.truncate(4);
    let others: Vec<usize> = ends.iter().copied().filter(|e| !legs.contains(e)).collect();
    // the head: the widest last third
    let width = |e: usize| {
        let p = t.path(e);
        p[p.len() * 2 / 3..]
            .iter()
            .map(|&i| a.dist[i])
            .fold(0.0, f64::max)
    };
    let head = others
        .iter()
        .copied()
        .max_by(|&p, &q| width(p).total_cmp(&width(q)))?;
    let fwd = if t.xy(head)[0] >= c[0] { 1.0 } else { -1.0 };
    let tail = others
        .iter()
        .copied()
        .filter(|&e| e != head && (t.xy(e)[0] - c[0]) * fwd < 0.0)
        .max_by(|&p, &q| {
            let d = |e: usize| (t.xy(e)[0] - c[0]).abs();
            d(p).total_cmp(&d(q))
        });
    while legs.len() < 4 {
        legs.push(legs[legs.len() - 1]);
    }
    // hind to fore along the facing
    legs.sort_by(|&p, &q| (t.xy(p)[0] * fwd).total_cmp(&(t.xy(q)[0] * fwd)));
    let head_path = t.path(head);
    // the spine: tail end (or the centre) -> centre -> head end
    let mut spine: Vec<usize> = match tail {
        Some(e) => {
            let mut p = t.path(e);
            p.reverse();
            p
        }
        None => vec![t.centre],
    };
    spine.extend(head_path.iter().skip(1));
    let leave = |e: usize| {
        let p = t.path(e);
        let j = p.iter().rposition(|x| spine.contains(x)).unwrap_or(0);
        (p[j], p[j..].to_vec())
    };
    let found: Vec<(usize, Vec<usize>)> = legs.iter().map(|&e| leave(e)).collect();
    let k_of = |j: usize| spine.iter().position(|&x| x == j).unwrap_or(0);
    let hind = (k_of(found[0].0) + k_of(found[1].0)) / 2;
    let fore = (k_of(found[2].0) + k_of(found[3].0)) / 2;
    let kc = spine.iter().position(|&x| x == t.centre).unwrap_or(0);
    let mid = if kc > hind && kc < fore {
        kc
    } else {
        (hind + fore) / 2
    };
    let neck_part = &spine[fore.min(spine.len() - 1)..];
    let sn = arc(t, neck_part);
    let ln = sn[sn.len() - 1].max(1e-9);
    let widest_beyond = |k: usize| {
        neck_part[k..]
            .iter()
            .map(|&i| a.dist[i])
            .fold(0.0, f64::max)
    };
    let narrow = (0..neck_part.len())
        .filter(|&k| sn[k] >= 0.2 * ln && sn[k] <= 0.8 * ln)
        .min_by(|&p, &q| a.dist[neck_part[p]].total_cmp(&a.dist[neck_part[q]]));
    let kb = match narrow {
        Some(k) if a.dist[neck_part[k]] < 0.85 * widest_beyond(k) => k,
        _ => sn
            .partition_point(|&v| v < 0.4 * ln)
            .min(neck_part.len() - 1),
    };
    let khc = (kb..neck_part.len())
        .max_by(|&p, &q| a.dist[neck_part[p]].total_cmp(&a.dist[neck_part[q]]))
        .unwrap_or(kb);
    let limbs: Vec<Limb> = found
        .iter()
        .zip(&legs)
        .map(|((_, p), &e)| limb(t, p, 0.4, clarity(a, e)))
        .collect();
    // each pair: the more forward first
    let pair = |i: usize, j: usize| {
        if limbs[i].joints[3].p[0] * fwd >= limbs[j].joints[3].p[0] * fwd {
            [limbs[i].clone(), limbs[j].clone()]
        } else {
            [limbs[j].clone(), limbs[i].clone()]
        }
    };
    let [h0, h1] = pair(0, 1);
    let [f0, f1] = pair(2, 3);
    let tail = tail.map(|e| {
        let p = t.path(e);
        [
            t.pt(spine[hind.min(spine.len() - 1)]),
            extend(t, &p, a.dist[e]),
        ]
    });
    Some(Quadruped {
        body: [
            t.pt(spine[hind.min(spine.len() - 1)]),
            t.pt(spine[mid.min(spine.len() - 1)]),
            t.pt(spine[fore.min(spine.len() - 1)]),
        ],
        head: [
            t.pt(spine[fore.min(spine.len() - 1)]),
            t.pt(neck_part[kb]),
            t.pt(neck_part[khc]),
            extend(t, &head_path, a.dist[head]),
        ],
        head_confidence: clarity(a, head),
        tail,
        legs: [h0, h1, f0, f1],
        facing: if fwd > 0.0 { "right" } else { "left" },
    })
}
