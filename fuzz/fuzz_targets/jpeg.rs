// re2d fuzz target `jpeg`: see re2d_testkit::fuzz_entry::jpeg (the corpus replay test runs the same function).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| re2d_testkit::fuzz_entry::jpeg(data));
