// re2d surface compiler — typed surface model and the default-mode structural pass (spec: surface-compiler.md §5).
//! [`Surface`] is the validated form of a surface JSON file. [`Surface::from_json`]
//! implements every structural rule of §5 (types, rect, grid, sections,
//! matrix, colour, segment rules, number typing); per-cell rules (anchor, id
//! range, overlap, finiteness, range) are checked while cells are generated
//! (§6.4), so a [`Surface`] built by hand through the Rust API may hold any
//! values. [`Surface::to_json`] writes a document that parses back to the same
//! surface.

use super::encode::Profile;
use super::error::{Code, CompileError, err};
use super::json::Value;

/// Default patch colour (§5.2).
pub const DEFAULT_COLOR: [u8; 3] = [150, 170, 160];
/// Identity matrix (§5.2).
pub const IDENTITY: [f64; 12] = [1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0.];

/// One `samples` row: anchor, id and final coordinates (§5.3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Canonical anchor column.
    pub u: i64,
    /// Canonical anchor row.
    pub v: i64,
    /// Part id.
    pub id: i64,
    /// X, Y, Z.
    pub xyz: [f64; 3],
}

/// A rectangle `[x, y, w, h]` in canonical texels (§5.4).
pub type Rect = [i64; 4];

/// Patch geometry.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// §5.3
    Samples(Vec<Sample>),
    /// §5.4: `points[row][col]`.
    Grid {
        /// Part id.
        id: i64,
        /// Sampled rectangle.
        rect: Rect,
        /// Control points, rows along v.
        points: Vec<Vec<[f64; 3]>>,
        /// Affine 3×4, row-major.
        matrix: [f64; 12],
    },
    /// §5.5: `[v, rx, front, back, cx, cy, cz, offset]` rows.
    Loft {
        /// Part id.
        id: i64,
        /// Sampled rectangle.
        rect: Rect,
        /// Sections.
        sections: Vec<[f64; 8]>,
        /// Affine 3×4, row-major.
        matrix: [f64; 12],
    },
}

/// A patch: geometry plus colour.
#[derive(Clone, Debug, PartialEq)]
pub struct Patch {
    /// Geometry.
    pub shape: Shape,
    /// Colour used without a material.
    pub color: [u8; 3],
}

/// A segmentation rule (§5.7).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rule {
    /// Source part id.
    pub id: u8,
    /// 0 = x, 1 = y, 2 = z.
    pub axis: usize,
    /// Threshold `T`.
    pub greater_than: f64,
    /// Target part id.
    pub assign: u8,
    /// Band width; `None` = use `--segment-width`, else 0.
    pub width: Option<f64>,
    /// Weight profile.
    pub profile: Profile,
}

/// A validated surface.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Surface {
    /// Patches in file order.
    pub patches: Vec<Patch>,
    /// Segmentation rules (empty when absent).
    pub segments: Vec<Rule>,
}

fn is_int_in(v: &Value, lo: f64, hi: f64) -> Option<i64> {
    match v.as_int() {
        Some(x) if x >= lo && x <= hi => Some(x as i64),
        _ => None,
    }
}

fn parse_color(p: &Value, at: &str) -> Result<[u8; 3], CompileError> {
    let Some(c) = p.get("color") else {
        return Ok(DEFAULT_COLOR);
    };
    let bad = || {
        err(
            Code::Color,
            format!("{at}.color"),
            "must be 3 integers 0..255",
        )
    };
    let Some(a) = c.as_arr() else { return bad() };
    if a.len() != 3 {
        return bad();
    }
    let mut out = [0u8; 3];
    for (o, e) in out.iter_mut().zip(a) {
        match is_int_in(e, 0.0, 255.0) {
            Some(x) => *o = x as u8,
            None => return bad(),
        }
    }
    Ok(out)
}

