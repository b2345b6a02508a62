// re2d build: run the compile jobs of a build file (spec: surface-compiler.md §9.3).
//! Argument parsing and reporting only; the file format is `re2d_surface::build`.
//! The first failing job stops the run. No job may write the build file or
//! any job's surface or material (exit code 2, nothing written).

use std::path::{Path, PathBuf};

use re2d_surface::{CompileError, parse_build};

use crate::compile::{Job, read, report, run_job};

/// `re2d build` arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Build file.
    build: PathBuf,
}

pub fn run(a: &Args) -> i32 {
    let bytes = match read(&a.build, true) {
        Ok(b) => b,
        Err(e) => return report(Err(e)),
    };
    let base = a.build.parent().unwrap_or(Path::new("")).to_path_buf();
    let specs = match parse_build(&bytes, &base) {
        Ok(s) => s,
        Err(e) => {
            return report(Err(CompileError {
                at: format!("{}: {}", a.build.display(), e.at),
                ..e
            }));
        }
    };
    let mut inputs = vec![a.build.clone()];
    for s in &specs {
        inputs.push(s.surface.clone());
        inputs.extend(s.material.clone());
    }
    for (i, s) in specs.into_iter().enumerate() {
        let r = run_job(&Job {
            surface: &s.surface,
            material: s.material.as_deref(),
            output: &s.output,
            opts: s.opts,
            more_inputs: &inputs,
        });
        let code = report(r.map_err(|e| CompileError {
            at: format!("job {i}: {}", e.at),
            ..e
        }));
        if code != 0 {
            return code;
        }
        println!("{}", s.output.display());
    }
    0
}
