//! The hidden-fill judge (issue 42): how well the slicer's hidden fill stands in for what the
//! painter would have painted, where a clip uncovers it. The generated fighter is painted
//! (and, part by part, painted alone: the truth of its hidden layers), rigged like `rig build`
//! with the given motions, and for every clip the hidden-fill texels some pose shows (the
//! reveal measure per clip, grown by 2 texels as the build's report counts them) are compared
//! with the part's true paint at the same drawing pixel:
//!
//! - *uncovered*: those texels over all the part's texels (visible and fill), percent;
//! - *fill error*: mean RGB distance (0..441) between the fill and the true paint;
//! - *control*: the same with every uncovered texel filled with the part's mean visible
//!   colour — the fill must score better (lower) for every clip, else exit 1.
//!
//! Only texels where the part's own layer is painted (alpha ≥ 128) are judged: the fill also
//! reaches into the tube where the painter painted nothing (the tube is wider than the limb at
//! its round ends). A clip that uncovers nothing is reported; if no clip uncovers anything the
//! judge proves nothing and exits 1.
//!
//! `cargo run --release --example rig_fill_judge -- OUT_DIR --motion NAME=FILE[:once] …
//!   [--range NAME=A..B] [--max-turn NAME=DEG]` — writes OUT_DIR/fill.json and prints a table.

use std::path::Path;

use re2d::limits::Limits;
use re2d_rig::build::{self, MotionSpec, Timings};
use re2d_rig::cut::slice::Rule;
use re2d_testkit::drawings;
use serde_json::json;

