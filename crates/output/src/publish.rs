// re2d — the one output-publishing path of every command (atomic replace, input clash check, signals, modes).
//! Every file a re2d command writes goes through [`publish`]:
//!
//! 1. **Symlinks are followed**: a target that is a symlink (or a chain of
//!    them, dangling or not) is resolved to the file it points to, and that
//!    file is what gets replaced; the link stays a link. Missing folders are
//!    created only for a path given directly, never for the destination of
//!    a link (an I/O error, exit 3, nothing created).
//! 2. **Clash check**: the resolved target is compared with every input of
//!    the command, by canonical path and by device + inode (so `./a.png`,
//!    `a.png`, a symlink and a hard link to it are all the same file). A
//!    clash is refused (exit code 2) before anything is written.
//! 3. **Non-regular targets are written through, like `cp`**: an existing
//!    character device or FIFO (`/dev/null`, `/dev/stdout`, a named pipe)
//!    is opened and written, never replaced. A directory, block device or
//!    socket target is refused (exit code 3); nothing is created.
//! 4. **Regular targets are replaced atomically**: the bytes go to a
//!    temporary file in the target's directory (exclusive create,
//!    `.<name>.<random>.tmp`), are fsynced, get the mode of the file they
//!    replace **without** setuid/setgid/sticky bits (a new file gets
//!    `0o644`, whatever the umask) and, when running as root, its owner; then
//!    the temporary file is renamed over the target and the directory is
//!    fsynced.
//! 5. **Clean up**: on any failure the temporary file is removed and the
//!    target is untouched; on SIGINT/SIGTERM (and SIGHUP) during a publish
//!    the temporary files in flight are removed by a signal handler before
//!    the process dies of that signal. The handler is only installed where
//!    the signal still has its default action.
//! 6. **Streams and folders**: [`publish_with`] streams a large output into
//!    the temporary file instead of holding it in memory; [`publish_dir`]
//!    publishes a whole folder at once (temporary sibling folder, one sync,
//!    rename; a non-empty target only with `force`).
//!
//! Errors carry the exit code the CLI uses: 2 for a refused target (usage),
//! 3 for I/O.
//!
//! Test aid: `RE2D_TEST_PUBLISH_PAUSE_MS=N` sleeps N ms after the temporary
//! file is written (before the rename), so tests can deliver a signal
//! mid-publish; `RE2D_TEST_PUBLISH_SWAPPED_PAUSE_MS=N` sleeps after a
//! forced [`publish_dir`] swapped the folders, before the old tree is removed.
//!
//! ```
//! use re2d_output::publish::publish;
//!
//! let dir = std::env::temp_dir().join(format!("re2d-doc-publish-{}", std::process::id()));
//! let input = dir.join("in.json");
//! std::fs::create_dir_all(&dir)?;
//! std::fs::write(&input, "{}")?;
//! publish(&dir.join("out/a.png"), b"bytes", &[&input])?; // creates out/, replaces atomically
//! assert_eq!(std::fs::read(dir.join("out/a.png"))?, b"bytes");
//! let clash = publish(&input, b"x", &[&input]).unwrap_err(); // never overwrites an input
//! assert_eq!(clash.exit_code(), 2);
//! assert_eq!(std::fs::read(&input)?, b"{}");
//! std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Why a file was not published.
#[derive(Debug)]
pub enum PublishError {
    /// The target is one of the command's inputs.
    Clash {
        /// The output path as given.
        target: PathBuf,
        /// The input it resolves to.
        input: PathBuf,
    },
    /// The target exists and may not be replaced (a non-empty folder
    /// without `force`).
    Refused {
        /// The output path as given.
        target: PathBuf,
        /// Why.
        what: &'static str,
    },
    /// An I/O step failed; the target is unchanged.
    Io {
        /// The output path as given.
        target: PathBuf,
        /// Which step failed.
        what: &'static str,
        /// The underlying error.
        err: std::io::Error,
    },
}

