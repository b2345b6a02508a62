// re2d — smooth synthesis, stage 1: selection, culling, projection and the box of each point (spec: rotsprite-render.md §8.3–8.4).
//
//! A point becomes at most one [`Item`]: a quad (patch point, four
//! projected vertices) or a splat (isolated point). The item carries its
//! clamped supersample box, already recorded in the frame bounds, so the
//! fill stage only clips it to its rows. Nothing here touches the buffers:
//! items can be made in parallel and filled in any row band.

use super::super::Frame;
use super::super::rig::{
    DualCache, Facing, LegacyTerms, Rig, View, anime_precull, legacy_xform_at, selected,
};
use super::super::types::{R2DRotModelPose, R2DRotPoint};
use crate::math::{ceil, ceil_i32, floor, floor_i32, fmax, fmax_k, fmin, fmin_k, trunc_i32};

/// A patch point's bilinear quad, ready for `QUAD_FILL` (§7). Kept small
/// (112 bytes): the corner colours and the material footprint are read from
/// the point at fill time.
#[derive(Clone, Copy, Debug)]
pub(super) struct Quad {
    /// Supersample positions (x, y, depth) of corners (u,v) = (0,0), (1,0), (0,1), (1,1).
    pub v: [[f64; 3]; 4],
    /// Index of the point.
    pub point: u32,
    /// Clamped box, inclusive: x0..=x1, y0..=y1 (all < N ≤ 1024).
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
    eyes: i32,
    mouth: i32,
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
            eyes: frame.eyes,
            mouth: frame.mouth,
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
        if !selected(p, self.eyes, self.mouth, rig) {
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
        let mut v = [[0.0f64; 3]; 4];
        for (j, vert) in v.iter_mut().enumerate() {
            let (u, w) = ((j % 2) as f32, (j / 2) as f32);
            let uw = u * w;
            let off = |a: usize| ((u * p.du[a]) + (w * p.dv[a])) + (uw * p.duv[a]);
            let pos = [p.x + off(0), p.y + off(1), p.z + off(2)];
            *vert = match self.model {
                Some(m) => {
                    let mut id = p.corner_parts[j];
                    if id == 0 {
                        id = p.part;
                    }
                    let cp = &m.parts[id as usize];
                    if !(cp.defined.get() && cp.visible.get()) {
                        id = p.part;
                    }
                    self.point(id, p.corner_blend_parts[j], p.corner_blend_weights[j], pos)
                }
                None => self.point(p.part, 0, 0, pos),
            };
        }
        let one_sided = match self.model {
            Some(m) => m.parts[p.part as usize].one_sided.get(),
            None => p.part >= 16,
        };
        let last = (self.n - 1) as f64;
        let (mut minx, mut miny) = (v[0][0], v[0][1]);
        let (mut maxx, mut maxy) = (minx, miny);
        for q in &v[1..] {
            minx = fmin(minx, q[0]);
            maxx = fmax(maxx, q[0]);
            miny = fmin(miny, q[1]);
            maxy = fmax(maxy, q[1]);
        }
        let x0 = trunc_i32(fmax_k(0.0, floor(minx)));
        let x1 = trunc_i32(fmin_k(last, ceil(maxx)));
        let y0 = trunc_i32(fmax_k(0.0, floor(miny)));
        let y1 = trunc_i32(fmin_k(last, ceil(maxy)));
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
