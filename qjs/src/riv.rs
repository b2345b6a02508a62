//! Native module `re2d/native/riv` behind `$.mesh.exportRiv(rig, parts, clip, opts)`
//! (rive-export.md §7–§9 from JS; issue 8) and `readModel`, the model reader of `$.mesh.load`
//! (issue 30, see `read_model`). `exportRiv` builds the §7 model from a `$.mesh` rig and parts,
//! runs [`re2d_riv::export()`] and returns the `.riv` bytes as an `ArrayBuffer`. It needs no
//! `engine`. Adapter only: all mapping and validation live in `re2d_riv`.
//!
//! Arguments:
//! - `rig`: a `$.mesh.skeleton(spec)` rig (its `spec()` is exported) or a plain skeleton spec;
//! - `parts`: an array of `$.mesh.part(...)` records or part specs (`verts`, `uv`, `tris`,
//!   `weights` as `[[bone, w], …]` or flat `[bone, w, …]`, or `bones`, `depth`, `texture`,
//!   `name`; a record's name is `spec().name`); `texture` −1/`undefined` = white;
//! - `clip`: `null`, one clip `{name?, duration, loop?, interpolation?, tracks}`, or a map
//!   `{name: clip}`;
//! - `opts`: `{fps = 60, artboard: [w, h], offset: [x, y], emptyToc, name, control,
//!   textures: {id: ArrayBuffer | Uint8Array}}` (ids are `String(part.texture)`).
//!
//! Errors: a `TypeError` for arguments of the wrong kind; otherwise an `Error` whose message
//! starts with the §8.7 code and whose `code` property holds it (`'E_PART'`, …).

use rquickjs::{
    Ctx, Exception, Function, Object, Result, TypedArray, Value,
    function::Opt,
    module::{Declarations, Exports, ModuleDef},
};
use serde_json::{Map, Value as Json};

use super::buffers::with_u8_mut;
use std::path::{Path, PathBuf};

use re2d::limits::{Limits, ReadError};
use re2d_riv::{Code, Control, Model, Options, RivError, export};

fn type_err(ctx: &Ctx<'_>, msg: &str) -> rquickjs::Error {
    type_err_as(ctx, "exportRiv", msg)
}

fn type_err_as(ctx: &Ctx<'_>, what: &str, msg: &str) -> rquickjs::Error {
    crate::errors::type_error(ctx, &format!("{what}: {msg}"))
}

fn riv_err(ctx: &Ctx<'_>, e: &RivError) -> rquickjs::Error {
    coded_err(ctx, "exportRiv", e)
}

/// An `Error` whose message is `WHAT: CODE: message` and whose `code`
/// property holds the §8.7 code.
fn coded_err(ctx: &Ctx<'_>, what: &str, e: &RivError) -> rquickjs::Error {
    match Exception::from_message(ctx.clone(), &format!("{what}: {e}")) {
        Ok(ex) => {
            let _ = ex.as_object().set("code", e.code.as_str());
            ctx.throw(ex.into_value())
        }
        Err(err) => err,
    }
}

/// `JSON.stringify(v)` parsed back (`undefined` and functions → `None`).
/// `NaN` and `±Infinity`, which JSON would turn into `null`, arrive as the
/// strings `"NaN"`, `"Infinity"`, `"-Infinity"`, which the model reader
/// rejects with the code of the element (a second, replacing pass runs
/// only when the first text holds a `null`).
fn to_json<'js>(ctx: &Ctx<'js>, v: Value<'js>) -> Result<Option<Json>> {
    to_json_as(ctx, v, "exportRiv")
}

