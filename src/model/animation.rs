// re2d — `validateRotAnimations` and `sampleRotClip` (spec: js-rotsprite.md §3.4, §3.5).
//
//! Clips hold tracks of keyed values: bone channels (`rotation.x`, …,
//! `translation.z`, linear or step) and face tracks (`eyes`, `mouth`,
//! `brows`, always step).

use std::collections::HashSet;

use indexmap::IndexMap;
use serde_json::Value;

use super::definition::Definition;
use super::js::{entries, finite, name, present, prop, to_js_string, truthy};
use super::{ModelError, face_states};

/// A keyed value: a number for bone channels, a state name for face tracks.
#[derive(Clone, Debug, PartialEq)]
pub enum KeyValue {
    /// Bone channel value.
    Number(f64),
    /// Face state.
    State(String),
}

/// One track of a clip.
#[derive(Clone, Debug, PartialEq)]
pub struct Track {
    /// Bone name, or `face`.
    pub target: String,
    /// Channel (`rotation.x`… or `eyes`/`mouth`/`brows`), as a string.
    pub channel: String,
    /// Interpolate linearly (otherwise step).
    pub linear: bool,
    /// Keys: strictly increasing times within `[0, duration]`.
    pub keys: Vec<(f64, KeyValue)>,
}

/// A clip.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    /// Duration in seconds (> 0).
    pub duration: f64,
    /// Loops (time mod duration) or clamps.
    pub looped: bool,
    /// Tracks in order.
    pub tracks: Vec<Track>,
}

/// A validated animation set: clips in key order plus the normalised JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct Animations {
    /// Clips by name, in order.
    pub clips: IndexMap<String, Clip>,
    /// The normalised JSON.
    pub json: Value,
}

fn t(msg: impl Into<String>) -> ModelError {
    ModelError::type_(msg)
}

/// `validateRotAnimations(source, definition)` on the JSON clone (§3.4).
pub fn validate_animations(mut a: Value, def: &Definition) -> Result<Animations, ModelError> {
    let bones: HashSet<&str> = def.bones.iter().map(|b| b.name.as_str()).collect();
    if !truthy(Some(&a)) || prop(&a, "version").and_then(Value::as_f64) != Some(1.0) {
        return Err(t("animations: version must be 1"));
    }
    let clip_count = match prop(&a, "clips") {
        Some(Value::Object(o)) => o.len(),
        _ => return Err(t("animations.clips must be an object")),
    };
    if clip_count > 64 {
        return Err(t("animations: at most 64 clips"));
    }
    let mut clips = IndexMap::new();
    let clip_entries = entries(&a["clips"]);
    for (key, c) in clip_entries {
        name(Some(&Value::String(key.clone())), "clip name")?;
        let label = format!("clips.{key}");
        if c.is_null() {
            // `c.duration` on null throws a TypeError before `finite` runs.
            return Err(t(format!("{label} must be an object")));
        }
        let duration = finite(prop(&c, "duration"), &format!("{label}.duration"))?;
        if duration <= 0.0 {
            return Err(t(format!("{label}.duration must be positive")));
        }
        let looped = match prop(&c, "loop") {
            Some(Value::Bool(b)) => *b,
            _ => return Err(t(format!("{label}.loop must be a boolean"))),
        };
        let tracks_v = match prop(&c, "tracks") {
            Some(Value::Array(ts)) if ts.len() <= 256 => ts.clone(),
            Some(Value::Array(_)) => return Err(t(format!("{label}: at most 256 tracks"))),
            _ => return Err(t(format!("{label}.tracks must be an array"))),
        };
        let mut used = HashSet::new();
        let mut tracks = Vec::new();
        let mut norm_tracks = Vec::new();
        for (i, mut tr) in tracks_v.into_iter().enumerate() {
            let tl = format!("{label}.tracks[{i}]");
            if tr.is_null() {
                return Err(t(format!("{tl} must be an object")));
            }
            let target_v = prop(&tr, "target").cloned().unwrap_or(Value::Null);
            let face = target_v == Value::String("face".into());
            let channel_v = prop(&tr, "channel").cloned().unwrap_or(Value::Null);
            let channel = to_js_string(&channel_v);
            let target = if face {
                if prop(&tr, "channel").is_none() || face_states(&channel).is_none() {
                    return Err(t(format!("{tl}.channel must be eyes, mouth or brows")));
                }
                "face".to_string()
            } else {
                let tg = target_v.as_str().filter(|s| bones.contains(*s));
                let tg = tg.ok_or_else(|| t(format!("{tl}.target must be a bone or 'face'")))?;
                let ok = prop(&tr, "channel").is_some() && {
                    let (kind, axis) = channel.split_once('.').unwrap_or(("", ""));
                    matches!(kind, "rotation" | "translation") && matches!(axis, "x" | "y" | "z")
                };
                if !ok {
                    return Err(t(format!(
                        "{tl}.channel must be rotation.x|y|z or translation.x|y|z"
                    )));
                }
                tg.to_string()
            };
            if !used.insert(format!("{}:{channel}", to_js_string(&target_v))) {
                return Err(t(format!("{tl}: duplicate {target}:{channel}")));
            }
            let interp = match present(prop(&tr, "interpolation")) {
                Some(v) => v.clone(),
                None => Value::String(if face { "step" } else { "linear" }.into()),
            };
            let linear = match interp.as_str() {
                Some("linear") if !face => true,
                Some("step") => false,
                _ => {
                    return Err(t(format!(
                        "{tl}.interpolation must be linear|step (face: step)"
                    )));
                }
            };
            let keys_v = match prop(&tr, "keys") {
                Some(Value::Array(k)) if !k.is_empty() && k.len() <= 1024 => k.clone(),
                _ => return Err(t(format!("{tl}.keys must be an array of 1..1024 keys"))),
            };
            let mut keys = Vec::new();
            let mut prev = -1.0;
            for (j, k) in keys_v.iter().enumerate() {
                let kl = format!("{tl}.keys[{j}]");
                let pair = k
                    .as_array()
                    .filter(|p| p.len() == 2)
                    .ok_or_else(|| t(format!("{kl} must be [time, value]")))?;
                let time = finite(Some(&pair[0]), &format!("{kl}[0]"))?;
                if time < 0.0 || time > duration || time <= prev {
                    return Err(ModelError::range(format!(
                        "{kl}: times must increase within [0, duration]"
                    )));
                }
                prev = time;
                let value = if face {
                    let states = face_states(&channel).expect("checked");
                    match pair[1].as_str() {
                        Some(s) if states.contains(&s) => KeyValue::State(s.to_string()),
                        _ => return Err(t(format!("{kl}[1] is not a {channel} state"))),
                    }
                } else {
                    KeyValue::Number(finite(Some(&pair[1]), &format!("{kl}[1]"))?)
                };
                keys.push((time, value));
            }
            if let Some(o) = tr.as_object_mut() {
                o.insert("interpolation".into(), interp);
            }
            norm_tracks.push(tr);
            tracks.push(Track {
                target,
                channel,
                linear,
                keys,
            });
        }
        if let Some(o) = a["clips"][&key].as_object_mut() {
            o.insert("tracks".into(), Value::Array(norm_tracks));
        }
        clips.insert(
            key,
            Clip {
                duration,
                looped,
                tracks,
            },
        );
    }
    Ok(Animations { clips, json: a })
}

