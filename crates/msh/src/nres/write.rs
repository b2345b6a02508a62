// re2d NRes — lossless encoding, canonical repack and entry edits (spec: msh.md §1.7).
//! - [`Archive::encode_lossless`]: header + the data region as kept + the
//!   directory as kept; an unmodified archive re-encodes byte for byte.
//! - Edits follow the lossless policy: a same-length payload is written in
//!   place; any other payload goes to the first 8-aligned offset after the
//!   current end of the data region (zero gap, zero padding to 8) and its old
//!   bytes stay where they were as an unindexed region; a removed entry
//!   leaves its bytes. `sort_index` is recomputed (§1.5) only when the set of
//!   names changes (add, remove, rename).
//! - [`Archive::encode_canonical`]: payloads in directory order, each padded
//!   with zeros to 8 bytes, canonical `sort_index`, names kept (bytes after
//!   the NUL included), unindexed regions dropped.

use super::archive::{Archive, ENTRY_SIZE, Entry, HEADER_SIZE, MAGIC, VERSION, payload_in};
use super::bytes::align8;
use super::issue::Issue;
use super::lookup::{canonical_order, usable};
use super::name::{NAME_FIELD, field_for, name_of};

fn err(code: &'static str, index: Option<usize>, msg: String) -> Issue {
    Issue::new(code, None, index.map(|i| i as u64), msg)
}

fn put_header(out: &mut [u8], count: usize, total: u32) {
    out[0..4].copy_from_slice(&MAGIC);
    out[4..8].copy_from_slice(&VERSION.to_le_bytes());
    out[8..12].copy_from_slice(&(count as u32).to_le_bytes());
    out[12..16].copy_from_slice(&total.to_le_bytes());
}

fn put_entry(out: &mut Vec<u8>, e: &Entry, data_offset: u32, sort_index: u32) {
    out.extend_from_slice(&e.type_id.to_le_bytes());
    out.extend_from_slice(&e.attr1.to_le_bytes());
    out.extend_from_slice(&e.attr2.to_le_bytes());
    out.extend_from_slice(&e.size.to_le_bytes());
    out.extend_from_slice(&e.attr3.to_le_bytes());
    out.extend_from_slice(&e.name_raw);
    out.extend_from_slice(&data_offset.to_le_bytes());
    out.extend_from_slice(&sort_index.to_le_bytes());
}

fn check_total(total: u64, count: usize) -> Result<u32, Issue> {
    if count > i32::MAX as usize || total > u32::MAX as u64 {
        return Err(err(
            "E_NRES_TOO_LARGE",
            None,
            format!(
                "an archive of {total} bytes and {count} entries does not fit the 32-bit header"
            ),
        ));
    }
    Ok(total as u32)
}

