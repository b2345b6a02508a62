//! The body of a random character: proportions from chibi to tall, a random standing or
//! walking pose, and what it wears and holds, as parts (one painted layer per bone) in
//! design units, facing right. The painter's order (nearest first) is returned with them.

use super::super::paint::{Pt, Rgb, Shape, hex, mix};
use super::super::part::{Detail, Region};
use super::super::pose::{Builder, Fit, polar};
use super::rng::Rng;

/// Everything drawn from the seed before the parts are built (so the two builds, measuring
/// and fitted, draw the same character).
#[derive(Clone, Debug)]
pub struct Look {
    /// Heads per body height (2 chibi … 7.5 tall).
    pub heads: f64,
    /// Share of the body below the head that is leg.
    pub leg_share: f64,
    /// Width of the build.
    pub bulk: f64,
    /// Lean of the torso (radians, + forward).
    pub lean: f64,
    /// Angles (radians from straight down, + forward): thighs near/far, knee bends,
    /// upper arms, elbow bends, hand tilts.
    pub thigh: [f64; 2],
    /// Knee bends (+ the shin goes back).
    pub knee: [f64; 2],
    /// Upper arm angles.
    pub arm: [f64; 2],
    /// Elbow bends (+ the forearm comes forward).
    pub elbow: [f64; 2],
    /// Wrist tilts.
    pub wrist: [f64; 2],
    /// Foot tilts.
    pub foot: [f64; 2],
    /// Garment.
    pub garment: Garment,
    /// Legwear.
    pub legs: Legwear,
    /// Hair.
    pub hair: Hair,
    /// Hat.
    pub hat: Hat,
    /// Hands.
    pub hands: Hands,
    /// Prop and which hand holds it (0 near, 1 far).
    pub prop: Option<(Prop, usize)>,
    /// Arm layer order, per arm: true = hand nearest (cuffs under the mitten), false = the
    /// upper arm nearest (a sleeve over the forearm).
    pub hand_first: [bool; 2],
    /// The ponytail or bun in front of the torso (else behind it).
    pub hair_front: bool,
    /// Trousers drawn as one shape: the thighs' outlines dissolve into the pelvis.
    pub merged_trousers: bool,
    /// Colours.
    pub pal: Palette,
    /// Far limbs painted darker.
    pub far_tone: bool,
    /// Proportion jitters (limb lengths and radii).
    pub jit: [f64; 12],
    /// Where a garment ends (0 short … 1 long) and how far it flares (0 … 1).
    pub hem: f64,
    /// How far a garment flares (0 … 1).
    pub flare: f64,
    /// The shirt's decoration: 0 a belt, 1 stripes, 2 none.
    pub shirt_deco: u8,
}

/// What is worn over the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Garment {
    /// Nothing over the shirt and legwear.
    None,
    /// A flared dress from the chest to below the knees.
    Dress,
    /// A skirt from the waist to above the knees.
    Skirt,
    /// A coat from the shoulders to mid-thigh, open at the front.
    Coat,
    /// A cape behind the body.
    Cape,
}

/// What covers the legs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Legwear {
    /// Trousers: pelvis, thighs and shins one colour.
    Trousers,
    /// Shorts: pelvis and the thighs' tops one colour, bare shins.
    Shorts,
    /// Stockings or tights of any colour.
    Stockings,
}

/// Hair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hair {
    /// A bun at the back of the head.
    Bun,
    /// A ponytail.
    Ponytail,
    /// Long hair down the back.
    Long,
    /// Spikes over the top of the head, in front of it.
    Spiky,
    /// Short hair painted on the head only (no hair bone).
    Short,
}

/// Hats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hat {
    /// None.
    None,
    /// A cap with a brim forward.
    Cap,
    /// A beanie.
    Beanie,
    /// A top hat (tall, with a brim).
    Tall,
    /// A pointed hat with a brim.
    Wizard,
}

/// Hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hands {
    /// Mittens with a thumb.
    Mittens,
    /// Gloves with fingers.
    Gloves,
    /// Bare hands with fingers.
    Fingers,
}

/// Something held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prop {
    /// A long stick.
    Stick,
    /// A sword with a cross-guard.
    Sword,
    /// A lantern on a short handle.
    Lantern,
    /// A closed umbrella with a hooked handle.
    Umbrella,
}

