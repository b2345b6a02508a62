// re2d — rotsprite handles: the engine natives `engine.rotSprite*` in Rust (spec: js-rotsprite.md §10).
//
//! A [`SpriteHandle`] owns one loaded atlas and the sprite synthesised from
//! it: v1 head rasters (64 px), v2 pixel sprites (128 px) and v2 anime
//! sprites (512 px), posed by the legacy rig or a data-driven model pose.
//! It keeps the per-handle state of §10.1 (pose, expression, rig, model,
//! dirty flags, revision) and synthesises only when something changed.
//!
//! Texture and sprite ids, argument-count and JS type checks belong to the
//! host adapter; errors here carry the JS error class of the native.
//!
//! Chosen where the spec is silent: file stamps are `"<mtime in ms>:<size>"`;
//! the legacy `info().joints` project these rig points with
//! `r2d_rotsprite_v2_joint` (part, x, y, z): head (1; 0, 0, 0), shoulders
//! (7/11; ∓9.5, −10, 0), hands (7/11; ∓9.5, 18, 0), hips (8/12; ∓5, 20, 0),
//! knees (8/12; ∓5, 36, 0), feet (8/12; ∓5, 54, 0); v3 containers are not
//! supported (RangeError).

use std::path::{Path, PathBuf};

use crate::model::{ModelError, normalize_rot_pose};
use crate::png_io::RgbaImage;
use crate::rotsprite::{
    AnimeWorkspace, AtlasImage, Frame, R2DRotModelPose, R2DRotPoint, Rig, atlas, decode,
    decode_anime, draw, v1,
};

/// Sprite style of a v2 handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// 128 px point raster.
    Pixel,
    /// 512 px smooth synthesis.
    Anime,
}

impl Style {
    /// `"pixel"` or `"anime"`.
    pub fn name(self) -> &'static str {
        match self {
            Style::Pixel => "pixel",
            Style::Anime => "anime",
        }
    }
}

/// The legacy pseudo-skeleton of a handle.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct LegacyRig {
    /// Body mode.
    pub body: bool,
    /// Gait phase, radians in [0, 2π) after normalisation.
    pub phase: f64,
    /// Stride, degrees in [−75, 75].
    pub stride: f64,
    /// Left arm raise, degrees.
    pub arm_left: f64,
    /// Right arm raise, degrees.
    pub arm_right: f64,
    /// Head yaw, degrees.
    pub head_yaw: f64,
}

impl LegacyRig {
    /// The renderer's rig for these inputs, with a model pose (or none) and
    /// the handle's brow index.
    pub fn to_rig(self, model: Option<&R2DRotModelPose>, brows: i32) -> Rig<'_> {
        Rig {
            model,
            body: self.body,
            phase: self.phase,
            stride: self.stride,
            arm_left: self.arm_left,
            arm_right: self.arm_right,
            head_yaw: self.head_yaw,
            brows,
        }
    }
}

/// Donor part selection of [`SpriteHandle::part`].
#[derive(Clone, Debug, PartialEq)]
pub enum PartSelection {
    /// Legacy bit mask: bit k = part id k, bits 1..9 and 11..14 only.
    Mask(u32),
    /// Explicit part ids 1..254.
    Ids(Vec<u8>),
}

/// What `rotSpriteInfo` reports (the host adds sprite and texture ids).
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// Canonical joints (v2, body rig, no model), in the 128×128 field.
    pub joints: Option<Vec<(&'static str, (f64, f64))>>,
    /// Style name.
    pub style: Style,
    /// Rig body flag.
    pub body: bool,
    /// Atlas format version (1 or 2).
    pub version: u8,
    /// Brow index.
    pub brows: i32,
    /// Eye index.
    pub eyes: i32,
    /// Mouth index.
    pub mouth: i32,
    /// Number of surface points.
    pub surface_samples: usize,
    /// Synthesis revision.
    pub revision: u32,
    /// Normalised yaw.
    pub yaw: f64,
    /// Normalised pitch.
    pub pitch: f64,
    /// Disposed.
    pub disposed: bool,
    /// Sprite width = height.
    pub width: usize,
    /// Atlas width (0 when disposed).
    pub atlas_width: usize,
}

