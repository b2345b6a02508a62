//! The `.riv` structural reader and checker (rive-export.md §10.1) never
//! panic on arbitrary bytes. The same inputs are replayed by
//! `tests/riv.rs` (`fuzz_corpus_replays`) from `fuzz/corpus/riv_read/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let limits = re2d::limits::Limits::DEFAULT;
    let report = re2d_riv::check::check_bytes(data, &limits);
    // a clean report implies the reader accepted the bytes
    if report.ok() {
        assert!(re2d_riv::read::read(data).is_ok());
    }
    let _ = re2d_riv::read::triangle_indices(data);
});
