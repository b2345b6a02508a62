// re2d tests — issue 30: a rigged character played by `re2d-qjs` through `$.mesh.load`, judged
// by pixels against the independent reference renderer (`re2d riv render-ref`, rive-export.md
// §10.2) with the §10.4 metrics of `re2d_rig::cut::verify::metrics`.
//! For the biped and the quadruped that `make test-mesh-load` draws (examples/rig_drawings) and
//! rigs (`re2d rig build` with the committed capture) into `target/mesh-load/` (or
//! `$RE2D_MESH_LOAD_DIR`), eight times of the walk, `t_i = i·d/8`:
//! - `$.mesh` (native module) and `loadCharacter` over the plain-JS `$.mesh` (js/tests/_plainmesh.mjs)
//!   against the reference at `t_i`: IoU ≥ 0.99 and colour ≥ 0.97 on every frame, both frames
//!   non-empty (≥ 1 % of the canvas);
//! - negative controls, each of which must fail the same check on every frame: the clip drawn
//!   at `t_i + d/4`, and the model with its draw order reversed (every depth mirrored).
//!
//! The canvas is the drawing (the model's own coordinates): the reference renders with offset
//! 0,0 and the drawing's size as its artboard.

use std::path::{Path, PathBuf};
use std::process::Command;

use re2d::limits::Limits;
use re2d::png_io::{RgbaImage, decode_rgba, header_size};
use re2d_rig::cut::verify::metrics;
use re2d_riv::Model;
use re2d_riv::reference::{RefOptions, render};
use serde_json::Value as Json;

const T_IOU: f64 = 0.99;
const T_COLOUR: f64 = 0.97;
const FRAMES: usize = 8;

fn repo() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn fixtures() -> PathBuf {
    std::env::var_os("RE2D_MESH_LOAD_DIR")
        .map_or_else(|| repo().join("target/mesh-load"), PathBuf::from)
}

/// Frames of `clip` at `times` drawn by re2d-qjs through `module` (`native` or `plain`).
fn qjs_frames(
    module: &str,
    model: &Path,
    size: (u32, u32),
    times: &[f64],
    out: &Path,
    tag: &str,
) -> Vec<RgbaImage> {
    qjs_clip_frames(module, model, "walk", size, times, out, tag)
}

/// [`qjs_frames`] of any clip.
fn qjs_clip_frames(
    module: &str,
    model: &Path,
    clip: &str,
    size: (u32, u32),
    times: &[f64],
    out: &Path,
    tag: &str,
) -> Vec<RgbaImage> {
    let prefix = out.join(format!("{tag}-"));
    let script = repo().join("js/tests/e2e/mesh_load_frames.mjs");
    let o = Command::new(env!("CARGO_BIN_EXE_re2d-qjs"))
        .arg("--size")
        .arg(format!("{}x{}", size.0, size.1))
        .arg(script)
        .args([
            module,
            model.to_str().unwrap(),
            clip,
            prefix.to_str().unwrap(),
        ])
        .args(times.iter().map(|t| format!("{t}")))
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "re2d-qjs {module} {}: {}",
        model.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    (0..times.len())
        .map(|i| {
            let p = PathBuf::from(format!("{}{i}.png", prefix.display()));
            decode_rgba(std::io::Cursor::new(std::fs::read(&p).unwrap())).unwrap()
        })
        .collect()
}

fn reference(model: &Model, time: f64, size: (u32, u32), part: Option<&str>) -> RgbaImage {
    clip_reference(model, "walk", time, size, part)
}

fn clip_reference(
    model: &Model,
    clip: &str,
    time: f64,
    size: (u32, u32),
    part: Option<&str>,
) -> RgbaImage {
    let o = RefOptions {
        clip: part.is_none().then(|| clip.to_string()),
        time,
        fps: 60,
        artboard: Some(size),
        offset: Some((0.0, 0.0)),
        only_part: part.map(str::to_string),
    };
    render(model, &o, &Limits::DEFAULT).unwrap()
}

fn coverage(img: &RgbaImage) -> f64 {
    let n = img.data.chunks_exact(4).filter(|p| p[3] > 127).count();
    n as f64 / (img.width as f64 * img.height as f64)
}

/// `(iou, colour, passes)` of a frame against the reference; an empty frame never passes.
fn judge(got: &RgbaImage, want: &RgbaImage) -> (f64, f64, bool) {
    assert_eq!((got.width, got.height), (want.width, want.height));
    let (iou, colour) = metrics(&got.data, &want.data, want.width as usize, None, None);
    let full = coverage(got) >= 0.01 && coverage(want) >= 0.01;
    (iou, colour, full && iou >= T_IOU && colour >= T_COLOUR)
}

