//! Stage 7: the whole pipeline (rig.md §7) — a declaration and its drawing
//! (and optionally a BVH walk) → the files of the `rig build` folder:
//!
//! | file | what |
//! |---|---|
//! | `part_<bone>.png` | each part cropped to its box + margin, hidden area filled (§3) |
//! | `pivots.json` | the pivot map: per bone parent, length, angle, PNG, pivot in PNG pixels, depth — no world coordinates |
//! | `labels.png` | the ownership map at the drawing's size: red = 1 + bone index in the declaration, 0 = background |
//! | `model.json` | the `export-riv` input model (§7 of rive-export.md): bones incl. connectors, parts, meshes, weights, the walk clip |
//! | `character.riv` | that model through the `.riv` writer |
//! | `report.json` | every number with its control's number and threshold, the gates, the stage times |
//! | `sheet.png` | contact sheet: drawing, ownership map, reassembly, its difference, hidden fill, meshes; eight walk frames |
//! | `<clip>.html`, `machine.html`, `rive.js` | with the Rive runtime ([`Options::runtime`]): a page per clip and one for the state machine, playing `character.riv` (embedded) from `file://` ([`pages_of`]) |
//! | `strip_<clip>.png` | with `--strips`: eight frames of each clip in a row, cropped to its motion box |
//!
//! Textures in `model.json` are the part PNGs, by relative path. Every file
//! is computed in memory; the CLI publishes the folder all or nothing.
//!
//! | source | does |
//! |---|---|
//! | `mod.rs` | options, the input, the stages in order ([`build`]), timings |
//! | `model.rs` | the `export-riv` model: bones, parts on pages, clips, the state machine ([`model`], [`model_json`]) |
//! | `report.rs` | `report.json`: every number with its control and threshold, the gates |
//! | `sheet.rs` | the contact sheet's panels and walk frames |
//! | `strips.rs` | `--strips`: one strip of eight frames per clip |
//! | `measure.rs` | per clip: the hidden fill it uncovers per part, its joints' area change (issue 42) |

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::Value;

use crate::RigError;
use crate::cut::slice::{Rule, Slicing, slice_with};
use crate::cut::verify::{self, PivotMap};
use crate::declare::silhouette::{Silhouette, silhouette};
use crate::declare::skeleton::{Skeleton, png_name};
use crate::declare::tree::{self, Tree};
use crate::motion::bvh::ClipBudget;
use crate::motion::{self, MotionOptions, Retargeted};
use crate::skin::mesh::{self, PartMesh, PartSteps};
use crate::skin::pages::{self, Pages};
use crate::skin::weights::{self, Scheme, SchemeTable};
use re2d::limits::{Limits, ReadError, read_file};
use re2d::png_io::RgbaImage;
use re2d_riv::{self as riv};

pub mod measure;
mod model;
mod report;
mod sheet;
mod strips;

pub use model::{clips_json, machine_json, model, model_json, page_id, page_name, pages_json};
pub use report::{
    CONFIDENCE_MARGIN, FIT_WARN_DEG, LOW_CONFIDENCE, TIE_WARN, confidence_control, confidence_json,
    mesh_json, motion_json, verify_json,
};
use sheet::{assemble, panels, walk_frames};
pub use strips::{STRIP_FRAMES, STRIP_HEIGHT, strip_name};

/// Mesh step the weight-scheme table is measured with (px).
pub const TABLE_STEP: usize = 8;

/// zlib level of the written PNGs (fast: the folder is an intermediate
/// product; `re2d` tools recompress at 9 where size matters).
pub const PNG_LEVEL: u32 = 2;

/// zlib level of the texture pages: they are embedded in the `.riv`, whose
/// size is a target (issue 26).
pub const PAGE_PNG_LEVEL: u32 = 9;

/// Walk frames on the contact sheet.
pub const SHEET_FRAMES: usize = 8;

/// Contact-sheet panels are the drawing scaled down by this factor.
pub const SHEET_SCALE: usize = 4;

/// One motion of a build: `NAME=FILE.bvh` (`:once` for a one-shot).
#[derive(Clone, Debug, PartialEq)]
pub struct MotionSpec {
    /// Clip name.
    pub name: String,
    /// The BVH capture.
    pub path: PathBuf,
    /// Cyclic, one-shot, or detected ([`motion::Mode::Auto`]: a cycle when
    /// the capture has a repeating gait, else the whole excerpt once).
    pub mode: motion::Mode,
    /// One-shot: seconds `[a, b]` of the capture.
    pub range: Option<(f64, f64)>,
    /// The capture's up axis (`None`: detected).
    pub up: Option<motion::axes::Axis>,
    /// The capture's forward axis (`None`: detected).
    pub forward: Option<motion::axes::Axis>,
    /// The body part the motion drives (`:arms`, `:legs`, `:upper`,
    /// `:lower` or `:a,b,…`; `None`: the declaration's `motion_bones`, else
    /// the whole body). A body-part motion plays as its own state-machine
    /// layer over the locomotion layer.
    pub bones: Option<crate::declare::skeleton::BodySet>,
    /// Largest turn of a bone from its drawn pose, degrees (`None`: 90°,
    /// [`MotionOptions::max_angle`]); keys beyond it are clamped.
    pub max_turn: Option<f64>,
}

