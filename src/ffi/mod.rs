//! The C ABI: thin `extern "C"` adapters over the safe core.
//!
//! Each exported function checks its pointers, builds slices, calls the
//! core and writes its outputs. Nothing here computes pixels. Every body runs
//! inside [`guard`], so no panic crosses the boundary (c-abi.md §7 rule 1).
//!
//! `rotsprite.rs` is exactly the interface of `include/rotsprite_math.h`;
//! `re2d.rs` the re2d-only additions of `include/re2d.h`; `miri.rs` drives
//! them from Rust in tests small enough for Miri.

use std::panic::{AssertUnwindSafe, catch_unwind};

mod re2d;
mod rotsprite;

#[cfg(test)]
mod miri;

/// Runs `f`, turning a panic into `fallback` (false for `bool` functions,
/// `()` for `void` ones).
#[inline]
fn guard<R>(fallback: R, f: impl FnOnce() -> R) -> R {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(fallback)
}