impl PublishError {
    /// The CLI exit code: 2 (refused target) or 3 (I/O).
    pub fn exit_code(&self) -> i32 {
        match self {
            PublishError::Clash { .. } | PublishError::Refused { .. } => 2,
            PublishError::Io { .. } => 3,
        }
    }
}

impl fmt::Display for PublishError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PublishError::Clash { target, input } => write!(
                f,
                "{}: refusing to overwrite the input '{}'",
                target.display(),
                input.display()
            ),
            PublishError::Refused { target, what } => write!(f, "{}: {what}", target.display()),
            PublishError::Io { target, what, err } => {
                write!(f, "{}: {what}: {err}", target.display())
            }
        }
    }
}

impl std::error::Error for PublishError {}

impl PublishError {
    /// The content error a [`publish_with`] writer returned inside an
    /// `io::Error` (`io::Error::other(e)`), if it is an `E`.
    pub fn content<E: std::error::Error + 'static>(&self) -> Option<&E> {
        match self {
            PublishError::Io { err, .. } => err.get_ref()?.downcast_ref::<E>(),
            PublishError::Clash { .. } | PublishError::Refused { .. } => None,
        }
    }
}

/// The file a path finally names: symlinks followed one by one (a dangling
/// link resolves to where it points). More than 40 hops is an error.
pub fn resolve_target(target: &Path) -> std::io::Result<PathBuf> {
    let mut p = target.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&p)?;
                p = if to.is_absolute() {
                    to
                } else {
                    p.parent().unwrap_or(Path::new("")).join(to)
                };
            }
            _ => return Ok(p),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

#[cfg(unix)]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(_: &fs::Metadata, _: &fs::Metadata) -> bool {
    false
}

/// Fails when `target` names the same file as one of `inputs` (canonical
/// path, or device + inode).
pub fn check_clash(target: &Path, inputs: &[&Path]) -> Result<(), PublishError> {
    let resolved = resolve_target(target).unwrap_or_else(|_| target.to_path_buf());
    let t_meta = fs::metadata(&resolved).ok();
    let t_canon = fs::canonicalize(&resolved).ok().or_else(|| {
        // not there yet: canonical directory + name
        let dir = resolved.parent().filter(|p| !p.as_os_str().is_empty());
        let dir = fs::canonicalize(dir.unwrap_or(Path::new("."))).ok()?;
        Some(dir.join(resolved.file_name()?))
    });
    for input in inputs {
        let same_path = t_canon
            .as_ref()
            .is_some_and(|t| fs::canonicalize(input).is_ok_and(|i| &i == t));
        let same_inode = t_meta
            .as_ref()
            .is_some_and(|t| fs::metadata(input).is_ok_and(|i| same_file(t, &i)));
        if same_path || same_inode {
            return Err(PublishError::Clash {
                target: target.to_path_buf(),
                input: input.to_path_buf(),
            });
        }
    }
    Ok(())
}

fn random_suffix() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    // splitmix64 of time, pid and a counter
    let mut z = t ^ ((std::process::id() as u64) << 32) ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    format!("{:016x}", z ^ (z >> 31))
}

/// Temporary files in flight, removed by the signal handler.
#[cfg(unix)]
mod inflight {
    use std::ffi::CString;
    use std::sync::Once;
    use std::sync::atomic::{AtomicPtr, Ordering};

    const SLOTS: usize = 16;
    static PATHS: [AtomicPtr<libc::c_char>; SLOTS] =
        [const { AtomicPtr::new(std::ptr::null_mut()) }; SLOTS];
    static INSTALL: Once = Once::new();

    /// Temporary folders in flight, removed with everything in them (also
    /// the old tree a forced publish swapped out, until it is gone).
    static DIRS: [AtomicPtr<libc::c_char>; SLOTS] =
        [const { AtomicPtr::new(std::ptr::null_mut()) }; SLOTS];

    /// Deepest folder nesting the signal handler removes (each level holds
    /// one 4 KiB buffer on the stack); anything deeper is left to the stale
    /// folder clean-up of a later run ([`super::remove_stale_dirs`]).
    #[cfg(target_os = "linux")]
    const MAX_DEPTH: usize = 64;

