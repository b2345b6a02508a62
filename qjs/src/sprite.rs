//! Engine natives `engine.rotSprite*` (js-rotsprite.md §10) as a thin rquickjs adapter over [`re2d::sprite::SpriteHandle`], plus host sprites.
//!
//! Installed on the default engine by [`super::engine::create`]:
//! `rotSpriteLoad`, `rotSpriteInfo`, `rotSpritePose`, `rotSpritePrepare`,
//! `rotSpriteRig`, `rotSpriteStyle`, `rotSpritePart`, `rotSpriteModelPose`,
//! `rotSpriteFileStamp`, `rotSpriteChanged`, `rotSpriteDispose`, and the host
//! sprite functions `saveSprite(id, path)` (PNG), `spritePixels(id)` (a
//! `Uint8Array` copy of the RGBA bytes, or `null`) and
//! `drawSprite(id, x, y, w, h, rotation, color, blend)` (centre-based rect
//! into the framebuffer; `rotation` and `blend` are ignored, `color` is a
//! packed `0xAARRGGBB` tint, default opaque white).
//!
//! A handle is an opaque `RotSpriteHandle` object owning one
//! [`SpriteHandle`] and one host sprite (sprite id = texture id = its slot in
//! the engine's sprite table). Dispose or the finalizer frees the slot.
//! Argument counts and JS types are checked here (TypeError), numbers are
//! converted like JS (`ToNumber`, `ToInt32`), everything else is the
//! handle's (errors keep their JS class). v3 containers and
//! `rotSpriteConfig` are not supported.

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;

use rquickjs::{
    Class, Ctx, Exception, Function, IntoJs, JsLifetime, Object, Result, TypedArray, Value,
    class::Trace, convert::Coerced, function::Rest,
};

use super::engine::State;
use super::model::throw;
use super::raster::{Texture, write_png};
use re2d::model::ModelError;
use re2d::sprite::{LegacyRig, PartSelection, SpriteHandle, file_stamp};

struct Inner {
    sprite: SpriteHandle,
    id: i32,
    engine: Rc<RefCell<State>>,
}

impl Inner {
    fn free_slot(&mut self) {
        if self.id >= 0 {
            if let Ok(mut st) = self.engine.try_borrow_mut()
                && let Some(slot) = st.sprites.get_mut(self.id as usize)
            {
                *slot = None;
            }
            self.id = -1;
        }
    }

    fn new_slot(&mut self) {
        self.free_slot();
        let tex = Texture {
            width: self.sprite.width() as u32,
            height: self.sprite.width() as u32,
            rgba: self.sprite.pixels().to_vec(),
        };
        self.sprite.take_upload();
        let mut st = self.engine.borrow_mut();
        st.sprites.push(Some(tex));
        self.id = st.sprites.len() as i32 - 1;
    }

    /// Upload the pixels if they changed; the sprite id.
    fn upload(&mut self) -> i32 {
        if self.id >= 0 && self.sprite.take_upload() {
            let mut st = self.engine.borrow_mut();
            if let Some(Some(tex)) = st.sprites.get_mut(self.id as usize) {
                tex.width = self.sprite.width() as u32;
                tex.height = tex.width;
                tex.rgba.clear();
                tex.rgba.extend_from_slice(self.sprite.pixels());
            }
        }
        self.id
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.free_slot();
    }
}

/// The opaque handle object of `rotSpriteLoad`.
#[derive(Trace, JsLifetime)]
#[rquickjs::class(rename = "RotSpriteHandle")]
pub struct Handle {
    #[qjs(skip_trace)]
    inner: RefCell<Inner>,
}

fn type_err(ctx: &Ctx<'_>, msg: &str) -> rquickjs::Error {
    crate::errors::type_error(ctx, msg)
}

fn range_err(ctx: &Ctx<'_>, msg: &str) -> rquickjs::Error {
    crate::errors::range_error(ctx, msg)
}

fn at<'a, 'js>(args: &'a Rest<Value<'js>>, i: usize) -> Option<&'a Value<'js>> {
    args.0.get(i)
}

fn min_args(ctx: &Ctx<'_>, args: &Rest<Value<'_>>, n: usize, name: &str) -> Result<()> {
    if args.0.len() < n {
        Err(type_err(
            ctx,
            &format!("{name}: expected at least {n} arguments"),
        ))
    } else {
        Ok(())
    }
}

