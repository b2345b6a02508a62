// re2d tests — reference vectors of rotsprite-v1.md and rotsprite-render.md through the Rust API.
#![allow(clippy::excessive_precision)]

mod common;

use common::{fnv, fnv_f32, opaque, patch, pt};
use re2d::math::rad;
use re2d::rotsprite::*;

fn fixture_a() -> Vec<u8> {
    let mut a = vec![0u8; 256 * 64];
    for y in 0..64 {
        for x in 0..64 {
            let o = y * 256 + x * 4;
            a[o..o + 4].copy_from_slice(&[
                (4 * x) as u8,
                (4 * y) as u8,
                ((x * y) & 255) as u8,
                if (3 * x + 5 * y) % 7 == 0 { 0 } else { 255 },
            ]);
        }
    }
    a
}

fn fixture_b() -> Vec<u8> {
    let mut b = vec![0xEEu8; 600 * 128];
    for y in 0..128 {
        for x in 0..128 {
            let o = y * 600 + x * 4;
            b[o..o + 4].copy_from_slice(&[x as u8, y as u8, 7, 255]);
        }
    }
    b
}

#[test]
fn v1_layout_accepts_exactly_the_documented_sizes() {
    for w in 0..=4200 {
        let want = w % 8 == 0 && (64..=2048).contains(&w);
        assert_eq!(v1::layout(w, w), want.then_some(w / 8), "w = {w}");
    }
    assert_eq!(v1::layout(64, 72), None);
}

#[test]
fn v1_digests_and_coverage() {
    let (a, b) = (fixture_a(), fixture_b());
    let ia = AtlasImage::new(&a, 64, 64, 256).unwrap();
    let ib = AtlasImage::new(&b, 128, 128, 600).unwrap();
    let table = [
        (0.0, 0.0, "80620cf13301f139", 838, "3d8f181bab3f8c32", 962),
        (
            37.5,
            12.25,
            "dc4dfbc9eeacbc88",
            817,
            "b054a062418af714",
            949,
        ),
        (
            -123.0,
            -60.0,
            "196880970f8b945e",
            578,
            "198e4a2b10a90158",
            658,
        ),
        (
            180.0,
            75.0,
            "d0a4fadbaa0c3159",
            534,
            "1c336f70b2c9c1dd",
            600,
        ),
        (
            400.0,
            -100.0,
            "a55ce797f0fc6590",
            515,
            "34ee7c94f4ac672c",
            582,
        ),
        (90.0, 0.0, "716573aa4aaef2d1", 649, "d0c7b5f5596831c2", 738),
        (
            -90.0,
            45.0,
            "09620676a2f860f7",
            600,
            "9e78c746c20b7c0e",
            684,
        ),
    ];
    let mut out = vec![0u8; v1::V1_OUT_BYTES];
    for (yaw, pitch, da, ca, db, cb) in table {
        v1::raster(&ia, yaw, pitch, &mut out).unwrap();
        assert_eq!(
            (fnv(&out).as_str(), opaque(&out)),
            (da, ca),
            "A {yaw},{pitch}"
        );
        v1::raster(&ib, yaw, pitch, &mut out).unwrap();
        assert_eq!(
            (fnv(&out).as_str(), opaque(&out)),
            (db, cb),
            "B {yaw},{pitch}"
        );
    }
}

#[test]
fn v1_probes_fixture_b() {
    let b = fixture_b();
    let ib = AtlasImage::new(&b, 128, 128, 600).unwrap();
    let probes = [(32, 32), (20, 8), (44, 8), (32, 5)];
    let table: [(f64, f64, [[u8; 4]; 4]); 5] = [
        (
            0.0,
            0.0,
            [[32, 16, 7, 255], [70, 3, 7, 255], [84, 3, 7, 255], [0; 4]],
        ),
        (
            90.0,
            0.0,
            [[16, 16, 7, 255], [0; 4], [0; 4], [67, 0, 7, 255]],
        ),
        (
            180.0,
            0.0,
            [[0, 16, 7, 255], [86, 19, 7, 255], [68, 19, 7, 255], [0; 4]],
        ),
        (-45.0, 30.0, [[39, 20, 7, 255], [0; 4], [0; 4], [0; 4]]),
        (0.0, -75.0, [[32, 4, 7, 255], [0; 4], [0; 4], [0; 4]]),
    ];
    let mut out = vec![0u8; v1::V1_OUT_BYTES];
    for (yaw, pitch, want) in table {
        v1::raster(&ib, yaw, pitch, &mut out).unwrap();
        for ((x, y), w) in probes.iter().zip(want) {
            let o = (y * 64 + x) * 4;
            assert_eq!(out[o..o + 4], w, "yaw {yaw} pitch {pitch} pixel ({x},{y})");
        }
    }
}

