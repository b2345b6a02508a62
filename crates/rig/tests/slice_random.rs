//! Random layered characters as the judge of the slicing rules (issue 40):
//! `re2d_testkit::drawings::random` paints characters nobody tuned the rules on (garments,
//! hair, hats, props, hands, outlines or none, flat or shaded, any key, either facing,
//! chibi to tall) and declares them as a user would, with random slack; the truth is the
//! top-most painted layer. This test slices the fixed development batch, seeds 1..=100
//! (release build, two threads: about a minute); `make bench-slice` slices the held-back
//! batch, seeds 1001..=1100, which is run only when the rules are final.
//!
//! The issue's gate — every part with at least 200 visible pixels ≥ 0.90 IoU, ≥ 95 % of
//! them ≥ 0.95, each character's mean ≥ 0.97, no bone with visible paint made partless —
//! is `random_characters_pass_issue_40s_gate`, ignored until the rules reach it. Until
//! then `random_characters_hold_the_floor` keeps the level reached so far from sliding back.

use re2d_rig::cut::slice::Rule;
use re2d_testkit::drawings::random::{self, judge};

/// The development batch.
const SEEDS: std::ops::RangeInclusive<u64> = 1..=100;

fn table(rule: Rule) -> judge::Table {
    let seeds: Vec<u64> = SEEDS.collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let out = std::sync::Mutex::new(vec![None; seeds.len()]);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= seeds.len() {
                        break;
                    }
                    let sc = judge::score(&random::generate(seeds[i]), rule);
                    out.lock().unwrap()[i] = Some(sc);
                }
            });
        }
    });
    let mut t = judge::Table::default();
    for s in out.into_inner().unwrap().into_iter().flatten() {
        t.add(&s);
    }
    for l in t.lines.iter().chain(&t.summary()) {
        eprintln!("{}", &l[..l.len().min(400)]);
    }
    t
}

fn mean_of_means(t: &judge::Table) -> f64 {
    t.means.iter().sum::<f64>() / t.means.len().max(1) as f64
}

/// The level the rules reached on the development batch (measured: 26.2 % of the parts
/// ≥ 0.95, the characters' means 0.687 on average, 176 bones with visible paint partless);
/// the tube rule, the negative control, stays below it (3 % of the parts).
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "100 characters: run in release by `make test-rig`"
)]
fn random_characters_hold_the_floor() {
    let t = table(Rule::Paint);
    assert_eq!(t.lines.len(), 100);
    let (share, mean) = (t.share(), mean_of_means(&t));
    eprintln!(
        "paint rule: {:.1} % of parts >= 0.95, mean of the characters' means {mean:.4}, {} partless; issue 40's gate: 95 %, every mean >= 0.97, none partless",
        share * 100.0,
        t.partless.len()
    );
    assert!(share >= 0.26, "share {share:.3}");
    assert!(mean >= 0.68, "mean {mean:.4}");
    assert!(t.partless.len() <= 180, "{} partless", t.partless.len());
}

/// Issue 40's gate (see the module doc).
#[test]
#[ignore = "issue 40's gate is not reached yet (26.2 % of parts >= 0.95 of the 95 % asked)"]
fn random_characters_pass_issue_40s_gate() {
    let t = table(Rule::Paint);
    assert!(t.passes(), "{}", t.summary().join("\n"));
}