/// The model with its draw order reversed (every part's depth mirrored: `min + max − depth`),
/// written beside the original. A swap of two parts was the control before the hidden fill was
/// trimmed to what the clips reveal: the quadruped's best pair (`hind_upper_near` /
/// `hind_upper_far`, same-coloured pattern) then differed on only 5 626 px and the control passed
/// (colour 0.970–0.977); reversing every depth changes every overlap and keeps the IoU.
fn reversed_model(path: &Path, model: &Model) -> (PathBuf, String) {
    let depths: Vec<f64> = model.parts.iter().map(|p| p.depth).collect();
    let (lo, hi) = depths
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, h), &d| (l.min(d), h.max(d)));
    assert!(
        hi > lo,
        "one depth only in {}: nothing to reverse",
        path.display()
    );
    let mut j: Json = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let parts = j["parts"].as_array_mut().unwrap();
    for (p, d) in parts.iter_mut().zip(&depths) {
        let r = lo + hi - d;
        p["depth"] = if r.fract() == 0.0 {
            Json::from(r as i64)
        } else {
            Json::from(r)
        };
    }
    let out = path.with_file_name("model-depth-reversed.json");
    std::fs::write(&out, serde_json::to_vec(&j).unwrap()).unwrap();
    let what = format!(
        "every depth reversed ({} parts, depths {lo}..{hi})",
        depths.len()
    );
    (out, what)
}

