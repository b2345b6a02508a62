// re2d — synthetic dense v2 atlas and a moving model pose, for benchmarks, demos and tests.
//
//! [`dense_atlas`] encodes a humanoid-sized figure straight into the v2
//! control maps (rotsprite-atlas.md §3–5): twelve parts of 62×62 continuous
//! cells each (most of the 256×192 grid), SUB fractional coordinates and BLD
//! blends from every limb's upper part into its lower part near the joint.
//! [`walk_pose`] gives a model pose for it that moves with time;
//! [`turn_pose`] turns the parts of any atlas a little about their own axes.
//!
//! This is a fixture generator, not the authoring path: real atlases come
//! from the surface compiler.

use re2d::math::PI;
use re2d::model::matrix::{affine, multiply};
use re2d::rotsprite::{CBool, R2DRotModelPose};

/// One generated part: id, colour and surface function `(u, v) → (x, y, z)`.
struct PartSpec {
    id: u8,
    blend_to: u8,
    colour: [u8; 3],
    /// Centre of the part's cylinder/ellipsoid.
    centre: [f64; 3],
    /// Radii (x, z) and half height (y).
    radius: [f64; 3],
    /// Sphere-like (latitude in v) instead of a cylinder.
    round: bool,
}

/// Parts of the figure: head, torso, skirt, tail, arms (upper/fore), legs (thigh/shin).
const PARTS: [PartSpec; 12] = [
    PartSpec {
        id: 1,
        blend_to: 0,
        colour: [238, 200, 170],
        centre: [0.0, -46.0, 0.0],
        radius: [11.0, 13.0, 10.0],
        round: true,
    },
    PartSpec {
        id: 6,
        blend_to: 0,
        colour: [70, 110, 190],
        centre: [0.0, -18.0, 0.0],
        radius: [10.0, 15.0, 6.0],
        round: false,
    },
    PartSpec {
        id: 9,
        blend_to: 0,
        colour: [150, 60, 90],
        centre: [0.0, 4.0, 0.0],
        radius: [12.0, 7.0, 8.0],
        round: false,
    },
    PartSpec {
        id: 4,
        blend_to: 0,
        colour: [120, 80, 40],
        centre: [0.0, 2.0, -11.0],
        radius: [3.0, 9.0, 3.0],
        round: false,
    },
    PartSpec {
        id: 7,
        blend_to: 20,
        colour: [70, 110, 190],
        centre: [-14.0, -22.0, 0.0],
        radius: [3.5, 9.0, 3.5],
        round: false,
    },
    PartSpec {
        id: 11,
        blend_to: 21,
        colour: [70, 110, 190],
        centre: [14.0, -22.0, 0.0],
        radius: [3.5, 9.0, 3.5],
        round: false,
    },
    PartSpec {
        id: 20,
        blend_to: 0,
        colour: [238, 200, 170],
        centre: [-14.0, -5.0, 0.0],
        radius: [3.0, 8.0, 3.0],
        round: false,
    },
    PartSpec {
        id: 21,
        blend_to: 0,
        colour: [238, 200, 170],
        centre: [14.0, -5.0, 0.0],
        radius: [3.0, 8.0, 3.0],
        round: false,
    },
    PartSpec {
        id: 8,
        blend_to: 10,
        colour: [60, 60, 70],
        centre: [-5.0, 22.0, 0.0],
        radius: [4.5, 11.0, 4.5],
        round: false,
    },
    PartSpec {
        id: 12,
        blend_to: 15,
        colour: [60, 60, 70],
        centre: [5.0, 22.0, 0.0],
        radius: [4.5, 11.0, 4.5],
        round: false,
    },
    PartSpec {
        id: 10,
        blend_to: 0,
        colour: [40, 40, 45],
        centre: [-5.0, 44.0, 0.0],
        radius: [4.0, 11.0, 4.0],
        round: false,
    },
    PartSpec {
        id: 15,
        blend_to: 0,
        colour: [40, 40, 45],
        centre: [5.0, 44.0, 0.0],
        radius: [4.0, 11.0, 4.0],
        round: false,
    },
];

/// Cells per part side, and the tile pitch on the control grid.
const CELLS: usize = 62;
const TILE: usize = 64;

