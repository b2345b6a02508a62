// re2d export-riv / re2d riv check / re2d riv render-ref: Rive .riv export of skeleton meshes (issue 8; spec rive-export.md §9, §10.1, §10.2).
//! Argument parsing and output only; the work is in `re2d_riv`.
//! Exit codes: 0 success, 1 invalid model, option value or rejected file,
//! 2 usage, 3 I/O. Errors are one line on stderr; output files are
//! published atomically.

use std::path::{Path, PathBuf};

use re2d::limits::Limits;
use re2d_riv::check::{Report, check_bytes};
use re2d_riv::reference::{Scene, render_scene};
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
    /// Count the pixels inside the posed silhouette that the parts leave uncovered (seams), at rest
    /// and over every clip; exit 1 when a frame exceeds the bound.
    Seams(SeamArgs),
}

/// A `CLIP@SECONDS` layer.
fn layer(s: &str) -> Result<(String, f64), String> {
    let (c, t) = s
        .rsplit_once('@')
        .ok_or_else(|| format!("'{s}' is not CLIP@SECONDS"))?;
    let t: f64 = t
        .trim()
        .parse()
        .map_err(|_| format!("'{t}' is not a number of seconds"))?;
    if c.is_empty() || !t.is_finite() || t < 0.0 {
        return Err(format!(
            "'{s}' is not CLIP@SECONDS (a clip name, a time >= 0)"
        ));
    }
    Ok((c.to_string(), t))
}

