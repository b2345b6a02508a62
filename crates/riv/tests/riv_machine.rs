// re2d .riv state machines (issue 25; rive-export.md §11): the model's `state_machine` is written as
// the §11.7 worked example byte for byte, read back and accepted by the structural check; its two
// browser controls are structurally valid files that differ where they must; bad sections and
// broken files are rejected.

use re2d::limits::Limits;
use re2d_riv::check::check_bytes;
use re2d_riv::export::{Control, Options, export};
use re2d_riv::read::read;
use re2d_riv::{Code, Model, RivError};
use serde_json::{Value as Json, json};

/// One root bone and the three clips of §11.7 (idle, jump one-shot, walk).
fn model_json(machine: Json) -> Json {
    json!({
        "version": 1,
        "name": "m",
        "skeleton": {"root": {"x": 10.0, "y": 10.0, "length": 20.0, "angle": 0.0}},
        "clips": {
            "idle": {"duration": 1.0, "loop": true, "tracks": {"root": [[0.0, 0.0], [1.0, 0.0]]}},
            "jump": {"duration": 0.5, "loop": false, "tracks": {"root": [[0.0, 0.0], [0.5, 2.0]]}},
            "walk": {"duration": 1.0, "loop": true, "tracks": {"root": [[0.0, 1.0], [1.0, 1.5]]}}
        },
        "state_machine": machine
    })
}

fn model(machine: Json) -> Result<Model, RivError> {
    let mut none = |id: &str, _: &Json| -> Result<(String, Vec<u8>), RivError> {
        Err(RivError::new(Code::Texture, format!("texture {id}")))
    };
    Model::from_json(&model_json(machine), &mut none, &Limits::DEFAULT)
}

fn hex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|h| u8::from_str_radix(h, 16).unwrap())
        .collect()
}

/// §11.7's bytes, as the spec prints them.
const WORKED_EXAMPLE: &str = "
35 37 02 73 6D 00
38 8A 01 05 73 70 65 65 64 8C 01 00 00 00 00 00
3A 8A 01 04 6A 75 6D 70 00
39 8A 01 0A 6C 6F 63 6F 6D 6F 74 69 6F 6E 00
3F 00
41 97 01 03 98 01 00 9E 01 00 A0 01 00 00
3E 00
41 97 01 04 98 01 00 9E 01 00 A0 01 00 00
44 9B 01 01 00
40 00
4C A7 01 00 98 04 02 00
4B A5 01 00 A6 01 00 00 00 00 00
4B A5 01 02 A6 01 00 00 80 3F 00
3D 95 01 01 00
41 97 01 03 98 01 0C 9E 01 00 A0 01 64 00";

fn sm() -> Json {
    json!({"name": "sm", "input": "speed", "blend": [["idle", 0], ["walk", 1]], "triggers": [["jump", "jump"]]})
}

#[test]
fn the_machine_is_the_worked_example_byte_for_byte() {
    let m = model(sm()).unwrap();
    let e = export(&m, &Options::default()).unwrap();
    let want = hex(WORKED_EXAMPLE);
    assert!(
        e.bytes.ends_with(&want),
        "the file does not end with §11.7's machine records"
    );
    let r = check_bytes(&e.bytes, &Limits::DEFAULT);
    assert!(r.ok(), "{:?}", r.problems);
    // the artboard names machine 0 as its default
    let recs = read(&e.bytes).unwrap().records;
    let ab = recs.iter().find(|r| r.type_key == 1).unwrap();
    assert_eq!(ab.uint(236), Some(0));
    // without a machine: no 236 and no machine record
    let mut plain = model_json(Json::Null);
    plain.as_object_mut().unwrap().remove("state_machine");
    let mut none = |id: &str, _: &Json| -> Result<(String, Vec<u8>), RivError> {
        Err(RivError::new(Code::Texture, format!("texture {id}")))
    };
    let p = Model::from_json(&plain, &mut none, &Limits::DEFAULT).unwrap();
    let pe = export(&p, &Options::default()).unwrap();
    let precs = read(&pe.bytes).unwrap().records;
    assert!(
        precs
            .iter()
            .all(|r| r.type_key != 53 && r.uint(236).is_none())
    );
    // one clip exported alone: the machine (whose ids index every clip) is left out
    let one = export(
        &m,
        &Options {
            clip: Some("walk".into()),
            ..Options::default()
        },
    )
    .unwrap();
    assert!(
        read(&one.bytes)
            .unwrap()
            .records
            .iter()
            .all(|r| r.type_key != 53)
    );
}

