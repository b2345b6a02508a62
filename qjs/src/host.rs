//! Running a script the way `re2d-qjs FILE.mjs [args…]` does (issue 3 §1):
//! evaluate FILE as an ES module with `print`, `console.log`, `scriptArgs`,
//! the built-in modules of [`super::modules`] and, unless the script brings
//! its own, the default CPU `engine` of [`super::engine`].
//!
//! Exit status: 0 on normal completion (pending jobs drained), 1 when the
//! module throws, its evaluation promise rejects, a job fails, a promise
//! rejection is still unhandled at the end, or FILE cannot be read (or is
//! over `json-max-bytes`, or holds a NUL byte); the error (message + stack)
//! goes to stderr. The QuickJS heap and stack are limited by
//! `Limits::qjs_memory_bytes` / `qjs_stack_bytes` (`--memory-limit`,
//! `--stack-size`): a script that exceeds them gets a catchable
//! `InternalError` (out of memory) or `RangeError` (stack overflow), not a
//! dead process.
//!
//! Stages of [`run`]:
//! 1. start a thread whose native stack is `qjs-stack` + [`QJS_STACK_MARGIN`]
//!    (QuickJS measures its stack limit from where the runtime is created,
//!    so any `qjs-stack` overflows into a `RangeError`, never into the guard
//!    page);
//! 2. on it, install the run's [`Guard`] (time limit, native memory share,
//!    `--root`), refuse a framebuffer that does not fit the memory limit
//!    (exit 1, one line), read the script, create the runtime with the
//!    interrupt handler and the rest of the memory limit as heap limit;
//! 3. evaluate the module, drain jobs, run timers;
//! 4. meanwhile the calling thread waits; with a time limit it is the
//!    watchdog: should the script thread still run [`WATCHDOG_GRACE`] after
//!    the deadline (stuck in native code that does not poll the interrupt
//!    handler, e.g. a blocking read), it removes in-flight publish
//!    temporaries and exits 1 with the same one line. The time limit is on
//!    by default (`qjs-time`, 300 s; `--time-limit 0` turns it off).
//!
//! A run stopped by the time limit prints only that one line and exits 1.

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::Duration;

use re2d::limits::{Limits, QJS_STACK_CEILING, QJS_STACK_MARGIN};

use rquickjs::{
    CatchResultExt, Context, Ctx, Function, Module, Object, Persistent, Runtime, Value,
    function::Rest,
};

use super::guard::{self, Guard, Lossy};
use super::modules::{HostLoader, HostResolver, normalize};

/// What to run and how.
#[derive(Clone, Debug)]
pub struct Options {
    /// The module file.
    pub file: PathBuf,
    /// `scriptArgs` after the file name.
    pub args: Vec<String>,
    /// Path aliases to built-in modules (`--no-builtins` turns them off).
    pub builtins: bool,
    /// Install the default engine (`--no-engine` turns it off).
    pub engine: bool,
    /// Default engine framebuffer size (`--size WxH`).
    pub size: (u32, u32),
    /// Confine file access to this folder (`--root DIR`; `None`: unconfined).
    pub root: Option<PathBuf>,
}

/// The least QuickJS heap the framebuffer must leave of the memory limit
/// (a runtime with its built-ins needs a few hundred KiB).
const HEAP_FLOOR: u64 = 1 << 20;

/// How long the watchdog waits past the deadline for a script stuck in
/// native code before it ends the process (issue 45: a run stops within a
/// second of its time limit, whatever it is doing).
pub const WATCHDOG_GRACE: Duration = Duration::from_millis(500);

/// Set by whoever prints the time-limit line first (the script thread or
/// the watchdog), so the line is printed once.
static TIME_REPORTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Prints the time-limit line unless it was printed already; straight to
/// fd 2 (a thread stuck in native code may hold the stdio locks).
fn report_time_limit(secs: u64) {
    if TIME_REPORTED.swap(true, std::sync::atomic::Ordering::SeqCst) {
        return;
    }
    let g = Guard::new(secs, 0, None);
    use std::io::Write;
    use std::os::fd::FromRawFd;
    // SAFETY: fd 2 is open for the process' life; ManuallyDrop keeps it
    // from being closed.
    #[allow(unsafe_code)]
    let mut err = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(2) });
    let _ = writeln!(err, "{}", g.time_message());
}

