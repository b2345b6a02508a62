//! Tests of the rig stages on the generated drawings (`drawings/`): the truth labels and
//! the drawings come from the painter, never from the code under test.

use std::sync::OnceLock;

use super::drawings::{self, CharacterSpec, Drawing};
use super::silhouette::{Silhouette, silhouette};
use super::skeleton::Skeleton;
use super::slice::{Slicing, slice};
use crate::limits::Limits;
use crate::png_io::RgbaImage;

/// The gates run on the seed's canvas (4.3 Mpx), too slow for a debug build: those tests
/// run in release (`make test-rig`) and are ignored in debug builds.
fn sized(spec: CharacterSpec) -> CharacterSpec {
    spec
}

pub(crate) struct Case {
    pub d: Drawing,
    pub sk: Skeleton,
    pub sil: Silhouette,
    pub sl: Slicing,
}

fn case(spec: CharacterSpec) -> Case {
    let d = drawings::generate(&sized(spec)).expect("paints");
    let sk = Skeleton::parse(d.skeleton_json.as_bytes(), &Limits::DEFAULT).expect("parses");
    sk.check_image(d.width, d.height, &Limits::DEFAULT)
        .expect("fits");
    let img = RgbaImage {
        data: d.rgba.clone(),
        width: d.width,
        height: d.height,
    };
    let sil = silhouette(&img, sk.background).expect("keys");
    let sl = slice(&sk, &sil).expect("slices");
    Case { d, sk, sil, sl }
}

pub(crate) fn biped() -> &'static Case {
    static S: OnceLock<Case> = OnceLock::new();
    S.get_or_init(|| case(drawings::biped()))
}

pub(crate) fn quadruped() -> &'static Case {
    static S: OnceLock<Case> = OnceLock::new();
    S.get_or_init(|| case(drawings::quadruped()))
}

/// Per part: IoU of the ownership map against the truth, visible pixels only.
fn part_iou(c: &Case) -> Vec<(String, f64)> {
    let labels = c.sl.labels(&c.sil);
    let n = c.sk.bones.len();
    let (mut inter, mut uni) = (vec![0u64; n + 1], vec![0u64; n + 1]);
    for (&l, &t) in labels.iter().zip(&c.d.labels) {
        if l == t {
            inter[l as usize] += 1;
            uni[l as usize] += 1;
        } else {
            uni[l as usize] += 1;
            uni[t as usize] += 1;
        }
    }
    (0..n)
        .map(|k| {
            (
                c.sk.bones[k].name.clone(),
                inter[k + 1] as f64 / uni[k + 1].max(1) as f64,
            )
        })
        .collect()
}

fn slicing_gate(c: &Case, what: &str) {
    let ious = part_iou(c);
    eprintln!(
        "{what} ({}x{}): part | IoU vs truth | hidden %",
        c.d.width, c.d.height
    );
    for ((name, iou), p) in ious.iter().zip(&c.sl.parts) {
        eprintln!("  {name:16} {iou:.4} {:6.2}", p.hidden_fraction() * 100.0);
    }
    eprintln!("  total hidden {:.2} %", c.sl.hidden_total() * 100.0);
    let bad: Vec<String> = ious
        .iter()
        .filter(|(_, v)| *v < 0.95)
        .map(|(n, v)| format!("{n} {v:.4}"))
        .collect();
    assert!(bad.is_empty(), "{what}: parts below IoU 0.95: {bad:?}");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "4.3 Mpx: run in release by `make test-rig`"
)]
fn slicing_matches_the_truth_biped() {
    slicing_gate(biped(), "biped");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "4.3 Mpx: run in release by `make test-rig`"
)]
fn slicing_matches_the_truth_quadruped() {
    slicing_gate(quadruped(), "quadruped");
}

fn verification(c: &Case, what: &str) -> super::verify::Verification {
    let tree = super::tree::build(&c.sk);
    let map = super::verify::PivotMap::new(&c.sk, &tree, &c.sl);
    let v = super::verify::verify(&c.sk, &c.sil, &c.sl, &map);
    eprintln!(
        "{what}: reassembly IoU {:.4} colour {:.4} ({} connectors)",
        v.iou,
        v.colour,
        tree.connectors()
    );
    for k in &v.controls {
        eprintln!(
            "  {:10} whole IoU {:.4} colour {:.4} | window IoU {:.4} colour {:.4} vs correct {:.4} {:.4} | fails {} | {}",
            k.name,
            k.iou,
            k.colour,
            k.window_iou,
            k.window_colour,
            k.correct_iou,
            k.correct_colour,
            k.fails,
            k.detail
        );
    }
    v
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "4.3 Mpx: run in release by `make test-rig`"
)]
fn reassembly_passes_and_its_controls_fail() {
    for (c, what) in [(biped(), "biped"), (quadruped(), "quadruped")] {
        let v = verification(c, what);
        assert!(
            v.iou >= super::verify::T_IOU && v.colour >= super::verify::T_COLOUR,
            "{what}"
        );
        assert_eq!(v.controls.len(), 3, "{what}");
        for k in &v.controls {
            assert!(k.fails, "{what}: control {} does not fail: {k:?}", k.name);
        }
        assert!(v.pass, "{what}");
    }
}

