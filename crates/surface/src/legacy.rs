// re2d surface compiler — `--legacy`: the older compiler's lazy acceptance rules (spec: surface-compiler.md §6.8).
//! There is no structural pass: patches are walked in order and a value is
//! checked when a cell first needs it (§6.8.3). Booleans count as integers
//! 1/0, `NaN`/`Infinity` tokens are numbers, non-finite values flow through
//! IEEE arithmetic until a cell's final coordinates are checked. Geometry uses
//! the same formulas as the default mode ([`super::compile`]); only hard
//! segment splits apply, and the map encoding is the base one (§3.3).

use super::compile::{
    Atlas, Options, SectionPick, Seg, Work, apply_matrix, finish, grid_index, lerp, loft_point,
    new_work, section_pick,
};
use super::error::{Code, CompileError, err};
use super::json::Value;
use super::model::{DEFAULT_COLOR, IDENTITY};

/// Integer in the legacy sense: integer literal or boolean.
fn lint(v: &Value) -> Option<f64> {
    match v {
        Value::Num { v, int: true } => Some(*v),
        Value::Bool(b) => Some(*b as u8 as f64),
        _ => None,
    }
}

/// Number in the legacy sense: any number literal or boolean.
fn lnum(v: &Value) -> Option<f64> {
    match v {
        Value::Num { v, .. } => Some(*v),
        Value::Bool(b) => Some(*b as u8 as f64),
        _ => None,
    }
}

/// Integer that fits the arithmetic of this implementation (|v| ≤ 2^53).
fn lint_i64(v: &Value) -> Option<i64> {
    lint(v)
        .filter(|x| x.abs() <= 9_007_199_254_740_992.0)
        .map(|x| x as i64)
}

/// Length of a row in the legacy sense (arrays, strings in characters, objects in members).
fn seq_len(v: &Value) -> Option<usize> {
    match v {
        Value::Arr(a) => Some(a.len()),
        Value::Str(s) => Some(s.chars().count()),
        Value::Obj(m) => Some(m.len()),
        _ => None,
    }
}

/// "An empty object or an empty string counts as no rows/rules."
fn is_empty_container(v: &Value) -> bool {
    matches!(v, Value::Obj(m) if m.is_empty()) || matches!(v, Value::Str(s) if s.is_empty())
}

struct LRule {
    /// Numeric id (matches when equal to the current primary).
    id: Option<f64>,
    axis: usize,
    assign: u8,
    greater_than: Option<f64>,
}

fn parse_rules(segs: Option<&Value>) -> Result<Vec<LRule>, CompileError> {
    let rules: &[Value] = match segs {
        None => &[],
        Some(Value::Arr(a)) => a,
        Some(v) if is_empty_container(v) => &[],
        Some(_) => return err(Code::Segment, "segments", "must be an array of rules"),
    };
    let mut out = Vec::new();
    for (i, r) in rules.iter().enumerate() {
        let at = format!("segments[{i}]");
        if !matches!(r, Value::Obj(_)) {
            return err(Code::Segment, at, "rule must be an object");
        }
        let axis = match r.get("axis") {
            Some(Value::Str(s)) if s == "x" => 0,
            Some(Value::Str(s)) if s == "y" => 1,
            Some(Value::Str(s)) if s == "z" => 2,
            _ => return err(Code::Segment, at, "axis must be \"x\", \"y\" or \"z\""),
        };
        let Some(assign) = r
            .get("assign")
            .and_then(lint)
            .filter(|a| (1.0..=254.0).contains(a))
        else {
            return err(Code::Segment, at, "assign must be an integer 1..254");
        };
        let Some(id) = r.get("id") else {
            return err(Code::Segment, at, "id is missing");
        };
        let id = lnum(id).filter(|x| (1.0..=254.0).contains(x));
        let greater_than = match r.get("greaterThan") {
            Some(Value::Num { v, .. }) if v.is_finite() => Some(*v),
            _ => None,
        };
        out.push(LRule {
            id,
            axis,
            assign: assign as u8,
            greater_than,
        });
    }
    Ok(out)
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
    let Some(a) = c.as_arr().filter(|a| a.len() == 3) else {
        return bad();
    };
    let mut out = [0u8; 3];
    for (o, e) in out.iter_mut().zip(a) {
        match lint(e) {
            Some(x) if (0.0..=255.0).contains(&x) => *o = x as u8,
            _ => return bad(),
        }
    }
    Ok(out)
}