#[test]
fn v1_rejects_bad_input_without_writing() {
    let a = fixture_a();
    let ia = AtlasImage::new(&a, 64, 64, 256).unwrap();
    let mut out = vec![0xA5u8; v1::V1_OUT_BYTES];
    for (y, p) in [
        (f64::NAN, 0.0),
        (0.0, f64::INFINITY),
        (f64::NEG_INFINITY, 0.0),
    ] {
        assert!(v1::raster(&ia, y, p, &mut out).is_err());
    }
    assert!(out.iter().all(|&b| b == 0xA5));
    assert!(AtlasImage::new(&a, 64, 64, 1).is_err());
}

fn scene_a() -> (Vec<R2DRotPoint>, Rig<'static>) {
    let p6 = patch(
        pt(1, -4.0, -4.0, 2.0, [120, 130, 140, 255]),
        [4.0, 0.0, 0.0],
        [0.0, 4.0, 0.0],
        [0.0, 0.0, 1.0],
    );
    let mut p6 = p6;
    p6.colors = [
        [255, 0, 0, 255],
        [0, 255, 0, 255],
        [0, 0, 255, 255],
        [255, 255, 255, 128],
    ];
    let points = vec![
        pt(1, 0.0, 0.0, 0.0, [200, 50, 40, 255]),
        pt(16, 5.0, 9.0, 10.0, [255, 100, 0, 255]),
        pt(17, -5.0, 9.0, 10.0, [0, 0, 255, 255]),
        pt(6, 0.0, 20.0, 0.0, [10, 200, 10, 255]),
        pt(1, 1.25, -3.5, 4.0, [90, 90, 90, 255]),
        pt(2, -7.5, 2.0, -1.0, [10, 20, 30, 0]),
        p6,
    ];
    let rig = Rig {
        model: None,
        body: true,
        phase: 0.7,
        stride: 25.0,
        arm_left: 20.0,
        arm_right: -10.0,
        head_yaw: -15.0,
        brows: 0,
    };
    (points, rig)
}

fn check_ws(ws: &AnimeWorkspace, out: &[u8], want: (&str, usize, [i32; 4], &str, &str)) {
    let got = (
        fnv(out),
        opaque(out),
        ws.bounds(),
        fnv_f32(ws.sample_depth()),
        fnv(ws.resolved()),
    );
    assert_eq!(
        (got.0.as_str(), got.1, got.2, got.3.as_str(), got.4.as_str()),
        want
    );
}

#[test]
fn scene_a_pixel_raster_and_smooth_sequence() {
    let (pts, rig) = scene_a();
    let mut out = vec![0u8; draw::DRAW_OUT_BYTES];
    draw(&pts, &Frame::new(30.0, 10.0, 0, 0, None).unwrap(), &mut out).unwrap();
    assert_eq!((fnv(&out).as_str(), opaque(&out)), ("0c9e448d2d6602ed", 16));
    draw(
        &pts,
        &Frame::new(-60.0, -20.0, 1, 0, Some(rig)).unwrap(),
        &mut out,
    )
    .unwrap();
    assert_eq!((fnv(&out).as_str(), opaque(&out)), ("5ff4a38b59f36c75", 16));

    let mut ws = AnimeWorkspace::new();
    let mut o256 = vec![0u8; 256 * 256 * 4];
    let mut o512 = vec![0u8; 512 * 512 * 4];
    ws.render(
        &pts,
        &Frame::new(30.0, 10.0, 0, 0, None).unwrap(),
        256,
        &mut o256,
    )
    .unwrap();
    check_ws(
        &ws,
        &o256,
        (
            "ed35a88a40b97ca4",
            273,
            [236, 219, 335, 323],
            "518cc3751ec4c4a6",
            "520cf13c001f0b38",
        ),
    );
    ws.render(
        &pts,
        &Frame::new(-60.0, -20.0, 1, 0, Some(rig)).unwrap(),
        256,
        &mut o256,
    )
    .unwrap();
    check_ws(
        &ws,
        &o256,
        (
            "241f68b67f5ea25f",
            42,
            [241, 157, 261, 336],
            "3b21097567fe26b4",
            "f387a69e8316c7f8",
        ),
    );
    ws.render(
        &pts,
        &Frame::new(30.0, 10.0, 0, 0, None).unwrap(),
        512,
        &mut o512,
    )
    .unwrap();
    assert_eq!(ws.size(), 512);
    check_ws(
        &ws,
        &o512,
        (
            "2b44fff44c8a32cc",
            1053,
            [472, 438, 668, 644],
            "975235f1a0932d13",
            "a7c756bbebebd182",
        ),
    );
}

