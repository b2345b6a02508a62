// re2d fuzz target `v1`: see re2d_testkit::fuzz_entry::v1 (the corpus replay test runs the same function).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| re2d_testkit::fuzz_entry::v1(data));
