use re2d::limits::Limits;
use re2d::png_io::RgbaImage;
use re2d_rig::cut::slice::{Rule, slice_with};
use re2d_rig::declare::silhouette::silhouette;
use re2d_rig::declare::skeleton::Skeleton;
use re2d_testkit::drawings;

fn colour(l: u8) -> [u8; 3] {
    if l == 0 {
        return [40, 40, 40];
    }
    let h = (l as u32).wrapping_mul(2_654_435_761);
    [
        (h >> 8) as u8 | 0x30,
        (h >> 16) as u8 | 0x30,
        (h >> 24) as u8 | 0x30,
    ]
}

fn main() {
    let name = std::env::args().nth(1).unwrap();
    let spec = match name.as_str() {
        "girl" => drawings::girl(),
        "coat" => drawings::coat(),
        "skirt" => drawings::skirt(),
        "biped" => drawings::biped(),
        _ => drawings::quadruped(),
    };
    let seed: u64 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let spec = if seed > 0 { spec.with_seed(seed) } else { spec };
    let d = drawings::generate(&spec).unwrap();
    let sk = Skeleton::parse(d.skeleton_json.as_bytes(), &Limits::DEFAULT).unwrap();
    let img = RgbaImage {
        data: d.rgba.clone(),
        width: d.width,
        height: d.height,
    };
    let sil = silhouette(&img, sk.background).unwrap();
    let sl = slice_with(&sk, &sil, Rule::Paint).unwrap();
    let labels = sl.labels(&sil);
    let (w, h) = (d.width as usize / 2, d.height as usize / 2);
    let sw = w * 3;
    let mut px = vec![0u8; sw * h * 4];
    for y in 0..h {
        for x in 0..w {
            let i = (2 * y) * d.width as usize + 2 * x;
            let s = &d.rgba[i * 4..i * 4 + 4];
            for (p, c) in [[s[0], s[1], s[2]], colour(d.labels[i]), colour(labels[i])]
                .iter()
                .enumerate()
            {
                let o = (y * sw + p * w + x) * 4;
                px[o..o + 4].copy_from_slice(&[c[0], c[1], c[2], 255]);
            }
        }
    }
    let png = re2d_output::png_encode::encode_rgba(&px, sw as u32, h as u32).unwrap();
    std::fs::write(format!("/tmp/dump/{name}.png"), png).unwrap();
    for (k, b) in sk.bones.iter().enumerate() {
        let (mut i, mut u) = (0, 0);
        for (&l, &t) in labels.iter().zip(&d.labels) {
            if l as usize == k + 1 || t as usize == k + 1 {
                u += 1;
                if l == t {
                    i += 1;
                }
            }
        }
        println!("{:16} {:.4}", b.name, i as f64 / u.max(1) as f64);
    }
}
