//! Native module `re2d/native/mesh`: the Rust hot paths behind `js/mesh.js`
//! (spec js-mesh.md §3, §4, §7, §8.4 step 9, and the re2d extensions
//! `opts.limits` and `blend: 'rigid'`).
//!
//! Exports (all internal to the built-in `re2d/mesh`):
//! - `colors(part, n, from, rgb)` → the index of the first vertex whose
//!   colour it did not read: §7's colour of vertices `from, …` while `i < n`
//!   into the `Float64Array` `rgb` (3 per vertex). The engine reads every
//!   colour before the first vertex is deformed, so a getter that edits the
//!   colours mid-call changes nothing (issue 20 item 7);
//! - `deform(part, pose, rest, out, verts, uv, n, from, rigid, rgb)` → the index
//!   of the first vertex it did not write: §7 for vertices `from, from+1, …`
//!   while `i < n`, in one pass that reads the live values (the part's arrays
//!   and weight lists, the pose records; colours from `rgb`) through [`super::pure`] and writes
//!   `out` (a `Float32Array`) directly. It stops at a vertex whose reads could
//!   run JS or need JS operators; `js/mesh.js` does that vertex literally and
//!   calls again after it;
//! - `unroll(scratch, flat, tris, k, from)` → the same for §8.4 step 9
//!   (`flat[8i + j] = scratch[tris[i]·8 + j]`, reading `tris` live);
//! - `plainNumbers(v)` → `v` is an `Array` of numbers read without running JS;
//! - `fastReady()` → whether the one-pass reads are available (see
//!   [`super::pure::Layout`]; without them both natives return `from`);
//! - `pose(buf)` → §5.2 in place on a `Float64Array`, 8 numbers per bone
//!   (see [`re2d::mesh::pose_flat`]);
//! - `twoBone([sx, sy, l1, l2, tx, ty, side], limits?)` → `[a1, a2, ex, ey, reached]`;
//! - `chain([sx, sy, tx, ty, iterations, tolerance], lengths, limits?)` →
//!   `[reached, distance, ...angles]`.
//!
//! `limits` is flat, 5 numbers per chain bone: `[linked, parentAbs,
//! restLocal, min, max]`.

use rquickjs::{
    Ctx, Function, Result, TypedArray, Value,
    function::Rest,
    module::{Declarations, Exports, ModuleDef},
};

use super::buffers::with_f64_mut;
use super::pure::{Atom, F32Out, IsArray, Kind, Layout, Pass, Val, View};
use re2d::mesh::{
    Blend, BoneDelta, ChainOptions, JointLimit, n0, pose_flat, skin_vertex, solve_chain,
    solve_two_bone, solve_two_bone_limited, unroll_block, unroll_index,
};

/// More `[name, weight]` pairs than this in one vertex list: the JS does it.
const MAX_PAIRS: usize = 4;

/// Property keys the pass reads.
struct Keys<'p> {
    weights: Atom<'p>,
    depth: Atom<'p>,
    colors: Atom<'p>,
    x: Atom<'p>,
    y: Atom<'p>,
    angle: Atom<'p>,
}

impl<'p> Keys<'p> {
    fn new(p: &Pass<'p>) -> Option<Self> {
        Some(Keys {
            weights: p.key(c"weights")?,
            depth: p.key(c"depth")?,
            colors: p.key(c"colors")?,
            x: p.key(c"x")?,
            y: p.key(c"y")?,
            angle: p.key(c"angle")?,
        })
    }
}

/// The pass-constant inputs of §7.
struct DeformIn<'p> {
    pose: Option<Val<'p>>,
    rest: Option<Val<'p>>,
    verts: View<'p>,
    uv: View<'p>,
    weights: View<'p>,
    depth: f64,
    /// The colours read before the first vertex (3 per vertex).
    rgb: &'p [f64],
    blend: Blend,
}

