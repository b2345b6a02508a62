// re2d tests — randomised renderer properties: no panics on extreme input, workspace history never matters,
// pixel colours come from points, sample depth only where covered (rotsprite-render.md Observable contract).

use proptest::prelude::*;
use re2d::rotsprite::*;

/// A float that is usually ordinary, sometimes extreme or non-finite.
fn wild_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => -8.0f32..8.0,
        1 => prop::sample::select(vec![0.0f32, -0.0, 1e30, -1e30, f32::NAN, f32::INFINITY, 3.0e9]),
    ]
}

fn wild_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        8 => -2.0f64..2.0,
        1 => prop::sample::select(vec![0.0, -0.0, 1e300, -1e300, f64::NAN, f64::INFINITY, 2147483648.0]),
    ]
}

const PARTS: [u8; 12] = [1, 2, 3, 6, 8, 12, 16, 17, 24, 33, 48, 80];

fn point() -> impl Strategy<Value = R2DRotPoint> {
    (
        (
            prop::sample::select(PARTS.to_vec()),
            wild_f32(),
            wild_f32(),
            wild_f32(),
            any::<[u8; 4]>(),
        ),
        (
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            prop::array::uniform3(wild_f32()),
        ),
        (
            prop::array::uniform3(-4.0f32..4.0),
            prop::array::uniform3(-1.0f32..1.0),
        ),
        (
            prop::sample::select(vec![0u8, 0, 80, 6, 200]),
            any::<u8>(),
            any::<[[u8; 4]; 4]>(),
        ),
        (
            prop::collection::vec(any::<u8>(), 100),
            any::<[u8; 4]>(),
            any::<[u8; 4]>(),
        ),
    )
        .prop_map(
            |(
                (part, x, y, z, rgba),
                (patch, textured, mapped, du),
                (dv, duv),
                (bp, bw, colors),
                (mat, cp, cbw),
            )| {
                let mut p = R2DRotPoint::ZERO;
                (p.part, p.x, p.y, p.z, p.rgba) = (part, x, y, z, rgba);
                p.patch = CBool::new(patch);
                p.textured = CBool::new(textured);
                p.mapped = CBool::new(mapped);
                (p.du, p.dv, p.duv) = (du, dv, duv);
                (p.blend_part, p.blend_weight, p.colors) = (bp, bw, colors);
                p.material.copy_from_slice(&mat);
                p.corner_parts = cp.map(|c| PARTS[c as usize % PARTS.len()] * (c & 1));
                p.corner_blend_parts = cp.map(|c| [0, 80, 6][c as usize % 3]);
                p.corner_blend_weights = cbw;
                p
            },
        )
}

fn model() -> impl Strategy<Value = R2DRotModelPose> {
    (
        prop::collection::vec(
            (
                prop::array::uniform3(-180.0f64..180.0),
                prop::array::uniform12(wild_f64()),
                0u8..4,
                any::<u8>(),
            ),
            PARTS.len(),
        ),
        prop_oneof![4 => 0.25f64..3.0, 1 => prop::sample::select(vec![f64::NAN, 0.0, 1e9])],
    )
        .prop_map(|(parts, scale)| {
            let mut m = R2DRotModelPose {
                scale,
                ..Default::default()
            };
            for (i, (ang, junk, kind, flags)) in parts.into_iter().enumerate() {
                let pose = &mut m.parts[PARTS[i] as usize];
                let (a, b) = (ang[0].to_radians(), ang[1].to_radians());
                pose.matrix = match kind {
                    // rigid: rotation about z then x, with a translation
                    0 | 1 => [
                        a.cos(),
                        -a.sin(),
                        0.0,
                        ang[2] / 20.0,
                        a.sin() * b.cos(),
                        a.cos() * b.cos(),
                        -b.sin(),
                        1.0,
                        a.sin() * b.sin(),
                        a.cos() * b.sin(),
                        b.cos(),
                        -2.0,
                    ],
                    2 => [1.3, 0.0, 0.0, 1.0, 0.0, 0.7, 0.0, 0.0, 0.0, 0.0, 1.1, 0.0],
                    _ => junk,
                };
                pose.defined = CBool::new(flags & 1 != 0 || flags & 8 != 0);
                pose.visible = CBool::new(flags & 2 != 0 || flags & 16 != 0);
                pose.one_sided = CBool::new(flags & 4 != 0);
                pose.selector = (flags >> 5) & 3;
                pose.variant = (flags >> 3) & 3;
            }
            m
        })
}

