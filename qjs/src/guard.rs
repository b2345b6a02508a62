//! Per-run guards of `re2d-qjs` (issue 20 items 1, 4, 6): the time limit
//! (`--time-limit`, `qjs-time`), the native-buffer share of the memory limit
//! (`--memory-limit`, `qjs-memory`), the `--root` confinement of file access
//! and the list of files the script was loaded from (inputs of the publish
//! path, so `savePNG` can never overwrite them).
//!
//! The host installs one [`Guard`] per run on the script thread; without one
//! (unit tests, the fuzz driver) every check passes and nothing is confined.
//!
//! - **Time**: [`deadline_passed`] is the QuickJS interrupt handler (polled
//!   by the interpreter and the regexp engine); [`sleep`] never sleeps past
//!   the deadline and then throws the same uncatchable error. Once the
//!   deadline has passed [`timed_out`] is true and the host reports one line.
//! - **Memory**: the framebuffer and `loadTexture` textures are *held*
//!   native memory (the QuickJS heap limit is the memory limit minus them,
//!   [`hold_native`]); [`check_native`] refuses a buffer (a PNG encode or
//!   decode) that does not fit beside the heap in use and the held buffers,
//!   before it is allocated.
//!   A native file read ([`read_counted`]) is counted the same way before
//!   its buffer is allocated.
//! - **Root**: [`confine_read`] / [`confine_write`] resolve symlinks and
//!   refuse a path outside the root (an `Error` naming `--root`), with one
//!   answer for every path outside it, existing or not.

use std::cell::{Cell, RefCell};
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

use rquickjs::{Ctx, Exception, Result};

/// The limits of one run.
#[derive(Debug)]
pub struct Guard {
    deadline: Option<Instant>,
    time_secs: u64,
    timed_out: Cell<bool>,
    memory_limit: u64,
    held: Cell<u64>,
    root: Option<PathBuf>,
    inputs: RefCell<Vec<PathBuf>>,
}

thread_local! {
    static CURRENT: RefCell<Option<Rc<Guard>>> = const { RefCell::new(None) };
}

impl Guard {
    /// A guard: `time_secs` (0 = none) counted from now, `memory_limit`
    /// bytes shared by the QuickJS heap and native buffers, `root` an
    /// already canonical folder.
    pub fn new(time_secs: u64, memory_limit: u64, root: Option<PathBuf>) -> Guard {
        Guard {
            deadline: (time_secs > 0).then(|| Instant::now() + Duration::from_secs(time_secs)),
            time_secs,
            timed_out: Cell::new(false),
            memory_limit,
            held: Cell::new(0),
            root,
            inputs: RefCell::new(Vec::new()),
        }
    }

    /// Makes this the guard of the current thread.
    pub fn install(self) -> Rc<Guard> {
        let g = Rc::new(self);
        CURRENT.with(|c| *c.borrow_mut() = Some(g.clone()));
        g
    }

    /// The one-line message of a run stopped by the time limit.
    pub fn time_message(&self) -> String {
        format!(
            "re2d-qjs: the script ran longer than {} s (limit qjs-time, see --time-limit/--limit)",
            self.time_secs
        )
    }

    /// True once the deadline has passed (and remembers it).
    pub fn deadline_passed(&self) -> bool {
        if self.timed_out.get() {
            return true;
        }
        let late = self.deadline.is_some_and(|d| Instant::now() >= d);
        if late {
            self.timed_out.set(true);
        }
        late
    }

    /// True when the run was stopped by the time limit.
    pub fn timed_out(&self) -> bool {
        self.timed_out.get()
    }

    /// The deadline, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Records `bytes` of long-lived native memory (the framebuffer);
    /// returns what is left of the memory limit for the QuickJS heap, or
    /// `None` when they do not fit.
    pub fn hold(&self, bytes: u64) -> Option<u64> {
        let held = self.held.get().checked_add(bytes)?;
        if held > self.memory_limit {
            return None;
        }
        self.held.set(held);
        Some(self.memory_limit - held)
    }

    /// The memory limit (bytes).
    pub fn memory_limit(&self) -> u64 {
        self.memory_limit
    }
}

fn with<R>(f: impl FnOnce(&Guard) -> R) -> Option<R> {
    CURRENT.with(|c| c.borrow().as_ref().map(|g| f(g)))
}

/// The interrupt test: has the current run's deadline passed?
pub fn deadline_passed() -> bool {
    with(Guard::deadline_passed).unwrap_or(false)
}

