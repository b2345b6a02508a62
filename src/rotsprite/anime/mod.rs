// re2d — smooth 256/512 px "anime" synthesis, bilinear quad fill and workspace (spec: rotsprite-render.md §7–9).
//
//! Points are rendered at 2× supersampling: patch points as bilinear quads,
//! isolated points as depth-tested discs. The supersamples are resolved
//! 2×2 → 1 with alpha weighting, then colour is extruded one pixel into
//! transparent neighbours. All buffers live in a reusable workspace; only
//! the rectangle touched by the previous frame is reset.
//!
//! | file | stage | spec |
//! |---|---|---|
//! | `mod.rs` | workspace, buffer checks, restore, single-threaded frame | §8.1–8.2, §9 |
//! | `project.rs` | 1: selection, culling, projection, item box and bounds | §8.3–8.4 |
//! | `quad.rs` | 2a: `QUAD_FILL` (root search on lanes, then per-pixel store) | §7 |
//! | `lanes.rs` | W doubles per instruction for `quad.rs` (scalar, SSE2, AVX2) | §0.1 |
//! | `splat.rs` | 2b: disc of an isolated point | §8.4 step 9 |
//! | `resolve.rs` | 3: 2×2 resolve and colour extrusion, by output rows | §8.5–8.6 |
//! | `bands.rs` | the same frame on several threads, cut into row bands | — |
//!
//! A frame is the same bytes on any number of threads ([`AnimeWorkspace::with_threads`]).

mod bands;
mod lanes;
mod project;
mod quad;
mod resolve;
mod splat;

pub use bands::MAX_THREADS;
pub use lanes::Level as SimdLevel;

use std::cell::RefCell;

use super::fill::{fill_f32, zero_bytes};
use super::rig::Rig;
use super::types::R2DRotPoint;
use super::{Frame, RenderError};
use project::{Item, Projector};

/// The buffers of a smooth render of output size `S` (supersample side N = 2S).
pub struct WorkspaceBufs<'a> {
    /// N·N supersample depths.
    pub depth: &'a mut [f32],
    /// N·N supersample splat distances.
    pub distance: &'a mut [f32],
    /// S·S per-output-pixel depth.
    pub sample_depth: &'a mut [f32],
    /// N·N·4 supersample colours.
    pub rgba: &'a mut [u8],
    /// S·S·4 output before colour extrusion.
    pub resolved: &'a mut [u8],
    /// Supersample rectangle touched by the last frame (half-open).
    pub bounds: &'a mut [i32; 4],
}

/// An owned, reusable workspace for the Rust API.
///
/// By default a frame is rendered on the calling thread;
/// [`Self::with_threads`] cuts frames into row bands rendered in parallel,
/// with the same bytes.
#[derive(Default)]
pub struct AnimeWorkspace {
    depth: Vec<f32>,
    distance: Vec<f32>,
    sample_depth: Vec<f32>,
    rgba: Vec<u8>,
    resolved: Vec<u8>,
    bounds: [i32; 4],
    size: usize,
    threads: usize,
    scratch: bands::Scratch,
}

impl AnimeWorkspace {
    /// An empty workspace (buffers are allocated by the first render).
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty workspace whose frames use up to `threads` threads (the
    /// calling one included; 0 and 1 mean single-threaded, at most
    /// [`MAX_THREADS`]). Output bytes do not depend on the thread count.
    pub fn with_threads(threads: usize) -> Self {
        AnimeWorkspace {
            threads,
            ..Self::default()
        }
    }

    /// Changes the thread count of later frames (see [`Self::with_threads`]).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
    }

    /// The thread count of later frames (0 or 1: single-threaded).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Output size S of the current buffers (0 when none).
    pub fn size(&self) -> usize {
        self.size
    }

    /// Supersample bounds of the last frame.
    pub fn bounds(&self) -> [i32; 4] {
        self.bounds
    }

    /// Per-output-pixel depth of the last frame (S·S).
    pub fn sample_depth(&self) -> &[f32] {
        &self.sample_depth
    }

    /// Output of the last frame before colour extrusion (S·S·4).
    pub fn resolved(&self) -> &[u8] {
        &self.resolved
    }

