// re2d MSH model tests: golden unit vectors and, for every check of §4.1/§5.8, one mutated archive that triggers exactly that code in strict mode plus the documented tolerant behaviour (spec: msh.md §3, §4.1, §5.8, §9.2, §9.4).

use re2d::limits::Limits;
use re2d_msh::anim::{KeyPath, Pose, sample, select, static_pose};
use re2d_msh::nres::Profile;
use re2d_msh::pose::{pose_matrix, static_poses, world_matrices};
use re2d_msh::tables::{
    decode_normal, decode_quat_component, decode_uv, encode_normal_component,
    encode_quat_component, encode_uv_component, sel_decode, slot_word_index,
};
use re2d_msh::{self as msh, Model, NodeLayout, names, synth};

const L: Limits = Limits::DEFAULT;

#[test]
fn golden_scalar_codecs() {
    assert_eq!(decode_normal([0x80, 127, 0, 0x55]), [-1.0, 1.0, 0.0]);
    assert_eq!(decode_normal([0x81, 64, 0xC0, 0])[0], -1.0);
    assert_eq!(decode_normal([0, 64, 0, 0])[1], 64.0 / 127.0);
    assert_eq!(decode_uv(1024, -512), [1.0, -0.5]);
    assert_eq!(decode_uv(i16::MAX, i16::MIN), [32767.0 / 1024.0, -32.0]);
    assert_eq!(encode_normal_component(1.0), 127);
    assert_eq!(encode_normal_component(-2.0), -128);
    assert_eq!(
        encode_normal_component(0.5),
        64,
        "63.5 rounds half away from zero"
    );
    assert_eq!(encode_uv_component(1.0), 1024);
    assert_eq!(encode_uv_component(100.0), 32767);
    assert_eq!(encode_quat_component(-1.5), -32767);
    assert_eq!(
        encode_quat_component(0.5),
        16384,
        "16383.5 rounds away from zero"
    );
    assert_eq!(decode_quat_component(32767), 1.0);
    assert_eq!(decode_quat_component(-32768), -32768.0 * (1.0f32 / 32767.0));
}

#[test]
fn quaternion_decode_is_a_reciprocal_multiply() {
    // §5.1: differs from a division in the last bit for exactly 1 536 values
    let differ = (i16::MIN..=i16::MAX)
        .filter(|&s| decode_quat_component(s) != s as f32 / 32767.0)
        .count();
    assert_eq!(differ, 1536);
}

#[test]
fn golden_selectors_and_slot_words() {
    assert_eq!(sel_decode(0x3F), [0xFFFF; 3]);
    assert_eq!(sel_decode(0b00_10_01_00), [0, 1, 2]);
    assert_eq!(sel_decode(0b11_00_11), [0xFFFF, 0, 0xFFFF]);
    assert_eq!(
        sel_decode(0xFFC0),
        [0, 0, 0],
        "only bits 0..5 are selectors"
    );
    assert_eq!(slot_word_index(0, 0, 0), 4);
    assert_eq!(slot_word_index(0, 2, 4), 18);
    assert_eq!(slot_word_index(1, 0, 0), 23);
    assert_eq!(slot_word_index(3, 1, 2), 4 + 57 + 5 + 2);
}

#[test]
fn golden_res10_walk() {
    // "ab", (len 0), "c"
    let t = [2, 0, 0, 0, b'a', b'b', 0, 0, 0, 0, 0, 1, 0, 0, 0, b'c', 0];
    let w = names::walk(&t, 3);
    assert_eq!(w.problem, None);
    assert_eq!(w.names, vec![Some((4, 6)), None, Some((15, 16))]);
    assert!(names::walk(&t, 2).problem.unwrap().contains("trailing"));
    assert!(names::walk(&t, 4).problem.unwrap().contains("ends after 3"));
    assert!(
        names::walk(&t[..16], 3)
            .problem
            .unwrap()
            .contains("past the end")
    );
    assert_eq!(names::encode(&[Some(b"ab"), None, Some(b"c")]), t.to_vec());
    // a huge len never allocates or overflows
    let huge = [0xFF, 0xFF, 0xFF, 0xFF, 0];
    assert!(names::walk(&huge, 1).problem.is_some());
}