/// Did the current run hit its time limit?
pub fn timed_out() -> bool {
    with(Guard::timed_out).unwrap_or(false)
}

/// Throws the uncatchable error the interpreter throws when its interrupt
/// handler says stop (`try`/`catch` cannot keep the script running).
pub fn throw_interrupted(ctx: &Ctx<'_>) -> rquickjs::Error {
    let Ok(e) = Exception::from_message(ctx.clone(), "interrupted (time limit)") else {
        return rquickjs::Error::Exception;
    };
    let v = e.into_value();
    // SAFETY: `ctx` is a live context and `v` a live object of it; the call
    // only sets a flag on the object.
    #[allow(unsafe_code)]
    unsafe {
        rquickjs::qjs::JS_SetUncatchableError(ctx.as_raw().as_ptr(), v.as_raw());
    }
    ctx.throw(v)
}

/// Sleeps `ms` milliseconds (non-finite or ≤ 0: not at all; at most a
/// day), never past the deadline: when the deadline comes first, sleeps
/// until it and throws the uncatchable time-limit error.
pub fn sleep(ctx: &Ctx<'_>, ms: f64) -> Result<()> {
    if !(ms.is_finite() && ms > 0.0) {
        return Ok(());
    }
    let want = Duration::from_secs_f64(ms.min(86_400_000.0) / 1000.0);
    let deadline = with(Guard::deadline).flatten();
    match deadline {
        Some(d) if Instant::now() + want >= d => {
            std::thread::sleep(d.saturating_duration_since(Instant::now()));
            deadline_passed();
            Err(throw_interrupted(ctx))
        }
        _ => {
            std::thread::sleep(want);
            Ok(())
        }
    }
}

/// The bytes the QuickJS heap of `ctx`'s runtime has allocated.
fn heap_in_use(ctx: &Ctx<'_>) -> u64 {
    // SAFETY: `JS_ComputeMemoryUsage` only reads the runtime's own
    // bookkeeping into the zeroed struct we pass; the runtime is live while
    // `ctx` is.
    #[allow(unsafe_code)]
    unsafe {
        let rt = rquickjs::qjs::JS_GetRuntime(ctx.as_raw().as_ptr());
        let mut u: rquickjs::qjs::JSMemoryUsage = std::mem::zeroed();
        rquickjs::qjs::JS_ComputeMemoryUsage(rt, &mut u);
        u.malloc_size.max(0) as u64
    }
}

/// Refuses (a `RangeError` naming `qjs-memory`) a transient native buffer
/// of `need` bytes that does not fit in the memory limit beside the heap in
/// use and the held native buffers. Call before allocating.
pub fn check_native(ctx: &Ctx<'_>, need: u64, what: &str) -> Result<()> {
    let Some((limit, held)) = with(|g| (g.memory_limit, g.held.get())) else {
        return Ok(());
    };
    let heap = heap_in_use(ctx);
    let total = heap.saturating_add(held).saturating_add(need);
    if total > limit {
        return Err(crate::errors::range_error(
            ctx,
            &format!(
                "{what}: needs up to {need} bytes of native buffers beside {heap} bytes of heap \
                 and {held} bytes held, more than {limit} (limit qjs-memory, see --memory-limit)"
            ),
        ));
    }
    Ok(())
}

/// What is left of the memory limit for transient native buffers beside
/// the heap in use, the held buffers and `pending` bytes the caller already
/// holds; `None` without a guard (no limit).
pub fn native_room(ctx: &Ctx<'_>, pending: u64) -> Option<u64> {
    let (limit, held) = with(|g| (g.memory_limit, g.held.get()))?;
    let used = heap_in_use(ctx)
        .saturating_add(held)
        .saturating_add(pending);
    Some(limit.saturating_sub(used))
}

