// re2d MSH benchmark (make bench-msh): list/validate/decode/glTF-export throughput and peak RSS on a generated 64 MiB model with ~1 M triangles.
//! Criterion-style: one warm-up run, then the median (and min/max) of 9
//! timed runs per stage, in MB/s of the input file. The model is generated
//! by `re2d_msh::synth::big`, written to a temporary file and dropped; the
//! peak-RSS counter (`VmHWM`) is then reset through `/proc/self/clear_refs`
//! so the figure covers reading the file and running every stage.

use std::time::Instant;

use re2d::limits::Limits;
use re2d_msh::nres::{self, Profile};
use re2d_msh::{self as msh, export, synth};

fn status(field: &str) -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
        * 1024
}

fn bench(name: &str, bytes: usize, mut f: impl FnMut()) {
    f();
    let mut t: Vec<f64> = (0..9)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(|a, b| a.total_cmp(b));
    let mbs = |s: f64| bytes as f64 / 1e6 / s;
    println!(
        "{name:<30} median {:>10.3} ms {:>10.0} MB/s   (min {:.3} ms, max {:.3} ms)",
        t[4] * 1e3,
        mbs(t[4]),
        t[0] * 1e3,
        t[8] * 1e3
    );
}

fn main() {
    // `cargo test --all-targets` runs this binary too (harness = false);
    // only `cargo bench` (which passes --bench) measures.
    if !std::env::args().any(|a| a == "--bench") {
        println!("re2d msh bench: skipped (run `make bench-msh` or `cargo bench --bench msh`)");
        return;
    }
    let path = std::env::temp_dir().join(format!("re2d-bench-msh-{}.msh", std::process::id()));
    {
        let s = synth::big(64 << 20, 1);
        std::fs::write(&path, &s.bytes).expect("write the bench model");
    }
    let reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
    let bytes = std::fs::read(&path).expect("read the bench model");
    let _ = std::fs::remove_file(&path);
    let n = bytes.len();
    let l = Limits::DEFAULT;
    let (m, _) = msh::decode(&bytes, None, Profile::Strict, &l).expect("the bench model is valid");
    let tris: usize = (0..m.batch_count())
        .filter_map(|b| m.batch(b))
        .map(|b| b.index_count as usize / 3)
        .sum();
    println!(
        "model: {:.1} MiB, {} nodes, {} vertices, {} triangles, {} batches",
        n as f64 / (1 << 20) as f64,
        m.node_count(),
        m.vertex_count(),
        tris,
        m.batch_count()
    );
    drop(m);
    // `nres list` reads the header and directory only: its time does not grow with payloads
    bench("nres list (directory only)", n, || {
        let (a, _) = nres::read(&bytes, &l).unwrap();
        std::hint::black_box(a.len());
    });
    bench("msh validate", n, || {
        let r = msh::validate(&bytes, None, &l);
        assert!(r.ok());
    });
    bench("msh decode (strict)", n, || {
        let (m, _) = msh::decode(&bytes, None, Profile::Strict, &l).unwrap();
        std::hint::black_box(m.vertex_count());
    });
    let rss_decode = status("VmHWM:");
    let (m, _) = msh::decode(&bytes, None, Profile::Strict, &l).unwrap();
    let mut glb_len = 0;
    bench("glTF export (.glb)", n, || {
        let e = export::gltf(&m, &export::Options::default(), true).unwrap();
        glb_len = e.bytes.len();
    });
    let rss = status("VmHWM:");
    println!("glb output: {:.1} MiB", glb_len as f64 / (1 << 20) as f64);
    println!(
        "peak RSS{}: {:.1} MiB after list/validate/decode ({:.2}x the file), {:.1} MiB with glTF export ({:.2}x)",
        if reset {
            ""
        } else {
            " (VmHWM reset unavailable: includes generation)"
        },
        rss_decode as f64 / (1 << 20) as f64,
        rss_decode as f64 / n as f64,
        rss as f64 / (1 << 20) as f64,
        rss as f64 / n as f64
    );
}
