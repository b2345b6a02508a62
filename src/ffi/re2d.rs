// re2d — the re2d-only C functions of include/re2d.h (not part of rotsprite_math.h).
//
//! `extern "C"` adapters of [`crate::rotsprite::threads`].

use std::ffi::c_int;

use super::guard;
use crate::rotsprite::threads;

/// Sets how many threads the smooth renders (`r2d_rotsprite_v2_anime*`) of
/// this process use from now on: 1 to `RE2D_MAX_RENDER_THREADS`, or 0 for
/// one per available core. Returns false and changes nothing for other
/// values. The default is 1, or the value of the environment variable
/// `RE2D_THREADS` (same meaning, read once at the first render or query,
/// ignored when invalid or when this function was called first). Output
/// bytes do not depend on the thread count.
#[unsafe(no_mangle)]
pub extern "C" fn re2d_set_render_threads(threads: c_int) -> bool {
    guard(false, || threads::set_render_threads(threads as i64))
}

/// The number of threads smooth renders use now (at least 1).
#[unsafe(no_mangle)]
pub extern "C" fn re2d_render_threads() -> c_int {
    guard(1, || threads::render_threads() as c_int)
}
