// re2d NRes — the extract/pack manifest and the JSON form of directory entries (spec: msh.md §8).
//! `re2d nres extract` writes one file per entry plus `manifest.json`:
//!
//! ```json
//! {"format": "re2d-nres-manifest", "version": 1,
//!  "entries": [{"order": 0, "file": "0000_model_1.bin", "type": 1,
//!               "attr1": 5, "attr2": 0, "attr3": 38,
//!               "name": "model_1", "name_raw_hex": "6d6f…00", "sort_index": 3}]}
//! ```
//!
//! `order` is the directory index; `name_raw_hex` is the whole 36-byte name
//! field (bytes after the NUL included), `name` its text (Windows-1251 →
//! UTF-8, informative). `re2d nres pack` reads the same document: entries
//! are written in `order`, the name field comes from `name_raw_hex` when
//! present, else from `name` (UTF-8 → Windows-1251, zero-filled); `file` is
//! relative to the manifest. `sort_index` is recomputed.

use serde_json::{Value, json};

use super::archive::Archive;
use super::issue::Issue;
use super::name::{NAME_FIELD, cp1251_to_utf8, field_for, name_of, utf8_to_cp1251};

/// The JSON object of directory entry `i` (listing and manifest).
pub fn entry_json(a: &Archive<'_>, i: usize) -> Value {
    let e = &a.entries()[i];
    json!({
        "index": i,
        "type": e.type_id,
        "attr1": e.attr1,
        "attr2": e.attr2,
        "attr3": e.attr3,
        "data_offset": e.data_offset,
        "size": e.size,
        "sort_index": e.sort_index,
        "name": e.name().map(cp1251_to_utf8),
        "name_raw_hex": hex(&e.name_raw),
        "readable": a.payload(i).is_some(),
    })
}

/// Lower-case hex.
pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || !s.is_ascii() {
        return None;
    }
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok())
        .collect()
}

/// File name used by `extract` for entry `i`: `NNNN_<name>.bin` with every
/// byte outside `[A-Za-z0-9._-]` replaced by `_` (names may repeat, be empty
/// or hold path separators; the index keeps files apart).
pub fn file_name(a: &Archive<'_>, i: usize) -> String {
    let e = &a.entries()[i];
    let n: String = e
        .name()
        .unwrap_or(&[])
        .iter()
        .map(|&c| {
            if c.is_ascii_alphanumeric() || c == b'.' || c == b'_' || c == b'-' {
                c as char
            } else {
                '_'
            }
        })
        .collect();
    format!("{i:04}_{n}.bin")
}

/// The manifest of an archive (file names from [`file_name`]).
pub fn manifest(a: &Archive<'_>) -> Value {
    let entries: Vec<Value> = (0..a.len())
        .map(|i| {
            let e = &a.entries()[i];
            json!({
                "order": i,
                "file": file_name(a, i),
                "type": e.type_id,
                "attr1": e.attr1,
                "attr2": e.attr2,
                "attr3": e.attr3,
                "name": e.name().map(cp1251_to_utf8),
                "name_raw_hex": hex(&e.name_raw),
                "sort_index": e.sort_index,
            })
        })
        .collect();
    json!({"format": "re2d-nres-manifest", "version": 1, "entries": entries})
}

/// One manifest entry, ready to pack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestEntry {
    /// Directory position.
    pub order: u64,
    /// Payload file, relative to the manifest.
    pub file: String,
    /// Resource type.
    pub type_id: u32,
    /// attr1, attr2, attr3.
    pub attrs: [u32; 3],
    /// The name field.
    pub name_raw: [u8; NAME_FIELD],
}

fn bad(msg: String) -> Issue {
    Issue::new("E_NRES_MANIFEST", None, None, msg)
}

