// re2d rig motion: retargeting a captured walk onto a drawn skeleton — hand-computed answers on a synthetic capture, the real CMU walk (cycle, closure, knee flexion, alternating feet, root bob) and the negative controls (unequal cut, wrong facing, one leg for both) (spec: rig.md §6; issue 19).

use std::f64::consts::PI;

use re2d::limits::Limits;
use re2d_rig::motion::bvh::{self, Bvh};
use re2d_rig::motion::mapping::{End, segment};
use re2d_rig::motion::{
    Bend, MotionBone, MotionOptions, Retargeted, retarget, retarget_with_report,
};

fn bone(name: &str, parent: Option<usize>, s: [f64; 2], e: [f64; 2]) -> MotionBone {
    MotionBone {
        name: name.into(),
        parent,
        start: s,
        end: e,
        joint: None,
        bend: Bend::Normal,
    }
}

fn deg(x: f64) -> f64 {
    x.to_radians()
}

/// A synthetic walker: period `T` = 120 frames at 120 fps, walking along
/// +Z at 0.15 units per frame, root height 17 + 0.4·cos(4πf/T), left thigh
/// Xrotation φ(f) = −25·sin(2πf/T) (negative swings the leg forward), left
/// knee Xrotation ψ(f) = 60·max(0, sin(2πf/T))² (flexion), the right leg
/// half a period later. Written with 4 decimals, like the CMU file.
const T: f64 = 120.0;

fn phi(f: f64) -> f64 {
    -25.0 * (2.0 * PI * f / T).sin()
}

fn psi(f: f64) -> f64 {
    60.0 * (2.0 * PI * f / T).sin().max(0.0).powi(2)
}

fn r4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

fn synthetic(frames: usize) -> String {
    let leg = |side: &str, x: f64| {
        format!(
            "  JOINT {side}Hip\n  {{\n    OFFSET {x} -1 0\n    CHANNELS 3 Zrotation Yrotation Xrotation\n    JOINT {side}Knee\n    {{\n      OFFSET 0 -8 0\n      CHANNELS 3 Zrotation Yrotation Xrotation\n      JOINT {side}Ankle\n      {{\n        OFFSET 0 -8 0\n        CHANNELS 3 Zrotation Yrotation Xrotation\n        End Site\n        {{\n          OFFSET 0 0 3\n        }}\n      }}\n    }}\n  }}\n"
        )
    };
    let mut s = String::from(
        "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n",
    );
    s.push_str(&leg("Left", 1.0));
    s.push_str(&leg("Right", -1.0));
    s.push_str("  JOINT lowerback\n  {\n    OFFSET 0 0 0\n    CHANNELS 3 Zrotation Yrotation Xrotation\n    JOINT Chest\n    {\n      OFFSET 0 4 0\n      CHANNELS 3 Zrotation Yrotation Xrotation\n      End Site\n      {\n        OFFSET 0 4 0\n      }\n    }\n  }\n}\n");
    s.push_str(&format!(
        "MOTION\nFrames: {frames}\nFrame Time: 0.0083333333\n"
    ));
    for f in 0..frames {
        let f = f as f64;
        let g = f + T / 2.0;
        let y = 17.0 + 0.4 * (4.0 * PI * f / T).cos();
        let vals = [
            0.0,
            r4(y),
            r4(0.15 * f),
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            r4(phi(f)),
            0.0,
            0.0,
            r4(psi(f)),
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            r4(phi(g)),
            0.0,
            0.0,
            r4(psi(g)),
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
        ];
        let line: Vec<String> = vals.iter().map(|v| format!("{v}")).collect();
        s.push_str(&line.join(" "));
        s.push('\n');
    }
    s
}

fn synth_bvh() -> Bvh {
    bvh::parse(synthetic(300).as_bytes(), &Limits::DEFAULT).unwrap()
}

/// A side view facing right: thighs and shins drawn straight down (100 px
/// each), feet pointing forward (+x), torso up, a tail (no joint).
fn side_view() -> Vec<MotionBone> {
    vec![
        bone("pelvis", None, [0.0, 0.0], [0.0, -20.0]),
        bone("thigh_near", Some(0), [0.0, 0.0], [0.0, 100.0]),
        bone("shin_near", Some(1), [0.0, 100.0], [0.0, 200.0]),
        bone("foot_near", Some(2), [0.0, 200.0], [40.0, 200.0]),
        bone("thigh_far", Some(0), [0.0, 0.0], [0.0, 100.0]),
        bone("shin_far", Some(4), [0.0, 100.0], [0.0, 200.0]),
        bone("torso", Some(0), [0.0, 0.0], [0.0, -120.0]),
        bone("tail", Some(0), [0.0, 0.0], [-80.0, 10.0]),
    ]
}