impl MotionSpec {
    /// Parses `NAME=FILE.bvh[:once|:loop][:SET]` or a bare `FILE.bvh`
    /// (named `default_name`); SET is `arms`, `legs`, `upper`, `lower` or a
    /// comma-separated list of bones. `Err` says why.
    pub fn parse(s: &str, default_name: &str) -> Result<MotionSpec, String> {
        let (name, rest) = match s.split_once('=') {
            Some((n, r)) if !n.is_empty() && !n.contains(['/', '\\']) => (n.to_string(), r),
            _ => (default_name.to_string(), s),
        };
        // a body set after the last ':' (anything that is not a mode and does
        // not look like a file: no path separator, no .bvh)
        let (rest, bones) = match rest.rsplit_once(':') {
            Some((p, set))
                if !p.is_empty()
                    && !matches!(set, "once" | "loop")
                    && !set.contains(['/', '\\'])
                    && !set.to_ascii_lowercase().ends_with(".bvh") =>
            {
                let b = crate::declare::skeleton::BodySet::parse(set).ok_or_else(|| {
                    format!(
                        "'{s}': '{set}' is not a body part (arms, legs, upper, lower or bone,bone,…)"
                    )
                })?;
                (p, Some(b))
            }
            _ => (rest, None),
        };
        let (path, mode) = if let Some(p) = rest.strip_suffix(":once") {
            (p, motion::Mode::Once)
        } else if let Some(p) = rest.strip_suffix(":loop") {
            (p, motion::Mode::Cycle)
        } else {
            (rest, motion::Mode::Auto)
        };
        if path.is_empty() {
            return Err(format!(
                "'{s}': no BVH file (NAME=FILE.bvh[:once|:loop][:arms|:legs|:upper|:lower|:bone,…])"
            ));
        }
        if s.starts_with('=') {
            return Err(format!("'{s}': the clip name is empty (NAME=FILE.bvh)"));
        }
        check_clip_name(&name).map_err(|e| format!("'{s}': {e}"))?;
        Ok(MotionSpec {
            name,
            path: PathBuf::from(path),
            mode,
            range: None,
            up: None,
            forward: None,
            bones,
            max_turn: None,
        })
    }
}

/// The Number input of the state machine ([`machine_json`]); no clip may
/// take its name (one-shot clips name their triggers after themselves).
pub const MACHINE_INPUT: &str = "speed";

/// The state machine's page in the build folder is `machine.html`, so no
/// clip (whose page is `<clip>.html`) may take this name.
pub const MACHINE_PAGE: &str = "machine";

/// The longest clip name (bytes): it names a page file (`NAME.html`) and a
/// trigger of the state machine.
pub const CLIP_NAME_MAX_BYTES: usize = re2d::limits::RIG_NAME_MAX_BYTES;

