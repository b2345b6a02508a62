// re2d export-riv / re2d riv check / re2d riv render-ref: Rive .riv export of skeleton meshes (issue 8; spec rive-export.md §9, §10.1, §10.2).
//! Argument parsing and output only; the work is in `re2d_riv`.
//! Exit codes: 0 success, 1 invalid model, option value or rejected file,
//! 2 usage, 3 I/O. Errors are one line on stderr; output files are
//! published atomically.

use std::path::{Path, PathBuf};

use re2d::limits::Limits;
use re2d_riv::check::{Report, check_bytes};
use re2d_riv::reference::{RefOptions, render};
use re2d_riv::{Control, Model, Options, RivError, export};

fn pair<T: std::str::FromStr>(s: &str) -> Result<(T, T), String> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| format!("'{s}' is not two comma-separated numbers"))?;
    let p = |x: &str| {
        x.trim()
            .parse::<T>()
            .map_err(|_| format!("'{x}' is not a valid number"))
    };
    Ok((p(a)?, p(b)?))
}

fn size(s: &str) -> Result<(u32, u32), String> {
    pair::<u32>(s)
}

fn offset(s: &str) -> Result<(f64, f64), String> {
    let (x, y) = pair::<f64>(s)?;
    if x.is_finite() && y.is_finite() {
        Ok((x, y))
    } else {
        Err("the offset must be finite".into())
    }
}

fn control(s: &str) -> Result<Control, String> {
    Control::parse(s).ok_or_else(|| {
        let names: Vec<&str> = Control::ALL.iter().map(|c| c.name()).collect();
        format!("unknown control '{s}' ({})", names.join(", "))
    })
}

/// `re2d export-riv` arguments.
#[derive(clap::Args)]
pub struct ExportArgs {
    /// Model JSON (rive-export.md §7); texture paths are relative to it.
    model: PathBuf,
    /// Output .riv file (replaced atomically).
    #[arg(short = 'o', long, value_name = "OUT.riv")]
    output: PathBuf,
    /// Export only this clip (default: every clip).
    #[arg(long)]
    clip: Option<String>,
    /// Animation frames per second (key times are rounded to frames).
    #[arg(long, default_value_t = 60)]
    fps: u32,
    /// Artboard size W,H (default: the rest-pose bounds plus a margin).
    #[arg(long, value_name = "W,H", value_parser = size)]
    artboard: Option<(u32, u32)>,
    /// Offset X,Y added to root bones and vertices (default: computed).
    #[arg(long, value_name = "X,Y", value_parser = offset, allow_hyphen_values = true)]
    offset: Option<(f64, f64)>,
    /// Write an empty table of contents.
    #[arg(long)]
    empty_toc: bool,
    /// Write a deliberately broken file (negative control):
    /// zflip, tflip, unbind, forest, static, ramp, badversion, toc16, notranslate,
    /// sm-wrongtarget, sm-unread, nodraworder.
    #[arg(long, value_name = "NAME", value_parser = control)]
    control: Option<Control>,
}

/// `re2d riv` subcommands.
#[derive(clap::Subcommand)]
pub enum RivCmd {
    /// Structural check of a .riv file (rive-export.md §10.1).
    Check(CheckArgs),
    /// Render the model itself (not the .riv) as the reference frame (§10.2).
    RenderRef(RefArgs),
}

/// `re2d riv check` arguments.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// The .riv file.
    file: PathBuf,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// `re2d riv render-ref` arguments.
#[derive(clap::Args)]
pub struct RefArgs {
    /// Model JSON (as for export-riv).
    model: PathBuf,
    /// Clip to sample (default: the rest pose).
    #[arg(long)]
    clip: Option<String>,
    /// Clip time in seconds.
    #[arg(long, default_value_t = 0.0)]
    time: f64,
    /// Export fps: key times are quantised to it, as in the .riv.
    #[arg(long, default_value_t = 60)]
    fps: u32,
    /// Artboard size W,H (as for export-riv).
    #[arg(long, value_name = "W,H", value_parser = size)]
    artboard: Option<(u32, u32)>,
    /// Offset X,Y (as for export-riv).
    #[arg(long, value_name = "X,Y", value_parser = offset, allow_hyphen_values = true)]
    offset: Option<(f64, f64)>,
    /// Render only this part (coverage masks).
    #[arg(long, value_name = "NAME")]
    part: Option<String>,
    /// Output PNG (replaced atomically).
    #[arg(short = 'o', long, value_name = "FRAME.png")]
    output: PathBuf,
}