impl Archive<'_> {
    /// Encodes the archive as kept: data region and directory verbatim.
    pub fn encode_lossless(&self) -> Result<Vec<u8>, Issue> {
        let total = check_total(self.total_size(), self.entries.len())?;
        let mut out = Vec::with_capacity(total as usize);
        out.resize(HEADER_SIZE as usize, 0);
        put_header(&mut out, self.entries.len(), total);
        out.extend_from_slice(&self.region);
        for e in &self.entries {
            put_entry(&mut out, e, e.data_offset, e.sort_index);
        }
        Ok(out)
    }

    /// Canonical compact encoding (§1.7). Refuses entries whose payload is
    /// unreadable or whose name field has no NUL.
    pub fn encode_canonical(&self) -> Result<Vec<u8>, Issue> {
        let mut size = HEADER_SIZE;
        for (i, e) in self.entries.iter().enumerate() {
            if payload_in(&self.region, e, self.max_payload).is_none() {
                return Err(err(
                    "E_NRES_PAYLOAD_RANGE",
                    Some(i),
                    format!(
                        "entry {i}: payload is unreadable; a canonical archive cannot be written"
                    ),
                ));
            }
            if name_of(&e.name_raw).is_none() {
                return Err(err(
                    "E_NRES_NAME_UNTERMINATED",
                    Some(i),
                    format!("entry {i}: name has no NUL; a canonical archive cannot be written"),
                ));
            }
            size = align8(size + e.size as u64);
        }
        let total = check_total(size + ENTRY_SIZE * self.entries.len() as u64, self.len())?;
        let mut out = Vec::with_capacity(total as usize);
        out.resize(HEADER_SIZE as usize, 0);
        let mut offsets = Vec::with_capacity(self.entries.len());
        for e in &self.entries {
            offsets.push(out.len() as u32);
            // checked above
            out.extend_from_slice(payload_in(&self.region, e, self.max_payload).unwrap_or(&[]));
            out.resize(align8(out.len() as u64) as usize, 0);
        }
        let p = canonical_order(&self.entries);
        for (i, e) in self.entries.iter().enumerate() {
            put_entry(&mut out, e, offsets[i], p[i]);
        }
        put_header(&mut out, self.entries.len(), total);
        Ok(out)
    }

    /// Appends `data` at the first 8-aligned offset after the data region,
    /// zero-padded to 8; returns its offset.
    fn append(&mut self, data: &[u8]) -> Result<u32, Issue> {
        let start = align8(self.directory_offset());
        let end = align8(start + data.len() as u64);
        check_total(
            end + ENTRY_SIZE * (self.entries.len() as u64 + 1),
            self.entries.len() + 1,
        )?;
        let r = self.region.to_mut();
        r.resize((start - HEADER_SIZE) as usize, 0);
        r.extend_from_slice(data);
        r.resize((end - HEADER_SIZE) as usize, 0);
        Ok(start as u32)
    }

    fn names_changed(&mut self) {
        let p = canonical_order(&self.entries);
        for (e, v) in self.entries.iter_mut().zip(p) {
            e.sort_index = v;
        }
        self.lookup_sorted = usable(&self.entries);
    }

    fn check_index(&self, i: usize) -> Result<(), Issue> {
        if i >= self.entries.len() {
            return Err(err(
                "E_NRES_INDEX",
                Some(i),
                format!("no entry {i} (the archive has {})", self.entries.len()),
            ));
        }
        Ok(())
    }

    /// Replaces the payload of entry `i` (lossless policy: in place when the
    /// length is unchanged, else appended). Attributes are not touched.
    pub fn replace_payload(&mut self, i: usize, data: &[u8]) -> Result<(), Issue> {
        self.check_index(i)?;
        let e = &self.entries[i];
        if data.len() as u64 == e.size as u64
            && payload_in(&self.region, e, self.max_payload).is_some()
        {
            let s = (e.data_offset as u64 - HEADER_SIZE) as usize;
            self.region.to_mut()[s..s + data.len()].copy_from_slice(data);
            return Ok(());
        }
        if data.len() as u64 > u32::MAX as u64 {
            return Err(err(
                "E_NRES_TOO_LARGE",
                Some(i),
                "payload over 4 GiB".into(),
            ));
        }
        let off = self.append(data)?;
        let e = &mut self.entries[i];
        e.data_offset = off;
        e.size = data.len() as u32;
        Ok(())
    }

    /// Sets the three attributes of entry `i`.
    pub fn set_attrs(&mut self, i: usize, attr1: u32, attr2: u32, attr3: u32) -> Result<(), Issue> {
        self.check_index(i)?;
        let e = &mut self.entries[i];
        (e.attr1, e.attr2, e.attr3) = (attr1, attr2, attr3);
        Ok(())
    }

    /// Appends a new entry (name zero-filled after its NUL); returns its index.
    pub fn add_entry(
        &mut self,
        type_id: u32,
        attrs: [u32; 3],
        name: &[u8],
        data: &[u8],
    ) -> Result<usize, Issue> {
        let raw = field_for(name).map_err(|m| err("E_NRES_NAME_INVALID", None, m))?;
        self.add_entry_raw(type_id, attrs, raw, data)
    }

    /// Appends a new entry with a complete name field (which must hold a
    /// NUL; bytes after it are kept); returns its index.
    pub fn add_entry_raw(
        &mut self,
        type_id: u32,
        attrs: [u32; 3],
        name_raw: [u8; NAME_FIELD],
        data: &[u8],
    ) -> Result<usize, Issue> {
        let i = self.push_entry(type_id, attrs, name_raw, data)?;
        self.names_changed();
        Ok(i)
    }

    /// [`Archive::add_entry_raw`] without recomputing `sort_index` (callers
    /// that add many entries and then encode canonically).
    pub(crate) fn push_entry(
        &mut self,
        type_id: u32,
        attrs: [u32; 3],
        name_raw: [u8; NAME_FIELD],
        data: &[u8],
    ) -> Result<usize, Issue> {
        if name_of(&name_raw).is_none() {
            return Err(err(
                "E_NRES_NAME_INVALID",
                None,
                "name field has no NUL within 36 bytes".into(),
            ));
        }
        if data.len() as u64 > u32::MAX as u64 {
            return Err(err("E_NRES_TOO_LARGE", None, "payload over 4 GiB".into()));
        }
        let off = self.append(data)?;
        self.entries.push(Entry {
            type_id,
            attr1: attrs[0],
            attr2: attrs[1],
            attr3: attrs[2],
            name_raw,
            data_offset: off,
            size: data.len() as u32,
            sort_index: 0,
        });
        Ok(self.entries.len() - 1)
    }

    /// Removes entry `i` from the directory; its bytes stay as an unindexed region.
    pub fn remove_entry(&mut self, i: usize) -> Result<Entry, Issue> {
        self.check_index(i)?;
        let e = self.entries.remove(i);
        self.names_changed();
        Ok(e)
    }

    /// Renames entry `i` (the new field is zero-filled after the NUL).
    pub fn rename_entry(&mut self, i: usize, name: &[u8]) -> Result<(), Issue> {
        self.check_index(i)?;
        let raw = field_for(name).map_err(|m| err("E_NRES_NAME_INVALID", Some(i), m))?;
        self.entries[i].name_raw = raw;
        self.names_changed();
        Ok(())
    }
}
