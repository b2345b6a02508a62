//! Stage 1: the skeleton declaration (rig.md §1), parsed and validated.
//!
//! Every rejection is one [`RigError`] naming the bone or field:
//! `E_RIG_JSON` (not JSON, wrong type, missing field), `E_RIG_VERSION`,
//! `E_RIG_LIMIT` (more bones than `rig-max-bones`, image larger than the PNG
//! limits), `E_RIG_DUPLICATE`, `E_RIG_PARENT` (unknown parent),
//! `E_RIG_NAME` (a bone name longer than 64 bytes or with a control
//! character, [`check_name`]), `E_RIG_DUPLICATE` also for two names whose
//! part files would collide,
//! `E_RIG_CYCLE`, `E_RIG_POINTS` (fewer than two points, zero-length bone),
//! `E_RIG_RADIUS` (≤ 0 or non-finite), `E_RIG_NAN` (a non-finite
//! coordinate or depth), `E_RIG_OUTSIDE` (a point outside the image),
//! `E_RIG_BACKGROUND`, `E_RIG_FACING`, `E_RIG_MOCAP` (a mapping naming an
//! unknown bone), `E_RIG_LAYER` (a `layers` map that is not an object of
//! layer name → declared bone name). A bone's optional `"part": false` declares it partless
//! (`E_RIG_JSON` when it is not a boolean); its optional `"bend"` is
//! `"normal"` (the default) or `"reversed"` (its angle relative to its
//! parent is the capture's negated: a quadruped's hock), `E_RIG_BEND` for
//! any other value and for `"reversed"` on a bone without a parent.
//!
//! The declaration is the one skeleton type of the rig: [`crate::motion::bones_of`]
//! gives `motion` its bones, the slicer reads the tubes, `build` the bone tree.

use serde_json::{Map, Value};

use crate::RigError;
use re2d::limits::{Limits, RIG_BYTES_PER_PIXEL, RIG_NAME_MAX_BYTES};

/// What the background is (rig.md §1 `background`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Background {
    /// The most frequent colour of the image border.
    Auto,
    /// An explicit key colour.
    Key([u8; 3]),
    /// The PNG's alpha channel.
    Alpha,
    /// A drawing photographed on paper: the figure found by
    /// [`crate::declare::paper`] (uneven light, a shadow, noise).
    Paper,
}

impl Background {
    /// `auto`, `alpha`, `paper` or a `#rrggbb` key colour (the declaration's `background`
    /// and `rig guess --background`); `None` for anything else.
    pub fn parse(s: &str) -> Option<Background> {
        match s {
            "auto" => Some(Background::Auto),
            "alpha" => Some(Background::Alpha),
            "paper" => Some(Background::Paper),
            s => parse_colour(s).map(Background::Key),
        }
    }
}

/// Which way a bone bends at the joint with its parent, relative to the
/// capture joint driving it (the declaration's optional `"bend"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bend {
    /// `"normal"` (the default): as the capture bends (a knee, an elbow).
    #[default]
    Normal,
    /// `"reversed"`: the bone's angle relative to its parent is the
    /// capture's negated — its target world angle is mirrored about its
    /// parent's, `world' = 2·parent world − world` (a quadruped's hock,
    /// whose hind leg bends the other way from a human knee). Only a long
    /// limb or a trunk piece with a parent is mirrored; on any other bone it
    /// has no effect, with a warning.
    Reversed,
}

/// A declared bone.
#[derive(Clone, Debug, PartialEq)]
pub struct Bone {
    /// Unique name.
    pub name: String,
    /// Declared parent (index into [`Skeleton::bones`]).
    pub parent: Option<usize>,
    /// Polyline, drawing pixels, y down (≥ 2 points).
    pub points: Vec<[f64; 2]>,
    /// Tube half-width per point (> 0).
    pub radii: Vec<f64>,
    /// Smaller is nearer; ties: later declared is nearer.
    pub depth: f64,
    /// The declaration gave `depth` (else 0, or the layer order of a layered drawing).
    pub depth_given: bool,
    /// Capture joint (`mocap` map), if any.
    pub joint: Option<String>,
    /// `"part": false` declares a bone without a part (no image, no mesh, no
    /// warning; it owns no pixel but still moves its children). Default true.
    pub part: bool,
    /// `"bend": "reversed"` mirrors the bone's motion about its parent (its
    /// joint bends the other way from the capture's: a quadruped's hock).
    /// Default [`Bend::Normal`].
    pub bend: Bend,
}

