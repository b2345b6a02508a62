//! What a `.riv` holds beyond its parts and clips, for `re2d riv check`'s listing (issue 42
//! item 6): the state machines (inputs, layers, states with their clips, blends and
//! transitions) and the draw rules (the governed Image, its targets, the clips that key it).
//! Read from the decoded records only; [`super::check`] says whether they are valid.

use super::read::{Field, Record, RivFile};

/// A state-machine input.
#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    /// Name (138).
    pub name: String,
    /// `Number`, `Trigger` or `Bool`.
    pub kind: &'static str,
    /// Initial value (Number: 140, Bool: 141 as 0/1).
    pub value: Option<f64>,
}

/// A transition out of a state.
#[derive(Clone, Debug, PartialEq)]
pub struct Transition {
    /// Index of the state it goes to (151).
    pub to: u64,
    /// Exit time (160) when enabled (flags bit 2), with `%` when in percent (bit 3).
    pub exit: Option<String>,
    /// Its conditions, as `input`, `input op value`.
    pub conditions: Vec<String>,
}

/// A state of a layer.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// `Entry`, `Any`, `Exit`, `Animation`, `Blend1D`, `BlendDirect`.
    pub kind: &'static str,
    /// The clip of an AnimationState.
    pub clip: Option<String>,
    /// A 1-D blend's Number input.
    pub input: Option<String>,
    /// A blend's clips and thresholds (or mix values).
    pub blend: Vec<(String, f64)>,
    /// Outgoing transitions, in priority order.
    pub transitions: Vec<Transition>,
}

/// A layer of a machine.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// Name (138).
    pub name: String,
    /// States in index order.
    pub states: Vec<State>,
}

/// A state machine.
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    /// Name (55).
    pub name: String,
    /// Inputs in index order.
    pub inputs: Vec<Input>,
    /// Layers in stream order.
    pub layers: Vec<Layer>,
}

/// A DrawRules and its targets.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    /// The governed Image's name.
    pub image: String,
    /// Its DrawTargets: the target Image's name and `before` (on top of it) or `after`.
    pub targets: Vec<(String, &'static str)>,
    /// The clips with draw-order keys on it, and how many keys each.
    pub keyed: Vec<(String, usize)>,
}

/// The listing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Contents {
    /// State machines in stream order.
    pub machines: Vec<Machine>,
    /// Draw rules in stream order.
    pub rules: Vec<Rules>,
}

fn text(r: &Record, key: u64) -> String {
    r.blob(key)
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .unwrap_or_default()
}

const COMPONENTS: [u64; 10] = [41, 40, 100, 109, 108, 43, 44, 45, 49, 48];

/// Lists the machines and draw rules of `f` (what it cannot resolve is left out or named
/// by its index).
pub fn contents(f: &RivFile) -> Contents {
    let recs = &f.records;
    let mut out = Contents::default();
    let Some(ab) = recs.iter().position(|r| r.type_key == 1) else {
        return out;
    };
    let mut comps: Vec<&Record> = vec![&recs[ab]];
    let mut j = ab + 1;
    while j < recs.len() && COMPONENTS.contains(&recs[j].type_key) {
        comps.push(&recs[j]);
        j += 1;
    }
    let name_of = |k: u64| -> String {
        comps
            .get(k as usize)
            .map_or_else(|| format!("#{k}"), |r| text(r, 4))
    };
    let rule_index: Vec<usize> = (0..comps.len())
        .filter(|&k| comps[k].type_key == 49)
        .collect();
    for &k in &rule_index {
        let targets = comps
            .iter()
            .filter(|t| t.type_key == 48 && t.uint(5) == Some(k as u64))
            .map(|t| {
                (
                    t.uint(119).map_or_else(String::new, name_of),
                    if t.uint(120) == Some(0) {
                        "before"
                    } else {
                        "after"
                    },
                )
            })
            .collect();
        out.rules.push(Rules {
            image: comps[k].uint(5).map_or_else(String::new, name_of),
            targets,
            keyed: Vec::new(),
        });
    }
    // clips (names in order) and the draw-order keys per DrawRules
    let mut clips: Vec<String> = Vec::new();
    let mut object: Option<usize> = None;
    let mut machine_at = recs.len();
    for (i, r) in recs.iter().enumerate().skip(j) {
        match r.type_key {
            31 => {
                clips.push(text(r, 55));
                object = None;
            }
            25 => {
                object = r
                    .uint(51)
                    .and_then(|o| rule_index.iter().position(|&k| k as u64 == o))
            }
            50 => {
                if let (Some(o), Some(c)) = (object, clips.last()) {
                    let keyed = &mut out.rules[o].keyed;
                    match keyed.last_mut() {
                        Some((n, k)) if n == c => *k += 1,
                        _ => keyed.push((c.clone(), 1)),
                    }
                }
            }
            53 => {
                machine_at = i;
                break;
            }
            _ => {}
        }
    }
    out.machines = machines(&recs[machine_at..], &clips);
    out
}