fn handle<'js>(ctx: &Ctx<'js>, v: Option<&Value<'js>>) -> Result<Class<'js, Handle>> {
    v.and_then(Value::as_object)
        .and_then(Class::<Handle>::from_object)
        .ok_or_else(|| type_err(ctx, "not a rotsprite handle"))
}

fn number<'js>(v: Option<&Value<'js>>) -> Result<f64> {
    match v {
        Some(v) => Ok(v.get::<Coerced<f64>>()?.0),
        None => Ok(f64::NAN),
    }
}

fn int32<'js>(v: Option<&Value<'js>>) -> Result<Option<i32>> {
    v.map(|v| v.get::<Coerced<i32>>().map(|c| c.0)).transpose()
}

fn truthy<'js>(v: Option<&Value<'js>>) -> Result<bool> {
    match v {
        Some(v) => Ok(v.get::<Coerced<bool>>()?.0),
        None => Ok(false),
    }
}

fn string<'js>(ctx: &Ctx<'js>, v: Option<&Value<'js>>, what: &str) -> Result<String> {
    v.and_then(Value::as_string)
        .map(|s| s.to_string())
        .transpose()?
        .ok_or_else(|| type_err(ctx, &format!("{what} must be a string")))
}

fn model<T>(ctx: &Ctx<'_>, r: std::result::Result<T, ModelError>) -> Result<T> {
    r.map_err(|e| throw(ctx, &e))
}

fn set_fn<'js, F, P>(ctx: &Ctx<'js>, obj: &Object<'js>, name: &str, f: F) -> Result<()>
where
    F: rquickjs::function::IntoJsFunc<'js, P> + 'js,
{
    obj.set(name, Function::new(ctx.clone(), f)?.with_name(name)?)
}

fn info_object<'js>(ctx: &Ctx<'js>, inner: &Inner) -> Result<Object<'js>> {
    let i = inner.sprite.info();
    let o = Object::new(ctx.clone())?;
    if let Some(joints) = &i.joints {
        let j = Object::new(ctx.clone())?;
        for (name, (x, y)) in joints {
            let p = Object::new(ctx.clone())?;
            p.set("x", *x)?;
            p.set("y", *y)?;
            j.set(*name, p)?;
        }
        o.set("joints", j)?;
    }
    o.set("style", i.style.name())?;
    o.set("body", i.body)?;
    o.set("version", i.version as i32)?;
    o.set("brows", i.brows)?;
    o.set("eyes", i.eyes)?;
    o.set("mouth", i.mouth)?;
    o.set("surfaceSamples", i.surface_samples as f64)?;
    o.set("sprite", inner.id)?;
    o.set("texture", inner.id)?;
    o.set("revision", i.revision as f64)?;
    o.set("yaw", i.yaw)?;
    o.set("pitch", i.pitch)?;
    o.set("disposed", i.disposed)?;
    o.set("width", i.width as i32)?;
    o.set("height", i.width as i32)?;
    o.set("atlasWidth", i.atlas_width as i32)?;
    Ok(o)
}

/// Handle, yaw, pitch and the optional eyes/mouth/brows of a pose call.
type PoseArgs<'js> = (Class<'js, Handle>, f64, f64, [Option<i32>; 3]);

/// Expression arguments 3..5: omitted ones keep the current values.
fn pose_args<'js>(ctx: &Ctx<'js>, args: &Rest<Value<'js>>, name: &str) -> Result<PoseArgs<'js>> {
    min_args(ctx, args, 3, name)?;
    let h = handle(ctx, at(args, 0))?;
    let yaw = number(at(args, 1))?;
    let pitch = number(at(args, 2))?;
    let e = int32(at(args, 3))?;
    let m = int32(at(args, 4))?;
    let b = int32(at(args, 5))?;
    Ok((h, yaw, pitch, [e, m, b]))
}

/// TypeError unless the handle's atlas is v2 (the borrow ends here).
fn need_v2<'js>(ctx: &Ctx<'js>, h: &Class<'js, Handle>, name: &str) -> Result<()> {
    let v2 = h.borrow().inner.borrow().sprite.info().version == 2;
    if v2 {
        Ok(())
    } else {
        Err(type_err(ctx, &format!("{name}: needs a v2 atlas")))
    }
}

