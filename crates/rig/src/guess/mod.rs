//! Stage 1b, guess: a skeleton declaration found in the drawing itself
//! (`re2d rig guess`, and `rig build DRAWING` without a declaration). No
//! model is downloaded or learned: the figure's medial axis, its ends
//! classified by position and width, joints at measured places, radii from
//! the distance to the edge. The result is an ordinary declaration
//! (rig.md §1) the user edits.
//!
//! | file | does |
//! |---|---|
//! | `animated.rs` | AnimatedDrawings' `char_cfg.yaml` (+ `mask.png`) read as a declaration |
//! | `axis.rs` | the mask at a working size, the distance to the edge, the thinned skeleton without spurs |
//! | `body.rs` | humanoid or quadruped; head, hands, feet, tail; the joints along the paths; facing; confidences |
//! | `mod.rs` | [`guess`]: silhouette → axis → body → the declaration JSON; [`keypoints`], the joints compared with AnimatedDrawings' annotations |
//!
//! Uses `declare/` (the silhouette, the declaration's rules) only.
//!
//! **The declaration written** (rules; docs/rig.md "Guessing a skeleton"):
//! - humanoid: `pelvis` (from a quarter up the trunk down to the crotch),
//!   `torso` (on up to the shoulders' centre), `neck`, `head` (base, centre,
//!   top), per side `upper_arm_*`, `forearm_*`, `hand_*`, `thigh_*`,
//!   `shin_*`, `foot_*`; sides `left`/`right` (the character's own: its left
//!   is on the image's right) for `facing: "front"`, `near`/`far` for a side
//!   view (near = the limb farther forward);
//! - quadruped: `body`, `neck`, `head`, `tail`, and per leg `upper`,
//!   `lower`, `hoof` (`fore_`/`hind_`, `_near`/`_far`), hocks
//!   `"bend": "reversed"`, and a `mocap` map driving fore legs by the
//!   capture's legs (as the generated quadruped);
//! - radius at each point: 1.15 × the distance to the edge + 2 px (a little
//!   wider than the paint, as rig.md asks);
//! - depths: frontal — hands 1, forearms 2, upper arms 3, head 4, neck 5,
//!   torso 6, pelvis 7, thighs 8, shins 9, feet 10; side view — the near arm
//!   1–3, head 4, neck 5, torso 6, pelvis 7, the near leg 8–10, the far leg
//!   11–13, the far arm 14–16;
//! - `confidence` per bone (0–1, see `body.rs`), which the declaration
//!   parser ignores.

pub mod animated;
pub mod axis;
pub mod body;

use serde_json::{Value, json};

use crate::RigError;
use crate::declare::silhouette::silhouette;
use crate::declare::skeleton::{Background, Skeleton};
use body::{Body, Humanoid, Limb, Pt, Quadruped};
use re2d::png_io::RgbaImage;

/// A guessed declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct Guess {
    /// The declaration JSON (rig.md §1, with `confidence` per bone).
    pub json: Value,
    /// `"humanoid"` or `"quadruped"`.
    pub kind: &'static str,
    /// Per bone: name and confidence.
    pub confidence: Vec<(String, f64)>,
}

/// Guesses the skeleton of the figure in `img` (`background` as a
/// declaration gives it; `image` is written as the declaration's `image`).
pub fn guess(img: &RgbaImage, background: Background, image: &str) -> Result<Guess, RigError> {
    let sil = silhouette(img, background)?;
    let mask: Vec<bool> = sil.rgba.chunks_exact(4).map(|p| p[3] > 127).collect();
    let none = || RigError::new("E_RIG_GUESS", "no figure with a head and limbs was found");
    let a = axis::axis(&mask, img.width as usize, img.height as usize).ok_or_else(none)?;
    let b = body::body(&a).ok_or_else(none)?;
    let bg = match background {
        Background::Auto => "auto".to_string(),
        Background::Alpha => "alpha".to_string(),
        Background::Paper => "paper".to_string(),
        Background::Key(k) => format!("#{:02x}{:02x}{:02x}", k[0], k[1], k[2]),
    };
    let (bones, facing, mocap, kind) = match &b {
        Body::Humanoid(h) => (humanoid_bones(h), h.facing, None, "humanoid"),
        Body::Quadruped(q) => (
            quadruped_bones(q),
            q.facing,
            Some(quadruped_mocap()),
            "quadruped",
        ),
    };
    let confidence = bones
        .iter()
        .map(|b| {
            (
                b["name"].as_str().unwrap_or("").to_string(),
                b["confidence"].as_f64().unwrap_or(0.0),
            )
        })
        .collect();
    let mut json = json!({
        "version": 1,
        "image": image,
        "background": bg,
        "facing": facing,
        "bones": bones,
    });
    if let Some(m) = mocap {
        json["mocap"] = m;
    }
    Ok(Guess {
        json,
        kind,
        confidence,
    })
}

