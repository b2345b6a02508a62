// re2d tests — replay every committed fuzz corpus file through the fuzz entry points (CI without cargo-fuzz still runs them).
//! `fuzz/corpus/<target>/*` → `re2d_testkit::fuzz_entry::TARGETS[<target>]`. A
//! panic here is a crash the fuzzer found (or would find). The `js` target's
//! corpus is replayed by the QuickJS host crate (`qjs/tests/fuzz_corpus_js.rs`).

use std::path::PathBuf;

fn corpus(name: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(name);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

fn replay(name: &str) {
    let f = re2d_testkit::fuzz_entry::TARGETS
        .iter()
        .find(|t| t.0 == name)
        .unwrap_or_else(|| panic!("no entry point for {name}"))
        .1;
    let files = corpus(name);
    assert!(!files.is_empty(), "fuzz/corpus/{name} is empty");
    for p in files {
        let data = std::fs::read(&p).unwrap();
        let r = std::panic::catch_unwind(|| f(&data));
        assert!(r.is_ok(), "{name}: {} crashes", p.display());
    }
}

#[test]
fn every_target_has_a_corpus() {
    for (name, _) in re2d_testkit::fuzz_entry::TARGETS {
        assert!(!corpus(name).is_empty(), "{name}");
    }
    for name in re2d_testkit::fuzz_entry::JS_TARGETS {
        assert!(!corpus(name).is_empty(), "{name}");
    }
}

#[test]
fn atlas() {
    replay("atlas");
}

#[test]
fn v1() {
    replay("v1");
}

#[test]
fn png() {
    replay("png");
}

#[test]
fn surface() {
    replay("surface");
}

#[test]
fn model() {
    replay("model");
}

#[test]
fn rig_skeleton() {
    replay("rig_skeleton");
}

#[test]
fn edit_request() {
    replay("edit_request");
}

#[test]
fn rig_yaml() {
    replay("rig_yaml");
}

#[test]
fn jpeg() {
    replay("jpeg");
}

#[test]
fn rig_ora() {
    replay("rig_ora");
}

#[test]
fn rig_psd() {
    replay("rig_psd");
}

#[test]
fn build_file() {
    replay("build_file");
}

#[test]
fn bvh() {
    replay("bvh");
}
