//! Generated test characters for the `.riv` export (issue 8 §3), written to
//! `tests/riv/fixtures/` by `cargo run --example riv_fixtures` and checked
//! against the committed files by the tests.
//!
//! - [`walk`]: a side-view walking figure, 15 bones in a branching tree
//!   (every child at its parent's tip), 12 textured parts with two-bone
//!   blends at the joints, a closed 1 s walk loop and two probe clips
//!   (`probe_root` turns only the root, `probe_knee` only the left knee).
//! - [`arm`]: a two-bone arm on a zero-length shoulder pivot (distal /
//!   proximal locality probe), a closed `wave` loop and probe clips.
//! - [`mocap`] (issue 19): the walking figure with a `walk` clip
//!   retargeted from motion capture by [`re2d_rig::motion`] (rotation
//!   tracks plus the root bob as `translations` of the root), the same
//!   probes, and `probe_bob`, a clip that only moves the root (x and y) far
//!   enough for the `notranslate` control to fail. It needs the capture, so
//!   it is not in [`all`]: `cargo run --example riv_fixtures` retargets
//!   `assets/mocap/cmu-131-01-walk.bvh` onto [`mocap_bones`] and writes it.
//!
//! Every part has its own 16×16 texture: one hue per part, brightness
//! ramping along the bone and a lighter band across it, so draw-order and
//! UV errors show as colour.

use std::f64::consts::PI;

use serde_json::{Map, Value as Json, json};

/// A generated fixture: model JSON and its texture files.
pub struct Fixture {
    /// Directory name under `tests/riv/fixtures/`.
    pub name: &'static str,
    /// `model.json` contents (pretty, trailing newline).
    pub json: String,
    /// `(file name, PNG bytes)`.
    pub textures: Vec<(String, Vec<u8>)>,
}

struct Spec {
    bones: Vec<(&'static str, Option<&'static str>, f64, f64)>, // name, parent, length, angle
    root_xy: (f64, f64),
}

impl Spec {
    /// Rest world `(start, angle)` of a bone.
    fn world(&self, name: &str) -> ([f64; 2], f64) {
        let b = self.bones.iter().find(|b| b.0 == name).expect("bone");
        match b.1 {
            None => ([self.root_xy.0, self.root_xy.1], b.3),
            Some(p) => {
                let (ps, pa) = self.world(p);
                let pl = self.bones.iter().find(|x| x.0 == p).expect("parent").2;
                ([ps[0] + pl * pa.cos(), ps[1] + pl * pa.sin()], pa + b.3)
            }
        }
    }

    fn skeleton(&self) -> Json {
        let mut m = Map::new();
        for (name, parent, len, angle) in &self.bones {
            let mut b = Map::new();
            if let Some(p) = parent {
                b.insert("parent".into(), json!(p));
            } else {
                b.insert("x".into(), json!(self.root_xy.0));
                b.insert("y".into(), json!(self.root_xy.1));
            }
            b.insert("length".into(), json!(round6(*len)));
            b.insert("angle".into(), json!(round6(*angle)));
            m.insert(name.to_string(), Json::Object(b));
        }
        Json::Object(m)
    }
}

fn round6(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

/// HSV (h in turns) → RGB bytes.
fn hsv(h: f64, s: f64, v: f64) -> [u8; 3] {
    let i = (h * 6.0).floor();
    let f = h * 6.0 - i;
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - f * s), v * (1.0 - (1.0 - f) * s));
    let (r, g, b) = match (i as i64).rem_euclid(6) {
        0 => (v, t, p),
        1 => (q, v, p),
        2 => (p, v, t),
        3 => (p, q, v),
        4 => (t, p, v),
        _ => (v, p, q),
    };
    [
        (r * 255.0).round() as u8,
        (g * 255.0).round() as u8,
        (b * 255.0).round() as u8,
    ]
}

