// re2d tests — shared helpers: FNV-1a 64 digests, point builders, working folders.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use re2d::rotsprite::{CBool, R2DRotPoint};

/// An empty working folder `name` in Cargo's `target/tmp/` (removed and made again, so no
/// file of an earlier run is seen). One name per test: tests run in parallel.
pub fn fresh_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs the program `bin` with `args`: its exit code (-1 when a signal ended it), stdout and
/// stderr as text.
pub fn run(bin: &str, args: &[&str]) -> (i32, String, String) {
    let o = std::process::Command::new(bin).args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// FNV-1a 64 over bytes, as 16 lowercase hex digits (spec conventions).
pub fn fnv(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf29ce484222325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    format!("{h:016x}")
}

/// FNV-1a 64 over little-endian float bytes.
pub fn fnv_f32(v: &[f32]) -> String {
    let b: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    fnv(&b)
}

/// Pixels with non-zero alpha.
pub fn opaque(rgba: &[u8]) -> usize {
    rgba.chunks(4).filter(|c| c[3] != 0).count()
}

/// A point with the given part, position and colour; every other field zero.
pub fn pt(part: u8, x: f32, y: f32, z: f32, rgba: [u8; 4]) -> R2DRotPoint {
    let mut p = R2DRotPoint::ZERO;
    p.part = part;
    p.x = x;
    p.y = y;
    p.z = z;
    p.rgba = rgba;
    p
}

/// Marks a point as a patch with the given edge vectors.
pub fn patch(mut p: R2DRotPoint, du: [f32; 3], dv: [f32; 3], duv: [f32; 3]) -> R2DRotPoint {
    p.patch = CBool::new(true);
    p.du = du;
    p.dv = dv;
    p.duv = duv;
    p
}
