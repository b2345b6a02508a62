// re2d bench — median time per frame of the core pipeline on a dense generated atlas.
//
// `make bench` / `cargo bench --bench core`. Prints one line per stage:
// decode, decode_anime (1024² atlas, 46 128 cells, SUB+BLD), draw 128,
// anime 256 and anime 512 (reused workspace, model pose moving per frame).

use std::hint::black_box;
use std::time::Instant;

use re2d::rotsprite::synth::{dense_atlas, walk_pose};
use re2d::rotsprite::{AnimeWorkspace, AtlasImage, Frame, Rig, decode, decode_anime, draw};

/// Runs `f` `n` times (after 2 warm-ups) and returns the median in ms.
fn median_ms(n: usize, mut f: impl FnMut(usize)) -> f64 {
    f(0);
    f(1);
    let mut t: Vec<f64> = (0..n)
        .map(|i| {
            let s = Instant::now();
            f(i);
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(|a, b| a.partial_cmp(b).unwrap());
    t[n / 2]
}

fn main() {
    // `cargo test --all-targets` runs harness-less benches too; only
    // `cargo bench` (which passes --bench) measures.
    if !std::env::args().any(|a| a == "--bench") {
        println!("re2d core bench: skipped (run `make bench` or `cargo bench --bench core`)");
        return;
    }
    let atlas = dense_atlas(1);
    let img = AtlasImage::new(&atlas, 1024, 1024, 4096).unwrap();
    let points = decode(&img).unwrap();
    let smooth = decode_anime(&img).unwrap();
    let poses: Vec<_> = (0..32).map(|i| walk_pose(i as f64 / 32.0)).collect();
    let frame = |i: usize| {
        let yaw = -90.0 + 180.0 * (i % 64) as f64 / 64.0;
        Frame::new(yaw, 8.0, 0, 0, Some(Rig::model(&poses[i % poses.len()]))).unwrap()
    };
    println!(
        "re2d core bench: {} points, {} smooth records",
        points.len(),
        smooth.len()
    );
    let report = |name: &str, ms: f64| println!("{name:<16} {ms:>9.3} ms/frame (median)");
    report(
        "decode",
        median_ms(21, |_| drop(black_box(decode(&img).unwrap()))),
    );
    report(
        "decode_anime",
        median_ms(21, |_| drop(black_box(decode_anime(&img).unwrap()))),
    );
    let mut out = vec![0u8; 128 * 128 * 4];
    report(
        "draw 128",
        median_ms(101, |i| draw(&points, &frame(i), &mut out).unwrap()),
    );
    let mut ws = AnimeWorkspace::new();
    let mut out = vec![0u8; 256 * 256 * 4];
    report(
        "anime 256",
        median_ms(61, |i| {
            ws.render(&smooth, &frame(i), 256, &mut out).unwrap()
        }),
    );
    let mut out = vec![0u8; 512 * 512 * 4];
    report(
        "anime 512",
        median_ms(41, |i| {
            ws.render(&smooth, &frame(i), 512, &mut out).unwrap()
        }),
    );
}
