// re2d surface compiler — generated test surfaces (a dense humanoid-size body, no committed blobs).
//! [`dense_humanoid`] fills all 256×192 cells of the material area with lofts
//! and grids for head, hair, torso, skirt, arms, legs, tail and shoes laid out
//! in the body space of surface-compiler.md §10, plus the elbow and knee
//! segment rules of §10.4 (widths 6 and 7).

use re2d_surface::Profile;
use re2d_surface::{IDENTITY, Patch, Rule, Shape, Surface};

fn loft(id: i64, rect: [i64; 4], color: [u8; 3], sections: Vec<[f64; 8]>) -> Patch {
    Patch {
        shape: Shape::Loft {
            id,
            rect,
            sections,
            matrix: IDENTITY,
        },
        color,
    }
}

/// A limb: loft from `(cx, y0)` to `(cx, y1)` with radius `r0 → r1`.
#[allow(clippy::too_many_arguments)]
fn limb(
    id: i64,
    rect: [i64; 4],
    color: [u8; 3],
    cx: f64,
    y0: f64,
    y1: f64,
    r0: f64,
    r1: f64,
) -> Patch {
    loft(
        id,
        rect,
        color,
        vec![
            [0.0, 0.0, 0.0, 0.0, cx, y0, 0.0, 0.0],
            [0.05, r0, r0, r0, cx, y0 + 0.05 * (y1 - y0), 0.0, 0.0],
            [
                0.5,
                0.5 * (r0 + r1),
                0.5 * (r0 + r1),
                0.5 * (r0 + r1),
                cx,
                0.5 * (y0 + y1),
                0.0,
                0.0,
            ],
            [1.0, r1, r1, r1, cx, y1, 0.0, 0.0],
        ],
    )
}

fn grid(
    id: i64,
    rect: [i64; 4],
    color: [u8; 3],
    points: Vec<Vec<[f64; 3]>>,
    matrix: [f64; 12],
) -> Patch {
    Patch {
        shape: Shape::Grid {
            id,
            rect,
            points,
            matrix,
        },
        color,
    }
}

fn rule(id: u8, gt: f64, assign: u8, width: f64) -> Rule {
    Rule {
        id,
        axis: 1,
        greater_than: gt,
        assign,
        width: Some(width),
        profile: Profile::Linear,
    }
}

/// The dense fixture: 49 152 cells (every cell of the material area), 11 patches.
pub fn dense_humanoid() -> Surface {
    let skin = [236, 200, 180];
    let cloth = [60, 70, 120];
    let head = loft(
        1,
        [0, 0, 512, 192],
        skin,
        vec![
            [0.0, 0.5, 0.5, 0.5, 0.0, -36.0, 0.0, 0.0],
            [0.2, 7.0, 7.5, 6.5, 0.0, -32.0, 0.0, 0.0],
            [0.6, 8.0, 8.5, 7.5, 0.0, -24.0, 0.0, 0.0],
            [1.0, 4.0, 4.5, 4.0, 0.0, -12.5, 0.0, 0.0],
        ],
    );
    let hair = loft(
        3,
        [512, 0, 512, 192],
        [90, 50, 30],
        vec![
            [0.0, 1.0, 1.0, 1.0, 0.0, -37.0, -0.5, 0.3],
            [0.3, 9.0, 9.0, 9.5, 0.0, -31.0, -0.5, 0.3],
            [1.0, 10.0, 8.0, 10.5, 0.0, -14.0, -1.0, 0.3],
        ],
    );
    let torso = loft(
        6,
        [0, 192, 512, 192],
        cloth,
        vec![
            [0.0, 3.0, 3.0, 3.0, 0.0, -12.0, 0.0, 0.0],
            [0.1, 8.0, 5.0, 4.5, 0.0, -10.0, 0.0, 0.0],
            [0.6, 7.0, 4.5, 4.0, 0.0, 5.0, 0.0, 0.0],
            [1.0, 7.5, 4.5, 4.5, 0.0, 18.0, 0.0, 0.0],
        ],
    );
    let skirt = loft(
        9,
        [512, 192, 512, 192],
        [40, 40, 40],
        vec![
            [0.0, 7.5, 4.8, 4.8, 0.0, 14.0, 0.0, 0.0],
            [1.0, 13.0, 10.0, 10.0, 0.0, 30.0, 0.0, 0.0],
        ],
    );
    let tail = grid(
        4,
        [0, 576, 512, 192],
        [200, 150, 90],
        (0..6)
            .map(|r| {
                (0..8)
                    .map(|c| {
                        let t = r as f64 / 5.0;
                        let a = c as f64 / 7.0 * std::f64::consts::TAU;
                        [
                            -2.0 + 1.5 * a.cos(),
                            10.0 + 12.0 * t,
                            -8.0 - 10.0 * t + 1.5 * a.sin(),
                        ]
                    })
                    .collect()
            })
            .collect(),
        IDENTITY,
    );
    let shoe = |id, x, cx: f64| {
        grid(
            id,
            [x, 576, 256, 192],
            [30, 20, 20],
            vec![
                vec![[cx - 2.5, 50.0, -2.0], [cx + 2.5, 50.0, -2.0]],
                vec![[cx - 2.5, 54.0, -2.0], [cx + 2.5, 54.0, 4.5]],
            ],
            [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.5],
        )
    };
    Surface {
        patches: vec![
            head,
            hair,
            torso,
            skirt,
            limb(7, [0, 384, 256, 192], cloth, -9.5, -10.0, 19.0, 2.6, 2.0),
            limb(11, [256, 384, 256, 192], cloth, 9.5, -10.0, 19.0, 2.6, 2.0),
            limb(8, [512, 384, 256, 192], skin, -5.0, 20.0, 50.0, 3.4, 2.2),
            limb(12, [768, 384, 256, 192], skin, 5.0, 20.0, 50.0, 3.4, 2.2),
            tail,
            shoe(13, 512, -5.0),
            shoe(14, 768, 5.0),
        ],
        segments: vec![
            rule(7, 4.0, 20, 6.0),
            rule(11, 4.0, 21, 6.0),
            rule(8, 36.0, 10, 7.0),
            rule(12, 36.0, 15, 7.0),
        ],
    }
}