/// `re2d riv seams` arguments.
#[derive(clap::Args)]
pub struct SeamArgs {
    /// Model JSON (as for export-riv).
    model: PathBuf,
    /// Clips to sample (repeatable; default: every clip).
    #[arg(long)]
    clip: Vec<String>,
    /// Frames sampled per clip, evenly over its duration (the rest pose is always counted).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    samples: u32,
    /// Export fps: key times are quantised to it, as in the .riv.
    #[arg(long, default_value_t = 60)]
    fps: u32,
    /// Largest share of the silhouette a frame may leave uncovered (default 0.0005 = 0.05 %).
    #[arg(long, default_value_t = re2d_riv::seams::MAX_SHARE)]
    max_share: f64,
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
    /// A clip played over --clip, as a state-machine layer: it overrides the bones it keys
    /// (repeatable, in order; CLIP@SECONDS).
    #[arg(long, value_name = "CLIP@SECONDS", value_parser = layer)]
    layer: Vec<(String, f64)>,
    /// Also write the seam mask: white where two or more parts meet inside the posed silhouette
    /// (eroded by its soft rim), the pixels `re2d riv seams` counts.
    #[arg(long, value_name = "MASK.png")]
    seam_mask: Option<PathBuf>,
    /// The rim eroded from the silhouette for --seam-mask, pixels (default: two texels of the model's
    /// textures, at least 1).
    #[arg(long, value_name = "PX", requires = "seam_mask")]
    seam_rim: Option<u32>,
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
        // read back with room for exactly the records written (the reader
        // otherwise reserves for as many as the file's size could hold)
        let back = Limits {
            riv_max_objects: (out.objects.len() as u64).max(1),
            ..Limits::current()
        };
        let file = re2d_riv::read::read_with(&out.bytes, &back).map_err(|e| {
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
    if !a.time.is_finite() || a.time < 0.0 {
        return Err(RivError::new(
            re2d_riv::Code::Option,
            "--time must be a finite number >= 0",
        )
        .into());
    }
    if a.clip.is_none() && !a.layer.is_empty() {
        return Err(Fail(
            "--layer needs --clip (the clip it plays over)".into(),
            2,
        ));
    }
    let mut layers: Vec<(String, f64)> = a.clip.iter().map(|c| (c.clone(), a.time)).collect();
    layers.extend(a.layer.iter().cloned());
    let scene = Scene {
        layers,
        fps: a.fps,
        artboard: a.artboard,
        offset: a.offset,
        view: None,
        only_part: a.part.clone(),
        silhouette: a.seam_mask.is_some(),
    };
    let out = render_scene(&model, &scene, &Limits::current())?;
    let img = out.image;
    let png = re2d_output::png_encode::encode_rgba(&img.data, img.width, img.height)
        .map_err(|e| Fail(format!("{}: {e}", a.output.display()), 3))?;
    let mut inputs: Vec<PathBuf> = vec![a.model.clone()];
    let dir = a.model.parent().unwrap_or(Path::new(""));
    for t in &model.textures {
        inputs.extend(t.path.as_ref().map(|p| dir.join(p)));
    }
    let refs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    let mask_png = match (&a.seam_mask, &out.silhouette) {
        (Some(p), Some(cover)) => {
            if p == &a.output {
                return Err(Fail(
                    "--seam-mask and --output name the same file".into(),
                    2,
                ));
            }
            let rim = a
                .seam_rim
                .map_or_else(|| re2d_riv::seams::rim(&model, 1.0), |r| r as usize);
            let m = re2d_riv::seams::mask(cover, img.width as usize, img.height as usize, rim);
            let px: Vec<u8> = m
                .iter()
                .flat_map(|&v| {
                    if v {
                        [255, 255, 255, 255]
                    } else {
                        [0, 0, 0, 0]
                    }
                })
                .collect();
            Some((
                p,
                re2d_output::png_encode::encode_rgba(&px, img.width, img.height)
                    .map_err(|e| Fail(format!("{}: {e}", p.display()), 3))?,
            ))
        }
        _ => None,
    };
    if let Some((p, _)) = &mask_png {
        re2d_output::publish::check_clash(p, &refs)
            .map_err(|e| Fail(e.to_string(), e.exit_code()))?;
    }
    re2d_output::publish::publish(&a.output, &png, &refs)
        .map_err(|e| Fail(e.to_string(), e.exit_code()))?;
    if let Some((p, bytes)) = &mask_png {
        re2d_output::publish::publish(p, bytes, &refs)
            .map_err(|e| Fail(e.to_string(), e.exit_code()))?;
    }
    Ok(format!(
        "{}: {}x{}",
        a.output.display(),
        img.width,
        img.height
    ))
}

fn do_seams(a: &SeamArgs) -> Result<String, Fail> {
    let model = load(&a.model)?;
    if !(a.max_share.is_finite() && (0.0..=1.0).contains(&a.max_share)) {
        return Err(Fail(
            format!("--max-share {} is not a share in [0, 1]", a.max_share),
            1,
        ));
    }
    let clips: Vec<String> = if a.clip.is_empty() {
        model.clips.iter().map(|c| c.name.clone()).collect()
    } else {
        a.clip.clone()
    };
    let counted = re2d_riv::seams::survey(&model, &clips, a.samples, a.fps, &Limits::current())?;
    let pct = |s: &re2d_riv::seams::Seams| 100.0 * s.share();
    // one line per clip: its worst frame
    let mut labels: Vec<Option<&String>> = vec![None];
    labels.extend(clips.iter().map(Some));
    for l in labels {
        let worst = counted
            .iter()
            .filter(|c| c.clip.as_ref() == l)
            .max_by(|x, y| x.seams.share().total_cmp(&y.seams.share()));
        if let Some(c) = worst {
            println!(
                "{}: worst at {:.3} s: {} uncovered of {} px ({:.4} %)",
                l.map_or("rest", |s| s.as_str()),
                c.time,
                c.seams.uncovered,
                c.seams.silhouette,
                pct(&c.seams)
            );
        }
    }
    let Some(w) = counted
        .iter()
        .max_by(|x, y| x.seams.share().total_cmp(&y.seams.share()))
    else {
        return Ok(String::new());
    };
    let summary = format!(
        "{}: seams: {} frames, worst {} at {:.3} s: {} uncovered of {} px ({:.4} %), bound {:.4} %",
        a.model.display(),
        counted.len(),
        w.clip.as_deref().unwrap_or("rest"),
        w.time,
        w.seams.uncovered,
        w.seams.silhouette,
        pct(&w.seams),
        100.0 * a.max_share
    );
    if w.seams.share() > a.max_share {
        return Err(Fail(format!("E_SEAMS: {summary}"), 1));
    }
    Ok(summary)
}

/// Runs `re2d riv …`.
pub fn run(c: &RivCmd) -> i32 {
    match c {
        RivCmd::Check(a) => finish("re2d riv check", do_check(a)),
        RivCmd::RenderRef(a) => finish("re2d riv render-ref", do_render(a)),
        RivCmd::Seams(a) => finish("re2d riv seams", do_seams(a)),
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
