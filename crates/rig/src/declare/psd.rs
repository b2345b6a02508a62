//! Photoshop (`.psd`, version 1), read from the format's documented records (Adobe's
//! "Photoshop File Formats Specification": header, colour mode data, image resources, layer
//! and mask information, channel image data). The PSD crates on crates.io were not used:
//! the one maintained reader allocates from the file's declared sizes before checking them
//! and panics on malformed records, and this reader needs only the layer records.
//!
//! - Accepted: 8 bits per channel, RGB colour mode (3), raster layers with channels R, G, B
//!   and the transparency mask (−1); raw (0) or RLE (PackBits, 1) channel data. A layer
//!   without a transparency channel is opaque over its rectangle. User masks (−2, −3) are
//!   skipped (not applied).
//! - Refused (`E_RIG_IMAGE`, one line): PSB (version 2), 16 or 32 bits per channel, other
//!   colour modes (CMYK, grey, indexed, Lab, …), ZIP-compressed channels, a file without
//!   layers (a flat PSD: save the drawing as PNG instead), broken records.
//! - Groups: a layer whose section divider (`lsct`/`lsdk`) says "open" or "closed folder"
//!   starts a group (the record lies above its layers, the file lists bottom to top), one
//!   saying "bounding section divider" ends it; the group's name, visibility (flag bit 1)
//!   and opacity apply to its layers. Names: the `luni` (UTF-16) name when present, else the
//!   Pascal name, which must be UTF-8 (`E_RIG_LAYER` otherwise, as for a `luni` name with a
//!   broken surrogate). Hidden layers (flag bit 1) are left out; opacity (and the fill
//!   opacity `iOpa` when present) multiplies into the alpha.
//! - The merged image data must be whole (raw or RLE: its length is checked, not its pixels).
//! - Every size is checked before it is used: the canvas against the image limits, each
//!   record length against the bytes left, layer rectangles against the canvas and
//!   `rig-max-layer-pixels`, the layer count against `rig-max-layers`.

use re2d::limits::Limits;

use crate::RigError;
use crate::declare::layers::{Layer, Layered, check_rect, count_layer};

fn bad(msg: impl Into<String>) -> RigError {
    RigError::new("E_RIG_IMAGE", msg)
}

/// A bounds-checked big-endian reader.
struct Rd<'a> {
    b: &'a [u8],
    p: usize,
}

impl<'a> Rd<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], RigError> {
        if n > self.b.len() - self.p {
            return Err(bad("the PSD ends inside a record"));
        }
        let s = &self.b[self.p..self.p + n];
        self.p += n;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, RigError> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, RigError> {
        let s = self.take(2)?;
        Ok(u16::from_be_bytes([s[0], s[1]]))
    }
    fn u32(&mut self) -> Result<u32, RigError> {
        let s = self.take(4)?;
        Ok(u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
    }
    fn i32(&mut self) -> Result<i32, RigError> {
        Ok(self.u32()? as i32)
    }
    /// A section of `len` bytes, as its own reader.
    fn section(&mut self, len: usize) -> Result<Rd<'a>, RigError> {
        Ok(Rd {
            b: self.take(len)?,
            p: 0,
        })
    }
    fn left(&self) -> usize {
        self.b.len() - self.p
    }
}

/// One layer record.
struct Record {
    rect: [i64; 4],
    /// (channel id, data length)
    channels: Vec<(i16, usize)>,
    opacity: u8,
    hidden: bool,
    name: String,
    /// Section divider type: 0 a layer, 1/2 a group's start (open/closed), 3 its end.
    divider: u32,
    fill: u8,
}

fn utf8_name(raw: &[u8]) -> Result<String, RigError> {
    String::from_utf8(raw.to_vec()).map_err(|_| {
        RigError::new(
            "E_RIG_LAYER",
            format!(
                "a layer name is not UTF-8 ({} bytes); rename the layer in a current editor (it stores UTF-16 names)",
                raw.len()
            ),
        )
    })
}

