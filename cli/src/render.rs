// re2d render: a character model's clip rendered headless to PNG frames or a sprite sheet (issue 4; spec: js-rotsprite.md §6, §10.3).
//! Loads MODEL.json like `$.re2dSprite.from` (definition, animations, atlas
//! relative to the file), steps the clip at `--fps` and writes any of:
//! numbered frames (`-o DIR`), one sheet (`--sheet OUT.png`, frames left to
//! right, top to bottom in a grid of `--columns`), an animated PNG
//! (`--apng OUT.png`) or GIF (`--gif OUT.gif`) with the clip's frame delay
//! (`1/--fps`), looping when the clip loops. `--fit[=MARGIN]` crops every
//! frame to the union of the opaque bounds of all frames plus MARGIN pixels.
//! The pixel work is in `re2d_output::anim`; every file is published atomically.
//! Exit codes: 0 success, 1 invalid model or option value, 2 usage, 3 I/O.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use re2d::character::{Character, Expression, FrameRequest};
use re2d::sprite::Style;
use re2d_output::anim;

/// `re2d render` arguments.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("out").required(true).multiple(true).args(["output", "sheet", "apng", "gif"])))]
#[command(group(clap::ArgGroup::new("when").args(["frames", "time"])))]
pub struct Args {
    /// Character model JSON (its atlas and animations are resolved relative to it), or a rig model
    /// (the model.json of `re2d rig build`), rendered as `re2d rig render` does.
    model: PathBuf,
    /// Clip to play (default: the model's default motion, else its first clip).
    #[arg(long)]
    clip: Option<String>,
    /// Number of frames (default: one loop of the clip at --fps, or 1 without clips;
    /// at most the max-frames limit).
    #[arg(long, allow_negative_numbers = true)]
    frames: Option<i64>,
    /// Render one frame at this clip time in seconds.
    #[arg(long, allow_negative_numbers = true)]
    time: Option<f64>,
    /// Frames per second of clip time.
    #[arg(long, default_value_t = 12.0, allow_negative_numbers = true)]
    fps: f64,
    /// View yaw in degrees (positive turns the front toward screen right).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    yaw: f64,
    /// Yaw added per frame, degrees (turntable).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    turn: f64,
    /// View pitch in degrees (clamped to ±75).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pitch: f64,
    /// Sprite style: anime (512 px, smooth) or pixel (128 px); default: the model's.
    #[arg(long, value_parser = ["anime", "pixel"])]
    style: Option<String>,
    /// Expression, e.g. eyes=happy,mouth=smile,brows=angry.
    #[arg(long, value_parser = parse_expression)]
    expression: Option<Expression>,
    /// Write numbered frames frame-NNNN.png into this directory.
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    output: Option<PathBuf>,
    /// Write one sprite-sheet PNG (frames left to right, top to bottom; outputs may be combined).
    #[arg(long, value_name = "OUT.png")]
    sheet: Option<PathBuf>,
    /// Sheet columns (default: up to 8).
    #[arg(long, allow_negative_numbers = true)]
    columns: Option<i64>,
    /// Treat warnings (e.g. no part of the model in the atlas) as errors (exit 1).
    #[arg(long)]
    strict: bool,
    /// Write an animated PNG (plays in browsers; loops when the clip loops).
    #[arg(long, value_name = "OUT.png")]
    apng: Option<PathBuf>,
    /// Write an animated GIF (256 colours per frame, alpha cut at 128, delay in 1/100 s).
    #[arg(long, value_name = "OUT.gif")]
    gif: Option<PathBuf>,
    /// Crop every output to the union of all frames' opaque bounds plus MARGIN px (--fit=MARGIN; default 8).
    #[arg(long, value_name = "MARGIN", num_args = 0..=1, default_missing_value = "8")]
    fit: Option<u32>,
}

/// Parses `eyes=…,mouth=…,brows=…` (names are checked when rendering).
fn parse_expression(s: &str) -> Result<Expression, String> {
    let mut e = Expression::default();
    for item in s.split(',').filter(|i| !i.is_empty()) {
        let (k, v) = item
            .split_once('=')
            .ok_or_else(|| format!("'{item}' is not KEY=STATE"))?;
        let slot = match k.trim() {
            "eyes" => &mut e.eyes,
            "mouth" => &mut e.mouth,
            "brows" => &mut e.brows,
            other => {
                return Err(format!(
                    "unknown face component '{other}' (eyes, mouth, brows)"
                ));
            }
        };
        *slot = Some(v.trim().to_string());
    }
    Ok(e)
}