    /// Renders an S×S image (S = 256 or 512) into `out` (S·S·4 bytes).
    pub fn render(
        &mut self,
        points: &[R2DRotPoint],
        frame: &Frame<'_>,
        size: usize,
        out: &mut [u8],
    ) -> Result<(), RenderError> {
        check_size(size, out)?;
        if self.size != size {
            let n = 2 * size;
            let (threads, scratch) = (self.threads, std::mem::take(&mut self.scratch));
            *self = AnimeWorkspace {
                threads,
                scratch,
                ..AnimeWorkspace::default()
            };
            *self = AnimeWorkspace {
                depth: try_filled(n * n, 0.0)?,
                distance: try_filled(n * n, 0.0)?,
                sample_depth: try_filled(size * size, 0.0)?,
                rgba: try_filled(n * n * 4, 0)?,
                resolved: try_filled(size * size * 4, 0)?,
                bounds: [0, 0, n as i32, n as i32],
                size,
                threads,
                scratch: std::mem::take(&mut self.scratch),
            };
        }
        let bufs = WorkspaceBufs {
            depth: &mut self.depth,
            distance: &mut self.distance,
            sample_depth: &mut self.sample_depth,
            rgba: &mut self.rgba,
            resolved: &mut self.resolved,
            bounds: &mut self.bounds,
        };
        render_with(
            points,
            frame,
            size,
            out,
            bufs,
            self.threads,
            &mut self.scratch,
        )
    }
}

/// A vector of `n` copies of `v`, or `OutOfMemory` instead of aborting.
fn try_filled<T: Clone>(n: usize, v: T) -> Result<Vec<T>, RenderError> {
    let mut out = Vec::new();
    out.try_reserve_exact(n)
        .map_err(|_| RenderError::OutOfMemory)?;
    out.resize(n, v);
    Ok(out)
}

fn check_size(size: usize, out: &[u8]) -> Result<(), RenderError> {
    if size != 256 && size != 512 {
        return Err(RenderError::BadSize);
    }
    if out.len() < size * size * 4 {
        return Err(RenderError::BufferTooSmall);
    }
    Ok(())
}

/// Rows `r0..r1` of the supersample buffers (N wide): `depth` and
/// `distance` hold `(r1 - r0)·N` entries, `rgba` four bytes each.
pub(super) struct Band<'a> {
    depth: &'a mut [f32],
    distance: &'a mut [f32],
    rgba: &'a mut [u8],
    r0: i32,
    r1: i32,
    n: usize,
}

/// §8.2 step 3 for the rows of `band`: resets what the previous frame
/// touched (`previous`, clamped to the grid).
fn restore(band: &mut Band<'_>, previous: [i32; 4]) {
    let n = band.n as i32;
    let [bx0, by0, bx1, by1] = previous.map(|b| b.clamp(0, n));
    let (x0, x1) = (bx0 as usize, bx1.max(bx0) as usize);
    for y in by0.max(band.r0)..by1.min(band.r1) {
        let row = (y - band.r0) as usize * band.n;
        fill_f32(&mut band.depth[row + x0..row + x1], -1e9f32);
        fill_f32(&mut band.distance[row + x0..row + x1], 1e9f32);
        zero_bytes(&mut band.rgba[(row + x0) * 4..(row + x1) * 4]);
    }
}

/// Draws, in order, the rows that lie in `band` of every item `next`
/// yields, with the quad fill compiled for the CPU's SIMD level (the whole
/// loop is compiled once per level, so the fill is inlined into it).
fn draw_items(
    band: &mut Band<'_>,
    points: &[R2DRotPoint],
    level: lanes::Level,
    next: impl FnMut() -> Option<Item>,
) {
    #[inline(always)]
    unsafe fn run<L: lanes::Lanes>(
        band: &mut Band<'_>,
        points: &[R2DRotPoint],
        mut next: impl FnMut() -> Option<Item>,
    ) {
        let mut batch = quad::Batch::default();
        while let Some(item) = next() {
            match item {
                // SAFETY: forwarded from the caller.
                Item::Quad(q) => unsafe {
                    quad::fill::<L>(band, &mut batch, &q, &points[q.point as usize])
                },
                Item::Splat(s) => splat::splat(band, &s),
            }
        }
    }
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn run_avx2(
        band: &mut Band<'_>,
        points: &[R2DRotPoint],
        next: impl FnMut() -> Option<Item>,
    ) {
        // SAFETY: only entered when the CPU has AVX2.
        unsafe { run::<lanes::Avx2>(band, points, next) }
    }
    match level {
        // SAFETY: Level::Avx2 is chosen only when the CPU has AVX2.
        #[cfg(target_arch = "x86_64")]
        lanes::Level::Avx2 => unsafe { run_avx2(band, points, next) },
        // SAFETY: SSE2 is part of the x86-64 baseline.
        #[cfg(target_arch = "x86_64")]
        lanes::Level::Sse2 => unsafe { run::<lanes::Sse2>(band, points, next) },
        // SAFETY: plain f64 arithmetic.
        _ => unsafe { run::<f64>(band, points, next) },
    }
}