/// [`to_json`] naming `what` in its error.
fn to_json_as<'js>(ctx: &Ctx<'js>, v: Value<'js>, what: &str) -> Result<Option<Json>> {
    let Some(text) = ctx.json_stringify(v.clone())? else {
        return Ok(None);
    };
    let mut text = text.to_string()?;
    if text.contains("null") {
        let replacer: Function =
            ctx.eval("(k, v) => typeof v === 'number' && !Number.isFinite(v) ? String(v) : v")?;
        if let Some(t) = ctx.json_stringify_replacer(v, replacer)? {
            text = t.to_string()?;
        }
    }
    // the parsed tree is native memory outside the QuickJS heap: its size
    // (values × bytes per value) is checked against json-max-values and
    // counted against qjs-memory before it is built
    let limits = re2d::limits::Limits::current();
    limits
        .check_json_depth(text.as_bytes())
        .map_err(|e| crate::errors::range_error(ctx, &e.to_string()))?;
    let tree = re2d::limits::json_values(text.as_bytes())
        .saturating_mul(re2d::limits::JSON_BYTES_PER_VALUE)
        .saturating_add(text.len() as u64);
    super::guard::check_native(ctx, tree, "the model as JSON")?;
    match Some(text) {
        None => Ok(None),
        Some(s) => serde_json::from_str(&s)
            .map(Some)
            .map_err(|e| type_err_as(ctx, what, &format!("not JSON-representable: {e}"))),
    }
}

fn bytes_of<'js>(ctx: &Ctx<'js>, v: Value<'js>) -> Result<Option<Vec<u8>>> {
    let Some(obj) = v.clone().into_object() else {
        return Ok(None);
    };
    let arr = if let Some(ab) = rquickjs::ArrayBuffer::from_object(obj) {
        TypedArray::<u8>::from_arraybuffer(ab)?
    } else if let Ok(t) = TypedArray::<u8>::from_value(v) {
        t
    } else {
        return Ok(None);
    };
    with_u8_mut(ctx, &arr, |s| Some(s.to_vec()))
}

fn part_json<'js>(ctx: &Ctx<'js>, p: Value<'js>, i: usize) -> Result<Json> {
    let Some(o) = p.as_object() else {
        return Err(type_err(ctx, &format!("parts[{i}] is not an object")));
    };
    let mut m = Map::new();
    let mut name: Value = o.get("name")?;
    // A `$.mesh.part` record: its spec is what the user gave. The record's
    // weights are the mesh module's reading of them (a non-finite weight
    // read as 0), so the spec's weights are exported and validated.
    let spec: Value = o.get("spec")?;
    let spec = match spec.as_function() {
        Some(f) => f
            .call::<_, Value>((rquickjs::function::This(o.clone()),))?
            .into_object(),
        None => None,
    };
    if (name.is_undefined() || name.is_null())
        && let Some(so) = &spec
    {
        name = so.get("name")?;
    }
    if let Some(n) = to_json(ctx, name)? {
        m.insert("name".into(), n);
    }
    let spec_weights = match &spec {
        Some(so) => Some(so.get::<_, Value>("weights")?).filter(Value::is_array),
        None => None,
    };
    for key in ["verts", "uv", "tris", "weights", "bones", "depth", "colors"] {
        let v: Value = match (&spec_weights, key) {
            (Some(w), "weights") => w.clone(),
            _ => o.get(key)?,
        };
        if let Some(j) = to_json(ctx, v)? {
            m.insert(key.into(), j);
        }
    }
    let t: Value = o.get("texture")?;
    match to_json(ctx, t)? {
        Some(Json::Number(n)) if n.as_f64() == Some(-1.0) => {}
        Some(Json::Number(n)) => {
            m.insert("texture".into(), Json::String(n.to_string()));
        }
        Some(Json::String(s)) => {
            m.insert("texture".into(), Json::String(s));
        }
        _ => {}
    }
    Ok(Json::Object(m))
}

