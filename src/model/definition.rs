// re2d — `validateRotDefinition`: character definition rules, defaults and the typed view (spec: js-rotsprite.md §3.3).
//
//! [`validate_definition`] applies the checks of §3.3 in their order to the
//! JSON clone of a definition, writes every default onto it (existing keys
//! keep their position, new ones are appended) and returns it together with
//! a typed [`Definition`] for Rust users (renderer, CLI).

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::js::{
    entries, finite, name, object_default, present, prop, to_js_string, truthy, vec_value, vector,
};
use super::{ModelError, face_states};

/// A bone: name, parent (declared earlier) and pivots.
#[derive(Clone, Debug, PartialEq)]
pub struct Bone {
    /// Unique name.
    pub name: String,
    /// Parent bone name.
    pub parent: Option<String>,
    /// Pivot in body mode.
    pub pivot: [f64; 3],
    /// Pivot in portrait (head-only) mode.
    pub portrait_pivot: [f64; 3],
}

/// A part's bind transform relative to its bone.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bind {
    /// Per-axis scale.
    pub scale: [f64; 3],
    /// Translation.
    pub translation: [f64; 3],
    /// Rotation, degrees (Rz·Ry·Rx).
    pub rotation: [f64; 3],
}

/// A part: atlas part id bound to a bone.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// Atlas part id 1..254.
    pub id: u8,
    /// Bone name.
    pub bone: String,
    /// Bind in body mode.
    pub bind: Bind,
    /// Bind in portrait mode.
    pub portrait_bind: Bind,
    /// Selector as written (`eyes`, `mouth`, `brows`, or absent/falsy).
    pub selector: Value,
    /// Variant as written (`p.variant ?? 0` when building records).
    pub variant: Value,
    /// Drawn in portrait mode.
    pub portrait: bool,
    /// Back-face culled.
    pub one_sided: bool,
}

/// An attachment socket on a bone.
#[derive(Clone, Debug, PartialEq)]
pub struct Socket {
    /// Unique name.
    pub name: String,
    /// Bone name.
    pub bone: String,
    /// Point in bone space.
    pub point: [f64; 3],
    /// Rotation, degrees.
    pub rotation: [f64; 3],
    /// Shown while the parent is in portrait mode.
    pub portrait: bool,
}

/// A named joint point on a bone.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    /// Unique name.
    pub name: String,
    /// Bone name.
    pub bone: String,
    /// Point in bone space.
    pub point: [f64; 3],
}

/// A rig control: a named angle added to one bone axis.
#[derive(Clone, Debug, PartialEq)]
pub struct Control {
    /// Control key.
    pub key: String,
    /// Bone name.
    pub bone: String,
    /// Axis index 0 (x), 1 (y), 2 (z).
    pub axis: usize,
}

/// The typed view of a validated definition.
#[derive(Clone, Debug, PartialEq)]
pub struct Definition {
    /// Atlas path as written (relative to the model file).
    pub atlas: String,
    /// `anime` or `pixel`.
    pub style: String,
    /// Bones in declaration order (parents first).
    pub bones: Vec<Bone>,
    /// Parts in declaration order.
    pub parts: Vec<Part>,
    /// Part groups: key → part ids.
    pub groups: Vec<(String, Vec<u8>)>,
    /// Joints.
    pub joints: Vec<Joint>,
    /// Controls in entry order.
    pub controls: Vec<Control>,
    /// Projection scale in body mode.
    pub body_scale: f64,
    /// Projection scale in portrait mode.
    pub portrait_scale: f64,
    /// Sockets.
    pub sockets: Vec<Socket>,
    /// `defaults.body` when given.
    pub default_body: Option<bool>,
    /// Emotions: key → (component, state) pairs.
    pub emotions: Vec<(String, Vec<(String, String)>)>,
    /// The whole normalised JSON (unknown fields kept).
    pub json: Value,
}

fn t(msg: impl Into<String>) -> ModelError {
    ModelError::type_(msg)
}

