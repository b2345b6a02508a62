// re2d .riv root translations (issue 19): `translations` in the export-riv model are validated like tracks, written as keyed RootBone x/y (properties 90/91), accepted by the structural check only on a RootBone, read back exactly, rendered by the reference renderer, and dropped by `--control notranslate`.

use re2d::limits::Limits;
use re2d_riv::check::check;
use re2d_riv::export::{Control, Options, export};
use re2d_riv::read::read;
use re2d_riv::reference::{RefOptions, moved_at, pose_at, render};
use re2d_riv::roundtrip::compare;
use re2d_riv::write::{Header, RivObject, Toc, Value, encode};
use re2d_riv::{Code, Model};
use serde_json::{Value as Json, json};

fn model_of(j: &Json) -> Result<Model, re2d_riv::RivError> {
    let mut src = |id: &str, _e: &Json| -> Result<(String, Vec<u8>), re2d_riv::RivError> {
        Ok((format!("{id}.png"), re2d_testkit::riv::texture(0.3)))
    };
    Model::from_json(j, &mut src, &Limits::DEFAULT)
}

/// A root with a child; two quads weighted to the root; a clip that turns
/// the child and moves the root by (dx, dy) keys.
fn bob(translations: Json) -> Json {
    json!({"version": 1, "name": "bob",
        "skeleton": {"root": {"x": 20, "y": 30, "length": 10}, "arm": {"parent": "root", "length": 8, "angle": 0.5}},
        "textures": {"t": "t.png"},
        "parts": [
            {"name": "a", "texture": "t", "verts": [0,0, 10,0, 10,10, 0,10], "uv": [0,0,1,0,1,1,0,1], "tris": [0,1,2,0,2,3], "bones": ["root","root","root","root"]},
            {"name": "b", "texture": "t", "verts": [20,20, 34,20, 34,28, 20,28], "uv": [0,0,1,0,1,1,0,1], "tris": [0,1,2,0,2,3], "bones": ["root","root","root","root"]}
        ],
        "clips": {"walk": {"duration": 1.0, "loop": true,
            "tracks": {"arm": [[0, 0], [0.5, 1.0], [1.0, 0]], "root": [[0, 0], [1.0, 0]]},
            "translations": translations}}})
}

fn good() -> Json {
    bob(json!({"root": [[0, 0, 0], [0.5, 6, -12], [1.0, 0, 0]]}))
}

#[test]
fn validation_errors() {
    assert!(model_of(&good()).is_ok());
    let m = model_of(&good()).unwrap();
    let c = m.clip("walk").unwrap();
    assert_eq!(c.translations.len(), 1);
    assert_eq!(
        c.translations[0].keys,
        vec![(0.0, 0.0, 0.0), (0.5, 6.0, -12.0), (1.0, 0.0, 0.0)]
    );
    for (what, t, msg) in [
        (
            "a child bone",
            json!({"arm": [[0, 0, 1]]}),
            "only a root bone can be translated",
        ),
        (
            "unknown bone",
            json!({"leg": [[0, 0, 1]]}),
            "unknown bone 'leg'",
        ),
        (
            "not an object",
            json!([1, 2]),
            "translations is not an object",
        ),
        (
            "not an array",
            json!({"root": 3}),
            "translations.root is not an array",
        ),
        (
            "no keys",
            json!({"root": []}),
            "translations.root has no keys",
        ),
        (
            "a pair",
            json!({"root": [[0, 1]]}),
            "is not a [time, dx, dy] triple",
        ),
        (
            "a string",
            json!({"root": [[0, "1", 2]]}),
            "dx is not a number",
        ),
        (
            "time outside",
            json!({"root": [[0, 0, 0], [1.5, 0, 0]]}),
            "time 1.5 is outside [0, 1]",
        ),
        (
            "negative time",
            json!({"root": [[-0.1, 0, 0]]}),
            "is outside",
        ),
        (
            "not increasing",
            json!({"root": [[0, 0, 0], [0.5, 0, 0], [0.5, 1, 1]]}),
            "time 0.5 does not increase",
        ),
    ] {
        let e = model_of(&bob(t)).unwrap_err();
        assert_eq!(e.code, Code::Clip, "{what}: {e}");
        assert!(e.to_string().contains(msg), "{what}: {e}");
    }
}