fn scene_b_model() -> R2DRotModelPose {
    let mut m = R2DRotModelPose {
        scale: 1.5,
        ..Default::default()
    };
    let (c, s) = (rad(20.0).cos(), rad(20.0).sin());
    let (c3, s3) = (rad(30.0).cos(), rad(30.0).sin());
    let mats: [(usize, [f64; 12]); 5] = [
        (80, [c, 0., s, 2., 0., 1., 0., -3., -s, 0., c, 1.]),
        (81, [1., 0., 0., 0., 0., c3, -s3, 5., 0., s3, c3, 0.]),
        (82, [1.2, 0., 0., 0., 0., 1.2, 0., 0., 0., 0., 1.2, 0.]),
        (83, [1., 0., 0., 0., 0., 1., 0., -10., 0., 0., 1., 0.]),
        (84, [1., 0., 0., 0., 0., 1., 0., -10., 0., 0., 1., 0.]),
    ];
    for (id, mat) in mats {
        let p = &mut m.parts[id];
        p.matrix = mat;
        p.defined = CBool::new(true);
        p.visible = CBool::new(true);
    }
    m.parts[83].one_sided = CBool::new(true);
    m.parts[83].selector = 1;
    m.parts[84].selector = 1;
    m.parts[84].variant = 1;
    m
}

fn scene_b_points() -> Vec<R2DRotPoint> {
    let mut p0 = pt(80, 1.0, 2.0, 3.0, [250, 200, 150, 255]);
    p0.blend_part = 81;
    p0.blend_weight = 100;
    let mut p1 = patch(
        pt(80, 0.0, 0.0, 0.0, [1, 2, 3, 255]),
        [3.0, 0.0, 0.0],
        [0.0, 3.0, 0.0],
        [0.0, 0.0, 0.5],
    );
    p1.textured = CBool::new(true);
    p1.corner_parts = [80, 81, 0, 82];
    p1.corner_blend_parts = [0, 0, 81, 0];
    p1.corner_blend_weights = [0, 0, 60, 0];
    p1.colors = [[9, 9, 9, 255]; 4];
    for ty in 0..5 {
        for tx in 0..5 {
            let a = if (tx + ty) % 4 == 3 { 0 } else { 255 };
            let i = (ty * 5 + tx) * 4;
            p1.material[i..i + 4].copy_from_slice(&[(60 * tx) as u8, (60 * ty) as u8, 100, a]);
        }
    }
    let mut p4 = pt(82, -3.0, 4.0, -2.0, [0, 128, 255, 200]);
    p4.blend_part = 80;
    p4.blend_weight = 200;
    vec![
        p0,
        p1,
        pt(83, 0.0, 0.0, 5.0, [30, 60, 90, 255]),
        pt(84, 2.0, 0.0, 5.0, [255, 255, 0, 255]),
        p4,
    ]
}