fn export_riv<'js>(
    ctx: Ctx<'js>,
    rig: Value<'js>,
    parts: Value<'js>,
    clip: Opt<Value<'js>>,
    opts: Opt<Value<'js>>,
) -> Result<rquickjs::ArrayBuffer<'js>> {
    // skeleton
    let Some(ro) = rig.as_object() else {
        return Err(type_err(
            &ctx,
            "rig must be a $.mesh skeleton or a skeleton spec",
        ));
    };
    let spec_fn: Value = ro.get("spec")?;
    let skeleton = match spec_fn.as_function() {
        Some(f) => f.call::<_, Value>((rquickjs::function::This(ro.clone()),))?,
        None => rig.clone(),
    };
    let skeleton = to_json(&ctx, skeleton)?.unwrap_or(Json::Null);
    // parts
    let Some(arr) = parts.as_array() else {
        return Err(type_err(&ctx, "parts must be an array"));
    };
    let mut plist = Vec::with_capacity(arr.len());
    for (i, p) in arr.iter::<Value>().enumerate() {
        plist.push(part_json(&ctx, p?, i)?);
    }
    // options
    let o: Option<Object> = opts.0.and_then(|v| v.into_object());
    let get = |k: &str| -> Result<Value<'js>> {
        match &o {
            Some(o) => o.get(k),
            None => Ok(Value::new_undefined(ctx.clone())),
        }
    };
    // clips
    let clips = match clip.0 {
        None => Json::Null,
        Some(v) if v.is_null() || v.is_undefined() => Json::Null,
        Some(v) => {
            let j = to_json(&ctx, v)?.unwrap_or(Json::Null);
            match j {
                Json::Object(c) if c.contains_key("duration") => {
                    let name = match c.get("name") {
                        Some(Json::String(s)) => s.clone(),
                        _ => "clip".to_string(),
                    };
                    let mut one = Map::new();
                    one.insert(name, Json::Object(c));
                    Json::Object(one)
                }
                Json::Object(m) => Json::Object(m),
                _ => {
                    return Err(type_err(
                        &ctx,
                        "clip must be null, a clip or a map of clips",
                    ));
                }
            }
        }
    };
    // textures
    let mut texture_bytes: Vec<(String, Vec<u8>)> = Vec::new();
    let mut tex_decl = Map::new();
    let tv = get("textures")?;
    if let Some(to) = tv.as_object() {
        for k in to.keys::<String>() {
            let k = k?;
            let v: Value = to.get(k.as_str())?;
            let Some(b) = bytes_of(&ctx, v)? else {
                return Err(type_err(
                    &ctx,
                    &format!("opts.textures.{k} must be an ArrayBuffer or Uint8Array"),
                ));
            };
            tex_decl.insert(k.clone(), Json::String(format!("{k}.png")));
            texture_bytes.push((k, b));
        }
    }
    let name = to_json(&ctx, get("name")?)?.unwrap_or(Json::Null);
    let model_json = serde_json::json!({
        "version": 1,
        "name": name,
        "skeleton": skeleton,
        "textures": Json::Object(tex_decl),
        "parts": plist,
        "clips": clips,
    });
    let mut src = |id: &str, _: &Json| -> std::result::Result<(String, Vec<u8>), RivError> {
        let b = texture_bytes
            .iter()
            .find(|(k, _)| k == id)
            .map(|(_, b)| b.clone())
            .unwrap_or_default();
        Ok((format!("{id}.png"), b))
    };
    let model =
        Model::from_json(&model_json, &mut src, &Limits::DEFAULT).map_err(|e| riv_err(&ctx, &e))?;
    let num = |k: &str| -> Result<Option<f64>> { Ok(get(k)?.as_number()) };
    let fps = match num("fps")? {
        None => 60,
        Some(f) if f >= 1.0 && f <= re2d_riv::export::MAX_FPS as f64 && f.fract() == 0.0 => {
            f as u32
        }
        Some(f) => {
            return Err(riv_err(
                &ctx,
                &RivError::new(
                    re2d_riv::Code::Option,
                    format!(
                        "opts.fps {f} is not an integer in 1..={}",
                        re2d_riv::export::MAX_FPS
                    ),
                ),
            ));
        }
    };
    let pair = |k: &str| -> Result<Option<(f64, f64)>> {
        let v = get(k)?;
        if v.is_undefined() || v.is_null() {
            return Ok(None);
        }
        match to_json(&ctx, v)? {
            Some(Json::Array(a))
                if a.len() == 2 && a.iter().all(|x| x.as_f64().is_some_and(f64::is_finite)) =>
            {
                Ok(Some((
                    a[0].as_f64().unwrap_or(0.0),
                    a[1].as_f64().unwrap_or(0.0),
                )))
            }
            _ => Err(type_err(
                &ctx,
                &format!("opts.{k} must be [number, number]"),
            )),
        }
    };
    let artboard = match pair("artboard")? {
        None => None,
        Some((w, h)) if w >= 1.0 && h >= 1.0 && w <= u32::MAX as f64 && h <= u32::MAX as f64 => {
            Some((w as u32, h as u32))
        }
        Some(_) => return Err(type_err(&ctx, "opts.artboard sizes must be >= 1")),
    };
    let control = match get("control")?.as_string() {
        None => None,
        Some(s) => {
            let s = s.to_string()?;
            Some(
                Control::parse(&s)
                    .ok_or_else(|| type_err(&ctx, &format!("unknown control '{s}'")))?,
            )
        }
    };
    let options = Options {
        clip: None,
        fps,
        artboard,
        offset: pair("offset")?,
        empty_toc: get("emptyToc")?.as_bool().unwrap_or(false),
        control,
    };
    let out = export(&model, &options).map_err(|e| riv_err(&ctx, &e))?;
    rquickjs::ArrayBuffer::new(ctx, out.bytes)
}

