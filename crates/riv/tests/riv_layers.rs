// re2d motions by body part (issue 47; rive-export.md §11.4): the model's `state_machine.layers`
// validated, written as their own layers after `locomotion` (Entry → Exit, Any → the clip on its
// trigger, back to Exit at 100 % of a one-shot or on the trigger again for a loop), read back and
// accepted by the structural check; the `layer-all` control keys the layer on every bone; the
// reference renderer mixes clips as the runtime's layers do (a later layer overrides the bones it
// keys, and only those).

use re2d::limits::Limits;
use re2d_riv::check::check_bytes;
use re2d_riv::export::{Control, Options, export};
use re2d_riv::keys::{prop, ty};
use re2d_riv::read::{Record, read};
use re2d_riv::reference::{Scene, pose_at, pose_layers, render_scene};
use re2d_riv::{Code, Model, RivError};
use serde_json::{Value as Json, json};

/// A root with an arm; the walk keys both (and moves the root), the wave only the arm, the swing
/// (a loop) only the arm.
fn model_json(layers: Json) -> Json {
    json!({
        "version": 1,
        "name": "m",
        "skeleton": {"root": {"x": 10.0, "y": 10.0, "length": 20.0, "angle": 0.0},
                     "arm": {"parent": "root", "length": 10.0, "angle": 0.5}},
        "parts": [{"name": "p", "verts": [10, 10, 30, 10, 30, 14, 10, 14, 30, 10, 40, 10, 40, 14],
                   "uv": [0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1],
                   "tris": [0, 1, 2, 0, 2, 3, 4, 5, 6],
                   "weights": [["root", 1], ["root", 1], ["root", 1], ["root", 1], ["arm", 1], ["arm", 1], ["arm", 1]]}],
        "clips": {
            "idle": {"duration": 1.0, "loop": true, "tracks": {"root": [[0.0, 0.0], [1.0, 0.0]], "arm": [[0.0, 0.0], [1.0, 0.0]]}},
            "walk": {"duration": 1.0, "loop": true, "tracks": {"root": [[0.0, 0.2], [1.0, 0.4]], "arm": [[0.0, 0.1], [1.0, 0.3]]},
                     "translations": {"root": [[0.0, 0.0, 0.0], [1.0, 0.0, 4.0]]}},
            "wave": {"duration": 0.5, "loop": false, "tracks": {"arm": [[0.0, 1.0], [0.5, 2.0]]}},
            "swing": {"duration": 0.5, "loop": true, "tracks": {"arm": [[0.0, -1.0], [0.5, -1.0]]}}
        },
        "state_machine": {"name": "sm", "input": "speed", "blend": [["idle", 0], ["walk", 1]], "triggers": [],
                          "layers": layers}
    })
}

fn model(layers: Json) -> Result<Model, RivError> {
    let mut none = |id: &str, _: &Json| -> Result<(String, Vec<u8>), RivError> {
        Err(RivError::new(Code::Texture, format!("texture {id}")))
    };
    Model::from_json(&model_json(layers), &mut none, &Limits::DEFAULT)
}

fn two_layers() -> Json {
    json!([{"name": "wave", "clip": "wave", "trigger": "wave"},
           {"name": "swing", "clip": "swing", "trigger": "go"}])
}

/// The records after the StateMachine record.
fn machine(recs: &[Record]) -> &[Record] {
    let i = recs
        .iter()
        .position(|r| r.type_key == ty::STATE_MACHINE)
        .expect("a state machine");
    &recs[i..]
}

fn name(r: &Record) -> String {
    String::from_utf8_lossy(r.blob(prop::SM_NAME).unwrap_or_default()).into_owned()
}

