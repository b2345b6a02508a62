// re2d NRes — decoding with the strict and tolerant profiles, decode limits, every check of §1.6 (spec: msh.md §1.2–§1.6).
//! [`read`] runs every check once and classifies each finding for both
//! profiles; [`decode`] applies a profile and [`validate`] lists everything.
//!
//! | check | code | strict | tolerant |
//! |---|---|---|---|
//! | input ≤ limit, `entry_count` ≤ limit | `E_NRES_LIMIT` | error | error |
//! | at least 16 bytes | `E_NRES_HEADER` | error | error |
//! | magic | `E_NRES_MAGIC` | error | error |
//! | version `0x100` | `E_NRES_VERSION` | error | error |
//! | `entry_count ≥ 0` | `E_NRES_ENTRY_COUNT` | error | error |
//! | `total_size` = file length | `E_NRES_TOTAL_SIZE` | error | error |
//! | directory inside the file (`directory_offset ≥ 16`) | `E_NRES_DIRECTORY` | error | error |
//! | payload inside the data region | `E_NRES_PAYLOAD_RANGE` | error | entry unreadable |
//! | payload ≤ limit | `E_NRES_LIMIT` | error | entry unreadable |
//! | NUL within the 36-byte name | `E_NRES_NAME_UNTERMINATED` | error | lookups skip it |
//! | non-empty name | `E_NRES_NAME_EMPTY` | error | diagnostic |
//! | non-empty payloads do not overlap | `E_NRES_OVERLAP` | error | diagnostic |
//! | `sort_index` is a permutation | `E_NRES_SORT_INDEX` | error | linear lookup |
//! | names non-decreasing along it | `E_NRES_SORT_ORDER` | error | linear lookup |
//! | duplicate names | `W_NRES_DUPLICATE_NAME` | diagnostic | diagnostic |
//! | 8-byte alignment of payloads and directory | `W_NRES_ALIGN` | diagnostic | diagnostic |
//! | zero padding | `W_NRES_PADDING` | diagnostic | diagnostic |
//! | unindexed bytes | `W_NRES_UNINDEXED` | diagnostic | diagnostic |
//! | `sort_index` valid but not the canonical tie order | `W_NRES_SORT_NONCANONICAL` | diagnostic | diagnostic |

use std::borrow::Cow;

use super::archive::{Archive, ENTRY_SIZE, Entry, HEADER_SIZE, MAGIC, VERSION};
use super::bytes::{align8, le32};
use super::issue::{Finding, Findings, Issue, Report, Tolerant};
use super::lookup::{canonical_order, first_unsorted, is_permutation};
use super::name::{NAME_FIELD, display, eq};
use re2d::limits::Limits;

/// A reading profile (§1.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// The first violation rejects the input.
    Strict,
    /// Damaged ranges are dropped with a diagnostic; only structural damage rejects.
    Tolerant,
}

/// Decodes an archive, running every check: `Err` only for the findings
/// that are fatal in both profiles (header, directory, limits). The archive
/// borrows `bytes`.
pub fn read<'a>(bytes: &'a [u8], limits: &Limits) -> Result<(Archive<'a>, Vec<Finding>), Issue> {
    let len = bytes.len() as u64;
    let fatal = |code, msg: String| Err(Issue::new(code, None, None, msg));
    if len > limits.nres_max_input_bytes {
        return fatal(
            "E_NRES_LIMIT",
            format!(
                "archive is {len} bytes, over the limit of {} bytes",
                limits.nres_max_input_bytes
            ),
        );
    }
    if bytes.len() < 4 || bytes[..4] != MAGIC {
        return fatal(
            "E_NRES_MAGIC",
            "not an NRes archive (magic is not \"NRes\")".into(),
        );
    }
    if bytes.len() < HEADER_SIZE as usize {
        return fatal(
            "E_NRES_HEADER",
            format!("{len} bytes is shorter than the 16-byte header"),
        );
    }
    let version = le32(bytes, 4);
    if version != VERSION {
        return fatal(
            "E_NRES_VERSION",
            format!("version is {version:#x}, expected 0x100"),
        );
    }
    let count = le32(bytes, 8) as i32;
    if count < 0 {
        return fatal(
            "E_NRES_ENTRY_COUNT",
            format!("entry_count is negative ({count})"),
        );
    }
    if count as u32 > limits.nres_max_entries {
        return fatal(
            "E_NRES_LIMIT",
            format!(
                "entry_count {count} is over the limit of {}",
                limits.nres_max_entries
            ),
        );
    }
    let total = le32(bytes, 12) as u64;
    if total != len {
        return fatal(
            "E_NRES_TOTAL_SIZE",
            format!("total_size is {total} but the file is {len} bytes"),
        );
    }
    let dir_size = count as u64 * ENTRY_SIZE;
    let dir_off = total as i64 - dir_size as i64;
    if dir_off < HEADER_SIZE as i64 {
        return fatal(
            "E_NRES_DIRECTORY",
            format!(
                "a directory of {count} entries ({dir_size} bytes) does not fit after the header of a {len}-byte file"
            ),
        );
    }
    let dir_off = dir_off as u64;
    // the directory range is inside the input now, so `count` is bounded by it
    let mut entries = Vec::with_capacity(count as usize);
    for rec in bytes[dir_off as usize..].chunks_exact(ENTRY_SIZE as usize) {
        let mut name_raw = [0u8; NAME_FIELD];
        name_raw.copy_from_slice(&rec[20..56]);
        entries.push(Entry {
            type_id: le32(rec, 0),
            attr1: le32(rec, 4),
            attr2: le32(rec, 8),
            size: le32(rec, 12),
            attr3: le32(rec, 16),
            name_raw,
            data_offset: le32(rec, 56),
            sort_index: le32(rec, 60),
        });
    }
    let archive = Archive {
        region: Cow::Borrowed(&bytes[HEADER_SIZE as usize..dir_off as usize]),
        entries,
        max_payload: limits.nres_max_payload_bytes,
        lookup_sorted: false,
    };
    let mut f = Findings::new(limits.msh_max_findings_per_code);
    let lookup_sorted = check_entries(&archive, &mut f);
    let archive = Archive {
        lookup_sorted,
        ..archive
    };
    Ok((archive, f.finish()))
}