/// Every answer of the synthetic capture, worked out by hand (see
/// `synthetic`): thigh delta = φ, shin delta = ψ, foot delta = 0, torso 0,
/// root bob −0.4·cos(4πf/T) × 200/16 px.
#[test]
fn synthetic_walk_by_hand() {
    let b = synth_bvh();
    let bones = side_view();
    let opts = MotionOptions {
        fps: 30.0,
        cycle: Some((0.0, 120.0)),
        ..MotionOptions::default()
    };
    let r = retarget_with_report(&b, &bones, &opts).unwrap();
    let w = &r.walk;
    assert_eq!(w.duration, 1.0);
    assert_eq!(w.times.len(), 31);
    assert_eq!(r.report.keys, 31);
    assert!(
        (r.report.scale - 200.0 / 16.0).abs() < 1e-9,
        "{}",
        r.report.scale
    );
    let close = |a: f64, b: f64, tol: f64| (a - b).abs() <= tol;
    for k in 0..=30 {
        let f = 4.0 * k as f64;
        assert_eq!(w.times[k], k as f64 / 30.0);
        let (th, sh, ft) = (w.angles[1][k], w.angles[2][k], w.angles[3][k]);
        assert!(
            close(th, deg(r4(phi(f))), 1e-5),
            "key {k}: thigh {} vs φ {}",
            th.to_degrees(),
            phi(f)
        );
        assert!(
            close(sh, deg(r4(psi(f))), 1e-5),
            "key {k}: shin {} vs ψ {}",
            sh.to_degrees(),
            psi(f)
        );
        // the foot is an end segment: the drawn pose plus the capture's change
        // from its stance reference; the capture's foot is rigid on its shin, so
        // its delta from the shin is one constant, the stance tilt, under 10°
        assert!(
            close(ft, w.angles[3][0], 1e-9) && ft.abs() < deg(10.0),
            "key {k}: foot {}",
            ft.to_degrees()
        );
        // the far leg half a cycle later
        assert!(
            close(w.angles[4][k], deg(r4(phi(f + 60.0))), 1e-5),
            "key {k}: far thigh"
        );
        assert!(
            close(w.angles[5][k], deg(r4(psi(f + 60.0))), 1e-5),
            "key {k}: far shin"
        );
        assert!(w.angles[6][k].abs() < 1e-9, "torso is upright");
        assert_eq!(w.angles[0][k], 0.0, "the root keeps its drawn angle");
        assert_eq!(w.angles[7][k], 0.0, "the tail keeps its drawn pose");
        let bob = -0.4 * (4.0 * PI * f / T).cos() * 12.5;
        assert!(
            close(w.root_dy[k], bob, 2e-3),
            "key {k}: root {} vs {bob}",
            w.root_dy[k]
        );
    }
    assert!(
        r.report.closure.iter().all(|c| c.abs() < 1e-5),
        "{:?}",
        r.report.closure
    );
    assert_eq!(r.report.forward, [0.0, 0.0, 1.0]);
    assert_eq!(
        r.report.joints,
        vec![
            None,
            Some("LeftHip".into()),
            Some("LeftKnee".into()),
            Some("LeftAnkle".into()),
            Some("RightHip".into()),
            Some("RightKnee".into()),
            Some("lowerback".into()),
            None
        ]
    );
    assert!(
        w.warnings.iter().any(|m| m.contains("'tail'")),
        "{:?}",
        w.warnings
    );
    // no head and neck in this capture: the torso follows its own joint
    assert!(
        w.warnings.iter().any(|m| m.contains("'torso'")),
        "{:?}",
        w.warnings
    );
    assert_eq!(w.warnings.len(), 2, "{:?}", w.warnings);
}