struct Fail(String, i32);

impl From<RivError> for Fail {
    fn from(e: RivError) -> Fail {
        let code = e.exit_code();
        Fail(e.to_string(), code)
    }
}

fn load(path: &Path) -> Result<Model, Fail> {
    Model::load(path, &Limits::current())
        .map_err(|e| Fail(format!("{}: {e}", path.display()), e.exit_code()))
}

fn do_export(a: &ExportArgs) -> Result<String, Fail> {
    let model = load(&a.model)?;
    let opts = Options {
        clip: a.clip.clone(),
        fps: a.fps,
        artboard: a.artboard,
        offset: a.offset,
        empty_toc: a.empty_toc,
        control: a.control,
    };
    let out = export(&model, &opts)?;
    // Self-check with the independent reader (skipped for the two controls
    // that are unreadable by design).
    if !matches!(a.control, Some(Control::Badversion | Control::Toc16)) {
        let file = re2d_riv::read::read(&out.bytes).map_err(|e| {
            Fail(
                format!("internal error: the written file does not read back: {e}"),
                1,
            )
        })?;
        if let Some(d) = re2d_riv::roundtrip::compare(&out.objects, &file) {
            return Err(Fail(format!("internal error: round trip differs: {d}"), 1));
        }
        let report = re2d_riv::check::check(&file);
        if let Some(p) = report.problems.first() {
            return Err(Fail(
                format!("internal error: the written file fails the check: {p}"),
                1,
            ));
        }
    }
    let mut inputs: Vec<PathBuf> = vec![a.model.clone()];
    let dir = a.model.parent().unwrap_or(Path::new(""));
    for t in &model.textures {
        inputs.extend(t.path.as_ref().map(|p| dir.join(p)));
    }
    let refs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    re2d_output::publish::publish(&a.output, &out.bytes, &refs)
        .map_err(|e| Fail(e.to_string(), e.exit_code()))?;
    for w in &out.warnings {
        eprintln!("re2d export-riv: warning: {w}");
    }
    let clips = model
        .clips
        .iter()
        .filter(|c| a.clip.as_ref().is_none_or(|n| n == &c.name))
        .count();
    Ok(format!(
        "{}: {} bytes, {} bones, {} parts, {} clips, artboard {}x{}, offset {},{}{}",
        a.output.display(),
        out.bytes.len(),
        model.bones.len(),
        model.parts.len(),
        clips,
        out.frame.width,
        out.frame.height,
        out.frame.ox,
        out.frame.oy,
        a.control
            .map_or(String::new(), |c| format!(" (control {})", c.name()))
    ))
}

/// Runs `re2d export-riv`.
pub fn run_export(a: &ExportArgs) -> i32 {
    finish("re2d export-riv", do_export(a))
}