    /// Removes the tree under folder descriptor `fd` (files, then nested
    /// folders depth first) with raw system calls only (async-signal-safe:
    /// no allocation, no libc directory streams). Entries removed while
    /// reading are re-read from the start until a pass removes nothing.
    #[cfg(target_os = "linux")]
    unsafe fn remove_tree_at(fd: libc::c_int, depth: usize) {
        // SAFETY (whole body): `fd` is an open folder; the buffer is on the
        // stack and getdents64 fills at most its length; every record is read
        // inside the returned length.
        unsafe {
            loop {
                let mut removed = 0usize;
                libc::lseek(fd, 0, libc::SEEK_SET);
                let mut buf = [0u8; 4096];
                loop {
                    let n = libc::syscall(
                        libc::SYS_getdents64,
                        fd,
                        buf.as_mut_ptr(),
                        buf.len() as libc::c_uint,
                    );
                    if n <= 0 {
                        break;
                    }
                    let mut off = 0usize;
                    while off + 19 < n as usize {
                        let reclen = u16::from_ne_bytes([buf[off + 16], buf[off + 17]]) as usize;
                        if reclen == 0 {
                            break;
                        }
                        let kind = buf[off + 18];
                        let name = buf.as_ptr().add(off + 19) as *const libc::c_char;
                        let dot = *name == b'.' as libc::c_char;
                        let skip = dot
                            && (*name.add(1) == 0
                                || (*name.add(1) == b'.' as libc::c_char && *name.add(2) == 0));
                        if !skip {
                            if kind != libc::DT_DIR && libc::unlinkat(fd, name, 0) == 0 {
                                removed += 1;
                            } else if depth < MAX_DEPTH {
                                let sub = libc::openat(
                                    fd,
                                    name,
                                    libc::O_RDONLY
                                        | libc::O_DIRECTORY
                                        | libc::O_NOFOLLOW
                                        | libc::O_CLOEXEC,
                                );
                                if sub >= 0 {
                                    remove_tree_at(sub, depth + 1);
                                    libc::close(sub);
                                }
                                if libc::unlinkat(fd, name, libc::AT_REMOVEDIR) == 0 {
                                    removed += 1;
                                }
                            }
                        }
                        off += reclen;
                    }
                }
                if removed == 0 {
                    break;
                }
            }
        }
    }

    /// Removes folder `p` and everything in it (see [`remove_tree_at`]).
    #[cfg(target_os = "linux")]
    unsafe fn remove_dir_tree(p: *const libc::c_char) {
        // SAFETY: `p` is a valid C string; only raw system calls.
        unsafe {
            let fd = libc::open(
                p,
                libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
            );
            if fd >= 0 {
                remove_tree_at(fd, 0);
                libc::close(fd);
            }
            libc::rmdir(p);
        }
    }

