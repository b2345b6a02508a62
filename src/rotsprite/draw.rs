// re2d — 128 px pixel raster `r2d_rotsprite_v2_draw` (spec: rotsprite-render.md §6).
//
//! Every drawable point becomes a 2×2 splat anchored at the floor pixel of
//! its projection, depth-tested with a distance and colour tie-break.
//!
//! Where the time goes (measured, speed round 4): about three quarters of
//! a call is the splat, and there mostly mispredicted depth tests. Whether a
//! point lies in front of what is drawn is data (≈ 0.5 mispredictions per
//! point), and the test sits at the end of a long dependency chain — point
//! load, model matrix, view rotation, floor, pixel index, depth load,
//! compare — so a miss used to discard the work on the points after it and
//! then wait for the whole chain again. Instructions are few (≈ 145 per
//! point), the per-call clears and tables are small (≈ 25 k instructions),
//! the buffers fit in L2, and storing always (no branch) was slower: the
//! next point's loads then wait on the stores. So the loop (1) prefetches
//! the 192-byte points (one line of three is read, the rest streams from
//! L3), (2) tests a splat's four pixels at once with one skip branch for a
//! wholly hidden splat, and (3) places points i + 1 and i + 2 before it
//! splats point i: those placements are older in program order than point
//! i's branches, so they survive their mispredictions, and only index, load
//! and compare remain after a miss. The splats still run in point order
//! (same bytes).

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
        rig,
        parts: &parts,
        prep: &prep,
    };
    // §6.3 steps 4–6: (px, py, depth) of a transformed point.
    let place = |[x, y, z]: [f64; 3]| {
        let [xr, yr, depth] = view.rotate([x, y, z]);
        (xr * scale + 64.0, yr * scale + 64.0, depth)
    };
    // One loop per rig kind, so the transform is chosen once per frame.
    match prep.model {
        Some((m, dq)) => {
            let fast = Placer::new(view, scale);
            points_loop(points, &frame_terms, depth, distance, out, |p| {
                if p.blend_part == 0 || p.blend_weight == 0 {
                    // MODEL_XFORM without a blend is A·P.
                    fast.place(&m.parts[p.part as usize].matrix, [p.x, p.y, p.z])
                } else {
                    place(dq.xform_at(m, p.part, p.blend_part, p.blend_weight, [p.x, p.y, p.z]))
                }
            })
        }
        None => points_loop(points, &frame_terms, depth, distance, out, |p| {
            place(legacy_xform_at(
                prep.legacy.as_ref(),
                p.part,
                [p.x, p.y, p.z],
            ))
        }),
    }
    Ok(())
}

/// The per-frame values of the point loop.
struct Terms<'a> {
    rig: Option<&'a Rig<'a>>,
    parts: &'a Parts,
    prep: &'a Prepared<'a>,
}

/// `A·P`, rotated by the view, scaled and offset (§1.2 step 1, §6.3 steps
/// 4–6) with the two rows of each step in one SSE2 register: every lane
/// does the scalar operations in the scalar order (a − b·c is a + (−b)·c
/// exactly), so the results are those of `mat_apply`, `View::rotate` and the
/// scale, bit for bit.
struct Placer {
    #[cfg(target_arch = "x86_64")]
    lanes: [[f64; 2]; 6],
    #[cfg(not(target_arch = "x86_64"))]
    view: View,
    scale: f64,
}

impl Placer {
    fn new(v: &View, scale: f64) -> Self {
        Placer {
            #[cfg(target_arch = "x86_64")]
            lanes: [
                [v.cy, -v.sy],
                [v.sy, v.cy],
                [v.cp, v.sp],
                [-v.sp, v.cp],
                [scale, scale],
                [64.0, 64.0],
            ],
            #[cfg(not(target_arch = "x86_64"))]
            view: *v,
            scale,
        }
    }

