// re2d NRes — sort_index permutation and case-insensitive lookup (spec: msh.md §1.5).
//! `P` = entry indices sorted by name (lower-case fold, ties by ascending
//! index); a canonical archive stores `entries[i].sort_index = P[i]`.
//! [`Archive::find`] binary-searches through the stored permutation when it
//! is usable and scans the directory otherwise; with several entries of the
//! same name it returns the lowest directory index and says how many match.

use std::cmp::Ordering;

use super::archive::{Archive, Entry};
use super::name::{compare, eq};

/// The canonical permutation `P` of §1.5.
pub fn canonical_order(entries: &[Entry]) -> Vec<u32> {
    let mut p: Vec<u32> = (0..entries.len() as u32).collect();
    // stable: equal names keep ascending index order
    p.sort_by(|&a, &b| {
        compare(
            entries[a as usize].sort_key(),
            entries[b as usize].sort_key(),
        )
    });
    p
}

/// Whether the stored `sort_index` values form a permutation of `0..N`.
pub fn is_permutation(entries: &[Entry]) -> bool {
    let n = entries.len();
    let mut seen = vec![false; n];
    for e in entries {
        let v = e.sort_index as usize;
        if v >= n || seen[v] {
            return false;
        }
        seen[v] = true;
    }
    true
}

/// First position `i ≥ 1` where the names along the stored permutation
/// decrease (`None` when sorted). Requires [`is_permutation`].
pub fn first_unsorted(entries: &[Entry]) -> Option<usize> {
    (1..entries.len()).find(|&i| {
        let a = entries[entries[i - 1].sort_index as usize].sort_key();
        let b = entries[entries[i].sort_index as usize].sort_key();
        compare(a, b) == Ordering::Greater
    })
}

/// Whether lookups can binary-search through the stored permutation.
pub(crate) fn usable(entries: &[Entry]) -> bool {
    entries.iter().all(|e| e.name().is_some())
        && is_permutation(entries)
        && first_unsorted(entries).is_none()
}

/// A lookup result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// Lowest directory index with the name.
    pub index: usize,
    /// How many entries have the name (more than 1 deserves a diagnostic).
    pub matches: usize,
}

impl Archive<'_> {
    /// Finds an entry by name, ASCII case-insensitively (§1.5). Entries whose
    /// name field has no NUL are never found.
    pub fn find(&self, name: &[u8]) -> Option<Found> {
        let es = &self.entries;
        if self.lookup_sorted {
            // lower bound over sorted positions
            let (mut lo, mut hi) = (0usize, es.len());
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                let k = es[es[mid].sort_index as usize].sort_key();
                if compare(k, name) == Ordering::Less {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            let mut best: Option<Found> = None;
            let mut i = lo;
            while i < es.len() {
                let idx = es[i].sort_index as usize;
                if !eq(es[idx].sort_key(), name) {
                    break;
                }
                best = Some(match best {
                    None => Found {
                        index: idx,
                        matches: 1,
                    },
                    Some(f) => Found {
                        index: f.index.min(idx),
                        matches: f.matches + 1,
                    },
                });
                i += 1;
            }
            best
        } else {
            let mut best: Option<Found> = None;
            for (i, e) in es.iter().enumerate() {
                if e.name().is_some_and(|n| eq(n, name)) {
                    best = Some(match best {
                        None => Found {
                            index: i,
                            matches: 1,
                        },
                        Some(f) => Found {
                            index: f.index,
                            matches: f.matches + 1,
                        },
                    });
                }
            }
            best
        }
    }

    /// Indices of the entries with `type_id`, in directory order.
    pub fn of_type(&self, type_id: u32) -> impl Iterator<Item = usize> + '_ {
        self.entries
            .iter()
            .enumerate()
            .filter(move |(_, e)| e.type_id == type_id)
            .map(|(i, _)| i)
    }
}
