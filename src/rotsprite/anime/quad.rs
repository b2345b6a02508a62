// re2d — smooth synthesis, stage 2a: the bilinear quad fill `QUAD_FILL` (spec: rotsprite-render.md §7).
//
//! The root search (§7 steps 4.1–4.3.5: roots, range, Jacobian, residual
//! and orientation tests) runs on W pixels of the quad's box at once through
//! [`Lanes`], without a branch; it reads nothing but the quad, so computing
//! it ahead for a batch of pixels changes nothing. The surviving roots then
//! go through the depth test, colour and store (steps 4.3.6–4.3.11), which
//! read and write the buffers: a batch's first roots in pixel order, then
//! its second roots. Each lane is a different pixel and pixels do not
//! interact, so this writes what §7's pixel-by-pixel, root-by-root order
//! writes (the two roots of one pixel keep their order; a unit test checks
//! the fill against a plain transcription of §7).
//!
//! Where the time went (speed round 5, the dense figure: 44 652 quads per
//! 256 px frame, boxes of 12.5 supersamples on average, 3.35 groups of four
//! lanes): the search of one group is a chain of a square root and three
//! divisions, and it used to end in branches on its outcome (any lane
//! left? any root?) that mispredict about once per group. Each miss
//! discarded the searches started behind it, so the groups ran one after
//! the other at the chain's latency, about 80 cycles each. Searched in
//! batches with no branch, neighbouring groups overlap.

use super::Band;
use super::lanes::Lanes;
use super::project::Quad;
use crate::math::{colour_loses, fmax_k, fmin_k, round};
use crate::rotsprite::R2DRotPoint;

/// The quad's coefficients (§7 step 3).
struct Setup {
    v0x: f64,
    v0y: f64,
    bx: f64,
    by: f64,
    cx: f64,
    cy: f64,
    dx: f64,
    dy: f64,
    a: f64,
    bc: f64,
    eps: f64,
}

impl Setup {
    #[inline(always)]
    fn new(q: &Quad) -> Self {
        let [xs, ys, _] = q.v;
        let bx = xs[1] - xs[0];
        let by = ys[1] - ys[0];
        let cx = xs[2] - xs[0];
        let cy = ys[2] - ys[0];
        let dx = xs[3] - xs[1] - xs[2] + xs[0];
        let dy = ys[3] - ys[1] - ys[2] + ys[0];
        let a = -(bx * dy - by * dx);
        let bc = bx * cy - by * cx;
        let eps = 1e-10
            * fmax_k(
                1.0,
                (bx.abs() + by.abs() + cx.abs() + cy.abs()) * (dx.abs() + dy.abs() + 1.0),
            );
        Setup {
            v0x: xs[0],
            v0y: ys[0],
            bx,
            by,
            cx,
            cy,
            dx,
            dy,
            a,
            bc,
            eps,
        }
    }
}

const LO: f64 = -1e-7;
const HI: f64 = 1.0 + 1e-7;

/// Fills the rows of `q` that lie in `band`, W pixels per instruction.
///
/// # Safety
/// `L`'s instructions must be available (callers are compiled per level,
/// see `super::draw_items`).
#[inline(always)]
pub(super) unsafe fn fill<L: Lanes>(
    band: &mut Band<'_>,
    batch: &mut Batch,
    q: &Quad,
    p: &R2DRotPoint,
) {
    let ya = (q.y0 as i32).max(band.r0);
    let yb = (q.y1 as i32).min(band.r1 - 1);
    if ya > yb {
        return;
    }
    let s = Setup::new(q);
    let job = Job {
        q,
        s: &s,
        material: &p.material,
        colors: &p.colors,
        ya,
        yb,
    };
    // SAFETY: forwarded.
    unsafe {
        if s.a.abs() <= s.eps {
            rows::<L, true>(band, batch, &job)
        } else {
            rows::<L, false>(band, batch, &job)
        }
    }
}

struct Job<'a> {
    q: &'a Quad,
    s: &'a Setup,
    material: &'a [u8; 100],
    colors: &'a [[u8; 4]; 4],
    ya: i32,
    yb: i32,
}

