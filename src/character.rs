// re2d — a character model driven from Rust: load like `$.re2dSprite.from`, sample a clip, render a frame (spec: js-rotsprite.md §6.1, §6.3, §7.3).
//
//! [`Character::load`] reads a character JSON file, validates it and its
//! animations exactly as the JS module does (`readDefinition`), resolves the
//! atlas and animations against the model file's canonical directory (so
//! `m.json`, `./m.json` and `/abs/m.json` agree, and `../assets/a.png`
//! works from any working directory) and loads the atlas as a
//! [`SpriteHandle`] (it must be a v2 atlas). Files are read within
//! [`crate::limits::Limits::current`]. [`Character::render`] poses the model for one clip time,
//! view and expression and synthesises the sprite — the headless path of the
//! `re2d render` command.
//!
//! Not covered here (JS-only node features): attachments, layers, manual
//! bone overrides and hot reload. The file format is described in
//! `docs/character-json.md`.
//!
//! ```
//! use re2d::character::{Character, Expression, FrameRequest};
//! use re2d_surface::{Options, compile, encode_png};
//! use std::path::Path;
//!
//! // The shipped animal template; its atlas ("animal.png") is compiled from its surface.
//! let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
//! let dir = std::env::temp_dir().join(format!("re2d-doc-character-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! for f in ["animal.character.json", "animal.animations.json"] {
//!     std::fs::copy(assets.join(f), dir.join(f))?;
//! }
//! let atlas = compile(&std::fs::read(assets.join("animal.surface.json"))?, None, &Options::default())?;
//! std::fs::write(dir.join("animal.png"), encode_png(&atlas.rgba, atlas.size)?)?;
//!
//! let mut cat = Character::load(&dir.join("animal.character.json"))?;
//! assert_eq!(cat.clip_names(), ["walk"]);
//! let request = FrameRequest {
//!     clip: Some("walk".into()),
//!     time: 0.25,
//!     yaw: 30.0,
//!     pitch: 10.0,
//!     expression: Expression::default(),
//!     visible_parts: None,
//! };
//! let size = cat.width(); // 512: the model's style is "anime"
//! let pixels = cat.render(&request)?; // RGBA8, size × size
//! assert_eq!(pixels.len(), size * size * 4);
//! assert!(pixels.chunks(4).any(|p| p[3] == 255));
//!
//! // an unknown clip is an error
//! let bad = FrameRequest { clip: Some("fly".into()), ..request };
//! assert!(cat.render(&bad).is_err());
//! std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde_json::Value;

use crate::model::{
    Animations, Definition, FACE_BROWS, FACE_EYES, FACE_MOUTH, ModelError, RigInput, Sample,
    build_model_pose, sample_clip, validate_animations, validate_definition,
};
use crate::sprite::{SpriteHandle, Style};

/// Expression by state names (`None` keeps the model's default).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Expression {
    /// Eye state (`open`, `half`, `closed`, `happy`).
    pub eyes: Option<String>,
    /// Mouth state (`closed`, `open`, `smile`, `talk`).
    pub mouth: Option<String>,
    /// Brow state (`neutral`, `angry`, `sad`, `surprised`).
    pub brows: Option<String>,
}

/// What to render.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameRequest {
    /// Clip name (`None`: the model's default motion, if any).
    pub clip: Option<String>,
    /// Clip time in seconds.
    pub time: f64,
    /// Yaw, degrees.
    pub yaw: f64,
    /// Pitch, degrees.
    pub pitch: f64,
    /// Expression overrides (clip face tracks still win, as in the engine).
    pub expression: Expression,
    /// Only these part ids are drawn (`None`: all).
    pub visible_parts: Option<Vec<u8>>,
}

impl Default for FrameRequest {
    fn default() -> Self {
        FrameRequest {
            clip: None,
            time: 0.0,
            yaw: 0.0,
            pitch: 0.0,
            expression: Expression::default(),
            visible_parts: None,
        }
    }
}

