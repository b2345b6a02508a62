// re2d demo — renders a generated dense atlas walking and turning, through the Rust API, to PNG files.
//
// Run: `make demo` (or `cargo run --release --example demo -- out/`).
// Writes `walk-anime512-N.png` (smooth 512 px), `walk-draw128-N.png` (pixel
// 128 px) and `walk-sheet.png` (all smooth frames side by side).

use std::error::Error;
use std::path::Path;

use re2d::rotsprite::{AnimeWorkspace, AtlasImage, Frame, Rig, decode, decode_anime, draw};
use re2d_testkit::atlas::{dense_atlas, walk_pose};

fn write_png(path: &Path, rgba: &[u8], w: u32, h: u32) -> Result<(), Box<dyn Error>> {
    re2d_output::publish::publish(
        path,
        &re2d_output::png_encode::encode_rgba(rgba, w, h)?,
        &[],
    )?;
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "out".into());
    let dir = Path::new(&dir);
    std::fs::create_dir_all(dir)?;
    let atlas = dense_atlas(1);
    let img = AtlasImage::new(&atlas, 1024, 1024, 4096)?;
    write_png(&dir.join("dense-atlas.png"), &atlas, 1024, 1024)?;
    let points = decode(&img)?;
    let smooth = decode_anime(&img)?;
    println!(
        "atlas: {} points ({} patches)",
        points.len(),
        smooth.iter().filter(|p| p.patch.get()).count()
    );

    const FRAMES: usize = 8;
    let mut ws = AnimeWorkspace::new();
    let mut big = vec![0u8; 512 * 512 * 4];
    let mut small = vec![0u8; 128 * 128 * 4];
    let mut sheet = vec![0u8; FRAMES * 512 * 512 * 4];
    for i in 0..FRAMES {
        let t = i as f64 / FRAMES as f64;
        let pose = walk_pose(t);
        let yaw = -60.0 + 120.0 * t;
        let frame = Frame::new(yaw, 10.0, 0, 0, Some(Rig::model(&pose)))?;
        ws.render(&smooth, &frame, 512, &mut big)?;
        draw(&points, &frame, &mut small)?;
        write_png(&dir.join(format!("walk-anime512-{i}.png")), &big, 512, 512)?;
        write_png(&dir.join(format!("walk-draw128-{i}.png")), &small, 128, 128)?;
        for y in 0..512 {
            let dst = (y * FRAMES * 512 + i * 512) * 4;
            sheet[dst..dst + 2048].copy_from_slice(&big[y * 2048..(y + 1) * 2048]);
        }
    }
    write_png(
        &dir.join("walk-sheet.png"),
        &sheet,
        (FRAMES * 512) as u32,
        512,
    )?;
    println!("wrote {FRAMES} frames to {}", dir.display());
    Ok(())
}