/// The detected cut: toe-off of the near (left) knee, where ψ rises
/// through 30° (frame 15 of each period), one period long.
#[test]
fn synthetic_cycle_is_detected() {
    let b = synth_bvh();
    let r = retarget_with_report(&b, &side_view(), &MotionOptions::default()).unwrap();
    let rep = &r.report;
    assert_eq!(rep.window, (0, 300), "a constant walk is steady everywhere");
    assert!((rep.end - rep.start - 120.0).abs() < 0.05, "{rep:?}");
    assert!(((rep.start - 15.0) % 120.0).abs() < 0.05, "{rep:?}");
    assert!(rep.event.contains("LeftKnee"), "{}", rep.event);
    assert_eq!(r.walk.times.len(), 61);
    // closed exactly
    for a in &r.walk.angles {
        assert_eq!(a[0].to_bits(), a[60].to_bits());
    }
    assert_eq!(r.walk.root_dy[0].to_bits(), r.walk.root_dy[60].to_bits());
}

/// `"bend": "reversed"` (a quadruped's hock): the bone's angle relative to
/// its parent is the capture's negated. On the synthetic walker the near
/// shin's delta becomes −ψ instead of ψ; the bones outside its chain are
/// bit for bit those of the normal run; the fit is measured against the
/// mirrored target. A parent without a capture joint is mirrored about as
/// drawn; on an end segment or a root the bend has no effect and says so.
#[test]
fn a_reversed_bend_mirrors_the_bone_about_its_parent() {
    let b = synth_bvh();
    let opts = MotionOptions {
        fps: 30.0,
        cycle: Some((0.0, 120.0)),
        ..MotionOptions::default()
    };
    let normal = retarget_with_report(&b, &side_view(), &opts).unwrap();
    let mut bones = side_view();
    bones[2].bend = Bend::Reversed;
    let r = retarget_with_report(&b, &bones, &opts).unwrap();
    let reversed: Vec<usize> = (0..bones.len()).filter(|&i| r.report.reversed[i]).collect();
    assert_eq!(reversed, vec![2]);
    assert!(normal.report.reversed.iter().all(|m| !m));
    for k in 0..=30 {
        let f = 4.0 * k as f64;
        let sh = r.walk.angles[2][k];
        assert!(
            (sh + deg(r4(psi(f)))).abs() < 1e-5,
            "key {k}: reversed shin {} vs −ψ {}",
            sh.to_degrees(),
            -psi(f)
        );
        for i in [0, 1, 4, 5, 6, 7] {
            assert_eq!(
                r.walk.angles[i][k].to_bits(),
                normal.walk.angles[i][k].to_bits(),
                "key {k}: bone {} changed",
                bones[i].name
            );
        }
    }
    assert!(r.report.fit[2].rms < 1e-6, "{:?}", r.report.fit[2]);
    // the mirrored shin stays within ±90° of its drawn pose (the foot, which
    // keeps the capture's direction, may not)
    assert!(
        r.walk.warnings.iter().all(|w| !w.contains("'shin_near'")),
        "{:?}",
        r.walk.warnings
    );

    // a parent that follows no capture: mirrored about its drawn direction
    // (a stalk hanging from the pelvis, drawn straight down like its tip)
    let stalk = |bend: Bend| {
        let mut v = vec![
            bone("pelvis", None, [0.0, 0.0], [0.0, -20.0]),
            bone("stalk", Some(0), [0.0, 0.0], [0.0, 100.0]),
            bone("tip", Some(1), [0.0, 100.0], [0.0, 200.0]),
        ];
        v[2].joint = Some("LeftKnee".into());
        v[2].bend = bend;
        retarget_with_report(&b, &v, &opts).unwrap()
    };
    let (n, m) = (stalk(Bend::Normal), stalk(Bend::Reversed));
    assert_eq!(m.report.rules[1], re2d_rig::motion::Rule::Drawn);
    let swing = n.walk.angles[2]
        .iter()
        .fold(0.0f64, |a, x| a.max(x.abs()))
        .to_degrees();
    assert!(swing > 20.0, "the tip follows the shin: {swing}°");
    for k in 0..=30 {
        assert!(
            (m.walk.angles[2][k] + n.walk.angles[2][k]).abs() < 1e-9,
            "key {k}: {} vs {}",
            m.walk.angles[2][k].to_degrees(),
            n.walk.angles[2][k].to_degrees()
        );
    }

    // no effect, with a warning: an end segment (the foot), a root
    for i in [3, 0] {
        let mut v = side_view();
        v[i].bend = Bend::Reversed;
        let e = retarget_with_report(&b, &v, &opts).unwrap();
        assert_eq!(e.walk.angles, normal.walk.angles, "{}", v[i].name);
        assert!(e.report.reversed.iter().all(|m| !m));
        let said: Vec<&String> = e
            .walk
            .warnings
            .iter()
            .filter(|w| w.contains(&format!("'{}'", v[i].name)) && w.contains("no effect"))
            .collect();
        assert_eq!(said.len(), 1, "{}: {:?}", v[i].name, e.walk.warnings);
    }
}

