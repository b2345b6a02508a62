// re2d atlas: inspect a compiled atlas with the runtime decoder (spec: surface-compiler.md §9.2, rotsprite-atlas.md).
//! `re2d atlas inspect ATLAS.png [--json]`.

use std::path::PathBuf;

/// Atlas subcommands.
#[derive(clap::Subcommand)]
pub enum Cmd {
    /// Print header flags, point counts per part, bounds and problems.
    Inspect {
        /// Atlas PNG.
        atlas: PathBuf,
        /// Print every cell as JSON.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(c: &Cmd) -> i32 {
    match c {
        Cmd::Inspect { atlas, json } => {
            let _ = (atlas, json);
            eprintln!("re2d atlas inspect: the runtime decoder is not available yet");
            1
        }
    }
}
