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
//!
//! Textures in `model.json` are the part PNGs, by relative path. Every file
//! is computed in memory; the CLI publishes the folder all or nothing.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::{Map, Value, json};

use crate::RigError;
use crate::cut::slice::{Confidence, Rule, Slicing, slice_with};
use crate::cut::verify::{self, PivotMap, Verification};
use crate::declare::silhouette::{Silhouette, silhouette};
use crate::declare::skeleton::{Skeleton, png_name};
use crate::declare::tree::{self, Tree};
use crate::motion::{self, MotionOptions, Retargeted};
use crate::skin::mesh::{self, Canvas, PartMesh, PartSteps};
use crate::skin::pages::{self, Pages};
use crate::skin::weights::{self, Scheme, SchemeTable};
use re2d::limits::{Limits, ReadError, read_file};
use re2d::png_io::RgbaImage;
use re2d_riv::{self as riv, Model};

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
}

impl MotionSpec {
    /// Parses `NAME=FILE.bvh`, `NAME=FILE.bvh:once`, `NAME=FILE.bvh:loop`
    /// or a bare `FILE.bvh` (named `default_name`). `Err` says why.
    pub fn parse(s: &str, default_name: &str) -> Result<MotionSpec, String> {
        let (name, rest) = match s.split_once('=') {
            Some((n, r)) if !n.is_empty() && !n.contains(['/', '\\']) => (n.to_string(), r),
            _ => (default_name.to_string(), s),
        };
        let (path, mode) = if let Some(p) = rest.strip_suffix(":once") {
            (p, motion::Mode::Once)
        } else if let Some(p) = rest.strip_suffix(":loop") {
            (p, motion::Mode::Cycle)
        } else {
            (rest, motion::Mode::Auto)
        };
        if path.is_empty() {
            return Err(format!("'{s}': no BVH file (NAME=FILE.bvh[:once|:loop])"));
        }
        if !name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        {
            return Err(format!(
                "'{s}': the clip name '{name}' may hold only letters, digits, '_' and '-'"
            ));
        }
        Ok(MotionSpec {
            name,
            path: PathBuf::from(path),
            mode,
            range: None,
            up: None,
            forward: None,
        })
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
}

impl Default for Options {
    fn default() -> Self {
        Options {
            motions: Vec::new(),
            fps: 60,
            slicing: Rule::Paint,
        }
    }
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
    let Some((w, h)) = riv::model::png_header_size(&bytes) else {
        return Err(RigError::new(
            "E_RIG_IMAGE",
            format!(
                "{}: not a PNG, OpenRaster or Photoshop file",
                image_path.display()
            ),
        ));
    };
    sk.check_image(w, h, limits)?;
    let image = re2d::png_io::decode_rgba_limited(std::io::Cursor::new(&bytes), limits)
        .map_err(|e| RigError::new("E_RIG_IMAGE", format!("{}: {e}", image_path.display())))?;
    Ok(Input {
        sk,
        image,
        image_path,
        name,
        layers: None,
    })
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

/// Motion: one clip retargeted from a BVH file.
pub fn motion_stage(
    sk: &Skeleton,
    spec: &MotionSpec,
    fps: u32,
    limits: &Limits,
) -> Result<Retargeted, RigError> {
    let bvh = crate::motion::bvh::read(&spec.path, limits)?;
    let opts = MotionOptions {
        facing_right: sk.facing_right,
        fps: fps as f64,
        mode: if spec.range.is_some() {
            motion::Mode::Once
        } else {
            spec.mode
        },
        range: spec.range,
        up: spec.up,
        forward: spec.forward,
        ..MotionOptions::default()
    };
    motion::retarget_with_report(&bvh, &motion::bones_of(sk), &opts)
        .map_err(|e| RigError::new(e.code, format!("motion '{}': {}", spec.name, e.message)))
}

fn flat(v: &[[f64; 2]]) -> Vec<f64> {
    v.iter().flat_map(|p| [p[0], p[1]]).collect()
}

/// The texture id of page `i` in the model.
pub fn page_id(i: usize) -> String {
    format!("page{i}")
}

/// The file of page `i` in the build folder.
pub fn page_name(i: usize) -> String {
    format!("page_{i}.png")
}

/// `pages.json`: per page its file and size; per part its page, its
/// rectangle in the page (texels, without the gutter), the crop texel at the
/// rectangle's top-left (crop = the part PNG `part_<bone>.png`, placed in
/// the drawing by `pivots.json`) and the page texels per crop texel.
pub fn pages_json(sk: &Skeleton, sl: &Slicing, m: &Meshed) -> Vec<u8> {
    let pages: Vec<Value> = m
        .pages
        .pages
        .iter()
        .enumerate()
        .map(|(i, (w, h, _))| json!({"id": page_id(i), "file": page_name(i), "width": w, "height": h}))
        .collect();
    let parts: Vec<Value> = sk
        .bones
        .iter()
        .enumerate()
        .filter_map(|(k, b)| {
            m.pages.placed[k].as_ref().map(|p| {
                json!({"name": b.name, "png": png_name(&b.name), "page": p.page, "rect": p.rect,
                       "trim": p.trim, "scale": pages::SCALE,
                       "crop": [sl.parts[k].width, sl.parts[k].height]})
            })
        })
        .collect();
    let mut out = serde_json::to_vec_pretty(&json!({
        "page_max": pages::PAGE, "gutter": pages::GUTTER, "scale": pages::SCALE,
        "memory_bytes": m.pages.memory(), "pages": pages, "parts": parts,
    }))
    .unwrap_or_default();
    out.push(b'\n');
    out
}

/// The `export-riv` model JSON.
#[allow(clippy::too_many_arguments)]
pub fn model_json(
    name: &str,
    sk: &Skeleton,
    sl: &Slicing,
    tree: &Tree,
    m: &Meshed,
    clips: &[(&str, &motion::Walk)],
    with_parts: bool,
) -> Value {
    let mut skel = Map::new();
    for b in &tree.bones {
        let mut o = json!({"length": b.length, "angle": b.angle});
        match b.parent {
            Some(p) => o["parent"] = json!(tree.bones[p].name),
            None => {
                o["x"] = json!(b.start[0]);
                o["y"] = json!(b.start[1]);
            }
        }
        skel.insert(b.name.clone(), o);
    }
    let mut textures = Map::new();
    for i in 0..m.pages.pages.len() {
        textures.insert(page_id(i), json!(page_name(i)));
    }
    let mut parts = Vec::new();
    for (k, b) in sk.bones.iter().enumerate() {
        if m.meshes[k].verts.is_empty() || !with_parts {
            continue; // a partless bone: no texture, no part
        }
        let Some(place) = &m.pages.placed[k] else {
            continue;
        };
        let mesh = &m.meshes[k];
        let w: Vec<Value> = mesh
            .verts
            .iter()
            .map(|&v| {
                let mut e = Vec::new();
                for &(bone, wt) in weights::weights(m.scheme, sk, k, v).iter() {
                    e.push(json!(sk.bones[bone].name));
                    e.push(json!(wt));
                }
                Value::Array(e)
            })
            .collect();
        parts.push(json!({
            "name": b.name,
            "texture": page_id(place.page),
            "depth": b.depth,
            "verts": flat(&mesh.verts),
            "uv": flat(&m.pages.uv(k, &sl.parts[k], mesh)),
            "tris": mesh.tris,
            "weights": w,
        }));
    }
    let mut root = json!({
        "version": 1,
        "name": name,
        "skeleton": Value::Object(skel),
        "textures": Value::Object(textures),
    });
    if with_parts {
        root["parts"] = Value::Array(parts);
    }
    if !clips.is_empty() {
        root["clips"] = clips_json(sk, tree, clips);
        root["state_machine"] = machine_json(clips);
    }
    root
}

/// The `state_machine` of the model (rive-export.md §11, `riv/machine.rs`):
/// a Number input `speed` blending the cyclic clips — `idle` at 0, then
/// `walk`, `run` and any other cyclic clip (by name) at 1, 2, 3 … — and a
/// Trigger per one-shot clip, named after it, that plays it once and
/// returns to the blend.
pub fn machine_json(clips: &[(&str, &motion::Walk)]) -> Value {
    let mut cyclic: Vec<&str> = clips
        .iter()
        .filter(|(n, w)| w.looped && *n != "idle")
        .map(|(n, _)| *n)
        .collect();
    let rank = |n: &str| match n {
        "walk" => 0,
        "run" => 1,
        _ => 2,
    };
    cyclic.sort_by(|a, b| rank(a).cmp(&rank(b)).then(a.cmp(b)));
    let mut blend = vec![json!(["idle", 0.0])];
    for (i, n) in cyclic.iter().enumerate() {
        blend.push(json!([n, (i + 1) as f64]));
    }
    let mut once: Vec<&str> = clips
        .iter()
        .filter(|(n, w)| !w.looped && *n != "idle")
        .map(|(n, _)| *n)
        .collect();
    once.sort();
    let triggers: Vec<Value> = once.iter().map(|n| json!([n, n])).collect();
    json!({"name": "sm", "input": "speed", "blend": blend, "triggers": triggers})
}

/// The `clips` object: one per motion, and `idle` (the drawn pose held:
/// every property any clip keys, at its rest value, for one second) unless
/// a motion is called `idle`.
pub fn clips_json(sk: &Skeleton, tree: &Tree, clips: &[(&str, &motion::Walk)]) -> Value {
    let mut out = Map::new();
    let mut keyed: Vec<bool> = vec![false; sk.bones.len()];
    let mut moved = false;
    for (clip, walk) in clips {
        let mut tracks = Map::new();
        for (k, (b, angles)) in sk.bones.iter().zip(&walk.angles).enumerate() {
            if angles.iter().all(|&a| a == 0.0) {
                continue;
            }
            keyed[k] = true;
            let keys: Vec<Value> = walk
                .times
                .iter()
                .zip(angles)
                .map(|(t, a)| json!([t, a]))
                .collect();
            tracks.insert(b.name.clone(), Value::Array(keys));
        }
        let mut translations = Map::new();
        if walk.root_dy.iter().any(|&d| d != 0.0) {
            moved = true;
            for b in tree.bones.iter().filter(|b| b.parent.is_none()) {
                let keys: Vec<Value> = walk
                    .times
                    .iter()
                    .zip(&walk.root_dy)
                    .map(|(t, d)| json!([t, 0.0, d]))
                    .collect();
                translations.insert(b.name.clone(), Value::Array(keys));
            }
        }
        let mut c = json!({"duration": walk.duration, "loop": walk.looped, "interpolation": "linear",
            "tracks": Value::Object(tracks)});
        if !translations.is_empty() {
            c["translations"] = Value::Object(translations);
        }
        out.insert(clip.to_string(), c);
    }
    if !out.contains_key("idle") {
        let mut tracks = Map::new();
        for (k, b) in sk.bones.iter().enumerate() {
            if keyed[k] {
                tracks.insert(b.name.clone(), json!([[0.0, 0.0], [1.0, 0.0]]));
            }
        }
        let mut c = json!({"duration": 1.0, "loop": true, "interpolation": "linear",
            "tracks": Value::Object(tracks)});
        if moved {
            let mut translations = Map::new();
            for b in tree.bones.iter().filter(|b| b.parent.is_none()) {
                translations.insert(b.name.clone(), json!([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]));
            }
            c["translations"] = Value::Object(translations);
        }
        out.insert("idle".into(), c);
    }
    Value::Object(out)
}

fn push_nums(out: &mut String, v: impl Iterator<Item = f64>) {
    out.push('[');
    for (i, x) in v.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!("{}", x + 0.0));
    }
    out.push(']');
}

