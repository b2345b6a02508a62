//! Photoshop writer of the random characters (Adobe's "Photoshop File Formats
//! Specification", version 1): 8-bit RGB, one raster layer per bone (bottom first in the
//! file), channels transparency (−1), R, G, B, each raw or RLE (PackBits) as the seed picks,
//! the layer's name as a Pascal string and as `luni` (UTF-16), and the flattened image as
//! the file's merged image data (raw, RGB + alpha).

use super::RandomCharacter;

fn be16(o: &mut Vec<u8>, v: u16) {
    o.extend_from_slice(&v.to_be_bytes());
}
fn be32(o: &mut Vec<u8>, v: u32) {
    o.extend_from_slice(&v.to_be_bytes());
}

/// PackBits of one row.
fn packbits(row: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < row.len() {
        // a run of equal bytes
        let mut j = i + 1;
        while j < row.len() && j - i < 128 && row[j] == row[i] {
            j += 1;
        }
        if j - i >= 2 {
            out.push((1i16 - (j - i) as i16) as i8 as u8);
            out.push(row[i]);
            i = j;
            continue;
        }
        // literals up to the next run of two
        let mut j = i + 1;
        while j < row.len() && j - i < 128 && !(j + 1 < row.len() && row[j] == row[j + 1]) {
            j += 1;
        }
        out.push((j - i - 1) as u8);
        out.extend_from_slice(&row[i..j]);
        i = j;
    }
}

/// One channel's data: compression then the bytes.
fn channel(plane: &[u8], w: usize, h: usize, rle: bool) -> Vec<u8> {
    let mut o = Vec::new();
    if rle {
        be16(&mut o, 1);
        let mut rows = Vec::with_capacity(h);
        for y in 0..h {
            let mut r = Vec::new();
            packbits(&plane[y * w..(y + 1) * w], &mut r);
            rows.push(r);
        }
        for r in &rows {
            be16(&mut o, r.len() as u16);
        }
        for r in rows {
            o.extend(r);
        }
    } else {
        be16(&mut o, 0);
        o.extend_from_slice(plane);
    }
    o
}

/// The character as a Photoshop file (RLE channels when `rle`).
pub fn write_with(c: &RandomCharacter, rle: bool) -> Vec<u8> {
    let d = &c.drawing;
    let (w, h) = (d.width as usize, d.height as usize);
    let mut o = Vec::new();
    o.extend_from_slice(b"8BPS");
    be16(&mut o, 1);
    o.extend_from_slice(&[0; 6]);
    be16(&mut o, 4);
    be32(&mut o, h as u32);
    be32(&mut o, w as u32);
    be16(&mut o, 8);
    be16(&mut o, 3);
    be32(&mut o, 0); // colour mode data
    be32(&mut o, 0); // image resources
    // layer records and channel data
    let mut recs = Vec::new();
    let mut data = Vec::new();
    for l in &c.layers {
        let plane = |k: usize| -> Vec<u8> { l.rgba.chunks_exact(4).map(|p| p[k]).collect() };
        let chans: Vec<(i16, Vec<u8>)> = [(-1i16, 3usize), (0, 0), (1, 1), (2, 2)]
            .iter()
            .map(|&(id, k)| (id, channel(&plane(k), l.w, l.h, rle)))
            .collect();
        be32(&mut recs, l.y as u32);
        be32(&mut recs, l.x as u32);
        be32(&mut recs, (l.y + l.h) as u32);
        be32(&mut recs, (l.x + l.w) as u32);
        be16(&mut recs, chans.len() as u16);
        for (id, c) in &chans {
            be16(&mut recs, *id as u16);
            be32(&mut recs, c.len() as u32);
        }
        recs.extend_from_slice(b"8BIMnorm");
        recs.extend_from_slice(&[255, 0, 0, 0]); // opacity, clipping, flags, filler
        let mut extra = Vec::new();
        be32(&mut extra, 0); // mask
        be32(&mut extra, 0); // blending ranges
        let name = l.name.as_bytes();
        extra.push(name.len() as u8);
        extra.extend_from_slice(name);
        extra.extend(std::iter::repeat_n(0u8, (4 - (name.len() + 1) % 4) % 4));
        // luni: the UTF-16 name
        let units: Vec<u16> = l.name.encode_utf16().collect();
        let mut luni = Vec::new();
        be32(&mut luni, units.len() as u32);
        for u in units {
            be16(&mut luni, u);
        }
        if luni.len() % 2 == 1 {
            luni.push(0);
        }
        extra.extend_from_slice(b"8BIMluni");
        be32(&mut extra, luni.len() as u32);
        extra.extend(luni);
        be32(&mut recs, extra.len() as u32);
        recs.extend(extra);
        for (_, c) in chans {
            data.extend(c);
        }
    }
    let mut li = Vec::new();
    be16(&mut li, c.layers.len() as u16);
    li.extend(recs);
    li.extend(data);
    if li.len() % 2 == 1 {
        li.push(0);
    }
    let mut lmi = Vec::new();
    be32(&mut lmi, li.len() as u32);
    lmi.extend(li);
    be32(&mut lmi, 0); // global layer mask
    be32(&mut o, lmi.len() as u32);
    o.extend(lmi);
    // merged image: raw, planar R, G, B, A
    be16(&mut o, 0);
    for k in [0usize, 1, 2, 3] {
        o.extend(c.flat_alpha.chunks_exact(4).map(|p| p[k]));
    }
    o
}

/// The character as a Photoshop file (RLE channels for odd seeds' names, raw otherwise).
pub fn write(c: &RandomCharacter) -> Vec<u8> {
    let odd = c
        .drawing
        .name
        .rsplit('-')
        .next()
        .and_then(|s| s.parse::<u64>().ok())
        .is_some_and(|s| s % 2 == 1);
    write_with(c, odd)
}
