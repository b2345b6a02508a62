//! The quadruped (facing right): a long-bodied, long-necked giraffe-like animal walking,
//! with a patched coat, a mane, ears, a tufted tail and hooves. 20 bones with other
//! proportions than the biped: two neck bones, ears on the head, a two-bone tail, four
//! three-bone legs whose near and far pairs overlap at the shoulder and the hip. Legs,
//! neck and tail start off their parent's tip (connector bones).
//!
//! Its `mocap` map turns a biped capture into a trot: the hind legs take the capture's
//! legs (near = Left) and the fore legs the opposite legs (near fore = Right), so diagonal
//! pairs move together. Neck, head, ears and tail keep their drawn pose. The hind legs'
//! lower bones (the hocks) are declared `"bend": "reversed"`: an animal's hock bends the
//! other way from the human knee whose capture drives it.

use super::paint::{Pt, Rgb, Shape, hex, mix};
use super::part::{Detail, Part, Region};
use super::pose::{Builder, Fit, add, frame, polar};
use super::vary::Vary;

const INK: Rgb = hex(0x2e1d14);

/// Proportions, pose and palette of one quadruped (design units ≈ pixels at 1696×2528).
pub struct Params {
    girth: f64,
    limb: f64,
    body: f64,
    neck_low: f64,
    neck_high: f64,
    head: f64,
    upper: f64,
    lower: f64,
    hoof: f64,
    neck_a: [f64; 2],
    head_a: f64,
    ear_a: f64,
    tail_a: f64,
    /// Per leg (fore near, fore far, hind near, hind far): upper, lower, hoof angles.
    legs: [[f64; 3]; 4],
    coat: Rgb,
    patch: Rgb,
    cream: Rgb,
    mane: Rgb,
    spots: u64,
}

/// Draws the variation of one quadruped (seed 0: the reference animal).
pub fn params(v: &mut Vary) -> Params {
    Params {
        girth: v.scale(0.08),
        limb: v.scale(0.1),
        body: 640.0 * v.scale(0.1),
        neck_low: 430.0 * v.scale(0.1),
        neck_high: 400.0 * v.scale(0.1),
        head: 300.0 * v.scale(0.08),
        upper: 380.0 * v.scale(0.08),
        lower: 400.0 * v.scale(0.08),
        hoof: 92.0 * v.scale(0.08),
        neck_a: [v.angle(-62.0, 6.0), v.angle(-78.0, 6.0)],
        head_a: v.angle(14.0, 8.0),
        ear_a: v.angle(-150.0, 10.0),
        tail_a: v.angle(100.0, 8.0),
        legs: [
            [v.angle(74.0, 5.0), v.angle(90.0, 5.0), v.angle(66.0, 6.0)],
            [v.angle(104.0, 5.0), v.angle(112.0, 5.0), v.angle(80.0, 6.0)],
            [v.angle(106.0, 5.0), v.angle(96.0, 5.0), v.angle(72.0, 6.0)],
            [v.angle(80.0, 5.0), v.angle(92.0, 5.0), v.angle(68.0, 6.0)],
        ],
        coat: v.pick(&[hex(0xeab868), hex(0xdca25c), hex(0xf0c884), hex(0xd8b48c)]),
        patch: v.pick(&[hex(0x8a4a1e), hex(0x6b3415), hex(0xa0522d), hex(0x5a3a2a)]),
        cream: v.pick(&[hex(0xf6e6c4), hex(0xf3ead8), hex(0xf0dcb4)]),
        mane: v.pick(&[hex(0x7a3e18), hex(0x4e2a14), hex(0x9a5a28)]),
        spots: v.pattern_seed(),
    }
}

