//! The input model of rive-export.md §7: JSON + PNG textures, validated
//! into [`Model`] (bones in canonical order, parts, clips), with the §8.7
//! error codes. Also the rest pose and the artboard frame of §8.1, which
//! the exporter and the reference renderer share.
//!
//! Extension (issue 19, the root bob of a captured walk): a clip may have
//! `"translations": {"<root bone>": [[t, dx, dy], …]}` — pixels, y down,
//! added to that root bone's rest x/y; times follow the rules of `tracks`
//! (strictly increasing, in `[0, duration]`), only root bones may have one
//! (`E_CLIP` otherwise), interpolation as the clip's. The exporter writes
//! them as keyed `RootBone.x`/`y` (properties 90/91).
//!
//! Extension (issue 42): a clip may have `"draw_order": [[t, ["part", …]], …]`, the parts
//! nearest first from `t` on (every part once; times as `tracks`); see `draworder.rs`.

use std::path::Path;

use serde_json::{Map, Value as Json};

use super::error::{Code, RivError, err};
use re2d::limits::Limits;
use re2d::mesh::order_bones;

/// Most bones a model may have (weight slots are bytes, §8.5).
pub const MAX_BONES: usize = 255;
/// Most vertices per part (indices are u16, §4.3).
pub const MAX_VERTICES: usize = 65_535;

/// A bone, in canonical order.
#[derive(Clone, Debug, PartialEq)]
pub struct Bone {
    /// Name.
    pub name: String,
    /// Parent index (canonical order; always smaller than this bone's).
    pub parent: Option<usize>,
    /// Length (≥ 0).
    pub length: f64,
    /// Rest angle relative to the parent, radians.
    pub angle: f64,
    /// Root position (roots only).
    pub x: f64,
    /// Root position (roots only).
    pub y: f64,
}

/// An embedded texture.
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    /// Id in the model's `textures` map (`None` for the generated white one).
    pub id: Option<String>,
    /// Asset name (the file name).
    pub name: String,
    /// The `textures` entry when it is a path (relative to the model file).
    pub path: Option<String>,
    /// PNG bytes, unchanged.
    pub png: Vec<u8>,
    /// Width from IHDR.
    pub width: u32,
    /// Height from IHDR.
    pub height: u32,
}

/// A textured mesh part.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// Name (default `part<i>`).
    pub name: String,
    /// Index into [`Model::textures`]; `None` = the white texture.
    pub texture: Option<usize>,
    /// Depth (smaller is nearer), default 0.5.
    pub depth: f64,
    /// Rest positions, skeleton space.
    pub verts: Vec<[f64; 2]>,
    /// UVs 0..1.
    pub uv: Vec<[f64; 2]>,
    /// Triangle indices.
    pub tris: Vec<u16>,
    /// Per vertex: `(bone index, weight)`, at most 2 pairs, same-bone pairs merged.
    pub weights: Vec<Vec<(usize, f64)>>,
}

/// One bone's rotation track.
#[derive(Clone, Debug, PartialEq)]
pub struct Track {
    /// Bone index.
    pub bone: usize,
    /// `(time s, additive angle rad)`, time strictly increasing.
    pub keys: Vec<(f64, f64)>,
}

/// One root bone's translation track (issue 19: the root bob of a walk).
#[derive(Clone, Debug, PartialEq)]
pub struct Translation {
    /// Bone index (always a root).
    pub bone: usize,
    /// `(time s, dx px, dy px)`, added to the root's rest x/y; time
    /// strictly increasing.
    pub keys: Vec<(f64, f64, f64)>,
}

/// A clip.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    /// Name.
    pub name: String,
    /// Duration in seconds (> 0).
    pub duration: f64,
    /// Loops (else one-shot).
    pub looping: bool,
    /// Step (hold) interpolation instead of linear.
    pub step: bool,
    /// Tracks in canonical bone order.
    pub tracks: Vec<Track>,
    /// Root translations in canonical bone order.
    pub translations: Vec<Translation>,
    /// Draw-order keys (issue 42, `draworder.rs`): the parts nearest first per key; empty =
    /// the default order throughout.
    pub draw_order: Vec<super::draworder::OrderKey>,
}

/// A validated model.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Model name (the artboard name), default `re2d`.
    pub name: String,
    /// Bones in canonical order.
    pub bones: Vec<Bone>,
    /// Textures used by parts (declared ones that no part uses are not loaded).
    pub textures: Vec<Texture>,
    /// Parts in declaration order.
    pub parts: Vec<Part>,
    /// Clips in ascending name order.
    pub clips: Vec<Clip>,
    /// The state machine (rive-export.md §11), if the model has one.
    pub machine: Option<super::machine::Machine>,
    /// Non-fatal notes (dropped pairs, ignored colours, child x/y).
    pub warnings: Vec<String>,
}

