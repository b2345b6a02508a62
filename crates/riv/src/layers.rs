//! Motions by body part (issue 47): state-machine layers over the
//! locomotion layer (rive-export.md §11.4: layers apply in stream order, a
//! later layer overrides an earlier one on a property both key).
//!
//! The model JSON, inside `state_machine` (optional):
//!
//! ```json
//! "layers": [{"name": "wave", "clip": "wave", "trigger": "wave"}]
//! ```
//!
//! A layer's clip keys only the bones of its body part (its `tracks`, and a
//! root translation only when the root is one of them), so the layer moves
//! those bones and leaves the others to the layers before it: the wave over
//! the walk waves the arms of a walking body. Rules (validated by
//! [`parse`], `E_MODEL_JSON`): `name` non-empty, not `locomotion` and unique;
//! `clip` one of the model's clips, in no other layer, not in the blend and
//! not a trigger of the locomotion layer; `trigger` a non-empty input name
//! used by no other input. A one-shot clip plays once from its start when
//! the trigger fires and the layer then lets go; a looping clip is switched
//! on and off by its trigger.
//!
//! Records of one layer (after the locomotion layer; its trigger is an
//! input after the machine's other inputs):
//!
//! | state | index | what |
//! |---|---|---|
//! | Entry | 0 | → Exit, unconditional: the layer starts applying nothing |
//! | Any | 1 | → the clip's state when the trigger fires (skipped while it plays: a transition to the current state is never taken) |
//! | Exit | 2 | applies nothing: the bones keep what the layers before set |
//! | AnimationState | 3 | the clip; → Exit at 100 % of a one-shot clip (flags 12, exitTime 100), or when the trigger fires again for a looping one |
//!
//! The reference renderer mixes the same way ([`crate::reference::pose_layers`]:
//! the walk at `t`, then the wave at `t − t_fire` over it).
//!
//! Control `layer-all` (the export's `--control`): every layer's clip also
//! keys every bone (and root) the model's other clips key, held at its rest
//! value — the layer keyed on all bones, which then stops the walk under it.

use serde_json::Value as Json;

use super::error::{Code, RivError, err};
use super::keys::{prop, ty};
use super::model::{Clip, Model, Track, Translation};
use super::write::{RivObject, Value};

/// One layer over the locomotion layer.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// Layer name.
    pub name: String,
    /// Its clip (index in the model's clip list).
    pub clip: usize,
    /// Its trigger input.
    pub trigger: String,
}

fn bad<T>(msg: impl Into<String>) -> Result<T, RivError> {
    err(
        Code::ModelJson,
        format!("state_machine: layers: {}", msg.into()),
    )
}

/// Parses `state_machine.layers` against the clip list; `taken` holds the
/// input names and clips already used by the locomotion layer.
pub fn parse(
    v: Option<&Json>,
    clips: &[Clip],
    taken_inputs: &[String],
    taken_clips: &[usize],
) -> Result<Vec<Layer>, RivError> {
    let list = match v {
        None | Some(Json::Null) => return Ok(Vec::new()),
        Some(Json::Array(a)) => a,
        Some(_) => return bad("is not an array"),
    };
    let mut out: Vec<Layer> = Vec::with_capacity(list.len());
    for (i, e) in list.iter().enumerate() {
        let at = format!("[{i}]");
        let Json::Object(m) = e else {
            return bad(format!("{at} is not an object"));
        };
        let text = |k: &str| -> Result<String, RivError> {
            match m.get(k) {
                Some(Json::String(s)) if !s.is_empty() => Ok(s.clone()),
                _ => bad(format!("{at}.{k} is not a non-empty string")),
            }
        };
        let name = text("name")?;
        if name == "locomotion" || out.iter().any(|l| l.name == name) {
            return bad(format!("{at}: the layer name '{name}' is used twice"));
        }
        let cn = text("clip")?;
        let Some(clip) = clips.iter().position(|c| c.name == cn) else {
            return bad(format!("{at}: no clip '{cn}'"));
        };
        if taken_clips.contains(&clip) || out.iter().any(|l| l.clip == clip) {
            return bad(format!(
                "{at}: the clip '{cn}' already plays in another layer or the blend"
            ));
        }
        let trigger = text("trigger")?;
        if taken_inputs.contains(&trigger) || out.iter().any(|l| l.trigger == trigger) {
            return bad(format!("{at}: input name '{trigger}' is used twice"));
        }
        for k in m.keys() {
            if !["name", "clip", "trigger"].contains(&k.as_str()) {
                return bad(format!("{at}: unknown field '{k}' (name, clip, trigger)"));
            }
        }
        out.push(Layer {
            name,
            clip,
            trigger,
        });
    }
    Ok(out)
}