/// The `export-riv` model and its `model.json` text, without a JSON tree of
/// the meshes (they are most of the model: the skeleton, textures and clip
/// are validated by [`Model::from_json`], the parts are added as computed).
#[allow(clippy::too_many_arguments)]
pub fn model(
    name: &str,
    sk: &Skeleton,
    sl: &Slicing,
    tree: &Tree,
    m: &Meshed,
    clips: &[(&str, &motion::Walk)],
    pngs: Vec<(String, Vec<u8>)>,
    limits: &Limits,
) -> Result<(Model, Vec<u8>), RigError> {
    let internal = |e: riv::RivError| {
        RigError::new(
            "E_RIG_MODEL",
            format!("internal: the model does not validate: {e}"),
        )
    };
    let head = model_json(name, sk, sl, tree, m, clips, false);
    let mut none = |id: &str, _: &Value| -> Result<(String, Vec<u8>), riv::RivError> {
        Err(riv::RivError::new(
            riv::Code::Texture,
            format!("texture {id}"),
        ))
    };
    let mut model = Model::from_json(&head, &mut none, limits).map_err(internal)?;
    let mut text = serde_json::to_string(&head).unwrap_or_default();
    text.pop(); // the closing brace
    text.push_str(",\"parts\":[");
    let mut first = true;
    for (k, b) in sk.bones.iter().enumerate() {
        if m.meshes[k].verts.is_empty() {
            continue; // a partless bone: no texture, no part
        }
        let Some(place) = &m.pages.placed[k] else {
            continue;
        };
        let id = page_id(place.page);
        let tex = match model
            .textures
            .iter()
            .position(|t| t.id.as_deref() == Some(&id))
        {
            Some(t) => t,
            None => {
                let file = page_name(place.page);
                let png = pngs
                    .iter()
                    .find(|(n, _)| *n == file)
                    .map(|(_, p)| p.clone())
                    .unwrap_or_default();
                let (tw, th) = riv::model::png_header_size(&png).unwrap_or((1, 1));
                model.textures.push(riv::model::Texture {
                    id: Some(id.clone()),
                    name: file.clone(),
                    path: Some(file),
                    png,
                    width: tw,
                    height: th,
                });
                model.textures.len() - 1
            }
        };
        let mesh = &m.meshes[k];
        let uv = m.pages.uv(k, &sl.parts[k], mesh);
        let mut wts = Vec::with_capacity(mesh.verts.len());
        let mut wtext = String::from("[");
        for (i, &v) in mesh.verts.iter().enumerate() {
            let pairs = weights::weights(m.scheme, sk, k, v);
            let mut e = Vec::with_capacity(2);
            if i > 0 {
                wtext.push(',');
            }
            wtext.push('[');
            for (j, &(bone, wt)) in pairs.iter().enumerate() {
                let bi = model.bone_index(&sk.bones[bone].name).ok_or_else(|| {
                    RigError::new(
                        "E_RIG_MODEL",
                        format!("internal: no bone '{}'", sk.bones[bone].name),
                    )
                })?;
                e.push((bi, wt));
                if j > 0 {
                    wtext.push(',');
                }
                wtext.push_str(&format!(
                    "{},{}",
                    Value::String(sk.bones[bone].name.clone()),
                    wt + 0.0
                ));
            }
            wtext.push(']');
            wts.push(e);
        }
        wtext.push(']');
        model.parts.push(riv::model::Part {
            name: b.name.clone(),
            texture: Some(tex),
            depth: b.depth,
            verts: mesh.verts.clone(),
            uv: uv.clone(),
            tris: mesh.tris.clone(),
            weights: wts,
        });
        if !first {
            text.push(',');
        }
        first = false;
        text.push_str(&format!(
            "{{\"name\":{},\"texture\":{},\"depth\":{},\"verts\":",
            Value::String(b.name.clone()),
            Value::String(id),
            b.depth + 0.0
        ));
        push_nums(&mut text, mesh.verts.iter().flat_map(|p| [p[0], p[1]]));
        text.push_str(",\"uv\":");
        push_nums(&mut text, uv.iter().flat_map(|p| [p[0], p[1]]));
        text.push_str(",\"tris\":");
        push_nums(&mut text, mesh.tris.iter().map(|&t| t as f64));
        text.push_str(",\"weights\":");
        text.push_str(&wtext);
        text.push('}');
    }
    text.push_str("]}\n");
    Ok((model, text.into_bytes()))
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
    for spec in &opts.motions {
        if motions.iter().any(|(n, _)| *n == spec.name) {
            return Err(RigError::new(
                "E_RIG_MOTION",
                format!("two motions are called '{}'", spec.name),
            ));
        }
        motions.push((
            spec.name.clone(),
            motion_stage(&input.sk, spec, opts.fps, limits)?,
        ));
    }
    // the clip of the sheet: the first cyclic one, else the first
    let primary = motions
        .iter()
        .find(|(_, r)| r.walk.looped)
        .or(motions.first())
        .map(|(n, _)| n.clone());
    t.lap("motion", &mut clock);
    let s = slice_stage(input, opts.slicing, &mut t)?;
    let mut clock = Instant::now();
    // the confidence's control: the same drawing with every radius doubled
    let control = confidence_control(&input.sk, &s.sil, &s.sl);
    t.lap("confidence control", &mut clock);
    let v = verify::verify(&input.sk, &s.sil, &s.sl, &s.map);
    t.lap("verify", &mut clock);
    let mut v = v;
    let mut s = s;
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
    let seen = crate::skin::reveal::seen(&input.sk, &s.sl.parts, &m.meshes, &first, opts.fps);
    drop(first);
    let (trimmed, reveal_counts) = crate::skin::reveal::trim(&s.sl.parts, &seen);
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
    let exported = riv::export(
        &model,
        &riv::Options {
            fps: opts.fps,
            ..riv::Options::default()
        },
    )
    .map_err(|e| RigError::new("E_RIG_MODEL", format!("internal: export failed: {e}")))?;
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
    let check = riv::check::check_bytes(&exported.bytes, limits);
    if let Some(p) = check.problems.first() {
        return Err(RigError::new(
            "E_RIG_MODEL",
            format!("internal: the written .riv fails the check: {p}"),
        ));
    }
    t.lap("model + riv", &mut clock);
    let frames = walk_frames(input, &m, &model, primary.as_deref(), opts.fps, (tw, th))?;
    drop(model);
    let sheet = assemble(&still, &frames, tw, th)?;
    t.lap("sheet", &mut clock);
    let (report, failed) = report(
        input,
        &s,
        &v,
        &m,
        &motions,
        primary.as_deref(),
        &t,
        &control,
    );
    files.push(("model.json".into(), mbytes));
    files.push(("character.riv".into(), exported.bytes));
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

/// One motion's section of the report (the cut, the axes, the mapping and
/// rules, the fit per bone).
pub fn motion_json(sk: &Skeleton, w: &Retargeted) -> Value {
    let r = &w.report;
    json!({
        "looped": w.walk.looped,
        "window": r.window, "cycle_start": r.start, "cycle_end": r.end, "capture_fps": r.capture_fps,
        "event": r.event, "keys": r.keys, "duration": w.walk.duration,
        "up": r.up, "up_from": r.up_from, "forward": r.forward, "forward_from": r.forward_from,
        "family": r.family,
        "mismatch_deg": {"rms": r.mismatch.0, "max": r.mismatch.1},
        "seam_keys": r.seam_keys, "seam_fraction_max": motion::SEAM_FRACTION,
        "joints": sk.bones.iter().zip(&r.joints).map(|(b, j)| json!([b.name, j])).collect::<Vec<_>>(),
        "rules": sk.bones.iter().zip(&r.rules).map(|(b, x)| json!([b.name, match x {
            motion::Rule::Drawn => "drawn".to_string(),
            motion::Rule::Limb => "limb".to_string(),
            motion::Rule::End => "end".to_string(),
            motion::Rule::Trunk(a, e) => format!("trunk {a:.3}-{e:.3}"),
        }])).collect::<Vec<_>>(),
        "fit_deg": sk.bones.iter().zip(&r.fit).zip(&r.joints).filter(|(_, j)| j.is_some())
            .map(|((b, f), _)| json!({"bone": b.name, "rms": f.rms, "max": f.max, "max_with_seam": f.max_all}))
            .collect::<Vec<_>>(),
        "closure_rad": r.closure, "root_closure_px": r.root_closure, "bob_scale": r.scale,
        "clamped_keys": r.clamped,
        "reversed": sk.bones.iter().zip(&r.reversed).filter(|(_, m)| **m).map(|(b, _)| &b.name)
            .collect::<Vec<_>>(),
        "warnings": w.walk.warnings,
        "loop_closed": !w.walk.looped || (w.walk.angles.iter().all(|a| a.first() == a.last())
            && w.walk.root_dy.first() == w.walk.root_dy.last()),
    })
}

/// The reassembly section of the report.
pub fn verify_json(v: &Verification) -> Value {
    json!({
        "iou": v.iou,
        "colour": v.colour,
        "threshold": {"iou": verify::T_IOU, "colour": verify::T_COLOUR, "margin": verify::MARGIN,
                      "depth_swap_iou_within": verify::IOU_SAME},
        "controls": v.controls.iter().map(|c| json!({
            "name": c.name, "detail": c.detail,
            "iou": c.iou, "colour": c.colour,
            "window_iou": c.window_iou, "window_colour": c.window_colour,
            "correct_window_iou": c.correct_iou, "correct_window_colour": c.correct_colour,
            "fails": c.fails,
        })).collect::<Vec<_>>(),
        "pass": v.pass,
    })
}

/// The mesh and weights sections of the report.
pub fn mesh_json(sk: &Skeleton, m: &Meshed) -> Value {
    let t = &m.schemes;
    let joints: Vec<&str> = t
        .joints
        .iter()
        .map(|&k| sk.bones[k].name.as_str())
        .collect();
    let rows: Vec<Value> = t
        .rows
        .iter()
        .map(|r| {
            json!({
                "scheme": r.scheme.name(),
                "distal_px": r.distal,
                "proximal_px": r.proximal,
                "volume_loss": r.volume_loss,
                "distal_px_total": r.distal.iter().sum::<u64>(),
                "proximal_px_max": r.proximal.iter().max().copied().unwrap_or(0),
                "volume_loss_max": r.max_loss(),
                "local": r.local(),
            })
        })
        .collect();
    let ramp = t.rows.iter().find(|r| r.scheme == Scheme::Ramp);
    json!({
        "weights": {
            "bend_deg": 30, "mesh_step": t.step, "joints": joints, "rows": rows,
            "rule": "local (0 proximal px at every joint), volume loss <= max, smoothest",
            "max_volume_loss": weights::MAX_VOLUME_LOSS,
            "chosen": t.chosen.map(Scheme::name),
            "control": {"scheme": "ramp", "proximal_px_max": ramp.map_or(0, |r| r.proximal.iter().max().copied().unwrap_or(0)),
                        "fails": ramp.is_some_and(|r| !r.local())},
        },
        "grid": {
            "bend_deg": [30, -30], "scheme": m.scheme.name(), "threshold_px": 1.0,
            "adaptive": {"coarse_px": mesh::LEVELS[mesh::LEVELS.len() - 1], "outline_px": mesh::OUTLINE,
                         "blend_steps_px": mesh::LEVELS},
            "rule": "per part: the coarsest blend step with deviation < 1 px whose next coarser step has >= 1 px; the coarsest when even it is < 1 px (rigid)",
            "parts": m.steps.iter().map(|r| json!({"name": r.name, "chosen": r.chosen,
                "max_deviation_px": r.deviation, "coarser_deviation_px": r.coarser_deviation,
                "rigid": r.rigid,
                "rows": r.rows.iter().map(|x| json!({"step": x.0, "max_deviation_px": x.1, "vertices": x.2})).collect::<Vec<_>>()}))
                .collect::<Vec<_>>(),
            "vertices": m.meshes.iter().map(|x| x.verts.len()).sum::<usize>(),
            "max_deviation_px": m.steps.iter().map(|r| r.deviation).fold(0.0, f64::max),
            "chosen": m.step,
        },
    })
}

/// The confidence of the deliberately bad declaration (every radius doubled),
/// `None` when every pixel came from a layered drawing's layers (nothing to doubt: the
/// gate passes, `control` is null).
pub fn confidence_control(
    sk: &Skeleton,
    sil: &Silhouette,
    sl: &crate::cut::slice::Slicing,
) -> Option<Confidence> {
    // a layered drawing's layers decide every pixel: nothing is guessed, no control
    if sl.rule == Rule::Layers {
        return None;
    }
    let bad = crate::cut::slice::doubled(sk);
    let own = crate::cut::slice::ownership_with_ink(&bad, sil, sl.rule, &sl.ink);
    Some(crate::cut::slice::confidence(&bad, sil, &own))
}

/// The `confidence` section of the report: ours, the control's, the rule.
pub fn confidence_json(
    sk: &Skeleton,
    c: &Confidence,
    control: Option<&Confidence>,
    layers: bool,
) -> Value {
    let parts: Vec<Value> = sk
        .bones
        .iter()
        .zip(&c.parts)
        .map(|(b, p)| {
            let n = (p[0] + p[1] + p[2]).max(1) as f64;
            json!({"name": b.name, "geometry": p[0] as f64 / n, "paint": p[1] as f64 / n, "tie": p[2] as f64 / n})
        })
        .collect();
    let doubt = c.doubt();
    let ctl = control.map(|k| k.doubt());
    json!({
        "tie_share": c.tie_share(), "unpainted_border_share": c.unpainted_share(),
        "seed_disagreement": c.seed_disagreement, "tube_excess": c.tube_excess(),
        "fit_shrink": c.fit_shrink, "doubt": doubt,
        "parts": parts,
        "control": control.map(|k| json!({"what": "every radius doubled", "tie_share": k.tie_share(),
            "unpainted_border_share": k.unpainted_share(), "seed_disagreement": k.seed_disagreement,
            "tube_excess": k.tube_excess(), "fit_shrink": k.fit_shrink, "doubt": k.doubt()})),
        "threshold": {"control_doubt_above_ours_by": CONFIDENCE_MARGIN},
        "control_fails": ctl.is_some_and(|d| d >= doubt + CONFIDENCE_MARGIN) || layers,
    })
}

/// How much higher the control's doubt must be than ours.
pub const CONFIDENCE_MARGIN: f64 = 0.05;

#[allow(clippy::too_many_arguments)]
fn report(
    input: &Input,
    s: &Sliced,
    v: &Verification,
    m: &Meshed,
    motions: &[(String, Retargeted)],
    primary: Option<&str>,
    t: &Timings,
    control: &Option<Confidence>,
) -> (Value, Vec<String>) {
    let sk = &input.sk;
    let parts: Vec<Value> =
        s.sl.parts
            .iter()
            .map(|p| {
                if p.has_part() {
                    json!({"name": p.name, "png": png_name(&p.name), "area_px": p.area,
                       "visible_px": p.visible_px, "tube_px": p.tube_px,
                       "hidden_px": p.hidden_px, "filled_px": p.filled_px, "hidden_pct": p.hidden_fraction() * 100.0})
                } else {
                    json!({"name": p.name, "part": false, "tube_px": p.tube_px,
                           "declared_partless": !sk.bones[p.bone].part})
                }
            })
            .collect();
    let conf = confidence_json(sk, &s.sl.confidence, control.as_ref(), s.sl.rule == Rule::Layers);
    let mj = mesh_json(sk, m);
    let weights_local = m.schemes.chosen.is_some();
    let ramp_fails = mj["weights"]["control"]["fails"].as_bool().unwrap_or(false);
    let mut failed = Vec::new();
    if !v.pass {
        failed.push("reassembly".to_string());
    }
    if !weights_local {
        failed.push("weights".to_string());
    }
    if !ramp_fails {
        failed.push("weights-control".to_string());
    }
    if m.step.is_none() {
        failed.push("grid-step".to_string());
    }
    let conf_control_fails = conf["control_fails"].as_bool().unwrap_or(false);
    if !conf_control_fails {
        failed.push("confidence-control".to_string());
    }
    let mut all = Map::new();
    for (name, w) in motions {
        all.insert(name.clone(), motion_json(sk, w));
    }
    let motion = primary.and_then(|p| all.get(p).cloned());
    let timings: Map<String, Value> =
        t.0.iter()
            .map(|(n, ms, _)| (n.to_string(), json!(ms)))
            .collect();
    let report = json!({
        "version": 1,
        "name": input.name,
        "drawing": {"width": input.image.width, "height": input.image.height,
                    "key": s.sil.key.map(|k| format!("#{:02x}{:02x}{:02x}", k[0], k[1], k[2]))},
        "bones": sk.bones.len(),
        "connectors": s.tree.connectors(),
        "slicing": {"rule": s.sl.rule.name(), "parts": parts, "hidden_total_pct": s.sl.hidden_total() * 100.0,
                    "filled_px": s.sl.parts.iter().map(|p| p.filled_px).sum::<u64>(),
                    "warnings": s.sl.warnings, "confidence": conf},
        "reassembly": verify_json(v),
        "weights": mj["weights"],
        "grid": mj["grid"],
        "reveal": {"samples_per_clip": crate::skin::reveal::SAMPLES, "margin_px": crate::skin::reveal::MARGIN,
                   "render_scale": crate::skin::reveal::RENDER_SCALE,
                   "hidden_kept_px": m.reveal.iter().map(|r| r.0).sum::<u64>(),
                   "hidden_dropped_px": m.reveal.iter().map(|r| r.1).sum::<u64>(),
                   "parts": sk.bones.iter().zip(&m.reveal).map(|(b, r)| json!([b.name, r.0, r.1])).collect::<Vec<_>>()},
        "pages": {"count": m.pages.pages.len(), "memory_bytes": m.pages.memory(), "scale": pages::SCALE,
                  "page_max": pages::PAGE,
                  "sizes": m.pages.pages.iter().map(|(w, h, _)| json!([w, h])).collect::<Vec<_>>()},
        "motion": motion,
        "motions": Value::Object(all),
        "gates": {"reassembly": v.pass, "weights_local": weights_local, "ramp_control_fails": ramp_fails,
                  "grid_step": m.step.is_some(), "confidence_control_fails": conf_control_fails,
                  "failed": failed},
        "timings_ms": Value::Object(timings),
        "peak_memory_kib": t.0.last().map_or(0, |x| x.2),
    });
    (report, failed)
}

// ---- contact sheet ----

fn downscale(rgba: &[u8], w: usize, h: usize, bg: [u8; 3]) -> (Vec<u8>, usize, usize) {
    downscale_with(w, h, bg, |i| {
        let p = &rgba[i * 4..i * 4 + 4];
        [p[0], p[1], p[2], p[3]]
    })
}

/// [`downscale`] of the image whose pixel `i` is `px(i)` (no full-size copy).
fn downscale_with(
    w: usize,
    h: usize,
    bg: [u8; 3],
    px: impl Fn(usize) -> [u8; 4],
) -> (Vec<u8>, usize, usize) {
    let f = SHEET_SCALE;
    let (tw, th) = (w.div_ceil(f), h.div_ceil(f));
    let mut out = vec![0u8; tw * th * 4];
    for ty in 0..th {
        for tx in 0..tw {
            let mut acc = [0u32; 3];
            let mut n = 0u32;
            for y in ty * f..((ty + 1) * f).min(h) {
                for x in tx * f..((tx + 1) * f).min(w) {
                    let p = px(y * w + x);
                    match p[3] {
                        255 => (0..3).for_each(|k| acc[k] += p[k] as u32),
                        0 => (0..3).for_each(|k| acc[k] += bg[k] as u32),
                        a => {
                            let a = a as u32;
                            for k in 0..3 {
                                acc[k] += (p[k] as u32 * a + bg[k] as u32 * (255 - a)) / 255;
                            }
                        }
                    }
                    n += 1;
                }
            }
            let o = &mut out[(ty * tw + tx) * 4..][..4];
            for k in 0..3 {
                o[k] = (acc[k] / n.max(1)) as u8;
            }
            o[3] = 255;
        }
    }
    (out, tw, th)
}

fn palette(l: u8) -> [u8; 4] {
    if l == 0 {
        return [40, 40, 40, 255];
    }
    let h = (l as u32).wrapping_mul(2_654_435_761);
    [
        64 + (h >> 8 & 0xbf) as u8,
        64 + (h >> 16 & 0xbf) as u8,
        64 + (h >> 24 & 0xbf) as u8,
        255,
    ]
}

fn line(img: &mut [u8], w: usize, h: usize, a: [f64; 2], b: [f64; 2], c: [u8; 4]) {
    let n = (b[0] - a[0]).abs().max((b[1] - a[1]).abs()).ceil().max(1.0) as usize;
    for i in 0..=n {
        let t = i as f64 / n as f64;
        let (x, y) = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t);
        if x >= 0.0 && y >= 0.0 && (x as usize) < w && (y as usize) < h {
            img[(y as usize * w + x as usize) * 4..][..4].copy_from_slice(&c);
        }
    }
}