fn r1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

fn bone(name: &str, parent: Option<&str>, pts: &[Pt], depth: f64, confidence: f64) -> Value {
    let points: Vec<Value> = pts
        .iter()
        .map(|p| json!([r1(p.p[0]), r1(p.p[1])]))
        .collect();
    let radius: Vec<Value> = pts.iter().map(|p| json!(r1(1.15 * p.r + 2.0))).collect();
    let mut b = json!({
        "name": name,
        "points": points,
        "radius": radius,
        "depth": depth,
        "confidence": (confidence.clamp(0.0, 1.0) * 100.0).round() / 100.0,
    });
    if let Some(p) = parent {
        b["parent"] = json!(p);
    }
    b
}

/// The point at fraction `f` of the way along a polyline of points.
fn along(pts: &[Pt], f: f64) -> Pt {
    let mut s = vec![0.0];
    for w in pts.windows(2) {
        let d = (w[1].p[0] - w[0].p[0]).hypot(w[1].p[1] - w[0].p[1]);
        s.push(s[s.len() - 1] + d);
    }
    let want = f * s[s.len() - 1];
    for k in 1..pts.len() {
        if s[k] >= want {
            let t = if s[k] > s[k - 1] {
                (want - s[k - 1]) / (s[k] - s[k - 1])
            } else {
                0.0
            };
            let (a, b) = (pts[k - 1], pts[k]);
            return Pt {
                p: [
                    a.p[0] + (b.p[0] - a.p[0]) * t,
                    a.p[1] + (b.p[1] - a.p[1]) * t,
                ],
                r: a.r + (b.r - a.r) * t,
            };
        }
    }
    pts[pts.len() - 1]
}

fn limb_bones(out: &mut Vec<Value>, l: &Limb, names: [&str; 3], parent: &str, depths: [f64; 3]) {
    let j = &l.joints;
    out.push(bone(
        names[0],
        Some(parent),
        &[j[0], j[1]],
        depths[0],
        l.confidence,
    ));
    out.push(bone(
        names[1],
        Some(names[0]),
        &[j[1], j[2]],
        depths[1],
        l.confidence,
    ));
    out.push(bone(
        names[2],
        Some(names[1]),
        &[j[2], j[3]],
        depths[2],
        l.confidence,
    ));
}

