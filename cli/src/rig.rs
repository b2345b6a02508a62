// re2d rig build|slice|verify|mesh|motion|edit|page: from one drawing and a declared skeleton to a walking .riv (issue 19; spec rig.md).
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
    /// Place the skeleton on the drawing with the mouse in a local web page (127.0.0.1 only), see the parts it cuts, save the declaration.
    Edit(EditArgs),
    /// Write a page that plays a .riv (a clip or its state machine) in the official Rive web runtime, from file://.
    Page(PageArgs),
    /// Render a built model's clip: PNG frames, a sheet, a strip, a GIF or an animated PNG,
    /// cropped to the character's motion box.
    Render(Box<crate::rig_render::Args>),
    /// Guess a skeleton declaration from a drawing (PNG or JPEG): humanoid or quadruped, a confidence per bone.
    Guess(GuessArgs),
}

/// `re2d rig edit` arguments.
#[derive(clap::Args)]
pub struct EditArgs {
    /// A skeleton declaration JSON, or a drawing (PNG) alone: its declaration is then <stem>.skeleton.json beside it, started from a default skeleton in the figure's box and written when the page saves.
    path: PathBuf,
    /// The port on 127.0.0.1 (0: one the system picks).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Print the URL only; do not open a browser.
    #[arg(long)]
    no_open: bool,
    /// A motion of the page's Build button (its walk strip) and whose joint names the mocap map offers, repeatable: NAME=FILE.bvh[:once|:loop] or FILE.bvh (see rig build).
    #[arg(long, value_name = "NAME=FILE.bvh[:once]")]
    motion: Vec<String>,
    /// How pixels inside several tubes (or none) are owned at first: `paint` or `tubes` (the page can switch).
    #[arg(long, default_value = "paint", value_parser = ["paint", "tubes"])]
    slicing: String,
}

/// `re2d rig page` arguments.
#[derive(clap::Args)]
pub struct PageArgs {
    /// The .riv to play (embedded in the page, so the page opens as a file).
    riv: PathBuf,
    /// Play this clip (looping as the file says); unknown names are refused with the list of clips.
    #[arg(long, value_name = "NAME", conflicts_with = "machine")]
    clip: Option<String>,
    /// Play the state machine (the first one, or NAME) with a slider per Number input and a button
    /// per Trigger. Without --clip and --machine: the state machine when there is one, else the first clip.
    #[arg(long, value_name = "NAME", num_args = 0..=1, default_missing_value = "")]
    machine: Option<String>,
    /// The page to write (default: <clip>.html or machine.html beside the .riv); rive.js is written
    /// beside it.
    #[arg(short = 'o', long, value_name = "FILE.html")]
    output: Option<PathBuf>,
    #[command(flatten)]
    runtime: RuntimeArg,
}

/// Where the Rive web runtime comes from.
#[derive(clap::Args)]
pub struct RuntimeArg {
    /// The Rive web runtime to copy beside the pages (rive.js of @rive-app/canvas-single 2.43.1;
    /// default: PREFIX/share/re2d/rive.js of an installed re2d, or the copy `make deps` puts in the
    /// source tree's tests/browser/node_modules).
    #[arg(long, value_name = "rive.js")]
    runtime: Option<PathBuf>,
}

/// `re2d rig guess` arguments.
#[derive(clap::Args)]
pub struct GuessArgs {
    /// The drawing (PNG or JPEG; a photo of paper is recognised).
    drawing: PathBuf,
    /// Where to write the declaration (default: stdout).
    #[arg(short = 'o', long = "out", value_name = "SKELETON.json")]
    out: Option<PathBuf>,
    /// The background rule: auto, alpha, paper or #rrggbb (as the declaration's `background`).
    #[arg(long, default_value = "auto")]
    background: String,
}

