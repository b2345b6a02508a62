// re2d surface compiler property tests: compile → runtime v2 decode round trip, and fuzzing of the JSON → compile path.
//! Round trip (issue item 3, spec §11.8): random surfaces are compiled at
//! every size and mode and decoded with `re2d::rotsprite::decode`; every
//! point must come back within the quantisation bounds of §3.4 with the
//! expected part, group and blend fields (from an independent oracle of §7).
//! Fuzzing (item 7): arbitrary JSON values and mutated valid documents never
//! panic, and every atlas that compiles passes the decoder contract of §4.

use proptest::prelude::*;
use re2d::rotsprite::{AtlasImage, R2DRotPoint, decode};
use re2d_surface::json::{self, Value};
use re2d_surface::{self as surface, Options, Patch, Sample, Shape, Surface};

fn decode_atlas(a: &surface::Atlas) -> Result<Vec<R2DRotPoint>, String> {
    let s = a.size as i32;
    let img = AtlasImage::new(&a.rgba, s, s, 4 * s).map_err(|e| format!("{e:?}"))?;
    decode(&img).map_err(|e| e.to_string())
}

/// Independent oracle of §7 for one linear rule on axis y (written from the
/// spec text, not from the compiler).
fn oracle(id: u8, y: f64, rule: Option<(u8, f64, u8, f64)>, legacy: bool) -> (u8, u8, u8) {
    let Some((rid, t, assign, w)) = rule else {
        return (id, 0, 0);
    };
    if rid != id {
        return (id, 0, 0);
    }
    let d = y - t;
    if legacy || w == 0.0 || d.abs() >= w / 2.0 {
        return (if d > 0.0 { assign } else { id }, 0, 0);
    }
    let weight = ((255.0 * (0.5 * w - d.abs())) / w).round_ties_even() as u8;
    let (p, s) = if d > 0.0 { (assign, id) } else { (id, assign) };
    (p, if weight == 0 { 0 } else { s }, weight)
}

#[derive(Clone, Debug)]
struct Case {
    cells: Vec<(u16, u8, [f64; 3])>, // cell index (my*256+mx), id, xyz
    size: u32,
    legacy: bool,
    rule: Option<(u8, f64, u8, f64)>,
}

