// re2d atlas: inspect a compiled atlas with the runtime decoder (spec: surface-compiler.md §9.2, rotsprite-atlas.md).
//! `re2d atlas inspect ATLAS.png [--json]`: exit 0 when the decoder accepts
//! the atlas, 1 when it rejects it (or it is not an RGBA8 PNG within the
//! limits), 3 on I/O errors.

use std::path::PathBuf;

use re2d::limits::read_binary_file;
use re2d_surface::{decode_rgba8, inspect::inspect};

/// Atlas subcommands.
#[derive(clap::Subcommand)]
pub enum Cmd {
    /// Print header flags, point counts per part, coordinate bounds and problems.
    Inspect {
        /// Atlas PNG.
        atlas: PathBuf,
        /// Print every cell as JSON instead.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(c: &Cmd) -> i32 {
    let Cmd::Inspect { atlas, json } = c;
    let bytes = match read_binary_file(atlas) {
        Ok(b) => b,
        Err(e) => {
            let tag = if e.exit_code() == 3 { "[E_IO]" } else { "" };
            eprintln!("error{tag}: {}: {e}", atlas.display());
            return e.exit_code();
        }
    };
    let img = match decode_rgba8(&bytes) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("error: {}: {e}", atlas.display());
            return 1;
        }
    };
    let r = inspect(&img.rgba, img.width, img.height);
    if *json {
        println!("{}", r.json());
    } else {
        println!("atlas: {}", atlas.display());
        print!("{}", r.text());
    }
    if let Some(e) = &r.rejected {
        eprintln!(
            "error: {}: rejected by the v2 decoder: {e}",
            atlas.display()
        );
        return 1;
    }
    0
}
