// re2d MSH preview: renders a model's animation as a PNG sheet with the project's flat-shaded CPU rasteriser (make demo-msh).
//! `cargo run --example msh_preview -- MODEL.msh OUT.png [--entry NAME] [--frames N] [--size PX]`
//! Frames are taken at evenly spaced times over the model's frame count
//! (the static pose for a model without animation), side by side, all
//! fitted to the same bounds so the motion is visible.

use std::path::PathBuf;

use re2d::limits::Limits;
use re2d_msh::nres::Profile;
use re2d_msh::pose::poses_at;
use re2d_msh::render::{View, bounds, render, triangles};

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(input), Some(output)) = (args.next(), args.next()) else {
        eprintln!("usage: msh_preview MODEL.msh OUT.png [--entry NAME] [--frames N] [--size PX]");
        std::process::exit(2);
    };
    let (mut entry, mut frames, mut size) = (None, 4usize, 256u32);
    while let Some(a) = args.next() {
        let v = args.next().unwrap_or_default();
        match a.as_str() {
            "--entry" => entry = Some(v),
            "--frames" => frames = v.parse().unwrap_or(4).clamp(1, 16),
            "--size" => size = v.parse().unwrap_or(256).clamp(16, 2048),
            _ => {
                eprintln!("error: unknown option {a}");
                std::process::exit(2);
            }
        }
    }
    let input = PathBuf::from(input);
    let bytes = match std::fs::read(&input) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error[E_IO]: {}: {e}", input.display());
            std::process::exit(3);
        }
    };
    let m = match re2d_msh::decode(
        &bytes,
        entry.as_deref().map(str::as_bytes),
        Profile::Tolerant,
        &Limits::DEFAULT,
    ) {
        Ok((m, _)) => m,
        Err(e) => {
            eprintln!("error[{}]: {}: {}", e.code, input.display(), e.message);
            std::process::exit(1);
        }
    };
    let span = m.frame_count().max(1) as f32;
    let times: Vec<f32> = (0..frames)
        .map(|k| span * k as f32 / frames as f32)
        .collect();
    // common bounds over every frame
    let mut all = Vec::new();
    for &t in &times {
        all.extend(triangles(&m, &poses_at(&m, t), 0, 0));
    }
    let b = bounds(&all);
    let (w, h) = (size as usize, size as usize);
    let mut sheet = vec![0u8; frames * w * h * 4];
    for (k, &t) in times.iter().enumerate() {
        let view = View {
            width: size,
            height: size,
            bounds: Some(b),
            ..View::default()
        };
        let img = render(&m, &poses_at(&m, t), &view);
        for y in 0..h {
            let dst = (y * frames * w + k * w) * 4;
            sheet[dst..dst + w * 4].copy_from_slice(&img[y * w * 4..(y + 1) * w * 4]);
        }
    }
    let png = re2d_output::png_encode::encode_rgba(&sheet, (frames * w) as u32, h as u32)
        .expect("encode");
    let out = PathBuf::from(&output);
    if let Err(e) = re2d_output::publish::publish(&out, &png, &[input.as_path()]) {
        eprintln!("error: {e}");
        std::process::exit(e.exit_code());
    }
    println!("wrote {output}: {frames} frames at t = {times:?}");
}