#[derive(Debug, Clone)]
struct View {
    yaw: f64,
    pitch: f64,
    eyes: i32,
    mouth: i32,
    rig_kind: u8,
    legacy: (f64, f64, f64, f64, f64, i32),
}

fn view() -> impl Strategy<Value = View> {
    (
        prop_oneof![4 => -720.0f64..720.0, 1 => prop::sample::select(vec![1e15, -1e15, 180.0, -0.0])],
        -100.0f64..100.0,
        0i32..4,
        0i32..4,
        0u8..4,
        (-10.0f64..10.0, -60.0f64..60.0, -180.0f64..180.0, -180.0f64..180.0, -90.0f64..90.0, 0i32..4),
    )
        .prop_map(|(yaw, pitch, eyes, mouth, rig_kind, legacy)| View { yaw, pitch, eyes, mouth, rig_kind, legacy })
}

fn rig<'a>(v: &View, m: &'a R2DRotModelPose) -> Option<Rig<'a>> {
    let (phase, stride, arm_left, arm_right, head_yaw, brows) = v.legacy;
    let legacy = Rig {
        model: None,
        body: v.rig_kind == 2,
        phase,
        stride,
        arm_left,
        arm_right,
        head_yaw,
        brows,
    };
    match v.rig_kind {
        0 => None,
        1 | 2 => Some(legacy),
        _ => Some(Rig {
            model: Some(m),
            body: true,
            ..legacy
        }),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    // Release only (`make test-frames`): 48 cases of up to three 512 px frames take over a
    // minute in a debug build, a few seconds in release.
    #[cfg_attr(debug_assertions, ignore = "release only: make test-frames")]
    #[test]
    fn renderers_are_total_and_history_free(
        points in prop::collection::vec(point(), 1..80),
        m in model(),
        frames in prop::collection::vec((view(), prop::sample::select(vec![256usize, 512])), 2..4),
    ) {
        let mut shared = AnimeWorkspace::new();
        for (v, size) in &frames {
            let frame = Frame::new(v.yaw, v.pitch, v.eyes, v.mouth, rig(v, &m)).unwrap();
            // Pixel raster: every opaque pixel is some point's colour.
            let mut small = vec![0u8; 128 * 128 * 4];
            draw(&points, &frame, &mut small).unwrap();
            for px in small.chunks(4).filter(|px| px != &[0, 0, 0, 0]) {
                prop_assert!(points.iter().any(|p| p.rgba == px), "pixel {px:?} not from a point");
            }
            // Smooth: a reused workspace gives the bytes of a fresh one.
            let mut a = vec![0u8; size * size * 4];
            let mut b = vec![0u8; size * size * 4];
            shared.render(&points, &frame, *size, &mut a).unwrap();
            let mut fresh = AnimeWorkspace::new();
            fresh.render(&points, &frame, *size, &mut b).unwrap();
            prop_assert_eq!(&a, &b);
            prop_assert_eq!(shared.resolved(), fresh.resolved());
            prop_assert_eq!(shared.bounds(), fresh.bounds());
            let sd: Vec<u32> = shared.sample_depth().iter().map(|d| d.to_bits()).collect();
            let fd: Vec<u32> = fresh.sample_depth().iter().map(|d| d.to_bits()).collect();
            prop_assert_eq!(sd, fd);
            // Uncovered pixels have +0.0 depth; outside the bounds nothing is drawn.
            let [b0, b1, b2, b3] = shared.bounds();
            for (i, px) in shared.resolved().chunks(4).enumerate() {
                let (x, y) = ((i % size) as i32, (i / size) as i32);
                if px == [0, 0, 0, 0] {
                    prop_assert_eq!(shared.sample_depth()[i].to_bits(), 0);
                }
                if x < b0 / 2 || x >= (b2 + 1) / 2 || y < b1 / 2 || y >= (b3 + 1) / 2 {
                    prop_assert_eq!(px, [0, 0, 0, 0]);
                }
            }
        }
    }

    #[test]
    fn joint_never_panics(part in any::<i32>(), p in prop::array::uniform3(wild_f64()), yaw in wild_f64(), pitch in wild_f64(), m in model(), v in view()) {
        let r = rig(&v, &m);
        let _ = joint(part, p[0] * 100.0, p[1], p[2], yaw * 100.0, pitch, r.as_ref());
    }
}