/// Explicit joints, the zero-offset rule and its errors.
#[test]
fn explicit_joints_and_segments() {
    let text = "HIERARCHY
ROOT Hips
{
  OFFSET 0 0 0
  CHANNELS 3 Xposition Yposition Zposition
  JOINT LeftWrist
  {
    OFFSET 0 -5 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    JOINT lhand
    {
      OFFSET 0 0 0
      CHANNELS 3 Zrotation Xrotation Yrotation
      JOINT LFingers
      {
        OFFSET 0 -2 0
        CHANNELS 1 Xrotation
        End Site
        {
          OFFSET 0 -1 0
        }
      }
    }
    JOINT LThumb
    {
      OFFSET 0 0 0
      CHANNELS 0
      End Site
      {
        OFFSET 0 -1 1
      }
    }
  }
  JOINT Pad
  {
    OFFSET 0 0 0
    CHANNELS 0
    JOINT Pad2
    {
      OFFSET 0 0 0
      CHANNELS 1 Xrotation
      JOINT Tip
      {
        OFFSET 0 0 4
        CHANNELS 0
        End Site
        {
          OFFSET 0 0 0
        }
      }
    }
  }
}
MOTION
Frames: 3
Frame Time: 0.01
0 0 0 0 0 0 0 0 0 0 0
0 0 1 0 0 0 0 -90 0 0 -90
0 0 2 0 0 0 0 -90 0 0 -90
";
    let b = bvh::parse(text.as_bytes(), &Limits::DEFAULT).unwrap();
    let j = |n: &str| b.find(n).unwrap();
    assert_eq!(
        segment(&b, j("lhand")),
        Ok((End::Joint(j("LFingers")), 2.0))
    );
    assert_eq!(
        segment(&b, j("LFingers")),
        Ok((End::Site(j("LFingers"), 0), 1.0))
    );
    // Pad → Pad2 (offset 0) → Tip: followed until the segment has length
    assert_eq!(segment(&b, j("Pad")), Ok((End::Joint(j("Tip")), 4.0)));
    // two children at offset 0: the one on the limb's chain (lhand, whose
    // fingers continue the forearm straight down; the thumb points aside),
    // followed to where the segment has length — not an error
    assert_eq!(
        segment(&b, j("LeftWrist")),
        Ok((End::Joint(j("LFingers")), 2.0))
    );
    assert!(segment(&b, j("Tip")).unwrap_err().contains("offset 0"));
    // retargeting with explicit joints: the hand bone follows lhand → LFingers
    // (pointing down, then turned 90° about X towards +Z = forward), the
    // "pad" bone follows Pad → Tip (forward, then turned −90° about X: up)
    let mut bones = vec![
        bone("root", None, [0.0, 0.0], [10.0, 0.0]),
        bone("anything", Some(0), [0.0, 0.0], [0.0, 10.0]),
        bone("pad", Some(0), [0.0, 0.0], [10.0, 0.0]),
    ];
    bones[1].joint = Some("lhand".into());
    bones[2].joint = Some("Pad".into());
    let opts = MotionOptions {
        cycle: Some((0.0, 2.0)),
        fps: 100.0,
        ..MotionOptions::default()
    };
    let r = retarget_with_report(&b, &bones, &opts).unwrap();
    assert_eq!(r.walk.times.len(), 3);
    // two keys: no room for a seam blend, so key 1 is frame 1 exactly and
    // key 2 = key 0. The hand (lhand is a hand joint) is an end segment: the
    // drawn pose plus its change from the mean over the cycle. Its capture
    // angle is 90° (down) at frame 0 and 0° (forward) at frame 1, mean 45°:
    // world 90 + 90 − 45 = 135° → delta +45°, then 90 + 0 − 45 = 45° → −45°.
    let w = &r.walk.angles;
    assert!(
        (w[1][0] - deg(45.0)).abs() < 1e-9,
        "{}",
        w[1][0].to_degrees()
    );
    assert!(
        (w[1][1] - deg(-45.0)).abs() < 1e-9,
        "{}",
        w[1][1].to_degrees()
    );
    assert_eq!(w[1][2], w[1][0]);
    // the pad is a long limb: its projected direction, forward then up
    assert!(w[2][0].abs() < 1e-9 && (w[2][1] - deg(-90.0)).abs() < 1e-9);
    for b in [1, 2] {
        assert!(
            (r.report.closure[b] - deg(-90.0)).abs() < 1e-6,
            "{:?}",
            r.report.closure
        );
    }
    // errors name the bone and the joint
    bones[1].joint = Some("Tip".into());
    let e = retarget(&b, &bones, &opts).unwrap_err();
    assert_eq!(e.code, "E_BVH_JOINT");
    assert!(
        e.message.contains("bone 'anything'") && e.message.contains("offset 0"),
        "{e}"
    );
    bones[1].joint = Some("RightWrist".into());
    let e = retarget(&b, &bones, &opts).unwrap_err();
    assert_eq!(
        (e.code, e.message.as_str()),
        (
            "E_BVH_JOINT",
            "bone 'anything': the capture has no joint 'RightWrist' (joints that could fit: LeftWrist, lhand)"
        )
    );
}

