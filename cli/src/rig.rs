// re2d rig build|slice|verify|mesh|motion: from one drawing and a declared skeleton to a walking .riv (issue 19; spec rig.md).
//! Argument parsing and output only; the work is in `re2d_rig`.
//! Exit codes: 0 success, 1 rejected input (`E_RIG_*` / `E_BVH_*`, one line)
//! or a failed gate (`E_RIG_GATE`, after the folder and its report are
//! written), 2 usage (an output folder that is not empty without `--force`),
//! 3 I/O. Folders are published all or nothing (`re2d_output::publish::publish_dir`).

use std::path::{Path, PathBuf};
use std::time::Instant;

use re2d::limits::Limits;
use re2d_rig::RigError;
use re2d_rig::build::{self, Input, Options, Timings};
use re2d_rig::cut::slice::Rule;

/// `re2d rig` subcommands.
#[derive(clap::Subcommand)]
pub enum RigCmd {
    /// The whole pipeline: parts, pivot map, labels, model.json, character.riv, report.json, sheet.png.
    Build(BuildArgs),
    /// Silhouette and slicing only: part PNGs, pivots.json, labels.png.
    Slice(SliceArgs),
    /// Reassembly from the pivot map and its three controls (JSON on stdout).
    Verify(StageArgs),
    /// The weight-scheme and grid-step tables (JSON on stdout).
    Mesh(StageArgs),
    /// Retarget a captured walk onto the skeleton (JSON report on stdout).
    Motion(MotionArgs),
}

/// `re2d rig build` arguments.
#[derive(clap::Args)]
pub struct BuildArgs {
    /// Skeleton declaration JSON (rig.md §1); its `image` is relative to it.
    skeleton: PathBuf,
    /// A motion clip from a BVH capture, repeatable: NAME=FILE.bvh (cyclic when the capture has a
    /// repeating gait, else one-shot), NAME=FILE.bvh:once (one-shot), NAME=FILE.bvh:loop (one gait
    /// cycle or an error), or a bare FILE.bvh named by --clip. Without a motion called idle, an
    /// idle clip holding the drawn pose is added.
    #[arg(long, value_name = "NAME=FILE.bvh[:once]")]
    motion: Vec<String>,
    /// Name of a motion given as a bare FILE.bvh.
    #[arg(long, default_value = "walk")]
    clip: String,
    #[command(flatten)]
    axes: MotionFlags,
    /// Frames per second of the clip and the .riv.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..=1000))]
    fps: u32,
    /// Output folder (created; published all or nothing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Replace a non-empty output folder.
    #[arg(long)]
    force: bool,
    /// Print each stage's time.
    #[arg(long)]
    timings: bool,
    /// How pixels inside several tubes (or none) are owned: `paint` follows painted outlines and colour edges; `tubes` is the nearest tube (the old rule, for comparison).
    #[arg(long, default_value = "paint", value_parser = ["paint", "tubes"])]
    slicing: String,
}

/// Per-motion overrides of `rig build` and `rig motion`.
#[derive(clap::Args)]
pub struct MotionFlags {
    /// One-shot excerpt of a motion in seconds of its capture, repeatable: [NAME=]A..B (makes it one-shot; without NAME= for every motion).
    #[arg(long, value_name = "[NAME=]A..B")]
    range: Vec<String>,
    /// The capture's up axis instead of the detected one, repeatable: [NAME=]AXIS with AXIS one of +Y, -Y, +Z, -Z, +X, -X.
    #[arg(long, value_name = "[NAME=]AXIS", allow_hyphen_values = true)]
    up: Vec<String>,
    /// The capture's forward axis instead of the detected one (the root's travel, else the toes), repeatable: [NAME=]AXIS.
    #[arg(long, value_name = "[NAME=]AXIS", allow_hyphen_values = true)]
    forward: Vec<String>,
    /// The largest change of a bone's angle from the drawn pose in degrees, repeatable: [NAME=]DEG in (0, 180] (default 90: the working-pose limit; a strike may need more).
    #[arg(long, value_name = "[NAME=]DEG")]
    max_angle: Vec<String>,
}

fn usage(msg: String) -> Fail {
    Fail(msg, 2)
}

