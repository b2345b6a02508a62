//! Layered drawings as parts (issue 40 item 4): the random characters written as OpenRaster
//! and Photoshop files by the test generator, and small files written by other programs
//! (tests/rig/layered/: Python's pyora and pytoshop, ImageMagick; see its README), read by
//! `rig slice`'s loader: every part equals the painter's truth exactly (IoU 1.000), a
//! bone's part holds its layer's paint also under nearer layers, and the hidden fill
//! fills nothing.

use std::path::{Path, PathBuf};

use re2d::limits::Limits;
use re2d_rig::build::{Timings, load, slice_stage};
use re2d_rig::cut::slice::Rule;
use re2d_testkit::drawings::random::{self, RandomCharacter};

fn fresh(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("re2d-layered-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes `c` as `<name>.<ext>` with its declaration; returns the declaration's path.
fn write(dir: &Path, c: &RandomCharacter, ext: &str, bytes: &[u8]) -> PathBuf {
    std::fs::write(dir.join(format!("{}.{ext}", c.drawing.name)), bytes).unwrap();
    let sk = dir.join(format!("{}.{ext}.json", c.drawing.name));
    std::fs::write(&sk, c.layered_json(ext)).unwrap();
    sk
}

/// Loads and slices `sk`; checks the parts against `c`'s truth and layers exactly.
fn exact(c: &RandomCharacter, sk: &Path) {
    let input = load(sk, &Limits::DEFAULT).expect("loads");
    let s = slice_stage(&input, Rule::Paint, &mut Timings::default()).expect("slices");
    assert_eq!(s.sl.rule, Rule::Layers, "every pixel from a named layer");
    let labels = s.sl.labels(&s.sil);
    let n = input.sk.bones.len();
    for k in 0..n {
        let (mut i, mut u) = (0u64, 0u64);
        for (&l, &t) in labels.iter().zip(&c.layer_labels) {
            if l as usize == k + 1 || t as usize == k + 1 {
                u += 1;
                i += (l == t) as u64;
            }
        }
        assert_eq!(
            i, u,
            "{} {}: IoU {i}/{u}",
            c.drawing.name, input.sk.bones[k].name
        );
    }
    // each part is its layer: every painted pixel of the layer, with its colour and alpha,
    // visible or under nearer layers; nothing filled
    for l in &c.layers {
        let p = &s.sl.parts[l.bone];
        assert!(p.has_part(), "{}", l.name);
        assert_eq!(p.filled_px, 0, "{}", l.name);
        for y in 0..l.h {
            for x in 0..l.w {
                let src = &l.rgba[(y * l.w + x) * 4..(y * l.w + x) * 4 + 4];
                let (gx, gy) = (l.x + x, l.y + y);
                let (cx, cy) = (gx - p.origin[0], gy - p.origin[1]);
                if src[3] == 0 {
                    continue;
                }
                let got = &p.rgba[(cy * p.width + cx) * 4..(cy * p.width + cx) * 4 + 4];
                assert_eq!(got, src, "{} at ({gx}, {gy})", l.name);
            }
        }
    }
    assert!(s.sl.parts.iter().all(|p| p.filled_px == 0));
}

#[test]
fn random_characters_as_ora_and_psd_are_their_layers_exactly() {
    let dir = fresh("random");
    for seed in [3u64, 8, 21] {
        let c = random::generate(seed);
        let ora = write(&dir, &c, "ora", &random::ora::write(&c));
        exact(&c, &ora);
        for rle in [false, true] {
            let psd = write(&dir, &c, "psd", &random::psd::write_with(&c, rle));
            exact(&c, &psd);
        }
    }
}
