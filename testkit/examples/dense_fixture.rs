// re2d example: write the generated dense humanoid surface JSON (re2d_testkit::surface) to a file or stdout.
//! `cargo run --example dense_fixture -- out/dense.surface.json`

fn main() {
    let json = re2d_testkit::surface::dense_humanoid().to_json();
    match std::env::args().nth(1) {
        Some(path) => {
            if let Err(e) = re2d_output::publish::publish(path.as_ref(), json.as_bytes(), &[]) {
                eprintln!("error[E_IO]: {e}");
                std::process::exit(e.exit_code());
            }
        }
        None => println!("{json}"),
    }
}
