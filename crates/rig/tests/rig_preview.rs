//! The editor's preview (`cut::preview`) against the slicing `rig slice` / `rig build` run
//! (`cut::slice::slice_with`): on every generated character, with both rules, and on a seeded
//! family of moved declarations (points shifted, radii scaled, a bone declared partless, a bone
//! moved off the figure), the preview's labels, how-map, confidence and warnings, and its
//! `E_RIG_PART` errors, are `slice_with`'s. The family must produce partless warnings, slivers and
//! errors, so every path was compared.

use re2d::limits::Limits;
use re2d::png_io::RgbaImage;
use re2d_rig::cut::preview::{Prepared, preview};
use re2d_rig::cut::slice::{Rule, slice_with};
use re2d_rig::declare::silhouette::silhouette;
use re2d_rig::declare::skeleton::Skeleton;
use re2d_testkit::drawings::{self, CharacterSpec};

/// A small xorshift: the family is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[derive(Default)]
struct Seen {
    cases: usize,
    partless: usize,
    slivers: usize,
    errors: usize,
}

/// Compares the preview with `slice_with` for `sk` on `prep`.
fn compare(sk: &Skeleton, prep: &Prepared, rule: Rule, what: &str, seen: &mut Seen) {
    let full = slice_with(sk, &prep.sil, rule);
    let fast = preview(sk, prep, rule, &|| false).map(|p| p.expect("not cancelled"));
    seen.cases += 1;
    match (full, fast) {
        (Ok(s), Ok(p)) => {
            assert!(s.labels(&prep.sil) == p.labels, "{what}: labels differ");
            assert!(s.how == p.how, "{what}: how differs");
            assert_eq!(s.confidence, p.confidence, "{what}: confidence");
            assert_eq!(s.warnings, p.warnings, "{what}: warnings");
            let parts: Vec<bool> = s.parts.iter().map(|q| q.has_part()).collect();
            assert_eq!(parts, p.has_part, "{what}: which bones have a part");
            seen.partless += s
                .warnings
                .iter()
                .filter(|w| w.contains("0 visible px"))
                .count();
            seen.slivers += s.warnings.iter().filter(|w| w.contains("a sliver")).count();
        }
        (Err(a), Err(b)) => {
            assert_eq!(a.to_string(), b.to_string(), "{what}: errors");
            seen.errors += 1;
        }
        (a, b) => panic!(
            "{what}: slice_with {:?}, preview {:?}",
            a.map(|_| ()).map_err(|e| e.to_string()),
            b.map(|_| ()).map_err(|e| e.to_string())
        ),
    }
}

/// The declaration moved by `rng`: every point shifted by up to `shift` px (clamped to the
/// image), every radius scaled by 0.5–1.7.
fn moved(sk: &Skeleton, rng: &mut Rng, shift: f64, w: f64, h: f64) -> Skeleton {
    let mut out = sk.clone();
    for b in &mut out.bones {
        for p in &mut b.points {
            p[0] = (p[0] + (rng.next() * 2.0 - 1.0) * shift).clamp(0.0, w);
            p[1] = (p[1] + (rng.next() * 2.0 - 1.0) * shift).clamp(0.0, h);
        }
        for r in &mut b.radii {
            *r *= 0.5 + 1.2 * rng.next();
        }
    }
    out
}

fn run(spec: CharacterSpec, seed: u64, seen: &mut Seen) {
    let d = drawings::generate(&spec).expect("paints");
    let sk = Skeleton::parse(d.skeleton_json.as_bytes(), &Limits::DEFAULT).expect("parses");
    let img = RgbaImage {
        data: d.rgba.clone(),
        width: d.width,
        height: d.height,
    };
    let prep = Prepared::new(silhouette(&img, sk.background).expect("keys"));
    let (w, h) = (d.width as f64, d.height as f64);
    for rule in [Rule::Paint, Rule::Tubes] {
        compare(
            &sk,
            &prep,
            rule,
            &format!("{} {}", d.name, rule.name()),
            seen,
        );
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ seed);
    for i in 0..4 {
        let mut m = moved(&sk, &mut rng, 0.06 * w, w, h);
        let k = (rng.next() * m.bones.len() as f64) as usize % m.bones.len();
        match i {
            // a bone declared partless
            1 => m.bones[k].part = false,
            // a bone moved off the figure (into the image's corner): E_RIG_PART
            2 => {
                for p in &mut m.bones[k].points {
                    *p = [1.0 + rng.next() * 3.0, 1.0 + rng.next() * 3.0];
                }
                m.bones[k].points[0] = [0.0, 0.0];
                m.bones[k].radii.iter_mut().for_each(|r| *r = 2.0);
            }
            // one radius blown up: its neighbours lose their paint
            3 => m.bones[k].radii.iter_mut().for_each(|r| *r *= 3.0),
            _ => {}
        }
        compare(
            &m,
            &prep,
            Rule::Paint,
            &format!("{} moved {i}", d.name),
            seen,
        );
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release by `make test-edit`"
)]
fn the_preview_is_the_slicing() {
    let mut seen = Seen::default();
    let specs = [
        drawings::biped(),
        drawings::quadruped(),
        drawings::biped().on_alpha(),
        drawings::girl(),
        drawings::coat(),
        drawings::skirt(),
        drawings::biped().with_seed(7),
        drawings::quadruped().with_seed(11),
    ];
    for (i, spec) in specs.into_iter().enumerate() {
        run(spec.sized(424, 632), i as u64, &mut seen);
    }
    eprintln!(
        "preview vs slice_with: {} cases, {} partless warnings, {} slivers, {} errors",
        seen.cases, seen.partless, seen.slivers, seen.errors
    );
    assert!(seen.partless > 0, "no partless warning was compared");
    assert!(seen.errors > 0, "no E_RIG_PART error was compared");
}

#[test]
fn a_cancelled_preview_stops() {
    let d = drawings::generate(&drawings::biped().sized(424, 632)).expect("paints");
    let sk = Skeleton::parse(d.skeleton_json.as_bytes(), &Limits::DEFAULT).expect("parses");
    let img = RgbaImage {
        data: d.rgba,
        width: d.width,
        height: d.height,
    };
    let prep = Prepared::new(silhouette(&img, sk.background).expect("keys"));
    let calls = std::cell::Cell::new(0);
    let r = preview(&sk, &prep, Rule::Paint, &|| {
        calls.set(calls.get() + 1);
        true
    })
    .expect("no error");
    assert!(r.is_none(), "a cancelled preview returned a result");
    assert_eq!(calls.get(), 1, "cancel is checked after the ownership");
}
