//! A clip as frames a person can look at (issue 47, `re2d rig render`): the
//! sample times from the clip's own duration and loop, the character's
//! motion box over those times, and every frame rendered by the reference
//! renderer into that box (or scaled into a fixed size).
//!
//! Stages: [`plan`] (times, motion box, view, output size — every size
//! checked against the limits before anything is rendered) → [`render`]
//! (each frame through [`reference::render_scene`], supersampled and box
//! filtered when the scale is below 1).
//!
//! Rules (written down where the issue is silent):
//! - **Times.** A looping clip of duration `d` gives `n` frames at
//!   `i·d/n`, `i < n` (the frame at `d` is the first again, so the frames
//!   loop without a repeated frame); a one-shot gives `n` frames at
//!   `i·d/(n−1)`, both ends included (one frame: `t = 0`). `--frames N`
//!   sets `n`; `--fps F` gives `n = max(1, round(d·F))` for a loop and
//!   `n = ⌊d·F⌋ + 1` frames at `i/F` for a one-shot. The playback rate of an
//!   animation is `n/d` (loop) or `(n−1)/d` (one-shot; `F` with `--fps`).
//! - **Layers** ([`FrameSpec::over`]): clips played over the clip from its
//!   start, each overriding the bones it keys (the `.riv`'s layers); the
//!   frames span the longest of them and loop only when all loop.
//! - **Motion box.** The union over the frames of the posed mesh vertices
//!   (every part), grown by the margin: the frames do not move the
//!   character inside a fixed canvas more than it moves.
//! - **Size.** [`Sizing::Fit`]: the motion box at a scale (default 1, the
//!   model's pixels). [`Sizing::Size`]: every frame `W×H`, the motion box
//!   scaled uniformly to fit and centred. Below scale 1 every frame is
//!   rendered at `k = ⌈1/scale⌉` (at most [`MAX_SUPERSAMPLE`]) times the size
//!   and box filtered down (thin ink does not alias away).

use super::error::{Code, RivError, err};
use super::model::{Clip, Model};
use super::reference::{self, Scene, View};
use re2d::limits::Limits;

/// Largest supersampling factor below scale 1.
pub const MAX_SUPERSAMPLE: u32 = 4;

/// Default margin around the motion box, in output pixels.
pub const MARGIN: u32 = 8;

/// How many frames.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Count {
    /// Exactly this many (≥ 1).
    Frames(u32),
    /// Frames at this rate over the clip (> 0).
    Fps(f64),
}

/// How large the frames are.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sizing {
    /// The motion box at `scale` plus `margin` output pixels on every side.
    Fit {
        /// Output pixels per model pixel (> 0).
        scale: f64,
        /// Output pixels around the box.
        margin: u32,
    },
    /// Every frame `width`×`height`, the motion box (plus `margin`) scaled to fit, centred.
    Size {
        /// Frame width.
        width: u32,
        /// Frame height.
        height: u32,
        /// Output pixels around the box.
        margin: u32,
    },
}

/// What to render.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameSpec {
    /// The clip.
    pub clip: String,
    /// Clips played over it from its start (layers, in order).
    pub over: Vec<String>,
    /// How many frames.
    pub count: Count,
    /// How large.
    pub sizing: Sizing,
    /// Export fps (key times are quantised to it, as in the `.riv`).
    pub fps: u32,
}

/// The frames' times and geometry, checked against the limits.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Clip time of each frame, seconds.
    pub times: Vec<f64>,
    /// Playback rate of an animation of the frames (frames per second).
    pub rate: f64,
    /// The frames loop (every clip of the spec loops).
    pub looping: bool,
    /// The motion box in artboard pixels `[x0, y0, x1, y1]`, without margin.
    pub motion_box: [f64; 4],
    /// Where each frame looks (at the supersampled size).
    pub view: View,
    /// Supersampling factor (1: none).
    pub supersample: u32,
    /// Frame width.
    pub width: u32,
    /// Frame height.
    pub height: u32,
}

/// Rendered frames: tightly packed straight-alpha RGBA8, all `width`×`height`.
#[derive(Clone, Debug, PartialEq)]
pub struct Frames {
    /// The plan they follow.
    pub plan: Plan,
    /// One RGBA8 buffer per time.
    pub frames: Vec<Vec<u8>>,
}

fn clip_of<'a>(model: &'a Model, name: &str) -> Result<&'a Clip, RivError> {
    model.clip(name).ok_or_else(|| {
        let names: Vec<&str> = model.clips.iter().map(|c| c.name.as_str()).collect();
        RivError::new(
            Code::Clip,
            format!(
                "unknown clip '{name}' (clips: {})",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ),
        )
    })
}