/// The motion specs of `--motion` with the `--range`, `--up` and `--forward` overrides.
fn motion_specs(
    motion: &[String],
    clip: &str,
    f: &MotionFlags,
) -> Result<Vec<build::MotionSpec>, Fail> {
    let mut specs = Vec::new();
    for m in motion {
        specs.push(build::MotionSpec::parse(m, clip).map_err(|e| usage(format!("--motion {e}")))?);
    }
    fn split<'a>(
        flag: &str,
        v: &'a str,
        specs: &[build::MotionSpec],
    ) -> Result<(Option<&'a str>, &'a str), Fail> {
        match v.split_once('=') {
            Some((n, x)) => {
                if !specs.iter().any(|s| s.name == n) {
                    let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
                    return Err(usage(format!(
                        "{flag} {v}: no motion called '{n}' (the motions: {})",
                        if names.is_empty() {
                            "none; give --motion".to_string()
                        } else {
                            names.join(", ")
                        }
                    )));
                }
                Ok((Some(n), x))
            }
            None => Ok((None, v)),
        }
    }
    for v in &f.range {
        let (n, x) = split("--range", v, &specs)?;
        let r = build::parse_range(x).map_err(|e| usage(format!("--range {e}")))?;
        for s in specs.iter_mut().filter(|s| n.is_none_or(|n| s.name == n)) {
            s.range = Some(r);
        }
    }
    for v in &f.max_angle {
        let (n, x) = split("--max-angle", v, &specs)?;
        let d: f64 = x
            .trim()
            .parse()
            .ok()
            .filter(|d: &f64| d.is_finite() && *d > 0.0 && *d <= 180.0)
            .ok_or_else(|| {
                usage(format!(
                    "--max-angle {v}: '{x}' is not a number of degrees in (0, 180]"
                ))
            })?;
        for s in specs.iter_mut().filter(|s| n.is_none_or(|n| s.name == n)) {
            s.max_angle = Some(d.to_radians());
        }
    }
    for (flag, list, fwd) in [("--up", &f.up, false), ("--forward", &f.forward, true)] {
        for v in list {
            let (n, x) = split(flag, v, &specs)?;
            let a = re2d_rig::motion::axes::Axis::parse(x).ok_or_else(|| {
                usage(format!(
                    "{flag} {v}: '{x}' is not an axis (+X, -X, +Y, -Y, +Z or -Z)"
                ))
            })?;
            for s in specs.iter_mut().filter(|s| n.is_none_or(|n| s.name == n)) {
                if fwd {
                    s.forward = Some(a);
                } else {
                    s.up = Some(a);
                }
            }
        }
    }
    Ok(specs)
}

/// `re2d rig slice` arguments.
#[derive(clap::Args)]
pub struct SliceArgs {
    /// Skeleton declaration JSON.
    skeleton: PathBuf,
    /// Output folder (created; published all or nothing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Replace a non-empty output folder.
    #[arg(long)]
    force: bool,
    /// How pixels inside several tubes (or none) are owned: `paint` or `tubes` (see `rig build`).
    #[arg(long, default_value = "paint", value_parser = ["paint", "tubes"])]
    slicing: String,
}

/// `re2d rig verify` / `re2d rig mesh` arguments.
#[derive(clap::Args)]
pub struct StageArgs {
    /// Skeleton declaration JSON.
    skeleton: PathBuf,
}

/// `re2d rig motion` arguments.
#[derive(clap::Args)]
pub struct MotionArgs {
    /// Skeleton declaration JSON.
    skeleton: PathBuf,
    /// The motion: NAME=FILE.bvh[:once|:loop] or FILE.bvh (see `rig build --motion`).
    #[arg(long, value_name = "NAME=FILE.bvh[:once]")]
    motion: String,
    #[command(flatten)]
    axes: MotionFlags,
    /// Frames per second of the clip.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..=1000))]
    fps: u32,
}

struct Fail(String, i32);

fn rule(s: &str) -> Rule {
    Rule::parse(s).unwrap_or_default()
}

impl From<RigError> for Fail {
    fn from(e: RigError) -> Fail {
        let code = e.exit_code();
        Fail(e.to_string(), code)
    }
}

fn publish(
    out: &Path,
    files: &[(String, Vec<u8>)],
    force: bool,
    inputs: &[&Path],
) -> Result<(), Fail> {
    re2d_output::publish::publish_dir(out, force, inputs, |tmp| {
        for (name, bytes) in files {
            std::fs::write(tmp.join(name), bytes)?;
        }
        Ok(())
    })
    .map_err(|e| Fail(e.to_string(), e.exit_code()))
}

/// Refuses a non-empty output folder before any work (the publish step checks again).
fn precheck(out: &Path, force: bool) -> Result<(), Fail> {
    if let Ok(m) = std::fs::symlink_metadata(out) {
        if !m.is_dir() {
            return Err(Fail(
                format!("{}: the output exists and is not a folder", out.display()),
                2,
            ));
        }
        let non_empty = std::fs::read_dir(out)
            .map(|mut d| d.next().is_some())
            .unwrap_or(false);
        if non_empty && !force {
            return Err(Fail(
                format!(
                    "{}: the output folder is not empty (use --force to replace it)",
                    out.display()
                ),
                2,
            ));
        }
    }
    Ok(())
}

fn load(p: &Path) -> Result<Input, Fail> {
    Ok(build::load(p, &Limits::current())?)
}

