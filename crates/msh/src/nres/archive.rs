// re2d NRes — the lossless archive IR: data region + directory entries, as stored (spec: msh.md §1.1–§1.4).
//! An [`Archive`] keeps the whole data region (bytes `16 .. directory_offset`:
//! active payloads, padding, gaps and unindexed regions) and every directory
//! field verbatim, including `sort_index` values and the bytes after each
//! name's NUL. Payloads are slices of the region, so decoding borrows the
//! input and copies nothing; the first edit makes the region owned.

use std::borrow::Cow;

use super::name::{NAME_FIELD, name_of};

/// Size of the NRes header.
pub const HEADER_SIZE: u64 = 16;
/// Size of one directory entry.
pub const ENTRY_SIZE: u64 = 64;
/// The only version accepted.
pub const VERSION: u32 = 0x100;
/// The magic bytes.
pub const MAGIC: [u8; 4] = *b"NRes";

/// One directory entry, every field as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Resource type (the MSH table number).
    pub type_id: u32,
    /// Type-specific attribute (usually a record count).
    pub attr1: u32,
    /// Type-specific attribute.
    pub attr2: u32,
    /// Type-specific attribute (usually the record stride).
    pub attr3: u32,
    /// The raw 36-byte name field (bytes after the NUL are kept).
    pub name_raw: [u8; NAME_FIELD],
    /// Absolute offset of the payload.
    pub data_offset: u32,
    /// Payload length.
    pub size: u32,
    /// Lookup permutation value.
    pub sort_index: u32,
}

impl Entry {
    /// The name (bytes before the NUL), `None` when the field has no NUL.
    pub fn name(&self) -> Option<&[u8]> {
        name_of(&self.name_raw)
    }

    /// The name for comparisons: the whole field when it has no NUL.
    pub(crate) fn sort_key(&self) -> &[u8] {
        self.name().unwrap_or(&self.name_raw)
    }

    /// `data_offset .. data_offset + size` in 64-bit arithmetic.
    pub fn range(&self) -> (u64, u64) {
        let o = self.data_offset as u64;
        (o, o + self.size as u64)
    }
}

/// An NRes archive: the data region and the directory, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Archive<'a> {
    /// Bytes `16 .. directory_offset` of the file.
    pub(crate) region: Cow<'a, [u8]>,
    /// Directory entries in file order.
    pub(crate) entries: Vec<Entry>,
    /// Largest payload that [`Archive::payload`] hands out (decode limit).
    pub(crate) max_payload: u64,
    /// `sort_index` is a permutation, names are terminated and non-decreasing
    /// along it: lookups binary-search.
    pub(crate) lookup_sorted: bool,
}

impl Default for Archive<'_> {
    fn default() -> Self {
        Archive::new()
    }
}

impl<'a> Archive<'a> {
    /// An empty archive (no entries, empty data region).
    pub fn new() -> Archive<'static> {
        Archive {
            region: Cow::Owned(Vec::new()),
            entries: Vec::new(),
            max_payload: u64::MAX,
            lookup_sorted: true,
        }
    }

    /// Directory entries in file order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// `true` without entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The data region (file bytes `16 .. directory_offset`).
    pub fn region(&self) -> &[u8] {
        &self.region
    }

    /// Absolute offset of the directory.
    pub fn directory_offset(&self) -> u64 {
        HEADER_SIZE + self.region.len() as u64
    }

    /// Length of the encoded file.
    pub fn total_size(&self) -> u64 {
        self.directory_offset() + ENTRY_SIZE * self.entries.len() as u64
    }

    /// The payload of entry `i`, `None` when its range is outside the data
    /// region (or over the payload limit): such an entry is unreadable.
    pub fn payload(&self, i: usize) -> Option<&[u8]> {
        let e = self.entries.get(i)?;
        payload_in(&self.region, e, self.max_payload)
    }

    /// Whether lookups use the stored `sort_index` (binary search).
    pub fn lookup_is_sorted(&self) -> bool {
        self.lookup_sorted
    }

    /// Converts into an archive that owns its bytes.
    pub fn into_owned(self) -> Archive<'static> {
        Archive {
            region: Cow::Owned(self.region.into_owned()),
            entries: self.entries,
            max_payload: self.max_payload,
            lookup_sorted: self.lookup_sorted,
        }
    }
}

/// The payload of `e` inside `region` (which starts at file offset 16).
pub(crate) fn payload_in<'r>(region: &'r [u8], e: &Entry, max: u64) -> Option<&'r [u8]> {
    let (start, end) = e.range();
    if start < HEADER_SIZE || end > HEADER_SIZE + region.len() as u64 || e.size as u64 > max {
        return None;
    }
    region.get((start - HEADER_SIZE) as usize..(end - HEADER_SIZE) as usize)
}
