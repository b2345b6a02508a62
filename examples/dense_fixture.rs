// re2d example: write the generated dense humanoid surface JSON (surface::fixtures) to a file or stdout.
//! `cargo run --example dense_fixture -- out/dense.surface.json`

fn main() {
    let json = re2d::surface::fixtures::dense_humanoid().to_json();
    match std::env::args().nth(1) {
        Some(path) => {
            if let Err(e) = std::fs::write(&path, json) {
                eprintln!("error[E_IO]: {path}: {e}");
                std::process::exit(3);
            }
        }
        None => println!("{json}"),
    }
}