fn humanoid_bones(h: &Humanoid) -> Vec<Value> {
    let front = h.facing == "front";
    let base = along(&h.trunk, 0.25);
    let mut trunk: Vec<Pt> = vec![base, along(&h.trunk, 0.6)];
    // the pelvis hangs from the trunk's base down to the root
    trunk.push(h.trunk[h.trunk.len() - 1]);
    let shoulders = trunk[2];
    let mut out = vec![
        bone("pelvis", None, &[base, h.crotch], 7.0, 1.0),
        bone("torso", Some("pelvis"), &trunk, 6.0, 1.0),
        bone(
            "neck",
            Some("torso"),
            &[shoulders, h.head[0]],
            5.0,
            h.head_confidence,
        ),
        bone("head", Some("neck"), &h.head, 4.0, h.head_confidence),
    ];
    // index 0 = the image's left: the character's right when frontal; for a
    // side view the limb farther forward is near
    let sides: [(&str, f64); 2] = if front {
        [("right", 0.0), ("left", 0.0)]
    } else {
        let fwd = if h.facing == "right" { 1.0 } else { -1.0 };
        let near_arm = if (h.arms[1].joints[3].p[0] - h.arms[0].joints[3].p[0]) * fwd >= 0.0 {
            1
        } else {
            0
        };
        if near_arm == 1 {
            [("far", 13.0), ("near", 0.0)]
        } else {
            [("near", 0.0), ("far", 13.0)]
        }
    };
    for (s, (side, arm_off)) in sides.iter().enumerate() {
        limb_bones(
            &mut out,
            &h.arms[s],
            [
                &format!("upper_arm_{side}"),
                &format!("forearm_{side}"),
                &format!("hand_{side}"),
            ],
            "torso",
            [3.0 + arm_off, 2.0 + arm_off, 1.0 + arm_off],
        );
    }
    // legs: for a side view the farther-forward leg is near
    let leg_sides: [(&str, f64); 2] = if front {
        [("right", 0.0), ("left", 0.0)]
    } else {
        let fwd = if h.facing == "right" { 1.0 } else { -1.0 };
        if (h.legs[1].joints[3].p[0] - h.legs[0].joints[3].p[0]) * fwd >= 0.0 {
            [("far", 3.0), ("near", 0.0)]
        } else {
            [("near", 0.0), ("far", 3.0)]
        }
    };
    for (s, (side, off)) in leg_sides.iter().enumerate() {
        limb_bones(
            &mut out,
            &h.legs[s],
            [
                &format!("thigh_{side}"),
                &format!("shin_{side}"),
                &format!("foot_{side}"),
            ],
            "pelvis",
            [8.0 + off, 9.0 + off, 10.0 + off],
        );
    }
    out
}

fn quadruped_bones(q: &Quadruped) -> Vec<Value> {
    let mut out = vec![
        bone("body", None, &q.body, 10.0, 1.0),
        bone(
            "neck",
            Some("body"),
            &[q.head[0], q.head[1]],
            11.0,
            q.head_confidence,
        ),
        bone(
            "head",
            Some("neck"),
            &[q.head[1], q.head[2], q.head[3]],
            9.0,
            q.head_confidence,
        ),
    ];
    if let Some(t) = &q.tail {
        out.push(bone("tail", Some("body"), t, 14.0, 1.0));
    }
    let legs = [
        ("hind", "near", 0usize, 5.0),
        ("hind", "far", 1, 17.0),
        ("fore", "near", 2, 2.0),
        ("fore", "far", 3, 20.0),
    ];
    for (end, side, k, d) in legs {
        let names = [
            format!("{end}_upper_{side}"),
            format!("{end}_lower_{side}"),
            format!("{end}_hoof_{side}"),
        ];
        limb_bones(
            &mut out,
            &q.legs[k],
            [&names[0], &names[1], &names[2]],
            "body",
            [d, d + 1.0, d + 2.0],
        );
        if end == "hind" {
            let n = out.len();
            out[n - 2]["bend"] = json!("reversed");
        }
    }
    out
}

/// The quadruped's `mocap` map: each leg driven by a leg of the capture
/// (the generated quadruped's convention: near fore and far hind by the
/// right leg, far fore and near hind by the left, so the gait alternates).
fn quadruped_mocap() -> Value {
    json!({
        "fore_upper_near": "RightHip", "fore_lower_near": "RightKnee", "fore_hoof_near": "RightAnkle",
        "fore_upper_far": "LeftHip", "fore_lower_far": "LeftKnee", "fore_hoof_far": "LeftAnkle",
        "hind_upper_near": "LeftHip", "hind_lower_near": "LeftKnee", "hind_hoof_near": "LeftAnkle",
        "hind_upper_far": "RightHip", "hind_lower_far": "RightKnee", "hind_hoof_far": "RightAnkle"
    })
}

