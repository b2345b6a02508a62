// re2d compile: surface JSON → atlas PNG, published atomically (spec: surface-compiler.md §9.1, §8).
//! Argument parsing for `re2d compile` and the shared compile-and-publish job
//! also used by `re2d build`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use re2d_surface::{self as surface, Code, CompileError, Options};

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
    #[arg(long = "segment-width", value_name = "ASSIGN=W", value_parser = surface::parse_segment_width)]
    segment_width: Vec<(u8, f64)>,
    /// The older compiler's encoding and acceptance rules.
    #[arg(long)]
    legacy: bool,
    /// Skip transparent-anchor cells instead of writing coverage 128.
    #[arg(long)]
    no_support: bool,
}

/// One compile job (also used by `re2d build`).
pub struct Job<'a> {
    pub surface: &'a Path,
    pub material: Option<&'a Path>,
    pub output: &'a Path,
    pub opts: Options,
    /// Other inputs the output must not overwrite (a build file, other jobs' inputs).
    pub more_inputs: &'a [PathBuf],
}

/// Reads an input within the limits (JSON size and depth, or binary size):
/// unreadable → `E_IO` (exit 3), over a limit → `E_JSON`/`E_MATERIAL_FORMAT` (exit 1).
pub fn read(p: &Path, json: bool) -> Result<Vec<u8>, CompileError> {
    use re2d::limits::{ReadError, read_binary_file, read_json_file};
    let r = if json {
        read_json_file(p)
    } else {
        read_binary_file(p)
    };
    r.map_err(|e| {
        let code = match (&e, json) {
            (ReadError::Io(_), _) => Code::Io,
            (_, true) => Code::Json,
            (_, false) => Code::MaterialFormat,
        };
        CompileError::new(code, p.display().to_string(), e.to_string())
    })
}

/// Compile and publish; on error nothing is written.
pub fn run_job(job: &Job) -> Result<Vec<String>, CompileError> {
    let src = read(job.surface, true)?;
    let mat = match job.material {
        Some(p) => Some(read(p, false)?),
        None => None,
    };
    let atlas = surface::compile(&src, mat.as_deref(), &job.opts).map_err(|e| CompileError {
        at: format!("{}: {}", job.surface.display(), e.at),
        ..e
    })?;
    let png = surface::encode_png(&atlas.rgba, atlas.size)?;
    let mut inputs = vec![job.surface];
    inputs.extend(job.material);
    inputs.extend(job.more_inputs.iter().map(PathBuf::as_path));
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
        more_inputs: &[],
    }))
}
