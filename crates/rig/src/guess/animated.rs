//! AnimatedDrawings' character format read as it is: `char_cfg.yaml` (its
//! `skeleton`: joints with `name`, `loc` [x, y] and `parent`) with
//! `texture.png` and `mask.png` beside it → an ordinary declaration.
//!
//! Rules:
//! - **YAML** through `yaml-rust2` (maintained); the text is held to
//!   `json-max-bytes`; anchors and aliases are refused (a char_cfg has none,
//!   and an alias bomb would expand without bound); anything that is not a
//!   mapping with a `skeleton` list of joints, each with a string `name`, a
//!   two-number `loc` and a `parent` (null or a joint's name), is
//!   `E_RIG_YAML`, one line.
//! - **Humanoid** (the 16 names `root`, `hip`, `torso`, `neck`,
//!   `left_/right_` `shoulder`, `elbow`, `hand`, `hip`, `knee`, `foot`):
//!   `pelvis` from `hip` down by half its radius, `torso` `hip` → `torso`,
//!   `neck` `torso` → `neck`, `head` from `neck` on by its radius (their
//!   neck joint is the head's pivot, inside the head), `upper_arm_*`
//!   shoulder → elbow, `forearm_*` elbow → hand, `thigh_*` hip → knee,
//!   `shin_*` knee → foot; `facing: "front"`.
//! - **Quadruped** (legs named `*_b` and `*_f`): `body` `hip` → `torso`,
//!   `neck`, `head` as above, `hind_/fore_` `upper_/lower_` `near/far`
//!   (left = near: the side shown by a figure facing right), the hocks
//!   `"bend": "reversed"`, the quadruped `mocap` map of `rig guess`; facing
//!   toward the neck.
//! - **Radii** from the mask: 1.15 × the distance to its edge + 2 px at each
//!   point (at least 3); **depths** by the rules of `rig guess`.
//! - **Background**: the declaration names `texture.png` with
//!   `background: "paper"`: the figure is found on the texture by the paper
//!   rule (it matches the shipped masks at IoU ≥ 0.95); the shipped mask
//!   gives the radii.

use serde_json::{Value, json};
use yaml_rust2::Yaml;

use super::axis::edt;
use crate::RigError;
use re2d::png_io::RgbaImage;

fn bad(msg: impl Into<String>) -> RigError {
    RigError::new("E_RIG_YAML", msg)
}

/// The joints of a `char_cfg.yaml`: name, position, parent name.
pub type Joints = Vec<(String, [f64; 2], Option<String>)>;

struct NoAlias(bool);

impl yaml_rust2::parser::MarkedEventReceiver for NoAlias {
    fn on_event(&mut self, ev: yaml_rust2::parser::Event, _: yaml_rust2::scanner::Marker) {
        if matches!(ev, yaml_rust2::parser::Event::Alias(_)) {
            self.0 = true;
        }
    }
}

/// Parses a `char_cfg.yaml` (see the module doc).
pub fn joints(text: &[u8], limits: &re2d::limits::Limits) -> Result<Joints, RigError> {
    if text.len() as u64 > limits.json_max_bytes {
        return Err(RigError::new(
            "E_RIG_LIMIT",
            format!(
                "the character file is {} bytes, more than json-max-bytes {}",
                text.len(),
                limits.json_max_bytes
            ),
        ));
    }
    let s = std::str::from_utf8(text).map_err(|_| bad("char_cfg.yaml is not UTF-8 text"))?;
    let mut probe = NoAlias(false);
    yaml_rust2::parser::Parser::new_from_str(s)
        .load(&mut probe, true)
        .map_err(|e| bad(format!("not YAML: {e}")))?;
    if probe.0 {
        return Err(bad("YAML aliases are not accepted in a character file"));
    }
    let docs =
        yaml_rust2::YamlLoader::load_from_str(s).map_err(|e| bad(format!("not YAML: {e}")))?;
    let Some(doc) = docs.first() else {
        return Err(bad("the YAML file is empty"));
    };
    let Yaml::Array(list) = &doc["skeleton"] else {
        return Err(bad("no `skeleton` list of joints"));
    };
    if list.len() > limits.rig_max_bones as usize {
        return Err(RigError::new(
            "E_RIG_LIMIT",
            format!(
                "{} joints, more than rig-max-bones {}",
                list.len(),
                limits.rig_max_bones
            ),
        ));
    }
    let num = |v: &Yaml| match v {
        Yaml::Integer(i) => Some(*i as f64),
        Yaml::Real(_) => v.as_f64(),
        _ => None,
    };
    let mut out: Joints = Vec::with_capacity(list.len());
    for (i, j) in list.iter().enumerate() {
        let Some(name) = j["name"].as_str() else {
            return Err(bad(format!("skeleton[{i}] has no name")));
        };
        let loc = match &j["loc"] {
            Yaml::Array(v) if v.len() == 2 => match (num(&v[0]), num(&v[1])) {
                (Some(x), Some(y)) if x.is_finite() && y.is_finite() => [x, y],
                _ => return Err(bad(format!("joint '{name}': loc is not two numbers"))),
            },
            _ => return Err(bad(format!("joint '{name}': loc is not [x, y]"))),
        };
        let parent = match &j["parent"] {
            Yaml::Null | Yaml::BadValue => None,
            Yaml::String(p) => Some(p.clone()),
            _ => return Err(bad(format!("joint '{name}': parent is not a name or null"))),
        };
        if out.iter().any(|o| o.0 == name) {
            return Err(bad(format!("joint '{name}' is listed twice")));
        }
        out.push((name.to_string(), loc, parent));
    }
    for (name, _, p) in &out {
        if let Some(p) = p
            && !out.iter().any(|o| &o.0 == p)
        {
            return Err(bad(format!("joint '{name}' has the unknown parent '{p}'")));
        }
    }
    Ok(out)
}

