// re2d — smooth synthesis on several threads: row bands with identical bytes (spec: rotsprite-render.md §8).
//
//! Supersample pixels are independent: what a pixel ends up holding depends
//! only on the items that cover it, taken in point order (the depth
//! tolerance and colour tie-break make that order matter within a pixel,
//! never across pixels). So a frame is cut into bands of whole output rows;
//! each band walks every item in point order and keeps the rows it owns.
//! The result is the single-threaded frame, byte for byte, for any number of
//! threads and any cut.
//!
//! Three phases, each a `std::thread::scope` (the calling thread takes the
//! first share):
//! 1. the points are cut into equal chunks; each thread projects its chunk
//!    into its part of the item list ([`super::project`]), with its bounds and a
//!    per-row estimate of the fill work;
//! 2. each band restores the rows the previous frame touched, fills its rows
//!    from all items, then resolves its output rows; bands are cut so that
//!    the estimated fill work is even;
//! 3. each band extrudes its output rows (this reads the resolved rows of
//!    its neighbours, hence a phase of its own).
//!
//! The item list and the estimates live in a [`Scratch`] that is reused
//! from frame to frame (it only grows).

use std::thread;

use super::project::{Item, Projector, Tables};
use super::resolve::{self, Samples};
use super::{Band, Frame, RenderError, WorkspaceBufs, draw_items, restore};
use crate::rotsprite::R2DRotPoint;
use crate::rotsprite::anime::lanes::Level;

/// Most threads one frame is cut into.
pub const MAX_THREADS: usize = 64;

/// Reusable memory of multi-threaded frames.
#[derive(Default)]
pub struct Scratch {
    /// Projection tables of the frame.
    pub(super) tables: Tables,
    items: Vec<Item>,
    /// Per chunk: fill-work difference array over supersample rows (N + 1).
    work: Vec<i64>,
}

impl Scratch {
    fn reserve(&mut self, points: usize, threads: usize, n: usize) -> Result<(), RenderError> {
        const NONE: Item = Item::Splat(super::project::Splat {
            s: [0.0; 3],
            r2: 0.0,
            rgba: [0; 4],
            bx0: 0,
            bx1: 0,
            by0: 0,
            by1: 0,
        });
        grow(&mut self.items, points, NONE)?;
        grow(&mut self.work, threads * (n + 1), 0)
    }
}

fn grow<T: Clone>(v: &mut Vec<T>, len: usize, fill: T) -> Result<(), RenderError> {
    if v.len() < len {
        v.try_reserve_exact(len - v.len())
            .map_err(|_| RenderError::OutOfMemory)?;
        v.resize(len, fill);
    }
    Ok(())
}

/// One chunk's result of phase 1.
#[derive(Clone, Copy)]
struct Chunk {
    /// Items written at the start of the chunk's slots.
    count: usize,
    bounds: [i32; 4],
}

/// Renders one frame on `threads` (≥ 2) threads; see the module docs. The
/// buffers are those of [`super::render`], already size-checked.
#[allow(clippy::too_many_arguments)]
pub(super) fn render(
    points: &[R2DRotPoint],
    frame: &Frame<'_>,
    size: usize,
    out: &mut [u8],
    ws: WorkspaceBufs<'_>,
    threads: usize,
    scratch: &mut Scratch,
    depth_scale: f64,
) -> Result<(), RenderError> {
    let n = 2 * size;
    // At most MAX_THREADS bands, and never more bands than pairs of output rows.
    let threads = threads.clamp(1, MAX_THREADS).min(size / 2);
    scratch.reserve(points.len(), threads, n)?;
    let proj = Projector::new(frame, size, &mut scratch.tables);
    let level = Level::get();

    // Phase 1: project equal chunks of points.
    let per = points.len().div_ceil(threads).max(1);
    let mut chunks = [Chunk {
        count: 0,
        bounds: [n as i32, n as i32, 0, 0],
    }; MAX_THREADS];
    {
        let items = &mut scratch.items[..points.len()];
        let work = &mut scratch.work[..threads * (n + 1)];
        thread::scope(|sc| {
            let mut jobs = items
                .chunks_mut(per)
                .zip(points.chunks(per))
                .zip(work.chunks_mut(n + 1))
                .zip(chunks.iter_mut())
                .enumerate();
            let first = jobs.next();
            for (c, (((slots, pts), work), chunk)) in jobs {
                let proj = &proj;
                sc.spawn(move || project_chunk(proj, pts, c * per, slots, work, chunk));
            }
            if let Some((_, (((slots, pts), work), chunk))) = first {
                project_chunk(&proj, pts, 0, slots, work, chunk);
            }
        });
    }
    let used = points.len().div_ceil(per);
    let mut bounds = [n as i32, n as i32, 0, 0];
    for c in &chunks[..used] {
        bounds[0] = bounds[0].min(c.bounds[0]);
        bounds[1] = bounds[1].min(c.bounds[1]);
        bounds[2] = bounds[2].max(c.bounds[2]);
        bounds[3] = bounds[3].max(c.bounds[3]);
    }

    // Band cut: output rows with even estimated fill work.
    let cuts = cut(&scratch.work[..used * (n + 1)], n, size, threads);
    let lists: [&[Item]; MAX_THREADS] = {
        let mut l: [&[Item]; MAX_THREADS] = [&[]; MAX_THREADS];
        for (k, c) in chunks[..used].iter().enumerate() {
            l[k] = &scratch.items[k * per..k * per + c.count];
        }
        l
    };
    let lists = &lists[..used];

    // Phase 2: restore, fill and resolve per band.
    let previous = *ws.bounds;
    let region = resolve::region(bounds);
    {
        let (mut depth, mut distance, mut rgba) =
            (&mut *ws.depth, &mut *ws.distance, &mut *ws.rgba);
        let (mut outr, mut sd, mut res) = (&mut *out, &mut *ws.sample_depth, &mut *ws.resolved);
        thread::scope(|sc| {
            let mut first = None;
            for t in 0..threads {
                let (o0, o1) = (cuts[t], cuts[t + 1]);
                let rows = o1 - o0;
                let (d, rest) = depth.split_at_mut(2 * rows * n);
                depth = rest;
                let (di, rest) = distance.split_at_mut(2 * rows * n);
                distance = rest;
                let (c, rest) = rgba.split_at_mut(8 * rows * n);
                rgba = rest;
                let (o, rest) = outr.split_at_mut(4 * rows * size);
                outr = rest;
                let (s, rest) = sd.split_at_mut(rows * size);
                sd = rest;
                let (r, rest) = res.split_at_mut(4 * rows * size);
                res = rest;
                let mut band = Band {
                    depth: d,
                    distance: di,
                    rgba: c,
                    r0: 2 * o0 as i32,
                    r1: 2 * o1 as i32,
                    n,
                };
                let job = move || {
                    restore(&mut band, previous);
                    let (r0, r1) = (band.r0, band.r1);
                    let mut rest = lists.iter().flat_map(|l| l.iter());
                    draw_items(&mut band, points, level, || {
                        rest.find(|item| {
                            let (ya, yb) = item.rows();
                            ya < r1 && yb > r0
                        })
                        .copied()
                    });
                    let samples = Samples {
                        depth: band.depth,
                        rgba: band.rgba,
                    };
                    resolve::resolve_rows(&samples, (o0, o1), region, size, depth_scale, o, s, r);
                };
                if t == 0 {
                    first = Some(job);
                } else {
                    sc.spawn(job);
                }
            }
            if let Some(mut job) = first {
                job();
            }
        });
    }
    *ws.bounds = bounds;

    // Phase 3: extrusion per band.
    let resolved = &*ws.resolved;
    let mut outr = &mut *out;
    thread::scope(|sc| {
        let mut first = None;
        for t in 0..threads {
            let (o0, o1) = (cuts[t], cuts[t + 1]);
            let (o, rest) = outr.split_at_mut(4 * (o1 - o0) * size);
            outr = rest;
            let job = move || resolve::extrude_rows(resolved, (o0, o1), region, size, o);
            if t == 0 {
                first = Some(job);
            } else {
                sc.spawn(job);
            }
        }
        if let Some(mut job) = first {
            job();
        }
    });
    Ok(())
}

