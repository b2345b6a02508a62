//! The rig's stages import one way (issue 39): a file of a stage uses its own stage and the
//! stages before it (`error` < `declare` < `cut` < `skin` < `motion` < `build`), never a later
//! one. Read from the source, comments and unit tests left out.

use std::path::{Path, PathBuf};

const STAGES: [&str; 7] = [
    "error", "declare", "guess", "cut", "skin", "motion", "build",
];

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("crates/rig/src") {
        let p = e.unwrap().path();
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The stages a source text names as `crate::<stage>`, outside comments and `#[cfg(test)]`.
fn stages_used(text: &str) -> Vec<&'static str> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut used = Vec::new();
    for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
        for (i, _) in line.match_indices("crate::") {
            let rest = &line[i + "crate::".len()..];
            let word: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if let Some(s) = STAGES.iter().find(|s| **s == word) {
                used.push(*s);
            }
        }
    }
    used
}

fn backward_imports(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rs_files(src, &mut files);
    let mut bad = Vec::new();
    for f in files {
        let rel = f.strip_prefix(src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .into_owned();
        let stage = first.trim_end_matches(".rs");
        let Some(own) = STAGES.iter().position(|s| *s == stage) else {
            continue; // lib.rs: the crate root lists every stage
        };
        for used in stages_used(&std::fs::read_to_string(&f).unwrap()) {
            if STAGES.iter().position(|s| *s == used).unwrap() > own {
                bad.push(format!("{} uses crate::{used}", rel.display()));
            }
        }
    }
    bad
}

#[test]
fn every_stage_uses_only_earlier_stages() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let bad = backward_imports(&src);
    assert!(bad.is_empty(), "backward imports: {bad:?}");
}

#[test]
fn the_check_sees_a_backward_import() {
    // the negative control: a declare file naming the build stage is caught
    assert_eq!(
        stages_used("use crate::build::Options;\n// crate::skin in a comment"),
        ["build"]
    );
    assert_eq!(
        stages_used("use crate::cut::slice;\n#[cfg(test)]\nuse crate::build;"),
        ["cut"]
    );
}