#[test]
fn scene_b_model_rig() {
    let m = scene_b_model();
    let pts = scene_b_points();
    let rig = Rig::model(&m);
    let mut out = vec![0u8; draw::DRAW_OUT_BYTES];
    draw(
        &pts,
        &Frame::new(25.0, -5.0, 0, 0, Some(rig)).unwrap(),
        &mut out,
    )
    .unwrap();
    assert_eq!((fnv(&out).as_str(), opaque(&out)), ("78110086f47514ed", 16));
    draw(
        &pts,
        &Frame::new(160.0, -5.0, 0, 0, Some(rig)).unwrap(),
        &mut out,
    )
    .unwrap();
    assert_eq!((fnv(&out).as_str(), opaque(&out)), ("d001c2b8e73663dd", 12));

    let mut ws = AnimeWorkspace::new();
    let mut o256 = vec![0u8; 256 * 256 * 4];
    let mut o512 = vec![0u8; 512 * 512 * 4];
    ws.render(
        &pts,
        &Frame::new(25.0, -5.0, 0, 0, Some(rig)).unwrap(),
        256,
        &mut o256,
    )
    .unwrap();
    check_ws(
        &ws,
        &o256,
        (
            "8e2d0020a3bb0d67",
            66,
            [241, 195, 283, 287],
            "72357290cbdedc8f",
            "7c8c8ecf85707cf5",
        ),
    );
    ws.render(
        &pts,
        &Frame::new(25.0, -5.0, 1, 0, Some(rig)).unwrap(),
        512,
        &mut o512,
    )
    .unwrap();
    check_ws(
        &ws,
        &o512,
        (
            "82284fee279ff3ac",
            214,
            [483, 390, 566, 572],
            "b5129495123195d8",
            "a07aa8946acd6988",
        ),
    );
    let mut fresh = AnimeWorkspace::new();
    fresh
        .render(
            &pts,
            &Frame::new(160.0, -5.0, 0, 0, Some(rig)).unwrap(),
            256,
            &mut o256,
        )
        .unwrap();
    assert_eq!(
        (fnv(&o256).as_str(), opaque(&o256)),
        ("ac9020529e4d2103", 56)
    );
}

#[test]
fn joint_vectors() {
    let rig = Rig {
        stride: 30.0,
        ..Rig::legacy(true)
    };
    type Case<'a> = (Rig<'a>, i32, [f64; 3], f64, f64, (f64, f64));
    let cases: [Case; 5] = [
        (rig, 7, [-11.0, 18.0, 0.0], 0.0, 0.0, (53.0, 82.0)),
        (
            Rig {
                arm_left: 90.0,
                ..rig
            },
            7,
            [-11.0, 18.0, 0.0],
            0.0,
            0.0,
            (26.5, 52.5),
        ),
        (
            Rig { phase: 1.0, ..rig },
            8,
            [-5.0, 40.0, 0.0],
            20.0,
            10.0,
            (62.544598578593117, 99.047409500262916),
        ),
        (
            Rig { phase: 1.0, ..rig },
            12,
            [5.0, 40.0, 1.0],
            20.0,
            10.0,
            (66.090551808987541, 103.47247740001211),
        ),
        (
            Rig {
                phase: 1.0,
                head_yaw: 30.0,
                ..rig
            },
            1,
            [3.0, -5.0, 8.0],
            -40.0,
            30.0,
            (65.252190270160952, 38.123576878765206),
        ),
    ];
    for (r, part, [x, y, z], yaw, pitch, want) in cases {
        assert_eq!(
            joint(part, x, y, z, yaw, pitch, Some(&r)),
            want,
            "part {part}"
        );
    }
    assert_eq!(
        joint(1, 3.0, -5.0, 8.0, -40.0, 30.0, None),
        (58.311664903729238, 47.283027588144172)
    );
    // No normalisation: 320 differs from −40 in the last bit of x.
    assert_eq!(
        joint(1, 3.0, -5.0, 8.0, 320.0, 30.0, None),
        (58.311664903729231, 47.283027588144172)
    );
    let (nx, ny) = joint(1, 3.0, -5.0, 8.0, f64::NAN, 0.0, None);
    assert!(nx.is_nan() && ny.is_nan());
}

#[test]
fn legacy_far_eye_rule() {
    let pts = [pt(16, 5.0, 9.0, 10.0, [255, 100, 0, 255])];
    let mut out = vec![0u8; draw::DRAW_OUT_BYTES];
    let mut ws = AnimeWorkspace::new();
    let mut big = vec![0u8; 256 * 256 * 4];
    let mut seen = |yaw: f64, rig: Option<Rig>| {
        let f = Frame::new(yaw, 0.0, 0, 0, rig).unwrap();
        draw(&pts, &f, &mut out).unwrap();
        ws.render(&pts, &f, 256, &mut big).unwrap();
        (opaque(&out) > 0, opaque(&big) > 0)
    };
    assert_eq!(seen(90.0, None), (false, false));
    assert_eq!(seen(-90.0, None), (true, true));
    let turned = Rig {
        head_yaw: 90.0,
        ..Rig::legacy(true)
    };
    assert_eq!(seen(0.0, Some(turned)), (false, false));
}