/// What the calling thread saw while it waited for the script thread.
#[derive(Debug, PartialEq, Eq)]
pub enum Waited {
    /// The script thread finished with this exit status.
    Done(i32),
    /// The script thread ended without a status (it panicked).
    Lost,
    /// The time limit plus [`WATCHDOG_GRACE`] passed first: the script is
    /// stuck in native code that does not poll the interrupt handler.
    Stuck,
}

/// The watchdog's wait: for the script's status, at most `limit` (the time
/// limit plus the grace; `None`: no time limit, wait for ever).
pub fn wait_for_script(rx: &std::sync::mpsc::Receiver<i32>, limit: Option<Duration>) -> Waited {
    use std::sync::mpsc::RecvTimeoutError;
    match limit {
        None => rx.recv().map_or(Waited::Lost, Waited::Done),
        Some(d) => match rx.recv_timeout(d) {
            Ok(s) => Waited::Done(s),
            Err(RecvTimeoutError::Timeout) => Waited::Stuck,
            Err(RecvTimeoutError::Disconnected) => Waited::Lost,
        },
    }
}

fn join_args(args: Rest<Lossy>) -> String {
    args.0
        .into_iter()
        .map(|c| c.0)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `setTimeout`/`clearTimeout` as the qjs CLI offers them: a queue run by the
/// host after the module and its jobs; timers fire in due-time order (then
/// creation order), after waiting until they are due. Returns the runner:
/// `runNext()` fires the next timer and tells whether one was pending.
const TIMERS: &str = r#"(function (sleep, now) {
    let seq = 0;
    const timers = new Map();
    globalThis.setTimeout = function setTimeout(fn, ms, ...args) {
        const id = ++seq;
        timers.set(id, { id, fn, args, at: now() + (Number(ms) > 0 ? Number(ms) : 0) });
        return id;
    };
    globalThis.clearTimeout = function clearTimeout(id) { timers.delete(id); };
    return function runNext() {
        let next = null;
        for (const t of timers.values()) if (!next || t.at < next.at) next = t;
        if (!next) return false;
        timers.delete(next.id);
        const wait = next.at - now();
        if (wait > 0) sleep(wait);
        if (typeof next.fn === 'function') next.fn(...next.args);
        return true;
    };
})"#;

fn install_timers<'js>(ctx: &Ctx<'js>) -> rquickjs::Result<Function<'js>> {
    let make: Function = ctx.eval(TIMERS)?;
    let start = std::time::Instant::now();
    let sleep = Function::new(ctx.clone(), |ctx: Ctx<'js>, ms: f64| guard::sleep(&ctx, ms))?;
    let now = Function::new(ctx.clone(), move || start.elapsed().as_secs_f64() * 1000.0)?;
    make.call((sleep, now))
}

/// One line on stdout for `print` / `console.log` / `engine.log`. A closed
/// or broken stdout (the script piped into `head`) loses the line instead of
/// panicking in the script thread.
pub(crate) fn out_line(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout().lock(), "{text}");
}

/// One line on stderr for `console.error` (a closed stderr loses it).
fn err_line(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

fn install_globals<'js>(ctx: &Ctx<'js>, opts: &Options) -> rquickjs::Result<()> {
    let g = ctx.globals();
    g.set(
        "print",
        Function::new(ctx.clone(), |a: Rest<Lossy>| out_line(&join_args(a)))?,
    )?;
    let console = Object::new(ctx.clone())?;
    console.set(
        "log",
        Function::new(ctx.clone(), |a: Rest<Lossy>| out_line(&join_args(a)))?,
    )?;
    console.set(
        "error",
        Function::new(ctx.clone(), |a: Rest<Lossy>| err_line(&join_args(a)))?,
    )?;
    g.set("console", console)?;
    let mut sa = vec![opts.file.to_string_lossy().into_owned()];
    sa.extend(opts.args.iter().cloned());
    g.set("scriptArgs", sa)?;
    if opts.engine {
        g.set(
            "engine",
            super::engine::create(ctx, opts.size.0, opts.size.1)?,
        )?;
    }
    Ok(())
}

/// Format a thrown JS value like `qjs`: `Name: message` then the stack.
/// Runs with half the stack margin added to the stack limit, so a stack
/// overflow (even at a tiny `qjs-stack`) can still be described.
fn describe<'js>(ctx: &Ctx<'js>, v: &Value<'js>) -> String {
    let stack = Limits::current().qjs_stack_bytes;
    guard::set_stack_limit(ctx, stack + QJS_STACK_MARGIN / 2);
    let text = describe_value(ctx, v);
    guard::set_stack_limit(ctx, stack);
    text
}

