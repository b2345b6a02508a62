//! A strip of N frames of one clip of a `rig build` folder, drawn by the reference renderer
//! (re2d_riv::reference, what `re2d riv render-ref` draws), side by side on white, each frame
//! scaled down by an integer factor. `make demo` (out/rig-drawing) makes its walk and wave
//! strips with it until `re2d rig render` (issue 47) lands.
//!
//! `cargo run --release --example rig_strip -- BUILD_DIR CLIP OUT.png [FRAMES] [SCALE]`

use re2d::limits::Limits;
use re2d_riv::Model;
use re2d_riv::reference::{RefOptions, render};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: rig_strip BUILD_DIR CLIP OUT.png [FRAMES] [SCALE]");
        std::process::exit(2);
    }
    let n: usize = args.get(3).map_or(8, |s| s.parse().unwrap_or(8)).max(1);
    let scale: usize = args.get(4).map_or(2, |s| s.parse().unwrap_or(2)).max(1);
    let path = std::path::Path::new(&args[0]).join("model.json");
    let model = Model::load(&path, &Limits::DEFAULT).unwrap_or_else(|e| {
        eprintln!("rig_strip: {}: {e}", path.display());
        std::process::exit(1)
    });
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap_or_default();
    let clip = &json["clips"][&args[1]];
    let dur = clip["duration"].as_f64().unwrap_or(1.0);
    let looped = clip["loop"].as_bool().unwrap_or(false);
    let mut frames = Vec::new();
    for k in 0..n {
        let t = dur * k as f64 / if looped { n } else { (n - 1).max(1) } as f64;
        let opts = RefOptions {
            clip: Some(args[1].clone()),
            time: t,
            ..RefOptions::default()
        };
        let img = render(&model, &opts, &Limits::DEFAULT).unwrap_or_else(|e| {
            eprintln!("rig_strip: {e}");
            std::process::exit(1)
        });
        frames.push(img);
    }
    let (fw, fh) = (frames[0].width as usize, frames[0].height as usize);
    let (sw, sh) = (fw / scale, fh / scale);
    let w = sw * n;
    let mut out = vec![255u8; w * sh * 4];
    for (k, f) in frames.iter().enumerate() {
        for y in 0..sh {
            for x in 0..sw {
                // the scale x scale block's average, over white
                let mut acc = [0u32; 3];
                for dy in 0..scale {
                    for dx in 0..scale {
                        let p = &f.data[((y * scale + dy) * fw + x * scale + dx) * 4..][..4];
                        let a = p[3] as u32;
                        for c in 0..3 {
                            acc[c] += (p[c] as u32 * a + 255 * (255 - a)) / 255;
                        }
                    }
                }
                let o = &mut out[(y * w + k * sw + x) * 4..][..4];
                for c in 0..3 {
                    o[c] = (acc[c] / (scale * scale) as u32) as u8;
                }
                o[3] = 255;
            }
        }
    }
    let png = re2d_output::png_encode::encode_rgba(&out, w as u32, sh as u32).unwrap();
    std::fs::write(&args[2], png).unwrap();
    println!("{}: {n} frames of {} ({dur:.2} s)", args[2], args[1]);
}