fn coord(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    prop_oneof![
        lo..=hi,
        // exact quantisation ties and ends of the ranges
        (0i32..=((hi - lo) * 128.0) as i32).prop_map(move |i| lo + i as f64 / 128.0),
        Just(lo),
        Just(hi),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    let cell = (
        0u16..(256 * 192),
        prop_oneof![Just(7u8), 1u8..=254],
        coord(-32.0, 31.75),
        coord(-64.0, 63.5),
        coord(-32.0, 31.75),
    )
        .prop_map(|(c, id, x, y, z)| (c, id, [x, y, z]));
    (
        prop::collection::vec(cell, 1..200),
        prop::sample::select(vec![1024u32, 2048, 3072, 4096]),
        any::<bool>(),
        prop::option::of((
            Just(7u8),
            -10.0f64..10.0,
            1u8..=254,
            prop_oneof![Just(0.0), 0.0f64..12.0],
        )),
    )
        .prop_map(|(mut cells, size, legacy, rule)| {
            let mut seen = std::collections::HashSet::new();
            cells.retain(|c| seen.insert(c.0));
            Case {
                cells,
                size,
                legacy,
                rule,
            }
        })
}

fn surface_of(c: &Case) -> Surface {
    let rows = c
        .cells
        .iter()
        .map(|&(i, id, xyz)| Sample {
            u: (i % 256) as i64 * 4,
            v: (i / 256) as i64 * 4,
            id: id as i64,
            xyz,
        })
        .collect();
    Surface {
        patches: vec![Patch {
            shape: Shape::Samples(rows),
            color: [1, 2, 3],
        }],
        segments: c
            .rule
            .map(|(id, t, assign, w)| {
                vec![surface::Rule {
                    id,
                    axis: 1,
                    greater_than: t,
                    assign,
                    width: Some(w),
                    profile: surface::Profile::Linear,
                }]
            })
            .unwrap_or_default(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn round_trip_through_the_runtime_decoder(c in case()) {
        let s = surface_of(&c);
        // Through JSON text as well: the file path must give the same atlas.
        let o = Options { size: c.size, legacy: c.legacy, segments: c.rule.is_some(), ..Options::default() };
        let a = surface::compile(s.to_json().as_bytes(), None, &o).unwrap();
        prop_assert_eq!(&a, &surface::compile_surface(&s, None, &o).unwrap());
        let pts = decode_atlas(&a).unwrap();
        prop_assert_eq!(pts.len(), c.cells.len());
        let mut sorted = c.cells.clone();
        sorted.sort_by_key(|x| x.0);
        let (bx, by) = if c.legacy { (1.0 / 8.0, 1.0 / 4.0) } else { (1.0 / 128.0, 1.0 / 64.0) };
        for (p, &(_, id, xyz)) in pts.iter().zip(&sorted) {
            prop_assert!((p.x as f64 - xyz[0]).abs() <= bx, "x {} vs {}", p.x, xyz[0]);
            prop_assert!((p.y as f64 - xyz[1]).abs() <= by, "y {} vs {}", p.y, xyz[1]);
            prop_assert!((p.z as f64 - xyz[2]).abs() <= bx, "z {} vs {}", p.z, xyz[2]);
            let (primary, secondary, weight) = oracle(id, xyz[1], c.rule, c.legacy);
            prop_assert_eq!(p.part, primary);
            prop_assert_eq!(p.group, if c.legacy { primary } else { id });
            prop_assert_eq!((p.blend_part, p.blend_weight), (secondary, weight));
            prop_assert_eq!(p.mapped.get(), !c.legacy);
            prop_assert_eq!(p.rgba, [1, 2, 3, 255]);
        }
    }
}

#[test]
fn round_trip_with_support_cells_and_grid_matrix() {
    // Grid with a rotation matrix, material with transparent anchors in every
    // other column: support cells decode with alpha 0 and correct coordinates.
    let (c, s) = (0.6f64, 0.8f64);
    let m = [c, -s, 0.0, 1.0, s, c, 0.0, -2.0, 0.0, 0.0, 1.0, 0.25];
    let points = vec![
        vec![[-8.0, -8.0, 0.0], [8.0, -8.0, 2.0]],
        vec![[-8.0, 8.0, -2.0], [8.0, 8.0, 0.0]],
    ];
    let sf = Surface {
        patches: vec![Patch {
            shape: Shape::Grid {
                id: 42,
                rect: [64, 64, 64, 32],
                points: points.clone(),
                matrix: m,
            },
            color: [9, 9, 9],
        }],
        segments: vec![],
    };
    let mut mat = vec![255u8; 1024 * 1024 * 4];
    for y in 0..1024 {
        for x in (0..1024).step_by(8) {
            mat[(y * 1024 + x) * 4 + 3] = 0;
        }
    }
    let mut png = Vec::new();
    {
        let mut e = png::Encoder::new(&mut png, 1024, 1024);
        e.set_color(png::ColorType::Rgba);
        e.set_depth(png::BitDepth::Eight);
        e.write_header().unwrap().write_image_data(&mat).unwrap();
    }
    for size in [1024, 3072] {
        let a = surface::compile_surface(
            &sf,
            Some(&png),
            &Options {
                size,
                ..Options::default()
            },
        )
        .unwrap();
        let pts = decode_atlas(&a).unwrap();
        assert_eq!(pts.len(), 16 * 8);
        for (i, p) in pts.iter().enumerate() {
            let (mx, my) = (i % 16, i / 16);
            let (u, v) = (mx as f64 * 4.0 / 64.0, my as f64 * 4.0 / 32.0);
            // independent bilinear evaluation + matrix
            let bil = |k: usize| {
                (1.0 - u) * (1.0 - v) * points[0][0][k]
                    + u * (1.0 - v) * points[0][1][k]
                    + (1.0 - u) * v * points[1][0][k]
                    + u * v * points[1][1][k]
            };
            let q = [bil(0), bil(1), bil(2)];
            let e = [
                m[0] * q[0] + m[1] * q[1] + m[3],
                m[4] * q[0] + m[5] * q[1] + m[7],
                q[2] + m[11],
            ];
            assert!((p.x as f64 - e[0]).abs() <= 1.0 / 128.0 + 1e-9);
            assert!((p.y as f64 - e[1]).abs() <= 1.0 / 64.0 + 1e-9);
            assert!((p.z as f64 - e[2]).abs() <= 1.0 / 128.0 + 1e-9);
            assert_eq!(
                p.rgba[3],
                if mx % 2 == 0 { 0 } else { 255 },
                "anchor (16+{mx})·4 transparent on even columns"
            );
            assert_eq!((p.part, p.group), (42, 42));
        }
    }
}

#[test]
fn shipped_surfaces_decode_with_expected_part_counts() {
    // Part counts from tests/golden/golden.json (the engine's decode).
    let dir = format!("{}/assets", concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let animal = std::fs::read(format!("{dir}/animal.surface.json")).unwrap();
    let expect = [
        (90u8, 3072usize),
        (91, 2304),
        (92, 1152),
        (93, 1152),
        (94, 1152),
        (95, 1152),
        (96, 2304),
    ];
    for legacy in [false, true] {
        let a = surface::compile(
            &animal,
            None,
            &Options {
                legacy,
                ..Options::default()
            },
        )
        .unwrap();
        let pts = decode_atlas(&a).unwrap();
        for (id, n) in expect {
            assert_eq!(
                pts.iter().filter(|p| p.part == id).count(),
                n,
                "part {id} legacy={legacy}"
            );
        }
    }
    let prop = std::fs::read(format!("{dir}/prop.surface.json")).unwrap();
    let a = surface::compile(
        &prop,
        None,
        &Options {
            size: 2048,
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(decode_atlas(&a).unwrap().len(), 3072);
}

// ------------------------------------------------------------------ fuzzing

fn arb_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-300i64..1100).prop_map(|v| Value::Num {
            v: v as f64,
            int: true
        }),
        prop_oneof![
            -100.0f64..100.0,
            Just(f64::INFINITY),
            Just(f64::NAN),
            Just(1e300)
        ]
        .prop_map(|v| Value::Num { v, int: false }),
        prop::sample::select(vec![
            "samples",
            "grid",
            "loft",
            "x",
            "y",
            "z",
            "linear",
            "smoothstep",
            ""
        ])
        .prop_map(|s| Value::Str(s.into())),
    ]
}

fn arb_value() -> impl Strategy<Value = Value> {
    arb_leaf().prop_recursive(5, 64, 8, |inner| {
        let keys = prop::sample::select(vec![
            "version",
            "patches",
            "segments",
            "type",
            "id",
            "rect",
            "points",
            "sections",
            "samples",
            "matrix",
            "color",
            "axis",
            "greaterThan",
            "assign",
            "width",
            "profile",
        ]);
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Arr),
            prop::collection::vec((keys, inner), 0..6).prop_map(|kv| Value::Obj(
                kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
            )),
        ]
    })
}

/// Serialise a value (non-finite numbers become `1e999`/`-1e999`, or the
/// legacy `NaN` token when `legacy_tokens`).
fn text(v: &Value, legacy_tokens: bool, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Num { v, int } => {
            if v.is_nan() {
                out.push_str(if legacy_tokens { "NaN" } else { "1e999" });
            } else if v.is_infinite() {
                out.push_str(if *v > 0.0 { "1e999" } else { "-1e999" });
            } else if *int {
                out.push_str(&format!("{}", *v as i64));
            } else {
                out.push_str(&format!("{v:?}"));
            }
        }
        Value::Str(s) => out.push_str(&format!("{s:?}")),
        Value::Arr(a) => {
            out.push('[');
            for (i, e) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                text(e, legacy_tokens, out);
            }
            out.push(']');
        }
        Value::Obj(m) => {
            out.push('{');
            for (i, (k, e)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&format!("{k:?}:"));
                text(e, legacy_tokens, out);
            }
            out.push('}');
        }
    }
}