fn tables(
    c: &Case,
    what: &str,
) -> (
    super::weights::SchemeTable,
    Vec<super::mesh::StepRow>,
    Option<usize>,
) {
    use super::weights::{Scheme, bend_maps, table, weights};
    let meshes: Vec<_> =
        c.sl.parts
            .iter()
            .map(|p| super::mesh::grid(p, 8).expect("mesh"))
            .collect();
    let t = table(&c.sk, &c.sl, &meshes);
    eprintln!("{what}: scheme | distal px (sum) | proximal px (max) | largest volume loss %");
    for r in &t.rows {
        eprintln!(
            "  {:12} {:8} {:6} {:7.2}",
            r.scheme.name(),
            r.distal.iter().sum::<u64>(),
            r.proximal.iter().max().copied().unwrap_or(0),
            r.max_loss() * 100.0
        );
    }
    eprintln!("  chosen {:?}", t.chosen.map(Scheme::name));
    let scheme = t.chosen.unwrap_or(Scheme::SmoothZone);
    let wf = |k: usize, p: [f64; 2]| weights(scheme, &c.sk, k, p);
    let sk = &c.sk;
    let bends = |k: usize| {
        if sk.bones[k].parent.is_some() {
            vec![
                bend_maps(sk, k, 30f64.to_radians()),
                bend_maps(sk, k, -30f64.to_radians()),
            ]
        } else {
            Vec::new()
        }
    };
    let (rows, step) = super::mesh::step_table(&c.sl.parts, &wf, &bends);
    eprintln!("{what}: step | max deviation px | vertices");
    for r in &rows {
        eprintln!(
            "  {:3} {:8.4} {:7} {}",
            r.step,
            r.deviation,
            r.vertices,
            if r.too_many { "too many" } else { "" }
        );
    }
    eprintln!("  chosen step {step:?}");
    (t, rows, step)
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "4.3 Mpx: run in release by `make test-rig`"
)]
fn weights_are_local_and_the_ramp_is_not() {
    for (c, what) in [(biped(), "biped"), (quadruped(), "quadruped")] {
        let (t, _, step) = tables(c, what);
        let ramp = t
            .rows
            .iter()
            .find(|r| r.scheme == super::weights::Scheme::Ramp)
            .expect("ramp");
        assert!(
            !ramp.local(),
            "{what}: the ramp control must change proximal pixels"
        );
        let chosen = t.chosen.expect("a local scheme");
        let row = t.rows.iter().find(|r| r.scheme == chosen).expect("row");
        assert!(row.local(), "{what}");
        assert!(step.is_some(), "{what}: no grid step satisfies the rule");
    }
}

// ---- fast tests (debug too) ----

fn parse(text: &str) -> Result<Skeleton, super::RigError> {
    Skeleton::parse(text.as_bytes(), &Limits::DEFAULT)
}

fn with_bones(bones: &str) -> String {
    format!("{{\"version\": 1, \"image\": \"a.png\", \"bones\": [{bones}]}}")
}

