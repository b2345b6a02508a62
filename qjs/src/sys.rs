// re2d QuickJS host — `re2d/native/sys`: the process facilities behind the `std` and `os` modules (qjs CLI compatibility).
//! `exit(code)`, `getenv(name)`, `loadFile(path)`, `write(fd, text)`,
//! `flush(fd)`, `sleep(ms)`, `now()` (ms since the host started), `cwd()`.

use std::io::Write;
use std::sync::OnceLock;
use std::time::Instant;

use rquickjs::{
    Ctx, Function, Result,
    module::{Declarations, Exports, ModuleDef},
};

fn start() -> Instant {
    static START: OnceLock<Instant> = OnceLock::new();
    *START.get_or_init(Instant::now)
}

fn exit(code: i32) {
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    std::process::exit(code);
}

fn write(fd: i32, text: super::guard::Lossy) {
    let text = text.0;
    if fd == 2 {
        eprint!("{text}");
    } else {
        print!("{text}");
    }
}

fn flush(fd: i32) {
    if fd == 2 {
        let _ = std::io::stderr().flush();
    } else {
        let _ = std::io::stdout().flush();
    }
}

/// Sleeps (at most a day), never past the time limit (see [`super::guard::sleep`]).
fn sleep(ctx: Ctx<'_>, ms: f64) -> Result<()> {
    super::guard::sleep(&ctx, ms)
}

/// `loadFile(path)`: the UTF-8 text, `null` when unreadable (as qjs); a
/// file larger than `json-max-bytes` (or an endless one such as
/// `/dev/zero`) is a RangeError instead of filling memory.
/// With `--root`, a path outside it is an `Error` naming the root.
fn load_file(ctx: Ctx<'_>, path: String) -> Result<Option<String>> {
    let max = re2d::limits::Limits::current().json_max_bytes;
    let file = super::guard::confine_read(std::path::Path::new(&path))
        .map_err(|e| rquickjs::Exception::throw_message(&ctx, &format!("loadFile: {e}")))?;
    match super::guard::read_counted(&ctx, &file, max, "json-max-bytes", 0, "loadFile")? {
        Ok(b) => Ok(String::from_utf8(b).ok()),
        Err(re2d::limits::ReadError::TooLarge(e)) => Err(crate::errors::range_error(
            &ctx,
            &format!("loadFile: {path}: {e}"),
        )),
        Err(_) => Ok(None),
    }
}

/// `ModuleDef` of `re2d/native/sys`.
pub struct SysNative;

const NAMES: [&str; 8] = [
    "exit", "getenv", "loadFile", "write", "flush", "sleep", "now", "cwd",
];

impl ModuleDef for SysNative {
    fn declare<'js>(decl: &Declarations<'js>) -> Result<()> {
        for n in NAMES {
            decl.declare(n)?;
        }
        Ok(())
    }

    fn evaluate<'js>(ctx: &Ctx<'js>, exports: &Exports<'js>) -> Result<()> {
        start();
        exports.export("exit", Function::new(ctx.clone(), exit)?)?;
        exports.export(
            "getenv",
            Function::new(ctx.clone(), |n: String| std::env::var(n).ok())?,
        )?;
        exports.export("loadFile", Function::new(ctx.clone(), load_file)?)?;
        exports.export("write", Function::new(ctx.clone(), write)?)?;
        exports.export("flush", Function::new(ctx.clone(), flush)?)?;
        exports.export("sleep", Function::new(ctx.clone(), sleep)?)?;
        exports.export(
            "now",
            Function::new(ctx.clone(), || start().elapsed().as_secs_f64() * 1000.0)?,
        )?;
        exports.export(
            "cwd",
            Function::new(ctx.clone(), || {
                std::env::current_dir()
                    .map(|d| d.to_string_lossy().into_owned())
                    .unwrap_or_default()
            })?,
        )?;
        Ok(())
    }
}