fn binding(x: Option<&Value>, label: &str) -> Result<(Bind, Value), ModelError> {
    let x = present(x).cloned().unwrap_or(Value::Object(Map::new()));
    let scale = vector(prop(&x, "scale"), [1.0; 3], &format!("{label}.scale"))?;
    let translation = vector(
        prop(&x, "translation"),
        [0.0; 3],
        &format!("{label}.translation"),
    )?;
    let rotation = vector(prop(&x, "rotation"), [0.0; 3], &format!("{label}.rotation"))?;
    let mut m = Map::new();
    m.insert("scale".into(), vec_value(scale));
    m.insert("translation".into(), vec_value(translation));
    m.insert("rotation".into(), vec_value(rotation));
    Ok((
        Bind {
            scale,
            translation,
            rotation,
        },
        Value::Object(m),
    ))
}

fn optional_bool(v: Option<&Value>, label: &str) -> Result<Option<bool>, ModelError> {
    match present(v) {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(t(format!("{label} must be a boolean"))),
    }
}

fn is_int_in(v: Option<&Value>, lo: f64, hi: f64) -> Option<f64> {
    let x = v?.as_f64()?;
    (x.fract() == 0.0 && x >= lo && x <= hi).then_some(x)
}

fn array_len<'a>(
    v: Option<&'a Value>,
    lo: usize,
    hi: usize,
    label: &str,
) -> Result<&'a Vec<Value>, ModelError> {
    match v.and_then(Value::as_array) {
        Some(a) if a.len() >= lo && a.len() <= hi => Ok(a),
        _ => Err(t(format!("{label} must be an array of {lo}..{hi} entries"))),
    }
}

fn obj_mut<'a>(v: &'a mut Value, label: &str) -> Result<&'a mut Map<String, Value>, ModelError> {
    v.as_object_mut()
        .ok_or_else(|| t(format!("{label} must be an object")))
}

/// Joints and sockets (§3.3 steps 7, 10): `rig[key] = rig[key] ?? []`, an
/// array of at most 128 entries, each with a unique name and a declared
/// bone; `each(label, entry, name, bone)` applies the remaining rules.
fn named_bone_list(
    rig: &mut Map<String, Value>,
    key: &str,
    bones: &HashSet<String>,
    mut each: impl FnMut(&str, &mut Value, String, String) -> Result<(), ModelError>,
) -> Result<(), ModelError> {
    if present(rig.get(key)).is_none() {
        rig.insert(key.into(), Value::Array(Vec::new()));
    }
    let list = rig
        .get_mut(key)
        .and_then(Value::as_array_mut)
        .filter(|a| a.len() <= 128);
    let list = list.ok_or_else(|| t(format!("rig.{key} must be an array of at most 128")))?;
    let mut names = HashSet::new();
    for (i, item) in list.iter_mut().enumerate() {
        let label = format!("rig.{key}[{i}]");
        if item.is_null() {
            return Err(t(format!("{label} must be an object")));
        }
        let item_name = name(prop(item, "name"), &format!("{label}.name"))?.to_string();
        let bone = prop(item, "bone")
            .and_then(Value::as_str)
            .filter(|b| bones.contains(*b))
            .map(str::to_string);
        if !names.insert(item_name.clone()) {
            return Err(t(format!("{label}: duplicate name '{item_name}'")));
        }
        let bone = bone.ok_or_else(|| t(format!("{label}.bone must name a declared bone")))?;
        each(&label, item, item_name, bone)?;
    }
    Ok(())
}

