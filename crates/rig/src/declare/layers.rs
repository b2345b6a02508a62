//! Layered drawings (issue 40): an OpenRaster `.ora` or a Photoshop `.psd` named by the
//! declaration's `image`, read into layers and flattened into the drawing.
//!
//! - The file's kind is told by its first bytes (`PK\x03\x04` with the OpenRaster mimetype,
//!   `8BPS`), not by its name: [`is_layered`], [`read`].
//! - A **layer**: its name, its rectangle on the canvas and its pixels (RGBA8, straight
//!   alpha, the layer's opacity multiplied into the alpha), and the names of the groups it
//!   lies in (outermost first). Hidden layers, and every layer of a hidden group, are left
//!   out; a group's opacity multiplies into its layers. Blend modes other than normal are
//!   read as normal (the flattened drawing then differs from the editor's view where such a
//!   mode was used).
//! - **Flattening** ([`Layered::flatten`]): per pixel, far to near,
//!   `A ← a + A·(1 − a)`, `C ← (c·a + C·A·(1 − a)) / A'` in f32 from the 8-bit values,
//!   rounded to 8 bits, on a transparent canvas: the drawing (its declared `background` is
//!   then normally `"alpha"`).
//! - Bad input is one line (exit 1): `E_RIG_IMAGE` (not a readable `.ora`/`.psd`: a broken
//!   zip or record, a compression the reader does not know, a 16-bit or 32-bit, CMYK, grey
//!   or indexed PSD, a PSB), `E_RIG_LIMIT` (a canvas beyond the image limits, more layers
//!   than `rig-max-layers`, layer rectangles beyond `rig-max-layer-pixels`, a zip entry whose
//!   declared size is beyond `file-max-bytes` — all checked before anything is inflated or
//!   decoded), `E_RIG_LAYER` (a layer outside the canvas, two visible layers with one name,
//!   a name that is not UTF-8; [`crate::cut::layers`] adds: no layer named after a bone,
//!   a `layers` mapping naming no layer).

use re2d::limits::Limits;

use crate::RigError;

/// One visible layer.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// The layer's own name.
    pub name: String,
    /// The groups it lies in, outermost first.
    pub groups: Vec<String>,
    /// Left column on the canvas.
    pub x: usize,
    /// Top row on the canvas.
    pub y: usize,
    /// Width (≥ 1).
    pub w: usize,
    /// Height (≥ 1).
    pub h: usize,
    /// RGBA8, straight alpha, `w × h`, opacity applied.
    pub rgba: Vec<u8>,
}

impl Layer {
    /// Alpha at canvas pixel `i` of a canvas `cw` wide (0 outside the layer).
    pub fn alpha_at(&self, i: usize, cw: usize) -> u8 {
        let (x, y) = (i % cw, i / cw);
        if x < self.x || y < self.y || x >= self.x + self.w || y >= self.y + self.h {
            return 0;
        }
        self.rgba[((y - self.y) * self.w + (x - self.x)) * 4 + 3]
    }
}

/// A layered drawing: its canvas and its visible layers, far to near.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layered {
    /// Canvas width.
    pub width: u32,
    /// Canvas height.
    pub height: u32,
    /// Visible layers, far (bottom) to near (top).
    pub layers: Vec<Layer>,
}

/// The file format of a layered drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// OpenRaster (a zip of PNG layers and `stack.xml`).
    Ora,
    /// Photoshop (8BPS, version 1).
    Psd,
}

/// The layered format of `bytes`, from its first bytes (`None`: not a layered file).
pub fn is_layered(bytes: &[u8]) -> Option<Format> {
    if bytes.starts_with(b"8BPS") {
        Some(Format::Psd)
    } else if bytes.starts_with(b"PK\x03\x04") {
        Some(Format::Ora)
    } else {
        None
    }
}

/// Reads a layered drawing (`what` names it in messages); `canvas` checks the canvas's
/// size before any layer is read.
pub fn read(
    bytes: &[u8],
    what: &str,
    limits: &Limits,
    canvas: &dyn Fn(u32, u32) -> Result<(), RigError>,
) -> Result<Layered, RigError> {
    let l = match is_layered(bytes) {
        Some(Format::Ora) => crate::declare::ora::read(bytes, limits, canvas),
        Some(Format::Psd) => crate::declare::psd::read(bytes, limits, canvas),
        None => Err(RigError::new(
            "E_RIG_IMAGE",
            "not a PNG, OpenRaster or Photoshop file",
        )),
    }
    .map_err(|e| RigError::new(e.code, format!("{what}: {}", e.message)))?;
    Ok(l)
}

