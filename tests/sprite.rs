// re2d tests — rotsprite handles (the engine natives of js-rotsprite.md §10) on real PNG files.

mod common;

use std::path::{Path, PathBuf};

use re2d::model::ErrorClass;
use re2d::sprite::{LegacyRig, PartSelection, SpriteHandle, Style, file_stamp};
use re2d_testkit::atlas::dense_atlas;

/// `name` in a fresh folder of its own (names differ between tests).
fn tmp(name: &str) -> PathBuf {
    common::fresh_dir(&format!("re2d-sprite-{name}")).join(name)
}

fn write_png(path: &Path, rgba: &[u8], w: u32) {
    let f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut e = png::Encoder::new(f, w, rgba.len() as u32 / 4 / w);
    e.set_color(png::ColorType::Rgba);
    e.set_depth(png::BitDepth::Eight);
    e.write_header().unwrap().write_image_data(rgba).unwrap();
}

fn dense_png(name: &str) -> PathBuf {
    let p = tmp(name);
    write_png(&p, &dense_atlas(1), 1024);
    p
}

fn opaque(px: &[u8]) -> usize {
    px.chunks(4).filter(|c| c[3] != 0).count()
}

#[test]
fn v2_load_pose_rig_style_and_revisions() {
    let p = dense_png("dense.png");
    let mut h = SpriteHandle::load(&p).unwrap();
    let i = h.info();
    assert_eq!(
        (i.version, i.width, i.revision, i.style, i.atlas_width),
        (2, 128, 1, Style::Pixel, 1024)
    );
    assert_eq!(i.surface_samples, 12 * 62 * 62);
    assert!(i.joints.is_none());
    // Initial image: head only (part 1 of the generated figure) at yaw 0.
    let head_only = opaque(h.pixels());
    assert!(head_only > 0);
    h.pose(30.0, 10.0, None, None, None).unwrap();
    assert_eq!(h.info().revision, 2);
    h.pose(390.0, 10.0, None, None, None).unwrap();
    assert_eq!(h.info().revision, 2, "same normalised pose does no work");
    h.set_rig(LegacyRig {
        body: true,
        stride: 100.0,
        ..Default::default()
    })
    .unwrap();
    let i = h.info();
    assert_eq!((i.revision, i.body), (3, true));
    let joints = i.joints.unwrap();
    assert_eq!(joints.len(), 11);
    assert_eq!(joints[0].0, "head");
    assert!(opaque(h.pixels()) > head_only, "body mode draws the body");
    assert!(h.set_style("anime").unwrap());
    assert_eq!(
        (h.info().width, h.pixels().len(), h.info().revision),
        (512, 512 * 512 * 4, 4)
    );
    assert!(h.sample_depth().iter().any(|&d| d != 0.0));
    assert!(!h.set_style("anime").unwrap());
    assert_eq!(h.set_style("cartoon").unwrap_err().class, ErrorClass::Range);
    assert_eq!(
        h.pose(0.0, 0.0, Some(4), None, None).unwrap_err().class,
        ErrorClass::Range
    );
    assert_eq!(
        h.pose(f64::NAN, 0.0, None, None, None).unwrap_err().class,
        ErrorClass::Range
    );
    h.dispose();
    let i = h.info();
    assert!(i.disposed);
    assert_eq!(i.atlas_width, 0);
    assert_eq!(
        h.pose(1.0, 0.0, None, None, None).unwrap_err().class,
        ErrorClass::Type
    );
    assert!(!h.changed());
}

