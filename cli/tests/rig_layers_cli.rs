// re2d CLI tests — layered drawings (issue 40): `rig build` and `rig slice` of `.ora` and
// `.psd` files, and every bad layered input → one line with its code, exit 1, nothing written.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};

use re2d_testkit::drawings::random::{self, ora};

fn samples() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/rig/layered"))
}

fn run(args: &[&str]) -> (i32, String, String) {
    common::run(env!("CARGO_BIN_EXE_re2d"), args)
}

/// `rig slice` (and `rig build`) of `sk` fail with `code`, exit 1, one line, nothing written.
fn rejects(dir: &Path, sk: &Path, code: &str, extra: &[&str]) {
    for cmd in ["slice", "build"] {
        let out = dir.join(format!("out-{cmd}"));
        let mut args: Vec<&str> = extra.to_vec();
        args.extend([
            "rig",
            cmd,
            sk.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        let (c, stdout, stderr) = run(&args);
        assert_eq!(c, 1, "{code} {cmd} {}: stderr {stderr}", sk.display());
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(code), "{code}: {stderr}");
        assert!(stdout.is_empty(), "{stdout}");
        assert!(!out.exists(), "{code}: the output folder was written");
    }
}

/// A declaration of the sample figure naming `image` (copied next to it as `file`).
fn declare(
    dir: &Path,
    file: &str,
    bytes: &[u8],
    edit: impl FnOnce(&mut serde_json::Value),
) -> PathBuf {
    std::fs::write(dir.join(file), bytes).unwrap();
    let mut v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(samples().join("figure.ora.json")).unwrap()).unwrap();
    v["image"] = file.into();
    edit(&mut v);
    let sk = dir.join(format!("{file}.json"));
    std::fs::write(&sk, serde_json::to_vec(&v).unwrap()).unwrap();
    sk
}

/// The sample .ora's entries, with `stack` as its stack.xml.
fn ora_with(stack: &str) -> Vec<u8> {
    let png = std::fs::read(samples().join("figure.labels.png")).unwrap();
    ora::zip_of(&[
        ("mimetype", b"image/openraster", false),
        ("stack.xml", stack.as_bytes(), true),
        ("data/a.png", &png, true),
        ("data/b.png", &png, true),
    ])
}