    /// (px, py, depth) of point `p` under matrix `m`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn place(&self, m: &[f64; 12], p: [f32; 3]) -> (f64, f64, f64) {
        use std::arch::x86_64::*;
        let _ = self.scale;
        // SAFETY: SSE2 is part of the x86-64 baseline; the loads read the
        // 2-element arrays and matrix rows they name.
        unsafe {
            let ld = |a: &[f64; 2]| _mm_loadu_pd(a.as_ptr());
            let pair = |i: usize| _mm_set_pd(m[4 + i], m[i]);
            let (x, y, z) = (p[0] as f64, p[1] as f64, p[2] as f64);
            // Rows 0 and 1 of A·P: ((m0·x + m1·y) + m2·z) + m3.
            let xy = _mm_add_pd(
                _mm_add_pd(
                    _mm_add_pd(
                        _mm_mul_pd(pair(0), _mm_set1_pd(x)),
                        _mm_mul_pd(pair(1), _mm_set1_pd(y)),
                    ),
                    _mm_mul_pd(pair(2), _mm_set1_pd(z)),
                ),
                pair(3),
            );
            let zz = m[8] * x + m[9] * y + m[10] * z + m[11];
            let l = &self.lanes;
            // [xr, zr] = [cy, −sy]·X + [sy, cy]·Z
            let xz = _mm_add_pd(
                _mm_mul_pd(ld(&l[0]), _mm_unpacklo_pd(xy, xy)),
                _mm_mul_pd(ld(&l[1]), _mm_set1_pd(zz)),
            );
            // [yr, depth] = [cp, sp]·Y + [−sp, cp]·zr
            let yd = _mm_add_pd(
                _mm_mul_pd(ld(&l[2]), _mm_unpackhi_pd(xy, xy)),
                _mm_mul_pd(ld(&l[3]), _mm_unpackhi_pd(xz, xz)),
            );
            // [px, py] = [xr, yr]·scale + 64
            let pxy = _mm_add_pd(_mm_mul_pd(_mm_unpacklo_pd(xz, yd), ld(&l[4])), ld(&l[5]));
            let mut o = [0.0; 2];
            _mm_storeu_pd(o.as_mut_ptr(), pxy);
            (o[0], o[1], _mm_cvtsd_f64(_mm_unpackhi_pd(yd, yd)))
        }
    }

    /// (px, py, depth) of point `p` under matrix `m`.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    fn place(&self, m: &[f64; 12], p: [f32; 3]) -> (f64, f64, f64) {
        let a = crate::math::mat_apply(m, [p[0] as f64, p[1] as f64, p[2] as f64]);
        let [xr, yr, depth] = self.view.rotate(a);
        (xr * self.scale + 64.0, yr * self.scale + 64.0, depth)
    }
}

/// §6.3 for every point, with the frame's placement (steps 4–6).
#[inline(always)]
fn points_loop(
    points: &[R2DRotPoint],
    t: &Terms<'_>,
    depth: &mut [f32; DRAW_PIXELS],
    distance: &mut [f32; DRAW_PIXELS],
    out: &mut [u8; DRAW_OUT_BYTES],
    place: impl Fn(&R2DRotPoint) -> (f64, f64, f64),
) {
    // The two placed points not splatted yet, older first.
    let (mut pending, mut pending2): (Option<Placed>, Option<Placed>) = (None, None);
    for (i, p) in points.iter().enumerate() {
        prefetch(points, i + PREFETCH_AHEAD);
        // Steps 1–3 (side-effect free, so their order is free).
        let bits = t.parts.of(p.part);
        if p.rgba[3] == 0
            || bits & Parts::SELECTED == 0
            || (bits & Parts::ONE_SIDED != 0 && !t.prep.facing.test(p, t.rig))
        {
            continue;
        }
        let (px, py, z) = place(p);
        let next = Placed {
            px,
            py,
            z,
            rgba: p.rgba,
            inside: inside_splat(px, py),
        };
        // The splat of the point two before comes after this point's
        // placement in program order, so a mispredicted depth test there
        // does not discard it (see the module note).
        match (pending, pending2) {
            (Some(old), Some(mid)) => {
                splat(depth, distance, out, &old);
                (pending, pending2) = (Some(mid), Some(next));
            }
            (Some(_), None) => pending2 = Some(next),
            _ => pending = Some(next),
        }
    }
    for prev in [pending, pending2].into_iter().flatten() {
        splat(depth, distance, out, &prev);
    }
}

