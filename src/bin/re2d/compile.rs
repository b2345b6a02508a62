// re2d compile: surface JSON → atlas PNG, published atomically (spec: surface-compiler.md §9.1, §8).
//! Argument parsing for `re2d compile` and the shared compile-and-publish job
//! also used by `re2d build`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use re2d::surface::{self, Code, CompileError, Options};

/// `re2d compile` arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Surface JSON file.
    surface: PathBuf,
    /// Target PNG (published atomically).
    #[arg(long, short)]
    output: PathBuf,
    /// Colour material PNG.
    #[arg(long)]
    material: Option<PathBuf>,
    /// Physical output size: 1024, 2048, 3072 or 4096.
    #[arg(long, default_value_t = 1024)]
    size: u32,
    /// Apply the `segments` rules (writes BLD in SUB mode).
    #[arg(long)]
    segments: bool,
    /// Blend width for rules with this assign id and no `width` (repeatable).
    #[arg(long = "segment-width", value_name = "ASSIGN=W", value_parser = parse_width)]
    segment_width: Vec<(u8, f64)>,
    /// The older compiler's encoding and acceptance rules.
    #[arg(long)]
    legacy: bool,
    /// Skip transparent-anchor cells instead of writing coverage 128.
    #[arg(long)]
    no_support: bool,
}

/// Parse `ASSIGN=W` (ASSIGN integer 1..254, W finite ≥ 0).
pub fn parse_width(s: &str) -> Result<(u8, f64), String> {
    let (a, w) = s.split_once('=').ok_or("expected ASSIGN=W")?;
    let a: u8 = a
        .trim()
        .parse()
        .map_err(|_| format!("ASSIGN {a:?} is not an integer 1..254"))?;
    if !(1..=254).contains(&a) {
        return Err(format!("ASSIGN {a} is not in 1..254"));
    }
    let w: f64 = w
        .trim()
        .parse()
        .map_err(|_| format!("W {w:?} is not a number"))?;
    if !w.is_finite() || w < 0.0 {
        return Err(format!("W {w} must be a finite number >= 0"));
    }
    Ok((a, w))
}

/// One compile job (also used by `re2d build`).
pub struct Job<'a> {
    pub surface: &'a Path,
    pub material: Option<&'a Path>,
    pub output: &'a Path,
    pub opts: Options,
}

/// Compile and publish; on error nothing is written.
pub fn run_job(job: &Job) -> Result<Vec<String>, CompileError> {
    let read = |p: &Path| {
        std::fs::read(p).map_err(|e| {
            CompileError::new(
                Code::Io,
                p.display().to_string(),
                format!("cannot read: {e}"),
            )
        })
    };
    let src = read(job.surface)?;
    let mat = match job.material {
        Some(p) => Some(read(p)?),
        None => None,
    };
    let atlas = surface::compile(&src, mat.as_deref(), &job.opts).map_err(|e| CompileError {
        at: format!("{}: {}", job.surface.display(), e.at),
        ..e
    })?;
    let png = surface::encode_png(&atlas.rgba, atlas.size)?;
    let mut inputs = vec![job.surface];
    inputs.extend(job.material);
    surface::publish(job.output, &png, &inputs)?;
    Ok(atlas.warnings)
}

/// Print warnings/error and return the exit code.
pub fn report(r: Result<Vec<String>, CompileError>) -> i32 {
    match r {
        Ok(warnings) => {
            for w in warnings {
                eprintln!("warning[{}]", w.replacen(':', "]:", 1));
            }
            0
        }
        Err(e) => {
            eprintln!("{e}");
            e.code.exit_code()
        }
    }
}

pub fn run(a: &Args) -> i32 {
    let opts = Options {
        size: a.size,
        segments: a.segments,
        segment_widths: a.segment_width.iter().copied().collect::<BTreeMap<_, _>>(),
        legacy: a.legacy,
        support: !a.no_support,
    };
    report(run_job(&Job {
        surface: &a.surface,
        material: a.material.as_deref(),
        output: &a.output,
        opts,
    }))
}
