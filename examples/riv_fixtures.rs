//! Writes the generated `.riv` test characters (src/riv/fixtures.rs) into
//! `tests/riv/fixtures/<name>/` (model.json + one PNG per part). The tests
//! check that the committed files equal what this generates.
//!
//! `cargo run --example riv_fixtures [-- OUT_DIR]`

fn main() {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tests/riv/fixtures".to_string());
    for f in re2d::riv::fixtures::all() {
        let dir = std::path::Path::new(&out).join(f.name);
        let write = |name: &str, bytes: &[u8]| {
            if let Err(e) = re2d::publish::publish(&dir.join(name), bytes, &[]) {
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
