// re2d bench: compile the dense 256×192-cell fixture to 4096² (spec: surface-compiler.md §6; issue 5 item 6).
//! Prints the median wall time of (a) compile to RGBA pixels, (b) PNG
//! encoding, (c) both plus the runtime decode check, at 1024² and 4096².
//! `harness = false`: run with `cargo bench --bench compile` or `make bench-compile`.

use std::time::Instant;

use re2d_surface::{self as surface, Options};
use re2d_testkit::surface as fixtures;

fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..runs)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

fn main() {
    let s = fixtures::dense_humanoid();
    let json = s.to_json();
    // `cargo bench` passes `--bench`; `cargo test --all-targets` runs this
    // binary without it, and then only a smoke check is done (benchmarks
    // stay out of the test run).
    if !std::env::args().any(|a| a == "--bench") {
        let a =
            surface::compile(json.as_bytes(), None, &Options::default()).expect("fixture compiles");
        assert_eq!(a.cells, 256 * 192);
        return;
    }
    for size in [1024u32, 4096] {
        let o = Options {
            size,
            segments: true,
            ..Options::default()
        };
        let atlas = surface::compile(json.as_bytes(), None, &o).expect("fixture compiles");
        assert_eq!(atlas.cells, 256 * 192);
        let runs = if size == 4096 { 9 } else { 21 };
        let c = median_ms(runs, || {
            std::hint::black_box(surface::compile(json.as_bytes(), None, &o).unwrap());
        });
        let e = median_ms(runs, || {
            std::hint::black_box(surface::encode_png(&atlas.rgba, size).unwrap());
        });
        let png = surface::encode_png(&atlas.rgba, size).unwrap();
        println!(
            "compile dense 256x192 cells -> {size}^2: compile {c:.1} ms, png encode {e:.1} ms ({} bytes), total {:.1} ms (median)",
            png.len(),
            c + e
        );
    }
}