/// A bone's rest (or posed) world transform: start point and world angle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct World {
    /// Start x.
    pub x: f64,
    /// Start y.
    pub y: f64,
    /// World angle.
    pub angle: f64,
}

/// The artboard frame of §8.1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// Artboard width.
    pub width: u32,
    /// Artboard height.
    pub height: u32,
    /// Offset added to root positions and vertices.
    pub ox: f64,
    /// Offset added to root positions and vertices.
    pub oy: f64,
}

/// Where texture bytes come from: `(id, entry) → (asset name, PNG bytes)`.
pub type TextureSource<'a> = dyn FnMut(&str, &Json) -> Result<(String, Vec<u8>), RivError> + 'a;

/// Width and height from a PNG signature + IHDR (`None`: not a PNG).
pub fn png_header_size(b: &[u8]) -> Option<(u32, u32)> {
    const SIG: [u8; 8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    if b.len() < 33 || b[..8] != SIG || &b[12..16] != b"IHDR" {
        return None;
    }
    let w = u32::from_be_bytes(b[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(b[20..24].try_into().ok()?);
    (w > 0 && h > 0).then_some((w, h))
}

/// The generated 1×1 opaque white PNG for untextured parts (§7).
pub fn white_png() -> Vec<u8> {
    re2d_output::png_encode::encode_rgba(&[255, 255, 255, 255], 1, 1).unwrap_or_default()
}

/// JS own-key order: canonical array indices ascending, then the rest in
/// insertion order (what `Object.keys` gives the mesh module).
fn js_keys(m: &Map<String, Json>) -> Vec<&String> {
    let is_index = |k: &str| {
        k.parse::<u32>()
            .is_ok_and(|n| n != u32::MAX && n.to_string() == k)
    };
    let mut idx: Vec<&String> = m.keys().filter(|k| is_index(k)).collect();
    idx.sort_by_key(|k| k.parse::<u32>().unwrap_or(0));
    idx.extend(m.keys().filter(|k| !is_index(k)));
    idx
}

fn num(v: Option<&Json>, default: f64, code: Code, what: &str) -> Result<f64, RivError> {
    match v {
        None | Some(Json::Null) => Ok(default),
        Some(Json::Number(n)) => match n.as_f64() {
            Some(f) if f.is_finite() && f.abs() <= f32::MAX as f64 => Ok(f),
            Some(f) if f.is_finite() => err(
                code,
                format!("{what} = {f:e} is outside the binary32 range of .riv double fields"),
            ),
            _ => err(code, format!("{what} is not a finite number")),
        },
        // how the JS adapter passes NaN and ±Infinity (JSON has no such numbers)
        Some(Json::String(s)) if matches!(s.as_str(), "NaN" | "Infinity" | "-Infinity") => {
            err(code, format!("{what} is {s}, not a finite number"))
        }
        Some(_) => err(code, format!("{what} is not a number")),
    }
}

/// A number that must be there: an array element or a key value. `null`
/// is refused (a NaN or infinity from a script arrives as `null` in JSON;
/// reading it as 0 would move a vertex or a key silently).
fn item(x: &Json, code: Code, what: &str) -> Result<f64, RivError> {
    if x.is_null() {
        return err(
            code,
            format!("{what} is null, not a number (a NaN or infinity becomes null in JSON)"),
        );
    }
    num(Some(x), 0.0, code, what)
}

fn numbers(v: Option<&Json>, code: Code, what: &str) -> Result<Vec<f64>, RivError> {
    match v {
        None | Some(Json::Null) => Ok(Vec::new()),
        Some(Json::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, x)| item(x, code, &format!("{what}[{i}]")))
            .collect(),
        Some(_) => err(code, format!("{what} is not an array")),
    }
}

/// Reads a texture file that will be embedded in the `.riv`: refused
/// (`E_TEXTURE`, naming `riv-max-embedded`) from its size before it is read
/// when the textures read so far (`embedded`, updated) and it exceed the
/// limit; a file that does not tell its size (a pipe) is read only up to
/// what is left.
pub fn read_embedded(
    p: &Path,
    id: &str,
    embedded: &mut u64,
    limits: &Limits,
) -> Result<Vec<u8>, RivError> {
    use re2d::limits::read_file;
    let bad = |e: String| {
        RivError::new(
            Code::Texture,
            format!("textures.{id}: {}: {e}", p.display()),
        )
    };
    let left = limits.riv_max_embedded_bytes.saturating_sub(*embedded);
    let over = |size: u64| {
        bad(format!(
            "{size} bytes or more to embed beside {embedded} already, more than {} (limit riv-max-embedded, see --limit)",
            limits.riv_max_embedded_bytes,
            embedded = *embedded
        ))
    };
    if let Ok(m) = std::fs::metadata(p)
        && m.is_file()
        && m.len() > left
    {
        return Err(over(m.len()));
    }
    let bytes = if left < limits.file_max_bytes {
        read_file(p, left, "riv-max-embedded").map_err(|e| match e {
            re2d::limits::ReadError::TooLarge(_) => over(left.saturating_add(1)),
            e => bad(e.to_string()),
        })?
    } else {
        read_file(p, limits.file_max_bytes, "file-max-bytes").map_err(|e| bad(e.to_string()))?
    };
    *embedded += bytes.len() as u64;
    Ok(bytes)
}

impl Model {
    /// Reads and validates `MODEL.json`; textures are paths relative to it.
    pub fn load(path: &Path, limits: &Limits) -> Result<Model, RivError> {
        use re2d::limits::{ReadError, read_file};
        let text =
            read_file(path, limits.json_max_bytes, "json-max-bytes").map_err(|e| match e {
                ReadError::Io(e) => RivError::new(Code::Io, format!("{}: {e}", path.display())),
                ReadError::TooLarge(e) => {
                    RivError::new(Code::ModelJson, format!("{}: {e}", path.display()))
                }
            })?;
        limits
            .check_json_depth(&text)
            .map_err(|e| RivError::new(Code::ModelJson, format!("{}: {e}", path.display())))?;
        let json: Json = serde_json::from_slice(&text)
            .map_err(|e| RivError::new(Code::ModelJson, format!("{}: {e}", path.display())))?;
        let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
        let mut embedded = 0u64;
        let mut load = |id: &str, entry: &Json| -> Result<(String, Vec<u8>), RivError> {
            let Json::String(rel) = entry else {
                return err(
                    Code::Texture,
                    format!("textures.{id} is not a file path string"),
                );
            };
            let p = dir.join(rel);
            let bytes = read_embedded(&p, id, &mut embedded, limits)?;
            let name = p
                .file_name()
                .map_or_else(|| rel.clone(), |n| n.to_string_lossy().into_owned());
            Ok((name, bytes))
        };
        Model::from_json(&json, &mut load, limits)
    }

    /// Validates a parsed model; `textures` supplies the bytes of each used texture.
    pub fn from_json(
        json: &Json,
        textures: &mut TextureSource<'_>,
        limits: &Limits,
    ) -> Result<Model, RivError> {
        let Json::Object(root) = json else {
            return err(Code::ModelJson, "the model is not a JSON object");
        };
        match root.get("version") {
            Some(Json::Number(n)) if n.as_f64() == Some(1.0) => {}
            other => {
                return err(
                    Code::ModelJson,
                    format!(
                        "version must be 1 (got {})",
                        other.map_or("nothing".into(), |v| v.to_string())
                    ),
                );
            }
        }
        let name = match root.get("name") {
            None | Some(Json::Null) => "re2d".to_string(),
            Some(Json::String(s)) => s.clone(),
            Some(_) => return err(Code::ModelJson, "name is not a string"),
        };
        let mut warnings = Vec::new();
        let bones = parse_bones(root.get("skeleton"), &mut warnings)?;
        let (parts, textures) = parse_parts(root, &bones, textures, limits, &mut warnings)?;
        let part_names: Vec<String> = parts.iter().map(|p| p.name.clone()).collect();
        let clips = parse_clips(root.get("clips"), &bones, &part_names)?;
        let machine = super::machine::parse(root.get("state_machine"), &clips)?;
        Ok(Model {
            name,
            bones,
            textures,
            parts,
            clips,
            machine,
            warnings,
        })
    }

    /// Index of a bone by name.
    pub fn bone_index(&self, name: &str) -> Option<usize> {
        self.bones.iter().position(|b| b.name == name)
    }

    /// A clip by name.
    pub fn clip(&self, name: &str) -> Option<&Clip> {
        self.clips.iter().find(|c| c.name == name)
    }

    /// World transforms for local angles `local[k]` (rest angle + additive),
    /// in canonical order (§7 "rest pose" rule), with `(ox, oy)` added to roots.
    pub fn world(&self, local: &[f64], ox: f64, oy: f64) -> Vec<World> {
        self.world_moved(local, &[], ox, oy)
    }

    /// [`Model::world`] with root bone `k` moved by `moved[k]` (a clip's
    /// translation; missing entries and non-roots are not moved).
    pub fn world_moved(&self, local: &[f64], moved: &[[f64; 2]], ox: f64, oy: f64) -> Vec<World> {
        let mut out: Vec<World> = Vec::with_capacity(self.bones.len());
        for (k, b) in self.bones.iter().enumerate() {
            let a = local.get(k).copied().unwrap_or(b.angle);
            let w = match b.parent {
                Some(p) => {
                    let pw = out[p];
                    let pl = self.bones[p].length;
                    World {
                        x: pw.x + pl * pw.angle.cos(),
                        y: pw.y + pl * pw.angle.sin(),
                        angle: pw.angle + a,
                    }
                }
                None => {
                    let d = moved.get(k).copied().unwrap_or([0.0, 0.0]);
                    World {
                        x: b.x + ox + d[0],
                        y: b.y + oy + d[1],
                        angle: a,
                    }
                }
            };
            out.push(w);
        }
        out
    }

    /// The rest pose (no offset).
    pub fn rest(&self) -> Vec<World> {
        let local: Vec<f64> = self.bones.iter().map(|b| b.angle).collect();
        self.world(&local, 0.0, 0.0)
    }

    /// §8.1: margin, offset and artboard size from the rest-pose bounds;
    /// `artboard` / `offset` override the computed values.
    pub fn frame(&self, artboard: Option<(u32, u32)>, offset: Option<(f64, f64)>) -> Frame {
        let rest = self.rest();
        let (mut x0, mut y0, mut x1, mut y1) =
            (f64::INFINITY, f64::INFINITY, -f64::INFINITY, -f64::INFINITY);
        let mut add = |x: f64, y: f64| {
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        };
        for p in &self.parts {
            for v in &p.verts {
                add(v[0], v[1]);
            }
        }
        for (b, w) in self.bones.iter().zip(&rest) {
            add(w.x, w.y);
            add(
                w.x + b.length * w.angle.cos(),
                w.y + b.length * w.angle.sin(),
            );
        }
        if x0 > x1 {
            (x0, y0, x1, y1) = (0.0, 0.0, 0.0, 0.0);
        }
        let (sx, sy) = (x1 - x0, y1 - y0);
        let margin = (0.25 * sx.max(sy)).max(16.0);
        let (ox, oy) = offset.unwrap_or((margin - x0, margin - y0));
        let (width, height) = artboard.unwrap_or((
            (sx + 2.0 * margin).ceil().clamp(1.0, u32::MAX as f64) as u32,
            (sy + 2.0 * margin).ceil().clamp(1.0, u32::MAX as f64) as u32,
        ));
        Frame {
            width,
            height,
            ox,
            oy,
        }
    }
}

fn parse_bones(v: Option<&Json>, warnings: &mut Vec<String>) -> Result<Vec<Bone>, RivError> {
    let map = match v {
        None | Some(Json::Null) => return Ok(Vec::new()),
        Some(Json::Object(m)) => m,
        Some(_) => return err(Code::Bone, "skeleton is not an object"),
    };
    if map.len() > MAX_BONES {
        return err(
            Code::Bone,
            format!(
                "{} bones; at most {MAX_BONES} fit in a weight slot byte",
                map.len()
            ),
        );
    }
    let keys = js_keys(map);
    let mut raw = Vec::with_capacity(keys.len());
    for k in &keys {
        let Json::Object(b) = &map[k.as_str()] else {
            return err(Code::Bone, format!("skeleton.{k} is not an object"));
        };
        let parent = match b.get("parent") {
            None | Some(Json::Null) => None,
            Some(Json::String(s)) if s.is_empty() => None,
            Some(Json::String(s)) => Some(s.clone()),
            Some(_) => return err(Code::Bone, format!("skeleton.{k}.parent is not a string")),
        };
        let length = num(
            b.get("length"),
            0.0,
            Code::Bone,
            &format!("skeleton.{k}.length"),
        )?;
        if length < 0.0 {
            return err(Code::Bone, format!("skeleton.{k}.length is negative"));
        }
        let angle = num(
            b.get("angle"),
            0.0,
            Code::Bone,
            &format!("skeleton.{k}.angle"),
        )?;
        let x = num(b.get("x"), 0.0, Code::Bone, &format!("skeleton.{k}.x"))?;
        let y = num(b.get("y"), 0.0, Code::Bone, &format!("skeleton.{k}.y"))?;
        if parent.is_some() && (b.contains_key("x") || b.contains_key("y")) {
            warnings.push(format!(
                "skeleton.{k}: x/y ignored (a child bone starts at its parent's tip)"
            ));
        }
        raw.push((k.to_string(), parent, length, angle, x, y));
    }
    for (name, parent, ..) in &raw {
        if let Some(p) = parent
            && !raw.iter().any(|r| &r.0 == p)
        {
            return err(Code::Bone, format!("skeleton.{name}: unknown parent '{p}'"));
        }
    }
    let names: Vec<&str> = raw.iter().map(|r| r.0.as_str()).collect();
    let parents: Vec<Option<&str>> = raw.iter().map(|r| r.1.as_deref()).collect();
    let (order, stalls) = order_bones(&names, &parents);
    if stalls > 0 {
        let placed: Vec<&str> = order.iter().map(|&i| names[i]).collect();
        let mut cyc: Vec<&str> = Vec::new();
        // the bones after the last resolvable one are in (or below) a cycle
        for (pos, &i) in order.iter().enumerate() {
            if let Some(p) = parents[i]
                && !placed[..pos].contains(&p)
            {
                cyc.push(names[i]);
            }
        }
        return err(
            Code::Bone,
            format!("the parent links form a cycle ({})", cyc.join(", ")),
        );
    }
    let mut bones: Vec<Bone> = Vec::with_capacity(order.len());
    for &i in &order {
        let (name, parent, length, angle, x, y) = &raw[i];
        let parent = parent
            .as_ref()
            .and_then(|p| bones.iter().position(|b| &b.name == p));
        bones.push(Bone {
            name: name.clone(),
            parent,
            length: *length,
            angle: *angle,
            x: if parent.is_some() { 0.0 } else { *x },
            y: if parent.is_some() { 0.0 } else { *y },
        });
    }
    Ok(bones)
}

fn pairs_of(v: &Json, what: &str) -> Result<Vec<(String, f64)>, RivError> {
    let name_of = |x: &Json, w: &str| -> Result<String, RivError> {
        match x {
            Json::String(s) => Ok(s.clone()),
            _ => err(Code::Weight, format!("{w}: bone name is not a string")),
        }
    };
    let weight_of = |x: &Json, w: &str| -> Result<f64, RivError> {
        match x.as_f64() {
            Some(f) if f.is_finite() && f >= 0.0 => Ok(f),
            _ => err(
                Code::Weight,
                format!("{w}: weight {x} is negative, non-finite or not a number"),
            ),
        }
    };
    match v {
        Json::Null => Ok(Vec::new()),
        Json::Array(a) if a.iter().all(|x| x.is_array()) => a
            .iter()
            .enumerate()
            .map(|(i, pair)| {
                let w = format!("{what}[{i}]");
                match pair.as_array().map(Vec::as_slice) {
                    Some([n, x]) => Ok((name_of(n, &w)?, weight_of(x, &w)?)),
                    _ => err(Code::Weight, format!("{w} is not a [name, weight] pair")),
                }
            })
            .collect(),
        Json::Array(a) => {
            if a.len() % 2 != 0 {
                return err(
                    Code::Weight,
                    format!("{what} has an odd length (name, weight pairs)"),
                );
            }
            a.chunks(2)
                .enumerate()
                .map(|(i, c)| {
                    let w = format!("{what}[{}]", 2 * i);
                    Ok((name_of(&c[0], &w)?, weight_of(&c[1], &w)?))
                })
                .collect()
        }
        _ => err(Code::Weight, format!("{what} is not an array")),
    }
}

#[allow(clippy::type_complexity)]
fn parse_parts(
    root: &Map<String, Json>,
    bones: &[Bone],
    source: &mut TextureSource<'_>,
    limits: &Limits,
    warnings: &mut Vec<String>,
) -> Result<(Vec<Part>, Vec<Texture>), RivError> {
    let decl = match root.get("textures") {
        None | Some(Json::Null) => Map::new(),
        Some(Json::Object(m)) => m.clone(),
        Some(_) => return err(Code::Texture, "textures is not an object"),
    };
    let list = match root.get("parts") {
        None | Some(Json::Null) => return Ok((Vec::new(), Vec::new())),
        Some(Json::Array(a)) => a,
        Some(_) => return err(Code::Part, "parts is not an array"),
    };
    let mut textures: Vec<Texture> = Vec::new();
    let mut decoded = 0u64;
    let mut embedded = 0u64;
    let mut parts = Vec::with_capacity(list.len());
    for (pi, pv) in list.iter().enumerate() {
        let Json::Object(p) = pv else {
            return err(Code::Part, format!("parts[{pi}] is not an object"));
        };
        let name = match p.get("name") {
            None | Some(Json::Null) => format!("part{pi}"),
            Some(Json::String(s)) => s.clone(),
            Some(_) => return err(Code::Part, format!("parts[{pi}].name is not a string")),
        };
        let at = format!("parts[{pi}] ('{name}')");
        let verts = numbers(p.get("verts"), Code::Part, &format!("{at}.verts"))?;
        let uv = numbers(p.get("uv"), Code::Part, &format!("{at}.uv"))?;
        if verts.len() % 2 != 0 {
            return err(Code::Part, format!("{at}.verts has an odd length"));
        }
        let n = verts.len() / 2;
        if n > MAX_VERTICES {
            return err(
                Code::Part,
                format!("{at} has {n} vertices; at most {MAX_VERTICES}"),
            );
        }
        if uv.len() != verts.len() {
            return err(
                Code::Part,
                format!(
                    "{at}: {} uv numbers for {n} vertices (need {})",
                    uv.len(),
                    2 * n
                ),
            );
        }
        let tris_raw = numbers(p.get("tris"), Code::Part, &format!("{at}.tris"))?;
        if tris_raw.len() % 3 != 0 {
            return err(
                Code::Part,
                format!(
                    "{at}.tris has {} indices, not a multiple of 3",
                    tris_raw.len()
                ),
            );
        }
        let mut tris = Vec::with_capacity(tris_raw.len());
        for (i, &t) in tris_raw.iter().enumerate() {
            if t < 0.0 || t.fract() != 0.0 || t >= n as f64 {
                return err(
                    Code::Part,
                    format!("{at}.tris[{i}] = {t} is not a vertex index below {n}"),
                );
            }
            tris.push(t as u16);
        }
        let depth = num(p.get("depth"), 0.5, Code::Part, &format!("{at}.depth"))?;
        if p.get("colors").is_some_and(|c| !c.is_null()) {
            warnings.push(format!(
                "{at}: per-vertex colours cannot be represented on Rive image meshes; ignored"
            ));
        }
        // weights
        let lists: Vec<Vec<(String, f64)>> = match (p.get("weights"), p.get("bones")) {
            (Some(Json::Array(w)), _) => {
                if w.len() != n {
                    return err(
                        Code::Weight,
                        format!("{at}.weights has {} entries for {n} vertices", w.len()),
                    );
                }
                w.iter()
                    .enumerate()
                    .map(|(i, x)| pairs_of(x, &format!("{at}.weights[{i}]")))
                    .collect::<Result<_, _>>()?
            }
            (Some(w), _) if !w.is_null() => {
                return err(Code::Weight, format!("{at}.weights is not an array"));
            }
            (_, Some(Json::Array(b))) => {
                if b.len() != n {
                    return err(
                        Code::Weight,
                        format!("{at}.bones has {} entries for {n} vertices", b.len()),
                    );
                }
                b.iter()
                    .enumerate()
                    .map(|(i, x)| match x {
                        Json::Null => Ok(Vec::new()),
                        Json::String(s) => Ok(vec![(s.clone(), 1.0)]),
                        _ => err(Code::Weight, format!("{at}.bones[{i}] is not a bone name")),
                    })
                    .collect::<Result<_, _>>()?
            }
            (_, Some(b)) if !b.is_null() => {
                return err(Code::Weight, format!("{at}.bones is not an array"));
            }
            _ => vec![Vec::new(); n],
        };
        let mut weights = Vec::with_capacity(n);
        let mut dropped = 0;
        for (i, l) in lists.into_iter().enumerate() {
            if l.len() > 2 {
                dropped += 1;
            }
            let mut merged: Vec<(usize, f64)> = Vec::with_capacity(2);
            for (bn, w) in l.into_iter().take(2) {
                let Some(b) = bones.iter().position(|b| b.name == bn) else {
                    return err(
                        Code::Weight,
                        format!("{at} vertex {i}: unknown bone '{bn}'"),
                    );
                };
                match merged.iter_mut().find(|(x, _)| *x == b) {
                    Some(m) => m.1 += w,
                    None => merged.push((b, w)),
                }
            }
            weights.push(merged);
        }
        if dropped > 0 {
            warnings.push(format!(
                "{at}: {dropped} vertices had more than two weight pairs; the extra pairs were dropped"
            ));
        }
        // texture
        let texture = match p.get("texture") {
            None | Some(Json::Null) => None,
            Some(Json::Number(x)) if x.as_f64() == Some(-1.0) => None,
            Some(t) => {
                let id = match t {
                    Json::String(s) => s.clone(),
                    Json::Number(x) => x.to_string(),
                    _ => return err(Code::Texture, format!("{at}.texture is not an id")),
                };
                match textures
                    .iter()
                    .position(|x| x.id.as_deref() == Some(id.as_str()))
                {
                    Some(i) => Some(i),
                    None => {
                        let Some(entry) = decl.get(&id) else {
                            return err(Code::Texture, format!("{at}: unknown texture id '{id}'"));
                        };
                        let (tname, png) = source(&id, entry)?;
                        // every source (a file, bytes from a script, a build's
                        // pages): the embedded total, before anything is decoded
                        embedded = embedded.saturating_add(png.len() as u64);
                        if embedded > limits.riv_max_embedded_bytes {
                            return err(
                                Code::Texture,
                                format!(
                                    "textures.{id} ('{tname}'): the textures together are {embedded} bytes to embed, more than {} (limit riv-max-embedded, see --limit)",
                                    limits.riv_max_embedded_bytes
                                ),
                            );
                        }
                        let Some((w, h)) = png_header_size(&png) else {
                            return err(
                                Code::Texture,
                                format!("textures.{id} ('{tname}') is not a PNG"),
                            );
                        };
                        if w > limits.png_max_side || h > limits.png_max_side {
                            return err(
                                Code::Texture,
                                format!(
                                    "textures.{id} is {w}x{h}; the side limit is {}",
                                    limits.png_max_side
                                ),
                            );
                        }
                        // read in full before it is trusted: every row is
                        // decoded (one row of memory), all textures together
                        // within png-max-bytes of RGBA8
                        decoded += w as u64 * h as u64 * 4;
                        if decoded > limits.png_max_bytes {
                            return err(
                                Code::Texture,
                                format!(
                                    "textures.{id}: the textures together decode to {decoded} bytes, more than {} (limit png-max-bytes, see --limit)",
                                    limits.png_max_bytes
                                ),
                            );
                        }
                        re2d::png_io::validate_limited(std::io::Cursor::new(&png), limits)
                            .map_err(|e| {
                                RivError::new(
                                    Code::Texture,
                                    format!("textures.{id} ('{tname}') is not a readable PNG: {e}"),
                                )
                            })?;
                        textures.push(Texture {
                            path: entry.as_str().map(str::to_string),
                            id: Some(id),
                            name: tname,
                            png,
                            width: w,
                            height: h,
                        });
                        Some(textures.len() - 1)
                    }
                }
            }
        };
        parts.push(Part {
            name,
            texture,
            depth,
            verts: verts.chunks(2).map(|c| [c[0], c[1]]).collect(),
            uv: uv.chunks(2).map(|c| [c[0], c[1]]).collect(),
            tris,
            weights,
        });
    }
    Ok((parts, textures))
}

fn parse_clips(v: Option<&Json>, bones: &[Bone], parts: &[String]) -> Result<Vec<Clip>, RivError> {
    let map = match v {
        None | Some(Json::Null) => return Ok(Vec::new()),
        Some(Json::Object(m)) => m,
        Some(_) => return err(Code::Clip, "clips is not an object"),
    };
    let mut clips = Vec::with_capacity(map.len());
    for (name, c) in map {
        let at = format!("clips.{name}");
        let Json::Object(c) = c else {
            return err(Code::Clip, format!("{at} is not an object"));
        };
        let duration = num(
            c.get("duration"),
            f64::NAN,
            Code::Clip,
            &format!("{at}.duration"),
        )?;
        if duration.is_nan() || duration <= 0.0 {
            return err(Code::Clip, format!("{at}.duration must be > 0"));
        }
        let looping = match c.get("loop") {
            None | Some(Json::Null) => false,
            Some(Json::Bool(b)) => *b,
            Some(_) => return err(Code::Clip, format!("{at}.loop is not a bool")),
        };
        let step = match c.get("interpolation") {
            None | Some(Json::Null) => false,
            Some(Json::String(s)) if s == "linear" => false,
            Some(Json::String(s)) if s == "step" => true,
            Some(other) => {
                return err(
                    Code::Clip,
                    format!("{at}.interpolation {other} is not \"linear\" or \"step\""),
                );
            }
        };
        let tracks_map = match c.get("tracks") {
            None | Some(Json::Null) => Map::new(),
            Some(Json::Object(m)) => m.clone(),
            Some(_) => return err(Code::Clip, format!("{at}.tracks is not an object")),
        };
        let mut tracks = Vec::with_capacity(tracks_map.len());
        for (bn, keys) in &tracks_map {
            let Some(bone) = bones.iter().position(|b| &b.name == bn) else {
                return err(Code::Clip, format!("{at}.tracks: unknown bone '{bn}'"));
            };
            let Json::Array(ks) = keys else {
                return err(Code::Clip, format!("{at}.tracks.{bn} is not an array"));
            };
            if ks.is_empty() {
                return err(Code::Clip, format!("{at}.tracks.{bn} has no keys"));
            }
            let mut out: Vec<(f64, f64)> = Vec::with_capacity(ks.len());
            for (i, k) in ks.iter().enumerate() {
                let kw = format!("{at}.tracks.{bn}[{i}]");
                let (t, a) = match k.as_array().map(Vec::as_slice) {
                    Some([t, a]) => (
                        item(t, Code::Clip, &format!("{kw} time"))?,
                        item(a, Code::Clip, &format!("{kw} angle"))?,
                    ),
                    _ => return err(Code::Clip, format!("{kw} is not a [time, angle] pair")),
                };
                if !(0.0..=duration).contains(&t) {
                    return err(
                        Code::Clip,
                        format!("{kw}: time {t} is outside [0, {duration}]"),
                    );
                }
                if out.last().is_some_and(|&(p, _)| t <= p) {
                    return err(Code::Clip, format!("{kw}: time {t} does not increase"));
                }
                out.push((t, a));
            }
            tracks.push(Track { bone, keys: out });
        }
        tracks.sort_by_key(|t| t.bone);
        let translations = parse_translations(c.get("translations"), &at, duration, bones)?;
        let draw_order = super::draworder::parse(c.get("draw_order"), &at, duration, parts)?;
        clips.push(Clip {
            name: name.clone(),
            duration,
            looping,
            step,
            tracks,
            translations,
            draw_order,
        });
    }
    clips.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(clips)
}

/// A clip's `translations`: root bone → `[[t, dx, dy], …]`, validated like
/// `tracks` (times strictly increasing in `[0, duration]`), only on root
/// bones (`E_CLIP` otherwise).
fn parse_translations(
    v: Option<&Json>,
    at: &str,
    duration: f64,
    bones: &[Bone],
) -> Result<Vec<Translation>, RivError> {
    let map = match v {
        None | Some(Json::Null) => return Ok(Vec::new()),
        Some(Json::Object(m)) => m,
        Some(_) => return err(Code::Clip, format!("{at}.translations is not an object")),
    };
    let mut out = Vec::with_capacity(map.len());
    for (bn, keys) in map {
        let Some(bone) = bones.iter().position(|b| &b.name == bn) else {
            return err(
                Code::Clip,
                format!("{at}.translations: unknown bone '{bn}'"),
            );
        };
        if bones[bone].parent.is_some() {
            return err(
                Code::Clip,
                format!(
                    "{at}.translations.{bn}: only a root bone can be translated (a child sits at its parent's tip)"
                ),
            );
        }
        let Json::Array(ks) = keys else {
            return err(
                Code::Clip,
                format!("{at}.translations.{bn} is not an array"),
            );
        };
        if ks.is_empty() {
            return err(Code::Clip, format!("{at}.translations.{bn} has no keys"));
        }
        let mut list: Vec<(f64, f64, f64)> = Vec::with_capacity(ks.len());
        for (i, k) in ks.iter().enumerate() {
            let kw = format!("{at}.translations.{bn}[{i}]");
            let (t, dx, dy) = match k.as_array().map(Vec::as_slice) {
                Some([t, dx, dy]) => (
                    item(t, Code::Clip, &format!("{kw} time"))?,
                    item(dx, Code::Clip, &format!("{kw} dx"))?,
                    item(dy, Code::Clip, &format!("{kw} dy"))?,
                ),
                _ => return err(Code::Clip, format!("{kw} is not a [time, dx, dy] triple")),
            };
            if !(0.0..=duration).contains(&t) {
                return err(
                    Code::Clip,
                    format!("{kw}: time {t} is outside [0, {duration}]"),
                );
            }
            if list.last().is_some_and(|&(p, _, _)| t <= p) {
                return err(Code::Clip, format!("{kw}: time {t} does not increase"));
            }
            list.push((t, dx, dy));
        }
        out.push(Translation { bone, keys: list });
    }
    out.sort_by_key(|t| t.bone);
    Ok(out)
}