/// The sample times of a clip of `duration` seconds (see the module doc),
/// and the playback rate; `max` bounds the count before the list is made.
pub fn times(
    duration: f64,
    looping: bool,
    count: Count,
    max: u32,
) -> Result<(Vec<f64>, f64), RivError> {
    let n = match count {
        Count::Frames(n) if n >= 1 => n as f64,
        Count::Frames(_) => return err(Code::Option, "--frames must be at least 1"),
        Count::Fps(f) if f.is_finite() && f > 0.0 => {
            if looping {
                (duration * f).round().max(1.0)
            } else {
                (duration * f + 1e-9).floor() + 1.0
            }
        }
        Count::Fps(f) => return err(Code::Option, format!("--fps {f} is not a number > 0")),
    };
    if n > max as f64 {
        return err(
            Code::Option,
            format!(
                "{n} frames requested, more than {max} (limit max-frames, see --limit; check --fps/--frames)"
            ),
        );
    }
    let n = n as usize;
    let (list, rate): (Vec<f64>, f64) = match (looping, count) {
        (true, _) => (
            (0..n).map(|i| duration * i as f64 / n as f64).collect(),
            n as f64 / duration,
        ),
        (false, Count::Fps(f)) => ((0..n).map(|i| i as f64 / f).collect(), f),
        (false, Count::Frames(_)) if n == 1 => (vec![0.0], 1.0 / duration),
        (false, Count::Frames(_)) => (
            (0..n)
                .map(|i| duration * i as f64 / (n - 1) as f64)
                .collect(),
            (n - 1) as f64 / duration,
        ),
    };
    Ok((list, rate))
}

/// The layers of the frame at time `t`: the clip, then every clip over it.
fn layers(spec: &FrameSpec, t: f64) -> Vec<(String, f64)> {
    std::iter::once(&spec.clip)
        .chain(&spec.over)
        .map(|c| (c.clone(), t))
        .collect()
}

/// The posed vertices' bounds (artboard pixels) over `times`.
fn motion_box(model: &Model, spec: &FrameSpec, times: &[f64]) -> Result<[f64; 4], RivError> {
    let frame = model.frame(None, None);
    let rest_local: Vec<f64> = model.bones.iter().map(|b| b.angle).collect();
    let rest = model.world(&rest_local, frame.ox, frame.oy);
    let mut b = [f64::INFINITY, f64::INFINITY, -f64::INFINITY, -f64::INFINITY];
    for &t in times {
        let (local, moved) = reference::pose_layers(model, &layers(spec, t), spec.fps)?;
        let pose = model.world_moved(&local, &moved, frame.ox, frame.oy);
        for pi in 0..model.parts.len() {
            for p in reference::deform(model, pi, &pose, &rest, &frame) {
                b = [
                    b[0].min(p[0]),
                    b[1].min(p[1]),
                    b[2].max(p[0]),
                    b[3].max(p[1]),
                ];
            }
        }
    }
    if !(b[0] <= b[2] && b[1] <= b[3]) || b.iter().any(|v| !v.is_finite()) {
        return err(
            Code::Part,
            "the model has no part to render (no vertex in any pose)",
        );
    }
    Ok(b)
}

