//! A page that plays a `.riv` in the official Rive web runtime, offline and
//! from `file://` (issue 45 item 3, issue 47 item 5): what `re2d rig page`
//! writes and `re2d rig build` writes for each clip and its state machine.
//!
//! - The `.riv` is **embedded** in the page (base64): a page opened as a file
//!   never fetches it (a browser refuses `fetch` of a `file://` URL, which
//!   left the old pages blank).
//! - The runtime (`@rive-app/canvas-single`, its wasm inlined) is loaded by
//!   `<script src="rive.js">` from beside the page: a classic script from a
//!   file is allowed where a fetch is not. The caller writes `rive.js` there.
//! - The canvas is the artboard's size ([`Playable::artboard`]), so the
//!   character fills it at one CSS pixel per artboard unit.
//! - A state machine page has a slider per Number input (0 to the largest
//!   blend threshold of the file) and a button per Trigger.
//! - The runtime draws image meshes through WebGL ("No WebGL support. Image
//!   mesh will not be drawn" otherwise, and an empty canvas): without WebGL
//!   the page says so instead of starting the runtime.
//! - The page tells how it is doing in `<body data-state>`: `loading`, then
//!   `drawn` once the runtime's first frame is on the canvas (its first
//!   Advance event, then the task that draws it, then the next animation
//!   frame; `data-frames` counts the frames), or `error` (with `data-error`) when the runtime is missing
//!   or refuses the file — what the browser harness waits for instead of a
//!   fixed time.

use super::error::{Code, RivError};
use super::read::RivFile;

/// What a `.riv` offers to play, read from its records.
#[derive(Clone, Debug, PartialEq)]
pub struct Playable {
    /// The artboard's name, width and height.
    pub artboard: (String, f32, f32),
    /// The clips (LinearAnimation names), in file order.
    pub clips: Vec<String>,
    /// The state machines, in file order.
    pub machines: Vec<MachineInfo>,
}

/// A state machine of a `.riv`.
#[derive(Clone, Debug, PartialEq)]
pub struct MachineInfo {
    /// Its name.
    pub name: String,
    /// Its Number inputs.
    pub numbers: Vec<String>,
    /// Its Trigger inputs.
    pub triggers: Vec<String>,
    /// The largest blend threshold (the Number sliders' end; 1 without one).
    pub max_threshold: f32,
}

/// What a page plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Play {
    /// One clip, looping as the file says.
    Clip(String),
    /// A state machine, with its controls.
    Machine(String),
}

impl Play {
    /// The page's file name in a build folder: `<clip>.html` or
    /// `machine.html`.
    pub fn file_name(&self) -> String {
        match self {
            Play::Clip(c) => format!("{c}.html"),
            Play::Machine(_) => "machine.html".into(),
        }
    }
}

const ARTBOARD: u64 = 1;
const ANIMATION: u64 = 31;
const MACHINE: u64 = 53;
const NUMBER: u64 = 56;
const TRIGGER: u64 = 58;
const BLEND_ANIMATION_1D: u64 = 75;

fn name(r: &super::read::Record, key: u64) -> String {
    r.blob(key)
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .unwrap_or_default()
}

impl Playable {
    /// Reads the artboard, clips and machines of a decoded file.
    pub fn of(f: &RivFile) -> Result<Playable, RivError> {
        let mut artboard = None;
        let mut clips = Vec::new();
        let mut machines: Vec<MachineInfo> = Vec::new();
        for r in &f.records {
            match r.type_key {
                ARTBOARD if artboard.is_none() => {
                    artboard = Some((
                        name(r, 4),
                        r.float(7).unwrap_or(0.0),
                        r.float(8).unwrap_or(0.0),
                    ))
                }
                ANIMATION => clips.push(name(r, 55)),
                MACHINE => machines.push(MachineInfo {
                    name: name(r, 55),
                    numbers: Vec::new(),
                    triggers: Vec::new(),
                    max_threshold: 1.0,
                }),
                NUMBER | TRIGGER => {
                    if let Some(m) = machines.last_mut() {
                        let n = name(r, 138);
                        if r.type_key == NUMBER {
                            m.numbers.push(n);
                        } else {
                            m.triggers.push(n);
                        }
                    }
                }
                BLEND_ANIMATION_1D => {
                    if let (Some(m), Some(v)) = (machines.last_mut(), r.float(166))
                        && v.is_finite()
                        && v > m.max_threshold
                    {
                        m.max_threshold = v;
                    }
                }
                _ => {}
            }
        }
        let Some(artboard) = artboard.filter(|a| a.1 > 0.0 && a.2 > 0.0) else {
            return Err(RivError::new(
                Code::Option,
                "the file has no artboard with a size to play",
            ));
        };
        Ok(Playable {
            artboard,
            clips,
            machines,
        })
    }