fn surface(p: &PartSpec, i: usize, j: usize) -> [f64; 3] {
    let u = i as f64 / (CELLS - 1) as f64;
    let v = j as f64 / (CELLS - 1) as f64;
    let theta = -PI + 2.0 * PI * u * 0.98;
    let [rx, hy, rz] = p.radius;
    let (y, ring) = if p.round {
        let phi = PI * (0.04 + 0.92 * v);
        (-hy * phi.cos(), phi.sin())
    } else {
        (-hy + 2.0 * hy * v, 1.0)
    };
    [
        p.centre[0] + rx * ring * theta.sin(),
        p.centre[1] + y,
        p.centre[2] + rz * ring * theta.cos(),
    ]
}

/// Quantises one coordinate as the authoring tool does: `q =
/// clamp(round_half_even((a·c + 128)·16), 0, 4080)` → (coarse, fine).
fn quantise(c: f64, a: f64) -> (u8, u8) {
    let q = ((a * c + 128.0) * 16.0)
        .round_ties_even()
        .clamp(0.0, 4080.0) as u32;
    ((q / 16) as u8, (q % 16) as u8)
}

/// A dense v2 atlas of `1024·k` pixels square (k = 1..=4), tightly packed
/// RGBA (stride `4·1024·k`).
pub fn dense_atlas(k: usize) -> Vec<u8> {
    assert!((1..=4).contains(&k), "k must be 1..=4");
    let w = 1024 * k;
    let mut px = vec![0u8; w * w * 4];
    let mut set = |x: usize, y: usize, c: [u8; 4]| {
        for yy in 0..k {
            let o = ((k * y + yy) * w + k * x) * 4;
            for xx in 0..k {
                px[o + 4 * xx..o + 4 * xx + 4].copy_from_slice(&c);
            }
        }
    };
    set(0, 960, [82, 50, 68, 255]);
    set(1, 960, [82, 79, 84, 255]);
    set(2, 960, [2, 4, 4, 255]);
    set(3, 960, [83, 85, 66, 255]);
    set(4, 960, [66, 76, 68, 255]);
    for (t, part) in PARTS.iter().enumerate() {
        let (tx, ty) = (t % 4, t / 4);
        for j in 0..CELLS {
            for i in 0..CELLS {
                let (mx, my) = (tx * TILE + i, ty * TILE + j);
                let [x, y, z] = surface(part, i, j);
                let (xc, xf) = quantise(x, 4.0);
                let (yc, yf) = quantise(y, 2.0);
                let (zc, zf) = quantise(z, 4.0);
                // Limbs blend into their lower part over the last 12 rows.
                let (bp, bw) = if part.blend_to != 0 && j >= CELLS - 12 {
                    (part.blend_to, (20 * (j + 13 - CELLS)) as u8)
                } else {
                    (0, 0)
                };
                set(mx, 768 + my, [part.id, part.id, bp, 255]);
                set(256 + mx, 768 + my, [zc, 17 * zf, bw, 255]);
                set(512 + mx, 768 + my, [255, 0, 0, 255]);
                set(768 + mx, 768 + my, [xc, yc, (xf << 4) | yf, 255]);
                // Material: the part colour with stripes and a little texture.
                let [r, g, b] = part.colour;
                for dy in 0..4 {
                    for dx in 0..4 {
                        let stripe = if (j / 6) % 2 == 0 { 0 } else { 24 };
                        let grain = ((i * 4 + dx) * 7 + (j * 4 + dy) * 13) % 11;
                        let f = |c: u8| c.saturating_sub(stripe as u8).saturating_add(grain as u8);
                        set(4 * mx + dx, 4 * my + dy, [f(r), f(g), f(b), 255]);
                    }
                }
            }
        }
    }
    px
}

/// Rotation `Rz·Ry·Rx` (degrees) about a pivot, then a translation.
fn rot_about(deg: [f64; 3], pivot: [f64; 3], t: [f64; 3]) -> [f64; 12] {
    affine(pivot, t, deg, [1.0; 3])
}