#[test]
fn the_browser_controls_are_valid_files_broken_where_they_must_be() {
    let m = model(sm()).unwrap();
    let good = read(&export(&m, &Options::default()).unwrap().bytes)
        .unwrap()
        .records;
    let with = |c| {
        let e = export(
            &m,
            &Options {
                control: Some(c),
                ..Options::default()
            },
        )
        .unwrap();
        let r = check_bytes(&e.bytes, &Limits::DEFAULT);
        assert!(r.ok(), "{c:?}: {:?}", r.problems);
        read(&e.bytes).unwrap().records
    };
    let transitions = |recs: &[re2d_riv::read::Record]| -> Vec<u64> {
        recs.iter()
            .filter(|r| r.type_key == 65)
            .map(|r| r.uint(151).unwrap())
            .collect()
    };
    assert_eq!(transitions(&good), [3, 4, 3]);
    // the Entry and the Any → jump transitions point at the Exit state (2)
    let wrong = with(Control::SmWrongTarget);
    assert_eq!(transitions(&wrong), [2, 2, 3]);
    // extra inputs, read instead of the named ones
    let unread = with(Control::SmUnread);
    let inputs: Vec<String> = unread
        .iter()
        .filter(|r| matches!(r.type_key, 56 | 58))
        .map(|r| match r.field(138) {
            Some(re2d_riv::read::Field::Blob(b)) => String::from_utf8_lossy(b).into_owned(),
            _ => String::new(),
        })
        .collect();
    assert_eq!(inputs, ["speed", "jump", "speed-unread", "jump-unread"]);
    let blend = unread.iter().find(|r| r.type_key == 76).unwrap();
    assert_eq!(blend.uint(167), Some(2));
    let cond = unread.iter().find(|r| r.type_key == 68).unwrap();
    assert_eq!(cond.uint(155), Some(3));
}

#[test]
fn bad_sections_are_rejected() {
    for (m, want) in [
        (
            json!({"blend": [["walk", 1], ["idle", 0]]}),
            "does not increase",
        ),
        (json!({"blend": [["nope", 0]]}), "no clip 'nope'"),
        (json!({"blend": []}), "at least one clip"),
        (
            json!({"blend": [["idle", 0]], "triggers": [["jump", "speed"]]}),
            "used twice",
        ),
        (json!("sm"), "not an object"),
    ] {
        let e = model(m.clone()).unwrap_err();
        assert_eq!(e.code, Code::ModelJson, "{m}");
        assert!(e.to_string().contains(want), "{m}: {e}");
    }
}

/// The structural check catches what would break the runtime: a stateToId
/// past the layer's states (the file fails to load), a condition on the
/// Number input (dropped), thresholds out of order (never sorted).
#[test]
fn the_check_rejects_broken_machines() {
    let m = model(sm()).unwrap();
    let bytes = export(&m, &Options::default()).unwrap().bytes;
    let n = bytes.len();
    let ex = hex(WORKED_EXAMPLE);
    let start = n - ex.len();
    let patch = |from: &str, to: &str| {
        let (f, t) = (hex(from), hex(to));
        let mut b = bytes.clone();
        let pos = b[start..]
            .windows(f.len())
            .position(|w| w == f.as_slice())
            .unwrap()
            + start;
        b[pos..pos + f.len()].copy_from_slice(&t);
        check_bytes(&b, &Limits::DEFAULT).problems
    };
    let p = patch("41 97 01 04", "41 97 01 09");
    assert!(p.iter().any(|x| x.contains("stateToId 9")), "{p:?}");
    let p = patch("44 9B 01 01", "44 9B 01 00");
    assert!(p.iter().any(|x| x.contains("not a Trigger input")), "{p:?}");
    let p = patch("A6 01 00 00 80 3F", "A6 01 00 00 80 BF");
    assert!(p.iter().any(|x| x.contains("does not increase")), "{p:?}");
    let p = patch("3F 00 41", "40 00 41");
    assert!(p.iter().any(|x| x.contains("EntryState")), "{p:?}");
}

