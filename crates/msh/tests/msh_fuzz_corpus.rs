// re2d fuzz corpus replay: every committed input of fuzz/corpus/<target>/ goes through the same invariants as the cargo-fuzz targets (spec: msh.md §9.6).

use std::path::Path;

use re2d_msh::invariants;

fn replay(target: &str, f: fn(&[u8])) -> usize {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("fuzz/corpus")
        .join(target);
    let mut n = 0;
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e} (the minimised corpus must be committed)",
                dir.display()
            )
        })
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for p in files {
        let data = std::fs::read(&p).unwrap();
        let r = std::panic::catch_unwind(|| f(&data));
        assert!(r.is_ok(), "{target}: {} breaks an invariant", p.display());
        n += 1;
    }
    assert!(n > 0, "{target}: empty corpus");
    n
}

#[test]
fn nres_decode_corpus() {
    replay("nres_decode", invariants::nres_decode);
}

#[test]
fn msh_decode_tolerant_corpus() {
    replay("msh_decode_tolerant", invariants::msh_decode_tolerant);
}

#[test]
fn msh_decode_strict_corpus() {
    replay("msh_decode_strict", invariants::msh_decode_strict);
}

#[test]
fn anim_sample_corpus() {
    replay("anim_sample", invariants::anim_sample);
}

#[test]
fn export_obj_corpus() {
    replay("export_obj", invariants::export_obj);
}

#[test]
fn replay_detects_a_broken_invariant() {
    // negative control: an invariant that fails on some corpus input must fail the replay
    let r = std::panic::catch_unwind(|| {
        replay("nres_decode", |d| assert!(d.len() < 64, "long input"));
    });
    assert!(r.is_err());
}
