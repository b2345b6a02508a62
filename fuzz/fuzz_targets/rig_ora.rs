// re2d fuzz target `rig_ora`: see re2d_testkit::fuzz_entry::rig_ora (the corpus replay test runs the same function).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| re2d_testkit::fuzz_entry::rig_ora(data));