impl Bone {
    /// First point (the pivot).
    pub fn start(&self) -> [f64; 2] {
        self.points[0]
    }

    /// Last point (the tip).
    pub fn end(&self) -> [f64; 2] {
        self.points[self.points.len() - 1]
    }

    /// Length from the first to the last point.
    pub fn length(&self) -> f64 {
        let (a, b) = (self.start(), self.end());
        (b[0] - a[0]).hypot(b[1] - a[1])
    }

    /// World angle from the first to the last point (radians, y down).
    pub fn angle(&self) -> f64 {
        let (a, b) = (self.start(), self.end());
        (b[1] - a[1]).atan2(b[0] - a[0])
    }
}

/// A validated declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct Skeleton {
    /// The drawing's path, relative to the JSON file.
    pub image: String,
    /// Background rule.
    pub background: Background,
    /// Bones in declaration order.
    pub bones: Vec<Bone>,
    /// The drawing faces right (default) or left (for `"front"`: true).
    pub facing_right: bool,
    /// `facing: "front"`: a frontal figure (arms retargeted in the frontal
    /// plane, legs and trunk in the side plane; docs/rig.md "Frontal figures").
    pub facing_front: bool,
    /// The declaration has a `mocap` map: its unmapped bones keep their
    /// drawn pose (no default joint table, rig.md §1).
    pub mocap_given: bool,
    /// `motion_bones`: per motion name, the body part it drives (issue 47;
    /// `--motion NAME=FILE:…:SET` overrides it).
    pub motion_bones: Vec<(String, BodySet)>,
    /// `"draw_order"`: `"capture"` (default: the clips' draw order follows the
    /// capture's depth, issue 42) or `"declared"` (the depths of the declaration
    /// throughout: a character whose limbs are not the capture's, such as a
    /// quadruped walked by a human capture).
    pub order_from_capture: bool,
    /// A layered drawing's `layers` map: layer (or group) name → bone index
    /// (`E_RIG_LAYER` for a value naming no bone).
    pub layers: Vec<(String, usize)>,
}

/// The bones a motion drives (issue 47): a named set or a list of bones.
/// The named sets are resolved from the bones' roles by
/// `motion::layer::resolve`.
#[derive(Clone, Debug, PartialEq)]
pub enum BodySet {
    /// Upper arms, forearms, hands and everything hanging from them.
    Arms,
    /// Thighs, shins, feet, toes and everything hanging from them.
    Legs,
    /// Every bone not in [`BodySet::Lower`].
    Upper,
    /// The legs and the bones between them and the root (a pelvis).
    Lower,
    /// These bones (declared names).
    Bones(Vec<String>),
}

impl BodySet {
    /// Parses `arms`, `legs`, `upper`, `lower` or a comma-separated list of
    /// bone names (`None`: empty or a list with an empty name).
    pub fn parse(s: &str) -> Option<BodySet> {
        Some(match s {
            "arms" => BodySet::Arms,
            "legs" => BodySet::Legs,
            "upper" => BodySet::Upper,
            "lower" => BodySet::Lower,
            _ => {
                let names: Vec<String> = s.split(',').map(|n| n.trim().to_string()).collect();
                if names.iter().any(String::is_empty) {
                    return None;
                }
                BodySet::Bones(names)
            }
        })
    }