/// Reads a PNG file into RGBA8 (any colour type and depth is expanded)
/// within [`crate::limits::Limits::current`]: an unreadable file or one that
/// is not a PNG is a `TypeError` (§10 `rotSpriteLoad`), a file or image over
/// a limit a `RangeError`.
pub fn read_png(path: &Path) -> Result<RgbaImage, ModelError> {
    use crate::limits::ReadError;
    use crate::png_io::{PngFileError, read_png_file};
    read_png_file(path).map_err(|e| {
        let msg = format!("'{}': {e}", path.display());
        match e {
            PngFileError::Read(ReadError::Io(_)) => ModelError::type_(msg),
            PngFileError::Read(ReadError::TooLarge(_)) => ModelError::range(msg),
            PngFileError::Decode(d) if d.contains("(limit ") => ModelError::range(msg),
            PngFileError::Decode(_) => ModelError::type_(msg),
        }
    })
}

/// `rotSpriteFileStamp(path)`: `"<mtime ms>:<size>"`, or `None` when missing.
pub fn file_stamp(path: &Path) -> Option<String> {
    let m = std::fs::metadata(path).ok()?;
    let ms = m
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_millis());
    Some(format!("{ms}:{}", m.len()))
}

/// Legacy joint points: name, part, position.
const LEGACY_JOINTS: [(&str, i32, [f64; 3]); 11] = [
    ("head", 1, [0.0, 0.0, 0.0]),
    ("shoulderLeft", 7, [-9.5, -10.0, 0.0]),
    ("shoulderRight", 11, [9.5, -10.0, 0.0]),
    ("handLeft", 7, [-9.5, 18.0, 0.0]),
    ("handRight", 11, [9.5, 18.0, 0.0]),
    ("hipLeft", 8, [-5.0, 20.0, 0.0]),
    ("hipRight", 12, [5.0, 20.0, 0.0]),
    ("kneeLeft", 8, [-5.0, 36.0, 0.0]),
    ("kneeRight", 12, [5.0, 36.0, 0.0]),
    ("footLeft", 8, [-5.0, 54.0, 0.0]),
    ("footRight", 12, [5.0, 54.0, 0.0]),
];

/// Bits of the legacy donor mask: part ids 1..9 and 11..14.
const MASK_BITS: u32 = 0b0111_1011_1111_1110;

/// One native rotsprite resource.
///
/// ```
/// use re2d::sprite::SpriteHandle;
///
/// // an atlas file: the generated dense figure of the test-data crate `re2d-testkit`
/// let path = std::env::temp_dir().join(format!("re2d-doc-sprite-{}.png", std::process::id()));
/// let rgba = re2d_testkit::atlas::dense_atlas(1);
/// std::fs::write(&path, re2d_output::png_encode::encode_rgba(&rgba, 1024, 1024)?)?;
///
/// let mut h = SpriteHandle::load(&path)?; // v2 atlas, pixel style (128 px)
/// assert_eq!(h.width(), 128);
/// h.pose(45.0, 10.0, Some(0), Some(0), Some(0))?; // yaw, pitch, eyes, mouth, brows
/// assert!(h.pixels().chunks(4).any(|p| p[3] == 255));
/// h.set_style("anime")?; // smooth, 512 px
/// assert_eq!(h.pixels().len(), 512 * 512 * 4);
/// assert!(h.pose(f64::NAN, 0.0, None, None, None).is_err());
/// std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SpriteHandle {
    version: u8,
    style: Style,
    yaw: f64,
    pitch: f64,
    eyes: i32,
    mouth: i32,
    brows: i32,
    rig: LegacyRig,
    model: Option<Box<R2DRotModelPose>>,
    dirty: bool,
    texture_dirty: bool,
    revision: u32,
    pixels: Vec<u8>,
    width: usize,
    surface: Vec<R2DRotPoint>,
    atlas: Option<RgbaImage>,
    path: PathBuf,
    stamp: Option<String>,
    disposed: bool,
    workspace: AnimeWorkspace,
}

fn range(msg: impl Into<String>) -> ModelError {
    ModelError::range(msg)
}

fn check_binary_alpha(img: &RgbaImage) -> Result<(), ModelError> {
    if img.data.chunks(4).all(|p| p[3] == 0 || p[3] == 255) {
        Ok(())
    } else {
        Err(range("atlas alpha must be 0 or 255"))
    }
}