fn fail(msg: impl std::fmt::Display) -> ! {
    eprintln!("rig_fill_judge: {msg}");
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(out) = args.first() else {
        fail(
            "usage: rig_fill_judge OUT_DIR --motion NAME=FILE[:once] … [--range NAME=A..B] [--max-turn NAME=DEG]",
        );
    };
    let mut specs: Vec<MotionSpec> = Vec::new();
    let mut i = 1;
    while i + 1 < args.len() {
        let (flag, v) = (&args[i], &args[i + 1]);
        match flag.as_str() {
            "--motion" => specs.push(MotionSpec::parse(v, "walk").unwrap_or_else(|e| fail(e))),
            "--range" | "--max-turn" => {
                let (n, x) = v
                    .split_once('=')
                    .unwrap_or_else(|| fail(format!("{flag} {v}: NAME=…")));
                let s = specs
                    .iter_mut()
                    .find(|s| s.name == n)
                    .unwrap_or_else(|| fail(format!("{flag} {v}: no motion {n}")));
                if flag == "--range" {
                    s.range = Some(build::parse_range(x).unwrap_or_else(|e| fail(e)));
                } else {
                    s.max_turn = Some(build::parse_max_turn(x).unwrap_or_else(|e| fail(e)));
                }
            }
            _ => fail(format!("unknown argument {flag}")),
        }
        i += 2;
    }
    if specs.is_empty() {
        fail("no --motion");
    }
    let limits = Limits::current();
    let out = Path::new(out);
    let spec = drawings::fighter();
    let d = drawings::generate(&spec).unwrap_or_else(|e| fail(e));
    let paths = d.write_files(out).unwrap_or_else(|e| fail(e));
    let layers = drawings::hidden_layers(&spec).unwrap_or_else(|e| fail(e));
    let input = build::load(&paths[2], &limits).unwrap_or_else(|e| fail(e));
    let fps = 60;
    let motions: Vec<(String, re2d_rig::motion::Retargeted)> = specs
        .iter()
        .map(|s| {
            (
                s.name.clone(),
                build::motion_stage(&input.sk, s, fps, &limits).unwrap_or_else(|e| fail(e)),
            )
        })
        .collect();
    let mut t = Timings::default();
    let s = build::slice_stage(&input, Rule::Paint, &mut t).unwrap_or_else(|e| fail(e));
    let m = build::mesh_stage(&input.sk, &s.sl, &mut t).unwrap_or_else(|e| fail(e));
    let clips: Vec<(&str, &re2d_rig::motion::Walk)> =
        motions.iter().map(|(n, r)| (n.as_str(), &r.walk)).collect();
    let (model, _) = build::model(
        &input.name,
        &input.sk,
        &s.sl,
        &s.tree,
        &m,
        &clips,
        Vec::new(),
        &limits,
    )
    .unwrap_or_else(|e| fail(e));
    // per part: its truth layer and its mean visible colour
    let layer_of: Vec<Option<&drawings::Layer>> =
        s.sl.parts
            .iter()
            .map(|p| layers.iter().find(|l| l.name == p.name))
            .collect();
    let mean: Vec<[f64; 3]> =
        s.sl.parts
            .iter()
            .map(|p| {
                let (mut acc, mut n) = ([0.0; 3], 0.0);
                for i in 0..p.width * p.height {
                    if p.hidden[i] == 0 && p.rgba[i * 4 + 3] > 0 {
                        for (a, &c) in acc.iter_mut().zip(&p.rgba[i * 4..i * 4 + 3]) {
                            *a += c as f64;
                        }
                        n += 1.0;
                    }
                }
                acc.map(|a| a / f64::max(n, 1.0))
            })
            .collect();
    let dist = |a: [f64; 3], b: [f64; 3]| {
        ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
    };
    let mut rows = Vec::new();
    let mut worse = Vec::new();
    let mut any = false;
    println!(
        "| clip | part | uncovered % of part | judged texels | fill error (RGB) | mean-colour control |"
    );
    println!("|---|---|---|---|---|---|");
    re2d_rig::skin::reveal::seen_per_clip(
        &input.sk,
        &s.sl.parts,
        &m.meshes,
        &model,
        fps,
        |ci, seen| {
            let Some(ci) = ci else { return };
            let clip = &model.clips[ci].name;
            let (mut tf, mut tc, mut tn) = (0.0, 0.0, 0u64);
            for (k, p) in s.sl.parts.iter().enumerate() {
                let Some(layer) = layer_of[k] else { continue };
                if !p.has_part() || !seen[k].iter().any(|&x| x) {
                    continue;
                }
                let g = build::measure::grown(p, &seen[k]);
                let all = (0..p.width * p.height)
                    .filter(|&i| p.rgba[i * 4 + 3] > 0)
                    .count();
                let (mut uncovered, mut n, mut ef, mut ec) = (0u64, 0u64, 0.0, 0.0);
                for y in 0..p.height {
                    for x in 0..p.width {
                        let i = y * p.width + x;
                        if !(g[i] && p.hidden[i] == 1 && p.rgba[i * 4 + 3] > 0) {
                            continue;
                        }
                        uncovered += 1;
                        let (dx, dy) = (p.origin[0] + x, p.origin[1] + y);
                        if dx < layer.origin[0] || dy < layer.origin[1] {
                            continue;
                        }
                        let (lx, ly) = (dx - layer.origin[0], dy - layer.origin[1]);
                        if lx >= layer.width || ly >= layer.height {
                            continue;
                        }
                        let o = (ly * layer.width + lx) * 4;
                        if layer.rgba[o + 3] < 128 {
                            continue; // the painter painted nothing here
                        }
                        let truth = [0, 1, 2].map(|c| layer.rgba[o + c] as f64);
                        let fill = [0, 1, 2].map(|c| p.rgba[i * 4 + c] as f64);
                        ef += dist(fill, truth);
                        ec += dist(mean[k], truth);
                        n += 1;
                    }
                }
                if uncovered == 0 {
                    continue;
                }
                any = true;
                let (f, c) = (ef / (n.max(1) as f64), ec / (n.max(1) as f64));
                tf += ef;
                tc += ec;
                tn += n;
                println!(
                    "| {clip} | {} | {:.2} | {n} | {f:.1} | {c:.1} |",
                    p.name,
                    100.0 * uncovered as f64 / all.max(1) as f64
                );
                rows.push(
                    json!({"clip": clip, "part": p.name, "uncovered_px": uncovered, "part_px": all,
                "uncovered_pct": 100.0 * uncovered as f64 / all.max(1) as f64, "judged_px": n,
                "fill_error_rgb": f, "control_error_rgb": c}),
                );
            }
            if tn > 0 {
                let (f, c) = (tf / tn as f64, tc / tn as f64);
                println!("| {clip} | **all** | | {tn} | **{f:.1}** | **{c:.1}** |");
                rows.push(json!({"clip": clip, "part": "all", "judged_px": tn, "fill_error_rgb": f, "control_error_rgb": c}));
                if c <= f {
                    worse.push(format!("{clip}: the mean-colour control ({c:.1}) is not worse than the fill ({f:.1})"));
                }
            }
        },
    );
    let doc = json!({"character": "fighter", "grow_px": build::measure::GROW, "rows": rows});
    let text = serde_json::to_vec_pretty(&doc).unwrap_or_default();
    if let Err(e) = re2d_output::publish::publish(&out.join("fill.json"), &text, &[]) {
        fail(e);
    }
    if !any {
        eprintln!(
            "rig_fill_judge: FAILED: no clip uncovers any hidden fill: the judge proves nothing"
        );
        std::process::exit(1);
    }
    if !worse.is_empty() {
        eprintln!("rig_fill_judge: FAILED: {}", worse.join("; "));
        std::process::exit(1);
    }
    println!("rig_fill_judge: ok: the fill beats the mean-colour control in every clip");
}
