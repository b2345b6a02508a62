// re2d — rigs: model transform, legacy walking rig, facing, joint projection (spec: rotsprite-render.md §1–5).
//
//! A point is first moved into posed local space (`Rig::xform`): by its
//! part's 3×4 matrix (blended with a secondary part) when a model pose is
//! given, or by the fixed legacy walking rig otherwise. Facing tests decide
//! whether one-sided decals are seen from the current view.

use super::types::{R2DRotModelPose, R2DRotPartPose, R2DRotPoint, R2DRotRig};
use crate::math::{DualQuat, PI, blend_point, blend_point_dq, fmax, mat_apply, rad, rigid_dual};

/// A validated, borrowed rig: what the renderers consult for a frame.
#[derive(Clone, Copy, Debug)]
pub struct Rig<'a> {
    /// Data-driven model pose, or `None` for the legacy rig.
    pub model: Option<&'a R2DRotModelPose>,
    /// Project the body, not only the head.
    pub body: bool,
    /// Gait phase, radians.
    pub phase: f64,
    /// Gait swing amplitude, degrees.
    pub stride: f64,
    /// Left arm raise, degrees.
    pub arm_left: f64,
    /// Right arm raise, degrees.
    pub arm_right: f64,
    /// Independent head yaw, degrees.
    pub head_yaw: f64,
    /// Brow variant 0..3.
    pub brows: i32,
}

impl<'a> Rig<'a> {
    /// A model rig (`body` true, other fields zero), as data-driven callers use.
    pub fn model(model: &'a R2DRotModelPose) -> Self {
        Rig {
            model: Some(model),
            body: true,
            ..Rig::legacy(true)
        }
    }

    /// A legacy rig at rest.
    pub fn legacy(body: bool) -> Self {
        Rig {
            model: None,
            body,
            phase: 0.0,
            stride: 0.0,
            arm_left: 0.0,
            arm_right: 0.0,
            head_yaw: 0.0,
            brows: 0,
        }
    }

    /// Borrows a C rig.
    ///
    /// # Safety
    /// `r.model` must be NULL or point to a valid `R2DRotModelPose` that
    /// outlives `'a`.
    pub unsafe fn from_c(r: &'a R2DRotRig) -> Self {
        Rig {
            // SAFETY: guaranteed by the caller.
            model: unsafe { r.model.as_ref() },
            body: r.body.get(),
            phase: r.phase,
            stride: r.stride,
            arm_left: r.arm_left,
            arm_right: r.arm_right,
            head_yaw: r.head_yaw,
            brows: r.brows,
        }
    }

    /// The renderers' rig validation (§6.1 rule 4): brows in 0..=3 and
    /// finite gait/arm/head angles. The model is never validated.
    pub fn is_valid(&self) -> bool {
        (0..=3).contains(&self.brows)
            && self.phase.is_finite()
            && self.stride.is_finite()
            && self.arm_left.is_finite()
            && self.arm_right.is_finite()
            && self.head_yaw.is_finite()
    }
}

/// `HEAD(part)` (§2.2): ids 0..=3, 5 and 16..=255 follow the head.
#[inline]
pub fn is_head(part: u8) -> bool {
    part <= 3 || part == 5 || part >= 16
}

/// `MODEL_XFORM` (§1.2): the part's matrix, blended with the secondary part
/// when it is defined and the weight is non-zero.
pub fn model_xform(model: &R2DRotModelPose, p: &R2DRotPoint) -> [f64; 3] {
    let a = &model.parts[p.part as usize].matrix;
    let pos = [p.x as f64, p.y as f64, p.z as f64];
    let b = if p.blend_part != 0 && p.blend_weight != 0 {
        let bp = &model.parts[p.blend_part as usize];
        bp.defined.get().then_some(&bp.matrix)
    } else {
        None
    };
    blend_point(a, b, p.blend_weight, pos)
}

/// `LEGACY_XFORM` (§2.3): the fixed walking rig.
pub fn legacy_xform(p: &R2DRotPoint, rig: Option<&Rig<'_>>) -> [f64; 3] {
    let terms = rig.filter(|r| r.body).map(LegacyTerms::new);
    legacy_xform_at(terms.as_ref(), p.part, [p.x, p.y, p.z])
}