/// The six still panels of the sheet (drawing, ownership, reassembly,
/// difference, hidden fill, meshes), each `tw × th`.
fn panels(input: &Input, s: &Sliced, v: &Verification, m: &Meshed) -> (Vec<Vec<u8>>, usize, usize) {
    let (w, h) = (input.image.width as usize, input.image.height as usize);
    let grey = [48, 48, 48];
    let mut panels: Vec<Vec<u8>> = Vec::new();
    let (drawing, tw, th) = downscale(&input.image.data, w, h, grey);
    panels.push(drawing);
    // the ownership map; white where a tie-break decided the owner
    let (owner, how, sil) = (&s.sl.owner, &s.sl.how, &s.sil.rgba);
    panels.push(
        downscale_with(w, h, grey, |i| {
            let l = if sil[i * 4 + 3] >= 128 { owner[i] } else { 0 };
            if l > 0 && how[i] == crate::cut::slice::how::TIE {
                [255, 255, 255, 255]
            } else {
                palette(l)
            }
        })
        .0,
    );
    let reassembled = downscale(&v.image, w, h, grey).0;
    panels.push(reassembled.clone());
    let img = &v.image;
    panels.push(
        downscale_with(w, h, grey, |i| {
            // most of a correct reassembly: the drawing's own pixel
            if img[i * 4..i * 4 + 4] == sil[i * 4..i * 4 + 4] {
                return [0, 0, 0, 255];
            }
            let d = (0..3)
                .map(|k| {
                    let a = img[i * 4 + k] as u32 * img[i * 4 + 3] as u32 / 255;
                    let b = sil[i * 4 + k] as u32 * sil[i * 4 + 3] as u32 / 255;
                    a.abs_diff(b)
                })
                .max()
                .unwrap_or(0);
            let a = img[i * 4 + 3].abs_diff(sil[i * 4 + 3]) as u32;
            let g = (d.max(a) * 4).min(255) as u8;
            [g, g, g, 255]
        })
        .0,
    );
    let mut hidden = vec![false; w * h];
    for p in &s.sl.parts {
        for y in 0..p.height {
            for x in 0..p.width {
                if p.hidden[y * p.width + x] == 1 {
                    hidden[(y + p.origin[1]) * w + x + p.origin[0]] = true;
                }
            }
        }
    }
    panels.push(
        downscale_with(w, h, grey, |i| {
            if hidden[i] {
                [255, 0, 255, 255]
            } else {
                let p = &sil[i * 4..i * 4 + 4];
                [p[0] / 3, p[1] / 3, p[2] / 3, p[3]]
            }
        })
        .0,
    );
    drop(hidden);
    let mut meshes = reassembled;
    let f = SHEET_SCALE as f64;
    // each adaptive mesh's every edge (dense only in the blend zones)
    for (k, pm) in m.meshes.iter().enumerate() {
        let c = palette(k as u8 + 1);
        let mut edges: std::collections::HashMap<(u16, u16), u8> = std::collections::HashMap::new();
        for t in pm.tris.chunks_exact(3) {
            for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                *edges.entry((a.min(b), a.max(b))).or_insert(0) += 1;
            }
        }
        for (a, b) in edges.into_keys() {
            let (pa, pb) = (pm.verts[a as usize], pm.verts[b as usize]);
            {
                line(
                    &mut meshes,
                    tw,
                    th,
                    [pa[0] / f, pa[1] / f],
                    [pb[0] / f, pb[1] / f],
                    c,
                );
            }
        }
    }
    panels.push(meshes);
    (panels, tw, th)
}

