// re2d — the one output-publishing path of every command (atomic replace, input clash check).
//! Every file a re2d command writes goes through [`publish`]:
//!
//! 1. the target is compared with every input of the command (canonical
//!    paths, so `./a.png`, `a.png` and a symlink to it are the same file): a
//!    clash is refused before anything is written;
//! 2. the bytes go to a temporary file in the target's directory (exclusive
//!    create, `.<name>.<random>.tmp`), are flushed and fsynced, get the mode
//!    of the file they replace (or `0o644`), and are renamed over the target;
//! 3. on any failure the temporary file is removed and the target is
//!    untouched.
//!
//! Errors carry the exit code the CLI uses: 2 for a refused target (usage),
//! 3 for I/O.
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
            PublishError::Clash { .. } => 2,
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
            PublishError::Io { target, what, err } => {
                write!(f, "{}: {what}: {err}", target.display())
            }
        }
    }
}

impl std::error::Error for PublishError {}

/// Fails when `target` names the same file as one of `inputs`.
pub fn check_clash(target: &Path, inputs: &[&Path]) -> Result<(), PublishError> {
    let Ok(t) = fs::canonicalize(target) else {
        return Ok(()); // a target that does not exist yet cannot be an input
    };
    for input in inputs {
        if fs::canonicalize(input).is_ok_and(|i| i == t) {
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

/// Atomically replace `target` with `bytes`, refusing a target that is one
/// of `inputs`.
pub fn publish(target: &Path, bytes: &[u8], inputs: &[&Path]) -> Result<(), PublishError> {
    check_clash(target, inputs)?;
    let io = |what: &'static str, err: std::io::Error| PublishError::Io {
        target: target.to_path_buf(),
        what,
        err,
    };
    let name = target.file_name().ok_or_else(|| {
        io(
            "output path has no file name",
            std::io::Error::from(std::io::ErrorKind::InvalidInput),
        )
    })?;
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => Path::new(".").to_path_buf(),
    };
    fs::create_dir_all(&dir).map_err(|e| io("cannot create the output directory", e))?;
    #[cfg(unix)]
    let mode = {
        use std::os::unix::fs::PermissionsExt;
        match fs::metadata(target) {
            Ok(m) => m.permissions().mode() & 0o7777,
            Err(_) => 0o644,
        }
    };
    let mut attempt = 0;
    let (tmp, mut file) = loop {
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(".{}.tmp", random_suffix()));
        let tmp = dir.join(tmp_name);
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => break (tmp, f),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 16 => attempt += 1,
            Err(e) => return Err(io("cannot create a temporary file", e)),
        }
    };
    let result = (|| -> std::io::Result<()> {
        file.write_all(bytes)?;
        file.flush()?;
        file.sync_all()?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&tmp, fs::Permissions::from_mode(mode))?;
        }
        drop(file);
        fs::rename(&tmp, target)
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(io("publishing failed", e));
    }
    Ok(())
}