/// The point-independent trigonometry of the legacy body rig (§2.3): every
/// `sin`/`cos` the transform takes of rig angles. Computed once per frame,
/// they are the same doubles the per-point formulas produce.
#[derive(Clone, Copy, Debug)]
pub struct LegacyTerms {
    /// cos, sin of `rad(head_yaw)`.
    head: (f64, f64),
    /// cos, sin of `swing`, `-swing` and `0` (hip/shoulder angles).
    swing: [(f64, f64); 3],
    /// cos, sin of the knee angle, left and right leg.
    knee: [(f64, f64); 2],
    /// cos, sin of `rad(arm_left)` and `rad(arm_right)`.
    arm: [(f64, f64); 2],
}

impl LegacyTerms {
    /// Terms of a body rig.
    pub fn new(rig: &Rig<'_>) -> Self {
        let cs = |a: f64| (a.cos(), a.sin());
        let swing = rig.phase.sin() * rig.stride * PI / 180.0;
        let knee =
            |off: f64| fmax(0.0, (rig.phase + off).sin()) * rig.stride.abs() * 0.65 * PI / 180.0;
        LegacyTerms {
            head: cs(rad(rig.head_yaw)),
            swing: [cs(swing), cs(-swing), cs(0.0)],
            knee: [cs(knee(0.0)), cs(knee(PI))],
            arm: [cs(rad(rig.arm_left)), cs(rad(rig.arm_right))],
        }
    }
}

/// `LEGACY_XFORM` of a part id and float position: `terms` are those of a
/// body rig, `None` when the rig is NULL or has no body (position unchanged).
#[inline]
pub fn legacy_xform_at(terms: Option<&LegacyTerms>, part: u8, pos: [f32; 3]) -> [f64; 3] {
    let (mut x, mut y, mut z) = (pos[0] as f64, pos[1] as f64, pos[2] as f64);
    let Some(t) = terms else {
        return [x, y, z];
    };
    if is_head(part) {
        let (c, s) = t.head;
        let hx = c * x + s * z;
        z = (-s * x + c * z) * 0.8;
        x = hx * 0.8;
        y = y * 0.8 - 22.0;
        return [x, y, z];
    }
    let left_leg = part == 8 || part == 13;
    let right_leg = part == 12 || part == 14;
    // Index into `swing`: 0 = swing, 1 = -swing, 2 = angle 0.
    let (angle, pivot) = if left_leg || right_leg {
        (if left_leg { 0 } else { 1 }, 20.0)
    } else if part == 7 || part == 11 {
        (if part == 7 { 1 } else { 0 }, -10.0)
    } else {
        (2, 0.0f64)
    };
    if (left_leg || right_leg) && y > 36.0 {
        let (ck, sk) = t.knee[if left_leg { 0 } else { 1 }];
        let e = y - 36.0;
        y = 36.0 + ck * e - sk * z;
        z = sk * e + ck * z;
    }
    let e = y - pivot;
    let (ca, sa) = t.swing[angle];
    y = pivot + ca * e - sa * z;
    z = sa * e + ca * z;
    if part == 7 || part == 11 {
        let ((c, s), anchor) = if part == 7 {
            (t.arm[0], -9.5)
        } else {
            (t.arm[1], 9.5)
        };
        let ex = x - anchor;
        let ey = y + 10.0;
        x = anchor + c * ex - s * ey;
        y = -10.0 + s * ex + c * ey;
    }
    [x, y, z]
}

/// `XFORM` (§2.1): model transform on the model path, legacy rig otherwise.
#[inline]
pub fn xform(p: &R2DRotPoint, rig: Option<&Rig<'_>>) -> [f64; 3] {
    match rig.and_then(|r| r.model) {
        Some(model) => model_xform(model, p),
        None => legacy_xform(p, rig),
    }
}