/// Bytes of the `serde_json` tree of `json` at most, as
/// [`re2d::limits::JSON_BYTES_PER_VALUE`] per counted value of its text.
fn tree_bytes(json: &Json) -> u64 {
    fn values(v: &Json) -> u64 {
        use re2d::limits::{JSON_ARRAY_WEIGHT, JSON_OBJECT_WEIGHT};
        match v {
            Json::Array(a) => JSON_ARRAY_WEIGHT + a.iter().map(values).sum::<u64>(),
            Json::Object(m) => JSON_OBJECT_WEIGHT + m.values().map(|v| 1 + values(v)).sum::<u64>(),
            _ => 1,
        }
    }
    values(json).saturating_mul(re2d::limits::JSON_BYTES_PER_VALUE)
}

/// Parses a model file's text, its tree counted against `qjs-memory` (beside
/// the text) and `json-max-values` before it is built.
fn parse_counted<'js>(
    ctx: &Ctx<'js>,
    text: &[u8],
    given: &Path,
    limits: &Limits,
    fail: impl Fn(RivError) -> rquickjs::Error,
) -> Result<Json> {
    limits.check_json_depth(text).map_err(|e| {
        fail(RivError::new(
            Code::ModelJson,
            format!("{}: {e}", given.display()),
        ))
    })?;
    let tree = re2d::limits::json_values(text).saturating_mul(re2d::limits::JSON_BYTES_PER_VALUE);
    super::guard::check_native(
        ctx,
        tree.saturating_add(text.len() as u64),
        "mesh.load: the model as JSON",
    )?;
    serde_json::from_slice(text).map_err(|e| {
        fail(RivError::new(
            Code::ModelJson,
            format!("{}: {e}", given.display()),
        ))
    })
}