/// Loads an atlas image and tells its version: 2 with a v2 header, else 1.
fn classify(img: &RgbaImage) -> Result<u8, ModelError> {
    let (w, h) = (img.width as i32, img.height as i32);
    if w != h || !(v1::layout(w, h).is_some() || w == 3072 || w == 4096) {
        return Err(range(format!(
            "atlas must be square, 64..2048 in steps of 8, 3072 or 4096 (got {w}x{h})"
        )));
    }
    check_binary_alpha(img)?;
    let view = AtlasImage::new(&img.data, w, h, 4 * w).map_err(|e| range(e.to_string()))?;
    if atlas::header_ok(&view) {
        Ok(2)
    } else if v1::layout(w, h).is_some() {
        Ok(1)
    } else {
        Err(range("unknown atlas format"))
    }
}

fn surface_of(img: &RgbaImage, style: Style) -> Result<Vec<R2DRotPoint>, ModelError> {
    let w = img.width as i32;
    let view = AtlasImage::new(&img.data, w, w, 4 * w).map_err(|e| range(e.to_string()))?;
    let pts = match style {
        Style::Pixel => decode(&view),
        Style::Anime => decode_anime(&view),
    };
    pts.map_err(|e| range(format!("invalid v2 atlas: {e}")))
}

impl SpriteHandle {
    /// `rotSpriteLoad(path)`: decodes and validates the atlas and
    /// synthesises the initial image (yaw 0, pitch 0, head only).
    pub fn load(path: &Path) -> Result<Self, ModelError> {
        Self::from_image(read_png(path)?, path)
    }

    /// [`Self::load`] of an already decoded image (`path` is kept for
    /// [`Self::changed`] and [`Self::path`]).
    pub fn from_image(img: RgbaImage, path: &Path) -> Result<Self, ModelError> {
        let version = classify(&img)?;
        let surface = if version == 2 {
            surface_of(&img, Style::Pixel)?
        } else {
            Vec::new()
        };
        let mut h = SpriteHandle {
            version,
            style: Style::Pixel,
            yaw: 0.0,
            pitch: 0.0,
            eyes: 0,
            mouth: 0,
            brows: 0,
            rig: LegacyRig::default(),
            model: None,
            dirty: false,
            texture_dirty: true,
            revision: 1,
            pixels: Vec::new(),
            width: if version == 2 { 128 } else { 64 },
            surface,
            stamp: file_stamp(path),
            path: path.to_path_buf(),
            atlas: Some(img),
            disposed: false,
            workspace: AnimeWorkspace::new(),
        };
        h.synthesize()?;
        Ok(h)
    }

    fn live(&self) -> Result<(), ModelError> {
        if self.disposed {
            Err(ModelError::type_("rotsprite handle is disposed"))
        } else {
            Ok(())
        }
    }

    fn synthesize(&mut self) -> Result<(), ModelError> {
        // The pixel buffer is reused from frame to frame (no allocation
        // unless the size changes); renderers write nothing on error.
        let size = self.width;
        let mut out = std::mem::take(&mut self.pixels);
        out.resize(size * size * 4, 0);
        let res = self.synthesize_into(&mut out);
        self.pixels = out;
        res?;
        self.texture_dirty = true;
        Ok(())
    }

    fn synthesize_into(&mut self, out: &mut [u8]) -> Result<(), ModelError> {
        let size = self.width;
        let oom = || ModelError::error("out of memory while synthesising the sprite");
        if self.version == 1 {
            let img = self.atlas.as_ref().ok_or_else(oom)?;
            let w = img.width as i32;
            let view = AtlasImage::new(&img.data, w, w, 4 * w).map_err(|e| range(e.to_string()))?;
            v1::raster(&view, self.yaw, self.pitch, out).map_err(|_| oom())?;
        } else {
            let rig = self.rig.to_rig(self.model.as_deref(), self.brows);
            let frame = Frame::new(self.yaw, self.pitch, self.eyes, self.mouth, Some(rig))
                .map_err(|e| range(e.to_string()))?;
            match self.style {
                Style::Pixel => draw(&self.surface, &frame, out).map_err(|_| oom())?,
                Style::Anime => self
                    .workspace
                    .render(&self.surface, &frame, size, out)
                    .map_err(|_| oom())?,
            }
        }
        Ok(())
    }

