// re2d test data — "valid but huge" MSH models for the memory-capped harness and the export bounds tests (issue 20).
//! [`hostile`] writes small MSH files whose exports are large. They test the exporters' bounds,
//! not the reader, so they are packed by the core's own NRes writer
//! ([`re2d_msh::nres::Archive::encode_canonical`]); the models of the spec's profiles (msh.md §9.1)
//! come from `re2d_msh::synth`, which has its own independent encoder.

use re2d_msh::nres::Archive;
use re2d_msh::synth::{Synth, SynthNode};

fn p16(v: &mut Vec<u8>, x: u16) {
    v.extend_from_slice(&x.to_le_bytes());
}
fn p32(v: &mut Vec<u8>, x: u32) {
    v.extend_from_slice(&x.to_le_bytes());
}
fn pf(v: &mut Vec<u8>, x: f32) {
    p32(v, x.to_bits());
}
fn pi16(v: &mut Vec<u8>, x: i16) {
    p16(v, x as u16);
}

/// "Valid but huge" models for the memory-capped harness (`make
/// hostile-test`) and the regression tests: small files whose exports are
/// large.
///
/// - `"batches"`: one node, one slot of `n` batches (at most 65 535) that all
///   reuse one 65 535-index range over 65 535 vertices (≈ 1.4 MB for 1 000
///   batches; its glTF is ≈ 2.2 GB).
/// - `"frames"`: one animated node with `frame_count = n` (one map word per
///   frame, so the file is ≈ 2n bytes); its `--anim` glTF is ≈ 32n bytes.
///   Its two keys are `q` and `−q` with `|q| = √2`: consecutive rotation
///   keys flip hemisphere and every key is off unit length.
pub fn hostile(kind: &str, n: u64) -> Option<Synth> {
    const NV: usize = 65_535;
    let (batches, frames) = match kind {
        "batches" => ((n as usize).clamp(1, 65_535), 0u32),
        "frames" => (1, n.clamp(2, u32::MAX as u64) as u32),
        _ => return None,
    };
    let nt = NV / 3;
    let mut r3 = Vec::with_capacity(NV * 12);
    let mut r4 = Vec::with_capacity(NV * 4);
    let mut r5 = Vec::with_capacity(NV * 4);
    for v in 0..NV {
        let (x, y) = ((v % 256) as f32 * 0.1, (v / 256) as f32 * 0.1);
        for c in [x, y, (v % 7) as f32 * 0.01] {
            pf(&mut r3, c);
        }
        r4.extend_from_slice(&[0, 127, 0, 0]);
        pi16(&mut r5, (v % 256) as i16 * 64);
        pi16(&mut r5, (v / 256) as i16 * 64);
    }
    let mut r6 = Vec::with_capacity(NV * 2);
    let mut r7 = Vec::with_capacity(nt * 16);
    for t in 0..nt {
        for i in [3 * t, 3 * t + 1, 3 * t + 2] {
            p16(&mut r6, i as u16);
        }
        p16(&mut r7, 0);
        for _ in 0..3 {
            p16(&mut r7, 0xFFFF);
        }
        for v in [0i16, 32767, 0] {
            pi16(&mut r7, v);
        }
        p16(&mut r7, 0x3F);
    }
    let mut r13 = Vec::with_capacity(batches * 20);
    for b in 0..batches {
        p16(&mut r13, 0);
        p16(&mut r13, (b % 4) as u16);
        p16(&mut r13, 0);
        p16(&mut r13, 0);
        p16(&mut r13, NV as u16);
        p32(&mut r13, 0);
        p16(&mut r13, 0);
        p32(&mut r13, 0);
    }
    let animated = frames > 0;
    let mut r1 = Vec::with_capacity(38);
    p16(&mut r1, 0);
    p16(&mut r1, 0xFFFF);
    p16(&mut r1, if animated { 0 } else { 0xFFFF });
    p16(&mut r1, if animated { 2 } else { 0 });
    p16(&mut r1, 0);
    for _ in 1..15 {
        p16(&mut r1, 0xFFFF);
    }
    let mut r2 = Vec::new();
    for _ in 0..35 {
        pf(&mut r2, 0.0);
    }
    p16(&mut r2, 0);
    p16(&mut r2, nt as u16);
    p16(&mut r2, 0);
    p16(&mut r2, batches as u16);
    for v in [0.0f32, 0.0, 0.0, 26.0, 26.0, 1.0, 13.0, 13.0, 0.5, 20.0] {
        pf(&mut r2, v);
    }
    for _ in 0..5 {
        p32(&mut r2, 0);
    }
    let name = "hostile";
    let mut r10 = Vec::new();
    p32(&mut r10, name.len() as u32);
    r10.extend_from_slice(name.as_bytes());
    r10.push(0);
    // keys: q and −q (|q| = 1.5) at times 0 and 1, then the fallback
    let mut r8 = Vec::new();
    let key = |r8: &mut Vec<u8>, t: f32, q: [i16; 4]| {
        for v in [0.0f32, 0.0, 0.0, t] {
            pf(r8, v);
        }
        for v in q {
            pi16(r8, v);
        }
    };
    // components are stored /32767: (1, 0, 0, 1) has |q| = √2
    key(&mut r8, 0.0, [32767, 0, 0, 32767]);
    key(&mut r8, 1.0, [-32767, 0, 0, -32767]);
    key(&mut r8, (frames.max(1) - 1) as f32, [0, 0, 0, 32767]);
    let mut r19 = Vec::with_capacity(frames as usize * 2);
    for f in 0..frames {
        p16(&mut r19, (f % 2) as u16);
    }
    let tables = [
        (1, [1, 0, 38], r1),
        (2, [1, 0, 68], r2),
        (3, [NV as u32, 0, 12], r3),
        (4, [NV as u32, 0, 4], r4),
        (5, [NV as u32, 0, 4], r5),
        (13, [batches as u32, 0, 20], r13),
        (6, [NV as u32, 0, 2], r6),
        (7, [nt as u32, 0, 16], r7),
        (8, [3, 0, 4], r8),
        (19, [frames, frames.max(1), 2], r19),
        (10, [1, 0, 0], r10),
    ];
    let mut archive = Archive::new();
    for (type_id, attrs, payload) in &tables {
        let name = format!("model_{type_id}");
        archive
            .add_entry(*type_id, *attrs, name.as_bytes(), payload)
            .expect("a valid entry");
    }
    Some(Synth {
        bytes: archive.encode_canonical().expect("a canonical archive"),
        entry: None,
        nodes: vec![SynthNode {
            name: name.into(),
            parent: None,
            slots: vec![],
            animated,
        }],
        frame_count: frames.max(1),
        key_times: vec![],
    })
}
