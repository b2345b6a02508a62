// re2d fuzz target export_obj: the invariants of re2d_msh::invariants::export_obj (spec: msh.md §9.6).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    re2d_msh::invariants::export_obj(data);
});