/// A clip name as `--motion NAME=…` and `--clip` take it: 1 to
/// [`CLIP_NAME_MAX_BYTES`] bytes of letters, digits, `_` and `-`, and
/// neither the state machine's input [`MACHINE_INPUT`] nor its page
/// [`MACHINE_PAGE`]. `Err` says why not.
pub fn check_clip_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("the clip name is empty".into());
    }
    if name.len() > CLIP_NAME_MAX_BYTES {
        return Err(format!(
            "the clip name is {} bytes, more than {CLIP_NAME_MAX_BYTES}",
            name.len()
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    {
        return Err(format!(
            "the clip name '{name}' may hold only letters, digits, '_' and '-'"
        ));
    }
    if name == MACHINE_INPUT {
        return Err(format!(
            "the clip name '{name}' is the state machine's input (choose another name)"
        ));
    }
    if name == MACHINE_PAGE {
        return Err(format!(
            "the clip name '{name}' names the state machine's page {MACHINE_PAGE}.html (choose another name)"
        ));
    }
    Ok(())
}

/// Refuses two motions of one name (`E_RIG_MOTION`); the CLI calls it when
/// it parses the options.
pub fn check_clip_names(specs: &[MotionSpec]) -> Result<(), RigError> {
    let mut seen = std::collections::HashSet::new();
    for s in specs {
        if !seen.insert(s.name.as_str()) {
            return Err(RigError::new(
                "E_RIG_MOTION",
                format!("two motions are called '{}'", s.name),
            ));
        }
    }
    Ok(())
}

/// Parses a `--max-turn` value: degrees in (0, 180].
pub fn parse_max_turn(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(d) if d > 0.0 && d <= 180.0 => Ok(d),
        _ => Err(format!("'{s}' is not a number of degrees in (0, 180]")),
    }
}

/// Parses `A..B` (seconds, A < B).
pub fn parse_range(s: &str) -> Result<(f64, f64), String> {
    let (a, b) = s
        .split_once("..")
        .ok_or_else(|| format!("'{s}' is not A..B (seconds)"))?;
    let (a, b): (f64, f64) = (
        a.trim()
            .parse()
            .map_err(|_| format!("'{a}' is not a number"))?,
        b.trim()
            .parse()
            .map_err(|_| format!("'{b}' is not a number"))?,
    );
    if !(a.is_finite() && b.is_finite() && 0.0 <= a && a < b) {
        return Err(format!(
            "'{s}' is not an increasing range of seconds from 0"
        ));
    }
    Ok((a, b))
}

/// Build options.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The motions (none: no clip). Without one named `idle`, an `idle`
    /// clip holding the drawn pose is added.
    pub motions: Vec<MotionSpec>,
    /// Clip / export frames per second.
    pub fps: u32,
    /// How contested pixels are owned (`--slicing`).
    pub slicing: Rule,
    /// The Rive web runtime (`rive.js` of `@rive-app/canvas-single`): with
    /// it the folder gets a page per clip and one for the state machine
    /// ([`PAGE_RUNTIME`] beside them; `re2d_riv::page`), `None`: no pages.
    pub runtime: Option<Vec<u8>>,
    /// Crop pixels of hidden fill kept around each part's own paint
    /// ([`crate::skin::reveal::SEAM_PAD`]; 0: none, the seams show).
    pub seam_pad: usize,
    /// Also write `strip_<clip>.png` per clip (`--strips`, `strips`).
    pub strips: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            motions: Vec::new(),
            fps: 60,
            slicing: Rule::Paint,
            runtime: None,
            seam_pad: crate::skin::reveal::SEAM_PAD,
            strips: false,
        }
    }
}

/// The runtime's file name beside the pages.
pub const PAGE_RUNTIME: &str = "rive.js";

/// The pages of a build folder (issue 45, 47): `<clip>.html` per clip and
/// `machine.html` for the state machine, each playing `character.riv`
/// (embedded) with [`PAGE_RUNTIME`] beside it — the code of `re2d rig page`.
pub fn pages_of(riv: &[u8], info: &riv::page::Playable) -> Vec<(String, Vec<u8>)> {
    let mut plays: Vec<riv::page::Play> = info
        .clips
        .iter()
        .map(|c| riv::page::Play::Clip(c.clone()))
        .collect();
    plays.extend(
        info.machines
            .first()
            .map(|m| riv::page::Play::Machine(m.name.clone())),
    );
    plays
        .into_iter()
        .map(|p| {
            let html = riv::page::page(riv, "character.riv", info, &p, PAGE_RUNTIME);
            (p.file_name(), html.into_bytes())
        })
        .collect()
}

/// A declaration and its drawing.
#[derive(Clone, Debug)]
pub struct Input {
    /// The declaration.
    pub sk: Skeleton,
    /// The drawing, RGBA8.
    pub image: RgbaImage,
    /// The drawing's path.
    pub image_path: PathBuf,
    /// The model name (the declaration's file stem).
    pub name: String,
    /// A layered drawing's layers and the bone of each (`None` for a PNG).
    pub layers: Option<(crate::declare::layers::Layered, Vec<Option<usize>>)>,
}

fn io_err(path: &Path, e: impl std::fmt::Display) -> RigError {
    RigError::new("E_IO", format!("{}: {e}", path.display()))
}

