//! The `export-riv` input model of a build (rive-export.md §7): bones with connectors, parts on
//! texture pages, the clips, the state machine; and its JSON.

use serde_json::{Map, Value, json};

use crate::RigError;
use crate::cut::slice::Slicing;
use crate::declare::skeleton::{Skeleton, png_name};
use crate::declare::tree::Tree;
use crate::motion::{self};
use crate::skin::pages::{self};
use crate::skin::weights::{self};
use re2d::limits::Limits;
use re2d_riv::{self as riv, Model};

use super::Meshed;

pub(super) fn flat(v: &[[f64; 2]]) -> Vec<f64> {
    v.iter().flat_map(|p| [p[0], p[1]]).collect()
}

/// The texture id of page `i` in the model.
pub fn page_id(i: usize) -> String {
    format!("page{i}")
}

/// The file of page `i` in the build folder.
pub fn page_name(i: usize) -> String {
    format!("page_{i}.png")
}

/// `pages.json`: per page its file and size; per part its page, its
/// rectangle in the page (texels, without the gutter), the crop texel at the
/// rectangle's top-left (crop = the part PNG `part_<bone>.png`, placed in
/// the drawing by `pivots.json`) and the page texels per crop texel.
pub fn pages_json(sk: &Skeleton, sl: &Slicing, m: &Meshed) -> Vec<u8> {
    let pages: Vec<Value> = m
        .pages
        .pages
        .iter()
        .enumerate()
        .map(|(i, (w, h, _))| json!({"id": page_id(i), "file": page_name(i), "width": w, "height": h}))
        .collect();
    let parts: Vec<Value> = sk
        .bones
        .iter()
        .enumerate()
        .filter_map(|(k, b)| {
            m.pages.placed[k].as_ref().map(|p| {
                json!({"name": b.name, "png": png_name(&b.name), "page": p.page, "rect": p.rect,
                       "trim": p.trim, "scale": pages::SCALE,
                       "crop": [sl.parts[k].width, sl.parts[k].height]})
            })
        })
        .collect();
    let mut out = serde_json::to_vec_pretty(&json!({
        "page_max": pages::PAGE, "gutter": pages::GUTTER, "scale": pages::SCALE,
        "memory_bytes": m.pages.memory(), "pages": pages, "parts": parts,
    }))
    .unwrap_or_default();
    out.push(b'\n');
    out
}

/// The `export-riv` model JSON.
#[allow(clippy::too_many_arguments)]
pub fn model_json(
    name: &str,
    sk: &Skeleton,
    sl: &Slicing,
    tree: &Tree,
    m: &Meshed,
    clips: &[(&str, &motion::Walk)],
    with_parts: bool,
) -> Value {
    let mut skel = Map::new();
    for b in &tree.bones {
        let mut o = json!({"length": b.length, "angle": b.angle});
        match b.parent {
            Some(p) => o["parent"] = json!(tree.bones[p].name),
            None => {
                o["x"] = json!(b.start[0]);
                o["y"] = json!(b.start[1]);
            }
        }
        skel.insert(b.name.clone(), o);
    }
    let mut textures = Map::new();
    for i in 0..m.pages.pages.len() {
        textures.insert(page_id(i), json!(page_name(i)));
    }
    let mut parts = Vec::new();
    for (k, b) in sk.bones.iter().enumerate() {
        if m.meshes[k].verts.is_empty() || !with_parts {
            continue; // a partless bone: no texture, no part
        }
        let Some(place) = &m.pages.placed[k] else {
            continue;
        };
        let mesh = &m.meshes[k];
        let w: Vec<Value> = mesh
            .verts
            .iter()
            .map(|&v| {
                let mut e = Vec::new();
                for &(bone, wt) in weights::weights(m.scheme, sk, k, v).iter() {
                    e.push(json!(sk.bones[bone].name));
                    e.push(json!(wt));
                }
                Value::Array(e)
            })
            .collect();
        parts.push(json!({
            "name": b.name,
            "texture": page_id(place.page),
            "depth": b.depth,
            "verts": flat(&mesh.verts),
            "uv": flat(&m.pages.uv(k, &sl.parts[k], mesh)),
            "tris": mesh.tris,
            "weights": w,
        }));
    }
    let mut root = json!({
        "version": 1,
        "name": name,
        "skeleton": Value::Object(skel),
        "textures": Value::Object(textures),
    });
    if with_parts {
        root["parts"] = Value::Array(parts);
    }
    if !clips.is_empty() {
        root["clips"] = clips_json(sk, tree, clips);
        root["state_machine"] = machine_json(clips);
        // draw order from the capture (issue 42): only on clips where it leaves the declaration's
        let has_part: Vec<bool> = (0..sk.bones.len())
            .map(|k| !m.meshes[k].verts.is_empty() && m.pages.placed[k].is_some())
            .collect();
        for (clip, walk) in clips.iter().filter(|_| sk.order_from_capture) {
            if let Some(d) = draw_order_json(sk, &has_part, walk) {
                root["clips"][*clip]["draw_order"] = d;
            }
        }
    }
    root
}