    /// `rotSpritePrepare`: stores pose and expression (marking the handle
    /// dirty when they change) without synthesising. `None` keeps a value.
    pub fn prepare(
        &mut self,
        yaw: f64,
        pitch: f64,
        eyes: Option<i32>,
        mouth: Option<i32>,
        brows: Option<i32>,
    ) -> Result<(), ModelError> {
        self.live()?;
        let (yaw, pitch) = normalize_rot_pose(yaw, pitch)?;
        let (e, m, b) = (
            eyes.unwrap_or(self.eyes),
            mouth.unwrap_or(self.mouth),
            brows.unwrap_or(self.brows),
        );
        if !(0..=3).contains(&b) {
            return Err(range("brows must be 0..3"));
        }
        if !(0..=3).contains(&e)
            || !(0..=3).contains(&m)
            || (self.version == 1 && (e != 0 || m != 0 || b != 0))
        {
            return Err(range("eyes and mouth must be 0..3 (and 0 for v1 atlases)"));
        }
        let changed =
            (yaw, pitch, e, m, b) != (self.yaw, self.pitch, self.eyes, self.mouth, self.brows);
        (self.yaw, self.pitch, self.eyes, self.mouth, self.brows) = (yaw, pitch, e, m, b);
        self.dirty |= changed;
        Ok(())
    }

    /// `rotSpritePose`: [`Self::prepare`], then synthesises if anything changed.
    pub fn pose(
        &mut self,
        yaw: f64,
        pitch: f64,
        eyes: Option<i32>,
        mouth: Option<i32>,
        brows: Option<i32>,
    ) -> Result<(), ModelError> {
        let old_brows = self.brows;
        self.prepare(yaw, pitch, eyes, mouth, brows)?;
        if self.dirty {
            if let Err(e) = self.synthesize() {
                self.brows = old_brows;
                return Err(e);
            }
            self.dirty = false;
            self.revision += 1;
        }
        Ok(())
    }

    fn need_v2(&self) -> Result<(), ModelError> {
        if self.version == 2 {
            Ok(())
        } else {
            Err(ModelError::type_("needs a v2 atlas"))
        }
    }

    /// `rotSpriteRig`: legacy rig inputs (normalised), then re-poses.
    pub fn set_rig(&mut self, rig: LegacyRig) -> Result<(), ModelError> {
        self.need_v2()?;
        self.live()?;
        let vals = [
            rig.phase,
            rig.stride,
            rig.arm_left,
            rig.arm_right,
            rig.head_yaw,
        ];
        if vals.iter().any(|v| !v.is_finite()) {
            return Err(range("rig values must be finite"));
        }
        let wrap = |a: f64| normalize_rot_pose(a, 0.0).map(|p| p.0);
        let r = LegacyRig {
            body: rig.body,
            phase: rig.phase % (2.0 * crate::math::PI),
            stride: rig.stride.clamp(-75.0, 75.0),
            arm_left: wrap(rig.arm_left)?,
            arm_right: wrap(rig.arm_right)?,
            head_yaw: wrap(rig.head_yaw)?,
        };
        if r != self.rig {
            self.rig = r;
            self.dirty = true;
        }
        self.pose(self.yaw, self.pitch, None, None, None)
    }

    /// `rotSpriteStyle`: switches between pixel (128) and anime (512),
    /// re-decoding the surface from the original atlas. Returns whether the
    /// style changed.
    pub fn set_style(&mut self, style: &str) -> Result<bool, ModelError> {
        self.live()?;
        let s = match style {
            "pixel" => Style::Pixel,
            "anime" if self.version == 2 => Style::Anime,
            "anime" => return Err(range("anime style needs a v2 atlas")),
            _ => return Err(range("style must be 'anime' or 'pixel'")),
        };
        if s == self.style {
            return Ok(false);
        }
        if self.version == 2 {
            let img = self
                .atlas
                .as_ref()
                .ok_or_else(|| ModelError::type_("atlas released"))?;
            self.surface = surface_of(img, s)?;
        }
        self.style = s;
        self.width = match s {
            Style::Pixel if self.version == 1 => 64,
            Style::Pixel => 128,
            Style::Anime => 512,
        };
        self.synthesize()?;
        self.dirty = false;
        self.revision += 1;
        Ok(true)
    }