/// A walking pose of the [`dense_atlas`] figure at time `t` seconds
/// (scale 1, every part defined and visible, rigid matrices).
pub fn walk_pose(t: f64) -> R2DRotModelPose {
    let mut pose = R2DRotModelPose {
        scale: 1.0,
        ..Default::default()
    };
    let ph = 2.0 * PI * t;
    let swing = 30.0 * ph.sin();
    let bob = [0.0, -1.5 * (2.0 * ph).sin().abs(), 0.0];
    let body = rot_about([0.0, 8.0 * ph.sin(), 0.0], [0.0, 0.0, 0.0], bob);
    let mut put = |id: u8, local: [f64; 12]| {
        let p = &mut pose.parts[id as usize];
        p.matrix = multiply(&body, &local);
        p.defined = CBool::new(true);
        p.visible = CBool::new(true);
    };
    let still = rot_about([0.0; 3], [0.0; 3], [0.0; 3]);
    put(6, still);
    put(9, still);
    put(
        4,
        rot_about([20.0 * ph.sin(), 0.0, 0.0], [0.0, -4.0, -10.0], [0.0; 3]),
    );
    put(
        1,
        rot_about(
            [4.0 * ph.cos(), -10.0 * ph.sin(), 0.0],
            [0.0, -32.0, 0.0],
            [0.0; 3],
        ),
    );
    for (upper, lower, side, sign) in [(7u8, 20u8, -14.0, 1.0), (11, 21, 14.0, -1.0)] {
        let shoulder = rot_about([sign * swing, 0.0, 0.0], [side, -31.0, 0.0], [0.0; 3]);
        let elbow = rot_about(
            [-20.0 - 15.0 * ph.cos().abs(), 0.0, 0.0],
            [side, -13.0, 0.0],
            [0.0; 3],
        );
        put(upper, shoulder);
        put(lower, multiply(&shoulder, &elbow));
    }
    for (thigh, shin, side, sign) in [(8u8, 10u8, -5.0, -1.0), (12, 15, 5.0, 1.0)] {
        let hip = rot_about([sign * swing, 0.0, 0.0], [side, 11.0, 0.0], [0.0; 3]);
        let bend = 25.0 * (ph + if sign > 0.0 { PI } else { 0.0 }).sin().max(0.0);
        let knee = rot_about([bend, 0.0, 0.0], [side, 33.0, 0.0], [0.0; 3]);
        put(thigh, hip);
        put(shin, multiply(&hip, &knee));
    }
    pose
}

/// A moving pose for any atlas's `parts` (ids): frame `i` turns each part a
/// little about its own vertical axis, differently for every part and frame
/// (the benches' pose for the golden atlases).
pub fn turn_pose(parts: &[u8], i: usize) -> R2DRotModelPose {
    let mut m = R2DRotModelPose {
        scale: 1.0,
        ..Default::default()
    };
    for (k, &id) in parts.iter().enumerate() {
        let a = (i as f64 * 0.21 + k as f64 * 0.7).sin() * 0.35;
        let (s, c) = a.sin_cos();
        let p = &mut m.parts[id as usize];
        p.matrix = [c, 0.0, s, 0.0, 0.0, 1.0, 0.0, 0.0, -s, 0.0, c, 0.0];
        p.defined = CBool::new(true);
        p.visible = CBool::new(true);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use re2d::rotsprite::{AtlasImage, decode, decode_anime};

    #[test]
    fn dense_atlas_decodes_to_continuous_blended_parts() {
        let px = dense_atlas(1);
        let img = AtlasImage::new(&px, 1024, 1024, 4096).unwrap();
        let pts = decode(&img).unwrap();
        assert_eq!(pts.len(), 12 * CELLS * CELLS);
        assert!(pts.iter().all(|p| p.mapped.get()));
        let blended = pts.iter().filter(|p| p.blend_part != 0).count();
        assert_eq!(blended, 4 * 12 * CELLS);
        let anime = decode_anime(&img).unwrap();
        let patches = anime.iter().filter(|p| p.patch.get()).count();
        // Every cell but the last row and column of each part is a patch.
        assert_eq!(patches, 12 * (CELLS - 1) * (CELLS - 1));
    }

    #[test]
    fn quantise_matches_decoder_precision() {
        for c in [-31.9, -3.3, 0.0, 0.01, 17.77, 31.7] {
            let (q, f) = quantise(c, 4.0);
            let back = (q as f64 - 128.0) / 4.0 + f as f64 / 64.0;
            assert!((back - c).abs() <= 1.0 / 128.0 + 1e-12, "{c} -> {back}");
        }
    }
}
