// re2d — rigs: model transform, legacy walking rig, facing, joint projection (spec: rotsprite-render.md §1–5).
//
//! A point is first moved into posed local space (`Rig::xform`): by its
//! part's 3×4 matrix (blended with a secondary part) when a model pose is
//! given, or by the fixed legacy walking rig otherwise. Facing tests decide
//! whether one-sided decals are seen from the current view.

use super::types::{R2DRotModelPose, R2DRotPartPose, R2DRotPoint, R2DRotRig};
use crate::math::{PI, blend_point, fmax, mat_apply, rad};

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
    let (mut x, mut y, mut z) = (p.x as f64, p.y as f64, p.z as f64);
    let rig = match rig {
        Some(r) if r.body => r,
        _ => return [x, y, z],
    };
    let part = p.part;
    if is_head(part) {
        let a = rad(rig.head_yaw);
        let (c, s) = (a.cos(), a.sin());
        let hx = c * x + s * z;
        z = (-s * x + c * z) * 0.8;
        x = hx * 0.8;
        y = y * 0.8 - 22.0;
        return [x, y, z];
    }
    let swing = rig.phase.sin() * rig.stride * PI / 180.0;
    let left_leg = part == 8 || part == 13;
    let right_leg = part == 12 || part == 14;
    let (mut angle, mut pivot) = (0.0f64, 0.0f64);
    if left_leg || right_leg {
        angle = if left_leg { swing } else { -swing };
        pivot = 20.0;
    } else if part == 7 || part == 11 {
        angle = if part == 7 { -swing } else { swing };
        pivot = -10.0;
    }
    if (left_leg || right_leg) && y > 36.0 {
        let off = if left_leg { 0.0 } else { PI };
        let knee = fmax(0.0, (rig.phase + off).sin()) * rig.stride.abs() * 0.65 * PI / 180.0;
        let e = y - 36.0;
        let (ck, sk) = (knee.cos(), knee.sin());
        y = 36.0 + ck * e - sk * z;
        z = sk * e + ck * z;
    }
    let e = y - pivot;
    let (ca, sa) = (angle.cos(), angle.sin());
    y = pivot + ca * e - sa * z;
    z = sa * e + ca * z;
    if part == 7 || part == 11 {
        let (a, anchor) = if part == 7 {
            (rad(rig.arm_left), -9.5)
        } else {
            (rad(rig.arm_right), 9.5)
        };
        let ex = x - anchor;
        let ey = y + 10.0;
        let (c, s) = (a.cos(), a.sin());
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
    let hy = match rig {
        Some(r) if r.body => r.head_yaw,
        _ => 0.0,
    };
    let ang = rad(view.yaw + hy);
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
    let f = view.cp * (-ang.sin() * n[0] + ang.cos() * n[2]) + view.sp * n[1];
    f > 0.02
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
