// re2d tests — issue 12: no input aborts a command or changes an existing file; refusals are one line with a documented exit code.
//! Every test runs the real `re2d` binary in its own temp dir. Row numbers
//! refer to the table of issue 12.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn re2d() -> Command {
    Command::new(env!("CARGO_BIN_EXE_re2d"))
}

fn repo() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn tmp(tag: &str) -> PathBuf {
    common::fresh_dir(&format!("re2d-hard-{tag}"))
}

/// The animal model with its atlas (the existing engine's compiled atlas).
fn animal(dir: &Path) -> PathBuf {
    for f in ["animal.character.json", "animal.animations.json"] {
        fs::copy(repo().join("assets").join(f), dir.join(f)).unwrap();
    }
    fs::copy(
        repo().join("tests/golden/animal-1024.png"),
        dir.join("animal.png"),
    )
    .unwrap();
    dir.join("animal.character.json")
}

fn run(c: &mut Command) -> Output {
    c.output().unwrap()
}

/// A refusal: the expected exit code, exactly one line on stderr, no crash.
#[track_caller]
fn refused(o: &Output, code: i32) -> String {
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(code), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line expected, got: {err:?}");
    err
}

#[track_caller]
fn ok(o: &Output) {
    assert!(
        o.status.success(),
        "rc {:?}: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
}

fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

/// Reads everything from a FIFO in a thread (so a writer can open it).
fn drain(p: &Path) -> std::thread::JoinHandle<Vec<u8>> {
    let p = p.to_path_buf();
    std::thread::spawn(move || fs::read(p).unwrap())
}

fn is_png(b: &[u8]) -> bool {
    b.starts_with(b"\x89PNG\r\n\x1a\n")
}

/// A 74-byte PNG whose IHDR claims `w`×`h`.
fn huge_png(w: u32, h: u32) -> Vec<u8> {
    fn crc(d: &[u8]) -> u32 {
        let mut c = !0u32;
        for &b in d {
            c ^= b as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
        }
        !c
    }
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut chunk = |kind: &[u8], data: &[u8]| {
        let mut body = kind.to_vec();
        body.extend(data);
        png.extend((data.len() as u32).to_be_bytes());
        png.extend(&body);
        png.extend(crc(&body).to_be_bytes());
    };
    let mut ihdr = w.to_be_bytes().to_vec();
    ihdr.extend(h.to_be_bytes());
    ihdr.extend([8, 6, 0, 0, 0]);
    chunk(b"IHDR", &ihdr);
    chunk(b"IDAT", b"\x78\x9c\x03\x00\x00\x00\x00\x01");
    chunk(b"IEND", b"");
    png
}

// ---- row 1: non-regular output targets ------------------------------------

#[test]
fn row01_fifo_output_is_written_through_not_replaced() {
    let d = tmp("fifo");
    let fifo = d.join("out.png");
    mkfifo(&fifo);
    let reader = drain(&fifo);
    let surface = repo().join("assets/prop.surface.json");
    ok(&run(re2d()
        .arg("compile")
        .arg(&surface)
        .arg("-o")
        .arg(&fifo)));
    assert!(is_png(&reader.join().unwrap()));
    assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());

    // render --sheet and build write through it too
    let model = animal(&d);
    let reader = drain(&fifo);
    ok(&run(re2d()
        .args(["render", "--frames", "1", "--style", "pixel", "--sheet"])
        .arg(&fifo)
        .arg(&model)));
    assert!(is_png(&reader.join().unwrap()));
    fs::copy(&surface, d.join("s.json")).unwrap();
    fs::write(
        d.join("b.json"),
        r#"{"version":1,"jobs":[{"surface":"s.json","output":"out.png"}]}"#,
    )
    .unwrap();
    let reader = drain(&fifo);
    ok(&run(re2d().arg("build").arg(d.join("b.json"))));
    assert!(is_png(&reader.join().unwrap()));
    assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
    // a directory target is refused and stays a directory
    fs::create_dir(d.join("dir.png")).unwrap();
    refused(
        &run(re2d()
            .arg("compile")
            .arg(&surface)
            .arg("-o")
            .arg(d.join("dir.png"))),
        3,
    );
    assert!(d.join("dir.png").is_dir());
}

// ---- row 2: PNG headers that claim huge sizes ------------------------------

