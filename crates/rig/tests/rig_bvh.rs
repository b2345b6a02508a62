// re2d rig BVH reader: any valid BVH (channel orders, subsets, End Sites, CRLF, tabs, odd numbers), forward kinematics computed by hand, every E_BVH_* error with its line, limits, and no panic on any bytes (spec: rig.md §6; issue 19).

use proptest::prelude::*;
use re2d::limits::Limits;
use re2d_rig::motion::bvh::{self, Bvh, Channel};

fn parse(s: &str) -> Result<Bvh, re2d_rig::RigError> {
    bvh::parse(s.as_bytes(), &Limits::DEFAULT)
}

fn close(a: [f64; 3], b: [f64; 3]) -> bool {
    (0..3).all(|i| (a[i] - b[i]).abs() < 1e-9)
}

/// A root with six channels (rotations Z X Y), a child with rotations
/// X Z Y, and an End Site.
const ARM: &str = "HIERARCHY
ROOT Hips
{
  OFFSET 1 2 3
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT Upper
  {
    OFFSET 0 10 0
    CHANNELS 3 Xrotation Zrotation Yrotation
    End Site
    {
      OFFSET 0 5 0
    }
  }
}
MOTION
Frames: 3
Frame Time: .0083333
0 0 0 0 0 0 0 0 0
10 20 30 90 0 0 90 0 0
0 0 0 0 0 0 90 90 0
";

#[test]
fn hierarchy_and_motion_are_read() {
    let b = parse(ARM).unwrap();
    assert_eq!(b.joints.len(), 2);
    assert_eq!(b.channels, 9);
    assert_eq!(b.frames, 3);
    assert_eq!(b.frame_time, 0.0083333);
    let h = &b.joints[0];
    assert_eq!(
        (h.name.as_str(), h.parent, h.offset, h.first_channel, h.line),
        ("Hips", None, [1.0, 2.0, 3.0], 0, 2)
    );
    assert_eq!(
        h.channels,
        [
            Channel::Position(0),
            Channel::Position(1),
            Channel::Position(2),
            Channel::Rotation(2),
            Channel::Rotation(0),
            Channel::Rotation(1)
        ]
    );
    let u = &b.joints[1];
    assert_eq!((u.parent, u.first_channel, u.line), (Some(0), 6, 6));
    assert_eq!(u.end_sites, vec![[0.0, 5.0, 0.0]]);
    assert_eq!(h.children, vec![1]);
    assert_eq!(
        b.frame(1),
        &[10.0, 20.0, 30.0, 90.0, 0.0, 0.0, 90.0, 0.0, 0.0]
    );
    assert_eq!(b.frame_lines, vec![19, 20, 21]);
    assert_eq!(b.find("Upper"), Ok(1));
    assert_eq!(b.find("Nope").unwrap_err().code, "E_BVH_JOINT");
}

/// Forward kinematics worked out by hand.
#[test]
fn forward_kinematics_by_hand() {
    let b = parse(ARM).unwrap();
    let mut w = Vec::new();
    let end = |w: &Vec<bvh::Xform>| w[1].apply([0.0, 5.0, 0.0]);
    // frame 0: offsets only
    b.world(0, &mut w);
    assert!(close(w[0].t, [1.0, 2.0, 3.0]));
    assert!(close(w[1].t, [1.0, 12.0, 3.0]));
    assert!(close(end(&w), [1.0, 17.0, 3.0]));
    // frame 1: root at (1+10, 2+20, 3+30), turned 90° about Z: (0,10,0) → (−10,0,0);
    // Upper turned 90° about X: (0,5,0) → (0,0,5), then the root's Z turn leaves it.
    b.world(1, &mut w);
    assert!(close(w[0].t, [11.0, 22.0, 33.0]));
    assert!(close(w[1].t, [1.0, 22.0, 33.0]), "{:?}", w[1].t);
    assert!(close(end(&w), [1.0, 22.0, 38.0]), "{:?}", end(&w));
    // frame 2: Upper's channels are X then Z: Rx(90)·Rz(90)·(0,5,0) = Rx(90)·(−5,0,0) = (−5,0,0)
    b.world(2, &mut w);
    assert!(close(end(&w), [1.0 - 5.0, 12.0, 3.0]), "{:?}", end(&w));
    // the same numbers with the channels written Z then X give Rz(90)·Rx(90)·(0,5,0) = (0,0,5)
    let zx = ARM.replace(
        "CHANNELS 3 Xrotation Zrotation Yrotation",
        "CHANNELS 3 Zrotation Xrotation Yrotation",
    );
    let b2 = parse(&zx).unwrap();
    b2.world(2, &mut w);
    assert!(close(w[1].apply([0.0, 5.0, 0.0]), [1.0, 12.0, 8.0]));
    assert_eq!(b.positions(1)[1], w_positions(&b, 1)[1]);
}