/// A failure: message and exit code.
struct Fail(String, i32);

fn progress(done: usize, total: usize) {
    let mut err = std::io::stderr();
    if !err.is_terminal() {
        return;
    }
    let width = 30;
    let filled = done * width / total.max(1);
    let _ = write!(
        err,
        "\r[{}{}] {done}/{total}",
        "#".repeat(filled),
        "-".repeat(width - filled)
    );
    if done == total {
        let _ = writeln!(err);
    }
    let _ = err.flush();
}

fn publish(
    path: &std::path::Path,
    rgba: &[u8],
    w: u32,
    h: u32,
    inputs: &[&std::path::Path],
) -> Result<(), Fail> {
    let png =
        re2d_output::png_encode::encode_rgba_level(rgba, w, h, re2d_output::png_encode::BALANCED)
            .map_err(|e| Fail(format!("{}: {e}", path.display()), 3))?;
    publish_bytes(path, &png, inputs)
}

fn publish_bytes(
    path: &std::path::Path,
    bytes: &[u8],
    inputs: &[&std::path::Path],
) -> Result<(), Fail> {
    re2d_output::publish::publish(path, bytes, inputs)
        .map_err(|e| Fail(e.to_string(), e.exit_code()))
}

/// A rig model (the `model.json` of `re2d rig build`, rive-export.md §7): a
/// JSON object with a `skeleton` object and no `atlas`. Unreadable files are
/// not (the character loader reports them).
fn is_rig_model(path: &std::path::Path) -> bool {
    let limits = re2d::limits::Limits::current();
    let Ok(text) = re2d::limits::read_file(path, limits.json_max_bytes, "json-max-bytes") else {
        return false;
    };
    if limits.check_json_depth(&text).is_err() {
        return false;
    }
    match serde_json::from_slice::<serde_json::Value>(&text) {
        Ok(serde_json::Value::Object(m)) => {
            m.get("skeleton").is_some_and(|v| v.is_object()) && !m.contains_key("atlas")
        }
        _ => false,
    }
}

/// `re2d render` of a rig model: the same frames as `re2d rig render`; the
/// options of a character model that have no meaning for it are refused in
/// one line that says what the model is.
fn render_rig(a: &Args) -> Result<String, Fail> {
    let what = format!(
        "{} is a rig model (the model.json of `re2d rig build`; `re2d rig render` renders its clips)",
        a.model.display()
    );
    let refuse = |opt: &str| Err(Fail(format!("{what}: {opt} does not apply to it"), 2));
    if a.yaw != 0.0 || a.turn != 0.0 || a.pitch != 0.0 {
        return refuse("--yaw/--turn/--pitch");
    }
    if a.style.is_some() {
        return refuse("--style");
    }
    if a.expression.is_some() {
        return refuse("--expression");
    }
    if a.time.is_some() {
        return refuse("--time (use --frames 1, or `re2d riv render-ref --time`)");
    }
    let frames = match a.frames {
        Some(n) => Some(
            u32::try_from(n)
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| Fail("--frames must be at least 1".into(), 1))?,
        ),
        None => None,
    };
    let columns = match a.columns {
        Some(c) => Some(
            u32::try_from(c)
                .ok()
                .filter(|&c| c >= 1)
                .ok_or_else(|| Fail("--columns must be at least 1".into(), 1))?,
        ),
        None => None,
    };
    let r = crate::rig_render::Args {
        model: a.model.clone(),
        clip: a.clip.clone(),
        over: Vec::new(),
        frames,
        fps: if frames.is_some() { None } else { Some(a.fps) },
        size: None,
        fit: a.fit,
        scale: None,
        png: a.output.clone(),
        sheet: a.sheet.clone(),
        columns,
        strip: None,
        gif: a.gif.clone(),
        apng: a.apng.clone(),
    };
    crate::rig_render::run_args(&r)
        .map_err(|crate::rig_render::Fail(m, c)| Fail(format!("{what}: {m}"), c))
}