#[test]
fn row02_huge_png_header_is_refused_before_allocating() {
    let d = tmp("huge");
    let png = huge_png(100_000, 100_000);
    fs::write(d.join("huge.png"), &png).unwrap();
    let e = refused(
        &run(re2d().args(["atlas", "inspect"]).arg(d.join("huge.png"))),
        1,
    );
    assert!(e.contains("png-max-side"), "{e}");
    // as a model's atlas
    let model = animal(&d);
    fs::write(d.join("animal.png"), &png).unwrap();
    let e = refused(
        &run(re2d()
            .args(["render", "--sheet"])
            .arg(d.join("s.png"))
            .arg(&model)),
        1,
    );
    assert!(e.contains("png-max-side"), "{e}");
    assert!(!d.join("s.png").exists());
    // raising the limit moves the refusal to the byte limit, still before allocating
    let e = refused(
        &run(re2d()
            .args(["--limit", "png-max-side=200000", "atlas", "inspect"])
            .arg(d.join("huge.png"))),
        1,
    );
    assert!(e.contains("png-max-bytes"), "{e}");
}

// ---- rows 3, 4: frame counts and sheet sizes -------------------------------

#[test]
fn row03_04_frames_fps_and_sheet_size_are_limited() {
    let d = tmp("frames");
    let model = animal(&d);
    let sheet = d.join("s.png");
    let e = refused(
        &run(re2d()
            .args(["render", "--frames", "1000000", "--sheet"])
            .arg(&sheet)
            .arg(&model)),
        1,
    );
    assert!(e.contains("max-frames"), "{e}");
    let e = refused(
        &run(re2d()
            .args(["render", "--fps", "1e308", "--sheet"])
            .arg(&sheet)
            .arg(&model)),
        1,
    );
    assert!(e.contains("max-frames"), "{e}");
    let e = refused(
        &run(re2d()
            .args([
                "render",
                "--frames",
                "200",
                "--limit",
                "sheet-max-bytes=100M",
                "--sheet",
            ])
            .arg(&sheet)
            .arg(&model)),
        1,
    );
    assert!(e.contains("sheet-max-bytes"), "{e}");
    assert!(!sheet.exists());
    // the same frame count passes -o DIR? no: max-frames is the only limit there
    let e = refused(
        &run(re2d()
            .args(["render", "--frames", "5", "--limit", "max-frames=4", "-o"])
            .arg(d.join("frames"))
            .arg(&model)),
        1,
    );
    assert!(e.contains("max-frames"), "{e}");
}

// ---- row 5: output = input --------------------------------------------------

#[test]
fn row05_outputs_that_are_inputs_are_refused() {
    let d = tmp("clash");
    let surface = d.join("x.json");
    fs::copy(repo().join("assets/prop.surface.json"), &surface).unwrap();
    let before = fs::read(&surface).unwrap();
    refused(
        &run(re2d().arg("compile").arg(&surface).arg("-o").arg(&surface)),
        2,
    );
    // spelled differently and through a symlink / hard link
    std::os::unix::fs::symlink("x.json", d.join("link.json")).unwrap();
    fs::hard_link(&surface, d.join("hard.json")).unwrap();
    for out in ["./x.json", "link.json", "hard.json"] {
        refused(
            &run(re2d()
                .current_dir(&d)
                .args(["compile", "x.json", "-o", out])),
            2,
        );
    }
    assert_eq!(fs::read(&surface).unwrap(), before);

    // render: the sheet is the model's atlas / animations
    let model = animal(&d);
    let atlas = fs::read(d.join("animal.png")).unwrap();
    for out in [
        "animal.png",
        "animal.animations.json",
        "animal.character.json",
    ] {
        refused(
            &run(re2d()
                .args(["render", "--frames", "1", "--style", "pixel", "--sheet"])
                .arg(d.join(out))
                .arg(&model)),
            2,
        );
    }
    assert_eq!(fs::read(d.join("animal.png")).unwrap(), atlas);

    // build: a job writing its own surface, another job's surface, the build file
    let b = d.join("b.json");
    for out in ["x.json", "y.json", "b.json"] {
        fs::copy(repo().join("assets/prop.surface.json"), d.join("y.json")).unwrap();
        let text = format!(
            r#"{{"version":1,"jobs":[{{"surface":"x.json","output":"{out}"}},{{"surface":"y.json","output":"y.png"}}]}}"#
        );
        fs::write(&b, &text).unwrap();
        refused(&run(re2d().arg("build").arg(&b)), 2);
        assert_eq!(fs::read(&surface).unwrap(), before);
        assert_eq!(
            fs::read(d.join("y.json")).unwrap(),
            fs::read(repo().join("assets/prop.surface.json")).unwrap()
        );
        assert_eq!(fs::read_to_string(&b).unwrap(), text);
    }
}

