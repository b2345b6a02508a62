//! Tests of the rig stages on the generated drawings (`drawings/`): the truth labels and
//! the drawings come from the painter, never from the code under test.

use std::sync::OnceLock;

use super::drawings::{self, CharacterSpec, Drawing};
use super::silhouette::{Silhouette, silhouette};
use super::skeleton::Skeleton;
use super::slice::{Slicing, slice};
use crate::limits::Limits;
use crate::png_io::RgbaImage;

/// The test size: the seed's canvas in release builds, a quarter of it (half a side) in
/// debug builds, which are too slow for 4.3 Mpx.
fn sized(spec: CharacterSpec) -> CharacterSpec {
    if cfg!(debug_assertions) {
        spec.sized(drawings::WIDTH / 2, drawings::HEIGHT / 2)
    } else {
        spec
    }
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
fn slicing_matches_the_truth_biped() {
    slicing_gate(biped(), "biped");
}

#[test]
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
