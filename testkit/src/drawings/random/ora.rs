//! OpenRaster writer of the random characters: `mimetype` (stored, first), `stack.xml`
//! (one `<layer>` per bone, top first, placed by `x`/`y`), one PNG per layer under `data/`,
//! `mergedimage.png` (the flattening) and a `Thumbnails/thumbnail.png` (the flattening at
//! most 256 px a side), deflated — as Krita and GIMP write them.

use std::io::Write;

use zip::write::SimpleFileOptions;

use super::RandomCharacter;

fn png(rgba: &[u8], w: usize, h: usize) -> Vec<u8> {
    re2d_output::png_encode::encode_rgba(rgba, w as u32, h as u32).expect("encodes")
}

/// The character as an OpenRaster file.
pub fn write(c: &RandomCharacter) -> Vec<u8> {
    let d = &c.drawing;
    let (w, h) = (d.width as usize, d.height as usize);
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let stored = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let deflated =
        SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    z.start_file("mimetype", stored).expect("zip");
    z.write_all(b"image/openraster").expect("zip");
    let mut xml = format!(
        "<?xml version='1.0' encoding='UTF-8'?>\n<image version=\"0.0.5\" w=\"{w}\" h=\"{h}\">\n <stack>\n"
    );
    for (k, l) in c.layers.iter().enumerate().rev() {
        xml.push_str(&format!(
            "  <layer name=\"{}\" src=\"data/layer{k}.png\" x=\"{}\" y=\"{}\" opacity=\"1.0\" visibility=\"visible\" composite-op=\"svg:src-over\"/>\n",
            l.name, l.x, l.y
        ));
    }
    xml.push_str(" </stack>\n</image>\n");
    z.start_file("stack.xml", deflated).expect("zip");
    z.write_all(xml.as_bytes()).expect("zip");
    for (k, l) in c.layers.iter().enumerate() {
        z.start_file(format!("data/layer{k}.png"), deflated)
            .expect("zip");
        z.write_all(&png(&l.rgba, l.w, l.h)).expect("zip");
    }
    z.start_file("mergedimage.png", deflated).expect("zip");
    z.write_all(&png(&c.flat_alpha, w, h)).expect("zip");
    // a thumbnail: every n-th pixel
    let n = w.max(h).div_ceil(256);
    let (tw, th) = (w.div_ceil(n), h.div_ceil(n));
    let mut t = Vec::with_capacity(tw * th * 4);
    for y in 0..th {
        for x in 0..tw {
            let i = (y * n * w + x * n) * 4;
            t.extend_from_slice(&c.flat_alpha[i..i + 4]);
        }
    }
    z.start_file("Thumbnails/thumbnail.png", deflated)
        .expect("zip");
    z.write_all(&png(&t, tw, th)).expect("zip");
    z.finish().expect("zip").into_inner()
}

/// A zip of `entries` (name, bytes, deflated), `mimetype` first and stored as OpenRaster
/// asks: the hand-made OpenRaster files of the bad-input tests.
pub fn zip_of(entries: &[(&str, &[u8], bool)]) -> Vec<u8> {
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes, deflate) in entries {
        let o = SimpleFileOptions::default()
            .compression_method(if *deflate {
                zip::CompressionMethod::Deflated
            } else {
                zip::CompressionMethod::Stored
            })
            .large_file(bytes.len() as u64 >= 1 << 32);
        z.start_file(*name, o).expect("zip");
        z.write_all(bytes).expect("zip");
    }
    z.finish().expect("zip").into_inner()
}
