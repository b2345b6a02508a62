// re2d MSH animation tests: frame rounding vectors, the (t, node) → (frame, key, path) parity table, segment sampling against an independent slerp, blend validity, the pose matrix transpose quirk and hierarchy (spec: msh.md §5, §9.5).

use re2d::limits::Limits;
use re2d_msh::anim::{
    KeyPath, Pose, blend, blend_poses, frame_index, interpolate, sample, select, static_pose,
};
use re2d_msh::nres::Profile;
use re2d_msh::pose::{
    gltf_rotation, mul, pose_matrix, poses_at, static_poses, textbook_matrix, world_matrices,
};
use re2d_msh::{self as msh, Model, synth};

#[test]
fn frame_rounding_vectors() {
    let table: [(f32, i64); 11] = [
        (0.0, 0),
        (0.2, 0),
        (0.99, 0),
        (1.0, 0),
        (1.01, 1),
        (1.5, 1),
        (2.0, 2),
        (2.5, 2),
        (3.0, 2),
        (3.2, 3),
        (-1.0, -2),
    ];
    for (t, f) in table {
        assert_eq!(frame_index(t), Some(f), "t = {t}");
    }
    // odd integers map to t − 1, even ones to t
    for k in 0..1000i64 {
        let want = if k % 2 == 1 { k - 1 } else { k };
        assert_eq!(frame_index(k as f32), Some(want));
    }
    assert_eq!(frame_index(f32::NAN), None);
    assert_eq!(frame_index(2_147_483_648.0), None);
    assert_eq!(frame_index(-2_147_483_648.0), None);
    assert_eq!(frame_index(f32::INFINITY), None);
    assert_eq!(frame_index(4_194_303.5), Some(4_194_303));
    assert_eq!(frame_index(2_147_483_520.0), Some(2_147_483_520));
}

fn model(bytes: &[u8]) -> Model<'_> {
    msh::decode(bytes, None, Profile::Strict, &Limits::DEFAULT)
        .unwrap()
        .0
}

use KeyPath::{Fallback as F, Segment as S};

/// hierarchy-anim key layout (synth.rs): node 0 key 0 (static); node 1 keys
/// 1..=3 at t 0, 4, 8; node 2 keys 4..=7 at 0, 3, 6, 12; node 3 keys 8..=9 at
/// 0, 5; node 4 keys 10..=16 at 0..6; 13 frames. Expected values worked out
/// by hand from §5.3, §5.4 and §5.9.
const PARITY: &[(f32, usize, Option<i64>, u16, KeyPath)] = &[
    // node 0: no map
    (0.0, 0, Some(0), 0, F),
    (5.5, 0, Some(5), 0, F),
    // node 1
    (0.0, 1, Some(0), 1, S),
    (1.0, 1, Some(0), 1, S),
    (2.5, 1, Some(2), 1, S),
    (3.9, 1, Some(3), 1, S),
    (4.0, 1, Some(4), 2, S),
    (5.0, 1, Some(4), 2, S),
    (7.6, 1, Some(7), 2, S),
    (8.6, 1, Some(8), 3, F),
    (12.0, 1, Some(12), 3, F),
    (13.0, 1, Some(12), 3, F),
    (13.6, 1, Some(13), 3, F),
    (-0.25, 1, Some(-1), 3, F),
    (-1.0, 1, Some(-2), 3, F),
    (f32::NAN, 1, None, 3, F),
    (1e10, 1, None, 3, F),
    // node 2
    (0.5, 2, Some(0), 4, S),
    (3.0, 2, Some(2), 4, S),
    (3.1, 2, Some(3), 5, S),
    (6.5, 2, Some(6), 6, S),
    (11.5, 2, Some(11), 6, S),
    (12.5, 2, Some(12), 7, F),
    // node 3: frames past its last key fall back
    (4.5, 3, Some(4), 8, S),
    (5.1, 3, Some(5), 9, F),
    (9.0, 3, Some(8), 9, F),
    // node 4
    (0.0, 4, Some(0), 10, S),
    (1.0, 4, Some(0), 10, S),
    (2.0, 4, Some(2), 12, S),
    (5.5, 4, Some(5), 15, S),
    (6.5, 4, Some(6), 16, F),
];

#[test]
fn parity_table() {
    let s = synth::generate("hierarchy-anim", 21).unwrap();
    let m = model(&s.bytes);
    assert_eq!(m.frame_count(), 13);
    for &(t, n, frame, key, path) in PARITY {
        let got = select(&m, n, t).unwrap();
        assert_eq!(
            (got.frame, got.key, got.path),
            (frame, key, path),
            "t = {t}, node {n}"
        );
    }
    // the same table through the nested profile and the quirky container
    for p in ["nested", "quirks38"] {
        let s = synth::generate(p, 21).unwrap();
        let (m, _) = msh::decode(
            &s.bytes,
            s.entry.map(str::as_bytes),
            Profile::Strict,
            &Limits::DEFAULT,
        )
        .unwrap();
        for &(t, n, frame, key, path) in PARITY {
            let got = select(&m, n, t).unwrap();
            assert_eq!(
                (got.frame, got.key, got.path),
                (frame, key, path),
                "{p}: t = {t}, node {n}"
            );
        }
    }
}