    /// The set as written (`arms`, … or the list joined by commas).
    pub fn label(&self) -> String {
        match self {
            BodySet::Arms => "arms".into(),
            BodySet::Legs => "legs".into(),
            BodySet::Upper => "upper".into(),
            BodySet::Lower => "lower".into(),
            BodySet::Bones(b) => b.join(","),
        }
    }
}

/// `motion_bones`: `{"MOTION": "arms" | "legs" | "upper" | "lower" | ["bone", …]}`;
/// every listed bone must be declared.
fn parse_motion_bones(
    v: Option<&Value>,
    names: &[String],
) -> Result<Vec<(String, BodySet)>, RigError> {
    let m = match v {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Object(m)) => m,
        Some(_) => return Err(bad("E_RIG_MOTION", "motion_bones is not an object")),
    };
    let mut out = Vec::with_capacity(m.len());
    for (motion, set) in m {
        let set = match set {
            Value::String(s) if !s.contains(',') => BodySet::parse(s),
            Value::Array(a) => a
                .iter()
                .map(|x| x.as_str().filter(|n| !n.is_empty()).map(str::to_string))
                .collect::<Option<Vec<String>>>()
                .filter(|l| !l.is_empty())
                .map(BodySet::Bones),
            _ => None,
        }
        .ok_or_else(|| {
            bad(
                "E_RIG_MOTION",
                format!(
                    "motion_bones.{motion} is not arms, legs, upper, lower or a non-empty list of bone names"
                ),
            )
        })?;
        if let BodySet::Bones(list) = &set
            && let Some(u) = list.iter().find(|n| !names.contains(n))
        {
            return Err(bad(
                "E_RIG_MOTION",
                format!(
                    "motion_bones.{motion}: no bone '{u}' (the bones: {})",
                    names.join(", ")
                ),
            ));
        }
        out.push((motion.clone(), set));
    }
    Ok(out)
}

fn bad(code: &'static str, msg: impl Into<String>) -> RigError {
    RigError::new(code, msg)
}

fn number(v: &Value, what: &str) -> Result<f64, RigError> {
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.is_finite() => Ok(f),
            _ => Err(bad("E_RIG_NAN", format!("{what} is not a finite number"))),
        },
        Value::Null => Err(bad("E_RIG_NAN", format!("{what} is null (not a number)"))),
        _ => Err(bad("E_RIG_JSON", format!("{what} is not a number"))),
    }
}

/// Parses `#rrggbb`.
pub fn parse_colour(s: &str) -> Option<[u8; 3]> {
    let h = s.strip_prefix('#')?;
    if h.len() != 6 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let c = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).ok();
    Some([c(0)?, c(2)?, c(4)?])
}

