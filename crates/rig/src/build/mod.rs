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
//!
//! | source | does |
//! |---|---|
//! | `mod.rs` | options, the input, the stages in order ([`build`]), timings |
//! | `model.rs` | the `export-riv` model: bones, parts on pages, clips, the state machine ([`model`], [`model_json`]) |
//! | `report.rs` | `report.json`: every number with its control and threshold, the gates |
//! | `sheet.rs` | the contact sheet's panels and walk frames |
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

pub use model::{clips_json, machine_json, model, model_json, page_id, page_name, pages_json};
pub use report::{
    CONFIDENCE_MARGIN, confidence_control, confidence_json, mesh_json, motion_json, verify_json,
};
use sheet::{assemble, panels, walk_frames};

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
    /// The largest delta from the drawn pose, radians (`None`: the working-pose limit, 90°).
    pub max_angle: Option<f64>,
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
            max_angle: None,
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
}

fn io_err(path: &Path, e: impl std::fmt::Display) -> RigError {
    RigError::new("E_IO", format!("{}: {e}", path.display()))
}

/// Reads and validates the declaration and its drawing (the PNG's size is
/// checked against the limits before its pixels are decoded).
pub fn load(path: &Path, limits: &Limits) -> Result<Input, RigError> {
    let text = read_file(path, limits.json_max_bytes, "json-max-bytes").map_err(|e| match e {
        ReadError::Io(e) => io_err(path, e),
        ReadError::TooLarge(e) => RigError::new("E_RIG_LIMIT", format!("{}: {e}", path.display())),
    })?;
    let sk = Skeleton::parse(&text, limits)?;
    let image_path = path.parent().unwrap_or(Path::new("")).join(&sk.image);
    let bytes =
        read_file(&image_path, limits.file_max_bytes, "file-max-bytes").map_err(|e| match e {
            ReadError::Io(e) => io_err(&image_path, e),
            ReadError::TooLarge(e) => {
                RigError::new("E_RIG_LIMIT", format!("{}: {e}", image_path.display()))
            }
        })?;
    let Some((w, h)) = riv::model::png_header_size(&bytes) else {
        return Err(RigError::new(
            "E_RIG_IMAGE",
            format!("{}: not a PNG", image_path.display()),
        ));
    };
    sk.check_image(w, h, limits)?;
    let image = re2d::png_io::decode_rgba_limited(std::io::Cursor::new(&bytes), limits)
        .map_err(|e| RigError::new("E_RIG_IMAGE", format!("{}: {e}", image_path.display())))?;
    let name = path
        .file_stem()
        .map_or("character".into(), |s| s.to_string_lossy().into_owned());
    let name = name.strip_suffix(".skeleton").unwrap_or(&name).to_string();
    Ok(Input {
        sk,
        image,
        image_path,
        name,
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
    let sl = slice_with(&input.sk, &sil, rule)?;
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
        max_angle: spec.max_angle.unwrap_or(std::f64::consts::FRAC_PI_2),
        ..MotionOptions::default()
    };
    motion::retarget_with_report(&bvh, &motion::bones_of(sk), &opts)
        .map_err(|e| RigError::new(e.code, format!("motion '{}': {}", spec.name, e.message)))
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
    let mut seen: Vec<Vec<bool>> =
        s.sl.parts
            .iter()
            .map(|p| vec![false; p.width * p.height])
            .collect();
    let mut measures: Vec<measure::ClipMeasure> = Vec::with_capacity(first.clips.len());
    crate::skin::reveal::seen_per_clip(
        &input.sk,
        &s.sl.parts,
        &m.meshes,
        &first,
        opts.fps,
        |ci, clip_seen| {
            for (a, c) in seen.iter_mut().zip(clip_seen) {
                for (x, &y) in a.iter_mut().zip(c) {
                    *x |= y;
                }
            }
            measures.push(measure::ClipMeasure {
                name: first.clips[ci].name.clone(),
                uncovered: measure::uncovered(&s.sl.parts, clip_seen),
                volume: Vec::new(),
            });
        },
    );
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
    for c in &mut measures {
        c.volume = measure::volume(&input.sk, &model, &c.name, opts.fps);
    }
    t.lap("model + riv", &mut clock);
    let frames = walk_frames(input, &m, &model, primary.as_deref(), opts.fps, (tw, th))?;
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
