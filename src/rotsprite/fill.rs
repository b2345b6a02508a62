// re2d — buffer clears and copies with plain vector stores (no libc memset/memcpy).
//
//! glibc's `memset`/`memcpy` switch to `rep stosb`/`rep movsb` for large
//! buffers, which valgrind counts once per byte: a 1 MB clear shows up as a
//! million "instructions" in the instruction-count benchmark although it
//! takes about as long as a loop of 32-byte stores. These loops do the same
//! with wide stores; the empty barrier in each iteration keeps the compiler
//! from turning them back into `memset`/`memcpy` calls.

const CHUNK: usize = 64;

/// Sets every byte of `b` to zero.
#[inline]
pub fn zero_bytes(b: &mut [u8]) {
    let mut chunks = b.chunks_exact_mut(CHUNK);
    for c in &mut chunks {
        c.copy_from_slice(&[0u8; CHUNK]);
        std::hint::black_box(());
    }
    for x in chunks.into_remainder() {
        *x = 0;
    }
}

/// Sets every element of `b` to `v`.
#[inline]
pub fn fill_f32(b: &mut [f32], v: f32) {
    let mut chunks = b.chunks_exact_mut(CHUNK / 4);
    for c in &mut chunks {
        c.copy_from_slice(&[v; CHUNK / 4]);
        std::hint::black_box(());
    }
    for x in chunks.into_remainder() {
        *x = v;
    }
}

/// Copies `src` into `dst` (same length).
#[inline]
pub fn copy_bytes(dst: &mut [u8], src: &[u8]) {
    assert_eq!(dst.len(), src.len());
    let mut d = dst.chunks_exact_mut(CHUNK);
    let mut s = src.chunks_exact(CHUNK);
    for (d, s) in (&mut d).zip(&mut s) {
        d.copy_from_slice(s);
        std::hint::black_box(());
    }
    for (d, s) in d.into_remainder().iter_mut().zip(s.remainder()) {
        *d = *s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_and_copies_every_element_of_any_length() {
        for n in [0usize, 1, 3, 63, 64, 65, 127, 200, 4096 + 5] {
            let mut b: Vec<u8> = (0..n).map(|i| (i % 251) as u8 + 1).collect();
            zero_bytes(&mut b);
            assert!(b.iter().all(|&x| x == 0), "zero {n}");
            let mut f = vec![1.5f32; n];
            fill_f32(&mut f, -1e9);
            assert!(f.iter().all(|&x| x == -1e9), "fill {n}");
            let src: Vec<u8> = (0..n).map(|i| (i * 7 % 256) as u8).collect();
            let mut dst = vec![0xAAu8; n];
            copy_bytes(&mut dst, &src);
            assert_eq!(dst, src, "copy {n}");
        }
    }
}