fn parse_matrix(p: &Value, at: &str) -> Result<[f64; 12], CompileError> {
    let Some(m) = p.get("matrix") else {
        return Ok(IDENTITY);
    };
    let bad = || err(Code::Matrix, format!("{at}.matrix"), "must be 12 numbers");
    let Some(a) = m.as_arr().filter(|a| a.len() == 12) else {
        return bad();
    };
    let mut out = [0.0; 12];
    for (o, e) in out.iter_mut().zip(a) {
        *o = match lnum(e) {
            Some(x) => x,
            None => return bad(),
        };
    }
    Ok(out)
}

fn parse_rect(p: &Value, at: &str) -> Result<[i64; 4], CompileError> {
    let bad = |m: &str| err(Code::Rect, format!("{at}.rect"), m.to_string());
    let Some(a) = p
        .get("rect")
        .and_then(Value::as_arr)
        .filter(|a| a.len() == 4)
    else {
        return bad("must be an array of 4 integers");
    };
    let mut r = [0i64; 4];
    for (o, e) in r.iter_mut().zip(a) {
        *o = match lint_i64(e) {
            Some(x) => x,
            None => return bad("must be an array of 4 integers"),
        };
    }
    if r.iter().any(|v| v % 4 != 0) || r[2] < 4 || r[3] < 4 {
        return bad("values must be multiples of 4 with w, h >= 4");
    }
    Ok(r)
}

/// Evaluate one grid cell lazily (§6.8.3 `points`).
fn grid_cell(
    rows: &[Value],
    cols: usize,
    u: f64,
    v: f64,
    at: &dyn Fn() -> String,
) -> Result<[f64; 3], CompileError> {
    let bad = |m: &str| CompileError::new(Code::Grid, at(), m.to_string());
    let (a, du) = grid_index(u, cols);
    let (b, dv) = grid_index(v, rows.len());
    let corner = |r: usize, c: usize| -> Option<&[Value]> { rows[r].as_arr()?.get(c)?.as_arr() };
    let pair = |r: usize| -> Result<Vec<f64>, CompileError> {
        let (Some(p), Some(q)) = (corner(r, a), corner(r, a + 1)) else {
            return Err(bad("corner point is not an array"));
        };
        let mut out = Vec::new();
        for (x, y) in p.iter().zip(q) {
            match (lnum(x), lnum(y)) {
                (Some(x), Some(y)) => out.push(lerp(x, y, du)),
                _ => return Err(bad("point component is not a number")),
            }
        }
        Ok(out)
    };
    let (top, bot) = (pair(b)?, pair(b + 1)?);
    if top.len().min(bot.len()) != 3 {
        return Err(bad("interpolated point does not have 3 components"));
    }
    Ok([
        lerp(top[0], bot[0], dv),
        lerp(top[1], bot[1], dv),
        lerp(top[2], bot[2], dv),
    ])
}