/// Reads and validates the declaration and its drawing (the PNG's size is
/// checked against the limits before its pixels are decoded). A layered
/// drawing (`.ora`, `.psd`, told by its first bytes) is read into layers whose
/// canvas is checked first; the drawing is their flattening, the bones
/// without a declared depth take their layers' order
/// ([`crate::cut::layers`]).
pub fn load(path: &Path, limits: &Limits) -> Result<Input, RigError> {
    let text = read_file(path, limits.json_max_bytes, "json-max-bytes").map_err(|e| match e {
        ReadError::Io(e) => io_err(path, e),
        ReadError::TooLarge(e) => RigError::new("E_RIG_LIMIT", format!("{}: {e}", path.display())),
    })?;
    let mut sk = Skeleton::parse(&text, limits)?;
    let image_path = path.parent().unwrap_or(Path::new("")).join(&sk.image);
    let bytes =
        read_file(&image_path, limits.file_max_bytes, "file-max-bytes").map_err(|e| match e {
            ReadError::Io(e) => io_err(&image_path, e),
            ReadError::TooLarge(e) => {
                RigError::new("E_RIG_LIMIT", format!("{}: {e}", image_path.display()))
            }
        })?;
    let name = path
        .file_stem()
        .map_or("character".into(), |s| s.to_string_lossy().into_owned());
    let name = name.strip_suffix(".skeleton").unwrap_or(&name).to_string();
    if crate::declare::layers::is_layered(&bytes).is_some() {
        let what = image_path.display().to_string();
        let layered = crate::declare::layers::read(&bytes, &what, limits, &|w, h| {
            sk.check_image(w, h, limits)
        })?;
        drop(bytes);
        let bone_of = crate::cut::layers::bone_of(&sk, &layered)
            .map_err(|e| RigError::new(e.code, format!("{what}: {}", e.message)))?;
        crate::cut::layers::depths_from_layers(&mut sk, &layered, &bone_of);
        let image = RgbaImage {
            data: layered.flatten(),
            width: layered.width,
            height: layered.height,
        };
        return Ok(Input {
            sk,
            image,
            image_path,
            name,
            layers: Some((layered, bone_of)),
        });
    }
    if !sk.layers.is_empty() {
        return Err(RigError::new(
            "E_RIG_LAYER",
            format!(
                "the declaration maps layers, but {} is not a layered file (.ora, .psd)",
                image_path.display()
            ),
        ));
    }
    // PNG or JPEG; the size as shown (after EXIF orientation) is checked before decoding
    let what = image_path.display().to_string();
    let head = crate::declare::image::header(&bytes, &what)?;
    sk.check_image(head.width, head.height, limits)?;
    let image = crate::declare::image::decode(&bytes, &what, limits)?;
    Ok(Input {
        sk,
        image,
        image_path,
        name,
        layers: None,
    })
}

/// What `rig build` was given, read as a declaration and its drawing:
/// a declaration (`.json`), AnimatedDrawings' `char_cfg.yaml` (with
/// `texture.png` and `mask.png` beside it), or a drawing (PNG or JPEG)
/// whose skeleton is guessed ([`crate::guess::guess`]). For the last two the
/// declaration made is returned too (`skeleton.json` of the build folder).
pub fn load_any(path: &Path, limits: &Limits) -> Result<(Input, Option<Vec<u8>>), RigError> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let dir = path.parent().unwrap_or(Path::new(""));
    let read = |p: &Path| {
        read_file(p, limits.file_max_bytes, "file-max-bytes").map_err(|e| match e {
            ReadError::Io(e) => io_err(p, e),
            ReadError::TooLarge(e) => RigError::new("E_RIG_LIMIT", format!("{}: {e}", p.display())),
        })
    };
    // the drawing, when it was already decoded to guess its skeleton
    let (decl, image_path, name, decoded) = match ext.as_str() {
        "yaml" | "yml" => {
            let joints = crate::guess::animated::joints(&read(path)?, limits)?;
            let mask_path = dir.join("mask.png");
            let mask_img = crate::declare::image::decode(
                &read(&mask_path)?,
                &mask_path.display().to_string(),
                limits,
            )?;
            let mask = crate::guess::animated::mask_of(&mask_img);
            let decl = crate::guess::animated::declaration(
                &joints,
                &mask,
                mask_img.width as usize,
                mask_img.height as usize,
                "texture.png",
            )?;
            let name = dir
                .file_name()
                .map_or("character".into(), |s| s.to_string_lossy().into_owned());
            (decl, dir.join("texture.png"), name, None)
        }
        "png" | "jpg" | "jpeg" => {
            let what = path.display().to_string();
            let img = crate::declare::image::decode(&read(path)?, &what, limits)?;
            let file = path
                .file_name()
                .map_or(String::new(), |f| f.to_string_lossy().into_owned());
            let g = crate::guess::guess(&img, crate::declare::skeleton::Background::Auto, &file)?;
            let name = path
                .file_stem()
                .map_or("character".into(), |s| s.to_string_lossy().into_owned());
            (g.json, path.to_path_buf(), name, Some(img))
        }
        _ => return load(path, limits).map(|i| (i, None)),
    };
    let mut text = serde_json::to_vec_pretty(&decl).unwrap_or_default();
    text.push(b'\n');
    let sk = Skeleton::parse(&text, limits)?;
    let image = match decoded {
        Some(img) => {
            sk.check_image(img.width, img.height, limits)?;
            img
        }
        None => {
            let bytes = read(&image_path)?;
            let what = image_path.display().to_string();
            let head = crate::declare::image::header(&bytes, &what)?;
            sk.check_image(head.width, head.height, limits)?;
            crate::declare::image::decode(&bytes, &what, limits)?
        }
    };
    Ok((
        Input {
            sk,
            image,
            image_path,
            name,
            layers: None,
        },
        Some(text),
    ))
}

