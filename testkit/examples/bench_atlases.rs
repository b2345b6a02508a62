// re2d example: the atlases and poses of `make bench` (benches/abi) as raw files.
//! `cargo run --release --example bench_atlases -- OUT_DIR`
//!
//! Writes, for each atlas, `NAME.rgba` (RGBA8 rows, stride 4·side) and
//! `NAME.poses` (32 `R2DRotModelPose` records in the C layout, one per bench
//! frame). Atlases: the engine's animal and prop surfaces (`assets/`) compiled
//! at 1024 and 2048, and the dense generated figure (45 632 points) at 2048.
//! The golden-style atlases turn each part a little about its own axes every
//! frame; the dense figure walks.

use std::path::Path;

use re2d::rotsprite::{AtlasImage, R2DRotModelPose, decode};
use re2d_surface::{Options, compile};
use re2d_testkit::atlas::{dense_atlas, turn_pose, walk_pose};

fn pose_bytes(p: &R2DRotModelPose) -> &[u8] {
    // SAFETY: R2DRotModelPose is repr(C) plain data (f64, u8, CBool); reading
    // its bytes, padding included, is what the C side reads.
    unsafe {
        std::slice::from_raw_parts(
            (p as *const R2DRotModelPose).cast::<u8>(),
            std::mem::size_of::<R2DRotModelPose>(),
        )
    }
}

fn write(dir: &Path, name: &str, rgba: &[u8], side: usize, walks: bool) {
    let img = AtlasImage::new(rgba, side as i32, side as i32, 4 * side as i32).expect("atlas");
    let mut ids: Vec<u8> = decode(&img)
        .expect("decode")
        .iter()
        .map(|p| p.part)
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let mut poses = Vec::new();
    for i in 0..32 {
        let p = if walks {
            walk_pose(i as f64 / 32.0)
        } else {
            turn_pose(&ids, i)
        };
        poses.extend_from_slice(pose_bytes(&p));
    }
    std::fs::write(dir.join(format!("{name}.rgba")), rgba).expect("write rgba");
    std::fs::write(dir.join(format!("{name}.poses")), poses).expect("write poses");
    println!("{name} {side}");
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .expect("usage: bench_atlases OUT_DIR");
    let dir = Path::new(&dir);
    std::fs::create_dir_all(dir).expect("out dir");
    let assets = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("assets");
    for surface in ["animal", "prop"] {
        let json = std::fs::read(assets.join(format!("{surface}.surface.json"))).expect("surface");
        for size in [1024u32, 2048] {
            let opts = Options {
                size,
                ..Options::default()
            };
            let atlas = compile(&json, None, &opts).expect("compile");
            write(
                dir,
                &format!("{surface}-{size}"),
                &atlas.rgba,
                size as usize,
                false,
            );
        }
    }
    write(dir, "dense-2048", &dense_atlas(2), 2048, true);
}
