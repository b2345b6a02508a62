//! A state machine in the `.riv` (rive-export.md §11): the model's
//! `state_machine` section, validated, and its records.
//!
//! The model JSON (optional):
//!
//! ```json
//! "state_machine": {"name": "sm", "input": "speed",
//!                   "blend": [["idle", 0], ["walk", 1]],
//!                   "triggers": [["jump", "jump"], ["wave", "wave"]],
//!                   "layers": [{"name": "wave", "clip": "wave", "trigger": "wave"}]}
//! ```
//!
//! `layers` (optional; motions by body part over the locomotion layer) are
//! `layers.rs`: each its own layer after `locomotion`, its trigger an input
//! after all the others.
//!
//! One machine, one layer (`locomotion`), and the §11.7 layout (its worked example is this writer's output byte for byte):
//!
//! | state | index | what |
//! |---|---|---|
//! | Entry | 0 | → the blend, unconditional, duration 0 |
//! | Any | 1 | → one-shot `k` when its trigger fires (one transition per trigger) |
//! | Exit | 2 | — |
//! | BlendState1DInput | 3 | the Number input (`speed`, initial 0) over the `blend` clips at their thresholds (finite and strictly ascending in binary32, the type the file stores), Reset flag (536 = 2) |
//! | AnimationState | 4 + k | one-shot `k`'s clip; → the blend at 100 % of the clip (flags 12, exitTime 100) |
//!
//! Inputs: the Number first (input 0), then one Trigger per one-shot
//! (input 1 + k). The artboard's `defaultStateMachineId` is 0. Records go
//! after every clip (§11.4). Clip ids are indices in the model's clip list
//! (ascending names, as written); a machine is written only when every clip
//! is (no `--clip`).
//!
//! Controls (`--control`, for the browser harness's negative checks):
//! `sm-wrongtarget` points the Entry transition and every Any → one-shot
//! transition at the Exit state (speed and triggers then show nothing);
//! `sm-unread` adds a Number input and a Trigger per one-shot after the
//! named inputs, and the blend and the conditions read those instead (the
//! named inputs then drive nothing).

use std::collections::{HashMap, HashSet};

use serde_json::Value as Json;

use super::error::{Code, RivError, err};
use super::keys::{prop, ty};
use super::model::Clip;
use super::write::{RivObject, Value};

/// The validated `state_machine` section.
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    /// Machine name (default `sm`).
    pub name: String,
    /// The Number input of the blend (default `speed`).
    pub input: String,
    /// Blend clips (indices in the clip list) and thresholds, ascending.
    pub blend: Vec<(usize, f64)>,
    /// One-shot clips (indices) and their trigger names.
    pub triggers: Vec<(usize, String)>,
    /// Layers over the locomotion layer (motions by body part, `layers.rs`).
    pub layers: Vec<super::layers::Layer>,
}

/// How the writer breaks a machine for a negative control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Broken {
    /// The Entry and Any → one-shot transitions point at the Exit state.
    WrongTarget,
    /// The blend and the trigger conditions read extra inputs.
    Unread,
}

fn bad<T>(msg: impl Into<String>) -> Result<T, RivError> {
    err(Code::ModelJson, format!("state_machine: {}", msg.into()))
}

/// Parses the section against the (sorted) clip list; `None` when absent.
pub fn parse(v: Option<&Json>, clips: &[Clip]) -> Result<Option<Machine>, RivError> {
    let Some(v) = v.filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    let Json::Object(m) = v else {
        return bad("is not an object");
    };
    let text = |k: &str, d: &str| -> Result<String, RivError> {
        match m.get(k) {
            None | Some(Json::Null) => Ok(d.to_string()),
            Some(Json::String(s)) if !s.is_empty() => Ok(s.clone()),
            Some(_) => bad(format!("{k} is not a non-empty string")),
        }
    };
    let name = text("name", "sm")?;
    let input = text("input", "speed")?;
    // one pass over the clips, then one lookup per entry: linear in the
    // entries (issue 45: a list search per entry was quadratic)
    let mut by_name: HashMap<&str, usize> = HashMap::with_capacity(clips.len());
    for (i, c) in clips.iter().enumerate() {
        by_name.entry(c.name.as_str()).or_insert(i);
    }
    let clip = |n: &Json, at: &str| -> Result<usize, RivError> {
        let Json::String(n) = n else {
            return bad(format!("{at}: the clip is not a string"));
        };
        match by_name.get(n.as_str()) {
            Some(&i) => Ok(i),
            None => bad(format!("{at}: no clip '{n}'")),
        }
    };
    let list = |k: &str| -> Result<&[Json], RivError> {
        match m.get(k) {
            None | Some(Json::Null) => Ok(&[]),
            Some(Json::Array(a)) => Ok(a.as_slice()),
            Some(_) => bad(format!("{k} is not an array")),
        }
    };
    let mut blend = Vec::new();
    for (i, e) in list("blend")?.iter().enumerate() {
        let at = format!("blend[{i}]");
        let Some([c, t]) = e.as_array().map(Vec::as_slice) else {
            return bad(format!("{at} is not a [clip, threshold] pair"));
        };
        let t = threshold(t, &at)?;
        if let Some(&(_, p)) = blend.last()
            && t as f32 <= p as f32
        {
            return bad(format!(
                "{at}: threshold {t:?} does not increase in binary32 over {p:?} (the .riv stores f32; the runtime never sorts them)"
            ));
        }
        blend.push((clip(c, &at)?, t));
    }
    if blend.is_empty() {
        return bad("blend needs at least one clip");
    }
    let mut triggers: Vec<(usize, String)> = Vec::new();
    let mut names: HashSet<&str> = HashSet::new();
    names.insert(input.as_str());
    for (i, e) in list("triggers")?.iter().enumerate() {
        let at = format!("triggers[{i}]");
        let Some([c, n]) = e.as_array().map(Vec::as_slice) else {
            return bad(format!("{at} is not a [clip, trigger] pair"));
        };
        let Some(n) = n.as_str().filter(|n| !n.is_empty()) else {
            return bad(format!("{at}: the trigger name is not a non-empty string"));
        };
        if !names.insert(n) {
            return bad(format!("{at}: input name '{n}' is used twice"));
        }
        triggers.push((clip(c, &at)?, n.to_string()));
    }
    let mut inputs: Vec<String> = vec![input.clone()];
    inputs.extend(triggers.iter().map(|(_, t)| t.clone()));
    let used: Vec<usize> = blend
        .iter()
        .map(|b| b.0)
        .chain(triggers.iter().map(|t| t.0))
        .collect();
    let layers = super::layers::parse(m.get("layers"), clips, &inputs, &used)?;
    Ok(Some(Machine {
        name,
        input,
        blend,
        triggers,
        layers,
    }))
}