impl Skeleton {
    /// Parses and validates the declaration text (without the image: see
    /// [`Skeleton::check_image`]).
    pub fn parse(text: &[u8], limits: &Limits) -> Result<Skeleton, RigError> {
        if text.len() as u64 > limits.json_max_bytes {
            return Err(bad(
                "E_RIG_LIMIT",
                format!(
                    "the declaration is {} bytes, more than json-max-bytes {}",
                    text.len(),
                    limits.json_max_bytes
                ),
            ));
        }
        limits
            .check_json_depth(text)
            .map_err(|e| bad("E_RIG_LIMIT", e.to_string()))?;
        let json: Value = serde_json::from_slice(text)
            .map_err(|e| bad("E_RIG_JSON", format!("not a JSON declaration: {e}")))?;
        let Value::Object(root) = json else {
            return Err(bad("E_RIG_JSON", "the declaration is not a JSON object"));
        };
        match root.get("version") {
            Some(Value::Number(n)) if n.as_f64() == Some(1.0) => {}
            other => {
                return Err(bad(
                    "E_RIG_VERSION",
                    format!(
                        "version must be 1 (got {})",
                        other.map_or("nothing".into(), |v| v.to_string())
                    ),
                ));
            }
        }
        let image = match root.get("image") {
            Some(Value::String(s)) if !s.is_empty() => s.clone(),
            _ => return Err(bad("E_RIG_JSON", "image must be a non-empty path string")),
        };
        let background = match root.get("background") {
            None | Some(Value::Null) => Background::Auto,
            Some(Value::String(s)) => match Background::parse(s) {
                Some(b) => b,
                None => {
                    return Err(bad(
                        "E_RIG_BACKGROUND",
                        format!("background '{s}' is not auto, alpha, paper or #rrggbb"),
                    ));
                }
            },
            Some(v) => {
                return Err(bad(
                    "E_RIG_BACKGROUND",
                    format!("background {v} is not a string"),
                ));
            }
        };
        let (facing_right, facing_front) = match root.get("facing") {
            None | Some(Value::Null) => (true, false),
            Some(Value::String(s)) if s == "right" => (true, false),
            Some(Value::String(s)) if s == "left" => (false, false),
            Some(Value::String(s)) if s == "front" => (true, true),
            Some(v) => {
                return Err(bad(
                    "E_RIG_FACING",
                    format!("facing {v} is not \"right\", \"left\" or \"front\""),
                ));
            }
        };
        let order_from_capture = match root.get("draw_order") {
            None | Some(Value::Null) => true,
            Some(Value::String(s)) if s == "capture" => true,
            Some(Value::String(s)) if s == "declared" => false,
            Some(v) => {
                return Err(bad(
                    "E_RIG_JSON",
                    format!("draw_order {v} is not \"capture\" or \"declared\""),
                ));
            }
        };
        let Some(Value::Array(list)) = root.get("bones") else {
            return Err(bad("E_RIG_JSON", "bones must be an array"));
        };
        if list.is_empty() {
            return Err(bad("E_RIG_JSON", "bones is empty"));
        }
        if list.len() > limits.rig_max_bones as usize {
            return Err(bad(
                "E_RIG_LIMIT",
                format!(
                    "{} bones, more than rig-max-bones {}",
                    list.len(),
                    limits.rig_max_bones
                ),
            ));
        }
        let mut names: Vec<String> = Vec::with_capacity(list.len());
        let mut objs: Vec<&Map<String, Value>> = Vec::with_capacity(list.len());
        for (i, b) in list.iter().enumerate() {
            let Value::Object(o) = b else {
                return Err(bad("E_RIG_JSON", format!("bones[{i}] is not an object")));
            };
            let name = match o.get("name") {
                Some(Value::String(s)) if !s.is_empty() => s.clone(),
                _ => {
                    return Err(bad(
                        "E_RIG_JSON",
                        format!("bones[{i}] has no name (a non-empty string)"),
                    ));
                }
            };
            if names.contains(&name) {
                return Err(bad(
                    "E_RIG_DUPLICATE",
                    format!("bone '{name}' is declared twice"),
                ));
            }
            check_name(i, &name, &names)?;
            names.push(name);
            objs.push(o);
        }
        let mut bones = Vec::with_capacity(list.len());
        for (o, name) in objs.iter().zip(&names) {
            bones.push(parse_bone(o, name, &names)?);
        }
        check_cycles(&bones)?;
        let mocap_given = root.get("mocap").is_some_and(|m| !m.is_null());
        if let Some(m) = root.get("mocap").filter(|m| !m.is_null()) {
            let Value::Object(m) = m else {
                return Err(bad("E_RIG_MOCAP", "mocap is not an object"));
            };
            for (bone, joint) in m {
                let Some(k) = names.iter().position(|n| n == bone) else {
                    return Err(bad(
                        "E_RIG_MOCAP",
                        format!("mocap maps the unknown bone '{bone}'"),
                    ));
                };
                let Value::String(j) = joint else {
                    return Err(bad(
                        "E_RIG_MOCAP",
                        format!("mocap.{bone} is not a joint name string"),
                    ));
                };
                bones[k].joint = Some(j.clone());
            }
        }
        let motion_bones = parse_motion_bones(root.get("motion_bones"), &names)?;
        let mut layers = Vec::new();
        if let Some(m) = root.get("layers").filter(|m| !m.is_null()) {
            let Value::Object(m) = m else {
                return Err(bad(
                    "E_RIG_LAYER",
                    "layers is not an object (layer name -> bone name)",
                ));
            };
            for (layer, bone) in m {
                let Value::String(bone) = bone else {
                    return Err(bad(
                        "E_RIG_LAYER",
                        format!("layers.{layer} is not a bone name string"),
                    ));
                };
                let Some(k) = names.iter().position(|n| n == bone) else {
                    return Err(bad(
                        "E_RIG_LAYER",
                        format!("layers maps '{layer}' to the unknown bone '{bone}'"),
                    ));
                };
                layers.push((layer.clone(), k));
            }
        }
        Ok(Skeleton {
            image,
            background,
            bones,
            facing_right,
            facing_front,
            mocap_given,
            motion_bones,
            order_from_capture,
            layers,
        })
    }

