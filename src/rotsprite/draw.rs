// re2d — 128 px pixel raster `r2d_rotsprite_v2_draw` (spec: rotsprite-render.md §6).
//
//! Every drawable point becomes a 2×2 splat anchored at the floor pixel of
//! its projection, depth-tested with a distance and colour tie-break.

use std::cell::RefCell;

use super::fill::{fill_f32, zero_bytes};
use super::rig::{DualCache, Parts, Prepared, Rig, View, legacy_xform_at};
use super::types::R2DRotPoint;
use super::{Frame, RenderError};
use crate::math::{colour_loses, floor_i32};

/// Side of the pixel raster output.
pub const DRAW_SIZE: usize = 128;
/// Pixels of a pixel raster output (128·128).
const DRAW_PIXELS: usize = DRAW_SIZE * DRAW_SIZE;
/// Bytes of a pixel raster output (128·128·4).
pub const DRAW_OUT_BYTES: usize = DRAW_PIXELS * 4;

/// Depth and distance buffers of one 128×128 frame and the per-frame
/// model tables, reusable across frames.
pub struct DrawScratch {
    depth: Vec<f32>,
    distance: Vec<f32>,
    duals: DualCache,
}

impl DrawScratch {
    /// Allocates the buffers; `None` when memory is exhausted.
    pub fn try_new() -> Option<Self> {
        let n = DRAW_SIZE * DRAW_SIZE;
        let mut depth = Vec::new();
        let mut distance = Vec::new();
        depth.try_reserve_exact(n).ok()?;
        distance.try_reserve_exact(n).ok()?;
        // Every draw refills them; the initial values are those fills'.
        depth.resize(n, -1e9);
        distance.resize(n, 1e9);
        Some(DrawScratch {
            depth,
            distance,
            duals: DualCache::default(),
        })
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
    fill_f32(depth, -1e9f32);
    fill_f32(distance, 1e9f32);
    zero_bytes(out);
    let view: &View = &frame.view;
    let rig = frame.rig.as_ref();
    let parts = Parts::new(frame.eyes, frame.mouth, rig);
    let prep = Prepared::new(view, frame.rig, &mut scratch.duals);
    let scale = scale_of(rig);
    let frame_terms = Terms {
        view,
        rig,
        parts: &parts,
        prep: &prep,
        scale,
    };
    // One loop per rig kind, so the transform is chosen once per frame.
    match prep.model {
        Some((m, dq)) => points_loop(points, &frame_terms, depth, distance, out, |p| {
            dq.xform_at(m, p.part, p.blend_part, p.blend_weight, [p.x, p.y, p.z])
        }),
        None => points_loop(points, &frame_terms, depth, distance, out, |p| {
            legacy_xform_at(prep.legacy.as_ref(), p.part, [p.x, p.y, p.z])
        }),
    }
    Ok(())
}

/// The per-frame values of the point loop.
struct Terms<'a> {
    view: &'a View,
    rig: Option<&'a Rig<'a>>,
    parts: &'a Parts,
    prep: &'a Prepared<'a>,
    scale: f64,
}

/// §6.3 for every point, with the frame's `xform` (§2.1).
#[inline(always)]
fn points_loop(
    points: &[R2DRotPoint],
    t: &Terms<'_>,
    depth: &mut [f32; DRAW_PIXELS],
    distance: &mut [f32; DRAW_PIXELS],
    out: &mut [u8; DRAW_OUT_BYTES],
    xform: impl Fn(&R2DRotPoint) -> [f64; 3],
) {
    for p in points {
        // Steps 1–3 (side-effect free, so their order is free).
        let bits = t.parts.of(p.part);
        if p.rgba[3] == 0
            || bits & Parts::SELECTED == 0
            || (bits & Parts::ONE_SIDED != 0 && !t.prep.facing.test(p, t.rig))
        {
            continue;
        }
        let [xr, yr, z] = t.view.rotate(xform(p));
        let px = xr * t.scale + 64.0;
        let py = yr * t.scale + 64.0;
        splat(depth, distance, out, px, py, z, p.rgba);
    }
}

/// The 2×2 splat of §6.3 step 8, anchored at the floor pixel of (px, py).
#[inline(always)]
fn splat(
    depth: &mut [f32; DRAW_PIXELS],
    distance: &mut [f32; DRAW_PIXELS],
    out: &mut [u8; DRAW_OUT_BYTES],
    px: f64,
    py: f64,
    z: f64,
    rgba: [u8; 4],
) {
    let x0 = floor_i32(px) as i64;
    let y0 = floor_i32(py) as i64;
    let inside = |t: i64| (0..DRAW_SIZE as i64).contains(&t);
    for ty in y0..y0 + 2 {
        if !inside(ty) {
            continue;
        }
        for tx in x0..x0 + 2 {
            if !inside(tx) {
                continue;
            }
            let n = ty as usize * DRAW_SIZE + tx as usize;
            // The depth test first: dd is only needed when it passes
            // (every step here is side-effect free).
            let d = depth[n] as f64;
            if z < d - 0.001 {
                continue;
            }
            let ex = tx as f64 + 0.5 - px;
            let ey = ty as f64 + 0.5 - py;
            let dd = ex * ex + ey * ey;
            let px_bytes: &mut [u8; 4] = (&mut out[n * 4..n * 4 + 4]).try_into().unwrap();
            if (z - d).abs() <= 0.001 {
                let q = distance[n] as f64;
                if dd > q + 1e-6 {
                    continue;
                }
                if (dd - q).abs() <= 1e-6 && tie_lost(rgba, *px_bytes) {
                    continue;
                }
            }
            distance[n] = dd as f32;
            depth[n] = z as f32;
            *px_bytes = rgba;
        }
    }
}

/// The colour tie-break of §6.3 step 8.4, kept out of line: exact ties are
/// rare, and inlined, the compiler computes the point's luminance for every
/// point whether a tie happens or not.
#[cold]
#[inline(never)]
fn tie_lost(new: [u8; 4], old: [u8; 4]) -> bool {
    colour_loses(new, old)
}