fn describe_value<'js>(ctx: &Ctx<'js>, v: &Value<'js>) -> String {
    let head = match v.get::<Lossy>() {
        Ok(s) => s.0,
        Err(_) => {
            let _ = ctx.catch();
            "<unprintable value>".to_string()
        }
    };
    let stack = v
        .as_object()
        .and_then(|o| o.get::<_, Option<Lossy>>("stack").ok().flatten())
        .map(|s| s.0);
    match stack {
        Some(s) if !s.is_empty() => format!("{head}\n{}", s.trim_end()),
        _ => head,
    }
}

fn report<'js>(ctx: &Ctx<'js>, err: rquickjs::CaughtError<'js>) {
    if guard::timed_out() {
        return; // the host prints the one time-limit line
    }
    let text = match err {
        rquickjs::CaughtError::Exception(e) => describe(ctx, &e.into_value()),
        rquickjs::CaughtError::Value(v) => describe(ctx, &v),
        rquickjs::CaughtError::Error(e) => e.to_string(),
    };
    eprintln!("{text}");
}

/// Run a script; returns the process exit status.
pub fn run(opts: &Options) -> i32 {
    let limits = Limits::current();
    let stack = limits.qjs_stack_bytes.min(QJS_STACK_CEILING) + QJS_STACK_MARGIN;
    let (tx, rx) = std::sync::mpsc::channel();
    let o = opts.clone();
    let spawned = std::thread::Builder::new()
        .name("re2d-qjs script".into())
        .stack_size(stack as usize)
        .spawn(move || {
            Limits::set_current(limits);
            let _ = tx.send(run_here(&o, limits));
        });
    let thread = match spawned {
        Ok(t) => t,
        Err(e) => {
            eprintln!("re2d-qjs: cannot start the script thread with a {stack}-byte stack: {e}");
            return 1;
        }
    };
    let limit = (limits.qjs_time_secs > 0)
        .then(|| Duration::from_secs(limits.qjs_time_secs) + WATCHDOG_GRACE);
    let status = match wait_for_script(&rx, limit) {
        Waited::Done(s) => s,
        Waited::Lost => 1,
        Waited::Stuck => {
            re2d_output::publish::remove_in_flight();
            report_time_limit(limits.qjs_time_secs);
            std::process::exit(1);
        }
    };
    let _ = thread.join();
    status
}

/// [`run`] on the current thread (the script thread).
fn run_here(opts: &Options, limits: Limits) -> i32 {
    let root = match &opts.root {
        Some(r) => match std::fs::canonicalize(r) {
            Ok(c) if c.is_dir() => Some(c),
            Ok(_) => {
                eprintln!("re2d-qjs: --root {}: not a folder", r.display());
                return 1;
            }
            Err(e) => {
                eprintln!("re2d-qjs: --root {}: {e}", r.display());
                return 1;
            }
        },
        None => None,
    };
    let g = Guard::new(limits.qjs_time_secs, limits.qjs_memory_bytes, root).install();
    let heap_limit = if opts.engine {
        let (w, h) = opts.size;
        let fb = super::raster::Framebuffer::bytes(w, h);
        match g.hold(fb).filter(|&rest| rest >= HEAP_FLOOR) {
            Some(rest) => rest,
            None => {
                eprintln!(
                    "re2d-qjs: --size {w}x{h}: the framebuffer needs {fb} bytes; with {HEAP_FLOOR} \
                     bytes for the QuickJS heap that is more than the memory limit of {} (limit \
                     qjs-memory, see --memory-limit)",
                    g.memory_limit()
                );
                return 1;
            }
        }
    } else {
        g.memory_limit()
    };
    let status = run_script(opts, heap_limit, &g);
    if g.timed_out() {
        report_time_limit(limits.qjs_time_secs);
        return 1;
    }
    status
}