#[test]
fn declaration_rules_and_codes() {
    let ok = with_bones(
        r#"{"name": "a", "points": [[10, 10], [10, 50]], "radius": [5, 4], "depth": 2},
           {"name": "b", "parent": "a", "points": [[10, 50], [30, 50], [40, 60]], "radius": 3}"#,
    );
    let sk = parse(&ok).expect("valid");
    assert_eq!(sk.bones[1].parent, Some(0));
    assert_eq!(sk.bones[1].radii, vec![3.0; 3]);
    assert_eq!(sk.background, super::skeleton::Background::Auto);
    assert!(sk.facing_right);
    let cases = [
        (
            r#"{"name": "a", "parent": "b", "points": [[1,1],[2,2]], "radius": 1},
            {"name": "b", "parent": "a", "points": [[1,1],[2,2]], "radius": 1}"#,
            "E_RIG_CYCLE",
        ),
        (
            r#"{"name": "a", "parent": "a", "points": [[1,1],[2,2]], "radius": 1}"#,
            "E_RIG_CYCLE",
        ),
        (
            r#"{"name": "a", "parent": "zz", "points": [[1,1],[2,2]], "radius": 1}"#,
            "E_RIG_PARENT",
        ),
        (
            r#"{"name": "a", "points": [[1,1],[2,2]], "radius": 1},
            {"name": "a", "points": [[1,1],[2,2]], "radius": 1}"#,
            "E_RIG_DUPLICATE",
        ),
        // issue 29: part file names that would collide, overlong names, control characters
        (
            r#"{"name": "x.y", "points": [[1,1],[2,2]], "radius": 1},
            {"name": "x_y", "points": [[1,1],[2,2]], "radius": 1}"#,
            "E_RIG_DUPLICATE",
        ),
        (
            r#"{"name": "Arm", "points": [[1,1],[2,2]], "radius": 1},
            {"name": "arm", "points": [[1,1],[2,2]], "radius": 1}"#,
            "E_RIG_DUPLICATE",
        ),
        (
            r#"{"name": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "points": [[1,1],[2,2]], "radius": 1}"#,
            "E_RIG_NAME",
        ),
        (
            r#"{"name": "a\nb", "points": [[1,1],[2,2]], "radius": 1}"#,
            "E_RIG_NAME",
        ),
        (
            r#"{"name": "a", "points": [[1,1]], "radius": 1}"#,
            "E_RIG_POINTS",
        ),
        (
            r#"{"name": "a", "points": [[1,1],[1,1]], "radius": 1}"#,
            "E_RIG_POINTS",
        ),
        (
            r#"{"name": "a", "points": [[1,1],[2,2]], "radius": 0}"#,
            "E_RIG_RADIUS",
        ),
        (
            r#"{"name": "a", "points": [[1,1],[2,2]], "radius": [1, -1]}"#,
            "E_RIG_RADIUS",
        ),
        (
            r#"{"name": "a", "points": [[1,1],[2,2]], "radius": [1, 2, 3]}"#,
            "E_RIG_RADIUS",
        ),
        (
            r#"{"name": "a", "points": [[1,null],[2,2]], "radius": 1}"#,
            "E_RIG_NAN",
        ),
    ];
    for (bones, code) in cases {
        let e = parse(&with_bones(bones)).expect_err(code);
        assert_eq!(e.code, code, "{bones}: {e}");
        assert!(!e.to_string().contains('\n'));
    }
    assert_eq!(parse("{\"version\": 2}").unwrap_err().code, "E_RIG_VERSION");
    assert_eq!(parse("[1e999]").unwrap_err().code, "E_RIG_JSON");
    let out = sk.check_image(20, 40, &Limits::DEFAULT).unwrap_err();
    assert_eq!(out.code, "E_RIG_OUTSIDE");
    assert!(
        out.message.contains("'a'") || out.message.contains("'b'"),
        "{out}"
    );
    sk.check_image(64, 64, &Limits::DEFAULT).expect("inside");
    // bone count limit, checked before any bone is read
    let mut l = Limits::DEFAULT;
    l.rig_max_bones = 1;
    let e = Skeleton::parse(ok.as_bytes(), &l).unwrap_err();
    assert_eq!(e.code, "E_RIG_LIMIT");
    // issue 29: the drawing's pixels and the tube work, before any pixel
    let mut l = Limits::DEFAULT;
    l.rig_max_pixels = 64 * 64 - 1;
    let e = sk.check_image(64, 64, &l).unwrap_err();
    assert!(e.message.contains("rig-max-pixels"), "{e}");
    let mut l = Limits::DEFAULT;
    l.rig_max_tube_work = 10;
    let e = sk.check_image(64, 64, &l).unwrap_err();
    assert!(e.message.contains("rig-max-tube-work"), "{e}");
    // distinct names in any script keep distinct part files
    let u = parse(&with_bones(
        r#"{"name": "рука", "points": [[1,1],[2,2]], "radius": 1},
           {"name": "нога", "points": [[1,1],[2,2]], "radius": 1}"#,
    ))
    .expect("two Cyrillic names");
    assert_eq!(super::verify::png_name(&u.bones[0].name), "part_рука.png");
}

