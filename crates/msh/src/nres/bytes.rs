// re2d NRes/MSH — little-endian field readers (spec: msh.md "All integers are little-endian").
//! Two kinds of readers:
//! - `le16`/`le32`/`lef32` read a field of a record whose length the caller
//!   already knows (a `chunks_exact` record or a checked slice); the offsets
//!   are constants below the record size, so indexing cannot fail;
//! - `get16`/`get32` read at an arbitrary offset and return `None` past the
//!   end (never panic, never wrap).

/// `u16` at `o` of a record known to be long enough.
#[inline]
pub(crate) fn le16(r: &[u8], o: usize) -> u16 {
    u16::from_le_bytes([r[o], r[o + 1]])
}

/// `i16` at `o` of a record known to be long enough.
#[inline]
pub(crate) fn lei16(r: &[u8], o: usize) -> i16 {
    i16::from_le_bytes([r[o], r[o + 1]])
}

/// `u32` at `o` of a record known to be long enough.
#[inline]
pub(crate) fn le32(r: &[u8], o: usize) -> u32 {
    u32::from_le_bytes([r[o], r[o + 1], r[o + 2], r[o + 3]])
}

/// `f32` at `o` of a record known to be long enough.
#[inline]
pub(crate) fn lef32(r: &[u8], o: usize) -> f32 {
    f32::from_bits(le32(r, o))
}

/// `u16` at any offset, `None` past the end.
#[inline]
pub(crate) fn get16(b: &[u8], o: usize) -> Option<u16> {
    let s = b.get(o..o.checked_add(2)?)?;
    Some(u16::from_le_bytes([s[0], s[1]]))
}

/// Rounds `n` up to a multiple of 8 (64-bit, saturating).
#[inline]
pub(crate) fn align8(n: u64) -> u64 {
    n.saturating_add(7) & !7
}