/// A placed point waiting for its splat: (px, py, depth), its colour and
/// [`inside_splat`] of (px, py).
#[derive(Clone, Copy)]
struct Placed {
    px: f64,
    py: f64,
    z: f64,
    rgba: [u8; 4],
    inside: Option<(usize, [f64; 4])>,
}

/// Points ahead of the loop whose first bytes are prefetched.
const PREFETCH_AHEAD: usize = 16;

/// Asks for the cache line holding the loop fields of `points[i]` (no
/// effect when `i` is past the end).
#[inline(always)]
fn prefetch(points: &[R2DRotPoint], i: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(p) = points.get(i) {
        use std::arch::x86_64::*;
        // SAFETY: SSE is part of the x86-64 baseline; a prefetch reads no
        // memory architecturally.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((p as *const R2DRotPoint).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (points, i);
}

/// The 2×2 splat of §6.3 step 8, anchored at the floor pixel of (px, py).
#[inline(always)]
fn splat(
    depth: &mut [f32; DRAW_PIXELS],
    distance: &mut [f32; DRAW_PIXELS],
    out: &mut [u8; DRAW_OUT_BYTES],
    pt: &Placed,
) {
    let Placed {
        px,
        py,
        z,
        rgba,
        inside,
    } = *pt;
    if let Some((n, dd)) = inside {
        // The whole splat is inside (the common case): no bounds tests.
        let at = [n, n + 1, n + DRAW_SIZE, n + DRAW_SIZE + 1];
        let (hidden, tie) = depth_tests(depth, n, z);
        if hidden == 0b1111 {
            return;
        }
        if tie & !hidden == 0 {
            for k in 0..4 {
                if hidden & 1 << k == 0 {
                    distance[at[k]] = dd[k] as f32;
                    depth[at[k]] = z as f32;
                    let o: &mut [u8; 4] = (&mut out[at[k] * 4..at[k] * 4 + 4]).try_into().unwrap();
                    *o = rgba;
                }
            }
        } else {
            for k in 0..4 {
                if hidden & 1 << k == 0 {
                    splat_pixel(depth, distance, out, at[k], dd[k], z, rgba);
                }
            }
        }
        return;
    }
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
            let (ex, ey) = (tx as f64 + 0.5 - px, ty as f64 + 0.5 - py);
            let n = ty as usize * DRAW_SIZE + tx as usize;
            splat_pixel(depth, distance, out, n, ex * ex + ey * ey, z, rgba);
        }
    }
}