/// The colours of one character.
#[derive(Clone, Debug)]
pub struct Palette {
    /// Skin.
    pub skin: Rgb,
    /// Hair.
    pub hair: Rgb,
    /// Shirt and sleeves.
    pub shirt: Rgb,
    /// Garment.
    pub garment: Rgb,
    /// Trousers, shorts or stockings.
    pub legs: Rgb,
    /// Shoes.
    pub shoe: Rgb,
    /// Soles.
    pub sole: Rgb,
    /// Gloves or mittens.
    pub glove: Rgb,
    /// Hat.
    pub hat: Rgb,
    /// Prop.
    pub prop: Rgb,
    /// Trim: belts, bands, hems.
    pub trim: Rgb,
    /// Eyes and mouth.
    pub face: Rgb,
}

impl Palette {
    /// Every colour, for the key's distance check.
    pub fn all(&self) -> [Rgb; 12] {
        [
            self.skin,
            self.hair,
            self.shirt,
            self.garment,
            self.legs,
            self.shoe,
            self.sole,
            self.glove,
            self.hat,
            self.prop,
            self.trim,
            self.face,
        ]
    }
}

const SKINS: [u32; 8] = [
    0xf6d5bd, 0xf2c6a0, 0xe0a98a, 0xc68a64, 0x8d5a3e, 0x5e3a28, 0xffe0c8, 0xd9a066,
];
const HAIRS: [u32; 8] = [
    0x1e1a24, 0x6a3a1e, 0xe8c66b, 0xb03a20, 0x9a9aa8, 0x3a2a60, 0x2a6a9a, 0xd86aa0,
];

fn palette(r: &mut Rng) -> Palette {
    let any = |r: &mut Rng| r.hsv((0.25, 0.95), (0.3, 0.95));
    Palette {
        skin: hex(r.pick(&SKINS)),
        hair: hex(r.pick(&HAIRS)),
        shirt: any(r),
        garment: any(r),
        legs: any(r),
        shoe: r.hsv((0.0, 0.8), (0.1, 0.7)),
        sole: r.hsv((0.0, 0.3), (0.15, 0.9)),
        glove: any(r),
        hat: any(r),
        prop: r.hsv((0.2, 0.7), (0.3, 0.8)),
        trim: any(r),
        face: r.hsv((0.0, 0.4), (0.05, 0.2)),
    }
}

/// Draws a look from the seed's source.
pub fn look(r: &mut Rng) -> Look {
    let heads = r.range(2.0, 7.5);
    // chibi legs are short
    let t = (heads - 2.0) / 5.5;
    let leg_share = r.range(0.36, 0.46) + 0.1 * t;
    let garment = r.pick(&[
        Garment::None,
        Garment::Dress,
        Garment::Skirt,
        Garment::Coat,
        Garment::Cape,
    ]);
    let legs = r.pick(&[Legwear::Trousers, Legwear::Shorts, Legwear::Stockings]);
    let walking = r.chance(0.6);
    let (ta, tb) = if walking {
        let s = r.range(10.0, 32.0);
        (r.angle(s, 5.0), r.angle(-s, 5.0))
    } else {
        (r.angle(0.0, 8.0), r.angle(0.0, 8.0))
    };
    let (near_first, ta, tb) = if r.chance(0.5) {
        (true, ta, tb)
    } else {
        (false, tb, ta)
    };
    let _ = near_first;
    let mut jit = [0.0; 12];
    for j in &mut jit {
        *j = r.range(0.88, 1.12);
    }
    let mut hand_first = [r.chance(0.5), r.chance(0.5)];
    let hands = r.pick(&[Hands::Mittens, Hands::Gloves, Hands::Fingers]);
    if hands == Hands::Fingers {
        // bare hands are drawn over the sleeve's cuff less often than mittens
        hand_first = [r.chance(0.3), r.chance(0.3)];
    }
    Look {
        heads,
        leg_share,
        bulk: r.range(0.8, 1.25),
        lean: r.angle(0.0, 6.0),
        thigh: [ta, tb],
        knee: [r.angle(15.0, 15.0), r.angle(15.0, 15.0)],
        arm: [r.angle(10.0, 55.0), r.angle(-5.0, 50.0)],
        elbow: [r.angle(45.0, 45.0), r.angle(40.0, 40.0)],
        wrist: [r.angle(5.0, 20.0), r.angle(5.0, 20.0)],
        foot: [r.angle(0.0, 10.0), r.angle(0.0, 10.0)],
        garment,
        legs,
        hair: r.pick(&[
            Hair::Bun,
            Hair::Ponytail,
            Hair::Long,
            Hair::Spiky,
            Hair::Short,
        ]),
        hat: r.pick(&[
            Hat::None,
            Hat::None,
            Hat::Cap,
            Hat::Beanie,
            Hat::Tall,
            Hat::Wizard,
        ]),
        hands,
        prop: if r.chance(0.6) {
            Some((
                r.pick(&[Prop::Stick, Prop::Sword, Prop::Lantern, Prop::Umbrella]),
                if r.chance(0.6) { 0 } else { 1 },
            ))
        } else {
            None
        },
        hand_first,
        hair_front: r.chance(0.5),
        merged_trousers: r.chance(0.5),
        pal: palette(r),
        far_tone: r.chance(0.6),
        jit,
        hem: r.unit(),
        flare: r.unit(),
        shirt_deco: r.pick(&[0u8, 1, 2]),
    }
}

