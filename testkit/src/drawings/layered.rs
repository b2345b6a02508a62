//! Layered characters (issue 24): painted as an artist layers them, not as tubes. A garment
//! (dress, coat or skirt) wider than any tube over the thighs, a hat or a hair bun and a
//! ponytail, mittens with thumbs, shoes with soles, bulging calves and forearms, a sleeve the
//! colour of the shirt, a stick held in the near hand. The painted shapes are multi-point tubes
//! with bulges plus extras (thumb, sole, brim, bun); the **declaration is written as a user
//! would** (rig.md "How to draw one"): the same joints, radii a little wider than the paint
//! (the largest painted radius near each point × 1.08 + 6 px), a garment's polyline ended about
//! one radius above its hem, extras (a hat's brim, a thumb) left outside the tubes. Truth labels
//! are the top-most painted layer (the painter's rule). Facing left is the right-facing
//! character mirrored; its near limbs take the capture's Right joints.

use super::paint::{Pt, Rgb, Shape, Tube, hex, round1};
use super::part::{Detail, Part, Region};
use super::pose::{Builder, Fit};
use super::vary::Vary;

/// Outline ink.
const INK: Rgb = hex(0x241a22);

/// Which layered character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// A girl facing left: a flared dress over hidden thighs, a brimmed hat and a ponytail,
    /// mittens, a stick; the pelvis is declared `"part": false`.
    Girl,
    /// A boy facing right: a coat to mid-thigh, a cap, bulging forearms, a stick.
    Coat,
    /// A kid facing left: a short skirt, a hair bun, a long stick.
    Skirt,
}

/// The garment's end point (design units, below the waist) and its radius there.
fn garment(v: Variant) -> (f64, f64) {
    match v {
        Variant::Girl => (330.0, 280.0),
        Variant::Coat => (150.0, 190.0),
        Variant::Skirt => (20.0, 190.0),
    }
}

struct Palette {
    skin: Rgb,
    hair: Rgb,
    shirt: Rgb,
    garment: Rgb,
    band: Rgb,
    legs: Rgb,
    shoe: Rgb,
    sole: Rgb,
    mitten: Rgb,
    hat: Rgb,
    stick: Rgb,
}

fn palette(v: Variant, r: &mut Vary) -> Palette {
    let pick = |r: &mut Vary, a: &[Rgb]| r.pick(a);
    match v {
        Variant::Girl => Palette {
            skin: pick(r, &[hex(0xf2c6a0), hex(0xc68a64)]),
            hair: pick(r, &[hex(0x6a3a1e), hex(0x1e1a24)]),
            shirt: hex(0xf3e6b5),
            garment: pick(r, &[hex(0xc8323c), hex(0x7b3fa0)]),
            band: hex(0xf2b84a),
            legs: hex(0xeeeeea),
            shoe: hex(0x5a3626),
            sole: hex(0x2a2124),
            mitten: hex(0x2f7f5a),
            hat: hex(0xd9a441),
            stick: hex(0x8a5a2b),
        },
        Variant::Coat => Palette {
            skin: pick(r, &[hex(0xe0a98a), hex(0x8d5a3e)]),
            hair: hex(0x2b2020),
            shirt: hex(0x3d6b8f),
            garment: pick(r, &[hex(0x8a6a3a), hex(0x4a5a3a)]),
            band: hex(0xd8c8a0),
            legs: hex(0x3a3a48),
            shoe: hex(0x1f1f24),
            sole: hex(0xb8a890),
            mitten: hex(0xe0a98a),
            hat: hex(0xc03a2a),
            stick: hex(0x6b4a2a),
        },
        Variant::Skirt => Palette {
            skin: pick(r, &[hex(0xf7d7bf), hex(0xe0a98a)]),
            hair: hex(0xe8c66b),
            shirt: hex(0x58a05a),
            garment: hex(0x2f4fa8),
            band: hex(0xe08a1e),
            legs: hex(0xd0343a),
            shoe: hex(0xe8e8e8),
            sole: hex(0x3a6fd0),
            mitten: hex(0xf0c020),
            hat: hex(0xe8c66b),
            stick: hex(0x9a9a9a),
        },
    }
}

