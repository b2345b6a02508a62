// re2d fuzz target `build_file`: see re2d_testkit::fuzz_entry::build_file (the corpus replay test runs the same function).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| re2d_testkit::fuzz_entry::build_file(data));