    extern "C" fn on_signal(sig: libc::c_int) {
        for slot in &PATHS {
            let p = slot.swap(std::ptr::null_mut(), Ordering::SeqCst);
            if !p.is_null() {
                // SAFETY: `p` came from `CString::into_raw` and is never freed
                // once taken here; unlink is async-signal-safe.
                unsafe { libc::unlink(p) };
            }
        }
        #[cfg(target_os = "linux")]
        for slot in &DIRS {
            let p = slot.swap(std::ptr::null_mut(), Ordering::SeqCst);
            if !p.is_null() {
                // SAFETY: as above; only raw system calls.
                unsafe { remove_dir_tree(p) };
            }
        }
        // SAFETY: restoring the default action and re-raising are
        // async-signal-safe; the process then dies of `sig`.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }

    fn install() {
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: plain sigaction calls with zeroed, then filled structs;
            // the handler only uses async-signal-safe functions.
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(sig, std::ptr::null(), &mut old) != 0
                    || old.sa_sigaction != libc::SIG_DFL
                {
                    continue; // keep a handler (or ignore) the program chose
                }
                let mut sa: libc::sigaction = std::mem::zeroed();
                sa.sa_sigaction = on_signal as *const () as usize;
                libc::sigemptyset(&mut sa.sa_mask);
                libc::sigaction(sig, &sa, std::ptr::null_mut());
            }
        }
    }

    /// Registers a temp path; `None` when every slot is busy (the file is
    /// then only removed on ordinary errors).
    pub fn add(path: &std::path::Path) -> Option<usize> {
        INSTALL.call_once(install);
        use std::os::unix::ffi::OsStrExt;
        let c = CString::new(path.as_os_str().as_bytes()).ok()?.into_raw();
        for (i, slot) in PATHS.iter().enumerate() {
            if slot
                .compare_exchange(std::ptr::null_mut(), c, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return Some(i);
            }
        }
        // SAFETY: `c` was not stored anywhere.
        drop(unsafe { CString::from_raw(c) });
        None
    }

    /// Removes every temporary file in flight (a watchdog about to end the
    /// process calls it).
    pub fn remove_all() {
        for slot in &PATHS {
            let p = slot.swap(std::ptr::null_mut(), Ordering::SeqCst);
            if !p.is_null() {
                // SAFETY: taken from the slot (no one else sees it now);
                // `p` came from `CString::into_raw`.
                let c = unsafe { CString::from_raw(p) };
                // SAFETY: a valid NUL-terminated path.
                unsafe { libc::unlink(c.as_ptr()) };
            }
        }
    }

    /// Registers a temporary folder; its slot number is offset by `SLOTS`.
    pub fn add_dir(path: &std::path::Path) -> Option<usize> {
        INSTALL.call_once(install);
        use std::os::unix::ffi::OsStrExt;
        let c = CString::new(path.as_os_str().as_bytes()).ok()?.into_raw();
        for (i, slot) in DIRS.iter().enumerate() {
            if slot
                .compare_exchange(std::ptr::null_mut(), c, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return Some(SLOTS + i);
            }
        }
        // SAFETY: `c` was not stored anywhere.
        drop(unsafe { CString::from_raw(c) });
        None
    }

    /// Forgets a registered path (file or folder slot).
    pub fn remove(i: usize) {
        let slot = if i >= SLOTS {
            &DIRS[i - SLOTS]
        } else {
            &PATHS[i]
        };
        let p = slot.swap(std::ptr::null_mut(), Ordering::SeqCst);
        if !p.is_null() {
            // SAFETY: taken back from the slot, so the handler no longer sees it.
            drop(unsafe { CString::from_raw(p) });
        }
    }
}

#[cfg(not(unix))]
mod inflight {
    pub fn add(_: &std::path::Path) -> Option<usize> {
        None
    }
    pub fn add_dir(_: &std::path::Path) -> Option<usize> {
        None
    }
    pub fn remove(_: usize) {}
    pub fn remove_all() {}
}

/// Removes the temporary files of publishes in flight on other threads
/// (for a watchdog that ends the process; the targets stay untouched).
pub fn remove_in_flight() {
    inflight::remove_all();
}

/// The last component of `path` and the folder that holds it (`.` for a
/// bare name); `None` when the path has no last component (`/`, `..`).
fn name_and_dir(path: &Path) -> Option<(&std::ffi::OsStr, PathBuf)> {
    let name = path.file_name()?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Some((name, dir))
}

fn test_pause() {
    test_pause_var("RE2D_TEST_PUBLISH_PAUSE_MS");
}

fn test_pause_var(var: &str) {
    if let Some(ms) =
        std::env::var_os(var).and_then(|v| v.to_str().and_then(|s| s.parse::<u64>().ok()))
    {
        std::thread::sleep(std::time::Duration::from_millis(ms.min(60_000)));
    }
}

/// Atomically replace `target` with `bytes` (see the module docs: symlinks
/// followed, non-regular targets written through, special mode bits
/// dropped, temp file removed on error and on SIGINT/SIGTERM), refusing a
/// target that is one of `inputs`.
pub fn publish(target: &Path, bytes: &[u8], inputs: &[&Path]) -> Result<(), PublishError> {
    publish_with(target, inputs, |w| w.write_all(bytes))
}