/// `readModel(source, dir)` behind `$.mesh.load` (issue 30): reads a model
/// (rive-export.md §7) from a `model.json` path (under `--root`, within
/// `json-max-bytes`; textures relative to the file) or from a model object
/// (textures relative to `dir`, default the working directory), validates it
/// with [`Model::from_json`] — the rules and codes of `re2d export-riv` and
/// `exportRiv`, texture files included — and returns `{ model, textures,
/// warnings }`: the model as a plain JS value, `[id, path]` of each texture
/// the parts use, and the validator's warnings. Errors as `exportRiv`'s, named
/// `mesh.load`: a `TypeError` for a source of the wrong kind, otherwise an
/// `Error` with the code in its message and `code` property (`E_IO` for a
/// model file that cannot be read).
fn read_model<'js>(ctx: Ctx<'js>, source: Value<'js>, dir: Opt<Value<'js>>) -> Result<Object<'js>> {
    const WHAT: &str = "mesh.load";
    let limits = Limits::current();
    let fail = |e: RivError| coded_err(&ctx, WHAT, &e);
    // native bytes this call holds while it reads the textures: the model's
    // tree (about its text's size in values × 80 bytes, counted when parsed)
    let mut pending = 0u64;
    let (json, dir) = if let Some(s) = source.as_string() {
        let given = PathBuf::from(s.to_string()?);
        let io = |e: String| fail(RivError::new(Code::Io, format!("{}: {e}", given.display())));
        let path = super::guard::confine_read(&given).map_err(io)?;
        // the text and the tree parsed from it are native memory: each is
        // counted against qjs-memory before it is allocated (issue 45)
        let text = super::guard::read_counted(
            &ctx,
            &path,
            limits.json_max_bytes,
            "json-max-bytes",
            0,
            WHAT,
        )?
        .map_err(|e| match e {
            ReadError::Io(e) => io(e.to_string()),
            ReadError::TooLarge(e) => fail(RivError::new(
                Code::ModelJson,
                format!("{}: {e}", given.display()),
            )),
        })?;
        super::guard::add_input(&path);
        let json = parse_counted(&ctx, &text, &given, &limits, fail)?;
        pending = text.len() as u64;
        drop(text);
        let dir = given.parent().map(Path::to_path_buf).unwrap_or_default();
        (json, dir)
    } else if source.is_object() && !source.is_function() {
        let dir = match dir.0 {
            None => PathBuf::new(),
            Some(v) if v.is_undefined() || v.is_null() => PathBuf::new(),
            Some(v) => match v.as_string() {
                Some(s) => PathBuf::from(s.to_string()?),
                None => return Err(type_err_as(&ctx, WHAT, "opts.dir must be a folder path")),
            },
        };
        (to_json_as(&ctx, source, WHAT)?.unwrap_or(Json::Null), dir)
    } else {
        return Err(type_err_as(
            &ctx,
            WHAT,
            "source must be a model.json path or a model object",
        ));
    };
    pending = pending.saturating_add(tree_bytes(&json));
    let mut paths: Vec<(String, String)> = Vec::new();
    // a texture refused by qjs-memory: the RangeError is thrown (pending in
    // the context) and the validator stopped with this message
    let mut refused = false;
    let mut src = |id: &str, entry: &Json| -> std::result::Result<(String, Vec<u8>), RivError> {
        let Json::String(rel) = entry else {
            return Err(RivError::new(
                Code::Texture,
                format!("textures.{id} is not a file path string"),
            ));
        };
        let p = dir.join(rel);
        let bad = |e: String| {
            RivError::new(
                Code::Texture,
                format!("textures.{id}: {}: {e}", p.display()),
            )
        };
        let p = super::guard::confine_read(&p).map_err(bad)?;
        let bytes = match super::guard::read_counted(
            &ctx,
            &p,
            limits.file_max_bytes,
            "file-max-bytes",
            pending,
            WHAT,
        ) {
            Ok(r) => r.map_err(|e| bad(e.to_string()))?,
            Err(_) => {
                refused = true;
                return Err(bad("over the memory limit (limit qjs-memory)".into()));
            }
        };
        pending = pending.saturating_add(bytes.len() as u64);
        super::guard::add_input(&p);
        paths.push((id.to_string(), p.to_string_lossy().into_owned()));
        let name = p
            .file_name()
            .map_or_else(|| rel.clone(), |n| n.to_string_lossy().into_owned());
        Ok((name, bytes))
    };
    let model = Model::from_json(&json, &mut src, &limits);
    if refused {
        return Err(rquickjs::Error::Exception); // the RangeError thrown above
    }
    let model = model.map_err(fail)?;
    let text = serde_json::to_string(&json)
        .map_err(|e| fail(RivError::new(Code::ModelJson, e.to_string())))?;
    let out = Object::new(ctx.clone())?;
    out.set("model", ctx.json_parse(text)?)?;
    let textures: Vec<Vec<String>> = paths.into_iter().map(|(id, p)| vec![id, p]).collect();
    out.set("textures", textures)?;
    out.set("warnings", model.warnings)?;
    Ok(out)
}

/// `ModuleDef` of `re2d/native/riv`.
pub struct RivNative;

