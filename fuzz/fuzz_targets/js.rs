// re2d fuzz target `js`: see re2d_qjs::fuzz (the QuickJS host crate's corpus replay test runs the same function).
#![no_main]

libfuzzer_sys::fuzz_target!(init: re2d_qjs::fuzz::init(), |data: &[u8]| re2d_qjs::fuzz::run(data));
