// re2d NRes tests: golden vectors, every §1.6 check in strict and tolerant mode, lookup, lossless edit policy, canonical repack (spec: msh.md §1, §9.2–§9.4).

use std::cmp::Ordering;

use re2d::limits::Limits;
use re2d_msh::nres::{self, Archive, Profile, name};
use re2d_msh::synth;

const L: Limits = Limits::DEFAULT;

fn set32(b: &mut [u8], o: usize, v: u32) {
    b[o..o + 4].copy_from_slice(&v.to_le_bytes());
}
fn get32(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes(b[o..o + 4].try_into().unwrap())
}
/// Offset of directory entry `i`.
fn dir(b: &[u8], i: usize) -> usize {
    b.len() - 64 * get32(b, 8) as usize + 64 * i
}

/// The §1.8 example, typed from the spec.
fn example() -> Vec<u8> {
    let mut v = vec![
        0x4E, 0x52, 0x65, 0x73, 0x00, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x58, 0x00, 0x00,
        0x00, //
        0x78, 0x79, 0x7A, 0x00, 0x00, 0x00, 0x00, 0x00, //
        0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00,
        0x00, //
        0x00, 0x00, 0x00, 0x00, 0x61,
    ];
    v.extend_from_slice(&[0; 35]);
    v.extend_from_slice(&[0x10, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(v.len(), 88);
    v
}

#[test]
fn golden_worked_example() {
    let mut a = Archive::new();
    a.add_entry(1, [0, 0, 0], b"a", b"xyz").unwrap();
    assert_eq!(a.encode_canonical().unwrap(), example());
    let ex = example();
    let (back, d) = nres::decode(&ex, Profile::Strict, &L).unwrap();
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(back.payload(0), Some(&b"xyz"[..]));
    assert_eq!(back.entries()[0].name(), Some(&b"a"[..]));
    assert_eq!(back.encode_lossless().unwrap(), example());
}

#[test]
fn golden_sort_index_example() {
    let mut a = Archive::new();
    a.add_entry(1, [0; 3], b"b", b"").unwrap();
    a.add_entry(1, [0; 3], b"A", b"").unwrap();
    let bytes = a.encode_canonical().unwrap();
    assert_eq!(get32(&bytes, dir(&bytes, 0) + 60), 1);
    assert_eq!(get32(&bytes, dir(&bytes, 1) + 60), 0);
    assert_eq!(nres::canonical_order(a.entries()), vec![1, 0]);
}

#[test]
fn collation_folds_to_lower_case() {
    assert_eq!(name::compare(b"a_b", b"ab"), Ordering::Less);
    // an upper-case fold would put 'B' (0x42) before '_' (0x5F)
    assert_eq!(name::compare(b"A_B", b"AB"), Ordering::Less);
    assert_eq!(name::compare(b"ABC", b"abc"), Ordering::Equal);
    assert_eq!(name::compare(b"ab", b"abc"), Ordering::Less);
    // unsigned bytes: 0xC0 > 'z'
    assert_eq!(name::compare(&[0xC0], b"z"), Ordering::Greater);
}

#[test]
fn windows_1251_names() {
    assert_eq!(
        name::cp1251_to_utf8(&[0xC0, 0xE1, 0xA8, 0xB8, 0xB9]),
        "АбЁё№"
    );
    assert_eq!(name::cp1251_to_utf8(&[0x98]), "\u{FFFD}");
    assert_eq!(
        name::utf8_to_cp1251("Привет").unwrap(),
        vec![0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2]
    );
    assert!(name::utf8_to_cp1251("日本").is_none());
    for b in 0u8..=255 {
        if b != 0x98 {
            let s = name::cp1251_to_utf8(&[b]);
            assert_eq!(name::utf8_to_cp1251(&s).unwrap(), vec![b], "byte {b:#x}");
        }
    }
}

#[test]
fn writer_rejects_bad_names() {
    let mut a = Archive::new();
    assert_eq!(
        a.add_entry(1, [0; 3], &[b'x'; 36], b"").unwrap_err().code,
        "E_NRES_NAME_INVALID"
    );
    assert_eq!(
        a.add_entry(1, [0; 3], b"a\0b", b"").unwrap_err().code,
        "E_NRES_NAME_INVALID"
    );
    a.add_entry(1, [0; 3], &[b'x'; 35], b"").unwrap();
    assert_eq!(a.len(), 1);
}

fn base() -> Vec<u8> {
    synth::generate("triangle", 7).unwrap().bytes
}

fn strict_code(b: &[u8]) -> &'static str {
    nres::decode(b, Profile::Strict, &L)
        .map(|_| "ok")
        .unwrap_or_else(|e| e.code)
}

fn tolerant(b: &[u8]) -> Result<(Archive<'_>, Vec<nres::Issue>), nres::Issue> {
    nres::decode(b, Profile::Tolerant, &L)
}

#[test]
fn fatal_checks_reject_in_both_profiles() {
    let b = base();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("E_NRES_MAGIC", {
            let mut x = b.clone();
            x[0] = b'M';
            x
        }),
        ("E_NRES_MAGIC", b"NR".to_vec()),
        ("E_NRES_HEADER", b"NRes\0\x01\0\0".to_vec()),
        ("E_NRES_VERSION", {
            let mut x = b.clone();
            set32(&mut x, 4, 0x200);
            x
        }),
        ("E_NRES_ENTRY_COUNT", {
            let mut x = b.clone();
            set32(&mut x, 8, 0x8000_0000);
            x
        }),
        ("E_NRES_LIMIT", {
            let mut x = b.clone();
            set32(&mut x, 8, 70_000);
            x
        }),
        ("E_NRES_TOTAL_SIZE", {
            let mut x = b.clone();
            set32(&mut x, 12, b.len() as u32 + 1);
            x
        }),
        ("E_NRES_DIRECTORY", {
            let mut x = b.clone();
            set32(&mut x, 8, (b.len() / 64) as u32 + 1);
            x
        }),
    ];
    for (code, x) in &cases {
        assert_eq!(strict_code(x), *code);
        assert_eq!(tolerant(x).unwrap_err().code, *code);
        let r = nres::validate(x, &L);
        assert_eq!(r.errors.len(), 1);
        assert_eq!(r.errors[0].code, *code);
    }
    // the input limit is checked before anything else
    let small = Limits {
        nres_max_input_bytes: 100,
        ..L
    };
    assert_eq!(
        nres::decode(&b, Profile::Tolerant, &small)
            .unwrap_err()
            .code,
        "E_NRES_LIMIT"
    );
}