/// When the splat at (px, py) lies wholly inside the frame: the index of
/// its top-left pixel and the squared distances `dd` of its four pixels
/// (top-left, top-right, bottom-left, bottom-right), each
/// `ex·ex + ey·ey` with `ex = tx + 0.5 − px`, `ey = ty + 0.5 − py`.
///
/// x86-64: both floors, offsets and squares in SSE2 registers, the same
/// operations in the same order per lane as the scalar form (below), so the
/// same bits. The floor clamps NaN and values below −2³¹ to −2³¹ first
/// (`maxpd` returns its second operand for a NaN); `cvttpd2dq` then gives
/// `floor_i32`'s `i32::MIN` for every value it does not represent.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn inside_splat(px: f64, py: f64) -> Option<(usize, [f64; 4])> {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86-64 baseline; no memory is accessed.
    unsafe {
        let p = _mm_set_pd(py, px);
        let c = _mm_max_pd(p, _mm_set1_pd(-2147483648.0));
        let t = _mm_cvttpd_epi32(c);
        // −1 in the lanes where the truncation lies above the value.
        let above = _mm_castpd_si128(_mm_cmpgt_pd(_mm_cvtepi32_pd(t), c));
        let f = _mm_add_epi32(t, _mm_shuffle_epi32::<0b1000>(above));
        let x0 = _mm_cvtsi128_si32(f);
        let y0 = _mm_cvtsi128_si32(_mm_srli_si128::<4>(f));
        let last = DRAW_SIZE as u32 - 1;
        if x0 as u32 >= last || y0 as u32 >= last {
            return None;
        }
        let half = _mm_set1_pd(0.5);
        let e0 = _mm_sub_pd(_mm_add_pd(_mm_cvtepi32_pd(f), half), p);
        let f1 = _mm_add_epi32(f, _mm_set1_epi32(1));
        let e1 = _mm_sub_pd(_mm_add_pd(_mm_cvtepi32_pd(f1), half), p);
        let (sq0, sq1) = (_mm_mul_pd(e0, e0), _mm_mul_pd(e1, e1));
        let xs = _mm_unpacklo_pd(sq0, sq1);
        let top = _mm_add_pd(xs, _mm_unpackhi_pd(sq0, sq0));
        let bottom = _mm_add_pd(xs, _mm_unpackhi_pd(sq1, sq1));
        let mut dd = [0.0; 4];
        _mm_storeu_pd(dd.as_mut_ptr(), top);
        _mm_storeu_pd(dd.as_mut_ptr().add(2), bottom);
        Some((y0 as usize * DRAW_SIZE + x0 as usize, dd))
    }
}

/// The scalar form of [`inside_splat`].
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn inside_splat(px: f64, py: f64) -> Option<(usize, [f64; 4])> {
    let x0 = floor_i32(px);
    let y0 = floor_i32(py);
    let last = DRAW_SIZE as u32 - 1;
    if x0 as u32 >= last || y0 as u32 >= last {
        return None;
    }
    let (ex0, ey0) = (x0 as f64 + 0.5 - px, y0 as f64 + 0.5 - py);
    let (ex1, ey1) = ((x0 + 1) as f64 + 0.5 - px, (y0 + 1) as f64 + 0.5 - py);
    let dd = [
        ex0 * ex0 + ey0 * ey0,
        ex1 * ex1 + ey0 * ey0,
        ex0 * ex0 + ey1 * ey1,
        ex1 * ex1 + ey1 * ey1,
    ];
    Some((y0 as usize * DRAW_SIZE + x0 as usize, dd))
}

/// The depth tests of the four pixels of the inside splat at `n` (bit k of
/// pixel k in the order of [`inside_splat`]): `hidden` where `z < d − 0.001`,
/// `tie` where `|z − d| ≤ 0.001`, with `d` the stored depth as f64.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn depth_tests(depth: &[f32; DRAW_PIXELS], n: usize, z: f64) -> (u32, u32) {
    use std::arch::x86_64::*;
    assert!(n + DRAW_SIZE + 1 < DRAW_PIXELS);
    // SAFETY: SSE2 is part of the x86-64 baseline; the two 8-byte loads read
    // depth[n..n + 2] and depth[n + 128..n + 130], inside the array (asserted).
    unsafe {
        let row = |i: usize| {
            _mm_cvtps_pd(_mm_castpd_ps(_mm_load_sd(
                depth.as_ptr().add(i).cast::<f64>(),
            )))
        };
        let (top, bottom) = (row(n), row(n + DRAW_SIZE));
        let zv = _mm_set1_pd(z);
        let eps = _mm_set1_pd(0.001);
        let sign = _mm_set1_pd(-0.0);
        let hid = |d: __m128d| _mm_movemask_pd(_mm_cmplt_pd(zv, _mm_sub_pd(d, eps))) as u32;
        let tie = |d: __m128d| {
            _mm_movemask_pd(_mm_cmple_pd(_mm_andnot_pd(sign, _mm_sub_pd(zv, d)), eps)) as u32
        };
        (hid(top) | hid(bottom) << 2, tie(top) | tie(bottom) << 2)
    }
}

