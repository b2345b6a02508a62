//! What an edit opens: the declaration (or the drawing alone), the drawing's pixels, and the
//! work the previews reuse (the silhouette and its ink: they do not depend on the skeleton).
//!
//! - `rig edit DECLARATION`: the declaration must parse and validate (rig.md §1: a broken file
//!   is refused with its `E_RIG_*` line, as `rig build` refuses it); its `image` is the drawing,
//!   relative to the declaration; saving replaces the declaration.
//! - `rig edit DRAWING` (a PNG): the declaration is `<stem>.skeleton.json` beside it. When that
//!   file exists and draws this drawing, it is opened instead; when it draws another image the
//!   edit is refused (`E_EDIT_EXISTS`) rather than replace it. Otherwise the edit starts from
//!   [`crate::start::initial_declaration`] with `"background": "alpha"` when a border pixel of
//!   the drawing is not opaque, else `"auto"`; nothing is written before the page saves.
//!
//! Every size is checked before it is allocated: the declaration against `json-max-bytes`, the
//! drawing's file against `file-max-bytes`, its header against the PNG limits and
//! `rig-max-pixels`.

use std::path::{Path, PathBuf};

use re2d::limits::{Limits, ReadError, read_file};
use re2d::png_io::RgbaImage;
use re2d_rig::RigError;
use re2d_rig::cut::preview::Prepared;
use re2d_rig::declare::silhouette::silhouette;
use re2d_rig::declare::skeleton::{Background, Skeleton};
use serde_json::Value;

/// An opened edit.
pub struct Session {
    /// Where the declaration is saved.
    pub decl_path: PathBuf,
    /// The drawing.
    pub image_path: PathBuf,
    /// The declaration's `image` (a request may not change it).
    pub image_ref: String,
    /// The declaration's `background` (a request may not change it: the silhouette the
    /// previews reuse is keyed with it).
    pub background: Background,
    /// The declaration the edit starts from, with every field it has.
    pub doc: Value,
    /// The drawing's PNG file as it was read (a build decodes it again: an idle editor holds
    /// the silhouette and its ink, not a second copy of the pixels).
    pub png: Vec<u8>,
    /// The drawing's width.
    pub width: u32,
    /// The drawing's height.
    pub height: u32,
    /// Its silhouette and ink.
    pub prep: Prepared,
    /// The model name of a build (the declaration's stem without `.skeleton`).
    pub name: String,
    /// The edit started from the drawing alone (no declaration on disk yet).
    pub fresh: bool,
}

const PNG_SIG: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];

fn io_err(path: &Path, e: impl std::fmt::Display) -> RigError {
    RigError::new("E_IO", format!("{}: {e}", path.display()))
}

fn read(path: &Path, max: u64, limit: &'static str) -> Result<Vec<u8>, RigError> {
    read_file(path, max, limit).map_err(|e| match e {
        ReadError::Io(e) => io_err(path, e),
        ReadError::TooLarge(e) => RigError::new("E_RIG_LIMIT", format!("{}: {e}", path.display())),
    })
}

/// Opens `path`, a declaration or a drawing (see the module doc).
pub fn open(path: &Path, limits: &Limits) -> Result<Session, RigError> {
    let mut head = [0u8; 8];
    let is_png = std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut head))
        .is_ok()
        && head == PNG_SIG;
    if !is_png {
        return open_declaration(path, limits);
    }
    let stem = path
        .file_stem()
        .map_or("drawing".into(), |s| s.to_string_lossy().into_owned());
    let decl_path = path.with_file_name(format!("{stem}.skeleton.json"));
    if decl_path.exists() {
        let s = open_declaration(&decl_path, limits)?;
        let same = match (s.image_path.canonicalize(), path.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        };
        if !same {
            return Err(RigError::new(
                "E_EDIT_EXISTS",
                format!(
                    "{} exists and draws {}, not this drawing: edit it, or move it away",
                    decl_path.display(),
                    s.image_path.display()
                ),
            ));
        }
        return Ok(s);
    }
    open_drawing(path, decl_path, limits)
}

/// The drawing at `path` (its file and its pixels), its size checked from the header against
/// the PNG limits and `rig-max-pixels` before its pixels are decoded.
fn drawing(path: &Path, limits: &Limits) -> Result<(Vec<u8>, RgbaImage), RigError> {
    let bytes = read(path, limits.file_max_bytes, "file-max-bytes")?;
    let image = decode(&bytes, limits)
        .map_err(|e| RigError::new(e.code, format!("{}: {}", path.display(), e.message)))?;
    Ok((bytes, image))
}

