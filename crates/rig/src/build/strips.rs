//! `rig build --strips` (issue 47): one strip per clip, `strip_<clip>.png` —
//! [`STRIP_FRAMES`] frames over the clip in one row, each the clip's motion
//! box at one scale for the whole character (the drawn figure
//! [`STRIP_HEIGHT`] px tall, never enlarged), rendered by the reference
//! renderer (`re2d_riv::frames`, what `re2d rig render --frames 8 --strip`
//! writes).

use crate::RigError;
use re2d::limits::Limits;
use re2d_riv::Model;
use re2d_riv::frames::{self, Count, FrameSpec, Sizing};

/// Frames per strip.
pub const STRIP_FRAMES: u32 = 8;
/// Height of the drawn figure (its rest pose) in a strip, pixels.
pub const STRIP_HEIGHT: f64 = 320.0;

/// The strip file of clip `name`.
pub fn strip_name(name: &str) -> String {
    format!("strip_{name}.png")
}

/// One strip per clip of `model` (name, PNG bytes).
pub fn strips(
    model: &Model,
    fps: u32,
    limits: &Limits,
) -> Result<Vec<(String, Vec<u8>)>, RigError> {
    let err = |e: re2d_riv::RivError| RigError::new("E_RIG_MODEL", format!("strips: {e}"));
    // one scale for every clip: the rest pose's figure STRIP_HEIGHT px tall
    let rest = model.rest();
    let frame = model.frame(None, None);
    let (mut y0, mut y1) = (f64::INFINITY, -f64::INFINITY);
    for pi in 0..model.parts.len() {
        for p in re2d_riv::reference::deform(model, pi, &rest, &rest, &frame) {
            y0 = y0.min(p[1]);
            y1 = y1.max(p[1]);
        }
    }
    let scale = if y1 > y0 {
        (STRIP_HEIGHT / (y1 - y0)).min(1.0)
    } else {
        1.0
    };
    let mut out = Vec::with_capacity(model.clips.len());
    for c in &model.clips {
        let spec = FrameSpec {
            clip: c.name.clone(),
            over: Vec::new(),
            count: Count::Frames(STRIP_FRAMES),
            sizing: Sizing::Fit {
                scale,
                margin: frames::MARGIN,
            },
            fps,
        };
        let plan = frames::plan(model, &spec, limits).map_err(err)?;
        let (w, h) = (plan.width, plan.height);
        let f = frames::render(model, &spec, plan, limits).map_err(err)?;
        let refs: Vec<&[u8]> = f.frames.iter().map(|x| &x[..]).collect();
        let (px, sw, sh) = re2d_output::anim::sheet(&refs, w, h, STRIP_FRAMES)
            .map_err(|e| RigError::new("E_RIG_IMAGE", e))?;
        let png = re2d_output::png_encode::encode_rgba_level(&px, sw, sh, super::PNG_LEVEL)
            .map_err(|e| RigError::new("E_RIG_IMAGE", e))?;
        out.push((strip_name(&c.name), png));
    }
    Ok(out)
}