/// The root search of one group of lanes: the masks of the two roots and
/// their (unclamped) u, v. `LINEAR` selects the case of §7 step 4.2.
struct Roots<L: Lanes> {
    m1: L::M,
    u1: L,
    v1: L,
    m2: L::M,
    u2: L,
    v2: L,
}

/// Groups of lanes searched before their survivors are stored.
const BATCH: usize = 8;

/// The search results of one batch: per group, the x, y, u1, v1, u2 and v2
/// of its lanes. Scratch memory reused from quad to quad (clearing it per
/// quad would cost more than the search).
pub(super) struct Batch([[[f64; 4]; 6]; BATCH]);

impl Default for Batch {
    fn default() -> Self {
        Batch([[[0.0; 4]; 6]; BATCH])
    }
}

/// The pixels of the quad's box in this band, row-major (y, then x), W at
/// a time: a group of lanes may end one row and start the next, so narrow
/// boxes keep the lanes busy.
///
/// Up to [`BATCH`] groups are searched before any survivor is stored: the
/// search has no branch, so the processor overlaps the long dependency
/// chains (square root, divisions) of neighbouring groups instead of
/// waiting for each group's outcome. Then every first-root survivor of the
/// batch is stored, in pixel order, and then every second-root survivor.
/// Pixels are independent (each lane is a different pixel of the box), so
/// only the order of the two roots of one pixel matters, and it is kept.
///
/// # Safety
/// `L`'s instructions must be available.
#[inline(always)]
unsafe fn rows<L: Lanes, const LINEAR: bool>(
    band: &mut Band<'_>,
    batch: &mut Batch,
    job: &Job<'_>,
) {
    let (q, s) = (job.q, job.s);
    let width = (q.x1 - q.x0) as usize + 1;
    let total = width * (job.yb - job.ya + 1) as usize;
    // A step of W lanes passes at most this many row ends.
    let wraps = (L::W - 1) / width + 1;
    unsafe {
        let sp = L::splat;
        let (x1, wf, one, step) = (sp(q.x1 as f64), sp(width as f64), sp(1.0), sp(L::W as f64));
        // Lane positions (exact small integers as doubles), wrapped into the box.
        let wrap = |mut x: L, mut y: L| {
            for _ in 0..wraps {
                let m = x.gt(x1);
                x = L::select(m, x.sub(wf), x);
                y = L::select(m, y.add(one), y);
            }
            (x, y)
        };
        let (mut xv, mut yv) = wrap(L::ramp(q.x0 as f64), sp(job.ya as f64));
        let (half, v0x, v0y) = (sp(0.5), sp(s.v0x), sp(s.v0y));
        let mut done = 0;
        let at = &mut batch.0;
        while done < total {
            let groups = (total - done).div_ceil(L::W).min(BATCH);
            // Bit 4·g + k: lane k of group g has a surviving first / second root.
            let (mut b1, mut b2) = (0u32, 0u32);
            for (g, at) in at.iter_mut().enumerate().take(groups) {
                let rx = xv.add(half).sub(v0x);
                let ry = yv.add(half).sub(v0y);
                let r = search::<L, LINEAR>(s, q.one_sided, rx, ry);
                let lanes = (total - done - g * L::W).min(L::W);
                let live = (1u32 << lanes) - 1;
                b1 |= (L::bits(r.m1) & live) << (4 * g);
                b2 |= (L::bits(r.m2) & live) << (4 * g);
                xv.store(&mut at[0]);
                yv.store(&mut at[1]);
                r.u1.store(&mut at[2]);
                r.v1.store(&mut at[3]);
                if !LINEAR {
                    r.u2.store(&mut at[4]);
                    r.v2.store(&mut at[5]);
                }
                (xv, yv) = wrap(xv.add(step), yv);
            }
            for (bits, root) in [(b1, 2), (b2, 4)] {
                let mut bits = bits;
                while bits != 0 {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let (g, k) = (b / 4, b % 4);
                    let a = &at[g];
                    // SAFETY: a live lane is a pixel of the box in this band:
                    // exact integers with r0 <= y < r1 and 0 <= x < N.
                    let (x, y) = (
                        a[0][k].to_int_unchecked::<u32>() as usize,
                        a[1][k].to_int_unchecked::<i32>(),
                    );
                    let i = (y - band.r0) as usize * band.n + x;
                    store(band, i, a[root][k], a[root + 1][k], job);
                }
            }
            done += groups * L::W;
        }
    }
}

