//! Writes random layered characters (testkit/src/drawings/random/, issue 40) into OUT_DIR:
//! for each seed `random-<seed>.png` (flattened over its key or transparent),
//! `random-<seed>.labels.png` (truth: red = 1 + bone index), `random-<seed>.skeleton.json`
//! (the declaration a user would write), and the layered files `random-<seed>.ora` and
//! `random-<seed>.psd` with their declarations `random-<seed>.ora.json`,
//! `random-<seed>.psd.json`. With `--sheet FILE` also a contact sheet of all of them
//! (each scaled to 240 px tall, over grey), for looking at.
//!
//! With `--height H` the canvases are H px tall (the bench's 2528).
//!
//! `cargo run --release --example random_drawings -- OUT_DIR --seeds A..B [--sheet FILE] [--height H]`

use re2d_testkit::drawings::random;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! {
        eprintln!("usage: random_drawings OUT_DIR --seeds A..B [--sheet FILE] [--height H]");
        std::process::exit(2);
    };
    if args.len() < 3 || args[1] != "--seeds" {
        usage();
    }
    let out = std::path::PathBuf::from(&args[0]);
    let Some((a, b)) = args[2].split_once("..") else {
        usage()
    };
    let (Ok(a), Ok(b)) = (a.parse::<u64>(), b.parse::<u64>()) else {
        usage()
    };
    let (mut sheet, mut height) = (None, None);
    let mut rest = args[3..].iter();
    while let Some(a) = rest.next() {
        match (a.as_str(), rest.next()) {
            ("--sheet", Some(v)) => sheet = Some(v.clone()),
            ("--height", Some(v)) => height = Some(v.parse::<f64>().unwrap_or_else(|_| usage())),
            _ => usage(),
        }
    }
    let mut thumbs: Vec<(usize, usize, Vec<u8>)> = Vec::new();
    for seed in a..b {
        let c = random::generate_at(seed, height);
        let d = &c.drawing;
        if let Err(e) = d.write_files(&out) {
            eprintln!("random_drawings: {e}");
            std::process::exit(1);
        }
        for (ext, bytes) in [
            ("ora", random::ora::write(&c)),
            ("psd", random::psd::write(&c)),
        ] {
            let files = [
                (format!("{}.{ext}", d.name), bytes),
                (
                    format!("{}.{ext}.json", d.name),
                    c.layered_json(ext).into_bytes(),
                ),
            ];
            for (name, b) in files {
                if let Err(e) = re2d_output::publish::publish(&out.join(name), &b, &[]) {
                    eprintln!("random_drawings: {e}");
                    std::process::exit(1);
                }
            }
        }
        println!(
            "{}: {}x{}, {} bones",
            d.name,
            d.width,
            d.height,
            d.parts.len()
        );
        if sheet.is_some() {
            thumbs.push(thumb(&d.rgba, d.width as usize, d.height as usize, 400));
        }
    }
    if let Some(path) = sheet {
        let (cols, cell) = (6usize, 410usize);
        let wmax = thumbs.iter().map(|t| t.0).max().unwrap_or(1).max(1);
        let cw = wmax + 10;
        let rows = thumbs.len().div_ceil(cols);
        let (sw, sh) = (cols * cw, rows.max(1) * cell);
        let mut px: Vec<u8> = [128u8, 128, 128, 255].repeat(sw * sh);
        for (n, (w, h, t)) in thumbs.iter().enumerate() {
            let (ox, oy) = ((n % cols) * cw + 5, (n / cols) * cell + 5);
            for y in 0..*h {
                for x in 0..*w {
                    let s = &t[(y * w + x) * 4..(y * w + x) * 4 + 4];
                    let o = ((oy + y) * sw + ox + x) * 4;
                    let a = s[3] as u32;
                    for c in 0..3 {
                        px[o + c] = ((s[c] as u32 * a + 128 * (255 - a)) / 255) as u8;
                    }
                }
            }
        }
        let png = re2d_output::png_encode::encode_rgba(&px, sw as u32, sh as u32).expect("encodes");
        re2d_output::publish::publish(std::path::Path::new(&path), &png, &[]).expect("writes");
    }
}

/// `rgba` scaled down to `th` rows (box filter, premultiplied).
fn thumb(rgba: &[u8], w: usize, h: usize, th: usize) -> (usize, usize, Vec<u8>) {
    let s = h as f64 / th as f64;
    let tw = ((w as f64 / s).round() as usize).max(1);
    let mut out = vec![0u8; tw * th * 4];
    for y in 0..th {
        for x in 0..tw {
            let (x0, x1) = (
                (x as f64 * s) as usize,
                (((x + 1) as f64 * s) as usize).min(w),
            );
            let (y0, y1) = (
                (y as f64 * s) as usize,
                (((y + 1) as f64 * s) as usize).min(h),
            );
            let mut acc = [0u64; 4];
            let mut n = 0u64;
            for yy in y0..y1 {
                for xx in x0..x1 {
                    let p = &rgba[(yy * w + xx) * 4..(yy * w + xx) * 4 + 4];
                    let a = p[3] as u64;
                    for c in 0..3 {
                        acc[c] += p[c] as u64 * a;
                    }
                    acc[3] += a;
                    n += 1;
                }
            }
            let o = (y * tw + x) * 4;
            for c in 0..3 {
                out[o + c] = acc[c].checked_div(acc[3]).unwrap_or(0) as u8;
            }
            out[o + 3] = (acc[3] / n.max(1)) as u8;
        }
    }
    (tw, th, out)
}