// ---------------------------------------------------------------- raw fixture helpers

fn u32at(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes(b[o..o + 4].try_into().unwrap())
}
fn put32(b: &mut [u8], o: usize, v: u32) {
    b[o..o + 4].copy_from_slice(&v.to_le_bytes());
}
fn put16(b: &mut [u8], o: usize, v: u16) {
    b[o..o + 2].copy_from_slice(&v.to_le_bytes());
}
/// Directory entry offset of the first entry of `ty` (parsed here, not by re2d).
fn entry_of(b: &[u8], ty: u32) -> usize {
    let n = u32at(b, 8) as usize;
    let d = b.len() - 64 * n;
    (0..n)
        .map(|i| d + 64 * i)
        .find(|&e| u32at(b, e) == ty)
        .expect("table present")
}
/// Absolute offset of the payload of `ty`.
fn data_of(b: &[u8], ty: u32) -> usize {
    u32at(b, entry_of(b, ty) + 56) as usize
}

fn base() -> Vec<u8> {
    synth::generate("hierarchy-anim", 11).unwrap().bytes
}

/// Strict rejects with exactly `code` (every strict error has it), tolerant
/// accepts and lists it; returns the tolerant model.
fn only(b: &[u8], code: &str) -> Model<'static> {
    let e = msh::decode(b, None, Profile::Strict, &L).unwrap_err();
    assert_eq!(e.code, code, "strict: {e}");
    let r = msh::validate(b, None, &L);
    assert!(
        r.errors.iter().all(|x| x.code == code),
        "{code}: other errors {:?}",
        r.errors
    );
    let (m, d) = msh::decode(b, None, Profile::Tolerant, &L)
        .unwrap_or_else(|e| panic!("tolerant rejects {code}: {e}"));
    assert!(d.iter().any(|x| x.code == code), "{code} missing in {d:?}");
    assert!(
        m.encode().unwrap() == b,
        "tolerant read re-encodes losslessly"
    );
    m.into_owned()
}

fn base_model(b: &[u8]) -> Model<'_> {
    msh::decode(b, None, Profile::Strict, &L).unwrap().0
}

#[test]
fn base_is_strictly_valid_and_lossless() {
    for p in [
        "triangle",
        "cube-lods",
        "hierarchy-anim",
        "quirks",
        "quirks38",
    ] {
        let s = synth::generate(p, 11).unwrap();
        let (m, d) = msh::decode(&s.bytes, None, Profile::Strict, &L).unwrap();
        assert!(
            d.iter()
                .all(|x| x.code.starts_with("W_NRES") || x.code == "W_MSH_NODE_LAYOUT"),
            "{p}: {d:?}"
        );
        assert!(m.encode().unwrap() == s.bytes);
        let (t, dt) = msh::decode(&s.bytes, None, Profile::Tolerant, &L).unwrap();
        assert!(t == m, "{p}: same model in both profiles");
        assert_eq!(d, dt);
    }
    let s = synth::generate("nested", 2).unwrap();
    let (m, _) = msh::decode(&s.bytes, Some(b"unit.msh"), Profile::Strict, &L).unwrap();
    assert_eq!(m.node_count(), 5);
    assert_eq!(
        msh::decode(&s.bytes, Some(b"nope"), Profile::Tolerant, &L)
            .unwrap_err()
            .code,
        "E_MSH_ENTRY"
    );
    let e = msh::decode(&s.bytes, None, Profile::Tolerant, &L).unwrap_err();
    assert_eq!(e.code, "E_MSH_MISSING_TABLE");
    assert!(e.message.contains("--entry"), "{e}");
}

#[test]
fn stride24_is_copied_through() {
    let s = synth::generate("quirks", 4).unwrap();
    let (m, _) = msh::decode(&s.bytes, None, Profile::Strict, &L).unwrap();
    assert_eq!(m.node_layout(), NodeLayout::Stride24);
    assert_eq!(m.node_count(), 0);
    assert!(m.encode().unwrap() == s.bytes);
    assert_eq!(m.res20_attr1(), 7);
}