// ---- rows 7, 8: symlinks and special mode bits -----------------------------

#[test]
fn row07_08_symlink_target_and_setuid_bits() {
    let d = tmp("link");
    let surface = repo().join("assets/prop.surface.json");
    fs::create_dir(d.join("real")).unwrap();
    fs::write(d.join("real/atlas.png"), b"old").unwrap();
    std::os::unix::fs::symlink("real/atlas.png", d.join("out.png")).unwrap();
    ok(&run(re2d()
        .arg("compile")
        .arg(&surface)
        .arg("-o")
        .arg(d.join("out.png"))));
    assert!(
        fs::symlink_metadata(d.join("out.png"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(is_png(&fs::read(d.join("real/atlas.png")).unwrap()));

    let t = d.join("suid.png");
    fs::write(&t, b"old").unwrap();
    fs::set_permissions(&t, fs::Permissions::from_mode(0o4755)).unwrap();
    ok(&run(re2d().arg("compile").arg(&surface).arg("-o").arg(&t)));
    assert_eq!(
        fs::metadata(&t).unwrap().permissions().mode() & 0o7777,
        0o755
    );
}

// ---- row 9: endless and oversized inputs ------------------------------------

#[test]
fn row09_endless_and_oversized_inputs_are_capped() {
    let d = tmp("endless");
    // an endless stream (a FIFO fed with zeros until the reader stops)
    let fifo = d.join("zero.json");
    mkfifo(&fifo);
    let p = fifo.clone();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let mut f = fs::OpenOptions::new().write(true).open(p).unwrap();
        let buf = vec![b' '; 1 << 16];
        while f.write_all(&buf).is_ok() {}
    });
    let e = refused(
        &run(re2d()
            .args(["--limit", "json-max-bytes=1M", "compile"])
            .arg(&fifo)
            .arg("-o")
            .arg(d.join("o.png"))),
        1,
    );
    assert!(e.contains("json-max-bytes"), "{e}");
    writer.join().unwrap();
    // a 300 MB (sparse) model file
    let big = d.join("big.json");
    fs::File::create(&big).unwrap().set_len(300 << 20).unwrap();
    let e = refused(
        &run(re2d()
            .args(["render", "--sheet"])
            .arg(d.join("s.png"))
            .arg(&big)),
        1,
    );
    assert!(e.contains("json-max-bytes"), "{e}");
    // deep nesting in a surface file
    fs::write(d.join("deep.json"), "[".repeat(100_000)).unwrap();
    refused(
        &run(re2d()
            .arg("compile")
            .arg(d.join("deep.json"))
            .arg("-o")
            .arg(d.join("o.png"))),
        1,
    );
    assert!(!d.join("o.png").exists());
}

// ---- rows 10, 12, 12b: paths --------------------------------------------------

#[test]
fn row10_model_in_a_non_utf8_directory() {
    let d = tmp("utf8");
    let sub = d.join(std::ffi::OsStr::from_bytes(b"d\xff"));
    fs::create_dir(&sub).unwrap();
    let model = animal(&sub);
    ok(&run(re2d()
        .args(["render", "--frames", "1", "--style", "pixel", "--sheet"])
        .arg(sub.join("s.png"))
        .arg(&model)));
    assert!(is_png(&fs::read(sub.join("s.png")).unwrap()));
}

#[test]
fn row12_missing_files_are_io_errors() {
    let d = tmp("missing");
    let model = animal(&d);
    fs::remove_file(d.join("animal.png")).unwrap();
    refused(
        &run(re2d()
            .args(["render", "--sheet"])
            .arg(d.join("s.png"))
            .arg(&model)),
        3,
    );
    let d = tmp("missing2");
    let model = animal(&d);
    fs::remove_file(d.join("animal.animations.json")).unwrap();
    refused(
        &run(re2d()
            .args(["render", "--sheet"])
            .arg(d.join("s.png"))
            .arg(&model)),
        3,
    );
    refused(
        &run(re2d()
            .args(["render", "--sheet"])
            .arg(d.join("s.png"))
            .arg(d.join("nope.json"))),
        3,
    );
    refused(
        &run(re2d().args(["atlas", "inspect"]).arg(d.join("nope.png"))),
        3,
    );
}

#[test]
fn row12b_assets_resolve_against_the_model_folder() {
    let d = tmp("rel");
    fs::create_dir_all(d.join("assets")).unwrap();
    fs::create_dir_all(d.join("models")).unwrap();
    fs::copy(
        repo().join("tests/golden/animal-1024.png"),
        d.join("assets/animal.png"),
    )
    .unwrap();
    fs::copy(
        repo().join("assets/animal.animations.json"),
        d.join("models/animal.animations.json"),
    )
    .unwrap();
    let text = fs::read_to_string(repo().join("assets/animal.character.json"))
        .unwrap()
        .replace("\"animal.png\"", "\"../assets/animal.png\"");
    assert!(text.contains("../assets/animal.png"));
    fs::write(d.join("models/animal.character.json"), text).unwrap();
    for (cwd, model) in [
        (d.join("models"), "animal.character.json".to_string()),
        (d.join("models"), "./animal.character.json".to_string()),
        (d.clone(), "models/animal.character.json".to_string()),
        (
            d.clone(),
            d.join("models/animal.character.json").display().to_string(),
        ),
    ] {
        let out = d.join("s.png");
        let _ = fs::remove_file(&out);
        ok(&run(re2d()
            .current_dir(&cwd)
            .args(["render", "--frames", "1", "--style", "pixel", "--sheet"])
            .arg(&out)
            .arg(&model)));
        assert!(out.exists(), "{model} from {}", cwd.display());
    }
}

// ---- rows 11, 12c: reports ---------------------------------------------------

#[test]
fn row11_inspect_prints_the_real_size() {
    let d = tmp("inspect");
    let px = vec![0u8; 1024 * 512 * 4];
    fs::write(
        d.join("a.png"),
        re2d_output::png_encode::encode_rgba(&px, 1024, 512).unwrap(),
    )
    .unwrap();
    let o = run(re2d().args(["atlas", "inspect"]).arg(d.join("a.png")));
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("size: 1024x512"), "{out}");
}