/// A loaded character.
pub struct Character {
    /// The validated definition.
    pub definition: Definition,
    /// The validated animations.
    pub animations: Animations,
    /// The sprite resource.
    pub handle: SpriteHandle,
    /// Resolved atlas path.
    pub atlas_path: PathBuf,
    /// Resolved animations file, when the model names one.
    pub animations_path: Option<PathBuf>,
}

/// Reads a JSON file within the limits (size, depth) the way the engine's
/// `from` does (`JSON.parse` of the text: lone surrogate escapes are kept).
/// Unreadable → `Error` (CLI exit 3); over a limit → `RangeError`; not JSON →
/// `SyntaxError`.
fn read_json(path: &Path) -> Result<Value, ModelError> {
    use crate::limits::{Limits, ReadError, read_file};
    let l = Limits::current();
    let bytes = read_file(path, l.json_max_bytes, "json-max-bytes").map_err(|e| match e {
        ReadError::Io(e) => ModelError::error(format!("cannot read '{}': {e}", path.display())),
        ReadError::TooLarge(e) => ModelError::range(format!("'{}': {e}", path.display())),
    })?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| ModelError::syntax(format!("'{}': not UTF-8: {e}", path.display())))?;
    crate::model::jstext::parse(text, &l).map_err(|e| ModelError {
        message: format!("'{}': {}", path.display(), e.message),
        ..e
    })
}

/// An asset path of the model resolved against the model file's canonical
/// directory (however the model path is spelled: `m.json`, `./m.json`, an
/// absolute path or through a symlinked folder); absolute asset paths are
/// kept. Works on `Path`s end to end (non-UTF-8 folders included).
fn asset_path(model: &Path, asset: &str) -> Result<PathBuf, ModelError> {
    if asset.is_empty() {
        return Err(ModelError::type_("asset path must be a non-empty string"));
    }
    let asset = Path::new(asset);
    if asset.is_absolute() {
        return Ok(asset.to_path_buf());
    }
    let canon = std::fs::canonicalize(model)
        .map_err(|e| ModelError::error(format!("cannot read '{}': {e}", model.display())))?;
    Ok(canon.parent().unwrap_or(Path::new("/")).join(asset))
}

/// Reads the atlas PNG: unreadable → `Error` (exit 3), over a limit →
/// `RangeError`, not a PNG → `TypeError`.
fn read_atlas(path: &Path) -> Result<crate::png_io::RgbaImage, ModelError> {
    use crate::limits::ReadError;
    use crate::png_io::{PngFileError, read_png_file};
    read_png_file(path).map_err(|e| {
        let msg = format!("'{}': {e}", path.display());
        match e {
            PngFileError::Read(ReadError::Io(_)) => ModelError::error(msg),
            PngFileError::Read(ReadError::TooLarge(_)) => ModelError::range(msg),
            PngFileError::Decode(d) if d.contains("(limit ") => ModelError::range(msg),
            PngFileError::Decode(_) => ModelError::type_(msg),
        }
    })
}

fn state_index(states: &[&str; 4], name: &str, what: &str) -> Result<i32, ModelError> {
    states
        .iter()
        .position(|s| *s == name)
        .map(|i| i as i32)
        .ok_or_else(|| ModelError::range(format!("unknown {what} state '{name}'")))
}

impl Character {
    /// Loads a character file (`readDefinition` + `$.rotSprite.from`).
    pub fn load(path: &Path) -> Result<Self, ModelError> {
        let definition = validate_definition(read_json(path)?)?;
        let atlas_path = asset_path(path, &definition.atlas)?;
        let mut animations_path = None;
        let animations = match definition.json.get("animations") {
            Some(Value::String(p)) => {
                let ap = asset_path(path, p)?;
                let a = validate_animations(read_json(&ap)?, &definition)?;
                animations_path = Some(ap);
                a
            }
            Some(v) if !v.is_null() => validate_animations(v.clone(), &definition)?,
            _ => validate_animations(serde_json::json!({"version": 1, "clips": {}}), &definition)?,
        };
        let mut handle = SpriteHandle::from_image(read_atlas(&atlas_path)?, &atlas_path)?;
        if handle.info().version != 2 {
            return Err(ModelError::type_("model mode requires a PNG v2 atlas"));
        }
        handle.set_style(&definition.style)?;
        let c = Character {
            definition,
            animations,
            handle,
            atlas_path,
            animations_path,
        };
        if let Some(m) = c.default_clip()
            && !c.animations.clips.is_empty()
            && !c.animations.clips.contains_key(m)
        {
            return Err(ModelError::type_(format!(
                "default motion '{m}' is not a clip"
            )));
        }
        Ok(c)
    }