#[test]
fn a_40_byte_file_claiming_4_gib_is_rejected() {
    let mut x = vec![0u8; 40];
    x[..4].copy_from_slice(b"NRes");
    set32(&mut x, 4, 0x100);
    set32(&mut x, 8, 0x00FF_FFFF);
    set32(&mut x, 12, 40);
    assert_eq!(strict_code(&x), "E_NRES_LIMIT");
    set32(&mut x, 8, 60_000);
    assert_eq!(strict_code(&x), "E_NRES_DIRECTORY");
    set32(&mut x, 12, u32::MAX);
    assert_eq!(strict_code(&x), "E_NRES_TOTAL_SIZE");
}

/// Strict code, and that tolerant accepts with that code among its diagnostics.
fn entry_level<'a>(x: &'a [u8], code: &str) -> (Archive<'a>, Vec<nres::Issue>) {
    assert_eq!(strict_code(x), code);
    let (a, d) = tolerant(x).unwrap_or_else(|e| panic!("tolerant rejects {code}: {e}"));
    assert!(d.iter().any(|i| i.code == code), "{code} not in {d:?}");
    let r = nres::validate(x, &L);
    assert_eq!(r.errors[0].code, code);
    assert_eq!(
        a.encode_lossless().unwrap(),
        x,
        "lossless identity of the tolerant read"
    );
    (a, d)
}