/// Projects `pts` (indices from `base`) into `slots`, counting the items,
/// their bounds and their fill work per supersample row.
fn project_chunk(
    proj: &Projector<'_>,
    pts: &[R2DRotPoint],
    base: usize,
    slots: &mut [Item],
    work: &mut [i64],
    chunk: &mut Chunk,
) {
    work.fill(0);
    let mut count = 0;
    for (i, p) in pts.iter().enumerate() {
        if let Some(item) = proj.item(p, (base + i) as u32, &mut chunk.bounds) {
            let (ya, yb) = item.rows();
            let w = item.width() as i64 + 4;
            work[ya as usize] += w;
            work[yb as usize] -= w;
            slots[count] = item;
            count += 1;
        }
    }
    chunk.count = count;
}

/// Output-row cuts `0 = c0 ≤ c1 ≤ … ≤ c_threads = size` that split the
/// estimated work (fill work per supersample row, plus a little per row for
/// the resolve) evenly.
fn cut(work: &[i64], n: usize, size: usize, threads: usize) -> [usize; MAX_THREADS + 1] {
    let mut cuts = [size; MAX_THREADS + 1];
    cuts[0] = 0;
    // Work per output row: the two supersample rows' running sums.
    let mut per_row = [0i64; 2048 / 2];
    let mut run = 0i64;
    let mut total = 0i64;
    for y in 0..n {
        for c in work.chunks_exact(n + 1) {
            run += c[y];
        }
        per_row[y / 2] += run + 1;
        total += run + 1;
    }
    let mut acc = 0i64;
    let mut t = 1;
    for (y, w) in per_row[..size].iter().enumerate() {
        // Rows are handed out while at least the remaining bands get one.
        while t < threads && acc * threads as i64 >= total * t as i64 {
            cuts[t] = y.max(cuts[t - 1]);
            t += 1;
        }
        acc += w;
    }
    while t < threads {
        cuts[t] = size;
        t += 1;
    }
    cuts[threads] = size;
    cuts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(cuts: &[usize; MAX_THREADS + 1], threads: usize, size: usize) {
        assert_eq!(cuts[0], 0);
        assert_eq!(cuts[threads], size);
        assert!(
            cuts[..=threads].windows(2).all(|w| w[0] <= w[1]),
            "{cuts:?}"
        );
    }

    #[test]
    fn cuts_cover_every_row_in_order_and_follow_the_work() {
        let (size, n) = (256, 512);
        // No work: even rows.
        let work = vec![0i64; 2 * (n + 1)];
        for threads in [1, 2, 3, 8, 64] {
            check(&cut(&work, n, size, threads), threads, size);
        }
        let even = cut(&work, n, size, 2);
        assert!((120..=136).contains(&even[1]), "{}", even[1]);
        // All the work in supersample rows 400..500 (output rows 200..250):
        // two bands meet inside it.
        let mut work = vec![0i64; n + 1];
        work[400] += 1_000_000;
        work[500] -= 1_000_000;
        let c = cut(&work, n, size, 2);
        check(&c, 2, size);
        assert!((200..=250).contains(&c[1]), "{}", c[1]);
    }
}
