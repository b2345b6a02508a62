//! The picture of `docs/rig.md`: a skeleton declaration (rig.md §1) drawn over its drawing,
//! scaled down by an integer factor. Every bone's tube outline (the polyline with its
//! per-point radius) is tinted, the polyline itself is drawn in black with white dots at
//! its points, and the first point (the pivot) is a larger red dot.
//!
//! `cargo run --release --example rig_skeleton_picture -- SKELETON.json OUT.png [SCALE]`
//! (SCALE default 4: a 1696×2528 drawing becomes 424×632)

use std::path::{Path, PathBuf};

use re2d_rig::cut::slice::tube_d;
use re2d_rig::declare::skeleton::Skeleton;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 || args.len() > 3 {
        eprintln!("usage: rig_skeleton_picture SKELETON.json OUT.png [SCALE]");
        std::process::exit(2);
    }
    let scale: usize = args.get(2).map_or(4, |s| s.parse().unwrap_or(0));
    if scale == 0 {
        eprintln!("rig_skeleton_picture: SCALE must be a positive integer");
        std::process::exit(2);
    }
    if let Err(e) = run(Path::new(&args[0]), Path::new(&args[1]), scale) {
        eprintln!("rig_skeleton_picture: {e}");
        std::process::exit(1);
    }
}

fn run(skel: &Path, out: &Path, s: usize) -> Result<(), String> {
    let limits = re2d::limits::Limits::DEFAULT;
    let text = std::fs::read(skel).map_err(|e| format!("{}: {e}", skel.display()))?;
    let sk = Skeleton::parse(&text, &limits).map_err(|e| e.to_string())?;
    let bones = &sk.bones;
    let img_path: PathBuf = skel.parent().unwrap_or(Path::new(".")).join(&sk.image);
    let img = re2d::png_io::read_png_file(&img_path)
        .map_err(|e| format!("{}: {e:?}", img_path.display()))?;
    let (w, h) = (img.width as usize, img.height as usize);
    // box-filtered downscale of the drawing
    let (ow, oh) = (w / s, h / s);
    let mut px = vec![0u8; ow * oh * 4];
    for y in 0..oh {
        for x in 0..ow {
            let mut acc = [0u32; 4];
            for dy in 0..s {
                for dx in 0..s {
                    let i = ((y * s + dy) * w + x * s + dx) * 4;
                    for (a, v) in acc.iter_mut().zip(&img.data[i..i + 4]) {
                        *a += *v as u32;
                    }
                }
            }
            for (o, a) in px[(y * ow + x) * 4..][..4].iter_mut().zip(acc) {
                *o = (a / (s * s) as u32) as u8;
            }
        }
    }
    // tube outlines: output pixels whose centre's distance to the tube boundary is < 0.75 px
    let sf = s as f64;
    for (k, b) in bones.iter().enumerate() {
        let tint = PALETTE[k % PALETTE.len()];
        for y in 0..oh {
            for x in 0..ow {
                let p = [(x as f64 + 0.5) * sf, (y as f64 + 0.5) * sf];
                let d = tube_d(b, p) / sf;
                if d.abs() < 0.75 {
                    put(&mut px, ow, x, y, tint);
                }
            }
        }
    }
    for b in bones {
        for seg in b.points.windows(2) {
            line(&mut px, ow, oh, seg[0], seg[1], sf);
        }
        for p in &b.points[1..] {
            dot(&mut px, ow, oh, *p, sf, 2.0, [255, 255, 255, 255]);
        }
    }
    for b in bones {
        dot(&mut px, ow, oh, b.points[0], sf, 3.0, [220, 20, 20, 255]);
    }
    let png = re2d_output::png_encode::encode_rgba(&px, ow as u32, oh as u32)?;
    std::fs::write(out, png).map_err(|e| format!("{}: {e}", out.display()))?;
    println!("{}: {ow}x{oh}, {} bones", out.display(), bones.len());
    Ok(())
}

const PALETTE: [[u8; 4]; 6] = [
    [255, 255, 255, 255],
    [255, 220, 0, 255],
    [0, 200, 255, 255],
    [255, 120, 200, 255],
    [160, 255, 160, 255],
    [255, 160, 60, 255],
];

fn put(px: &mut [u8], ow: usize, x: usize, y: usize, c: [u8; 4]) {
    px[(y * ow + x) * 4..(y * ow + x) * 4 + 4].copy_from_slice(&c);
}

fn line(px: &mut [u8], ow: usize, oh: usize, a: [f64; 2], b: [f64; 2], sf: f64) {
    let (a, b) = ([a[0] / sf, a[1] / sf], [b[0] / sf, b[1] / sf]);
    let n = ((b[0] - a[0]).abs().max((b[1] - a[1]).abs()) * 2.0)
        .ceil()
        .max(1.0) as usize;
    for i in 0..=n {
        let t = i as f64 / n as f64;
        let (x, y) = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]));
        for (ox, oy) in [(0.0, 0.0), (0.5, 0.0), (0.0, 0.5)] {
            let (xi, yi) = ((x + ox) as isize, (y + oy) as isize);
            if xi >= 0 && yi >= 0 && (xi as usize) < ow && (yi as usize) < oh {
                put(px, ow, xi as usize, yi as usize, [0, 0, 0, 255]);
            }
        }
    }
}

fn dot(px: &mut [u8], ow: usize, oh: usize, p: [f64; 2], sf: f64, r: f64, c: [u8; 4]) {
    let (cx, cy) = (p[0] / sf, p[1] / sf);
    for y in (cy - r - 1.0).floor() as isize..=(cy + r + 1.0).ceil() as isize {
        for x in (cx - r - 1.0).floor() as isize..=(cx + r + 1.0).ceil() as isize {
            let d = ((x as f64 + 0.5 - cx).powi(2) + (y as f64 + 0.5 - cy).powi(2)).sqrt();
            if x >= 0 && y >= 0 && (x as usize) < ow && (y as usize) < oh && d <= r + 1.0 {
                let col = if d <= r { c } else { [0, 0, 0, 255] };
                put(px, ow, x as usize, y as usize, col);
            }
        }
    }
}