#[test]
fn entry_checks_strict_error_tolerant_behaviour() {
    let b = base();
    // payload range: the entry becomes unreadable
    let mut x = b.clone();
    let d0 = dir(&x, 3);
    set32(&mut x, d0 + 56, 8);
    let (a, _) = entry_level(&x, "E_NRES_PAYLOAD_RANGE");
    assert_eq!(a.payload(3), None);
    assert!(a.payload(0).is_some());
    let mut x = b.clone();
    set32(&mut x, d0 + 12, 1 << 30);
    let (a, _) = entry_level(&x, "E_NRES_PAYLOAD_RANGE");
    assert_eq!(a.payload(3), None);
    // payload over the payload limit
    let lim = Limits {
        nres_max_payload_bytes: 16,
        ..L
    };
    let big_entry = (0..11).find(|&i| get32(&b, dir(&b, i) + 12) > 16).unwrap();
    let e = nres::decode(&b, Profile::Strict, &lim).unwrap_err();
    assert_eq!(e.code, "E_NRES_LIMIT");
    let (a, _) = nres::decode(&b, Profile::Tolerant, &lim).unwrap();
    assert_eq!(a.payload(big_entry), None);
    // unterminated name: lookups skip it
    let mut x = b.clone();
    let d1 = dir(&x, 1);
    let nm = name::display(&x[d1 + 20..d1 + 20 + 7]);
    for k in 0..36 {
        x[d1 + 20 + k] = b'q';
    }
    let (a, _) = entry_level(&x, "E_NRES_NAME_UNTERMINATED");
    assert_eq!(a.entries()[1].name(), None);
    assert!(a.find(&[b'q'; 36]).is_none());
    assert!(!a.lookup_is_sorted());
    let _ = nm;
    // empty name
    let mut x = b.clone();
    x[d1 + 20] = 0;
    entry_level(&x, "E_NRES_NAME_EMPTY");
    // overlap: entry 2 points into entry 1's payload
    let mut x = b.clone();
    let o1 = get32(&x, dir(&x, 1) + 56);
    let o = dir(&x, 2) + 56;
    set32(&mut x, o, o1);
    let o = dir(&x, 2) + 12;
    set32(&mut x, o, 4);
    let (a, _) = entry_level(&x, "E_NRES_OVERLAP");
    assert_eq!(&a.payload(2).unwrap()[..4], &a.payload(1).unwrap()[..4]);
    // sort_index not a permutation: linear lookup
    let mut x = b.clone();
    let o = dir(&x, 0) + 60;
    set32(&mut x, o, 99);
    let (a, _) = entry_level(&x, "E_NRES_SORT_INDEX");
    assert!(!a.lookup_is_sorted());
    assert_eq!(a.find(b"MODEL_3").map(|f| f.index), Some(2));
    let mut x = b.clone();
    let s0 = get32(&x, dir(&x, 0) + 60);
    let o = dir(&x, 1) + 60;
    set32(&mut x, o, s0);
    entry_level(&x, "E_NRES_SORT_INDEX");
    // permutation not sorted by name
    let mut x = b.clone();
    let (s0, s1) = (get32(&x, dir(&x, 0) + 60), get32(&x, dir(&x, 1) + 60));
    let o = dir(&x, 0) + 60;
    set32(&mut x, o, s1);
    let o = dir(&x, 1) + 60;
    set32(&mut x, o, s0);
    let (a, _) = entry_level(&x, "E_NRES_SORT_ORDER");
    assert!(!a.lookup_is_sorted());
    for i in 0..a.len() {
        let n = a.entries()[i].name().unwrap().to_vec();
        assert_eq!(a.find(&n).unwrap().index, i);
    }
}

