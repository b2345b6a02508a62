// re2d nres/msh CLI tests: every command of §8, --json, exit codes 0/1/2/3, one-line errors, --help, atomic outputs that never replace an input (spec: msh.md §8).

#[path = "../../tests/common/mod.rs"]
mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn re2d(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_re2d"))
        .args(args)
        .output()
        .unwrap()
}

fn tmpdir(name: &str) -> PathBuf {
    common::fresh_dir(&format!("re2d-msh-cli-{name}"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Exit code, and exactly one stderr line on failure (none on success).
fn code(o: &Output) -> i32 {
    let err = String::from_utf8_lossy(&o.stderr);
    let c = o.status.code().unwrap();
    if c == 0 {
        assert!(err.is_empty(), "stderr on success: {err}");
    } else {
        assert_eq!(err.lines().count(), 1, "one stderr line: {err:?}");
    }
    c
}

fn synth(d: &Path, profile: &str, seed: u64) -> PathBuf {
    let f = d.join(format!("{profile}-{seed}.msh"));
    let o = re2d(&[
        "msh",
        "synth",
        "--seed",
        &seed.to_string(),
        "--profile",
        profile,
        "--output",
        s(&f),
    ]);
    assert_eq!(code(&o), 0);
    f
}

#[test]
fn help_for_every_command() {
    for args in [
        vec!["nres", "--help"],
        vec!["nres", "list", "--help"],
        vec!["nres", "extract", "--help"],
        vec!["nres", "pack", "--help"],
        vec!["nres", "repack", "--help"],
        vec!["msh", "--help"],
        vec!["msh", "validate", "--help"],
        vec!["msh", "export", "--help"],
        vec!["msh", "roundtrip", "--help"],
        vec!["msh", "synth", "--help"],
    ] {
        let o = re2d(&args);
        assert_eq!(code(&o), 0, "{args:?}");
        assert!(stdout(&o).contains("Usage: re2d"), "{args:?}");
    }
}

#[test]
fn synth_and_usage_errors() {
    let d = tmpdir("synth");
    for p in [
        "triangle",
        "cube-lods",
        "hierarchy-anim",
        "nested",
        "quirks",
        "quirks38",
    ] {
        let f = synth(&d, p, 4);
        let want = re2d_msh::synth::generate(p, 4).unwrap().bytes;
        assert!(fs::read(&f).unwrap() == want, "{p}");
    }
    let out = d.join("x.msh");
    for args in [
        vec![
            "msh",
            "synth",
            "--seed",
            "1",
            "--profile",
            "nope",
            "--output",
            s(&out),
        ],
        vec!["msh", "synth", "--profile", "triangle", "--output", s(&out)],
        vec!["msh", "synth", "--seed", "x", "--output", s(&out)],
        vec!["nres"],
        vec!["msh", "bogus"],
        vec!["nres", "list"],
    ] {
        assert_eq!(code(&re2d(&args)), 2, "{args:?}");
    }
    assert!(!out.exists());
}

#[test]
fn nres_list_extract_pack_repack() {
    let d = tmpdir("nres");
    let q = synth(&d, "quirks", 2);
    let o = re2d(&["nres", "list", s(&q)]);
    assert_eq!(code(&o), 0);
    let t = stdout(&o);
    assert!(t.contains("\"ABCDEFGHIJKLMNOPQRSTUVWXYZ012345678\""), "{t}");
    assert!(t.contains("diagnostic[W_NRES_UNINDEXED]"));
    let o = re2d(&["nres", "list", s(&q), "--json", "--strict"]);
    assert_eq!(code(&o), 0);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["entries"].as_array().unwrap().len(), 17);
    assert_eq!(j["entries"][0]["type"], 1);
    assert_eq!(j["lookup"], "sorted");
    assert!(j["entries"][1]["name_raw_hex"].as_str().unwrap().len() == 72);
    // extract + pack == repack (canonical), and both decode to the same payloads
    let ex = d.join("ex");
    let o = re2d(&["nres", "extract", s(&q), "--out", s(&ex)]);
    assert_eq!(code(&o), 0);
    assert!(ex.join("manifest.json").exists());
    assert!(ex.join("0014_service.bin").exists());
    assert_eq!(fs::read(ex.join("0014_service.bin")).unwrap().len(), 0);
    let packed = d.join("packed.nres");
    assert_eq!(
        code(&re2d(&[
            "nres",
            "pack",
            s(&ex.join("manifest.json")),
            "--output",
            s(&packed)
        ])),
        0
    );
    let repacked = d.join("repacked.nres");
    assert_eq!(
        code(&re2d(&["nres", "repack", s(&q), "--output", s(&repacked)])),
        0
    );
    assert!(fs::read(&packed).unwrap() == fs::read(&repacked).unwrap());
    let (a, _) = re2d_msh::nres::decode(
        &fs::read(&q).unwrap(),
        re2d_msh::nres::Profile::Strict,
        &Default::default(),
    )
    .map(|(a, d)| (a.into_owned(), d))
    .unwrap();
    let rb = fs::read(&repacked).unwrap();
    let (b, _) =
        re2d_msh::nres::decode(&rb, re2d_msh::nres::Profile::Strict, &Default::default()).unwrap();
    for i in 0..a.len() {
        assert!(a.payload(i) == b.payload(i));
        assert_eq!(
            a.entries()[i].name_raw,
            b.entries()[i].name_raw,
            "garbage after NUL kept"
        );
    }
    // a broken archive: strict list rejects, tolerant lists
    let mut bad = fs::read(&q).unwrap();
    let n = bad.len();
    let sort = n - 64 * 17 + 60;
    bad[sort..sort + 4].copy_from_slice(&500u32.to_le_bytes());
    let badf = d.join("bad.nres");
    fs::write(&badf, &bad).unwrap();
    let o = re2d(&["nres", "list", s(&badf), "--strict"]);
    assert_eq!(code(&o), 1);
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("error[E_NRES_SORT_INDEX]"));
    let o = re2d(&["nres", "list", s(&badf)]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains("lookup by linear scan"));
    // bad manifest: 1; missing payload file: 3; not NRes: 1; missing input: 3
    fs::write(
        d.join("m.json"),
        r#"{"format":"re2d-nres-manifest","version":2,"entries":[]}"#,
    )
    .unwrap();
    assert_eq!(
        code(&re2d(&[
            "nres",
            "pack",
            s(&d.join("m.json")),
            "-o",
            s(&d.join("o"))
        ])),
        1
    );
    fs::write(
        d.join("m2.json"),
        r#"{"format":"re2d-nres-manifest","version":1,"entries":[{"file":"none.bin","type":1,"name":"a"}]}"#,
    )
    .unwrap();
    assert_eq!(
        code(&re2d(&[
            "nres",
            "pack",
            s(&d.join("m2.json")),
            "-o",
            s(&d.join("o"))
        ])),
        3
    );
    fs::write(
        d.join("m3.json"),
        r#"{"format":"re2d-nres-manifest","version":1,"entries":[{"file":"m.json","type":1,"name":"0123456789012345678901234567890123456789"}]}"#,
    )
    .unwrap();
    assert_eq!(
        code(&re2d(&[
            "nres",
            "pack",
            s(&d.join("m3.json")),
            "-o",
            s(&d.join("o"))
        ])),
        1
    );
    assert!(!d.join("o").exists());
    assert_eq!(code(&re2d(&["nres", "list", s(&d.join("m.json"))])), 1);
    assert_eq!(code(&re2d(&["nres", "list", s(&d.join("missing"))])), 3);
}

#[test]
fn msh_validate_modes_and_json() {
    let d = tmpdir("validate");
    let h = synth(&d, "hierarchy-anim", 1);
    let o = re2d(&["msh", "validate", s(&h)]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains("ok (strict)"));
    let o = re2d(&["msh", "validate", s(&h), "--json"]);
    assert_eq!(code(&o), 0);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        j,
        serde_json::json!({"ok": true, "errors": [], "diagnostics": []})
    );
    // a broken link: strict lists it (exit 1), tolerant accepts (exit 0)
    let mut b = fs::read(&h).unwrap();
    let m = re2d_msh::decode(
        &b,
        None,
        re2d_msh::nres::Profile::Strict,
        &Default::default(),
    )
    .unwrap()
    .0;
    let off = m.archive().entries()[m.table_entry(7).unwrap()].data_offset as usize;
    drop(m);
    b[off + 2..off + 4].copy_from_slice(&999u16.to_le_bytes());
    b[off + 18..off + 20].copy_from_slice(&999u16.to_le_bytes());
    let bad = d.join("bad.msh");
    fs::write(&bad, &b).unwrap();
    let o = re2d(&["msh", "validate", s(&bad), "--json"]);
    assert_eq!(code(&o), 1);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["ok"], false);
    let errs = j["errors"].as_array().unwrap();
    assert_eq!(errs.len(), 2, "all violations, not just the first");
    assert_eq!(errs[0]["code"], "E_MSH_TRI_LINK");
    assert_eq!(errs[0]["table"], 7);
    assert_eq!(errs[0]["index"], 0);
    assert_eq!(errs[1]["index"], 1);
    assert!(String::from_utf8_lossy(&o.stderr).contains("(and 1 more)"));
    let o = re2d(&["msh", "validate", s(&bad), "--tolerant", "--json"]);
    assert_eq!(code(&o), 0);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["ok"], true);
    assert_eq!(j["diagnostics"].as_array().unwrap().len(), 2);
    assert_eq!(
        code(&re2d(&[
            "msh",
            "validate",
            s(&bad),
            "--strict",
            "--tolerant"
        ])),
        2
    );
    // nested
    let n = synth(&d, "nested", 1);
    assert_eq!(code(&re2d(&["msh", "validate", s(&n)])), 1);
    assert_eq!(
        code(&re2d(&["msh", "validate", s(&n), "--entry", "Unit.Msh"])),
        0
    );
    let o = re2d(&["msh", "validate", s(&n), "--entry", "nope"]);
    assert_eq!(code(&o), 1);
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("error[E_MSH_ENTRY]"));
}