fn parse_matrix(p: &Value, at: &str) -> Result<[f64; 12], CompileError> {
    let Some(m) = p.get("matrix") else {
        return Ok(IDENTITY);
    };
    let bad = || {
        err(
            Code::Matrix,
            format!("{at}.matrix"),
            "must be 12 finite numbers",
        )
    };
    let Some(a) = m.as_arr() else { return bad() };
    if a.len() != 12 {
        return bad();
    }
    let mut out = [0.0; 12];
    for (o, e) in out.iter_mut().zip(a) {
        match e.as_num() {
            Some(x) if x.is_finite() => *o = x,
            _ => return bad(),
        }
    }
    Ok(out)
}

fn parse_rect(p: &Value, at: &str) -> Result<Rect, CompileError> {
    let at = format!("{at}.rect");
    let Some(a) = p.get("rect").and_then(Value::as_arr) else {
        return err(Code::Rect, at, "must be an array of 4 integers");
    };
    if a.len() != 4 {
        return err(Code::Rect, at, "must be an array of 4 integers");
    }
    let mut r = [0i64; 4];
    for (o, e) in r.iter_mut().zip(a) {
        match e.as_int() {
            Some(x) if x.abs() < 1e15 => *o = x as i64,
            _ => return err(Code::Rect, at, "must be an array of 4 integers"),
        }
    }
    let [x, y, w, h] = r;
    if r.iter().any(|v| v % 4 != 0) {
        return err(Code::Rect, at, "values must be multiples of 4");
    }
    if w < 4 || h < 4 {
        return err(Code::Rect, at, "w and h must be at least 4");
    }
    if x < 0 || y < 0 || x + w > 1024 || y + h > 768 {
        return err(
            Code::Rect,
            at,
            format!("[{x},{y},{w},{h}] outside the material area 1024x768"),
        );
    }
    Ok(r)
}

fn parse_patch_id(p: &Value, at: &str) -> Result<i64, CompileError> {
    match p.get("id").and_then(Value::as_int) {
        Some(x) => exact_int(x, Code::Id, &format!("{at}.id")),
        None => err(
            Code::Id,
            format!("{at}.id"),
            match p.get("id") {
                Some(Value::Num { v, .. }) => {
                    format!("must be an integer 1..254 (got {})", fmt_num(*v))
                }
                Some(v) => format!("must be an integer 1..254 (got {})", v.kind()),
                None => "must be an integer 1..254".to_string(),
            },
        ),
    }
}