/// [`publish`] for output that is produced while it is written: `write`
/// streams the bytes into the temporary file (through a buffer), so a large
/// output is never held in memory. When `write` fails the temporary file is
/// removed and the target is untouched; a content error can travel inside
/// the `io::Error` (e.g. `io::Error::other(issue)`) and is found again in
/// [`PublishError::Io`]'s `err` (see [`PublishError::content`]).
pub fn publish_with<F>(target: &Path, inputs: &[&Path], write: F) -> Result<(), PublishError>
where
    F: FnOnce(&mut dyn Write) -> std::io::Result<()>,
{
    check_clash(target, inputs)?;
    let io = |what: &'static str, err: std::io::Error| PublishError::Io {
        target: target.to_path_buf(),
        what,
        err,
    };
    let real = resolve_target(target).map_err(|e| io("cannot resolve the output path", e))?;
    let meta = fs::metadata(&real).ok();
    if let Some(m) = &meta {
        let ft = m.file_type();
        if ft.is_dir() {
            return Err(io(
                "output path is a directory",
                std::io::Error::from(std::io::ErrorKind::IsADirectory),
            ));
        }
        if !ft.is_file() {
            return write_through(&real, m, write).map_err(|e| io("cannot write", e));
        }
    }
    let (name, dir) = name_and_dir(&real).ok_or_else(|| {
        io(
            "output path has no file name",
            std::io::Error::from(std::io::ErrorKind::InvalidInput),
        )
    })?;
    if real != target && !dir.is_dir() {
        // a symlink whose destination folder is missing: never create
        // folders the link points into
        return Err(io(
            "the symbolic link points into a folder that does not exist",
            std::io::Error::from(std::io::ErrorKind::NotFound),
        ));
    }
    fs::create_dir_all(&dir).map_err(|e| io("cannot create the output directory", e))?;
    let mut attempt = 0;
    let (tmp, mut file, slot) = loop {
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(".{}.tmp", random_suffix()));
        let tmp = dir.join(tmp_name);
        let mut opts = fs::OpenOptions::new();
        opts.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            opts.mode(0o600);
        }
        // Registered before it exists, so a signal at any later point
        // removes it (unlinking a name not created yet is harmless).
        let slot = inflight::add(&tmp);
        match opts.open(&tmp) {
            Ok(f) => break (tmp, f, slot),
            Err(e) => {
                if let Some(i) = slot {
                    inflight::remove(i);
                }
                if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 16 {
                    attempt += 1;
                    continue;
                }
                return Err(io("cannot create a temporary file", e));
            }
        }
    };
    let result = (|| -> std::io::Result<()> {
        {
            let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut file);
            write(&mut w)?;
            w.flush()?;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::{MetadataExt, PermissionsExt};
            // the replaced file's permissions without setuid/setgid/sticky,
            // or 0o644 for a new file (explicit: the umask has no effect)
            let mode = meta.as_ref().map_or(0o644, |m| m.mode() & 0o777);
            file.set_permissions(fs::Permissions::from_mode(mode))?;
            // SAFETY: geteuid has no preconditions.
            if let Some(m) = &meta
                && unsafe { libc::geteuid() } == 0
            {
                let _ = std::os::unix::fs::fchown(&file, Some(m.uid()), Some(m.gid()));
            }
        }
        file.sync_all()?;
        drop(file);
        test_pause();
        fs::rename(&tmp, &real)?;
        // make the rename durable
        if let Ok(d) = fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        if let Some(i) = slot {
            inflight::remove(i);
        }
        return Err(io("publishing failed", e));
    }
    if let Some(i) = slot {
        inflight::remove(i);
    }
    Ok(())
}

