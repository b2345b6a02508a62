//! Random layered characters (issue 40): a generator wide on purpose, so that no slicing rule
//! can be fitted to it. Every seed draws a different character:
//! - proportions from chibi (2 heads tall) to tall (7.5 heads), build, lean, a standing or
//!   walking pose, arms anywhere from hanging to raised, facing left or right;
//! - a garment (none, dress, skirt, coat open at the front, cape behind), legwear (trousers
//!   of one colour, shorts, stockings), sleeves of the shirt's colour (the coat's on a coat),
//!   a belt or stripes, hair (bun, ponytail, long, spiky, short), a hat (cap, beanie, top
//!   hat, pointed), mittens, gloves or bare fingers, shoes with soles, a prop (stick, sword,
//!   lantern, umbrella) held in either hand;
//! - outlines of any width or none, dark or coloured; flat or cel-shaded paint; far limbs
//!   darker or not; any key colour far enough from the paint (a user avoids a green shirt on
//!   green), or transparency; canvases 700–1500 px tall;
//! - the declaration written as a user would, with random slack: every radius 1.0–1.6× the
//!   painted half-width (one factor per character, ±0.1 per bone), the last point up to one
//!   painted radius past the painted axis's end (at most the paint's round tip, so the tube's
//!   end cap reaches up to 1.6 radii past the paint), every point off by up to 6 % of its
//!   radius, depths in the painter's order with about one in five neighbours given equal
//!   depths (then the later declared counts as nearer, which may be the wrong one).
//!
//! Truth = the top-most painted layer per pixel ([`layers::flatten`]). Each character is
//! also written as OpenRaster and Photoshop files (`ora.rs`, `psd.rs`), one layer per bone
//! named after it.
//!
//! | file | what |
//! |---|---|
//! | `rng.rs` | the seed's random source |
//! | `body.rs` | the look drawn from the seed and the parts built from it, with the painter's order |
//! | `layers.rs` | one layer per part, flattening, truth |
//! | `ora.rs` | OpenRaster writer (zip, stack.xml, PNG layers, mergedimage.png, thumbnail) |
//! | `psd.rs` | Photoshop writer (8-bit RGB with alpha, raw or RLE channel data) |
//! | `judge.rs` | slices a character and scores it against its truth |

mod body;
pub mod judge;
pub mod layers;
pub mod ora;
pub mod psd;
mod rng;

use super::paint::{Pt, Rgb, Tube, hex, mix, round1};
use super::part::Part;
use super::pose::Fit;
use super::{Background, Drawing, PartStats};
use rng::Rng;

pub use layers::Layer;

/// A random character.
#[derive(Clone, Debug)]
pub struct RandomCharacter {
    /// The flattened drawing (over its key or transparent), its truth and its declaration
    /// (`image` = `<name>.png`).
    pub drawing: Drawing,
    /// One layer per bone with paint, far to near (the painter's order reversed).
    pub layers: Vec<Layer>,
    /// The flattened layers with transparency (what a layered file holds).
    pub flat_alpha: Vec<u8>,
    /// The truth of the layered files (their flattening is transparent: alpha ≥ 128 is
    /// the figure).
    pub layer_labels: Vec<u8>,
    /// The key colour (`None`: transparent).
    pub key: Option<[u8; 3]>,
    /// The declaration for a layered file: `image` = `<name>.<ext>` and `"background":
    /// "alpha"`; call with the extension.
    decl_parts: Vec<Part>,
    facing: &'static str,
    /// The character's radius factor (its user's slack, before the ±0.1 per bone).
    pub slack: f64,
}

impl RandomCharacter {
    /// The declaration of the painted tubes themselves (no slack: an oracle for experiments).
    pub fn painted_json(&self) -> String {
        let mut parts = self.decl_parts.clone();
        for p in &mut parts {
            p.decl = None;
        }
        let bg = match self.key {
            Some(k) => format!("#{:02x}{:02x}{:02x}", k[0], k[1], k[2]),
            None => "alpha".into(),
        };
        super::skeleton::declaration(
            &format!("{}.png", self.drawing.name),
            &bg,
            &parts,
            self.facing,
            false,
        )
    }

