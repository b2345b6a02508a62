//! The declaration an edit starts from when it is given a drawing alone: a default skeleton —
//! a standing biped seen from the side, facing right, 16 bones named so the default joint table
//! maps them (rig.md §1) — scaled to the figure's box (the silhouette's pixels with alpha ≥ 128).
//!
//! [`initial_declaration`] is the one function to swap for `rig guess` (issue 41) once it
//! exists: it takes the drawing's silhouette and returns a declaration as JSON.

use re2d_rig::declare::silhouette::Silhouette;
use serde_json::{Map, Value, json};

/// One bone of the template: name, parent, points as `(u, v)` — `u` across the figure from
/// its box's centre line in units of the box's height, `v` down the box from its top as a
/// share of its height —, radius as a share of the height, depth (smaller is nearer).
type Template = (
    &'static str,
    Option<&'static str>,
    &'static [[f64; 2]],
    f64,
    f64,
);

/// A standing biped facing right: far limbs 0.03 behind the near ones.
const BIPED: &[Template] = &[
    ("pelvis", None, &[[0.0, 0.47], [0.0, 0.55]], 0.065, 6.0),
    (
        "torso",
        Some("pelvis"),
        &[[0.0, 0.47], [0.01, 0.38], [0.02, 0.27]],
        0.07,
        5.0,
    ),
    (
        "neck",
        Some("torso"),
        &[[0.02, 0.27], [0.03, 0.21]],
        0.03,
        5.0,
    ),
    (
        "head",
        Some("neck"),
        &[[0.03, 0.21], [0.04, 0.12], [0.04, 0.02]],
        0.065,
        4.0,
    ),
    (
        "upper_arm_far",
        Some("torso"),
        &[[-0.01, 0.29], [-0.02, 0.43]],
        0.03,
        9.0,
    ),
    (
        "forearm_far",
        Some("upper_arm_far"),
        &[[-0.02, 0.43], [0.0, 0.56]],
        0.026,
        9.0,
    ),
    (
        "hand_far",
        Some("forearm_far"),
        &[[0.0, 0.56], [0.01, 0.62]],
        0.026,
        9.0,
    ),
    (
        "thigh_far",
        Some("pelvis"),
        &[[-0.02, 0.54], [-0.03, 0.76]],
        0.045,
        8.0,
    ),
    (
        "shin_far",
        Some("thigh_far"),
        &[[-0.03, 0.76], [-0.03, 0.96]],
        0.035,
        8.0,
    ),
    (
        "foot_far",
        Some("shin_far"),
        &[[-0.03, 0.96], [0.06, 0.985]],
        0.022,
        8.0,
    ),
    (
        "thigh_near",
        Some("pelvis"),
        &[[0.01, 0.54], [0.01, 0.76]],
        0.045,
        3.0,
    ),
    (
        "shin_near",
        Some("thigh_near"),
        &[[0.01, 0.76], [0.01, 0.96]],
        0.035,
        3.0,
    ),
    (
        "foot_near",
        Some("shin_near"),
        &[[0.01, 0.96], [0.1, 0.985]],
        0.022,
        3.0,
    ),
    (
        "upper_arm_near",
        Some("torso"),
        &[[0.02, 0.29], [0.02, 0.43]],
        0.03,
        1.0,
    ),
    (
        "forearm_near",
        Some("upper_arm_near"),
        &[[0.02, 0.43], [0.05, 0.56]],
        0.026,
        1.0,
    ),
    (
        "hand_near",
        Some("forearm_near"),
        &[[0.05, 0.56], [0.06, 0.62]],
        0.026,
        1.0,
    ),
];

/// The box `[x0, y0, x1, y1)` of the silhouette's pixels with alpha ≥ 128 (the whole image
/// when there is none).
pub fn figure_box(sil: &Silhouette) -> [f64; 4] {
    let (w, h) = (sil.width as usize, sil.height as usize);
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for y in 0..h {
        for x in 0..w {
            if sil.alpha(y * w + x) >= 128 {
                x0 = x0.min(x);
                y0 = y0.min(y);
                x1 = x1.max(x + 1);
                y1 = y1.max(y + 1);
            }
        }
    }
    if x0 == usize::MAX {
        return [0.0, 0.0, w as f64, h as f64];
    }
    [x0 as f64, y0 as f64, x1 as f64, y1 as f64]
}

/// Rounds to 0.1 px (what the page saves).
fn r1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

/// The starting declaration of a drawing without one: the standing biped in the figure's box, with
/// `image` and `background` as given.
pub fn initial_declaration(image: &str, background: &str, sil: &Silhouette) -> Value {
    let [x0, y0, x1, y1] = figure_box(sil);
    let (cx, hgt) = ((x0 + x1) / 2.0, (y1 - y0).max(8.0));
    let (w, h) = (sil.width as f64, sil.height as f64);
    let bones: Vec<Value> = BIPED
        .iter()
        .map(|(name, parent, pts, r, depth)| {
            let points: Vec<Value> = pts
                .iter()
                .map(|p| {
                    json!([
                        r1((cx + p[0] * hgt).clamp(0.0, w)),
                        r1((y0 + p[1] * hgt).clamp(0.0, h))
                    ])
                })
                .collect();
            let mut o = Map::new();
            o.insert("name".into(), json!(name));
            if let Some(p) = parent {
                o.insert("parent".into(), json!(p));
            }
            o.insert("points".into(), Value::Array(points));
            o.insert("radius".into(), json!(r1((r * hgt).max(2.0))));
            o.insert("depth".into(), json!(*depth as i64));
            Value::Object(o)
        })
        .collect();
    json!({
        "version": 1,
        "image": image,
        "background": background,
        "facing": "right",
        "bones": bones,
    })
}
