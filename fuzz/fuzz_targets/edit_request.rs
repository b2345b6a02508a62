// re2d fuzz target `edit_request`: see re2d_testkit::fuzz_entry::edit_request (the corpus replay test runs the same function).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| re2d_testkit::fuzz_entry::edit_request(data));