/// §7 steps 4.1–4.3.5 for W pixels with centres offsets `rx`, `ry`.
///
/// # Safety
/// `L`'s instructions must be available.
#[inline(always)]
unsafe fn search<L: Lanes, const LINEAR: bool>(
    s: &Setup,
    one_sided: bool,
    rx: L,
    ry: L,
) -> Roots<L> {
    unsafe {
        let sp = L::splat;
        let b = rx.mul(sp(s.dy)).sub(ry.mul(sp(s.dx))).sub(sp(s.bc));
        let c = rx.mul(sp(s.cy)).sub(ry.mul(sp(s.cx)));
        let eps = sp(s.eps);
        let (m1, u1, m2, u2) = if LINEAR {
            // One root −C/B when |B| > eps.
            (b.abs().gt(eps), c.neg().div(b), L::lt(eps, eps), sp(0.0))
        } else {
            let disc = b.mul(b).sub(sp(4.0 * s.a).mul(c));
            let has = disc.ge(sp(0.0));
            let q = sp(-0.5).mul(b.add(disc.sqrt().copysign(b)));
            let two = q.abs().gt(eps);
            // One division: q / a where |q| > eps, else −b / (2a).
            let r1 = L::select(two, q, b.neg()).div(L::select(two, sp(s.a), sp(2.0 * s.a)));
            (has, r1, L::and(has, two), c.div(q))
        };
        let (m1, v1) = check::<L>(s, one_sided, m1, u1, rx, ry);
        let (m2, v2) = if LINEAR {
            (m2, u2)
        } else {
            check::<L>(s, one_sided, m2, u2, rx, ry)
        };
        Roots {
            m1,
            u1,
            v1,
            m2,
            u2,
            v2,
        }
    }
}

/// The tests of one root (§7 steps 4.3.1–4.3.5): the surviving lanes and v.
///
/// # Safety
/// `L`'s instructions must be available.
#[inline(always)]
unsafe fn check<L: Lanes>(s: &Setup, one_sided: bool, m: L::M, u: L, rx: L, ry: L) -> (L::M, L) {
    unsafe {
        let sp = L::splat;
        let (lo, hi) = (sp(LO), sp(HI));
        let m = L::andnot(L::or(u.lt(lo), u.gt(hi)), m);
        let (bx, by, cx, cy, dx, dy) = (sp(s.bx), sp(s.by), sp(s.cx), sp(s.cy), sp(s.dx), sp(s.dy));
        let vx = cx.add(dx.mul(u));
        let vy = cy.add(dy.mul(u));
        let den = vx.mul(vx).add(vy.mul(vy));
        let m = L::andnot(den.lt(sp(1e-14)), m);
        let v = rx
            .sub(bx.mul(u))
            .mul(vx)
            .add(ry.sub(by.mul(u)).mul(vy))
            .div(den);
        let m = L::andnot(L::or(v.lt(lo), v.gt(hi)), m);
        let ex = bx.mul(u).add(cx.mul(v)).add(dx.mul(u).mul(v)).sub(rx);
        let ey = by.mul(u).add(cy.mul(v)).add(dy.mul(u).mul(v)).sub(ry);
        let m = L::andnot(ex.mul(ex).add(ey.mul(ey)).gt(sp(1e-8)), m);
        let m = if one_sided {
            let cross = bx.add(dx.mul(v)).mul(vy).sub(by.add(dy.mul(v)).mul(vx));
            L::andnot(cross.le(sp(s.eps)), m)
        } else {
            m
        };
        (m, v)
    }
}