/// Checks a layer rectangle against the canvas and adds its pixels to `total`, against
/// `rig-max-layer-pixels` (before the layer is decoded).
pub fn check_rect(
    name: &str,
    rect: [i64; 4],
    canvas: (u32, u32),
    total: &mut u64,
    limits: &Limits,
) -> Result<(), RigError> {
    let [x0, y0, x1, y1] = rect;
    if x0 < 0 || y0 < 0 || x1 > canvas.0 as i64 || y1 > canvas.1 as i64 || x1 < x0 || y1 < y0 {
        return Err(RigError::new(
            "E_RIG_LAYER",
            format!(
                "layer '{name}' ({x0},{y0})-({x1},{y1}) lies outside the {}x{} canvas; crop it to the canvas",
                canvas.0, canvas.1
            ),
        ));
    }
    *total += ((x1 - x0) * (y1 - y0)) as u64;
    if *total > limits.rig_max_layer_pixels {
        return Err(RigError::new(
            "E_RIG_LIMIT",
            format!(
                "the layers hold more than {} pixels (limit rig-max-layer-pixels, see --limit)",
                limits.rig_max_layer_pixels
            ),
        ));
    }
    Ok(())
}

/// Counts one more layer record against `rig-max-layers`.
pub fn count_layer(n: usize, limits: &Limits) -> Result<(), RigError> {
    if n as u64 > limits.rig_max_layers as u64 {
        return Err(RigError::new(
            "E_RIG_LIMIT",
            format!(
                "more than {} layers (limit rig-max-layers, see --limit)",
                limits.rig_max_layers
            ),
        ));
    }
    Ok(())
}

fn to8(v: f32) -> u8 {
    (v * 255.0).round().clamp(0.0, 255.0) as u8
}

impl Layered {
    /// The flattened drawing (RGBA8, straight alpha, transparent where no layer paints).
    pub fn flatten(&self) -> Vec<u8> {
        let (w, h) = (self.width as usize, self.height as usize);
        let mut acc = vec![[0f32; 4]; w * h];
        for l in &self.layers {
            for ly in 0..l.h {
                let row = &l.rgba[ly * l.w * 4..(ly + 1) * l.w * 4];
                let base = (l.y + ly) * w + l.x;
                for (lx, s) in row.chunks_exact(4).enumerate() {
                    if s[3] == 0 {
                        continue;
                    }
                    let a = s[3] as f32 / 255.0;
                    let d = &mut acc[base + lx];
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
        for (px, d) in rgba.chunks_exact_mut(4).zip(&acc) {
            if d[3] > 0.0 {
                px.copy_from_slice(&[to8(d[0]), to8(d[1]), to8(d[2]), to8(d[3])]);
            }
        }
        rgba
    }

    /// Per canvas pixel: 1 + the index of the layer that contributes most to it (its alpha
    /// times the transparency of the layers above; equal: the nearer), 0 where none paints.
    /// At most 65 535 layers are told apart (more cannot pass `rig-max-layers`).
    pub fn top_layer(&self) -> Vec<u16> {
        let (w, h) = (self.width as usize, self.height as usize);
        let mut left = vec![1f32; w * h];
        let mut best = vec![0f32; w * h];
        let mut top = vec![0u16; w * h];
        for (k, l) in self.layers.iter().enumerate().rev() {
            for ly in 0..l.h {
                let base = (l.y + ly) * w + l.x;
                for lx in 0..l.w {
                    let a = l.rgba[(ly * l.w + lx) * 4 + 3];
                    if a == 0 {
                        continue;
                    }
                    let i = base + lx;
                    let a = a as f32 / 255.0;
                    let c = a * left[i];
                    if c > best[i] {
                        best[i] = c;
                        top[i] = (k + 1).min(u16::MAX as usize) as u16;
                    }
                    left[i] *= 1.0 - a;
                }
            }
        }
        top
    }
}