/// Entry-level checks of §1.6; returns whether lookups can use `sort_index`.
pub(crate) fn check_entries(a: &Archive<'_>, f: &mut Findings) -> bool {
    let es = &a.entries;
    let dir_off = a.directory_offset();
    let mut readable = vec![false; es.len()];
    for (i, e) in es.iter().enumerate() {
        let (s, end) = e.range();
        let ix = Some(i as u64);
        if s < HEADER_SIZE || end > dir_off {
            f.error(
                "E_NRES_PAYLOAD_RANGE",
                None,
                ix,
                format!(
                    "entry {i}: payload {s}..{end} is outside the data region {HEADER_SIZE}..{dir_off}; the entry is unreadable"
                ),
            );
        } else if e.size as u64 > a.max_payload {
            f.error(
                "E_NRES_LIMIT",
                None,
                ix,
                format!(
                    "entry {i}: payload of {} bytes is over the limit of {}; the entry is unreadable",
                    e.size, a.max_payload
                ),
            );
        } else {
            readable[i] = true;
        }
        match e.name() {
            None => f.error(
                "E_NRES_NAME_UNTERMINATED",
                None,
                ix,
                format!("entry {i}: name has no NUL within 36 bytes; lookups skip it"),
            ),
            Some([]) => f.error(
                "E_NRES_NAME_EMPTY",
                None,
                ix,
                format!("entry {i}: empty name"),
            ),
            Some(_) => {}
        }
    }
    // overlaps between non-empty readable payloads (sweep by start offset)
    let mut live: Vec<usize> = (0..es.len())
        .filter(|&i| readable[i] && es[i].size > 0)
        .collect();
    live.sort_by_key(|&i| (es[i].data_offset, i));
    let mut widest: Option<usize> = None;
    for &i in &live {
        if let Some(w) = widest {
            let (ws, we) = es[w].range();
            let (s, e) = es[i].range();
            if s < we {
                f.error(
                    "E_NRES_OVERLAP",
                    None,
                    Some(i as u64),
                    format!("entry {i}: payload {s}..{e} overlaps entry {w} ({ws}..{we})"),
                );
            }
            if e > we {
                widest = Some(i);
            }
        } else {
            widest = Some(i);
        }
    }
    // sort_index
    let perm = is_permutation(es);
    let mut sorted = false;
    if !perm {
        let bad = es
            .iter()
            .position(|e| e.sort_index as usize >= es.len())
            .map(|i| {
                format!(
                    "entry {i} has sort_index {} (N = {})",
                    es[i].sort_index,
                    es.len()
                )
            })
            .unwrap_or_else(|| "a value repeats".into());
        f.error(
            "E_NRES_SORT_INDEX",
            None,
            None,
            format!(
                "sort_index values are not a permutation of 0..N ({bad}); lookups scan linearly"
            ),
        );
    } else if let Some(p) = first_unsorted(es) {
        f.error(
            "E_NRES_SORT_ORDER",
            None,
            Some(p as u64),
            format!(
                "names along sort_index decrease at position {p} (\"{}\" > \"{}\"); lookups scan linearly",
                display(es[es[p - 1].sort_index as usize].sort_key()),
                display(es[es[p].sort_index as usize].sort_key())
            ),
        );
    } else {
        sorted = true;
    }
    let canon = canonical_order(es);
    for w in canon.windows(2) {
        let (a0, b0) = (&es[w[0] as usize], &es[w[1] as usize]);
        if let (Some(x), Some(y)) = (a0.name(), b0.name())
            && eq(x, y)
        {
            f.diag(
                "W_NRES_DUPLICATE_NAME",
                None,
                Some(w[1] as u64),
                format!(
                    "entries {} and {} share the name \"{}\"; lookups return the lowest index",
                    w[0],
                    w[1],
                    display(y)
                ),
            );
        }
    }
    if sorted && es.iter().zip(&canon).any(|(e, &p)| e.sort_index != p) {
        f.diag(
            "W_NRES_SORT_NONCANONICAL",
            None,
            None,
            "sort_index is valid but orders equal names differently from the canonical (by index) order",
        );
    }
    layout_diagnostics(a, &readable, f);
    sorted && es.iter().all(|e| e.name().is_some())
}