const SEEDS: [&str; 3] = [
    r#"{"version":1,"patches":[{"type":"grid","id":7,"rect":[0,0,16,16],"color":[1,2,3],"matrix":[1,0,0,0,0,1,0,0,0,0,1,0],
        "points":[[[-1,0,0.3],[1,0,0.3]],[[-1,8,-0.3],[1,8,-0.3]]]}],
        "segments":[{"id":7,"axis":"y","greaterThan":4,"assign":20,"width":6,"profile":"smoothstep"}]}"#,
    r#"{"version":1,"patches":[{"type":"loft","id":90,"rect":[0,0,16,16],
        "sections":[[0,2,3,4,0,-2,0,0],[0.5,3,4,5,0,2,0,0],[1,1,1,1,0,0,0,0]]},
        {"type":"samples","samples":[[64,0,80,0,0,0],[68,0,81,1,2,3]]}]}"#,
    r#"{"version":1,"patches":[{"type":"samples","samples":[[0,0,80,1.5,-2,3]]}],"segments":[]}"#,
];

/// Replace the node reached by following `path` (indices modulo the child
/// count) with `new`.
fn mutate(v: &mut Value, path: &[usize], new: Value) {
    let Some((&first, rest)) = path.split_first() else {
        *v = new;
        return;
    };
    match v {
        Value::Arr(a) if !a.is_empty() => {
            let n = a.len();
            mutate(&mut a[first % n], rest, new)
        }
        Value::Obj(m) if !m.is_empty() => {
            let n = m.len();
            mutate(&mut m[first % n].1, rest, new)
        }
        _ => *v = new,
    }
}