/// Publishes a whole folder at once: `fill` writes every file into a fresh
/// temporary sibling folder (`.<name>.<random>.d<pid>.tmp`, mode 0o755; the
/// owner's pid lets a later run remove it after a SIGKILL, see
/// [`remove_stale_dirs`]), which is
/// then synced once (`syncfs`) and renamed into place; the parent folder is
/// synced after the rename. So a failing or interrupted run changes nothing
/// at `target`, and concurrent runs never mix their files.
///
/// - `target` missing or an empty folder: the temporary folder takes its place.
/// - `target` a non-empty folder: refused (exit code 2) unless `force`; with
///   `force` the two folders are exchanged atomically and the old one is
///   removed. A target that contains one of `inputs` is always refused.
/// - `target` anything but a folder (after following symlinks): refused (3).
///
/// On failure the temporary folder is removed (also on SIGINT/SIGTERM/SIGHUP
/// while it is registered, like the temporary files of [`publish`]; the
/// handler removes nested folders too). After a forced swap the old tree
/// stays registered until it is removed, so a signal then removes the rest
/// of it. Stale temporary folders of the same target whose owner process
/// is gone are removed first.
///
/// ```
/// use re2d_output::publish::publish_dir;
///
/// let dir = std::env::temp_dir().join(format!("re2d-doc-publish-dir-{}", std::process::id()));
/// let _ = std::fs::remove_dir_all(&dir);
/// publish_dir(&dir.join("out"), false, &[], |tmp| std::fs::write(tmp.join("a.txt"), "a"))?;
/// assert_eq!(std::fs::read(dir.join("out/a.txt"))?, b"a");
/// // a second run without force is refused and changes nothing
/// let e = publish_dir(&dir.join("out"), false, &[], |tmp| std::fs::write(tmp.join("b.txt"), "b"));
/// assert_eq!(e.unwrap_err().exit_code(), 2);
/// assert!(!dir.join("out/b.txt").exists());
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn publish_dir<F>(
    target: &Path,
    force: bool,
    inputs: &[&Path],
    fill: F,
) -> Result<(), PublishError>
where
    F: FnOnce(&Path) -> std::io::Result<()>,
{
    let io = |what: &'static str, err: std::io::Error| PublishError::Io {
        target: target.to_path_buf(),
        what,
        err,
    };
    let refused = |what: &'static str| PublishError::Refused {
        target: target.to_path_buf(),
        what,
    };
    let real = resolve_target(target).map_err(|e| io("cannot resolve the output path", e))?;
    let existing = match fs::metadata(&real) {
        Ok(m) if m.is_dir() => {
            let empty = fs::read_dir(&real)
                .map_err(|e| io("cannot read the output folder", e))?
                .next()
                .is_none();
            Some(empty)
        }
        Ok(_) => {
            return Err(io(
                "output path is not a folder",
                std::io::Error::from(std::io::ErrorKind::NotADirectory),
            ));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io("cannot inspect the output folder", e)),
    };
    if let Some(canon) = existing.and(fs::canonicalize(&real).ok()) {
        for input in inputs {
            if fs::canonicalize(input).is_ok_and(|i| i.starts_with(&canon)) {
                return Err(PublishError::Clash {
                    target: target.to_path_buf(),
                    input: input.to_path_buf(),
                });
            }
        }
    }
    if existing == Some(false) && !force {
        return Err(refused(
            "the output folder is not empty (use --force to replace it)",
        ));
    }
    let (name, parent) = name_and_dir(&real).ok_or_else(|| {
        io(
            "output path has no folder name",
            std::io::Error::from(std::io::ErrorKind::InvalidInput),
        )
    })?;
    fs::create_dir_all(&parent).map_err(|e| io("cannot create the parent folder", e))?;
    remove_stale_dirs(&parent, name);
    let mut attempt = 0;
    let (tmp, slot) = loop {
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(".{}.d{}.tmp", random_suffix(), std::process::id()));
        let tmp = parent.join(tmp_name);
        let slot = inflight::add_dir(&tmp);
        match fs::create_dir(&tmp) {
            Ok(()) => break (tmp, slot),
            Err(e) => {
                if let Some(i) = slot {
                    inflight::remove(i);
                }
                if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 16 {
                    attempt += 1;
                    continue;
                }
                return Err(io("cannot create a temporary folder", e));
            }
        }
    };
    let done = |slot: Option<usize>| {
        if let Some(i) = slot {
            inflight::remove(i);
        }
    };
    let filled = fill(&tmp).and_then(|()| {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&tmp, fs::Permissions::from_mode(0o755))?;
        }
        sync_tree(&tmp)?;
        test_pause();
        Ok(())
    });
    if let Err(e) = filled {
        let _ = fs::remove_dir_all(&tmp);
        done(slot);
        return Err(io("publishing the folder failed", e));
    }
    let placed = match existing {
        Some(false) => exchange(&tmp, &real).map(|()| true),
        _ => fs::rename(&tmp, &real).map(|()| false),
    };
    match placed {
        Ok(swapped) => {
            if let Ok(d) = fs::File::open(&parent) {
                let _ = d.sync_all();
            }
            if swapped {
                // `tmp` now holds the old folder: it stays registered (a
                // signal removes the rest of it) until it is gone
                test_pause_var("RE2D_TEST_PUBLISH_SWAPPED_PAUSE_MS");
                let _ = fs::remove_dir_all(&tmp);
            }
            done(slot);
            Ok(())
        }
        Err(e) => {
            let _ = fs::remove_dir_all(&tmp);
            done(slot);
            if matches!(e.raw_os_error(), Some(libc::ENOTEMPTY) | Some(libc::EEXIST)) {
                // another run published first
                return Err(refused(
                    "the output folder is not empty (use --force to replace it)",
                ));
            }
            Err(io("cannot move the folder into place", e))
        }
    }
}

