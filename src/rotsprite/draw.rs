// re2d — 128 px pixel raster `r2d_rotsprite_v2_draw` (spec: rotsprite-render.md §6).
//
//! Every drawable point becomes a 2×2 splat anchored at the floor pixel of
//! its projection, depth-tested with a distance and colour tie-break.

use std::cell::RefCell;

use super::rig::{Prepared, Rig, View, selected};
use super::types::R2DRotPoint;
use super::{Frame, RenderError};
use crate::math::{colour_loses, floor, trunc_i32};

/// Side of the pixel raster output.
pub const DRAW_SIZE: usize = 128;
/// Pixels of a pixel raster output (128·128).
const DRAW_PIXELS: usize = DRAW_SIZE * DRAW_SIZE;
/// Bytes of a pixel raster output (128·128·4).
pub const DRAW_OUT_BYTES: usize = DRAW_PIXELS * 4;

/// Depth and distance buffers of one 128×128 frame, reusable across frames.
pub struct DrawScratch {
    depth: Vec<f32>,
    distance: Vec<f32>,
}

impl DrawScratch {
    /// Allocates the buffers; `None` when memory is exhausted.
    pub fn try_new() -> Option<Self> {
        let n = DRAW_SIZE * DRAW_SIZE;
        let mut depth = Vec::new();
        let mut distance = Vec::new();
        depth.try_reserve_exact(n).ok()?;
        distance.try_reserve_exact(n).ok()?;
        depth.resize(n, 0.0);
        distance.resize(n, 0.0);
        Some(DrawScratch { depth, distance })
    }
}

thread_local! {
    /// Per-thread scratch of [`draw`], allocated on first use.
    static SCRATCH: RefCell<Option<DrawScratch>> = const { RefCell::new(None) };
}

/// Projection scale of the pixel raster: the model's scale, else 1 with a
/// body rig, else 2.
fn scale_of(rig: Option<&Rig<'_>>) -> f64 {
    match rig {
        Some(Rig { model: Some(m), .. }) => m.scale,
        Some(r) if r.body => 1.0,
        _ => 2.0,
    }
}

/// Renders `points` into a 128×128 RGBA image (`out`, at least
/// [`DRAW_OUT_BYTES`]), using this thread's scratch buffers.
pub fn draw(points: &[R2DRotPoint], frame: &Frame<'_>, out: &mut [u8]) -> Result<(), RenderError> {
    SCRATCH.with(|cell| {
        let Ok(mut slot) = cell.try_borrow_mut() else {
            let mut s = DrawScratch::try_new().ok_or(RenderError::OutOfMemory)?;
            return draw_with(&mut s, points, frame, out);
        };
        if slot.is_none() {
            *slot = DrawScratch::try_new();
        }
        let s = slot.as_mut().ok_or(RenderError::OutOfMemory)?;
        draw_with(s, points, frame, out)
    })
}

/// [`draw`] with caller-provided scratch buffers.
pub fn draw_with(
    scratch: &mut DrawScratch,
    points: &[R2DRotPoint],
    frame: &Frame<'_>,
    out: &mut [u8],
) -> Result<(), RenderError> {
    let out: &mut [u8; DRAW_OUT_BYTES] = out
        .get_mut(..DRAW_OUT_BYTES)
        .and_then(|o| o.try_into().ok())
        .ok_or(RenderError::BufferTooSmall)?;
    let depth: &mut [f32; DRAW_PIXELS] = (&mut scratch.depth[..])
        .try_into()
        .map_err(|_| RenderError::BufferTooSmall)?;
    let distance: &mut [f32; DRAW_PIXELS] = (&mut scratch.distance[..])
        .try_into()
        .map_err(|_| RenderError::BufferTooSmall)?;
    depth.fill(-1e9f32);
    distance.fill(1e9f32);
    out.fill(0);
    let view: &View = &frame.view;
    let rig = frame.rig.as_ref();
    let prep = Prepared::new(view, frame.rig);
    let scale = scale_of(rig);
    for p in points {
        if p.rgba[3] == 0 || !prep.facing.test(p, rig) || !selected(p, frame.eyes, frame.mouth, rig)
        {
            continue;
        }
        let [xr, yr, z] = view.rotate(prep.xform(p));
        let px = xr * scale + 64.0;
        let py = yr * scale + 64.0;
        let x0 = trunc_i32(floor(px)) as i64;
        let y0 = trunc_i32(floor(py)) as i64;
        for ty in y0..y0 + 2 {
            if !(0..DRAW_SIZE as i64).contains(&ty) {
                continue;
            }
            let ey = ty as f64 + 0.5 - py;
            for tx in x0..x0 + 2 {
                if !(0..DRAW_SIZE as i64).contains(&tx) {
                    continue;
                }
                let n = ty as usize * DRAW_SIZE + tx as usize;
                let ex = tx as f64 + 0.5 - px;
                let dd = ex * ex + ey * ey;
                let d = depth[n] as f64;
                if z < d - 0.001 {
                    continue;
                }
                let px_bytes: &mut [u8; 4] = (&mut out[n * 4..n * 4 + 4]).try_into().unwrap();
                if (z - d).abs() <= 0.001 {
                    let q = distance[n] as f64;
                    if dd > q + 1e-6 {
                        continue;
                    }
                    if (dd - q).abs() <= 1e-6 && colour_loses(p.rgba, *px_bytes) {
                        continue;
                    }
                }
                distance[n] = dd as f32;
                depth[n] = z as f32;
                *px_bytes = p.rgba;
            }
        }
    }
    Ok(())
}