#[test]
fn layers_are_written_after_locomotion_with_their_triggers_last() {
    let m = model(two_layers()).unwrap();
    let e = export(&m, &Options::default()).unwrap();
    let rep = check_bytes(&e.bytes, &Limits::DEFAULT);
    assert!(rep.ok(), "{:?}", rep.problems);
    let recs = read(&e.bytes).unwrap().records;
    let sm = machine(&recs);
    // inputs: speed, then the layers' triggers in order
    let inputs: Vec<(u64, String)> = sm
        .iter()
        .filter(|r| [ty::SM_NUMBER, ty::SM_TRIGGER].contains(&r.type_key))
        .map(|r| (r.type_key, name(r)))
        .collect();
    assert_eq!(
        inputs,
        vec![
            (ty::SM_NUMBER, "speed".into()),
            (ty::SM_TRIGGER, "wave".into()),
            (ty::SM_TRIGGER, "go".into())
        ]
    );
    let layers: Vec<usize> = sm
        .iter()
        .enumerate()
        .filter(|(_, r)| r.type_key == ty::SM_LAYER)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(layers.len(), 3);
    assert_eq!(
        layers.iter().map(|&i| name(&sm[i])).collect::<Vec<_>>(),
        ["locomotion", "wave", "swing"]
    );
    // the clip list is sorted by name: idle 0, swing 1, walk 2, wave 3
    let layer = |i: usize| -> Vec<(u64, Vec<u64>)> {
        let end = layers.get(i + 1).copied().unwrap_or(sm.len());
        sm[layers[i] + 1..end]
            .iter()
            .map(|r| {
                let v = [
                    prop::STATE_TO_ID,
                    prop::TRANSITION_FLAGS,
                    prop::EXIT_TIME,
                    prop::CONDITION_INPUT_ID,
                    prop::ANIMATION_STATE_ANIMATION_ID,
                ]
                .iter()
                .filter_map(|&k| r.uint(k))
                .collect();
                (r.type_key, v)
            })
            .collect()
    };
    // wave: Entry → Exit; Any → state 3 when input 1 fires; Exit; the clip (3), → Exit at 100 %
    assert_eq!(
        layer(1),
        vec![
            (ty::ENTRY_STATE, vec![]),
            (ty::STATE_TRANSITION, vec![2, 0, 0]),
            (ty::ANY_STATE, vec![]),
            (ty::STATE_TRANSITION, vec![3, 0, 0]),
            (ty::TRIGGER_CONDITION, vec![1]),
            (ty::EXIT_STATE, vec![]),
            (ty::ANIMATION_STATE, vec![3]),
            (ty::STATE_TRANSITION, vec![2, 12, 100]),
        ]
    );
    // swing (a loop): back to Exit when its trigger (input 2) fires again
    assert_eq!(
        layer(2),
        vec![
            (ty::ENTRY_STATE, vec![]),
            (ty::STATE_TRANSITION, vec![2, 0, 0]),
            (ty::ANY_STATE, vec![]),
            (ty::STATE_TRANSITION, vec![3, 0, 0]),
            (ty::TRIGGER_CONDITION, vec![2]),
            (ty::EXIT_STATE, vec![]),
            (ty::ANIMATION_STATE, vec![1]),
            (ty::STATE_TRANSITION, vec![2, 0, 0]),
            (ty::TRIGGER_CONDITION, vec![2]),
        ]
    );
    // without layers the machine is the §11.7 layout, unchanged (the worked-example test)
    let plain = export(&model(Json::Null).unwrap(), &Options::default()).unwrap();
    let precs = read(&plain.bytes).unwrap().records;
    assert_eq!(
        machine(&precs)
            .iter()
            .filter(|r| r.type_key == ty::SM_LAYER)
            .count(),
        1
    );
}

#[test]
fn bad_layers_are_refused() {
    let cases = [
        (json!({"name": "wave"}), "is not an array"),
        (json!([1]), "is not an object"),
        (
            json!([{"name": "", "clip": "wave", "trigger": "wave"}]),
            "name is not",
        ),
        (
            json!([{"name": "locomotion", "clip": "wave", "trigger": "wave"}]),
            "used twice",
        ),
        (
            json!([{"name": "w", "clip": "nope", "trigger": "wave"}]),
            "no clip 'nope'",
        ),
        (
            json!([{"name": "w", "clip": "walk", "trigger": "wave"}]),
            "already plays",
        ),
        (
            json!([{"name": "w", "clip": "wave", "trigger": "speed"}]),
            "used twice",
        ),
        (
            json!([{"name": "a", "clip": "wave", "trigger": "t"}, {"name": "b", "clip": "swing", "trigger": "t"}]),
            "used twice",
        ),
        (
            json!([{"name": "a", "clip": "wave", "trigger": "t"}, {"name": "b", "clip": "wave", "trigger": "u"}]),
            "already plays",
        ),
        (
            json!([{"name": "a", "clip": "wave", "trigger": "t", "bool": "x"}]),
            "unknown field",
        ),
    ];
    for (layers, want) in cases {
        let e = model(layers.clone()).unwrap_err();
        assert_eq!(e.code, Code::ModelJson, "{layers}");
        assert!(e.to_string().contains(want), "{layers}: {e}");
    }
}

#[test]
fn the_layer_all_control_keys_every_bone() {
    let m = model(two_layers()).unwrap();
    let good = read(&export(&m, &Options::default()).unwrap().bytes)
        .unwrap()
        .records;
    let bad = export(
        &m,
        &Options {
            control: Some(Control::LayerAll),
            ..Options::default()
        },
    )
    .unwrap();
    assert!(check_bytes(&bad.bytes, &Limits::DEFAULT).ok());
    let bad = read(&bad.bytes).unwrap().records;
    // keyed objects of the wave clip (the 4th LinearAnimation): the arm; with the control the
    // root too (rotation and its translation)
    let keyed = |recs: &[Record], clip: usize| -> Vec<u64> {
        let anims: Vec<usize> = recs
            .iter()
            .enumerate()
            .filter(|(_, r)| r.type_key == ty::LINEAR_ANIMATION || r.type_key == ty::STATE_MACHINE)
            .map(|(i, _)| i)
            .collect();
        recs[anims[clip]..anims[clip + 1]]
            .iter()
            .filter(|r| r.type_key == ty::KEYED_PROPERTY)
            .filter_map(|r| r.uint(prop::PROPERTY_KEY))
            .collect()
    };
    assert_eq!(keyed(&good, 3), vec![prop::ROTATION]);
    assert_eq!(
        keyed(&bad, 3),
        vec![prop::ROTATION, prop::ROOT_X, prop::ROOT_Y, prop::ROTATION]
    );
    // the whole-body clips are unchanged
    assert_eq!(keyed(&good, 2), keyed(&bad, 2));
}