fn part_selection<'js>(ctx: &Ctx<'js>, v: Option<&Value<'js>>) -> Result<PartSelection> {
    let bad = || range_err(ctx, "part ids must be 1..254 unique integers 1..254");
    match v {
        Some(v) if v.as_array().is_some() => {
            let arr = v.as_array().ok_or_else(bad)?;
            if arr.is_empty() || arr.len() > 254 {
                return Err(bad());
            }
            let mut ids = Vec::with_capacity(arr.len());
            for x in arr.iter::<Value>() {
                let x = x?.as_number().ok_or_else(bad)?;
                if x.fract() != 0.0 || !(1.0..=254.0).contains(&x) {
                    return Err(bad());
                }
                ids.push(x as u8);
            }
            Ok(PartSelection::Ids(ids))
        }
        Some(v) if v.as_number().is_some() => {
            let x = v.as_number().unwrap_or(f64::NAN);
            if x.fract() != 0.0 || !(0.0..=u32::MAX as f64).contains(&x) {
                return Err(range_err(ctx, "mask must be a uint32"));
            }
            Ok(PartSelection::Mask(x as u32))
        }
        _ => Err(type_err(ctx, "rotSpritePart: mask or id array expected")),
    }
}

fn rows<'js>(ctx: &Ctx<'js>, v: &Value<'js>) -> Result<Vec<[f64; 17]>> {
    let arr = v
        .as_array()
        .ok_or_else(|| type_err(ctx, "rotSpriteModelPose: rows must be an array"))?;
    if arr.is_empty() || arr.len() > 254 {
        return Err(range_err(ctx, "rotSpriteModelPose: 1..254 rows expected"));
    }
    let mut out = Vec::with_capacity(arr.len());
    for row in arr.iter::<Value>() {
        let row = row?;
        let r = row
            .as_array()
            .filter(|r| r.len() == 17)
            .ok_or_else(|| type_err(ctx, "rotSpriteModelPose: each row must have 17 numbers"))?;
        let mut vals = [0.0; 17];
        for (k, x) in r.iter::<Value>().enumerate() {
            vals[k] = x?.as_number().unwrap_or(f64::NAN);
        }
        out.push(vals);
    }
    Ok(out)
}

/// `path` as read under `--root` (an `Error` when outside it).
fn confined(ctx: &Ctx<'_>, what: &str, path: &str) -> Result<std::path::PathBuf> {
    super::guard::confine_read(Path::new(path))
        .map_err(|e| Exception::throw_message(ctx, &format!("{what}: {e}")))
}