/// The machines of the records from the first StateMachine on.
fn machines(recs: &[Record], clips: &[String]) -> Vec<Machine> {
    let clip = |i: Option<u64>| -> String {
        i.and_then(|i| clips.get(i as usize).cloned())
            .unwrap_or_else(|| format!("#{}", i.map_or(-1, |i| i as i64)))
    };
    let mut out: Vec<Machine> = Vec::new();
    for r in recs {
        let t = r.type_key;
        if t == 53 {
            out.push(Machine {
                name: text(r, 55),
                inputs: Vec::new(),
                layers: Vec::new(),
            });
            continue;
        }
        let Some(m) = out.last_mut() else { continue };
        let input_name = |i: Option<u64>| -> String {
            i.and_then(|i| m.inputs.get(i as usize).map(|x| x.name.clone()))
                .unwrap_or_else(|| format!("input #{}", i.map_or(-1, |i| i as i64)))
        };
        match t {
            56 | 58 | 59 => {
                let value = match (t, r.field(140), r.field(141)) {
                    (56, Some(Field::Float(v)), _) => Some(*v as f64),
                    (59, _, Some(Field::Uint(v))) => Some(*v as f64),
                    _ => None,
                };
                m.inputs.push(Input {
                    name: text(r, 138),
                    kind: match t {
                        56 => "Number",
                        58 => "Trigger",
                        _ => "Bool",
                    },
                    value,
                });
            }
            57 => m.layers.push(Layer {
                name: text(r, 138),
                states: Vec::new(),
            }),
            63 | 62 | 64 | 61 | 76 | 73 => {
                let state = State {
                    kind: match t {
                        63 => "Entry",
                        62 => "Any",
                        64 => "Exit",
                        61 => "Animation",
                        76 => "Blend1D",
                        _ => "BlendDirect",
                    },
                    clip: (t == 61).then(|| clip(r.uint(149))),
                    input: (t == 76).then(|| input_name(r.uint(167))),
                    blend: Vec::new(),
                    transitions: Vec::new(),
                };
                if let Some(l) = m.layers.last_mut() {
                    l.states.push(state);
                }
            }
            75 | 77 => {
                let value = if t == 75 {
                    r.float(166).unwrap_or(0.0) as f64
                } else {
                    r.float(297).unwrap_or(0.0) as f64
                };
                if let Some(s) = m.layers.last_mut().and_then(|l| l.states.last_mut()) {
                    s.blend.push((clip(r.uint(165)), value));
                }
            }
            65 | 78 => {
                let flags = r.uint(152).unwrap_or(0);
                let exit = (flags & 4 != 0).then(|| {
                    let e = r.uint(160).unwrap_or(0);
                    if flags & 8 != 0 {
                        format!("{e} %")
                    } else {
                        format!("{e} ms")
                    }
                });
                if let Some(s) = m.layers.last_mut().and_then(|l| l.states.last_mut()) {
                    s.transitions.push(Transition {
                        to: r.uint(151).unwrap_or(0),
                        exit,
                        conditions: Vec::new(),
                    });
                }
            }
            68 | 70 | 71 => {
                let name = input_name(r.uint(155));
                let cond = match t {
                    70 => {
                        let op = ["==", "!=", "<=", ">=", "<", ">"]
                            .get(r.uint(156).unwrap_or(0) as usize)
                            .copied()
                            .unwrap_or("?");
                        format!("{name} {op} {}", r.float(157).unwrap_or(0.0))
                    }
                    71 => format!(
                        "{name} is {}",
                        if r.uint(156) == Some(1) {
                            "false"
                        } else {
                            "true"
                        }
                    ),
                    _ => name,
                };
                if let Some(tr) = m
                    .layers
                    .last_mut()
                    .and_then(|l| l.states.last_mut())
                    .and_then(|s| s.transitions.last_mut())
                {
                    tr.conditions.push(cond);
                }
            }
            _ => {}
        }
    }
    out
}

impl State {
    /// One line: `kind [what] → to (conditions, exit)…`.
    pub fn describe(&self) -> String {
        let mut s = self.kind.to_string();
        if let Some(c) = &self.clip {
            s.push_str(&format!(" '{c}'"));
        }
        if let Some(i) = &self.input {
            s.push_str(&format!(" by '{i}'"));
        }
        if !self.blend.is_empty() {
            let b: Vec<String> = self
                .blend
                .iter()
                .map(|(c, v)| format!("'{c}' at {v}"))
                .collect();
            s.push_str(&format!(" ({})", b.join(", ")));
        }
        for t in &self.transitions {
            let mut when: Vec<String> = t.conditions.iter().map(|c| format!("'{c}'")).collect();
            if let Some(e) = &t.exit {
                when.push(format!("at {e}"));
            }
            s.push_str(&format!(" → {}", t.to));
            if !when.is_empty() {
                s.push_str(&format!(" when {}", when.join(" and ")));
            }
        }
        s
    }
}

impl Contents {
    /// The text lines of `riv check` (empty when the file has neither).
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        for m in &self.machines {
            let inputs: Vec<String> = m
                .inputs
                .iter()
                .map(|i| match i.value {
                    Some(v) => format!("'{}' ({} = {v})", i.name, i.kind),
                    None => format!("'{}' ({})", i.name, i.kind),
                })
                .collect();
            out.push(format!(
                "  state machine '{}': inputs {}",
                m.name,
                if inputs.is_empty() {
                    "none".to_string()
                } else {
                    inputs.join(", ")
                }
            ));
            for l in &m.layers {
                out.push(format!("    layer '{}':", l.name));
                for (i, s) in l.states.iter().enumerate() {
                    out.push(format!("      state {i}: {}", s.describe()));
                }
            }
        }
        for r in &self.rules {
            let t: Vec<String> = r
                .targets
                .iter()
                .map(|(n, p)| format!("{p} '{n}'"))
                .collect();
            let k: Vec<String> = r.keyed.iter().map(|(c, n)| format!("'{c}' {n}")).collect();
            out.push(format!(
                "  draw rules of '{}': targets {}; keys {}",
                r.image,
                t.join(", "),
                if k.is_empty() {
                    "none".to_string()
                } else {
                    k.join(", ")
                }
            ));
        }
        out
    }
}
