// re2d tests — `re2d render` end to end: frames, sheets, determinism, errors and exit codes.

use std::path::PathBuf;
use std::process::Command;

fn re2d() -> Command {
    Command::new(env!("CARGO_BIN_EXE_re2d"))
}

/// Animal template + the existing engine's atlas compiled from its surface.
fn fixture(tag: &str) -> PathBuf {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("re2d-render-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["animal.character.json", "animal.animations.json"] {
        std::fs::copy(repo.join("assets").join(f), dir.join(f)).unwrap();
    }
    std::fs::copy(
        repo.join("tests/golden/animal-1024.png"),
        dir.join("animal.png"),
    )
    .unwrap();
    dir
}

fn png_size(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    let img =
        re2d::png_io::decode_rgba(std::io::BufReader::new(std::fs::File::open(path).unwrap()))
            .unwrap();
    (img.width, img.height, img.data)
}

#[test]
fn sheet_and_frames() {
    let dir = fixture("ok");
    let model = dir.join("animal.character.json");
    let sheet = dir.join("sheet.png");
    let st = re2d()
        .args([
            "render",
            model.to_str().unwrap(),
            "--frames",
            "6",
            "--columns",
            "3",
            "--turn",
            "30",
        ])
        .args(["--sheet", sheet.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(st.success());
    let (w, h, px) = png_size(&sheet);
    assert_eq!((w, h), (3 * 512, 2 * 512));
    // Every cell holds a non-empty sprite, and turning changes it.
    let cell = |cx: usize, cy: usize| -> Vec<u8> {
        (0..512)
            .flat_map(|y| {
                let o = ((cy * 512 + y) * 1536 + cx * 512) * 4;
                px[o..o + 2048].to_vec()
            })
            .collect()
    };
    let cells: Vec<Vec<u8>> = (0..6).map(|i| cell(i % 3, i / 3)).collect();
    assert!(cells.iter().all(|c| c.chunks(4).any(|p| p[3] != 0)));
    assert_ne!(cells[0], cells[1]);
    // Same inputs, same bytes.
    let again = dir.join("again.png");
    let st = re2d()
        .args([
            "render",
            model.to_str().unwrap(),
            "--frames",
            "6",
            "--columns",
            "3",
            "--turn",
            "30",
        ])
        .args(["--sheet", again.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(st.success());
    assert_eq!(
        std::fs::read(&sheet).unwrap(),
        std::fs::read(&again).unwrap()
    );
    // Numbered frames in pixel style: 128 px, one per frame.
    let frames = dir.join("frames");
    let st = re2d()
        .args([
            "render",
            model.to_str().unwrap(),
            "--style",
            "pixel",
            "--frames",
            "3",
            "-o",
            frames.to_str().unwrap(),
        ])
        .status()
        .unwrap();
    assert!(st.success());
    for i in 0..3 {
        let (w, h, _) = png_size(&frames.join(format!("frame-{i:04}.png")));
        assert_eq!((w, h), (128, 128));
    }
    assert!(!frames.join("frame-0003.png").exists());
}

#[test]
fn errors_exit_non_zero_with_one_line() {
    let dir = fixture("err");
    let model = dir.join("animal.character.json");
    let out = dir.join("out.png");
    let run = |args: &[&str]| {
        let o = re2d().arg("render").args(args).output().unwrap();
        (
            o.status.code().unwrap(),
            String::from_utf8(o.stderr).unwrap(),
        )
    };
    let m = model.to_str().unwrap();
    let o = out.to_str().unwrap();
    for (args, code) in [
        (vec![m, "--clip", "fly", "--sheet", o], 1),
        (vec![m, "--expression", "eyes=wide", "--sheet", o], 1),
        (vec![m, "--fps", "0", "--sheet", o], 1),
        (vec!["/nonexistent/x.character.json", "--sheet", o], 3),
        (vec![m], 2),
    ] {
        let (c, err) = run(&args);
        assert_eq!(c, code, "{args:?}: {err}");
        if code != 2 {
            assert_eq!(err.lines().count(), 1, "{err}");
        }
    }
    assert!(!out.exists(), "nothing written on error");
    let help = re2d().args(["render", "--help"]).output().unwrap();
    assert!(help.status.success());
    assert!(String::from_utf8(help.stdout).unwrap().contains("--sheet"));
}
