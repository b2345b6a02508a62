//! Native module `re2d/native/rotsprite`: the Rust `model` rules behind `js/rotsprite.js` (js-rotsprite.md §3.3, §3.4, §3.7).
//!
//! Exports (internal to the built-in `re2d/rotsprite`):
//! - `validateDefinition(json)` → normalised definition as JSON text (§3.3);
//! - `validateAnimations(json, boneNamesJson)` → normalised animation set as
//!   JSON text (§3.4; only the bone names of the definition matter);
//! - `relativeAsset(fileJson, pathJson)` → JSON text of the string (§3.7;
//!   `file` is a string or null, the JS side does the type checks).
//!
//! Everything crosses as `JSON.stringify` text read by
//! [`re2d::model::jstext`]: strings with lone UTF-16 surrogates are kept
//! exactly, and nesting is limited by `json-max-depth` (RangeError past it)
//! rather than by serde_json's 128 levels.
//!
//! A second native module, `re2d/native/host` ([`HostNative`], internal to
//! `re2d/native`), gives the `$` host `readText`.
//!
//! The JS side produces the JSON text with `cloneData` (§2), so the Rust side
//! sees exactly the clone the engine validates. Errors keep their JS class.

use rquickjs::{
    Ctx, Exception, Function, Result,
    module::{Declarations, Exports, ModuleDef},
};
use serde_json::Value;

use re2d::limits::Limits;
use re2d::model::{
    Bone, Definition, ErrorClass, ModelError, jstext, relative_asset, validate_animations,
    validate_definition,
};

/// Throw a [`ModelError`] as a JS error of its class.
pub fn throw(ctx: &Ctx<'_>, e: &ModelError) -> rquickjs::Error {
    let msg = e.message.as_str();
    match e.class {
        ErrorClass::Type => crate::errors::type_error(ctx, msg),
        ErrorClass::Range => crate::errors::range_error(ctx, msg),
        ErrorClass::Syntax => crate::errors::syntax_error(ctx, msg),
        ErrorClass::Error => Exception::throw_message(ctx, msg),
    }
}

fn parse(ctx: &Ctx<'_>, text: &str) -> Result<Value> {
    jstext::parse(text, &Limits::current()).map_err(|e| throw(ctx, &e))
}

fn validate_def(ctx: Ctx<'_>, text: String) -> Result<String> {
    let v = parse(&ctx, &text)?;
    let d = validate_definition(v).map_err(|e| throw(&ctx, &e))?;
    Ok(jstext::to_text(&d.json))
}

/// A definition that only declares bones (all `validate_animations` reads).
fn bones_only(names: Vec<String>) -> Definition {
    Definition {
        atlas: String::new(),
        style: String::new(),
        bones: names
            .into_iter()
            .map(|name| Bone {
                name,
                parent: None,
                pivot: [0.0; 3],
                portrait_pivot: [0.0; 3],
            })
            .collect(),
        parts: Vec::new(),
        groups: Vec::new(),
        joints: Vec::new(),
        controls: Vec::new(),
        body_scale: 1.0,
        portrait_scale: 2.0,
        sockets: Vec::new(),
        default_body: None,
        emotions: Vec::new(),
        json: Value::Null,
    }
}

fn validate_anims(ctx: Ctx<'_>, text: String, bones_text: String) -> Result<String> {
    let v = parse(&ctx, &text)?;
    let bones: Vec<String> = match parse(&ctx, &bones_text)? {
        Value::Array(a) => a
            .into_iter()
            .filter_map(|b| match b {
                Value::String(s) => Some(s),
                _ => None,
            })
            .collect(),
        _ => {
            return Err(crate::errors::type_error(
                &ctx,
                "bone names must be an array",
            ));
        }
    };
    let a = validate_animations(v, &bones_only(bones)).map_err(|e| throw(&ctx, &e))?;
    Ok(jstext::to_text(&a.json))
}

/// `file` and `path` arrive as JSON text (`JSON.stringify`), so strings
/// with lone surrogates pass through unchanged; the result is JSON text.
fn rel_asset(ctx: Ctx<'_>, file: String, path: String) -> Result<String> {
    let file = match parse(&ctx, &file)? {
        Value::String(s) => Some(s),
        _ => None,
    };
    let path = match parse(&ctx, &path)? {
        Value::String(s) => s,
        _ => {
            return Err(crate::errors::type_error(
                &ctx,
                "asset path must be a non-empty string",
            ));
        }
    };
    relative_asset(file.as_deref(), &path)
        .map(|r| jstext::string_text(&r))
        .map_err(|e| throw(&ctx, &e))
}

/// `ModuleDef` of `re2d/native/rotsprite`.
pub struct ModelNative;

impl ModuleDef for ModelNative {
    fn declare<'js>(decl: &Declarations<'js>) -> Result<()> {
        for name in ["validateDefinition", "validateAnimations", "relativeAsset"] {
            decl.declare(name)?;
        }
        Ok(())
    }

    fn evaluate<'js>(ctx: &Ctx<'js>, exports: &Exports<'js>) -> Result<()> {
        exports.export(
            "validateDefinition",
            Function::new(ctx.clone(), validate_def)?,
        )?;
        exports.export(
            "validateAnimations",
            Function::new(ctx.clone(), validate_anims)?,
        )?;
        exports.export("relativeAsset", Function::new(ctx.clone(), rel_asset)?)?;
        Ok(())
    }
}

/// The file's text, `null` when unreadable or not UTF-8; a RangeError when
/// it is larger than the JSON size limit (an endless file never fills memory).
fn read_text(ctx: Ctx<'_>, path: String) -> Result<Option<String>> {
    let l = Limits::current();
    let file = super::guard::confine_read(std::path::Path::new(&path))
        .map_err(|e| Exception::throw_message(&ctx, &e))?;
    // the text twice: the native read and its QuickJS string
    let text = super::guard::read_counted(
        &ctx,
        &file,
        l.json_max_bytes,
        "json-max-bytes",
        0,
        "readText",
    )?;
    match text {
        Ok(b) => Ok(String::from_utf8(b).ok()),
        Err(re2d::limits::ReadError::TooLarge(e)) => {
            Err(crate::errors::range_error(&ctx, &format!("{path}: {e}")))
        }
        Err(_) => Ok(None),
    }
}

/// `ModuleDef` of `re2d/native/host` (internal to `re2d/native`):
/// `readText(path)` → the file's UTF-8 text or `null`.
pub struct HostNative;

impl ModuleDef for HostNative {
    fn declare<'js>(decl: &Declarations<'js>) -> Result<()> {
        decl.declare("readText")?;
        Ok(())
    }

    fn evaluate<'js>(ctx: &Ctx<'js>, exports: &Exports<'js>) -> Result<()> {
        exports.export("readText", Function::new(ctx.clone(), read_text)?)?;
        Ok(())
    }
}