/// The parts of the character (declaration order) and the painter's order of their
/// names, nearest first.
pub fn build(l: &Look, fit: &Fit, ink: Rgb) -> (Vec<super::super::part::Part>, Vec<&'static str>) {
    let j = &l.jit;
    let mut b = Builder::new(fit, ink);
    // design units: the figure is about 1000 tall, soles at y = 0, facing +x
    let tall = 1000.0;
    let hh = tall / l.heads;
    let hr = hh * 0.44 * j[0];
    let nl = hh * 0.2 * j[1];
    let body = tall - hh - nl;
    let ll = body * l.leg_share;
    let tl = body - ll;
    let trr = ((0.25 * tl + 0.2 * hh) * l.bulk * 0.8).min(0.42 * ll);
    let thigh_r = trr * 0.5 * j[2];
    let shin_r = thigh_r * 0.8 * j[3];
    let ua_r = trr * 0.34 * j[4];
    let fa_r = ua_r * 0.86;
    let hand_r = fa_r * 1.25 * j[5];
    let ua_len = tl * 0.58 * j[6];
    let fa_len = ua_len * 0.92 * j[7];
    let hand_len = hand_r * 2.0 * j[8];
    let foot_len = (hh * 0.5 * j[9]).max(shin_r * 2.6);
    let foot_r = shin_r * 1.05 * j[10];
    let ankle_h = foot_r;
    let thigh_len = (ll - ankle_h) * 0.5 * j[11].sqrt();
    let shin_len = ll - ankle_h - thigh_len;
    let pal = &l.pal;

    let hip = [0.0, -ll];
    let up = |p: Pt, a: f64, len: f64| -> Pt { [p[0] + len * a.sin(), p[1] - len * a.cos()] };
    let down = |p: Pt, a: f64, len: f64| -> Pt { [p[0] + len * a.sin(), p[1] + len * a.cos()] };
    let waist = up(hip, l.lean, 0.3 * tl);
    let chest = up(hip, l.lean, 0.72 * tl);
    let neck_base = up(hip, l.lean, tl);
    let chin = up(neck_base, l.lean * 0.5, nl);
    let head_mid = [chin[0] + 0.12 * hr, chin[1] - 1.0 * hr];
    let head_top = [chin[0] + 0.02 * hr, chin[1] - 1.38 * hr];

    // the painter's order (nearest first); filled as the parts are added
    let legs_col = pal.legs;
    let pelvis_col = match l.legs {
        Legwear::Stockings => mix(pal.legs, pal.trim, 0.5),
        _ => pal.legs,
    };
    b.bone(
        "pelvis",
        None,
        0,
        &[
            waist,
            [
                hip[0],
                (hip[1] + 0.3 * thigh_len - trr * 0.85).max(waist[1] + 1.0),
            ],
        ],
        &[trr * 0.92, trr * 0.85],
        pelvis_col,
        false,
        Some("Hips"),
    );
    let torso = b.bone(
        "torso",
        Some("pelvis"),
        0,
        &[waist, chest, neck_base],
        &[trr * 0.88, trr * 1.02, trr * 0.72],
        pal.shirt,
        false,
        Some("Chest"),
    );
    // a belt, stripes or a pocket on the shirt
    match l.shirt_deco {
        0 => {
            let s = b.shape(Shape::Stroke {
                a: [waist[0] - 2.0 * trr, waist[1] - 0.05 * tl],
                b: [waist[0] + 2.0 * trr, waist[1] - 0.05 * tl],
                w: 0.12 * tl,
            });
            b.detail(torso, Detail::new(s, pal.trim));
        }
        1 => {
            let per = b.fit.l(0.16 * tl);
            b.detail(
                torso,
                Detail::new(
                    Region::Stripes(per, per * 0.35, 0.0),
                    mix(pal.shirt, pal.trim, 0.6),
                ),
            );
        }
        _ => {}
    }
    b.bone(
        "neck",
        Some("torso"),
        0,
        &[neck_base, [chin[0], chin[1] - 0.3 * hr]],
        &[hr * 0.34, hr * 0.32],
        pal.skin,
        false,
        Some("Neck"),
    );
    let head = b.bone(
        "head",
        Some("neck"),
        0,
        &[
            [chin[0] + 0.05 * hr, chin[1] - 0.5 * hr],
            head_mid,
            head_top,
        ],
        &[hr * 0.6, hr * 0.98, hr * 0.9],
        pal.skin,
        false,
        Some("Head"),
    );
    // face (towards +x), hair on the skull
    let eye = b.shape(Shape::Ellipse {
        c: [head_mid[0] + 0.55 * hr, head_mid[1] - 0.05 * hr],
        rx: 0.09 * hr,
        ry: 0.15 * hr,
        angle: 0.0,
    });
    b.detail(head, Detail::new(eye, pal.face));
    let mouth = b.shape(Shape::Stroke {
        a: [head_mid[0] + 0.7 * hr, head_mid[1] + 0.5 * hr],
        b: [head_mid[0] + 0.45 * hr, head_mid[1] + 0.55 * hr],
        w: 0.06 * hr,
    });
    b.detail(head, Detail::new(mouth, mix(pal.face, hex(0xc03040), 0.6)));
    let cap = b.shape(Shape::Disc {
        c: [head_mid[0] - 0.25 * hr, head_mid[1] - 0.45 * hr],
        r: hr * 0.95,
    });
    b.detail(head, Detail::new(cap, pal.hair));

    let mut order: Vec<&'static str> = Vec::new();
    let mut far_order: Vec<&'static str> = Vec::new();
    let mut back_order: Vec<&'static str> = Vec::new();

    // hair
    let back = [head_mid[0] - 0.75 * hr, head_mid[1] - 0.3 * hr];
    let mut hair_front_of_head = false;
    let mut hair_behind_torso = false;
    match l.hair {
        Hair::Bun => {
            let c = [head_top[0] - 0.7 * hr, head_top[1] - 0.1 * hr];
            b.bone(
                "hair",
                Some("head"),
                0,
                &[c, [c[0] - 0.25 * hr, c[1] - 0.15 * hr]],
                &[hr * 0.42, hr * 0.38],
                pal.hair,
                false,
                None,
            );
        }
        Hair::Ponytail => {
            let p1 = [back[0] - 0.6 * hr, back[1] + 0.5 * hr];
            let p2 = [p1[0] - 0.2 * hr, p1[1] + 0.9 * hr];
            b.bone(
                "hair",
                Some("head"),
                0,
                &[back, p1, p2],
                &[hr * 0.32, hr * 0.4, hr * 0.18],
                pal.hair,
                false,
                None,
            );
        }
        Hair::Long => {
            let p1 = [back[0] - 0.25 * hr, back[1] + 1.3 * hr];
            let p2 = [p1[0] - 0.1 * hr, p1[1] + 0.3 * tl + 0.4 * hr];
            b.bone(
                "hair",
                Some("head"),
                0,
                &[[back[0] + 0.2 * hr, back[1] - 0.2 * hr], p1, p2],
                &[hr * 0.75, hr * 0.6, hr * 0.4],
                pal.hair,
                false,
                None,
            );
            hair_behind_torso = true;
        }
        Hair::Spiky => {
            let a = [head_mid[0] - 0.75 * hr, head_mid[1] - 0.35 * hr];
            let c = [head_top[0] + 0.55 * hr, head_top[1] - 0.05 * hr];
            let m = [head_top[0] - 0.15 * hr, head_top[1] - 0.5 * hr];
            let h = b.bone(
                "hair",
                Some("head"),
                0,
                &[a, m, c],
                &[hr * 0.36, hr * 0.42, hr * 0.3],
                pal.hair,
                false,
                None,
            );
            for (k, ang) in [-2.6f64, -2.1, -1.6, -1.1, -0.6].iter().enumerate() {
                let base = polar(head_mid, *ang, hr * 0.9);
                let tip = polar(head_mid, *ang - 0.15, hr * (1.55 + 0.1 * (k % 2) as f64));
                let s = Shape::Cone {
                    a: b.fit.p(base),
                    b: b.fit.p(tip),
                    r1: b.fit.l(hr * 0.2),
                    r2: b.fit.l(hr * 0.04),
                };
                b.parts[h].extras.push((s, pal.hair));
            }
            hair_front_of_head = true;
        }
        Hair::Short => {}
    }
    // hat
    let has_hat = l.hat != Hat::None;
    match l.hat {
        Hat::None => {}
        Hat::Cap => {
            let a = [head_top[0] - 0.1 * hr, head_top[1] + 0.05 * hr];
            let h = b.bone(
                "hat",
                Some("head"),
                0,
                &[a, [a[0] + 0.05 * hr, a[1] - 0.35 * hr]],
                &[hr * 0.85, hr * 0.75],
                pal.hat,
                false,
                None,
            );
            let brim = Shape::Ellipse {
                c: b.fit.p([a[0] + 0.95 * hr, a[1] + 0.3 * hr]),
                rx: b.fit.l(0.7 * hr),
                ry: b.fit.l(0.14 * hr),
                angle: -0.06,
            };
            b.parts[h].extras.push((brim, pal.hat));
        }
        Hat::Beanie => {
            let a = [head_top[0] - 0.05 * hr, head_top[1] + 0.2 * hr];
            let h = b.bone(
                "hat",
                Some("head"),
                0,
                &[a, [a[0], a[1] - 0.4 * hr]],
                &[hr * 0.9, hr * 0.7],
                pal.hat,
                false,
                None,
            );
            let band = b.shape(Shape::Stroke {
                a: [a[0] - 1.2 * hr, a[1] + 0.55 * hr],
                b: [a[0] + 1.2 * hr, a[1] + 0.55 * hr],
                w: 0.35 * hr,
            });
            b.detail(h, Detail::new(band, pal.trim));
        }
        Hat::Tall => {
            let a = [head_top[0], head_top[1] - 0.1 * hr];
            let h = b.bone(
                "hat",
                Some("head"),
                0,
                &[a, [a[0], a[1] - 0.9 * hr]],
                &[hr * 0.6, hr * 0.62],
                pal.hat,
                false,
                None,
            );
            let brim = Shape::Ellipse {
                c: b.fit.p([a[0], a[1] + 0.5 * hr]),
                rx: b.fit.l(1.05 * hr),
                ry: b.fit.l(0.13 * hr),
                angle: 0.0,
            };
            b.parts[h].extras.push((brim, pal.hat));
        }
        Hat::Wizard => {
            let a = [head_top[0], head_top[1] + 0.05 * hr];
            let h = b.bone(
                "hat",
                Some("head"),
                0,
                &[a, [a[0] - 0.3 * hr, a[1] - 0.6 * hr]],
                &[hr * 0.7, hr * 0.45],
                pal.hat,
                false,
                None,
            );
            let cone = Shape::Cone {
                a: b.fit.p([a[0] - 0.3 * hr, a[1] - 0.6 * hr]),
                b: b.fit.p([a[0] - 1.0 * hr, a[1] - 1.7 * hr]),
                r1: b.fit.l(0.45 * hr),
                r2: b.fit.l(0.06 * hr),
            };
            let brim = Shape::Ellipse {
                c: b.fit.p([a[0], a[1] + 0.35 * hr]),
                rx: b.fit.l(1.25 * hr),
                ry: b.fit.l(0.16 * hr),
                angle: 0.0,
            };
            b.parts[h].extras.push((cone, pal.hat));
            b.parts[h].extras.push((brim, pal.hat));
        }
    }

    // the garment
    let mut garment_name = None;
    match l.garment {
        Garment::None => {}
        Garment::Dress => {
            // the hem from above the knee to mid-shin; its round end one radius above it
            let hem = hip[1] + thigh_len * (0.75 + 0.9 * l.hem);
            let rh = trr * (1.2 + 0.9 * l.flare);
            let end = [hip[0], (hem - 0.5 * rh).max(waist[1] + 0.25 * tl)];
            let g = b.bone(
                "dress",
                Some("pelvis"),
                0,
                &[[chest[0], chest[1] + 0.1 * tl], waist, end],
                &[trr * 1.0, trr * 0.92, rh],
                pal.garment,
                false,
                None,
            );
            let band = b.fit.l((end[1] - chest[1]) + rh * 0.25);
            b.detail(g, Detail::new(Region::Along(band, 1e9), pal.trim));
            b.parts[g].hem = Some((b.fit.p([end[0], hem]), [0.0, 1.0]));
            garment_name = Some("dress");
        }
        Garment::Skirt => {
            let rh = trr * (1.1 + 0.5 * l.flare);
            let hem = hip[1] + thigh_len * (0.3 + 0.4 * l.hem);
            let end = [hip[0], (hem - 0.5 * rh).max(waist[1] + 0.1 * tl)];
            let g = b.bone(
                "skirt",
                Some("pelvis"),
                0,
                &[waist, end],
                &[trr * 0.95, rh],
                pal.garment,
                false,
                None,
            );
            let top = b.shape(Shape::Stroke {
                a: [waist[0] - 2.0 * trr, waist[1]],
                b: [waist[0] + 2.0 * trr, waist[1]],
                w: 0.1 * tl,
            });
            b.detail(g, Detail::new(top, pal.trim));
            b.parts[g].hem = Some((b.fit.p([end[0], hem]), [0.0, 1.0]));
            garment_name = Some("skirt");
        }
        Garment::Coat => {
            let off = -0.3 * trr;
            let top = [neck_base[0] + off, neck_base[1] + 0.12 * tl];
            let hem = hip[1] + thigh_len * (0.3 + 0.6 * l.hem);
            let end = [hip[0] + off, hem - 0.6 * trr];
            let g = b.bone(
                "coat",
                Some("torso"),
                0,
                &[top, [waist[0] + off, waist[1]], end],
                &[trr * 0.95, trr * 1.0, trr * 1.22],
                pal.garment,
                false,
                None,
            );
            let btn = b.shape(Shape::Stroke {
                a: [top[0] + 0.55 * trr, top[1] + 0.1 * tl],
                b: [end[0] + 0.6 * trr, end[1] - 0.2 * tl],
                w: 0.04 * tl,
            });
            b.detail(g, Detail::new(btn, pal.trim));
            b.parts[g].hem = Some((b.fit.p([end[0], hem]), [0.0, 1.0]));
            garment_name = Some("coat");
        }
        Garment::Cape => {
            let top = [neck_base[0] - 0.4 * trr, neck_base[1] + 0.05 * tl];
            let hem = hip[1] + thigh_len * (0.6 + 0.9 * l.hem);
            let rc = trr * (1.2 + 0.5 * l.flare);
            let end = [hip[0] - 0.9 * trr, hem - 0.5 * rc];
            let g = b.bone(
                "cape",
                Some("torso"),
                0,
                &[top, end],
                &[trr * 0.7, rc],
                pal.garment,
                false,
                None,
            );
            b.parts[g].hem = Some((b.fit.p([end[0], hem]), [0.0, 1.0]));
            garment_name = Some("cape");
        }
    }

    // legs: far then near; index 0 = near
    let names_leg = [
        ["thigh_near", "shin_near", "foot_near"],
        ["thigh_far", "shin_far", "foot_far"],
    ];
    let joints_leg = [
        ["LeftHip", "LeftKnee", "LeftAnkle"],
        ["RightHip", "RightKnee", "RightAnkle"],
    ];
    for s in [1usize, 0] {
        let far = s == 1 && l.far_tone;
        let top = [hip[0] + if s == 1 { 0.1 } else { -0.05 } * trr, hip[1]];
        let knee = down(top, l.thigh[s], thigh_len);
        let ankle = down(knee, l.thigh[s] - l.knee[s], shin_len);
        let (thigh_col, shin_col) = match l.legs {
            Legwear::Trousers | Legwear::Stockings => (legs_col, legs_col),
            Legwear::Shorts => (pal.skin, pal.skin),
        };
        let th = b.bone(
            names_leg[s][0],
            Some("pelvis"),
            0,
            &[
                top,
                [(top[0] + knee[0]) / 2.0, (top[1] + knee[1]) / 2.0],
                knee,
            ],
            &[thigh_r * 1.05, thigh_r, shin_r * 1.02],
            thigh_col,
            far,
            Some(joints_leg[s][0]),
        );
        if l.legs == Legwear::Shorts {
            let len = b.fit.l(thigh_len * 0.55);
            b.detail(th, Detail::new(Region::Along(-1e9, len), pelvis_col));
        }
        if l.legs == Legwear::Trousers && l.merged_trousers {
            b.merge(th, "pelvis");
        }
        b.bone(
            names_leg[s][1],
            Some(names_leg[s][0]),
            0,
            &[
                knee,
                [
                    knee[0] + 0.35 * (ankle[0] - knee[0]),
                    knee[1] + 0.35 * (ankle[1] - knee[1]),
                ],
                ankle,
            ],
            &[shin_r * 0.98, shin_r * 1.05, shin_r * 0.8],
            shin_col,
            far,
            Some(joints_leg[s][1]),
        );
        let toe = polar(ankle, l.foot[s], foot_len);
        let ball = [
            ankle[0] + 0.6 * (toe[0] - ankle[0]),
            ankle[1] + 0.6 * (toe[1] - ankle[1]) + 0.2 * foot_r,
        ];
        let f = b.bone(
            names_leg[s][2],
            Some(names_leg[s][1]),
            0,
            &[ankle, ball, toe],
            &[foot_r * 0.95, foot_r, foot_r * 0.8],
            pal.shoe,
            far,
            Some(joints_leg[s][2]),
        );
        let sole = Shape::Stroke {
            a: b.fit.p([ankle[0] - 0.6 * foot_r, ankle[1] + 0.95 * foot_r]),
            b: b.fit.p([toe[0] + 0.4 * foot_r, toe[1] + 0.75 * foot_r]),
            w: b.fit.l(0.45 * foot_r),
        };
        b.parts[f].extras.push((sole, pal.sole));
        let o = [names_leg[s][2], names_leg[s][1], names_leg[s][0]];
        if s == 1 {
            far_order.extend(o);
        } else {
            order.extend(o);
        }
    }

    // arms: far (behind the body) then near
    let names_arm = [
        ["upper_arm_near", "forearm_near", "hand_near"],
        ["upper_arm_far", "forearm_far", "hand_far"],
    ];
    let joints_arm = [
        ["LeftShoulder", "LeftElbow", "lhand"],
        ["RightShoulder", "RightElbow", "rhand"],
    ];
    let sleeve = if l.garment == Garment::Coat {
        pal.garment
    } else {
        pal.shirt
    };
    let mut arm_orders: [Vec<&'static str>; 2] = [Vec::new(), Vec::new()];
    let mut prop_anchor = None;
    for s in [1usize, 0] {
        let far = s == 1 && l.far_tone;
        let sh = [
            neck_base[0] + if s == 1 { -0.15 } else { 0.05 } * trr,
            neck_base[1] + 0.3 * trr,
        ];
        let elbow = down(sh, l.arm[s], ua_len);
        let fa_ang = l.arm[s] + l.elbow[s];
        let wrist = down(elbow, fa_ang, fa_len);
        let h_ang = fa_ang + l.wrist[s];
        let tip = down(wrist, h_ang, hand_len);
        b.bone(
            names_arm[s][0],
            Some("torso"),
            0,
            &[sh, elbow],
            &[ua_r * 1.05, ua_r * 0.95],
            sleeve,
            far,
            Some(joints_arm[s][0]),
        );
        b.bone(
            names_arm[s][1],
            Some(names_arm[s][0]),
            0,
            &[elbow, down(elbow, fa_ang, fa_len * 0.4), wrist],
            &[fa_r, fa_r * 1.05, fa_r * 0.8],
            if l.garment == Garment::Coat {
                pal.garment
            } else {
                pal.skin
            },
            far,
            Some(joints_arm[s][1]),
        );
        let hand_col = match l.hands {
            Hands::Fingers => pal.skin,
            _ => pal.glove,
        };
        let palm = down(wrist, h_ang, hand_len * 0.45);
        let h = match l.hands {
            Hands::Mittens => b.bone(
                names_arm[s][2],
                Some(names_arm[s][1]),
                0,
                &[wrist, palm, tip],
                &[hand_r * 0.75, hand_r, hand_r * 0.85],
                hand_col,
                far,
                Some(joints_arm[s][2]),
            ),
            _ => b.bone(
                names_arm[s][2],
                Some(names_arm[s][1]),
                0,
                &[wrist, palm],
                &[hand_r * 0.7, hand_r * 0.82],
                hand_col,
                far,
                Some(joints_arm[s][2]),
            ),
        };
        // the thumb, and fingers for gloves and bare hands
        let thumb = Shape::Cone {
            a: b.fit.p(down(wrist, h_ang + 0.9, hand_r * 0.6)),
            b: b.fit.p(down(wrist, h_ang + 0.55, hand_len * 0.75)),
            r1: b.fit.l(hand_r * 0.35),
            r2: b.fit.l(hand_r * 0.28),
        };
        b.parts[h].extras.push((thumb, hand_col));
        if l.hands != Hands::Mittens {
            for k in 0..4 {
                let off = (k as f64 - 1.5) * 0.16;
                let a = down(palm, h_ang + off * 2.0, hand_r * 0.3);
                let e = down(palm, h_ang + off, hand_len * 0.65);
                let f = Shape::Cone {
                    a: b.fit.p(a),
                    b: b.fit.p(e),
                    r1: b.fit.l(hand_r * 0.2),
                    r2: b.fit.l(hand_r * 0.16),
                };
                b.parts[h].extras.push((f, hand_col));
            }
        }
        let o = if l.hand_first[s] {
            vec![names_arm[s][2], names_arm[s][1], names_arm[s][0]]
        } else {
            vec![names_arm[s][0], names_arm[s][1], names_arm[s][2]]
        };
        arm_orders[s] = o;
        if let Some((_, hand)) = l.prop
            && hand == s
        {
            prop_anchor = Some((palm, h_ang, names_arm[s][2]));
        }
    }
    // the prop, held in the palm
    let mut prop_name = None;
    if let (Some((p, _)), Some((palm, ang, hand))) = (l.prop, prop_anchor) {
        let ang = ang + if ang.cos() > 0.0 { -1.2 } else { 1.2 };
        let (name, len, r0, r1) = match p {
            Prop::Stick => ("stick", tall * 0.45, fa_r * 0.32, fa_r * 0.28),
            Prop::Sword => ("sword", tall * 0.38, fa_r * 0.3, fa_r * 0.22),
            Prop::Lantern => ("lantern", tall * 0.12, fa_r * 0.12, fa_r * 0.12),
            Prop::Umbrella => ("umbrella", tall * 0.5, fa_r * 0.16, fa_r * 0.14),
        };
        let a = down(palm, ang, -len * 0.12);
        let e = down(palm, ang, len);
        let k = b.bone(
            name,
            Some(hand),
            0,
            &[a, e],
            &[r0, r1],
            l.pal.prop,
            false,
            None,
        );
        match p {
            Prop::Sword => {
                let g = Shape::Stroke {
                    a: b.fit
                        .p(down(palm, ang + std::f64::consts::FRAC_PI_2, fa_r * 0.9)),
                    b: b.fit
                        .p(down(palm, ang - std::f64::consts::FRAC_PI_2, fa_r * 0.9)),
                    w: b.fit.l(fa_r * 0.3),
                };
                b.parts[k].extras.push((g, pal.trim));
                b.parts[k].base = mix(hex(0xc8ccd8), pal.prop, 0.2);
            }
            Prop::Lantern => {
                let c = down(palm, ang, len + fa_r * 1.1);
                let body = Shape::Ellipse {
                    c: b.fit.p(c),
                    rx: b.fit.l(fa_r * 0.9),
                    ry: b.fit.l(fa_r * 1.2),
                    angle: 0.0,
                };
                b.parts[k]
                    .extras
                    .push((body, mix(pal.trim, hex(0xffd040), 0.5)));
            }
            Prop::Umbrella => {
                let c = down(palm, ang, len * 0.6);
                let canopy = Shape::Cone {
                    a: b.fit.p(c),
                    b: b.fit.p(e),
                    r1: b.fit.l(fa_r * 1.1),
                    r2: b.fit.l(fa_r * 0.25),
                };
                b.parts[k].extras.push((canopy, pal.trim));
            }
            Prop::Stick => {}
        }
        prop_name = Some((name, hand));
    }

    // the painter's order, nearest first
    let mut paint: Vec<&'static str> = Vec::new();
    let arm = |s: usize, paint: &mut Vec<&'static str>| {
        for &n in &arm_orders[s] {
            paint.push(n);
            if let Some((p, hand)) = prop_name
                && hand == n
            {
                paint.push(p);
            }
        }
    };
    arm(0, &mut paint);
    if has_hat {
        paint.push("hat");
    }
    if hair_front_of_head {
        paint.push("hair");
    }
    paint.push("head");
    let behind_head_hair = matches!(l.hair, Hair::Bun | Hair::Ponytail);
    if behind_head_hair && l.hair_front {
        paint.push("hair");
    }
    if let Some(g) = garment_name
        && g != "cape"
    {
        paint.push(g);
    }
    paint.extend(order.iter().copied());
    paint.push("pelvis");
    paint.push("torso");
    paint.push("neck");
    if behind_head_hair && !l.hair_front {
        paint.push("hair");
    }
    if hair_behind_torso {
        paint.push("hair");
    }
    paint.extend(far_order.iter().copied());
    arm(1, &mut paint);
    back_order.extend(garment_name.filter(|g| *g == "cape"));
    paint.extend(back_order);
    (b.parts, paint)
}