#[test]
fn msh_export_roundtrip_and_atomic_outputs() {
    let d = tmpdir("export");
    let h = synth(&d, "hierarchy-anim", 1);
    let glb = d.join("h.glb");
    let o = re2d(&[
        "msh",
        "export",
        s(&h),
        "--format",
        "gltf",
        "--output",
        s(&glb),
        "--anim",
        "--fps",
        "24",
    ]);
    assert_eq!(code(&o), 0);
    assert_eq!(&fs::read(&glb).unwrap()[..4], b"glTF");
    let gltf = d.join("h.gltf");
    assert_eq!(
        code(&re2d(&[
            "msh",
            "export",
            s(&h),
            "--format",
            "gltf",
            "-o",
            s(&gltf),
            "--time",
            "2.5",
            "--axis",
            "raw"
        ])),
        0
    );
    let j: serde_json::Value = serde_json::from_slice(&fs::read(&gltf).unwrap()).unwrap();
    assert!(
        j["buffers"][0]["uri"]
            .as_str()
            .unwrap()
            .starts_with("data:application/octet-stream;base64,")
    );
    let obj = d.join("h.obj");
    assert_eq!(
        code(&re2d(&[
            "msh",
            "export",
            s(&h),
            "--format",
            "obj",
            "-o",
            s(&obj),
            "--lod",
            "0",
            "--group",
            "0",
            "--static"
        ])),
        0
    );
    assert!(fs::read_to_string(&obj).unwrap().contains("o spine"));
    let n = synth(&d, "nested", 1);
    assert_eq!(
        code(&re2d(&[
            "msh",
            "export",
            s(&n),
            "--entry",
            "UNIT.MSH",
            "--format",
            "obj",
            "-o",
            s(&d.join("n.obj"))
        ])),
        0
    );
    // usage errors: 2, nothing written
    let none = d.join("none.glb");
    for args in [
        vec![
            "msh",
            "export",
            s(&h),
            "--format",
            "obj",
            "-o",
            s(&none),
            "--anim",
        ],
        vec![
            "msh",
            "export",
            s(&h),
            "--format",
            "gltf",
            "-o",
            s(&none),
            "--anim",
            "--no-pose",
        ],
        vec![
            "msh",
            "export",
            s(&h),
            "--format",
            "gltf",
            "-o",
            s(&none),
            "--lod",
            "3",
        ],
        vec![
            "msh",
            "export",
            s(&h),
            "--format",
            "gltf",
            "-o",
            s(&none),
            "--group",
            "5",
        ],
        vec![
            "msh",
            "export",
            s(&h),
            "--format",
            "gltf",
            "-o",
            s(&none),
            "--time",
            "1",
            "--static",
        ],
        vec![
            "msh",
            "export",
            s(&h),
            "--format",
            "gltf",
            "-o",
            s(&none),
            "--fps",
            "0",
        ],
        vec!["msh", "export", s(&h), "--format", "fbx", "-o", s(&none)],
        vec!["msh", "export", s(&h), "--format", "gltf"],
    ] {
        assert_eq!(code(&re2d(&args)), 2, "{args:?}");
    }
    assert!(!none.exists());
    // a failing export leaves an existing output untouched
    let q = synth(&d, "quirks", 1);
    let before = fs::read(&glb).unwrap();
    let o = re2d(&["msh", "export", s(&q), "--format", "gltf", "-o", s(&glb)]);
    assert_eq!(code(&o), 1);
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("error[E_NODE_LAYOUT]"));
    assert!(fs::read(&glb).unwrap() == before);
    // never overwrite the input
    let hb = fs::read(&h).unwrap();
    assert_eq!(
        code(&re2d(&[
            "msh",
            "export",
            s(&h),
            "--format",
            "obj",
            "-o",
            s(&h)
        ])),
        2
    );
    assert_eq!(code(&re2d(&["msh", "roundtrip", s(&h), "-o", s(&h)])), 2);
    assert_eq!(code(&re2d(&["nres", "repack", s(&h), "-o", s(&h)])), 2);
    assert!(fs::read(&h).unwrap() == hb);
    // roundtrip: byte-identical, direct and nested, quirks included
    for f in [h.clone(), q.clone(), synth(&d, "quirks38", 3)] {
        let rt = d.join("rt.bin");
        let o = re2d(&["msh", "roundtrip", s(&f), "--output", s(&rt)]);
        assert_eq!(code(&o), 0);
        assert!(fs::read(&rt).unwrap() == fs::read(&f).unwrap());
        assert!(stdout(&o).contains("identical"));
    }
    let rt = d.join("rtn.bin");
    assert_eq!(
        code(&re2d(&[
            "msh",
            "roundtrip",
            s(&n),
            "--entry",
            "unit.msh",
            "-o",
            s(&rt)
        ])),
        0
    );
    assert!(fs::read(&rt).unwrap() == fs::read(&n).unwrap());
    // I/O: missing input 3; output into a missing-and-uncreatable directory 3
    assert_eq!(
        code(&re2d(&[
            "msh",
            "export",
            s(&d.join("missing.msh")),
            "--format",
            "obj",
            "-o",
            s(&d.join("x.obj"))
        ])),
        3
    );
    let blocker = d.join("file");
    fs::write(&blocker, b"x").unwrap();
    assert_eq!(
        code(&re2d(&[
            "msh",
            "export",
            s(&h),
            "--format",
            "obj",
            "-o",
            s(&blocker.join("x.obj"))
        ])),
        3
    );
    // not a model: 1
    assert_eq!(
        code(&re2d(&[
            "msh",
            "export",
            s(&obj),
            "--format",
            "obj",
            "-o",
            s(&d.join("y.obj"))
        ])),
        1
    );
}
