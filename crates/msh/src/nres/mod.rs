// re2d NRes — the archive container of MSH models: reader, validator, lookup, lossless writer (spec: msh.md §1).
//! An NRes archive is a 16-byte header, a data region and a directory of
//! 64-byte entries at the end of the file.
//!
//! | file | stage | spec |
//! |---|---|---|
//! | `bytes.rs` | little-endian field readers that cannot go out of bounds | — |
//! | `issue.rs` | findings: stable codes, table, index, message; strict/tolerant classification; reports | §1.6, §8 |
//! | `name.rs` | the 36-byte name field, lower-case collation, writer name rules, Windows-1251 | §1.3, §1.5 |
//! | `archive.rs` | the lossless IR: data region + directory as stored, borrowed payloads | §1.1–§1.4 |
//! | `read.rs` | decoding: limits, header, directory, every §1.6 check, profiles, validator | §1.2, §1.6 |
//! | `lookup.rs` | canonical `sort_index` permutation, case-insensitive lookup | §1.5 |
//! | `write.rs` | lossless encode, edits (replace/add/remove/rename), canonical repack | §1.7 |
//! | `manifest.rs` | `extract`/`pack` manifest, JSON form of entries | §8 |
//!
//! ```
//! use re2d::limits::Limits;
//! use re2d_msh::nres;
//! let mut a = nres::Archive::new();
//! a.add_entry(1, [0, 0, 0], b"a", b"xyz")?;
//! let bytes = a.encode_canonical()?;
//! let (back, _diags) = nres::decode(&bytes, nres::Profile::Strict, &Limits::DEFAULT)?;
//! assert_eq!(back.find(b"A").map(|f| f.index), Some(0));
//! assert_eq!(back.encode_lossless()?, bytes);
//! # Ok::<(), nres::Issue>(())
//! ```

mod archive;
pub(crate) mod bytes;
mod issue;
mod lookup;
pub mod manifest;
pub mod name;
mod read;
mod write;

pub use archive::{Archive, ENTRY_SIZE, Entry, HEADER_SIZE, MAGIC, VERSION};
pub(crate) use issue::Findings;
pub use issue::{Finding, Issue, Report, Tolerant};
pub use lookup::{Found, canonical_order, first_unsorted, is_permutation};
pub use read::{Profile, apply_profile, decode, read, validate};
