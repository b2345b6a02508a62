// re2d — smooth synthesis, stage 1: selection, culling, projection and the box of each point (spec: rotsprite-render.md §8.3–8.4).
//
//! A point becomes at most one [`Item`]: a quad (patch point, four
//! projected vertices) or a splat (isolated point). The item carries its
//! clamped supersample box, already recorded in the frame bounds, so the
//! fill stage only clips it to its rows. Nothing here touches the buffers:
//! items can be made in parallel and filled in any row band.

use super::super::Frame;
use super::super::rig::{
    DualCache, Facing, LegacyTerms, Parts, Rig, View, anime_precull, legacy_xform_at,
};
use super::super::types::{R2DRotModelPose, R2DRotPoint};
use super::lanes::{Baseline, Lanes};
use crate::math::{ceil_clamp_i32, ceil_i32, floor_clamp0_i32, floor_i32};

/// A patch point's bilinear quad, ready for `QUAD_FILL` (§7). Kept small
/// (112 bytes): the corner colours and the material footprint are read from
/// the point at fill time.
#[derive(Clone, Copy, Debug)]
pub(super) struct Quad {
    /// Supersample positions per axis: `v[0]` the x, `v[1]` the y, `v[2]`
    /// the depth of corners (u,v) = (0,0), (1,0), (0,1), (1,1).
    pub v: [[f64; 4]; 3],
    /// Index of the point.
    pub point: u32,
    /// The pixels the fill visits, inclusive: x0..=x1, y0..=y1 (all < N ≤
    /// 1024): the clamped box of §7 step 1 less what [`fill_box`] rules out.
    pub x0: u16,
    pub x1: u16,
    pub y0: u16,
    pub y1: u16,
    /// Back-face test of §7 step 4.3.5.
    pub one_sided: bool,
    /// Colour from the material footprint rather than the corners.
    pub textured: bool,
}

/// An isolated point's disc (§8.4 steps 7–9).
#[derive(Clone, Copy, Debug)]
pub(super) struct Splat {
    /// Supersample centre and depth.
    pub s: [f64; 3],
    /// `radius*radius`.
    pub r2: f64,
    pub rgba: [u8; 4],
    /// Clamped box, half-open: bx0..bx1, by0..by1 (non-empty, ≤ N ≤ 1024).
    pub bx0: u16,
    pub bx1: u16,
    pub by0: u16,
    pub by1: u16,
}

/// What one point draws.
#[derive(Clone, Copy, Debug)]
pub(super) enum Item {
    Quad(Quad),
    Splat(Splat),
}

impl Item {
    /// Supersample rows the item may write, half-open.
    #[inline]
    pub fn rows(&self) -> (i32, i32) {
        match self {
            Item::Quad(q) => (q.y0 as i32, q.y1 as i32 + 1),
            Item::Splat(s) => (s.by0 as i32, s.by1 as i32),
        }
    }

    /// A rough count of the pixels the item visits (for balancing bands).
    #[inline]
    pub fn width(&self) -> u32 {
        match self {
            Item::Quad(q) => (q.x1 - q.x0) as u32 + 1,
            Item::Splat(s) => (s.bx1 - s.bx0) as u32,
        }
    }
}