/// Stage times (milliseconds) and the process's peak resident memory after
/// each stage (KiB, from `/proc/self/status`; 0 where unavailable).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timings(pub Vec<(&'static str, f64, u64)>);

/// The process's peak resident set so far, KiB (Linux; 0 elsewhere).
pub fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

impl Timings {
    fn lap(&mut self, name: &'static str, t: &mut Instant) {
        let now = Instant::now();
        self.0
            .push((name, (now - *t).as_secs_f64() * 1000.0, peak_kib()));
        *t = now;
    }
}

/// Stages 2–4: silhouette, slicing, tree, pivot map.
pub struct Sliced {
    /// Keyed drawing.
    pub sil: Silhouette,
    /// Parts and ownership.
    pub sl: Slicing,
    /// Output tree.
    pub tree: Tree,
    /// Pivot map.
    pub map: PivotMap,
}

/// Runs stages 2–4 with `rule`.
pub fn slice_stage(input: &Input, rule: Rule, t: &mut Timings) -> Result<Sliced, RigError> {
    let mut clock = Instant::now();
    let sil = silhouette(&input.image, input.sk.background)?;
    t.lap("silhouette", &mut clock);
    let sl = match &input.layers {
        Some((l, bone_of)) => crate::cut::layers::slice_layered(&input.sk, &sil, l, bone_of, rule)?,
        None => slice_with(&input.sk, &sil, rule)?,
    };
    t.lap("slice", &mut clock);
    let tree = tree::build(&input.sk);
    let map = PivotMap::new(&input.sk, &tree, &sl);
    t.lap("tree", &mut clock);
    Ok(Sliced { sil, sl, tree, map })
}

/// The files of `rig slice`: part PNGs, `pivots.json`, `labels.png`.
pub fn slice_files(input: &Input, s: &Sliced) -> Result<Vec<(String, Vec<u8>)>, RigError> {
    let enc = |rgba: &[u8], w: usize, h: usize| {
        re2d_output::png_encode::encode_rgba_level(rgba, w as u32, h as u32, PNG_LEVEL)
            .map_err(|e| RigError::new("E_RIG_IMAGE", e))
    };
    let mut files = Vec::new();
    for p in s.sl.parts.iter().filter(|p| p.has_part()) {
        files.push((png_name(&p.name), enc(&p.rgba, p.width, p.height)?));
    }
    let mut pivots = serde_json::to_vec_pretty(&s.map.to_json()).unwrap_or_default();
    pivots.push(b'\n');
    files.push(("pivots.json".into(), pivots));
    let labels = s.sl.labels(&s.sil);
    let mut px = Vec::with_capacity(labels.len() * 4);
    for l in labels {
        px.extend_from_slice(&[l, 0, 0, 255]);
    }
    files.push((
        "labels.png".into(),
        enc(&px, input.image.width as usize, input.image.height as usize)?,
    ));
    Ok(files)
}

/// Stage 6: the tables and the meshes of the chosen scheme and steps.
pub struct Meshed {
    /// Weight-scheme table.
    pub schemes: SchemeTable,
    /// Per part: the adaptive mesh's blend steps, deviations and choice.
    pub steps: Vec<PartSteps>,
    /// The finest blend step chosen over the parts (`None`: some part has no
    /// step satisfying the rule; its mesh is the finest step's).
    pub step: Option<usize>,
    /// The scheme the meshes carry (the chosen one, else `smooth-zone`).
    pub scheme: Scheme,
    /// One adaptive mesh per declared bone at its chosen blend step.
    pub meshes: Vec<PartMesh>,
    /// The texture pages the model's parts use (after [`mesh_stage`] alone:
    /// their layout, without pixels).
    pub pages: Pages,
    /// Per declared bone: hidden-fill texels kept and dropped by the reveal
    /// measure (empty: not measured, every hidden texel kept).
    pub reveal: Vec<(u64, u64)>,
}

/// Runs stage 6: the weight scheme table and the adaptive meshes. The pages
/// are laid out without their pixels ([`pages::layout`]): the build packs
/// them after the reveal has trimmed the parts.
pub fn mesh_stage(sk: &Skeleton, sl: &Slicing, t: &mut Timings) -> Result<Meshed, RigError> {
    let mut clock = Instant::now();
    let table_meshes = sl
        .parts
        .iter()
        .map(|p| mesh::grid(p, TABLE_STEP))
        .collect::<Result<Vec<_>, _>>()?;
    let schemes = weights::table(sk, sl, &table_meshes);
    t.lap("weights", &mut clock);
    let scheme = schemes.chosen.unwrap_or(Scheme::SmoothZone);
    let (steps, meshes, step) = remesh(sk, &sl.parts, scheme, None)?;
    // laid out only: the build re-packs after the reveal (a model needs the UVs)
    let pages = pages::layout(&sl.parts, &meshes);
    t.lap("mesh", &mut clock);
    Ok(Meshed {
        schemes,
        steps,
        step,
        scheme,
        meshes,
        pages,
        reveal: Vec::new(),
    })
}

