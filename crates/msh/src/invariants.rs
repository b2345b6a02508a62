// re2d MSH — the invariants checked by the fuzz targets and by the corpus replay test (spec: msh.md §9.6).
//! Each function takes arbitrary bytes and **panics** when an invariant is
//! broken; that is what the fuzzer looks for. The cargo-fuzz targets in
//! `fuzz/fuzz_targets/` call them, and `tests/msh_fuzz_corpus.rs` replays the
//! committed corpus through them in `make test`.
//!
//! Invariants: no panic and no out-of-bounds access anywhere; decoding stays
//! within the limits (the fuzz limits below are small so that a claim of a
//! huge count cannot hide behind a large real limit); lossless re-encoding is
//! the identity whenever decoding succeeds; strict-accept ⇒ tolerant-accept
//! with the same model and no extra diagnostics; canonical output decodes to
//! the same entries and is stable.

use crate::nres::{self, Profile};
use re2d::limits::Limits;

use super::anim::{blend, sample, select};
use super::export::{self, Options, PoseChoice};
use super::pose::{poses_at, static_poses, world_matrices};
use super::{decode, read};

fn f32_at(data: &[u8], k: usize) -> f32 {
    let n = data.len();
    if n < 4 {
        return k as f32 * 0.5;
    }
    let o = (k * 4) % (n - 3);
    f32::from_le_bytes([data[o], data[o + 1], data[o + 2], data[o + 3]])
}

/// NRes: decode; lossless identity; lookup of every name; canonical
/// re-decode equality and stability.
pub fn nres_decode(data: &[u8]) {
    let Ok((a, findings)) = nres::read(data, &Limits::FUZZ) else {
        return;
    };
    assert_eq!(
        a.encode_lossless().expect("lossless encode"),
        data,
        "lossless identity"
    );
    let strict_ok = !findings.iter().any(|f| f.strict_error);
    for e in a.entries() {
        if let Some(n) = e.name() {
            let f = a.find(n).expect("every terminated name is found");
            assert!(nres::name::eq(
                a.entries()[f.index].name().unwrap_or(&[]),
                n
            ));
        }
    }
    if let Ok(c) = a.encode_canonical() {
        let (b, fb) = nres::read(&c, &Limits::DEFAULT).expect("canonical output decodes");
        if strict_ok {
            assert!(
                !fb.iter().any(|f| f.strict_error),
                "canonical output of a valid archive is valid"
            );
        }
        assert_eq!(b.len(), a.len());
        for i in 0..a.len() {
            let (x, y) = (&a.entries()[i], &b.entries()[i]);
            assert_eq!(
                (x.type_id, x.attr1, x.attr2, x.attr3, x.name_raw),
                (y.type_id, y.attr1, y.attr2, y.attr3, y.name_raw)
            );
            assert_eq!(a.payload(i), b.payload(i));
        }
        assert_eq!(
            b.encode_canonical().expect("canonical again"),
            c,
            "canonical output is stable"
        );
    } else {
        assert!(!strict_ok, "a strictly valid archive always repacks");
    }
}

fn touch(m: &super::Model<'_>) {
    for v in 0..m.vertex_count().min(4096) {
        let _ = (m.position(v), m.normal(v), m.uv(v));
    }
    for t in 0..m.tri_count().min(4096) {
        if let Some(d) = m.tri(t) {
            for l in d.links {
                assert!(
                    l == 0xFFFF || (l as usize) < m.tri_count(),
                    "links are sanitised"
                );
            }
        }
    }
    for n in 0..m.node_count() {
        let _ = m.node_name(n);
        for lod in 0..3 {
            for g in 0..5 {
                if let Some(s) = m.slot_of(n, lod, g) {
                    for (_, b) in m.slot_batches(s) {
                        let k = m.batch_index_bytes(&b).len() / 2;
                        for i in 0..k.min(4096) {
                            let v = m.batch_vertex(&b, i).expect("index in range");
                            assert!(v < m.vertex_count(), "usable batches stay inside Res3");
                        }
                    }
                    let _ = m.slot_tris(s);
                }
            }
        }
    }
}

/// MSH tolerant decode: lossless identity, accessors inside the tables.
pub fn msh_decode_tolerant(data: &[u8]) {
    let Ok((m, _)) = decode(data, None, Profile::Tolerant, &Limits::FUZZ) else {
        return;
    };
    assert_eq!(
        m.encode().expect("lossless encode"),
        data,
        "lossless identity"
    );
    touch(&m);
}

/// MSH strict decode: strict-accept ⇒ tolerant-accept with the same model
/// and the same diagnostics.
pub fn msh_decode_strict(data: &[u8]) {
    let Ok((m, d)) = decode(data, None, Profile::Strict, &Limits::FUZZ) else {
        return;
    };
    let (t, dt) = decode(data, None, Profile::Tolerant, &Limits::FUZZ)
        .expect("strict-accept ⇒ tolerant-accept");
    assert!(m == t, "the same model in both profiles");
    assert_eq!(d, dt, "no tolerant diagnostics beyond the strict ones");
    assert_eq!(m.encode().expect("lossless encode"), data);
    let (_, f) = read(data, None, &Limits::FUZZ).expect("read");
    assert!(!f.iter().any(|x| x.strict_error));
}

/// Animation: selection, sampling, blending and world matrices at times
/// taken from the input (NaN, ±∞, huge and negative included).
pub fn anim_sample(data: &[u8]) {
    let Ok((m, _)) = decode(data, None, Profile::Tolerant, &Limits::FUZZ) else {
        return;
    };
    let times = [
        f32_at(data, 0),
        f32_at(data, 1),
        f32::NAN,
        -1.0,
        0.0,
        0.5,
        1.0,
        1.5,
        2.5,
        m.frame_count() as f32,
        2_147_483_648.0,
        f32::INFINITY,
    ];
    for n in 0..m.node_count().min(64) {
        for &t in &times {
            let s = select(&m, n, t).expect("node exists");
            if s.path == super::anim::KeyPath::Segment {
                let f = s.frame.expect("segment has a frame");
                assert!(f >= 0 && f < m.frame_count() as i64);
                assert!(m.is_animated(n));
            }
            let _ = sample(&m, n, t);
        }
        let _ = blend(&m, n, times[0], times[1], f32_at(data, 2));
    }
    let _ = world_matrices(&m, &static_poses(&m));
    let _ = world_matrices(&m, &poses_at(&m, times[0]));
}

/// Export: OBJ (posed and unposed) and glTF of whatever the tolerant reader accepts.
pub fn export_obj(data: &[u8]) {
    let Ok((m, _)) = decode(data, None, Profile::Tolerant, &Limits::FUZZ) else {
        return;
    };
    let posed = Options {
        pose: PoseChoice::Time(f32_at(data, 0).clamp(-1e6, 1e6)),
        ..Options::default()
    };
    if let Ok(o) = export::obj(&m, &posed) {
        assert!(std::str::from_utf8(&o.bytes).is_ok());
    }
    let _ = export::obj(
        &m,
        &Options {
            no_pose: true,
            ..Options::default()
        },
    );
    if let Ok(g) = export::gltf(
        &m,
        &Options {
            anim: true,
            ..Options::default()
        },
        true,
    ) {
        assert_eq!(&g.bytes[0..4], b"glTF");
        let len = u32::from_le_bytes([g.bytes[8], g.bytes[9], g.bytes[10], g.bytes[11]]) as usize;
        assert_eq!(len, g.bytes.len(), "glb length field");
    }
}
