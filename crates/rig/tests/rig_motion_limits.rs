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
