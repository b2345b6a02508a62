//! A painted part: the tube of one declared bone, its look (base colour, patterns and
//! details, cel shading from one light, a darker tone for far limbs, an ink outline) and
//! the colour of the part at a pixel.

use super::paint::{Pt, Rgb, Sample, Shape, Tube, coverage, mix, scale, smoothstep};
use super::vary::hash2;

/// Where a detail or pattern is painted, as a signed distance in pixels (negative inside).
#[derive(Clone, Debug)]
pub enum Region {
    /// A shape in image coordinates.
    Shape(Shape),
    /// A band across the bone between arc lengths `s0` and `s1` (pixels from the first point).
    Along(f64, f64),
    /// A band along the bone between lateral offsets `u0..u1`, in units of the local radius
    /// (−1 = left edge, +1 = right edge of the direction of travel on screen).
    Side(f64, f64),
    /// Stripes across the bone: `period`, stripe `width`, `phase` (pixels of arc length).
    Stripes(f64, f64, f64),
    /// Patches: Voronoi cells of size `cell` (image coordinates) separated by `gap`, `seed`.
    Spots(f64, f64, u64),
    /// The intersection of regions.
    All(Vec<Region>),
}

impl Region {
    fn sd(&self, p: Pt, m: &Sample) -> f64 {
        match self {
            Region::Shape(s) => s.sd(p),
            Region::Along(s0, s1) => (s0 - m.s).max(m.s - s1),
            Region::Side(u0, u1) => (u0 * m.r - m.lat).max(m.lat - u1 * m.r),
            Region::Stripes(period, width, phase) => {
                let t = (m.s - phase).rem_euclid(*period);
                t.min(period - t) - width * 0.5
            }
            Region::Spots(cell, gap, seed) => {
                let (f1, f2) = voronoi(p, *cell, *seed);
                gap * 0.5 - (f2 - f1) * 0.5
            }
            Region::All(rs) => rs.iter().map(|r| r.sd(p, m)).fold(f64::MIN, f64::max),
        }
    }
}

/// Nearest and second-nearest feature distances of a jittered grid of `cell` pixels.
fn voronoi(p: Pt, cell: f64, seed: u64) -> (f64, f64) {
    let ci = (p[0] / cell).floor() as i64;
    let cj = (p[1] / cell).floor() as i64;
    let (mut f1, mut f2) = (f64::MAX, f64::MAX);
    for dj in -1..=1 {
        for di in -1..=1 {
            let (i, j) = (ci + di, cj + dj);
            let h = hash2(seed, i, j);
            let fx = (i as f64 + 0.15 + 0.7 * (h & 0xffff) as f64 / 65535.0) * cell;
            let fy = (j as f64 + 0.15 + 0.7 * ((h >> 16) & 0xffff) as f64 / 65535.0) * cell;
            let d = ((p[0] - fx).powi(2) + (p[1] - fy).powi(2)).sqrt();
            if d < f1 {
                f2 = f1;
                f1 = d;
            } else if d < f2 {
                f2 = d;
            }
        }
    }
    (f1, f2)
}

/// A detail painted over the base colour: `region` in `colour` at `opacity`; `lit` details
/// are shaded with the part, unlit ones (eye highlights) are painted after shading.
#[derive(Clone, Debug)]
pub struct Detail {
    /// Where.
    pub region: Region,
    /// Colour.
    pub colour: Rgb,
    /// 0..=1.
    pub opacity: f32,
    /// Shaded by the light (true) or painted flat over the shading.
    pub lit: bool,
}

impl Detail {
    /// An opaque lit detail.
    pub fn new(region: Region, colour: Rgb) -> Detail {
        Detail {
            region,
            colour,
            opacity: 1.0,
            lit: true,
        }
    }

    /// The same detail at `opacity`.
    pub fn alpha(mut self, opacity: f32) -> Detail {
        self.opacity = opacity;
        self
    }

    /// The same detail painted after shading.
    pub fn unlit(mut self) -> Detail {
        self.lit = false;
        self
    }
}