/// Reads a whole file into a native buffer, counted against `qjs-memory`
/// **before** it is allocated (issue 45): a file whose size does not fit
/// beside the heap, the held buffers and the caller's `pending` bytes is a
/// `RangeError` naming `qjs-memory` (the outer `Err`, already thrown), and
/// a file that does not tell its size (a pipe, `/dev/zero`) is read only up
/// to that room. Otherwise the plain [`re2d::limits::read_file`] result
/// with `max` / `limit` (the inner `Result`).
pub fn read_counted(
    ctx: &Ctx<'_>,
    path: &Path,
    max: u64,
    limit: &'static str,
    pending: u64,
    what: &str,
) -> Result<std::result::Result<Vec<u8>, re2d::limits::ReadError>> {
    use re2d::limits::{ReadError, read_file};
    let Some(room) = native_room(ctx, pending) else {
        return Ok(read_file(path, max, limit));
    };
    let refuse = |size: String| {
        crate::errors::range_error(
            ctx,
            &format!(
                "{what}: {}: {size} bytes to read into native memory, more than the {room} bytes \
                 left of the memory limit beside the heap and the buffers held (limit qjs-memory, \
                 see --memory-limit)",
                path.display()
            ),
        )
    };
    if let Ok(m) = std::fs::metadata(path)
        && m.is_file()
        && m.len() > room
        && m.len() <= max
    {
        return Err(refuse(m.len().to_string()));
    }
    if room < max {
        return match read_file(path, room, limit) {
            Err(ReadError::TooLarge(_)) => Err(refuse(format!("more than {room}"))),
            r => Ok(r),
        };
    }
    Ok(read_file(path, max, limit))
}

/// Counts a PNG file a native call is about to read and decode (`what`)
/// against `qjs-memory` before anything is read: the file plus twice its
/// RGBA8 image from the header (the decode buffer and its copy). A file
/// without a readable header, or over a PNG limit, is left to the decoder's
/// own error.
pub fn check_png_file(ctx: &Ctx<'_>, path: &Path, what: &str) -> Result<()> {
    use std::io::Read;
    let Ok(mut f) = std::fs::File::open(path) else {
        return Ok(());
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let mut head = [0u8; 24];
    if f.read_exact(&mut head).is_err() {
        return Ok(());
    }
    let image = match re2d::png_io::header_size(&head) {
        Some((w, h)) if re2d::limits::Limits::current().check_image(w, h, 4).is_ok() => {
            2 * w as u64 * h as u64 * 4
        }
        _ => 0,
    };
    check_native(ctx, len.saturating_add(image), what)
}

/// Records `bytes` of native memory kept for the rest of the run (a
/// texture) after [`check_native`] allowed it: the QuickJS heap limit
/// shrinks by as much.
pub fn hold_native(ctx: &Ctx<'_>, bytes: u64) {
    let Some(rest) = with(|g| {
        let held = g.held.get().saturating_add(bytes);
        g.held.set(held);
        g.memory_limit.saturating_sub(held).max(1)
    }) else {
        return;
    };
    // SAFETY: a live runtime; the call only stores the new limit.
    #[allow(unsafe_code)]
    unsafe {
        let rt = rquickjs::qjs::JS_GetRuntime(ctx.as_raw().as_ptr());
        rquickjs::qjs::JS_SetMemoryLimit(rt, rest.min(usize::MAX as u64) as _);
    }
}

/// Records a file the script was loaded from (an input of the publish path).
pub fn add_input(path: &Path) {
    with(|g| g.inputs.borrow_mut().push(path.to_path_buf()));
}

/// The files the script was loaded from.
pub fn inputs() -> Vec<PathBuf> {
    with(|g| g.inputs.borrow().clone()).unwrap_or_default()
}

fn root() -> Option<PathBuf> {
    with(|g| g.root.clone()).flatten()
}

fn outside(path: &Path, root: &Path) -> String {
    format!(
        "{}: outside the --root folder '{}'",
        path.display(),
        root.display()
    )
}

/// The path to read for `path`: unchanged without `--root`; with it, the
/// canonical path (symlinks resolved), which must lie inside the root.
///
/// **One answer outside the root** (issue 45): every path that does not
/// resolve inside the root gets the same "outside the --root folder" error,
/// whether it exists or not, is a folder, a dangling link or unreadable — so
/// a script cannot learn whether a path outside the root exists. A path
/// that does not resolve is placed by where it would: its deepest existing
/// ancestor (canonical, dangling links followed to their targets) must lie
/// in the root and the missing rest be plain names; only then is the read
/// error ("No such file") reported.
pub fn confine_read(path: &Path) -> std::result::Result<PathBuf, String> {
    let Some(root) = root() else {
        return Ok(path.to_path_buf());
    };
    match std::fs::canonicalize(path) {
        Ok(canon) if canon.starts_with(&root) => Ok(canon),
        Ok(_) => Err(outside(path, &root)),
        Err(e) => match resolve_partial(path, MAX_LINK_HOPS) {
            Some((base, _)) if base.starts_with(&root) => {
                Err(format!("{}: cannot read: {e}", path.display()))
            }
            _ => Err(outside(path, &root)),
        },
    }
}

/// Links followed by [`resolve_partial`] (as the kernel's `ELOOP` bound).
const MAX_LINK_HOPS: u32 = 40;

/// Where a path that does not resolve would lie: the canonical form of its
/// deepest existing ancestor and the plain names after it. A dangling
/// symbolic link on the way is followed to its target (at most `hops`
/// times). `None` when it cannot be placed (a `..` after a missing name,
/// a link loop): the callers treat that as outside the root.
fn resolve_partial(path: &Path, hops: u32) -> Option<(PathBuf, Vec<std::ffi::OsString>)> {
    let abs = std::path::absolute(path).ok()?;
    let mut existing = abs.as_path();
    let mut rest: Vec<std::ffi::OsString> = Vec::new(); // innermost last, reversed below
    loop {
        if let Ok(c) = std::fs::canonicalize(existing) {
            rest.reverse();
            return Some((c, rest));
        }
        let is_link = std::fs::symlink_metadata(existing).is_ok_and(|m| m.file_type().is_symlink());
        if is_link {
            let target = std::fs::read_link(existing).ok()?;
            let mut next = existing.parent()?.join(target);
            for n in rest.iter().rev() {
                next.push(n);
            }
            return resolve_partial(&next, hops.checked_sub(1)?);
        }
        match (existing.parent(), existing.file_name()) {
            (Some(p), Some(n)) => {
                rest.push(n.to_os_string());
                existing = p;
            }
            _ => return None,
        }
    }
}

/// Refuses a write to `path` outside `--root`: the symlinks of the target
/// are followed as the publish path follows them, then the deepest existing
/// folder is resolved; the missing rest may not contain `..`.
pub fn confine_write(path: &Path) -> std::result::Result<(), String> {
    let Some(root) = root() else {
        return Ok(());
    };
    let target = re2d_output::publish::resolve_target(path)
        .map_err(|e| format!("{}: cannot resolve: {e}", path.display()))?;
    let target = std::path::absolute(&target).unwrap_or(target);
    let mut existing = target.as_path();
    let mut rest = Vec::new();
    let base = loop {
        if let Ok(c) = std::fs::canonicalize(existing) {
            break c;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(p), Some(n)) => {
                rest.push(n.to_os_string());
                existing = p;
            }
            _ => return Err(outside(path, &root)),
        }
    };
    let inside = base.starts_with(&root)
        && rest
            .iter()
            .all(|n| matches!(Path::new(n).components().next(), Some(Component::Normal(_))));
    if inside {
        Ok(())
    } else {
        Err(outside(path, &root))
    }
}

