// re2d command-line tool: entry point and subcommand dispatch (spec: surface-compiler.md §9).
//! `re2d compile`, `re2d atlas inspect`, `re2d build`, `re2d render`. Each subcommand lives
//! in its own file so later tools can be added alongside.
//!
//! Exit codes: 0 success, 1 input rejected (invalid file, value or limit),
//! 2 usage error (bad option, output path that is an input), 3 I/O. Every
//! refusal is one line on stderr; `--help`/`--version` print to stdout.
//! `--limit NAME=VALUE` (any command, repeatable) overrides a resource limit
//! of `re2d::limits::Limits` (see `re2d --help` and the README).

mod atlas;
mod build;
mod compile;
mod render;

use clap::{Parser, Subcommand};

/// Runtime and toolchain for pseudo-3D 2D characters.
#[derive(Parser)]
#[command(name = "re2d", version, about)]
struct Cli {
    /// Override a resource limit, e.g. `--limit png-max-side=32768` (repeatable). Limits:
    /// png-max-side, png-max-bytes, json-max-bytes, json-max-depth, file-max-bytes,
    /// max-frames, sheet-max-bytes (sizes take k/M/G).
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
    /// Render a character model's clip to PNG frames or a sprite sheet.
    Render(render::Args),
}

/// One line: the first line of a clap error (`error: …`).
fn usage_error(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let line = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("error: bad usage");
    format!("re2d: {}", line.trim_start_matches("error: "))
}

fn main() {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                std::process::exit(0);
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                let _ = e.print();
                std::process::exit(2);
            }
            eprintln!("{}", usage_error(&e));
            std::process::exit(2);
        }
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
    };
    std::process::exit(code);
}
