// re2d tests — .riv export (rive-export.md): wire format, stream order and index spaces, weights,
// clips, validation errors, the independent checker, the reference renderer and the
// fuzz corpus replay.

use std::path::{Path, PathBuf};

use re2d::limits::Limits;
use re2d_riv::check::{check, check_bytes};
use re2d_riv::export::{Control, Options, draw_order, export, quantise, ramp_chain};
use re2d_riv::read::{Field, read};
use re2d_riv::reference::{RefOptions, pose_at, render};
use re2d_riv::roundtrip::compare;
use re2d_riv::{Code, Model};
use serde_json::{Value as Json, json};

fn repo() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn fixture(name: &str) -> PathBuf {
    repo()
        .join("tests/riv/fixtures")
        .join(name)
        .join("model.json")
}

fn load(name: &str) -> Model {
    Model::load(&fixture(name), &Limits::DEFAULT).unwrap()
}

/// A model from JSON with in-memory textures (`id` → PNG).
fn model_of(j: &Json) -> Result<Model, re2d_riv::RivError> {
    let mut src = |id: &str, _e: &Json| -> Result<(String, Vec<u8>), re2d_riv::RivError> {
        Ok((format!("{id}.png"), re2d_testkit::riv::texture(0.3)))
    };
    Model::from_json(j, &mut src, &Limits::DEFAULT)
}

fn quad(name: &str, depth: f64, x: f64, bones: Json) -> Json {
    json!({"name": name, "depth": depth, "texture": "t",
        "verts": [x, 0, x + 10.0, 0, x + 10.0, 10, x, 10], "uv": [0,0, 1,0, 1,1, 0,1],
        "tris": [0,1,2, 0,2,3], "bones": bones})
}

fn small() -> Json {
    json!({"version": 1, "name": "s",
        "skeleton": {"root": {"x": 5, "y": 5, "length": 10}, "arm": {"parent": "root", "length": 8, "angle": 0.5}},
        "textures": {"t": "t.png"},
        "parts": [quad("a", 0.5, 0.0, json!(["root","root","arm","arm"])), quad("b", 0.5, 20.0, json!(["arm","arm","arm","arm"])), quad("c", 0.2, 40.0, json!(null))],
        "clips": {"z": {"duration": 1.0, "loop": true, "tracks": {"arm": [[0, 0], [0.5, 1.0], [1.0, 0]]}},
                  "a": {"duration": 0.5, "interpolation": "step", "tracks": {"root": [[0, 0.25]]}}}})
}

#[test]
fn committed_fixtures_are_the_generated_ones() {
    for f in re2d_testkit::riv::all() {
        let dir = repo().join("tests/riv/fixtures").join(f.name);
        let json = std::fs::read_to_string(dir.join("model.json")).unwrap();
        assert_eq!(
            json, f.json,
            "{}: run cargo run --example riv_fixtures",
            f.name
        );
        for (name, png) in &f.textures {
            assert_eq!(
                &std::fs::read(dir.join(name)).unwrap(),
                png,
                "{}/{name}",
                f.name
            );
        }
    }
    let walk = load("walk");
    assert!(walk.bones.len() >= 12 && walk.parts.len() >= 8);
    // branching: some bone has two or more children; every child sits at its parent's tip
    assert!(
        (0..walk.bones.len())
            .any(|b| walk.bones.iter().filter(|c| c.parent == Some(b)).count() >= 2)
    );
    let textures: std::collections::HashSet<_> = walk.parts.iter().map(|p| p.texture).collect();
    assert_eq!(textures.len(), walk.parts.len(), "one texture per part");
}