#[test]
fn diagnostics_only_in_both_profiles() {
    let q = synth::generate("quirks", 3).unwrap().bytes;
    let (a, d) = nres::decode(&q, Profile::Strict, &L).unwrap();
    let codes: Vec<&str> = d.iter().map(|i| i.code).collect();
    for c in [
        "W_NRES_DUPLICATE_NAME",
        "W_NRES_SORT_NONCANONICAL",
        "W_NRES_ALIGN",
        "W_NRES_PADDING",
        "W_NRES_UNINDEXED",
    ] {
        assert!(codes.contains(&c), "{c} missing from {codes:?}");
    }
    let (_, dt) = nres::decode(&q, Profile::Tolerant, &L).unwrap();
    assert_eq!(d, dt);
    assert!(
        a.lookup_is_sorted(),
        "valid non-canonical sort_index is still used"
    );
    // duplicate names: the lowest index, and the count
    let f = a.find(b"SeRvIcE").unwrap();
    assert_eq!(f.matches, 2);
    assert_eq!(a.entries()[f.index].type_id, 9);
    // a canonical archive has none of them
    let c = a.encode_canonical().unwrap();
    let (_, dc) = nres::decode(&c, Profile::Strict, &L).unwrap();
    assert!(
        dc.iter().all(|i| i.code == "W_NRES_DUPLICATE_NAME"),
        "{dc:?}"
    );
}

#[test]
fn lookup_sorted_and_linear_agree() {
    let q = synth::generate("quirks38", 1).unwrap().bytes;
    let (a, _) = nres::decode(&q, Profile::Strict, &L).unwrap();
    assert!(a.lookup_is_sorted());
    let mut broken = q.clone();
    let o = dir(&broken, 0) + 60;
    set32(&mut broken, o, 1000);
    let (b, _) = nres::decode(&broken, Profile::Tolerant, &L).unwrap();
    assert!(!b.lookup_is_sorted());
    for e in a.entries() {
        let n = e.name().unwrap();
        let upper: Vec<u8> = n.to_ascii_uppercase();
        assert_eq!(a.find(n), b.find(&upper));
        assert!(a.find(n).is_some());
    }
    assert_eq!(a.find(b"no such entry"), None);
    assert_eq!(b.find(b"no such entry"), None);
}

#[test]
fn lossless_edit_policy() {
    let src = synth::generate("quirks38", 5).unwrap().bytes;
    let (a, _) = nres::decode(&src, Profile::Strict, &L).unwrap();
    // same length: in place, nothing else moves
    let mut e = a.clone();
    let i = 2;
    let mut p = e.payload(i).unwrap().to_vec();
    p.iter_mut().for_each(|x| *x ^= 0xFF);
    e.replace_payload(i, &p).unwrap();
    let out = e.encode_lossless().unwrap();
    assert_eq!(out.len(), src.len());
    let off = a.entries()[i].data_offset as usize;
    let diff: Vec<usize> = (0..src.len()).filter(|&k| src[k] != out[k]).collect();
    assert!(diff.iter().all(|&k| k >= off && k < off + p.len()));
    assert_eq!(diff.len(), p.len());
    // different length: appended 8-aligned, zero padded, old bytes kept
    let mut e = a.clone();
    e.replace_payload(i, b"new payload!!").unwrap();
    let out = e.encode_lossless().unwrap();
    let dir_old = a.directory_offset() as usize;
    let start = (dir_old + 7) & !7;
    assert_eq!(e.entries()[i].data_offset as usize, start);
    assert!(out[16..dir_old] == src[16..dir_old], "old region unchanged");
    assert!(out[dir_old..start].iter().all(|&x| x == 0));
    assert_eq!(&out[start..start + 13], b"new payload!!");
    assert_eq!(e.directory_offset() as usize, start + 16);
    assert!(out[start + 13..start + 16].iter().all(|&x| x == 0));
    // sort_index kept (no name change)
    for k in 0..a.len() {
        assert_eq!(a.entries()[k].sort_index, e.entries()[k].sort_index);
    }
    let (r, d) = nres::decode(&out, Profile::Strict, &L).unwrap();
    assert!(
        d.iter().any(|x| x.code == "W_NRES_UNINDEXED"),
        "old range is now unindexed"
    );
    assert_eq!(r.payload(i), Some(&b"new payload!!"[..]));
    // rename: sort_index recomputed canonically
    let mut e = a.clone();
    e.rename_entry(0, b"zzz").unwrap();
    assert_eq!(
        e.entries().iter().map(|x| x.sort_index).collect::<Vec<_>>(),
        nres::canonical_order(e.entries())
    );
    assert!(e.find(b"ZZZ").is_some());
    // remove: the bytes stay
    let mut e = a.clone();
    let removed = e.remove_entry(3).unwrap();
    let out = e.encode_lossless().unwrap();
    let (s, n) = (removed.data_offset as usize, removed.size as usize);
    assert_eq!(&out[s..s + n], &src[s..s + n]);
    assert_eq!(e.len(), a.len() - 1);
    let (_, d) = nres::decode(&out, Profile::Strict, &L).unwrap();
    assert!(d.iter().any(|x| x.code == "W_NRES_UNINDEXED"));
    // add
    let mut e = a.clone();
    let k = e.add_entry(42, [1, 2, 3], b"Added", b"abc").unwrap();
    let out = e.encode_lossless().unwrap();
    let (r, _) = nres::decode(&out, Profile::Strict, &L).unwrap();
    assert_eq!(r.payload(k), Some(&b"abc"[..]));
    assert_eq!(r.find(b"added").unwrap().index, k);
    assert_eq!(get32(&out, 8) as usize, a.len() + 1);
    assert_eq!(get32(&out, 12) as usize, out.len());
}

