// re2d command-line tool: entry point and subcommand dispatch (spec: surface-compiler.md §9).
//! `re2d compile`, `re2d atlas inspect`, `re2d build`, `re2d render`, `re2d nres`,
//! `re2d msh`, `re2d export-riv`, `re2d riv check|render-ref`. Each subcommand lives
//! in its own file so later tools (`render`, …) can be added alongside.
//! Exit codes: 0 success, 1 validation/format error, 2 usage error, 3 I/O.

mod atlas;
mod build;
mod compile;
mod msh;
mod nres;
mod render;
mod riv;

use clap::{Parser, Subcommand};

/// Runtime and toolchain for pseudo-3D 2D characters.
#[derive(Parser)]
#[command(name = "re2d", version, about)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
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
}

fn main() {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => std::process::exit(usage_error(e)),
    };
    let code = match cli.cmd {
        Cmd::Compile(a) => compile::run(&a),
        Cmd::Atlas(c) => atlas::run(&c),
        Cmd::Build(a) => build::run(&a),
        Cmd::Render(a) => render::run(&a),
        Cmd::Nres(c) => nres::run(&c),
        Cmd::Msh(c) => msh::run(&c),
        Cmd::ExportRiv(a) => riv::run_export(&a),
        Cmd::Riv(c) => riv::run(&c),
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
            eprintln!("error: a subcommand is required (see --help)");
            2
        }
        _ => {
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("error: invalid arguments");
            let hint = text
                .lines()
                .skip(1)
                .map(str::trim)
                .find(|l| !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more"))
                .map(|l| format!(" ({l})"))
                .unwrap_or_default();
            eprintln!("{first}{hint}");
            2
        }
    }
}
