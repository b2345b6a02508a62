//! Tests of the rig stages on the generated drawings (`re2d_testkit::drawings`): the truth labels and
//! the drawings come from the painter, never from the code under test.
// Index loops over pixel grids, as in the core (whose lib allows this lint crate-wide).
#![allow(clippy::needless_range_loop)]

use std::sync::OnceLock;

use re2d::limits::Limits;
use re2d::png_io::RgbaImage;
use re2d_rig::cut::slice::{Slicing, slice};
use re2d_rig::declare::silhouette::{Silhouette, silhouette};
use re2d_rig::declare::skeleton::Skeleton;
use re2d_testkit::drawings::{self, CharacterSpec, Drawing};

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

fn verification(c: &Case, what: &str) -> re2d_rig::cut::verify::Verification {
    let tree = re2d_rig::declare::tree::build(&c.sk);
    let map = re2d_rig::cut::verify::PivotMap::new(&c.sk, &tree, &c.sl);
    let v = re2d_rig::cut::verify::verify(&c.sk, &c.sil, &c.sl, &map);
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
            v.iou >= re2d_rig::cut::verify::T_IOU && v.colour >= re2d_rig::cut::verify::T_COLOUR,
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
    re2d_rig::skin::weights::SchemeTable,
    Vec<re2d_rig::skin::mesh::StepRow>,
    Option<usize>,
) {
    use re2d_rig::skin::weights::{Scheme, bend_maps, table, weights};
    let meshes: Vec<_> =
        c.sl.parts
            .iter()
            .map(|p| re2d_rig::skin::mesh::grid(p, 8).expect("mesh"))
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
    let (rows, step) = re2d_rig::skin::mesh::step_table(&c.sl.parts, &wf, &bends);
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
            .find(|r| r.scheme == re2d_rig::skin::weights::Scheme::Ramp)
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

/// The adaptive meshes (issue 26): per part the blend step follows the rule (deviation < 1 px
/// at the chosen step, >= 1 px at the next coarser one), a part with rigid weights takes the
/// coarsest cells, no mesh has a T-junction, and far fewer vertices than the uniform grid.
/// Controls: the coarsest step ignores the blend zones and deviates >= 1 px on some part (the
/// measure sees them); a hand-made T-junction is counted.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "4.3 Mpx: run in release by `make test-rig`"
)]
fn adaptive_meshes_follow_the_rule_and_the_controls_fail() {
    use re2d_rig::skin::mesh::{
        COARSE, LEVELS, PartMesh, adaptive_table, mesh_deviation, t_junctions,
    };
    use re2d_rig::skin::weights::{Scheme, bend_maps, weights};
    for (c, what) in [(biped(), "biped"), (quadruped(), "quadruped")] {
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
        let dirs = |k: usize| {
            let (s, e) = (sk.bones[k].start(), sk.bones[k].end());
            let l = (e[0] - s[0]).hypot(e[1] - s[1]);
            [(e[0] - s[0]) / l, (e[1] - s[1]) / l]
        };
        let wf = |k: usize, p: [f64; 2]| weights(Scheme::SmoothZone, sk, k, p);
        let (table, meshes) =
            adaptive_table(&c.sl.parts, &wf, &bends, &dirs, None).expect("meshes");
        // the table skips triangles its summed-area tables prove rigid: the full scan of
        // every texel (mesh_deviation) finds the same largest deviation
        for ((r, m), p) in table.iter().zip(&meshes).zip(&c.sl.parts) {
            if p.has_part() {
                let full = mesh_deviation(p, p.bone, m, &wf, &bends(p.bone));
                assert_eq!(r.deviation, full, "{what}: {}", r.name);
            }
        }
        // with an earlier table: an unchanged part keeps its row and mesh, a changed one
        // (the top half of a joint's part cleared) is measured again
        let mut changed = c.sl.parts.clone();
        let k = changed
            .iter()
            .position(|p| p.has_part() && sk.bones[p.bone].parent.is_some())
            .expect("a joint part");
        let half = changed[k].width * (changed[k].height / 2) * 4;
        changed[k].rgba[..half].fill(0);
        let earlier = re2d_rig::skin::mesh::Earlier {
            parts: &c.sl.parts,
            table: &table,
            meshes: &meshes,
        };
        let (again, again_meshes) =
            adaptive_table(&changed, &wf, &bends, &dirs, Some(&earlier)).expect("meshes");
        let (fresh, fresh_meshes) =
            adaptive_table(&changed, &wf, &bends, &dirs, None).expect("meshes");
        assert_eq!((&again, &again_meshes), (&fresh, &fresh_meshes), "{what}");
        assert_ne!(
            fresh_meshes[k], meshes[k],
            "{what}: the change changes nothing"
        );
        let mut coarse_fails = 0;
        for (r, m) in table.iter().zip(&meshes) {
            let chosen = r
                .chosen
                .unwrap_or_else(|| panic!("{what}: {}: no step", r.name));
            assert!(r.deviation < 1.0, "{what}: {}: {}", r.name, r.deviation);
            match r.coarser_deviation {
                Some(d) => assert!(d >= 1.0, "{what}: {}: coarser {d}", r.name),
                None => assert_eq!(chosen, LEVELS[LEVELS.len() - 1], "{what}: {}", r.name),
            }
            assert_eq!(t_junctions(m), 0, "{what}: {}: T-junctions", r.name);
            if r.rows.last().is_some_and(|x| x.1 >= 1.0) {
                coarse_fails += 1;
            }
        }
        assert!(
            coarse_fails > 0,
            "{what}: the coarsest step never deviates: the control proves nothing"
        );
        let adaptive: usize = meshes.iter().map(|m| m.verts.len()).sum();
        let uniform: usize =
            c.sl.parts
                .iter()
                .map(|p| re2d_rig::skin::mesh::grid(p, 8).map_or(0, |m| m.verts.len()))
                .sum();
        eprintln!("{what}: {adaptive} vertices adaptive, {uniform} on the uniform 8 px grid");
        assert!(adaptive * 3 < uniform, "{what}: {adaptive} vs {uniform}");
        // rigid weights: every part takes the coarsest cells (the skirt's grid-step failure)
        let rigid = |k: usize, p: [f64; 2]| weights(Scheme::Rigid, sk, k, p);
        let (table, _) = adaptive_table(&c.sl.parts, &rigid, &bends, &dirs, None).expect("meshes");
        for r in &table {
            assert_eq!(r.chosen, Some(COARSE), "{what}: {} rigid", r.name);
            assert!(r.rigid && r.deviation == 0.0, "{what}: {}", r.name);
        }
    }
    // the T-junction control: a 2x1 cell beside two 1x1 cells, the big one as two triangles
    let m = PartMesh {
        step: 1,
        verts: vec![
            [0.0, 0.0],
            [2.0, 0.0],
            [2.0, 2.0],
            [0.0, 2.0],
            [2.0, 1.0],
            [3.0, 0.0],
            [3.0, 1.0],
            [3.0, 2.0],
        ],
        uv: vec![[0.0, 0.0]; 8],
        tris: vec![0, 1, 2, 0, 2, 3, 1, 5, 6, 1, 6, 4, 4, 6, 7, 4, 7, 2],
    };
    assert_eq!(t_junctions(&m), 1, "the hand-made T-junction is not seen");
}