/// Bones met during one pass. A bone name is resolved (`pose[name]`,
/// `rest[name]`, their `x`, `y`, `angle`) once per key; a string value seen
/// again is found by its address, without converting or comparing it.
struct Bones<'p> {
    /// Direct-mapped `(string address, bone index)`; address 0 = empty.
    by_string: [(usize, u32); 64],
    /// Bone keys, parallel to `deltas`.
    keys: Vec<Atom<'p>>,
    /// Bone motions (`valid == false`: missing from a pose, pairs skipped).
    deltas: Vec<BoneDelta>,
}

impl<'p> Bones<'p> {
    fn new() -> Self {
        Bones {
            by_string: [(0, 0); 64],
            keys: Vec::new(),
            deltas: Vec::new(),
        }
    }

    /// Index of the bone `name` names; `None`: not pure (the JS does it).
    #[inline]
    fn find(&mut self, p: &Pass<'p>, name: Val<'p>, d: &DeformIn<'p>, k: &Keys<'p>) -> Option<u32> {
        let id = p.string_id(name)?;
        let slot = (id >> 4 ^ id >> 10) & 63;
        if self.by_string[slot].0 == id {
            return Some(self.by_string[slot].1);
        }
        self.find_key(p, name, d, k)
            .inspect(|&j| self.by_string[slot] = (id, j))
    }

    #[cold]
    fn find_key(
        &mut self,
        p: &Pass<'p>,
        name: Val<'p>,
        d: &DeformIn<'p>,
        k: &Keys<'p>,
    ) -> Option<u32> {
        let key = p.key_of(name)?;
        if let Some(j) = self.keys.iter().position(|b| b.id() == key.id()) {
            return Some(j as u32);
        }
        let motion = resolve_bone(p, &key, d, k)?;
        self.keys.push(key);
        self.deltas.push(motion);
        Some(self.deltas.len() as u32 - 1)
    }
}

/// §7 `cur = pose ? pose[name] : null`, `rst = rest ? rest[name] : null`,
/// skipped ([`BoneDelta::MISSING`]) when either is falsy; otherwise both
/// records' `x`, `y`, `angle` (numbers only: other values go through JS
/// operators).
fn resolve_bone<'p>(
    p: &Pass<'p>,
    key: &Atom<'p>,
    d: &DeformIn<'p>,
    k: &Keys<'p>,
) -> Option<BoneDelta> {
    let cur = match d.pose {
        Some(pose) => Some(p.get(pose, key)?),
        None => None,
    };
    let rst = match d.rest {
        Some(rest) => Some(p.get(rest, key)?),
        None => None,
    };
    let (Some(cur), Some(rst)) = (cur, rst) else {
        return Some(BoneDelta::MISSING);
    };
    if !p.truthy(cur)? || !p.truthy(rst)? {
        return Some(BoneDelta::MISSING);
    }
    let num = |o: Val<'p>, key: &Atom<'p>| p.get(o, key).and_then(|v| p.num(v));
    let c = (num(cur, &k.x)?, num(cur, &k.y)?, num(cur, &k.angle)?);
    let r = (num(rst, &k.x)?, num(rst, &k.y)?, num(rst, &k.angle)?);
    Some(BoneDelta::new(c, r))
}

/// `v || 0` stored as a number (§7 uv).
#[inline]
fn or_zero<'p>(p: &Pass<'p>, v: Val<'p>) -> Option<f64> {
    if let Some(x) = p.num(v) {
        return Some(if x == 0.0 || x.is_nan() { 0.0 } else { x });
    }
    if p.truthy(v)? {
        p.to_number(v)
    } else {
        Some(0.0)
    }
}