/// What the pixel raster computes once per frame from the rig and view:
/// facing terms, legacy rig trigonometry, and the dual quaternions of the
/// model's parts. [`Self::xform`] equals [`xform`] for every point.
pub struct Prepared<'a> {
    /// The frame's rig.
    pub rig: Option<Rig<'a>>,
    /// `FACING` terms.
    pub facing: Facing,
    /// Legacy body-rig terms (`None` without a body rig or on the model path).
    pub legacy: Option<LegacyTerms>,
    /// The model pose and its decompositions (model path).
    pub model: Option<(&'a R2DRotModelPose, &'a DualCache)>,
}

impl<'a> Prepared<'a> {
    /// Terms of a view and rig; `duals` is (re)filled when the rig has a
    /// model (it is scratch memory, reused from frame to frame).
    pub fn new(view: &View, rig: Option<Rig<'a>>, duals: &'a mut DualCache) -> Self {
        let model = rig.and_then(|r| r.model).map(|m| {
            duals.fill(m);
            (m, &*duals)
        });
        let legacy = match rig {
            Some(r) if r.body && r.model.is_none() => Some(LegacyTerms::new(&r)),
            _ => None,
        };
        Prepared {
            rig,
            facing: Facing::new(view, rig.as_ref()),
            legacy,
            model,
        }
    }

    /// `XFORM` (§2.1) of a point.
    #[inline]
    pub fn xform(&self, p: &R2DRotPoint) -> [f64; 3] {
        match self.model {
            Some((m, dq)) => dq.xform_at(m, p.part, p.blend_part, p.blend_weight, [p.x, p.y, p.z]),
            None => legacy_xform_at(self.legacy.as_ref(), p.part, [p.x, p.y, p.z]),
        }
    }
}

/// The rigid decomposition of every part matrix of a model pose, made once
/// per frame so blended points do not decompose both matrices per point.
/// 18 KB: renderers keep one in reusable scratch memory and refill it.
pub struct DualCache {
    dq: Box<[Option<DualQuat>; 256]>,
}

impl Default for DualCache {
    fn default() -> Self {
        // Made on the heap element by element (no 18 KB stack copy).
        let dq = vec![None; 256].into_boxed_slice().try_into();
        DualCache {
            dq: dq.unwrap_or_else(|_| unreachable!("256 entries")),
        }
    }
}

impl DualCache {
    /// Decomposes the matrix of every part id of `model` (an all-zero
    /// matrix, as undefined parts usually have, fails the first test).
    pub fn fill(&mut self, model: &R2DRotModelPose) {
        for (dq, part) in self.dq.iter_mut().zip(&model.parts) {
            *dq = rigid_dual(&part.matrix);
        }
    }

    /// `MODEL_XFORM` (§1.2) of a part id, blend part/weight and position.
    #[inline]
    pub fn xform_at(
        &self,
        model: &R2DRotModelPose,
        part: u8,
        blend_part: u8,
        blend_weight: u8,
        pos: [f32; 3],
    ) -> [f64; 3] {
        let a = &model.parts[part as usize].matrix;
        let pos = [pos[0] as f64, pos[1] as f64, pos[2] as f64];
        if blend_part == 0 || blend_weight == 0 {
            // What blend_point_dq returns without a blend part.
            return mat_apply(a, pos);
        }
        let b = if blend_part != 0 && blend_weight != 0 {
            let bp = &model.parts[blend_part as usize];
            bp.defined
                .get()
                .then(|| (&bp.matrix, self.dq[blend_part as usize].as_ref()))
        } else {
            None
        };
        blend_point_dq(a, self.dq[part as usize].as_ref(), b, blend_weight, pos)
    }
}

/// View rotation terms of §0.5 for normalised angles in degrees.
#[derive(Clone, Copy, Debug)]
pub struct View {
    /// Normalised yaw, degrees.
    pub yaw: f64,
    /// Normalised pitch, degrees.
    pub pitch: f64,
    /// cos(yaw).
    pub cy: f64,
    /// sin(yaw).
    pub sy: f64,
    /// cos(pitch).
    pub cp: f64,
    /// sin(pitch).
    pub sp: f64,
}

impl View {
    /// Trigonometry of the given angles (not normalised here).
    pub fn new(yaw: f64, pitch: f64) -> Self {
        let (a, b) = (rad(yaw), rad(pitch));
        View {
            yaw,
            pitch,
            cy: a.cos(),
            sy: a.sin(),
            cp: b.cos(),
            sp: b.sin(),
        }
    }