/// What [`remesh`] gives: the adaptive table, the meshes, the finest chosen
/// blend step.
pub type Remeshed = (Vec<PartSteps>, Vec<PartMesh>, Option<usize>);

/// The adaptive meshes of `parts` (one per declared bone) under `scheme`,
/// their table and the finest chosen blend step (`earlier`: the meshes of an
/// earlier call under the same scheme, kept for unchanged parts).
pub fn remesh(
    sk: &Skeleton,
    parts: &[crate::cut::slice::PartImage],
    scheme: Scheme,
    earlier: Option<&mesh::Earlier<'_>>,
) -> Result<Remeshed, RigError> {
    let wf = |k: usize, p: [f64; 2]| weights::weights(scheme, sk, k, p);
    let bends = |k: usize| {
        if sk.bones[k].parent.is_some() {
            vec![
                weights::bend_maps(sk, k, 30f64.to_radians()),
                weights::bend_maps(sk, k, -30f64.to_radians()),
            ]
        } else {
            Vec::new()
        }
    };
    let dirs = |k: usize| {
        let (s, e) = (sk.bones[k].start(), sk.bones[k].end());
        let (dx, dy) = (e[0] - s[0], e[1] - s[1]);
        let l = dx.hypot(dy).max(1e-9);
        [dx / l, dy / l]
    };
    let (steps, meshes) = mesh::adaptive_table(parts, &wf, &bends, &dirs, earlier)?;
    let step = steps
        .iter()
        .map(|r| r.chosen)
        .collect::<Option<Vec<usize>>>()
        .and_then(|v| v.into_iter().min());
    Ok((steps, meshes, step))
}

/// Motion: one clip retargeted from a BVH file, charged against the whole
/// of `rig-max-keys` ([`motion_stage_within`]).
pub fn motion_stage(
    sk: &Skeleton,
    spec: &MotionSpec,
    fps: u32,
    limits: &Limits,
) -> Result<Retargeted, RigError> {
    motion_stage_within(sk, spec, fps, limits, limits.rig_max_keys).map(|(r, _)| r)
}

/// The clip budget of a motion ([`crate::motion::bvh::ClipBudget`]): the
/// declared bones plus one translation track per root bone, over the
/// capture, its `--range`, or the longest gait cycle for a `:loop` motion.
pub fn clip_budget(sk: &Skeleton, spec: &MotionSpec, fps: u32, left: u64) -> ClipBudget {
    let roots = sk.bones.iter().filter(|b| b.parent.is_none()).count();
    let seconds = match (spec.range, spec.mode) {
        (Some((a, b)), _) => Some(b - a),
        (None, motion::Mode::Cycle) => Some(crate::motion::gait::CYCLE_MAX_SECONDS),
        _ => None,
    };
    ClipBudget {
        fps: fps as f64,
        tracks: (sk.bones.len() + roots) as u64,
        seconds,
        left,
    }
}

/// [`motion_stage`] with `left` key values of `rig-max-keys` (issue 45):
/// the capture is charged its keys × tracks at its `Frame Time:` line and
/// refused there when they do not fit; returns the clip and the key values
/// it holds.
pub fn motion_stage_within(
    sk: &Skeleton,
    spec: &MotionSpec,
    fps: u32,
    limits: &Limits,
    left: u64,
) -> Result<(Retargeted, u64), RigError> {
    let budget = clip_budget(sk, spec, fps, left);
    let bvh = crate::motion::bvh::read_for_clip(&spec.path, limits, Some(&budget))
        .map_err(|e| RigError::new(e.code, format!("motion '{}': {}", spec.name, e.message)))?;
    let opts = MotionOptions {
        facing_right: sk.facing_right,
        frontal: sk.facing_front,
        fps: fps as f64,
        mode: if spec.range.is_some() {
            motion::Mode::Once
        } else {
            spec.mode
        },
        range: spec.range,
        up: spec.up,
        forward: spec.forward,
        max_angle: spec
            .max_turn
            .map_or(MotionOptions::default().max_angle, f64::to_radians),
        ..MotionOptions::default()
    };
    let r = motion::retarget_with_report(&bvh, &motion::bones_of(sk), &opts)
        .map_err(|e| RigError::new(e.code, format!("motion '{}': {}", spec.name, e.message)))?;
    let used = (r.report.keys as u64).saturating_mul(budget.tracks);
    Ok((r, used))
}

/// Everything `rig build` computed.
pub struct Built {
    /// The folder's files (name, bytes).
    pub files: Vec<(String, Vec<u8>)>,
    /// `report.json` as a value.
    pub report: Value,
    /// Names of failed gates (empty: every gate passed).
    pub failed: Vec<String>,
    /// Stage times.
    pub timings: Timings,
}

