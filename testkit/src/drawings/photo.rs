//! A generated drawing as a phone photo of paper (issue 41): the character
//! (painted on transparency) composited onto paper with a light gradient, a
//! soft shadow and camera noise, uncropped — the figure's box covers about
//! a third of the frame. The truth is the character's coverage ≥ 0.5 at its
//! place in the frame.

use super::vary::mix64;
use super::{Background, CharacterSpec, Drawing, generate};
use re2d_rig::RigError;

/// A photo-like drawing and its truth.
#[derive(Clone, Debug)]
pub struct Photo {
    /// Frame width.
    pub width: u32,
    /// Frame height.
    pub height: u32,
    /// RGBA8, opaque.
    pub rgba: Vec<u8>,
    /// Per pixel: the figure (coverage ≥ 0.5).
    pub truth: Vec<bool>,
    /// Where the drawing's canvas sits in the frame (its top-left).
    pub offset: [u32; 2],
    /// The drawing (its declaration's coordinates are the canvas's: add
    /// [`Photo::offset`]).
    pub drawing: Drawing,
}

/// Uniform in [0, 1) from a stream of hashes.
struct Noise(u64);

impl Noise {
    fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        (mix64(self.0) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Standard normal (Box–Muller).
    fn normal(&mut self) -> f64 {
        let u = self.unit().max(1e-12);
        let v = self.unit();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

/// `spec`'s character (drawn on transparency whatever its background) on a
/// `width × height` photo of paper varied by `seed`: the paper's tint, the
/// gradient's direction (±25 % of the light across the frame), a shadow
/// over one side (30 % darker, its edge soft over about 3 % of the frame),
/// noise σ = 3 levels per channel, and where the figure sits. The figure's
/// canvas is 92 % of the frame's height and as wide as makes it a third of
/// the frame's area.
pub fn photo(spec: &CharacterSpec, width: u32, height: u32, seed: u64) -> Result<Photo, RigError> {
    let (fw, fh) = (width as f64, height as f64);
    let ch = (0.92 * fh).round() as u32;
    let cw = ((fw * fh / 3.0 / ch as f64).round() as u32).min(width);
    let mut s = spec.clone().sized(cw, ch);
    s.background = Background::Alpha;
    let drawing = generate(&s)?;
    let mut n = Noise(mix64(seed ^ 0x5eed_9a9e));
    let ox = (n.unit() * (width - cw) as f64) as u32;
    let oy = (n.unit() * (height - ch) as f64) as u32;
    let tint = [
        230.0 + 10.0 * n.unit(),
        226.0 + 10.0 * n.unit(),
        212.0 + 12.0 * n.unit(),
    ];
    let ga = n.unit() * std::f64::consts::TAU;
    let sa = n.unit() * std::f64::consts::TAU;
    let soff = (0.25 + 0.15 * n.unit()) * fw.min(fh);
    let soft = 0.03 * fw.min(fh);
    let (w, h) = (width as usize, height as usize);
    let mut rgba = vec![0u8; w * h * 4];
    let mut truth = vec![false; w * h];
    for y in 0..h {
        for x in 0..w {
            let (cx, cy) = (x as f64 - fw / 2.0, y as f64 - fh / 2.0);
            let light = 1.0 + 0.25 * (cx * ga.cos() + cy * ga.sin()) / fw.max(fh);
            let d = cx * sa.cos() + cy * sa.sin() - soff;
            let shade = 1.0 - 0.3 / (1.0 + (-d / soft).exp());
            let mut c = [tint[0] * light, tint[1] * light, tint[2] * light];
            let (dx, dy) = (x as i64 - ox as i64, y as i64 - oy as i64);
            if dx >= 0 && dy >= 0 && dx < cw as i64 && dy < ch as i64 {
                let j = (dy as usize * cw as usize + dx as usize) * 4;
                let p = &drawing.rgba[j..j + 4];
                let a = p[3] as f64 / 255.0;
                for k in 0..3 {
                    c[k] = p[k] as f64 * a + c[k] * (1.0 - a);
                }
                truth[y * w + x] = p[3] >= 128;
            }
            let o = &mut rgba[(y * w + x) * 4..][..4];
            for k in 0..3 {
                o[k] = (c[k] * shade + 3.0 * n.normal()).round().clamp(0.0, 255.0) as u8;
            }
            o[3] = 255;
        }
    }
    Ok(Photo {
        width,
        height,
        rgba,
        truth,
        offset: [ox, oy],
        drawing,
    })
}