/// `re2d rig build` arguments.
#[derive(clap::Args)]
pub struct BuildArgs {
    /// Skeleton declaration JSON (rig.md §1; its `image` is relative to it), AnimatedDrawings'
    /// char_cfg.yaml (texture.png and mask.png beside it), or a drawing (PNG or JPEG) whose skeleton
    /// is guessed (the guess is written as skeleton.json in the output folder).
    skeleton: PathBuf,
    /// A motion clip from a BVH capture, repeatable: NAME=FILE.bvh (cyclic when the capture has a
    /// repeating gait, else one-shot), NAME=FILE.bvh:once (one-shot), NAME=FILE.bvh:loop (one gait
    /// cycle or an error), or a bare FILE.bvh named by --clip. A last :arms, :legs, :upper, :lower
    /// or :bone,bone,… drives only that body part, as a state-machine layer over the walk (default:
    /// the declaration's motion_bones, else the whole body). Without a motion called idle, an idle
    /// clip holding the drawn pose is added.
    #[arg(long, value_name = "NAME=FILE.bvh[:PART]")]
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
    /// The folder also gets <clip>.html per clip and machine.html, pages that play character.riv
    /// from file:// with rive.js beside them (without a runtime found: no pages, one warning).
    #[command(flatten)]
    runtime: RuntimeArg,
    /// Drawing pixels of hidden fill every part keeps around its own paint, under its nearer
    /// neighbours' edges (0: none; the seams between parts then show, for comparison).
    #[arg(long, default_value_t = re2d_rig::skin::reveal::SEAM_PAD as u16, value_name = "PX")]
    seam_pad: u16,
    /// Also write strip_<clip>.png per clip: eight frames in a row, cropped to the clip's motion box
    /// (the drawn figure 320 px tall).
    #[arg(long)]
    strips: bool,
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
    /// The largest turn of a bone from its drawn pose, repeatable: [NAME=]DEG in (0, 180] (default
    /// 90). Keys beyond it are clamped (a warning counts them). Wider follows the capture further (a
    /// waving arm raised above the shoulder) at the price of poses the drawing was not made for: a
    /// joint bent far opens or folds its blend zone and shows the hidden fill behind it.
    #[arg(long, value_name = "[NAME=]DEG", alias = "max-angle")]
    max_turn: Vec<String>,
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
    build::check_clip_names(&specs).map_err(|e| usage(format!("--motion: {}", e.message)))?;
    // an override without a motion to apply to is a mistake, not a no-op
    for (flag, list) in [
        ("--range", &f.range),
        ("--up", &f.up),
        ("--forward", &f.forward),
    ] {
        if let (Some(v), true) = (list.first(), specs.is_empty()) {
            return Err(usage(format!(
                "{flag} {v}: there is no --motion to apply it to"
            )));
        }
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
    for v in &f.max_turn {
        let (n, x) = split("--max-turn", v, &specs)?;
        let d = build::parse_max_turn(x).map_err(|e| usage(format!("--max-turn {e}")))?;
        for s in specs.iter_mut().filter(|s| n.is_none_or(|n| s.name == n)) {
            s.max_turn = Some(d);
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

/// The pinned runtime's file in `@rive-app/canvas-single` (what the pages load).
const RUNTIME_IN_NPM: &str = "tests/browser/node_modules/@rive-app/canvas-single/rive.js";

/// The Rive web runtime: `--runtime FILE` (an unreadable one is exit 3), else
/// the first of `<prefix>/share/re2d/rive.js` beside an installed binary and
/// the source tree's `tests/browser/node_modules` copy (a binary in
/// `target/<profile>/`); `None` when there is none.
fn find_runtime(a: &RuntimeArg) -> Result<Option<(PathBuf, Vec<u8>)>, Fail> {
    let read = |p: &Path| re2d::limits::read_binary_file(p).map(|b| (p.to_path_buf(), b));
    if let Some(p) = &a.runtime {
        return read(p)
            .map(Some)
            .map_err(|e| Fail(format!("--runtime {}: {e}", p.display()), e.exit_code()));
    }
    let Some(bin) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf))
    else {
        return Ok(None);
    };
    let candidates = [
        bin.join("../share/re2d/rive.js"),
        bin.join("../..").join(RUNTIME_IN_NPM),
    ];
    Ok(candidates.iter().find_map(|p| read(p).ok()))
}

fn no_runtime() -> String {
    format!(
        "the Rive web runtime rive.js was not found: give --runtime FILE (rive.js of @rive-app/canvas-single 2.43.1; `make deps` installs it in {RUNTIME_IN_NPM}, `make install` in PREFIX/share/re2d)"
    )
}

fn load(p: &Path) -> Result<Input, Fail> {
    Ok(build::load(p, &Limits::current())?)
}

fn do_build(a: &BuildArgs) -> Result<String, Fail> {
    precheck(&a.out, a.force)?;
    let start = Instant::now();
    // a declaration, AnimatedDrawings' char_cfg.yaml, or a drawing whose skeleton is guessed
    let (input, made) = build::load_any(&a.skeleton, &Limits::current())?;
    let runtime = find_runtime(&a.runtime)?;
    let opts = Options {
        motions: motion_specs(&a.motion, &a.clip, &a.axes)?,
        fps: a.fps,
        slicing: rule(&a.slicing),
        runtime: runtime.as_ref().map(|r| r.1.clone()),
        seam_pad: a.seam_pad as usize,
        strips: a.strips,
    };
    let mut built = build::build(&input, &opts, &Limits::current())?;
    if runtime.is_none() && !opts.motions.is_empty() {
        eprintln!("re2d rig build: warning: no pages: {}", no_runtime());
    }
    if let Some(text) = made {
        // the declaration made (guessed or read from char_cfg.yaml), naming its drawing from the folder
        let mut v: serde_json::Value = serde_json::from_slice(&text).unwrap_or_default();
        v["image"] = serde_json::json!(image_ref(&a.out, &input.image_path));
        let mut text = serde_json::to_vec_pretty(&v).unwrap_or_default();
        text.push(b'\n');
        built.files.push(("skeleton.json".into(), text));
    }
    // every warning of the report, one line each (report.json "warnings")
    if let Some(w) = built.report["warnings"].as_array() {
        for w in w {
            eprintln!("re2d rig build: warning: {}", w.as_str().unwrap_or(""));
        }
    }
    let mut inputs: Vec<&Path> = vec![a.skeleton.as_path(), input.image_path.as_path()];
    for m in &opts.motions {
        inputs.push(m.path.as_path());
    }
    if let Some((p, _)) = &runtime {
        inputs.push(p.as_path());
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

fn do_edit(a: &EditArgs) -> Result<String, Fail> {
    let mut motions = Vec::new();
    for m in &a.motion {
        motions
            .push(build::MotionSpec::parse(m, "walk").map_err(|e| usage(format!("--motion {e}")))?);
    }
    let opts = re2d_edit::Options {
        path: a.path.clone(),
        port: a.port,
        motions,
        rule: rule(&a.slicing),
    };
    let server = re2d_edit::Server::start(&opts, &Limits::current())?;
    println!(
        "re2d rig edit: {} (editing {}; Ctrl-C stops, closing the page stops too)",
        server.url,
        server.app.session.decl_path.display()
    );
    use std::io::Write;
    let _ = std::io::stdout().flush();
    if !a.no_open
        && let Err(e) = re2d_edit::server::open_browser(&server.url)
    {
        eprintln!("re2d rig edit: could not open a browser ({e}): open the URL above");
    }
    server.wait();
    Ok("re2d rig edit: the page was closed".into())
}

fn do_page(a: &PageArgs) -> Result<String, Fail> {
    use re2d_riv::page::{Playable, page};
    let limits = Limits::current();
    let bytes = re2d::limits::read_binary_file(&a.riv)
        .map_err(|e| Fail(format!("{}: {e}", a.riv.display()), e.exit_code()))?;
    let bad = |e: String| Fail(format!("{}: {e}", a.riv.display()), 1);
    let file = re2d_riv::read::read_with(&bytes, &limits).map_err(|e| bad(e.to_string()))?;
    let report = re2d_riv::check::check_with(&file, &limits);
    if let Some(p) = report.problems.first() {
        return Err(bad(format!("not a .riv the runtime plays: {p}")));
    }
    let info = Playable::of(&file).map_err(|e| bad(e.to_string()))?;
    drop(file);
    let play = info
        .choose(
            a.clip.as_deref(),
            a.machine
                .as_deref()
                .map(|m| Some(m).filter(|m| !m.is_empty())),
        )
        .map_err(|e| bad(e.to_string()))?;
    let out = a.output.clone().unwrap_or_else(|| {
        a.riv
            .parent()
            .unwrap_or(Path::new(""))
            .join(play.file_name())
    });
    let Some((rt_path, rt)) = find_runtime(&a.runtime)? else {
        return Err(Fail(no_runtime(), 3));
    };
    let title = a.riv.file_name().map_or_else(
        || "character.riv".into(),
        |n| n.to_string_lossy().into_owned(),
    );
    let html = page(&bytes, &title, &info, &play, build::PAGE_RUNTIME);
    let dir = out.parent().unwrap_or(Path::new(""));
    let beside = dir.join(build::PAGE_RUNTIME);
    let published = |target: &Path, bytes: &[u8], inputs: &[&Path]| {
        re2d_output::publish::publish(target, bytes, inputs)
            .map_err(|e| Fail(e.to_string(), e.exit_code()))
    };
    // the runtime beside the page, unless the same bytes are there already
    if std::fs::read(&beside).ok().as_deref() != Some(rt.as_slice()) {
        published(&beside, &rt, &[a.riv.as_path(), rt_path.as_path()])?;
    }
    published(&out, html.as_bytes(), &[a.riv.as_path(), rt_path.as_path()])?;
    let what = match &play {
        re2d_riv::page::Play::Clip(c) => format!("clip {c}"),
        re2d_riv::page::Play::Machine(m) => format!("state machine {m}"),
    };
    Ok(format!(
        "{}: plays {what} of {} ({}x{} canvas), {} beside it; open it as a file",
        out.display(),
        a.riv.display(),
        info.artboard.1.ceil(),
        info.artboard.2.ceil(),
        build::PAGE_RUNTIME
    ))
}

/// The image path as a declaration in `dir` names it: its file name when it
/// lies in `dir`, else its absolute path.
fn image_ref(dir: &Path, image: &Path) -> String {
    let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let img = canon(image);
    let d = canon(if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    });
    match (img.parent(), img.file_name()) {
        (Some(p), Some(f)) if p == d => f.to_string_lossy().into_owned(),
        _ => img.to_string_lossy().into_owned(),
    }
}

/// Reads a drawing and guesses its declaration (`dir`: where the declaration will live).
fn guess_of(drawing: &Path, background: &str, dir: &Path) -> Result<re2d_rig::guess::Guess, Fail> {
    let limits = Limits::current();
    let bg = re2d_rig::declare::skeleton::Background::parse(background).ok_or_else(|| {
        usage(format!(
            "--background {background}: not auto, alpha, paper or #rrggbb"
        ))
    })?;
    let bytes =
        re2d::limits::read_file(drawing, limits.file_max_bytes, "file-max-bytes").map_err(|e| {
            match e {
                re2d::limits::ReadError::Io(e) => {
                    Fail(format!("E_IO: {}: {e}", drawing.display()), 3)
                }
                re2d::limits::ReadError::TooLarge(e) => {
                    Fail(format!("E_RIG_LIMIT: {}: {e}", drawing.display()), 1)
                }
            }
        })?;
    let what = drawing.display().to_string();
    let img = re2d_rig::declare::image::decode(&bytes, &what, &limits)?;
    Ok(re2d_rig::guess::guess(&img, bg, &image_ref(dir, drawing))?)
}

fn do_guess(a: &GuessArgs) -> Result<String, Fail> {
    let dir = a
        .out
        .as_ref()
        .and_then(|o| o.parent())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let g = guess_of(&a.drawing, &a.background, &dir)?;
    let mut text = serde_json::to_vec_pretty(&g.json).unwrap_or_default();
    text.push(b'\n');
    for (name, c) in &g.confidence {
        eprintln!("re2d rig guess: {name:16} confidence {c:.2}");
    }
    match &a.out {
        Some(o) => {
            re2d_output::publish::publish(o, &text, &[a.drawing.as_path()])
                .map_err(|e| Fail(e.to_string(), e.exit_code()))?;
            Ok(format!(
                "{}: a {} facing {}, {} bones",
                o.display(),
                g.kind,
                g.json["facing"].as_str().unwrap_or("?"),
                g.confidence.len()
            ))
        }
        None => {
            print!("{}", String::from_utf8_lossy(&text));
            Ok(String::new())
        }
    }
}

/// Runs `re2d rig …`.
pub fn run(c: &RigCmd) -> i32 {
    let (name, r) = match c {
        RigCmd::Build(a) => ("re2d rig build", do_build(a)),
        RigCmd::Slice(a) => ("re2d rig slice", do_slice(a)),
        RigCmd::Verify(a) => ("re2d rig verify", do_verify(a)),
        RigCmd::Mesh(a) => ("re2d rig mesh", do_mesh(a)),
        RigCmd::Motion(a) => ("re2d rig motion", do_motion(a)),
        RigCmd::Edit(a) => ("re2d rig edit", do_edit(a)),
        RigCmd::Page(a) => ("re2d rig page", do_page(a)),
        RigCmd::Render(a) => return crate::rig_render::run(a),
        RigCmd::Guess(a) => ("re2d rig guess", do_guess(a)),
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
