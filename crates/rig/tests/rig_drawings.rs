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