fn record(r: &mut Rd) -> Result<Record, RigError> {
    let (t, l, b, rt) = (r.i32()?, r.i32()?, r.i32()?, r.i32()?);
    let nch = r.u16()? as usize;
    if nch > 56 {
        return Err(bad(format!("a layer with {nch} channels")));
    }
    let mut channels = Vec::with_capacity(nch);
    for _ in 0..nch {
        let id = r.u16()? as i16;
        let len = r.u32()? as usize;
        channels.push((id, len));
    }
    if r.take(4)? != b"8BIM" {
        return Err(bad("a layer record without its blend signature"));
    }
    let _blend = r.take(4)?;
    let opacity = r.u8()?;
    let _clipping = r.u8()?;
    let flags = r.u8()?;
    let _filler = r.u8()?;
    let extra = r.u32()? as usize;
    let mut x = r.section(extra)?;
    let mask = x.u32()? as usize;
    x.take(mask)?;
    let ranges = x.u32()? as usize;
    x.take(ranges)?;
    let nlen = x.u8()? as usize;
    let pascal = x.take(nlen)?;
    // the Pascal string is padded to a multiple of 4 bytes (length byte included)
    let pad = (4 - (nlen + 1) % 4) % 4;
    x.take(pad.min(x.left()))?;
    let mut name = None;
    let mut divider = 0;
    let mut fill = 255u8;
    while x.left() >= 12 {
        let sig = x.take(4)?;
        if sig != b"8BIM" && sig != b"8B64" {
            return Err(bad(
                "a layer's additional information without its signature",
            ));
        }
        let key = x.take(4)?;
        let len = x.u32()? as usize;
        let mut d = x.section(len)?;
        match key {
            b"luni" => {
                let n = d.u32()? as usize;
                if n > d.left() / 2 {
                    return Err(bad("a Unicode layer name longer than its record"));
                }
                let units: Vec<u16> = (0..n).map(|_| d.u16()).collect::<Result<_, _>>()?;
                let s = String::from_utf16(&units).map_err(|_| {
                    RigError::new(
                        "E_RIG_LAYER",
                        "a layer's Unicode name has a broken surrogate pair",
                    )
                })?;
                name = Some(s.trim_end_matches('\0').to_string());
            }
            b"lsct" | b"lsdk" => divider = d.u32()?,
            b"iOpa" => fill = d.u8()?,
            _ => {}
        }
        // blocks are padded to an even length
        if len % 2 == 1 && x.left() > 0 {
            x.take(1)?;
        }
    }
    let name = match name {
        Some(n) => n,
        None => utf8_name(pascal)?,
    };
    Ok(Record {
        rect: [l as i64, t as i64, rt as i64, b as i64],
        channels,
        opacity,
        hidden: flags & 2 != 0,
        name,
        divider,
        fill,
    })
}

/// Decodes one channel of `w × h` from `r` into every 4th byte of `out` (offset `k`).
fn channel(
    r: &mut Rd,
    len: usize,
    w: usize,
    h: usize,
    out: Option<(&mut [u8], usize)>,
) -> Result<(), RigError> {
    let mut d = r.section(len)?;
    if len < 2 {
        // an empty channel (a layer without pixels) holds only its compression, or nothing
        return Ok(());
    }
    let comp = d.u16()?;
    let Some((out, k)) = out else {
        return Ok(());
    };
    match comp {
        0 => {
            let s = d.take(w * h)?;
            for (i, &v) in s.iter().enumerate() {
                out[i * 4 + k] = v;
            }
        }
        1 => {
            let mut counts = Vec::with_capacity(h);
            for _ in 0..h {
                counts.push(d.u16()? as usize);
            }
            for (y, &c) in counts.iter().enumerate() {
                let mut row = d.section(c)?;
                let mut x = 0usize;
                while row.left() > 0 && x < w {
                    let n = row.u8()? as i8;
                    if n >= 0 {
                        let run = n as usize + 1;
                        let s = row.take(run)?;
                        for &v in s.iter().take(w - x) {
                            out[(y * w + x) * 4 + k] = v;
                            x += 1;
                        }
                    } else if n != -128 {
                        let run = (1 - n as isize) as usize;
                        let v = row.u8()?;
                        for _ in 0..run.min(w - x) {
                            out[(y * w + x) * 4 + k] = v;
                            x += 1;
                        }
                    }
                }
                if x < w {
                    return Err(bad("an RLE row shorter than its layer"));
                }
            }
        }
        2 | 3 => {
            return Err(bad(
                "ZIP-compressed channels are not read; save without compression or with RLE",
            ));
        }
        c => return Err(bad(format!("unknown channel compression {c}"))),
    }
    Ok(())
}

/// Checks that the merged image data (the file's last section) is whole: a file cut short
/// is refused even where its layers are intact.
fn merged(r: &mut Rd, nch: usize, w: usize, h: usize) -> Result<(), RigError> {
    let short = || bad("the PSD ends inside its merged image data (a file cut short?)");
    let comp = r.u16().map_err(|_| short())?;
    let need = match comp {
        0 => nch * w * h,
        1 => {
            let mut sum = 0usize;
            for _ in 0..nch * h {
                sum += r.u16().map_err(|_| short())? as usize;
            }
            sum
        }
        // zip-compressed composites: their length is not known without inflating
        _ => 0,
    };
    if r.left() < need {
        return Err(short());
    }
    Ok(())
}

