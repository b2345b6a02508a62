// re2d bench — ms/frame of the core pipeline per atlas and path, on one thread and on all cores.
//
// `make bench` / `cargo bench --bench core`. Atlases: the three golden atlases
// of tests/golden (animal, prop, dense) and the generated dense figure of
// `re2d_testkit::atlas` at 1024 and 2048. Paths: decode, decode_anime, draw 128,
// anime 256 and anime 512 (reused workspace, the pose and the view change
// every frame). The decoders are timed twice: with the allocator reusing
// the previous call's memory ("warm"), and with every output block on fresh
// pages ("1st", as the first decode of a process, whose page faults on the
// 8.8 MB block of a dense atlas cost more than the decode). The smooth paths
// are timed on 1 thread and on all cores (row bands,
// `AnimeWorkspace::with_threads`), the two interleaved frame by frame so
// that a change of machine load hits both; "×" is the median per-frame
// speed-up 1 thread / all cores. Each time cell is "median (min)" in ms. The machine's load average is printed before and
// after: on a shared machine wall times are noisy, `make bench-ir` counts
// instructions instead.

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use re2d::rotsprite::{
    AnimeWorkspace, AtlasImage, Frame, R2DRotModelPose, R2DRotPoint, Rig, decode, decode_anime,
    draw,
};
use re2d_testkit::atlas::{dense_atlas, turn_pose, walk_pose};

fn ms(f: impl FnOnce()) -> f64 {
    let s = Instant::now();
    f();
    s.elapsed().as_secs_f64() * 1e3
}

/// "median (min)" of samples.
fn stat(mut t: Vec<f64>) -> String {
    t.sort_by(|a, b| a.total_cmp(b));
    format!("{:.3} ({:.3})", t[t.len() / 2], t[0])
}

/// Median of per-pair ratios a/b.
fn speedup(a: &[f64], b: &[f64]) -> String {
    let mut r: Vec<f64> = a.iter().zip(b).map(|(a, b)| a / b).collect();
    r.sort_by(|a, b| a.total_cmp(b));
    format!("{:.2}", r[r.len() / 2])
}

/// Whether large allocations get fresh pages from the kernel every time
/// (glibc: a low mmap threshold; `free` unmaps them) or reuse the heap (a
/// high one).
fn fresh_pages(on: bool) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes allocator tuning.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, if on { 1 << 16 } else { 32 << 20 });
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = on;
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// An 8-bit RGBA PNG of tests/golden.
fn golden_png(name: &str) -> (Vec<u8>, i32) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    let mut dec = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&path).expect("golden atlas"),
    ));
    dec.set_transformations(png::Transformations::IDENTITY);
    let mut reader = dec.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("png size")];
    let info = reader.next_frame(&mut buf).expect("png frame");
    buf.truncate(info.buffer_size());
    (buf, info.width as i32)
}

struct Atlas {
    name: &'static str,
    px: Vec<u8>,
    side: i32,
    /// The generated figure walks; the golden atlases turn their parts.
    walks: bool,
}

fn main() {
    // `cargo test --all-targets` runs harness-less benches too; only
    // `cargo bench` (which passes --bench) measures.
    if !std::env::args().any(|a| a == "--bench") {
        println!("re2d core bench: skipped (run `make bench` or `cargo bench --bench core`)");
        return;
    }
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let golden = |name, file| {
        let (px, side) = golden_png(file);
        Atlas {
            name,
            px,
            side,
            walks: false,
        }
    };
    let atlases = [
        golden("animal 1024", "animal-1024.png"),
        golden("prop 1024", "prop-1024.png"),
        golden("dense 1024", "dense-1024.png"),
        Atlas {
            name: "synth 1024",
            px: dense_atlas(1),
            side: 1024,
            walks: true,
        },
        Atlas {
            name: "synth 2048",
            px: dense_atlas(2),
            side: 2048,
            walks: true,
        },
    ];
    println!(
        "re2d core bench: ms/frame, median (min); smooth paths on 1 thread and on all {all} cores, interleaved"
    );
    println!("load average before: {}", load());
    println!(
        "{:<12} {:>6} {:>17} {:>17} {:>17} {:>17} {:>17} {:>17} {:>17} {:>5} {:>17} {:>17} {:>5}",
        "atlas",
        "points",
        "decode warm",
        "decode 1st",
        "d_anime warm",
        "d_anime 1st",
        "draw 128",
        "anime 256 1t",
        format!("anime 256 {all}t"),
        "×",
        "anime 512 1t",
        format!("anime 512 {all}t"),
        "×",
    );
    for a in &atlases {
        let img = AtlasImage::new(&a.px, a.side, a.side, 4 * a.side).expect("atlas");
        let points = decode(&img).expect("decode");
        let smooth = decode_anime(&img).expect("decode_anime");
        let mut ids: Vec<u8> = points.iter().map(|p| p.part).collect();
        ids.sort_unstable();
        ids.dedup();
        let poses: Vec<R2DRotModelPose> = (0..32)
            .map(|i| {
                if a.walks {
                    walk_pose(i as f64 / 32.0)
                } else {
                    turn_pose(&ids, i)
                }
            })
            .collect();
        let frame = |i: usize| {
            let yaw = -90.0 + 180.0 * (i % 64) as f64 / 64.0;
            Frame::new(yaw, 8.0, 0, 0, Some(Rig::model(&poses[i % poses.len()]))).expect("frame")
        };
        let decoders = |fresh: bool| {
            fresh_pages(fresh);
            let d = stat(
                (0..11)
                    .map(|_| ms(|| drop(black_box(decode(&img)))))
                    .collect(),
            );
            let a = stat(
                (0..11)
                    .map(|_| ms(|| drop(black_box(decode_anime(&img)))))
                    .collect(),
            );
            fresh_pages(false);
            (d, a)
        };
        let (dec, dec_anime) = decoders(false);
        let (dec1, dec_anime1) = decoders(true);
        let mut out = vec![0u8; 128 * 128 * 4];
        draw(&points, &frame(0), &mut out).expect("draw");
        let draws = stat(
            (0..101)
                .map(|i| ms(|| draw(&points, &frame(i), &mut out).expect("draw")))
                .collect(),
        );
        let smooth_pair = |size: usize, frames: usize| {
            let mut one = AnimeWorkspace::with_threads(1);
            let mut many = AnimeWorkspace::with_threads(all);
            let mut out = vec![0u8; size * size * 4];
            let mut render = |ws: &mut AnimeWorkspace, pts: &[R2DRotPoint], i: usize| {
                ws.render(pts, &frame(i), size, &mut out).expect("render")
            };
            // Warm-up: buffers, thread-local scratch.
            render(&mut one, &smooth, 0);
            render(&mut many, &smooth, 0);
            let (mut t1, mut tn) = (Vec::new(), Vec::new());
            for i in 0..frames {
                t1.push(ms(|| render(&mut one, &smooth, i)));
                tn.push(ms(|| render(&mut many, &smooth, i)));
            }
            let x = speedup(&t1, &tn);
            (stat(t1), stat(tn), x)
        };
        let (a256, a256n, x256) = smooth_pair(256, 41);
        let (a512, a512n, x512) = smooth_pair(512, 31);
        println!(
            "{:<12} {:>6} {dec:>17} {dec1:>17} {dec_anime:>17} {dec_anime1:>17} {draws:>17} {a256:>17} {a256n:>17} {x256:>5} {a512:>17} {a512n:>17} {x512:>5}",
            a.name,
            points.len()
        );
    }
    println!("load average after: {}", load());
}