#[test]
fn check_1_required_and_duplicate_tables() {
    let mut b = base();
    let e = entry_of(&b, 13);
    put32(&mut b, e, 77);
    assert_eq!(
        msh::decode(&b, None, Profile::Strict, &L).unwrap_err().code,
        "E_MSH_MISSING_TABLE"
    );
    assert_eq!(
        msh::decode(&b, None, Profile::Tolerant, &L)
            .unwrap_err()
            .code,
        "E_MSH_MISSING_TABLE"
    );
    // a second Res7 (the names table retyped): the first in directory order is used
    let mut b = base();
    let e = entry_of(&b, 10);
    put32(&mut b, e, 7);
    put32(&mut b, e + 16, 16);
    let m = only(&b, "E_MSH_DUPLICATE_TABLE");
    assert_eq!(m.tri_count(), 60);
    assert_eq!(m.table_entry(7), Some(7));
}

#[test]
fn check_2_stride() {
    let mut b = base();
    let e = entry_of(&b, 3);
    let sz = u32at(&b, e + 12);
    put32(&mut b, e + 12, sz - 1);
    let m = only(&b, "E_MSH_STRIDE");
    assert_eq!(m.vertex_count(), 0, "Res3 dropped");
    assert!(
        (0..m.batch_count()).all(|i| m.batch(i).is_none()),
        "every batch dropped"
    );
    let mut b = base();
    let e = entry_of(&b, 2);
    put32(&mut b, e + 12, 139);
    let m = only(&b, "E_MSH_STRIDE");
    assert_eq!(m.slot_count(), 0);
    assert_eq!(m.slot_of(0, 0, 0), None);
}

#[test]
fn check_3_res1_stride() {
    let mut b = base();
    let e = entry_of(&b, 1);
    put32(&mut b, e + 16, 40);
    let m = only(&b, "E_MSH_RES1_STRIDE");
    assert_eq!(
        m.node_layout(),
        NodeLayout::Stride38,
        "size % 38 == 0: read as 38"
    );
    assert_eq!(m.node_count(), 5);
}

#[test]
fn check_4_attr3_and_5_counts() {
    let clean = base();
    let bm = base_model(&clean);
    for (ty, field, v, code) in [
        (3u32, 16usize, 13u32, "E_MSH_ATTR3"),
        (8, 16, 24, "E_MSH_ATTR3"),
        (6, 4, 1, "E_MSH_ATTR_COUNT"),
        (10, 4, 4, "E_MSH_ATTR_COUNT"),
        (2, 8, 5, "E_MSH_ATTR_COUNT"),
        (19, 4, 0, "E_MSH_ATTR_COUNT"),
    ] {
        let mut b = clean.clone();
        let e = entry_of(&b, ty);
        put32(&mut b, e + field, v);
        let m = only(&b, code);
        assert_eq!(m.node_count(), bm.node_count());
        assert_eq!(m.vertex_count(), bm.vertex_count(), "diagnostic only");
        assert!((0..m.batch_count()).all(|i| m.batch(i) == bm.batch(i)));
    }
}

#[test]
fn check_6_stream_count() {
    let mut b = base();
    let e = entry_of(&b, 4);
    let sz = u32at(&b, e + 12);
    put32(&mut b, e + 12, sz - 4);
    put32(&mut b, e + 4, sz / 4 - 1);
    let m = only(&b, "E_MSH_STREAM_COUNT");
    assert!(!m.has_normals(), "a shorter stream is ignored");
    assert_eq!(m.normal(0), None);
    assert!(m.has_uvs());
}

