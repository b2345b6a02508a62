// re2d optional real-corpus test: RE2D_MSH_CORPUS=DIR runs the round-trip checks of msh.md §9 (items 1–3) on every file under DIR; without it the test prints "skipped: no corpus". The same checks also run on a generated directory so the code path is exercised.

#[path = "../../../tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};

use re2d::limits::Limits;
use re2d_msh::nres::{self, Profile};
use re2d_msh::{self as msh, synth};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Lossless identity, canonical round trip and stability for every NRes
/// archive under `dir`, strict ⇒ tolerant for every model; returns
/// (files, archives, models, strictly valid models).
fn check_corpus(dir: &Path) -> (usize, usize, usize, usize) {
    let l = Limits::DEFAULT;
    let mut all = Vec::new();
    files(dir, &mut all);
    all.sort();
    let (mut archives, mut models, mut strict_ok) = (0, 0, 0);
    for p in &all {
        let b = std::fs::read(p).unwrap();
        let Ok((a, _)) = nres::decode(&b, Profile::Tolerant, &l) else {
            continue;
        };
        archives += 1;
        assert!(
            a.encode_lossless().unwrap() == b,
            "{}: lossless identity",
            p.display()
        );
        if let Ok(c) = a.encode_canonical() {
            let (ca, _) = nres::decode(&c, Profile::Tolerant, &l).unwrap();
            for i in 0..a.len() {
                assert!(
                    a.payload(i) == ca.payload(i),
                    "{}: canonical payload {i}",
                    p.display()
                );
                assert_eq!(a.entries()[i].name_raw, ca.entries()[i].name_raw);
            }
            assert!(
                ca.encode_canonical().unwrap() == c,
                "{}: canonical stable",
                p.display()
            );
        }
        if let Ok((m, _)) = msh::decode(&b, None, Profile::Tolerant, &l) {
            models += 1;
            assert!(m.encode().unwrap() == b);
            if let Ok((s, _)) = msh::decode(&b, None, Profile::Strict, &l) {
                strict_ok += 1;
                assert!(s == m, "{}: strict and tolerant models differ", p.display());
            }
        }
    }
    (all.len(), archives, models, strict_ok)
}

#[test]
fn real_corpus() {
    let Some(dir) = std::env::var_os("RE2D_MSH_CORPUS") else {
        println!("skipped: no corpus (set RE2D_MSH_CORPUS to a directory of NRes/MSH files)");
        return;
    };
    let (n, archives, models, strict_ok) = check_corpus(Path::new(&dir));
    println!(
        "corpus: {n} files, {archives} NRes archives, {models} models ({strict_ok} strictly valid)"
    );
    assert!(archives > 0, "RE2D_MSH_CORPUS has no NRes archive");
}

#[test]
fn corpus_checks_run_on_a_generated_directory() {
    let d = common::fresh_dir("re2d-msh-corpus");
    std::fs::create_dir_all(d.join("sub")).unwrap();
    for (i, p) in [
        "triangle",
        "cube-lods",
        "hierarchy-anim",
        "nested",
        "quirks",
    ]
    .iter()
    .enumerate()
    {
        let s = synth::generate(p, i as u64).unwrap();
        std::fs::write(d.join("sub").join(format!("{p}.msh")), &s.bytes).unwrap();
    }
    std::fs::write(d.join("notes.txt"), b"not an archive").unwrap();
    assert_eq!(check_corpus(&d), (6, 5, 4, 4));
    let _ = std::fs::remove_dir_all(&d);
}
