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