fn render(a: &Args) -> Result<String, Fail> {
    if is_rig_model(&a.model) {
        return render_rig(a);
    }
    let model_err = |e: re2d::model::ModelError| {
        let code = if e.class == re2d::model::ErrorClass::Error {
            3
        } else {
            1
        };
        Fail(format!("{}: {e}", a.model.display()), code)
    };
    if !(a.fps.is_finite() && a.fps > 0.0) {
        return Err(Fail(
            format!("--fps must be a positive number (got {})", a.fps),
            1,
        ));
    }
    if a.time.is_some_and(|t| !t.is_finite() || t < 0.0) {
        return Err(Fail("--time must be a finite number >= 0".into(), 1));
    }
    if [a.yaw, a.turn, a.pitch].iter().any(|v| !v.is_finite()) {
        return Err(Fail("--yaw, --turn and --pitch must be finite".into(), 1));
    }
    if a.frames.is_some_and(|n| n < 1) || a.columns.is_some_and(|n| n < 1) {
        return Err(Fail("--frames and --columns must be at least 1".into(), 1));
    }
    let files = [
        ("--sheet", &a.sheet),
        ("--apng", &a.apng),
        ("--gif", &a.gif),
    ];
    for (i, (n1, p1)) in files.iter().enumerate() {
        for (n2, p2) in &files[i + 1..] {
            if p1.is_some() && p1 == p2 {
                return Err(Fail(format!("{n1} and {n2} name the same file"), 2));
            }
        }
    }
    let limits = re2d::limits::Limits::current();
    let mut ch = Character::load(&a.model).map_err(model_err)?;
    let missing = ch.parts_missing_from_atlas();
    if !ch.definition.parts.is_empty() && missing.len() == ch.definition.parts.len() {
        let msg = format!(
            "{}: no part of the model is in the atlas '{}' (the frames would be blank)",
            a.model.display(),
            ch.atlas_path.display()
        );
        if a.strict {
            return Err(Fail(msg, 1));
        }
        eprintln!("re2d render: warning: {msg}");
    }
    if let Some(s) = &a.style {
        ch.set_style(if s == "pixel" {
            Style::Pixel
        } else {
            Style::Anime
        })
        .map_err(model_err)?;
    }
    let clip = match &a.clip {
        Some(c) if !ch.clip_names().contains(&c.as_str()) => {
            return Err(Fail(
                format!(
                    "{}: unknown clip '{c}' (clips: {})",
                    a.model.display(),
                    ch.clip_names().join(", ")
                ),
                1,
            ));
        }
        Some(c) => Some(c.clone()),
        None => ch.default_clip().map(str::to_string),
    };
    let duration = clip
        .as_ref()
        .and_then(|c| ch.animations.clips.get(c))
        .map(|c| c.duration);
    let wanted = match (a.time, a.frames, duration) {
        (Some(_), _, _) => 1.0,
        (None, Some(n), _) => n as f64,
        (None, None, Some(d)) => (d * a.fps).round().max(1.0),
        (None, None, None) => 1.0,
    };
    if wanted > limits.max_frames as f64 {
        return Err(Fail(
            format!(
                "{} frames requested, more than {} (limit max-frames, see --limit; check --fps/--frames)",
                re2d_surface::fmt_num(wanted),
                limits.max_frames
            ),
            1,
        ));
    }
    let frames = wanted as usize;
    let size = ch.width();
    let looped = clip
        .as_ref()
        .and_then(|c| ch.animations.clips.get(c))
        .is_none_or(|c| c.looped);
    // Sheets, animations and --fit need every frame before writing.
    let hold = a.sheet.is_some() || a.apng.is_some() || a.gif.is_some() || a.fit.is_some();
    if hold {
        // Every buffer held at once counts: the frames, then (one after the
        // other) the cropped copies of --fit, the sheet (which holds up to
        // `columns - 1` empty cells more than the frames) and its encoded
        // PNG, the encoded APNG/GIF (at most about the frames' size).
        let frame_bytes = (size * size * 4) as u64;
        let cells = frames as u64 + a.columns.map_or(8, |c| c as u64).min(frames as u64);
        let all = (frames as u64).saturating_mul(frame_bytes);
        let second = [
            if a.fit.is_some() { all } else { 0 },
            if a.sheet.is_some() {
                cells.saturating_mul(frame_bytes).saturating_mul(2)
            } else {
                0
            },
            if a.apng.is_some() || a.gif.is_some() {
                all
            } else {
                0
            },
        ]
        .into_iter()
        .max()
        .unwrap_or(0);
        let need = all.saturating_add(second);
        let max = limits.sheet_max_bytes;
        if need > max {
            return Err(Fail(
                format!(
                    "{frames} frames of {size}x{size} px need {need} bytes in memory, more than {max} \
                     (limit sheet-max-bytes, see --limit); render fewer frames or write only -o DIR \
                     without --fit"
                ),
                1,
            ));
        }
    }
    // Outputs may not overwrite the model, its atlas or its animations file;
    // every output name is checked before the first file is written, so a
    // refused run changes no file.
    let owned: Vec<PathBuf> = [a.model.clone(), ch.atlas_path.clone()]
        .into_iter()
        .chain(ch.animations_path.clone())
        .collect();
    let inputs: Vec<&std::path::Path> = owned.iter().map(PathBuf::as_path).collect();
    let frame_path = |dir: &std::path::Path, i: usize| dir.join(format!("frame-{i:04}.png"));
    let clash = |p: &std::path::Path| {
        re2d_output::publish::check_clash(p, &inputs)
            .map_err(|e| Fail(e.to_string(), e.exit_code()))
    };
    if let Some(dir) = &a.output {
        for i in 0..frames {
            clash(&frame_path(dir, i))?;
        }
    }
    for p in [&a.sheet, &a.apng, &a.gif].into_iter().flatten() {
        clash(p)?;
    }
    if let Some(dir) = &a.output {
        std::fs::create_dir_all(dir).map_err(|e| Fail(format!("{}: {e}", dir.display()), 3))?;
    }
    let mut held: Vec<Vec<u8>> = Vec::new();
    for i in 0..frames {
        let req = FrameRequest {
            clip: clip.clone(),
            time: a.time.unwrap_or(i as f64 / a.fps),
            yaw: a.yaw + a.turn * i as f64,
            pitch: a.pitch,
            expression: a.expression.clone().unwrap_or_default(),
            visible_parts: None,
        };
        let px = ch.render(&req).map_err(model_err)?;
        match (&a.output, hold) {
            (Some(dir), false) => {
                publish(&frame_path(dir, i), px, size as u32, size as u32, &inputs)?
            }
            _ => held.push(px.to_vec()),
        }
        progress(i + 1, frames);
    }
    let mut written = Vec::new();
    if let Some(dir) = &a.output {
        written.push(dir.display().to_string());
    }
    let (mut w, mut h) = (size as u32, size as u32);
    if hold {
        if let Some(margin) = a.fit {
            let refs: Vec<&[u8]> = held.iter().map(|f| &f[..]).collect();
            let r = anim::fit_rect(&refs, w, h, margin);
            held = held.iter().map(|f| anim::crop(f, w, h, r)).collect();
            (w, h) = (r.w, r.h);
        }
        let refs: Vec<&[u8]> = held.iter().map(|f| &f[..]).collect();
        let fail = |path: &std::path::Path, e: String| Fail(format!("{}: {e}", path.display()), 1);
        if let Some(dir) = &a.output {
            for (i, f) in refs.iter().enumerate() {
                publish(&frame_path(dir, i), f, w, h, &inputs)?;
            }
        }
        if let Some(path) = &a.sheet {
            let columns = a.columns.map_or(8, |c| c.min(frames as i64) as u32);
            let (px, sw, sh) = anim::sheet(&refs, w, h, columns).map_err(|e| fail(path, e))?;
            publish(path, &px, sw, sh, &inputs)?;
            let c = (columns as usize).min(frames);
            written.push(format!("{} ({c}x{})", path.display(), frames.div_ceil(c)));
        }
        let timing = anim::Timing {
            delay: anim::Delay::from_fps(a.fps).map_err(|e| Fail(e, 1))?,
            plays: if looped { 0 } else { 1 },
        };
        if let Some(path) = &a.apng {
            let bytes = anim::encode_apng(&refs, w, h, timing).map_err(|e| fail(path, e))?;
            publish_bytes(path, &bytes, &inputs)?;
            written.push(path.display().to_string());
        }
        if let Some(path) = &a.gif {
            let bytes = anim::encode_gif(&refs, w, h, timing).map_err(|e| fail(path, e))?;
            publish_bytes(path, &bytes, &inputs)?;
            written.push(path.display().to_string());
        }
    }
    Ok(format!(
        "{frames} frames ({w}x{h} px) -> {}",
        written.join(", ")
    ))
}

pub fn run(a: &Args) -> i32 {
    match render(a) {
        Ok(summary) => {
            println!("{summary}");
            0
        }
        Err(Fail(msg, code)) => {
            eprintln!("re2d render: {msg}");
            code
        }
    }
}