/// The parts of one layered character, facing right (declaration order).
pub fn parts(v: Variant, seed: u64, fit: &Fit) -> Vec<Part> {
    let mut r = Vary::new(seed);
    let pal = palette(v, &mut r);
    let k = r.scale(0.06);
    let lean = r.angle(0.0, 3.0);
    let mut b = Builder::new(fit, INK);
    let at = |x: f64, y: f64| -> Pt { [x * k + lean.sin() * -y, y * k] };
    let waist = at(0.0, -170.0);
    // pelvis: under the garment
    b.bone(
        "pelvis",
        None,
        15,
        &[waist, at(0.0, 30.0)],
        &[100.0 * k, 100.0 * k],
        pal.legs,
        false,
        None,
    );
    let torso = b.bone(
        "torso",
        Some("pelvis"),
        10,
        &[waist, at(8.0, -430.0), at(14.0, -560.0)],
        &[92.0 * k, 122.0 * k, 84.0 * k],
        pal.shirt,
        false,
        Some("Chest"),
    );
    b.bone(
        "neck",
        Some("torso"),
        12,
        &[at(14.0, -560.0), at(22.0, -665.0)],
        &[40.0 * k, 38.0 * k],
        pal.skin,
        false,
        Some("Neck"),
    );
    let head = b.bone(
        "head",
        Some("neck"),
        9,
        &[at(22.0, -665.0), at(40.0, -780.0), at(34.0, -900.0)],
        &[96.0 * k, 132.0 * k, 120.0 * k],
        pal.skin,
        false,
        Some("Head"),
    );
    // eye and mouth (facing right: +x is the face)
    let eye = b.shape(Shape::Ellipse {
        c: at(110.0, -800.0),
        rx: 14.0 * k,
        ry: 22.0 * k,
        angle: 0.0,
    });
    b.detail(head, Detail::new(eye, hex(0x1a1418)));
    let mouth = b.shape(Shape::Stroke {
        a: at(120.0, -720.0),
        b: at(96.0, -712.0),
        w: 7.0 * k,
    });
    b.detail(head, Detail::new(mouth, hex(0x8a2c30)));
    let hair_cap = b.shape(Shape::Disc {
        c: at(-10.0, -850.0),
        r: 118.0 * k,
    });
    b.detail(head, Detail::new(hair_cap, pal.hair));
    // ponytail (behind the head) or a bun
    let tail = b.bone(
        "hair",
        Some("head"),
        11,
        &[at(-90.0, -830.0), at(-230.0, -740.0), at(-270.0, -600.0)],
        &[44.0 * k, 56.0 * k, 26.0 * k],
        pal.hair,
        false,
        None,
    );
    if v == Variant::Skirt {
        let bun = Shape::Disc {
            c: fit.p(at(-120.0, -930.0)),
            r: fit.l(70.0 * k),
        };
        b.parts[tail].extras.push((bun, pal.hair));
    }
    // hat or cap (nearest of the head's layers)
    if v != Variant::Skirt {
        let hat = b.bone(
            "hat",
            Some("head"),
            7,
            &[at(30.0, -905.0), at(36.0, -1010.0)],
            &[118.0 * k, 96.0 * k],
            pal.hat,
            false,
            None,
        );
        let brim = if v == Variant::Girl {
            Shape::Ellipse {
                c: fit.p(at(30.0, -905.0)),
                rx: fit.l(165.0 * k),
                ry: fit.l(26.0 * k),
                angle: 0.0,
            }
        } else {
            Shape::Ellipse {
                c: fit.p(at(130.0, -915.0)),
                rx: fit.l(120.0 * k),
                ry: fit.l(20.0 * k),
                angle: -0.08,
            }
        };
        b.parts[hat].extras.push((brim, pal.hat));
        let band = b.shape(Shape::Stroke {
            a: at(-90.0, -935.0),
            b: at(150.0, -935.0),
            w: 24.0 * k,
        });
        b.detail(hat, Detail::new(band, pal.band));
    }
    // the garment, nearer than the torso and the legs
    let (gy, gr) = garment(v);
    let g = b.bone(
        "garment",
        Some("pelvis"),
        6,
        &[waist, at(0.0, gy)],
        &[104.0 * k, gr * k],
        pal.garment,
        false,
        None,
    );
    let gl = fit.l(((gy + 170.0) * k).hypot(0.0));
    b.detail(
        g,
        Detail::new(Region::Along(gl + fit.l(gr * k) * 0.55, 1e9), pal.band),
    );
    // legs: far then near
    let leg = |b: &mut Builder, s: Pt, d: i32, far: bool, knee_dx: f64, ankle_dx: f64| {
        let names = if far {
            ["thigh_far", "shin_far", "foot_far"]
        } else {
            ["thigh_near", "shin_near", "foot_near"]
        };
        let joints = if far {
            ["RightHip", "RightKnee", "RightAnkle"]
        } else {
            ["LeftHip", "LeftKnee", "LeftAnkle"]
        };
        let knee = [s[0] + knee_dx * k, s[1] + 430.0 * k];
        let ankle = [knee[0] + ankle_dx * k, knee[1] + 410.0 * k];
        b.bone(
            names[0],
            Some("pelvis"),
            d,
            &[s, [(s[0] + knee[0]) / 2.0, (s[1] + knee[1]) / 2.0], knee],
            &[70.0 * k, 62.0 * k, 48.0 * k],
            pal.legs,
            far,
            Some(joints[0]),
        );
        b.bone(
            names[1],
            Some(names[0]),
            d - 1,
            &[
                knee,
                [
                    knee[0] + 0.35 * (ankle[0] - knee[0]),
                    knee[1] + 0.35 * (ankle[1] - knee[1]),
                ],
                ankle,
            ],
            &[46.0 * k, 62.0 * k, 34.0 * k],
            pal.legs,
            far,
            Some(joints[1]),
        );
        let ball = [ankle[0] + 120.0 * k, ankle[1] + 40.0 * k];
        let toe = [ball[0] + 80.0 * k, ball[1] + 6.0 * k];
        let f = b.bone(
            names[2],
            Some(names[1]),
            d - 2,
            &[ankle, ball, toe],
            &[44.0 * k, 46.0 * k, 38.0 * k],
            pal.shoe,
            far,
            Some(joints[2]),
        );
        let sole = Shape::Stroke {
            a: b.fit.p([ankle[0] - 40.0 * k, ankle[1] + 46.0 * k]),
            b: b.fit.p([toe[0] + 30.0 * k, toe[1] + 38.0 * k]),
            w: b.fit.l(26.0 * k),
        };
        b.parts[f].extras.push((sole, pal.sole));
    };
    leg(&mut b, at(14.0, -10.0), 18, true, 70.0, -40.0);
    leg(&mut b, at(-10.0, 0.0), 14, false, -60.0, 30.0);
    // arms: far behind the torso, near in front of it (sleeve = shirt colour)
    let arm = |b: &mut Builder, s: Pt, d: i32, far: bool, a: [f64; 3]| {
        let names = if far {
            ["upper_arm_far", "forearm_far", "hand_far"]
        } else {
            ["upper_arm_near", "forearm_near", "hand_near"]
        };
        let joints = if far {
            ["RightShoulder", "RightElbow", "rhand"]
        } else {
            ["LeftShoulder", "LeftElbow", "lhand"]
        };
        let pol = |p: Pt, ang: f64, l: f64| [p[0] + l * ang.cos(), p[1] + l * ang.sin()];
        let elbow = pol(s, a[0], 300.0 * k);
        let wrist = pol(elbow, a[1], 270.0 * k);
        let tip = pol(wrist, a[2], 130.0 * k);
        b.bone(
            names[0],
            Some("torso"),
            d,
            &[s, elbow],
            &[52.0 * k, 44.0 * k],
            pal.shirt,
            far,
            Some(joints[0]),
        );
        let fa = if v == Variant::Coat { 56.0 } else { 48.0 };
        b.bone(
            names[1],
            Some(names[0]),
            d + 1,
            &[elbow, pol(elbow, a[1], 110.0 * k), wrist],
            &[40.0 * k, fa * k, 32.0 * k],
            pal.skin,
            far,
            Some(joints[1]),
        );
        let h = b.bone(
            names[2],
            Some(names[1]),
            d + 2,
            &[wrist, pol(wrist, a[2], 60.0 * k), tip],
            &[34.0 * k, 50.0 * k, 42.0 * k],
            pal.mitten,
            far,
            Some(joints[2]),
        );
        let thumb = Shape::Cone {
            a: b.fit.p(pol(wrist, a[2] - 0.9, 40.0 * k)),
            b: b.fit.p(pol(wrist, a[2] - 0.55, 105.0 * k)),
            r1: b.fit.l(20.0 * k),
            r2: b.fit.l(16.0 * k),
        };
        b.parts[h].extras.push((thumb, pal.mitten));
        tip
    };
    let sh = at(30.0, -470.0);
    arm(
        &mut b,
        [sh[0] - 20.0 * k, sh[1] - 10.0 * k],
        19,
        true,
        [1.95, 1.75, 1.6],
    );
    let tip = arm(&mut b, sh, 2, false, [1.2, 0.55, 0.45]);
    // the stick, held in the near mitten (behind it, in front of everything else)
    let stick_end = [tip[0] + 60.0 * k, tip[1] + 700.0 * k];
    let st = b.bone(
        "stick",
        Some("hand_near"),
        5,
        &[[tip[0] - 30.0 * k, tip[1] - 90.0 * k], stick_end],
        &[15.0 * k, 13.0 * k],
        pal.stick,
        false,
        None,
    );
    let _ = (torso, st);
    b.parts
}