fn check_no_panic_and_decodable(src: &[u8]) {
    for legacy in [false, true] {
        for segments in [false, true] {
            let o = Options {
                legacy,
                segments,
                ..Options::default()
            };
            if let Ok(a) = surface::compile(src, None, &o) {
                assert_eq!(a.rgba.len(), 1024 * 1024 * 4);
                if a.cells > 0 {
                    decode_atlas(&a).unwrap_or_else(|e| {
                        panic!(
                            "compiled atlas rejected ({e}) for {}",
                            String::from_utf8_lossy(src)
                        )
                    });
                } else {
                    assert!(legacy, "default mode must raise E_EMPTY");
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn fuzz_arbitrary_json_never_panics(v in arb_value(), legacy_tokens in any::<bool>()) {
        let mut s = String::new();
        text(&v, legacy_tokens, &mut s);
        check_no_panic_and_decodable(s.as_bytes());
        // also as a top-level surface wrapper
        let wrapped = format!(r#"{{"version":1,"patches":[{s}],"segments":[{s}]}}"#);
        check_no_panic_and_decodable(wrapped.as_bytes());
    }

    #[test]
    fn fuzz_mutated_documents_never_panic(
        seed in 0usize..SEEDS.len(),
        muts in prop::collection::vec(
            (prop::collection::vec(0usize..16, 2..8), prop_oneof![3 => arb_leaf(), 1 => arb_value()]),
            1..3,
        ),
        legacy_tokens in any::<bool>(),
    ) {
        let mut doc = json::parse(SEEDS[seed].as_bytes(), false).unwrap();
        for (path, new) in muts {
            mutate(&mut doc, &path, new);
        }
        let mut s = String::new();
        text(&doc, legacy_tokens, &mut s);
        check_no_panic_and_decodable(s.as_bytes());
    }

    #[test]
    fn fuzz_raw_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64), seed in 0usize..SEEDS.len(), at in 0usize..400) {
        check_no_panic_and_decodable(&bytes);
        let mut s = SEEDS[seed].as_bytes().to_vec();
        let at = at % s.len();
        s.splice(at..at, bytes.iter().copied().take(4));
        check_no_panic_and_decodable(&s);
    }
}