/// Decodes a drawing's PNG, its size checked from the header first.
pub fn decode(bytes: &[u8], limits: &Limits) -> Result<RgbaImage, RigError> {
    let Some((w, h)) = re2d_riv::model::png_header_size(bytes) else {
        return Err(RigError::new("E_RIG_IMAGE", "not a PNG"));
    };
    limits
        .check_image(w, h, 4)
        .map_err(|e| RigError::new("E_RIG_LIMIT", e.to_string()))?;
    if w as u64 * h as u64 > limits.rig_max_pixels {
        return Err(RigError::new(
            "E_RIG_LIMIT",
            format!(
                "the {w}x{h} drawing has more than rig-max-pixels {} pixels (see --limit)",
                limits.rig_max_pixels
            ),
        ));
    }
    re2d::png_io::decode_rgba_limited(std::io::Cursor::new(bytes), limits)
        .map_err(|e| RigError::new("E_RIG_IMAGE", e))
}

fn open_declaration(path: &Path, limits: &Limits) -> Result<Session, RigError> {
    let text = read(path, limits.json_max_bytes, "json-max-bytes")?;
    let sk = Skeleton::parse(&text, limits)?;
    let doc: Value = serde_json::from_slice(&text)
        .map_err(|e| RigError::new("E_RIG_JSON", format!("{}: {e}", path.display())))?;
    let image_path = path.parent().unwrap_or(Path::new("")).join(&sk.image);
    let (png, image) = drawing(&image_path, limits)?;
    sk.check_image(image.width, image.height, limits)?;
    let sil = silhouette(&image, sk.background)?;
    let name = path
        .file_stem()
        .map_or("character".into(), |s| s.to_string_lossy().into_owned());
    let name = name.strip_suffix(".skeleton").unwrap_or(&name).to_string();
    Ok(Session {
        decl_path: path.to_path_buf(),
        image_path,
        image_ref: sk.image.clone(),
        background: sk.background,
        doc,
        png,
        width: image.width,
        height: image.height,
        prep: Prepared::new(sil),
        name,
        fresh: false,
    })
}

fn open_drawing(path: &Path, decl_path: PathBuf, limits: &Limits) -> Result<Session, RigError> {
    let (png, image) = drawing(path, limits)?;
    let (w, h) = (image.width as usize, image.height as usize);
    let border_alpha = (0..w)
        .flat_map(|x| [x, (h - 1) * w + x])
        .chain((0..h).flat_map(|y| [y * w, y * w + w - 1]))
        .any(|i| image.data[i * 4 + 3] < 255);
    let background = if border_alpha { "alpha" } else { "auto" };
    let sk_bg = if border_alpha {
        Background::Alpha
    } else {
        Background::Auto
    };
    let sil = silhouette(&image, sk_bg)?;
    let image_ref = path
        .file_name()
        .map_or("drawing.png".into(), |s| s.to_string_lossy().into_owned());
    let doc = crate::start::initial_declaration(&image_ref, background, &sil);
    // the starting declaration is held to the rules a saved one is
    let sk = Skeleton::parse(&serde_json::to_vec(&doc).unwrap_or_default(), limits)?;
    sk.check_image(image.width, image.height, limits)?;
    let name = decl_path
        .file_stem()
        .map_or("character".into(), |s| s.to_string_lossy().into_owned());
    let name = name.strip_suffix(".skeleton").unwrap_or(&name).to_string();
    Ok(Session {
        decl_path,
        image_path: path.to_path_buf(),
        image_ref,
        background: sk.background,
        doc,
        png,
        width: image.width,
        height: image.height,
        prep: Prepared::new(sil),
        name,
        fresh: true,
    })
}

impl Session {
    /// A session from memory (tests and the fuzz target): `doc` must name `image_ref`.
    pub fn from_parts(
        doc: Value,
        image: RgbaImage,
        decl_path: PathBuf,
        limits: &Limits,
    ) -> Result<Session, RigError> {
        let sk = Skeleton::parse(&serde_json::to_vec(&doc).unwrap_or_default(), limits)?;
        sk.check_image(image.width, image.height, limits)?;
        let sil = silhouette(&image, sk.background)?;
        let png = re2d_output::png_encode::encode_rgba(&image.data, image.width, image.height)
            .map_err(|e| RigError::new("E_RIG_IMAGE", e))?;
        let image_path = decl_path.parent().unwrap_or(Path::new("")).join(&sk.image);
        Ok(Session {
            decl_path,
            image_path,
            image_ref: sk.image.clone(),
            background: sk.background,
            doc,
            png,
            width: image.width,
            height: image.height,
            prep: Prepared::new(sil),
            name: "character".into(),
            fresh: false,
        })
    }
}