// ---- fast tests (debug too) ----

fn parse(text: &str) -> Result<Skeleton, re2d_rig::RigError> {
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
    assert_eq!(sk.background, re2d_rig::declare::skeleton::Background::Auto);
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
    assert_eq!(
        re2d_rig::declare::skeleton::png_name(&u.bones[0].name),
        "part_рука.png"
    );
}

/// A bone's optional `"bend"`: `"normal"` (the default) or `"reversed"`, carried to the
/// motion bones; any other value, or `"reversed"` on a bone without a parent, is
/// `E_RIG_BEND` naming the bone.
#[test]
fn a_bend_is_declared_per_bone_and_bad_ones_are_refused() {
    use re2d_rig::motion::Bend;
    let two = |root: &str, child: &str| {
        with_bones(&format!(
            r#"{{"name": "thigh", "points": [[10, 10], [10, 50]], "radius": 5{root}}},
               {{"name": "hock", "parent": "thigh", "points": [[10, 50], [10, 90]], "radius": 4{child}}}"#
        ))
    };
    let sk = parse(&two("", r#", "bend": "reversed""#)).expect("valid");
    assert_eq!(sk.bones[0].bend, Bend::Normal);
    assert_eq!(sk.bones[1].bend, Bend::Reversed);
    let mb = re2d_rig::motion::bones_of(&sk);
    assert_eq!((mb[0].bend, mb[1].bend), (Bend::Normal, Bend::Reversed));
    for given in [r#", "bend": "normal""#, r#", "bend": null"#, ""] {
        let sk = parse(&two("", given)).expect(given);
        assert_eq!(sk.bones[1].bend, Bend::Normal, "{given}");
    }
    for (root, child) in [
        ("", r#", "bend": "backwards""#),
        ("", r#", "bend": "Reversed""#),
        ("", r#", "bend": true"#),
        ("", r#", "bend": -1"#),
        (r#", "bend": "reversed""#, ""),
    ] {
        let e = parse(&two(root, child)).expect_err(child);
        assert_eq!(e.code, "E_RIG_BEND", "{root}{child}: {e}");
        let named = if root.is_empty() { "'hock'" } else { "'thigh'" };
        assert!(e.message.contains(named), "{e}");
        assert!(!e.to_string().contains('\n'));
    }
}

#[test]
fn connectors_join_children_that_do_not_start_at_the_tip() {
    let sk = parse(&with_bones(
        r#"{"name": "torso", "points": [[50, 100], [50, 20]], "radius": 10},
           {"name": "head", "parent": "torso", "points": [[50, 20], [50, 5]], "radius": 8},
           {"name": "arm", "parent": "torso", "points": [[55, 40], [80, 60]], "radius": 4}"#,
    ))
    .unwrap();
    let t = re2d_rig::declare::tree::build(&sk);
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
    let near = re2d_rig::cut::slice::nearest_feature(&feature, w, h);
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
        re2d_rig::cut::slice::nearest_feature(&[false; 12], 4, 3)
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
    let sil = silhouette(&img, re2d_rig::declare::skeleton::Background::Auto).unwrap();
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
    let mb = re2d_rig::motion::bones_of(&parse(&with).unwrap());
    // "body" would take the default table's spine joint; with a map it stays as drawn
    assert_eq!(mb[0].joint.as_deref(), Some(""));
    assert_eq!(mb[1].joint.as_deref(), Some("LeftHip"));
    let without = re2d_rig::motion::bones_of(&parse(&with_bones(bones)).unwrap());
    assert_eq!(without[0].joint, None);
    assert_eq!(without[1].joint, None);
}

// ---- a small layered drawing (debug too): a dress over hidden thighs, a sleeve the colour of
// the shirt, stockings the colour of nothing else; truth = the top-most painted layer ----

struct Layer {
    name: &'static str,
    parent: Option<&'static str>,
    depth: i32,
    /// Painted capsule: from, to, radius at each end.
    a: [f64; 2],
    b: [f64; 2],
    ra: f64,
    rb: f64,
    fill: [u8; 3],
}

fn capsule_d(p: [f64; 2], a: [f64; 2], b: [f64; 2], ra: f64, rb: f64) -> f64 {
    let (t, _) = re2d::math::nearest_on_segment(p, a, b);
    let c = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
    (p[0] - c[0]).hypot(p[1] - c[1]) - (ra + (rb - ra) * t)
}

/// The layered drawing is 200 × 300 design units at this many pixels each.
const LAYERED_SCALE: usize = 3;
/// Its outline width (px).
const LAYERED_INK: f64 = 6.0;
/// How much wider than the paint the user's radii are (px).
const LAYERED_MARGIN: f64 = 8.0;

fn layered_layers() -> Vec<Layer> {
    const S: f64 = LAYERED_SCALE as f64;
    let l = |name, parent, depth, a: [f64; 2], b: [f64; 2], ra: f64, rb: f64, fill| Layer {
        name,
        parent,
        depth,
        a: [a[0] * S, a[1] * S],
        b: [b[0] * S, b[1] * S],
        ra: ra * S,
        rb: rb * S,
        fill,
    };
    vec![
        l(
            "torso",
            None,
            3,
            [100.0, 150.0],
            [100.0, 62.0],
            28.0,
            28.0,
            [200, 60, 60],
        ),
        l(
            "head",
            Some("torso"),
            3,
            [100.0, 62.0],
            [100.0, 34.0],
            22.0,
            22.0,
            [240, 200, 170],
        ),
        l(
            "thigh_far",
            Some("torso"),
            6,
            [92.0, 150.0],
            [88.0, 215.0],
            12.0,
            11.0,
            [235, 235, 235],
        ),
        l(
            "shin_far",
            Some("thigh_far"),
            5,
            [88.0, 215.0],
            [86.0, 282.0],
            10.0,
            9.0,
            [235, 235, 235],
        ),
        l(
            "thigh_near",
            Some("torso"),
            5,
            [108.0, 150.0],
            [112.0, 215.0],
            12.0,
            11.0,
            [235, 235, 235],
        ),
        l(
            "shin_near",
            Some("thigh_near"),
            4,
            [112.0, 215.0],
            [116.0, 282.0],
            10.0,
            9.0,
            [235, 235, 235],
        ),
        l(
            "dress",
            Some("torso"),
            2,
            [100.0, 140.0],
            [100.0, 192.0],
            34.0,
            50.0,
            [60, 60, 200],
        ),
        l(
            "arm",
            Some("torso"),
            1,
            [100.0, 75.0],
            [140.0, 130.0],
            9.0,
            8.0,
            [200, 60, 60],
        ),
    ]
}

/// The drawing (on green, hard edges, a darker outline per layer) and its truth labels
/// (1 + declaration index of the top-most layer).
fn layered_drawing() -> (RgbaImage, Vec<u8>) {
    let layers = layered_layers();
    let (w, h) = (200 * LAYERED_SCALE, 300 * LAYERED_SCALE);
    let mut rgba = vec![0u8; w * h * 4];
    let mut truth = vec![0u8; w * h];
    let mut order: Vec<usize> = (0..layers.len()).collect();
    order.sort_by(|&a, &b| layers[b].depth.cmp(&layers[a].depth).then(a.cmp(&b)));
    for y in 0..h {
        for x in 0..w {
            let p = [x as f64 + 0.5, y as f64 + 0.5];
            let mut c = [0u8, 255, 0];
            for &k in &order {
                let q = &layers[k];
                let d = capsule_d(p, q.a, q.b, q.ra, q.rb);
                if d <= 0.0 {
                    c = if d > -LAYERED_INK {
                        [q.fill[0] / 3, q.fill[1] / 3, q.fill[2] / 3]
                    } else {
                        q.fill
                    };
                    truth[y * w + x] = k as u8 + 1;
                }
            }
            rgba[(y * w + x) * 4..][..4].copy_from_slice(&[c[0], c[1], c[2], 255]);
        }
    }
    (
        RgbaImage {
            data: rgba,
            width: w as u32,
            height: h as u32,
        },
        truth,
    )
}

/// The declaration a user would write: the painted axes, radii a little wider than the paint.
fn layered_declaration(partless: &[&str]) -> Skeleton {
    let bones: Vec<String> = layered_layers()
        .iter()
        .map(|q| {
            let parent = q.parent.map_or(String::new(), |p| format!(", \"parent\": \"{p}\""));
            let part = if partless.contains(&q.name) {
                ", \"part\": false"
            } else {
                ""
            };
            format!(
                "{{\"name\": \"{}\"{parent}, \"points\": [[{}, {}], [{}, {}]], \"radius\": [{}, {}], \"depth\": {}{part}}}",
                q.name,
                q.a[0],
                q.a[1],
                q.b[0],
                q.b[1],
                q.ra + LAYERED_MARGIN,
                q.rb + LAYERED_MARGIN,
                q.depth
            )
        })
        .collect();
    parse(&with_bones(&bones.join(",\n"))).expect("declaration")
}

fn ious(sl: &Slicing, sil: &Silhouette, truth: &[u8], n: usize) -> Vec<f64> {
    let labels = sl.labels(sil);
    (1..=n as u8)
        .map(|k| {
            let (mut i, mut u) = (0u64, 0u64);
            for (&l, &t) in labels.iter().zip(truth) {
                if l == k || t == k {
                    u += 1;
                    if l == t {
                        i += 1;
                    }
                }
            }
            if u == 0 { 1.0 } else { i as f64 / u as f64 }
        })
        .collect()
}

#[test]
fn paint_rule_follows_the_layers_where_the_tube_rule_does_not() {
    use re2d_rig::cut::slice::{Rule, slice_with};
    let (img, truth) = layered_drawing();
    let sil = silhouette(&img, re2d_rig::declare::skeleton::Background::Auto).expect("keys");
    // ownership is measured on the keyed figure (the darker outline's fringe keys to partial alpha)
    let truth: Vec<u8> = truth
        .iter()
        .enumerate()
        .map(|(i, &t)| if sil.alpha(i) >= 128 { t } else { 0 })
        .collect();
    let sk = layered_declaration(&[]);
    let names: Vec<&str> = sk.bones.iter().map(|b| b.name.as_str()).collect();
    let paint = slice_with(&sk, &sil, Rule::Paint).expect("paint");
    let tubes = slice_with(&sk, &sil, Rule::Tubes).expect("tubes");
    let (ip, it) = (
        ious(&paint, &sil, &truth, sk.bones.len()),
        ious(&tubes, &sil, &truth, sk.bones.len()),
    );
    for k in 0..names.len() {
        eprintln!("  {:12} paint {:.4} tubes {:.4}", names[k], ip[k], it[k]);
    }
    // the thighs are entirely under the dress: partless, with a warning naming the dress
    for t in ["thigh_far", "thigh_near"] {
        let k = sk.index(t).unwrap();
        assert!(truth.iter().all(|&l| l as usize != k + 1), "{t} is hidden");
        assert!(!paint.parts[k].has_part(), "{t} has no part");
        let w = paint
            .warnings
            .iter()
            .find(|w| w.starts_with(t))
            .unwrap_or_else(|| panic!("no warning for {t}: {:?}", paint.warnings));
        assert!(w.contains("dress (depth 2"), "{w}");
    }
    // every visible part follows the paint (IoU >= 0.95, as issue 24's gate); the tube rule gives
    // the lower shirt to the dress and the shirt-coloured sleeve's edge to the shirt (measured
    // torso 0.956 / arm 0.951 with paint vs 0.692 / 0.792 with tubes)
    for (k, n) in names.iter().enumerate() {
        if paint.parts[k].has_part() {
            assert!(
                ip[k] >= 0.95,
                "{n}: paint IoU {:.4} tubes {:.4}",
                ip[k],
                it[k]
            );
        }
    }
    for n in ["torso", "arm"] {
        let k = sk.index(n).unwrap();
        assert!(
            ip[k] >= it[k] + 0.1,
            "{n}: paint {:.4} vs tubes {:.4}",
            ip[k],
            it[k]
        );
    }
    // the confidence needs no truth: the doubled-radii control doubts more
    let bad = re2d_rig::cut::slice::doubled(&sk);
    let ctl = re2d_rig::cut::slice::confidence(
        &bad,
        &sil,
        &re2d_rig::cut::slice::ownership(&bad, &sil, Rule::Paint),
    );
    eprintln!(
        "  doubt {:.4} (tie {:.4}, unpainted border {:.4}); control {:.4}",
        paint.confidence.doubt(),
        paint.confidence.tie_share(),
        paint.confidence.unpainted_share(),
        ctl.doubt()
    );
    assert!(ctl.doubt() >= paint.confidence.doubt() + re2d_rig::build::CONFIDENCE_MARGIN);
    // declared partless: no warning, same ownership of the others
    let sk2 = layered_declaration(&["thigh_far", "thigh_near"]);
    let p2 = slice_with(&sk2, &sil, Rule::Paint).expect("paint");
    assert!(p2.warnings.is_empty(), "{:?}", p2.warnings);
    assert!(!p2.parts[sk2.index("thigh_near").unwrap()].has_part());
}

#[test]
fn a_tube_off_the_figure_is_bad_input() {
    let (img, _) = layered_drawing();
    let sil = silhouette(&img, re2d_rig::declare::skeleton::Background::Auto).expect("keys");
    let sk = parse(&with_bones(
        r#"{"name": "torso", "points": [[300, 450], [300, 186]], "radius": 92},
           {"name": "ghost", "parent": "torso", "points": [[10, 10], [40, 10]], "radius": 6}"#,
    ))
    .unwrap();
    let e = re2d_rig::cut::slice::slice(&sk, &sil).unwrap_err();
    assert_eq!(e.code, "E_RIG_PART");
    assert!(e.message.contains("'ghost'"), "{e}");
}

// ---- the layered 1696×2528 characters (issue 24 §5): paint rule vs tube rule ----

/// Per part with visible paint in the truth: (name, IoU paint, IoU tubes); and the means.
fn layered_table(spec: CharacterSpec) -> (Vec<(String, f64, f64)>, f64, f64) {
    use re2d_rig::cut::slice::{Rule, slice_with};
    let d = drawings::generate(&spec).expect("paints");
    let sk = Skeleton::parse(d.skeleton_json.as_bytes(), &Limits::DEFAULT).expect("parses");
    let img = RgbaImage {
        data: d.rgba.clone(),
        width: d.width,
        height: d.height,
    };
    let sil = silhouette(&img, sk.background).expect("keys");
    let paint = slice_with(&sk, &sil, Rule::Paint).expect("paint");
    let tubes = slice_with(&sk, &sil, Rule::Tubes).expect("tubes");
    let n = sk.bones.len();
    let (ip, it) = (
        ious(&paint, &sil, &d.labels, n),
        ious(&tubes, &sil, &d.labels, n),
    );
    let mut rows = Vec::new();
    for k in 0..n {
        if d.labels.iter().any(|&l| l as usize == k + 1) {
            rows.push((sk.bones[k].name.clone(), ip[k], it[k]));
        }
    }
    let m = rows.len().max(1) as f64;
    let mp = rows.iter().map(|r| r.1).sum::<f64>() / m;
    let mt = rows.iter().map(|r| r.2).sum::<f64>() / m;
    eprintln!(
        "{} (facing {}): part | IoU paint | IoU tubes",
        d.name,
        if sk.facing_right { "right" } else { "left" }
    );
    for (name, p, t) in &rows {
        eprintln!("  {name:16} {p:.4} {t:.4}");
    }
    eprintln!("  mean             {mp:.4} {mt:.4}");
    for w in &paint.warnings {
        eprintln!("  warning: {w}");
    }
    (rows, mp, mt)
}

/// The gate on the three layered characters: issue 24 asks for every part at least 0.95 and
/// the mean at least 0.97 on each. Measured: girl mean 0.990 (every part >= 0.976), coat 0.982 (>= 0.955),
/// skirt 0.990 (>= 0.975). The coat failed it (mean 0.970; head 0.930, hat 0.943, thigh_near
/// 0.930, foot_far 0.934) until claims stopped spreading through other parts' paint (without
/// that rule: head 0.930, the cap's brim goes to the head through the cap) and seeds at the
/// margin of a nearer tube were pinned (without: thigh_near 0.930, foot_far 0.934). The tube
/// rule (means 0.821 / 0.758 / 0.814) is the negative control and fails every floor.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "4.3 Mpx: run in release by `make test-rig`"
)]
fn layered_characters_paint_beats_tubes_on_the_mean() {
    // (character, floor of the mean, floor of every part)
    for (spec, floor, part_floor) in [
        (drawings::girl(), 0.97, 0.95),
        (drawings::coat(), 0.97, 0.95),
        (drawings::skirt(), 0.97, 0.95),
    ] {
        let (rows, mp, mt) = layered_table(spec);
        let min =
            |col: fn(&(String, f64, f64)) -> f64| rows.iter().map(col).fold(f64::MAX, f64::min);
        let (minp, mint) = (min(|r| r.1), min(|r| r.2));
        assert!(mp >= mt + 0.08, "paint mean {mp:.4} vs tubes {mt:.4}");
        assert!(mp >= floor, "paint mean {mp:.4} < {floor}");
        assert!(
            minp >= part_floor,
            "paint: a part at {minp:.4} < {part_floor}"
        );
        assert!(
            mt < floor && mint < part_floor,
            "the control (tube rule) passes a floor: mean {mt:.4}, min {mint:.4}"
        );
        assert!(rows.len() >= 15);
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "4.3 Mpx: run in release by `make test-rig`"
)]
fn the_girls_hidden_thighs_are_partless_and_the_pelvis_is_declared_so() {
    let d = drawings::generate(&drawings::girl()).expect("paints");
    assert!(d.skeleton_json.contains("\"part\": false"));
    let c = case(drawings::girl());
    for name in ["thigh_far", "thigh_near"] {
        let k = c.sk.index(name).unwrap();
        assert!(!c.sl.parts[k].has_part(), "{name}");
        assert!(
            c.sl.warnings
                .iter()
                .any(|w| w.starts_with(name) && w.contains("garment (depth 6")),
            "{:?}",
            c.sl.warnings
        );
    }
    let pelvis = c.sk.index("pelvis").unwrap();
    assert!(!c.sl.parts[pelvis].has_part());
    assert!(!c.sl.warnings.iter().any(|w| w.starts_with("pelvis")));
}

/// The reassembly gate on the three layered characters: the correct map passes and every
/// control fails in the same run. Their largest part is a flat garment, where a 3-px pivot
/// shift changes only 3–4 % of the window: with the control on the largest part (the old
/// rule) `pivot+3` did not fail (window colour 0.964–0.973) and `rig build` stopped at
/// `E_RIG_GATE: reassembly`.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "4.3 Mpx: run in release by `make test-rig`"
)]
fn layered_characters_pass_reassembly_with_every_control_failing() {
    for (what, spec) in [
        ("girl", drawings::girl()),
        ("coat", drawings::coat()),
        ("skirt", drawings::skirt()),
    ] {
        let c = case(spec);
        let v = verification(&c, what);
        assert!(
            v.iou >= re2d_rig::cut::verify::T_IOU,
            "{what}: IoU {:.4}",
            v.iou
        );
        assert!(
            v.colour >= re2d_rig::cut::verify::T_COLOUR,
            "{what}: colour {:.4}",
            v.colour
        );
        let names: Vec<&str> = v.controls.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(names, ["pivot+3", "depth-swap", "mirror"], "{what}");
        for k in &v.controls {
            assert!(k.fails, "{what}: control {} does not fail: {k:?}", k.name);
        }
        assert!(v.pass, "{what}");
    }
}

/// `shift_change` (the rule that picks the `pivot+3` control's part) on hand-made parts: a flat
/// 100 × 100 square moved 3 px changes its own outline only (6 of 103 columns), a 6-px stripe
/// moved 3 px changes two thirds of its window, a painted stripe inside the square is seen, and
/// hidden fill is not visible paint.
#[test]
fn shift_change_measures_the_part_alone() {
    use re2d_rig::cut::slice::PartImage;
    use re2d_rig::cut::verify::shift_change;
    let part = |w: usize, h: usize, paint: &dyn Fn(usize, usize) -> ([u8; 4], u8)| {
        let (mut rgba, mut hidden) = (vec![0u8; w * h * 4], vec![0u8; w * h]);
        for y in 0..h {
            for x in 0..w {
                let (c, hid) = paint(x, y);
                rgba[(y * w + x) * 4..][..4].copy_from_slice(&c);
                hidden[y * w + x] = hid;
            }
        }
        PartImage {
            name: "p".into(),
            bone: 0,
            origin: [0, 0],
            width: w,
            height: h,
            rgba,
            hidden,
            pivot: [0.0, 0.0],
            area: (w * h) as u64,
            hidden_px: 0,
            filled_px: 0,
            tube_px: (w * h) as u64,
            visible_px: (w * h) as u64,
        }
    };
    let red = [200, 0, 0, 255];
    let flat = part(100, 100, &|_, _| (red, 0));
    let v = shift_change(&flat, 3, 0);
    assert!((v - 6.0 / 103.0).abs() < 1e-9, "{v}");
    let stripe = part(6, 100, &|_, _| (red, 0));
    let v = shift_change(&stripe, 3, 0);
    assert!((v - 6.0 / 9.0).abs() < 1e-9, "{v}");
    assert_eq!(shift_change(&stripe, 0, 0), 0.0);
    let detail = part(100, 100, &|x, _| {
        (
            if (40..46).contains(&x) {
                [0, 0, 200, 255]
            } else {
                red
            },
            0,
        )
    });
    let v = shift_change(&detail, 3, 0);
    assert!((v - 12.0 / 103.0).abs() < 1e-9, "{v}");
    // the right half is hidden fill of another colour: under nearer parts, not visible paint
    let half = part(100, 100, &|x, _| {
        if x >= 50 {
            ([0, 0, 200, 255], 1)
        } else {
            (red, 0)
        }
    });
    let v = shift_change(&half, 3, 0);
    assert!((v - 6.0 / 103.0).abs() < 1e-9, "{v}");
}

/// The fit shrink (a part of the slicing confidence): about 0.1 on a declaration written as the
/// docs ask (radii a little wider than the paint), about 0 on the tube-painted biped, and about
/// 0.5 with every radius doubled (the confidence control), which the fit otherwise corrects.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "4.3 Mpx: run in release by `make test-rig`"
)]
fn the_fit_shrink_tells_a_wide_declaration() {
    use re2d_rig::cut::slice::{Rule, doubled, ownership_with_ink};
    let girl = case(drawings::girl());
    let ink = re2d_rig::cut::ink::ink(&girl.sil);
    let ours = ownership_with_ink(&girl.sk, &girl.sil, Rule::Paint, &ink).fit_shrink;
    let bad = ownership_with_ink(&doubled(&girl.sk), &girl.sil, Rule::Paint, &ink).fit_shrink;
    let tubes = ownership_with_ink(&girl.sk, &girl.sil, Rule::Tubes, &ink).fit_shrink;
    assert!((0.05..0.2).contains(&ours), "girl {ours:.3}");
    assert!(bad > 0.4, "girl, radii doubled {bad:.3}");
    assert_eq!(tubes, 0.0);
    let b = biped();
    let ink = re2d_rig::cut::ink::ink(&b.sil);
    let exact = ownership_with_ink(&b.sk, &b.sil, Rule::Paint, &ink).fit_shrink;
    assert!(exact < 0.03, "biped {exact:.3}");
}

/// A bone outvoted in every region of paint keeps its seeds in its best region. The seed-23
/// biped wears dark trousers whose outlines are dark on dark (neither ink nor an edge), so the
/// pelvis's paint is one region with the thighs' and the spine's; it lost every vote there and
/// became partless (pelvis IoU 0, mean 0.915; the tube rule: 1.000). Now every part is >= 0.89
/// and the mean >= 0.98.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "4.3 Mpx: run in release by `make test-rig`"
)]
fn a_bone_outvoted_everywhere_keeps_its_best_region() {
    let c = case(drawings::biped().with_seed(23));
    let n = c.sk.bones.len();
    let iou = ious(&c.sl, &c.sil, &c.d.labels, n);
    let pelvis = c.sk.index("pelvis").unwrap();
    assert!(c.sl.parts[pelvis].has_part(), "{:?}", c.sl.warnings);
    assert!(iou[pelvis] >= 0.95, "pelvis {:.4}", iou[pelvis]);
    let mean = iou.iter().sum::<f64>() / n as f64;
    let min = iou.iter().copied().fold(f64::MAX, f64::min);
    assert!(mean >= 0.98 && min >= 0.89, "mean {mean:.4}, min {min:.4}");
}