#[test]
fn bad_options_and_captures() {
    let b = synth_bvh();
    let bones = side_view();
    for (what, o, code) in [
        (
            "fps 0",
            MotionOptions {
                fps: 0.0,
                ..Default::default()
            },
            "E_RIG_MOTION",
        ),
        (
            "fps NaN",
            MotionOptions {
                fps: f64::NAN,
                ..Default::default()
            },
            "E_RIG_MOTION",
        ),
        (
            "window past the end",
            MotionOptions {
                window: Some((10, 301)),
                ..Default::default()
            },
            "E_RIG_MOTION",
        ),
        (
            "reversed cycle",
            MotionOptions {
                cycle: Some((50.0, 10.0)),
                ..Default::default()
            },
            "E_RIG_MOTION",
        ),
        (
            "a one-key cycle",
            MotionOptions {
                cycle: Some((0.0, 1.0)),
                ..Default::default()
            },
            "E_RIG_MOTION",
        ),
        (
            "max angle 0",
            MotionOptions {
                max_angle: 0.0,
                ..Default::default()
            },
            "E_RIG_MOTION",
        ),
        (
            "a window too short for a cycle",
            MotionOptions {
                window: Some((0, 100)),
                ..Default::default()
            },
            "E_BVH_GAIT",
        ),
    ] {
        let e = retarget(&b, &bones, &o).unwrap_err();
        assert_eq!(e.code, code, "{what}: {e}");
    }
    // a capture without legs has no gait events; with an explicit cycle it works
    let one = bvh::parse(b"HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\nCHANNELS 1 Xrotation\nEnd Site\n{\nOFFSET 0 1 0\n}\n}\nMOTION\nFrames: 3\nFrame Time: 0.5\n0\n10\n20\n", &Limits::DEFAULT).unwrap();
    let e = retarget(&one, &bones, &MotionOptions::default()).unwrap_err();
    assert_eq!(e.code, "E_BVH_GAIT", "{e}");
}

// ---- the real capture ---------------------------------------------------

fn cmu() -> Bvh {
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("assets/mocap/cmu-131-01-walk.bvh");
    bvh::read(&path, &Limits::DEFAULT).unwrap()
}

/// A side view of a biped facing right, in the proportions of a drawing.
fn biped() -> Vec<MotionBone> {
    vec![
        bone("pelvis", None, [400.0, 600.0], [400.0, 560.0]),
        bone("torso", Some(0), [400.0, 600.0], [405.0, 400.0]),
        bone("neck", Some(1), [405.0, 400.0], [408.0, 370.0]),
        bone("head", Some(2), [408.0, 370.0], [410.0, 300.0]),
        bone("thigh_near", Some(0), [400.0, 600.0], [420.0, 750.0]),
        bone("shin_near", Some(4), [420.0, 750.0], [410.0, 900.0]),
        bone("foot_near", Some(5), [410.0, 900.0], [460.0, 910.0]),
        bone("thigh_far", Some(0), [400.0, 600.0], [380.0, 750.0]),
        bone("shin_far", Some(7), [380.0, 750.0], [370.0, 900.0]),
        bone("foot_far", Some(8), [370.0, 900.0], [420.0, 910.0]),
        bone("upper_arm_near", Some(1), [400.0, 420.0], [410.0, 540.0]),
        bone("forearm_near", Some(10), [410.0, 540.0], [440.0, 640.0]),
        bone("hand_near", Some(11), [440.0, 640.0], [450.0, 680.0]),
    ]
}

