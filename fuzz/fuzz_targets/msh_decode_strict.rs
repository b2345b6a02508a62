// re2d fuzz target msh_decode_strict: the invariants of re2d_msh::invariants::msh_decode_strict (spec: msh.md §9.6).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    re2d_msh::invariants::msh_decode_strict(data);
});