/// Raw Res8 key `k` of the hierarchy profile: (pos, time, q), parsed here.
fn raw_key(bytes: &[u8], k: usize) -> ([f32; 3], f32, [f32; 4]) {
    let n = u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
    let d = bytes.len() - 64 * n;
    let e = (0..n)
        .map(|i| d + 64 * i)
        .find(|&e| u32::from_le_bytes(bytes[e..e + 4].try_into().unwrap()) == 8)
        .unwrap();
    let off = u32::from_le_bytes(bytes[e + 56..e + 60].try_into().unwrap()) as usize + 24 * k;
    let f = |o: usize| f32::from_le_bytes(bytes[off + o..off + o + 4].try_into().unwrap());
    let q = |o: usize| {
        i16::from_le_bytes(bytes[off + o..off + o + 2].try_into().unwrap()) as f32 / 32767.0
    };
    ([f(0), f(4), f(8)], f(12), [q(16), q(18), q(20), q(22)])
}

/// Textbook slerp weights in f64: sin((1−a)θ)/sinθ, ±sin(aθ)/sinθ.
fn slerp64(q0: [f32; 4], q1: [f32; 4], a: f64) -> [f64; 4] {
    let mut d: f64 = (0..4).map(|i| q0[i] as f64 * q1[i] as f64).sum();
    let s = if d < 0.0 {
        d = -d;
        -1.0
    } else {
        1.0
    };
    let (w0, w1) = if 1.0 - d <= 1e-5 {
        (1.0 - a, a)
    } else {
        let th = d.acos();
        (((1.0 - a) * th).sin() / th.sin(), (a * th).sin() / th.sin())
    };
    std::array::from_fn(|i| w0 * q0[i] as f64 + s * w1 * q1[i] as f64)
}

#[test]
fn segment_sampling() {
    let s = synth::generate("hierarchy-anim", 5).unwrap();
    let m = model(&s.bytes);
    // fractional and half-integer times against an independent slerp
    for (t, n, k0, k1) in [
        (2.5f32, 1usize, 1usize, 2usize),
        (2.0, 1, 1, 2),
        (0.4, 4, 10, 11),
        (7.25, 2, 6, 7),
        (3.7, 3, 8, 9),
    ] {
        let (p0, t0, q0) = raw_key(&s.bytes, k0);
        let (p1, t1, q1) = raw_key(&s.bytes, k1);
        let a = (t - t0) / (t1 - t0);
        let got = sample(&m, n, t).unwrap().pose;
        let want = slerp64(q0, q1, a as f64);
        for i in 0..4 {
            assert!(
                (got.q[i] as f64 - want[i]).abs() < 1e-6,
                "t {t} node {n}: {:?} vs {want:?}",
                got.q
            );
        }
        for i in 0..3 {
            assert!((got.pos[i] - (p0[i] + (p1[i] - p0[i]) * a)).abs() < 1e-6);
        }
    }
    // integer times that hit a key return it verbatim
    let (p, _, q) = raw_key(&s.bytes, 2);
    assert_eq!(sample(&m, 1, 4.0).unwrap().pose, Pose { pos: p, q });
    let (p, _, q) = raw_key(&s.bytes, 11);
    assert_eq!(
        sample(&m, 4, 1.0).unwrap().pose,
        Pose { pos: p, q },
        "frame 0 at t = 1 returns k1"
    );
    // past the end and negative: the fallback key verbatim
    let (p, _, q) = raw_key(&s.bytes, 3);
    assert_eq!(sample(&m, 1, 13.5).unwrap().pose, Pose { pos: p, q });
    assert_eq!(sample(&m, 1, -3.0).unwrap().pose, Pose { pos: p, q });
    assert_eq!(sample(&m, 1, f32::NAN).unwrap().pose, Pose { pos: p, q });
    assert_eq!(static_pose(&m, 1), Pose { pos: p, q });
}

#[test]
fn interpolator_is_the_engine_formula() {
    // linear branch when 1 − dot ≤ 9.9999997e-6, result not normalised
    let q = [0.0, 0.0, 0.0, 1.0];
    let r = [0.0, 0.0, 0.002, 0.999_998];
    let got = interpolate(q, r, 0.5);
    assert_eq!(got, [0.0, 0.0, 0.001, 0.5 + 0.5 * 0.999_998]);
    // sign rule: q and −q interpolate to ±q
    let a = [0.0, 0.6, 0.0, 0.8];
    let neg = a.map(|v: f32| -v);
    let got = interpolate(a, neg, 0.3);
    for i in 0..4 {
        assert!((got[i] - a[i]).abs() < 1e-6);
    }
    // 90° apart, half way: 45°
    let b = [0.0, (0.5f32).sqrt(), 0.0, (0.5f32).sqrt()];
    let got = interpolate([0.0, 0.0, 0.0, 1.0], b, 0.5);
    let want = [
        0.0,
        (std::f32::consts::PI / 8.0).sin(),
        0.0,
        (std::f32::consts::PI / 8.0).cos(),
    ];
    for i in 0..4 {
        assert!((got[i] - want[i]).abs() < 1e-6, "{got:?}");
    }
}