/// A clip's `draw_order` keys (rive-export.md §11.6 in the model, issue 42): per key of the
/// walk the drawn bones nearest first ([`motion::depth::orders`]), a key only where the
/// order changes; `None` when every key is the declaration's order.
pub fn draw_order_json(sk: &Skeleton, has_part: &[bool], walk: &motion::Walk) -> Option<Value> {
    let bones: Vec<motion::depth::OrderBone> = sk
        .bones
        .iter()
        .zip(has_part)
        .map(|(b, &part)| motion::depth::OrderBone {
            parent: b.parent,
            depth: b.depth,
            part,
        })
        .collect();
    let orders = motion::depth::orders(&bones, &walk.depths, walk.times.len());
    let declared = motion::depth::orders(&bones, &motion::depth::Depths::default(), 1)
        .pop()
        .unwrap_or_default();
    if orders.iter().all(|o| *o == declared) {
        return None;
    }
    let mut keys = Vec::new();
    let mut last: Option<&Vec<usize>> = None;
    for (t, o) in walk.times.iter().zip(&orders) {
        if last == Some(o) {
            continue;
        }
        last = Some(o);
        let names: Vec<&str> = o.iter().map(|&b| sk.bones[b].name.as_str()).collect();
        keys.push(json!([t, names]));
    }
    Some(Value::Array(keys))
}

/// The `state_machine` of the model (rive-export.md §11, `riv/machine.rs`):
/// a Number input `speed` blending the cyclic clips — `idle` at 0, then
/// `walk`, `run` and any other cyclic clip (by name) at 1, 2, 3 … — and a
/// Trigger per one-shot clip, named after it, that plays it once and
/// returns to the blend. A body-part clip ([`motion::Walk::keyed`]) is its
/// own layer over those (`riv/layers.rs`), played by a Trigger named after
/// it: once for a one-shot, switched on and off for a cyclic one.
pub fn machine_json(clips: &[(&str, &motion::Walk)]) -> Value {
    let whole = |w: &motion::Walk| w.keyed.is_none();
    let mut cyclic: Vec<&str> = clips
        .iter()
        .filter(|(n, w)| w.looped && *n != "idle" && whole(w))
        .map(|(n, _)| *n)
        .collect();
    let rank = |n: &str| match n {
        "walk" => 0,
        "run" => 1,
        _ => 2,
    };
    cyclic.sort_by(|a, b| rank(a).cmp(&rank(b)).then(a.cmp(b)));
    let mut blend = vec![json!(["idle", 0.0])];
    for (i, n) in cyclic.iter().enumerate() {
        blend.push(json!([n, (i + 1) as f64]));
    }
    let mut once: Vec<&str> = clips
        .iter()
        .filter(|(n, w)| !w.looped && *n != "idle" && whole(w))
        .map(|(n, _)| *n)
        .collect();
    once.sort();
    let triggers: Vec<Value> = once.iter().map(|n| json!([n, n])).collect();
    let mut layered: Vec<&str> = clips
        .iter()
        .filter(|(n, w)| *n != "idle" && !whole(w))
        .map(|(n, _)| *n)
        .collect();
    layered.sort();
    let mut sm =
        json!({"name": "sm", "input": super::MACHINE_INPUT, "blend": blend, "triggers": triggers});
    if !layered.is_empty() {
        sm["layers"] = Value::Array(
            layered
                .iter()
                .map(|n| json!({"name": n, "clip": n, "trigger": n}))
                .collect(),
        );
    }
    sm
}

