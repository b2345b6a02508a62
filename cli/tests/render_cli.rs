// re2d tests — `re2d render` end to end: frames, sheets, determinism, errors and exit codes.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::path::PathBuf;
use std::process::Command;

fn re2d() -> Command {
    Command::new(env!("CARGO_BIN_EXE_re2d"))
}

/// Animal template + the existing engine's atlas compiled from its surface.
fn fixture(tag: &str) -> PathBuf {
    let repo = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let dir = common::fresh_dir(&format!("re2d-render-{tag}"));
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

/// One decoded APNG frame: delay numerator, denominator, RGBA.
type ApngFrame = (u16, u16, Vec<u8>);

/// Every frame of an APNG decoded by the `png` crate: (plays, width, height, frames).
fn apng_frames(path: &std::path::Path) -> (u32, u32, u32, Vec<ApngFrame>) {
    let mut r = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()))
        .read_info()
        .unwrap();
    let actl = r.info().animation_control.expect("an animated PNG");
    let (w, h) = (r.info().width, r.info().height);
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let mut frames = Vec::new();
    for _ in 0..actl.num_frames {
        r.next_frame(&mut buf).unwrap();
        let fc = r.info().frame_control.unwrap();
        assert_eq!(
            (fc.width, fc.height, fc.x_offset, fc.y_offset),
            (w, h, 0, 0)
        );
        frames.push((fc.delay_num, fc.delay_den, buf.clone()));
    }
    (actl.num_plays, w, h, frames)
}

/// Union of the opaque (alpha > 0) pixels of size² frames: x0, y0, x1, y1 (exclusive).
fn union_bounds(frames: &[Vec<u8>], size: usize) -> (usize, usize, usize, usize) {
    let mut b = (usize::MAX, usize::MAX, 0, 0);
    for f in frames {
        for (i, p) in f.chunks(4).enumerate() {
            if p[3] != 0 {
                let (x, y) = (i % size, i / size);
                b = (b.0.min(x), b.1.min(y), b.2.max(x + 1), b.3.max(y + 1));
            }
        }
    }
    b
}