/// A sampled clip: bone channel values, face states, the effective time and
/// whether a one-shot clip has ended.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sample {
    /// Bone → channel → value.
    pub bones: IndexMap<String, IndexMap<String, f64>>,
    /// Face component → state.
    pub face: IndexMap<String, String>,
    /// Effective clip time.
    pub time: f64,
    /// A one-shot clip was sampled at or after its end.
    pub ended: bool,
}

/// `sampleRotClip(clip, time)` (§3.5).
pub fn sample_clip(clip: &Clip, time: f64) -> Result<Sample, ModelError> {
    if !time.is_finite() || time.abs() > 1e6 {
        return Err(ModelError::range(
            "time must be a finite number with |v| <= 1e6",
        ));
    }
    if time < 0.0 {
        return Err(ModelError::range("time must not be negative"));
    }
    let t = if clip.looped {
        time % clip.duration
    } else {
        time.min(clip.duration)
    };
    let mut s = Sample {
        time: t,
        ended: !clip.looped && time >= clip.duration,
        ..Default::default()
    };
    for track in &clip.tracks {
        let k = &track.keys;
        let mut value = k[0].1.clone();
        for i in 0..k.len() {
            if t < k[i].0 {
                break;
            }
            value = k[i].1.clone();
            if i + 1 < k.len() && t < k[i + 1].0 {
                if track.linear
                    && let (KeyValue::Number(v), KeyValue::Number(n)) = (&value, &k[i + 1].1)
                {
                    value = KeyValue::Number(v + (n - v) * (t - k[i].0) / (k[i + 1].0 - k[i].0));
                }
                break;
            }
        }
        match value {
            KeyValue::State(st) => {
                s.face.insert(track.channel.clone(), st);
            }
            KeyValue::Number(x) => {
                s.bones
                    .entry(track.target.clone())
                    .or_default()
                    .insert(track.channel.clone(), x);
            }
        }
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ErrorClass, validate_definition};
    use serde_json::json;

    fn def() -> Definition {
        validate_definition(json!({
            "version": 1, "atlas": "a.png",
            "rig": {"bones": [{"name": "root"}, {"name": "arm", "parent": "root"}], "parts": [{"id": 1, "bone": "root"}]}
        }))
        .unwrap()
    }

    fn anims() -> Value {
        json!({"version": 1, "clips": {
            "walk": {"duration": 2, "loop": true, "tracks": [
                {"target": "arm", "channel": "rotation.z", "keys": [[0, 0], [1, 10], [2, 0]]},
                {"target": "face", "channel": "eyes", "keys": [[0, "open"], [1.5, "closed"]]}
            ]},
            "wave": {"duration": 1, "loop": false, "tracks": [
                {"target": "arm", "channel": "translation.y", "interpolation": "step", "keys": [[0.25, 1], [0.5, 2]]}
            ]}
        }})
    }

    #[test]
    fn sampling_interpolates_loops_and_clamps() {
        let a = validate_animations(anims(), &def()).unwrap();
        assert_eq!(
            a.json["clips"]["walk"]["tracks"][0]["interpolation"],
            json!("linear")
        );
        assert_eq!(
            a.json["clips"]["walk"]["tracks"][1]["interpolation"],
            json!("step")
        );
        let walk = &a.clips["walk"];
        let s = sample_clip(walk, 0.5).unwrap();
        assert_eq!(s.bones["arm"]["rotation.z"], 5.0);
        assert_eq!(s.face["eyes"], "open");
        let s = sample_clip(walk, 3.5).unwrap();
        assert_eq!(
            (
                s.time,
                s.bones["arm"]["rotation.z"],
                s.face["eyes"].as_str()
            ),
            (1.5, 5.0, "closed")
        );
        assert!(!s.ended);
        let wave = &a.clips["wave"];
        assert_eq!(
            sample_clip(wave, 0.1).unwrap().bones["arm"]["translation.y"],
            1.0
        );
        assert_eq!(
            sample_clip(wave, 0.4).unwrap().bones["arm"]["translation.y"],
            1.0
        );
        let end = sample_clip(wave, 5.0).unwrap();
        assert_eq!(
            (end.time, end.ended, end.bones["arm"]["translation.y"]),
            (1.0, true, 2.0)
        );
        assert_eq!(
            sample_clip(wave, -1.0).unwrap_err().class,
            ErrorClass::Range
        );
    }

    #[test]
    fn animation_rejections() {
        use ErrorClass::*;
        let d = def();
        let class = |f: &dyn Fn(&mut Value)| {
            let mut v = anims();
            f(&mut v);
            validate_animations(v, &d).unwrap_err().class
        };
        assert_eq!(class(&|v| v["clips"]["walk"]["duration"] = json!(0)), Type);
        // `null.duration` throws a TypeError; `(5).duration` is undefined → RangeError.
        assert_eq!(class(&|v| v["clips"]["walk"] = json!(null)), Type);
        assert_eq!(class(&|v| v["clips"]["walk"] = json!(5)), Range);
        assert_eq!(
            class(&|v| v["clips"]["walk"]["duration"] = json!("2")),
            Range
        );
        assert_eq!(class(&|v| v["clips"]["walk"]["loop"] = json!(1)), Type);
        assert_eq!(
            class(&|v| v["clips"]["walk"]["tracks"][0]["target"] = json!("leg")),
            Type
        );
        assert_eq!(
            class(&|v| v["clips"]["walk"]["tracks"][0]["channel"] = json!("scale.x")),
            Type
        );
        assert_eq!(
            class(&|v| v["clips"]["walk"]["tracks"][1]["interpolation"] = json!("linear")),
            Type
        );
        assert_eq!(
            class(&|v| v["clips"]["walk"]["tracks"][1]["keys"][1][1] = json!("wide")),
            Type
        );
        assert_eq!(
            class(&|v| v["clips"]["walk"]["tracks"][0]["keys"][1][0] = json!(0)),
            Range
        );
        assert_eq!(
            class(&|v| v["clips"]["walk"]["tracks"][0]["keys"][2][0] = json!(3)),
            Range
        );
        assert_eq!(class(&|v| v["clips"] = json!([])), Type);
        let dup = |v: &mut Value| {
            let t0 = v["clips"]["walk"]["tracks"][0].clone();
            v["clips"]["walk"]["tracks"]
                .as_array_mut()
                .unwrap()
                .push(t0);
        };
        assert_eq!(class(&dup), Type);
        // A one-element array channel passes and collides with the string form.
        let arr = |v: &mut Value| {
            let mut t0 = v["clips"]["walk"]["tracks"][0].clone();
            t0["channel"] = json!(["rotation.z"]);
            v["clips"]["walk"]["tracks"]
                .as_array_mut()
                .unwrap()
                .push(t0);
        };
        assert_eq!(class(&arr), Type);
    }
}
