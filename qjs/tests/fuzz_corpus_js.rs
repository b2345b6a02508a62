// re2d-qjs tests — replay the committed `js` fuzz corpus through the fuzz driver (CI without cargo-fuzz still runs it).
//! `fuzz/corpus/js/*` → `re2d_qjs::fuzz::run`, the function the `js` fuzz target calls. A
//! panic here is a crash the fuzzer found (or would find).

use std::path::PathBuf;

#[test]
fn js() {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../fuzz/corpus/js"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "fuzz/corpus/js is empty");
    re2d_qjs::fuzz::init();
    for p in files {
        let data = std::fs::read(&p).unwrap();
        let r = std::panic::catch_unwind(|| re2d_qjs::fuzz::run(&data));
        assert!(r.is_ok(), "js: {} crashes", p.display());
    }
}