#[test]
fn model_pose_moves_parts() {
    let p = dense_png("model.png");
    let mut h = SpriteHandle::load(&p).unwrap();
    let mut rows = Vec::new();
    for id in [1u8, 4, 6, 7, 8, 9, 10, 11, 12, 15, 20, 21] {
        let mut r = [0.0; 17];
        r[0] = id as f64;
        r[4] = 1.0;
        r[5..].copy_from_slice(&[1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0.]);
        rows.push(r);
    }
    h.model_pose(1.0, &rows, true).unwrap();
    h.pose(0.0, 0.0, None, None, None).unwrap();
    let before = h.pixels().to_vec();
    rows[0][5 + 3] = 10.0; // head moves 10 units right
    h.model_pose(1.0, &rows, true).unwrap();
    h.pose(0.0, 0.0, None, None, None).unwrap();
    assert_ne!(before, h.pixels());
    assert!(h.info().joints.is_none(), "no legacy joints with a model");
    let mut bad = rows.clone();
    bad[1][0] = 1.0;
    assert_eq!(
        h.model_pose(1.0, &bad, true).unwrap_err().class,
        ErrorClass::Range
    );
    assert_eq!(
        h.model_pose(9.0, &rows, true).unwrap_err().class,
        ErrorClass::Range
    );
}

#[test]
fn donor_parts_replace_points() {
    let p = dense_png("base.png");
    let mut h = SpriteHandle::load(&p).unwrap();
    let n = h.info().surface_samples;
    h.part(&p, &PartSelection::Ids(vec![1])).unwrap();
    assert_eq!(h.info().surface_samples, n);
    h.part(&p, &PartSelection::Mask(1 << 6)).unwrap();
    assert_eq!(h.info().surface_samples, n);
    assert_eq!(
        h.part(&p, &PartSelection::Mask(1 << 10)).unwrap_err().class,
        ErrorClass::Range
    );
    assert_eq!(
        h.part(&p, &PartSelection::Ids(vec![200]))
            .unwrap_err()
            .class,
        ErrorClass::Range
    );
    assert_eq!(
        h.part(&p, &PartSelection::Ids(vec![1, 1]))
            .unwrap_err()
            .class,
        ErrorClass::Range
    );
}

#[test]
fn load_errors_and_stamps() {
    assert_eq!(
        SpriteHandle::load(Path::new("/nonexistent/x.png"))
            .err()
            .unwrap()
            .class,
        ErrorClass::Type
    );
    let p = tmp("grey.png");
    let mut px = vec![255u8; 64 * 64 * 4];
    px[3] = 128;
    write_png(&p, &px, 64);
    assert_eq!(
        SpriteHandle::load(&p).err().unwrap().class,
        ErrorClass::Range
    );
    write_png(&p, &vec![255u8; 64 * 32 * 4], 64);
    assert_eq!(
        SpriteHandle::load(&p).err().unwrap().class,
        ErrorClass::Range
    );
    // A v1 head atlas: 64 px raster, no expressions.
    let mut v1px = vec![0u8; 64 * 64 * 4];
    for (i, c) in v1px.chunks_mut(4).enumerate() {
        c.copy_from_slice(&[(i % 64) as u8 * 4, (i / 64) as u8 * 4, 100, 255]);
    }
    write_png(&p, &v1px, 64);
    let mut h = SpriteHandle::load(&p).unwrap();
    assert_eq!((h.info().version, h.info().width), (1, 64));
    assert!(opaque(h.pixels()) > 500);
    assert_eq!(
        h.pose(0.0, 0.0, Some(1), None, None).unwrap_err().class,
        ErrorClass::Range
    );
    assert_eq!(h.set_style("anime").unwrap_err().class, ErrorClass::Range);
    assert_eq!(
        h.set_rig(LegacyRig::default()).unwrap_err().class,
        ErrorClass::Type
    );
    let stamp = file_stamp(&p).unwrap();
    assert!(stamp.ends_with(&format!(":{}", std::fs::metadata(&p).unwrap().len())));
    assert!(!h.changed());
    // Growing the file changes its size, hence its stamp.
    std::fs::write(&p, [std::fs::read(&p).unwrap(), vec![0u8; 3]].concat()).unwrap();
    assert!(h.changed());
    assert_eq!(file_stamp(Path::new("/nonexistent")), None);
}