/// Add the natives to `engine` (the default engine object).
pub fn install<'js>(ctx: &Ctx<'js>, engine: &Object<'js>, st: Rc<RefCell<State>>) -> Result<()> {
    let s = st.clone();
    set_fn(
        ctx,
        engine,
        "rotSpriteLoad",
        move |ctx: Ctx<'js>, args: Rest<Value<'js>>| -> Result<Class<'js, Handle>> {
            let path = string(&ctx, at(&args, 0), "rotSpriteLoad: path")?;
            let path = confined(&ctx, "rotSpriteLoad", &path)?;
            super::guard::check_png_file(&ctx, &path, "rotSpriteLoad")?;
            let sprite = model(&ctx, SpriteHandle::load(&path))?;
            let mut inner = Inner {
                sprite,
                id: -1,
                engine: s.clone(),
            };
            inner.new_slot();
            Class::instance(
                ctx,
                Handle {
                    inner: RefCell::new(inner),
                },
            )
        },
    )?;
    set_fn(
        ctx,
        engine,
        "rotSpriteInfo",
        |ctx: Ctx<'js>, args: Rest<Value<'js>>| -> Result<Object<'js>> {
            let h = handle(&ctx, at(&args, 0))?;
            let b = h.borrow();
            info_object(&ctx, &b.inner.borrow())
        },
    )?;
    for (name, synth) in [("rotSpritePose", true), ("rotSpritePrepare", false)] {
        set_fn(
            ctx,
            engine,
            name,
            move |ctx: Ctx<'js>, args: Rest<Value<'js>>| -> Result<i32> {
                let (h, yaw, pitch, [e, m, b]) = pose_args(&ctx, &args, name)?;
                let c = h.borrow();
                let mut inner = c.inner.borrow_mut();
                if synth {
                    model(&ctx, inner.sprite.pose(yaw, pitch, e, m, b))?;
                    Ok(inner.upload())
                } else {
                    model(&ctx, inner.sprite.prepare(yaw, pitch, e, m, b))?;
                    Ok(inner.id)
                }
            },
        )?;
    }
    set_fn(
        ctx,
        engine,
        "rotSpriteRig",
        |ctx: Ctx<'js>, args: Rest<Value<'js>>| -> Result<i32> {
            min_args(&ctx, &args, 7, "rotSpriteRig")?;
            let h = handle(&ctx, at(&args, 0))?;
            let rig = LegacyRig {
                body: truthy(at(&args, 1))?,
                phase: number(at(&args, 2))?,
                stride: number(at(&args, 3))?,
                arm_left: number(at(&args, 4))?,
                arm_right: number(at(&args, 5))?,
                head_yaw: number(at(&args, 6))?,
            };
            let c = h.borrow();
            let mut inner = c.inner.borrow_mut();
            model(&ctx, inner.sprite.set_rig(rig))?;
            Ok(inner.upload())
        },
    )?;
    set_fn(
        ctx,
        engine,
        "rotSpriteStyle",
        |ctx: Ctx<'js>, args: Rest<Value<'js>>| -> Result<i32> {
            let h = handle(&ctx, at(&args, 0))?;
            let style = string(&ctx, at(&args, 1), "rotSpriteStyle: style")?;
            let c = h.borrow();
            let mut inner = c.inner.borrow_mut();
            if model(&ctx, inner.sprite.set_style(&style))? {
                inner.new_slot();
            }
            Ok(inner.id)
        },
    )?;
    set_fn(
        ctx,
        engine,
        "rotSpritePart",
        |ctx: Ctx<'js>, args: Rest<Value<'js>>| -> Result<i32> {
            min_args(&ctx, &args, 3, "rotSpritePart")?;
            let h = handle(&ctx, at(&args, 0))?;
            need_v2(&ctx, &h, "rotSpritePart")?;
            // Convert every argument before borrowing: conversions may run JS.
            let sel = part_selection(&ctx, at(&args, 2))?;
            let path = string(&ctx, at(&args, 1), "rotSpritePart: path")?;
            let path = confined(&ctx, "rotSpritePart", &path)?;
            super::guard::check_png_file(&ctx, &path, "rotSpritePart")?;
            let c = h.borrow();
            let mut inner = c.inner.borrow_mut();
            model(&ctx, inner.sprite.part(&path, &sel))?;
            Ok(inner.upload())
        },
    )?;
    set_fn(
        ctx,
        engine,
        "rotSpriteModelPose",
        |ctx: Ctx<'js>, args: Rest<Value<'js>>| -> Result<()> {
            min_args(&ctx, &args, 3, "rotSpriteModelPose")?;
            let h = handle(&ctx, at(&args, 0))?;
            need_v2(&ctx, &h, "rotSpriteModelPose")?;
            let Some(rows_v) = at(&args, 2).filter(|v| v.is_array()) else {
                return Err(type_err(&ctx, "rotSpriteModelPose: rows must be an array"));
            };
            let scale = number(at(&args, 1))?;
            if !(scale.is_finite() && scale > 0.0 && scale <= 8.0) {
                return Err(range_err(
                    &ctx,
                    "rotSpriteModelPose: scale must be in (0, 8]",
                ));
            }
            let rows = rows(&ctx, rows_v)?;
            let body = match at(&args, 3) {
                None => true,
                Some(v) if v.is_undefined() => true,
                Some(v) => v.get::<Coerced<bool>>()?.0,
            };
            let c = h.borrow();
            let mut inner = c.inner.borrow_mut();
            model(&ctx, inner.sprite.model_pose(scale, &rows, body))
        },
    )?;
    set_fn(
        ctx,
        engine,
        "rotSpriteFileStamp",
        |ctx: Ctx<'js>, args: Rest<Value<'js>>| -> Result<Value<'js>> {
            let path = string(&ctx, at(&args, 0), "rotSpriteFileStamp: path")?;
            // outside `--root`: as if missing
            let stamp = super::guard::confine_read(Path::new(&path))
                .ok()
                .and_then(|p| file_stamp(&p));
            or_null(&ctx, stamp)
        },
    )?;
    set_fn(
        ctx,
        engine,
        "rotSpriteChanged",
        |ctx: Ctx<'js>, args: Rest<Value<'js>>| -> Result<bool> {
            let h = handle(&ctx, at(&args, 0))?;
            let c = h.borrow();
            let changed = c.inner.borrow().sprite.changed();
            Ok(changed)
        },
    )?;
    set_fn(
        ctx,
        engine,
        "rotSpriteDispose",
        |ctx: Ctx<'js>, args: Rest<Value<'js>>| -> Result<()> {
            let h = handle(&ctx, at(&args, 0))?;
            let c = h.borrow();
            let mut inner = c.inner.borrow_mut();
            inner.sprite.dispose();
            inner.free_slot();
            Ok(())
        },
    )?;

    let s = st.clone();
    set_fn(
        ctx,
        engine,
        "saveSprite",
        move |ctx: Ctx<'js>, id: f64, path: String| -> Result<()> {
            let st = s.borrow();
            let tex = sprite_slot(&ctx, &st, id)?;
            write_png(
                &ctx,
                "saveSprite",
                Path::new(&path),
                tex.width,
                tex.height,
                &tex.rgba,
            )
        },
    )?;
    let s = st.clone();
    set_fn(
        ctx,
        engine,
        "spritePixels",
        move |ctx: Ctx<'js>, id: f64| -> Result<Value<'js>> {
            // Copy out first: allocating the array may run finalizers, which
            // borrow the engine state.
            let bytes = match s.borrow().sprites.get(id as usize).and_then(Option::as_ref) {
                Some(tex) if id >= 0.0 && id.fract() == 0.0 => Some(tex.rgba.clone()),
                _ => None,
            };
            let arr = bytes
                .map(|b| TypedArray::<u8>::new(ctx.clone(), b))
                .transpose()?;
            or_null(&ctx, arr)
        },
    )?;
    let s = st;
    set_fn(
        ctx,
        engine,
        "drawSprite",
        move |ctx: Ctx<'js>, args: Rest<Value<'js>>| -> Result<()> {
            let id = number(at(&args, 0))?;
            let n = |i| number(at(&args, i));
            let (x, y, w, h) = (n(1)?, n(2)?, n(3)?, n(4)?);
            let color = match at(&args, 6) {
                Some(v) if !v.is_undefined() && !v.is_null() => v.get::<Coerced<i32>>()?.0 as u32,
                _ => 0xFFFF_FFFF,
            };
            let tint = [
                (color >> 16) as u8,
                (color >> 8) as u8,
                color as u8,
                (color >> 24) as u8,
            ];
            let mut st = s.borrow_mut();
            let State { fb, sprites, .. } = &mut *st;
            let Some(Some(tex)) = (id >= 0.0 && id.fract() == 0.0)
                .then(|| sprites.get(id as usize))
                .flatten()
            else {
                return Err(range_err(&ctx, "drawSprite: unknown sprite id"));
            };
            fb.blit(tex, x, y, w, h, tint);
            Ok(())
        },
    )?;
    Ok(())
}

/// `Some(v)` → `v`, `None` → `null` (rquickjs maps `None` to `undefined`).
fn or_null<'js, T: IntoJs<'js>>(ctx: &Ctx<'js>, v: Option<T>) -> Result<Value<'js>> {
    match v {
        Some(v) => v.into_js(ctx),
        None => Ok(Value::new_null(ctx.clone())),
    }
}

fn sprite_slot<'a>(ctx: &Ctx<'_>, st: &'a State, id: f64) -> Result<&'a Texture> {
    if !(id >= 0.0 && id.fract() == 0.0) {
        return Err(range_err(ctx, "unknown sprite id"));
    }
    st.sprites
        .get(id as usize)
        .and_then(Option::as_ref)
        .ok_or_else(|| range_err(ctx, "unknown sprite id"))
}