fn run_script(opts: &Options, heap_limit: u64, g: &Rc<Guard>) -> i32 {
    let abs = std::path::absolute(&opts.file).unwrap_or_else(|_| opts.file.clone());
    let name = normalize(&abs).to_string_lossy().into_owned();
    let source = match re2d::limits::read_text_file(&opts.file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("re2d-qjs: {}: {e}", opts.file.display());
            return 1;
        }
    };
    guard::add_input(&opts.file);
    if let Some(at) = source.iter().position(|&b| b == 0) {
        eprintln!(
            "re2d-qjs: {}: the script contains a NUL byte at offset {at}",
            opts.file.display()
        );
        return 1;
    }
    let rt = match Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("re2d-qjs: {e}");
            return 1;
        }
    };
    let limits = Limits::current();
    rt.set_memory_limit(heap_limit.min(usize::MAX as u64) as usize);
    if g.deadline().is_some() {
        let g = g.clone();
        rt.set_interrupt_handler(Some(Box::new(move || g.deadline_passed())));
    }
    // (unhandled count, last unhandled reason)
    let rejections: Rc<RefCell<(i64, Option<String>)>> = Rc::new(RefCell::new((0, None)));
    let tracker = rejections.clone();
    rt.set_host_promise_rejection_tracker(Some(Box::new(
        move |ctx: Ctx<'_>, _promise: Value<'_>, reason: Value<'_>, handled: bool| {
            let mut t = tracker.borrow_mut();
            if handled {
                t.0 -= 1;
            } else {
                t.0 += 1;
                t.1 = Some(describe(&ctx, &reason));
            }
        },
    )));
    rt.set_loader(
        HostResolver {
            aliases: opts.builtins,
        },
        HostLoader,
    );
    let ctx = match Context::full(&rt) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("re2d-qjs: {e}");
            return 1;
        }
    };
    let mut timers: Option<Persistent<Function<'static>>> = None;
    let mut status = ctx.with(|ctx| {
        guard::set_stack_limit(&ctx, limits.qjs_stack_bytes);
        if let Err(e) = install_globals(&ctx, opts).catch(&ctx) {
            report(&ctx, e);
            return 1;
        }
        match install_timers(&ctx).catch(&ctx) {
            Ok(f) => timers = Some(Persistent::save(&ctx, f)),
            Err(e) => {
                report(&ctx, e);
                return 1;
            }
        }
        let evaluated = Module::declare(ctx.clone(), name.as_str(), source)
            .and_then(|m| m.eval())
            .catch(&ctx);
        let promise = match evaluated {
            Ok((_, p)) => p,
            Err(e) => {
                report(&ctx, e);
                return 1;
            }
        };
        match promise.finish::<()>().catch(&ctx) {
            Ok(()) => 0,
            Err(rquickjs::CaughtError::Error(rquickjs::Error::WouldBlock)) => 0,
            Err(e) => {
                report(&ctx, e);
                1
            }
        }
    });
    // Drain jobs, then fire timers one at a time (each may queue more jobs
    // or timers) until nothing is left; a failing job or timer sets status 1.
    loop {
        if g.timed_out() {
            return 1;
        }
        match rt.execute_pending_job() {
            Ok(true) => continue,
            Ok(false) => {}
            Err(job) => {
                if g.timed_out() {
                    return 1;
                }
                job.0.with(|ctx| {
                    let v = ctx.catch();
                    eprintln!("{}", describe(&ctx, &v));
                });
                status = 1;
                continue;
            }
        }
        let Some(t) = timers.clone() else { break };
        let fired = ctx.with(|ctx| {
            match t
                .restore(&ctx)
                .and_then(|f| f.call::<_, bool>(()))
                .catch(&ctx)
            {
                Ok(more) => more,
                Err(e) => {
                    report(&ctx, e);
                    status = 1;
                    true
                }
            }
        });
        if !fired {
            break;
        }
    }
    let (pending, reason) = rejections.borrow().clone();
    if status == 0 && pending > 0 {
        eprintln!(
            "Possibly unhandled promise rejection: {}",
            reason.unwrap_or_default()
        );
        status = 1;
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_watchdog_stops_a_stuck_script_within_a_second_of_its_limit() {
        assert!(
            WATCHDOG_GRACE < Duration::from_secs(1),
            "{WATCHDOG_GRACE:?}"
        );
        // a script thread that never answers (stuck in native code)
        let (tx, rx) = std::sync::mpsc::channel::<i32>();
        assert_eq!(
            wait_for_script(&rx, Some(Duration::from_millis(1))),
            Waited::Stuck
        );
        tx.send(3).unwrap();
        assert_eq!(wait_for_script(&rx, None), Waited::Done(3));
        drop(tx);
        assert_eq!(
            wait_for_script(&rx, Some(Duration::from_millis(1))),
            Waited::Lost
        );
    }
}