/// Issue 45 class 3: a threshold is stored as binary32, so it must be
/// finite there (1e39 and ±1e308 would be written as ±inf) and increase
/// there (1 and 1.00000001 are one f32) — refused with the model's code,
/// never written or left to an "internal error".
#[test]
fn thresholds_must_be_finite_and_increase_in_binary32() {
    for (blend, want) in [
        (json!([["idle", 0.0], ["walk", 1e39]]), "beyond binary32"),
        (
            json!([["idle", -1e308], ["walk", 1e308]]),
            "beyond binary32",
        ),
        (
            json!([["idle", 1.0], ["walk", 1.00000001]]),
            "does not increase in binary32",
        ),
    ] {
        let m = json!({"blend": blend, "triggers": [["jump", "jump"]]});
        let e = model(m.clone()).unwrap_err();
        assert_eq!(e.code, Code::ModelJson, "{m}");
        assert!(e.to_string().contains(want), "{m}: {e}");
    }
    // the largest finite f32 and two thresholds one f32 step apart are fine
    let (a, b) = (1.0f32, f32::from_bits(1.0f32.to_bits() + 1));
    let m = json!({"blend": [["idle", a as f64], ["walk", b as f64]], "triggers": []});
    assert!(model(m).is_ok());
    let m = json!({"blend": [["idle", 0.0], ["walk", f32::MAX as f64]], "triggers": []});
    assert!(model(m).is_ok());
}

/// Issue 45 class 3: `riv check` flags a non-finite threshold (NaN passed
/// the order test: every comparison with NaN is false), a name that is not
/// UTF-8 and a transition into the Entry state.
#[test]
fn the_check_flags_values_no_re2d_file_holds() {
    let m = model(sm()).unwrap();
    let bytes = export(&m, &Options::default()).unwrap().bytes;
    assert!(check_bytes(&bytes, &Limits::DEFAULT).ok());
    let n = bytes.len();
    let ex = hex(WORKED_EXAMPLE);
    let start = n - ex.len();
    let patch = |from: &str, to: &str| {
        let (f, t) = (hex(from), hex(to));
        let mut b = bytes.clone();
        let pos = b[start..]
            .windows(f.len())
            .position(|w| w == f.as_slice())
            .unwrap()
            + start;
        b[pos..pos + f.len()].copy_from_slice(&t);
        check_bytes(&b, &Limits::DEFAULT).problems
    };
    // the second threshold 1.0 (00 00 80 3F) as +inf, NaN and -inf
    for (f32_hex, what) in [
        ("00 00 80 7F", "inf"),
        ("00 00 C0 7F", "NaN"),
        ("00 00 80 FF", "-inf"),
    ] {
        let p = patch("A6 01 00 00 80 3F", &format!("A6 01 {f32_hex}"));
        assert!(
            p.iter().any(|x| x.contains("not a finite number")),
            "{what}: {p:?}"
        );
    }
    // the input "speed" spelt with a Latin-1 byte
    let p = patch("73 70 65 65 64", "73 70 E9 65 64");
    assert!(p.iter().any(|x| x.contains("not UTF-8")), "{p:?}");
    // the Any state's transition into the Entry state (index 0)
    let p = patch("41 97 01 04", "41 97 01 00");
    assert!(p.iter().any(|x| x.contains("into the EntryState")), "{p:?}");
}