    /// The declaration naming `<name>.<ext>` (a layered file, transparent).
    pub fn layered_json(&self, ext: &str) -> String {
        super::skeleton::declaration(
            &format!("{}.{ext}", self.drawing.name),
            "alpha",
            &self.decl_parts,
            self.facing,
            false,
        )
    }
}

/// Declared radius factors (the slack of a user's tubes).
const SLACK: (f64, f64) = (1.0, 1.6);

fn far_enough(a: [u8; 3], b: Rgb) -> bool {
    (0..3).any(|c| (a[c] as f32 - b[c] * 255.0).abs() >= 90.0)
}

/// A key colour at least 90 in some channel from every paint colour and its shaded,
/// darkened and outline tones; `None` (transparency) when asked or none is found.
fn key(r: &mut Rng, colours: &[Rgb]) -> Option<[u8; 3]> {
    if r.chance(0.3) {
        return None;
    }
    for _ in 0..64 {
        let c = r.hsv((0.6, 1.0), (0.6, 1.0));
        let k = [
            (c[0] * 255.0).round() as u8,
            (c[1] * 255.0).round() as u8,
            (c[2] * 255.0).round() as u8,
        ];
        let ok = colours.iter().all(|&p| {
            [1.0f32, 0.66, 0.5, 0.74 * 0.66].iter().all(|&t| {
                far_enough(k, [p[0] * t, p[1] * t, p[2] * t])
                    && far_enough(k, mix([p[0] * t, p[1] * t, p[2] * t], [1.0, 1.0, 1.0], 0.5))
            })
        });
        if ok {
            return Some(k);
        }
    }
    None
}

/// The declared tube of a painted one, with the character's slack.
fn user_tube(t: &Tube, factor: f64, r: &mut Rng) -> Tube {
    let f = (factor + r.range(-0.1, 0.1)).clamp(SLACK.0, SLACK.1);
    let n = t.points.len();
    let mut pts: Vec<Pt> = t.points.clone();
    // the last point up to one painted radius past the painted axis
    let (a, e) = (t.points[n - 2], t.points[n - 1]);
    let (dx, dy) = (e[0] - a[0], e[1] - a[1]);
    let len = dx.hypot(dy).max(1e-9);
    let u = r.unit() * t.radii[n - 1];
    pts[n - 1] = [e[0] + dx / len * u, e[1] + dy / len * u];
    for (p, &rad) in pts.iter_mut().zip(&t.radii) {
        p[0] += r.range(-0.06, 0.06) * rad;
        p[1] += r.range(-0.06, 0.06) * rad;
    }
    let radii: Vec<f64> = t.radii.iter().map(|&v| round1(v * f)).collect();
    Tube::new(&pts, &radii)
}

/// The name of the random character of `seed`.
pub fn name(seed: u64) -> String {
    format!("random-{seed}")
}

/// Draws and paints the random character of `seed`.
pub fn generate(seed: u64) -> RandomCharacter {
    generate_at(seed, None)
}