/// §7 for vertex `i`, written into `out`; `None` (nothing written): not pure.
#[inline]
fn deform_vertex<'p>(
    p: &Pass<'p>,
    d: &DeformIn<'p>,
    k: &Keys<'p>,
    bones: &mut Bones<'p>,
    out: &F32Out<'p>,
    i: u32,
) -> Option<()> {
    let vx = p.num(p.at(d.verts, 2 * i)?)?;
    let vy = p.num(p.at(d.verts, 2 * i + 1)?)?;
    let mut pairs = [(0u32, 0.0f64); MAX_PAIRS];
    let mut count = 0;
    let w = p.at(d.weights, i)?;
    if p.truthy(w)? {
        // `w.length` of a genuine Array (array-likes and strings: JS)
        let len = p.array_length(w)?;
        let mut k_i = 0u32;
        while (k_i as f64) < len {
            let pair = p.elem(w, k_i)?;
            if p.kind(pair) != Kind::Obj {
                return None; // a hole / null throws, a string yields characters
            }
            let name = p.elem(pair, 0)?;
            let weight = p.elem(pair, 1)?;
            let j = bones.find(p, name, d, k)?;
            if bones.deltas[j as usize].valid {
                if count == MAX_PAIRS {
                    return None;
                }
                pairs[count] = (j, p.num(weight)?);
                count += 1;
            }
            k_i += 1;
        }
    }
    let (x, y) = skin_vertex(vx, vy, &bones.deltas, &pairs[..count], d.blend);
    let u = or_zero(p, p.at(d.uv, 2 * i)?)?;
    let v = or_zero(p, p.at(d.uv, 2 * i + 1)?)?;
    let c = 3 * i as usize;
    let rgb = d.rgb.get(c..c + 3)?;
    let o = 8 * i as usize;
    for (j, val) in [x, y, d.depth, u, v, rgb[0], rgb[1], rgb[2]]
        .into_iter()
        .enumerate()
    {
        out.set(o + j, val);
    }
    Some(())
}

/// §7 colour of vertex `i` (`c = part.colors ? part.colors[i] : null`;
/// an `Array` gives `N0(c[0..3])`, anything else 255s) into `rgb[3i..]`;
/// `None` (nothing written): not pure.
#[inline]
fn color_vertex<'p>(p: &Pass<'p>, colors: Option<View<'p>>, rgb: &mut [f64], i: u32) -> Option<()> {
    let mut c3 = [255.0; 3];
    if let Some(colors) = colors {
        let c = p.at(colors, i)?;
        match p.is_array(c) {
            IsArray::Yes => {
                for (ch, slot) in c3.iter_mut().enumerate() {
                    *slot = n0(p.to_number(p.elem(c, ch as u32)?)?);
                }
            }
            IsArray::No => {}
            IsArray::Unknown => return None,
        }
    }
    let at = 3 * i as usize;
    rgb.get_mut(at..at + 3)?.copy_from_slice(&c3);
    Some(())
}

/// The pass behind `colors`: the colours of vertices `from..` while
/// `i < n` into `rgb`; returns the first one not read.
fn colors_pass<'p>(p: &Pass<'p>, part: Val<'p>, rgb: &mut [f64], n: f64, from: u32) -> u32 {
    let Some(k) = Keys::new(p) else {
        return from;
    };
    // `part.colors` is read per vertex by the engine; with no JS running it
    // is the same for the whole pass.
    let Some(colors) = p.get(part, &k.colors) else {
        return from;
    };
    let Some(truthy) = p.truthy(colors) else {
        return from;
    };
    let colors = truthy.then(|| p.view(colors));
    let mut i = from;
    while (i as f64) < n && i < u32::MAX / 8 {
        if color_vertex(p, colors, rgb, i).is_none() {
            break;
        }
        i += 1;
    }
    i
}