#[test]
fn connectors_join_children_that_do_not_start_at_the_tip() {
    let sk = parse(&with_bones(
        r#"{"name": "torso", "points": [[50, 100], [50, 20]], "radius": 10},
           {"name": "head", "parent": "torso", "points": [[50, 20], [50, 5]], "radius": 8},
           {"name": "arm", "parent": "torso", "points": [[55, 40], [80, 60]], "radius": 4}"#,
    ))
    .unwrap();
    let t = super::tree::build(&sk);
    assert_eq!(t.connectors(), 1);
    let names: Vec<&str> = t.bones.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["torso", "head", "arm.connector", "arm"]);
    // the connector runs from the torso's tip (50, 20) to the arm's first point (55, 40)
    let c = &t.bones[2];
    assert!((c.length - (25f64 + 400.0).sqrt()).abs() < 1e-9);
    // walking the tree reaches the arm's first point exactly where it was drawn
    let mut start = vec![[0.0; 2]; t.bones.len()];
    let mut ang = vec![0.0; t.bones.len()];
    for (i, b) in t.bones.iter().enumerate() {
        match b.parent {
            None => {
                start[i] = b.start;
                ang[i] = b.angle;
            }
            Some(p) => {
                let l = t.bones[p].length;
                start[i] = [
                    start[p][0] + l * ang[p].cos(),
                    start[p][1] + l * ang[p].sin(),
                ];
                ang[i] = ang[p] + b.angle;
            }
        }
    }
    assert!((start[3][0] - 55.0).abs() < 1e-9 && (start[3][1] - 40.0).abs() < 1e-9);
    assert!((ang[3] - (20f64).atan2(25.0)).abs() < 1e-12);
}

#[test]
fn nearest_feature_is_the_exact_euclidean_nearest() {
    // brute force on a pseudo-random sparse grid (not a blur: every pixel's source is a feature
    // at the smallest distance)
    let (w, h) = (37, 23);
    let mut seed = 12345u64;
    let feature: Vec<bool> = (0..w * h)
        .map(|_| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33).is_multiple_of(17)
        })
        .collect();
    let near = super::slice::nearest_feature(&feature, w, h);
    for i in 0..w * h {
        let (x, y) = ((i % w) as i64, (i / w) as i64);
        let best = (0..w * h)
            .filter(|&j| feature[j])
            .map(|j| ((j % w) as i64 - x).pow(2) + ((j / w) as i64 - y).pow(2))
            .min()
            .unwrap();
        let j = near[i];
        let got = ((j % w) as i64 - x).pow(2) + ((j / w) as i64 - y).pow(2);
        assert!(feature[j] && got == best, "pixel {i}: {got} vs {best}");
    }
    assert!(
        super::slice::nearest_feature(&[false; 12], 4, 3)
            .iter()
            .all(|&j| j == usize::MAX)
    );
}

#[test]
fn keying_gives_fractional_edges_without_green_spill() {
    let d = drawings::generate(&drawings::biped().sized(424, 632)).unwrap();
    let img = RgbaImage {
        data: d.rgba.clone(),
        width: d.width,
        height: d.height,
    };
    let sil = silhouette(&img, super::skeleton::Background::Auto).unwrap();
    assert_eq!(sil.key, Some([0, 255, 0]));
    let (mut partial, mut greenish) = (0, 0);
    for p in sil.rgba.chunks(4) {
        if p[3] > 0 && p[3] < 255 {
            partial += 1;
            // over a dark background a fringe pixel must not read as green
            let (r, g, b) = (p[0] as i32, p[1] as i32, p[2] as i32);
            if g > r.max(b) + 40 {
                greenish += 1;
            }
        }
    }
    assert!(partial > 500, "{partial} fractional edge pixels");
    assert!(
        greenish * 100 < partial,
        "{greenish} green of {partial} edge pixels"
    );
    // the mask agrees with the painter's coverage >= 0.5 on >= 98 % of the figure (edges are
    // a large share of this small drawing)
    let (mut same, mut fig) = (0u64, 0u64);
    for (i, &t) in d.labels.iter().enumerate() {
        let m = sil.alpha(i) >= 128;
        if m || t != 0 {
            fig += 1;
            same += u64::from(m == (t != 0));
        }
    }
    assert!(same as f64 / fig as f64 > 0.98, "{same}/{fig}");
}

#[test]
fn a_mocap_map_leaves_the_other_bones_in_their_drawn_pose() {
    let bones = r#"{"name": "body", "points": [[10, 10], [60, 10]], "radius": 5},
        {"name": "thigh", "parent": "body", "points": [[60, 10], [60, 40]], "radius": 4}"#;
    let with = format!(
        "{{\"version\": 1, \"image\": \"a.png\", \"bones\": [{bones}], \"mocap\": {{\"thigh\": \"LeftHip\"}}}}"
    );
    let mb = parse(&with).unwrap().motion_bones();
    // "body" would take the default table's spine joint; with a map it stays as drawn
    assert_eq!(mb[0].joint.as_deref(), Some(""));
    assert_eq!(mb[1].joint.as_deref(), Some("LeftHip"));
    let without = parse(&with_bones(bones)).unwrap().motion_bones();
    assert_eq!(without[0].joint, None);
    assert_eq!(without[1].joint, None);
}