/// Reads a Photoshop file; `canvas` checks the canvas size before any layer is read.
pub fn read(
    bytes: &[u8],
    limits: &Limits,
    canvas: &dyn Fn(u32, u32) -> Result<(), RigError>,
) -> Result<Layered, RigError> {
    let mut r = Rd { b: bytes, p: 0 };
    if r.take(4)? != b"8BPS" {
        return Err(bad("not a Photoshop file"));
    }
    match r.u16()? {
        1 => {}
        2 => return Err(bad("a large-document PSB; save it as PSD")),
        v => return Err(bad(format!("PSD version {v}"))),
    }
    r.take(6)?;
    let nch = r.u16()? as usize;
    if !(1..=56).contains(&nch) {
        return Err(bad(format!("a PSD with {nch} channels (1 to 56)")));
    }
    let h = r.u32()?;
    let w = r.u32()?;
    let depth = r.u16()?;
    let mode = r.u16()?;
    if depth != 8 {
        return Err(bad(format!(
            "a {depth}-bit PSD; convert it to 8 bits per channel"
        )));
    }
    if mode != 3 {
        let m = match mode {
            0 => "bitmap",
            1 => "greyscale",
            2 => "indexed",
            4 => "CMYK",
            7 => "multichannel",
            8 => "duotone",
            9 => "Lab",
            _ => "unknown",
        };
        return Err(bad(format!(
            "a PSD in {m} colour mode ({mode}); convert it to RGB"
        )));
    }
    if w == 0 || h == 0 {
        return Err(bad("a PSD with an empty canvas"));
    }
    canvas(w, h)?;
    let cm = r.u32()? as usize;
    r.take(cm)?;
    let res = r.u32()? as usize;
    r.take(res)?;
    let lmi = r.u32()? as usize;
    let mut lm = r.section(lmi)?;
    merged(&mut r, nch, w as usize, h as usize)?;
    if lm.left() < 4 {
        return Err(bad("a PSD without layers (save a flat drawing as PNG)"));
    }
    let li = lm.u32()? as usize;
    let mut li = lm.section(li)?;
    if li.left() < 2 {
        return Err(bad("a PSD without layers (save a flat drawing as PNG)"));
    }
    let count = (li.u16()? as i16).unsigned_abs() as usize;
    count_layer(count, limits)?;
    let mut recs = Vec::with_capacity(count);
    for _ in 0..count {
        recs.push(record(&mut li)?);
    }
    // groups, top to bottom: a start record lies above its layers
    struct Open {
        name: String,
        hidden: bool,
        opacity: f64,
    }
    let mut vis = vec![None; count];
    let mut stack: Vec<Open> = Vec::new();
    for (k, rec) in recs.iter().enumerate().rev() {
        match rec.divider {
            1 | 2 => stack.push(Open {
                name: rec.name.clone(),
                hidden: rec.hidden || stack.last().is_some_and(|g| g.hidden),
                opacity: stack.last().map_or(1.0, |g| g.opacity) * rec.opacity as f64 / 255.0,
            }),
            3 => {
                stack.pop();
            }
            _ => {
                let hidden = rec.hidden || stack.iter().any(|g| g.hidden);
                if !hidden {
                    let groups: Vec<String> = stack.iter().map(|g| g.name.clone()).collect();
                    let op = stack.last().map_or(1.0, |g| g.opacity) * rec.opacity as f64 / 255.0
                        * rec.fill as f64
                        / 255.0;
                    vis[k] = Some((groups, op));
                }
            }
        }
    }
    // sizes first: every visible layer's rectangle, before any pixel is decoded
    let mut total = 0u64;
    for (rec, v) in recs.iter().zip(&vis) {
        if v.is_some() && rec.rect[2] > rec.rect[0] && rec.rect[3] > rec.rect[1] {
            check_rect(&rec.name, rec.rect, (w, h), &mut total, limits)?;
        }
        let need: usize = rec.channels.iter().map(|c| c.1).sum();
        if need > li.left() {
            return Err(bad("a layer's channel data runs past the file"));
        }
    }
    let mut layers = Vec::new();
    for (rec, v) in recs.iter().zip(vis) {
        let (lw, lh) = (
            (rec.rect[2] - rec.rect[0]).max(0) as usize,
            (rec.rect[3] - rec.rect[1]).max(0) as usize,
        );
        let keep = v.is_some() && lw > 0 && lh > 0;
        let mut rgba = if keep {
            vec![255u8; lw * lh * 4]
        } else {
            Vec::new()
        };
        for &(id, len) in &rec.channels {
            let k = match id {
                0 => Some(0),
                1 => Some(1),
                2 => Some(2),
                -1 => Some(3),
                _ => None,
            };
            let out = match k {
                Some(k) if keep => Some((rgba.as_mut_slice(), k)),
                _ => None,
            };
            channel(&mut li, len, lw, lh, out)?;
        }
        if let Some((groups, op)) = v
            && keep
        {
            if op < 1.0 {
                for p in rgba.chunks_exact_mut(4) {
                    p[3] = (p[3] as f64 * op).round() as u8;
                }
            }
            layers.push(Layer {
                name: rec.name.clone(),
                groups,
                x: rec.rect[0] as usize,
                y: rec.rect[1] as usize,
                w: lw,
                h: lh,
                rgba,
            });
        }
    }
    Ok(Layered {
        width: w,
        height: h,
        layers,
    })
}
