// re2d surface compiler — build files: a list of compile jobs (spec: surface-compiler.md §9.3).
//! `{"version":1,"jobs":[{"surface","material"?,"output","size"?,"segments"?,"segmentWidths"?}]}`.
//! Paths are relative to the build file's directory. Every error names the
//! JSON path of the offending member and the value as written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::compile::{Options, SIZES};
use super::error::{Code, CompileError};
use super::json::{self, Value};
use super::model::fmt_num;

/// One compile job of a build file.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildJob {
    /// Surface JSON.
    pub surface: PathBuf,
    /// Optional material PNG.
    pub material: Option<PathBuf>,
    /// Output PNG.
    pub output: PathBuf,
    /// Compile options.
    pub opts: Options,
}

/// Parses `ASSIGN=W` (ASSIGN integer 1..254, W finite ≥ 0), as
/// `--segment-width` takes it.
pub fn parse_segment_width(s: &str) -> Result<(u8, f64), String> {
    let (a, w) = s.split_once('=').ok_or("expected ASSIGN=W")?;
    let a = parse_assign(a.trim())?;
    let w: f64 = w
        .trim()
        .parse()
        .map_err(|_| format!("W {w:?} is not a number"))?;
    check_width(w)?;
    Ok((a, w))
}

fn parse_assign(a: &str) -> Result<u8, String> {
    match a.parse::<u64>() {
        Ok(n) if (1..=254).contains(&n) => Ok(n as u8),
        Ok(n) => Err(format!("ASSIGN {n} is not in 1..254")),
        Err(_) => Err(format!("ASSIGN {a:?} is not an integer 1..254")),
    }
}

fn check_width(w: f64) -> Result<(), String> {
    if !w.is_finite() || w < 0.0 {
        return Err(format!("W {} must be a finite number >= 0", fmt_num(w)));
    }
    Ok(())
}

fn written(v: &Value) -> String {
    match v {
        Value::Num { v, .. } => fmt_num(*v),
        Value::Str(s) => format!("{s:?}"),
        other => other.kind().to_string(),
    }
}

/// Parses a build file; paths are resolved against `base` (the build
/// file's directory).
pub fn parse_build(bytes: &[u8], base: &Path) -> Result<Vec<BuildJob>, CompileError> {
    let bad = |at: String, m: String| CompileError::new(Code::Json, at, m);
    re2d::limits::Limits::current()
        .check_json_depth(bytes)
        .map_err(|e| bad("$".into(), e.to_string()))?;
    let doc = json::parse(bytes, false).map_err(|e| bad(format!("byte {}", e.offset), e.msg))?;
    if !matches!(doc, Value::Obj(_)) {
        return Err(bad("$".into(), "top level must be an object".into()));
    }
    if doc.get("version").and_then(Value::as_int) != Some(1.0) {
        return Err(CompileError::new(
            Code::Version,
            "version",
            "must be the integer 1",
        ));
    }
    let Some(jobs) = doc.get("jobs").and_then(Value::as_arr) else {
        return Err(bad("jobs".into(), "must be an array".into()));
    };
    let mut out = Vec::new();
    for (i, j) in jobs.iter().enumerate() {
        let at = |k: &str| format!("jobs[{i}].{k}");
        if !matches!(j, Value::Obj(_)) {
            return Err(bad(format!("jobs[{i}]"), "must be an object".into()));
        }
        let path = |k: &str| -> Result<Option<PathBuf>, CompileError> {
            match j.get(k) {
                None => Ok(None),
                Some(Value::Str(s)) if !s.is_empty() && !s.contains('\0') => Ok(Some(base.join(s))),
                Some(v) => Err(bad(
                    at(k),
                    format!("must be a non-empty string path (got {})", written(v)),
                )),
            }
        };
        let surface = path("surface")?.ok_or_else(|| bad(at("surface"), "is required".into()))?;
        let output = path("output")?.ok_or_else(|| bad(at("output"), "is required".into()))?;
        let material = path("material")?;
        let mut opts = Options::default();
        if let Some(s) = j.get("size") {
            match s.as_int() {
                Some(x) if SIZES.iter().any(|&z| z as f64 == x) => opts.size = x as u32,
                _ => {
                    return Err(CompileError::new(
                        Code::Size,
                        at("size"),
                        format!("{} is not 1024, 2048, 3072 or 4096", written(s)),
                    ));
                }
            }
        }
        match j.get("segments") {
            None => {}
            Some(Value::Bool(b)) => opts.segments = *b,
            Some(v) => {
                return Err(bad(
                    at("segments"),
                    format!("must be a boolean (got {})", written(v)),
                ));
            }
        }
        match j.get("segmentWidths") {
            None => {}
            Some(Value::Obj(m)) => {
                let mut w = BTreeMap::new();
                for (k, v) in m {
                    let here = at(&format!("segmentWidths.{k}"));
                    let seg = |m: String| CompileError::new(Code::Segment, here.clone(), m);
                    let a = parse_assign(k).map_err(seg)?;
                    let Some(wd) = v.as_num() else {
                        return Err(seg(format!("W {} is not a number", written(v))));
                    };
                    check_width(wd).map_err(seg)?;
                    w.insert(a, wd);
                }
                opts.segment_widths = w;
            }
            Some(v) => {
                return Err(bad(
                    at("segmentWidths"),
                    format!("must be an object (got {})", written(v)),
                ));
            }
        }
        out.push(BuildJob {
            surface,
            material,
            output,
            opts,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(src: &str) -> CompileError {
        parse_build(src.as_bytes(), Path::new("b")).unwrap_err()
    }

    #[test]
    fn errors_name_the_path_and_the_written_value() {
        let x = e(r#"{"version":1,"jobs":[{"surface":"s","output":"o","size":65536}]}"#);
        assert_eq!((x.code, x.at.as_str()), (Code::Size, "jobs[0].size"));
        assert!(x.msg.contains("65536"), "{x}");
        let x = e(r#"{"version":1,"jobs":[{"surface":"s","output":"o","size":1e30}]}"#);
        assert!(x.msg.contains("1e30"), "{x}");
        let x =
            e(r#"{"version":1,"jobs":[{"surface":"s","output":"o","segmentWidths":{"3":"abc"}}]}"#);
        assert_eq!(x.at, "jobs[0].segmentWidths.3");
        assert!(x.msg.contains("\"abc\""), "{x}");
        let x =
            e(r#"{"version":1,"jobs":[{"surface":"s","output":"o","segmentWidths":{"300":1}}]}"#);
        assert_eq!(x.at, "jobs[0].segmentWidths.300");
        assert!(x.msg.contains("300"), "{x}");
        let x = e(
            r#"{"version":1,"jobs":[{"surface":"s","output":"o","segmentWidths":{"3":-1e300}}]}"#,
        );
        assert!(x.msg.contains("-1e300"), "{x}");
        let x = e(r#"{"version":1,"jobs":[5]}"#);
        assert_eq!(x.at, "jobs[0]");
    }

    #[test]
    fn good_file() {
        let jobs = parse_build(
            br#"{"version":1,"jobs":[{"surface":"a.json","output":"o.png","size":2048,"segments":true,"segmentWidths":{"7":2.5}}]}"#,
            Path::new("dir"),
        )
        .unwrap();
        assert_eq!(jobs[0].surface, Path::new("dir/a.json"));
        assert_eq!(jobs[0].opts.size, 2048);
        assert_eq!(jobs[0].opts.segment_widths.get(&7), Some(&2.5));
    }
}
