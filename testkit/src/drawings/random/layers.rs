//! The painter of the random characters: every part is painted into a layer of its own
//! (its whole paint, also where nearer layers cover it), the layers are flattened far to
//! near, and the truth is the layer on top.
//!
//! - A layer: a rectangle of the canvas, RGBA8 with straight alpha (the paint's coverage).
//! - Flattening (the layered-file reader documents the same rule): per pixel, far to near,
//!   `A ← a + A·(1 − a)`, `C ← (c·a + C·A·(1 − a)) / A'` in f32 from the 8-bit values, then
//!   rounded to 8 bits; over a key colour the result is then mixed over the key.
//! - Truth: where the flattened alpha is at least 0.5, the layer whose contribution
//!   `a · Π(1 − a_nearer)` is the largest (equal: the nearer one); else 0.

use super::super::paint::coverage;
use super::super::part::Part;

/// One painted layer.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// The layer's name (the bone's).
    pub name: String,
    /// Index of the bone it belongs to (declaration order).
    pub bone: usize,
    /// Left column on the canvas.
    pub x: usize,
    /// Top row on the canvas.
    pub y: usize,
    /// Width.
    pub w: usize,
    /// Height.
    pub h: usize,
    /// RGBA8, straight alpha, `w × h`.
    pub rgba: Vec<u8>,
}

impl Layer {
    /// Alpha at canvas pixel `(x, y)` (0 outside the rectangle).
    pub fn alpha_at(&self, x: usize, y: usize) -> u8 {
        if x < self.x || y < self.y || x >= self.x + self.w || y >= self.y + self.h {
            return 0;
        }
        self.rgba[((y - self.y) * self.w + (x - self.x)) * 4 + 3]
    }
}

fn to8(v: f32) -> u8 {
    (v * 255.0).round().clamp(0.0, 255.0) as u8
}

/// Paints `part` (bone `bone`) into its layer on a `w × h` canvas, cropped to its paint.
pub fn paint_layer(part: &Part, bone: usize, w: usize, h: usize) -> Layer {
    let b = part.bounds();
    let c = |v: f64, hi: usize| v.clamp(0.0, hi as f64) as usize;
    let (x0, y0, x1, y1) = (
        c(b[0].floor() - 2.0, w),
        c(b[1].floor() - 2.0, h),
        c(b[2].ceil() + 2.0, w),
        c(b[3].ceil() + 2.0, h),
    );
    let (bw, bh) = (x1.saturating_sub(x0), y1.saturating_sub(y0));
    let mut px = vec![0u8; bw * bh * 4];
    let mut tight = [usize::MAX, usize::MAX, 0, 0];
    for y in y0..y1 {
        for x in x0..x1 {
            let p = [x as f64 + 0.5, y as f64 + 0.5];
            let sd = part.sd(p);
            let k = coverage(sd, true);
            let a = to8(k);
            if a == 0 {
                continue;
            }
            let m = part.tube.sample(p);
            let col = part.colour(p, &m, sd, true);
            let i = ((y - y0) * bw + (x - x0)) * 4;
            px[i..i + 4].copy_from_slice(&[to8(col[0]), to8(col[1]), to8(col[2]), a]);
            tight = [
                tight[0].min(x),
                tight[1].min(y),
                tight[2].max(x + 1),
                tight[3].max(y + 1),
            ];
        }
    }
    if tight[0] == usize::MAX {
        return Layer {
            name: part.name.to_string(),
            bone,
            x: 0,
            y: 0,
            w: 0,
            h: 0,
            rgba: Vec::new(),
        };
    }
    let (tw, th) = (tight[2] - tight[0], tight[3] - tight[1]);
    let mut rgba = Vec::with_capacity(tw * th * 4);
    for y in tight[1]..tight[3] {
        let s = ((y - y0) * bw + (tight[0] - x0)) * 4;
        rgba.extend_from_slice(&px[s..s + tw * 4]);
    }
    Layer {
        name: part.name.to_string(),
        bone,
        x: tight[0],
        y: tight[1],
        w: tw,
        h: th,
        rgba,
    }
}

/// The flattened canvas (RGBA8 straight alpha, transparent background) of `layers` listed
/// far to near, and the truth labels (1 + bone; 0 background).
pub fn flatten(layers: &[Layer], w: usize, h: usize) -> (Vec<u8>, Vec<u8>) {
    let mut acc = vec![[0f32; 4]; w * h];
    // best contribution so far is recomputed near to far below; first the composite
    for l in layers {
        for ly in 0..l.h {
            for lx in 0..l.w {
                let s = &l.rgba[(ly * l.w + lx) * 4..(ly * l.w + lx) * 4 + 4];
                if s[3] == 0 {
                    continue;
                }
                let i = (l.y + ly) * w + l.x + lx;
                let a = s[3] as f32 / 255.0;
                let d = &mut acc[i];
                let da = d[3] * (1.0 - a);
                let na = a + da;
                for ch in 0..3 {
                    d[ch] = (s[ch] as f32 / 255.0 * a + d[ch] * da) / na;
                }
                d[3] = na;
            }
        }
    }
    let mut rgba = vec![0u8; w * h * 4];
    for (i, d) in acc.iter().enumerate() {
        if d[3] > 0.0 {
            rgba[i * 4..i * 4 + 4].copy_from_slice(&[to8(d[0]), to8(d[1]), to8(d[2]), to8(d[3])]);
        }
    }
    drop(acc);
    // truth: near to far, the transparency left above each layer
    let mut left = vec![1f32; w * h];
    let mut best = vec![0f32; w * h];
    let mut labels = vec![0u8; w * h];
    for l in layers.iter().rev() {
        for ly in 0..l.h {
            for lx in 0..l.w {
                let a = l.rgba[(ly * l.w + lx) * 4 + 3];
                if a == 0 {
                    continue;
                }
                let i = (l.y + ly) * w + l.x + lx;
                let a = a as f32 / 255.0;
                let c = a * left[i];
                if c > best[i] {
                    best[i] = c;
                    labels[i] = l.bone as u8 + 1;
                }
                left[i] *= 1.0 - a;
            }
        }
    }
    for i in 0..w * h {
        if rgba[i * 4 + 3] < 128 {
            labels[i] = 0;
        }
    }
    (rgba, labels)
}

/// `rgba` (straight alpha) mixed over the opaque `key`.
pub fn over_key(rgba: &[u8], key: [u8; 3]) -> Vec<u8> {
    let mut out = Vec::with_capacity(rgba.len());
    for p in rgba.chunks_exact(4) {
        let a = p[3] as f32 / 255.0;
        let mut c = [0u8; 3];
        for ch in 0..3 {
            c[ch] = to8((p[ch] as f32 * a + key[ch] as f32 * (1.0 - a)) / 255.0);
        }
        // a painted pixel never has the exact key colour
        if p[3] > 0 && c == key {
            c[0] = if key[0] < 255 { key[0] + 1 } else { 254 };
        }
        out.extend_from_slice(&[c[0], c[1], c[2], 255]);
    }
    out
}