fn cmu_walk(o: &MotionOptions) -> Retargeted {
    retarget_with_report(&cmu(), &biped(), o).unwrap()
}

fn corr(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    sab / (saa * sbb).sqrt()
}

/// The cycle: in the steady part, 125–133 capture frames at 120 fps, closed
/// exactly, at the clip's fps.
#[test]
fn cmu_cycle() {
    let r = cmu_walk(&MotionOptions::default());
    let (rep, w) = (&r.report, &r.walk);
    eprintln!(
        "window {:?}, cut {:.3}..{:.3} = {:.3} frames at {:.3} fps, {}, {} keys, {:.4} s",
        rep.window,
        rep.start,
        rep.end,
        rep.end - rep.start,
        rep.capture_fps,
        rep.event,
        rep.keys,
        w.duration
    );
    // the README's straight walk is lines 81-245
    assert!(
        (75..=90).contains(&rep.window.0) && (240..=250).contains(&rep.window.1),
        "{:?}",
        rep.window
    );
    assert!(rep.start >= rep.window.0 as f64 && rep.end <= rep.window.1 as f64);
    let frames = rep.end - rep.start;
    // one gait cycle (knee-flexion peaks come 125-133 frames apart), its ends
    // moved by at most 8 % of it to where the capture matches itself
    assert!((115.0..=143.0).contains(&frames), "{frames}");
    // as documented in gait.rs: frames 82-245 (1-based), the far foot's
    // toe-offs at 103.64 and 236.57
    assert_eq!(rep.window, (81, 245));
    assert!(rep.event.contains("RightKnee"), "{}", rep.event);
    assert!(
        (rep.start - 102.64).abs() <= 11.0 && (rep.end - 235.57).abs() <= 11.0,
        "{rep:?}"
    );
    // the chosen cut matches itself better than the raw toe-off pair
    let raw = cmu_walk(&MotionOptions {
        cycle: Some((102.64, 235.57)),
        ..Default::default()
    });
    eprintln!(
        "pose mismatch at the cut: RMS {:.2}° max {:.2}° (toe-offs themselves: RMS {:.2}° max {:.2}°)",
        rep.mismatch.0, rep.mismatch.1, raw.report.mismatch.0, raw.report.mismatch.1
    );
    assert!(rep.mismatch.0 < raw.report.mismatch.0, "{:?}", rep.mismatch);
    assert!((rep.capture_fps - 120.0).abs() < 0.01);
    // keys at 60 fps, a whole number of frames
    let kk = w.times.len() - 1;
    assert_eq!(kk as f64, (frames / 120.0 * 60.0).round());
    assert_eq!(w.duration, kk as f64 / 60.0);
    assert_eq!(w.times[0], 0.0);
    assert_eq!(w.times[kk], w.duration);
    assert!(w.times.windows(2).all(|t| t[1] > t[0]));
    // closed exactly: the last key is the first, bit for bit
    for a in &w.angles {
        assert_eq!(a.len(), kk + 1);
        assert_eq!(a[0].to_bits(), a[kk].to_bits());
    }
    assert_eq!(w.root_dy[0].to_bits(), w.root_dy[kk].to_bits());
    // the walk moves: the near thigh swings through more than 40°
    let th = &w.angles[4];
    let swing =
        th.iter().cloned().fold(f64::MIN, f64::max) - th.iter().cloned().fold(f64::MAX, f64::min);
    assert!(swing > deg(40.0), "{}", swing.to_degrees());
}

/// Equal gait events close the loop with a small raw mismatch; a cut at
/// unequal events (half a cycle: the other foot's toe-off) does not.
#[test]
fn cmu_closure_and_unequal_cut() {
    let good = cmu_walk(&MotionOptions::default());
    let legs = [4usize, 5, 7, 8];
    let worst = |r: &Retargeted| {
        legs.iter()
            .map(|&b| r.report.closure[b].abs())
            .fold(0.0, f64::max)
            .to_degrees()
    };
    let (s, e) = (good.report.start, good.report.end);
    let half = cmu_walk(&MotionOptions {
        cycle: Some((s, s + (e - s) / 2.0)),
        ..Default::default()
    });
    let (g, h) = (worst(&good), worst(&half));
    eprintln!("largest raw leg closure mismatch: equal events {g:.2}°, half a cycle {h:.2}°");
    for (b, c) in biped().iter().zip(&good.report.closure) {
        eprintln!("  {:16} {:7.2}°", b.name, c.to_degrees());
    }
    assert!(g < 20.0, "{g}");
    assert!(h > 40.0, "{h}");
    eprintln!("root closure {:.3} px", good.report.root_closure);
}