fn character(name: &str) {
    let dir = fixtures().join(name);
    let path = dir.join("model.json");
    assert!(
        path.is_file(),
        "{} missing: run `make test-mesh-load` (it rigs the generated characters first)",
        path.display()
    );
    let drawing = fixtures().join(format!("drawings/{name}.png"));
    let size = header_size(&std::fs::read(&drawing).unwrap()).unwrap();
    let model = Model::load(&path, &Limits::DEFAULT).unwrap();
    let d = model.clip("walk").expect("a walk clip").duration;
    let times: Vec<f64> = (0..FRAMES).map(|i| d * i as f64 / FRAMES as f64).collect();
    let shifted: Vec<f64> = times.iter().map(|t| t + d / 4.0).collect();
    let refs: Vec<RgbaImage> = times
        .iter()
        .map(|&t| reference(&model, t, size, None))
        .collect();
    let out = dir.join("frames");
    std::fs::create_dir_all(&out).unwrap();
    let (swapped, swap_what) = reversed_model(&path, &model);

    let native = qjs_frames("native", &path, size, &times, &out, "native");
    let plain = qjs_frames("plain", &path, size, &times, &out, "plain");
    let late = qjs_frames("native", &path, size, &shifted, &out, "late");
    let swap = qjs_frames("native", &swapped, size, &times, &out, "swapped");

    println!(
        "{name}: walk d = {d} s, {}x{} canvas; control 2: {swap_what}",
        size.0, size.1
    );
    println!(
        "| frame | t (s) | $.mesh IoU | colour | plain-JS IoU | colour | ctl t+d/4 IoU | colour | ctl depths reversed IoU | colour |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut failures = Vec::new();
    for i in 0..FRAMES {
        let n = judge(&native[i], &refs[i]);
        let p = judge(&plain[i], &refs[i]);
        let l = judge(&late[i], &refs[i]);
        let s = judge(&swap[i], &refs[i]);
        println!(
            "| {i} | {:.4} | {:.4} | {:.4} | {:.4} | {:.4} | {:.4} | {:.4} | {:.4} | {:.4} |",
            times[i], n.0, n.1, p.0, p.1, l.0, l.1, s.0, s.1
        );
        if !n.2 {
            failures.push(format!("frame {i}: $.mesh fails ({:.4}, {:.4})", n.0, n.1));
        }
        if !p.2 {
            failures.push(format!(
                "frame {i}: plain-JS $.mesh fails ({:.4}, {:.4})",
                p.0, p.1
            ));
        }
        if l.2 {
            failures.push(format!(
                "frame {i}: control t+d/4 passes ({:.4}, {:.4})",
                l.0, l.1
            ));
        }
        if s.2 {
            failures.push(format!(
                "frame {i}: control depths reversed passes ({:.4}, {:.4})",
                s.0, s.1
            ));
        }
    }
    assert!(failures.is_empty(), "{name}:\n{}", failures.join("\n"));
}

#[test]
#[ignore = "needs the rigged characters of `make test-mesh-load` (release)"]
fn biped_walk_through_mesh_load_matches_the_reference() {
    character("biped");
}

#[test]
#[ignore = "needs the rigged characters of `make test-mesh-load` (release)"]
fn quadruped_walk_through_mesh_load_matches_the_reference() {
    character("quadruped");
}

/// Issue 42: the fighter's strikes through `$.mesh.load` at sixteen times of each clip (the
/// middle of equal steps, never on a key's frame) against the reference, which draws each
/// draw-order key's order: every frame must match (native and plain-JS `$.mesh`). The control
/// is the same model without its `draw_order` keys: it must fail where the keys clearly change
/// the reference's picture (the reference with and without them: colour below 0.95) and pass
/// where they change nothing (colour ≥ 0.999); times in between are listed, not judged (the
/// engine's own colour, about 0.987 against the reference, decides them). There must be times
/// where the keys clearly change the picture.
fn strikes(name: &str, clips: &[&str]) {
    let dir = fixtures().join(name);
    let path = dir.join("model.json");
    assert!(
        path.is_file(),
        "{} missing: run `make test-mesh-load`",
        path.display()
    );
    let drawing = fixtures().join(format!("drawings/{name}.png"));
    let size = header_size(&std::fs::read(&drawing).unwrap()).unwrap();
    let model = Model::load(&path, &Limits::DEFAULT).unwrap();
    // the control: the model without its draw-order keys
    let mut j: Json = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let mut keyed = 0;
    for c in j["clips"].as_object_mut().unwrap().values_mut() {
        if c.as_object_mut().unwrap().remove("draw_order").is_some() {
            keyed += 1;
        }
    }
    assert!(keyed > 0, "{name}: no clip has draw-order keys");
    let plain_path = dir.join("model-nodraworder.json");
    std::fs::write(&plain_path, serde_json::to_vec(&j).unwrap()).unwrap();
    let plain = Model::load(&plain_path, &Limits::DEFAULT).unwrap();
    let out = dir.join("frames");
    std::fs::create_dir_all(&out).unwrap();
    let mut failures = Vec::new();
    for clip in clips {
        let c = model
            .clip(clip)
            .unwrap_or_else(|| panic!("{name}: no clip {clip}"));
        assert!(
            !c.draw_order.is_empty(),
            "{name}: {clip} has no draw-order keys"
        );
        let n = 16;
        let times: Vec<f64> = (0..n)
            .map(|i| (i as f64 + 0.5) * c.duration / n as f64)
            .collect();
        let native = qjs_clip_frames(
            "native",
            &path,
            clip,
            size,
            &times,
            &out,
            &format!("{clip}-native"),
        );
        let plainjs = qjs_clip_frames(
            "plain",
            &path,
            clip,
            size,
            &times,
            &out,
            &format!("{clip}-plain"),
        );
        let ctl = qjs_clip_frames(
            "native",
            &plain_path,
            clip,
            size,
            &times,
            &out,
            &format!("{clip}-nokeys"),
        );
        println!("{name} {clip}: d = {} s", c.duration);
        println!(
            "| t (s) | reference without keys: colour | $.mesh IoU | colour | plain-JS colour | without keys IoU | colour |"
        );
        println!("|---|---|---|---|---|---|---|");
        let mut visible_n = 0;
        for (i, &t) in times.iter().enumerate() {
            let want = clip_reference(&model, clip, t, size, None);
            let without = clip_reference(&plain, clip, t, size, None);
            let effect = judge(&without, &want).1;
            let (visible, same) = (effect < 0.95, effect >= 0.999);
            visible_n += usize::from(visible);
            let g = judge(&native[i], &want);
            let p = judge(&plainjs[i], &want);
            let k = judge(&ctl[i], &want);
            println!(
                "| {t:.4} | {effect:.4} | {:.4} | {:.4} | {:.4} | {:.4} | {:.4} |",
                g.0, g.1, p.1, k.0, k.1
            );
            if !g.2 || !p.2 {
                failures.push(format!(
                    "{clip} t {t:.4}: $.mesh.load fails ({:.4}, {:.4}; plain {:.4}, {:.4})",
                    g.0, g.1, p.0, p.1
                ));
            }
            if (visible && k.2) || (same && !k.2) {
                failures.push(format!(
                    "{clip} t {t:.4}: the model without keys {} where the keys {} the picture ({:.4}, {:.4})",
                    if k.2 { "passes" } else { "fails" },
                    if visible { "clearly change" } else { "do not change" },
                    k.0,
                    k.1
                ));
            }
        }
        if visible_n == 0 {
            failures.push(format!(
                "{clip}: the keys never change the picture: the control proves nothing"
            ));
        }
    }
    assert!(failures.is_empty(), "{name}:\n{}", failures.join("\n"));
}

#[test]
#[ignore = "needs the rigged fighter of `make test-mesh-load` (release)"]
fn fighter_strikes_through_mesh_load_draw_each_keys_order() {
    strikes("fighter", &["punch", "kick"]);
}