    /// `(xr, yr, depth)` of a posed point.
    #[inline]
    pub fn rotate(&self, [x, y, z]: [f64; 3]) -> [f64; 3] {
        let zr = -self.sy * x + self.cy * z;
        [
            self.cy * x + self.sy * z,
            self.cp * y - self.sp * zr,
            self.sp * y + self.cp * zr,
        ]
    }
}

/// Patch tangents at the patch centre (`du + duv/2`, `dv + duv/2`).
fn patch_tangents(p: &R2DRotPoint) -> ([f64; 3], [f64; 3]) {
    let mut u = [0.0; 3];
    let mut v = [0.0; 3];
    for j in 0..3 {
        u[j] = p.du[j] as f64 + 0.5 * p.duv[j] as f64;
        v[j] = p.dv[j] as f64 + 0.5 * p.duv[j] as f64;
    }
    (u, v)
}

/// Normal of a one-sided model part (§3.1 steps 2–4): `(n, len)`.
pub fn model_normal(pose: &R2DRotPartPose, p: &R2DRotPoint) -> ([f64; 3], f64) {
    let (u, v) = if p.patch.get() {
        patch_tangents(p)
    } else {
        ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0])
    };
    let m = &pose.matrix;
    let mut a = [0.0; 3];
    let mut b = [0.0; 3];
    for r in 0..3 {
        a[r] = m[4 * r] * u[0] + m[4 * r + 1] * u[1] + m[4 * r + 2] * u[2];
        b[r] = m[4 * r] * v[0] + m[4 * r + 1] * v[1] + m[4 * r + 2] * v[2];
    }
    let n = [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ];
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    (n, len)
}

/// Facing value of a normal for a view: `cp*(-sy*nx + cy*nz) + sp*ny`.
#[inline]
fn facing_dot(view: &View, n: [f64; 3]) -> f64 {
    view.cp * (-view.sy * n[0] + view.cy * n[2]) + view.sp * n[1]
}

/// `FACING` (§3): is the point's surface seen from this view?
pub fn facing(p: &R2DRotPoint, view: &View, rig: Option<&Rig<'_>>) -> bool {
    Facing::new(view, rig).test(p, rig)
}

/// `FACING` (§3) for one frame: the view and the trigonometry of the legacy
/// angle `rad(yaw + head_yaw)`, computed once instead of per point.
#[derive(Clone, Copy, Debug)]
pub struct Facing {
    view: View,
    /// sin, cos of `rad(yaw + hy)` (legacy path).
    ang: (f64, f64),
}

impl Facing {
    /// Terms for a view and rig.
    pub fn new(view: &View, rig: Option<&Rig<'_>>) -> Self {
        let hy = match rig {
            Some(r) if r.body => r.head_yaw,
            _ => 0.0,
        };
        let ang = rad(view.yaw + hy);
        Facing {
            view: *view,
            ang: (ang.sin(), ang.cos()),
        }
    }

    /// Is `p` seen? `rig` is the rig these terms were made for.
    #[inline(always)]
    pub fn test(&self, p: &R2DRotPoint, rig: Option<&Rig<'_>>) -> bool {
        let view = &self.view;
        if let Some(model) = rig.and_then(|r| r.model) {
            let pose = &model.parts[p.part as usize];
            if !pose.one_sided.get() {
                return true;
            }
            let (n, len) = model_normal(pose, p);
            if len < 1e-8 {
                return true;
            }
            return facing_dot(view, n) / len > 0.02;
        }
        if p.part < 16 {
            return true;
        }
        let mut n = [p.x as f64 / 14.0, p.y as f64 / 19.0, p.z as f64 / 12.0];
        if p.patch.get() {
            let (u, v) = patch_tangents(p);
            let c = [
                u[1] * v[2] - u[2] * v[1],
                u[2] * v[0] - u[0] * v[2],
                u[0] * v[1] - u[1] * v[0],
            ];
            let len = (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]).sqrt();
            if len > 1e-8 {
                n = [c[0] / len, c[1] / len, c[2] / len];
            }
        }
        let (sa, ca) = self.ang;
        let f = view.cp * (-sa * n[0] + ca * n[2]) + view.sp * n[1];
        f > 0.02
    }
}