/// A blend threshold: a number that is finite in binary32, the type the
/// `.riv` stores it as (`1e39` or `±1e308` would be written as ±inf).
fn threshold(t: &Json, at: &str) -> Result<f64, RivError> {
    match t.as_f64() {
        Some(v) if v.is_finite() && (v as f32).is_finite() => Ok(v),
        Some(v) if v.is_finite() => bad(format!(
            "{at}: threshold {v:?} is beyond binary32 (the .riv would hold an infinity)"
        )),
        _ => bad(format!("{at}: the threshold is not a finite number")),
    }
}

/// The machine's records (§11.4 order), appended to `out`; `clips` are the
/// model's (a layer's looping clip is switched by its trigger).
pub fn records(m: &Machine, clips: &[Clip], broken: Option<Broken>, out: &mut Vec<RivObject>) {
    let trans = |to: u64, flags: u64, exit: u64| {
        RivObject::new(ty::STATE_TRANSITION)
            .with(prop::STATE_TO_ID, Value::Uint(to))
            .with(prop::TRANSITION_FLAGS, Value::Uint(flags))
            .with(prop::TRANSITION_DURATION, Value::Uint(0))
            .with(prop::EXIT_TIME, Value::Uint(exit))
    };
    const BLEND: u64 = 3;
    const EXIT: u64 = 2;
    let n = m.triggers.len() as u64;
    out.push(
        RivObject::new(ty::STATE_MACHINE).with(prop::ANIMATION_NAME, Value::Str(m.name.clone())),
    );
    out.push(
        RivObject::new(ty::SM_NUMBER)
            .with(prop::SM_NAME, Value::Str(m.input.clone()))
            .with(prop::SM_NUMBER_VALUE, Value::double(0.0)),
    );
    for (_, t) in &m.triggers {
        out.push(RivObject::new(ty::SM_TRIGGER).with(prop::SM_NAME, Value::Str(t.clone())));
    }
    if broken == Some(Broken::Unread) {
        out.push(
            RivObject::new(ty::SM_NUMBER)
                .with(prop::SM_NAME, Value::Str(format!("{}-unread", m.input)))
                .with(prop::SM_NUMBER_VALUE, Value::double(0.0)),
        );
        for (_, t) in &m.triggers {
            out.push(
                RivObject::new(ty::SM_TRIGGER)
                    .with(prop::SM_NAME, Value::Str(format!("{t}-unread"))),
            );
        }
    }
    // the layers' triggers come after every other input (so the ids above stay)
    let first_layer_input = out
        .iter()
        .rev()
        .take_while(|r| r.type_key != ty::STATE_MACHINE)
        .count() as u64;
    super::layers::input_records(&m.layers, out);
    out.push(RivObject::new(ty::SM_LAYER).with(prop::SM_NAME, Value::Str("locomotion".into())));
    let wrong = broken == Some(Broken::WrongTarget);
    let unread = broken == Some(Broken::Unread);
    out.push(RivObject::new(ty::ENTRY_STATE));
    out.push(trans(if wrong { EXIT } else { BLEND }, 0, 0));
    out.push(RivObject::new(ty::ANY_STATE));
    for k in 0..n {
        let to = if wrong { EXIT } else { 4 + k };
        out.push(trans(to, 0, 0));
        let input = if unread { 2 + n + k } else { 1 + k };
        out.push(
            RivObject::new(ty::TRIGGER_CONDITION)
                .with(prop::CONDITION_INPUT_ID, Value::Uint(input)),
        );
    }
    out.push(RivObject::new(ty::EXIT_STATE));
    out.push(
        RivObject::new(ty::BLEND_STATE_1D)
            .with(
                prop::BLEND_INPUT_ID,
                Value::Uint(if unread { 1 + n } else { 0 }),
            )
            .with(prop::LAYER_STATE_FLAGS, Value::Uint(2)),
    );
    for &(c, t) in &m.blend {
        out.push(
            RivObject::new(ty::BLEND_ANIMATION_1D)
                .with(prop::BLEND_ANIMATION_ID, Value::Uint(c as u64))
                .with(prop::BLEND_VALUE, Value::double(t)),
        );
    }
    for (c, _) in &m.triggers {
        out.push(
            RivObject::new(ty::ANIMATION_STATE)
                .with(prop::ANIMATION_STATE_ANIMATION_ID, Value::Uint(*c as u64)),
        );
        // back to the blend when the one-shot ends: exit time on, in percent, 100 %
        out.push(trans(BLEND, 12, 100));
    }
    super::layers::layer_records(&m.layers, clips, first_layer_input, out);
}