/// The `clips` object: one per motion, and `idle` (the drawn pose held:
/// every property any clip keys, at its rest value, for one second) unless
/// a motion is called `idle`.
pub fn clips_json(sk: &Skeleton, tree: &Tree, clips: &[(&str, &motion::Walk)]) -> Value {
    let mut out = Map::new();
    let mut keyed: Vec<bool> = vec![false; sk.bones.len()];
    let mut moved = false;
    // a body-part clip keys each of its bones that a whole-body clip keys
    // (even where it holds it still), so its layer overrides them all
    let whole_keys: Vec<bool> = (0..sk.bones.len())
        .map(|k| {
            clips
                .iter()
                .any(|(_, w)| w.keyed.is_none() && w.angles[k].iter().any(|&a| a != 0.0))
        })
        .collect();
    for (clip, walk) in clips {
        let mut tracks = Map::new();
        for (k, (b, angles)) in sk.bones.iter().zip(&walk.angles).enumerate() {
            let part_of = walk.keyed.as_ref().map(|m| m[k]);
            let zero = angles.iter().all(|&a| a == 0.0);
            if part_of == Some(false) || (zero && !(part_of == Some(true) && whole_keys[k])) {
                continue;
            }
            keyed[k] = true;
            let keys: Vec<Value> = walk
                .times
                .iter()
                .zip(angles)
                .map(|(t, a)| json!([t, a]))
                .collect();
            tracks.insert(b.name.clone(), Value::Array(keys));
        }
        let mut translations = Map::new();
        if walk.root_dy.iter().any(|&d| d != 0.0) {
            moved = true;
            for b in tree.bones.iter().filter(|b| b.parent.is_none()) {
                let keys: Vec<Value> = walk
                    .times
                    .iter()
                    .zip(&walk.root_dy)
                    .map(|(t, d)| json!([t, 0.0, d]))
                    .collect();
                translations.insert(b.name.clone(), Value::Array(keys));
            }
        }
        let mut c = json!({"duration": walk.duration, "loop": walk.looped, "interpolation": "linear",
            "tracks": Value::Object(tracks)});
        if !translations.is_empty() {
            c["translations"] = Value::Object(translations);
        }
        out.insert(clip.to_string(), c);
    }
    if !out.contains_key("idle") {
        let mut tracks = Map::new();
        for (k, b) in sk.bones.iter().enumerate() {
            if keyed[k] {
                tracks.insert(b.name.clone(), json!([[0.0, 0.0], [1.0, 0.0]]));
            }
        }
        let mut c = json!({"duration": 1.0, "loop": true, "interpolation": "linear",
            "tracks": Value::Object(tracks)});
        if moved {
            let mut translations = Map::new();
            for b in tree.bones.iter().filter(|b| b.parent.is_none()) {
                translations.insert(b.name.clone(), json!([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]));
            }
            c["translations"] = Value::Object(translations);
        }
        out.insert("idle".into(), c);
    }
    Value::Object(out)
}

pub(super) fn push_nums(out: &mut String, v: impl Iterator<Item = f64>) {
    out.push('[');
    for (i, x) in v.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!("{}", x + 0.0));
    }
    out.push(']');
}