/// The four corner positions of a patch point (§8.4 step 3.1): per axis
/// `p.a + ((u·du + w·dv) + uw·duv)` in float arithmetic, then promoted,
/// as `c[axis][corner]` for corners (u, w) = (0,0), (1,0), (0,1), (1,1).
#[inline(always)]
fn corners(p: &R2DRotPoint) -> [[f64; 4]; 3] {
    let mut c = [[0.0f64; 4]; 3];
    let base = [p.x, p.y, p.z];
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of the x86-64 baseline; the stores write the
    // 2-element halves of 4-element arrays. Each lane does the scalar float
    // operations in the scalar order.
    unsafe {
        use std::arch::x86_64::*;
        let u = _mm_set_ps(1.0, 0.0, 1.0, 0.0);
        let w = _mm_set_ps(1.0, 1.0, 0.0, 0.0);
        let uw = _mm_set_ps(1.0, 0.0, 0.0, 0.0);
        for (a, out) in c.iter_mut().enumerate() {
            let off = _mm_add_ps(
                _mm_add_ps(
                    _mm_mul_ps(u, _mm_set1_ps(p.du[a])),
                    _mm_mul_ps(w, _mm_set1_ps(p.dv[a])),
                ),
                _mm_mul_ps(uw, _mm_set1_ps(p.duv[a])),
            );
            let pos = _mm_add_ps(_mm_set1_ps(base[a]), off);
            _mm_storeu_pd(out.as_mut_ptr(), _mm_cvtps_pd(pos));
            _mm_storeu_pd(
                out.as_mut_ptr().add(2),
                _mm_cvtps_pd(_mm_movehl_ps(pos, pos)),
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    for j in 0..4 {
        let (u, w) = ((j % 2) as f32, (j / 2) as f32);
        let uw = u * w;
        for a in 0..3 {
            let off = ((u * p.du[a]) + (w * p.dv[a])) + (uw * p.duv[a]);
            c[a][j] = (base[a] + off) as f64;
        }
    }
    c
}

/// The fmin and fmax of four values (§7 step 1: a NaN operand yields the
/// other one; all NaN gives NaN), two lanes at a time. Only their order
/// differs from the chain `((a ⊓ b) ⊓ c) ⊓ d`, which can change which zero
/// comes out of a ±0 tie, and the box corners map ±0 to the same integer.
#[inline(always)]
fn min_max(a: &[f64; 4]) -> [f64; 2] {
    // SAFETY: the baseline lanes are available on every CPU of the target.
    unsafe {
        let fmin =
            |a: Baseline, b: Baseline| Baseline::select(Baseline::or(b.lt(a), a.isnan()), b, a);
        let fmax =
            |a: Baseline, b: Baseline| Baseline::select(Baseline::or(b.gt(a), a.isnan()), b, a);
        let (mut lo, mut hi) = (Baseline::load_at(a, 0), Baseline::load_at(a, 0));
        for i in (Baseline::W..4).step_by(Baseline::W) {
            let x = Baseline::load_at(a, i);
            (lo, hi) = (fmin(lo, x), fmax(hi, x));
        }
        let (mut l, mut h) = ([0.0; 4], [0.0; 4]);
        lo.store(&mut l);
        hi.store(&mut h);
        let (mut mn, mut mx) = (l[0], h[0]);
        for i in 1..Baseline::W {
            mn = crate::math::fmin(mn, l[i]);
            mx = crate::math::fmax(mx, h[i]);
        }
        [mn, mx]
    }
}

/// Corner coordinates beyond this magnitude (or NaN) keep the whole box in
/// [`fill_box`]: there the root search may overflow.
const FAR: f64 = 1e6;

/// The part of a quad's box (§7 step 1, inclusive `[x0, x1, y0, y1]`) whose
/// pixels can hold a root, given the corners' range `[minx, maxx, miny,
/// maxy]`; `None` when no pixel can. The bounds of §7 step 2 still take the
/// whole box; this only spares the fill pixels where every root is rejected.
///
/// A root that passes §7 steps 4.3.1–4.3.4 has `u, v ∈ [−1e-7, 1 + 1e-7]`
/// and a residual of at most 1e-4 per axis, so the pixel centre lies within
/// `1e-4 + 1.3e-6·A` (the square's extension by 1e-7, plus rounding) of the
/// corners' range, A being the largest corner coordinate of the axis. That
/// needs every corner coordinate finite and at most [`FAR`]: then nothing
/// in the search overflows and a surviving root has finite u, v and
/// residual (a NaN residual would pass its test; a NaN corner leaves no
/// root, an infinite one is not worth a proof). The margin taken,
/// `1e-3 + 1e-5·A`, is about eight times that bound. The dense
/// figure's quads span about 1.3 supersamples, so their boxes (floor to
/// ceil, 3–4 pixels a side) shrink to 2–3 pixels a side.
#[inline(always)]
pub(super) fn fill_box(
    v: &[[f64; 4]; 3],
    range: [f64; 4],
    [x0, x1, y0, y1]: [i32; 4],
) -> Option<[i32; 4]> {
    if !v[0].iter().chain(&v[1]).all(|c| c.abs() <= FAR) {
        return Some([x0, x1, y0, y1]);
    }
    let span = |min: f64, max: f64, lo: i32, hi: i32| {
        let m = 1e-3 + 1e-5 * min.abs().max(max.abs());
        (
            lo.max(ceil_i32(min - m - 0.5)),
            hi.min(floor_i32(max + m - 0.5)),
        )
    };
    let [minx, maxx, miny, maxy] = range;
    let (x0, x1) = span(minx, maxx, x0, x1);
    let (y0, y1) = span(miny, maxy, y0, y1);
    (x0 <= x1 && y0 <= y1).then_some([x0, x1, y0, y1])
}

/// The per-frame tables of the projection: premultiplied part matrices
/// (§8.3) and the parts' dual quaternions (for blended points). 42 KB,
/// kept in reusable scratch memory and refilled in place every frame.
pub(super) struct Tables {
    pm: Box<[[f64; 12]; 256]>,
    duals: DualCache,
}

impl Default for Tables {
    fn default() -> Self {
        // Made on the heap element by element (no large stack copy).
        let pm = vec![[0.0; 12]; 256].into_boxed_slice().try_into();
        Tables {
            pm: pm.unwrap_or_else(|_| unreachable!("256 entries")),
            duals: DualCache::default(),
        }
    }
}

/// Projection of §8.3 for one frame, and the per-point rules of §8.4.
pub(super) struct Projector<'a> {
    view: View,
    /// `selected` per part id (§8.4 step 1).
    parts: Parts,
    rig: Option<Rig<'a>>,
    model: Option<&'a R2DRotModelPose>,
    facing: Facing,
    legacy: Option<LegacyTerms>,
    size: f64,
    n: i32,
    density: f64,
    /// `(scale*4)*density` (model) or `(4 or 8)*density` (legacy).
    k: f64,
    /// Premultiplied per-part matrices (model path; only the entries of
    /// defined and visible parts are filled and read) and dual quaternions.
    tables: &'a Tables,
}

impl<'a> Projector<'a> {
    /// The projector of a frame; `tables` is scratch memory it refills.
    pub fn new(frame: &Frame<'a>, size: usize, tables: &'a mut Tables) -> Self {
        let density = size as f64 / 256.0;
        let view = frame.view;
        let rig = frame.rig;
        let model = rig.and_then(|r| r.model);
        let pm = &mut *tables.pm;
        let k = match model {
            Some(m) => {
                let k = m.scale * 4.0 * density;
                for (id, pose) in m.parts.iter().enumerate() {
                    if !(pose.defined.get() && pose.visible.get()) {
                        continue;
                    }
                    let mm = &pose.matrix;
                    let e = &mut pm[id];
                    for j in 0..4 {
                        let zc = -view.sy * mm[j] + view.cy * mm[8 + j];
                        e[j] = (view.cy * mm[j] + view.sy * mm[8 + j]) * k;
                        e[4 + j] = (view.cp * mm[4 + j] - view.sp * zc) * k;
                        e[8 + j] = view.sp * mm[4 + j] + view.cp * zc;
                    }
                }
                k
            }
            None => {
                (if rig.is_some_and(|r| r.body) {
                    4.0
                } else {
                    8.0
                }) * density
            }
        };
        let legacy = match rig {
            Some(r) if r.body && model.is_none() => Some(LegacyTerms::new(&r)),
            _ => None,
        };
        Projector {
            view,
            parts: Parts::new(frame.eyes, frame.mouth, rig.as_ref()),
            rig,
            model,
            facing: Facing::new(&view, rig.as_ref()),
            legacy,
            size: size as f64,
            n: 2 * size as i32,
            density,
            k,
            tables: {
                if let Some(m) = model {
                    tables.duals.fill(m);
                }
                tables
            },
        }
    }

    /// Model path, cached recipe (blend weight 0).
    #[inline]
    fn cached(&self, id: u8, [x, y, z]: [f32; 3]) -> [f64; 3] {
        let m = &self.tables.pm[id as usize];
        let (x, y, z) = (x as f64, y as f64, z as f64);
        let v0 = m[0] * x + m[1] * y + m[2] * z + m[3];
        let v1 = m[4] * x + m[5] * y + m[6] * z + m[7];
        let v2 = m[8] * x + m[9] * y + m[10] * z + m[11];
        [self.size + v0, self.size + v1, v2]
    }

    /// [`Self::cached`] of four corners (promoted positions `c[axis][corner]`)
    /// with part `id`, into `v[axis][corner]`, W corners per instruction.
    #[inline(always)]
    fn cached4(&self, id: u8, c: &[[f64; 4]; 3], v: &mut [[f64; 4]; 3]) {
        let m = &self.tables.pm[id as usize];
        // SAFETY: the baseline lanes are available on every CPU of the target.
        unsafe {
            let sp = Baseline::splat;
            let size = sp(self.size);
            for i in (0..4).step_by(Baseline::W) {
                let [x, y, z] = [0, 1, 2].map(|a| Baseline::load_at(&c[a], i));
                let row = |r: usize| {
                    x.mul(sp(m[4 * r]))
                        .add(y.mul(sp(m[4 * r + 1])))
                        .add(z.mul(sp(m[4 * r + 2])))
                        .add(sp(m[4 * r + 3]))
                };
                size.add(row(0)).store_at(&mut v[0], i);
                size.add(row(1)).store_at(&mut v[1], i);
                row(2).store_at(&mut v[2], i);
            }
        }
    }

    /// [`Self::project`] of four untransformed corners (legacy path without
    /// a body rig), W corners per instruction.
    #[inline(always)]
    fn project4(&self, c: &[[f64; 4]; 3], v: &mut [[f64; 4]; 3]) {
        let w = &self.view;
        // SAFETY: the baseline lanes are available on every CPU of the target.
        unsafe {
            let sp = Baseline::splat;
            let (size, k) = (sp(self.size), sp(self.k));
            let (cy, sy, cp, s_p, nsy) = (sp(w.cy), sp(w.sy), sp(w.cp), sp(w.sp), sp(-w.sy));
            for i in (0..4).step_by(Baseline::W) {
                let [x, y, z] = [0, 1, 2].map(|a| Baseline::load_at(&c[a], i));
                let zz = nsy.mul(x).add(cy.mul(z));
                size.add(cy.mul(x).add(sy.mul(z)).mul(k))
                    .store_at(&mut v[0], i);
                size.add(cp.mul(y).sub(s_p.mul(zz)).mul(k))
                    .store_at(&mut v[1], i);
                s_p.mul(y).add(cp.mul(zz)).store_at(&mut v[2], i);
            }
        }
    }

    /// Transform-then-project (blended model recipe and legacy recipe).
    #[inline]
    fn project(&self, [x, y, z]: [f64; 3]) -> [f64; 3] {
        let v = &self.view;
        let zz = -v.sy * x + v.cy * z;
        [
            self.size + (v.cy * x + v.sy * z) * self.k,
            self.size + (v.cp * y - v.sp * zz) * self.k,
            v.sp * y + v.cp * zz,
        ]
    }

    /// The projection of a point or patch corner: its part, blend part and
    /// weight (model path) and float position.
    #[inline]
    fn point(&self, part: u8, blend_part: u8, blend_weight: u8, pos: [f32; 3]) -> [f64; 3] {
        match self.model {
            Some(m) if blend_weight != 0 => {
                self.project(
                    self.tables
                        .duals
                        .xform_at(m, part, blend_part, blend_weight, pos),
                )
            }
            Some(_) => self.cached(part, pos),
            None => self.project(legacy_xform_at(self.legacy.as_ref(), part, pos)),
        }
    }

    /// What point `p` (index `index`) draws, if anything; its box is added
    /// to `bounds` (§7 step 2, §8.4 step 8).
    #[inline]
    pub fn item(&self, p: &R2DRotPoint, index: u32, bounds: &mut [i32; 4]) -> Option<Item> {
        let rig = self.rig.as_ref();
        if self.parts.of(p.part) & Parts::SELECTED == 0 {
            return None;
        }
        let patch = p.patch.get();
        match self.model {
            Some(m) => {
                let pose = &m.parts[p.part as usize];
                if pose.one_sided.get() && !patch && anime_precull(pose, p, &self.view) {
                    return None;
                }
            }
            None => {
                if !patch && !self.facing.test(p, rig) {
                    return None;
                }
            }
        }
        if patch {
            return self.quad(p, index, bounds).map(Item::Quad);
        }
        let part = p.part;
        let mapped = p.mapped.get();
        if (self.model.is_none() && (part == 2 || part == 3))
            || (mapped && (part == 3 || part == 24))
        {
            return None;
        }
        if p.rgba[3] == 0 {
            return None;
        }
        let s = self.point(part, p.blend_part, p.blend_weight, [p.x, p.y, p.z]);
        let r0 = if mapped {
            0.9
        } else if (32..=35).contains(&part) {
            1.2
        } else if part >= 16 {
            2.7
        } else {
            3.2
        };
        self.splat(s, r0 * self.density, p.rgba, bounds)
            .map(Item::Splat)
    }

    /// The four vertices of a patch point and their box (§8.4 step 3, §7 steps 1–2).
    fn quad(&self, p: &R2DRotPoint, index: u32, bounds: &mut [i32; 4]) -> Option<Quad> {
        let c = corners(p);
        let mut v = [[0.0f64; 4]; 3];
        let mut each = |f: &dyn Fn(usize) -> [f64; 3]| {
            for j in 0..4 {
                let r = f(j);
                (v[0][j], v[1][j], v[2][j]) = (r[0], r[1], r[2]);
            }
        };
        let pos = |j: usize| [c[0][j] as f32, c[1][j] as f32, c[2][j] as f32];
        match self.model {
            Some(m) => {
                let ids = std::array::from_fn::<u8, 4, _>(|j| {
                    let id = match p.corner_parts[j] {
                        0 => p.part,
                        id => id,
                    };
                    let cp = &m.parts[id as usize];
                    if cp.defined.get() && cp.visible.get() {
                        id
                    } else {
                        p.part
                    }
                });
                if p.corner_blend_weights == [0; 4] && ids.iter().all(|&id| id == ids[0]) {
                    // The common case: one part, cached recipe for all four.
                    self.cached4(ids[0], &c, &mut v);
                } else {
                    each(&|j| {
                        self.point(
                            ids[j],
                            p.corner_blend_parts[j],
                            p.corner_blend_weights[j],
                            pos(j),
                        )
                    });
                }
            }
            None if self.legacy.is_none() => self.project4(&c, &mut v),
            None => each(&|j| self.point(p.part, 0, 0, pos(j))),
        }
        let one_sided = match self.model {
            Some(m) => m.parts[p.part as usize].one_sided.get(),
            None => p.part >= 16,
        };
        let [minx, maxx] = min_max(&v[0]);
        let [miny, maxy] = min_max(&v[1]);
        let x0 = floor_clamp0_i32(minx);
        let x1 = ceil_clamp_i32(maxx, self.n - 1);
        let y0 = floor_clamp0_i32(miny);
        let y1 = ceil_clamp_i32(maxy, self.n - 1);
        if x0 > x1 || y0 > y1 {
            return None;
        }
        // A minimum at or beyond 2^31 converts to −2^31: the engine would index
        // outside its buffers there (outside the contract); draw nothing.
        if x0 < 0 || y0 < 0 {
            return None;
        }
        bounds[0] = bounds[0].min(x0);
        bounds[1] = bounds[1].min(y0);
        bounds[2] = bounds[2].max(x1 + 1);
        bounds[3] = bounds[3].max(y1 + 1);
        let [x0, x1, y0, y1] = fill_box(&v, [minx, maxx, miny, maxy], [x0, x1, y0, y1])?;
        Some(Quad {
            v,
            point: index,
            x0: x0 as u16,
            x1: x1 as u16,
            y0: y0 as u16,
            y1: y1 as u16,
            one_sided,
            textured: p.textured.get(),
        })
    }

    /// The clamped box of a disc (§8.4 step 8).
    fn splat(
        &self,
        s: [f64; 3],
        radius: f64,
        rgba: [u8; 4],
        bounds: &mut [i32; 4],
    ) -> Option<Splat> {
        let n = self.n;
        let lo_x = floor_i32(s[0] - radius);
        let hi_x = ceil_i32(s[0] + radius);
        let lo_y = floor_i32(s[1] - radius);
        let hi_y = ceil_i32(s[1] + radius);
        // ceil(...) == 2^31 − 1 would loop forever in the engine (outside the
        // contract): draw nothing and leave the bounds unchanged.
        if hi_x == i32::MAX || hi_y == i32::MAX {
            return None;
        }
        let bx0 = lo_x.max(0);
        let by0 = lo_y.max(0);
        let bx1 = if hi_x >= n { n } else { hi_x + 1 };
        let by1 = if hi_y >= n { n } else { hi_y + 1 };
        if !(bx0 < bx1 && by0 < by1) {
            return None;
        }
        bounds[0] = bounds[0].min(bx0);
        bounds[1] = bounds[1].min(by0);
        bounds[2] = bounds[2].max(bx1);
        bounds[3] = bounds[3].max(by1);
        Some(Splat {
            s,
            r2: radius * radius,
            rgba,
            bx0: bx0 as u16,
            bx1: bx1 as u16,
            by0: by0 as u16,
            by1: by1 as u16,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{ceil_clamp_i32, floor_clamp0_i32, fmax, fmin};

    /// The box corners from [`min_max`] equal those of the fmin/fmax chains.
    #[test]
    fn min_max_gives_the_chain_box() {
        let vals = [
            0.0,
            -0.0,
            1.5,
            -3.0,
            1023.9,
            2e9,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        let mut n = 0;
        for a in vals {
            for b in vals {
                for c in vals {
                    for d in [0.0, -0.0, f64::NAN, 7.25] {
                        let v = [a, b, c, d];
                        let (mut lo, mut hi) = (a, a);
                        for &x in &v[1..] {
                            lo = fmin(lo, x);
                            hi = fmax(hi, x);
                        }
                        let [l, h] = min_max(&v);
                        assert_eq!(floor_clamp0_i32(l), floor_clamp0_i32(lo), "{v:?}");
                        assert_eq!(ceil_clamp_i32(h, 1023), ceil_clamp_i32(hi, 1023), "{v:?}");
                        assert_eq!(l.is_nan(), lo.is_nan(), "{v:?}");
                        if !lo.is_nan() {
                            assert_eq!(l, lo, "{v:?}");
                            assert_eq!(h, hi, "{v:?}");
                        }
                        n += 1;
                    }
                }
            }
        }
        assert_eq!(n, 9 * 9 * 9 * 4);
    }
}