/// §7 steps 4.3.6–4.3.11 for one root at pixel `i` of the band.
#[inline(always)]
fn store(band: &mut Band<'_>, i: usize, u: f64, v: f64, job: &Job<'_>) {
    let (q, material) = (job.q, job.material);
    let u = fmax_k(0.0, fmin_k(1.0, u));
    let v = fmax_k(0.0, fmin_k(1.0, v));
    let w = [(1.0 - u) * (1.0 - v), u * (1.0 - v), (1.0 - u) * v, u * v];
    let mut z = 0.0;
    for j in 0..4 {
        z += w[j] * q.v[2][j];
    }
    let d = band.depth[i] as f64;
    if z < d - 0.001 {
        return;
    }
    let colour = if q.textured {
        let tu = u * 4.0;
        let tv = v * 4.0;
        let ix = texel_index(tu);
        let iy = texel_index(tv);
        let fx = tu - ix as f64;
        let fy = tv - iy as f64;
        let wt = [
            (1.0 - fx) * (1.0 - fy),
            fx * (1.0 - fy),
            (1.0 - fx) * fy,
            fx * fy,
        ];
        let mut alpha = 0.0;
        let mut sum = [0.0f64; 3];
        for j in 0..4 {
            let t = ((iy + j / 2) * 5 + ix + j % 2) * 4;
            let c = &material[t..t + 4];
            let wa = wt[j] * c[3] as f64;
            alpha += wa;
            for k in 0..3 {
                sum[k] += wa * c[k] as f64;
            }
        }
        if alpha < 128.0 {
            return;
        }
        let ch = |k: usize| channel(sum[k] / alpha);
        [ch(0), ch(1), ch(2), 255]
    } else {
        let mut col = [0u8; 4];
        for (k, out) in col.iter_mut().enumerate() {
            let mut value = 0.0;
            for j in 0..4 {
                value += w[j] * job.colors[j][k] as f64;
            }
            *out = fmax_k(0.0, fmin_k(255.0, round(value))) as u8;
        }
        if col[3] == 0 {
            return;
        }
        col
    };
    let px: &mut [u8; 4] = (&mut band.rgba[i * 4..i * 4 + 4]).try_into().unwrap();
    if (z - d).abs() <= 0.001 && colour_loses(colour, *px) {
        return;
    }
    band.depth[i] = z as f32;
    *px = colour;
}

/// `trunc_i32(min(3, floor(t)))` of §7 step 4.3.9 for `t = u*4` with the
/// clamped `u ∈ [0, 1]`, so `t ∈ [0, 4]`: there floor is the truncating
/// conversion and the result is 0..=3.
#[inline(always)]
fn texel_index(t: f64) -> usize {
    debug_assert!((0.0..=4.0).contains(&t));
    // SAFETY: t ∈ [0, 4] (see above) converts exactly.
    let i = unsafe { t.to_int_unchecked::<u32>() };
    i.min(3) as usize
}

/// `(u8)min(255, round(x))` of §7 step 4.3.9 for `x = sum/alpha`: a weighted
/// mean of bytes with non-negative weights and `alpha ≥ 128`, so `x` is finite
/// and in `[0, 256)`. There `round` (half away from zero) is the truncation
/// plus one when the exact remainder `x - trunc(x)` is at least one half.
#[inline(always)]
fn channel(x: f64) -> u8 {
    debug_assert!((0.0..256.0).contains(&x));
    // SAFETY: x ∈ [0, 256) (see above).
    let t = unsafe { x.to_int_unchecked::<u32>() } as f64;
    let r = if x - t >= 0.5 { t + 1.0 } else { t };
    debug_assert_eq!(fmin_k(255.0, round(x)), fmin_k(255.0, r));
    // SAFETY: r ∈ [0, 256], so the minimum is in [0, 255].
    unsafe { fmin_k(255.0, r).to_int_unchecked::<u8>() }
}

#[cfg(test)]
mod tests {
    use super::super::lanes::{self, Level};
    use super::super::project::fill_box;
    use super::*;
    use crate::math::{ceil_clamp_i32, floor_clamp0_i32};

    /// Side of the test supersample grid.
    const N: usize = 24;