    /// `rotSpritePart`: replaces the selected parts' points with a donor
    /// atlas's, then re-poses.
    pub fn part(&mut self, path: &Path, selection: &PartSelection) -> Result<(), ModelError> {
        self.need_v2()?;
        self.live()?;
        let selected: Box<dyn Fn(u8) -> bool> = match selection {
            PartSelection::Ids(ids) => {
                let mut seen = Vec::new();
                if ids.is_empty() || ids.len() > 254 {
                    return Err(range("1..254 part ids expected"));
                }
                for &id in ids {
                    if id == 0 || id == 255 || seen.contains(&id) {
                        return Err(range("part ids must be unique integers 1..254"));
                    }
                    seen.push(id);
                }
                Box::new(move |p| seen.contains(&p))
            }
            PartSelection::Mask(m) => {
                if *m == 0 || m & !MASK_BITS != 0 {
                    return Err(range("mask must be non-zero with bits 1..9, 11..14 only"));
                }
                let m = *m;
                Box::new(move |p| p < 32 && m & (1 << p) != 0)
            }
        };
        let img = read_png(path)?;
        if classify(&img)? != 2 {
            return Err(ModelError::type_("donor atlas must be v2"));
        }
        let donor = surface_of(&img, self.style)?;
        let mut surface: Vec<R2DRotPoint> = self
            .surface
            .iter()
            .filter(|p| !selected(p.part))
            .copied()
            .collect();
        let before = surface.len();
        surface.extend(donor.into_iter().filter(|p| selected(p.part)));
        if surface.len() == before {
            return Err(range("donor atlas has no points of the selected parts"));
        }
        self.surface = surface;
        self.dirty = true;
        self.pose(self.yaw, self.pitch, None, None, None)
    }

    /// `rotSpriteModelPose`: replaces the model pose (validated as the native
    /// does) and the body flag; synthesis waits for the next pose call.
    pub fn model_pose(
        &mut self,
        scale: f64,
        rows: &[[f64; 17]],
        body: bool,
    ) -> Result<(), ModelError> {
        self.need_v2()?;
        self.live()?;
        let pose = crate::model::rows_to_c(scale, rows)?;
        if self.model.as_deref() != Some(&pose) || self.rig.body != body {
            match &mut self.model {
                Some(m) => **m = pose,
                None => self.model = Some(Box::new(pose)),
            }
            self.rig.body = body;
            self.dirty = true;
        }
        Ok(())
    }

    /// `rotSpriteInfo`.
    pub fn info(&self) -> Info {
        let joints = (self.version == 2 && self.rig.body && self.model.is_none()).then(|| {
            // The joints of body mode (they are only reported with a body rig).
            let rig = self.rig.to_rig(None, self.brows);
            LEGACY_JOINTS
                .iter()
                .map(|&(n, part, [x, y, z])| {
                    (
                        n,
                        crate::rotsprite::joint(part, x, y, z, self.yaw, self.pitch, Some(&rig)),
                    )
                })
                .collect()
        });
        Info {
            joints,
            style: self.style,
            body: self.rig.body,
            version: self.version,
            brows: self.brows,
            eyes: self.eyes,
            mouth: self.mouth,
            surface_samples: self.surface.len(),
            revision: self.revision,
            yaw: self.yaw,
            pitch: self.pitch,
            disposed: self.disposed,
            width: self.width,
            atlas_width: if self.disposed {
                0
            } else {
                self.atlas.as_ref().map_or(0, |a| a.width as usize)
            },
        }
    }

    /// `rotSpriteChanged`: the load-time file's stamp differs now.
    pub fn changed(&self) -> bool {
        !self.disposed && file_stamp(&self.path) != self.stamp
    }

    /// `rotSpriteDispose`: frees pixels, surface and atlas; idempotent.
    pub fn dispose(&mut self) {
        self.disposed = true;
        self.pixels = Vec::new();
        self.surface = Vec::new();
        self.atlas = None;
        self.workspace = AnimeWorkspace::new();
    }

    /// The current sprite pixels (RGBA, `width`²).
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// Sprite width = height in pixels.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Current style.
    pub fn style(&self) -> Style {
        self.style
    }

    /// The pixels changed since the last [`Self::take_upload`].
    pub fn take_upload(&mut self) -> bool {
        std::mem::take(&mut self.texture_dirty)
    }

    /// Per-pixel sample depth of the last anime synthesis.
    pub fn sample_depth(&self) -> &[f32] {
        self.workspace.sample_depth()
    }

    /// The decoded surface points (empty for v1 and after dispose).
    pub fn surface(&self) -> &[R2DRotPoint] {
        &self.surface
    }

    /// Resolved load path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}