#[test]
fn bad_layered_files_are_rejected_with_their_code_and_nothing_written() {
    let dir = common::fresh_dir("re2d-rig-layers-bad");
    let s = samples();
    let copy = |f: &str| {
        let b = std::fs::read(s.join(f)).unwrap();
        declare(&dir, f, &b, |_| {})
    };
    // 16-bit and CMYK PSDs (written by psd-tools), a legacy non-UTF-8 layer name
    rejects(&dir, &copy("figure-16bit.psd"), "E_RIG_IMAGE", &[]);
    rejects(&dir, &copy("figure-cmyk.psd"), "E_RIG_IMAGE", &[]);
    let legacy = std::fs::read(s.join("figure-legacy-name.psd")).unwrap();
    rejects(
        &dir,
        &declare(&dir, "legacy.psd", &legacy, |v| {
            v["layers"] = serde_json::json!({})
        }),
        "E_RIG_LAYER",
        &[],
    );
    // no layer named after a bone, and no mapping
    let good = std::fs::read(s.join("figure.ora")).unwrap();
    rejects(
        &dir,
        &declare(&dir, "renamed.ora", &good, |v| {
            for (b, n) in v["bones"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .zip(["a", "b", "c", "d"])
            {
                b["name"] = n.into();
            }
            v["bones"][1]["parent"] = "a".into();
            v["bones"][2]["parent"] = "a".into();
            v["bones"][3]["parent"] = "c".into();
            v["layers"] = serde_json::json!({});
        }),
        "E_RIG_LAYER",
        &[],
    );
    // a mapping naming a layer the file does not have
    rejects(
        &dir,
        &declare(&dir, "mapped.ora", &good, |v| {
            v["layers"] = serde_json::json!({"cape": "torso"})
        }),
        "E_RIG_LAYER",
        &[],
    );
    // two visible layers called after one bone
    let stack = r#"<image w="96" h="128"><stack><layer name="torso" src="data/a.png"/><layer name="torso" src="data/b.png"/></stack></image>"#;
    rejects(
        &dir,
        &declare(&dir, "dup.ora", &ora_with(stack), |_| {}),
        "E_RIG_LAYER",
        &[],
    );
    // a layer beyond the canvas (.ora: placed at x = 10 on a 96-wide canvas)
    let stack = r#"<image w="96" h="128"><stack><layer name="torso" x="10" src="data/a.png"/></stack></image>"#;
    rejects(
        &dir,
        &declare(&dir, "beyond.ora", &ora_with(stack), |_| {}),
        "E_RIG_LAYER",
        &[],
    );
    // (.psd: the random character's first layer's right edge moved past the canvas)
    let c = random::generate(5);
    let mut psd = random::psd::write_with(&c, false);
    // header 26 + colour 4 + resources 4 + layer-and-mask 4 + layer info 4 + count 2,
    // then top, left, bottom, right
    let at = 26 + 4 + 4 + 4 + 4 + 2 + 12;
    psd[at..at + 4].copy_from_slice(&(c.drawing.width + 10).to_be_bytes());
    std::fs::write(dir.join("beyond.psd"), &psd).unwrap();
    let sk = dir.join("beyond.psd.json");
    std::fs::write(
        &sk,
        c.layered_json("psd").replace("random-5.psd", "beyond.psd"),
    )
    .unwrap();
    rejects(&dir, &sk, "E_RIG_LAYER", &[]);
    // a zip entry that inflates past file-max-bytes: refused from the zip's directory
    // (64 MiB of zeros deflate to 64 KiB: the .ora itself is under the limit)
    let zeros = vec![0u8; 64 << 20];
    let stack =
        r#"<image w="96" h="128"><stack><layer name="torso" src="data/a.png"/></stack></image>"#;
    let bomb = ora::zip_of(&[
        ("mimetype", b"image/openraster", false),
        ("stack.xml", stack.as_bytes(), true),
        ("data/a.png", &zeros, true),
    ]);
    assert!(bomb.len() < 1 << 20, "{}", bomb.len());
    rejects(
        &dir,
        &declare(&dir, "bomb.ora", &bomb, |_| {}),
        "E_RIG_LIMIT",
        &["--limit", "file-max-bytes=1M"],
    );
    // more layer pixels than rig-max-layer-pixels
    rejects(
        &dir,
        &copy("figure.ora"),
        "E_RIG_LIMIT",
        &["--limit", "rig-max-layer-pixels=20000"],
    );
    // a truncated PSD, a zip that is not OpenRaster
    let cut = std::fs::read(s.join("figure.psd")).unwrap();
    rejects(
        &dir,
        &declare(&dir, "cut.psd", &cut[..cut.len() / 2], |_| {}),
        "E_RIG_IMAGE",
        &[],
    );
    let notora = ora::zip_of(&[("mimetype", b"application/zip", false)]);
    rejects(
        &dir,
        &declare(&dir, "zip.ora", &notora, |_| {}),
        "E_RIG_IMAGE",
        &[],
    );
}

#[test]
fn a_layered_file_builds_and_its_report_says_nothing_was_filled() {
    let dir = common::fresh_dir("re2d-rig-layers-build");
    let c = random::generate(12);
    let name = &c.drawing.name;
    std::fs::write(dir.join(format!("{name}.psd")), random::psd::write(&c)).unwrap();
    let sk = dir.join(format!("{name}.psd.json"));
    std::fs::write(&sk, c.layered_json("psd")).unwrap();
    let out = dir.join("out");
    let walk = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../assets/mocap/cmu-131-01-walk.bvh"
    ));
    let (code, stdout, stderr) = run(&[
        "rig",
        "build",
        sk.to_str().unwrap(),
        "--motion",
        walk.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let r: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(r["slicing"]["rule"], "layers");
    assert_eq!(r["slicing"]["filled_px"], 0);
    assert!(out.join("character.riv").exists());
}