/// `validateRotDefinition` on the JSON clone of a definition (§3.3).
pub fn validate_definition(mut d: Value) -> Result<Definition, ModelError> {
    if !truthy(Some(&d)) || prop(&d, "version").and_then(Value::as_f64) != Some(1.0) {
        return Err(t("definition: version must be 1"));
    }
    let atlas = match prop(&d, "atlas") {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        _ => return Err(t("definition.atlas must be a non-empty string")),
    };
    let root = obj_mut(&mut d, "definition")?;
    if present(root.get("style")).is_none() {
        root.insert("style".into(), Value::String("anime".into()));
    }
    let style = match root.get("style") {
        Some(Value::String(s)) if s == "anime" || s == "pixel" => s.clone(),
        _ => return Err(t("definition.style must be 'anime' or 'pixel'")),
    };
    if !truthy(root.get("rig")) {
        return Err(t("definition.rig is required"));
    }
    let rig = obj_mut(root.get_mut("rig").expect("checked"), "definition.rig")?;
    array_len(rig.get("bones"), 1, 64, "rig.bones")?;
    array_len(rig.get("parts"), 1, 254, "rig.parts")?;

    // Bones.
    let mut bones = Vec::new();
    let mut bone_names: HashSet<String> = HashSet::new();
    for (i, b) in rig
        .get_mut("bones")
        .and_then(Value::as_array_mut)
        .expect("checked")
        .iter_mut()
        .enumerate()
    {
        let label = format!("rig.bones[{i}]");
        if b.is_null() {
            return Err(t(format!("{label} must be an object")));
        }
        let bname = name(prop(b, "name"), &format!("{label}.name"))?.to_string();
        let parent = present(prop(b, "parent")).cloned();
        if bone_names.contains(&bname) {
            return Err(t(format!("{label}: duplicate bone '{bname}'")));
        }
        let parent = match parent {
            None => None,
            Some(Value::String(p)) if bone_names.contains(&p) => Some(p),
            Some(_) => {
                return Err(t(format!(
                    "{label}.parent must name a bone declared earlier"
                )));
            }
        };
        let pivot = vector(prop(b, "pivot"), [0.0; 3], &format!("{label}.pivot"))?;
        let portrait_pivot = vector(
            prop(b, "portraitPivot"),
            pivot,
            &format!("{label}.portraitPivot"),
        )?;
        let bo = obj_mut(b, &label)?;
        bo.insert("pivot".into(), vec_value(pivot));
        bo.insert("portraitPivot".into(), vec_value(portrait_pivot));
        bone_names.insert(bname.clone());
        bones.push(Bone {
            name: bname,
            parent,
            pivot,
            portrait_pivot,
        });
    }

    // Parts.
    let mut parts = Vec::new();
    let mut ids: HashSet<u8> = HashSet::new();
    for (i, p) in rig
        .get_mut("parts")
        .and_then(Value::as_array_mut)
        .expect("checked")
        .iter_mut()
        .enumerate()
    {
        let label = format!("rig.parts[{i}]");
        if p.is_null() {
            return Err(t(format!("{label} must be an object")));
        }
        let id = is_int_in(prop(p, "id"), 1.0, 254.0)
            .ok_or_else(|| t(format!("{label}.id must be an integer 1..254")))?
            as u8;
        if !ids.insert(id) {
            return Err(t(format!("{label}: duplicate part id {id}")));
        }
        let bone = match prop(p, "bone") {
            Some(Value::String(s)) if bone_names.contains(s) => s.clone(),
            _ => return Err(t(format!("{label}.bone must name a declared bone"))),
        };
        let (bind, bind_v) = binding(prop(p, "bind"), &format!("{label}.bind"))?;
        let (portrait_bind, pbind_v) = match present(prop(p, "portraitBind")) {
            Some(pb) => binding(Some(pb), &format!("{label}.portraitBind"))?,
            None => (bind, bind_v.clone()),
        };
        let selector = prop(p, "selector").cloned().unwrap_or(Value::Null);
        if !selector.is_null() && face_states(&to_js_string(&selector)).is_none() {
            return Err(t(format!("{label}.selector must be eyes, mouth or brows")));
        }
        let variant = prop(p, "variant").cloned().unwrap_or(Value::Null);
        if truthy(Some(&selector)) && is_int_in(Some(&variant), 0.0, 3.0).is_none() {
            return Err(t(format!("{label}.variant must be an integer 0..3")));
        }
        let portrait = optional_bool(prop(p, "portrait"), &format!("{label}.portrait"))?;
        let one_sided = optional_bool(prop(p, "oneSided"), &format!("{label}.oneSided"))?;
        let po = obj_mut(p, &label)?;
        po.insert("bind".into(), bind_v);
        po.insert("portraitBind".into(), pbind_v);
        parts.push(Part {
            id,
            bone,
            bind,
            portrait_bind,
            selector,
            variant,
            portrait: portrait.unwrap_or(false),
            one_sided: one_sided.unwrap_or(false),
        });
    }

    // Groups (on the root).
    let root_groups = {
        let root = obj_mut(&mut d, "definition")?;
        if present(root.get("groups")).is_none() {
            root.insert("groups".into(), Value::Object(Map::new()));
        }
        entries(&root["groups"])
    };
    let mut groups = Vec::new();
    for (key, list) in root_groups {
        name(Some(&Value::String(key.clone())), "groups key")?;
        let label = format!("groups.{key}");
        let arr = list
            .as_array()
            .filter(|a| !a.is_empty())
            .ok_or_else(|| t(format!("{label} must be a non-empty array")))?;
        let mut seen = Vec::new();
        for e in arr {
            let id = e
                .as_f64()
                .filter(|x| {
                    x.fract() == 0.0 && *x >= 1.0 && *x <= 254.0 && ids.contains(&(*x as u8))
                })
                .ok_or_else(|| t(format!("{label} must list declared part ids")))?;
            if seen.contains(&(id as u8)) {
                return Err(t(format!("{label} lists part {id} twice")));
            }
            seen.push(id as u8);
        }
        groups.push((key, seen));
    }

    // Joints, controls (on the rig).
    let root = obj_mut(&mut d, "definition")?;
    let rig = obj_mut(root.get_mut("rig").expect("checked"), "definition.rig")?;
    let mut joints = Vec::new();
    named_bone_list(rig, "joints", &bone_names, |label, j, name, bone| {
        let point = vector(prop(j, "point"), [0.0; 3], &format!("{label}.point"))?;
        obj_mut(j, label)?.insert("point".into(), vec_value(point));
        joints.push(Joint { name, bone, point });
        Ok(())
    })?;
    if present(rig.get("controls")).is_none() {
        rig.insert("controls".into(), Value::Object(Map::new()));
    }
    let mut controls = Vec::new();
    for (key, c) in entries(&rig["controls"]) {
        name(Some(&Value::String(key.clone())), "rig.controls key")?;
        let bone = prop(&c, "bone")
            .and_then(Value::as_str)
            .filter(|b| bone_names.contains(*b));
        let axis = match prop(&c, "axis").and_then(Value::as_str) {
            Some("x") => Some(0),
            Some("y") => Some(1),
            Some("z") => Some(2),
            _ => None,
        };
        match (bone, axis) {
            (Some(b), Some(a)) => controls.push(Control {
                key,
                bone: b.to_string(),
                axis: a,
            }),
            _ => {
                return Err(t(format!(
                    "rig.controls.{key} needs a declared bone and an axis x|y|z"
                )));
            }
        }
    }

    // Projection.
    // `d.projection = d.projection ?? {}`: an array is an object to the
    // engine (it has no scale keys, so it takes the defaults, and the JSON
    // keeps the array; the JS adapter puts the two properties on it); any
    // other non-object fails the property assignment (TypeError).
    let root = obj_mut(&mut d, "definition")?;
    let mut scratch = Map::new();
    let projection = if root.get("projection").is_some_and(Value::is_array) {
        &mut scratch
    } else {
        object_default(root, "projection", "definition.projection")?
    };
    let mut scales = [1.0, 2.0];
    for (i, (key, def)) in [("bodyScale", 1.0), ("portraitScale", 2.0)]
        .into_iter()
        .enumerate()
    {
        let v = match present(projection.get(key)) {
            Some(v) => finite(Some(v), &format!("projection.{key}"))?,
            None => def,
        };
        if !(v > 0.0 && v <= 8.0) {
            return Err(ModelError::range(format!(
                "projection.{key} must be in (0, 8]"
            )));
        }
        projection.insert(key.into(), super::js::num(v));
        scales[i] = v;
    }

    // Sockets (on the rig).
    let rig = obj_mut(root.get_mut("rig").expect("checked"), "definition.rig")?;
    let mut sockets = Vec::new();
    named_bone_list(rig, "sockets", &bone_names, |label, s, name, bone| {
        let point = vector(prop(s, "point"), [0.0; 3], &format!("{label}.point"))?;
        let rotation = vector(prop(s, "rotation"), [0.0; 3], &format!("{label}.rotation"))?;
        let portrait = optional_bool(prop(s, "portrait"), &format!("{label}.portrait"))?;
        let so = obj_mut(s, label)?;
        so.insert("point".into(), vec_value(point));
        so.insert("rotation".into(), vec_value(rotation));
        sockets.push(Socket {
            name,
            bone,
            point,
            rotation,
            portrait: portrait.unwrap_or(false),
        });
        Ok(())
    })?;

    // Defaults, emotions.
    // `d.defaults = d.defaults ?? {}`, then only `d.defaults.body` is read:
    // a non-object (number, string, array) has no `body` and passes.
    if present(root.get("defaults")).is_none() {
        root.insert("defaults".into(), Value::Object(Map::new()));
    }
    let default_body = optional_bool(prop(&root["defaults"], "body"), "defaults.body")?;
    if present(root.get("emotions")).is_none() {
        root.insert("emotions".into(), Value::Object(Map::new()));
    }
    let mut emotions = Vec::new();
    for (key, e) in entries(&root["emotions"]) {
        name(Some(&Value::String(key.clone())), "emotions key")?;
        if e.is_null() {
            // `Object.entries(null)` throws.
            return Err(t(format!("emotions.{key} must be an object")));
        }
        let mut pairs = Vec::new();
        for (component, value) in entries(&e) {
            let ok = face_states(&component)
                .zip(value.as_str())
                .is_some_and(|(states, v)| states.contains(&v));
            if !ok {
                return Err(t(format!(
                    "emotions.{key}.{component} is not a known state"
                )));
            }
            pairs.push((component, value.as_str().expect("checked").to_string()));
        }
        emotions.push((key, pairs));
    }

    Ok(Definition {
        atlas,
        style,
        bones,
        parts,
        groups,
        joints,
        controls,
        body_scale: scales[0],
        portrait_scale: scales[1],
        sockets,
        default_body,
        emotions,
        json: d,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ErrorClass;
    use serde_json::json;

    fn minimal() -> Value {
        json!({
            "version": 1,
            "atlas": "a.png",
            "rig": {
                "bones": [{"name": "root"}, {"name": "arm", "parent": "root", "pivot": [1, 2, 3]}],
                "parts": [{"id": 6, "bone": "root"}, {"id": 16, "bone": "arm", "selector": "eyes", "variant": 1}]
            }
        })
    }

    #[test]
    fn defaults_are_filled_in_order() {
        let d = validate_definition(minimal()).unwrap();
        let keys: Vec<&str> = d
            .json
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        assert_eq!(
            keys,
            [
                "version",
                "atlas",
                "rig",
                "style",
                "groups",
                "projection",
                "defaults",
                "emotions"
            ]
        );
        let rig_keys: Vec<&str> = d.json["rig"]
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        assert_eq!(
            rig_keys,
            ["bones", "parts", "joints", "controls", "sockets"]
        );
        assert_eq!(
            d.json["rig"]["bones"][1]["portraitPivot"],
            json!([1.0, 2.0, 3.0])
        );
        assert_eq!(
            d.json["rig"]["parts"][0]["bind"],
            json!({"scale": [1.0, 1.0, 1.0], "translation": [0.0, 0.0, 0.0], "rotation": [0.0, 0.0, 0.0]})
        );
        assert_eq!(
            d.json["projection"],
            json!({"bodyScale": 1.0, "portraitScale": 2.0})
        );
        assert_eq!(d.style, "anime");
        assert_eq!(d.bones[1].parent.as_deref(), Some("root"));
        assert_eq!(d.parts[1].selector, json!("eyes"));
    }

    fn err(mut f: impl FnMut(&mut Value)) -> ErrorClass {
        let mut v = minimal();
        f(&mut v);
        validate_definition(v).unwrap_err().class
    }

    #[test]
    fn rejections_and_their_classes() {
        use ErrorClass::*;
        assert_eq!(validate_definition(json!(null)).unwrap_err().class, Type);
        assert_eq!(err(|v| v["version"] = json!(2)), Type);
        assert_eq!(err(|v| v["atlas"] = json!("")), Type);
        assert_eq!(err(|v| v["style"] = json!("cartoon")), Type);
        assert_eq!(
            err(|v| v["rig"]["bones"][1]["parent"] = json!("nope")),
            Type
        );
        assert_eq!(err(|v| v["rig"]["bones"][0]["parent"] = json!("arm")), Type);
        assert_eq!(err(|v| v["rig"]["bones"][1]["name"] = json!("root")), Type);
        assert_eq!(
            err(|v| v["rig"]["bones"][1]["pivot"] = json!([1, 2, 3e6])),
            Range
        );
        assert_eq!(err(|v| v["rig"]["parts"][0]["id"] = json!(255)), Type);
        assert_eq!(err(|v| v["rig"]["parts"][0]["id"] = json!(16)), Type);
        assert_eq!(err(|v| v["rig"]["parts"][0]["bone"] = json!("leg")), Type);
        assert_eq!(err(|v| v["rig"]["parts"][1]["variant"] = json!(4)), Type);
        assert_eq!(
            err(|v| v["rig"]["parts"][1]["selector"] = json!("nose")),
            Type
        );
        assert_eq!(err(|v| v["rig"]["parts"][0]["oneSided"] = json!(1)), Type);
        assert_eq!(err(|v| v["groups"] = json!({"g": [7]})), Type);
        assert_eq!(err(|v| v["groups"] = json!({"g": [6, 6]})), Type);
        assert_eq!(
            err(|v| v["rig"]["controls"] = json!({"c": {"bone": "arm", "axis": "w"}})),
            Type
        );
        assert_eq!(err(|v| v["projection"] = json!({"bodyScale": 0})), Range);
        assert_eq!(
            err(|v| v["projection"] = json!({"portraitScale": 9})),
            Range
        );
        assert_eq!(
            err(|v| v["rig"]["sockets"] = json!([{"name": "s", "bone": "x"}])),
            Type
        );
        assert_eq!(err(|v| v["defaults"] = json!({"body": "yes"})), Type);
        assert_eq!(
            err(|v| v["emotions"] = json!({"joy": {"eyes": "wide"}})),
            Type
        );
        assert_eq!(err(|v| v["emotions"] = json!({"joy": null})), Type);
        // JS only reads `defaults.body`: a non-object `defaults` passes.
        for d in [json!(5), json!("s"), json!([1]), json!(true)] {
            let mut v = minimal();
            v["defaults"] = d.clone();
            let out = validate_definition(v).unwrap();
            assert_eq!(out.json["defaults"], d);
            assert_eq!(out.default_body, None);
        }
        // `projection: []` is an object to the engine: defaults, array kept.
        let mut v = minimal();
        v["projection"] = json!([]);
        let out = validate_definition(v).unwrap();
        assert_eq!((out.body_scale, out.portrait_scale), (1.0, 2.0));
        assert_eq!(out.json["projection"], json!([]));
        assert_eq!(err(|v| v["projection"] = json!(5)), Type);
        // A one-element array selector passes the own-key test and is kept.
        let mut v = minimal();
        v["rig"]["parts"][1]["selector"] = json!(["mouth"]);
        assert_eq!(
            validate_definition(v).unwrap().parts[1].selector,
            json!(["mouth"])
        );
    }

    #[test]
    fn portrait_bind_defaults_to_normalised_bind() {
        let mut v = minimal();
        v["rig"]["parts"][0]["bind"] = json!({"scale": [2, 2, 2], "extra": 1});
        let d = validate_definition(v).unwrap();
        assert_eq!(d.parts[0].portrait_bind, d.parts[0].bind);
        assert_eq!(d.parts[0].bind.scale, [2.0; 3]);
        assert!(d.json["rig"]["parts"][0]["bind"].get("extra").is_none());
    }
}