/// Removes the temporary folders that earlier runs publishing `name` into
/// `parent` left behind when they were killed (SIGKILL, a power cut): a
/// folder `.<name>.<16 hex>.d<pid>.tmp` whose owner process `pid` no longer
/// exists. Folders of live owners (a concurrent run) and names of any other
/// shape are left alone; errors are ignored (the clean-up is best effort).
/// The pid is looked up in this process's pid namespace: a run in another
/// container publishing into the same shared folder at the same time may
/// look dead; it then fails at its rename (an I/O error, exit 3) and its
/// target stays untouched.
pub fn remove_stale_dirs(parent: &Path, name: &std::ffi::OsStr) {
    let Ok(list) = fs::read_dir(parent) else {
        return;
    };
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(name);
    prefix.push(".");
    let Some(prefix) = prefix.to_str().map(str::to_owned) else {
        return;
    };
    for e in list.flatten() {
        let file = e.file_name();
        let Some(f) = file.to_str() else { continue };
        let Some(mid) = f
            .strip_prefix(prefix.as_str())
            .and_then(|m| m.strip_suffix(".tmp"))
        else {
            continue;
        };
        let Some((hex, pid)) = mid.split_once(".d") else {
            continue;
        };
        if hex.len() != 16 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            continue;
        }
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        if pid == std::process::id() || !owner_is_gone(pid) {
            continue;
        }
        let path = e.path();
        if fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
            let _ = fs::remove_dir_all(&path);
        }
    }
}

/// Whether no process `pid` exists (`kill(pid, 0)` fails with `ESRCH`).
#[cfg(unix)]
fn owner_is_gone(pid: u32) -> bool {
    let Ok(p) = libc::pid_t::try_from(pid) else {
        return true;
    };
    if p <= 0 {
        return false;
    }
    // SAFETY: signal 0 only checks that the process exists.
    let r = unsafe { libc::kill(p, 0) };
    r != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH)
}

#[cfg(not(unix))]
fn owner_is_gone(_: u32) -> bool {
    false
}

/// One sync for a whole folder: `syncfs` on its file system (Linux), else
/// an fsync of every file.
fn sync_tree(dir: &Path) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let d = fs::File::open(dir)?;
        // SAFETY: a valid open descriptor.
        if unsafe { libc::syncfs(d.as_raw_fd()) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(())
    }
    #[cfg(not(target_os = "linux"))]
    {
        for e in fs::read_dir(dir)? {
            let e = e?;
            if e.file_type()?.is_file() {
                fs::File::open(e.path())?.sync_all()?;
            }
        }
        fs::File::open(dir)?.sync_all()
    }
}

