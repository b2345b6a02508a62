//! The reference of `re2d rig edit`'s picture (docs/edit.md "The picture"), rendered in Rust
//! from files alone: the declaration (its drawing keyed by the rig's silhouette), an ownership
//! map (the red of a `labels.png` that `re2d rig slice` wrote) and the zoom 1/DIV. The browser
//! test (tests/browser/edit.mjs) compares the page's pixels with it. The page draws with its own
//! JavaScript (crates/edit/page/draw.js); this follows the same rules with the rig's own tube
//! distance (`re2d_rig::cut::slice::tube_d`), so a page that drew another skeleton, other parts
//! or at another place differs.
//!
//! `edit_overlay DECLARATION.json LABELS.png DIV OUT.png`

use std::path::Path;

use re2d_rig::cut::slice::tube_d;
use re2d_rig::declare::silhouette::silhouette;

/// The bones' colours (crates/edit/page/model.js PALETTE).
const PALETTE: [[u8; 3]; 20] = [
    [230, 25, 75],
    [60, 180, 75],
    [255, 225, 25],
    [0, 130, 200],
    [245, 130, 48],
    [145, 30, 180],
    [70, 240, 240],
    [240, 50, 230],
    [210, 245, 60],
    [250, 190, 212],
    [0, 128, 128],
    [220, 190, 255],
    [170, 110, 40],
    [255, 250, 200],
    [128, 0, 0],
    [170, 255, 195],
    [128, 128, 0],
    [255, 215, 180],
    [0, 0, 128],
    [128, 128, 128],
];
const GREY: u32 = 48;
const TINT: u32 = 112;
const OUTLINE: f64 = 0.75;

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    if a.len() != 4 {
        eprintln!("usage: edit_overlay DECLARATION.json LABELS.png DIV OUT.png");
        std::process::exit(2);
    }
    let div: usize = a[2].parse().unwrap_or(0);
    if div == 0 {
        eprintln!("edit_overlay: DIV must be a positive integer");
        std::process::exit(2);
    }
    if let Err(e) = run(Path::new(&a[0]), Path::new(&a[1]), div, Path::new(&a[3])) {
        eprintln!("edit_overlay: {e}");
        std::process::exit(1);
    }
}

fn run(decl: &Path, labels: &Path, div: usize, out: &Path) -> Result<(), String> {
    let limits = re2d::limits::Limits::DEFAULT;
    let input = re2d_rig::build::load(decl, &limits).map_err(|e| e.to_string())?;
    let sil = silhouette(&input.image, input.sk.background).map_err(|e| e.to_string())?;
    let lab =
        re2d::png_io::read_png_file(labels).map_err(|e| format!("{}: {e:?}", labels.display()))?;
    let (w, h) = (sil.width as usize, sil.height as usize);
    if (lab.width as usize, lab.height as usize) != (w, h) {
        return Err("the labels are not the drawing's size".into());
    }
    let (dw, dh) = (w.div_ceil(div), h.div_ceil(div));
    let mut px = base(&sil.rgba, &lab.data, w, h, div);
    // tube outlines, in declaration order
    let d = div as f64;
    for (k, b) in input.sk.bones.iter().enumerate() {
        let c = PALETTE[k % PALETTE.len()];
        for y in 0..dh {
            for x in 0..dw {
                let p = [(x as f64 + 0.5) * d, (y as f64 + 0.5) * d];
                if (tube_d(b, p) / d).abs() < OUTLINE {
                    put(&mut px, dw, dh, x as isize, y as isize, c);
                }
            }
        }
    }
    for b in &input.sk.bones {
        for s in b.points.windows(2) {
            line(&mut px, dw, dh, s[0], s[1], d);
        }
    }
    for b in &input.sk.bones {
        for p in &b.points[1..] {
            dot(&mut px, dw, dh, *p, d, 2.0, [255, 255, 255]);
        }
    }
    for b in &input.sk.bones {
        dot(&mut px, dw, dh, b.points[0], d, 3.0, [220, 20, 20]);
    }
    let png = re2d_output::png_encode::encode_rgba(&px, dw as u32, dh as u32)?;
    std::fs::write(out, png).map_err(|e| format!("{}: {e}", out.display()))?;
    println!("{}: {dw}x{dh}", out.display());
    Ok(())
}

/// The silhouette over grey, tinted by its owner, box-filtered by `div` (integer means,
/// rounded down).
fn base(rgba: &[u8], labels: &[u8], w: usize, h: usize, div: usize) -> Vec<u8> {
    let (dw, dh) = (w.div_ceil(div), h.div_ceil(div));
    let mut out = vec![0u8; dw * dh * 4];
    for dy in 0..dh {
        for dx in 0..dw {
            let (mut acc, mut n) = ([0u32; 3], 0u32);
            for y in dy * div..((dy + 1) * div).min(h) {
                for x in dx * div..((dx + 1) * div).min(w) {
                    let i = y * w + x;
                    let a = rgba[i * 4 + 3] as u32;
                    let mut c = [0u32; 3];
                    for k in 0..3 {
                        c[k] = (rgba[i * 4 + k] as u32 * a + GREY * (255 - a)) / 255;
                    }
                    let l = labels[i * 4] as usize;
                    if l > 0 {
                        let t = PALETTE[(l - 1) % PALETTE.len()];
                        for k in 0..3 {
                            c[k] = (c[k] * (256 - TINT) + t[k] as u32 * TINT) >> 8;
                        }
                    }
                    for k in 0..3 {
                        acc[k] += c[k];
                    }
                    n += 1;
                }
            }
            let o = (dy * dw + dx) * 4;
            for k in 0..3 {
                out[o + k] = (acc[k] / n) as u8;
            }
            out[o + 3] = 255;
        }
    }
    out
}

fn put(px: &mut [u8], dw: usize, dh: usize, x: isize, y: isize, c: [u8; 3]) {
    if x >= 0 && y >= 0 && (x as usize) < dw && (y as usize) < dh {
        let o = (y as usize * dw + x as usize) * 4;
        px[o..o + 3].copy_from_slice(&c);
        px[o + 3] = 255;
    }
}

fn line(px: &mut [u8], dw: usize, dh: usize, a: [f64; 2], b: [f64; 2], d: f64) {
    let (a, b) = ([a[0] / d, a[1] / d], [b[0] / d, b[1] / d]);
    let n = ((b[0] - a[0]).abs().max((b[1] - a[1]).abs()) * 2.0)
        .ceil()
        .max(1.0) as usize;
    for i in 0..=n {
        let t = i as f64 / n as f64;
        let (x, y) = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]));
        for (ox, oy) in [(0.0, 0.0), (0.5, 0.0), (0.0, 0.5)] {
            put(
                px,
                dw,
                dh,
                (x + ox).trunc() as isize,
                (y + oy).trunc() as isize,
                [0, 0, 0],
            );
        }
    }
}

fn dot(px: &mut [u8], dw: usize, dh: usize, p: [f64; 2], d: f64, r: f64, c: [u8; 3]) {
    let (cx, cy) = (p[0] / d, p[1] / d);
    for y in (cy - r - 1.0).floor() as isize..=(cy + r + 1.0).ceil() as isize {
        for x in (cx - r - 1.0).floor() as isize..=(cx + r + 1.0).ceil() as isize {
            let (ex, ey) = (x as f64 + 0.5 - cx, y as f64 + 0.5 - cy);
            let dd = (ex * ex + ey * ey).sqrt();
            if dd <= r + 1.0 {
                put(px, dw, dh, x, y, if dd <= r { c } else { [0, 0, 0] });
            }
        }
    }
}