/// The `export-riv` model and its `model.json` text, without a JSON tree of
/// the meshes (they are most of the model: the skeleton, textures and clip
/// are validated by [`Model::from_json`], the parts are added as computed).
#[allow(clippy::too_many_arguments)]
pub fn model(
    name: &str,
    sk: &Skeleton,
    sl: &Slicing,
    tree: &Tree,
    m: &Meshed,
    clips: &[(&str, &motion::Walk)],
    pngs: Vec<(String, Vec<u8>)>,
    limits: &Limits,
) -> Result<(Model, Vec<u8>), RigError> {
    let internal = |e: riv::RivError| {
        RigError::new(
            "E_RIG_MODEL",
            format!("internal: the model does not validate: {e}"),
        )
    };
    let head = model_json(name, sk, sl, tree, m, clips, false);
    let mut none = |id: &str, _: &Value| -> Result<(String, Vec<u8>), riv::RivError> {
        Err(riv::RivError::new(
            riv::Code::Texture,
            format!("texture {id}"),
        ))
    };
    // the draw-order keys name parts, which are added below: validated once they are
    let mut bare = head.clone();
    if let Some(Value::Object(cs)) = bare.get_mut("clips") {
        for c in cs.values_mut() {
            if let Value::Object(c) = c {
                c.remove("draw_order");
            }
        }
    }
    let mut model = Model::from_json(&bare, &mut none, limits).map_err(internal)?;
    drop(bare);
    let mut text = serde_json::to_string(&head).unwrap_or_default();
    text.pop(); // the closing brace
    text.push_str(",\"parts\":[");
    let mut first = true;
    for (k, b) in sk.bones.iter().enumerate() {
        if m.meshes[k].verts.is_empty() {
            continue; // a partless bone: no texture, no part
        }
        let Some(place) = &m.pages.placed[k] else {
            continue;
        };
        let id = page_id(place.page);
        let tex = match model
            .textures
            .iter()
            .position(|t| t.id.as_deref() == Some(&id))
        {
            Some(t) => t,
            None => {
                let file = page_name(place.page);
                let png = pngs
                    .iter()
                    .find(|(n, _)| *n == file)
                    .map(|(_, p)| p.clone())
                    .unwrap_or_default();
                let (tw, th) = riv::model::png_header_size(&png).unwrap_or((1, 1));
                model.textures.push(riv::model::Texture {
                    id: Some(id.clone()),
                    name: file.clone(),
                    path: Some(file),
                    png,
                    width: tw,
                    height: th,
                });
                model.textures.len() - 1
            }
        };
        let mesh = &m.meshes[k];
        let uv = m.pages.uv(k, &sl.parts[k], mesh);
        let mut wts = Vec::with_capacity(mesh.verts.len());
        let mut wtext = String::from("[");
        for (i, &v) in mesh.verts.iter().enumerate() {
            let pairs = weights::weights(m.scheme, sk, k, v);
            let mut e = Vec::with_capacity(2);
            if i > 0 {
                wtext.push(',');
            }
            wtext.push('[');
            for (j, &(bone, wt)) in pairs.iter().enumerate() {
                let bi = model.bone_index(&sk.bones[bone].name).ok_or_else(|| {
                    RigError::new(
                        "E_RIG_MODEL",
                        format!("internal: no bone '{}'", sk.bones[bone].name),
                    )
                })?;
                e.push((bi, wt));
                if j > 0 {
                    wtext.push(',');
                }
                wtext.push_str(&format!(
                    "{},{}",
                    Value::String(sk.bones[bone].name.clone()),
                    wt + 0.0
                ));
            }
            wtext.push(']');
            wts.push(e);
        }
        wtext.push(']');
        model.parts.push(riv::model::Part {
            name: b.name.clone(),
            texture: Some(tex),
            depth: b.depth,
            verts: mesh.verts.clone(),
            uv: uv.clone(),
            tris: mesh.tris.clone(),
            weights: wts,
        });
        if !first {
            text.push(',');
        }
        first = false;
        text.push_str(&format!(
            "{{\"name\":{},\"texture\":{},\"depth\":{},\"verts\":",
            Value::String(b.name.clone()),
            Value::String(id),
            b.depth + 0.0
        ));
        push_nums(&mut text, mesh.verts.iter().flat_map(|p| [p[0], p[1]]));
        text.push_str(",\"uv\":");
        push_nums(&mut text, uv.iter().flat_map(|p| [p[0], p[1]]));
        text.push_str(",\"tris\":");
        push_nums(&mut text, mesh.tris.iter().map(|&t| t as f64));
        text.push_str(",\"weights\":");
        text.push_str(&wtext);
        text.push('}');
    }
    text.push_str("]}\n");
    let names: Vec<String> = model.parts.iter().map(|p| p.name.clone()).collect();
    for c in &mut model.clips {
        let keys = head
            .get("clips")
            .and_then(|cs| cs.get(&c.name))
            .and_then(|x| x.get("draw_order"));
        c.draw_order =
            riv::draworder::parse(keys, &format!("clips.{}", c.name), c.duration, &names)
                .map_err(internal)?;
    }
    Ok((model, text.into_bytes()))
}
