//! Tiles PNG frames side by side into one strip, each box-filtered down by an integer
//! factor and composited over a dark grey (the demo's walk strips, `make demo`).
//!
//! `cargo run --release --example png_strip -- OUT.png SCALE FRAME.png...`

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let scale: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    if args.len() < 3 || scale == 0 {
        eprintln!("usage: png_strip OUT.png SCALE FRAME.png...");
        std::process::exit(2);
    }
    if let Err(e) = run(&args[0], scale, &args[2..]) {
        eprintln!("png_strip: {e}");
        std::process::exit(1);
    }
}

fn run(out: &str, s: usize, frames: &[String]) -> Result<(), String> {
    let imgs = frames
        .iter()
        .map(|f| {
            re2d::png_io::read_png_file(std::path::Path::new(f)).map_err(|e| format!("{f}: {e:?}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let fw = imgs.iter().map(|i| i.width as usize / s).max().unwrap_or(0);
    let fh = imgs
        .iter()
        .map(|i| i.height as usize / s)
        .max()
        .unwrap_or(0);
    let (w, h) = (fw * imgs.len(), fh);
    if w == 0 || h == 0 {
        return Err("frames smaller than SCALE".into());
    }
    let mut px = [40u8, 40, 44, 255].repeat(w * h);
    for (k, img) in imgs.iter().enumerate() {
        let iw = img.width as usize;
        for y in 0..img.height as usize / s {
            for x in 0..iw / s {
                let mut acc = [0u32; 4];
                for dy in 0..s {
                    let row = (y * s + dy) * iw;
                    for dx in 0..s {
                        let i = (row + x * s + dx) * 4;
                        let a = img.data[i + 3] as u32;
                        for (c, v) in acc.iter_mut().zip(&img.data[i..i + 3]) {
                            *c += *v as u32 * a / 255;
                        }
                        acc[3] += a;
                    }
                }
                let n = (s * s) as u32;
                let a = acc[3] / n;
                let o = (y * w + k * fw + x) * 4;
                for c in 0..3 {
                    let bg = px[o + c] as u32;
                    px[o + c] = (acc[c] / n + bg * (255 - a) / 255).min(255) as u8;
                }
            }
        }
    }
    let png = re2d_output::png_encode::encode_rgba(&px, w as u32, h as u32)?;
    std::fs::write(out, png).map_err(|e| format!("{out}: {e}"))?;
    println!("{out}: {w}x{h}, {} frames", imgs.len());
    Ok(())
}