/// The declaration for AnimatedDrawings joints over their mask (`mask`: the
/// figure, `w × h`); `image` is the declaration's `image`.
pub fn declaration(
    joints: &Joints,
    mask: &[bool],
    w: usize,
    h: usize,
    image: &str,
) -> Result<Value, RigError> {
    let dist = edt(mask, w, h);
    let get = |n: &str| joints.iter().find(|j| j.0 == n).map(|j| j.1);
    let need = |n: &str| get(n).ok_or_else(|| bad(format!("no joint '{n}'")));
    let r_at = |p: [f64; 2]| {
        let (x, y) = (
            p[0].round().clamp(0.0, w as f64 - 1.0),
            p[1].round().clamp(0.0, h as f64 - 1.0),
        );
        (1.15 * dist[y as usize * w + x as usize] + 2.0).max(3.0)
    };
    let r1 = |v: f64| (v * 10.0).round() / 10.0;
    let bone = |name: &str, parent: Option<&str>, pts: &[[f64; 2]], depth: f64| {
        let mut b = json!({
            "name": name,
            "points": pts.iter().map(|p| json!([r1(p[0]), r1(p[1])])).collect::<Vec<_>>(),
            "radius": pts.iter().map(|&p| json!(r1(r_at(p)))).collect::<Vec<_>>(),
            "depth": depth,
        });
        if let Some(p) = parent {
            b["parent"] = json!(p);
        }
        b
    };
    let hip = need("hip")?;
    let torso = need("torso")?;
    let neck = need("neck")?;
    let (dx, dy) = (neck[0] - torso[0], neck[1] - torso[1]);
    let l = dx.hypot(dy).max(1e-9);
    let hr = r_at(neck) / 1.15;
    let head_top = [neck[0] + dx / l * hr, neck[1] + dy / l * hr];
    let quad = joints
        .iter()
        .any(|j| j.0.ends_with("_b") || j.0.ends_with("_f"));
    let mut bones = Vec::new();
    if quad {
        let facing = if neck[0] >= hip[0] { "right" } else { "left" };
        bones.push(bone("body", None, &[hip, torso], 10.0));
        bones.push(bone("neck", Some("body"), &[torso, neck], 11.0));
        bones.push(bone("head", Some("neck"), &[neck, head_top], 9.0));
        for (end, suffix, near_d, far_d) in [("hind", "b", 5.0, 17.0), ("fore", "f", 2.0, 20.0)] {
            for (side, d) in [("left", near_d), ("right", far_d)] {
                let word = if side == "left" { "near" } else { "far" };
                let (a, b, c) = (
                    need(&format!("{side}_hip_{suffix}"))?,
                    need(&format!("{side}_knee_{suffix}"))?,
                    need(&format!("{side}_foot_{suffix}"))?,
                );
                let upper = format!("{end}_upper_{word}");
                bones.push(bone(&upper, Some("body"), &[a, b], d));
                let mut lower = bone(
                    &format!("{end}_lower_{word}"),
                    Some(&upper),
                    &[b, c],
                    d + 1.0,
                );
                if end == "hind" {
                    lower["bend"] = json!("reversed");
                }
                bones.push(lower);
            }
        }
        let mut mocap = json!({});
        for (k, v) in [
            ("fore_upper_near", "RightHip"),
            ("fore_lower_near", "RightKnee"),
            ("fore_upper_far", "LeftHip"),
            ("fore_lower_far", "LeftKnee"),
            ("hind_upper_near", "LeftHip"),
            ("hind_lower_near", "LeftKnee"),
            ("hind_upper_far", "RightHip"),
            ("hind_lower_far", "RightKnee"),
        ] {
            mocap[k] = json!(v);
        }
        return Ok(json!({
            "version": 1, "image": image, "background": "paper", "facing": facing,
            "bones": bones, "mocap": mocap,
        }));
    }
    let pr = r_at(hip) / 1.15;
    bones.push(bone(
        "pelvis",
        None,
        &[hip, [hip[0], hip[1] + 0.5 * pr.max(2.0)]],
        7.0,
    ));
    bones.push(bone("torso", Some("pelvis"), &[hip, torso], 6.0));
    bones.push(bone("neck", Some("torso"), &[torso, neck], 5.0));
    bones.push(bone("head", Some("neck"), &[neck, head_top], 4.0));
    for side in ["right", "left"] {
        let (s, e, hd) = (
            need(&format!("{side}_shoulder"))?,
            need(&format!("{side}_elbow"))?,
            need(&format!("{side}_hand"))?,
        );
        let upper = format!("upper_arm_{side}");
        bones.push(bone(&upper, Some("torso"), &[s, e], 3.0));
        bones.push(bone(
            &format!("forearm_{side}"),
            Some(&upper),
            &[e, hd],
            2.0,
        ));
        let (a, k, f) = (
            need(&format!("{side}_hip"))?,
            need(&format!("{side}_knee"))?,
            need(&format!("{side}_foot"))?,
        );
        let thigh = format!("thigh_{side}");
        bones.push(bone(&thigh, Some("pelvis"), &[a, k], 8.0));
        bones.push(bone(&format!("shin_{side}"), Some(&thigh), &[k, f], 9.0));
    }
    Ok(json!({
        "version": 1, "image": image, "background": "paper", "facing": "front", "bones": bones,
    }))
}

/// The figure of an AnimatedDrawings `mask.png` (255 = figure).
pub fn mask_of(img: &RgbaImage) -> Vec<bool> {
    img.data.chunks_exact(4).map(|p| p[0] > 127).collect()
}