/// Anime pre-cull of §4 (model path, one-sided non-patch point): `true`
/// when the point is culled. Unlike [`facing`], a NaN length is not culled.
pub fn anime_precull(pose: &R2DRotPartPose, p: &R2DRotPoint, view: &View) -> bool {
    let (n, len) = model_normal(pose, p);
    len >= 1e-8 && facing_dot(view, n) / len <= 0.02
}

/// Selection by expression (§6.3 step 3): is the point's part drawn with
/// these eyes/mouth/brows?
pub fn selected(p: &R2DRotPoint, eyes: i32, mouth: i32, rig: Option<&Rig<'_>>) -> bool {
    let part = p.part as i32;
    if let Some(r) = rig
        && let Some(model) = r.model
    {
        let pose = &model.parts[p.part as usize];
        if !pose.defined.get() || !pose.visible.get() {
            return false;
        }
        if pose.selector != 0 {
            let sel = match pose.selector {
                1 => eyes,
                2 => mouth,
                _ => r.brows,
            };
            return pose.variant as i32 == sel;
        }
        return true;
    }
    if (16..=19).contains(&part) && part != 16 + eyes {
        return false;
    }
    if (32..=35).contains(&part) && part != 32 + mouth {
        return false;
    }
    let brows = rig.map_or(0, |r| r.brows);
    if (48..=51).contains(&part) && part != 48 + brows {
        return false;
    }
    is_head(p.part) || rig.is_some_and(|r| r.body)
}

/// Per-frame facts about each part id that both renderers test per point:
/// bit [`Parts::SELECTED`] is [`selected`] (which depends only on the part
/// id, the expression and the rig), bit [`Parts::ONE_SIDED`] says the part
/// needs a facing test at all (model: `one_sided`; legacy: id ≥ 16).
pub struct Parts([u8; 256]);

impl Parts {
    /// The point's part is drawn with this expression and rig.
    pub const SELECTED: u8 = 1;
    /// The point's part is one-sided (facing may cull it).
    pub const ONE_SIDED: u8 = 2;

    /// The table for an expression and rig.
    pub fn new(eyes: i32, mouth: i32, rig: Option<&Rig<'_>>) -> Self {
        let mut t = [0u8; 256];
        let mut p = R2DRotPoint::ZERO;
        for (id, f) in t.iter_mut().enumerate() {
            p.part = id as u8;
            let one_sided = match rig.and_then(|r| r.model) {
                Some(m) => m.parts[id].one_sided.get(),
                None => id >= 16,
            };
            *f = selected(&p, eyes, mouth, rig) as u8 | (one_sided as u8) << 1;
        }
        Parts(t)
    }

    /// The bits of a part id.
    #[inline(always)]
    pub fn of(&self, part: u8) -> u8 {
        self.0[part as usize]
    }
}

/// `r2d_rotsprite_v2_joint` (§5): projects a rig-space point into the
/// canonical 128×128 frame. No validation and no angle normalisation; the
/// model's scale is ignored (1 with a body rig, else 2).
pub fn joint(
    part: i32,
    x: f64,
    y: f64,
    z: f64,
    yaw: f64,
    pitch: f64,
    rig: Option<&Rig<'_>>,
) -> (f64, f64) {
    let mut p = R2DRotPoint::ZERO;
    p.x = x as f32;
    p.y = y as f32;
    p.z = z as f32;
    p.part = part as u8;
    let [tx, ty, tz] = xform(&p, rig);
    let v = View::new(yaw, pitch);
    let zz = -v.sy * tx + v.cy * tz;
    let s = if rig.is_some_and(|r| r.body) {
        1.0
    } else {
        2.0
    };
    (
        64.0 + (v.cy * tx + v.sy * tz) * s,
        64.0 + (v.cp * ty - v.sp * zz) * s,
    )
}

/// Applies a part matrix to a float point (used by tests and tools).
pub fn part_apply(pose: &R2DRotPartPose, p: [f32; 3]) -> [f64; 3] {
    mat_apply(&pose.matrix, [p[0] as f64, p[1] as f64, p[2] as f64])
}
