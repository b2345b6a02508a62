//! Native module `re2d/native/mesh`: the Rust hot paths behind `js/mesh.js`
//! (spec js-mesh.md §3, §4, §7, §8.4 step 9, and the re2d extensions
//! `opts.limits` and `blend: 'rigid'`).
//!
//! Exports (all internal to the built-in `re2d/mesh`):
//! - `newPart(verts, uv, colors, infl, names, rigid)` → a
//!   `NativePart` (flat arrays prepared by `js/mesh.js`);
//! - `verify(part, verts, uv, colors, weights)` → `true` when the JS arrays
//!   still hold exactly what the native copy was built from (in-place edits
//!   of elements are visible in JS, so every call re-checks them);
//! - `deform(part, boneBuf, depth, out)` → vertex count, writing straight into
//!   the caller's `Float32Array`; `boneBuf` holds 7 numbers per bone
//!   `[valid, cur.x, cur.y, cur.angle, rest.x, rest.y, rest.angle]`;
//! - `unroll(scratch, flat, tris, k)` → `true` when it copied `k` vertices,
//!   reading the live JS `tris` array (`false`: an index is not a plain
//!   non-negative integer, the JS loop redoes the whole copy);
//! - `pose(buf)` → §5.2 in place on a `Float64Array`, 8 numbers per bone
//!   (see [`crate::mesh::pose_flat`]);
//! - `twoBone([sx, sy, l1, l2, tx, ty, side], limits?)` → `[a1, a2, ex, ey, reached]`;
//! - `chain([sx, sy, tx, ty, iterations, tolerance], lengths, limits?)` →
//!   `[reached, distance, ...angles]`.
//!
//! `limits` is flat, 5 numbers per chain bone: `[linked, parentAbs,
//! restLocal, min, max]`.

use std::cell::RefCell;

use rquickjs::{
    Class, Ctx, Exception, Function, JsLifetime, Result, TypedArray, Value,
    class::Trace,
    module::{Declarations, Exports, ModuleDef},
};

use super::buffers::{Kind, RawVal, with_f32_mut, with_f64_mut};
use crate::mesh::{
    Blend, BoneDelta, ChainOptions, JointLimit, MeshPart, deform_part, pose_flat, solve_chain,
    solve_two_bone, solve_two_bone_limited,
};

/// A part's native copy plus per-frame scratch (no allocation per frame).
#[derive(Trace, JsLifetime)]
#[rquickjs::class(rename = "NativeMeshPart")]
pub struct NativePart {
    #[qjs(skip_trace)]
    part: MeshPart,
    #[qjs(skip_trace)]
    deltas: RefCell<Vec<BoneDelta>>,
}

fn new_part<'js>(
    ctx: Ctx<'js>,
    verts: Vec<f64>,
    uv: Vec<f64>,
    colors: Vec<f64>,
    infl: Vec<f64>,
    names: Vec<String>,
    rigid: bool,
) -> Result<Class<'js, NativePart>> {
    let blend = if rigid { Blend::Rigid } else { Blend::Linear };
    let nb = names.len();
    // `infl` is 4 numbers per vertex: bone, weight, bone, weight.
    let bones: Vec<i32> = infl.iter().step_by(2).map(|&b| b as i32).collect();
    let weights: Vec<f64> = infl.iter().skip(1).step_by(2).copied().collect();
    let part = MeshPart::from_flat(&verts, &uv, &colors, &bones, &weights, names, blend)
        .map_err(|e| Exception::throw_type(&ctx, &e.to_string()))?;
    Class::instance(
        ctx,
        NativePart {
            part,
            deltas: RefCell::new(vec![BoneDelta::MISSING; nb]),
        },
    )
}

fn deform<'js>(
    ctx: Ctx<'js>,
    part: Class<'js, NativePart>,
    bones: TypedArray<'js, f64>,
    depth: f64,
    out: TypedArray<'js, f32>,
) -> Result<i32> {
    let np = part.borrow();
    let mut deltas = np.deltas.borrow_mut();
    with_f64_mut(&ctx, &bones, |b| {
        for (j, d) in deltas.iter_mut().enumerate() {
            let v = b.get(7 * j..7 * j + 7);
            *d = match v {
                Some(v) if v[0] != 0.0 => BoneDelta::new((v[1], v[2], v[3]), (v[4], v[5], v[6])),
                _ => BoneDelta::MISSING,
            };
        }
    })?;
    let n = with_f32_mut(&ctx, &out, |o| deform_part(&np.part, &deltas, depth, o))?;
    Ok(n.map_or(-1, |n| n as i32))
}