/// Atomically exchanges two folders (`renameat2(RENAME_EXCHANGE)`), falling
/// back to moving `b` aside and `a` into place where unsupported.
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::ffi::OsStrExt;
        let ca = std::ffi::CString::new(a.as_os_str().as_bytes())?;
        let cb = std::ffi::CString::new(b.as_os_str().as_bytes())?;
        // SAFETY: two NUL-terminated paths relative to the working directory.
        let r = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                ca.as_ptr(),
                libc::AT_FDCWD,
                cb.as_ptr(),
                libc::RENAME_EXCHANGE,
            )
        };
        if r == 0 {
            return Ok(());
        }
        let e = std::io::Error::last_os_error();
        if !matches!(e.raw_os_error(), Some(libc::EINVAL) | Some(libc::ENOSYS)) {
            return Err(e);
        }
    }
    let mut aside = a.as_os_str().to_os_string();
    aside.push(".old");
    fs::rename(b, &aside)?;
    if let Err(e) = fs::rename(a, b) {
        let _ = fs::rename(&aside, b);
        return Err(e);
    }
    fs::rename(&aside, a)
}

/// Writes into an existing character device or FIFO (like `cp`); other
/// non-regular files are refused.
fn write_through<F>(path: &Path, m: &fs::Metadata, write: F) -> std::io::Result<()>
where
    F: FnOnce(&mut dyn Write) -> std::io::Result<()>,
{
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let ft = m.file_type();
        if !(ft.is_char_device() || ft.is_fifo()) {
            return Err(std::io::Error::other(
                "output path is neither a regular file, a character device nor a FIFO",
            ));
        }
    }
    #[cfg(not(unix))]
    let _ = m;
    let f = fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(path)?;
    let mut w = std::io::BufWriter::with_capacity(1 << 16, f);
    write(&mut w)?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("re2d-publish-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[cfg(unix)]
    #[test]
    fn symlink_is_followed_and_kept() {
        let d = tmp("link");
        fs::create_dir(d.join("real")).unwrap();
        fs::write(d.join("real/t.png"), b"old").unwrap();
        std::os::unix::fs::symlink("real/t.png", d.join("out.png")).unwrap();
        publish(&d.join("out.png"), b"new", &[]).unwrap();
        assert!(
            fs::symlink_metadata(d.join("out.png"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(d.join("real/t.png")).unwrap(), b"new");
        // a dangling link creates its destination
        std::os::unix::fs::symlink("real/new.png", d.join("dangling.png")).unwrap();
        publish(&d.join("dangling.png"), b"x", &[]).unwrap();
        assert_eq!(fs::read(d.join("real/new.png")).unwrap(), b"x");
        // ... but never the folders a dangling link points into
        std::os::unix::fs::symlink("gone/deeper/t.png", d.join("far.png")).unwrap();
        let e = publish(&d.join("far.png"), b"x", &[]).unwrap_err();
        assert_eq!(e.exit_code(), 3);
        assert!(!d.join("gone").exists());
        fs::remove_dir_all(&d).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn special_bits_are_dropped_and_hard_links_clash() {
        use std::os::unix::fs::PermissionsExt;
        let d = tmp("mode");
        let t = d.join("t.png");
        fs::write(&t, b"old").unwrap();
        fs::set_permissions(&t, fs::Permissions::from_mode(0o4755)).unwrap();
        publish(&t, b"new", &[]).unwrap();
        assert_eq!(
            fs::metadata(&t).unwrap().permissions().mode() & 0o7777,
            0o755
        );
        fs::hard_link(&t, d.join("h.png")).unwrap();
        let e = publish(&t, b"x", &[&d.join("h.png")]).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert_eq!(fs::read(&t).unwrap(), b"new");
        // a directory target is refused, nothing created inside
        let e = publish(&d, b"x", &[]).unwrap_err();
        assert_eq!(e.exit_code(), 3);
        assert_eq!(fs::read_dir(&d).unwrap().count(), 2);
        fs::remove_dir_all(&d).unwrap();
    }
}