fn w_positions(b: &Bvh, f: usize) -> Vec<[f64; 3]> {
    let mut w = Vec::new();
    b.world(f, &mut w);
    w.iter().map(|x| x.t).collect()
}

/// Position channels add to the OFFSET in the parent's frame wherever they
/// are written; any subset of the six channels is legal, three-channel
/// roots and zero-channel joints too; several ROOTs.
#[test]
fn channel_subsets_orders_and_several_roots() {
    let text = "HIERARCHY
ROOT A
{
  OFFSET 0 0 0
  CHANNELS 4 Zrotation Yposition Xposition Yrotation
  JOINT B
  {
    OFFSET 2 0 0
    CHANNELS 0
    JOINT C
    {
      OFFSET 3 0 0
      CHANNELS 1 Yrotation
      End Site
      {
        OFFSET 1 0 0
      }
    }
  }
}
ROOT D
{
  OFFSET 5 5 5
  CHANNELS 3 Zrotation Yrotation Xrotation
  End Site
  {
    OFFSET 0 1 0
  }
}
MOTION
Frames: 1
Frame Time: 0.5
90 7 4 0 90 0 0 90
";
    let b = parse(text).unwrap();
    assert_eq!(b.channels, 8);
    assert_eq!(
        b.joints.iter().map(|j| j.first_channel).collect::<Vec<_>>(),
        vec![0, 4, 4, 5]
    );
    assert_eq!(b.joints[3].parent, None);
    let mut w = Vec::new();
    b.world(0, &mut w);
    // A at (4, 7, 0) (positions not turned by the Z rotation written before them)
    assert!(close(w[0].t, [4.0, 7.0, 0.0]));
    // B: A's Rz(90) turns (2,0,0) to (0,2,0)
    assert!(close(w[1].t, [4.0, 9.0, 0.0]));
    assert!(close(w[2].t, [4.0, 12.0, 0.0]));
    // C's Ry(90) turns (1,0,0) to (0,0,−1), then Rz(90) leaves it
    assert!(close(w[2].apply([1.0, 0.0, 0.0]), [4.0, 12.0, -1.0]));
    // D: Rz(0)·Ry(0)·Rx(90): (0,1,0) → (0,0,1)
    assert!(close(w[3].apply([0.0, 1.0, 0.0]), [5.0, 5.0, 6.0]));
}

/// CRLF, lone CR, tabs, names with spaces, braces on the name line, odd
/// number spellings and blank lines all read the same.
#[test]
fn line_ends_tabs_and_number_spellings() {
    let base = parse(ARM).unwrap();
    for (what, text) in [
        ("crlf", ARM.replace('\n', "\r\n")),
        ("cr", ARM.replace('\n', "\r")),
        ("tabs", ARM.replace("  ", "\t").replace(' ', "\t \t")),
        (
            "blank lines",
            ARM.replace("0 0 0 0 0 0 90 90 0\n", "0 0 0 0 0 0 90 90 0\n\n\n"),
        ),
        (
            "brace on name line",
            ARM.replace("ROOT Hips\n{", "ROOT Hips {"),
        ),
        (
            "numbers",
            ARM.replace("10 20 30 90", "1e1 +20 30.0 9E1")
                .replace("OFFSET 1 2 3", "OFFSET 1. .2e1 +3"),
        ),
    ] {
        let b = parse(&text).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(b.joints.len(), base.joints.len(), "{what}");
        for f in 0..3 {
            assert_eq!(b.frame(f), base.frame(f), "{what} frame {f}");
        }
        assert_eq!(b.joints[0].offset, base.joints[0].offset, "{what}");
        assert_eq!(b.joints[1].end_sites, base.joints[1].end_sites, "{what}");
    }
    // a name with spaces
    let b = parse(&ARM.replace("JOINT Upper", "JOINT Upper Arm")).unwrap();
    assert_eq!(b.joints[1].name, "Upper Arm");
    // -1e-3 and .0083333
    let b = parse(&ARM.replace("0 0 0 0 0 0 0 0 0", "-1e-3 0 0 0 0 0 0 0 .0083333")).unwrap();
    assert_eq!(b.frame(0)[0], -1e-3f32);
    assert_eq!(b.frame(0)[8], 0.0083333f32);
}

