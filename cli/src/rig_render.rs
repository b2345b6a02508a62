// re2d rig render: a rig model's clip as PNG frames, a sheet, a strip, a GIF or an animated PNG (issue 47).
//! Argument parsing and output only: the times, the motion box and the
//! frames are `re2d_riv::frames`, the sheets and animations
//! `re2d_output::anim`. `re2d render` hands a rig model (the `model.json` of
//! `re2d rig build`) to the same code.
//! Exit codes: 0 success, 1 invalid model or option value (one line), 2
//! usage, 3 I/O. Every file is published atomically; every name is checked
//! against the inputs before the first frame is rendered.

use std::path::{Path, PathBuf};

use re2d::limits::Limits;
use re2d_output::anim;
use re2d_riv::Model;
use re2d_riv::frames::{self, Count, FrameSpec, Sizing};

/// `re2d rig render` arguments.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("out").required(true).multiple(true)
    .args(["png", "sheet", "strip", "gif", "apng"])))]
pub struct Args {
    /// The rig model: the `model.json` of `re2d rig build` (textures relative to it).
    pub model: PathBuf,
    /// Clip to play (default: walk, else the first looping clip, else the first clip).
    #[arg(long)]
    pub clip: Option<String>,
    /// A clip played over --clip from its start, as a state-machine layer: it overrides the
    /// bones it keys (repeatable; e.g. --clip walk --over wave).
    #[arg(long, value_name = "CLIP")]
    pub over: Vec<String>,
    /// Number of frames over the clip (a loop leaves out its closing frame, a one-shot holds both ends).
    #[arg(long, conflicts_with = "fps", value_parser = clap::value_parser!(u32).range(1..))]
    pub frames: Option<u32>,
    /// Frames per second of clip time (default 12).
    #[arg(long)]
    pub fps: Option<f64>,
    /// Every frame WxH pixels, the motion box scaled to fit and centred.
    #[arg(long, value_name = "WxH", value_parser = wxh, conflicts_with_all = ["fit", "scale"])]
    pub size: Option<(u32, u32)>,
    /// Crop to the character's motion box plus MARGIN pixels (the default, margin 8).
    #[arg(long, value_name = "MARGIN", num_args = 0..=1, default_missing_value = "8")]
    pub fit: Option<u32>,
    /// Output pixels per model pixel (with the motion-box crop; default 1).
    #[arg(long)]
    pub scale: Option<f64>,
    /// Write numbered frames frame-NNNN.png into this folder.
    #[arg(long, value_name = "DIR")]
    pub png: Option<PathBuf>,
    /// Write one sheet: frames left to right, top to bottom in --columns (default up to 8).
    #[arg(long, value_name = "OUT.png")]
    pub sheet: Option<PathBuf>,
    /// Sheet columns.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub columns: Option<u32>,
    /// Write one strip: every frame in one row.
    #[arg(long, value_name = "OUT.png")]
    pub strip: Option<PathBuf>,
    /// Write an animated GIF (loops when the clip loops).
    #[arg(long, value_name = "OUT.gif")]
    pub gif: Option<PathBuf>,
    /// Write an animated PNG (loops when the clip loops; browsers play it).
    #[arg(long, value_name = "OUT.png")]
    pub apng: Option<PathBuf>,
}

/// `W`x`H` (also `W,H`).
fn wxh(s: &str) -> Result<(u32, u32), String> {
    let (a, b) = s
        .split_once(['x', 'X', ','])
        .ok_or_else(|| format!("'{s}' is not WxH"))?;
    let p = |v: &str| {
        v.trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("'{v}' is not a size in pixels > 0"))
    };
    Ok((p(a)?, p(b)?))
}

/// A failure: message and exit code.
pub struct Fail(pub String, pub i32);

impl From<re2d_riv::RivError> for Fail {
    fn from(e: re2d_riv::RivError) -> Fail {
        let code = e.exit_code();
        Fail(e.to_string(), code)
    }
}

fn io(path: &Path, e: impl std::fmt::Display) -> Fail {
    Fail(format!("{}: {e}", path.display()), 3)
}

/// The clip played when none is named: `walk`, else the first looping clip, else the first.
pub fn default_clip(model: &Model) -> Option<String> {
    model
        .clip("walk")
        .or_else(|| model.clips.iter().find(|c| c.looping))
        .or(model.clips.first())
        .map(|c| c.name.clone())
}

