// re2d tests — character models rendered headless from the shipped templates and the existing engine's atlases.

mod common;

use std::path::PathBuf;

use re2d::character::{Character, Expression, FrameRequest};
use re2d::model::ErrorClass;
use re2d::sprite::Style;

/// A temp directory with `<base>.character.json`, `.animations.json` and the
/// golden atlas compiled from the same surface as `<base>.png`.
fn fixture(base: &str) -> PathBuf {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = common::fresh_dir(&format!("re2d-character-{base}"));
    for ext in ["character.json", "animations.json"] {
        std::fs::copy(
            repo.join(format!("assets/{base}.{ext}")),
            dir.join(format!("{base}.{ext}")),
        )
        .unwrap();
    }
    std::fs::copy(
        repo.join(format!("tests/golden/{base}-1024.png")),
        dir.join(format!("{base}.png")),
    )
    .unwrap();
    dir.join(format!("{base}.character.json"))
}

fn opaque(px: &[u8]) -> usize {
    px.chunks(4).filter(|c| c[3] != 0).count()
}

#[test]
fn animal_walks_and_turns() {
    let mut c = Character::load(&fixture("animal")).unwrap();
    assert_eq!(c.clip_names(), ["walk"]);
    assert_eq!(c.width(), 512, "the model's style is anime");
    let req = FrameRequest {
        yaw: 30.0,
        pitch: 10.0,
        ..Default::default()
    };
    let a = c.render(&req).unwrap().to_vec();
    assert!(opaque(&a) > 1000);
    let again = c.render(&req).unwrap().to_vec();
    assert_eq!(a, again, "same inputs, same bytes");
    let turned = c
        .render(&FrameRequest {
            yaw: 120.0,
            ..req.clone()
        })
        .unwrap()
        .to_vec();
    assert_ne!(a, turned);
    let later = c
        .render(&FrameRequest {
            time: 0.3,
            ..req.clone()
        })
        .unwrap()
        .to_vec();
    assert_ne!(a, later, "the walk clip moves the legs");
    // Hiding every part but the body removes pixels.
    let body_only = c
        .render(&FrameRequest {
            visible_parts: Some(vec![90]),
            ..req.clone()
        })
        .unwrap()
        .to_vec();
    assert!(opaque(&body_only) < opaque(&a));
    c.set_style(Style::Pixel).unwrap();
    assert_eq!(c.render(&req).unwrap().len(), 128 * 128 * 4);
    let bad = FrameRequest {
        expression: Expression {
            eyes: Some("wide".into()),
            ..Default::default()
        },
        ..req
    };
    assert_eq!(c.render(&bad).unwrap_err().class, ErrorClass::Range);
    assert_eq!(
        c.render(&FrameRequest {
            clip: Some("fly".into()),
            ..Default::default()
        })
        .unwrap_err()
        .class,
        ErrorClass::Type
    );
}

#[test]
fn prop_spins() {
    let mut c = Character::load(&fixture("prop")).unwrap();
    assert_eq!(c.default_clip(), Some("spin"));
    let frames: Vec<Vec<u8>> = (0..4)
        .map(|i| {
            c.render(&FrameRequest {
                time: i as f64 * 0.25,
                ..Default::default()
            })
            .unwrap()
            .to_vec()
        })
        .collect();
    assert!(frames.iter().all(|f| opaque(f) > 100));
    assert_ne!(frames[0], frames[1]);
}

#[test]
fn load_errors() {
    let missing = Character::load(std::path::Path::new("/nonexistent/a.character.json"));
    assert_eq!(missing.err().unwrap().class, ErrorClass::Error);
    let dir = common::fresh_dir("re2d-character-bad");
    let p = dir.join("x.character.json");
    std::fs::write(&p, "{ not json").unwrap();
    assert_eq!(Character::load(&p).err().unwrap().class, ErrorClass::Syntax);
    std::fs::write(&p, r#"{"version": 1, "atlas": "missing.png", "rig": {"bones": [{"name": "b"}], "parts": [{"id": 1, "bone": "b"}]}}"#).unwrap();
    // A missing atlas is an I/O error like a missing model or animations
    // file (issue 12 row 12: `re2d render` exits 3 for all of them).
    assert_eq!(Character::load(&p).err().unwrap().class, ErrorClass::Error);
    std::fs::write(dir.join("missing.png"), "not a png").unwrap();
    assert_eq!(Character::load(&p).err().unwrap().class, ErrorClass::Type);
}
