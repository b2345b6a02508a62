// re2d command-line tool: entry point and subcommand dispatch (spec: surface-compiler.md §9).
//! `re2d compile`, `re2d atlas inspect`, `re2d build`, `re2d render`, `re2d nres`,
//! `re2d msh`, `re2d export-riv`, `re2d riv check|render-ref`, `re2d rig`. Each subcommand lives
//! in its own file so later tools can be added alongside.
//!
//! Exit codes: 0 success, 1 input rejected (invalid file, value or limit),
//! 2 usage error (bad option, output path that is an input), 3 I/O. Every
//! refusal is one line on stderr; `--help`/`--version` print to stdout.
//! `--limit NAME=VALUE` (any command, repeatable) overrides a resource limit
//! of `re2d::limits::Limits` (see `re2d --help` and the README).
// The doc comments of the argument structs are clap's --help text (docs/cli.md), not rustdoc:
// text like `Res8[fallback_key]` is meant literally.
#![allow(rustdoc::broken_intra_doc_links)]

mod atlas;
mod build;
mod compile;
mod msh;
mod nres;
mod render;
mod rig;
mod rig_render;
mod riv;

use clap::{Parser, Subcommand};

/// Runtime and toolchain for pseudo-3D 2D characters.
#[derive(Parser)]
#[command(name = "re2d", version, about)]
struct Cli {
    /// Override a resource limit, e.g. `--limit png-max-side=32768` (repeatable). Limits:
    /// png-max-side, png-max-bytes, json-max-bytes, json-max-depth, file-max-bytes, export-max-bytes,
    /// max-frames, sheet-max-bytes, nres-max-input, nres-max-entries, nres-max-payload,
    /// msh-max-findings, riv-max-objects, riv-max-findings, riv-max-embedded, bvh-max-bytes,
    /// bvh-max-frames, bvh-max-joints, bvh-max-channels, bvh-max-work, rig-max-bones,
    /// rig-max-pixels, rig-max-tube-work, rig-max-keys, edit-max-body (sizes take k/M/G; each has
    /// a maximum).
    #[arg(long = "limit", value_name = "NAME=VALUE", global = true, value_parser = parse_limit)]
    limit: Vec<(String, String)>,
    #[command(subcommand)]
    cmd: Cmd,
}

fn parse_limit(s: &str) -> Result<(String, String), String> {
    let mut l = re2d::limits::Limits::DEFAULT;
    l.set_pair(s)?;
    let (n, v) = s.split_once('=').unwrap_or((s, ""));
    Ok((n.trim().to_string(), v.trim().to_string()))
}

#[derive(Subcommand)]
enum Cmd {
    /// Compile surface JSON (+ optional material) into a v2 atlas PNG.
    Compile(compile::Args),
    /// Atlas tools.
    #[command(subcommand)]
    Atlas(atlas::Cmd),
    /// Run the compile jobs of a build file.
    Build(build::Args),
    /// Render a character model's clip to PNG frames, a sprite sheet, an animated PNG or a GIF.
    Render(Box<render::Args>),
    /// NRes archives: list, extract, pack, repack.
    #[command(subcommand)]
    Nres(nres::Cmd),
    /// MSH models: validate, export (OBJ, glTF), roundtrip, synth.
    #[command(subcommand)]
    Msh(msh::Cmd),
    /// Export a skeleton mesh model (JSON + PNGs) to a Rive .riv file.
    ExportRiv(riv::ExportArgs),
    /// Rive .riv tools: structural check, reference renderer.
    #[command(subcommand)]
    Riv(riv::RivCmd),
    /// Rig one drawing: skeleton declaration → parts, pivots, meshes, weights, a walk, a .riv.
    #[command(subcommand)]
    Rig(rig::RigCmd),
}

/// glibc's malloc serves every block above its mmap threshold (dynamic, up
/// to 32 MiB) from fresh pages and hands them back to the kernel when freed,
/// so an image-sized buffer allocated after another was freed is faulted in
/// page by page again. The pipelines (`rig build` above all) allocate and
/// free many such buffers: keeping freed memory in the heap halves the page
/// faults of a 1696×2528 rig build (87 k → 51 k) and its system time, for a
/// few MB more peak memory.
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets allocator parameters; it is called before any
    // other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 30);
        libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
    }
}

fn main() {
    keep_freed_memory();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => std::process::exit(usage_error(e)),
    };
    let mut limits = re2d::limits::Limits::DEFAULT;
    for (n, v) in &cli.limit {
        if let Err(e) = limits.set(n, v) {
            eprintln!("re2d: {e}");
            std::process::exit(2);
        }
    }
    re2d::limits::Limits::set_current(limits);
    let code = match cli.cmd {
        Cmd::Compile(a) => compile::run(&a),
        Cmd::Atlas(c) => atlas::run(&c),
        Cmd::Build(a) => build::run(&a),
        Cmd::Render(a) => render::run(&a),
        Cmd::Nres(c) => nres::run(&c),
        Cmd::Msh(c) => msh::run(&c),
        Cmd::ExportRiv(a) => riv::run_export(&a),
        Cmd::Riv(c) => riv::run(&c),
        Cmd::Rig(c) => rig::run(&c),
    };
    std::process::exit(code);
}

/// Prints `--help`/`--version` as clap does (exit 0); any other parse error
/// is one line on stderr with exit code 2.
fn usage_error(e: clap::Error) -> i32 {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            0
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            eprintln!("re2d: a subcommand is required (see --help)");
            2
        }
        _ => {
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("error: invalid arguments");
            let first = first.trim_start_matches("error: ");
            let hint = text
                .lines()
                .skip(1)
                .map(str::trim)
                .find(|l| !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more"))
                .map(|l| format!(" ({l})"))
                .unwrap_or_default();
            eprintln!("re2d: {first}{hint}");
            2
        }
    }
}