fn do_build(a: &BuildArgs) -> Result<String, Fail> {
    precheck(&a.out, a.force)?;
    let start = Instant::now();
    let input = load(&a.skeleton)?;
    let opts = Options {
        motions: motion_specs(&a.motion, &a.clip, &a.axes)?,
        fps: a.fps,
        slicing: rule(&a.slicing),
    };
    let built = build::build(&input, &opts, &Limits::current())?;
    if let Some(w) = built.report["slicing"]["warnings"].as_array() {
        for w in w {
            eprintln!("re2d rig build: warning: {}", w.as_str().unwrap_or(""));
        }
    }
    let mut inputs: Vec<&Path> = vec![a.skeleton.as_path(), input.image_path.as_path()];
    for m in &opts.motions {
        inputs.push(m.path.as_path());
    }
    publish(&a.out, &built.files, a.force, &inputs)?;
    if a.timings {
        for (name, ms, kib) in &built.timings.0 {
            eprintln!("re2d rig build: stage {name:13} {ms:8.1} ms, peak memory so far {kib} KiB");
        }
        eprintln!(
            "re2d rig build: total {:.1} ms (including reading and publishing)",
            start.elapsed().as_secs_f64() * 1000.0
        );
    }
    let r = &built.report;
    let summary = format!(
        "{}: {} files, {} bones + {} connectors, reassembly IoU {:.4} colour {:.4}, weights {}, grid step {}, hidden {:.1} %",
        a.out.display(),
        built.files.len(),
        r["bones"],
        r["connectors"],
        r["reassembly"]["iou"].as_f64().unwrap_or(0.0),
        r["reassembly"]["colour"].as_f64().unwrap_or(0.0),
        r["weights"]["chosen"].as_str().unwrap_or("none"),
        r["grid"]["chosen"],
        r["slicing"]["hidden_total_pct"].as_f64().unwrap_or(0.0),
    );
    if !built.failed.is_empty() {
        println!("{summary}");
        return Err(Fail(
            format!(
                "E_RIG_GATE: failed gate(s): {} (see {}/report.json)",
                built.failed.join(", "),
                a.out.display()
            ),
            1,
        ));
    }
    Ok(summary)
}

fn do_slice(a: &SliceArgs) -> Result<String, Fail> {
    precheck(&a.out, a.force)?;
    let input = load(&a.skeleton)?;
    let s = build::slice_stage(&input, rule(&a.slicing), &mut Timings::default())?;
    for w in &s.sl.warnings {
        eprintln!("re2d rig slice: warning: {w}");
    }
    let files = build::slice_files(&input, &s)?;
    publish(
        &a.out,
        &files,
        a.force,
        &[a.skeleton.as_path(), input.image_path.as_path()],
    )?;
    Ok(format!(
        "{}: {} parts, {} connectors, hidden {:.2} %",
        a.out.display(),
        s.sl.parts.len(),
        s.tree.connectors(),
        s.sl.hidden_total() * 100.0
    ))
}

fn do_verify(a: &StageArgs) -> Result<String, Fail> {
    let input = load(&a.skeleton)?;
    let s = build::slice_stage(&input, Rule::Paint, &mut Timings::default())?;
    let v = re2d_rig::cut::verify::verify(&input.sk, &s.sil, &s.sl, &s.map);
    println!("{}", build::verify_json(&v));
    if !v.pass {
        return Err(Fail(
            "E_RIG_GATE: the reassembly gate or one of its controls failed".into(),
            1,
        ));
    }
    Ok(String::new())
}

fn do_mesh(a: &StageArgs) -> Result<String, Fail> {
    let input = load(&a.skeleton)?;
    let s = build::slice_stage(&input, Rule::Paint, &mut Timings::default())?;
    let m = build::mesh_stage(&input.sk, &s.sl, &mut Timings::default())?;
    let j = build::mesh_json(&input.sk, &m);
    println!("{j}");
    if m.schemes.chosen.is_none() || m.step.is_none() || j["weights"]["control"]["fails"] != true {
        return Err(Fail("E_RIG_GATE: a mesh or weight gate failed".into(), 1));
    }
    Ok(String::new())
}

fn do_motion(a: &MotionArgs) -> Result<String, Fail> {
    let spec = motion_specs(std::slice::from_ref(&a.motion), "walk", &a.axes)?;
    let input = load(&a.skeleton)?;
    let r = build::motion_stage(&input.sk, &spec[0], a.fps, &Limits::current())?;
    println!("{}", build::motion_json(&input.sk, &r));
    Ok(String::new())
}

/// Runs `re2d rig …`.
pub fn run(c: &RigCmd) -> i32 {
    let (name, r) = match c {
        RigCmd::Build(a) => ("re2d rig build", do_build(a)),
        RigCmd::Slice(a) => ("re2d rig slice", do_slice(a)),
        RigCmd::Verify(a) => ("re2d rig verify", do_verify(a)),
        RigCmd::Mesh(a) => ("re2d rig mesh", do_mesh(a)),
        RigCmd::Motion(a) => ("re2d rig motion", do_motion(a)),
    };
    match r {
        Ok(s) => {
            if !s.is_empty() {
                println!("{s}");
            }
            0
        }
        Err(Fail(msg, code)) => {
            eprintln!("{name}: {msg}");
            code
        }
    }
}