/// The pass behind `deform`: vertices `from..` while `i < n`; returns the
/// first one not written.
fn deform_pass<'p>(
    p: &Pass<'p>,
    a: &[Val<'p>; 6],
    rgb: &'p [f64],
    n: f64,
    from: u32,
    blend: Blend,
) -> u32 {
    let [part, pose, rest, out, verts, uv] = *a;
    let Some(out) = p.f32_out(out) else {
        return from;
    };
    let Some(k) = Keys::new(p) else {
        return from;
    };
    // `part.weights` and `part.depth` are read per vertex by the engine;
    // with no JS running they are the same for the whole pass.
    let setup = || -> Option<DeformIn<'p>> {
        Some(DeformIn {
            pose: p.truthy(pose)?.then_some(pose),
            rest: p.truthy(rest)?.then_some(rest),
            verts: p.view(verts),
            uv: p.view(uv),
            weights: p.view(p.get(part, &k.weights)?),
            depth: p.to_number(p.get(part, &k.depth)?)?,
            rgb,
            blend,
        })
    };
    let Some(d) = setup() else {
        return from;
    };
    let mut bones = Bones::new();
    let mut i = from;
    while (i as f64) < n && i < u32::MAX / 8 {
        if deform_vertex(p, &d, &k, &mut bones, &out, i).is_none() {
            break;
        }
        i += 1;
    }
    i
}

/// The next index as a loop counter (`from` is a non-negative integer set by
/// `js/mesh.js`).
fn index(v: &Value<'_>) -> Option<u32> {
    let x = v.as_number()?;
    (x >= 0.0 && x < u32::MAX as f64 && x == x.trunc()).then_some(x as u32)
}

fn deform<'js>(ctx: Ctx<'js>, args: Rest<Value<'js>>) -> Result<f64> {
    let [part, pose, rest, out, verts, uv, n, from, rigid, rgb] = args.0.as_slice() else {
        return Err(crate::errors::type_error(
            &ctx,
            "deform: expected 10 arguments",
        ));
    };
    let rgb = TypedArray::<f64>::from_value(rgb.clone())?;
    let (Some(n), Some(from)) = (n.as_number(), index(from)) else {
        return Err(crate::errors::type_error(&ctx, "deform: bad vertex range"));
    };
    let Some(lay) = Layout::get(&ctx) else {
        return Ok(from as f64);
    };
    let blend = if rigid.as_bool() == Some(true) {
        Blend::Rigid
    } else {
        Blend::Linear
    };
    // SAFETY: `deform_pass` only reads through the pass and stores numbers
    // into `out`'s elements; nothing in it runs JS, and the arguments stay
    // alive for the whole call.
    with_f64_mut(&ctx, &rgb, |rgb| {
        // SAFETY: as above; `rgb` is a private buffer of `js/mesh.js`
        // (never `out`), only read here.
        let p = unsafe { Pass::new(&ctx, lay) };
        let vals = [part, pose, rest, out, verts, uv].map(|v| p.val(v));
        deform_pass(&p, &vals, rgb, n, from, blend) as f64
    })
}

fn colors<'js>(ctx: Ctx<'js>, args: Rest<Value<'js>>) -> Result<f64> {
    let [part, n, from, rgb] = args.0.as_slice() else {
        return Err(crate::errors::type_error(
            &ctx,
            "colors: expected 4 arguments",
        ));
    };
    let (Some(n), Some(from)) = (n.as_number(), index(from)) else {
        return Err(crate::errors::type_error(&ctx, "colors: bad vertex range"));
    };
    let rgb = TypedArray::<f64>::from_value(rgb.clone())?;
    let Some(lay) = Layout::get(&ctx) else {
        return Ok(from as f64);
    };
    with_f64_mut(&ctx, &rgb, |rgb| {
        // SAFETY: `colors_pass` only reads through the pass and stores into
        // `rgb` (a private Float64Array of `js/mesh.js`); no JS runs.
        let p = unsafe { Pass::new(&ctx, lay) };
        colors_pass(&p, p.val(part), rgb, n, from) as f64
    })
}

