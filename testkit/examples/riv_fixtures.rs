//! Writes the generated `.riv` test characters (testkit/src/riv.rs) into
//! `tests/riv/fixtures/<name>/` (model.json + one PNG per part). The tests
//! check that the committed files equal what this generates.
//!
//! The `mocap` fixture's walk is retargeted from
//! `assets/mocap/cmu-131-01-walk.bvh` (run from the repository root).
//!
//! `cargo run --example riv_fixtures [-- OUT_DIR]`

use re2d::limits::Limits;
use re2d_rig::motion::{self, bvh};

fn main() {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tests/riv/fixtures".to_string());
    let capture = std::path::Path::new("assets/mocap/cmu-131-01-walk.bvh");
    let walk = bvh::read(capture, &Limits::DEFAULT)
        .and_then(|b| {
            motion::retarget(
                &b,
                &re2d_testkit::riv::mocap_bones(),
                &motion::MotionOptions::default(),
            )
        })
        .unwrap_or_else(|e| {
            eprintln!("riv_fixtures: {}: {e}", capture.display());
            std::process::exit(e.exit_code());
        });
    for w in &walk.warnings {
        eprintln!("riv_fixtures: mocap: {w}");
    }
    let mut all = re2d_testkit::riv::all();
    all.push(re2d_testkit::riv::mocap(&walk));
    for f in all {
        let dir = std::path::Path::new(&out).join(f.name);
        let write = |name: &str, bytes: &[u8]| {
            if let Err(e) = re2d_output::publish::publish(&dir.join(name), bytes, &[]) {
                eprintln!("riv_fixtures: {e}");
                std::process::exit(e.exit_code());
            }
        };
        write("model.json", f.json.as_bytes());
        for (name, png) in &f.textures {
            write(name, png);
        }
        println!(
            "{}: {} textures -> {}",
            f.name,
            f.textures.len(),
            dir.display()
        );
    }
}