    /// What `--clip NAME` / `--machine [NAME]` ask for, refused (`E_OPTION`,
    /// listing what there is) when the file has no such clip or machine.
    /// Without either: the first state machine, else the first clip.
    pub fn choose(
        &self,
        clip: Option<&str>,
        machine: Option<Option<&str>>,
    ) -> Result<Play, RivError> {
        let list = |v: &[String]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(", ")
            }
        };
        let machines: Vec<String> = self.machines.iter().map(|m| m.name.clone()).collect();
        match (clip, machine) {
            (Some(_), Some(_)) => Err(RivError::new(
                Code::Option,
                "give --clip or --machine, not both",
            )),
            (Some(c), None) => {
                if self.clips.iter().any(|x| x == c) {
                    Ok(Play::Clip(c.to_string()))
                } else {
                    Err(RivError::new(
                        Code::Option,
                        format!("no clip '{c}' in the file (clips: {})", list(&self.clips)),
                    ))
                }
            }
            (None, Some(m)) => match m {
                Some(m) if machines.iter().any(|x| x == m) => Ok(Play::Machine(m.to_string())),
                Some(m) => Err(RivError::new(
                    Code::Option,
                    format!(
                        "no state machine '{m}' in the file (state machines: {})",
                        list(&machines)
                    ),
                )),
                None => machines.first().cloned().map(Play::Machine).ok_or_else(|| {
                    RivError::new(
                        Code::Option,
                        format!(
                            "the file has no state machine (clips: {})",
                            list(&self.clips)
                        ),
                    )
                }),
            },
            (None, None) => machines
                .first()
                .cloned()
                .map(Play::Machine)
                .or_else(|| self.clips.first().cloned().map(Play::Clip))
                .ok_or_else(|| RivError::new(Code::Option, "the file has no clip to play")),
        }
    }
}

