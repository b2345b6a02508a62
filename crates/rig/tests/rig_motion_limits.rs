// re2d rig motion key bound: a cycle needing more keys than `bvh-max-frames` is refused before the keys are allocated (spec: rig.md §6; issue 19 limits). Alone in its binary: it changes the process-wide limits.

use re2d::limits::Limits;
use re2d_rig::motion::bvh;
use re2d_rig::motion::{Bend, MotionBone, MotionOptions, retarget};

#[test]
fn keys_are_bounded_by_the_limits_table() {
    let mut text = String::from(
        "HIERARCHY\nROOT Hips\n{\nOFFSET 0 0 0\nCHANNELS 3 Xposition Yposition Zposition\nEnd Site\n{\nOFFSET 0 1 0\n}\n}\nMOTION\nFrames: 200\nFrame Time: 0.01\n",
    );
    for f in 0..200 {
        text.push_str(&format!("0 10 {f}\n"));
    }
    let b = bvh::parse(text.as_bytes(), &Limits::DEFAULT).unwrap();
    let bones = vec![MotionBone {
        name: "root".into(),
        parent: None,
        start: [0.0, 0.0],
        end: [0.0, -10.0],
        joint: Some("Hips".into()),
        bend: Bend::Normal,
    }];
    let o = MotionOptions {
        cycle: Some((0.0, 100.0)),
        fps: 100.0,
        ..MotionOptions::default()
    };
    // 1 s at 100 fps: 101 keys
    let ok = retarget(&b, &bones, &o).unwrap();
    assert_eq!(ok.times.len(), 101);
    Limits::set_current(Limits {
        bvh_max_frames: 100,
        ..Limits::DEFAULT
    });
    let e = retarget(&b, &bones, &o);
    Limits::set_current(Limits {
        bvh_max_frames: 101,
        ..Limits::DEFAULT
    });
    let at_limit = retarget(&b, &bones, &o);
    Limits::set_current(Limits::DEFAULT);
    let e = e.unwrap_err();
    assert_eq!(e.code, "E_BVH_LIMIT", "{e}");
    assert!(
        e.message.contains("101 keys") && e.message.contains("bvh-max-frames"),
        "{e}"
    );
    assert!(at_limit.is_ok());
}

/// Issue 29 row 5: frames × joints is bounded at the `Frames:` line, even
/// when the frames carry no channel (and so no bytes).
#[test]
fn bvh_work_is_bounded_before_the_frames() {
    let mut text = String::from("HIERARCHY\n");
    for i in 0..10 {
        text += &format!(
            "{} j{i}\n{{\nOFFSET 0 1 0\n",
            if i == 0 { "ROOT" } else { "JOINT" }
        );
    }
    text += "End Site\n{\nOFFSET 0 1 0\n}\n";
    text += &"}\n".repeat(10);
    text += "MOTION\nFrames: 1000\nFrame Time: 0.01\n";
    let l = Limits {
        bvh_max_work: 10 * 1000 - 1,
        ..Limits::DEFAULT
    };
    let e = bvh::parse(text.as_bytes(), &l).unwrap_err();
    assert_eq!(e.code, "E_BVH_LIMIT");
    assert!(e.message.contains("bvh-max-work"), "{e}");
    let l = Limits {
        bvh_max_work: 10 * 1000,
        ..Limits::DEFAULT
    };
    bvh::parse(text.as_bytes(), &l).expect("at the limit");
}

/// Issue 45 class 1: a capture read for a clip is charged its keys ×
/// tracks at the `Frame Time:` line, before the motion section is read (so
/// the lines after it may be anything), against what is left of
/// `rig-max-keys`, and the `model.json` those keys imply against
/// `json-max-bytes` and `json-max-values`.
#[test]
fn clip_keys_are_charged_at_the_frame_time_line() {
    // two frames 16 666 s apart (1 M keys at 60 fps), then no valid motion line
    let text = "HIERARCHY\nROOT Hips\n{\nOFFSET 0 0 0\nCHANNELS 3 Xposition Yposition Zposition\nEnd Site\n{\nOFFSET 0 1 0\n}\n}\nMOTION\nFrames: 2\nFrame Time: 16666\nnot numbers\n";
    let budget = |left: u64, seconds: Option<f64>| bvh::ClipBudget {
        fps: 60.0,
        tracks: 10,
        seconds,
        left,
    };
    let e = bvh::parse_for_clip(
        text.as_bytes(),
        &Limits::DEFAULT,
        Some(&budget(1 << 20, None)),
    )
    .unwrap_err();
    assert_eq!(e.code, "E_BVH_LIMIT", "{e}");
    assert!(
        e.message.contains("line 13")
            && e.message.contains("999961 keys")
            && e.message.contains("rig-max-keys"),
        "{e}"
    );
    // without a budget (or with room for it) the parser goes on to the motion lines
    let e = bvh::parse(text.as_bytes(), &Limits::DEFAULT).unwrap_err();
    assert_eq!(e.code, "E_BVH_SYNTAX", "{e}");
    let e = bvh::parse_for_clip(
        text.as_bytes(),
        &Limits::DEFAULT,
        Some(&budget(10_000_000, Some(60.0))),
    )
    .unwrap_err();
    assert_eq!(e.code, "E_BVH_SYNTAX", "{e}");
    // a --range (or the longest cycle) bounds the keys charged: 2 s is 121 keys
    let e = bvh::parse_for_clip(
        text.as_bytes(),
        &Limits::DEFAULT,
        Some(&budget(1210, Some(2.0))),
    )
    .unwrap_err();
    assert_eq!(e.code, "E_BVH_SYNTAX", "1210 key values fit: {e}");
    let e = bvh::parse_for_clip(
        text.as_bytes(),
        &Limits::DEFAULT,
        Some(&budget(1209, Some(2.0))),
    )
    .unwrap_err();
    assert!(
        e.message.contains("rig-max-keys") && e.message.contains("121 keys"),
        "{e}"
    );
    // the model.json the keys imply: over json-max-bytes, then json-max-values
    let small_json = Limits {
        json_max_bytes: 1000 * re2d::limits::RIG_KEY_JSON_BYTES - 1,
        ..Limits::DEFAULT
    };
    let hundred = |l: &Limits| {
        bvh::parse_for_clip(
            text.as_bytes(),
            l,
            Some(&budget(u64::MAX, Some(99.0 / 60.0))),
        )
        .unwrap_err()
    };
    let e = hundred(&small_json);
    assert!(e.message.contains("json-max-bytes"), "{e}");
    let few_values = Limits {
        json_max_values: 1000 * re2d::limits::RIG_KEY_JSON_VALUES - 1,
        ..Limits::DEFAULT
    };
    let e = hundred(&few_values);
    assert!(e.message.contains("json-max-values"), "{e}");
    assert_eq!(hundred(&Limits::DEFAULT).code, "E_BVH_SYNTAX");
}