/// A JS value converted to text as `String(v)` does, with each lone
/// surrogate replaced by U+FFFD (`toWellFormed`) instead of failing: what
/// `print`, `console.*`, `std.out.puts` and `engine.log` write.
pub struct Lossy(pub String);

impl<'js> rquickjs::FromJs<'js> for Lossy {
    fn from_js(ctx: &Ctx<'js>, v: rquickjs::Value<'js>) -> Result<Self> {
        let s = rquickjs::convert::Coerced::<rquickjs::String<'js>>::from_js(ctx, v)?.0;
        if let Ok(t) = s.to_string() {
            return Ok(Lossy(t));
        }
        let well_formed: rquickjs::Function = ctx
            .globals()
            .get::<_, rquickjs::Object>("String")?
            .get::<_, rquickjs::Object>("prototype")?
            .get("toWellFormed")?;
        let fixed: rquickjs::String = well_formed.call((rquickjs::function::This(s),))?;
        Ok(Lossy(fixed.to_string()?))
    }
}

/// Sets the QuickJS stack limit of `ctx`'s runtime to `bytes` below the
/// point where the runtime was created. rquickjs' own setter turns values
/// over 16 MiB into "no check"; the script thread's native stack is always
/// `qjs-stack` + [`re2d::limits::QJS_STACK_MARGIN`], so any `bytes` up to
/// `qjs-stack` + half the margin is safe here.
pub fn set_stack_limit(ctx: &Ctx<'_>, bytes: u64) {
    let max = re2d::limits::QJS_STACK_CEILING + re2d::limits::QJS_STACK_MARGIN / 2;
    let bytes = bytes.min(max) as usize;
    // SAFETY: a live runtime; QuickJS computes `stack_top - bytes`, and the
    // thread's stack (below `stack_top`) is larger than `bytes`.
    #[allow(unsafe_code)]
    unsafe {
        let rt = rquickjs::qjs::JS_GetRuntime(ctx.as_raw().as_ptr());
        rquickjs::qjs::JS_SetMaxStackSize(rt, bytes as _);
    }
}
