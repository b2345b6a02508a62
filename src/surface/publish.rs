// re2d surface compiler — PNG encode/decode of atlases and atomic publish (spec: surface-compiler.md §2.4, §8).
//! [`encode_png`] writes 8-bit RGBA (colour type 6) with fixed encoder
//! settings and no colour chunks, so identical pixels give identical files.
//! [`publish`] implements the atomic replace of §8: temp file in the target
//! directory (exclusive create, `.<name>.<random>.png`), write, fsync, mode
//! (existing target's permission bits or 0o644), rename; on failure the temp
//! file is removed and the target is untouched.

use std::fs;
use std::io::Write;
use std::path::Path;

use super::error::{Code, CompileError};

/// Encode RGBA8 pixels as a PNG with fixed settings (deterministic bytes).
pub fn encode_png(rgba: &[u8], size: u32) -> Result<Vec<u8>, CompileError> {
    crate::png_io::encode_rgba(rgba, size, size)
        .map_err(|e| CompileError::new(Code::Io, "", format!("PNG encoding failed: {e}")))
}

/// Decoded 8-bit RGBA image.
#[derive(Clone, Debug, PartialEq)]
pub struct Rgba8 {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Pixels, stride `4·width`.
    pub rgba: Vec<u8>,
}

/// Decode an 8-bit RGBA PNG (the atlas format of §2.4) without any
/// conversion. Other colour types or depths are refused.
pub fn decode_rgba8(bytes: &[u8]) -> Result<Rgba8, String> {
    let mut dec =
        png::Decoder::new_with_limits(std::io::Cursor::new(bytes), png::Limits { bytes: 1 << 30 });
    dec.set_transformations(png::Transformations::IDENTITY);
    let mut r = dec
        .read_info()
        .map_err(|e| format!("not a readable PNG: {e}"))?;
    let (ct, bd) = (r.info().color_type, r.info().bit_depth);
    if ct != png::ColorType::Rgba || bd != png::BitDepth::Eight {
        return Err(format!("expected 8-bit RGBA, found {ct:?} {bd:?}"));
    }
    let mut buf = vec![0u8; r.output_buffer_size().ok_or("image too large")?];
    let info = r
        .next_frame(&mut buf)
        .map_err(|e| format!("PNG data error: {e}"))?;
    buf.truncate(info.buffer_size());
    Ok(Rgba8 {
        width: info.width,
        height: info.height,
        rgba: buf,
    })
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

/// Atomically replace `target` with `bytes` (§8).
pub fn publish(target: &Path, bytes: &[u8]) -> Result<(), CompileError> {
    let io = |what: &str, e: std::io::Error| {
        CompileError::new(
            Code::Io,
            target.display().to_string(),
            format!("{what}: {e}"),
        )
    };
    let name = target.file_name().ok_or_else(|| {
        CompileError::new(
            Code::Io,
            target.display().to_string(),
            "output path has no file name",
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
        let tmp = dir.join(format!(
            ".{}.{}.png",
            name.to_string_lossy(),
            random_suffix()
        ));
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