/// Evaluate one loft cell lazily (§6.8.3 `sections`).
fn loft_cell(
    rows: &[&[Value]],
    vs: &[f64],
    u: f64,
    v: f64,
    at: &dyn Fn() -> String,
) -> Result<[f64; 3], CompileError> {
    let bad = || err(Code::Sections, at(), "section value is not a number");
    match section_pick(vs, v) {
        SectionPick::Lerp(i, t) => {
            let mut s = [0.0; 7];
            for (j, o) in s.iter_mut().enumerate() {
                match (lnum(&rows[i][j + 1]), lnum(&rows[i + 1][j + 1])) {
                    (Some(p), Some(q)) => *o = lerp(p, q, t),
                    _ => return bad(),
                }
            }
            Ok(loft_point(&s, u))
        }
        SectionPick::Row(i) => {
            let r = rows[i];
            let get = |j: usize| lnum(&r[j]);
            let (Some(rx), Some(cx), Some(cy), Some(cz), Some(offset)) =
                (get(1), get(4), get(5), get(6), get(7))
            else {
                return bad();
            };
            let th = (u - 0.5) * std::f64::consts::TAU + offset;
            let (sin, cos) = (th.sin(), th.cos());
            let Some(fb) = (if cos >= 0.0 { get(2) } else { get(3) }) else {
                return bad();
            };
            Ok([cx + rx * sin, cy, cz + fb * cos])
        }
    }
}

