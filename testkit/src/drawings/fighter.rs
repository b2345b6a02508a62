//! The neutral-stance fighter (issue 42): a boxer facing right in a three-quarter stance,
//! guard up — the reference a kit of strikes starts from. The torso is turned towards the
//! viewer (the singlet's front seam and the navel sit forward of the trunk's axis, the chest
//! is wide), the lead (near, the capture's left) leg forward, the rear leg back; both arms
//! bent up in guard: the near glove at the chin in front of everything, the far arm hanging
//! from a shoulder hidden behind the chest, its glove partly behind the chest. The angles
//! are those of the boxing capture's guard (CMU 79_08, 2.27 s) as the side projection draws
//! it, so a strike cut from guard starts where the drawing stands.
//!
//! 17 bones; names, joints and depths as the biped's (near arm nearest, the far arm and the
//! far leg behind the body), the `mocap` map in the MotionBuilder names of the CMU captures
//! in `assets/mocap/` (`LeftArm` is the upper arm).

use std::f64::consts::FRAC_PI_2;

use super::paint::{Pt, Rgb, Shape, hex, mix};
use super::part::{Detail, Part, Region};
use super::pose::{Builder, Fit, add, frame, polar};
use super::vary::Vary;

/// Outline ink.
const INK: Rgb = hex(0x231a22);

/// Proportions, pose and palette (design units ≈ pixels at 1696×2528).
pub struct Params {
    girth: f64,
    limb: f64,
    head: f64,
    lens: [f64; 9],
    ang: [f64; 14],
    skin: Rgb,
    hair: Rgb,
    singlet: Rgb,
    trim: Rgb,
    trunks: Rgb,
    glove: Rgb,
    boot: Rgb,
}

// lens: spine, chest, neck, thigh, shin, foot, upper arm, forearm, glove
// ang (degrees, y down): lean, tilt, thigh/shin/foot near, thigh/shin/foot far,
//   upper/fore/glove near, upper/fore/glove far
const LENS: [f64; 9] = [
    270.0, 290.0, 250.0, 460.0, 440.0, 220.0, 320.0, 290.0, 150.0,
];
const ANGS: [f64; 14] = [
    12.0, 4.0, 72.0, 104.0, 8.0, 102.0, 112.0, -4.0, 76.0, -41.0, -36.0, 104.0, -28.0, -24.0,
];

/// Draws the variation of one fighter (seed 0: the reference).
pub fn params(v: &mut Vary) -> Params {
    let spread = [0.08, 0.06, 0.06, 0.08, 0.08, 0.06, 0.08, 0.08, 0.06];
    let lens = std::array::from_fn(|i| LENS[i] * v.scale(spread[i]));
    let ang = std::array::from_fn(|i| v.angle(ANGS[i], if i < 2 { 3.0 } else { 5.0 }));
    Params {
        girth: 1.42 * v.scale(0.06),
        limb: 1.15 * v.scale(0.08),
        head: 1.12 * v.scale(0.06),
        lens,
        ang,
        skin: v.pick(&[hex(0xe9b48f), hex(0xc68a64), hex(0x8d5a3e), hex(0xf2c6a0)]),
        hair: v.pick(&[hex(0x1e1a24), hex(0x4a2c1d), hex(0x7a2b3a)]),
        singlet: v.pick(&[hex(0xf3d34a), hex(0xf1f1ea), hex(0x5bc0be)]),
        trim: v.pick(&[hex(0x1f3f8f), hex(0x202028), hex(0xc0392b)]),
        trunks: v.pick(&[hex(0x2949a8), hex(0x1e1e24), hex(0x2e8b57)]),
        glove: v.pick(&[hex(0xd62828), hex(0xc1121f), hex(0x9d0208)]),
        boot: v.pick(&[hex(0x1c1c22), hex(0xf0f0f0), hex(0x6d2e46)]),
    }
}