thread_local! {
    /// Scratch of frames rendered through [`render`] and [`render_threads`].
    static SCRATCH: RefCell<bands::Scratch> = RefCell::new(bands::Scratch::default());
}

/// Renders one frame into `out` (S·S·4 bytes) using the workspace buffers
/// (§8.2 steps 3–4, §8.3–8.6), on the calling thread. Buffers must have the
/// sizes of [`WorkspaceBufs`] for this `size`; the stored bounds say what
/// the previous frame touched.
pub fn render(
    points: &[R2DRotPoint],
    frame: &Frame<'_>,
    size: usize,
    out: &mut [u8],
    ws: WorkspaceBufs<'_>,
) -> Result<(), RenderError> {
    render_threads(points, frame, size, out, ws, 1)
}

/// [`render`] on up to `threads` threads (row bands, same bytes). The
/// scratch memory of a frame (projection tables, item list) is kept per
/// calling thread and reused.
pub fn render_threads(
    points: &[R2DRotPoint],
    frame: &Frame<'_>,
    size: usize,
    out: &mut [u8],
    ws: WorkspaceBufs<'_>,
    threads: usize,
) -> Result<(), RenderError> {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => render_with(points, frame, size, out, ws, threads, &mut scratch),
        // Only reachable by re-entering from inside a render: use fresh scratch.
        Err(_) => render_with(
            points,
            frame,
            size,
            out,
            ws,
            threads,
            &mut Default::default(),
        ),
    })
}

fn render_with(
    points: &[R2DRotPoint],
    frame: &Frame<'_>,
    size: usize,
    out: &mut [u8],
    ws: WorkspaceBufs<'_>,
    threads: usize,
    scratch: &mut bands::Scratch,
) -> Result<(), RenderError> {
    check_size(size, out)?;
    let n = 2 * size;
    if ws.depth.len() < n * n
        || ws.distance.len() < n * n
        || ws.rgba.len() < n * n * 4
        || ws.sample_depth.len() < size * size
        || ws.resolved.len() < size * size * 4
    {
        return Err(RenderError::BufferTooSmall);
    }
    let out = &mut out[..size * size * 4];
    let ws = WorkspaceBufs {
        depth: &mut ws.depth[..n * n],
        distance: &mut ws.distance[..n * n],
        sample_depth: &mut ws.sample_depth[..size * size],
        rgba: &mut ws.rgba[..n * n * 4],
        resolved: &mut ws.resolved[..size * size * 4],
        bounds: ws.bounds,
    };
    let s = match frame.rig.as_ref() {
        Some(Rig { model: Some(m), .. }) => m.scale,
        Some(r) if r.body => 1.0,
        _ => 2.0,
    };
    let depth_scale = s / 128.0;
    if threads > 1 {
        return bands::render(points, frame, size, out, ws, threads, scratch, depth_scale);
    }
    let mut band = Band {
        depth: ws.depth,
        distance: ws.distance,
        rgba: ws.rgba,
        r0: 0,
        r1: n as i32,
        n,
    };
    restore(&mut band, *ws.bounds);
    let proj = Projector::new(frame, size, &mut scratch.tables);
    let level = lanes::Level::get();
    let mut bounds = [n as i32, n as i32, 0, 0];
    let mut rest = points.iter().enumerate();
    draw_items(&mut band, points, level, || {
        rest.find_map(|(i, p)| proj.item(p, i as u32, &mut bounds))
    });
    *ws.bounds = bounds;
    let region = resolve::region(bounds);
    let samples = resolve::Samples {
        depth: band.depth,
        rgba: band.rgba,
    };
    resolve::resolve_rows(
        &samples,
        (0, size),
        region,
        size,
        depth_scale,
        out,
        ws.sample_depth,
        ws.resolved,
    );
    resolve::extrude_rows(ws.resolved, (0, size), region, size, out);
    Ok(())
}
