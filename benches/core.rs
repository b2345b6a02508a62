// re2d bench — ms/frame of the core pipeline per atlas and path, on one thread and on all cores.
//
// `make bench` / `cargo bench --bench core`. Atlases: the three golden atlases
// of tests/golden (animal, prop, dense) and the generated dense figure of
// `rotsprite::synth` at 1024 and 2048. Paths: decode, decode_anime, draw 128,
// anime 256 and anime 512 (reused workspace, the pose and the view change
// every frame). The smooth paths are timed on 1 thread and on all cores
// (row bands, `AnimeWorkspace::with_threads`), the two interleaved frame by
// frame so that a change of machine load hits both; each cell is
// "median (min)" in ms. The machine's load average is printed before and
// after: on a shared machine wall times are noisy, `make bench-ir` counts
// instructions instead.

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use re2d::rotsprite::synth::{dense_atlas, walk_pose};
use re2d::rotsprite::{
    AnimeWorkspace, AtlasImage, CBool, Frame, R2DRotModelPose, R2DRotPoint, Rig, decode,
    decode_anime, draw,
};

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

/// A moving pose for an atlas's parts: each part turns a little about its
/// own axes, differently every frame.
fn pose_for(parts: &[u8], i: usize) -> R2DRotModelPose {
    let mut m = R2DRotModelPose {
        scale: 1.0,
        ..Default::default()
    };
    for (k, &id) in parts.iter().enumerate() {
        let a = (i as f64 * 0.21 + k as f64 * 0.7).sin() * 0.35;
        let (s, c) = a.sin_cos();
        let p = &mut m.parts[id as usize];
        p.matrix = [c, 0.0, s, 0.0, 0.0, 1.0, 0.0, 0.0, -s, 0.0, c, 0.0];
        p.defined = CBool::new(true);
        p.visible = CBool::new(true);
    }
    m
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
        "{:<12} {:>6} {:>17} {:>17} {:>17} {:>17} {:>17} {:>17} {:>17}",
        "atlas",
        "points",
        "decode",
        "decode_anime",
        "draw 128",
        "anime 256 1t",
        format!("anime 256 {all}t"),
        "anime 512 1t",
        format!("anime 512 {all}t"),
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
                    pose_for(&ids, i)
                }
            })
            .collect();
        let frame = |i: usize| {
            let yaw = -90.0 + 180.0 * (i % 64) as f64 / 64.0;
            Frame::new(yaw, 8.0, 0, 0, Some(Rig::model(&poses[i % poses.len()]))).expect("frame")
        };
        let dec = stat(
            (0..11)
                .map(|_| ms(|| drop(black_box(decode(&img)))))
                .collect(),
        );
        let dec_anime = stat(
            (0..11)
                .map(|_| ms(|| drop(black_box(decode_anime(&img)))))
                .collect(),
        );
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
            (stat(t1), stat(tn))
        };
        let (a256, a256n) = smooth_pair(256, 41);
        let (a512, a512n) = smooth_pair(512, 31);
        println!(
            "{:<12} {:>6} {dec:>17} {dec_anime:>17} {draws:>17} {a256:>17} {a256n:>17} {a512:>17} {a512n:>17}",
            a.name,
            points.len()
        );
    }
    println!("load average after: {}", load());
}