/// [`generate`] on a canvas `height` px tall (the width follows the figure), for benches at
/// the seed's drawing size (1696×2528 and the like); the character is the same.
pub fn generate_at(seed: u64, height: Option<f64>) -> RandomCharacter {
    let mut r = Rng::new(seed);
    let look = body::look(&mut r);
    let ink_dark = r.pick(&[hex(0x1a1418), hex(0x000000), hex(0x2a2050), hex(0x402018)]);
    let (probe, _) = body::build(&look, &Fit::IDENTITY, ink_dark);
    let mut bx = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
    for p in &probe {
        let e = p.bounds();
        bx = [
            bx[0].min(e[0]),
            bx[1].min(e[1]),
            bx[2].max(e[2]),
            bx[3].max(e[3]),
        ];
    }
    let hpx = r.range(700.0, 1500.0).round();
    let hpx = height.unwrap_or(hpx);
    let wpx = ((hpx * (bx[2] - bx[0]) / (bx[3] - bx[1])) * 1.0 + 0.08 * hpx)
        .round()
        .max(256.0);
    let (w, h) = (wpx as usize, hpx as usize);
    let fit = Fit::to_canvas(&probe, wpx, hpx);
    let (mut parts, paint_order) = body::build(&look, &fit, ink_dark);
    // style: outlines, flat or shaded
    let outline = if r.chance(0.25) {
        0.0
    } else {
        r.range(1.0, (hpx * 0.006).max(2.0))
    };
    let coloured_lines = r.chance(0.35);
    let flat = r.chance(0.4);
    for p in parts.iter_mut() {
        p.outline = outline;
        p.flat = flat;
        p.ink = if coloured_lines {
            mix(p.base, ink_dark, 0.6)
        } else {
            ink_dark
        };
    }
    let facing = if r.chance(0.5) { "right" } else { "left" };
    if facing == "left" {
        super::layered::mirror(&mut parts, wpx * 0.5);
    }
    // depths: the painter's order, some neighbours equal
    let mut depth = 1;
    let mut rank = vec![usize::MAX; parts.len()];
    for (i, n) in paint_order.iter().enumerate() {
        if i > 0 && !r.chance(0.2) {
            depth += 1;
        }
        let k = parts
            .iter()
            .position(|p| p.name == *n)
            .expect("painted parts are declared");
        parts[k].depth = depth;
        rank[k] = i;
    }
    assert!(rank.iter().all(|&x| x != usize::MAX), "every part painted");
    let factor = r.range(SLACK.0, SLACK.1);
    for p in parts.iter_mut() {
        p.decl = Some(user_tube(&p.tube, factor, &mut r));
    }
    let mut colours: Vec<Rgb> = look.pal.all().to_vec();
    colours.push(ink_dark);
    for p in &parts {
        colours.push(p.base);
        colours.push(p.ink);
    }
    let key = key(&mut r, &colours);
    // paint: one layer per part, far to near
    let mut far_first: Vec<usize> = (0..parts.len()).collect();
    far_first.sort_by_key(|&k| std::cmp::Reverse(rank[k]));
    let layers: Vec<Layer> = far_first
        .iter()
        .map(|&k| layers::paint_layer(&parts[k], k, w, h))
        .filter(|l| l.w > 0)
        .collect();
    let (flat_alpha, layer_labels) = layers::flatten(&layers, w, h);
    let (rgba, labels) = match key {
        Some(k) => (layers::over_key(&flat_alpha, k), layer_labels.clone()),
        None => (flat_alpha.clone(), layer_labels.clone()),
    };
    let background = match key {
        Some(k) => format!("#{:02x}{:02x}{:02x}", k[0], k[1], k[2]),
        None => "alpha".to_string(),
    };
    let name = name(seed);
    let skeleton_json =
        super::skeleton::declaration(&format!("{name}.png"), &background, &parts, facing, false);
    let stats = parts
        .iter()
        .enumerate()
        .map(|(k, p)| PartStats {
            name: p.name.to_string(),
            depth: p.depth,
            painted: 0.0,
            visible: 0.0,
            solid: 0,
            labelled: labels.iter().filter(|&&l| l as usize == k + 1).count() as u64,
            hidden_by: Vec::new(),
        })
        .collect();
    let _ = Background::Alpha;
    RandomCharacter {
        drawing: Drawing {
            name,
            width: w as u32,
            height: h as u32,
            rgba,
            labels,
            skeleton_json,
            parts: stats,
        },
        layers,
        flat_alpha,
        layer_labels,
        key,
        decl_parts: parts,
        facing,
        slack: factor,
    }
}
