// re2d — thread count of the C API's smooth renders (include/re2d.h).
//
//! The drop-in keeps the existing library's behaviour by default: one
//! thread. A program opts in with `re2d_set_render_threads(n)` or the
//! environment variable `RE2D_THREADS=n`, read once (at the first smooth
//! render or query) and only when no count was set before. `0` means one
//! thread per available core. The count only changes speed: frames are the
//! same bytes on any number of threads. The Rust API takes the count per
//! workspace instead ([`super::AnimeWorkspace::with_threads`]).

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use super::anime::MAX_THREADS;

/// 0 until resolved (from the environment or a set call), then 1..=MAX_THREADS.
static THREADS: AtomicUsize = AtomicUsize::new(0);

/// One thread per available core (at least 1, at most [`MAX_THREADS`]).
fn all_cores() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, MAX_THREADS)
}

/// `n` as a thread count: 1..=MAX_THREADS as is, 0 → all cores, else `None`.
fn count(n: i64) -> Option<usize> {
    match n {
        0 => Some(all_cores()),
        1.. if n as usize <= MAX_THREADS => Some(n as usize),
        _ => None,
    }
}

/// The thread count of `RE2D_THREADS` (a decimal count as for
/// [`set_render_threads`]); 1 when unset or invalid.
fn from_env() -> usize {
    std::env::var("RE2D_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<i64>().ok())
        .and_then(count)
        .unwrap_or(1)
}

/// The current thread count of C smooth renders (resolves `RE2D_THREADS`
/// the first time if no count was set).
pub fn render_threads() -> usize {
    match THREADS.load(Relaxed) {
        0 => {
            let env = from_env();
            // A concurrent set call wins over the environment.
            match THREADS.compare_exchange(0, env, Relaxed, Relaxed) {
                Ok(_) => env,
                Err(set) => set,
            }
        }
        n => n,
    }
}

/// Sets the thread count of later C smooth renders: 1..=[`MAX_THREADS`], or
/// 0 for one per available core. Returns false (count unchanged) otherwise.
pub fn set_render_threads(n: i64) -> bool {
    match count(n) {
        Some(c) => {
            THREADS.store(c, Relaxed);
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_accept_zero_to_max_only() {
        assert_eq!(count(1), Some(1));
        assert_eq!(count(MAX_THREADS as i64), Some(MAX_THREADS));
        assert_eq!(count(0), Some(all_cores()));
        assert_eq!(count(-1), None);
        assert_eq!(count(MAX_THREADS as i64 + 1), None);
        assert!((1..=MAX_THREADS).contains(&all_cores()));
    }
}
