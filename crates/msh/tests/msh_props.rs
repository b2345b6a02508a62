// re2d MSH/NRes round-trip properties over thousands of generated archives, a bounded proptest of mutated archives through the fuzz invariants, and the editing API's invariants (spec: msh.md §6, §9.3, §9.6).

use proptest::prelude::*;
use re2d::limits::Limits;
use re2d_msh::edit::Editor;
use re2d_msh::nres::{self, Profile};
use re2d_msh::{self as msh, invariants, synth};

const L: Limits = Limits::DEFAULT;
const PROFILES: [&str; 6] = [
    "triangle",
    "cube-lods",
    "hierarchy-anim",
    "nested",
    "quirks",
    "quirks38",
];

#[test]
fn round_trips_over_thousands_of_generated_archives() {
    let mut n = 0;
    for p in PROFILES {
        for seed in 0..400u64 {
            let s = synth::generate(p, seed).unwrap();
            let b = &s.bytes;
            // lossless: encode(decode(x)) == x, for the container and the model
            let (a, _) = nres::decode(b, Profile::Strict, &L).unwrap();
            assert!(a.encode_lossless().unwrap() == *b, "{p} {seed}");
            let (m, _) = msh::decode(b, s.entry.map(str::as_bytes), Profile::Strict, &L).unwrap();
            match s.entry {
                None => assert!(m.encode().unwrap() == *b),
                Some(e) => {
                    let inner = m.encode().unwrap();
                    let i = a.find(e.as_bytes()).unwrap().index;
                    assert!(a.payload(i).unwrap() == inner.as_slice());
                }
            }
            // canonical: same entries, attrs, names and payloads; stable
            let c = a.encode_canonical().unwrap();
            let (ca, _) = nres::decode(&c, Profile::Strict, &L).unwrap();
            assert_eq!(ca.len(), a.len());
            for i in 0..a.len() {
                let (x, y) = (&a.entries()[i], &ca.entries()[i]);
                assert_eq!(
                    (x.type_id, x.attr1, x.attr2, x.attr3, x.name_raw),
                    (y.type_id, y.attr1, y.attr2, y.attr3, y.name_raw)
                );
                assert!(a.payload(i) == ca.payload(i));
            }
            assert!(ca.encode_canonical().unwrap() == c, "canonical is stable");
            if s.entry.is_none() {
                let (cm, _) = msh::decode(&c, None, Profile::Strict, &L).unwrap();
                assert_eq!(
                    (
                        cm.node_count(),
                        cm.slot_count(),
                        cm.batch_count(),
                        cm.vertex_count(),
                        cm.frame_count()
                    ),
                    (
                        m.node_count(),
                        m.slot_count(),
                        m.batch_count(),
                        m.vertex_count(),
                        m.frame_count()
                    )
                );
            }
            n += 1;
        }
    }
    assert_eq!(n, 2400);
}

#[derive(Clone, Debug)]
enum Mutation {
    Flip(usize, u8),
    Set(usize, u8),
    Truncate(usize),
    SizeField(usize, u32),
    Word(usize, u32),
}

fn apply(mut b: Vec<u8>, muts: &[Mutation]) -> Vec<u8> {
    for m in muts {
        let n = b.len();
        if n == 0 {
            break;
        }
        match *m {
            Mutation::Flip(i, bit) => b[i % n] ^= 1 << (bit % 8),
            Mutation::Set(i, v) => b[i % n] = v,
            Mutation::Truncate(i) => b.truncate(i % n),
            Mutation::SizeField(entry, v) => {
                // a directory field (size, offset, attrs, counts) of some entry
                let count = match b.get(8..12) {
                    Some(w) => u32::from_le_bytes(w.try_into().unwrap_or([0; 4])) as usize,
                    None => 0, // truncated below the header's entry_count
                };
                if count > 0 && n >= 64 * count {
                    let e = n - 64 * count + 64 * (entry % count);
                    let field = [4, 8, 12, 16, 56, 60][entry % 6];
                    if e + field + 4 <= n {
                        b[e + field..e + field + 4].copy_from_slice(&v.to_le_bytes());
                    }
                }
            }
            Mutation::Word(i, v) => {
                let i = i % n;
                if i + 4 <= n {
                    b[i..i + 4].copy_from_slice(&v.to_le_bytes());
                }
            }
        }
    }
    b
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(i, v)| Mutation::Set(i, v)),
        any::<usize>().prop_map(Mutation::Truncate),
        (
            any::<usize>(),
            prop_oneof![
                Just(0u32),
                Just(1),
                Just(0xFFFF),
                Just(u32::MAX),
                any::<u32>()
            ]
        )
            .prop_map(|(e, v)| Mutation::SizeField(e, v)),
        (
            any::<usize>(),
            prop_oneof![Just(0u32), Just(0xFFFF), Just(0x7FFF_FFFF), any::<u32>()]
        )
            .prop_map(|(i, v)| Mutation::Word(i, v)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// Mutated synthetic archives through every fuzz invariant: no panic,
    /// lossless identity when decoding succeeds, strict ⇒ tolerant.
    #[test]
    fn mutated_archives_keep_the_invariants(
        p in 0usize..6,
        seed in 0u64..1000,
        muts in proptest::collection::vec(mutation(), 1..4),
    ) {
        let s = synth::generate(PROFILES[p], seed).unwrap();
        // nested: fuzz the inner model too
        let base = match s.entry {
            Some(e) => {
                let (a, _) = nres::decode(&s.bytes, Profile::Strict, &L).unwrap();
                a.payload(a.find(e.as_bytes()).unwrap().index).unwrap().to_vec()
            }
            None => s.bytes.clone(),
        };
        let b = apply(base, &muts);
        invariants::nres_decode(&b);
        invariants::msh_decode_tolerant(&b);
        invariants::msh_decode_strict(&b);
        invariants::anim_sample(&b);
        invariants::export_obj(&b);
    }
}

