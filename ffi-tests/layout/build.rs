// re2d ffi-tests/layout: runs bindgen on include/rotsprite_math.h (types only) into OUT_DIR/bindings.rs.
use std::env;
use std::path::PathBuf;

fn main() {
    let header =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"))
            .join("../../include/rotsprite_math.h");
    println!("cargo:rerun-if-changed={}", header.display());
    let bindings = bindgen::Builder::default()
        .header(header.to_string_lossy())
        .allowlist_type("R2DRot.*")
        .allowlist_var("R2D_ROTSPRITE_SIZE")
        .derive_default(false)
        .layout_tests(false)
        .generate()
        .expect("bindgen failed on rotsprite_math.h");
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("bindings.rs");
    bindings
        .write_to_file(out)
        .expect("cannot write bindings.rs");
}
