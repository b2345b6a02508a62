// re2d MSH — Res10 node names: the record walk and its encoder (spec: msh.md §3.4, §4.1 check 14).
//! A record is `u32 len`, then `len` bytes and one NUL when `len > 0`, and
//! nothing when `len == 0`; the next record starts at
//! `cur + 4 + (len > 0 ? len + 1 : 0)`. Names are Windows-1251 bytes and kept
//! raw; the terminator byte is kept as stored (it is not checked).

/// Result of walking Res10 for `nodes` records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameWalk {
    /// Per record parsed: byte range of the text inside the payload, `None`
    /// for `len == 0`. Shorter than `nodes` when the table ends early.
    pub names: Vec<Option<(u32, u32)>>,
    /// Offset where parsing stopped.
    pub end: u64,
    /// Why the walk does not match exactly `nodes` records (check 14).
    pub problem: Option<String>,
}

/// Walks Res10 expecting `nodes` records. Allocation is bounded by the
/// payload (every record takes at least 4 bytes).
pub fn walk(payload: &[u8], nodes: usize) -> NameWalk {
    let len = payload.len() as u64;
    let mut names = Vec::with_capacity(nodes.min(payload.len() / 4));
    let mut cur: u64 = 0;
    let mut problem = None;
    for i in 0..nodes {
        if cur + 4 > len {
            problem = Some(format!(
                "Res10 ends after {i} of {nodes} records (offset {cur} of {len})"
            ));
            break;
        }
        let c = cur as usize;
        let n =
            u32::from_le_bytes([payload[c], payload[c + 1], payload[c + 2], payload[c + 3]]) as u64;
        let next = cur + 4 + if n > 0 { n + 1 } else { 0 };
        if next > len {
            problem = Some(format!(
                "Res10 record {i} at offset {cur} claims {n} bytes, past the end ({len})"
            ));
            break;
        }
        names.push(if n > 0 {
            Some(((cur + 4) as u32, (cur + 4 + n) as u32))
        } else {
            None
        });
        cur = next;
    }
    if problem.is_none() && cur != len {
        problem = Some(format!(
            "Res10 has {} trailing bytes after {nodes} records ({cur}..{len})",
            len - cur
        ));
    }
    NameWalk {
        names,
        end: cur,
        problem,
    }
}

/// Encodes names as Res10 records (`None` or empty → `len = 0`).
pub fn encode(names: &[Option<&[u8]>]) -> Vec<u8> {
    let mut out = Vec::new();
    for n in names {
        match n {
            Some(t) if !t.is_empty() => {
                out.extend_from_slice(&(t.len() as u32).to_le_bytes());
                out.extend_from_slice(t);
                out.push(0);
            }
            _ => out.extend_from_slice(&0u32.to_le_bytes()),
        }
    }
    out
}