#[test]
fn checks_7_to_9_slots() {
    // 7: a slot reference past the table
    let mut b = base();
    let o = data_of(&b, 1) + 2 * slot_word_index(0, 0, 1);
    put16(&mut b, o, 99);
    let m = only(&b, "E_MSH_SLOT_REF");
    assert_eq!(m.slot_of(0, 0, 1), None);
    assert!(m.slot_of(0, 0, 0).is_some());
    // 8: batch range past Res13
    let mut b = base();
    let o = data_of(&b, 2) + 140;
    put16(&mut b, o + 6, 200);
    let m = only(&b, "E_MSH_SLOT_RANGE");
    assert!(!m.slot_usable(0));
    assert_eq!(m.slot_of(0, 0, 0), None, "the slot is dropped");
    assert!(m.slot_of(1, 0, 0).is_some());
    // 9: triangle range past Res7
    let mut b = base();
    put16(&mut b, o + 2, 60_000);
    let m = only(&b, "E_MSH_TRI_RANGE");
    assert_eq!(m.slot_tris(0), None, "the triangle range is dropped");
    assert!(m.slot_of(0, 0, 0).is_some(), "the slot still draws");
    assert_eq!(m.slot_tris(1), Some(12..24));
}

#[test]
fn checks_10_to_12_batches() {
    let b0 = base();
    let o = data_of(&b0, 13);
    // 10: index range
    let mut b = b0.clone();
    put32(&mut b, o + 10, 1_000_000);
    let m = only(&b, "E_MSH_INDEX_RANGE");
    assert_eq!(m.batch(0), None);
    assert!(m.batch(1).is_some());
    assert_eq!(m.slot_batches(0).count(), 0);
    // 11: vertex range
    let mut b = b0.clone();
    put32(&mut b, o + 16, 1_000_000);
    let m = only(&b, "E_MSH_VERTEX_RANGE");
    assert_eq!(m.batch(0), None);
    // 12: index count not a multiple of 3
    let mut b = b0.clone();
    put16(&mut b, o + 8, 35);
    let m = only(&b, "E_MSH_INDEX_COUNT");
    let bt = m.batch(0).unwrap();
    assert_eq!(bt.index_count, 35);
    assert_eq!(
        m.batch_index_bytes(&bt).len(),
        33 * 2,
        "trailing indices ignored"
    );
    let (_, d) = msh::decode(&b, None, Profile::Tolerant, &L).unwrap();
    assert!(
        d.iter().any(|x| x.code == "W_MSH_TRI_COUNT"),
        "lint 18 follows"
    );
}

#[test]
fn check_13_links_and_14_names() {
    let mut b = base();
    let o = data_of(&b, 7);
    put16(&mut b, o + 2, 5000);
    let m = only(&b, "E_MSH_TRI_LINK");
    assert_eq!(m.tri(0).unwrap().links[0], 0xFFFF);
    let mut b = base();
    let o = data_of(&b, 10);
    put32(&mut b, o, 100);
    let m = only(&b, "E_MSH_NAMES");
    assert_eq!(m.node_name(0), None);
    assert_eq!(m.display_name(0), "node_0");
    let clean = base();
    assert_eq!(base_model(&clean).display_name(3), "head");
}

#[test]
fn check_15_anim_pair() {
    let mut b = base();
    let e = entry_of(&b, 19);
    put32(&mut b, e, 77);
    let m = only(&b, "E_MSH_ANIM_PAIR");
    assert!((0..5).all(|n| !m.is_animated(n)), "animation ignored");
    let s = sample(&m, 1, 2.0).unwrap();
    assert_eq!(s.selection.path, KeyPath::Fallback);
}

