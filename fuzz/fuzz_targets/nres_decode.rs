// re2d fuzz target nres_decode: the invariants of re2d_msh::invariants::nres_decode (spec: msh.md §9.6).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    re2d_msh::invariants::nres_decode(data);
});