/// The scalar form of [`depth_tests`].
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn depth_tests(depth: &[f32; DRAW_PIXELS], n: usize, z: f64) -> (u32, u32) {
    depth_tests_scalar(depth, n, z)
}

/// [`depth_tests`] one pixel at a time, in the words of §6.3 step 8.1–8.2.
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
fn depth_tests_scalar(depth: &[f32; DRAW_PIXELS], n: usize, z: f64) -> (u32, u32) {
    let (mut hidden, mut tie) = (0, 0);
    for (k, i) in [n, n + 1, n + DRAW_SIZE, n + DRAW_SIZE + 1]
        .into_iter()
        .enumerate()
    {
        let d = depth[i] as f64;
        hidden |= ((z < d - 0.001) as u32) << k;
        tie |= (((z - d).abs() <= 0.001) as u32) << k;
    }
    (hidden, tie)
}

/// Steps 8.1–8.5 for pixel `n`, `dd` its squared distance from the point.
#[inline(always)]
fn splat_pixel(
    depth: &mut [f32; DRAW_PIXELS],
    distance: &mut [f32; DRAW_PIXELS],
    out: &mut [u8; DRAW_OUT_BYTES],
    n: usize,
    dd: f64,
    z: f64,
    rgba: [u8; 4],
) {
    // The depth test first (every step here is side-effect free).
    let d = depth[n] as f64;
    if z < d - 0.001 {
        return;
    }
    let px_bytes: &mut [u8; 4] = (&mut out[n * 4..n * 4 + 4]).try_into().unwrap();
    if (z - d).abs() <= 0.001 {
        let q = distance[n] as f64;
        if dd > q + 1e-6 {
            return;
        }
        if (dd - q).abs() <= 1e-6 && tie_lost(rgba, *px_bytes) {
            return;
        }
    }
    distance[n] = dd as f32;
    depth[n] = z as f32;
    *px_bytes = rgba;
}

/// The colour tie-break of §6.3 step 8.4, kept out of line: exact ties are
/// rare, and inlined, the compiler computes the point's luminance for every
/// point whether a tie happens or not.
#[cold]
#[inline(never)]
fn tie_lost(new: [u8; 4], old: [u8; 4]) -> bool {
    colour_loses(new, old)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SSE2 depth tests give the scalar masks, at the 0.001 margins,
    /// with NaN and infinite depths.
    #[test]
    fn depth_tests_match_the_scalar_form() {
        let mut depth = Box::new([0f32; DRAW_PIXELS]);
        let specials = [0.0, -1e9, 1e9, f32::NAN, f32::INFINITY, -0.0];
        let mut seed = 12345u32;
        let mut checked = 0;
        for round in 0..4000 {
            let n = (round * 37) % (DRAW_PIXELS - DRAW_SIZE - 1);
            let z = (round % 200) as f64 * 0.0005 - 0.05;
            for i in [n, n + 1, n + DRAW_SIZE, n + DRAW_SIZE + 1] {
                seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
                depth[i] = match seed >> 29 {
                    0 => specials[(seed >> 8) as usize % specials.len()],
                    // Right at the margins, both sides.
                    1 | 2 => (z + 0.001) as f32,
                    3 => (z - 0.001) as f32,
                    _ => (z + ((seed >> 8) % 400) as f64 * 1e-5 - 0.002) as f32,
                };
            }
            let (h, t) = depth_tests_scalar(&depth, n, z);
            assert_eq!(depth_tests(&depth, n, z), (h, t), "n {n} z {z}");
            checked |= h | t << 4;
        }
        // Both outcomes of both tests were seen on every pixel.
        assert_eq!(checked, 0xff);
    }
}
