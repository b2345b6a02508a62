// re2d — the one output-publishing path of every command (atomic replace, input clash check, signals, modes).
//! Every file a re2d command writes goes through [`publish`]:
//!
//! 1. **Symlinks are followed**: a target that is a symlink (or a chain of
//!    them, dangling or not) is resolved to the file it points to, and that
//!    file is what gets replaced; the link stays a link.
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
//!
//! A whole output folder goes through [`publish_dir`]: written into a
//! temporary sibling folder and renamed into place, all or nothing.
//!
//! Errors carry the exit code the CLI uses: 2 for a refused target (usage),
//! 3 for I/O.
//!
//! Test aid: `RE2D_TEST_PUBLISH_PAUSE_MS=N` sleeps N ms after the temporary
//! file is written (before the rename), so tests can deliver a signal
//! mid-publish.
//!
//! ```
//! use re2d::publish::publish;
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
    /// A folder target that may not be replaced (non-empty without
    /// `force`, not a folder, or holding an input).
    Refused {
        /// The output folder as given.
        target: PathBuf,
        /// Why.
        why: String,
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
            PublishError::Refused { target, why } => write!(f, "{}: {why}", target.display()),
            PublishError::Io { target, what, err } => {
                write!(f, "{}: {what}: {err}", target.display())
            }
        }
    }
}

impl std::error::Error for PublishError {}

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

    extern "C" fn on_signal(sig: libc::c_int) {
        for slot in &PATHS {
            let p = slot.swap(std::ptr::null_mut(), Ordering::SeqCst);
            if !p.is_null() {
                // SAFETY: `p` came from `CString::into_raw` and is never freed
                // once taken here; unlink is async-signal-safe.
                unsafe { libc::unlink(p) };
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

    /// Forgets a registered path.
    pub fn remove(i: usize) {
        let p = PATHS[i].swap(std::ptr::null_mut(), Ordering::SeqCst);
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
    pub fn remove(_: usize) {}
}

fn test_pause() {
    if let Some(ms) = std::env::var_os("RE2D_TEST_PUBLISH_PAUSE_MS")
        .and_then(|v| v.to_str().and_then(|s| s.parse::<u64>().ok()))
    {
        std::thread::sleep(std::time::Duration::from_millis(ms.min(60_000)));
    }
}

/// Atomically replace `target` with `bytes` (see the module docs: symlinks
/// followed, non-regular targets written through, special mode bits
/// dropped, temp file removed on error and on SIGINT/SIGTERM), refusing a
/// target that is one of `inputs`.
pub fn publish(target: &Path, bytes: &[u8], inputs: &[&Path]) -> Result<(), PublishError> {
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
            return write_through(&real, m, bytes).map_err(|e| io("cannot write", e));
        }
    }
    let name = real.file_name().ok_or_else(|| {
        io(
            "output path has no file name",
            std::io::Error::from(std::io::ErrorKind::InvalidInput),
        )
    })?;
    let dir = match real.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => Path::new(".").to_path_buf(),
    };
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
        file.write_all(bytes)?;
        file.flush()?;
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

/// Writes into an existing character device or FIFO (like `cp`); other
/// non-regular files are refused.
fn write_through(path: &Path, m: &fs::Metadata, bytes: &[u8]) -> std::io::Result<()> {
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
    let mut f = fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(path)?;
    f.write_all(bytes)?;
    f.flush()
}

/// Publishes a whole folder, all or nothing: `files` (plain names, no
/// separators) are written into a temporary sibling folder
/// (`.<name>.<random>.tmp`), each fsynced, and the folder is renamed into
/// place. An existing target must be an empty folder, or any folder with
/// `force` (then it is renamed aside, the new one renamed in, and the old
/// one removed); a target that is not a folder, or that holds one of
/// `inputs`, is refused (exit 2). On any failure the temporary folder is
/// removed and the target is untouched.
pub fn publish_dir(
    target: &Path,
    files: &[(String, Vec<u8>)],
    force: bool,
    inputs: &[&Path],
) -> Result<(), PublishError> {
    let refuse = |why: String| PublishError::Refused {
        target: target.to_path_buf(),
        why,
    };
    let io = |what: &'static str, err: std::io::Error| PublishError::Io {
        target: target.to_path_buf(),
        what,
        err,
    };
    for (n, _) in files {
        if n.is_empty() || n.contains('/') || n.contains('\\') || n == "." || n == ".." {
            return Err(refuse(format!("'{n}' is not a plain file name")));
        }
    }
    let exists = match fs::symlink_metadata(target) {
        Ok(m) => {
            if !m.is_dir() {
                return Err(refuse("the output exists and is not a folder".into()));
            }
            let non_empty = fs::read_dir(target)
                .map_err(|e| io("cannot read the output folder", e))?
                .next()
                .is_some();
            if non_empty && !force {
                return Err(refuse(
                    "the output folder is not empty (use --force to replace it)".into(),
                ));
            }
            if let Ok(t) = fs::canonicalize(target) {
                for i in inputs {
                    if let Ok(c) = fs::canonicalize(i)
                        && c.starts_with(&t)
                    {
                        return Err(refuse(format!(
                            "the output folder holds the input '{}'",
                            i.display()
                        )));
                    }
                }
            }
            true
        }
        Err(_) => false,
    };
    let name = target
        .file_name()
        .ok_or_else(|| refuse("the output path has no folder name".into()))?;
    let parent = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&parent).map_err(|e| io("cannot create the parent folder", e))?;
    let sibling = |tag: &str| {
        let mut n = std::ffi::OsString::from(".");
        n.push(name);
        n.push(format!(".{}.{tag}", random_suffix()));
        parent.join(n)
    };
    let tmp = sibling("tmp");
    fs::create_dir(&tmp).map_err(|e| io("cannot create a temporary folder", e))?;
    let written = (|| -> std::io::Result<()> {
        for (n, bytes) in files {
            let mut f = fs::File::create(tmp.join(n))?;
            f.write_all(bytes)?;
            f.sync_all()?;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&tmp, fs::Permissions::from_mode(0o755))?;
        }
        test_pause();
        Ok(())
    })();
    if let Err(e) = written {
        let _ = fs::remove_dir_all(&tmp);
        return Err(io("cannot write the output files", e));
    }
    if exists {
        let old = sibling("old");
        if let Err(e) = fs::rename(target, &old) {
            let _ = fs::remove_dir_all(&tmp);
            return Err(io("cannot move the old output folder aside", e));
        }
        if let Err(e) = fs::rename(&tmp, target) {
            let _ = fs::rename(&old, target);
            let _ = fs::remove_dir_all(&tmp);
            return Err(io("cannot rename the new output folder into place", e));
        }
        let _ = fs::remove_dir_all(&old);
    } else if let Err(e) = fs::rename(&tmp, target) {
        let _ = fs::remove_dir_all(&tmp);
        return Err(io("cannot rename the output folder into place", e));
    }
    if let Ok(d) = fs::File::open(&parent) {
        let _ = d.sync_all();
    }
    Ok(())
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