    /// §7 step 4 in the words of the spec: pixel by pixel (y, then x), root
    /// by root, each root tested, coloured and stored before the next.
    fn reference(depth: &mut [f32], rgba: &mut [u8], q: &Quad, p: &R2DRotPoint) {
        let [xs, ys, zs] = q.v;
        let cross = |a1: f64, a2: f64, b1: f64, b2: f64| a1 * b2 - a2 * b1;
        let (bx, by) = (xs[1] - xs[0], ys[1] - ys[0]);
        let (cx, cy) = (xs[2] - xs[0], ys[2] - ys[0]);
        let (dx, dy) = (xs[3] - xs[1] - xs[2] + xs[0], ys[3] - ys[1] - ys[2] + ys[0]);
        let a = -cross(bx, by, dx, dy);
        let bc = cross(bx, by, cx, cy);
        let eps = 1e-10
            * fmax_k(
                1.0,
                (bx.abs() + by.abs() + cx.abs() + cy.abs()) * (dx.abs() + dy.abs() + 1.0),
            );
        for y in q.y0 as usize..=q.y1 as usize {
            for x in q.x0 as usize..=q.x1 as usize {
                let rx = x as f64 + 0.5 - xs[0];
                let ry = y as f64 + 0.5 - ys[0];
                let b = cross(rx, ry, dx, dy) - bc;
                let c = cross(rx, ry, cx, cy);
                let mut roots = vec![];
                if a.abs() <= eps {
                    if b.abs() > eps {
                        roots.push(-c / b);
                    }
                } else {
                    let disc = b * b - 4.0 * a * c;
                    if disc >= 0.0 {
                        let q = -0.5 * (b + disc.sqrt().copysign(b));
                        if q.abs() > eps {
                            roots.extend([q / a, c / q]);
                        } else {
                            roots.push(-b / (2.0 * a));
                        }
                    }
                }
                for u in roots {
                    // (A NaN passes these tests, as in the spec.)
                    if u < LO || u > HI {
                        continue;
                    }
                    let (vx, vy) = (cx + dx * u, cy + dy * u);
                    let den = vx * vx + vy * vy;
                    if den < 1e-14 {
                        continue;
                    }
                    let v = ((rx - bx * u) * vx + (ry - by * u) * vy) / den;
                    if v < LO || v > HI {
                        continue;
                    }
                    let ex = bx * u + cx * v + dx * u * v - rx;
                    let ey = by * u + cy * v + dy * u * v - ry;
                    if ex * ex + ey * ey > 1e-8 {
                        continue;
                    }
                    if q.one_sided && cross(bx + dx * v, by + dy * v, vx, vy) <= eps {
                        continue;
                    }
                    let u = fmax_k(0.0, fmin_k(1.0, u));
                    let v = fmax_k(0.0, fmin_k(1.0, v));
                    let w = [(1.0 - u) * (1.0 - v), u * (1.0 - v), (1.0 - u) * v, u * v];
                    let mut z = 0.0;
                    for j in 0..4 {
                        z += w[j] * zs[j];
                    }
                    let n = y * N + x;
                    let d = depth[n] as f64;
                    if z < d - 0.001 {
                        continue;
                    }
                    let colour = if q.textured {
                        let (tu, tv) = (u * 4.0, v * 4.0);
                        let ix = fmin_k(3.0, tu.floor()) as usize;
                        let iy = fmin_k(3.0, tv.floor()) as usize;
                        let (fx, fy) = (tu - ix as f64, tv - iy as f64);
                        let wt = [
                            (1.0 - fx) * (1.0 - fy),
                            fx * (1.0 - fy),
                            (1.0 - fx) * fy,
                            fx * fy,
                        ];
                        let (mut alpha, mut sum) = (0.0, [0.0f64; 3]);
                        for j in 0..4 {
                            let t = ((iy + j / 2) * 5 + ix + j % 2) * 4;
                            let c = &p.material[t..t + 4];
                            let wa = wt[j] * c[3] as f64;
                            alpha += wa;
                            for k in 0..3 {
                                sum[k] += wa * c[k] as f64;
                            }
                        }
                        if alpha < 128.0 {
                            continue;
                        }
                        let ch = |k: usize| fmin_k(255.0, round(sum[k] / alpha)) as u8;
                        [ch(0), ch(1), ch(2), 255]
                    } else {
                        let mut col = [0u8; 4];
                        for (k, out) in col.iter_mut().enumerate() {
                            let mut value = 0.0;
                            for j in 0..4 {
                                value += w[j] * p.colors[j][k] as f64;
                            }
                            *out = fmax_k(0.0, fmin_k(255.0, round(value))) as u8;
                        }
                        if col[3] == 0 {
                            continue;
                        }
                        col
                    };
                    let old: [u8; 4] = rgba[4 * n..4 * n + 4].try_into().unwrap();
                    if (z - d).abs() <= 0.001 && colour_loses(colour, old) {
                        continue;
                    }
                    depth[n] = z as f32;
                    rgba[4 * n..4 * n + 4].copy_from_slice(&colour);
                }
            }
        }
    }

