//! Writes the generated rig test drawings (testkit/src/drawings/) into OUT_DIR: for each
//! character `<name>.png`, `<name>.labels.png` (truth: red = 1 + bone index) and
//! `<name>.skeleton.json` (rig.md §1). Without `--seed` it writes the reference biped, the
//! fighter (issue 42) and the quadruped on green, the biped on transparency (`biped-alpha`) and the three layered
//! characters (`girl`, `coat`, `skirt`); with `--seed N` the characters varied by N
//! (`biped-sN`, `quadruped-sN`, `girl-sN`, …).
//!
//! `cargo run --release --example rig_drawings -- OUT_DIR [--seed N]`

use re2d_testkit::drawings::{self, CharacterSpec};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! {
        eprintln!("usage: rig_drawings OUT_DIR [--seed N]");
        std::process::exit(2);
    };
    let (out, seed) = match args.as_slice() {
        [out] => (out.clone(), None),
        [out, flag, n] if flag == "--seed" => match n.parse::<u64>() {
            Ok(n) => (out.clone(), Some(n)),
            Err(_) => usage(),
        },
        _ => usage(),
    };
    let specs: Vec<CharacterSpec> = match seed {
        None => vec![
            drawings::biped(),
            drawings::fighter(),
            drawings::quadruped(),
            drawings::biped().on_alpha(),
            drawings::girl(),
            drawings::coat(),
            drawings::skirt(),
        ],
        Some(n) => vec![
            drawings::biped().with_seed(n),
            drawings::fighter().with_seed(n),
            drawings::quadruped().with_seed(n),
            drawings::girl().with_seed(n),
            drawings::coat().with_seed(n),
            drawings::skirt().with_seed(n),
        ],
    };
    for spec in specs {
        let t = std::time::Instant::now();
        let d = match drawings::generate(&spec) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("rig_drawings: {e}");
                std::process::exit(e.exit_code());
            }
        };
        let painted = t.elapsed();
        match d.write_files(std::path::Path::new(&out)) {
            Ok(paths) => println!(
                "{}: {} bones, painted in {:.0} ms -> {}",
                d.name,
                d.parts.len(),
                painted.as_secs_f64() * 1e3,
                paths
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Err(e) => {
                eprintln!("rig_drawings: {e}");
                std::process::exit(e.exit_code());
            }
        }
    }
}
