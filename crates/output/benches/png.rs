// re2d bench: PNG output size and encode time for compiled atlases and render sheets (issue 9 item 5).
//! Prints, per image, the encoded size, its ratio to the existing engine's PNG
//! of the same surface (where there is one) and the median encode time:
//! - the `animal` and `prop` surfaces compiled at 1024² (default SUB encoding
//!   and `--legacy`, whose pixels equal the engine's `tests/golden/*-1024.png`)
//!   and the animal at 4096²;
//! - an 8-frame render sheet of the animal walking and turning (4096×512) and
//!   the dense demo figure's walk sheet (4096×512).
//!
//! Atlases are encoded at the level `re2d compile` uses
//! ([`re2d_output::png_encode::SMALLEST`]), sheets at the level of `re2d render`
//! ([`re2d_output::png_encode::BALANCED`]).
//!
//! `harness = false`: `cargo bench --bench png` or `make bench-png`; `LEVEL=N`
//! encodes everything at zlib level N instead.
//! `cargo bench --bench png -- --once NAME` encodes one image once (for
//! `valgrind --tool=callgrind` instruction counts).

use std::path::Path;
use std::time::Instant;

use re2d::character::{Character, FrameRequest};
use re2d::rotsprite::{AnimeWorkspace, AtlasImage, Frame, Rig, decode_anime};
use re2d_surface::{self as surface, Options};
use re2d_testkit::atlas::{dense_atlas, walk_pose};

fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..runs)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

struct Image {
    name: String,
    rgba: Vec<u8>,
    w: u32,
    h: u32,
    engine_png: Option<u64>,
    level: u32,
}

fn repo(p: &str) -> std::path::PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join(p)
}

fn compiled(name: &str, size: u32, legacy: bool) -> Image {
    let src = std::fs::read(repo(&format!("assets/{name}.surface.json"))).unwrap();
    let o = Options {
        size,
        legacy,
        ..Options::default()
    };
    let a = surface::compile(&src, None, &o).unwrap();
    let engine = repo(&format!("tests/golden/{name}-1024.png"));
    Image {
        name: format!(
            "{name} atlas {size}{}",
            if legacy { " --legacy" } else { "" }
        ),
        rgba: a.rgba,
        w: size,
        h: size,
        engine_png: (size == 1024).then(|| std::fs::metadata(&engine).unwrap().len()),
        level: re2d_output::png_encode::SMALLEST,
    }
}

/// 8 frames side by side, 512 px each.
fn sheet(name: &str, mut frame: impl FnMut(usize) -> Vec<u8>) -> Image {
    let (n, s) = (8usize, 512usize);
    let mut rgba = vec![0u8; n * s * s * 4];
    for i in 0..n {
        let px = frame(i);
        for y in 0..s {
            let dst = (y * n * s + i * s) * 4;
            rgba[dst..dst + s * 4].copy_from_slice(&px[y * s * 4..(y + 1) * s * 4]);
        }
    }
    Image {
        name: name.into(),
        rgba,
        w: (n * s) as u32,
        h: s as u32,
        engine_png: None,
        level: re2d_output::png_encode::BALANCED,
    }
}

fn animal_sheet() -> Image {
    let dir = std::env::temp_dir().join(format!("re2d-bench-png-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["animal.character.json", "animal.animations.json"] {
        std::fs::copy(repo(&format!("assets/{f}")), dir.join(f)).unwrap();
    }
    // The model's atlas: the engine's compile of the same surface.
    std::fs::copy(repo("tests/golden/animal-1024.png"), dir.join("animal.png")).unwrap();
    let mut ch = Character::load(&dir.join("animal.character.json")).unwrap();
    let img = sheet("animal walk sheet 8x512", |i| {
        let req = FrameRequest {
            time: i as f64 / 12.0,
            yaw: 45.0 * i as f64,
            pitch: 10.0,
            ..FrameRequest::default()
        };
        ch.render(&req).unwrap().to_vec()
    });
    let _ = std::fs::remove_dir_all(&dir);
    img
}

fn dense_sheet() -> Image {
    let atlas = dense_atlas(1);
    let smooth = decode_anime(&AtlasImage::new(&atlas, 1024, 1024, 4096).unwrap()).unwrap();
    let mut ws = AnimeWorkspace::new();
    sheet("dense walk sheet 8x512", |i| {
        let t = i as f64 / 8.0;
        let pose = walk_pose(t);
        let frame = Frame::new(-60.0 + 120.0 * t, 10.0, 0, 0, Some(Rig::model(&pose))).unwrap();
        let mut px = vec![0u8; 512 * 512 * 4];
        ws.render(&smooth, &frame, 512, &mut px).unwrap();
        px
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if !args.iter().any(|a| a == "--bench") {
        println!("re2d png bench: skipped (run `make bench-png` or `cargo bench --bench png`)");
        return;
    }
    let once = args
        .iter()
        .position(|a| a == "--once")
        .and_then(|i| args.get(i + 1));
    let images = vec![
        compiled("animal", 1024, false),
        compiled("animal", 1024, true),
        compiled("prop", 1024, false),
        compiled("prop", 1024, true),
        compiled("animal", 4096, false),
        animal_sheet(),
        dense_sheet(),
    ];
    for img in &images {
        if let Some(name) = once {
            if img.name.starts_with(name.as_str()) {
                let png =
                    re2d_output::png_encode::encode_rgba_level(&img.rgba, img.w, img.h, img.level)
                        .unwrap();
                println!("{}: {} bytes", img.name, png.len());
                return;
            }
            continue;
        }
        let level: u32 = std::env::var("LEVEL").map_or(img.level, |l| l.parse().unwrap());
        let png =
            re2d_output::png_encode::encode_rgba_level(&img.rgba, img.w, img.h, level).unwrap();
        let runs = if img.w * img.h > 1 << 22 { 5 } else { 11 };
        let ms = median_ms(runs, || {
            std::hint::black_box(
                re2d_output::png_encode::encode_rgba_level(&img.rgba, img.w, img.h, level).unwrap(),
            );
        });
        let ratio = img.engine_png.map_or(String::new(), |e| {
            format!(" = {:.2}x the engine's {e}", png.len() as f64 / e as f64)
        });
        println!(
            "{:28} {}x{}: {:8} bytes{ratio}, zlib {level}, encode {ms:.1} ms (median of {runs})",
            img.name,
            img.w,
            img.h,
            png.len()
        );
    }
}