/// Runs the whole pipeline on `input`.
pub fn build(input: &Input, opts: &Options, limits: &Limits) -> Result<Built, RigError> {
    let mut t = Timings::default();
    // motion first: a bad BVH fails before any pixel work
    let mut clock = Instant::now();
    let mut motions: Vec<(String, Retargeted)> = Vec::new();
    check_clip_names(&opts.motions)?;
    let mut left = limits.rig_max_keys;
    for spec in &opts.motions {
        let (mut r, used) = motion_stage_within(&input.sk, spec, opts.fps, limits, left)?;
        left = left.saturating_sub(used);
        let set = spec.bones.clone().or_else(|| {
            input
                .sk
                .motion_bones
                .iter()
                .find(|(n, _)| *n == spec.name)
                .map(|(_, b)| b.clone())
        });
        if let Some(set) = set {
            let bones = motion::bones_of(&input.sk);
            let only = motion::layer::resolve(&bones, &set).map_err(|e| {
                RigError::new(e.code, format!("motion '{}': {}", spec.name, e.message))
            })?;
            motion::layer::restrict(&mut r, &bones, &only);
        }
        motions.push((spec.name.clone(), r));
    }
    // the clip of the sheet: the first cyclic one, else the first
    let primary = motions
        .iter()
        .find(|(_, r)| r.walk.looped && r.walk.keyed.is_none())
        .or(motions.first())
        .map(|(n, _)| n.clone());
    t.lap("motion", &mut clock);
    let s = slice_stage(input, opts.slicing, &mut t)?;
    let mut clock = Instant::now();
    // the confidence's control: the same drawing with every radius doubled
    let control = confidence_control(&input.sk, &s.sil, &s.sl);
    t.lap("confidence control", &mut clock);
    let mut s = s;
    // every part reaches under its nearer neighbours: no seam opens between them (overlap.rs)
    crate::skin::overlap::extend(&input.sk, &s.sil, &mut s.sl, opts.seam_pad);
    s.map = PivotMap::new(&input.sk, &s.tree, &s.sl);
    t.lap("overlap", &mut clock);
    let v = verify::verify(&input.sk, &s.sil, &s.sl, &s.map);
    t.lap("verify", &mut clock);
    let mut v = v;
    let mut m = mesh_stage(&input.sk, &s.sl, &mut t)?;
    let mut clock = Instant::now();
    // the hidden fill the clips can reveal: measured on a first model, then the parts are
    // re-meshed and re-packed without the rest (reveal.rs)
    let clip_refs: Vec<(&str, &motion::Walk)> =
        motions.iter().map(|(n, r)| (n.as_str(), &r.walk)).collect();
    let (first, _) = model(
        &input.name,
        &input.sk,
        &s.sl,
        &s.tree,
        &m,
        &clip_refs,
        Vec::new(),
        limits,
    )?;
    let mut measures: Vec<measure::ClipMeasure> = Vec::with_capacity(first.clips.len());
    let seen = crate::skin::reveal::seen_per_clip(
        &input.sk,
        &s.sl.parts,
        &m.meshes,
        &first,
        opts.fps,
        |ci, clip_seen| {
            if let Some(ci) = ci {
                measures.push(measure::ClipMeasure {
                    name: first.clips[ci].name.clone(),
                    uncovered: measure::uncovered(&s.sl.parts, clip_seen),
                    volume: Vec::new(),
                });
            }
        },
    );
    drop(first);
    let (trimmed, reveal_counts) = crate::skin::reveal::trim(&s.sl.parts, &seen, opts.seam_pad);
    drop(seen);
    // the parts the trim left unchanged keep their meshes
    let earlier = mesh::Earlier {
        parts: &s.sl.parts,
        table: &m.steps,
        meshes: &m.meshes,
    };
    let (steps, meshes, step) = remesh(&input.sk, &trimmed, m.scheme, Some(&earlier))?;
    let pages = pages::pack(&trimmed, &meshes);
    drop(trimmed);
    (m.steps, m.meshes, m.step, m.pages) = (steps, meshes, step, pages);
    m.reveal = reveal_counts;
    t.lap("reveal + remesh", &mut clock);
    let mut files = slice_files(input, &s)?;
    t.lap("part files", &mut clock);
    // the still panels now, so the full-size images can go before the model is built
    let (still, tw, th) = panels(input, &s, &v, &m);
    v.image = Vec::new();
    s.sl.owner = Vec::new();
    t.lap("sheet panels", &mut clock);
    let mut pngs: Vec<(String, Vec<u8>)> = Vec::new();
    for (i, (w, h, rgba)) in m.pages.pages.iter().enumerate() {
        let png =
            re2d_output::png_encode::encode_rgba_level(rgba, *w as u32, *h as u32, PAGE_PNG_LEVEL)
                .map_err(|e| RigError::new("E_RIG_IMAGE", e))?;
        pngs.push((page_name(i), png));
    }
    files.extend(pngs.iter().cloned());
    files.push(("pages.json".into(), pages_json(&input.sk, &s.sl, &m)));
    t.lap("page files", &mut clock);
    let (model, mbytes) = model(
        &input.name,
        &input.sk,
        &s.sl,
        &s.tree,
        &m,
        &motions
            .iter()
            .map(|(n, r)| (n.as_str(), &r.walk))
            .collect::<Vec<_>>(),
        pngs,
        limits,
    )?;
    // the model.json the folder holds must be one export-riv reads
    limits
        .check_json_depth(&mbytes)
        .and_then(|()| {
            if mbytes.len() as u64 > limits.json_max_bytes {
                Err(re2d::limits::LimitError::new(
                    "json-max-bytes",
                    format!(
                        "model.json is {} bytes, more than {}",
                        mbytes.len(),
                        limits.json_max_bytes
                    ),
                ))
            } else {
                Ok(())
            }
        })
        .map_err(|e| RigError::new("E_RIG_LIMIT", format!("model.json: {e}")))?;
    let exported = riv::export(
        &model,
        &riv::Options {
            fps: opts.fps,
            ..riv::Options::default()
        },
    )
    .map_err(|e| {
        if e.message.contains("(limit ") {
            RigError::new("E_RIG_LIMIT", e.to_string()) // a limit the user lowered
        } else {
            RigError::new("E_RIG_MODEL", format!("internal: export failed: {e}"))
        }
    })?;
    // a limit the user lowered is an input refusal, before the check reads
    // the file back (which would otherwise stop at the same limit)
    if exported.objects.len() as u64 > limits.riv_max_objects {
        return Err(RigError::new(
            "E_RIG_LIMIT",
            format!(
                "the .riv has {} objects, more than riv-max-objects {} (see --limit)",
                exported.objects.len(),
                limits.riv_max_objects
            ),
        ));
    }
    // read back with room for exactly the records written (the reader would
    // otherwise reserve for as many as the file's size could hold)
    let exact = Limits {
        riv_max_objects: (exported.objects.len() as u64).max(1),
        ..*limits
    };
    let read = riv::read::read_with(&exported.bytes, &exact).map_err(|e| {
        RigError::new(
            "E_RIG_MODEL",
            format!("internal: the written .riv does not read back: {e}"),
        )
    })?;
    let check = riv::check::check_with(&read, limits);
    if let Some(p) = check.problems.first() {
        return Err(RigError::new(
            "E_RIG_MODEL",
            format!("internal: the written .riv fails the check: {p}"),
        ));
    }
    let pages = match &opts.runtime {
        Some(rt) => {
            let info = riv::page::Playable::of(&read)
                .map_err(|e| RigError::new("E_RIG_MODEL", format!("internal: no page: {e}")))?;
            let mut p = pages_of(&exported.bytes, &info);
            if !p.is_empty() {
                p.push((PAGE_RUNTIME.into(), rt.clone()));
            }
            p
        }
        None => Vec::new(),
    };
    drop(read);
    for c in &mut measures {
        c.volume = measure::volume(&input.sk, &model, &c.name, opts.fps);
    }
    t.lap("model + riv", &mut clock);
    let frames = walk_frames(input, &m, &model, primary.as_deref(), opts.fps, (tw, th))?;
    if opts.strips {
        files.extend(strips::strips(&model, opts.fps, limits)?);
        t.lap("strips", &mut clock);
    }
    // the first two other clips whose draw order changes (issue 42)
    let ordered_clips: Vec<String> = model
        .clips
        .iter()
        .filter(|c| !c.draw_order.is_empty() && Some(c.name.as_str()) != primary.as_deref())
        .take(2)
        .map(|c| c.name.clone())
        .collect();
    let ordered = ordered_clips
        .iter()
        .map(|c| walk_frames(input, &m, &model, Some(c), opts.fps, (tw, th)))
        .collect::<Result<Vec<_>, _>>()?;
    drop(model);
    let sheet = assemble(&still, &frames, &ordered, tw, th)?;
    t.lap("sheet", &mut clock);
    let (report, failed) = report::report(
        input,
        &s,
        &v,
        &m,
        &motions,
        primary.as_deref(),
        &t,
        &control,
    );
    let mut report = report;
    report["measures"] = measure::json(&input.sk, &measures);
    files.push(("model.json".into(), mbytes));
    files.push(("character.riv".into(), exported.bytes));
    files.extend(pages);
    files.push(("sheet.png".into(), sheet));
    let mut rbytes = serde_json::to_vec_pretty(&report).unwrap_or_default();
    rbytes.push(b'\n');
    files.push(("report.json".into(), rbytes));
    Ok(Built {
        files,
        report,
        failed,
        timings: t,
    })
}
