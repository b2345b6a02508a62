// re2d build: run the compile jobs of a build file (spec: surface-compiler.md §9.3).
//! `{"version":1,"jobs":[{"surface","material"?,"output","size"?,"segments"?,"segmentWidths"?}]}`;
//! paths are relative to the build file; the first failing job stops the run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use re2d::surface::json::{self, Value};
use re2d::surface::{Code, CompileError, Options};

use crate::compile::{Job, report, run_job};

/// `re2d build` arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Build file.
    build: PathBuf,
}

/// A parsed job.
pub struct Spec {
    pub surface: PathBuf,
    pub material: Option<PathBuf>,
    pub output: PathBuf,
    pub opts: Options,
}

/// Parse a build file; paths are resolved against `base`.
pub fn parse(bytes: &[u8], base: &Path) -> Result<Vec<Spec>, CompileError> {
    let bad = |at: String, m: &str| CompileError::new(Code::Json, at, m.to_string());
    let doc = json::parse(bytes, false).map_err(|e| bad(format!("byte {}", e.offset), &e.msg))?;
    if !matches!(doc, Value::Obj(_)) {
        return Err(bad("$".into(), "top level must be an object"));
    }
    if doc.get("version").and_then(Value::as_int) != Some(1.0) {
        return Err(CompileError::new(
            Code::Version,
            "version",
            "must be the integer 1",
        ));
    }
    let Some(jobs) = doc.get("jobs").and_then(Value::as_arr) else {
        return Err(bad("jobs".into(), "must be an array"));
    };
    let mut out = Vec::new();
    for (i, j) in jobs.iter().enumerate() {
        let at = |k: &str| format!("jobs[{i}].{k}");
        let path = |k: &str| -> Result<Option<PathBuf>, CompileError> {
            match j.get(k) {
                None => Ok(None),
                Some(Value::Str(s)) => Ok(Some(base.join(s))),
                Some(_) => Err(bad(at(k), "must be a string path")),
            }
        };
        let surface = path("surface")?.ok_or_else(|| bad(at("surface"), "is required"))?;
        let output = path("output")?.ok_or_else(|| bad(at("output"), "is required"))?;
        let material = path("material")?;
        let mut opts = Options::default();
        if let Some(s) = j.get("size") {
            let Some(s) = s.as_int().filter(|s| *s >= 0.0 && *s <= u32::MAX as f64) else {
                return Err(CompileError::new(
                    Code::Size,
                    at("size"),
                    "must be 1024, 2048, 3072 or 4096",
                ));
            };
            opts.size = s as u32;
        }
        match j.get("segments") {
            None => {}
            Some(Value::Bool(b)) => opts.segments = *b,
            Some(_) => return Err(bad(at("segments"), "must be a boolean")),
        }
        match j.get("segmentWidths") {
            None => {}
            Some(Value::Obj(m)) => {
                let mut w = BTreeMap::new();
                for (k, v) in m {
                    let (a, wd) = crate::compile::parse_width(&format!(
                        "{k}={}",
                        v.as_num().map(|x| x.to_string()).unwrap_or_default()
                    ))
                    .map_err(|e| {
                        CompileError::new(Code::Segment, at(&format!("segmentWidths.{k}")), e)
                    })?;
                    w.insert(a, wd);
                }
                opts.segment_widths = w;
            }
            Some(_) => return Err(bad(at("segmentWidths"), "must be an object")),
        }
        out.push(Spec {
            surface,
            material,
            output,
            opts,
        });
    }
    Ok(out)
}

pub fn run(a: &Args) -> i32 {
    let bytes = match std::fs::read(&a.build) {
        Ok(b) => b,
        Err(e) => {
            return report(Err(CompileError::new(
                Code::Io,
                a.build.display().to_string(),
                format!("cannot read: {e}"),
            )));
        }
    };
    let base = a.build.parent().unwrap_or(Path::new("")).to_path_buf();
    let specs = match parse(&bytes, &base) {
        Ok(s) => s,
        Err(e) => {
            return report(Err(CompileError {
                at: format!("{}: {}", a.build.display(), e.at),
                ..e
            }));
        }
    };
    for (i, s) in specs.into_iter().enumerate() {
        let code = report(run_job(&Job {
            surface: &s.surface,
            material: s.material.as_deref(),
            output: &s.output,
            opts: s.opts,
        }));
        if code != 0 {
            eprintln!("re2d build: job {i} failed");
            return code;
        }
        println!("{}", s.output.display());
    }
    0
}