/// Compile in legacy mode (§6.8).
pub(super) fn compile(
    doc: &Value,
    material_png: Option<&[u8]>,
    opts: &Options,
) -> Result<Atlas, CompileError> {
    if !matches!(doc, Value::Obj(_)) {
        return err(Code::Json, "$", "top level must be an object");
    }
    if doc.get("version").and_then(lnum) != Some(1.0) {
        return err(Code::Version, "version", "must equal 1");
    }
    let Some(patches) = doc.get("patches").and_then(Value::as_arr) else {
        return err(Code::Version, "patches", "must be an array");
    };
    let mut w: Work = new_work(material_png, opts)?;
    let mut warnings = Vec::new();
    let rules = if opts.segments {
        parse_rules(doc.get("segments"))
    } else {
        Ok(Vec::new())
    };
    if let (true, Some(Value::Arr(rs))) = (opts.segments, doc.get("segments"))
        && rs
            .iter()
            .any(|r| r.get("width").and_then(lnum).is_some_and(|x| x > 0.0))
    {
        warnings.push("W_LEGACY_WIDTH: segment widths are ignored with --legacy".to_string());
    }
    let mut seg = |id: u8, xyz: [f64; 3]| -> Result<Seg, CompileError> {
        let rules = rules.as_ref().map_err(Clone::clone)?;
        let mut primary = id;
        for (i, r) in rules.iter().enumerate() {
            if r.id != Some(primary as f64) {
                continue;
            }
            let Some(t) = r.greater_than else {
                return err(
                    Code::Segment,
                    format!("segments[{i}].greaterThan"),
                    "must be a finite number",
                );
            };
            if xyz[r.axis] - t > 0.0 {
                primary = r.assign;
            }
        }
        Ok((primary, 0, 0))
    };
    for (pi, p) in patches.iter().enumerate() {
        let at_p = format!("patches[{pi}]");
        let ty = match p.get("type") {
            Some(Value::Str(s))
                if matches!(s.as_str(), "samples" | "grid" | "loft")
                    && matches!(p, Value::Obj(_)) =>
            {
                s.as_str()
            }
            _ => {
                return err(
                    Code::PatchType,
                    format!("{at_p}.type"),
                    "must be \"samples\", \"grid\" or \"loft\"",
                );
            }
        };
        let color = if w.material {
            Ok(DEFAULT_COLOR)
        } else {
            parse_color(p, &at_p)
        };
        let colf = || color.clone();
        if ty == "samples" {
            let rows: &[Value] = match p.get("samples") {
                Some(Value::Arr(a)) => a,
                Some(v) if is_empty_container(v) => &[],
                _ => {
                    return err(
                        Code::Sample,
                        format!("{at_p}.samples"),
                        "must be an array of rows",
                    );
                }
            };
            for (ri, row) in rows.iter().enumerate() {
                let bad = || {
                    err(
                        Code::Sample,
                        format!("{at_p}.samples[{ri}]"),
                        "must be [int, int, int, number, number, number]",
                    )
                };
                let Some(a) = row.as_arr().filter(|a| a.len() == 6) else {
                    return bad();
                };
                let (Some(u), Some(v), Some(id)) =
                    (lint_i64(&a[0]), lint_i64(&a[1]), lint_i64(&a[2]))
                else {
                    return bad();
                };
                let n = |e: &Value| match e {
                    Value::Num { v, .. } => Some(*v),
                    _ => None,
                };
                let (Some(x), Some(y), Some(z)) = (n(&a[3]), n(&a[4]), n(&a[5])) else {
                    return bad();
                };
                let at = || format!("{at_p}.samples[{ri}] cell ({u},{v})");
                w.cell(&at, u, v, id, [x, y, z], &colf, &mut seg)?;
            }
            continue;
        }
        let Some(idv) = p.get("id") else {
            return err(Code::Id, format!("{at_p}.id"), "is missing");
        };
        let rect = parse_rect(p, &at_p)?;
        let matrix = parse_matrix(p, &at_p)?;
        let [x0, y0, rw, rh] = rect;
        // Per-patch geometry source.
        enum Geo<'a> {
            Grid(&'a [Value], usize),
            Loft(Vec<&'a [Value]>, Vec<f64>),
        }
        let geo = if ty == "grid" {
            let bad = |m: &str| err(Code::Grid, format!("{at_p}.points"), m.to_string());
            let Some(rows) = p
                .get("points")
                .and_then(Value::as_arr)
                .filter(|r| r.len() >= 2)
            else {
                return bad("must be an array of at least 2 rows");
            };
            let Some(cols) = rows[0].as_arr().map(|r| r.len()).filter(|&c| c >= 2) else {
                return bad("row 0 must be an array of at least 2 points");
            };
            if rows.iter().any(|r| seq_len(r) != Some(cols)) {
                return bad("rows must all have the same length");
            }
            Geo::Grid(rows, cols)
        } else {
            let bad = |m: &str| err(Code::Sections, format!("{at_p}.sections"), m.to_string());
            let Some(rows) = p
                .get("sections")
                .and_then(Value::as_arr)
                .filter(|r| r.len() >= 2)
            else {
                return bad("must be an array of at least 2 rows");
            };
            let mut rs = Vec::with_capacity(rows.len());
            let mut vs = Vec::with_capacity(rows.len());
            for r in rows {
                let Some(a) = r.as_arr().filter(|a| a.len() == 8) else {
                    return bad("each row must have 8 elements");
                };
                let Some(v) = lnum(&a[0]) else {
                    return bad("v must be a number");
                };
                rs.push(a);
                vs.push(v);
            }
            if vs.windows(2).any(|p| p[0] >= p[1]) {
                return bad("v must be increasing");
            }
            Geo::Loft(rs, vs)
        };
        let mut yy = y0;
        while yy <= y0 + rh - 4 {
            let mut xx = x0;
            while xx <= x0 + rw - 4 {
                let (u, v) = ((xx - x0) as f64 / rw as f64, (yy - y0) as f64 / rh as f64);
                let at = || format!("{at_p} ({ty}) cell ({xx},{yy})");
                let Some(id) = lint_i64(idv) else {
                    return err(Code::Id, at(), "patch id is not an integer");
                };
                let p = match &geo {
                    Geo::Grid(rows, cols) => grid_cell(rows, *cols, u, v, &at)?,
                    Geo::Loft(rows, vs) => loft_cell(rows, vs, u, v, &at)?,
                };
                w.cell(&at, xx, yy, id, apply_matrix(&matrix, p), &colf, &mut seg)?;
                xx += 4;
            }
            yy += 4;
        }
    }
    if w.cells == 0 {
        warnings.push("W_EMPTY: no cell written; the runtime rejects this atlas".to_string());
    }
    finish(w, opts, warnings)
}