/// A 16×16 opaque texture of hue `h`: brightness 0.55 → 1.0 along u, a
/// lighter (less saturated) band across the middle of v.
pub fn texture(h: f64) -> Vec<u8> {
    let n = 16;
    let mut px = Vec::with_capacity(n * n * 4);
    for y in 0..n {
        for x in 0..n {
            let u = (x as f64 + 0.5) / n as f64;
            let v = (y as f64 + 0.5) / n as f64;
            let band = (1.0 - ((v - 0.5).abs() * 4.0)).clamp(0.0, 1.0);
            let c = hsv(h, 0.85 - 0.45 * band, 0.55 + 0.45 * u);
            px.extend_from_slice(&[c[0], c[1], c[2], 255]);
        }
    }
    re2d_output::png_encode::encode_rgba(&px, n as u32, n as u32).unwrap_or_default()
}

/// A strip along `bone` from `-ext0` to `length + ext1`, half-width `r`,
/// `segs` segments; the rows within `blend` of the start are weighted 50/50
/// with the parent bone (`parent`), the rest 100 % to the bone.
#[allow(clippy::too_many_arguments)]
fn strip(
    spec: &Spec,
    name: &str,
    bone: &str,
    tex: &str,
    depth: f64,
    r: f64,
    ext: (f64, f64),
    segs: usize,
    blend_with: Option<&str>,
    second: Option<(&str, f64)>,
) -> Json {
    let (s, a) = spec.world(bone);
    let len = spec.bones.iter().find(|b| b.0 == bone).expect("bone").2;
    let (dir, perp) = ([a.cos(), a.sin()], [-a.sin(), a.cos()]);
    let (mut verts, mut uv, mut tris, mut weights) = (vec![], vec![], vec![], vec![]);
    let total = ext.0 + len + ext.1;
    for i in 0..=segs {
        let t = i as f64 / segs as f64;
        let along = -ext.0 + t * total;
        for side in [-1.0, 1.0] {
            let p = [
                s[0] + along * dir[0] + side * r * perp[0],
                s[1] + along * dir[1] + side * r * perp[1],
            ];
            verts.push(json!(round6(p[0])));
            verts.push(json!(round6(p[1])));
            uv.push(json!(round6(t)));
            uv.push(json!(if side < 0.0 { 0.0 } else { 1.0 }));
            // weights
            let w = match (blend_with, second) {
                (Some(pb), _) if i == 0 => json!([pb, 0.5, bone, 0.5]),
                (_, Some((b2, from))) if along >= from => {
                    // a second bone further along (torso → chest, neck → head)
                    if (along - from).abs() < 1e-9 {
                        json!([bone, 0.5, b2, 0.5])
                    } else {
                        json!([b2, 1])
                    }
                }
                _ => json!([bone, 1]),
            };
            weights.push(w);
        }
    }
    for i in 0..segs {
        let k = (2 * i) as u64;
        tris.extend([k, k + 1, k + 3, k, k + 3, k + 2].map(|x| json!(x)));
    }
    json!({
        "name": name,
        "texture": tex,
        "depth": depth,
        "verts": verts,
        "uv": uv,
        "tris": tris,
        "weights": weights,
    })
}