/// The trigger inputs of the layers, appended to the machine's inputs.
pub fn input_records(layers: &[Layer], out: &mut Vec<RivObject>) {
    for l in layers {
        out.push(RivObject::new(ty::SM_TRIGGER).with(prop::SM_NAME, Value::Str(l.trigger.clone())));
    }
}

/// Each layer's records (the table of the module doc); `first_input` is the
/// input index of the first layer's trigger.
pub fn layer_records(layers: &[Layer], clips: &[Clip], first_input: u64, out: &mut Vec<RivObject>) {
    const EXIT: u64 = 2;
    const CLIP: u64 = 3;
    let trans = |to: u64, flags: u64, exit: u64| {
        RivObject::new(ty::STATE_TRANSITION)
            .with(prop::STATE_TO_ID, Value::Uint(to))
            .with(prop::TRANSITION_FLAGS, Value::Uint(flags))
            .with(prop::TRANSITION_DURATION, Value::Uint(0))
            .with(prop::EXIT_TIME, Value::Uint(exit))
    };
    let fired = |input: u64| {
        RivObject::new(ty::TRIGGER_CONDITION).with(prop::CONDITION_INPUT_ID, Value::Uint(input))
    };
    for (j, l) in layers.iter().enumerate() {
        let input = first_input + j as u64;
        out.push(RivObject::new(ty::SM_LAYER).with(prop::SM_NAME, Value::Str(l.name.clone())));
        out.push(RivObject::new(ty::ENTRY_STATE));
        out.push(trans(EXIT, 0, 0));
        out.push(RivObject::new(ty::ANY_STATE));
        out.push(trans(CLIP, 0, 0));
        out.push(fired(input));
        out.push(RivObject::new(ty::EXIT_STATE));
        out.push(RivObject::new(ty::ANIMATION_STATE).with(
            prop::ANIMATION_STATE_ANIMATION_ID,
            Value::Uint(l.clip as u64),
        ));
        if clips.get(l.clip).is_some_and(|c| c.looping) {
            // a looping clip: the trigger switches it off again
            out.push(trans(EXIT, 0, 0));
            out.push(fired(input));
        } else {
            // a one-shot: back to nothing when it ends
            out.push(trans(EXIT, 12, 100));
        }
    }
}

/// The `layer-all` control's model: every layer's clip also keys every bone
/// and root the other clips key, held at its rest value.
pub fn keyed_on_all(model: &Model) -> Model {
    let mut m = model.clone();
    let Some(machine) = &model.machine else {
        return m;
    };
    let layer_clips: Vec<usize> = machine.layers.iter().map(|l| l.clip).collect();
    let mut bones: Vec<usize> = Vec::new();
    let mut roots: Vec<usize> = Vec::new();
    for (i, c) in model.clips.iter().enumerate() {
        if layer_clips.contains(&i) {
            continue;
        }
        bones.extend(c.tracks.iter().map(|t| t.bone));
        roots.extend(c.translations.iter().map(|t| t.bone));
    }
    for &ci in &layer_clips {
        let c = &mut m.clips[ci];
        let d = c.duration;
        for &b in &bones {
            if !c.tracks.iter().any(|t| t.bone == b) {
                c.tracks.push(Track {
                    bone: b,
                    keys: vec![(0.0, 0.0), (d, 0.0)],
                });
            }
        }
        for &b in &roots {
            if !c.translations.iter().any(|t| t.bone == b) {
                c.translations.push(Translation {
                    bone: b,
                    keys: vec![(0.0, 0.0, 0.0), (d, 0.0, 0.0)],
                });
            }
        }
        c.tracks.sort_by_key(|t| t.bone);
        c.translations.sort_by_key(|t| t.bone);
    }
    m
}