#[test]
fn the_reference_mixes_clips_as_layers() {
    let m = model(two_layers()).unwrap();
    let (arm, root) = (m.bone_index("arm").unwrap(), m.bone_index("root").unwrap());
    let walk = pose_at(&m, Some("walk"), 0.25, 60).unwrap();
    let wave = pose_at(&m, Some("wave"), 0.25, 60).unwrap();
    let (l, moved) = pose_layers(&m, &[("walk".into(), 0.25), ("wave".into(), 0.25)], 60).unwrap();
    assert!((l[arm] - wave[arm]).abs() < 1e-12, "the layer sets the arm");
    assert!(
        (l[root] - walk[root]).abs() < 1e-12,
        "and leaves the root to the walk"
    );
    assert!((moved[root][1] - 1.0).abs() < 1e-9, "and its translation");
    assert!((wave[arm] - (0.5 + 1.5)).abs() < 1e-12);
    // the other order: the walk overrides the arm again
    let (l2, _) = pose_layers(&m, &[("wave".into(), 0.25), ("walk".into(), 0.25)], 60).unwrap();
    assert_eq!(l2, walk);
    // rendered: the mixed pose differs from the walk alone, and equals the walk with the arm's
    // angle replaced (drawn through the same renderer)
    let sc = |layers: Vec<(String, f64)>| Scene {
        layers,
        ..Scene::default()
    };
    let lim = Limits::DEFAULT;
    let mixed = render_scene(
        &m,
        &sc(vec![("walk".into(), 0.25), ("wave".into(), 0.25)]),
        &lim,
    )
    .unwrap()
    .image;
    let walk_img = render_scene(&m, &sc(vec![("walk".into(), 0.25)]), &lim)
        .unwrap()
        .image;
    assert_ne!(mixed.data, walk_img.data);
    assert!(pose_layers(&m, &[("nope".into(), 0.0)], 60).is_err());
}

/// Draw-order keys under layers (rive-export.md §11.6 with §11.5's "a later layer overrides"):
/// a clip that plays only as a body-part layer and has no keys of its own writes none — it
/// leaves the order to the layers under it, as render-ref, `$.mesh.load` and the PixiJS player
/// draw it (the last layer whose clip has keys) — while a clip of the blend without keys still
/// sets every rule to "no target" (a machine leaving a keyed clip must not keep its order).
#[test]
fn a_keyless_layer_clip_leaves_the_draw_order_to_the_layers_under_it() {
    let mut j = model_json(two_layers());
    let part = j["parts"][0].clone();
    let mut parts = Vec::new();
    for (k, n) in ["p", "q", "r"].iter().enumerate() {
        let mut p = part.clone();
        p["name"] = json!(n);
        p["depth"] = json!(k as f64 / 2.0);
        parts.push(p);
    }
    j["parts"] = json!(parts);
    j["clips"]["walk"]["draw_order"] = json!([[0.0, ["r", "q", "p"]], [0.5, ["p", "q", "r"]]]);
    let mut none = |id: &str, _: &Json| -> Result<(String, Vec<u8>), RivError> {
        Err(RivError::new(Code::Texture, format!("texture {id}")))
    };
    let m = Model::from_json(&j, &mut none, &Limits::DEFAULT).unwrap();
    let plan = re2d_riv::draworder::Plan::new(&m)
        .unwrap()
        .expect("the walk's keys need rules");
    let keys = |n: &str| &plan.keys[m.clips.iter().position(|c| c.name == n).unwrap()];
    assert!(keys("wave").is_empty(), "{:?}", keys("wave"));
    assert!(keys("swing").is_empty(), "{:?}", keys("swing"));
    // control: the blend's keyless idle resets every rule at its first frame
    assert_eq!(keys("idle").len(), 1);
    assert!(keys("idle")[0].1.iter().all(Option::is_none));
    assert_eq!(keys("walk").len(), 2);
    // the file is still whole
    let e = export(&m, &Options::default()).unwrap();
    let rep = check_bytes(&e.bytes, &Limits::DEFAULT);
    assert!(rep.ok(), "{:?}", rep.problems);
}