/// Renders and writes; returns the summary line.
pub fn run_args(a: &Args) -> Result<String, Fail> {
    let limits = Limits::current();
    let model = Model::load(&a.model, &limits)?;
    let clip = match &a.clip {
        Some(c) => c.clone(),
        None => default_clip(&model)
            .ok_or_else(|| Fail(format!("{}: the model has no clip", a.model.display()), 1))?,
    };
    let count = match (a.frames, a.fps) {
        (Some(n), _) => Count::Frames(n),
        (None, Some(f)) => Count::Fps(f),
        (None, None) => Count::Fps(12.0),
    };
    let sizing = match (a.size, a.fit, a.scale) {
        (Some((width, height)), _, _) => Sizing::Size {
            width,
            height,
            margin: frames::MARGIN,
        },
        (None, margin, scale) => Sizing::Fit {
            scale: scale.unwrap_or(1.0),
            margin: margin.unwrap_or(frames::MARGIN),
        },
    };
    let spec = FrameSpec {
        clip: clip.clone(),
        over: a.over.clone(),
        count,
        sizing,
        fps: 60,
    };
    let plan = frames::plan(&model, &spec, &limits)?;
    // outputs: distinct, none an input, the whole memory checked before rendering
    let files: Vec<(&str, &PathBuf)> = [
        ("--sheet", &a.sheet),
        ("--strip", &a.strip),
        ("--gif", &a.gif),
        ("--apng", &a.apng),
    ]
    .into_iter()
    .filter_map(|(n, p)| p.as_ref().map(|p| (n, p)))
    .collect();
    for (i, (n1, p1)) in files.iter().enumerate() {
        for (n2, p2) in &files[i + 1..] {
            if p1 == p2 {
                return Err(Fail(format!("{n1} and {n2} name the same file"), 2));
            }
        }
    }
    let dir = a.model.parent().unwrap_or(Path::new(""));
    let mut owned: Vec<PathBuf> = vec![a.model.clone()];
    owned.extend(
        model
            .textures
            .iter()
            .filter_map(|t| t.path.as_ref().map(|p| dir.join(p))),
    );
    let inputs: Vec<&Path> = owned.iter().map(PathBuf::as_path).collect();
    let clash = |p: &Path| {
        re2d_output::publish::check_clash(p, &inputs)
            .map_err(|e| Fail(e.to_string(), e.exit_code()))
    };
    let n = plan.times.len();
    let frame_path = |d: &Path, i: usize| d.join(format!("frame-{i:04}.png"));
    if let Some(d) = &a.png {
        for i in 0..n {
            clash(&frame_path(d, i))?;
        }
    }
    for (_, p) in &files {
        clash(p)?;
    }
    let (w, h) = (plan.width, plan.height);
    let frame_bytes = w as u64 * h as u64 * 4;
    let columns = a.columns.unwrap_or(8).min(n as u32).max(1);
    let cells = |c: u32| (n as u64).div_ceil(c as u64) * c as u64;
    let mut second = 0u64;
    if a.sheet.is_some() {
        second = second.max(2 * cells(columns) * frame_bytes);
    }
    if a.strip.is_some() {
        second = second.max(2 * n as u64 * frame_bytes);
    }
    if a.gif.is_some() || a.apng.is_some() {
        second = second.max(n as u64 * frame_bytes);
    }
    let need = (n as u64 * frame_bytes).saturating_add(second);
    if need > limits.sheet_max_bytes {
        return Err(Fail(
            format!(
                "{n} frames of {w}x{h} px and their sheet or animation need {need} bytes in memory, more than {} (limit sheet-max-bytes, see --limit); render fewer or smaller frames",
                limits.sheet_max_bytes
            ),
            1,
        ));
    }
    let (rate, looping) = (plan.rate, plan.looping);
    let out = frames::render(&model, &spec, plan, &limits)?;
    let refs: Vec<&[u8]> = out.frames.iter().map(|f| &f[..]).collect();
    let png = |p: &Path, px: &[u8], pw: u32, ph: u32| -> Result<(), Fail> {
        let bytes = re2d_output::png_encode::encode_rgba_level(
            px,
            pw,
            ph,
            re2d_output::png_encode::BALANCED,
        )
        .map_err(|e| io(p, e))?;
        re2d_output::publish::publish(p, &bytes, &inputs)
            .map_err(|e| Fail(e.to_string(), e.exit_code()))
    };
    let mut written = Vec::new();
    if let Some(d) = &a.png {
        std::fs::create_dir_all(d).map_err(|e| io(d, e))?;
        for (i, f) in refs.iter().enumerate() {
            png(&frame_path(d, i), f, w, h)?;
        }
        written.push(d.display().to_string());
    }
    for (p, c) in [(&a.sheet, columns), (&a.strip, n as u32)] {
        if let Some(p) = p {
            let (px, sw, sh) = anim::sheet(&refs, w, h, c).map_err(|e| Fail(e, 1))?;
            png(p, &px, sw, sh)?;
            written.push(format!("{} ({sw}x{sh})", p.display()));
        }
    }
    let timing = anim::Timing {
        delay: anim::Delay::from_fps(rate).map_err(|e| Fail(e, 1))?,
        plays: if looping { 0 } else { 1 },
    };
    if let Some(p) = &a.gif {
        let bytes = anim::encode_gif(&refs, w, h, timing).map_err(|e| Fail(e, 1))?;
        re2d_output::publish::publish(p, &bytes, &inputs)
            .map_err(|e| Fail(e.to_string(), e.exit_code()))?;
        written.push(p.display().to_string());
    }
    if let Some(p) = &a.apng {
        let bytes = anim::encode_apng(&refs, w, h, timing).map_err(|e| Fail(e, 1))?;
        re2d_output::publish::publish(p, &bytes, &inputs)
            .map_err(|e| Fail(e.to_string(), e.exit_code()))?;
        written.push(p.display().to_string());
    }
    let layers: String = a.over.iter().map(|o| format!(" + {o}")).collect();
    Ok(format!(
        "{clip}{layers}: {n} frames ({w}x{h} px, {rate:.2} fps, {}) -> {}",
        if looping { "loop" } else { "once" },
        written.join(", ")
    ))
}

/// Runs `re2d rig render`.
pub fn run(a: &Args) -> i32 {
    match run_args(a) {
        Ok(s) => {
            println!("{s}");
            0
        }
        Err(Fail(msg, code)) => {
            eprintln!("re2d rig render: {msg}");
            code
        }
    }
}