#[test]
fn blend_validity_rule() {
    let s = synth::generate("hierarchy-anim", 5).unwrap();
    let m = model(&s.bytes);
    let a = sample(&m, 2, 2.0).unwrap().pose;
    let b = sample(&m, 2, 9.0).unwrap().pose;
    assert_eq!(blend(&m, 2, 2.0, 9.0, 0.0).unwrap(), a, "b = 0: only A");
    assert_eq!(blend(&m, 2, 2.0, 9.0, 1.0).unwrap(), b, "b = 1: only B");
    assert_eq!(blend(&m, 2, -1.0, 9.0, 0.5).unwrap(), b, "tA < 0: only B");
    assert_eq!(blend(&m, 2, 2.0, -1.0, 0.5).unwrap(), a, "tB < 0: only A");
    assert_eq!(
        blend(&m, 2, -1.0, -2.0, 0.5).unwrap(),
        static_pose(&m, 2),
        "neither: static pose"
    );
    let both = blend(&m, 2, 2.0, 9.0, 0.25).unwrap();
    assert_eq!(both, blend_poses(&a, &b, 0.25));
    for i in 0..3 {
        assert!((both.pos[i] - (0.75 * a.pos[i] + 0.25 * b.pos[i])).abs() < 1e-6);
    }
    // the |qA + qB|² < |qA − qB|² flip
    let pa = Pose {
        pos: [0.0; 3],
        q: [0.0, 0.0, 0.0, 1.0],
    };
    let pb = Pose {
        pos: [2.0, 0.0, 0.0],
        q: [0.0, 0.0, 0.0, -1.0],
    };
    let r = blend_poses(&pa, &pb, 0.5);
    assert_eq!(r.q, [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(r.pos, [1.0, 0.0, 0.0]);
}

#[test]
fn pose_matrix_is_the_transpose_of_the_textbook_matrix() {
    // 90° about z
    let h = std::f32::consts::FRAC_PI_4;
    let q = [0.0, 0.0, h.sin(), h.cos()];
    let m = pose_matrix(&Pose {
        pos: [1.0, 2.0, 3.0],
        q,
    });
    let t = textbook_matrix(q);
    for i in 0..3 {
        for j in 0..3 {
            assert!((m[4 * i + j] - t[4 * j + i]).abs() < 1e-6);
        }
    }
    assert!((m[1] - 1.0).abs() < 1e-6, "m1 = 2(xy + wz)");
    assert_eq!((m[3], m[7], m[11], m[15]), (1.0, 2.0, 3.0, 1.0));
    assert_eq!(
        pose_matrix(&Pose {
            pos: [0.0; 3],
            q: [0.0; 4]
        })[0..3],
        [1.0, 0.0, 0.0],
        "zero q: identity"
    );
    // glTF gets the conjugate: its textbook matrix equals the engine's
    for (x, y, z, w) in [
        (0.1f32, 0.7, -0.2, 0.5),
        (0.0, 0.0, 1.0, 0.0),
        (-0.3, 0.3, 0.3, 0.8),
    ] {
        let n = (x * x + y * y + z * z + w * w).sqrt();
        let q = [x / n, y / n, z / n, w / n];
        let (g, off) = gltf_rotation(q);
        assert!(!off);
        let e = pose_matrix(&Pose { pos: [0.0; 3], q });
        let t = textbook_matrix(g);
        for k in [0, 1, 2, 4, 5, 6, 8, 9, 10] {
            assert!((e[k] - t[k]).abs() < 1e-5, "{q:?}");
        }
    }
    assert!(gltf_rotation([0.0, 0.0, 0.0, 2.0]).1, "|q| = 2 scales");
}

#[test]
fn hierarchy_parent_before_child() {
    let s = synth::generate("hierarchy-anim", 9).unwrap();
    let m = model(&s.bytes);
    for t in [0.0f32, 2.5, 7.0] {
        let poses = poses_at(&m, t);
        let w = world_matrices(&m, &poses);
        let l: Vec<_> = poses.iter().map(pose_matrix).collect();
        assert_eq!(w[0], l[0]);
        assert_eq!(w[1], mul(&l[0], &l[1]));
        assert_eq!(w[2], mul(&mul(&l[0], &l[1]), &l[2]));
        assert_eq!(w[3], mul(&w[2], &l[3]));
        assert_eq!(w[4], mul(&l[0], &l[4]), "the sibling hangs from the root");
    }
    let sp = static_poses(&m);
    assert_eq!(sp.len(), 5);
}
