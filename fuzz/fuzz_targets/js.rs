// re2d fuzz target `js`: see re2d::fuzz_entry::js (the corpus replay test runs the same function).
#![no_main]

libfuzzer_sys::fuzz_target!(init: re2d::fuzz_entry::js_init(), |data: &[u8]| re2d::fuzz_entry::js(data));