/// Non-canonical layout: alignment, non-zero padding, unindexed regions.
fn layout_diagnostics(a: &Archive<'_>, readable: &[bool], f: &mut Findings) {
    let es = &a.entries;
    let dir_off = a.directory_offset();
    for (i, e) in es.iter().enumerate() {
        if readable[i] && e.data_offset % 8 != 0 {
            f.diag(
                "W_NRES_ALIGN",
                None,
                Some(i as u64),
                format!(
                    "entry {i}: payload offset {} is not 8-aligned",
                    e.data_offset
                ),
            );
        }
    }
    if !dir_off.is_multiple_of(8) {
        f.diag(
            "W_NRES_ALIGN",
            None,
            None,
            format!("directory offset {dir_off} is not 8-aligned"),
        );
    }
    // walk the data region in offset order
    let mut by_off: Vec<usize> = (0..es.len())
        .filter(|&i| readable[i] && es[i].size > 0)
        .collect();
    by_off.sort_by_key(|&i| (es[i].data_offset, es[i].size));
    let mut cur = HEADER_SIZE; // first byte not yet covered
    let region = &a.region;
    let at = |o: u64| region[(o - HEADER_SIZE) as usize];
    let gap = |from: u64, to: u64, f: &mut Findings| {
        if from >= to {
            return;
        }
        // padding: up to the next 8-byte boundary after a payload end
        let pad_end = align8(from).min(to);
        if (from..pad_end).any(|o| at(o) != 0) {
            f.diag(
                "W_NRES_PADDING",
                None,
                None,
                format!("non-zero padding bytes in {from}..{pad_end}"),
            );
        }
        if pad_end < to {
            f.diag(
                "W_NRES_UNINDEXED",
                None,
                None,
                format!("unindexed region {pad_end}..{to} ({} bytes)", to - pad_end),
            );
        }
    };
    for &i in &by_off {
        let (s, e) = es[i].range();
        if s > cur {
            gap(cur, s, f);
        }
        cur = cur.max(e);
    }
    gap(cur, dir_off, f);
}

/// Decodes with a profile: strict → the archive and its diagnostics, or the
/// first violation; tolerant → the archive with every finding as a
/// diagnostic, or the first fatal one.
pub fn decode<'a>(
    bytes: &'a [u8],
    profile: Profile,
    limits: &Limits,
) -> Result<(Archive<'a>, Vec<Issue>), Issue> {
    let (a, findings) = read(bytes, limits)?;
    apply_profile(findings, profile).map(|d| (a, d))
}

/// Applies a profile to findings: the first rejecting one as `Err`, the rest
/// as diagnostics.
pub fn apply_profile(findings: Vec<Finding>, profile: Profile) -> Result<Vec<Issue>, Issue> {
    let reject = |f: &Finding| match profile {
        Profile::Strict => f.strict_error,
        Profile::Tolerant => f.tolerant == Tolerant::Fatal,
    };
    if let Some(f) = findings.iter().find(|f| reject(f)) {
        return Err(f.issue.clone());
    }
    Ok(findings.into_iter().map(|f| f.issue).collect())
}

/// Every violation and diagnostic of an archive (a fatal one is the only error).
pub fn validate(bytes: &[u8], limits: &Limits) -> Report {
    match read(bytes, limits) {
        Ok((_, findings)) => Report::from_findings(&findings),
        Err(e) => Report {
            errors: vec![e],
            diagnostics: vec![],
        },
    }
}