/// The adaptive table skips a triangle whose vertices lie on one bone only when its summed-area
/// tables show every texel inside on that bone too: a weight function whose one-bone region is
/// not convex (a blended disk in the middle of a rigid part) puts blended texels inside
/// triangles with one-bone corners, and the table's deviation is still the full scan's.
#[test]
fn adaptive_table_measures_blended_texels_between_one_bone_corners() {
    use re2d_rig::cut::slice::PartImage;
    use re2d_rig::skin::mesh::{adaptive_table, mesh_deviation};
    use re2d_rig::skin::weights::{Scheme, bend_maps, weights};
    let sk = parse(&with_bones(
        r#"{"name": "a", "points": [[0, 64], [0, 0]], "radius": 8},
           {"name": "b", "parent": "a", "points": [[0, 64], [128, 64]], "radius": 70}"#,
    ))
    .expect("valid");
    let (w, h) = (128, 128);
    let part = PartImage {
        name: "b".into(),
        bone: 1,
        origin: [0, 0],
        width: w,
        height: h,
        rgba: vec![200; w * h * 4],
        hidden: vec![0; w * h],
        pivot: [0.0, 64.0],
        area: (w * h) as u64,
        hidden_px: 0,
        filled_px: 0,
        tube_px: (w * h) as u64,
        visible_px: (w * h) as u64,
    };
    // rigid on `b` but for a disk of radius 5 at (70, 40), where `a` and `b` share the texel
    let wf = |k: usize, p: [f64; 2]| {
        if (p[0] - 70.0).hypot(p[1] - 40.0) < 5.0 {
            weights(Scheme::Ramp, &sk, k, [64.0, 64.0])
        } else {
            weights(Scheme::Rigid, &sk, k, p)
        }
    };
    assert_eq!(wf(1, [70.5, 40.5]).len(), 2, "the disk is blended");
    let bends = |k: usize| {
        vec![
            bend_maps(&sk, k, 30f64.to_radians()),
            bend_maps(&sk, k, -30f64.to_radians()),
        ]
    };
    let dirs = |_: usize| [1.0, 0.0];
    let (table, meshes) =
        adaptive_table(std::slice::from_ref(&part), &wf, &bends, &dirs, None).expect("meshes");
    let full = mesh_deviation(&part, 1, &meshes[0], &wf, &bends(1));
    assert!(full > 0.0, "the disk deviates: the test proves nothing");
    assert_eq!(table[0].deviation, full);
}