#[test]
fn editor_keeps_invariants() {
    let s = synth::generate("hierarchy-anim", 3).unwrap();
    let (m, _) = msh::decode(&s.bytes, None, Profile::Strict, &L).unwrap();
    let mut e = Editor::new(&m);
    // no edit: byte-identical
    assert!(e.encode().unwrap() == s.bytes);
    // positions: same count, in place, bounds recomputed
    let p: Vec<[f32; 3]> = (0..m.vertex_count())
        .map(|v| {
            let q = m.position(v).unwrap();
            [q[0] * 2.0, q[1] * 2.0, q[2] * 2.0]
        })
        .collect();
    e.replace_positions(&p, true).unwrap();
    let out = e.encode().unwrap();
    assert_eq!(
        out.len(),
        s.bytes.len(),
        "same-length tables are rewritten in place"
    );
    let (m2, d) = msh::decode(&out, None, Profile::Strict, &L).unwrap();
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(m2.position(5), Some(p[5]));
    let sl = m2.slot(0).unwrap();
    let old = m.slot(0).unwrap();
    for k in 0..3 {
        assert_eq!(sl.aabb_min[k], old.aabb_min[k] * 2.0);
        assert_eq!(sl.aabb_max[k], old.aabb_max[k] * 2.0);
    }
    assert_eq!(sl.tail, old.tail, "opaque tail kept");
    // wrong count: refused, nothing changed
    assert_eq!(
        e.replace_positions(&p[1..], false).unwrap_err().code,
        "E_EDIT"
    );
    assert!(e.encode().unwrap() == out);
    // UVs and normals
    let uv: Vec<[f32; 2]> = (0..m.vertex_count())
        .map(|v| [v as f32 / 64.0, 0.5])
        .collect();
    e.replace_uvs(&uv).unwrap();
    let n: Vec<[f32; 3]> = (0..m.vertex_count()).map(|_| [0.0, -1.0, 0.0]).collect();
    e.replace_normals(&n).unwrap();
    let out = e.encode().unwrap();
    let (m3, _) = msh::decode(&out, None, Profile::Strict, &L).unwrap();
    assert_eq!(m3.uv(3), Some([3.0 / 64.0, 0.5]));
    assert_eq!(m3.normal(7), Some([0.0, -1.0, 0.0]));
    // rename a node: Res10 grows, appended losslessly, attrs kept valid
    let mut e = Editor::new(&m3);
    let cp = re2d_msh::nres::name::utf8_to_cp1251("Шея-long-name").unwrap();
    e.rename_node(2, &cp).unwrap();
    let out = e.encode().unwrap();
    let (m4, d) = msh::decode(&out, None, Profile::Strict, &L).unwrap();
    assert!(d.iter().all(|x| x.code == "W_NRES_UNINDEXED"), "{d:?}");
    assert_eq!(m4.display_name(2), "Шея-long-name");
    assert_eq!(m4.display_name(3), "head");
    // add/remove entries
    let mut e = Editor::new(&m4);
    let i = e.add_entry(99, [0; 3], b"extra", b"payload").unwrap();
    e.remove_entry(i).unwrap();
    let k13 = m4.table_entry(13).unwrap();
    let err = e.remove_entry(k13).unwrap_err();
    assert_eq!(
        err.code, "E_MSH_MISSING_TABLE",
        "removing a required table is refused"
    );
    let k19 = m4.table_entry(19).unwrap();
    assert_eq!(e.remove_entry(k19).unwrap_err().code, "E_MSH_ANIM_PAIR");
    let dup = e.add_entry(3, [0, 0, 12], b"dup", &[0; 12]).unwrap_err();
    assert_eq!(dup.code, "E_MSH_DUPLICATE_TABLE");
    let ok = e.encode().unwrap();
    assert!(msh::decode(&ok, None, Profile::Strict, &L).is_ok());
}