/// The part of one declared bone and how it is painted.
#[derive(Clone, Debug)]
pub struct Part {
    /// Bone name.
    pub name: &'static str,
    /// Index of the parent bone in the declaration.
    pub parent: Option<usize>,
    /// Declared depth (smaller is nearer).
    pub depth: i32,
    /// The declared tube, which is also the painted outline.
    pub tube: Tube,
    /// Motion-capture joint of the bone (`mocap` in the declaration).
    pub joint: Option<&'static str>,
    /// Base colour.
    pub base: Rgb,
    /// Outline colour.
    pub ink: Rgb,
    /// Outline width (pixels).
    pub outline: f64,
    /// Specular highlight strength (shoes, hooves).
    pub gloss: f32,
    /// A far limb: painted in a darker, cooler tone.
    pub far: bool,
    /// Patterns and details, painted in order.
    pub details: Vec<Detail>,
    /// Paint outside the tube (hair spikes), each with its colour; only over the key.
    pub extras: Vec<(Shape, Rgb)>,
    /// Tubes of parts behind this one into which its outline dissolves (the chest's hem over
    /// the spine, a thigh's top over the pelvis), so one garment reads as one shape.
    pub merge: Vec<Tube>,
    /// The declared tube when it is not the painted one (layered characters: written as a
    /// user would, a little wider than the paint).
    pub decl: Option<Tube>,
    /// Declared `"part": false` (a bone the user knows is hidden).
    pub no_part: bool,
    /// Declared `"bend": "reversed"` (a joint that bends the other way from the capture's:
    /// a quadruped's hock).
    pub reversed: bool,
    /// Painted flat: no cel shading (the random characters' flat style).
    pub flat: bool,
    /// A straight hem: the paint stops at the line through `.0` whose outward normal is
    /// `.1` (a dress or a skirt cut straight across instead of ending in a round cap).
    pub hem: Option<(Pt, Pt)>,
}

/// Light direction (x right, y down, z towards the viewer): from the upper front of a
/// character facing right.
const LIGHT: [f64; 3] = [0.52, -0.62, 0.59];
const SHADOW_TONE: f32 = 0.66;
const FAR_TONE: f32 = 0.74;
const FAR_TINT: Rgb = [0.22, 0.26, 0.45];

impl Part {
    /// The painted shape's signed distance: the tube and the extras.
    pub fn sd(&self, p: Pt) -> f64 {
        let mut d = self.tube.sd(p);
        if let Some((o, n)) = self.hem {
            d = d.max((p[0] - o[0]) * n[0] + (p[1] - o[1]) * n[1]);
        }
        for (s, _) in &self.extras {
            d = d.min(s.sd(p));
        }
        d
    }

    /// Bounding box `[x0, y0, x1, y1]` of the paint.
    pub fn bounds(&self) -> [f64; 4] {
        let mut b = self.tube.bounds();
        for (s, _) in &self.extras {
            let e = s.bounds();
            b = [
                b[0].min(e[0]),
                b[1].min(e[1]),
                b[2].max(e[2]),
                b[3].max(e[3]),
            ];
        }
        b
    }

    /// The part's colour at `p`, whose frame is `m` and whose painted-shape distance is `sd`.
    pub fn colour(&self, p: Pt, m: &Sample, sd: f64, aa: bool) -> Rgb {
        let mut c = self.base;
        for (s, col) in &self.extras {
            let k = coverage(s.sd(p), aa);
            if k > 0.0 {
                c = mix(c, *col, k);
            }
        }
        for d in self.details.iter().filter(|d| d.lit) {
            let k = coverage(d.region.sd(p, m), aa) * d.opacity;
            if k > 0.0 {
                c = mix(c, d.colour, k);
            }
        }
        // Cel shading of a cylinder (spherical at the caps) around the bone's axis.
        let u = (m.lat.abs() / m.r.max(1e-6)).min(1.0);
        let nz = (1.0 - u * u).sqrt();
        let n = [m.n[0] * u, m.n[1] * u, nz];
        let ndl = (n[0] * LIGHT[0] + n[1] * LIGHT[1] + n[2] * LIGHT[2]) as f32;
        let cel = smoothstep(0.02, 0.12, ndl);
        let tone = (SHADOW_TONE + (1.0 - SHADOW_TONE) * cel) * (0.93 + 0.1 * ndl.max(0.0));
        if !self.flat {
            c = scale(c, tone);
        }
        if self.gloss > 0.0 && !self.flat {
            let h = smoothstep(0.9, 0.96, ndl) * self.gloss;
            c = mix(c, [1.0, 1.0, 1.0], h);
        }
        for d in self.details.iter().filter(|d| !d.lit) {
            let k = coverage(d.region.sd(p, m), aa) * d.opacity;
            if k > 0.0 {
                c = mix(c, d.colour, k);
            }
        }
        if self.far {
            c = mix(scale(c, FAR_TONE), FAR_TINT, 0.12);
        }
        let ink = if self.far {
            scale(self.ink, FAR_TONE)
        } else {
            self.ink
        };
        // no outline: no ink at all (not even the half-covered rim pixel)
        let mut k = if self.outline > 0.0 {
            coverage(-(sd + self.outline), aa)
        } else {
            0.0
        };
        for t in &self.merge {
            k *= 1.0 - coverage(t.sd(p) + self.outline, aa);
        }
        let c = mix(c, ink, k);
        [
            c[0].clamp(0.0, 1.0),
            c[1].clamp(0.0, 1.0),
            c[2].clamp(0.0, 1.0),
        ]
    }
}