/// Pretty JSON with arrays of scalars (and of short arrays) on one line.
fn pretty(v: &Json, indent: usize, out: &mut String) {
    let flat = |v: &Json| match v {
        Json::Array(a) => a.iter().all(|x| !x.is_object() && !x.is_array()),
        Json::Object(_) => false,
        _ => true,
    };
    match v {
        Json::Object(m) if !m.is_empty() => {
            out.push_str("{\n");
            for (i, (k, x)) in m.iter().enumerate() {
                out.push_str(&"  ".repeat(indent + 1));
                out.push_str(&Json::String(k.clone()).to_string());
                out.push_str(": ");
                pretty(x, indent + 1, out);
                out.push_str(if i + 1 < m.len() { ",\n" } else { "\n" });
            }
            out.push_str(&"  ".repeat(indent));
            out.push('}');
        }
        Json::Array(a) if !a.iter().all(flat) => {
            out.push_str("[\n");
            for (i, x) in a.iter().enumerate() {
                out.push_str(&"  ".repeat(indent + 1));
                pretty(x, indent + 1, out);
                out.push_str(if i + 1 < a.len() { ",\n" } else { "\n" });
            }
            out.push_str(&"  ".repeat(indent));
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

fn finish(name: &'static str, model: Json, hues: &[(&str, f64)]) -> Fixture {
    let mut text = String::new();
    pretty(&model, 0, &mut text);
    text.push('\n');
    Fixture {
        name,
        json: text,
        textures: hues
            .iter()
            .map(|(n, h)| (format!("{n}.png"), texture(*h)))
            .collect(),
    }
}

/// The walking figure.
pub fn walk() -> Fixture {
    let h = PI / 2.0;
    let spec = Spec {
        root_xy: (0.0, 0.0),
        bones: vec![
            ("hip", None, 0.0, 0.0),
            ("spine", Some("hip"), 40.0, -h),
            ("chest", Some("spine"), 40.0, 0.0),
            ("neck", Some("chest"), 12.0, 0.0),
            ("head", Some("neck"), 34.0, 0.0),
            ("upperArmL", Some("chest"), 36.0, PI - 0.1),
            ("forearmL", Some("upperArmL"), 34.0, -0.15),
            ("upperArmR", Some("chest"), 36.0, PI + 0.1),
            ("forearmR", Some("upperArmR"), 34.0, -0.15),
            ("thighL", Some("hip"), 46.0, h - 0.3),
            ("shinL", Some("thighL"), 44.0, 0.3),
            ("footL", Some("shinL"), 20.0, -h),
            ("thighR", Some("hip"), 46.0, h + 0.3),
            ("shinR", Some("thighR"), 44.0, -0.3),
            ("footR", Some("shinR"), 20.0, -h),
        ],
    };
    let hues = [
        ("torso", 0.58),
        ("head", 0.08),
        ("upperArmL", 0.0),
        ("forearmL", 0.13),
        ("upperArmR", 0.92),
        ("forearmR", 0.75),
        ("thighL", 0.33),
        ("shinL", 0.47),
        ("footL", 0.18),
        ("thighR", 0.25),
        ("shinR", 0.66),
        ("footR", 0.83),
    ];
    let parts = vec![
        strip(
            &spec,
            "torso",
            "spine",
            "torso",
            0.5,
            17.0,
            (6.0, 40.0),
            6,
            None,
            Some(("chest", 40.0)),
        ),
        strip(
            &spec,
            "head",
            "neck",
            "head",
            0.45,
            13.0,
            (4.0, 34.0),
            4,
            Some("chest"),
            Some(("head", 12.0)),
        ),
        strip(
            &spec,
            "upperArmL",
            "upperArmL",
            "upperArmL",
            0.2,
            7.0,
            (6.0, 8.0),
            4,
            None,
            None,
        ),
        strip(
            &spec,
            "forearmL",
            "forearmL",
            "forearmL",
            0.25,
            6.0,
            (10.0, 4.0),
            4,
            Some("upperArmL"),
            None,
        ),
        strip(
            &spec,
            "upperArmR",
            "upperArmR",
            "upperArmR",
            0.85,
            7.0,
            (6.0, 8.0),
            4,
            None,
            None,
        ),
        strip(
            &spec,
            "forearmR",
            "forearmR",
            "forearmR",
            0.9,
            6.0,
            (10.0, 4.0),
            4,
            Some("upperArmR"),
            None,
        ),
        strip(
            &spec,
            "thighL",
            "thighL",
            "thighL",
            0.3,
            10.0,
            (8.0, 10.0),
            4,
            None,
            None,
        ),
        strip(
            &spec,
            "shinL",
            "shinL",
            "shinL",
            0.35,
            8.0,
            (12.0, 4.0),
            4,
            Some("thighL"),
            None,
        ),
        strip(
            &spec,
            "footL",
            "footL",
            "footL",
            0.4,
            5.0,
            (6.0, 4.0),
            3,
            Some("shinL"),
            None,
        ),
        strip(
            &spec,
            "thighR",
            "thighR",
            "thighR",
            0.7,
            10.0,
            (8.0, 10.0),
            4,
            None,
            None,
        ),
        strip(
            &spec,
            "shinR",
            "shinR",
            "shinR",
            0.75,
            8.0,
            (12.0, 4.0),
            4,
            Some("thighR"),
            None,
        ),
        strip(
            &spec,
            "footR",
            "footR",
            "footR",
            0.8,
            5.0,
            (6.0, 4.0),
            3,
            Some("shinR"),
            None,
        ),
    ];
    let cycle = |vals: [f64; 4]| -> Json {
        json!([
            [0.0, vals[0]],
            [0.25, vals[1]],
            [0.5, vals[2]],
            [0.75, vals[3]],
            [1.0, vals[0]]
        ])
    };
    let clips = json!({
        "walk": {
            "duration": 1.0, "loop": true, "interpolation": "linear",
            "tracks": {
                "spine": cycle([0.0, 0.04, 0.0, 0.04]),
                "head": cycle([0.0, -0.05, 0.0, -0.05]),
                "thighL": cycle([-0.45, 0.0, 0.45, 0.1]),
                "shinL": cycle([0.1, 0.2, 0.3, 0.9]),
                "footL": cycle([-0.2, 0.0, 0.25, 0.1]),
                "thighR": cycle([0.45, 0.1, -0.45, 0.0]),
                "shinR": cycle([0.3, 0.9, 0.1, 0.2]),
                "footR": cycle([0.25, 0.1, -0.2, 0.0]),
                "upperArmL": cycle([0.4, 0.0, -0.4, 0.0]),
                "forearmL": cycle([-0.3, -0.5, -0.2, -0.5]),
                "upperArmR": cycle([-0.4, 0.0, 0.4, 0.0]),
                "forearmR": cycle([-0.2, -0.5, -0.3, -0.5]),
            }
        },
        "probe_root": {"duration": 1.0, "tracks": {"hip": [[0.0, 0.0], [1.0, 0.3]]}},
        "probe_knee": {"duration": 1.0, "tracks": {"shinL": [[0.0, 0.0], [1.0, 0.8]]}},
    });
    let model = json!({
        "version": 1,
        "name": "walker",
        "skeleton": spec.skeleton(),
        "textures": Json::Object(hues.iter().map(|(n, _)| (n.to_string(), json!(format!("{n}.png")))).collect()),
        "parts": parts,
        "clips": clips,
    });
    finish("walk", model, &hues)
}

/// The two-bone arm.
pub fn arm() -> Fixture {
    let spec = Spec {
        root_xy: (0.0, 0.0),
        bones: vec![
            ("shoulder", None, 0.0, 0.0),
            ("upper", Some("shoulder"), 60.0, 0.3),
            ("fore", Some("upper"), 55.0, 0.4),
        ],
    };
    let hues = [("upper", 0.0), ("fore", 0.6)];
    let parts = vec![
        strip(
            &spec,
            "upper",
            "upper",
            "upper",
            0.3,
            11.0,
            (8.0, 24.0),
            6,
            None,
            None,
        ),
        strip(
            &spec,
            "fore",
            "fore",
            "fore",
            0.4,
            9.0,
            (24.0, 6.0),
            6,
            Some("upper"),
            None,
        ),
    ];
    let clips = json!({
        "wave": {
            "duration": 1.2, "loop": true, "interpolation": "linear",
            "tracks": {
                "upper": [[0.0, 0.0], [0.6, -0.5], [1.2, 0.0]],
                "fore": [[0.0, 0.0], [0.3, 0.7], [0.6, 0.2], [0.9, 0.8], [1.2, 0.0]],
            }
        },
        "probe_root": {"duration": 1.0, "tracks": {"shoulder": [[0.0, 0.0], [1.0, 0.3]]}},
        "probe_elbow": {"duration": 1.0, "tracks": {"fore": [[0.0, 0.0], [1.0, 0.8]]}},
    });
    let model = json!({
        "version": 1,
        "name": "arm",
        "skeleton": spec.skeleton(),
        "textures": {"upper": "upper.png", "fore": "fore.png"},
        "parts": parts,
        "clips": clips,
    });
    finish("arm", model, &hues)
}

/// Every fixture that needs no outside data (see [`mocap`]).
pub fn all() -> Vec<Fixture> {
    vec![walk(), arm()]
}

/// The walking figure's model (as [`walk`] writes it).
fn walk_model() -> Option<(serde_json::Map<String, Json>, re2d_riv::Model)> {
    let f = walk();
    let json: Json = serde_json::from_str(&f.json).ok()?;
    let mut src = |id: &str, _: &Json| -> Result<(String, Vec<u8>), re2d_riv::RivError> {
        let name = format!("{id}.png");
        let png = f
            .textures
            .iter()
            .find(|t| t.0 == name)
            .map(|t| t.1.clone())
            .unwrap_or_default();
        Ok((name, png))
    };
    let model = re2d_riv::Model::from_json(&json, &mut src, &re2d::limits::Limits::DEFAULT).ok()?;
    match json {
        Json::Object(m) => Some((m, model)),
        _ => None,
    }
}

/// The walking figure's bones as motion retargeting sees them: canonical
/// order, start and end at rest (the figure faces right: its feet point
/// to +x; `L` bones are the near ones).
pub fn mocap_bones() -> Vec<re2d_rig::motion::MotionBone> {
    let Some((_, model)) = walk_model() else {
        return Vec::new();
    };
    let rest = model.rest();
    model
        .bones
        .iter()
        .zip(&rest)
        .map(|(b, w)| re2d_rig::motion::MotionBone {
            name: b.name.clone(),
            parent: b.parent,
            start: [w.x, w.y],
            end: [
                w.x + b.length * w.angle.cos(),
                w.y + b.length * w.angle.sin(),
            ],
            joint: None,
            bend: re2d_rig::motion::Bend::Normal,
        })
        .collect()
}

/// The walking figure with a captured `walk` (from [`mocap_bones`], in
/// that order), the probes of [`walk`], and `probe_bob`.
pub fn mocap(w: &re2d_rig::motion::Walk) -> Fixture {
    let base = walk();
    let Some((mut m, model)) = walk_model() else {
        return Fixture {
            name: "mocap",
            json: String::new(),
            textures: Vec::new(),
        };
    };
    let mut tracks = Map::new();
    for (b, angles) in model.bones.iter().zip(&w.angles) {
        if angles.iter().all(|&a| a == 0.0) {
            continue;
        }
        let keys: Vec<Json> = w
            .times
            .iter()
            .zip(angles)
            .map(|(&t, &a)| json!([round6(t), round6(a)]))
            .collect();
        tracks.insert(b.name.clone(), Json::Array(keys));
    }
    let root = model
        .bones
        .iter()
        .find(|b| b.parent.is_none())
        .map_or("hip".to_string(), |b| b.name.clone());
    let bob: Vec<Json> = w
        .times
        .iter()
        .zip(&w.root_dy)
        .map(|(&t, &dy)| json!([round6(t), 0.0, round6(dy)]))
        .collect();
    let mut translations = Map::new();
    translations.insert(root.clone(), Json::Array(bob));
    let clips = json!({
        "walk": {
            "duration": round6(w.duration), "loop": true, "interpolation": "linear",
            "tracks": Json::Object(tracks),
            "translations": Json::Object(translations),
        },
        "probe_root": {"duration": 1.0, "tracks": {"hip": [[0.0, 0.0], [1.0, 0.3]]}},
        "probe_knee": {"duration": 1.0, "tracks": {"shinL": [[0.0, 0.0], [1.0, 0.8]]}},
        "probe_bob": {"duration": 1.0, "translations": {root: [[0.0, 0.0, 0.0], [0.5, 14.0, -36.0], [1.0, 0.0, 0.0]]}},
    });
    m.insert("name".into(), json!("mocap"));
    m.insert("clips".into(), clips);
    let mut text = String::new();
    pretty(&Json::Object(m), 0, &mut text);
    text.push('\n');
    Fixture {
        name: "mocap",
        json: text,
        textures: base.textures,
    }
}
