//! `make bench-riv`: export time of the walking fixture (model JSON + PNGs → .riv bytes,
//! including loading the files) and the size of the .riv against a sprite sheet of the same
//! clip (every frame at the export fps, rendered by the reference renderer at the artboard
//! resolution, PNG-encoded by re2d's one encoder).

use std::time::Instant;

use re2d::limits::Limits;
use re2d_riv::reference::{RefOptions, render};
use re2d_riv::{Model, Options, export};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("tests/riv/fixtures/walk/model.json");
    let mut load_export = Vec::new();
    let mut export_only = Vec::new();
    let mut bytes = Vec::new();
    for _ in 0..60 {
        let t = Instant::now();
        let m = Model::load(&path, &Limits::DEFAULT).expect("walk fixture");
        let l = t.elapsed().as_secs_f64();
        let t2 = Instant::now();
        let e = export(&m, &Options::default()).expect("export");
        export_only.push(t2.elapsed().as_secs_f64() * 1e3);
        load_export.push((l + t2.elapsed().as_secs_f64()) * 1e3);
        bytes = e.bytes;
    }
    println!(
        "riv export walk: load+export median {:.3} ms (export alone {:.3} ms), {} bytes; budget 50 ms",
        median(load_export),
        median(export_only),
        bytes.len()
    );
    // Sprite sheet of the same clip at the same resolution: every frame at 60 fps.
    let m = Model::load(&path, &Limits::DEFAULT).expect("walk fixture");
    let clip = m.clip("walk").expect("walk clip");
    let fps = 60u32;
    let frames = (clip.duration * fps as f64).round() as usize;
    let f = m.frame(None, None);
    let (w, h) = (f.width as usize, f.height as usize);
    let cols = 10usize;
    let rows = frames.div_ceil(cols);
    let mut sheet = vec![0u8; cols * w * rows * h * 4];
    let t = Instant::now();
    for i in 0..frames {
        let o = RefOptions {
            clip: Some("walk".into()),
            time: i as f64 / fps as f64,
            fps,
            ..RefOptions::default()
        };
        let img = render(&m, &o, &Limits::DEFAULT).expect("render");
        let (cx, cy) = (i % cols, i / cols);
        for y in 0..h {
            let dst = ((cy * h + y) * cols * w + cx * w) * 4;
            sheet[dst..dst + w * 4].copy_from_slice(&img.data[y * w * 4..(y + 1) * w * 4]);
        }
    }
    let render_ms = t.elapsed().as_secs_f64() * 1e3 / frames as f64;
    let png = re2d_output::png_encode::encode_rgba(&sheet, (cols * w) as u32, (rows * h) as u32)
        .expect("png");
    println!(
        "riv size: walk.riv {} bytes vs sprite sheet {} bytes ({} frames of {}x{} at {} fps, {}x{} px PNG): {:.1}x smaller; reference render {:.2} ms/frame",
        bytes.len(),
        png.len(),
        frames,
        w,
        h,
        fps,
        cols * w,
        rows * h,
        png.len() as f64 / bytes.len() as f64,
        render_ms
    );
}
