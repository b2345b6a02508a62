//! The side-view biped (facing right) in a walking pose: a kid in a striped shirt, jeans
//! and sneakers. The near leg pushes off behind, the far leg reaches forward (the thighs
//! overlap at the hip), the near arm swings forward over the torso and the far arm swings
//! back with its shoulder behind the chest. 17 bones; arms start at the side of the chest,
//! thighs beside the pelvis' tip and the spine at the pelvis' first point, so a rig needs
//! connector bones.

use std::f64::consts::FRAC_PI_2;

use super::paint::{Pt, Rgb, Shape, hex, mix};
use super::part::{Detail, Part, Region};
use super::pose::{Builder, Fit, add, frame, polar};
use super::vary::Vary;

/// Outline ink, mixed into each part's base colour.
const INK: Rgb = hex(0x2b1d24);

/// Proportions, pose and palette of one biped (design units ≈ pixels at 1696×2528).
pub struct Params {
    girth: f64,
    limb: f64,
    head: f64,
    lens: Lens,
    ang: Angles,
    skin: Rgb,
    hair: Rgb,
    shirt: Rgb,
    stripe: Rgb,
    jeans: Rgb,
    shoe: Rgb,
    iris: Rgb,
}

struct Lens {
    spine: f64,
    chest: f64,
    neck: f64,
    thigh: f64,
    shin: f64,
    foot: f64,
    upper: f64,
    fore: f64,
    hand: f64,
}

struct Angles {
    lean: f64,
    tilt: f64,
    thigh_n: f64,
    shin_n: f64,
    foot_n: f64,
    thigh_f: f64,
    shin_f: f64,
    foot_f: f64,
    upper_n: f64,
    fore_n: f64,
    hand_n: f64,
    upper_f: f64,
    fore_f: f64,
    hand_f: f64,
}

/// Draws the variation of one biped (seed 0: the reference character).
pub fn params(v: &mut Vary) -> Params {
    let lens = Lens {
        spine: 280.0 * v.scale(0.1),
        chest: 300.0 * v.scale(0.08),
        neck: 285.0 * v.scale(0.06),
        thigh: 470.0 * v.scale(0.1),
        shin: 450.0 * v.scale(0.1),
        foot: 230.0 * v.scale(0.08),
        upper: 330.0 * v.scale(0.1),
        fore: 300.0 * v.scale(0.1),
        hand: 150.0 * v.scale(0.08),
    };
    let ang = Angles {
        lean: v.angle(7.0, 4.0),
        tilt: v.angle(0.0, 6.0),
        thigh_n: v.angle(104.0, 5.0),
        shin_n: v.angle(122.0, 5.0),
        foot_n: v.angle(26.0, 6.0),
        thigh_f: v.angle(70.0, 5.0),
        shin_f: v.angle(88.0, 5.0),
        foot_f: v.angle(-6.0, 5.0),
        upper_n: v.angle(70.0, 8.0),
        fore_n: v.angle(22.0, 10.0),
        hand_n: v.angle(16.0, 10.0),
        upper_f: v.angle(112.0, 6.0),
        fore_f: v.angle(126.0, 8.0),
        hand_f: v.angle(118.0, 10.0),
    };
    Params {
        girth: 1.15 * v.scale(0.08),
        limb: 1.12 * v.scale(0.1),
        head: v.scale(0.08),
        lens,
        ang,
        skin: v.pick(&[
            hex(0xf2c6a0),
            hex(0xe0a98a),
            hex(0xc68a64),
            hex(0x8d5a3e),
            hex(0xf7d7bf),
        ]),
        hair: v.pick(&[
            hex(0x4a2c1d),
            hex(0x1e1a24),
            hex(0xc7782e),
            hex(0xe8c66b),
            hex(0x7a2b3a),
        ]),
        shirt: v.pick(&[hex(0xf4f1ea), hex(0xfbe7b0), hex(0xdfe6f5)]),
        stripe: v.pick(&[
            hex(0xd0343a),
            hex(0x2f4fa8),
            hex(0xe08a1e),
            hex(0x7b3fa0),
            hex(0x222028),
        ]),
        jeans: v.pick(&[
            hex(0x3b5a94),
            hex(0x5a4636),
            hex(0x2d2f3a),
            hex(0x8a3b3b),
            hex(0xc49a5a),
        ]),
        shoe: v.pick(&[
            hex(0xd2452f),
            hex(0xf0c020),
            hex(0x3a6fd0),
            hex(0x2a2a2e),
            hex(0xe8e8e8),
        ]),
        iris: v.pick(&[hex(0x3a6ea5), hex(0x6b4a2b), hex(0x4a7a8a), hex(0x7a5ca0)]),
    }
}