/// Standard base64 (RFC 4648, with padding).
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if i <= c.len() {
                out.push(A[(n >> shift & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Text safe inside HTML (element content and double-quoted attributes).
fn html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A JSON string literal safe inside a `<script>` element.
fn js(s: &str) -> String {
    serde_json::Value::String(s.to_string())
        .to_string()
        .replace("</", "<\\/")
}

/// The page playing `play` of `riv` (the file's bytes, `info` read from
/// them), titled `title` (the file's name), loading the runtime from
/// `runtime` (a path relative to the page: `rive.js`).
pub fn page(riv: &[u8], title: &str, info: &Playable, play: &Play, runtime: &str) -> String {
    let (ab, w, h) = &info.artboard;
    let (what, setup) = match play {
        Play::Clip(c) => (
            format!("clip <code>{}</code>", html(c)),
            format!("animations: {}", js(c)),
        ),
        Play::Machine(m) => (
            format!("state machine <code>{}</code>", html(m)),
            format!("stateMachines: {}", js(m)),
        ),
    };
    let machine = match play {
        Play::Machine(m) => js(m),
        Play::Clip(_) => "null".into(),
    };
    let max = match play {
        Play::Machine(m) => info
            .machines
            .iter()
            .find(|x| &x.name == m)
            .map_or(1.0, |x| x.max_threshold),
        Play::Clip(_) => 1.0,
    };
    let (cw, ch) = (w.ceil().max(1.0) as u32, h.ceil().max(1.0) as u32);
    format!(
        r#"<!doctype html>
<!-- Generated by re2d (re2d rig page): {file} played by the official Rive web runtime ({runtime} beside
     this page). The .riv is embedded below, so the page plays when opened as a file (file://). -->
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>re2d: {file}</title>
<style>
body{{background:#28282c;color:#ddd;font:14px sans-serif;margin:24px}}
canvas{{background:#3a3a40;max-width:100%;max-height:85vh;width:auto;height:auto}}
#controls label{{margin-right:16px}} #error{{color:#f88}}
</style>
<script src="{runtime_attr}"></script></head>
<body data-state="loading" data-frames="0">
<p>{file} ({len} bytes), artboard <code>{ab}</code> {cw}×{ch} — {what}, played by @rive-app/canvas-single</p>
<p id="error"></p>
<div id="controls"></div>
<canvas id="c" width="{cw}" height="{ch}"></canvas>
<script>
(function () {{
    const body = document.body;
    const fail = (why) => {{
        body.dataset.state = 'error';
        body.dataset.error = why;
        document.getElementById('error').textContent = why;
    }};
    if (typeof rive === 'undefined') {{
        fail('the Rive runtime ({runtime_js}) did not load: it must sit beside this page');
        return;
    }}
    const probe = document.createElement('canvas');
    if (!(probe.getContext('webgl2') || probe.getContext('webgl'))) {{
        fail('this browser has WebGL turned off, and the Rive runtime draws the character\'s meshes with WebGL (turn on graphics acceleration)');
        return;
    }}
    rive.Rive.suppressDeprecationWarnings = ['animations-param', 'state-machine-inputs'];
    const bytes = Uint8Array.from(atob('{b64}'), (c) => c.charCodeAt(0));
    const canvas = document.getElementById('c');
    const machine = {machine};
    let frames = 0;
    const r = new rive.Rive({{
        buffer: bytes.buffer, canvas, autoplay: true, {setup},
        enableRiveAssetCDN: false, layout: new rive.Layout({{ fit: rive.Fit.Contain }}),
        onLoadError: (e) => fail('the runtime refused the file: ' + (e && e.data || e)),
        onLoad: () => {{
            if (!machine) return;
            const box = document.getElementById('controls');
            for (const input of r.stateMachineInputs(machine) || []) {{
                const label = document.createElement('label');
                if (input.type === rive.StateMachineInputType.Number) {{
                    const s = Object.assign(document.createElement('input'),
                        {{ type: 'range', min: 0, max: {max}, step: 0.01, value: input.value }});
                    s.id = 'input-' + input.name;
                    const v = document.createElement('span');
                    v.textContent = Number(input.value).toFixed(2);
                    s.oninput = () => {{ input.value = Number(s.value); v.textContent = Number(s.value).toFixed(2); }};
                    label.append(input.name + ' ', s, ' ', v);
                }} else if (input.type === rive.StateMachineInputType.Trigger) {{
                    const b = Object.assign(document.createElement('button'), {{ textContent: input.name }});
                    b.id = 'input-' + input.name;
                    b.onclick = () => input.fire();
                    label.append(b);
                }}
                box.append(label);
            }}
        }},
    }});
    // the first drawn frame, not a fixed time, tells the page is showing the character: the
    // runtime reports each frame's Advance just before it draws the frame in the same task, so
    // once that task is over (a microtask) and the next frame has come, the first is on the canvas
    r.on(rive.EventType.Advance, () => {{
        frames += 1;
        body.dataset.frames = String(frames);
        if (frames === 1) {{
            queueMicrotask(() => requestAnimationFrame(() => {{
                if (body.dataset.state === 'loading') body.dataset.state = 'drawn';
            }}));
        }}
    }});
    window.re2dRive = r;
}})();
</script></body></html>
"#,
        file = html(title),
        runtime_attr = html(runtime),
        runtime_js = html(runtime),
        len = riv.len(),
        ab = html(ab),
        b64 = base64(riv),
        max = max,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_rfc_4648() {
        for (i, o) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(i.as_bytes()), o, "{i}");
        }
        assert_eq!(base64(&[0xff, 0xfe, 0xfd]), "//79");
    }

    #[test]
    fn names_are_escaped() {
        assert_eq!(js("</script>"), "\"<\\/script>\"");
        assert_eq!(html("<a href=\"x\">&"), "&lt;a href=&quot;x&quot;&gt;&amp;");
    }
}