/// The keyed objects: one KeyedObject for the root with rotation (15), x
/// (90) and y (91); values are the rest position + offset + (dx, dy).
#[test]
fn written_as_keyed_root_x_and_y() {
    let m = model_of(&good()).unwrap();
    let o = Options::default();
    let ex = export(&m, &o).unwrap();
    let (ox, oy) = (ex.frame.ox, ex.frame.oy);
    let objs = &ex.objects;
    let anim = objs.iter().position(|r| r.type_key == 31).unwrap();
    let tail: Vec<&RivObject> = objs[anim + 1..].iter().collect();
    let uint = |r: &RivObject, k: u64| {
        r.props.iter().find(|p| p.0 == k).map(|p| match p.1 {
            Value::Uint(v) => v,
            _ => panic!("not a uint"),
        })
    };
    let dbl = |r: &RivObject, k: u64| {
        r.props.iter().find(|p| p.0 == k).map(|p| match p.1 {
            Value::Double(v) => v,
            _ => panic!("not a double"),
        })
    };
    // root (artboard 1): KeyedObject, 15 + 2 keys, 90 + 3 keys, 91 + 3 keys; then arm: 15 + 3 keys
    let types: Vec<u64> = tail.iter().map(|r| r.type_key).collect();
    assert_eq!(
        types,
        vec![
            25, 26, 30, 30, 26, 30, 30, 30, 26, 30, 30, 30, 25, 26, 30, 30, 30
        ]
    );
    assert_eq!(uint(tail[0], 51), Some(1));
    assert_eq!(uint(tail[1], 53), Some(15));
    assert_eq!(uint(tail[4], 53), Some(90));
    assert_eq!(uint(tail[8], 53), Some(91));
    let xs: Vec<(u64, f32)> = tail[5..8]
        .iter()
        .map(|r| (uint(r, 67).unwrap(), dbl(r, 70).unwrap()))
        .collect();
    let ys: Vec<(u64, f32)> = tail[9..12]
        .iter()
        .map(|r| (uint(r, 67).unwrap(), dbl(r, 70).unwrap()))
        .collect();
    let f32s = |v: f64| v as f32;
    assert_eq!(
        xs,
        vec![
            (0, f32s(20.0 + ox)),
            (30, f32s(26.0 + ox)),
            (60, f32s(20.0 + ox))
        ]
    );
    assert_eq!(
        ys,
        vec![
            (0, f32s(30.0 + oy)),
            (30, f32s(18.0 + oy)),
            (60, f32s(30.0 + oy))
        ]
    );
    // linear interpolation like the clip
    assert!(tail[5..8].iter().all(|r| uint(r, 68) == Some(1)));
    // the file passes the structural check and reads back exactly
    let file = read(&ex.bytes).unwrap();
    assert_eq!(compare(&ex.objects, &file), None);
    let rep = check(&file);
    assert!(rep.ok(), "{:?}", rep.problems);
    assert_eq!(rep.summary.animations[0].4, 2, "two keyed objects");
    assert_eq!(rep.summary.animations[0].5, 11, "eleven keys");
    // notranslate drops exactly the x/y properties; static holds the first value
    let nt = export(
        &m,
        &Options {
            control: Some(Control::Notranslate),
            ..Options::default()
        },
    )
    .unwrap();
    let nt_tail: Vec<u64> = nt
        .objects
        .iter()
        .skip(anim + 1)
        .map(|r| r.type_key)
        .collect();
    assert_eq!(nt_tail, vec![25, 26, 30, 30, 25, 26, 30, 30, 30]);
    assert!(check(&read(&nt.bytes).unwrap()).ok());
    let st = export(
        &m,
        &Options {
            control: Some(Control::Static),
            ..Options::default()
        },
    )
    .unwrap();
    let st_tail: Vec<&RivObject> = st.objects[anim + 1..].iter().collect();
    assert!(
        st_tail[9..12]
            .iter()
            .all(|r| dbl(r, 70) == Some(f32s(30.0 + oy)))
    );
    assert_eq!(Control::parse("notranslate"), Some(Control::Notranslate));
    // a model without translations exports as before (no keyed x/y)
    let plain = model_of(&bob(json!(null))).unwrap();
    let pe = export(&plain, &o).unwrap();
    assert!(
        !pe.objects
            .iter()
            .any(|r| r.type_key == 26 && uint(r, 53) != Some(15))
    );
}