/// Every error: its code and the line it names.
#[test]
fn errors_name_their_line() {
    let cases: Vec<(&str, String, &str, &str)> = vec![
        (
            "too few values",
            ARM.replace("10 20 30 90 0 0 90 0 0", "10 20 30 90 0 0 90 0"),
            "E_BVH_CHANNELS",
            "line 20: frame 2 has 8 values",
        ),
        (
            "too many values",
            ARM.replace("10 20 30 90 0 0 90 0 0", "10 20 30 90 0 0 90 0 0 1"),
            "E_BVH_CHANNELS",
            "line 20: frame 2 has more than 9 values",
        ),
        (
            "CHANNELS lists too few names",
            ARM.replace(
                "CHANNELS 3 Xrotation Zrotation Yrotation",
                "CHANNELS 3 Xrotation Zrotation",
            ),
            "E_BVH_CHANNELS",
            "line 9: joint 'Upper': CHANNELS 3 lists 2 channel names",
        ),
        (
            "CHANNELS lists too many names",
            ARM.replace(
                "CHANNELS 3 Xrotation Zrotation Yrotation",
                "CHANNELS 2 Xrotation Zrotation Yrotation",
            ),
            "E_BVH_CHANNELS",
            "line 9: joint 'Upper': CHANNELS 2 is followed by more channel names",
        ),
        (
            "seven channels",
            ARM.replace("CHANNELS 3 Xrotation", "CHANNELS 7 Xrotation"),
            "E_BVH_CHANNELS",
            "line 9: joint 'Upper': CHANNELS count '7' is not 0..6",
        ),
        (
            "a channel twice",
            ARM.replace(
                "CHANNELS 3 Xrotation Zrotation Yrotation",
                "CHANNELS 3 Xrotation Zrotation Xrotation",
            ),
            "E_BVH_CHANNELS",
            "channel Xrotation is listed twice",
        ),
        (
            "NaN",
            ARM.replace("10 20 30 90", "10 nan 30 90"),
            "E_BVH_NAN",
            "line 20: value 'nan' is not a finite number",
        ),
        (
            "infinity",
            ARM.replace("10 20 30 90", "10 -inf 30 90"),
            "E_BVH_NAN",
            "line 20:",
        ),
        (
            "overflow",
            ARM.replace("10 20 30 90", "10 1e999 30 90"),
            "E_BVH_NAN",
            "line 20:",
        ),
        (
            "beyond f32",
            ARM.replace("10 20 30 90", "10 1e300 30 90"),
            "E_BVH_NAN",
            "line 20: value '1e300' is out of range",
        ),
        (
            "NaN offset",
            ARM.replace("OFFSET 0 10 0", "OFFSET 0 NaN 0"),
            "E_BVH_NAN",
            "line 8:",
        ),
        (
            "10^9 frames",
            ARM.replace("Frames: 3", "Frames: 1000000000"),
            "E_BVH_LIMIT",
            "line 17: Frames: 1000000000 is more than 1000000 frames (limit bvh-max-frames",
        ),
        (
            "a count with 30 digits",
            ARM.replace("Frames: 3", "Frames: 123456789012345678901234567890"),
            "E_BVH_LIMIT",
            "bvh-max-frames",
        ),
        (
            "truncated motion",
            ARM.replace("0 0 0 0 0 0 90 90 0\n", ""),
            "E_BVH_TRUNCATED",
            "line 17: Frames: 3 of 9 values need at least 54 bytes, the motion section has 42",
        ),
        (
            "truncated motion, long numbers",
            ARM.replace("0 0 0 0 0 0 90 90 0\n", "")
                .replace("0 0 0 0 0 0 0 0 0", &["0.000"; 9].join(" ")),
            "E_BVH_TRUNCATED",
            "line 21: the motion section ends after 2 of 3 frames",
        ),
        (
            "frames the bytes cannot hold",
            ARM.replace("Frames: 3", "Frames: 900000"),
            "E_BVH_TRUNCATED",
            "line 17: Frames: 900000 of 9 values need at least 16200000 bytes",
        ),
        (
            "more lines than frames",
            ARM.replace("Frames: 3", "Frames: 2"),
            "E_BVH_FRAMES",
            "line 21: more motion lines than 'Frames: 2'",
        ),
        (
            "zero frame time",
            ARM.replace("Frame Time: .0083333", "Frame Time: 0"),
            "E_BVH_FRAME_TIME",
            "line 18: Frame Time 0 is not positive",
        ),
        (
            "negative frame time",
            ARM.replace("Frame Time: .0083333", "Frame Time: -0.01"),
            "E_BVH_FRAME_TIME",
            "line 18:",
        ),
        (
            "OFFSET with two numbers",
            ARM.replace("OFFSET 0 10 0", "OFFSET 0 10"),
            "E_BVH_SYNTAX",
            "line 9: OFFSET value 'CHANNELS' is not a number",
        ),
        (
            "ends in the hierarchy",
            ARM[..ARM.find("    End Site").unwrap()].to_string(),
            "E_BVH_SYNTAX",
            "the file ends inside the hierarchy",
        ),
        (
            "no HIERARCHY",
            ARM.replace("HIERARCHY", "HIERARCHIE"),
            "E_BVH_SYNTAX",
            "line 1: expected HIERARCHY",
        ),
        (
            "a joint without OFFSET",
            ARM.replace("    OFFSET 0 10 0\n", ""),
            "E_BVH_SYNTAX",
            "joint 'Upper' has no OFFSET",
        ),
        (
            "garbage in a joint",
            ARM.replace("JOINT Upper", "JIONT Upper"),
            "E_BVH_SYNTAX",
            "line 6: unexpected 'JIONT'",
        ),
        (
            "a fractional frame count",
            ARM.replace("Frames: 3", "Frames: 3.5"),
            "E_BVH_SYNTAX",
            "line 17: frame count '3.5' is not a whole number",
        ),
        (
            "two CHANNELS lines",
            ARM.replace(
                "    CHANNELS 3 Xrotation Zrotation Yrotation\n",
                "    CHANNELS 3 Xrotation Zrotation Yrotation\n    CHANNELS 0\n",
            ),
            "E_BVH_SYNTAX",
            "line 10: joint 'Upper' has a second CHANNELS line",
        ),
        ("empty", String::new(), "E_BVH_SYNTAX", "empty file"),
    ];
    for (what, text, code, msg) in cases {
        match parse(&text) {
            Ok(_) => panic!("{what}: accepted"),
            Err(e) => {
                assert_eq!(e.code, code, "{what}: {e}");
                assert!(e.message.contains(msg), "{what}: {e} (want '{msg}')");
                assert!(!e.message.contains('\n'), "{what}: one line");
            }
        }
    }
}