/// The joints a declaration places, named as AnimatedDrawings annotates a
/// character (its 16 humanoid names; the pig's `*_b`/`*_f` legs for a
/// quadruped), read by role from the bone names, so a truth declaration
/// and a guessed one compare alike:
/// - `root`, `hip`: the mean of the thighs' (a quadruped's four upper
///   legs') first points;
/// - `torso`: the neck's first point (the trunk's top);
/// - `neck`: the middle of the head bone (AnimatedDrawings' head turns
///   about a point inside the head);
/// - `*_shoulder`, `*_hip`: the upper arm's / thigh's first point;
///   `*_elbow`, `*_knee`: the forearm's / shin's first point; `*_hand`,
///   `*_foot`: the middle of the hand / foot bone (else the forearm's /
///   shin's last point).
///
/// Sides: `left`/`right` as named; `near` is `left` and `far` is `right`
/// (a side view facing right shows the character's left). Missing roles
/// are left out.
pub fn keypoints(sk: &Skeleton) -> Vec<(String, [f64; 2])> {
    let find = |words: &[&str]| {
        sk.bones.iter().find(|b| {
            let n = b.name.to_lowercase();
            words.iter().all(|w| n.contains(w)) && !(words[0] == "arm" && n.contains("fore"))
        })
    };
    let mid = |k: usize| {
        let b = &sk.bones[k];
        let pts: Vec<Pt> = b.points.iter().map(|&p| Pt { p, r: 0.0 }).collect();
        along(&pts, 0.5).p
    };
    let mut out: Vec<(String, [f64; 2])> = Vec::new();
    let quad = sk.bones.iter().any(|b| b.name.contains("hind"));
    let side_word = |s: &str| match s {
        "left" => ["left", "near"],
        _ => ["right", "far"],
    };
    let with_side = |role: &[&str], side: &str| {
        side_word(side)
            .iter()
            .find_map(|w| {
                let mut v: Vec<&str> = role.to_vec();
                v.push(w);
                find(&v)
            })
            .map(|b| sk.index(&b.name).unwrap_or(0))
    };
    let mut tops = Vec::new();
    if quad {
        for end in ["hind", "fore"] {
            for side in ["left", "right"] {
                if let Some(k) = with_side(&[end, "upper"], side) {
                    tops.push(sk.bones[k].start());
                }
            }
        }
    } else {
        for side in ["left", "right"] {
            if let Some(k) = with_side(&["thigh"], side) {
                tops.push(sk.bones[k].start());
            }
        }
    }
    if !tops.is_empty() {
        let n = tops.len() as f64;
        let c = [
            tops.iter().map(|p| p[0]).sum::<f64>() / n,
            tops.iter().map(|p| p[1]).sum::<f64>() / n,
        ];
        out.push(("root".into(), c));
        out.push(("hip".into(), c));
    }
    if let Some(b) = find(&["neck"]) {
        out.push(("torso".into(), b.start()));
    }
    if let Some(k) = sk
        .index("head")
        .or_else(|| find(&["head"]).and_then(|b| sk.index(&b.name)))
    {
        out.push(("neck".into(), mid(k)));
    }
    for side in ["left", "right"] {
        if quad {
            for (end, suffix) in [("hind", "b"), ("fore", "f")] {
                if let Some(k) = with_side(&[end, "upper"], side) {
                    out.push((format!("{side}_hip_{suffix}"), sk.bones[k].start()));
                }
                if let Some(k) = with_side(&[end, "lower"], side) {
                    out.push((format!("{side}_knee_{suffix}"), sk.bones[k].start()));
                }
                if let Some(k) = with_side(&[end, "hoof"], side) {
                    out.push((format!("{side}_foot_{suffix}"), mid(k)));
                } else if let Some(k) = with_side(&[end, "lower"], side) {
                    out.push((format!("{side}_foot_{suffix}"), sk.bones[k].end()));
                }
            }
            continue;
        }
        // per limb: the words of its upper bone, lower bone and end, and its three joints' names
        type Limb<'a> = (&'a [&'a str], &'a [&'a str], &'a [&'a str], [&'a str; 3]);
        let roles: [Limb; 2] = [
            (
                &["upper", "arm"],
                &["forearm"],
                &["hand"],
                ["shoulder", "elbow", "hand"],
            ),
            (&["thigh"], &["shin"], &["foot"], ["hip", "knee", "foot"]),
        ];
        for (upper, lower, end, names) in roles {
            if let Some(k) = with_side(upper, side) {
                out.push((format!("{side}_{}", names[0]), sk.bones[k].start()));
            }
            if let Some(k) = with_side(lower, side) {
                out.push((format!("{side}_{}", names[1]), sk.bones[k].start()));
            }
            if let Some(k) = with_side(end, side) {
                out.push((format!("{side}_{}", names[2]), mid(k)));
            } else if let Some(k) = with_side(lower, side) {
                out.push((format!("{side}_{}", names[2]), sk.bones[k].end()));
            }
        }
    }
    out
}