/// The pass behind `unroll`: indices `from..` while `i < k`.
fn unroll_pass<'p>(p: &Pass<'p>, a: &[Val<'p>; 3], k: f64, from: u32) -> u32 {
    let [scratch, flat, tris] = *a;
    let (Some(s), Some(f)) = (p.f32_out(scratch), p.f32_out(flat)) else {
        return from;
    };
    let tris = p.view(tris);
    let mut i = from;
    while (i as f64) < k && i < u32::MAX / 8 {
        let Some(t) = p.at(tris, i) else {
            break;
        };
        let dst = 8 * i as usize;
        // element by element, as the JS loop does
        if let Some(src) = p.int(t).and_then(|t| unroll_block(t, s.len())) {
            for j in 0..8 {
                f.set(dst + j, s.get(src + j).map_or(f64::NAN, f64::from));
            }
        } else {
            let Some(t) = p.num(t) else {
                break;
            };
            for j in 0..8 {
                let v = unroll_index(t, j, s.len()).and_then(|e| s.get(e));
                f.set(dst + j, v.map_or(f64::NAN, f64::from));
            }
        }
        i += 1;
    }
    i
}

fn unroll<'js>(ctx: Ctx<'js>, args: Rest<Value<'js>>) -> Result<f64> {
    let [scratch, flat, tris, k, from] = args.0.as_slice() else {
        return Err(crate::errors::type_error(
            &ctx,
            "unroll: expected 5 arguments",
        ));
    };
    let (Some(k), Some(from)) = (k.as_number(), index(from)) else {
        return Err(crate::errors::type_error(&ctx, "unroll: bad index range"));
    };
    let Some(lay) = Layout::get(&ctx) else {
        return Ok(from as f64);
    };
    // SAFETY: as in `deform`: reads through the pass, stores into `flat`.
    let p = unsafe { Pass::new(&ctx, lay) };
    let vals = [scratch, flat, tris].map(|v| p.val(v));
    Ok(unroll_pass(&p, &vals, k, from) as f64)
}

fn fast_ready(ctx: Ctx<'_>) -> bool {
    Layout::get(&ctx).is_some()
}

/// `true` when `v` is a genuine `Array` whose elements `0 .. length` are all
/// numbers read without running JS (no holes, accessors or proxy): reading
/// each once is then the same as the engine reading them many times.
fn plain_numbers<'js>(ctx: Ctx<'js>, v: Value<'js>) -> bool {
    let Some(lay) = Layout::get(&ctx) else {
        return false;
    };
    // SAFETY: only pure reads, nothing runs JS; `v` lives for the call.
    let p = unsafe { Pass::new(&ctx, lay) };
    let a = p.val(&v);
    let Some(len) = p.array_length(a) else {
        return false;
    };
    len < u32::MAX as f64 && (0..len as u32).all(|i| p.elem(a, i).and_then(|x| p.num(x)).is_some())
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
        return Err(crate::errors::type_error(
            &ctx,
            "twoBone: expected 7 numbers",
        ));
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
        return Err(crate::errors::type_error(&ctx, "chain: expected 6 numbers"));
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
            "deform",
            "unroll",
            "colors",
            "fastReady",
            "plainNumbers",
            "pose",
            "twoBone",
            "chain",
        ] {
            decl.declare(name)?;
        }
        Ok(())
    }

    fn evaluate<'js>(ctx: &Ctx<'js>, exports: &Exports<'js>) -> Result<()> {
        exports.export("deform", Function::new(ctx.clone(), deform)?)?;
        exports.export("unroll", Function::new(ctx.clone(), unroll)?)?;
        exports.export("colors", Function::new(ctx.clone(), colors)?)?;
        exports.export("fastReady", Function::new(ctx.clone(), fast_ready)?)?;
        exports.export("plainNumbers", Function::new(ctx.clone(), plain_numbers)?)?;
        exports.export("pose", Function::new(ctx.clone(), pose)?)?;
        exports.export("twoBone", Function::new(ctx.clone(), two_bone)?)?;
        exports.export("chain", Function::new(ctx.clone(), chain)?)?;
        Ok(())
    }
}
