//! The three files of a drawing: `<name>.png` (the painting), `<name>.labels.png` (truth:
//! red = label, G = B = 0, A = 255) and `<name>.skeleton.json`, written through the one
//! publishing path.

use std::path::{Path, PathBuf};

use super::Drawing;
use re2d_rig::RigError;

fn encode(rgba: &[u8], w: u32, h: u32) -> Result<Vec<u8>, RigError> {
    re2d_output::png_encode::encode_rgba(rgba, w, h).map_err(|e| RigError::new("E_RIG_IMAGE", e))
}

impl Drawing {
    /// The painting as a PNG (RGBA).
    pub fn png(&self) -> Result<Vec<u8>, RigError> {
        encode(&self.rgba, self.width, self.height)
    }

    /// The truth labels as a PNG (red = 1 + bone index, 0 = background; G = B = 0, A = 255).
    pub fn labels_png(&self) -> Result<Vec<u8>, RigError> {
        let mut px = Vec::with_capacity(self.labels.len() * 4);
        for &l in &self.labels {
            px.extend_from_slice(&[l, 0, 0, 255]);
        }
        encode(&px, self.width, self.height)
    }

    /// Writes `<name>.png`, `<name>.labels.png` and `<name>.skeleton.json` into `dir`
    /// (created if missing); returns the three paths. A file that cannot be written is
    /// `E_IO` and leaves any existing file of that name unchanged.
    pub fn write_files(&self, dir: &Path) -> Result<[PathBuf; 3], RigError> {
        let paths = [
            dir.join(format!("{}.png", self.name)),
            dir.join(format!("{}.labels.png", self.name)),
            dir.join(format!("{}.skeleton.json", self.name)),
        ];
        let bytes = [
            self.png()?,
            self.labels_png()?,
            self.skeleton_json.clone().into_bytes(),
        ];
        for (path, b) in paths.iter().zip(&bytes) {
            re2d_output::publish::publish(path, b, &[])
                .map_err(|e| RigError::new("E_IO", e.to_string()))?;
        }
        Ok(paths)
    }
}