#[test]
fn row12c_model_without_parts_in_the_atlas_warns() {
    let d = tmp("noparts");
    fs::copy(
        repo().join("assets/prop.character.json"),
        d.join("prop.character.json"),
    )
    .unwrap();
    fs::copy(
        repo().join("assets/prop.animations.json"),
        d.join("prop.animations.json"),
    )
    .unwrap();
    // the animal atlas holds no part 80 (the prop's only part)
    fs::copy(
        repo().join("tests/golden/animal-1024.png"),
        d.join("prop.png"),
    )
    .unwrap();
    let model = d.join("prop.character.json");
    let o = run(re2d()
        .args(["render", "--frames", "1", "--style", "pixel", "--sheet"])
        .arg(d.join("s.png"))
        .arg(&model));
    ok(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no part of the model is in the atlas"),
        "{err}"
    );
    let e = refused(
        &run(re2d()
            .args([
                "render", "--strict", "--frames", "1", "--style", "pixel", "--sheet",
            ])
            .arg(d.join("s2.png"))
            .arg(&model)),
        1,
    );
    assert!(e.contains("no part of the model"), "{e}");
    assert!(!d.join("s2.png").exists());
    // the animal model on its own atlas does not warn
    let m = animal(&d);
    let o = run(re2d()
        .args([
            "render", "--strict", "--frames", "1", "--style", "pixel", "--sheet",
        ])
        .arg(d.join("s3.png"))
        .arg(&m));
    ok(&o);
    assert!(o.stderr.is_empty());
}

// ---- rows 13, 14: messages name the path and the value --------------------

