//! Encodes a PNG as a baseline JPEG (quality 90, 4:2:0), as a phone would store a photo:
//! `make bench-guess` times `rig guess` from a 12-megapixel JPEG with it.
//!
//! `cargo run --release --example rig_jpeg -- IN.png OUT.jpg`

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != 2 {
        eprintln!("usage: rig_jpeg IN.png OUT.jpg");
        std::process::exit(2);
    }
    let bytes = std::fs::read(&args[0]).unwrap_or_else(|e| panic!("{}: {e}", args[0]));
    let img = re2d::png_io::decode_rgba(std::io::Cursor::new(bytes)).unwrap();
    let mut out = Vec::new();
    let e = jpeg_encoder::Encoder::new(&mut out, 90);
    e.encode(
        &img.data,
        img.width as u16,
        img.height as u16,
        jpeg_encoder::ColorType::Rgba,
    )
    .unwrap();
    std::fs::write(&args[1], out).unwrap();
}