/// Eight walk frames rendered from the model at 1/[`SHEET_SCALE`].
fn walk_frames(
    input: &Input,
    m: &Meshed,
    model: &Model,
    clip: Option<&str>,
    fps: u32,
    (tw, th): (usize, usize),
) -> Result<Vec<Vec<u8>>, RigError> {
    let (w, h) = (input.image.width as usize, input.image.height as usize);
    let grey = [48, 48, 48];
    let f = SHEET_SCALE as f64;
    let mut frames: Vec<Vec<u8>> = Vec::new();
    // the pages as images the rasteriser samples (the frames show what the .riv holds)
    let page_imgs: Vec<crate::cut::slice::PartImage> = m
        .pages
        .pages
        .iter()
        .enumerate()
        .map(|(i, (pw, ph, rgba))| crate::cut::slice::PartImage {
            name: page_name(i),
            bone: 0,
            origin: [0, 0],
            width: *pw,
            height: *ph,
            rgba: rgba.clone(),
            hidden: Vec::new(),
            pivot: [0.0, 0.0],
            area: 0,
            hidden_px: 0,
            filled_px: 0,
            tube_px: 0,
            visible_px: 0,
        })
        .collect();
    if let Some(clip) = clip
        && let Some(c) = model.clip(clip)
    {
        let rest_local: Vec<f64> = model.bones.iter().map(|b| b.angle).collect();
        let rest = model.world(&rest_local, 0.0, 0.0);
        let frame = riv::model::Frame {
            width: w as u32,
            height: h as u32,
            ox: 0.0,
            oy: 0.0,
        };
        for i in 0..SHEET_FRAMES {
            let time = c.duration * i as f64 / SHEET_FRAMES as f64;
            let err = |e: riv::RivError| RigError::new("E_RIG_MODEL", e.to_string());
            let local = riv::reference::pose_at(model, Some(clip), time, fps).map_err(err)?;
            let moved = riv::reference::moved_at(model, Some(clip), time, fps).map_err(err)?;
            let pose = model.world_moved(&local, &moved, 0.0, 0.0);
            let mut canvas = Canvas::new([0, 0, tw as i64, th as i64]);
            for k in input.sk.far_to_near() {
                let Some(pk) = model
                    .parts
                    .iter()
                    .position(|p| p.name == input.sk.bones[k].name)
                else {
                    continue; // a partless bone
                };
                let pts: Vec<[f64; 2]> = riv::reference::deform(model, pk, &pose, &rest, &frame)
                    .into_iter()
                    .map(|p| [p[0] / f, p[1] / f])
                    .collect();
                let Some(place) = &m.pages.placed[k] else {
                    continue;
                };
                let scaled = PartMesh {
                    step: m.meshes[k].step,
                    verts: Vec::new(),
                    uv: model.parts[pk].uv.clone(),
                    tris: model.parts[pk].tris.clone(),
                };
                mesh::raster(
                    &page_imgs[place.page],
                    &scaled,
                    &pts,
                    &mut canvas,
                    |_, _| {},
                );
            }
            let mut px = canvas.rgba;
            for p in px.chunks_exact_mut(4) {
                let a = p[3] as u32;
                for k in 0..3 {
                    p[k] = ((p[k] as u32 * a + grey[k] as u32 * (255 - a)) / 255) as u8;
                }
                p[3] = 255;
            }
            frames.push(px);
        }
    }
    Ok(frames)
}

/// The sheet: panels on the first row, walk frames on the second.
fn assemble(
    panels: &[Vec<u8>],
    frames: &[Vec<u8>],
    tw: usize,
    th: usize,
) -> Result<Vec<u8>, RigError> {
    let cols = SHEET_FRAMES.max(panels.len());
    let rows = if frames.is_empty() { 1 } else { 2 };
    let (sw, sh) = (cols * tw, rows * th);
    let mut out = vec![0u8; sw * sh * 4];
    for px in out.chunks_exact_mut(4) {
        px.copy_from_slice(&[20, 20, 20, 255]);
    }
    for (row, list) in [(0, panels), (1, frames)] {
        for (i, p) in list.iter().enumerate() {
            for y in 0..th {
                let dst = ((row * th + y) * sw + i * tw) * 4;
                out[dst..dst + tw * 4].copy_from_slice(&p[y * tw * 4..(y + 1) * tw * 4]);
            }
        }
    }
    re2d_output::png_encode::encode_rgba_level(&out, sw as u32, sh as u32, PNG_LEVEL)
        .map_err(|e| RigError::new("E_RIG_IMAGE", e))
}
