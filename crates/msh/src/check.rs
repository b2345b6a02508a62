// re2d MSH — the model checks of §4.1 (1–15, 17, 18) and the tolerant reading plan; check 16 is in anim_check.rs (spec: msh.md §2.1, §3.5, §4.1).
//! [`analyze`] runs every check once over an archive and builds the
//! [`Model`] plan. Each finding records what strict mode does (reject) and
//! what tolerant mode does (the range it drops):
//!
//! | # | code | tolerant |
//! |---|---|---|
//! | — | `E_MSH_DUPLICATE_TABLE` | the first entry in directory order is used |
//! | 1 | `E_MSH_MISSING_TABLE` | rejected |
//! | 2 | `E_MSH_STRIDE` | the table is dropped |
//! | 3 | `E_MSH_RES1_STRIDE` | stride 38 if `size % 38 == 0`, else copy-through only |
//! | 4 | `E_MSH_ATTR3` | diagnostic |
//! | 5 | `E_MSH_ATTR_COUNT` | diagnostic |
//! | 6 | `E_MSH_STREAM_COUNT` | a shorter stream is ignored |
//! | 7 | `E_MSH_SLOT_REF` | the reference reads as `0xFFFF` |
//! | 8 | `E_MSH_SLOT_RANGE` | the slot is dropped |
//! | 9 | `E_MSH_TRI_RANGE` | the slot's triangle range is dropped |
//! | 10 | `E_MSH_INDEX_RANGE` | the batch is dropped |
//! | 11 | `E_MSH_VERTEX_RANGE` | the batch is dropped |
//! | 12 | `E_MSH_INDEX_COUNT` | trailing indices are ignored |
//! | 13 | `E_MSH_TRI_LINK` | the link reads as `0xFFFF` |
//! | 14 | `E_MSH_NAMES` | missing names are absent |
//! | 15 | `E_MSH_ANIM_PAIR` | animation ignored |
//! | 16 | `E_ANIM_*` (anim_check.rs) | the node uses its static pose |
//! | 17 | `E_MSH_PARENT_ORDER` | the hierarchy is flattened |
//! | 18 | `W_MSH_TRI_COUNT` | diagnostic in both profiles |
//!
//! A table dropped by check 2 makes the checks that depend on it silent
//! (one root cause, one error): their records are marked unusable and one
//! diagnostic says so.

use crate::nres::bytes::{le16, le32};
use crate::nres::{Archive, Findings};

use super::model::{Model, NodeLayout};
use super::names;
use super::tables::{
    BATCH_STRIDE, CORE_TYPES, HEADER_SIZE, NODE_STRIDE, NODE_STRIDE_LEGACY, NONE16, REQUIRED_TYPES,
    RES_AUX20, RES_BATCHES, RES_INDICES, RES_KEYS, RES_MAP, RES_NAMES, RES_NODES, RES_NORMALS,
    RES_POSITIONS, RES_SLOTS, RES_TRIS, RES_UV0, SLOT_STRIDE, TRI_STRIDE, expected_attr3, stride,
};

fn tname(t: u32) -> String {
    format!("Res{t}")
}