/// The near knee flexes (a positive delta: the shin turns back, clockwise
/// on screen facing right) by more than 40°, and hardly hyperextends.
#[test]
fn cmu_near_knee_flexes() {
    let r = cmu_walk(&MotionOptions::default());
    let sh = &r.walk.angles[5];
    let (mn, mx) = (
        sh.iter().cloned().fold(f64::MAX, f64::min).to_degrees(),
        sh.iter().cloned().fold(f64::MIN, f64::max).to_degrees(),
    );
    eprintln!("near knee delta {mn:.1}°..{mx:.1}°");
    assert!(mx > 40.0 && mn > -10.0, "{mn}..{mx}");
}

/// The feet alternate: the near and far thighs swing in opposition. Control:
/// both thighs mapped to the same capture leg swing together.
#[test]
fn cmu_feet_alternate() {
    let r = cmu_walk(&MotionOptions::default());
    let c = corr(&r.walk.angles[4], &r.walk.angles[7]);
    let mut same = biped();
    same[7].joint = Some("LeftHip".into());
    let r2 = retarget_with_report(&cmu(), &same, &MotionOptions::default()).unwrap();
    let c2 = corr(&r2.walk.angles[4], &r2.walk.angles[7]);
    eprintln!("thigh correlation near/far {c:.3}; one leg for both {c2:.3}");
    assert!(c < -0.5, "{c}");
    assert!(c2 > 0.9, "control {c2}");
}

/// Drawing-space tip of bone `b` at key `k` (2-D forward kinematics of the
/// drawing with the walk's deltas; relative to the root's start).
fn tip(bones: &[MotionBone], w: &re2d_rig::motion::Walk, b: usize, k: usize) -> [f64; 2] {
    let drawn =
        |i: usize| (bones[i].end[1] - bones[i].start[1]).atan2(bones[i].end[0] - bones[i].start[0]);
    let len =
        |i: usize| (bones[i].end[0] - bones[i].start[0]).hypot(bones[i].end[1] - bones[i].start[1]);
    let mut chain = vec![b];
    while let Some(p) = bones[*chain.last().unwrap()].parent {
        chain.push(p);
    }
    chain.reverse();
    // world angle = drawn + sum of deltas up the chain; a child starts at its
    // drawn offset from its parent's start, rotated with the parent
    let mut pos = [0.0, 0.0];
    let mut world_delta = 0.0;
    for (n, &i) in chain.iter().enumerate() {
        world_delta += w.angles[i][k];
        if n + 1 < chain.len() {
            let next = chain[n + 1];
            let off = [
                bones[next].start[0] - bones[i].start[0],
                bones[next].start[1] - bones[i].start[1],
            ];
            let (s, c) = world_delta.sin_cos();
            pos = [
                pos[0] + c * off[0] - s * off[1],
                pos[1] + s * off[0] + c * off[1],
            ];
        } else {
            let a = drawn(i) + world_delta;
            pos = [pos[0] + len(i) * a.cos(), pos[1] + len(i) * a.sin()];
        }
    }
    pos
}

/// The near foot moves forward (+x facing right) exactly when the ankle of
/// the capture leg driving it moves forward of the hip. Control: the same
/// drawing retargeted with the wrong facing mirrors the swing.
#[test]
fn cmu_facing_and_its_mirror() {
    let b = cmu();
    let bones = biped();
    let follow = |facing_right: bool| {
        let r = retarget_with_report(
            &b,
            &bones,
            &MotionOptions {
                facing_right,
                ..Default::default()
            },
        )
        .unwrap();
        let (s, e) = (r.report.start, r.report.end);
        let kk = r.walk.times.len() - 1;
        // the capture leg that drives the near thigh and shin
        let hip = b.find(r.report.joints[4].as_deref().unwrap()).unwrap();
        let knee = b.find(r.report.joints[5].as_deref().unwrap()).unwrap();
        let ankle = b.joints[knee].children[0];
        let mut cap = Vec::new();
        let mut drawn = Vec::new();
        for k in 0..kk {
            let f = (s + (e - s) * k as f64 / kk as f64).round() as usize;
            let p = b.positions(f);
            let fw = r.report.forward;
            cap.push((p[ankle][0] - p[hip][0]) * fw[0] + (p[ankle][2] - p[hip][2]) * fw[2]);
            drawn.push(tip(&bones, &r.walk, 5, k)[0]);
        }
        corr(&cap, &drawn)
    };
    let (right, wrong) = (follow(true), follow(false));
    eprintln!(
        "near foot x vs capture ankle forward: facing right {right:.3}, wrong facing {wrong:.3}"
    );
    assert!(right > 0.9, "{right}");
    assert!(wrong < -0.5, "control {wrong}");
}