    /// Part ids of the definition that have no point in the atlas.
    pub fn parts_missing_from_atlas(&self) -> Vec<u8> {
        let mut present = [false; 256];
        for p in self.handle.surface() {
            present[p.part as usize] = true;
        }
        self.definition
            .parts
            .iter()
            .map(|p| p.id)
            .filter(|&id| !present[id as usize])
            .collect()
    }

    /// Clip names in definition order.
    pub fn clip_names(&self) -> Vec<&str> {
        self.animations.clips.keys().map(String::as_str).collect()
    }

    /// `defaults.motion ?? first clip`.
    pub fn default_clip(&self) -> Option<&str> {
        match self
            .definition
            .json
            .get("defaults")
            .and_then(|d| d.get("motion"))
        {
            Some(Value::String(m)) => Some(m.as_str()),
            _ => self.animations.clips.keys().next().map(String::as_str),
        }
    }

    /// Switches the sprite style (`anime` 512 px or `pixel` 128 px).
    pub fn set_style(&mut self, style: Style) -> Result<(), ModelError> {
        self.handle.set_style(style.name()).map(|_| ())
    }

    /// Renders one frame and returns the sprite pixels (RGBA, `width()`²).
    pub fn render(&mut self, req: &FrameRequest) -> Result<&[u8], ModelError> {
        let clip_name = req.clip.as_deref().or(self.default_clip());
        let sample = match clip_name {
            Some(name) => match self.animations.clips.get(name) {
                Some(clip) => sample_clip(clip, req.time)?,
                None if self.animations.clips.is_empty() => Sample::default(),
                None => return Err(ModelError::type_(format!("unknown clip '{name}'"))),
            },
            None => Sample::default(),
        };
        let defaults = self.definition.json.get("defaults");
        let mut controls = IndexMap::new();
        if let Some(Value::Object(rig)) = defaults.and_then(|d| d.get("rig")) {
            for c in &self.definition.controls {
                let v = rig.get(&c.key).and_then(Value::as_f64).unwrap_or(0.0);
                controls.insert(c.key.clone(), v);
            }
        }
        let rig = RigInput {
            body: self.definition.default_body.unwrap_or(true),
            controls,
        };
        let pose = build_model_pose(
            &self.definition,
            &sample,
            &rig,
            &IndexMap::new(),
            req.visible_parts.as_deref(),
        );
        let rows: Vec<[f64; 17]> = pose.records.iter().map(|r| r.to_row()).collect();
        self.handle.model_pose(pose.scale, &rows, rig.body)?;
        // Face: model default expression, then the request, then clip tracks.
        let default_expr = defaults.and_then(|d| d.get("expression"));
        let pick = |key: &str, req: &Option<String>, fallback: &str| -> String {
            let clip = sample.face.get(key).cloned();
            let def = default_expr
                .and_then(|e| e.get(key))
                .and_then(Value::as_str)
                .map(str::to_string);
            clip.or(req.clone())
                .or(def)
                .unwrap_or_else(|| fallback.to_string())
        };
        let e = state_index(
            &FACE_EYES,
            &pick("eyes", &req.expression.eyes, "open"),
            "eyes",
        )?;
        let m = state_index(
            &FACE_MOUTH,
            &pick("mouth", &req.expression.mouth, "closed"),
            "mouth",
        )?;
        let b = state_index(
            &FACE_BROWS,
            &pick("brows", &req.expression.brows, "neutral"),
            "brows",
        )?;
        self.handle
            .pose(req.yaw, req.pitch, Some(e), Some(m), Some(b))?;
        Ok(self.handle.pixels())
    }

    /// Sprite width = height of the current style.
    pub fn width(&self) -> usize {
        self.handle.width()
    }
}