/// The fighter's parts in declaration order.
pub fn parts(p: &Params, fit: &Fit) -> Vec<Part> {
    let (l, a) = (&p.lens, &p.ang);
    let (g, k, hs) = (p.girth, p.limb, p.head);
    let mut b = Builder::new(fit, INK);
    let up = -FRAC_PI_2 + a[0];
    let hip = [0.0, 0.0];
    let waist = polar(hip, up, 180.0);

    // The trunk, turned three-quarter: wide, its front (the seam) forward of the axis.
    let pelvis = b.bone(
        "pelvis",
        None,
        13,
        &[waist, polar(hip, up, 70.0), polar(hip, up, -40.0)],
        &[118.0 * g, 130.0 * g, 112.0 * g],
        p.trunks,
        false,
        None,
    );
    let spine_tip = polar(waist, up, l[0]);
    let spine = b.bone(
        "spine",
        Some("pelvis"),
        12,
        &[waist, polar(waist, up, l[0] * 0.5), spine_tip],
        &[108.0 * g, 112.0 * g, 126.0 * g],
        p.singlet,
        false,
        Some("Spine"),
    );
    let upc = up - 2f64.to_radians();
    let chest_tip = polar(spine_tip, upc, l[1]);
    let chest = b.bone(
        "chest",
        Some("spine"),
        11,
        &[spine_tip, polar(spine_tip, upc, l[1] * 0.5), chest_tip],
        &[128.0 * g, 146.0 * g, 84.0 * g],
        p.singlet,
        false,
        Some("Spine1"),
    );
    let neck_up = -FRAC_PI_2 + a[0] * 0.4 + 0.1;
    let neck_tip = polar(chest_tip, neck_up, l[2]);
    let neck = b.bone(
        "neck",
        Some("chest"),
        14,
        &[chest_tip, neck_tip],
        &[70.0 * k, 64.0 * k],
        p.skin,
        false,
        Some("Neck"),
    );
    let head_up = -FRAC_PI_2 + a[1];
    let hf = frame(neck_tip, head_up);
    let head = b.bone(
        "head",
        Some("neck"),
        10,
        &[
            hf(0.0, 0.0),
            hf(95.0 * hs, 40.0 * hs),
            hf(205.0 * hs, 10.0 * hs),
        ],
        &[112.0 * hs, 132.0 * hs, 150.0 * hs],
        p.skin,
        false,
        Some("Head"),
    );

    // Shoulders: the near one at the back of the chest, the far one forward and a little up,
    // both inside the chest's tube (the far one hidden behind it).
    let cf = frame(polar(spine_tip, upc, l[1] * 0.74), upc);
    let near_sh = cf(0.0, -0.42 * 146.0 * g);
    let far_sh = add(cf(16.0, 0.84 * 146.0 * g), [0.0, -6.0]);
    let arm = |b: &mut Builder, s: Pt, angs: [f64; 3], d: [i32; 3], far: bool| {
        let (names, joints): ([&'static str; 3], [&'static str; 3]) = if far {
            (
                ["upper_arm_far", "forearm_far", "hand_far"],
                ["RightArm", "RightForeArm", "RightHand"],
            )
        } else {
            (
                ["upper_arm_near", "forearm_near", "hand_near"],
                ["LeftArm", "LeftForeArm", "LeftHand"],
            )
        };
        let elbow = polar(s, angs[0], l[6]);
        let wrist = polar(elbow, angs[1], l[7]);
        let up_i = b.bone(
            names[0],
            Some("chest"),
            d[0],
            &[s, polar(s, angs[0], l[6] * 0.5), elbow],
            &[58.0 * k, 52.0 * k, 45.0 * k],
            p.skin,
            far,
            Some(joints[0]),
        );
        let fo_i = b.bone(
            names[1],
            Some(names[0]),
            d[1],
            &[elbow, polar(elbow, angs[1], l[7] * 0.5), wrist],
            &[45.0 * k, 42.0 * k, 38.0 * k],
            p.skin,
            far,
            Some(joints[1]),
        );
        // the glove: a big rounded fist with a cuff at the wrist
        let glove_pts = [
            wrist,
            polar(wrist, angs[2], l[8] * 0.4),
            polar(wrist, angs[2], l[8] * 0.78),
            polar(wrist, angs[2], l[8]),
        ];
        let gl_i = b.bone(
            names[2],
            Some(names[1]),
            d[2],
            &glove_pts,
            &[44.0 * k, 66.0 * k, 70.0 * k, 56.0 * k],
            p.glove,
            far,
            Some(joints[2]),
        );
        let gl = b.fit.l(l[8]);
        b.detail(
            gl_i,
            Detail::new(Region::Along(-1e9, gl * 0.22), hex(0xf4f1ea)),
        );
        b.detail(
            gl_i,
            Detail::new(
                Region::All(vec![
                    Region::Along(gl * 0.3, gl * 0.95),
                    Region::Side(-0.9, -0.55),
                ]),
                mix(p.glove, INK, 0.35),
            ),
        );
        b.parts[gl_i].gloss = 0.45;
        // a wrap band on the forearm, a bicep line
        let fl = b.fit.l(l[7]);
        b.detail(
            fo_i,
            Detail::new(Region::Along(fl * 0.72, fl * 2.0), hex(0xf4f1ea)),
        );
        b.detail(
            up_i,
            Detail::new(Region::Side(0.55, 0.62), mix(p.skin, INK, 0.3)),
        );
    };
    arm(&mut b, far_sh, [a[11], a[12], a[13]], [18, 19, 20], true);

    // Legs from beside the pelvis' tip: the rear (far) leg back, the lead (near) forward.
    let leg = |b: &mut Builder, s: Pt, angs: [f64; 3], d: i32, far: bool| {
        let (names, joints): ([&'static str; 3], [&'static str; 3]) = if far {
            (
                ["thigh_far", "shin_far", "foot_far"],
                ["RightUpLeg", "RightLeg", "RightFoot"],
            )
        } else {
            (
                ["thigh_near", "shin_near", "foot_near"],
                ["LeftUpLeg", "LeftLeg", "LeftFoot"],
            )
        };
        let knee = polar(s, angs[0], l[3]);
        let ankle = polar(knee, angs[1], l[4]);
        let ball = polar(ankle, angs[2], l[5] * 0.55);
        let toe = polar(ball, angs[2] - 0.2, l[5] * 0.45);
        let th = b.bone(
            names[0],
            Some("pelvis"),
            d,
            &[s, polar(s, angs[0], l[3] * 0.5), knee],
            &[88.0 * k, 74.0 * k, 58.0 * k],
            p.skin,
            far,
            Some(joints[0]),
        );
        let sh = b.bone(
            names[1],
            Some(names[0]),
            d + 1,
            &[knee, polar(knee, angs[1], l[4] * 0.5), ankle],
            &[56.0 * k, 50.0 * k, 46.0 * k],
            p.skin,
            far,
            Some(joints[1]),
        );
        let ft = b.bone(
            names[2],
            Some(names[1]),
            d + 2,
            &[ankle, ball, toe],
            &[50.0 * k, 46.0 * k, 38.0 * k],
            p.boot,
            far,
            Some(joints[2]),
        );
        // trunks' leg over the upper thigh, the boot's shaft over the lower shin, laces
        let tl = b.fit.l(l[3]);
        b.detail(th, Detail::new(Region::Along(-1e9, tl * 0.38), p.trunks));
        b.detail(
            th,
            Detail::new(Region::Along(tl * 0.34, tl * 0.38), hex(0xf4f1ea)),
        );
        let sl = b.fit.l(l[4]);
        b.detail(sh, Detail::new(Region::Along(sl * 0.72, sl * 2.0), p.boot));
        b.detail(
            sh,
            Detail::new(
                Region::All(vec![
                    Region::Along(sl * 0.74, sl * 2.0),
                    Region::Side(0.1, 0.3),
                    Region::Stripes(b.fit.l(20.0), b.fit.l(6.0), 0.0),
                ]),
                hex(0xe8e8e8),
            ),
        );
        b.parts[ft].gloss = 0.3;
        let fl = b.fit.l(l[5]);
        b.detail(
            ft,
            Detail::new(Region::Side(0.55, 3.0), mix(p.boot, hex(0xffffff), 0.55)),
        );
        b.detail(
            ft,
            Detail::new(Region::Along(fl * 0.85, fl * 3.0), mix(p.boot, INK, 0.4)),
        );
    };
    leg(&mut b, [24.0, -6.0], [a[5], a[6], a[7]], 15, true);
    leg(&mut b, [-14.0, 0.0], [a[2], a[3], a[4]], 7, false);
    arm(&mut b, near_sh, [a[8], a[9], a[10]], [4, 3, 2], false);

    // The trunk's front: the singlet's front seam and trim, the waistband, the navel and the
    // pecs' line forward of the axis (the body turned towards the viewer).
    for i in [spine, chest] {
        b.detail(
            i,
            Detail::new(Region::Side(0.3, 0.36), mix(p.singlet, INK, 0.25)),
        );
    }
    // the far pec's lower line, forward of the seam
    let pec = b.shape(Shape::Stroke {
        a: frame(spine_tip, upc)(l[1] * 0.42, 0.38 * 146.0 * g),
        b: frame(spine_tip, upc)(l[1] * 0.36, 0.78 * 146.0 * g),
        w: 8.0,
    });
    b.detail(chest, Detail::new(pec, mix(p.singlet, INK, 0.3)));
    b.detail(chest, Detail::new(Region::Side(0.86, 3.0), p.trim));
    b.detail(spine, Detail::new(Region::Side(0.86, 3.0), p.trim));
    b.detail(
        chest,
        Detail::new(Region::Along(b.fit.l(l[1] * 0.93), 1e9), p.skin),
    );
    b.detail(spine, Detail::new(Region::Along(-1e9, 0.0), p.trunks));
    b.detail(
        spine,
        Detail::new(Region::Along(0.0, b.fit.l(30.0)), hex(0xf4f1ea)),
    );
    b.detail(
        pelvis,
        Detail::new(Region::Side(0.3, 0.36), mix(p.trunks, INK, 0.4)),
    );
    b.merge(spine, "pelvis");
    b.merge(chest, "spine");
    let thigh_near = b
        .parts
        .iter()
        .position(|q| q.name == "thigh_near")
        .expect("declared");
    b.merge(thigh_near, "pelvis");

    // Face, three-quarter: the ear back, the eye and the brow forward.
    let ear = b.shape(Shape::Ellipse {
        c: hf(100.0 * hs, -28.0 * hs),
        rx: 26.0 * hs,
        ry: 40.0 * hs,
        angle: a[1],
    });
    b.detail(head, Detail::new(ear, mix(p.skin, INK, 0.15)));
    let hair = b.shape(Shape::Disc {
        c: hf(230.0 * hs, -85.0 * hs),
        r: 165.0 * hs,
    });
    b.detail(head, Detail::new(hair, p.hair));
    let eye = hf(132.0 * hs, 112.0 * hs);
    let white = b.shape(Shape::Ellipse {
        c: eye,
        rx: 18.0 * hs,
        ry: 26.0 * hs,
        angle: a[1],
    });
    b.detail(head, Detail::new(white, hex(0xfbfbf8)));
    let pupil = b.shape(Shape::Disc {
        c: add(eye, [7.0 * hs, 2.0 * hs]),
        r: 9.0 * hs,
    });
    b.detail(head, Detail::new(pupil, hex(0x141018)));
    let brow = b.shape(Shape::Stroke {
        a: hf(168.0 * hs, 92.0 * hs),
        b: hf(160.0 * hs, 140.0 * hs),
        w: 12.0 * hs,
    });
    b.detail(head, Detail::new(brow, mix(p.hair, INK, 0.3)));
    let nose = b.shape(Shape::Stroke {
        a: hf(96.0 * hs, 150.0 * hs),
        b: hf(80.0 * hs, 158.0 * hs),
        w: 7.0 * hs,
    });
    b.detail(head, Detail::new(nose, mix(p.skin, INK, 0.4)));
    let mouth = b.shape(Shape::Stroke {
        a: hf(36.0 * hs, 112.0 * hs),
        b: hf(32.0 * hs, 136.0 * hs),
        w: 7.0 * hs,
    });
    b.detail(head, Detail::new(mouth, hex(0x8a2c30)));
    let mouthguard = b.shape(Shape::Ellipse {
        c: hf(40.0 * hs, 126.0 * hs),
        rx: 8.0 * hs,
        ry: 14.0 * hs,
        angle: a[1],
    });
    b.detail(head, Detail::new(mouthguard, hex(0x3aa0e0)));
    let _ = (neck, pelvis);
    b.parts
}