    /// A small deterministic generator (no seed is special).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u32 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) as u32
        }
        fn unit(&mut self) -> f64 {
            self.next() as f64 / (1u64 << 31) as f64
        }
    }

    /// A quad with random corners in a few pixels (many are folded, so
    /// pixels get two roots), depths within a few thousandths of each other
    /// (ties between the two roots and with the buffer), sometimes flat or
    /// degenerate (the linear case).
    fn random_quad(r: &mut Rng, point: &mut R2DRotPoint) -> Option<Quad> {
        let span = [2.0, 5.0, 9.0, 20.0][r.next() as usize % 4];
        let (ox, oy) = (r.unit() * 4.0, r.unit() * 4.0);
        let mut v = [[0.0f64; 4]; 3];
        for j in 0..4 {
            v[0][j] = ox + r.unit() * span;
            v[1][j] = oy + r.unit() * span;
            v[2][j] = r.unit() * 0.004;
        }
        match r.next() % 16 {
            // Linear: a parallelogram (d = 0).
            0 | 1 => {
                for a in 0..2 {
                    v[a][3] = v[a][1] + v[a][2] - v[a][0];
                }
            }
            // Flat depth.
            2 | 3 => v[2] = [0.5; 4],
            // A corner far away or not a number.
            4 => {
                let far = [2e6, -3e7, 1e300, f64::INFINITY, f64::NAN];
                v[r.next() as usize % 2][r.next() as usize % 4] =
                    far[r.next() as usize % far.len()];
            }
            _ => {}
        }
        for c in point.colors.iter_mut().flatten() {
            *c = r.next() as u8;
        }
        for m in point.material.iter_mut() {
            *m = r.next() as u8;
        }
        // §7 step 1: the box.
        let lo = |a: &[f64; 4]| a.iter().copied().fold(f64::NAN, crate::math::fmin);
        let hi = |a: &[f64; 4]| a.iter().copied().fold(f64::NAN, crate::math::fmax);
        let last = N as i32 - 1;
        let (x0, x1) = (floor_clamp0_i32(lo(&v[0])), ceil_clamp_i32(hi(&v[0]), last));
        let (y0, y1) = (floor_clamp0_i32(lo(&v[1])), ceil_clamp_i32(hi(&v[1]), last));
        (x0 <= x1 && y0 <= y1).then(|| Quad {
            v,
            point: 0,
            x0: x0 as u16,
            x1: x1 as u16,
            y0: y0 as u16,
            y1: y1 as u16,
            one_sided: r.next().is_multiple_of(2),
            textured: r.next().is_multiple_of(2),
        })
    }

    fn fill_at(level: Level, band: &mut Band<'_>, batch: &mut Batch, q: &Quad, p: &R2DRotPoint) {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2")]
        unsafe fn avx2(band: &mut Band<'_>, batch: &mut Batch, q: &Quad, p: &R2DRotPoint) {
            // SAFETY: entered only when the CPU has AVX2.
            unsafe { fill::<lanes::Avx2>(band, batch, q, p) }
        }
        // SAFETY: each level runs only where the CPU has it.
        unsafe {
            match level {
                #[cfg(target_arch = "x86_64")]
                Level::Avx2 => avx2(band, batch, q, p),
                #[cfg(target_arch = "x86_64")]
                Level::Sse2 => fill::<lanes::Sse2>(band, batch, q, p),
                _ => fill::<f64>(band, batch, q, p),
            }
        }
    }

    /// The batched fill over the box of [`fill_box`] writes what the
    /// per-pixel, per-root reading of §7 writes over the whole box of §7
    /// step 1, on every lane width, for quads drawn over earlier ones (the
    /// buffer's depths and colours decide ties), in whole frames and in row
    /// bands.
    #[test]
    fn fill_matches_the_spec_order() {
        let mut levels = vec![Level::Scalar];
        #[cfg(target_arch = "x86_64")]
        {
            levels.push(Level::Sse2);
            if std::arch::is_x86_feature_detected!("avx2") {
                levels.push(Level::Avx2);
            }
        }
        let mut r = Rng(0x5eed_0f7e57);
        let mut point = R2DRotPoint::ZERO;
        let (mut quads, mut writes, mut shrunk) = (0, 0, 0);
        let lo = |a: &[f64; 4]| a.iter().copied().fold(f64::NAN, crate::math::fmin);
        let hi = |a: &[f64; 4]| a.iter().copied().fold(f64::NAN, crate::math::fmax);
        for _ in 0..400 {
            // One scene: a few quads drawn in order into the same buffers.
            // Each quad with the box of §7 step 1, and with the box the fill
            // visits (None: no pixel can hold a root).
            let mut scene = vec![];
            for _ in 0..6 {
                if let Some(q) = random_quad(&mut r, &mut point) {
                    let range = [0, 1].map(|a| [lo(&q.v[a]), hi(&q.v[a])]);
                    let whole = [q.x0, q.x1, q.y0, q.y1].map(i32::from);
                    let visited = fill_box(&q.v, range.as_flattened().try_into().unwrap(), whole);
                    if visited != Some(whole) {
                        shrunk += 1;
                    }
                    let fill = visited.map(|[x0, x1, y0, y1]| Quad {
                        x0: x0 as u16,
                        x1: x1 as u16,
                        y0: y0 as u16,
                        y1: y1 as u16,
                        ..q
                    });
                    scene.push((q, fill, point));
                }
            }
            let mut depth0 = vec![0f32; N * N];
            let mut rgba0 = vec![0u8; 4 * N * N];
            for (d, c) in depth0.iter_mut().zip(rgba0.chunks_exact_mut(4)) {
                *d = if r.next().is_multiple_of(4) {
                    -1e9
                } else {
                    (r.unit() * 0.004) as f32
                };
                c.copy_from_slice(&r.next().to_le_bytes());
            }
            let (mut depth, mut rgba) = (depth0.clone(), rgba0.clone());
            for (q, _, p) in &scene {
                reference(&mut depth, &mut rgba, q, p);
            }
            quads += scene.len();
            writes += depth
                .iter()
                .zip(&depth0)
                .filter(|(a, b)| a.to_bits() != b.to_bits())
                .count();
            for &level in &levels {
                for cut in [N, 7] {
                    let (mut d, mut c) = (depth0.clone(), rgba0.clone());
                    let mut dist = vec![0f32; N * N];
                    let mut batch = Batch::default();
                    let rows = d.chunks_mut(cut * N).zip(c.chunks_mut(4 * cut * N));
                    for (b, ((dd, cc), ds)) in rows.zip(dist.chunks_mut(cut * N)).enumerate() {
                        let r0 = (b * cut) as i32;
                        let mut band = Band {
                            r1: r0 + (dd.len() / N) as i32,
                            depth: dd,
                            rgba: cc,
                            distance: ds,
                            r0,
                            n: N,
                        };
                        for (_, q, p) in &scene {
                            if let Some(q) = q {
                                fill_at(level, &mut band, &mut batch, q, p);
                            }
                        }
                    }
                    let same = |i: usize| {
                        d[i].to_bits() == depth[i].to_bits()
                            && c[4 * i..4 * i + 4] == rgba[4 * i..4 * i + 4]
                    };
                    if let Some(i) = (0..N * N).find(|&i| !same(i)) {
                        panic!(
                            "{level:?}, bands of {cut} rows: pixel ({}, {}) has depth {} colour {:?}, §7 gives {} {:?}",
                            i % N,
                            i / N,
                            d[i],
                            &c[4 * i..4 * i + 4],
                            depth[i],
                            &rgba[4 * i..4 * i + 4]
                        );
                    }
                }
            }
        }
        assert!(
            quads > 2000 && writes > 5000 && shrunk > quads / 2,
            "{quads} quads, {writes} writes, {shrunk} boxes shrunk"
        );
    }
}
