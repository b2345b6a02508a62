// re2d — smooth synthesis, stage 2a: the bilinear quad fill `QUAD_FILL` (spec: rotsprite-render.md §7).
//
//! Per row of the quad's box, the root search (§7 steps 4.1–4.3.5: roots,
//! range, Jacobian, residual and orientation tests) runs on W pixels at once
//! through [`Lanes`]; it reads nothing but the quad, so computing it ahead
//! for a group of pixels changes nothing. Each surviving root then goes,
//! pixel by pixel in x order and root by root, through the depth test,
//! colour and store (steps 4.3.6–4.3.11), which read and write the buffers.

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
pub(super) unsafe fn fill<L: Lanes>(band: &mut Band<'_>, q: &Quad, p: &R2DRotPoint) {
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
            rows::<L, true>(band, &job)
        } else {
            rows::<L, false>(band, &job)
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

/// The pixels of the quad's box in this band, row-major (y, then x), W at
/// a time: a group of lanes may end one row and start the next, so narrow
/// boxes keep the lanes busy. Survivors are stored in that same order.
///
/// # Safety
/// `L`'s instructions must be available.
#[inline(always)]
unsafe fn rows<L: Lanes, const LINEAR: bool>(band: &mut Band<'_>, job: &Job<'_>) {
    let (q, s) = (job.q, job.s);
    let n = band.n;
    let width = (q.x1 - q.x0) as usize + 1;
    let total = width * (job.yb - job.ya + 1) as usize;
    unsafe {
        let sp = L::splat;
        let (x1, wf, one, step) = (sp(q.x1 as f64), sp(width as f64), sp(1.0), sp(L::W as f64));
        // Lane positions (exact small integers as doubles), wrapped into the box.
        let wrap = |mut x: L, mut y: L| {
            loop {
                let m = x.gt(x1);
                if L::bits(m) == 0 {
                    return (x, y);
                }
                x = L::select(m, x.sub(wf), x);
                y = L::select(m, y.add(one), y);
            }
        };
        let (mut xv, mut yv) = wrap(L::ramp(q.x0 as f64), sp(job.ya as f64));
        let (half, v0x, v0y) = (sp(0.5), sp(s.v0x), sp(s.v0y));
        let mut done = 0;
        while done < total {
            let rx = xv.add(half).sub(v0x);
            let ry = yv.add(half).sub(v0y);
            let r = search::<L, LINEAR>(s, q.one_sided, rx, ry);
            let lanes = (total - done).min(L::W);
            let live = (1u32 << lanes) - 1;
            let (b1, b2) = (L::bits(r.m1) & live, L::bits(r.m2) & live);
            if b1 | b2 != 0 {
                let mut at = [[0.0; 4]; 6];
                xv.store(&mut at[0]);
                yv.store(&mut at[1]);
                r.u1.store(&mut at[2]);
                r.v1.store(&mut at[3]);
                if !LINEAR {
                    r.u2.store(&mut at[4]);
                    r.v2.store(&mut at[5]);
                }
                let mut bits = b1 | b2;
                while bits != 0 {
                    let k = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    // SAFETY: a live lane is a pixel of the box in this band:
                    // exact integers with r0 <= y < r1 and 0 <= x < N.
                    let (x, y) = (
                        at[0][k].to_int_unchecked::<u32>() as usize,
                        at[1][k].to_int_unchecked::<i32>(),
                    );
                    let i = (y - band.r0) as usize * n + x;
                    if b1 >> k & 1 != 0 {
                        store(band, i, at[2][k], at[3][k], job);
                    }
                    if b2 >> k & 1 != 0 {
                        store(band, i, at[4][k], at[5][k], job);
                    }
                }
            }
            done += L::W;
            (xv, yv) = wrap(xv.add(step), yv);
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
            let r1 = L::select(two, q.div(sp(s.a)), b.neg().div(sp(2.0 * s.a)));
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
        if L::bits(m) == 0 {
            return (m, u);
        }
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