#[test]
fn row13_14_errors_name_the_json_path_and_the_written_value() {
    let d = tmp("msgs");
    fs::copy(repo().join("assets/prop.surface.json"), d.join("s.json")).unwrap();
    for (job, at, token) in [
        (r#""size":65536"#, "jobs[0].size", "65536"),
        (
            r#""segmentWidths":{"3":"abc"}"#,
            "jobs[0].segmentWidths.3",
            "\"abc\"",
        ),
        (
            r#""segmentWidths":{"999":1}"#,
            "jobs[0].segmentWidths.999",
            "999",
        ),
    ] {
        fs::write(
            d.join("b.json"),
            format!(r#"{{"version":1,"jobs":[{{"surface":"s.json","output":"o.png",{job}}}]}}"#),
        )
        .unwrap();
        let e = refused(&run(re2d().arg("build").arg(d.join("b.json"))), 1);
        assert!(e.contains(at) && e.contains(token), "{e}");
    }
    let surface = fs::read_to_string(d.join("s.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&surface).unwrap();
    let id = v["patches"][0]["id"].to_string();
    let bad = surface.replacen(&format!("\"id\": {id}"), "\"id\": 1e30", 1);
    assert_ne!(bad, surface, "fixture has a patch id");
    fs::write(d.join("bad.json"), bad).unwrap();
    let e = refused(
        &run(re2d()
            .arg("compile")
            .arg(d.join("bad.json"))
            .arg("-o")
            .arg(d.join("o.png"))),
        1,
    );
    assert!(e.contains("patches[0].id") && e.contains("1e30"), "{e}");
}

// ---- row 15: negative numbers ------------------------------------------------

#[test]
fn row15_negative_numbers_are_values_not_options() {
    let d = tmp("neg");
    let model = animal(&d);
    ok(&run(re2d()
        .args(["render", "--time", "-0", "--style", "pixel", "--sheet"])
        .arg(d.join("s.png"))
        .arg(&model)));
    let e = refused(
        &run(re2d()
            .args(["render", "--fps", "-1", "--sheet"])
            .arg(d.join("t.png"))
            .arg(&model)),
        1,
    );
    assert!(e.contains("--fps"), "{e}");
    refused(
        &run(re2d()
            .args(["render", "--time", "-1", "--sheet"])
            .arg(d.join("t.png"))
            .arg(&model)),
        1,
    );
    refused(
        &run(re2d()
            .args(["render", "--frames", "-3", "--sheet"])
            .arg(d.join("t.png"))
            .arg(&model)),
        1,
    );
    // usage errors are one line with code 2
    refused(&run(re2d().args(["render", "--bogus"])), 2);
    refused(&run(re2d().args(["compile"])), 2);
    refused(
        &run(re2d().args(["--limit", "nope=1", "atlas", "inspect", "x"])),
        2,
    );
}

// ---- row 16: signals mid-publish ---------------------------------------------

#[test]
fn row16_sigterm_mid_publish_leaves_no_temp_file() {
    let d = tmp("signal");
    let out = d.join("o.png");
    fs::write(&out, b"before").unwrap();
    for sig in [libc::SIGTERM, libc::SIGINT] {
        let mut cmd = re2d();
        // A test run started in the background of a non-interactive shell
        // inherits an ignored SIGINT, which re2d rightly keeps ignoring:
        // give the child the default dispositions a terminal user has.
        // SAFETY: only async-signal-safe `signal` calls between fork and exec.
        unsafe {
            use std::os::unix::process::CommandExt;
            cmd.pre_exec(|| {
                libc::signal(libc::SIGTERM, libc::SIG_DFL);
                libc::signal(libc::SIGINT, libc::SIG_DFL);
                Ok(())
            });
        }
        let mut child = cmd
            .arg("compile")
            .arg(repo().join("assets/prop.surface.json"))
            .arg("-o")
            .arg(&out)
            .env("RE2D_TEST_PUBLISH_PAUSE_MS", "20000")
            .spawn()
            .unwrap();
        // wait until the temporary file exists
        let t0 = std::time::Instant::now();
        while fs::read_dir(&d).unwrap().count() < 2 {
            assert!(t0.elapsed().as_secs() < 20, "no temporary file appeared");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        // SAFETY: signalling our own child.
        unsafe { libc::kill(child.id() as i32, sig) };
        let st = child.wait().unwrap();
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(st.signal(), Some(sig));
        let names: Vec<_> = fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, [std::ffi::OsString::from("o.png")]);
        assert_eq!(fs::read(&out).unwrap(), b"before");
    }
}

// ---- done-when: a sweep of hostile inputs through every command -------------

#[test]
fn hostile_inputs_never_abort_and_refuse_in_one_line() {
    let d = tmp("sweep");
    let mut inputs: Vec<(&str, Vec<u8>)> = vec![
        ("empty", vec![]),
        ("brace", b"{".to_vec()),
        ("array", b"[]".to_vec()),
        ("null", b"null".to_vec()),
        ("deep", "[".repeat(5000).into_bytes()),
        ("deepobj", "{\"a\":".repeat(3000).into_bytes()),
        ("bignum", b"{\"version\":1e400,\"jobs\":[{\"surface\":1e400}]}".to_vec()),
        ("utf8", b"{\"version\":1,\"atlas\":\"\xff\xfe\"}".to_vec()),
        ("bom", b"\xef\xbb\xbf{}".to_vec()),
        ("nul", b"{\"version\":1,\0}".to_vec()),
        ("surrogate", br#"{"version":1,"atlas":"\ud800","rig":{"bones":[{"name":"\udc00"}],"parts":[{"id":1,"bone":"\udc00"}]},"patches":[{"type":"grid","id":1e30}]}"#.to_vec()),
        ("huge", huge_png(100_000, 100_000)),
        ("wide", huge_png(16384, 16384)),
        ("trunc", huge_png(64, 64)[..30].to_vec()),
        ("noise", (0..4096u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect()),
    ];
    let png1 = re2d_output::png_encode::encode_rgba(&[1, 2, 3, 255], 1, 1).unwrap();
    inputs.push(("png1", png1));
    for (name, bytes) in &inputs {
        let f = d.join(name);
        fs::write(&f, bytes).unwrap();
        // a model naming this file as its atlas / animations
        let model = d.join(format!("{name}.model.json"));
        fs::write(
            &model,
            format!(
                r#"{{"version":1,"atlas":"{name}","animations":"{name}","rig":{{"bones":[{{"name":"r"}}],"parts":[{{"id":1,"bone":"r"}}]}}}}"#
            ),
        )
        .unwrap();
        let out = d.join("out.png");
        let runs: Vec<Vec<std::ffi::OsString>> = vec![
            vec![
                "compile".into(),
                f.clone().into(),
                "-o".into(),
                out.clone().into(),
            ],
            vec![
                "compile".into(),
                repo().join("assets/prop.surface.json").into(),
                "--material".into(),
                f.clone().into(),
                "-o".into(),
                out.clone().into(),
            ],
            vec!["build".into(), f.clone().into()],
            vec!["atlas".into(), "inspect".into(), f.clone().into()],
            vec![
                "render".into(),
                f.clone().into(),
                "--sheet".into(),
                out.clone().into(),
            ],
            vec![
                "render".into(),
                model.clone().into(),
                "--sheet".into(),
                out.clone().into(),
            ],
        ];
        for args in runs {
            let o = run(re2d().args(&args));
            let code = o.status.code();
            assert!(
                matches!(code, Some(1..=3)),
                "{name}: {args:?} -> {:?} {}",
                o.status,
                String::from_utf8_lossy(&o.stderr)
            );
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(err.lines().count(), 1, "{name}: {args:?}: {err:?}");
            assert!(!out.exists(), "{name}: {args:?} wrote an output");
        }
    }
}

/// The limits table of docs/limits.md lists exactly the limits of `Limits::TABLE`,
/// with the same defaults (the README cannot drift from the code).
#[test]
fn readme_lists_every_limit_with_its_default() {
    let readme = std::fs::read_to_string(concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/.."),
        "/docs/limits.md"
    ))
    .expect("docs/limits.md");
    let start = readme.find("<!-- limits:begin -->").expect("limits:begin");
    let end = readme.find("<!-- limits:end -->").expect("limits:end");
    let mut maxima = Vec::new();
    let rows: Vec<(String, String)> = readme[start..end]
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
            let name = cells[0].trim_matches('`').to_string();
            maxima.push((name.clone(), cells[cells.len() - 1].to_string()));
            (name, cells[cells.len() - 2].to_string())
        })
        .collect();
    // the maximum column is the real maximum
    for (name, max) in &maxima {
        assert_eq!(
            re2d::limits::parse_size(max),
            re2d::limits::Limits::maximum(name),
            "{name}"
        );
    }
    let table: Vec<(String, String)> = re2d::limits::Limits::TABLE
        .iter()
        .map(|(n, _, d)| (n.to_string(), d.to_string()))
        .collect();
    assert_eq!(rows, table);
    // every documented default is the real default
    for (name, default) in &table {
        let mut l = re2d::limits::Limits::DEFAULT;
        l.set(name, default).expect("default parses");
        assert_eq!(l, re2d::limits::Limits::DEFAULT, "{name}={default}");
    }
}