/// Parses a manifest; entries come back sorted by `order` (which must be
/// unique).
pub fn parse_manifest(bytes: &[u8]) -> Result<Vec<ManifestEntry>, Issue> {
    let doc: Value = serde_json::from_slice(bytes).map_err(|e| bad(format!("not JSON: {e}")))?;
    if doc.get("format").and_then(Value::as_str) != Some("re2d-nres-manifest") {
        return Err(bad("\"format\" must be \"re2d-nres-manifest\"".into()));
    }
    if doc.get("version").and_then(Value::as_u64) != Some(1) {
        return Err(bad("\"version\" must be 1".into()));
    }
    let list = doc
        .get("entries")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("\"entries\" must be an array".into()))?;
    let mut out = Vec::with_capacity(list.len());
    for (k, e) in list.iter().enumerate() {
        let at = |f: &str| format!("entries[{k}].{f}");
        let u32f = |f: &str, def: Option<u32>| -> Result<u32, Issue> {
            match e.get(f) {
                None if def.is_some() => Ok(def.unwrap_or(0)),
                v => v
                    .and_then(Value::as_u64)
                    .filter(|&x| x <= u32::MAX as u64)
                    .map(|x| x as u32)
                    .ok_or_else(|| bad(format!("{} must be an integer 0..2^32", at(f)))),
            }
        };
        let order = e
            .get("order")
            .map_or(Some(k as u64), Value::as_u64)
            .ok_or_else(|| bad(format!("{} must be a non-negative integer", at("order"))))?;
        let file = e
            .get("file")
            .and_then(Value::as_str)
            .ok_or_else(|| bad(format!("{} must be a string", at("file"))))?
            .to_string();
        let name_raw = match (e.get("name_raw_hex"), e.get("name")) {
            (Some(h), _) => {
                let b = h
                    .as_str()
                    .and_then(unhex)
                    .filter(|b| b.len() == NAME_FIELD)
                    .ok_or_else(|| bad(format!("{} must be 72 hex digits", at("name_raw_hex"))))?;
                let mut r = [0u8; NAME_FIELD];
                r.copy_from_slice(&b);
                if name_of(&r).is_none() {
                    return Err(bad(format!(
                        "{}: the name field has no NUL",
                        at("name_raw_hex")
                    )));
                }
                r
            }
            (None, Some(n)) => {
                let t = n
                    .as_str()
                    .ok_or_else(|| bad(format!("{} must be a string", at("name"))))?;
                let b = utf8_to_cp1251(t).ok_or_else(|| {
                    bad(format!("{}: not representable in Windows-1251", at("name")))
                })?;
                field_for(&b).map_err(|m| bad(format!("{}: {m}", at("name"))))?
            }
            (None, None) => return Err(bad(format!("{} or name_raw_hex is required", at("name")))),
        };
        out.push(ManifestEntry {
            order,
            file,
            type_id: u32f("type", None)?,
            attrs: [
                u32f("attr1", Some(0))?,
                u32f("attr2", Some(0))?,
                u32f("attr3", Some(0))?,
            ],
            name_raw,
        });
    }
    out.sort_by_key(|e| e.order);
    if let Some(w) = out.windows(2).find(|w| w[0].order == w[1].order) {
        return Err(bad(format!("two entries have order {}", w[0].order)));
    }
    Ok(out)
}

/// Refuses a manifest whose archive the reader would reject, before any
/// payload is read: more than `nres-max-entries` entries, or an empty name
/// (`E_NRES_NAME_EMPTY` for the reader).
pub fn check_packable(
    entries: &[ManifestEntry],
    limits: &re2d::limits::Limits,
) -> Result<(), Issue> {
    if entries.len() as u64 > limits.nres_max_entries as u64 {
        return Err(Issue::new(
            "E_NRES_LIMIT",
            None,
            None,
            format!(
                "the manifest lists {} entries, more than {} (limit nres-max-entries, see --limit)",
                entries.len(),
                limits.nres_max_entries
            ),
        ));
    }
    if let Some(e) = entries
        .iter()
        .find(|e| super::name::name_of(&e.name_raw).is_some_and(<[u8]>::is_empty))
    {
        return Err(Issue::new(
            "E_NRES_NAME_EMPTY",
            None,
            Some(e.order),
            format!(
                "entry {} (file '{}') has an empty name, which the reader rejects",
                e.order, e.file
            ),
        ));
    }
    Ok(())
}

/// Packs entries with their payloads into a canonical archive.
pub fn pack(entries: &[(ManifestEntry, Vec<u8>)]) -> Result<Vec<u8>, Issue> {
    let mut a = Archive::new();
    for (e, data) in entries {
        a.push_entry(e.type_id, e.attrs, e.name_raw, data)?;
    }
    a.encode_canonical()
}
