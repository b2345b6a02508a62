use re2d::limits::Limits;
use re2d::png_io::RgbaImage;
use re2d_rig::cut::slice::{EDGE, Rule, nearest_feature, slice_with};
use re2d_rig::declare::silhouette::silhouette;
use re2d_rig::declare::skeleton::Skeleton;
use re2d_testkit::drawings::random::{self, judge};

fn main() {
    let mut t = judge::Table::default();
    for seed in 1..41u64 {
        let c = random::generate(seed);
        let d = &c.drawing;
        let sk = Skeleton::parse(d.skeleton_json.as_bytes(), &Limits::DEFAULT).unwrap();
        let img = RgbaImage {
            data: d.rgba.clone(),
            width: d.width,
            height: d.height,
        };
        let sil = silhouette(&img, sk.background).unwrap();
        let ink = re2d_rig::cut::ink::ink(&sil);
        let e = sil.edges();
        let (w, h) = (d.width as usize, d.height as usize);
        let plain: Vec<bool> = (0..w * h)
            .map(|i| sil.alpha(i) > 0 && e[i] < EDGE && !ink.mask[i])
            .collect();
        // components
        let mut comp = vec![u32::MAX; w * h];
        let mut n = 0u32;
        let mut stack = Vec::new();
        for s in 0..w * h {
            if !plain[s] || comp[s] != u32::MAX {
                continue;
            }
            comp[s] = n;
            stack.push(s);
            while let Some(i) = stack.pop() {
                let (x, y) = (i % w, i / w);
                for j in [
                    (x > 0).then(|| i - 1),
                    (x + 1 < w).then(|| i + 1),
                    (y > 0).then(|| i - w),
                    (y + 1 < h).then(|| i + w),
                ]
                .into_iter()
                .flatten()
                {
                    if plain[j] && comp[j] == u32::MAX {
                        comp[j] = n;
                        stack.push(j);
                    }
                }
            }
            n += 1;
        }
        let mut votes = vec![[0u32; 40]; n as usize];
        for i in 0..w * h {
            if comp[i] != u32::MAX {
                votes[comp[i] as usize][d.labels[i] as usize] += 1;
            }
        }
        let maj: Vec<u8> = votes
            .iter()
            .map(|v| v.iter().enumerate().max_by_key(|x| x.1).unwrap().0 as u8)
            .collect();
        let near = nearest_feature(&plain, w, h);
        let mut labels = vec![0u8; w * h];
        for i in 0..w * h {
            if sil.alpha(i) < 128 {
                continue;
            }
            let j = near[i];
            if j != usize::MAX {
                labels[i] = maj[comp[j] as usize];
            }
        }
        let sl = slice_with(&sk, &sil, Rule::Tubes).unwrap();
        t.add(&judge::score_labels(&d.name, &sk, &sl, &labels, &d.labels));
    }
    for l in t.lines.iter().chain(&t.summary()) {
        println!("{}", &l[..l.len().min(200)]);
    }
    let m = t
        .lines
        .iter()
        .filter_map(|l| {
            l.split("mean ")
                .nth(1)?
                .split(' ')
                .next()?
                .parse::<f64>()
                .ok()
        })
        .sum::<f64>()
        / t.lines.len() as f64;
    println!("mean of means {m:.4}");
}