#[test]
fn header_toc_and_determinism() {
    let m = load("walk");
    let a = export(&m, &Options::default()).unwrap();
    let b = export(&load("walk"), &Options::default()).unwrap();
    assert_eq!(a.bytes, b.bytes, "deterministic");
    assert_eq!(&a.bytes[..7], &[0x52, 0x49, 0x56, 0x45, 7, 3, 0]);
    let f = read(&a.bytes).unwrap();
    let keys: Vec<u64> = f.toc.iter().map(|t| t.0).collect();
    let mut sorted = keys.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(keys, sorted, "full ToC ascending");
    assert!(keys.len() > 4 && !keys.contains(&69) && !keys.contains(&376));
    let mut used: Vec<u64> = f
        .records
        .iter()
        .flat_map(|r| r.fields.iter().map(|x| x.0))
        .collect();
    used.sort();
    used.dedup();
    assert_eq!(keys, used, "the ToC lists exactly the keys written");
    let e = export(
        &m,
        &Options {
            empty_toc: true,
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(&e.bytes[..8], &[0x52, 0x49, 0x56, 0x45, 7, 3, 0, 0]);
    let strip = |f: re2d_riv::read::RivFile| {
        f.records
            .into_iter()
            .map(|r| (r.type_key, r.fields))
            .collect::<Vec<_>>()
    };
    assert!(
        strip(read(&e.bytes).unwrap()) == strip(f),
        "the same objects after an empty ToC"
    );
}

#[test]
fn round_trip_and_check_for_every_export_and_control() {
    for name in ["walk", "arm"] {
        let m = load(name);
        for control in [None].into_iter().chain(Control::ALL.map(Some)) {
            let o = Options {
                control,
                ..Options::default()
            };
            let e = export(&m, &o).unwrap();
            let r = check_bytes(&e.bytes, &Limits::DEFAULT);
            match control {
                Some(Control::Badversion) => {
                    assert!(
                        r.problems.iter().any(|p| p.contains("major version 6")),
                        "{:?}",
                        r.problems
                    );
                    assert_eq!(compare(&e.objects, &read(&e.bytes).unwrap()), None);
                }
                Some(Control::Toc16) => assert!(!r.ok(), "toc16 must be rejected"),
                _ => {
                    assert!(r.ok(), "{name} {control:?}: {:?}", r.problems);
                    assert_eq!(compare(&e.objects, &read(&e.bytes).unwrap()), None);
                }
            }
        }
    }
}

#[test]
fn stream_order_and_index_spaces() {
    let m = model_of(&small()).unwrap();
    let e = export(&m, &Options::default()).unwrap();
    let f = read(&e.bytes).unwrap();
    let types: Vec<u64> = f.records.iter().map(|r| r.type_key).collect();
    // Backboard, one asset pair (all parts share "t"), white asset for "c"? no: c has texture t too.
    assert_eq!(&types[..4], &[23, 105, 106, 1]);
    assert_eq!(
        f.records[1].uint(204),
        Some(100),
        "FileAsset.assetId = 100 + index"
    );
    let comps = &f.records[3..];
    // bones: root (RootBone, parent 0) then arm (Bone, parent 1)
    assert_eq!((comps[1].type_key, comps[1].uint(5)), (41, Some(0)));
    assert_eq!((comps[2].type_key, comps[2].uint(5)), (40, Some(1)));
    assert_eq!(comps[1].float(90), Some(5.0 + e.frame.ox as f32));
    assert!(comps[2].field(90).is_none(), "a Bone has no x");
    // draw order: c (depth 0.2) first, then b (declared later, same depth as a), then a
    let images: Vec<String> = comps
        .iter()
        .filter(|r| r.type_key == 100)
        .map(|r| String::from_utf8(r.blob(4).unwrap().to_vec()).unwrap())
        .collect();
    assert_eq!(images, ["c", "b", "a"]);
    assert_eq!(draw_order(&m), vec![2, 1, 0]);
    // §8.8 per part: Image, Mesh (parent Image), 4 MeshVertex (parent Mesh), [Skin, 2 Tendon, 4 Weight]
    let c = 3; // first Image index in the artboard list
    assert_eq!(comps[c].type_key, 100);
    assert_eq!(
        (comps[c + 1].type_key, comps[c + 1].uint(5)),
        (109, Some(c as u64))
    );
    for v in 0..4 {
        assert_eq!(
            (comps[c + 2 + v].type_key, comps[c + 2 + v].uint(5)),
            (108, Some(c as u64 + 1))
        );
    }
    // part c has no weights: no Skin; the next Image follows directly
    assert_eq!(comps[c + 6].type_key, 100);
    let b = c + 6;
    assert_eq!(comps[b + 6].type_key, 43);
    assert_eq!(
        comps[b + 6].uint(5),
        Some(b as u64 + 1),
        "Skin parent = Mesh"
    );
    for k in 0..2 {
        let t = &comps[b + 7 + k];
        assert_eq!(
            (t.type_key, t.uint(5), t.uint(95)),
            (44, Some(b as u64 + 6), Some(1 + k as u64))
        );
    }
    for v in 0..4 {
        let w = &comps[b + 9 + v];
        assert_eq!(
            (w.type_key, w.uint(5)),
            (45, Some((b + 2 + v) as u64)),
            "Weight parent = its vertex"
        );
        assert_eq!(
            (w.uint(102), w.uint(103)),
            (Some(255), Some(2)),
            "bone arm = slot 2"
        );
    }
    // tendon bind of bone k: rest world transform with offset; 97 is yx = -sin, 98 is xy = sin
    let t1 = &comps[b + 8];
    let a = 0.5f64; // arm world angle
    assert_eq!(t1.float(96), Some(a.cos() as f32));
    assert_eq!(t1.float(97), Some(-a.sin() as f32));
    assert_eq!(t1.float(98), Some(a.sin() as f32));
    assert_eq!(t1.float(100), Some((15.0 + e.frame.ox) as f32));
    // animations in ascending name order, not in the component list
    let anims: Vec<String> = f
        .records
        .iter()
        .filter(|r| r.type_key == 31)
        .map(|r| String::from_utf8(r.blob(55).unwrap().to_vec()).unwrap())
        .collect();
    assert_eq!(anims, ["a", "z"]);
    // KeyedObject objectId = bone's artboard index; values = rest + key; step → 0, linear → 1
    let ko: Vec<&re2d_riv::read::Record> = f.records.iter().filter(|r| r.type_key == 25).collect();
    assert_eq!(
        ko.iter().map(|r| r.uint(51).unwrap()).collect::<Vec<_>>(),
        [1, 2]
    );
    let kf: Vec<_> = f.records.iter().filter(|r| r.type_key == 30).collect();
    assert_eq!(
        (kf[0].uint(67), kf[0].uint(68), kf[0].float(70)),
        (Some(0), Some(0), Some(0.25))
    );
    assert_eq!(
        (kf[2].uint(67), kf[2].uint(68), kf[2].float(70)),
        (Some(30), Some(1), Some(1.5))
    );
    let la = f.records.iter().find(|r| r.type_key == 31).unwrap();
    assert_eq!(
        (la.uint(56), la.uint(57), la.uint(59)),
        (Some(60), Some(30), Some(0))
    );
    // tflip rotates asset indices among Images; zflip reverses them; with a white asset there are 2
    let mut j = small();
    j["parts"][0]["texture"] = json!(null);
    let m2 = model_of(&j).unwrap();
    let ids = |c: Option<Control>| -> Vec<u64> {
        exported_with(&m2, c)
            .records
            .iter()
            .filter(|r| r.type_key == 100)
            .map(|r| r.uint(206).unwrap())
            .collect()
    };
    assert_eq!(
        ids(None),
        [0, 0, 1],
        "c, b textured (asset 0), a white (asset 1, last)"
    );
    assert_eq!(ids(Some(Control::Tflip)), [0, 1, 0]);
}

/// `m` exported with the control `c` (none: the correct file) and read back.
fn exported_with(m: &Model, c: Option<Control>) -> re2d_riv::read::RivFile {
    let e = export(
        m,
        &Options {
            control: c,
            ..Options::default()
        },
    )
    .unwrap();
    read(&e.bytes).unwrap()
}

/// tflip with one image asset (a rig build's single texture page): rotating the asset indices
/// would change nothing, so every U is mirrored (1 - u); with two assets the UVs stay as they are
/// (the control's rotation does the breaking there).
#[test]
fn tflip_mirrors_u_when_there_is_one_image_asset() {
    use re2d_riv::keys::{prop, ty};
    let us = |m: &Model, c: Option<Control>| -> Vec<f32> {
        exported_with(m, c)
            .records
            .iter()
            .filter(|r| r.type_key == ty::MESH_VERTEX)
            .map(|r| r.float(prop::U).unwrap_or(0.0))
            .collect()
    };
    // every part on texture t: one asset
    let one = model_of(&small()).unwrap();
    let (plain, flipped) = (us(&one, None), us(&one, Some(Control::Tflip)));
    assert_eq!(plain.len(), 12);
    assert!(plain.iter().any(|&u| u != 0.5), "{plain:?}");
    for (a, b) in plain.iter().zip(&flipped) {
        assert!((a + b - 1.0).abs() < 1e-6, "{plain:?} vs {flipped:?}");
    }
    // control: two assets (one part white) keep their UVs under tflip
    let mut j = small();
    j["parts"][0]["texture"] = json!(null);
    let two = model_of(&j).unwrap();
    assert_eq!(us(&two, None), us(&two, Some(Control::Tflip)));
}

#[test]
fn weight_quantisation() {
    assert_eq!(
        quantise(&[(0, 0.5), (1, 0.5)]),
        (32640, 513),
        "§8.5 example: 128/127 on slots 1, 2"
    );
    assert_eq!(quantise(&[(4, 2.0)]), (255, 5));
    assert_eq!(quantise(&[]), (255, 0));
    assert_eq!(quantise(&[(3, 0.00005)]), (255, 0), "W ≤ 1e-4 is static");
    assert_eq!(
        quantise(&[(0, 1.0), (1, 0.001)]),
        (255, 1),
        "qb == 0 → one bone a"
    );
    assert_eq!(
        quantise(&[(0, 0.001), (1, 1.0)]),
        (255, 2),
        "qa == 0 → one bone b"
    );
    for i in 0..=1000 {
        let w = i as f64 / 1000.0;
        let (v, _) = quantise(&[(0, w), (1, 1.0 - w)]);
        assert_eq!((v & 0xff) + (v >> 8), 255);
    }
    // same-bone pairs are merged before quantising
    let mut j = small();
    j["parts"][0]["weights"] = json!([
        ["arm", 0.25, "arm", 0.25],
        ["root", 1],
        ["root", 0.3, "arm", 0.7, "x", 1],
        null
    ]);
    let m = model_of(&j).unwrap();
    assert_eq!(m.parts[0].weights[0], vec![(1, 0.5)]);
    assert_eq!(m.parts[0].weights[2].len(), 2, "a third pair is dropped");
    assert!(m.warnings.iter().any(|w| w.contains("more than two")));
}

#[test]
fn key_quantisation_errors_and_warnings() {
    let mut j = small();
    j["clips"]["z"]["tracks"]["arm"] = json!([[0, 0], [0.1, 1], [0.12, 2], [1, 0]]);
    let m = model_of(&j).unwrap();
    let e = export(
        &m,
        &Options {
            fps: 10,
            ..Options::default()
        },
    )
    .unwrap_err();
    assert_eq!(e.code, Code::KeyQuant, "{e}");
    assert!(e.message.contains("higher --fps"));
    assert!(
        export(
            &m,
            &Options {
                fps: 100,
                ..Options::default()
            }
        )
        .is_ok()
    );
    let w = export(
        &m,
        &Options {
            fps: 30,
            ..Options::default()
        },
    )
    .unwrap();
    assert!(
        w.warnings.iter().any(|x| x.contains("moved to frame")),
        "{:?}",
        w.warnings
    );
    assert_eq!(
        export(
            &m,
            &Options {
                fps: 0,
                ..Options::default()
            }
        )
        .unwrap_err()
        .code,
        Code::Option
    );
    let unknown = Options {
        clip: Some("nope".into()),
        ..Options::default()
    };
    assert_eq!(export(&m, &unknown).unwrap_err().code, Code::Clip);
    // --clip keeps only that animation
    let one = export(
        &m,
        &Options {
            clip: Some("z".into()),
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(
        read(&one.bytes)
            .unwrap()
            .records
            .iter()
            .filter(|r| r.type_key == 31)
            .count(),
        1
    );
}

#[test]
fn validation_errors_have_their_codes() {
    type Edit = Box<dyn Fn(&mut Json)>;
    let cases: Vec<(Edit, Code)> = vec![
        (Box::new(|j| j["version"] = json!(2)), Code::ModelJson),
        (
            Box::new(|j| j["skeleton"]["root"]["parent"] = json!("arm")),
            Code::Bone,
        ),
        (
            Box::new(|j| j["skeleton"]["arm"]["parent"] = json!("nobody")),
            Code::Bone,
        ),
        (
            Box::new(|j| j["skeleton"]["arm"]["length"] = json!(-1)),
            Code::Bone,
        ),
        (
            Box::new(|j| {
                let bones: serde_json::Map<String, Json> =
                    (0..256).map(|i| (format!("b{i}"), json!({}))).collect();
                j["skeleton"] = Json::Object(bones);
            }),
            Code::Bone,
        ),
        (
            Box::new(|j| j["parts"][0]["verts"] = json!([0, 0, 1])),
            Code::Part,
        ),
        (
            Box::new(|j| j["parts"][0]["uv"] = json!([0, 0])),
            Code::Part,
        ),
        (
            Box::new(|j| j["parts"][0]["tris"] = json!([0, 1])),
            Code::Part,
        ),
        (
            Box::new(|j| j["parts"][0]["tris"] = json!([0, 1, 4])),
            Code::Part,
        ),
        (
            Box::new(|j| j["parts"][0]["verts"][0] = json!("x")),
            Code::Part,
        ),
        (
            Box::new(|j| j["parts"][0]["weights"] = json!([["root", -1], [], [], []])),
            Code::Weight,
        ),
        (
            Box::new(|j| j["parts"][0]["bones"] = json!(["root", "ghost", "root", "root"])),
            Code::Weight,
        ),
        (
            Box::new(|j| j["parts"][0]["bones"] = json!(["root"])),
            Code::Weight,
        ),
        (
            Box::new(|j| j["parts"][0]["texture"] = json!("nope")),
            Code::Texture,
        ),
        (
            Box::new(|j| j["clips"]["z"]["duration"] = json!(0)),
            Code::Clip,
        ),
        (
            Box::new(|j| j["clips"]["z"]["tracks"]["arm"] = json!([[0.5, 0], [0.5, 1]])),
            Code::Clip,
        ),
        (
            Box::new(|j| j["clips"]["z"]["tracks"]["arm"] = json!([[0, 0], [1.5, 1]])),
            Code::Clip,
        ),
        (
            Box::new(|j| j["clips"]["z"]["tracks"]["ghost"] = json!([[0, 0]])),
            Code::Clip,
        ),
        (
            Box::new(|j| j["clips"]["z"]["interpolation"] = json!("cubic")),
            Code::Clip,
        ),
        // issue 29 row 10c: null where a number is required (a NaN from a script)
        (
            Box::new(|j| j["parts"][0]["verts"][1] = json!(null)),
            Code::Part,
        ),
        (
            Box::new(|j| j["parts"][0]["uv"][0] = json!(null)),
            Code::Part,
        ),
        (
            Box::new(|j| j["clips"]["z"]["tracks"]["arm"] = json!([[0, null], [1.0, 0]])),
            Code::Clip,
        ),
    ];
    assert!(model_of(&small()).is_ok());
    for (i, (edit, code)) in cases.iter().enumerate() {
        let mut j = small();
        edit(&mut j);
        let e = model_of(&j).unwrap_err();
        assert_eq!(e.code, *code, "case {i}: {e}");
        assert!(!e.message.is_empty());
    }
    // a texture that is not a PNG
    let mut src = |_: &str, _: &Json| -> Result<(String, Vec<u8>), re2d_riv::RivError> {
        Ok(("t.png".into(), b"GIF89a".to_vec()))
    };
    assert_eq!(
        Model::from_json(&small(), &mut src, &Limits::DEFAULT)
            .unwrap_err()
            .code,
        Code::Texture
    );
    // issue 29 row 9: a valid header over data that does not decode
    let mut broken = re2d_testkit::riv::texture(0.3);
    let n = broken.len();
    broken[n / 2..].iter_mut().for_each(|b| *b ^= 0x5a);
    let mut src = |_: &str, _: &Json| -> Result<(String, Vec<u8>), re2d_riv::RivError> {
        Ok(("t.png".into(), broken.clone()))
    };
    let e = Model::from_json(&small(), &mut src, &Limits::DEFAULT).unwrap_err();
    assert_eq!(e.code, Code::Texture, "{e}");
    // issue 29 row 10a: an offset binary32 cannot hold
    let m = model_of(&small()).unwrap();
    for off in [(1e308, 0.0), (0.0, -1e9)] {
        let o = Options {
            offset: Some(off),
            ..Options::default()
        };
        assert_eq!(export(&m, &o).unwrap_err().code, Code::Option);
    }
    // more than 65535 vertices
    let mut j = small();
    j["parts"][0] = json!({"verts": vec![0; 2 * 65_536], "uv": vec![0; 2 * 65_536]});
    assert_eq!(model_of(&j).unwrap_err().code, Code::Part);
}

#[test]
fn checker_is_independent_of_the_writer() {
    // a rotation written as a varuint (a writer slip) misparses in the reader
    let mut f = vec![
        0x52, 0x49, 0x56, 0x45, 7, 3, 0, 0, 23, 0, 1, 7, 0, 0, 0x80, 0x3f, 8, 0, 0, 0x80, 0x3f, 4,
        1, b'a', 0,
    ];
    f.extend([41, 5, 0, 15, 1, 0]); // RootBone { parentId 0, rotation = varuint 1 }
    let r = check_bytes(&f, &Limits::DEFAULT);
    assert!(!r.ok(), "a uint-encoded double must not pass");
    // the good variant (4-byte float) passes
    let mut g = f[..f.len() - 6].to_vec();
    g.extend([41, 5, 0, 15, 0, 0, 0, 0, 0]);
    let r = check_bytes(&g, &Limits::DEFAULT);
    assert!(r.ok(), "{:?}", r.problems);
    // a ToC that declares a key with the wrong field id
    let mut t = vec![0x52, 0x49, 0x56, 0x45, 7, 3, 0, 15, 0, 0, 0, 0, 0];
    t.extend(&g[8..]);
    assert!(
        check_bytes(&t, &Limits::DEFAULT)
            .problems
            .iter()
            .any(|p| p.contains("key 15"))
    );
    // structural rules: bad parent type, weights not summing to 255, index out of range
    let m = model_of(&small()).unwrap();
    let e = export(&m, &Options::default()).unwrap();
    let mut file = read(&e.bytes).unwrap();
    let good = check(&file);
    assert!(good.ok());
    assert_eq!(good.summary.meshes.len(), 3);
    let wi = file.records.iter().position(|r| r.type_key == 45).unwrap();
    file.records[wi].fields[1].1 = Field::Uint(254);
    assert!(
        check(&file)
            .problems
            .iter()
            .any(|p| p.contains("sum to 254"))
    );
    let mut file = read(&e.bytes).unwrap();
    let mi = file.records.iter().position(|r| r.type_key == 109).unwrap();
    file.records[mi].fields[1].1 = Field::Blob(vec![0, 1, 9]);
    assert!(check(&file).problems.iter().any(|p| p.contains("index 9")));
    let mut file = read(&e.bytes).unwrap();
    let vi = file.records.iter().position(|r| r.type_key == 108).unwrap();
    file.records[vi].fields[0].1 = Field::Uint(0);
    assert!(
        check(&file)
            .problems
            .iter()
            .any(|p| p.contains("expected Mesh"))
    );
    let mut file = read(&e.bytes).unwrap();
    let ki = file.records.iter().position(|r| r.type_key == 30).unwrap();
    file.records[ki].fields.push((69, Field::Uint(0)));
    assert!(
        check(&file)
            .problems
            .iter()
            .any(|p| p.contains("never be written"))
    );
}

#[test]
fn ramp_chains_follow_the_limb() {
    let walk = load("walk");
    let part = |n: &str| walk.parts.iter().position(|p| p.name == n).unwrap();
    let names = |c: Vec<usize>| {
        c.into_iter()
            .map(|b| walk.bones[b].name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(ramp_chain(&walk, part("thighL"))),
        ["thighL", "shinL"]
    );
    assert_eq!(
        names(ramp_chain(&walk, part("shinL"))),
        ["thighL", "shinL", "footL"]
    );
    assert_eq!(names(ramp_chain(&walk, part("footL"))), ["shinL", "footL"]);
    let arm = load("arm");
    assert_eq!(ramp_chain(&arm, 0).len(), 2);
}

fn rgba(img: &re2d::png_io::RgbaImage, x: u32, y: u32) -> [u8; 4] {
    let i = ((y * img.width + x) * 4) as usize;
    img.data[i..i + 4].try_into().unwrap()
}

#[test]
fn reference_renderer_pixels() {
    // one 8x4 quad with a half-transparent 2x1 texture (red | blue), artboard 10x6, offset 1,1
    let tex =
        re2d_output::png_encode::encode_rgba(&[255, 0, 0, 128, 0, 0, 255, 128], 2, 1).unwrap();
    let j = json!({"version": 1, "textures": {"t": "t.png"},
        "parts": [{"texture": "t", "verts": [0,0, 8,0, 8,4, 0,4], "uv": [0,0, 1,0, 1,1, 0,1], "tris": [0,1,2, 0,2,3]}]});
    let mut src = |_: &str, _: &Json| -> Result<(String, Vec<u8>), re2d_riv::RivError> {
        Ok(("t.png".into(), tex.clone()))
    };
    let m = Model::from_json(&j, &mut src, &Limits::DEFAULT).unwrap();
    let o = RefOptions {
        artboard: Some((10, 6)),
        offset: Some((1.0, 1.0)),
        ..RefOptions::default()
    };
    let img = render(&m, &o, &Limits::DEFAULT).unwrap();
    let mut covered = 0;
    for y in 0..6 {
        for x in 0..10 {
            let p = rgba(&img, x, y);
            let inside = (1..9).contains(&x) && (1..5).contains(&y);
            assert_eq!(
                p[3],
                if inside { 128 } else { 0 },
                "alpha at {x},{y}: shared edge drawn once, no gap"
            );
            covered += inside as i32;
        }
    }
    assert_eq!(covered, 32);
    assert_eq!(rgba(&img, 1, 2), [255, 0, 0, 128], "left texel");
    assert_eq!(rgba(&img, 8, 2), [0, 0, 255, 128], "right texel");
    let mid = rgba(&img, 4, 2); // u = 3.5/8 → between the texel centres
    assert!(mid[0] > 100 && mid[2] > 60, "bilinear blend {mid:?}");
    // a half-pixel-aligned edge follows the top-left rule: x = 0.5 edge includes centre 0.5 on the left
    let j2 = json!({"version": 1, "parts": [{"verts": [0.5,0.5, 2.5,0.5, 2.5,2.5, 0.5,2.5], "uv": [0,0,1,0,1,1,0,1], "tris": [0,1,2,0,2,3]}]});
    let m2 = model_of(&j2).unwrap();
    let img2 = render(
        &m2,
        &RefOptions {
            artboard: Some((4, 4)),
            offset: Some((0.0, 0.0)),
            ..RefOptions::default()
        },
        &Limits::DEFAULT,
    )
    .unwrap();
    let row: Vec<u8> = (0..4).map(|x| rgba(&img2, x, 1)[3]).collect();
    assert_eq!(
        row,
        [255, 255, 0, 0],
        "left edge at a centre is in, right edge is out"
    );
    let col: Vec<u8> = (0..4).map(|y| rgba(&img2, 1, y)[3]).collect();
    assert_eq!(col, [255, 255, 0, 0], "top edge in, bottom edge out");
}

#[test]
fn reference_skinning_matches_the_mesh_module_formula() {
    // §7 deformation in the mesh module's additive form (js-mesh.md §7) against the
    // reference renderer's matrix form, on every vertex of the walk at several times.
    let m = load("walk");
    let frame = m.frame(None, None);
    let rest_local: Vec<f64> = m.bones.iter().map(|b| b.angle).collect();
    let rest = m.world(&rest_local, frame.ox, frame.oy);
    for t in [0.0, 0.1, 0.37, 0.8] {
        let local = pose_at(&m, Some("walk"), t, 60).unwrap();
        let pose = m.world(&local, frame.ox, frame.oy);
        for pi in 0..m.parts.len() {
            let got = re2d_riv::reference::deform(&m, pi, &pose, &rest, &frame);
            for (i, v) in m.parts[pi].verts.iter().enumerate() {
                let (vx, vy) = (v[0] + frame.ox, v[1] + frame.oy);
                let (mut dx, mut dy, mut total) = (0.0, 0.0, 0.0);
                for &(b, w) in &m.parts[pi].weights[i] {
                    total += w;
                    let da = pose[b].angle - rest[b].angle;
                    let (lx, ly) = (vx - rest[b].x, vy - rest[b].y);
                    let rx = lx * da.cos() - ly * da.sin() + pose[b].x;
                    let ry = lx * da.sin() + ly * da.cos() + pose[b].y;
                    dx += (rx - vx) * w;
                    dy += (ry - vy) * w;
                }
                let want = if total > 1e-4 {
                    [vx + dx / total, vy + dy / total]
                } else {
                    [vx, vy]
                };
                assert!(
                    (got[i][0] - want[0]).abs() < 1e-9 && (got[i][1] - want[1]).abs() < 1e-9,
                    "{t} part {pi} vertex {i}"
                );
            }
        }
    }
}

#[test]
fn reference_pose_sampling() {
    let m = model_of(&small()).unwrap();
    let arm = m.bone_index("arm").unwrap();
    let at = |t: f64, fps: u32| pose_at(&m, Some("z"), t, fps).unwrap()[arm];
    assert!((at(0.25, 60) - (0.5 + 0.5)).abs() < 1e-12, "linear halfway");
    assert_eq!(at(1.0, 60), at(0.0, 60), "a loop wraps at its end");
    assert!((at(1.25, 60) - at(0.25, 60)).abs() < 1e-12);
    // one-shot step clip holds its key, before and after
    let root = m.bone_index("root").unwrap();
    assert_eq!(pose_at(&m, Some("a"), 3.0, 60).unwrap()[root], 0.25);
    // key times are quantised at the export fps: at 3 fps the 0.5 s key lands on frame 2 (0.667 s)
    let q = pose_at(&m, Some("z"), 0.5, 3).unwrap()[arm];
    assert!((q - (0.5 + 0.75)).abs() < 1e-9, "{q}");
    assert!(pose_at(&m, Some("nope"), 0.0, 60).is_err());
    // the rest pose differs from a posed frame, and a part mask renders only that part
    let w = load("walk");
    let rest = render(&w, &RefOptions::default(), &Limits::DEFAULT).unwrap();
    let posed = render(
        &w,
        &RefOptions {
            clip: Some("walk".into()),
            time: 0.25,
            ..RefOptions::default()
        },
        &Limits::DEFAULT,
    )
    .unwrap();
    assert_ne!(rest.data, posed.data);
    let head = render(
        &w,
        &RefOptions {
            only_part: Some("head".into()),
            ..RefOptions::default()
        },
        &Limits::DEFAULT,
    )
    .unwrap();
    let n = |img: &re2d::png_io::RgbaImage| img.data.chunks(4).filter(|p| p[3] > 0).count();
    assert!(n(&head) > 100 && n(&head) < n(&rest) / 4);
    let huge = RefOptions {
        artboard: Some((100_000, 100_000)),
        ..RefOptions::default()
    };
    assert_eq!(
        render(&w, &huge, &Limits::DEFAULT).unwrap_err().code,
        Code::Option,
        "checked before allocating"
    );
}

#[test]
fn fuzz_corpus_replays() {
    let dir = repo().join("fuzz/corpus/riv_read");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let data = std::fs::read(&p).unwrap();
        let r = check_bytes(&data, &Limits::DEFAULT);
        if r.ok() {
            assert!(read(&data).is_ok());
        }
        let _ = re2d_riv::read::triangle_indices(&data);
        n += 1;
    }
    assert!(
        n >= 10,
        "the minimised corpus is committed ({n} files in {})",
        Path::new(&dir).display()
    );
}

/// Issue 20 item 5: numbers that cannot be written (non-finite, past the
/// binary32 range) are errors of the element's code, not internal errors,
/// and the checker refuses a non-finite artboard size.
#[test]
fn non_finite_and_huge_numbers_are_typed_errors() {
    type Edit = Box<dyn Fn(&mut Json)>;
    let cases: Vec<(Edit, Code, &str)> = vec![
        (
            Box::new(|j| j["skeleton"]["arm"]["angle"] = json!(1e308)),
            Code::Bone,
            "skeleton.arm.angle",
        ),
        (
            Box::new(|j| j["skeleton"]["root"]["length"] = json!("NaN")),
            Code::Bone,
            "skeleton.root.length",
        ),
        (
            Box::new(|j| j["skeleton"]["arm"]["angle"] = json!("Infinity")),
            Code::Bone,
            "skeleton.arm.angle",
        ),
        (
            Box::new(|j| j["parts"][0]["verts"][3] = json!("-Infinity")),
            Code::Part,
            "verts[3]",
        ),
        (
            Box::new(|j| j["parts"][0]["verts"][1] = json!(1e39)),
            Code::Part,
            "verts[1]",
        ),
        (
            Box::new(|j| j["parts"][0]["tris"][2] = json!("NaN")),
            Code::Part,
            "tris[2]",
        ),
        (
            Box::new(|j| j["parts"][0]["weights"] = json!([["root", "NaN"], [], [], []])),
            Code::Weight,
            "weights[0]",
        ),
    ];
    for (i, (edit, code, names)) in cases.iter().enumerate() {
        let mut j = small();
        edit(&mut j);
        let e = model_of(&j).unwrap_err();
        assert_eq!(e.code, *code, "case {i}: {e}");
        assert!(e.message.contains(names), "case {i}: {e}");
    }
    let m = model_of(&small()).unwrap();
    let e = export(&m, &Options::default()).unwrap();
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        for key in [7, 8] {
            let mut file = read(&e.bytes).unwrap();
            let ai = file.records.iter().position(|r| r.type_key == 1).unwrap();
            let f = file.records[ai]
                .fields
                .iter_mut()
                .find(|(k, _)| *k == key)
                .unwrap();
            f.1 = Field::Float(bad);
            let r = check(&file);
            assert!(
                r.problems.iter().any(|p| p.contains("Artboard")),
                "{key}={bad}: {:?}",
                r.problems
            );
        }
    }
}

/// Issue 45 class 5: the bytes a `.riv` embeds (its texture PNGs) are
/// bounded by `riv-max-embedded` before anything is copied or encoded: a
/// texture file from its size before it is read, the textures of any source
/// when the model is validated, a model built in memory before export, and
/// a file that embeds more when it is read.
#[test]
fn embedded_bytes_are_bounded_before_the_work() {
    let png = re2d_testkit::riv::texture(0.3);
    let n = png.len() as u64;
    let tight = Limits {
        riv_max_embedded_bytes: n,
        ..Limits::DEFAULT
    };
    // one texture fits exactly; two do not (the model's texture source)
    let two = json!({"version": 1, "name": "s",
        "skeleton": {"root": {"x": 5, "y": 5, "length": 10}},
        "textures": {"t": "t.png", "u": "u.png"},
        "parts": [quad("a", 0.5, 0.0, json!(["root","root","root","root"])),
                  {"name": "b", "depth": 0.4, "texture": "u", "verts": [0, 0, 10, 0, 10, 10, 0, 10],
                   "uv": [0,0, 1,0, 1,1, 0,1], "tris": [0,1,2, 0,2,3], "bones": ["root","root","root","root"]}]});
    let mut src = |id: &str, _e: &Json| -> Result<(String, Vec<u8>), re2d_riv::RivError> {
        Ok((format!("{id}.png"), png.clone()))
    };
    let e = Model::from_json(&two, &mut src, &tight).unwrap_err();
    assert_eq!(e.code, Code::Texture, "{e}");
    assert!(e.message.contains("riv-max-embedded"), "{e}");
    let m = Model::from_json(&two, &mut src, &Limits::DEFAULT).unwrap();
    // a model built in memory: refused before export copies or encodes it
    let e = re2d_riv::export::check_embedded(&m, &tight).unwrap_err();
    assert!(e.message.contains("riv-max-embedded"), "{e}");
    assert_eq!(
        re2d_riv::export::check_embedded(&m, &Limits::DEFAULT).unwrap(),
        2 * n
    );
    // a file over what is left: refused from its size, before it is read
    let dir = std::env::temp_dir().join(format!("re2d-riv-embedded-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("t.png"), &png).unwrap();
    std::fs::write(dir.join("u.png"), &png).unwrap();
    std::fs::write(dir.join("model.json"), two.to_string()).unwrap();
    let e = Model::load(&dir.join("model.json"), &tight).unwrap_err();
    assert!(
        e.message.contains("u.png") && e.message.contains("riv-max-embedded"),
        "{e}"
    );
    let mut embedded = 0;
    let fifo_like = re2d_riv::model::read_embedded(&dir.join("t.png"), "t", &mut embedded, &tight);
    assert_eq!(fifo_like.unwrap().len() as u64, n);
    assert_eq!(embedded, n);
    let e =
        re2d_riv::model::read_embedded(&dir.join("u.png"), "u", &mut embedded, &tight).unwrap_err();
    assert!(e.message.contains("riv-max-embedded"), "{e}");
    // reading a .riv: its FileAssetContents together within the limit
    let bytes = export(&m, &Options::default()).unwrap().bytes;
    assert!(re2d_riv::read::read_with(&bytes, &Limits::DEFAULT).is_ok());
    let e = re2d_riv::read::read_with(&bytes, &tight).unwrap_err();
    assert!(e.reason.contains("riv-max-embedded"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}