#[test]
fn canonical_repack_postconditions() {
    for p in ["quirks", "quirks38", "nested", "cube-lods"] {
        for seed in 0..5 {
            let src = synth::generate(p, seed).unwrap().bytes;
            let (a, _) = nres::decode(&src, Profile::Strict, &L).unwrap();
            let c = a.encode_canonical().unwrap();
            assert_eq!(get32(&c, 12) as usize, c.len());
            let (b, d) = nres::decode(&c, Profile::Strict, &L).unwrap();
            assert!(
                d.iter().all(|x| x.code == "W_NRES_DUPLICATE_NAME"),
                "{p}: canonical output has only duplicate-name diagnostics: {d:?}"
            );
            for (i, e) in b.entries().iter().enumerate() {
                assert_eq!(e.data_offset % 8, 0);
                let end = e.data_offset as usize + e.size as usize;
                let next = (end + 7) & !7;
                assert!(c[end..next].iter().all(|&x| x == 0), "zero padding");
                assert_eq!(e.sort_index, nres::canonical_order(b.entries())[i]);
                assert_eq!(e.name_raw, a.entries()[i].name_raw, "name field kept");
                assert_eq!(b.payload(i), a.payload(i));
            }
            assert_eq!(b.directory_offset() % 8, 0);
            assert_eq!(b.encode_canonical().unwrap(), c, "stable");
        }
    }
}

#[test]
fn findings_are_capped_per_code() {
    // 200 entries all pointing outside the data region
    let mut a = Archive::new();
    for i in 0..200 {
        a.add_entry(1, [0; 3], format!("e{i}").as_bytes(), b"")
            .unwrap();
    }
    let mut bytes = a.encode_canonical().unwrap();
    for i in 0..200 {
        let d = dir(&bytes, i);
        set32(&mut bytes, d + 56, 3);
    }
    let r = nres::validate(&bytes, &L);
    let n = r
        .errors
        .iter()
        .filter(|e| e.code == "E_NRES_PAYLOAD_RANGE")
        .count();
    assert_eq!(n, L.msh_max_findings_per_code as usize + 1);
    assert!(r.errors.last().unwrap().message.contains("100 more"));
}
