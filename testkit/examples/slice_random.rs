//! Slices random layered characters (testkit/src/drawings/random/, issue 40) and prints the
//! judge's table: per character the mean and lowest IoU of the parts with at least 200
//! visible pixels and its three lowest parts; then the share of parts at least 0.95, the
//! parts under 0.90, the characters with a mean under 0.97 and the bones with visible paint
//! made partless. Exit 1 when the batch fails the gate. `make bench-slice` runs it on the
//! held-back seeds.
//!
//! `slice_random --seeds A..B [--slicing paint|tubes] [--threads N]`

use re2d_rig::cut::slice::Rule;
use re2d_testkit::drawings::random::{self, judge};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! {
        eprintln!("usage: slice_random --seeds A..B [--slicing paint|tubes] [--threads N]");
        std::process::exit(2);
    };
    let (mut seeds, mut rule, mut threads) = (None, Rule::Paint, 2usize);
    let mut dump: Option<std::path::PathBuf> = None;
    let mut verbose = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match (a.as_str(), it.next()) {
            ("--seeds", Some(v)) => {
                let Some((a, b)) = v.split_once("..") else {
                    usage()
                };
                let (Ok(a), Ok(b)) = (a.parse::<u64>(), b.parse::<u64>()) else {
                    usage()
                };
                seeds = Some(a..b);
            }
            ("--slicing", Some(v)) => rule = Rule::parse(v).unwrap_or_else(|| usage()),
            ("--threads", Some(v)) => threads = v.parse().unwrap_or_else(|_| usage()),
            ("--dump", Some(v)) => dump = Some(v.into()),
            ("--verbose", Some(v)) => verbose = v == "1",
            _ => usage(),
        }
    }
    let Some(seeds) = seeds else { usage() };
    let list: Vec<u64> = seeds.collect();
    let scores = random_scores(&list, rule, threads.max(1), dump.as_deref());
    let mut t = judge::Table::default();
    for s in &scores {
        t.add(s);
        if verbose {
            for p in &s.parts {
                println!(
                    "  {:16} truth {:7} ours {:7} IoU {:.4}{}",
                    p.name,
                    p.truth_px,
                    p.owned_px,
                    p.iou,
                    if p.partless { " partless" } else { "" }
                );
            }
        }
    }
    for l in t.lines.iter().chain(&t.summary()) {
        println!("{l}");
    }
    if !t.passes() {
        println!("slice_random: the gate FAILS");
        std::process::exit(1);
    }
    println!("slice_random: the gate passes");
}

fn random_scores(
    seeds: &[u64],
    rule: Rule,
    threads: usize,
    dump: Option<&std::path::Path>,
) -> Vec<judge::Score> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let out = std::sync::Mutex::new(vec![None; seeds.len()]);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= seeds.len() {
                        break;
                    }
                    let c = random::generate(seeds[i]);
                    let (sc, labels) = judge::score_with_labels(&c, rule);
                    if let Some(dir) = dump {
                        panels(dir, &c, &labels);
                    }
                    out.lock().expect("no panic")[i] = Some(sc);
                }
            });
        }
    });
    out.into_inner()
        .expect("no panic")
        .into_iter()
        .map(|s| s.expect("scored"))
        .collect()
}

/// A label's colour in the panels.
fn colour(l: u8) -> [u8; 3] {
    if l == 0 {
        return [40, 40, 40];
    }
    let h = (l as u32).wrapping_mul(2_654_435_761);
    [
        (h >> 8) as u8 | 0x30,
        (h >> 16) as u8 | 0x30,
        (h >> 24) as u8 | 0x30,
    ]
}

/// Writes `<dir>/<name>.png`: the drawing, the truth, the slicing, and the pixels where they
/// differ (white).
fn panels(dir: &std::path::Path, c: &random::RandomCharacter, labels: &[u8]) {
    let d = &c.drawing;
    let (w, h) = (d.width as usize, d.height as usize);
    let sw = w * 4;
    let mut px = vec![0u8; sw * h * 4];
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            let s = &d.rgba[i * 4..i * 4 + 4];
            let a = s[3] as u32;
            let mut cols = [[0u8; 3]; 4];
            for ch in 0..3 {
                cols[0][ch] = ((s[ch] as u32 * a + 200 * (255 - a)) / 255) as u8;
            }
            cols[1] = colour(d.labels[i]);
            cols[2] = colour(labels[i]);
            cols[3] = if labels[i] != d.labels[i] {
                [255, 255, 255]
            } else {
                [0, 0, 0]
            };
            for (p, c) in cols.iter().enumerate() {
                let o = (y * sw + p * w + x) * 4;
                px[o..o + 4].copy_from_slice(&[c[0], c[1], c[2], 255]);
            }
        }
    }
    let png = re2d_output::png_encode::encode_rgba(&px, sw as u32, h as u32).expect("encodes");
    re2d_output::publish::publish(&dir.join(format!("{}.png", d.name)), &png, &[]).expect("writes");
}