#[test]
fn limits_of_the_table() {
    let small = Limits {
        bvh_max_joints: 1,
        ..Limits::DEFAULT
    };
    let e = bvh::parse(ARM.as_bytes(), &small).unwrap_err();
    assert_eq!(e.code, "E_BVH_LIMIT");
    assert!(e.message.contains("bvh-max-joints"), "{e}");
    let small = Limits {
        bvh_max_channels: 8,
        ..Limits::DEFAULT
    };
    let e = bvh::parse(ARM.as_bytes(), &small).unwrap_err();
    assert!(
        e.message.contains("line 9") && e.message.contains("bvh-max-channels"),
        "{e}"
    );
    let small = Limits {
        bvh_max_bytes: 100,
        ..Limits::DEFAULT
    };
    assert!(
        bvh::parse(ARM.as_bytes(), &small)
            .unwrap_err()
            .message
            .contains("bvh-max-bytes")
    );
    let small = Limits {
        bvh_max_frames: 2,
        ..Limits::DEFAULT
    };
    assert!(
        bvh::parse(ARM.as_bytes(), &small)
            .unwrap_err()
            .message
            .contains("Frames: 3 is more than 2")
    );
    // each is exactly at the limit: accepted
    let exact = Limits {
        bvh_max_joints: 2,
        bvh_max_channels: 9,
        bvh_max_frames: 3,
        bvh_max_bytes: ARM.len() as u64,
        ..Limits::DEFAULT
    };
    assert!(bvh::parse(ARM.as_bytes(), &exact).is_ok());
    // limits by name on the command line
    let mut l = Limits::DEFAULT;
    l.set_pair("bvh-max-frames=16M").unwrap();
    assert!(l.set_pair("bvh-max-frames=16777217").is_err());
    assert!(l.set_pair("bvh-max-joints=65537").is_err());
    assert!(l.set_pair("bvh-max-channels=393217").is_err());
}

