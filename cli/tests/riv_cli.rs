// re2d CLI tests — `re2d export-riv`, `re2d riv check|render-ref`: outputs equal the library's,
// exit codes and one-line refusals (the library side is tests/riv.rs at the top level).

#[path = "../../tests/common/mod.rs"]
mod common;

use std::path::PathBuf;
use std::process::Command;

use re2d::limits::Limits;
use re2d_riv::Model;
use re2d_riv::export::{Options, export};
use re2d_riv::read::read;
use re2d_riv::reference::{RefOptions, render};
use serde_json::Value as Json;

fn repo() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn fixture(name: &str) -> PathBuf {
    repo()
        .join("tests/riv/fixtures")
        .join(name)
        .join("model.json")
}

fn load(name: &str) -> Model {
    Model::load(&fixture(name), &Limits::DEFAULT).unwrap()
}

fn tmp(tag: &str) -> PathBuf {
    common::fresh_dir(&format!("re2d-riv-{tag}"))
}

fn re2d() -> Command {
    Command::new(env!("CARGO_BIN_EXE_re2d"))
}

fn run(args: &[&str]) -> (i32, String, String) {
    let o = re2d().args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn cli_export_check_render_and_exit_codes() {
    let d = tmp("cli");
    let out = d.join("walk.riv");
    let model = fixture("walk");
    let m = model.to_str().unwrap();
    let o = out.to_str().unwrap();
    let (code, stdout, _) = run(&["export-riv", m, "--output", o]);
    assert_eq!(code, 0);
    assert!(stdout.contains("15 bones"), "{stdout}");
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(
        bytes,
        export(&load("walk"), &Options::default()).unwrap().bytes
    );
    let (code, stdout, _) = run(&["riv", "check", o]);
    assert_eq!(code, 0, "{stdout}");
    let (code, stdout, _) = run(&["riv", "check", o, "--json"]);
    assert_eq!(code, 0);
    let j: Json = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(
        (
            j["ok"].as_bool(),
            j["bones"].as_u64(),
            j["assets"].as_array().map(Vec::len)
        ),
        (Some(true), Some(15), Some(12))
    );
    for (c, want) in [("badversion", 1), ("toc16", 1), ("zflip", 0), ("ramp", 0)] {
        let f = d.join(format!("{c}.riv"));
        assert_eq!(
            run(&["export-riv", m, "-o", f.to_str().unwrap(), "--control", c]).0,
            0
        );
        let (code, _, err) = run(&["riv", "check", f.to_str().unwrap()]);
        assert_eq!(code, want, "{c}: {err}");
        if want == 1 {
            assert_eq!(err.lines().count(), 1, "one line: {err}");
        }
    }
    // overrides and the empty ToC
    let e = d.join("e.riv");
    assert_eq!(
        run(&[
            "export-riv",
            m,
            "-o",
            e.to_str().unwrap(),
            "--empty-toc",
            "--artboard",
            "300,400",
            "--offset",
            "-5,7",
            "--fps",
            "30",
            "--clip",
            "walk"
        ])
        .0,
        0
    );
    let f = read(&std::fs::read(&e).unwrap()).unwrap();
    assert!(f.toc.is_empty());
    let ab = f.records.iter().find(|r| r.type_key == 1).unwrap();
    assert_eq!((ab.float(7), ab.float(8)), (Some(300.0), Some(400.0)));
    assert_eq!(f.records.iter().filter(|r| r.type_key == 31).count(), 1);
    // usage errors (2), invalid input (1), I/O (3); a failed run leaves the old output intact
    assert_eq!(run(&["export-riv", m]).0, 2);
    assert_eq!(run(&["export-riv", m, "-o", o, "--control", "nope"]).0, 2);
    assert_eq!(run(&["export-riv", m, "-o", o, "--artboard", "3"]).0, 2);
    let bad = d.join("bad.json");
    std::fs::write(&bad, r#"{"version": 2}"#).unwrap();
    let (code, _, err) = run(&["export-riv", bad.to_str().unwrap(), "-o", o]);
    assert_eq!(code, 1);
    assert!(
        err.contains("E_MODEL_JSON") && err.lines().count() == 1,
        "{err}"
    );
    assert_eq!(run(&["export-riv", m, "-o", o, "--fps", "0"]).0, 1);
    assert_eq!(run(&["export-riv", m, "-o", o, "--clip", "nope"]).0, 1);
    assert_eq!(std::fs::read(&out).unwrap(), bytes, "old output untouched");
    assert_eq!(
        run(&[
            "export-riv",
            d.join("missing.json").to_str().unwrap(),
            "-o",
            o
        ])
        .0,
        3
    );
    assert_eq!(
        run(&["riv", "check", d.join("missing.riv").to_str().unwrap()]).0,
        3
    );
    assert_eq!(
        run(&["export-riv", m, "-o", m]).0,
        2,
        "refuses to overwrite its input"
    );
    assert!(
        std::fs::read_to_string(&model)
            .unwrap()
            .contains("\"version\": 1")
    );
    // render-ref
    let png = d.join("f.png");
    let (code, _, err) = run(&[
        "riv",
        "render-ref",
        m,
        "--clip",
        "walk",
        "--time",
        "0.5",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let img =
        re2d::png_io::decode_rgba(std::io::Cursor::new(std::fs::read(&png).unwrap())).unwrap();
    let want = render(
        &load("walk"),
        &RefOptions {
            clip: Some("walk".into()),
            time: 0.5,
            ..RefOptions::default()
        },
        &Limits::DEFAULT,
    )
    .unwrap();
    assert_eq!(img, want);
    assert_eq!(
        run(&[
            "riv",
            "render-ref",
            m,
            "--time",
            "-1",
            "-o",
            png.to_str().unwrap()
        ])
        .0,
        2,
        "clap: negative number is not a value"
    );
    assert_eq!(
        run(&[
            "riv",
            "render-ref",
            m,
            "--part",
            "nope",
            "-o",
            png.to_str().unwrap()
        ])
        .0,
        1
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// Issue 20 item 5: an angle past the binary32 range is an `E_BONE` error
/// naming the bone (was "internal error"), nothing written; `riv check`
/// refuses a non-finite artboard size.
#[test]
fn huge_angles_and_non_finite_artboards_are_refused() {
    let d = tmp("nonfinite");
    let mut j: Json = serde_json::from_slice(&std::fs::read(fixture("walk")).unwrap()).unwrap();
    let bone = j["skeleton"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    j["skeleton"][&bone]["angle"] = serde_json::json!(1e308);
    // the model beside copies of the fixture's textures
    for e in std::fs::read_dir(fixture("walk").parent().unwrap()).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() {
            std::fs::copy(&p, d.join(p.file_name().unwrap())).unwrap();
        }
    }
    let model = d.join("huge-angle.json");
    std::fs::write(&model, serde_json::to_vec(&j).unwrap()).unwrap();
    let out = d.join("huge.riv");
    let (code, _, err) = run(&[
        "export-riv",
        model.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("E_BONE") && err.contains(&format!("skeleton.{bone}.angle")),
        "{err}"
    );
    assert!(!out.exists());
    // a good export with its artboard width, then height, patched to NaN / ∞
    let good = export(&load("walk"), &Options::default()).unwrap().bytes;
    let file = read(&good).unwrap();
    let ab = file.records.iter().find(|r| r.type_key == 1).unwrap();
    for (key, bad) in [(7u8, f32::NAN), (8, f32::INFINITY), (7, f32::NEG_INFINITY)] {
        let mut pat = vec![key];
        pat.extend(ab.float(key as u64).unwrap().to_le_bytes());
        let at = ab.offset
            + good[ab.offset..]
                .windows(5)
                .position(|w| w == pat.as_slice())
                .unwrap();
        let mut bytes = good.clone();
        bytes[at + 1..at + 5].copy_from_slice(&bad.to_le_bytes());
        let f = d.join(format!("ab{key}.riv"));
        std::fs::write(&f, &bytes).unwrap();
        let (code, stdout, _) = run(&["riv", "check", f.to_str().unwrap()]);
        assert_eq!(code, 1, "{key}={bad}: {stdout}");
        assert!(stdout.contains("Artboard"), "{stdout}");
    }
}