/// Near is the capture's Left when facing right and its Right when facing
/// left; the bob follows the capture root (up is −y) scaled by leg lengths.
#[test]
fn cmu_mapping_and_bob() {
    let b = cmu();
    let bones = biped();
    let r = retarget_with_report(&b, &bones, &MotionOptions::default()).unwrap();
    assert_eq!(r.report.joints[4].as_deref(), Some("LeftHip"));
    assert_eq!(r.report.joints[8].as_deref(), Some("RightKnee"));
    assert_eq!(r.report.joints[12].as_deref(), Some("lhand"));
    // the trunk follows the chain from the root to the neck's base
    assert_eq!(r.report.joints[1].as_deref(), Some("Hips→lowerneck"));
    let l = retarget_with_report(
        &b,
        &bones,
        &MotionOptions {
            facing_right: false,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(l.report.joints[4].as_deref(), Some("RightHip"));
    // scale: drawn near thigh + shin over the capture's hip→knee→ankle
    let len = |o: [f64; 3]| (o[0] * o[0] + o[1] * o[1] + o[2] * o[2]).sqrt();
    let cap = len(b.joints[b.find("LeftKnee").unwrap()].offset)
        + len(b.joints[b.find("LeftAnkle").unwrap()].offset);
    let drawn = 20f64.hypot(150.0) + 10f64.hypot(150.0);
    assert!(
        (r.report.scale - drawn / cap).abs() < 1e-6,
        "{} vs {}",
        r.report.scale,
        drawn / cap
    );
    // the bob is the capture root's height, inverted (y down): strongly anti-correlated
    let (s, e) = (r.report.start, r.report.end);
    let kk = r.walk.times.len() - 1;
    let heights: Vec<f64> = (0..kk)
        .map(|k| b.positions((s + (e - s) * k as f64 / kk as f64).round() as usize)[0][1])
        .collect();
    let c = corr(&heights, &r.walk.root_dy[..kk]);
    let range = r.walk.root_dy.iter().cloned().fold(f64::MIN, f64::max)
        - r.walk.root_dy.iter().cloned().fold(f64::MAX, f64::min);
    eprintln!("bob {range:.2} px peak to peak, correlation with the capture height {c:.3}");
    assert!(c < -0.95, "{c}");
    assert!(range > 10.0, "{range}");
    // without the bob
    let flat = retarget(
        &b,
        &bones,
        &MotionOptions {
            root_bob: false,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(flat.root_dy.iter().all(|&d| d == 0.0));
    // clamps are reported
    assert!(
        r.walk.warnings.iter().any(|m| m.contains("clamped")),
        "{:?}",
        r.walk.warnings
    );
    for a in &r.walk.angles {
        assert!(a.iter().all(|x| x.abs() <= deg(90.0) + 1e-12));
    }
}

/// Issue 47: a bone whose name has no role word of the documented table and
/// that the declaration maps to no joint keeps its drawn pose relative to
/// its parent — a belly hanging from the torso stays still and takes no
/// share of the trunk chain (it followed the trunk before: `belly`,
/// `abdomen` and `waist` were trunk words the docs never listed).
#[test]
fn a_belly_keeps_its_drawn_pose() {
    let plain = cmu_walk(&MotionOptions::default());
    for name in ["belly", "abdomen", "waist"] {
        let mut bones = biped();
        bones.push(bone(name, Some(1), [402.0, 500.0], [440.0, 520.0]));
        let r = retarget_with_report(&cmu(), &bones, &MotionOptions::default()).unwrap();
        let k = bones.len() - 1;
        assert!(
            r.walk.angles[k].iter().all(|&a| a == 0.0),
            "{name} moved relative to its parent"
        );
        assert_eq!(r.report.joints[k], None, "{name} has a joint");
        // the torso's share of the trunk chain is unchanged
        assert_eq!(
            r.walk.angles[1], plain.walk.angles[1],
            "{name} changed the torso"
        );
    }
}