/// The user's declaration of a part: the painted polyline's points, each radius the painted
/// radius there × 1.08 + 6 px (extras — a brim, a thumb, a sole — are left outside, as a user
/// drawing the limb would). A garment's polyline ends at the centre of its round hem, one
/// radius above the hem's lowest point (rig.md "Tube ends are round").
pub fn user_tube(p: &Part) -> Tube {
    let t = &p.tube;
    let n = t.points.len();
    let radii: Vec<f64> = (0..n)
        .map(|i| {
            let m = t.radii[i];
            round1(m * 1.08 + 6.0)
        })
        .collect();
    Tube::new(&t.points, &radii)
}

/// Mirrors every part about the vertical line `x = cx` (a character facing left).
pub fn mirror(parts: &mut [Part], cx: f64) {
    let m = |p: Pt| [2.0 * cx - p[0], p[1]];
    let mt = |t: &Tube| {
        Tube::new(
            &t.points.iter().map(|&p| m(p)).collect::<Vec<_>>(),
            &t.radii,
        )
    };
    let ms = |s: &Shape| match *s {
        Shape::Disc { c, r } => Shape::Disc { c: m(c), r },
        Shape::Ellipse { c, rx, ry, angle } => Shape::Ellipse {
            c: m(c),
            rx,
            ry,
            angle: -angle,
        },
        Shape::Stroke { a, b, w } => Shape::Stroke {
            a: m(a),
            b: m(b),
            w,
        },
        Shape::Cone { a, b, r1, r2 } => Shape::Cone {
            a: m(a),
            b: m(b),
            r1,
            r2,
        },
    };
    fn mr(r: &Region, ms: &dyn Fn(&Shape) -> Shape) -> Region {
        match r {
            Region::Shape(s) => Region::Shape(ms(s)),
            Region::Side(a, b) => Region::Side(-b, -a),
            Region::All(v) => Region::All(v.iter().map(|x| mr(x, ms)).collect()),
            other => other.clone(),
        }
    }
    for p in parts.iter_mut() {
        p.tube = mt(&p.tube);
        if let Some(d) = &p.decl {
            p.decl = Some(mt(d));
        }
        for e in &mut p.extras {
            e.0 = ms(&e.0);
        }
        for d in &mut p.details {
            d.region = mr(&d.region, &ms);
        }
        if let Some((o, n)) = p.hem {
            p.hem = Some((m(o), [-n[0], n[1]]));
        }
        for t in &mut p.merge {
            *t = mt(t);
        }
        if let Some(j) = p.joint {
            p.joint = Some(match j {
                "LeftHip" => "RightHip",
                "RightHip" => "LeftHip",
                "LeftKnee" => "RightKnee",
                "RightKnee" => "LeftKnee",
                "LeftAnkle" => "RightAnkle",
                "RightAnkle" => "LeftAnkle",
                "LeftShoulder" => "RightShoulder",
                "RightShoulder" => "LeftShoulder",
                "LeftElbow" => "RightElbow",
                "RightElbow" => "LeftElbow",
                "lhand" => "rhand",
                "rhand" => "lhand",
                other => other,
            });
        }
    }
}
