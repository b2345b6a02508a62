// re2d command-line tool: entry point and subcommand dispatch (spec: surface-compiler.md §9).
//! `re2d compile`, `re2d atlas inspect`, `re2d build`, `re2d render`. Each subcommand lives
//! in its own file so later tools (`render`, …) can be added alongside.
//! Exit codes: 0 success, 1 validation/format error, 2 usage error, 3 I/O.

mod atlas;
mod build;
mod compile;
mod render;

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
}

fn main() {
    let cli = Cli::parse();
    let code = match cli.cmd {
        Cmd::Compile(a) => compile::run(&a),
        Cmd::Atlas(c) => atlas::run(&c),
        Cmd::Build(a) => build::run(&a),
        Cmd::Render(a) => render::run(&a),
    };
    std::process::exit(code);
}