/// Times, motion box and sizes of `spec`, every size checked against
/// `limits` (max-frames, png-max-side, sheet-max-bytes for the frames held
/// together, and the renderer's buffers) before anything is rendered.
pub fn plan(model: &Model, spec: &FrameSpec, limits: &Limits) -> Result<Plan, RivError> {
    if spec.fps == 0 {
        return err(Code::Option, "--fps of the export must be at least 1");
    }
    let mut clips = vec![clip_of(model, &spec.clip)?];
    for o in &spec.over {
        clips.push(clip_of(model, o)?);
    }
    let duration = clips.iter().map(|c| c.duration).fold(0.0, f64::max);
    let looping = clips.iter().all(|c| c.looping);
    let (times, rate) = times(duration, looping, spec.count, limits.max_frames)?;
    let bx = motion_box(model, spec, &times)?;
    let (bw, bh) = (bx[2] - bx[0], bx[3] - bx[1]);
    let (scale, width, height) = match spec.sizing {
        Sizing::Fit { scale, margin } => {
            if !(scale.is_finite() && scale > 0.0) {
                return err(Code::Option, format!("--scale {scale} is not a number > 0"));
            }
            let w = (bw * scale).ceil() + 2.0 * margin as f64;
            let h = (bh * scale).ceil() + 2.0 * margin as f64;
            (scale, w.max(1.0), h.max(1.0))
        }
        Sizing::Size {
            width,
            height,
            margin,
        } => {
            let (iw, ih) = (
                width as f64 - 2.0 * margin as f64,
                height as f64 - 2.0 * margin as f64,
            );
            if width == 0 || height == 0 || iw < 1.0 || ih < 1.0 {
                return err(
                    Code::Option,
                    format!("--size {width}x{height} leaves no room inside the margin of {margin}"),
                );
            }
            let s = (iw / bw.max(1e-9)).min(ih / bh.max(1e-9));
            (s, width as f64, height as f64)
        }
    };
    let side = limits.png_max_side as f64;
    if width > side || height > side {
        return err(
            Code::Option,
            format!(
                "frames of {width}x{height} exceed the image limits ({} px side; limit png-max-side, see --limit); give --size or --scale",
                limits.png_max_side
            ),
        );
    }
    let (width, height) = (width as u32, height as u32);
    let held = times.len() as u64 * width as u64 * height as u64 * 4;
    if held > limits.sheet_max_bytes {
        return err(
            Code::Option,
            format!(
                "{} frames of {width}x{height} px need {held} bytes in memory, more than {} (limit sheet-max-bytes, see --limit); render fewer or smaller frames",
                times.len(),
                limits.sheet_max_bytes
            ),
        );
    }
    let k = if scale < 1.0 {
        ((1.0 / scale).ceil() as u32).clamp(1, MAX_SUPERSAMPLE)
    } else {
        1
    };
    // the box centred in the frame: the frame's top-left in artboard pixels
    let (cx, cy) = ((bx[0] + bx[2]) / 2.0, (bx[1] + bx[3]) / 2.0);
    let x = cx - width as f64 / 2.0 / scale;
    let y = cy - height as f64 / 2.0 / scale;
    let view = View {
        x,
        y,
        scale: scale * k as f64,
        width: width * k,
        height: height * k,
    };
    // the renderer's own buffers, checked now rather than at the first frame
    let probe = Scene {
        layers: layers(spec, 0.0),
        fps: spec.fps,
        view: Some(view),
        ..Scene::default()
    };
    reference::check_buffers(model, &probe, limits)?;
    Ok(Plan {
        times,
        rate,
        looping,
        motion_box: bx,
        view,
        supersample: k,
        width,
        height,
    })
}

/// Renders the frames of a [`plan`].
pub fn render(
    model: &Model,
    spec: &FrameSpec,
    plan: Plan,
    limits: &Limits,
) -> Result<Frames, RivError> {
    let mut frames = Vec::with_capacity(plan.times.len());
    for &t in &plan.times {
        let scene = Scene {
            layers: layers(spec, t),
            fps: spec.fps,
            view: Some(plan.view),
            ..Scene::default()
        };
        let img = reference::render_scene(model, &scene, limits)?.image;
        let px = if plan.supersample > 1 {
            let (px, w, h) =
                re2d_output::anim::downscale(&img.data, img.width, img.height, plan.supersample)
                    .map_err(|e| RivError::new(Code::Option, e))?;
            debug_assert_eq!((w, h), (plan.width, plan.height));
            px
        } else {
            img.data
        };
        frames.push(px);
    }
    Ok(Frames { plan, frames })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loop_times_leave_out_the_closing_frame() {
        let (t, r) = times(1.0, true, Count::Frames(4), 100).unwrap();
        assert_eq!(t, vec![0.0, 0.25, 0.5, 0.75]);
        assert_eq!(r, 4.0);
        let (t, r) = times(1.1, true, Count::Fps(10.0), 100).unwrap();
        assert_eq!(t.len(), 11);
        assert!((r - 10.0).abs() < 1e-9);
        assert!((t[10] - 1.0).abs() < 1e-9);
    }

    #[test]
    fn one_shot_times_hold_both_ends() {
        let (t, r) = times(3.0, false, Count::Frames(4), 100).unwrap();
        assert_eq!(t, vec![0.0, 1.0, 2.0, 3.0]);
        assert_eq!(r, 1.0);
        let (t, r) = times(3.0, false, Count::Fps(2.0), 100).unwrap();
        assert_eq!(t, vec![0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0]);
        assert_eq!(r, 2.0);
        assert_eq!(
            times(3.0, false, Count::Frames(1), 100).unwrap().0,
            vec![0.0]
        );
    }

    #[test]
    fn counts_are_checked_before_the_list_is_made() {
        assert!(times(1.0, true, Count::Frames(0), 100).is_err());
        assert!(times(1.0, true, Count::Fps(0.0), 100).is_err());
        assert!(times(1.0, true, Count::Fps(f64::NAN), 100).is_err());
        let e = times(1e9, true, Count::Fps(1e9), 10_000).unwrap_err();
        assert!(e.to_string().contains("max-frames"), "{e}");
        assert!(times(1.0, true, Count::Frames(101), 100).is_err());
    }
}