/// The biped's parts in declaration order.
pub fn parts(p: &Params, fit: &Fit) -> Vec<Part> {
    let (l, a) = (&p.lens, &p.ang);
    let (g, k, hs) = (p.girth, p.limb, p.head);
    let mut b = Builder::new(fit, INK);
    let up = -FRAC_PI_2 + a.lean;
    let hip = [0.0, 0.0];
    let waist = polar(hip, up, 190.0);

    // Torso.
    let pelvis = b.bone(
        "pelvis",
        None,
        13,
        &[waist, polar(hip, up, 80.0), polar(hip, up, -30.0)],
        &[112.0 * g, 128.0 * g, 112.0 * g],
        p.jeans,
        false,
        None,
    );
    let spine_tip = polar(waist, up, l.spine);
    let spine = b.bone(
        "spine",
        Some("pelvis"),
        12,
        &[waist, polar(waist, up, l.spine * 0.5), spine_tip],
        &[110.0 * g, 106.0 * g, 118.0 * g],
        p.shirt,
        false,
        Some("lowerback"),
    );
    let upc = up - 3f64.to_radians();
    let chest_tip = polar(spine_tip, upc, l.chest);
    let chest = b.bone(
        "chest",
        Some("spine"),
        11,
        &[spine_tip, polar(spine_tip, upc, l.chest * 0.5), chest_tip],
        &[120.0 * g, 134.0 * g, 100.0 * g],
        p.shirt,
        false,
        Some("Chest"),
    );
    let neck_up = -FRAC_PI_2 + a.lean * 0.5 + 0.17;
    let neck_tip = polar(chest_tip, neck_up, l.neck);
    let neck = b.bone(
        "neck",
        Some("chest"),
        14,
        &[chest_tip, neck_tip],
        &[56.0 * k, 52.0 * k],
        p.skin,
        false,
        Some("Neck"),
    );
    let head_up = -FRAC_PI_2 + a.tilt;
    let hf = frame(neck_tip, head_up);
    let head = b.bone(
        "head",
        Some("neck"),
        10,
        &[
            hf(0.0, 0.0),
            hf(95.0 * hs, 50.0 * hs),
            hf(215.0 * hs, 5.0 * hs),
        ],
        &[118.0 * hs, 138.0 * hs, 160.0 * hs],
        p.skin,
        false,
        Some("Head"),
    );

    // Arms start at the side of the chest, the far one a little further back and up.
    let shoulder = frame(polar(spine_tip, upc, l.chest * 0.72), upc)(0.0, -0.32 * 134.0 * g);
    let arm = |b: &mut Builder, s: Pt, angs: [f64; 3], d: i32, far: bool| {
        let joints: [&'static str; 3] = if far {
            ["RightShoulder", "RightElbow", "rhand"]
        } else {
            ["LeftShoulder", "LeftElbow", "lhand"]
        };
        let names: [&'static str; 3] = if far {
            ["upper_arm_far", "forearm_far", "hand_far"]
        } else {
            ["upper_arm_near", "forearm_near", "hand_near"]
        };
        let elbow = polar(s, angs[0], l.upper);
        let wrist = polar(elbow, angs[1], l.fore);
        let up_i = b.bone(
            names[0],
            Some("chest"),
            d,
            &[s, polar(s, angs[0], l.upper * 0.5), elbow],
            &[54.0 * k, 47.0 * k, 42.0 * k],
            p.shirt,
            far,
            Some(joints[0]),
        );
        let fo_i = b.bone(
            names[1],
            Some(names[0]),
            d + 1,
            &[elbow, polar(elbow, angs[1], l.fore * 0.5), wrist],
            &[42.0 * k, 39.0 * k, 34.0 * k],
            p.shirt,
            far,
            Some(joints[1]),
        );
        let hand_pts = [
            wrist,
            polar(wrist, angs[2], l.hand * 0.35),
            polar(wrist, angs[2], l.hand * 0.68),
            polar(wrist, angs[2], l.hand),
        ];
        let ha_i = b.bone(
            names[2],
            Some(names[1]),
            d + 2,
            &hand_pts,
            &[28.0 * k, 38.0 * k, 36.0 * k, 24.0 * k],
            p.skin,
            far,
            Some(joints[2]),
        );
        for i in [up_i, fo_i] {
            b.detail(
                i,
                Detail::new(Region::Stripes(b.fit.l(64.0), b.fit.l(24.0), 0.0), p.stripe),
            );
        }
        let fl = b.fit.l(l.fore);
        b.detail(
            fo_i,
            Detail::new(Region::Along(fl - b.fit.l(34.0), fl * 2.0), hex(0x25305a)),
        );
        // Fingers: two creases along the distal half, a knuckle line and a thumb.
        let hl = b.fit.l(l.hand);
        let crease = hex(0x7a4a3a);
        for u in [-0.3, 0.3] {
            b.detail(
                ha_i,
                Detail::new(
                    Region::All(vec![
                        Region::Along(hl * 0.5, hl * 2.0),
                        Region::Side(u - 0.05, u + 0.05),
                    ]),
                    crease,
                ),
            );
        }
        let thumb = b.shape(Shape::Stroke {
            a: polar(wrist, angs[2] - 0.9, 18.0 * k),
            b: polar(wrist, angs[2] - 0.35, l.hand * 0.55),
            w: 6.0 * k,
        });
        b.detail(ha_i, Detail::new(thumb, crease));
    };
    arm(
        &mut b,
        add(shoulder, [-14.0, -10.0]),
        [a.upper_f, a.fore_f, a.hand_f],
        18,
        true,
    );

    // Legs start beside the pelvis' tip (the hip joints).
    let leg = |b: &mut Builder, s: Pt, angs: [f64; 3], d: i32, far: bool| {
        let (names, joints): ([&'static str; 3], [&'static str; 3]) = if far {
            (
                ["thigh_far", "shin_far", "foot_far"],
                ["RightHip", "RightKnee", "RightAnkle"],
            )
        } else {
            (
                ["thigh_near", "shin_near", "foot_near"],
                ["LeftHip", "LeftKnee", "LeftAnkle"],
            )
        };
        let knee = polar(s, angs[0], l.thigh);
        let ankle = polar(knee, angs[1], l.shin);
        let ball = polar(ankle, angs[2], l.foot * 0.55);
        let toe = polar(ball, angs[2] - 0.25, l.foot * 0.45);
        let th = b.bone(
            names[0],
            Some("pelvis"),
            d,
            &[s, polar(s, angs[0], l.thigh * 0.5), knee],
            &[92.0 * k, 78.0 * k, 62.0 * k],
            p.jeans,
            far,
            Some(joints[0]),
        );
        let sh = b.bone(
            names[1],
            Some(names[0]),
            d + 1,
            &[knee, polar(knee, angs[1], l.shin * 0.5), ankle],
            &[60.0 * k, 54.0 * k, 48.0 * k],
            p.jeans,
            far,
            Some(joints[1]),
        );
        let ft = b.bone(
            names[2],
            Some(names[1]),
            d + 2,
            &[ankle, ball, toe],
            &[46.0 * k, 48.0 * k, 40.0 * k],
            p.shoe,
            far,
            Some(joints[2]),
        );
        let seam = mix(p.jeans, INK, 0.45);
        for i in [th, sh] {
            b.detail(i, Detail::new(Region::Side(0.42, 0.48), seam));
        }
        let sl = b.fit.l(l.shin);
        b.detail(
            sh,
            Detail::new(
                Region::Along(sl - b.fit.l(46.0), sl * 2.0),
                mix(p.jeans, [1.0; 3], 0.25),
            ),
        );
        b.detail(
            sh,
            Detail::new(
                Region::All(vec![
                    Region::Along(sl - b.fit.l(49.0), sl - b.fit.l(43.0)),
                    Region::Side(-2.0, 2.0),
                ]),
                seam,
            ),
        );
        let fl = b.fit.l(l.foot);
        b.parts[ft].gloss = 0.35;
        b.detail(ft, Detail::new(Region::Side(0.5, 3.0), hex(0xf2f0ea)));
        b.detail(
            ft,
            Detail::new(
                Region::All(vec![
                    Region::Along(fl * 0.8, fl * 3.0),
                    Region::Side(-3.0, 0.5),
                ]),
                hex(0xf2f0ea),
            ),
        );
        b.detail(
            ft,
            Detail::new(
                Region::All(vec![
                    Region::Along(fl * 0.18, fl * 0.55),
                    Region::Side(-0.95, -0.4),
                    Region::Stripes(b.fit.l(26.0), b.fit.l(8.0), 0.0),
                ]),
                hex(0xf8f6f0),
            ),
        );
    };
    leg(
        &mut b,
        [10.0, -4.0],
        [a.thigh_f, a.shin_f, a.foot_f],
        15,
        true,
    );
    leg(
        &mut b,
        [-6.0, 0.0],
        [a.thigh_n, a.shin_n, a.foot_n],
        7,
        false,
    );
    arm(&mut b, shoulder, [a.upper_n, a.fore_n, a.hand_n], 4, false);

    // Torso details: shirt stripes, belt and buckle, collar, jeans seam.
    for i in [spine, chest] {
        b.detail(
            i,
            Detail::new(
                Region::Stripes(b.fit.l(64.0), b.fit.l(24.0), b.fit.l(40.0)),
                p.stripe,
            ),
        );
    }
    // Below the waist the spine's cap is the top of the jeans, then the belt.
    b.detail(spine, Detail::new(Region::Along(-1e9, 0.0), p.jeans));
    b.detail(
        spine,
        Detail::new(Region::Along(0.0, b.fit.l(34.0)), hex(0x5b3a22)),
    );
    b.merge(spine, "pelvis");
    b.merge(chest, "spine");
    let thigh_near = b
        .parts
        .iter()
        .position(|q| q.name == "thigh_near")
        .expect("declared");
    b.merge(thigh_near, "pelvis");
    let buckle = b.shape(Shape::Ellipse {
        c: frame(waist, up)(14.0, 104.0 * g),
        rx: 16.0,
        ry: 22.0,
        angle: a.lean,
    });
    b.detail(spine, Detail::new(buckle, hex(0xe2c35a)));
    let collar = b.shape(Shape::Stroke {
        a: frame(chest_tip, neck_up)(100.0 * g - 30.0, -60.0 * k),
        b: frame(chest_tip, neck_up)(100.0 * g - 12.0, 58.0 * k),
        w: 34.0,
    });
    b.detail(chest, Detail::new(collar, hex(0x25305a)));
    b.detail(
        pelvis,
        Detail::new(Region::Side(-0.1, -0.04), mix(p.jeans, INK, 0.45)),
    );

    // Face.
    let skin_dark = mix(p.skin, INK, 0.35);
    let ear = b.shape(Shape::Ellipse {
        c: hf(115.0 * hs, -25.0 * hs),
        rx: 30.0 * hs,
        ry: 44.0 * hs,
        angle: a.tilt,
    });
    b.detail(head, Detail::new(ear.clone(), mix(p.skin, INK, 0.12)));
    let ear_in = b.shape(Shape::Stroke {
        a: hf(130.0 * hs, -25.0 * hs),
        b: hf(100.0 * hs, -17.0 * hs),
        w: 7.0 * hs,
    });
    b.detail(head, Detail::new(ear_in, skin_dark));
    let hair_cap = b.shape(Shape::Disc {
        c: hf(220.0 * hs, -60.0 * hs),
        r: 190.0 * hs,
    });
    b.detail(head, Detail::new(hair_cap, p.hair));
    let bangs = b.shape(Shape::Cone {
        a: hf(255.0 * hs, 30.0 * hs),
        b: hf(177.0 * hs, 150.0 * hs),
        r1: 62.0 * hs,
        r2: 18.0 * hs,
    });
    b.detail(head, Detail::new(bangs, p.hair));
    let fringe = b.shape(Shape::Cone {
        a: hf(315.0 * hs, 40.0 * hs),
        b: hf(215.0 * hs, 178.0 * hs),
        r1: 74.0 * hs,
        r2: 22.0 * hs,
    });
    b.detail(head, Detail::new(fringe, p.hair));
    let blush = b.shape(Shape::Ellipse {
        c: hf(65.0 * hs, 125.0 * hs),
        rx: 30.0 * hs,
        ry: 17.0 * hs,
        angle: a.tilt,
    });
    b.detail(head, Detail::new(blush, hex(0xf07a7a)).alpha(0.35));
    let eye = hf(140.0 * hs, 132.0 * hs);
    let white = b.shape(Shape::Ellipse {
        c: eye,
        rx: 22.0 * hs,
        ry: 33.0 * hs,
        angle: a.tilt,
    });
    b.detail(head, Detail::new(white, hex(0xfbfbf8)));
    let iris = b.shape(Shape::Ellipse {
        c: add(eye, [8.0 * hs, 2.0 * hs]),
        rx: 16.0 * hs,
        ry: 25.0 * hs,
        angle: a.tilt,
    });
    b.detail(head, Detail::new(iris, p.iris));
    let pupil = b.shape(Shape::Disc {
        c: add(eye, [11.0 * hs, 4.0 * hs]),
        r: 10.0 * hs,
    });
    b.detail(head, Detail::new(pupil, hex(0x141018)));
    let lid = b.shape(Shape::Stroke {
        a: hf(176.0 * hs, 108.0 * hs),
        b: hf(172.0 * hs, 156.0 * hs),
        w: 7.0 * hs,
    });
    b.detail(head, Detail::new(lid, hex(0x201418)));
    let brow = b.shape(Shape::Stroke {
        a: hf(212.0 * hs, 102.0 * hs),
        b: hf(218.0 * hs, 154.0 * hs),
        w: 9.0 * hs,
    });
    b.detail(head, Detail::new(brow, mix(p.hair, INK, 0.3)));
    let nose = b.shape(Shape::Stroke {
        a: hf(98.0 * hs, 168.0 * hs),
        b: hf(84.0 * hs, 176.0 * hs),
        w: 6.0 * hs,
    });
    b.detail(head, Detail::new(nose, skin_dark));
    let mouth = b.shape(Shape::Stroke {
        a: hf(32.0 * hs, 122.0 * hs),
        b: hf(28.0 * hs, 146.0 * hs),
        w: 6.0 * hs,
    });
    b.detail(head, Detail::new(mouth, hex(0x8a2c30)));
    let glint = b.shape(Shape::Disc {
        c: add(eye, [4.0 * hs, -12.0 * hs]),
        r: 6.0 * hs,
    });
    b.detail(head, Detail::new(glint, hex(0xffffff)).unlit());

    // Hair spikes beyond the head's tube (over the key only: nothing is drawn above the head).
    let hair_ink = p.hair;
    for (along, across, dir, len) in [
        (320.0, -110.0, -0.9, 96.0),
        (345.0, -25.0, -0.45, 90.0),
        (335.0, 60.0, -0.1, 72.0),
    ] {
        let base = hf(along * hs, across * hs);
        let tip = polar(base, head_up + dir, len * hs);
        let s = Shape::Cone {
            a: fit.p(base),
            b: fit.p(tip),
            r1: fit.l(26.0 * hs),
            r2: fit.l(5.0 * hs),
        };
        b.parts[head].extras.push((s, hair_ink));
    }
    let _ = neck;
    b.parts
}
