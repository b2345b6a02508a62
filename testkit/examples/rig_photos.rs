//! Writes generated characters as phone photos of paper (testkit/src/drawings/photo.rs) into
//! OUT_DIR: `<name>-photo-s<seed>.png`, its truth mask `<name>-photo-s<seed>.truth.png`
//! (white = figure) and `<name>-photo-s<seed>.skeleton.json` (the declaration moved to the
//! frame, `background: "paper"`).
//!
//! `cargo run --release --example rig_photos -- OUT_DIR [--seed N] [--size WxH]`

use re2d_testkit::drawings;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! {
        eprintln!("usage: rig_photos OUT_DIR [--seed N] [--size WxH]");
        std::process::exit(2);
    };
    let Some(out) = args.first() else { usage() };
    let (mut seed, mut w, mut h) = (1u64, 1800u32, 1350u32);
    let mut i = 1;
    while i + 1 < args.len() + 1 && i < args.len() {
        match (args[i].as_str(), args.get(i + 1)) {
            ("--seed", Some(v)) => seed = v.parse().unwrap_or_else(|_| usage()),
            ("--size", Some(v)) => {
                let (a, b) = v.split_once('x').unwrap_or_else(|| usage());
                (w, h) = (
                    a.parse().unwrap_or_else(|_| usage()),
                    b.parse().unwrap_or_else(|_| usage()),
                );
            }
            _ => usage(),
        }
        i += 2;
    }
    std::fs::create_dir_all(out).unwrap();
    for spec in [drawings::biped(), drawings::quadruped(), drawings::girl()] {
        let p = match drawings::photo::photo(&spec, w, h, seed) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("rig_photos: {e}");
                std::process::exit(1);
            }
        };
        let stem = format!("{out}/{}-photo-s{seed}", spec.name);
        let png = |rgba: &[u8]| re2d_output::png_encode::encode_rgba(rgba, w, h).unwrap();
        std::fs::write(format!("{stem}.png"), png(&p.rgba)).unwrap();
        let truth: Vec<u8> = p
            .truth
            .iter()
            .flat_map(|&t| if t { [255u8; 4] } else { [0, 0, 0, 255] })
            .collect();
        std::fs::write(format!("{stem}.truth.png"), png(&truth)).unwrap();
        println!("{stem}.png");
    }
}
