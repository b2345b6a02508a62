// re2d docs — the README pictures (docs/img/) made from the demo outputs in out/ (`make docs-img`).
//
// Run: `make docs-img` (runs `make demo` first), or
// `cargo run --release --example docs_img -- out docs/img`. Writes:
// - `dense-walk.png`: the generated dense figure walking while the view turns
//   (out/walk-anime512-0..7.png, cropped to their opaque bounds, half size);
// - `animal-turn.png` and `animal-walk.apng.png`: the animal template walking
//   and turning (every third frame of out/animal-walk.apng.png as a strip, and
//   the whole animation at half size);
// - `mesh-arm.png`: the two-bone IK arm of `re2d-qjs` (out/mesh-arm-0..3.png).
// All through re2d_output::anim and the compact PNG encoder; files are published atomically.

use std::error::Error;
use std::path::Path;

use re2d::png_io::{RgbaImage, decode_rgba};
use re2d_output::anim::{self, Delay, Timing};

type Res<T> = Result<T, Box<dyn Error>>;

fn read(path: &Path) -> Res<RgbaImage> {
    let f = std::fs::File::open(path)
        .map_err(|e| format!("{}: {e} (run `make demo`)", path.display()))?;
    Ok(decode_rgba(std::io::BufReader::new(f))?)
}

/// Every frame of an APNG (full-canvas frames, as `re2d render --apng` writes them).
fn read_apng(path: &Path) -> Res<(Vec<Vec<u8>>, u32, u32, Delay)> {
    let f = std::fs::File::open(path)
        .map_err(|e| format!("{}: {e} (run `make demo`)", path.display()))?;
    let mut r = png::Decoder::new(std::io::BufReader::new(f)).read_info()?;
    let n = r.info().animation_control.ok_or("not an APNG")?.num_frames;
    let (w, h) = (r.info().width, r.info().height);
    let mut buf = vec![0; r.output_buffer_size().ok_or("too large")?];
    let mut frames = Vec::new();
    let mut delay = Delay { num: 1, den: 12 };
    for _ in 0..n {
        r.next_frame(&mut buf)?;
        let fc = r.info().frame_control.ok_or("no fcTL")?;
        delay = Delay {
            num: fc.delay_num,
            den: fc.delay_den,
        };
        frames.push(buf.clone());
    }
    Ok((frames, w, h, delay))
}

fn write_png(path: &Path, rgba: &[u8], w: u32, h: u32) -> Res<()> {
    let png = re2d_output::png_encode::encode_rgba(rgba, w, h)?;
    re2d_output::publish::publish(path, &png, &[])?;
    println!("{} ({w}x{h}, {} bytes)", path.display(), png.len());
    Ok(())
}

/// Downscales every frame by `factor` and lays them out in one row.
fn strip(frames: &[Vec<u8>], w: u32, h: u32, factor: u32) -> Res<(Vec<u8>, u32, u32)> {
    let mut small = Vec::new();
    let (mut sw, mut sh) = (w, h);
    for f in frames {
        let (px, a, b) = anim::downscale(f, w, h, factor)?;
        small.push(px);
        (sw, sh) = (a, b);
    }
    let refs: Vec<&[u8]> = small.iter().map(|f| &f[..]).collect();
    Ok(anim::sheet(&refs, sw, sh, refs.len() as u32)?)
}

fn main() -> Res<()> {
    let mut args = std::env::args().skip(1);
    let out = args.next().unwrap_or_else(|| "out".into());
    let img = args.next().unwrap_or_else(|| "docs/img".into());
    let (out, img) = (Path::new(&out), Path::new(&img));
    std::fs::create_dir_all(img)?;

    // the dense figure: 8 frames of 512², cropped to the union of their opaque bounds
    let frames: Vec<RgbaImage> = (0..8)
        .map(|i| read(&out.join(format!("walk-anime512-{i}.png"))))
        .collect::<Res<_>>()?;
    let refs: Vec<&[u8]> = frames.iter().map(|f| &f.data[..]).collect();
    let r = anim::fit_rect(&refs, 512, 512, 8);
    let cropped: Vec<Vec<u8>> = refs.iter().map(|f| anim::crop(f, 512, 512, r)).collect();
    let (px, w, h) = strip(&cropped, r.w, r.h, 2)?;
    write_png(&img.join("dense-walk.png"), &px, w, h)?;

    // the animal: the demo's APNG (already cropped with --fit) at half size
    let (frames, w, h, delay) = read_apng(&out.join("animal-walk.apng.png"))?;
    let every_third: Vec<Vec<u8>> = frames.iter().step_by(3).cloned().collect();
    let (px, sw, sh) = strip(&every_third, w, h, 2)?;
    write_png(&img.join("animal-turn.png"), &px, sw, sh)?;
    let mut small = Vec::new();
    let (mut fw, mut fh) = (w, h);
    for f in &frames {
        let (px, a, b) = anim::downscale(f, w, h, 2)?;
        small.push(px);
        (fw, fh) = (a, b);
    }
    let refs: Vec<&[u8]> = small.iter().map(|f| &f[..]).collect();
    let apng = anim::encode_apng(&refs, fw, fh, Timing { delay, plays: 0 })?;
    let path = img.join("animal-walk.apng.png");
    re2d_output::publish::publish(&path, &apng, &[])?;
    println!(
        "{} ({fw}x{fh}, {} frames, {} bytes)",
        path.display(),
        refs.len(),
        apng.len()
    );

    // the IK arm drawn by re2d-qjs's CPU engine
    let arm: Vec<RgbaImage> = (0..4)
        .map(|i| read(&out.join(format!("mesh-arm-{i}.png"))))
        .collect::<Res<_>>()?;
    let (aw, ah) = (arm[0].width, arm[0].height);
    let data: Vec<Vec<u8>> = arm.into_iter().map(|a| a.data).collect();
    let (px, w, h) = strip(&data, aw, ah, 2)?;
    write_png(&img.join("mesh-arm.png"), &px, w, h)?;
    Ok(())
}