/// Translation key times follow the §8.6 rules (E_KEY_QUANT and the
/// rounding warning name the translations).
#[test]
fn translation_key_quantisation() {
    let m = model_of(&bob(json!({"root": [[0, 0, 0], [0.001, 1, 1]]}))).unwrap();
    let e = export(&m, &Options::default()).unwrap_err();
    assert_eq!(e.code, Code::KeyQuant);
    assert!(
        e.to_string().contains("clips.walk.translations.root"),
        "{e}"
    );
    let m = model_of(&bob(json!({"root": [[0, 0, 0], [0.501, 1, 1]]}))).unwrap();
    let ok = export(&m, &Options::default()).unwrap();
    assert!(
        ok.warnings
            .iter()
            .any(|w| w.contains("translations.root: key at 0.501 s moved to frame 30")),
        "{:?}",
        ok.warnings
    );
}

/// The checker: x/y keys only on a RootBone, each property once per object.
#[test]
fn checker_rules_for_keyed_x_and_y() {
    let m = model_of(&good()).unwrap();
    let ex = export(&m, &Options::default()).unwrap();
    let anim = ex.objects.iter().position(|r| r.type_key == 31).unwrap();
    let header = Header {
        major: 7,
        minor: 3,
        toc: Toc::Full,
    };
    let patched = |f: &dyn Fn(&mut Vec<RivObject>)| {
        let mut objs = ex.objects.clone();
        f(&mut objs);
        let bytes = encode(&objs, header).unwrap();
        check(&read(&bytes).unwrap()).problems
    };
    assert!(patched(&|_| {}).is_empty());
    // the root's keyed object pointed at the child bone (a Bone, artboard index 2)
    let p = patched(&|o| o[anim + 1] = RivObject::new(25).with(51, Value::Uint(2)));
    assert!(
        p.iter()
            .any(|m| m
                .contains("propertyKey 90 (RootBone x/y) keys an object that is not a RootBone")),
        "{p:?}"
    );
    // the y property written as x: x keyed twice
    let p = patched(&|o| o[anim + 9] = RivObject::new(26).with(53, Value::Uint(90)));
    assert!(
        p.iter().any(|m| m.contains("propertyKey 90 keyed twice")),
        "{p:?}"
    );
    // another property (node x, 13) is not allowed
    let p = patched(&|o| o[anim + 9] = RivObject::new(26).with(53, Value::Uint(13)));
    assert!(
        p.iter()
            .any(|m| m.contains("is not 15 (rotation) or 90/91")),
        "{p:?}"
    );
}