#[test]
fn check_16_animation() {
    let clean = base();
    let n1 = data_of(&clean, 1);
    let node = |n: usize, f: usize| n1 + 38 * n + f;
    let k8 = data_of(&clean, 8);
    let m19 = data_of(&clean, 19);
    let bm = base_model(&clean);
    assert!((1..5).all(|n| bm.is_animated(n)));
    // fallback past Res8: static identity pose
    let mut b = clean.clone();
    put16(&mut b, node(4, 6), 99);
    let m = only(&b, "E_ANIM_FALLBACK");
    assert!(!m.is_animated(4));
    assert_eq!(static_pose(&m, 4), Pose::IDENTITY);
    assert_eq!(sample(&m, 4, 2.0).unwrap().pose, Pose::IDENTITY);
    // map past Res19
    let mut b = clean.clone();
    put16(&mut b, node(4, 4), 50);
    let m = only(&b, "E_ANIM_MAP_RANGE");
    assert!(!m.is_animated(4) && m.is_animated(3));
    // fallback order (last node, so no other track moves)
    let mut b = clean.clone();
    put16(&mut b, node(4, 6), 9);
    let m = only(&b, "E_ANIM_FALLBACK_ORDER");
    assert!(!m.is_animated(4));
    // key times within a track
    let mut b = clean.clone();
    put32(&mut b, k8 + 24 * 5 + 12, 0f32.to_bits());
    let m = only(&b, "E_ANIM_KEY_ORDER");
    assert!(!m.is_animated(2) && m.is_animated(1) && m.is_animated(3));
    // a map on a one-key track
    let mut b = clean.clone();
    put16(&mut b, node(0, 4), 0);
    let m = only(&b, "E_ANIM_TRACK");
    assert!(!m.is_animated(0));
    // a map value outside the track
    let mut b = clean.clone();
    put16(&mut b, m19, 0);
    let m = only(&b, "E_ANIM_MAP_VALUE");
    assert!(!m.is_animated(1) && m.is_animated(2));
    assert_eq!(
        sample(&m, 1, 2.0).unwrap().selection.path,
        KeyPath::Fallback
    );
    // frame_count 0 with maps
    let mut b = clean.clone();
    let e = entry_of(&b, 19);
    put32(&mut b, e + 8, 0);
    let m = only(&b, "E_ANIM_FRAME_COUNT");
    assert!((0..5).all(|n| !m.is_animated(n)));
}

#[test]
fn check_17_parent_order_flattens() {
    let clean = base();
    let mut b = clean.clone();
    let o = data_of(&b, 1) + 38 + 2;
    put16(&mut b, o, 3);
    let m = only(&b, "E_MSH_PARENT_ORDER");
    assert!(m.is_flattened());
    let w = world_matrices(&m, &static_poses(&m));
    for (n, wn) in w.iter().enumerate() {
        assert_eq!(*wn, pose_matrix(&static_pose(&m, n)), "every W[n] = L[n]");
    }
    let bm = base_model(&clean);
    let wb = world_matrices(&bm, &static_poses(&bm));
    assert_ne!(
        wb[3],
        pose_matrix(&static_pose(&bm, 3)),
        "the valid model has a hierarchy"
    );
}

#[test]
fn check_18_is_a_lint() {
    let mut b = base();
    let o = data_of(&b, 2) + 140;
    put16(&mut b, o + 2, 11);
    let (_, d) = msh::decode(&b, None, Profile::Strict, &L).unwrap();
    assert_eq!(d.iter().filter(|x| x.code == "W_MSH_TRI_COUNT").count(), 1);
}

#[test]
fn animation_lints() {
    let clean = base();
    let k8 = data_of(&clean, 8);
    // node 1's first key at time 0.5 (still increasing): W_ANIM_FIRST_TIME, strict accepts
    let mut b = clean.clone();
    put32(&mut b, k8 + 24 + 12, 0.5f32.to_bits());
    let (_, d) = msh::decode(&b, None, Profile::Strict, &L).unwrap();
    assert!(d.iter().any(|x| x.code == "W_ANIM_FIRST_TIME"), "{d:?}");
    // frame_count 14 instead of 13: W_ANIM_FRAME_COUNT (maps still fit? no: 4 blocks of 14 > 52 words)
    let mut b = clean.clone();
    let e = entry_of(&b, 19);
    put32(&mut b, e + 8, 12);
    let (_, d) = msh::decode(&b, None, Profile::Strict, &L).unwrap();
    assert!(d.iter().any(|x| x.code == "W_ANIM_FRAME_COUNT"), "{d:?}");
    assert!(d.iter().any(|x| x.code == "W_ANIM_MAP_LAYOUT"), "{d:?}");
}

#[test]
fn select_uses_the_stored_maps() {
    let clean = base();
    let m = base_model(&clean);
    assert_eq!(select(&m, 0, 3.0).unwrap().path, KeyPath::Fallback);
}