#[test]
fn model_path_translated_point() {
    let mut m = R2DRotModelPose {
        scale: 1.0,
        ..Default::default()
    };
    m.parts[7].matrix = [1., 0., 0., 5., 0., 1., 0., 3., 0., 0., 1., 0.];
    m.parts[7].defined = CBool::new(true);
    m.parts[7].visible = CBool::new(true);
    let pts = [pt(7, 0.0, 0.0, 0.0, [9, 8, 7, 255])];
    let mut out = vec![0u8; draw::DRAW_OUT_BYTES];
    draw(
        &pts,
        &Frame::new(0.0, 0.0, 0, 0, Some(Rig::model(&m))).unwrap(),
        &mut out,
    )
    .unwrap();
    for (x, y) in [(69, 67), (70, 67), (69, 68), (70, 68)] {
        assert_eq!(out[(y * 128 + x) * 4 + 3], 255, "({x},{y})");
    }
    assert_eq!(opaque(&out), 4);
}

#[test]
fn colour_tie_break_is_order_independent() {
    let a = pt(1, 2.0, 3.0, 1.0, [200, 10, 10, 255]);
    let b = pt(1, 2.0, 3.0, 1.0, [10, 200, 10, 255]);
    // Equal luminance, different bytes.
    let c = pt(1, 2.0, 3.0, 1.0, [0, 0, 0, 255]);
    let mut e = c;
    e.rgba = [0, 0, 0, 254];
    let frame = Frame::new(10.0, 5.0, 0, 0, None).unwrap();
    for (p, q) in [(a, b), (c, e)] {
        let mut o1 = vec![0u8; draw::DRAW_OUT_BYTES];
        let mut o2 = vec![0u8; draw::DRAW_OUT_BYTES];
        draw(&[p, q], &frame, &mut o1).unwrap();
        draw(&[q, p], &frame, &mut o2).unwrap();
        assert_eq!(o1, o2);
        let mut ws = AnimeWorkspace::new();
        let mut s1 = vec![0u8; 256 * 256 * 4];
        let mut s2 = vec![0u8; 256 * 256 * 4];
        ws.render(&[p, q], &frame, 256, &mut s1).unwrap();
        ws.render(&[q, p], &frame, 256, &mut s2).unwrap();
        assert_eq!(s1, s2);
    }
    // Brighter wins.
    let mut o = vec![0u8; draw::DRAW_OUT_BYTES];
    draw(&[a, b], &frame, &mut o).unwrap();
    assert!(o.chunks(4).any(|px| px == [10, 200, 10, 255]));
    assert!(!o.chunks(4).any(|px| px == [200, 10, 10, 255]));
}

#[test]
fn frame_validation() {
    assert_eq!(
        Frame::new(0.0, 0.0, 4, 0, None).err(),
        Some(RenderError::Expression)
    );
    assert_eq!(
        Frame::new(0.0, 0.0, 0, -1, None).err(),
        Some(RenderError::Expression)
    );
    assert_eq!(
        Frame::new(f64::NAN, 0.0, 0, 0, None).err(),
        Some(RenderError::NonFinite)
    );
    let bad = Rig {
        brows: 4,
        ..Rig::legacy(true)
    };
    assert_eq!(
        Frame::new(0.0, 0.0, 0, 0, Some(bad)).err(),
        Some(RenderError::Rig)
    );
    let bad = Rig {
        head_yaw: f64::INFINITY,
        ..Rig::legacy(true)
    };
    assert_eq!(
        Frame::new(0.0, 0.0, 0, 0, Some(bad)).err(),
        Some(RenderError::Rig)
    );
    let mut ws = AnimeWorkspace::new();
    let mut out = vec![0u8; 300 * 300 * 4];
    let f = Frame::new(0.0, 0.0, 0, 0, None).unwrap();
    assert_eq!(
        ws.render(&[], &f, 300, &mut out).err(),
        Some(RenderError::BadSize)
    );
    assert_eq!(ws.size(), 0);
}
