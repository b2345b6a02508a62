// re2d CLI end-to-end tests: compile, exit codes, atomic publish, build, atlas inspect (spec: surface-compiler.md §8, §9, §11.9).

#[path = "../../tests/common/mod.rs"]
mod common;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn re2d(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_re2d"))
        .args(args)
        .output()
        .unwrap()
}

fn tmpdir(name: &str) -> PathBuf {
    common::fresh_dir(&format!("re2d-cli-{name}"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn entries(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

const GRID: &str = r#"{"version":1,"patches":[{"type":"grid","id":80,"rect":[0,0,8,8],
  "points":[[[0,0,0],[2,0,0]],[[0,2,0],[2,2,0]]]}],
  "segments":[{"id":80,"axis":"y","greaterThan":0.5,"assign":91}]}"#;

fn png_size(p: &Path) -> (u32, u32) {
    let b = fs::read(p).unwrap();
    (
        u32::from_be_bytes(b[16..20].try_into().unwrap()),
        u32::from_be_bytes(b[20..24].try_into().unwrap()),
    )
}

#[test]
fn compile_publishes_atomically_and_preserves_mode() {
    let d = tmpdir("publish");
    let src = d.join("s.json");
    fs::write(&src, GRID).unwrap();
    let out = d.join("sub/dir/out.png");
    let o = re2d(&["compile", s(&src), "--output", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(png_size(&out), (1024, 1024));
    assert_eq!(
        fs::metadata(&out).unwrap().permissions().mode() & 0o7777,
        0o644
    );
    fs::set_permissions(&out, fs::Permissions::from_mode(0o600)).unwrap();
    let o = re2d(&[
        "compile",
        s(&src),
        "-o",
        s(&out),
        "--size",
        "2048",
        "--segments",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(png_size(&out), (2048, 2048), "second publish wins");
    assert_eq!(
        fs::metadata(&out).unwrap().permissions().mode() & 0o7777,
        0o600,
        "mode preserved"
    );
    assert_eq!(
        entries(&d.join("sub/dir")),
        vec!["out.png"],
        "no temporary leftovers"
    );

    // A failing compile leaves the target byte-identical.
    let before = fs::read(&out).unwrap();
    let bad = d.join("bad.json");
    fs::write(
        &bad,
        r#"{"version":1,"patches":[{"type":"samples","samples":[[0,0,80,32,0,0]]}]}"#,
    )
    .unwrap();
    let o = re2d(&["compile", s(&bad), "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error[E_RANGE]: ") && err.contains("patches[0].samples[0]"),
        "{err}"
    );
    assert_eq!(fs::read(&out).unwrap(), before);
    assert_eq!(entries(&d.join("sub/dir")), vec!["out.png"]);

    // Nothing is created when validation fails.
    let o = re2d(&["compile", s(&bad), "-o", s(&d.join("never.png"))]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!d.join("never.png").exists());

    // Publishing over a directory fails at the rename: E_IO (exit 3), the
    // temporary file is removed.
    let dir_target = d.join("adir.png");
    fs::create_dir(&dir_target).unwrap();
    let o = re2d(&["compile", s(&src), "-o", s(&dir_target)]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).starts_with("error[E_IO]"));
    assert!(
        !entries(&d).iter().any(|n| n.starts_with(".adir.png.")),
        "temporary file left: {:?}",
        entries(&d)
    );

    // A symlink target is followed: the file it points to is replaced
    // (atomically, in its own folder) and the link stays a link (issue 12
    // row 7, which revises surface-compiler.md §8 on this point).
    let link = d.join("link.png");
    std::os::unix::fs::symlink(&out, &link).unwrap();
    let o = re2d(&["compile", s(&src), "-o", s(&link)]);
    assert!(o.status.success());
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_ne!(fs::read(&out).unwrap(), before, "link target replaced");
    assert_eq!(png_size(&out), (1024, 1024));
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn exit_codes() {
    let d = tmpdir("codes");
    let src = d.join("s.json");
    fs::write(&src, GRID).unwrap();
    let out = d.join("o.png");
    // usage errors: exit 2
    for args in [
        vec!["compile", s(&src)],
        vec!["compile", s(&src), "-o", s(&out), "--segment-width", "20"],
        vec![
            "compile",
            s(&src),
            "-o",
            s(&out),
            "--segment-width",
            "255=6",
        ],
        vec![
            "compile",
            s(&src),
            "-o",
            s(&out),
            "--segment-width",
            "20=-1",
        ],
        vec![
            "compile",
            s(&src),
            "-o",
            s(&out),
            "--segment-width",
            "20=inf",
        ],
        vec!["compile", s(&src), "-o", s(&out), "--bogus"],
    ] {
        assert_eq!(re2d(&args).status.code(), Some(2), "{args:?}");
    }
    // E_SIZE: exit 1
    let o = re2d(&["compile", s(&src), "-o", s(&out), "--size", "1000"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).starts_with("error[E_SIZE]"));
    // missing input: E_IO, exit 3
    let o = re2d(&["compile", s(&d.join("missing.json")), "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(3));
    assert!(stderr(&o).starts_with("error[E_IO]"));
    // bad material: exit 1
    let mat = d.join("m.png");
    fs::write(&mat, b"garbage").unwrap();
    let o = re2d(&["compile", s(&src), "-o", s(&out), "--material", s(&mat)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).starts_with("error[E_MATERIAL_FORMAT]"));
    assert!(!out.exists());
    // --segment-width accepted, legacy warns about widths
    let o = re2d(&[
        "compile",
        s(&src),
        "-o",
        s(&out),
        "--segments",
        "--segment-width",
        "91=2.5",
        "--legacy",
    ]);
    assert!(o.status.success());
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn build_runs_jobs_relative_to_the_build_file() {
    let d = tmpdir("build");
    fs::create_dir_all(d.join("src")).unwrap();
    fs::write(d.join("src/a.json"), GRID).unwrap();
    fs::write(d.join("src/bad.json"), r#"{"version":1,"patches":[]}"#).unwrap();
    let b = d.join("src/build.json");
    fs::write(
        &b,
        r#"{"version":1,"jobs":[
          {"surface":"a.json","output":"../out/a.png","size":2048,"segments":true,"segmentWidths":{"91":1}},
          {"surface":"a.json","output":"../out/b.png"},
          {"surface":"bad.json","output":"../out/c.png"},
          {"surface":"a.json","output":"../out/d.png"}]}"#,
    )
    .unwrap();
    let o = re2d(&["build", s(&b)]);
    assert_eq!(o.status.code(), Some(1), "third job fails with E_EMPTY");
    assert!(stderr(&o).contains("E_EMPTY"));
    assert_eq!(
        entries(&d.join("out")),
        vec!["a.png", "b.png"],
        "earlier outputs stay, later jobs do not run"
    );
    assert_eq!(png_size(&d.join("out/a.png")), (2048, 2048));
    let i = re2d(&["atlas", "inspect", s(&d.join("out/a.png"))]);
    let text = String::from_utf8_lossy(&i.stdout);
    assert!(text.contains("SUB: yes  BLD: yes"), "{text}");
    assert!(text.contains("91:"), "{text}");
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn inspect_reports_and_rejects() {
    let d = tmpdir("inspect");
    let src = d.join("s.json");
    fs::write(&src, GRID).unwrap();
    let out = d.join("o.png");
    assert!(
        re2d(&[
            "compile",
            s(&src),
            "-o",
            s(&out),
            "--segments",
            "--size",
            "3072"
        ])
        .status
        .success()
    );
    let o = re2d(&["atlas", "inspect", s(&out), "--json"]);
    assert!(o.status.success());
    let j = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        j.trim(),
        r#"{"size":3072,"sub":true,"bld":true,"cells":[[0,0,80,80,0,0,255,0,0,0],[4,0,80,80,0,0,255,1,0,0],[0,4,91,80,0,0,255,0,1,0],[4,4,91,80,0,0,255,1,1,0]]}"#
    );
    let o = re2d(&["atlas", "inspect", s(&out)]);
    let t = String::from_utf8_lossy(&o.stdout);
    assert!(t.contains("decoder: ok, 4 points"), "{t}");
    assert!(t.contains("problems: none"), "{t}");
    // a PNG that is not an atlas: exit 1
    let mut img = vec![0u8; 1024 * 1024 * 4];
    img[3] = 255;
    let mut png = Vec::new();
    {
        let mut e = png::Encoder::new(&mut png, 1024, 1024);
        e.set_color(png::ColorType::Rgba);
        e.set_depth(png::BitDepth::Eight);
        e.write_header().unwrap().write_image_data(&img).unwrap();
    }
    let p = d.join("blank.png");
    fs::write(&p, png).unwrap();
    let o = re2d(&["atlas", "inspect", s(&p)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("REJECTED"));
    let _ = fs::remove_dir_all(&d);
}