/// A number as JSON would write it back: integers below 1e15 in full,
/// anything else in exponent form (`1e30`, `-2.5e-7`), so messages show the
/// value that was written instead of a saturated one.
pub fn fmt_num(x: f64) -> String {
    if x.is_finite() && x == x.trunc() && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else if x.is_finite() && x.abs() >= 1e-6 && x.abs() < 1e15 {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// An integer literal as `i64`; one too large to be any coordinate or id
/// (|x| >= 1e15) is an error at its JSON path naming the value as written.
fn exact_int(x: f64, code: Code, at: &str) -> Result<i64, CompileError> {
    if x.abs() < 1e15 {
        Ok(x as i64)
    } else {
        err(
            code,
            at.to_string(),
            format!("{} is out of range", fmt_num(x)),
        )
    }
}

fn parse_points(p: &Value, at: &str) -> Result<Vec<Vec<[f64; 3]>>, CompileError> {
    let at = format!("{at}.points");
    let shape = |msg: &str| err(Code::Grid, at.clone(), msg.to_string());
    let Some(rows) = p.get("points").and_then(Value::as_arr) else {
        return shape("must be an array of rows");
    };
    if rows.len() < 2 {
        return shape("needs at least 2 rows");
    }
    let mut out = Vec::with_capacity(rows.len());
    let mut cols = 0;
    for (r, row) in rows.iter().enumerate() {
        let Some(row) = row.as_arr() else {
            return shape(&format!("row {r} is not an array"));
        };
        if r == 0 {
            cols = row.len();
            if cols < 2 {
                return shape("needs at least 2 columns");
            }
        } else if row.len() != cols {
            return shape(&format!(
                "row {r} has {} points, row 0 has {cols}",
                row.len()
            ));
        }
        let mut prow = Vec::with_capacity(cols);
        for (c, pt) in row.iter().enumerate() {
            let bad = || err(Code::Grid, format!("{at}[{r}][{c}]"), "must be 3 numbers");
            let Some(pt) = pt.as_arr() else { return bad() };
            if pt.len() != 3 {
                return bad();
            }
            let mut q = [0.0; 3];
            for (o, e) in q.iter_mut().zip(pt) {
                *o = match e.as_num() {
                    Some(x) => x,
                    None => return bad(),
                };
            }
            if q.iter().any(|x| !x.is_finite()) {
                return err(
                    Code::NonFinite,
                    format!("{at}[{r}][{c}]"),
                    "point is not finite",
                );
            }
            prow.push(q);
        }
        out.push(prow);
    }
    Ok(out)
}

fn parse_sections(p: &Value, at: &str) -> Result<Vec<[f64; 8]>, CompileError> {
    let at = format!("{at}.sections");
    let Some(rows) = p.get("sections").and_then(Value::as_arr) else {
        return err(Code::Sections, at, "must be an array of rows");
    };
    if rows.len() < 2 {
        return err(Code::Sections, at, "needs at least 2 rows");
    }
    let mut out: Vec<[f64; 8]> = Vec::with_capacity(rows.len());
    for (r, row) in rows.iter().enumerate() {
        let rat = format!("{at}[{r}]");
        let Some(row) = row.as_arr().filter(|a| a.len() == 8) else {
            return err(Code::Sections, rat, "must be 8 numbers");
        };
        let mut s = [0.0; 8];
        for (o, e) in s.iter_mut().zip(row) {
            *o = match e.as_num() {
                Some(x) => x,
                None => return err(Code::Sections, rat, "must be 8 numbers"),
            };
        }
        if s.iter().any(|x| !x.is_finite()) {
            return err(Code::NonFinite, rat, "section value is not finite");
        }
        if out.last().is_some_and(|prev| s[0] <= prev[0]) {
            return err(Code::Sections, rat, "v must be strictly increasing");
        }
        out.push(s);
    }
    Ok(out)
}

fn parse_samples(p: &Value, at: &str) -> Result<Vec<Sample>, CompileError> {
    let Some(rows) = p.get("samples").and_then(Value::as_arr) else {
        return err(
            Code::Sample,
            format!("{at}.samples"),
            "must be an array of rows",
        );
    };
    let mut out = Vec::with_capacity(rows.len());
    for (r, row) in rows.iter().enumerate() {
        let bad = || {
            err(
                Code::Sample,
                format!("{at}.samples[{r}]"),
                "must be [int, int, int, number, number, number]",
            )
        };
        let Some(a) = row.as_arr().filter(|a| a.len() == 6) else {
            return bad();
        };
        let (Some(u), Some(v), Some(id)) = (a[0].as_int(), a[1].as_int(), a[2].as_int()) else {
            return bad();
        };
        let at_r = format!("{at}.samples[{r}]");
        let code = |i: usize| if i == 2 { Code::Id } else { Code::Uv };
        let u = exact_int(u, code(0), &format!("{at_r}[0]"))?;
        let v = exact_int(v, code(1), &format!("{at_r}[1]"))?;
        let id = exact_int(id, code(2), &format!("{at_r}[2]"))?;
        let (Some(x), Some(y), Some(z)) = (a[3].as_num(), a[4].as_num(), a[5].as_num()) else {
            return bad();
        };
        out.push(Sample {
            u,
            v,
            id,
            xyz: [x, y, z],
        });
    }
    Ok(out)
}

fn parse_rule(r: &Value, at: &str) -> Result<Rule, CompileError> {
    let bad = |what: &str| err(Code::Segment, at.to_string(), what.to_string());
    if !matches!(r, Value::Obj(_)) {
        return bad("rule must be an object");
    }
    let Some(id) = r.get("id").and_then(|v| is_int_in(v, 1.0, 254.0)) else {
        return bad("id must be an integer 1..254");
    };
    let axis = match r.get("axis") {
        Some(Value::Str(s)) if s == "x" => 0,
        Some(Value::Str(s)) if s == "y" => 1,
        Some(Value::Str(s)) if s == "z" => 2,
        _ => return bad("axis must be \"x\", \"y\" or \"z\""),
    };
    let Some(gt) = r
        .get("greaterThan")
        .and_then(Value::as_num)
        .filter(|x| x.is_finite())
    else {
        return bad("greaterThan must be a finite number");
    };
    let Some(assign) = r.get("assign").and_then(|v| is_int_in(v, 1.0, 254.0)) else {
        return bad("assign must be an integer 1..254");
    };
    let width = match r.get("width") {
        None => None,
        Some(v) => match v.as_num() {
            Some(w) if w.is_finite() && w >= 0.0 => Some(w),
            _ => return bad("width must be a finite number >= 0"),
        },
    };
    let profile = match r.get("profile") {
        None => Profile::Linear,
        Some(Value::Str(s)) if s == "linear" => Profile::Linear,
        Some(Value::Str(s)) if s == "smoothstep" => Profile::Smoothstep,
        _ => return bad("profile must be \"linear\" or \"smoothstep\""),
    };
    Ok(Rule {
        id: id as u8,
        axis,
        greater_than: gt,
        assign: assign as u8,
        width,
        profile,
    })
}

impl Surface {
    /// The default-mode structural pass (§5): validates `doc` and returns the
    /// typed surface. Per-cell rules are left to cell generation.
    pub fn from_json(doc: &Value) -> Result<Surface, CompileError> {
        Self::from_json_warn(doc, &mut Vec::new())
    }

    /// [`Surface::from_json`], also collecting `W_UNKNOWN_KEY` /
    /// `W_IGNORED_MATRIX` warnings (§5.1, §5.2: unknown keys are ignored and
    /// MAY be warned about).
    pub fn from_json_warn(
        doc: &Value,
        warnings: &mut Vec<String>,
    ) -> Result<Surface, CompileError> {
        if !matches!(doc, Value::Obj(_)) {
            return err(Code::Json, "$", "top level must be an object");
        }
        match doc.get("version") {
            Some(Value::Num { v, int: true }) if *v == 1.0 => {}
            _ => return err(Code::Version, "version", "must be the integer 1"),
        }
        let Some(patches) = doc.get("patches").and_then(Value::as_arr) else {
            return err(Code::Version, "patches", "must be an array");
        };
        warn_unknown(doc, "", &["version", "patches", "segments"], warnings);
        let mut out = Surface::default();
        for (i, p) in patches.iter().enumerate() {
            let at = format!("patches[{i}]");
            let ty = match p.get("type") {
                Some(Value::Str(s)) if matches!(s.as_str(), "samples" | "grid" | "loft") => {
                    s.as_str()
                }
                _ => {
                    return err(
                        Code::PatchType,
                        format!("{at}.type"),
                        "must be \"samples\", \"grid\" or \"loft\"",
                    );
                }
            };
            let color = parse_color(p, &at)?;
            let known: &[&str] = match ty {
                "samples" => &["type", "color", "samples", "matrix"],
                "grid" => &["type", "color", "id", "rect", "matrix", "points"],
                _ => &["type", "color", "id", "rect", "matrix", "sections"],
            };
            warn_unknown(p, &format!("{at}."), known, warnings);
            if ty == "samples" && p.get("matrix").is_some() {
                warnings.push(format!(
                    "W_IGNORED_MATRIX: {at}.matrix is not applied to samples"
                ));
            }
            let shape = match ty {
                "samples" => Shape::Samples(parse_samples(p, &at)?),
                "grid" => {
                    let rect = parse_rect(p, &at)?;
                    let id = parse_patch_id(p, &at)?;
                    let matrix = parse_matrix(p, &at)?;
                    let points = parse_points(p, &at)?;
                    Shape::Grid {
                        id,
                        rect,
                        points,
                        matrix,
                    }
                }
                _ => {
                    let rect = parse_rect(p, &at)?;
                    let id = parse_patch_id(p, &at)?;
                    let matrix = parse_matrix(p, &at)?;
                    let sections = parse_sections(p, &at)?;
                    Shape::Loft {
                        id,
                        rect,
                        sections,
                        matrix,
                    }
                }
            };
            out.patches.push(Patch { shape, color });
        }
        if let Some(segs) = doc.get("segments") {
            let Some(rules) = segs.as_arr() else {
                return err(Code::Segment, "segments", "must be an array of rules");
            };
            for (i, r) in rules.iter().enumerate() {
                let at = format!("segments[{i}]");
                out.segments.push(parse_rule(r, &at)?);
                let known = ["id", "axis", "greaterThan", "assign", "width", "profile"];
                warn_unknown(r, &format!("{at}."), &known, warnings);
            }
        }
        Ok(out)
    }

    /// Structural checks for a surface built through the Rust API (the same
    /// rules [`Surface::from_json`] enforces on JSON, minus number typing), so
    /// that compiling any value is an error rather than a panic.
    pub fn check(&self) -> Result<(), CompileError> {
        for (i, p) in self.patches.iter().enumerate() {
            let at = format!("patches[{i}]");
            let (rect, matrix) = match &p.shape {
                Shape::Samples(_) => continue,
                Shape::Grid {
                    rect,
                    matrix,
                    points,
                    ..
                } => {
                    let cols = points.first().map_or(0, Vec::len);
                    if points.len() < 2 || cols < 2 || points.iter().any(|r| r.len() != cols) {
                        return err(
                            Code::Grid,
                            format!("{at}.points"),
                            "must be a rectangular grid of at least 2x2 points",
                        );
                    }
                    if points.iter().flatten().flatten().any(|x| !x.is_finite()) {
                        return err(
                            Code::NonFinite,
                            format!("{at}.points"),
                            "point is not finite",
                        );
                    }
                    (rect, matrix)
                }
                Shape::Loft {
                    rect,
                    matrix,
                    sections,
                    ..
                } => {
                    if sections.len() < 2
                        || sections
                            .windows(2)
                            .any(|w| w[0][0] >= w[1][0] || w[0][0].is_nan())
                    {
                        return err(
                            Code::Sections,
                            format!("{at}.sections"),
                            "needs 2 rows with v strictly increasing",
                        );
                    }
                    if sections.iter().flatten().any(|x| !x.is_finite()) {
                        return err(
                            Code::NonFinite,
                            format!("{at}.sections"),
                            "section value is not finite",
                        );
                    }
                    (rect, matrix)
                }
            };
            let [x, y, w, h] = *rect;
            if rect.iter().any(|v| v % 4 != 0)
                || w < 4
                || h < 4
                || x < 0
                || y < 0
                || x > 1024
                || y > 768
                || w > 1024 - x
                || h > 768 - y
            {
                return err(Code::Rect, format!("{at}.rect"), "bad rect");
            }
            if matrix.iter().any(|x| !x.is_finite()) {
                return err(
                    Code::Matrix,
                    format!("{at}.matrix"),
                    "must be 12 finite numbers",
                );
            }
        }
        for (i, r) in self.segments.iter().enumerate() {
            let ok = (1..=254).contains(&r.id)
                && (1..=254).contains(&r.assign)
                && r.axis < 3
                && r.greater_than.is_finite()
                && r.width.is_none_or(|w| w.is_finite() && w >= 0.0);
            if !ok {
                return err(Code::Segment, format!("segments[{i}]"), "bad segment rule");
            }
        }
        Ok(())
    }

    /// Serialise as surface JSON (§5). Finite numbers only; integral fields
    /// are written as integer literals.
    pub fn to_json(&self) -> String {
        let mut s = String::from("{\"version\":1,\"patches\":[");
        for (i, p) in self.patches.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push('{');
            match &p.shape {
                Shape::Samples(rows) => {
                    s.push_str("\"type\":\"samples\",\"samples\":[");
                    for (j, r) in rows.iter().enumerate() {
                        if j > 0 {
                            s.push(',');
                        }
                        s.push_str(&format!(
                            "[{},{},{},{},{},{}]",
                            r.u,
                            r.v,
                            r.id,
                            num(r.xyz[0]),
                            num(r.xyz[1]),
                            num(r.xyz[2])
                        ));
                    }
                    s.push(']');
                }
                Shape::Grid {
                    id,
                    rect,
                    points,
                    matrix,
                } => {
                    s.push_str(&format!(
                        "\"type\":\"grid\",\"id\":{id},\"rect\":{},",
                        rect_json(rect)
                    ));
                    s.push_str(&format!("\"matrix\":{},\"points\":[", nums(matrix)));
                    for (j, row) in points.iter().enumerate() {
                        if j > 0 {
                            s.push(',');
                        }
                        s.push('[');
                        for (k, pt) in row.iter().enumerate() {
                            if k > 0 {
                                s.push(',');
                            }
                            s.push_str(&nums(pt));
                        }
                        s.push(']');
                    }
                    s.push(']');
                }
                Shape::Loft {
                    id,
                    rect,
                    sections,
                    matrix,
                } => {
                    s.push_str(&format!(
                        "\"type\":\"loft\",\"id\":{id},\"rect\":{},",
                        rect_json(rect)
                    ));
                    s.push_str(&format!("\"matrix\":{},\"sections\":[", nums(matrix)));
                    for (j, row) in sections.iter().enumerate() {
                        if j > 0 {
                            s.push(',');
                        }
                        s.push_str(&nums(row));
                    }
                    s.push(']');
                }
            }
            s.push_str(&format!(
                ",\"color\":[{},{},{}]}}",
                p.color[0], p.color[1], p.color[2]
            ));
        }
        s.push_str("],\"segments\":[");
        for (i, r) in self.segments.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str(&format!(
                "{{\"id\":{},\"axis\":\"{}\",\"greaterThan\":{},\"assign\":{}",
                r.id,
                ["x", "y", "z"][r.axis.min(2)],
                num(r.greater_than),
                r.assign
            ));
            if let Some(w) = r.width {
                s.push_str(&format!(",\"width\":{}", num(w)));
            }
            if r.profile == Profile::Smoothstep {
                s.push_str(",\"profile\":\"smoothstep\"");
            }
            s.push('}');
        }
        s.push_str("]}");
        s
    }
}

fn warn_unknown(obj: &Value, prefix: &str, known: &[&str], warnings: &mut Vec<String>) {
    if let Value::Obj(m) = obj {
        for (k, _) in m {
            if !known.contains(&k.as_str()) {
                warnings.push(format!("W_UNKNOWN_KEY: {prefix}{k:?} is ignored"));
            }
        }
    }
}

/// A finite number as a JSON float literal that parses back to the same bits.
fn num(x: f64) -> String {
    // `{:?}` is the shortest round-trip form and always has '.' or 'e'.
    let t = format!("{x:?}");
    if x.is_finite() { t } else { "0.0".into() }
}

fn nums(a: &[f64]) -> String {
    let v: Vec<String> = a.iter().map(|x| num(*x)).collect();
    format!("[{}]", v.join(","))
}

fn rect_json(r: &Rect) -> String {
    format!("[{},{},{},{}]", r[0], r[1], r[2], r[3])
}