/// The reference renderer moves the root: a frame at t = 0.5 (dx 6, dy −12,
/// parts weighted to the root, the root not turned) is the rest frame
/// shifted by (6, −12) pixels exactly; without translations it is not.
#[test]
fn reference_moves_the_root() {
    let j = bob(json!({"root": [[0, 0, 0], [0.5, 6, -12], [1.0, 0, 0]]}));
    let m = model_of(&j).unwrap();
    assert_eq!(
        moved_at(&m, Some("walk"), 0.5, 60).unwrap()[0],
        [6.0, -12.0]
    );
    assert_eq!(
        moved_at(&m, Some("walk"), 0.25, 60).unwrap()[0],
        [3.0, -6.0]
    );
    assert_eq!(
        moved_at(&m, Some("walk"), 1.25, 60).unwrap()[0],
        [3.0, -6.0],
        "loops"
    );
    assert_eq!(moved_at(&m, None, 0.5, 60).unwrap()[0], [0.0, 0.0]);
    assert_eq!(pose_at(&m, Some("walk"), 0.5, 60).unwrap()[0], 0.0);
    let o = |t: f64| RefOptions {
        clip: Some("walk".into()),
        time: t,
        artboard: Some((80, 80)),
        offset: Some((20.0, 30.0)),
        ..RefOptions::default()
    };
    let rest = render(&m, &o(0.0), &Limits::DEFAULT).unwrap();
    let moved = render(&m, &o(0.5), &Limits::DEFAULT).unwrap();
    let px = |img: &re2d::png_io::RgbaImage, x: i64, y: i64| -> [u8; 4] {
        if x < 0 || y < 0 || x >= img.width as i64 || y >= img.height as i64 {
            return [0; 4];
        }
        let i = ((y as u32 * img.width + x as u32) * 4) as usize;
        img.data[i..i + 4].try_into().unwrap()
    };
    let mut covered = 0;
    for y in 0..80 {
        for x in 0..80 {
            assert_eq!(px(&moved, x, y), px(&rest, x - 6, y + 12), "pixel {x},{y}");
            covered += (px(&moved, x, y)[3] > 0) as usize;
        }
    }
    assert!(covered > 150, "{covered}");
    assert_ne!(moved.data, rest.data);
    // control: the same clip without translations leaves the parts in place
    let still = model_of(&bob(json!(null))).unwrap();
    assert_eq!(
        render(&still, &o(0.5), &Limits::DEFAULT).unwrap().data,
        rest.data
    );
    // step interpolation holds the key before
    let mut js = j.clone();
    js["clips"]["walk"]["interpolation"] = json!("step");
    let ms = model_of(&js).unwrap();
    assert_eq!(
        moved_at(&ms, Some("walk"), 0.45, 60).unwrap()[0],
        [0.0, 0.0]
    );
    assert_eq!(
        moved_at(&ms, Some("walk"), 0.55, 60).unwrap()[0],
        [6.0, -12.0]
    );
}

/// The committed `mocap` fixture is what the retargeting of the committed
/// capture generates (`cargo run --example riv_fixtures`), and its walk
/// clip is a closed loop with the root bob as translations of the root.
#[test]
fn committed_mocap_fixture_is_the_generated_one() {
    let repo = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let b = re2d_rig::motion::bvh::read(
        &repo.join("assets/mocap/cmu-131-01-walk.bvh"),
        &Limits::DEFAULT,
    )
    .unwrap();
    let walk = re2d_rig::motion::retarget(
        &b,
        &re2d_testkit::riv::mocap_bones(),
        &re2d_rig::motion::MotionOptions::default(),
    )
    .unwrap();
    let f = re2d_testkit::riv::mocap(&walk);
    let dir = repo.join("tests/riv/fixtures/mocap");
    let committed = std::fs::read_to_string(dir.join("model.json")).unwrap();
    assert_eq!(committed, f.json, "run cargo run --example riv_fixtures");
    for (name, png) in &f.textures {
        assert_eq!(&std::fs::read(dir.join(name)).unwrap(), png, "{name}");
    }
    let m = Model::load(&dir.join("model.json"), &Limits::DEFAULT).unwrap();
    let c = m.clip("walk").unwrap();
    assert!(c.looping);
    assert_eq!(c.translations.len(), 1);
    assert_eq!(m.bones[c.translations[0].bone].parent, None);
    let keys = &c.translations[0].keys;
    assert_eq!(keys.first().map(|k| k.2), keys.last().map(|k| k.2));
    assert!(keys.iter().any(|k| k.2.abs() > 2.0), "the root bobs");
    for t in &c.tracks {
        assert_eq!(t.keys.first().map(|k| k.1), t.keys.last().map(|k| k.1));
    }
    assert!(c.tracks.len() >= 12, "{} tracks", c.tracks.len());
    // the probe moves the root only
    let p = m.clip("probe_bob").unwrap();
    assert!(p.tracks.is_empty() && p.translations.len() == 1);
}