impl ModuleDef for RivNative {
    fn declare<'js>(decl: &Declarations<'js>) -> Result<()> {
        decl.declare("exportRiv")?;
        decl.declare("readModel")?;
        Ok(())
    }

    fn evaluate<'js>(ctx: &Ctx<'js>, exports: &Exports<'js>) -> Result<()> {
        exports.export("exportRiv", Function::new(ctx.clone(), export_riv)?)?;
        exports.export("readModel", Function::new(ctx.clone(), read_model)?)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use rquickjs::{CatchResultExt, Context, Module, Runtime};
    use serde_json::Value as Json;

    use super::super::modules::{HostLoader, HostResolver};
    use re2d::limits::Limits;
    use re2d_riv::{Model, Options, RivError, export};

    /// Evaluates `src` as a module (no engine) and returns `globalThis.__out`.
    fn run_js(src: &str) -> Vec<f64> {
        let rt = Runtime::new().unwrap();
        rt.set_loader(HostResolver { aliases: true }, HostLoader);
        let ctx = Context::full(&rt).unwrap();
        let out = ctx.with(|ctx| {
            let m = Module::evaluate(ctx.clone(), "/test/riv.mjs", src)
                .catch(&ctx)
                .unwrap_or_else(|e| panic!("{e}"));
            m.finish::<()>()
                .catch(&ctx)
                .unwrap_or_else(|e| panic!("{e}"));
            ctx.globals().get::<_, Vec<f64>>("__out").unwrap()
        });
        rt.run_gc();
        out
    }

    fn fixture() -> (Json, Vec<Vec<u8>>) {
        let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .join("tests/riv/fixtures/arm");
        let mut j: Json =
            serde_json::from_str(&std::fs::read_to_string(dir.join("model.json")).unwrap())
                .unwrap();
        let pngs = ["upper.png", "fore.png"]
            .map(|f| std::fs::read(dir.join(f)).unwrap())
            .to_vec();
        // numeric texture ids, as $.mesh parts carry them
        for p in j["parts"].as_array_mut().unwrap() {
            let id = if p["texture"] == "upper" { "0" } else { "1" };
            p["texture"] = Json::String(id.into());
        }
        j["textures"] = serde_json::json!({"0": "0.png", "1": "1.png"});
        (j, pngs)
    }

    #[test]
    fn export_riv_from_js_equals_the_native_export() {
        let (j, pngs) = fixture();
        let mut src = |id: &str, _: &Json| -> Result<(String, Vec<u8>), RivError> {
            Ok((
                format!("{id}.png"),
                pngs[id.parse::<usize>().unwrap()].clone(),
            ))
        };
        let model = Model::from_json(&j, &mut src, &Limits::DEFAULT).unwrap();
        let want = export(&model, &Options::default()).unwrap().bytes;
        let js = format!(
            r#"
            import {{ installMesh }} from 're2d/mesh';
            const M = {model};
            const api = installMesh({{}});
            const rig = api.skeleton(M.skeleton);
            const parts = M.parts.map((p) => api.part(Object.assign({{}}, p, {{ texture: Number(p.texture) }})));
            const textures = {{ 0: new Uint8Array({t0:?}).buffer, 1: new Uint8Array({t1:?}) }};
            const buf = api.exportRiv(rig, parts, M.clips, {{ textures, name: 'arm' }});
            if (!(buf instanceof ArrayBuffer)) throw new Error('not an ArrayBuffer');
            if (typeof engine !== 'undefined') throw new Error('engine exists');
            if (Object.keys(api).includes('exportRiv')) throw new Error('exportRiv is enumerable');
            globalThis.__out = Array.from(new Uint8Array(buf));
            "#,
            model = j,
            t0 = pngs[0],
            t1 = pngs[1],
        );
        let got: Vec<u8> = run_js(&js).into_iter().map(|x| x as u8).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn export_riv_errors() {
        let out = run_js(
            r#"
            import { installMesh } from 're2d/mesh';
            const api = installMesh({});
            const rig = api.skeleton({ a: { length: 5 } });
            const r = [];
            const code = (f) => { try { f(); return 'none'; } catch (e) { return e instanceof TypeError ? 'TypeError' : e.code; } };
            r.push(code(() => api.exportRiv(5, [])) === 'TypeError');
            r.push(code(() => api.exportRiv(rig, 7)) === 'TypeError');
            r.push(code(() => api.exportRiv(rig, [{ verts: [0, 0, 1] }])) === 'E_PART');
            r.push(code(() => api.exportRiv(rig, [{ verts: [0, 0], uv: [0, 0], bones: ['ghost'] }])) === 'E_WEIGHT');
            r.push(code(() => api.exportRiv(rig, [{ verts: [0, 0], uv: [0, 0], texture: 3 }])) === 'E_TEXTURE');
            r.push(code(() => api.exportRiv(rig, [], { duration: 0, tracks: {} })) === 'E_CLIP');
            r.push(code(() => api.exportRiv(rig, [], null, { fps: 0.5 })) === 'E_OPTION');
            const ok = new Uint8Array(api.exportRiv(rig, [api.part({ verts: [0, 0, 4, 0, 0, 4], uv: [0, 0, 1, 0, 0, 1], tris: [0, 1, 2], bones: ['a', 'a', 'a'] })],
                { name: 'spin', duration: 1, loop: true, tracks: { a: [[0, 0], [1, 6]] } }, { emptyToc: true }));
            r.push(String.fromCharCode(...ok.slice(0, 4)) === 'RIVE' && ok[4] === 7 && ok[7] === 0);
            globalThis.__out = r.map(Number);
            "#,
        );
        assert_eq!(out, vec![1.0; 8], "{out:?}");
    }

    /// Issue 20 item 5: NaN / ±Infinity reach the model reader as such
    /// (JSON would make them `null`, read as defaults) and are errors of the
    /// element's code naming it; a record's weights are its spec's.
    #[test]
    fn export_riv_rejects_non_finite_numbers() {
        let out = run_js(
            r#"
            import { installMesh } from 're2d/mesh';
            const api = installMesh({});
            const part = (o) => Object.assign({ verts: [0, 0, 4, 0, 0, 4], uv: [0, 0, 1, 0, 0, 1], tris: [0, 1, 2], bones: ['a', 'a', 'a'] }, o);
            const rig = (o) => api.skeleton(Object.assign({ a: { length: 5 } }, o));
            const err = (f) => { try { f(); return 'none'; } catch (e) { return `${e.code} ${e.message}`; } };
            const cases = [
                [() => api.exportRiv(rig(), [api.part(part({ bones: undefined, weights: [['a', NaN], ['a', 1], ['a', 1]] }))]), 'E_WEIGHT', 'weights[0]'],
                [() => api.exportRiv(rig(), [part({ bones: undefined, weights: [[['a', Infinity]], [], []] })]), 'E_WEIGHT', 'weights[0]'],
                [() => api.exportRiv(rig(), [api.part(part({ tris: [0, NaN, 2] }))]), 'E_PART', 'tris[1]'],
                [() => api.exportRiv(rig(), [api.part(part({ verts: [0, NaN, 4, 0, 0, 4] }))]), 'E_PART', 'verts[1]'],
                [() => api.exportRiv(rig(), [part({ verts: [0, 0, -Infinity, 0, 0, 4] })]), 'E_PART', 'verts[2]'],
                [() => api.exportRiv(rig({ a: { length: NaN } }), [part()]), 'E_BONE', 'skeleton.a.length'],
                [() => api.exportRiv(rig({ a: { length: 5, angle: Infinity } }), [part()]), 'E_BONE', 'skeleton.a.angle'],
                [() => api.exportRiv(rig({ a: { length: 5, angle: 1e308 } }), [part()]), 'E_BONE', 'skeleton.a.angle'],
            ];
            globalThis.__out = cases.map(([f, code, where]) => {
                const e = err(f);
                return e.startsWith(code + ' ') && e.includes(where) ? 1 : 0;
            });
            // finite models still export, with null values read as before
            globalThis.__out.push(api.exportRiv(rig(), [api.part(part({ depth: null }))]) instanceof ArrayBuffer ? 1 : 0);
            "#,
        );
        assert_eq!(out, vec![1.0; 9], "{out:?}");
    }
}
