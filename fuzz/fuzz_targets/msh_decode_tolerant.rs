// re2d fuzz target msh_decode_tolerant: the invariants of re2d_msh::invariants::msh_decode_tolerant (spec: msh.md §9.6).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    re2d_msh::invariants::msh_decode_tolerant(data);
});
