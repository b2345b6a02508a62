//! Layered drawings as parts (issue 40 item 4): the random characters written as OpenRaster
//! and Photoshop files by the test generator, and small files written by other programs
//! (tests/rig/layered/, made by tools/make_layered_samples.py with pyora and psd-tools), read by
//! `rig slice`'s loader: every part equals the painter's truth exactly (IoU 1.000), a
//! bone's part holds its layer's paint also under nearer layers, and the hidden fill
//! fills nothing.

use std::path::{Path, PathBuf};

use re2d::limits::Limits;
use re2d_rig::build::{Timings, load, slice_stage};
use re2d_rig::cut::slice::Rule;
use re2d_testkit::drawings::random::{self, RandomCharacter};

#[path = "../../../tests/common/mod.rs"]
mod common;

fn fresh(tag: &str) -> PathBuf {
    common::fresh_dir(&format!("re2d-layered-{tag}"))
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

fn samples() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/rig/layered"
    ))
}

/// The truth of the samples (tools/make_layered_samples.py, numpy).
fn sample_truth() -> Vec<u8> {
    let png = std::fs::read(samples().join("figure.labels.png")).unwrap();
    let img =
        re2d::png_io::decode_rgba_limited(std::io::Cursor::new(&png), &Limits::DEFAULT).unwrap();
    img.data.chunks_exact(4).map(|p| p[0]).collect()
}

/// Files written by pyora and psd-tools: a group named after a bone, a layer mapped by the
/// declaration, a hidden layer (named "torso" in the .psd: not a duplicate), an opacity.
#[test]
fn files_written_by_other_programs_are_their_layers_exactly() {
    let truth = sample_truth();
    for f in ["figure.ora.json", "figure.psd.json"] {
        let input = load(&samples().join(f), &Limits::DEFAULT).expect(f);
        let (l, bone_of) = input.layers.as_ref().unwrap();
        // the hidden sketch is left out; the sleeve and cuff join the arm through their group
        assert_eq!(l.layers.len(), 6, "{f}");
        let arm = input.sk.index("arm").unwrap();
        let head = input.sk.index("head").unwrap();
        for (x, b) in l.layers.iter().zip(bone_of) {
            match x.name.as_str() {
                "sleeve" | "cuff" => assert_eq!(*b, Some(arm), "{f}"),
                "bow" => assert_eq!(*b, Some(head), "{f}"),
                n => assert_eq!(*b, input.sk.index(n), "{f} {n}"),
            }
        }
        // no declared depth: the layer order (top = 1)
        assert!(
            input.sk.bones[head].depth < input.sk.bones[arm].depth,
            "{f}"
        );
        let s = slice_stage(&input, Rule::Paint, &mut Timings::default()).expect(f);
        assert_eq!(s.sl.rule, Rule::Layers);
        let labels = s.sl.labels(&s.sil);
        let wrong = labels.iter().zip(&truth).filter(|(a, b)| a != b).count();
        assert_eq!(wrong, 0, "{f}: {wrong} pixels differ from the truth");
        assert!(s.sl.parts.iter().all(|p| p.filled_px == 0 && p.has_part()));
        // the torso's part holds its paint under the arm and the head
        let torso = &s.sl.parts[input.sk.index("torso").unwrap()];
        assert!(torso.hidden_px > 100, "{f}: {}", torso.hidden_px);
    }
    // a layer of no bone: the slicing rule gives its pixels to a bone; the rest is exact
    let input = load(&samples().join("figure-extra.ora.json"), &Limits::DEFAULT).unwrap();
    let s = slice_stage(&input, Rule::Paint, &mut Timings::default()).unwrap();
    assert_eq!(s.sl.rule, Rule::Paint);
    let (l, bone_of) = input.layers.as_ref().unwrap();
    let sparkle = l.layers.iter().position(|x| x.name == "sparkle").unwrap();
    assert_eq!(bone_of[sparkle], None);
    let top = l.top_layer();
    let labels = s.sl.labels(&s.sil);
    let (mut other, mut sparkled) = (0, 0);
    for i in 0..labels.len() {
        if top[i] as usize == sparkle + 1 {
            sparkled += 1;
            assert!(labels[i] > 0);
        } else if labels[i] != truth[i] {
            other += 1;
        }
    }
    assert!(sparkled > 50);
    assert_eq!(other, 0);
}