/// The quadruped's parts in declaration order.
pub fn parts(p: &Params, fit: &Fit) -> Vec<Part> {
    let (g, k) = (p.girth, p.limb);
    let mut b = Builder::new(fit, INK);
    let spots = |b: &Builder| Region::Spots(b.fit.l(118.0), b.fit.l(22.0), p.spots);

    // Body: rump → chest (the root).
    let rump = [0.0, 0.0];
    let chest = [p.body, -20.0];
    let body = b.bone(
        "body",
        None,
        10,
        &[rump, [p.body * 0.5, 12.0], chest],
        &[150.0 * g, 160.0 * g, 172.0 * g],
        p.coat,
        false,
        None,
    );
    b.detail(body, Detail::new(spots(&b), p.patch));
    let belly = b.shape(Shape::Ellipse {
        c: [p.body * 0.5, 150.0 * g],
        rx: p.body * 0.5,
        ry: 62.0 * g,
        angle: 0.0,
    });
    b.detail(body, Detail::new(belly, p.cream));

    // Neck (starts above the chest point), head, ears.
    let n0 = add(chest, [-40.0, -110.0]);
    let n1 = polar(n0, p.neck_a[0], p.neck_low);
    let n2 = polar(n1, p.neck_a[1], p.neck_high);
    let neck_low = b.bone(
        "neck_low",
        Some("body"),
        12,
        &[n0, polar(n0, p.neck_a[0], p.neck_low * 0.5), n1],
        &[112.0 * g, 96.0 * g, 86.0 * g],
        p.coat,
        false,
        None,
    );
    let neck_high = b.bone(
        "neck_high",
        Some("neck_low"),
        11,
        &[n1, polar(n1, p.neck_a[1], p.neck_high * 0.5), n2],
        &[86.0 * g, 76.0 * g, 66.0 * g],
        p.coat,
        false,
        None,
    );
    for i in [neck_low, neck_high] {
        b.detail(i, Detail::new(spots(&b), p.patch));
        b.detail(i, Detail::new(Region::Side(-3.0, -0.7), p.mane));
        b.detail(
            i,
            Detail::new(
                Region::All(vec![
                    Region::Side(-3.0, -0.78),
                    Region::Stripes(b.fit.l(24.0), b.fit.l(7.0), 0.0),
                ]),
                mix(p.mane, INK, 0.5),
            ),
        );
    }
    b.merge(body, "neck_low");
    b.merge(neck_high, "neck_low");
    let hl = p.head;
    let hf = frame(n2, p.head_a - std::f64::consts::FRAC_PI_2);
    let head = b.bone(
        "head",
        Some("neck_high"),
        9,
        &[
            n2,
            polar(n2, p.head_a, hl * 0.45),
            polar(n2, p.head_a + 0.17, hl),
        ],
        &[76.0 * g, 80.0 * g, 50.0 * g],
        p.coat,
        false,
        None,
    );
    let hpx = b.fit.l(hl);
    b.detail(
        head,
        Detail::new(Region::Along(hpx * 0.72, hpx * 3.0), p.cream),
    );
    let head_spot = b.shape(Shape::Ellipse {
        c: hf(30.0, 40.0),
        rx: 26.0,
        ry: 18.0,
        angle: p.head_a,
    });
    b.detail(head, Detail::new(head_spot, p.patch));
    let eye = hf(34.0 * g, 118.0);
    for (s, c) in [
        (
            Shape::Ellipse {
                c: eye,
                rx: 22.0,
                ry: 17.0,
                angle: p.head_a,
            },
            hex(0xfbf8f0),
        ),
        (
            Shape::Disc {
                c: add(eye, [5.0, 1.0]),
                r: 13.0,
            },
            hex(0x3b2418),
        ),
        (
            Shape::Stroke {
                a: hf(52.0, 96.0),
                b: hf(50.0, 142.0),
                w: 6.0,
            },
            hex(0x1e120c),
        ),
        (
            Shape::Ellipse {
                c: hf(4.0, hl - 30.0),
                rx: 12.0,
                ry: 7.0,
                angle: p.head_a + 0.5,
            },
            hex(0x4a2a1c),
        ),
        (
            Shape::Stroke {
                a: hf(-34.0, hl - 70.0),
                b: hf(-30.0, hl - 22.0),
                w: 5.0,
            },
            hex(0x6a3226),
        ),
    ] {
        let r = b.shape(s);
        b.detail(head, Detail::new(r, c));
    }
    for (dx, dy) in [(-8.0, -6.0), (-1.0, -9.0), (6.0, -8.0)] {
        let lash = b.shape(Shape::Stroke {
            a: hf(52.0, 120.0 + dx),
            b: hf(64.0 - dy, 124.0 + dx * 2.0),
            w: 4.0,
        });
        b.detail(head, Detail::new(lash, hex(0x1e120c)));
    }
    let glint = b.shape(Shape::Disc {
        c: add(eye, [1.0, -6.0]),
        r: 5.0,
    });
    b.detail(head, Detail::new(glint, hex(0xffffff)).unlit());
    let ear = |b: &mut Builder, name: &'static str, start: Pt, angle: f64, depth: i32| {
        let i = b.bone(
            name,
            Some("head"),
            depth,
            &[start, polar(start, angle, 60.0), polar(start, angle, 118.0)],
            &[22.0 * k, 30.0 * k, 10.0 * k],
            p.coat,
            depth > 9,
            None,
        );
        let el = b.fit.l(118.0);
        b.detail(
            i,
            Detail::new(
                Region::All(vec![
                    Region::Along(el * 0.2, el * 0.85),
                    Region::Side(-0.45, 0.45),
                ]),
                hex(0xd88a7a),
            ),
        );
    };
    ear(&mut b, "ear_near", hf(70.0, 12.0), p.ear_a, 8);
    ear(&mut b, "ear_far", hf(84.0, 30.0), p.ear_a + 0.35, 16);

    // Tail from the top of the rump, with a dark tuft.
    let t0 = add(rump, [-40.0, -80.0]);
    let t1 = polar(t0, p.tail_a + 0.9, 120.0);
    let t2 = polar(t1, p.tail_a, 200.0);
    let tail = b.bone(
        "tail",
        Some("body"),
        14,
        &[t0, t1, t2],
        &[32.0 * k, 23.0 * k, 18.0 * k],
        p.coat,
        false,
        None,
    );
    b.detail(
        tail,
        Detail::new(Region::Stripes(b.fit.l(46.0), b.fit.l(14.0), 0.0), p.patch),
    );
    let tuft = b.bone(
        "tail_tuft",
        Some("tail"),
        15,
        &[
            t2,
            polar(t2, p.tail_a - 0.08, 85.0),
            polar(t2, p.tail_a - 0.1, 170.0),
        ],
        &[16.0 * k, 36.0 * k, 14.0 * k],
        p.mane,
        false,
        None,
    );
    for u in [-0.5, 0.0, 0.5] {
        b.detail(
            tuft,
            Detail::new(Region::Side(u - 0.06, u + 0.06), mix(p.mane, INK, 0.5)),
        );
    }

    // Legs: fore under the chest, hind under the rump; far legs darker and behind.
    let fore = add(chest, [-60.0, 90.0]);
    let hind = add(rump, [60.0, 70.0]);
    const RIGHT: [&str; 3] = ["RightHip", "RightKnee", "RightAnkle"];
    const LEFT: [&str; 3] = ["LeftHip", "LeftKnee", "LeftAnkle"];
    // Declared in the order fore near, fore far, hind near, hind far (= `p.legs`); the last
    // field: the lower bone bends the other way from the capture's knee (the hind hocks).
    let legs = [
        (
            ["fore_upper_near", "fore_lower_near", "fore_hoof_near"],
            fore,
            2,
            RIGHT,
            false,
        ),
        (
            ["fore_upper_far", "fore_lower_far", "fore_hoof_far"],
            add(fore, [12.0, -8.0]),
            20,
            LEFT,
            false,
        ),
        (
            ["hind_upper_near", "hind_lower_near", "hind_hoof_near"],
            hind,
            5,
            LEFT,
            true,
        ),
        (
            ["hind_upper_far", "hind_lower_far", "hind_hoof_far"],
            add(hind, [12.0, -8.0]),
            17,
            RIGHT,
            true,
        ),
    ];
    for ((names, s, depth, joints, reversed), a) in legs.into_iter().zip(p.legs) {
        let far = depth > 10;
        let knee = polar(s, a[0], p.upper);
        let fetlock = polar(knee, a[1], p.lower);
        let up = b.bone(
            names[0],
            Some("body"),
            depth,
            &[s, polar(s, a[0], p.upper * 0.5), knee],
            &[80.0 * k, 58.0 * k, 44.0 * k],
            p.coat,
            far,
            Some(joints[0]),
        );
        b.detail(up, Detail::new(spots(&b), p.patch));
        if !far {
            b.merge(up, "body");
        }
        let lo = b.bone(
            names[1],
            Some(names[0]),
            depth + 1,
            &[knee, polar(knee, a[1], p.lower * 0.5), fetlock],
            &[44.0 * k, 37.0 * k, 35.0 * k],
            p.cream,
            far,
            Some(joints[1]),
        );
        b.parts[lo].reversed = reversed;
        let knee_mark = b.shape(Shape::Disc {
            c: knee,
            r: 22.0 * k,
        });
        b.detail(lo, Detail::new(knee_mark, mix(p.cream, p.patch, 0.35)));
        let ho = b.bone(
            names[2],
            Some(names[1]),
            depth + 2,
            &[
                fetlock,
                polar(fetlock, a[2], p.hoof * 0.55),
                polar(fetlock, a[2], p.hoof),
            ],
            &[33.0 * k, 38.0 * k, 36.0 * k],
            p.cream,
            far,
            Some(joints[2]),
        );
        let hpx = b.fit.l(p.hoof);
        b.parts[ho].gloss = 0.45;
        b.detail(
            ho,
            Detail::new(Region::Along(hpx * 0.42, hpx * 3.0), hex(0x3a2a24)),
        );
        b.detail(
            ho,
            Detail::new(Region::Along(-hpx, hpx * 0.3), mix(p.cream, p.mane, 0.35)),
        );
    }
    b.parts
}