    /// Checks the drawing's size against the limits and every point against
    /// the image rectangle `[0, w] × [0, h]`.
    pub fn check_image(&self, w: u32, h: u32, limits: &Limits) -> Result<(), RigError> {
        limits
            .check_image(w, h, 4)
            .map_err(|e| bad("E_RIG_LIMIT", e.to_string()))?;
        let px = w as u64 * h as u64;
        if px > limits.rig_max_pixels {
            return Err(bad(
                "E_RIG_LIMIT",
                format!(
                    "the {w}x{h} drawing has {px} pixels, more than {} (limit rig-max-pixels, see --limit; the rig holds about {RIG_BYTES_PER_PIXEL} bytes per pixel)",
                    limits.rig_max_pixels
                ),
            ));
        }
        for b in &self.bones {
            for (i, p) in b.points.iter().enumerate() {
                if p[0] < 0.0 || p[1] < 0.0 || p[0] > w as f64 || p[1] > h as f64 {
                    return Err(bad(
                        "E_RIG_OUTSIDE",
                        format!(
                            "bone '{}' point {i} ({}, {}) is outside the {w}x{h} image",
                            b.name, p[0], p[1]
                        ),
                    ));
                }
            }
        }
        self.check_tube_work(w, h, limits)
    }

    /// The tube work on a `w × h` drawing (sum over the bones of segments ×
    /// pixels of the tube's box: slicing tests every box pixel against every
    /// segment) against `rig-max-tube-work`, before any pixel is touched.
    pub fn check_tube_work(&self, w: u32, h: u32, limits: &Limits) -> Result<(), RigError> {
        let mut work = 0u64;
        for b in &self.bones {
            let [x0, y0, x1, y1] = tube_box(b, w as usize, h as usize);
            let area = (x1 - x0) as u64 * (y1 - y0) as u64;
            work = work.saturating_add(area.saturating_mul(b.points.len() as u64 - 1));
            if work > limits.rig_max_tube_work {
                return Err(bad(
                    "E_RIG_LIMIT",
                    format!(
                        "bone '{}': the tubes need {work} segment-pixel tests or more, more than {} (limit rig-max-tube-work, see --limit): use fewer points or a smaller radius",
                        b.name, limits.rig_max_tube_work
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Index of a bone by name.
    pub fn index(&self, name: &str) -> Option<usize> {
        self.bones.iter().position(|b| b.name == name)
    }

    /// Bone indices, parents before children (declaration order among
    /// siblings).
    pub fn parents_first(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.bones.len());
        let mut placed = vec![false; self.bones.len()];
        while out.len() < self.bones.len() {
            for (i, b) in self.bones.iter().enumerate() {
                if !placed[i] && b.parent.is_none_or(|p| placed[p]) {
                    placed[i] = true;
                    out.push(i);
                }
            }
        }
        out
    }

    /// Draw rank per bone: 0 = farthest. Larger depth is farther; equal
    /// depths: earlier declared is farther.
    pub fn far_to_near(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.bones.len()).collect();
        order.sort_by(|&a, &b| {
            self.bones[b]
                .depth
                .total_cmp(&self.bones[a].depth)
                .then(a.cmp(&b))
        });
        order
    }

    /// Per bone its place in the drawing order from the front: 0 = the
    /// nearest (the reverse of [`Skeleton::far_to_near`]).
    pub fn near_rank(&self) -> Vec<usize> {
        let mut rank = vec![0usize; self.bones.len()];
        for (r, &k) in self.far_to_near().iter().rev().enumerate() {
            rank[k] = r;
        }
        rank
    }
}

fn parse_bone(o: &Map<String, Value>, name: &str, names: &[String]) -> Result<Bone, RigError> {
    let Some(Value::Array(pts)) = o.get("points") else {
        return Err(bad(
            "E_RIG_POINTS",
            format!("bone '{name}' has no points array"),
        ));
    };
    if pts.len() < 2 {
        return Err(bad(
            "E_RIG_POINTS",
            format!(
                "bone '{name}' has {} point(s); a bone needs at least 2",
                pts.len()
            ),
        ));
    }
    let mut points = Vec::with_capacity(pts.len());
    for (i, p) in pts.iter().enumerate() {
        let Value::Array(xy) = p else {
            return Err(bad(
                "E_RIG_JSON",
                format!("bone '{name}' point {i} is not [x, y]"),
            ));
        };
        if xy.len() != 2 {
            return Err(bad(
                "E_RIG_JSON",
                format!("bone '{name}' point {i} is not [x, y]"),
            ));
        }
        let what = format!("bone '{name}' point {i}");
        points.push([number(&xy[0], &what)?, number(&xy[1], &what)?]);
    }
    let (a, b) = (points[0], points[points.len() - 1]);
    if (b[0] - a[0]).hypot(b[1] - a[1]) < 1e-9 {
        return Err(bad(
            "E_RIG_POINTS",
            format!("bone '{name}' has zero length (first point == last point)"),
        ));
    }
    let radii = match o.get("radius") {
        Some(Value::Array(rs)) => {
            if rs.len() != points.len() {
                return Err(bad(
                    "E_RIG_RADIUS",
                    format!(
                        "bone '{name}' has {} radii for {} points",
                        rs.len(),
                        points.len()
                    ),
                ));
            }
            rs.iter()
                .enumerate()
                .map(|(i, r)| radius(r, name, Some(i)))
                .collect::<Result<Vec<f64>, RigError>>()?
        }
        Some(r) => vec![radius(r, name, None)?; points.len()],
        None => {
            return Err(bad("E_RIG_RADIUS", format!("bone '{name}' has no radius")));
        }
    };
    let parent = match o.get("parent") {
        None | Some(Value::Null) => None,
        Some(Value::String(p)) => match names.iter().position(|n| n == p) {
            Some(k) => Some(k),
            None => {
                return Err(bad(
                    "E_RIG_PARENT",
                    format!("bone '{name}' has the unknown parent '{p}'"),
                ));
            }
        },
        Some(_) => {
            return Err(bad(
                "E_RIG_JSON",
                format!("bone '{name}' parent is not a string"),
            ));
        }
    };
    let depth = match o.get("depth") {
        None => 0.0,
        Some(v) => number(v, &format!("bone '{name}' depth"))?,
    };
    let part = match o.get("part") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            return Err(bad(
                "E_RIG_JSON",
                format!("bone '{name}' part is not true or false"),
            ));
        }
    };
    let bend = match o.get("bend") {
        None | Some(Value::Null) => Bend::Normal,
        Some(Value::String(s)) if s == "normal" => Bend::Normal,
        Some(Value::String(s)) if s == "reversed" => {
            if parent.is_none() {
                return Err(bad(
                    "E_RIG_BEND",
                    format!("bone '{name}' has \"bend\": \"reversed\" but no parent to bend from"),
                ));
            }
            Bend::Reversed
        }
        Some(v) => {
            return Err(bad(
                "E_RIG_BEND",
                format!("bone '{name}' bend {v} is not \"normal\" or \"reversed\""),
            ));
        }
    };
    Ok(Bone {
        name: name.to_string(),
        parent,
        points,
        radii,
        depth,
        depth_given: o.get("depth").is_some(),
        joint: None,
        part,
        bend,
    })
}

fn radius(v: &Value, name: &str, i: Option<usize>) -> Result<f64, RigError> {
    let what = match i {
        Some(i) => format!("bone '{name}' radius {i}"),
        None => format!("bone '{name}' radius"),
    };
    let r = match v {
        Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
        Value::Null => f64::NAN,
        _ => return Err(bad("E_RIG_JSON", format!("{what} is not a number"))),
    };
    if !r.is_finite() || r <= 0.0 {
        return Err(bad(
            "E_RIG_RADIUS",
            format!("{what} is {r}; a radius must be finite and > 0"),
        ));
    }
    Ok(r)
}

/// Checks a bone name when the declaration is parsed, before any work: at
/// most [`RIG_NAME_MAX_BYTES`] bytes (`E_RIG_NAME`; the name is repeated in
/// every weight of the model and in a file name), no control character
/// (`E_RIG_NAME`: reports and errors are one line), and a part file name
/// ([`png_name`]) that no earlier bone already has, compared
/// without case so the folder also holds on a case-insensitive file system
/// (`E_RIG_DUPLICATE`: `x.y` and `x_y` would both be `part_x_y.png`).
pub fn check_name(i: usize, name: &str, earlier: &[String]) -> Result<(), RigError> {
    if name.len() > RIG_NAME_MAX_BYTES {
        let head: String = name.chars().take(16).collect();
        return Err(bad(
            "E_RIG_NAME",
            format!(
                "bones[{i}] name '{head}…' is {} bytes, longer than {RIG_NAME_MAX_BYTES}",
                name.len()
            ),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(bad(
            "E_RIG_NAME",
            format!(
                "bones[{i}] name '{}' has a control character",
                name.escape_debug()
            ),
        ));
    }
    let file = png_name(name).to_lowercase();
    if let Some(other) = earlier.iter().find(|n| png_name(n).to_lowercase() == file) {
        return Err(bad(
            "E_RIG_DUPLICATE",
            format!(
                "bones '{other}' and '{name}' would both be written as {} (names differing only in case or in characters other than letters, digits, '_' and '-' collide; rename one)",
                png_name(name)
            ),
        ));
    }
    Ok(())
}

fn check_cycles(bones: &[Bone]) -> Result<(), RigError> {
    for (i, b) in bones.iter().enumerate() {
        let mut p = b.parent;
        let mut steps = 0;
        while let Some(q) = p {
            if q == i || steps > bones.len() {
                return Err(bad(
                    "E_RIG_CYCLE",
                    format!("bone '{}' is its own ancestor (a parent cycle)", b.name),
                ));
            }
            p = bones[q].parent;
            steps += 1;
        }
    }
    Ok(())
}
/// A tube's pixel bounding box `[x0, y0, x1, y1)` clipped to `w × h`.
pub fn tube_box(b: &Bone, w: usize, h: usize) -> [usize; 4] {
    let r = b.radii.iter().copied().fold(0.0, f64::max);
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for p in &b.points {
        x0 = x0.min(p[0] - r);
        y0 = y0.min(p[1] - r);
        x1 = x1.max(p[0] + r);
        y1 = y1.max(p[1] + r);
    }
    let c = |v: f64, m: usize| (v.floor().max(0.0) as usize).min(m);
    [
        c(x0 - 1.0, w),
        c(y0 - 1.0, h),
        c(x1 + 1.0, w),
        c(y1 + 1.0, h),
    ]
}

/// The PNG file name of a part: `part_<name>.png` with every character but
/// letters and digits (any script), `_` and `-` replaced by `_`. Two bones
/// whose file names would collide are refused when the declaration is
/// parsed ([`check_name`]).
pub fn png_name(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("part_{safe}.png")
}