/// Runs checks 1–15, 17, 18 (and 16 through `anim_check`) and builds the
/// model; `None` when a tolerant-fatal check failed (a required table is missing).
pub(crate) fn analyze<'a>(archive: Archive<'a>, f: &mut Findings) -> Option<Model<'a>> {
    let es = archive.entries();
    // --- table lookup by type (first readable entry in directory order)
    let mut entry: [Option<u32>; 21] = [None; 21];
    let mut present = [false; 21];
    for &t in &CORE_TYPES {
        let all: Vec<usize> = archive.of_type(t).collect();
        if let Some(&first) = all.first() {
            present[t as usize] = archive.payload(first).is_some();
            if present[t as usize] {
                entry[t as usize] = Some(first as u32);
            }
        }
        if all.len() > 1 {
            f.error(
                "E_MSH_DUPLICATE_TABLE",
                Some(t),
                Some(all[1] as u64),
                format!(
                    "{} appears {} times (entries {:?}); the first (entry {}) is used",
                    tname(t),
                    all.len(),
                    all,
                    all[0]
                ),
            );
        }
    }
    // --- check 1: required tables
    let missing: Vec<u32> = REQUIRED_TYPES
        .iter()
        .copied()
        .filter(|&t| !present[t as usize])
        .collect();
    if !missing.is_empty() {
        let nested: Vec<String> = (0..es.len())
            .filter(|&i| archive.payload(i).is_some_and(|p| p.starts_with(b"NRes")))
            .map(|i| crate::nres::name::display(es[i].sort_key()))
            .collect();
        let hint = if nested.is_empty() {
            String::new()
        } else {
            format!(
                "; the archive holds nested NRes entries ({}): pick one with --entry NAME",
                nested.join(", ")
            )
        };
        f.fatal(
            "E_MSH_MISSING_TABLE",
            Some(missing[0]),
            None,
            format!(
                "required table(s) {} missing or unreadable{hint}",
                missing
                    .iter()
                    .map(|&t| tname(t))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
        return None;
    }
    let size = |entry: &[Option<u32>; 21], t: u32| -> usize {
        entry[t as usize].map_or(0, |i| es[i as usize].size as usize)
    };

    // --- check 2: fixed-stride sizes (Res1 is check 3)
    let mut dropped = [false; 21];
    for t in 2..=20u32 {
        if entry[t as usize].is_none() {
            continue;
        }
        let sz = size(&entry, t);
        let bad = if t == RES_SLOTS {
            sz < HEADER_SIZE || !(sz - HEADER_SIZE).is_multiple_of(SLOT_STRIDE)
        } else if let Some(s) = stride(t) {
            sz % s != 0
        } else {
            false
        };
        if bad {
            let ei = entry[t as usize].unwrap_or(0);
            let o = es[ei as usize].data_offset as u64;
            let rule = if t == RES_SLOTS {
                "140 + 68·n".to_string()
            } else {
                format!("a multiple of {}", stride(t).unwrap_or(1))
            };
            f.error(
                "E_MSH_STRIDE",
                Some(t),
                None,
                format!(
                    "{} is {sz} bytes, not {rule}; tolerant: the table (bytes {o}..{}) is dropped",
                    tname(t),
                    o + sz as u64
                ),
            );
            dropped[t as usize] = true;
            entry[t as usize] = None;
        }
    }
    let ent = |t: u32| entry[t as usize].map(|i| &es[i as usize]);
    // --- check 3: Res1 layout
    let n1 = ent(RES_NODES).cloned();
    let mut layout = NodeLayout::Unusable;
    let mut attr_nodes: Option<usize> = None; // node count for the count checks
    if let Some(e) = &n1 {
        let sz = e.size as usize;
        match e.attr3 {
            38 | 24 => {
                let s = e.attr3 as usize;
                if !sz.is_multiple_of(s) {
                    f.error(
                        "E_MSH_STRIDE",
                        Some(RES_NODES),
                        None,
                        format!(
                            "Res1 is {sz} bytes, not a multiple of its stride {s}; tolerant: copied through, no node data"
                        ),
                    );
                    dropped[1] = true;
                } else if s == NODE_STRIDE {
                    layout = NodeLayout::Stride38;
                    attr_nodes = Some(sz / s);
                } else {
                    layout = NodeLayout::Stride24;
                    attr_nodes = Some(sz / s);
                    f.diag(
                        "W_MSH_NODE_LAYOUT",
                        Some(RES_NODES),
                        None,
                        "Res1 uses the legacy 24-byte layout: copied through byte for byte, the model has no node or slot data and cannot be exported",
                    );
                }
            }
            a => {
                let fallback = if sz.is_multiple_of(NODE_STRIDE) {
                    layout = NodeLayout::Stride38;
                    attr_nodes = Some(sz / NODE_STRIDE);
                    "read with stride 38"
                } else {
                    "copied through only, no node data"
                };
                f.error(
                    "E_MSH_RES1_STRIDE",
                    Some(RES_NODES),
                    None,
                    format!("Res1.attr3 is {a}, expected 38 or {NODE_STRIDE_LEGACY}; tolerant: {fallback}"),
                );
            }
        }
    }
    let nodes = if layout == NodeLayout::Stride38 {
        attr_nodes.unwrap_or(0)
    } else {
        0
    };
    let count = |t: u32| -> usize {
        if entry[t as usize].is_none() {
            return 0;
        }
        let sz = size(&entry, t);
        if t == RES_SLOTS {
            (sz - HEADER_SIZE) / SLOT_STRIDE
        } else {
            sz / stride(t).unwrap_or(1)
        }
    };
    // --- check 4: attr3
    for t in [2u32, 3, 4, 5, 6, 7, 13, 8, 19, 10] {
        if let (Some(e), Some(want)) = (ent(t), expected_attr3(t))
            && e.attr3 != want
        {
            f.error(
                "E_MSH_ATTR3",
                Some(t),
                None,
                format!("{}.attr3 is {}, expected {want}", tname(t), e.attr3),
            );
        }
    }
    // --- check 5: attr1 counts, Res2.attr2
    if let (Some(e), Some(n)) = (&n1, attr_nodes)
        && e.attr1 as usize != n
    {
        f.error(
            "E_MSH_ATTR_COUNT",
            Some(1),
            None,
            format!("Res1.attr1 is {}, the table has {n} nodes", e.attr1),
        );
    }
    for t in [2u32, 3, 4, 5, 6, 7, 8, 13, 15, 16, 18, 19] {
        if let Some(e) = ent(t)
            && entry[t as usize].is_some()
            && e.attr1 as usize != count(t)
        {
            f.error(
                "E_MSH_ATTR_COUNT",
                Some(t),
                None,
                format!(
                    "{}.attr1 is {}, the table has {} records",
                    tname(t),
                    e.attr1,
                    count(t)
                ),
            );
        }
    }
    if let (Some(e), Some(n)) = (ent(RES_NAMES), attr_nodes)
        && e.attr1 as usize != n
    {
        f.error(
            "E_MSH_ATTR_COUNT",
            Some(RES_NAMES),
            None,
            format!("Res10.attr1 is {}, the model has {n} nodes", e.attr1),
        );
    }
    if let Some(e) = ent(RES_SLOTS)
        && e.attr2 != 0
    {
        f.error(
            "E_MSH_ATTR_COUNT",
            Some(RES_SLOTS),
            None,
            format!("Res2.attr2 is {}, expected 0", e.attr2),
        );
    }
    let slots = count(RES_SLOTS);
    let vertices = count(RES_POSITIONS);
    let indices = count(RES_INDICES);
    let tris = count(RES_TRIS);
    let batches = count(RES_BATCHES);
    // --- check 6: per-vertex streams
    let mut stream_ok = [true; 21];
    if !dropped[RES_POSITIONS as usize] {
        for t in [4u32, 5, 15, 16, 18] {
            if entry[t as usize].is_none() {
                stream_ok[t as usize] = false;
                continue;
            }
            let c = count(t);
            if c != vertices {
                let what = if c < vertices {
                    stream_ok[t as usize] = false;
                    "tolerant: the stream is ignored"
                } else {
                    "tolerant: the extra records are ignored"
                };
                f.error(
                    "E_MSH_STREAM_COUNT",
                    Some(t),
                    None,
                    format!(
                        "{} has {c} records for {vertices} vertices; {what}",
                        tname(t)
                    ),
                );
            }
        }
    } else {
        stream_ok = [false; 21];
        f.diag(
            "W_MSH_DROPPED",
            Some(RES_POSITIONS),
            None,
            "positions unusable: every batch is dropped",
        );
    }
    let n1b = entry[1]
        .and_then(|i| archive.payload(i as usize))
        .unwrap_or(&[]);
    // --- check 7: slot references
    if layout == NodeLayout::Stride38 && !dropped[RES_SLOTS as usize] {
        for (i, rec) in n1b.chunks_exact(NODE_STRIDE).enumerate() {
            for k in 0..15 {
                let s = le16(rec, 8 + 2 * k);
                if s != NONE16 && s as usize >= slots {
                    f.error(
                        "E_MSH_SLOT_REF",
                        Some(RES_NODES),
                        Some(i as u64),
                        format!(
                            "node {i} lod {} group {}: slot {s} past the {slots} slots; tolerant: reads as 0xFFFF",
                            k / 5,
                            k % 5
                        ),
                    );
                }
            }
        }
    }
    // --- checks 8, 9: slot ranges
    let slot_tab = entry[2]
        .and_then(|i| archive.payload(i as usize))
        .and_then(|p| p.get(HEADER_SIZE..))
        .unwrap_or(&[]);
    let mut slot_ok = vec![true; slots];
    let mut tri_ok = vec![true; slots];
    let batch_tab = entry[RES_BATCHES as usize]
        .and_then(|i| archive.payload(i as usize))
        .unwrap_or(&[]);
    for (i, rec) in slot_tab.chunks_exact(SLOT_STRIDE).enumerate() {
        let (ts, tc, bs, bc) = (
            le16(rec, 0) as u64,
            le16(rec, 2) as u64,
            le16(rec, 4) as u64,
            le16(rec, 6) as u64,
        );
        if bs + bc > batches as u64 {
            slot_ok[i] = false;
            if !dropped[RES_BATCHES as usize] {
                f.error(
                    "E_MSH_SLOT_RANGE",
                    Some(RES_SLOTS),
                    Some(i as u64),
                    format!(
                        "slot {i}: batches {bs}..{} past the {batches} batches; tolerant: the slot is dropped",
                        bs + bc
                    ),
                );
            }
        }
        if ts + tc > tris as u64 {
            tri_ok[i] = false;
            if !dropped[RES_TRIS as usize] {
                f.error(
                    "E_MSH_TRI_RANGE",
                    Some(RES_SLOTS),
                    Some(i as u64),
                    format!(
                        "slot {i}: triangles {ts}..{} past the {tris} descriptors{}; tolerant: the triangle range is dropped",
                        ts + tc,
                        if entry[RES_TRIS as usize].is_none() { " (no Res7)" } else { "" }
                    ),
                );
            }
        }
    }
    // --- checks 10, 11, 12: batches
    let idx = entry[RES_INDICES as usize]
        .and_then(|i| archive.payload(i as usize))
        .unwrap_or(&[]);
    let mut batch_ok = vec![true; batches];
    let pos_ok = !dropped[RES_POSITIONS as usize];
    for (i, rec) in batch_tab.chunks_exact(BATCH_STRIDE).enumerate() {
        let n = le16(rec, 8) as u64;
        let start = le32(rec, 10) as u64;
        let base = le32(rec, 16) as u64;
        let ix = Some(i as u64);
        if start + n > indices as u64 {
            batch_ok[i] = false;
            if !dropped[RES_INDICES as usize] {
                f.error(
                    "E_MSH_INDEX_RANGE",
                    Some(RES_BATCHES),
                    ix,
                    format!(
                        "batch {i}: indices {start}..{} past the {indices} indices; tolerant: the batch is dropped",
                        start + n
                    ),
                );
            }
        } else if n > 0 {
            let slice = &idx[start as usize * 2..(start + n) as usize * 2];
            let max = max_u16(slice) as u64;
            if base + max >= vertices as u64 {
                batch_ok[i] = false;
                if pos_ok {
                    f.error(
                        "E_MSH_VERTEX_RANGE",
                        Some(RES_BATCHES),
                        ix,
                        format!(
                            "batch {i}: base_vertex {base} + max index {max} is past the {vertices} vertices; tolerant: the batch is dropped"
                        ),
                    );
                }
            }
        }
        if !n.is_multiple_of(3) {
            f.error(
                "E_MSH_INDEX_COUNT",
                Some(RES_BATCHES),
                ix,
                format!(
                    "batch {i}: index_count {n} is not a multiple of 3; tolerant: the last {} indices are ignored",
                    n % 3
                ),
            );
        }
    }
    // --- check 13: triangle links
    let tri_tab = entry[RES_TRIS as usize]
        .and_then(|i| archive.payload(i as usize))
        .unwrap_or(&[]);
    for (t, rec) in tri_tab.chunks_exact(TRI_STRIDE).enumerate() {
        for k in 0..3 {
            let l = le16(rec, 2 + 2 * k);
            if l != NONE16 && l as usize >= tris {
                f.error(
                    "E_MSH_TRI_LINK",
                    Some(RES_TRIS),
                    Some(t as u64),
                    format!("triangle {t}: link{k} = {l} past the {tris} descriptors; tolerant: reads as 0xFFFF"),
                );
            }
        }
    }
    // --- check 14: names
    let mut names_v = Vec::new();
    if let (Some(ei), Some(n)) = (entry[RES_NAMES as usize], attr_nodes) {
        let p = archive.payload(ei as usize).unwrap_or(&[]);
        let w = names::walk(p, n);
        if let Some(problem) = w.problem {
            f.error(
                "E_MSH_NAMES",
                Some(RES_NAMES),
                Some(w.names.len() as u64),
                format!("{problem}; tolerant: missing names are absent"),
            );
        }
        if layout == NodeLayout::Stride38 {
            names_v = w.names;
        }
    }
    // --- check 15: animation pair
    let has8 = archive.of_type(RES_KEYS).next().is_some();
    let has19 = archive.of_type(RES_MAP).next().is_some();
    let mut anim_usable = present[RES_KEYS as usize]
        && present[RES_MAP as usize]
        && !dropped[RES_KEYS as usize]
        && !dropped[RES_MAP as usize];
    if has8 != has19 {
        anim_usable = false;
        f.error(
            "E_MSH_ANIM_PAIR",
            Some(if has8 { RES_MAP } else { RES_KEYS }),
            None,
            format!(
                "{} is present without {}; tolerant: animation ignored",
                tname(if has8 { RES_KEYS } else { RES_MAP }),
                tname(if has8 { RES_MAP } else { RES_KEYS })
            ),
        );
    }
    let keys = count(RES_KEYS);
    let map_words = count(RES_MAP);
    let frame_count = ent(RES_MAP).map_or(0, |e| e.attr2);
    let res20_attr1 = archive
        .of_type(RES_AUX20)
        .next()
        .filter(|&i| archive.payload(i).is_some())
        .map_or(0, |i| es[i].attr1);
    let normals_ok = stream_ok[RES_NORMALS as usize];
    let uvs_ok = stream_ok[RES_UV0 as usize];
    let mut model = Model {
        archive,
        entry,
        layout,
        nodes,
        slots,
        vertices: if pos_ok { vertices } else { 0 },
        indices,
        tris,
        batches,
        keys,
        map_words,
        frame_count,
        res20_attr1,
        normals_ok,
        uvs_ok,
        slot_ok,
        tri_ok,
        batch_ok,
        animated: vec![false; nodes],
        flattened: false,
        names: names_v,
    };
    if !pos_ok {
        model.batch_ok.iter_mut().for_each(|b| *b = false);
    }
    // --- check 16: animation
    if layout == NodeLayout::Stride38 && anim_usable {
        super::anim_check::check(&mut model, f);
    }
    // --- check 17: parents
    if layout == NodeLayout::Stride38 {
        let mut flat = false;
        let t = model.table(RES_NODES);
        for (i, rec) in t.chunks_exact(NODE_STRIDE).enumerate() {
            let p = le16(rec, 2);
            if p != NONE16 && p as usize >= i {
                flat = true;
                f.error(
                    "E_MSH_PARENT_ORDER",
                    Some(RES_NODES),
                    Some(i as u64),
                    format!("node {i}: parent {p} is not 0xFFFF and not below {i}; tolerant: the hierarchy is flattened"),
                );
            }
        }
        model.flattened = flat;
    }
    // --- check 18: slot triangle count lint
    for i in 0..model.slots {
        if !model.slot_ok[i] {
            continue;
        }
        let Some(s) = model.slot(i) else { continue };
        let sum: u64 = (s.batch_start as usize..s.batch_start as usize + s.batch_count as usize)
            .filter_map(|b| model.batch_raw(b))
            .map(|b| b.index_count as u64 / 3)
            .sum();
        if sum != s.tri_count as u64 {
            f.diag(
                "W_MSH_TRI_COUNT",
                Some(RES_SLOTS),
                Some(i as u64),
                format!(
                    "slot {i}: tri_count {} but its batches hold {sum} triangles",
                    s.tri_count
                ),
            );
        }
    }
    Some(model)
}

/// Largest `u16` of a little-endian `u16` array.
fn max_u16(b: &[u8]) -> u16 {
    let mut m = 0u16;
    for c in b.chunks_exact(2) {
        m = m.max(u16::from_le_bytes([c[0], c[1]]));
    }
    m
}
