//! The figure found on a photo of paper (re2d_rig::declare::paper), written as a mask PNG
//! (white = figure) with the numbers its rules used; with a truth mask, the IoU.
//!
//! `cargo run --release --example rig_paper -- IN.png|IN.jpg OUT.png [TRUTH.png]`

use re2d::limits::Limits;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: rig_paper IN OUT.png [TRUTH.png]");
        std::process::exit(2);
    }
    let read = |p: &str| {
        let b = std::fs::read(p).unwrap_or_else(|e| panic!("{p}: {e}"));
        re2d_rig::declare::image::decode(&b, p, &Limits::DEFAULT).unwrap_or_else(|e| panic!("{e}"))
    };
    let img = read(&args[0]);
    let t = std::time::Instant::now();
    let f = re2d_rig::declare::paper::figure(&img);
    let ms = t.elapsed().as_secs_f64() * 1e3;
    let px: Vec<u8> = f
        .mask
        .iter()
        .flat_map(|&m| if m { [255u8; 4] } else { [0, 0, 0, 255] })
        .collect();
    std::fs::write(
        &args[1],
        re2d_output::png_encode::encode_rgba(&px, img.width, img.height).unwrap(),
    )
    .unwrap();
    print!(
        "{}: {}x{}, window {}, sigma {:.2}, threshold {:.1}, closing {}, components {}, {ms:.0} ms",
        args[0], img.width, img.height, f.window, f.sigma, f.threshold, f.closing, f.components
    );
    if let Some(tp) = args.get(2) {
        let t: Vec<bool> = read(tp).data.chunks(4).map(|p| p[0] > 127).collect();
        let i = f.mask.iter().zip(&t).filter(|(a, b)| **a && **b).count();
        let u = f.mask.iter().zip(&t).filter(|(a, b)| **a || **b).count();
        print!(", IoU {:.4}", i as f64 / u.max(1) as f64);
    }
    println!();
}