#[test]
fn apng_gif_and_fit() {
    let dir = fixture("anim");
    let model = dir.join("animal.character.json");
    let m = model.to_str().unwrap();
    let p = |n: &str| dir.join(n);
    let run = |args: &[&str]| {
        let o = re2d().arg("render").args(args).output().unwrap();
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    let s = |n: &str| p(n).to_str().unwrap().to_string();
    let common = [
        m, "--style", "pixel", "--frames", "5", "--turn", "40", "--fps", "15",
    ];
    // full frames as PNG files and as APNG + GIF, in one run
    let (full, apng, gif) = (s("full"), s("a.png"), s("a.gif"));
    run(&[&common[..], &["-o", &full, "--apng", &apng, "--gif", &gif]].concat());
    let frames: Vec<Vec<u8>> = (0..5)
        .map(|i| png_size(&p("full").join(format!("frame-{i:04}.png"))).2)
        .collect();
    let (plays, w, h, got) = apng_frames(&p("a.png"));
    assert_eq!((plays, w, h, got.len()), (0, 128, 128, 5), "walk loops");
    for (i, (num, den, px)) in got.iter().enumerate() {
        assert_eq!((*num, *den), (1, 15), "frame {i} delay");
        assert!(
            px == &frames[i],
            "APNG frame {i} differs from frame-{i:04}.png"
        );
    }
    assert_ne!(got[0].2, got[1].2);
    let mut o = gif::DecodeOptions::new();
    o.set_color_output(gif::ColorOutput::RGBA);
    let mut d = o
        .read_info(std::fs::File::open(p("a.gif")).unwrap())
        .unwrap();
    assert_eq!((d.width(), d.height()), (128, 128));
    let mut n = 0;
    while let Some(f) = d.read_next_frame().unwrap() {
        assert_eq!(f.delay, 7, "1/15 s in centiseconds");
        // GIF transparency is the frame's alpha cut at 128
        let mask = |px: &[u8]| px.chunks(4).map(|q| q[3] >= 128).collect::<Vec<_>>();
        assert!(mask(&f.buffer) == mask(&frames[n]), "GIF frame {n} mask");
        n += 1;
    }
    assert_eq!(n, 5);

    // --fit 6: every output cropped to the union of the opaque bounds + 6 px
    let (x0, y0, x1, y1) = union_bounds(&frames, 128);
    assert!(
        x0 >= 6 && y0 >= 6 && x1 + 6 <= 128 && y1 + 6 <= 128,
        "fixture fits"
    );
    let (cx, cy, cw, ch) = (x0 - 6, y0 - 6, x1 - x0 + 12, y1 - y0 + 12);
    let crop = |f: &[u8]| -> Vec<u8> {
        (cy..cy + ch)
            .flat_map(|y| f[(y * 128 + cx) * 4..(y * 128 + cx + cw) * 4].to_vec())
            .collect()
    };
    let (fit, fapng, fsheet) = (s("fit"), s("fit.png"), s("fit-sheet.png"));
    run(&[&common[..], &["--fit", "6", "-o", &fit, "--apng", &fapng]].concat());
    run(&[
        &common[..],
        &["--fit=6", "--columns", "2", "--sheet", &fsheet],
    ]
    .concat());
    let (_, w, h, got) = apng_frames(&p("fit.png"));
    assert_eq!((w as usize, h as usize), (cw, ch));
    for i in 0..5 {
        let want = crop(&frames[i]);
        assert!(got[i].2 == want, "fitted APNG frame {i}");
        let (fw, fh, px) = png_size(&p("fit").join(format!("frame-{i:04}.png")));
        assert_eq!((fw as usize, fh as usize), (cw, ch));
        assert!(px == want, "fitted frame-{i:04}.png");
    }
    let (sw, sh, _) = png_size(&p("fit-sheet.png"));
    assert_eq!((sw as usize, sh as usize), (2 * cw, 3 * ch));
    // --fit without a value: 8 px
    run(&[&common[..], &["--fit", "--apng", &s("fit8.png")]].concat());
    let (_, w, h, _) = apng_frames(&p("fit8.png"));
    assert_eq!((w as usize, h as usize), (x1 - x0 + 16, y1 - y0 + 16));

    // a clip that does not loop plays once
    let anims = std::fs::read_to_string(p("animal.animations.json")).unwrap();
    let once = anims.replacen("\"loop\": true", "\"loop\": false", 1);
    assert_ne!(once, anims);
    std::fs::write(p("animal.animations.json"), once).unwrap();
    run(&[
        m,
        "--style",
        "pixel",
        "--frames",
        "2",
        "--apng",
        &s("once.png"),
        "--gif",
        &s("once.gif"),
    ]);
    assert_eq!(apng_frames(&p("once.png")).0, 1);
    let g = std::fs::read(p("once.gif")).unwrap();
    assert!(!g.windows(11).any(|w| w == b"NETSCAPE2.0"));
    assert!(
        std::fs::read(&gif)
            .unwrap()
            .windows(11)
            .any(|w| w == b"NETSCAPE2.0")
    );

    // refusing to overwrite the model or the atlas leaves them unchanged
    let atlas = std::fs::read(p("animal.png")).unwrap();
    for target in [m.to_string(), s("animal.png")] {
        let o = re2d()
            .args([
                "render", m, "--style", "pixel", "--frames", "1", "--apng", &target,
            ])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{target}");
        assert_eq!(String::from_utf8(o.stderr).unwrap().lines().count(), 1);
    }
    assert_eq!(std::fs::read(p("animal.png")).unwrap(), atlas);
    assert!(
        std::fs::read_to_string(&model)
            .unwrap()
            .contains("\"atlas\"")
    );
    // two outputs naming the same file: usage error, nothing written
    let o = re2d()
        .args([
            "render",
            m,
            "--frames",
            "1",
            "--apng",
            &s("same"),
            "--gif",
            &s("same"),
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(!p("same").exists());
    // too many frames to hold for an animation: exit 1, nothing written
    let o = re2d()
        .args(["render", m, "--frames", "5000", "--gif", &s("big.gif")])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(!p("big.gif").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