/// `Object.is` on two doubles.
fn same(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// `uv[i] || 0` as `js/mesh.js` `buildEntry` takes it; `None` = not representable.
fn uv_value(v: &RawVal<'_, '_>) -> Option<f64> {
    match v.kind() {
        Kind::Num(x) => Some(if x == 0.0 || x.is_nan() { 0.0 } else { x }),
        Kind::Undef | Kind::Null | Kind::Bool(false) => Some(0.0),
        Kind::Str if v.str_is("") => Some(0.0),
        _ => None,
    }
}

/// `N0(c)` of a colour channel; strings and objects → `None` (JS rebuild).
fn channel(v: &RawVal<'_, '_>) -> Option<f64> {
    match v.kind() {
        Kind::Num(x) => Some(crate::mesh::n0(x)),
        Kind::Undef | Kind::Null | Kind::Bool(false) => Some(0.0),
        Kind::Bool(true) => Some(1.0),
        _ => None,
    }
}

fn same_f32(a: f64, b: f32) -> bool {
    (a as f32).to_bits() == b.to_bits()
}

fn verify<'js>(
    ctx: Ctx<'js>,
    part: Class<'js, NativePart>,
    verts: Value<'js>,
    uv: Value<'js>,
    colors: Value<'js>,
    weights: Value<'js>,
) -> Result<bool> {
    let np = part.borrow();
    let p = &np.part;
    let n = p.vertex_count();
    let (verts, uv) = (RawVal::of(&ctx, &verts), RawVal::of(&ctx, &uv));
    let (colors, weights) = (RawVal::of(&ctx, &colors), RawVal::of(&ctx, &weights));
    for i in 0..2 * n {
        match verts.get(i as u32)?.kind() {
            Kind::Num(x) if same(x, p.verts[i]) => {}
            _ => return Ok(false),
        }
        match uv_value(&uv.get(i as u32)?) {
            Some(u) if same_f32(u, p.consts[i / 2][i % 2]) => {}
            _ => return Ok(false),
        }
    }
    if colors.is_array() {
        for i in 0..n {
            let c = colors.get(i as u32)?;
            let want = &p.consts[i][2..5];
            if c.is_array() {
                for (k, &w) in want.iter().enumerate() {
                    match channel(&c.get(k as u32)?) {
                        Some(v) if same_f32(v, w) => {}
                        _ => return Ok(false),
                    }
                }
            } else if c.kind() == Kind::Obj || want.iter().any(|&w| w != 255.0) {
                // (an array-like object: keep the JS `Array.isArray` call)
                return Ok(false);
            }
        }
    }
    for i in 0..n {
        let w = weights.get(i as u32)?;
        let len = match w.kind() {
            Kind::Undef | Kind::Null => 0,
            Kind::Obj if w.is_array() => match w.length()? {
                Some(l) if l == 0.0 || l == 1.0 || l == 2.0 => l as usize,
                _ => return Ok(false),
            },
            _ => return Ok(false),
        };
        for (k, inf) in p.influences[i].iter().enumerate() {
            let inf = match (inf, k < len) {
                (None, false) => continue,
                (Some(inf), true) => inf,
                _ => return Ok(false),
            };
            let pair = w.get(k as u32)?;
            if !pair.is_array() {
                return Ok(false);
            }
            match pair.get(1)?.kind() {
                Kind::Num(x) if same(x, inf.weight) => {}
                _ => return Ok(false),
            }
            if !pair.get(0)?.str_is(&p.bones[inf.bone as usize]) {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

fn unroll<'js>(
    ctx: Ctx<'js>,
    scratch: TypedArray<'js, f32>,
    flat: TypedArray<'js, f32>,
    tris: Value<'js>,
    k: f64,
) -> Result<bool> {
    if k < 0.0 || k != k.floor() || k > 0x4000_0000 as f64 {
        return Ok(false);
    }
    let k = k as usize;
    // Read the live indices first (this may run JS: getters, proxies), then
    // copy with no JS running. The index buffer is reused across frames
    // (taken out while in use, so a re-entrant call simply gets its own).
    let mut idx = UNROLL_IDX.with(|c| std::mem::take(&mut *c.borrow_mut()));
    idx.clear();
    let tris = RawVal::of(&ctx, &tris);
    let ok = unroll_into(&ctx, &scratch, &flat, &tris, k, &mut idx);
    UNROLL_IDX.with(|c| *c.borrow_mut() = idx);
    ok
}

thread_local! {
    static UNROLL_IDX: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

fn unroll_into<'js>(
    ctx: &Ctx<'js>,
    scratch: &TypedArray<'js, f32>,
    flat: &TypedArray<'js, f32>,
    tris: &RawVal<'_, 'js>,
    k: usize,
    idx: &mut Vec<u32>,
) -> Result<bool> {
    for i in 0..k {
        match tris.get(i as u32)?.kind() {
            Kind::Num(t) if t >= 0.0 && t == t.floor() && t <= 0x7fff_ffff as f64 => {
                idx.push(t as u32)
            }
            _ => return Ok(false),
        }
    }
    // `draw` owns two distinct arrays; refuse (JS path) if the views could
    // overlap, so the two slices below never alias.
    let (Some(rs), Some(rf)) = (scratch.as_raw(), flat.as_raw()) else {
        return Ok(false);
    };
    let (s0, f0) = (
        rs.as_ptr() as *const u8 as usize,
        rf.as_ptr() as *const u8 as usize,
    );
    if s0 < f0 + rf.len() && f0 < s0 + rs.len() {
        return Ok(false);
    }
    let ok = with_f32_mut(ctx, scratch, |s| {
        with_f32_mut(ctx, flat, |f| {
            if f.len() < k * 8 {
                return false;
            }
            for (i, &t) in idx.iter().enumerate() {
                let dst = &mut f[i * 8..i * 8 + 8];
                let at = t as usize * 8;
                match s.get(at..at + 8) {
                    Some(v) => dst.copy_from_slice(v),
                    None => dst.fill(f32::NAN),
                }
            }
            true
        })
    })??;
    Ok(ok)
}

fn pose<'js>(ctx: Ctx<'js>, buf: TypedArray<'js, f64>) -> Result<()> {
    with_f64_mut(&ctx, &buf, pose_flat)
}

fn limits_from(flat: &[f64]) -> Vec<JointLimit> {
    flat.chunks_exact(5)
        .map(|c| JointLimit {
            linked: c[0] != 0.0,
            parent_abs: c[1],
            rest_local: c[2],
            min: c[3],
            max: c[4],
        })
        .collect()
}

fn two_bone<'js>(ctx: Ctx<'js>, a: Vec<f64>, limits: Option<Vec<f64>>) -> Result<Vec<f64>> {
    if a.len() != 7 {
        return Err(Exception::throw_type(&ctx, "twoBone: expected 7 numbers"));
    }
    let r = match limits.map(|l| limits_from(&l)) {
        Some(l) if l.len() == 2 => {
            solve_two_bone_limited(a[0], a[1], a[2], a[3], a[4], a[5], a[6], &[l[0], l[1]])
        }
        _ => solve_two_bone(a[0], a[1], a[2], a[3], a[4], a[5], a[6]),
    };
    Ok(vec![
        r.a1,
        r.a2,
        r.elbow.0,
        r.elbow.1,
        if r.reached { 1.0 } else { 0.0 },
    ])
}

fn chain<'js>(
    ctx: Ctx<'js>,
    a: Vec<f64>,
    lengths: Vec<f64>,
    limits: Option<Vec<f64>>,
) -> Result<Vec<f64>> {
    if a.len() != 6 {
        return Err(Exception::throw_type(&ctx, "chain: expected 6 numbers"));
    }
    let opts = ChainOptions {
        iterations: a[4],
        tolerance: a[5],
    };
    let lim = limits.map(|l| limits_from(&l));
    let r = solve_chain((a[0], a[1]), &lengths, (a[2], a[3]), &opts, lim.as_deref());
    let mut out = Vec::with_capacity(2 + r.angles.len());
    out.push(if r.reached { 1.0 } else { 0.0 });
    out.push(r.distance);
    out.extend(r.angles);
    Ok(out)
}

/// `ModuleDef` of `re2d/native/mesh`.
pub struct MeshNative;

impl ModuleDef for MeshNative {
    fn declare<'js>(decl: &Declarations<'js>) -> Result<()> {
        for name in [
            "newPart", "verify", "deform", "unroll", "pose", "twoBone", "chain",
        ] {
            decl.declare(name)?;
        }
        Ok(())
    }

    fn evaluate<'js>(ctx: &Ctx<'js>, exports: &Exports<'js>) -> Result<()> {
        exports.export("newPart", Function::new(ctx.clone(), new_part)?)?;
        exports.export("verify", Function::new(ctx.clone(), verify)?)?;
        exports.export("deform", Function::new(ctx.clone(), deform)?)?;
        exports.export("unroll", Function::new(ctx.clone(), unroll)?)?;
        exports.export("pose", Function::new(ctx.clone(), pose)?)?;
        exports.export("twoBone", Function::new(ctx.clone(), two_bone)?)?;
        exports.export("chain", Function::new(ctx.clone(), chain)?)?;
        Ok(())
    }
}
