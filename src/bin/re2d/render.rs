// re2d render: a character model's clip rendered headless to PNG frames or a sprite sheet (issue 4; spec: js-rotsprite.md §6, §10.3).
//! Loads MODEL.json like `$.re2dSprite.from` (definition, animations, atlas
//! relative to the file), steps the clip at `--fps` and writes numbered
//! frames (`-o DIR`) or one sheet (`--sheet OUT.png`, frames left to right,
//! top to bottom in a grid of `--columns`). Every file is published
//! atomically. Exit codes: 0 success, 1 invalid model or option value,
//! 2 usage, 3 I/O.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use re2d::character::{Character, Expression, FrameRequest};
use re2d::sprite::Style;

/// `re2d render` arguments.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("out").required(true).args(["output", "sheet"])))]
#[command(group(clap::ArgGroup::new("when").args(["frames", "time"])))]
pub struct Args {
    /// Character model JSON (its atlas and animations are resolved relative to it).
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
    /// Write one sprite-sheet PNG instead.
    #[arg(long, value_name = "OUT.png")]
    sheet: Option<PathBuf>,
    /// Sheet columns (default: up to 8).
    #[arg(long, allow_negative_numbers = true)]
    columns: Option<i64>,
    /// Treat warnings (e.g. no part of the model in the atlas) as errors (exit 1).
    #[arg(long)]
    strict: bool,
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
    let png = re2d::png_io::encode_rgba(rgba, w, h)
        .map_err(|e| Fail(format!("{}: {e}", path.display()), 3))?;
    re2d::publish::publish(path, &png, inputs).map_err(|e| Fail(e.to_string(), e.exit_code()))
}

fn render(a: &Args) -> Result<String, Fail> {
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
    let limits = re2d::limits::Limits::current();
    let max_frames = limits.max_frames as f64;
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
    if wanted > max_frames {
        return Err(Fail(
            format!(
                "{} frames requested, more than {} (limit max-frames, see --limit; check --fps/--frames)",
                re2d::surface::fmt_num(wanted),
                limits.max_frames
            ),
            1,
        ));
    }
    let frames = wanted as usize;
    let size = ch.width();
    let columns = a
        .columns
        .map_or(frames.min(8), |c| c.min(frames as i64) as usize)
        .min(frames);
    let rows = frames.div_ceil(columns);
    let mut sheet = match &a.sheet {
        Some(_) => {
            let bytes = (columns as u64 * size as u64)
                .checked_mul(rows as u64 * size as u64)
                .and_then(|px| px.checked_mul(4))
                .filter(|&b| b <= limits.sheet_max_bytes)
                .ok_or_else(|| {
                    Fail(
                        format!(
                            "a {columns}x{rows} sheet of {size} px frames is larger than {} bytes \
                             (limit sheet-max-bytes, see --limit)",
                            limits.sheet_max_bytes
                        ),
                        1,
                    )
                })?;
            Some(re2d::png_io::zeroed(bytes as usize).map_err(|e| Fail(e, 1))?)
        }
        None => None,
    };
    // Outputs may not overwrite the model, its atlas or its animations file.
    let owned: Vec<PathBuf> = [a.model.clone(), ch.atlas_path.clone()]
        .into_iter()
        .chain(ch.animations_path.clone())
        .collect();
    let inputs: Vec<&std::path::Path> = owned.iter().map(PathBuf::as_path).collect();
    if let Some(dir) = &a.output {
        // Every frame name is checked before the first one is written, so a
        // refused run changes no file.
        for i in 0..frames {
            re2d::publish::check_clash(&dir.join(format!("frame-{i:04}.png")), &inputs)
                .map_err(|e| Fail(e.to_string(), e.exit_code()))?;
        }
        std::fs::create_dir_all(dir).map_err(|e| Fail(format!("{}: {e}", dir.display()), 3))?;
    }
    if let Some(path) = &a.sheet {
        re2d::publish::check_clash(path, &inputs)
            .map_err(|e| Fail(e.to_string(), e.exit_code()))?;
    }
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
        match (&mut sheet, &a.output) {
            (Some(sheet), _) => {
                let (cx, cy) = (i % columns, i / columns);
                let row_bytes = size * 4;
                for y in 0..size {
                    let dst = ((cy * size + y) * columns * size + cx * size) * 4;
                    sheet[dst..dst + row_bytes]
                        .copy_from_slice(&px[y * row_bytes..(y + 1) * row_bytes]);
                }
            }
            (None, Some(dir)) => publish(
                &dir.join(format!("frame-{i:04}.png")),
                px,
                size as u32,
                size as u32,
                &inputs,
            )?,
            (None, None) => unreachable!("clap requires -o or --sheet"),
        }
        progress(i + 1, frames);
    }
    match (&sheet, &a.sheet) {
        (Some(pixels), Some(path)) => {
            publish(
                path,
                pixels,
                (columns * size) as u32,
                (rows * size) as u32,
                &inputs,
            )?;
            Ok(format!(
                "{} frames ({columns}x{rows}, {size} px) -> {}",
                frames,
                path.display()
            ))
        }
        _ => Ok(format!(
            "{frames} frames ({size} px) -> {}",
            a.output
                .as_ref()
                .map_or(String::new(), |d| d.display().to_string())
        )),
    }
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