fn json_report(path: &Path, r: &Report) -> String {
    let s = &r.summary;
    let v = serde_json::json!({
        "file": path.display().to_string(),
        "ok": r.ok(),
        "major": s.major,
        "minor": s.minor,
        "tocKeys": s.toc_keys,
        "objects": s.objects,
        "assets": s.assets.iter().map(|(n, w, h, b)| serde_json::json!({"name": n, "width": w, "height": h, "bytes": b})).collect::<Vec<_>>(),
        "artboard": s.artboard.as_ref().map(|(n, w, h)| serde_json::json!({"name": n, "width": w, "height": h})),
        "bones": s.bones,
        "meshes": s.meshes.iter().map(|(n, v, t, k)| serde_json::json!({"image": n, "vertices": v, "triangles": t, "skinned": k})).collect::<Vec<_>>(),
        "animations": s.animations.iter().map(|(n, f, d, l, o, k)| serde_json::json!({"name": n, "fps": f, "duration": d, "loop": l, "keyedObjects": o, "keys": k})).collect::<Vec<_>>(),
        "stateMachines": r.contents.machines.iter().map(|m| serde_json::json!({
            "name": m.name,
            "inputs": m.inputs.iter().map(|i| serde_json::json!({"name": i.name, "type": i.kind, "value": i.value})).collect::<Vec<_>>(),
            "layers": m.layers.iter().map(|l| serde_json::json!({
                "name": l.name,
                "states": l.states.iter().map(|st| serde_json::json!({
                    "type": st.kind, "clip": st.clip, "input": st.input,
                    "blend": st.blend.iter().map(|(c, v)| serde_json::json!({"clip": c, "value": v})).collect::<Vec<_>>(),
                    "transitions": st.transitions.iter().map(|t| serde_json::json!({"to": t.to, "exitTime": t.exit, "conditions": t.conditions})).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "drawRules": r.contents.rules.iter().map(|d| serde_json::json!({
            "image": d.image,
            "targets": d.targets.iter().map(|(n, p)| serde_json::json!({"image": n, "placement": p})).collect::<Vec<_>>(),
            "keys": d.keyed.iter().map(|(c, n)| serde_json::json!({"clip": c, "keys": n})).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "problems": r.problems,
        "problemCount": r.problem_count,
    });
    v.to_string()
}

fn do_check(a: &CheckArgs) -> Result<String, Fail> {
    let limits = Limits::current();
    let data =
        re2d::limits::read_file(&a.file, limits.file_max_bytes, "file-max-bytes").map_err(|e| {
            match e {
                re2d::limits::ReadError::Io(e) => Fail(format!("{}: {e}", a.file.display()), 3),
                re2d::limits::ReadError::TooLarge(e) => {
                    Fail(format!("{}: {e}", a.file.display()), 1)
                }
            }
        })?;
    let r = check_bytes(&data, &limits);
    if a.json {
        println!("{}", json_report(&a.file, &r));
    } else {
        for p in &r.problems {
            println!("{}: {p}", a.file.display());
        }
    }
    if let Some(first) = r.problems.first() {
        return Err(Fail(
            format!(
                "{}: rejected, {} problem(s); first: {first}",
                a.file.display(),
                r.problem_count
            ),
            1,
        ));
    }
    let s = &r.summary;
    Ok(if a.json {
        String::new()
    } else {
        let listing: String = r
            .contents
            .lines()
            .iter()
            .map(|l| format!("\n{l}"))
            .collect();
        format!(
            "{}: ok (major {}, minor {}, {} ToC keys, {} objects, {} images, {} bones, {} meshes, {} animations){listing}",
            a.file.display(),
            s.major,
            s.minor,
            s.toc_keys,
            s.objects,
            s.assets.len(),
            s.bones,
            s.meshes.len(),
            s.animations.len()
        )
    })
}

fn do_render(a: &RefArgs) -> Result<String, Fail> {
    let model = load(&a.model)?;
    let opts = RefOptions {
        clip: a.clip.clone(),
        time: a.time,
        fps: a.fps,
        artboard: a.artboard,
        offset: a.offset,
        only_part: a.part.clone(),
    };
    let img = render(&model, &opts, &Limits::current())?;
    let png = re2d_output::png_encode::encode_rgba(&img.data, img.width, img.height)
        .map_err(|e| Fail(format!("{}: {e}", a.output.display()), 3))?;
    let mut inputs: Vec<PathBuf> = vec![a.model.clone()];
    let dir = a.model.parent().unwrap_or(Path::new(""));
    for t in &model.textures {
        inputs.extend(t.path.as_ref().map(|p| dir.join(p)));
    }
    let refs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    re2d_output::publish::publish(&a.output, &png, &refs)
        .map_err(|e| Fail(e.to_string(), e.exit_code()))?;
    Ok(format!(
        "{}: {}x{}",
        a.output.display(),
        img.width,
        img.height
    ))
}

/// Runs `re2d riv …`.
pub fn run(c: &RivCmd) -> i32 {
    match c {
        RivCmd::Check(a) => finish("re2d riv check", do_check(a)),
        RivCmd::RenderRef(a) => finish("re2d riv render-ref", do_render(a)),
    }
}

fn finish(cmd: &str, r: Result<String, Fail>) -> i32 {
    match r {
        Ok(s) => {
            if !s.is_empty() {
                println!("{s}");
            }
            0
        }
        Err(Fail(msg, code)) => {
            eprintln!("{cmd}: {msg}");
            code
        }
    }
}