#[test]
fn read_file_errors() {
    let dir = std::env::temp_dir().join(format!("re2d-rig-bvh-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let e = bvh::read(&dir.join("missing.bvh"), &Limits::DEFAULT).unwrap_err();
    assert_eq!((e.code, e.exit_code()), ("E_IO", 3));
    let p = dir.join("big.bvh");
    std::fs::write(&p, ARM).unwrap();
    let small = Limits {
        bvh_max_bytes: 10,
        ..Limits::DEFAULT
    };
    let e = bvh::read(&p, &small).unwrap_err();
    assert_eq!((e.code, e.exit_code()), ("E_BVH_LIMIT", 1));
    std::fs::write(&p, ARM.replace("Frame Time: .0083333", "Frame Time: 0")).unwrap();
    let e = bvh::read(&p, &Limits::DEFAULT).unwrap_err();
    assert!(
        e.message.starts_with(&format!("{}: line 18", p.display())),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The repository's capture: 31 joints, 96 channels, 300 frames at 120 fps,
/// and the README's column table.
#[test]
fn the_cmu_capture_reads() {
    let b = cmu();
    assert_eq!((b.joints.len(), b.channels, b.frames), (31, 96, 300));
    assert_eq!(b.frame_time, 0.0083333);
    let sites: usize = b.joints.iter().map(|j| j.end_sites.len()).sum();
    assert_eq!(sites, 7);
    for (name, col) in [
        ("Hips", 0),
        ("LeftShoulder", 57),
        ("lhand", 66),
        ("RThumb", 93),
    ] {
        assert_eq!(b.joints[b.find(name).unwrap()].first_channel, col, "{name}");
    }
    let ls = &b.joints[b.find("LeftShoulder").unwrap()];
    assert_eq!(
        ls.channels,
        [
            Channel::Rotation(2),
            Channel::Rotation(0),
            Channel::Rotation(1)
        ]
    );
    // the root's Zposition goes from -28.9125 to 11.7599
    assert_eq!(b.frame(0)[2], -28.9125f32);
    assert_eq!(b.frame(299)[2], 11.7599f32);
    // hip height stays between 15.5 and 17.1 units
    for f in 0..b.frames {
        let y = b.positions(f)[0][1];
        assert!((15.5..=17.1).contains(&y), "frame {f}: {y}");
    }
    // bones are rigid: the left shin keeps its rest length on every frame
    let (k, a) = (b.find("LeftKnee").unwrap(), b.find("LeftAnkle").unwrap());
    let rest = b.joints[a].offset.iter().map(|v| v * v).sum::<f64>().sqrt();
    for f in (0..b.frames).step_by(7) {
        let p = b.positions(f);
        let d = (0..3)
            .map(|i| (p[a][i] - p[k][i]).powi(2))
            .sum::<f64>()
            .sqrt();
        assert!((d - rest).abs() < 1e-4, "frame {f}: {d} vs {rest}");
    }
}

/// Writes `b` back as BVH text; `reverse` reverses each joint's rotation
/// channels (labels and columns together), so the same angles compose in
/// the opposite order.
fn write_bvh(b: &Bvh, reverse: bool) -> String {
    let order = |j: &bvh::Joint| -> Vec<usize> {
        let mut idx: Vec<usize> = (0..j.channels.len()).collect();
        if reverse {
            let rot: Vec<usize> = idx
                .iter()
                .copied()
                .filter(|&i| matches!(j.channels[i], Channel::Rotation(_)))
                .collect();
            let mut rev = rot.clone();
            rev.reverse();
            for (slot, src) in rot.iter().zip(rev) {
                idx[*slot] = src;
            }
        }
        idx
    };
    let mut out = String::from("HIERARCHY\n");
    fn body(
        b: &Bvh,
        j: usize,
        depth: usize,
        out: &mut String,
        order: &dyn Fn(&bvh::Joint) -> Vec<usize>,
    ) {
        let jt = &b.joints[j];
        let pad = "  ".repeat(depth);
        let kw = if jt.parent.is_none() { "ROOT" } else { "JOINT" };
        out.push_str(&format!("{pad}{kw} {}\n{pad}{{\n", jt.name));
        out.push_str(&format!(
            "{pad}  OFFSET {} {} {}\n",
            jt.offset[0], jt.offset[1], jt.offset[2]
        ));
        let names: Vec<&str> = order(jt).iter().map(|&i| jt.channels[i].name()).collect();
        out.push_str(&format!(
            "{pad}  CHANNELS {} {}\n",
            names.len(),
            names.join(" ")
        ));
        for &c in &jt.children {
            body(b, c, depth + 1, out, order);
        }
        for s in &jt.end_sites {
            out.push_str(&format!(
                "{pad}  End Site\n{pad}  {{\n{pad}    OFFSET {} {} {}\n{pad}  }}\n",
                s[0], s[1], s[2]
            ));
        }
        out.push_str(&format!("{pad}}}\n"));
    }
    for (j, jt) in b.joints.iter().enumerate() {
        if jt.parent.is_none() {
            body(b, j, 0, &mut out, &order);
        }
    }
    out.push_str(&format!(
        "MOTION\nFrames: {}\nFrame Time: {}\n",
        b.frames, b.frame_time
    ));
    for f in 0..b.frames {
        let v = b.frame(f);
        let mut line = Vec::new();
        for jt in &b.joints {
            for i in order(jt) {
                line.push(v[jt.first_channel + i].to_string());
            }
        }
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    out
}

fn cmu() -> Bvh {
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("assets/mocap/cmu-131-01-walk.bvh");
    bvh::read(&path, &Limits::DEFAULT).unwrap()
}

/// Writing a parsed file back and reading it again gives the same capture.
#[test]
fn written_back_reads_the_same() {
    let b = cmu();
    let again = parse(&write_bvh(&b, false)).unwrap();
    assert_eq!(again.joints.len(), b.joints.len());
    for (x, y) in again.joints.iter().zip(&b.joints) {
        assert_eq!(
            (&x.name, x.parent, x.offset, &x.channels, &x.end_sites),
            (&y.name, y.parent, y.offset, &y.channels, &y.end_sites)
        );
    }
    for f in 0..b.frames {
        assert_eq!(again.frame(f), b.frame(f));
    }
}

/// A planted foot stays put in the world while the root walks on: the
/// rotations compose in the order written (Z·Y·X here). Composing the same
/// angles in the opposite order makes the foot slide.
#[test]
fn stance_foot_is_planted() {
    let slide = |b: &Bvh| {
        // the left foot is on the ground from about frame 100 to 150
        // (1-based), the right one from about 180 to 225
        let mut total = 0.0;
        for (joint, f0, f1) in [("LeftAnkle", 100, 150), ("RightAnkle", 180, 225)] {
            let j = b.find(joint).unwrap();
            let p0 = b.positions(f0)[j];
            let p1 = b.positions(f1)[j];
            let d = ((p1[0] - p0[0]).powi(2) + (p1[2] - p0[2]).powi(2)).sqrt();
            eprintln!("{joint} {f0}-{f1}: {d:.3}");
            total += d;
        }
        total
    };
    let b = cmu();
    let good = slide(&b);
    let bad = slide(&parse(&write_bvh(&b, true)).unwrap());
    eprintln!("planted foot slides {good:.3} units; with the order reversed {bad:.3}");
    assert!(good < 1.0, "planted feet slide {good} units");
    assert!(
        bad > 3.0 * good,
        "reversed order slides only {bad} (good {good})"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

    /// Arbitrary bytes never panic.
    #[test]
    fn parse_never_panics_on_bytes(data in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = bvh::parse(&data, &Limits::FUZZ);
    }

    /// Mutations of a valid file (bytes replaced, cut, duplicated) never
    /// panic, and whatever parses has consistent sizes.
    #[test]
    fn parse_never_panics_on_mutations(
        edits in proptest::collection::vec((0usize..400, any::<u8>()), 0..8),
        cut in 0usize..420,
        tokens in proptest::collection::vec(0usize..12, 0..4),
    ) {
        let words = ["{", "}", "JOINT", "End", "Site", "OFFSET", "CHANNELS", "6", "MOTION", "Frames:", "nan", "-"];
        let mut b = ARM.as_bytes().to_vec();
        for (at, v) in edits {
            let at = at % b.len();
            b[at] = v;
        }
        for t in tokens {
            let at = (t * 37) % b.len();
            let mut w = b" ".to_vec();
            w.extend_from_slice(words[t].as_bytes());
            w.push(b' ');
            b.splice(at..at, w);
        }
        b.truncate(cut.min(b.len()));
        if let Ok(x) = bvh::parse(&b, &Limits::FUZZ) {
            prop_assert_eq!(x.frame_lines.len(), x.frames);
            let mut w = Vec::new();
            for f in 0..x.frames {
                prop_assert_eq!(x.frame(f).len(), x.channels);
                x.world(f, &mut w);
            }
        }
    }
}
