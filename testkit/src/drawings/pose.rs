//! Posing helpers: a character is built in design units around its root (forward
//! kinematics from angles and lengths), then fitted to the canvas by one scale and offset.

use super::paint::{Pt, Rgb, Shape, Tube, mix};
use super::part::{Detail, Part, Region};

/// Design units → image pixels: `p · scale + offset`.
#[derive(Clone, Copy, Debug)]
pub struct Fit {
    /// Pixels per design unit.
    pub scale: f64,
    /// Offset in pixels.
    pub offset: Pt,
}

impl Fit {
    /// Design units are pixels (the first pass, which measures the character).
    pub const IDENTITY: Fit = Fit {
        scale: 1.0,
        offset: [0.0, 0.0],
    };

    /// The fit that centres `parts` (built with [`Fit::IDENTITY`]) in a `w × h` canvas with
    /// a margin of 3 % of the smaller side.
    pub fn to_canvas(parts: &[Part], w: f64, h: f64) -> Fit {
        let mut b = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
        for p in parts {
            let e = p.bounds();
            b = [
                b[0].min(e[0]),
                b[1].min(e[1]),
                b[2].max(e[2]),
                b[3].max(e[3]),
            ];
        }
        let m = 0.03 * w.min(h);
        let scale = ((w - 2.0 * m) / (b[2] - b[0])).min((h - 2.0 * m) / (b[3] - b[1]));
        let cx = (b[0] + b[2]) * 0.5;
        let cy = (b[1] + b[3]) * 0.5;
        Fit {
            scale,
            offset: [w * 0.5 - cx * scale, h * 0.5 - cy * scale],
        }
    }

    /// A design point in pixels.
    pub fn p(&self, q: Pt) -> Pt {
        [
            q[0] * self.scale + self.offset[0],
            q[1] * self.scale + self.offset[1],
        ]
    }

    /// A design length in pixels.
    pub fn l(&self, v: f64) -> f64 {
        v * self.scale
    }
}

/// The point `len` from `p` in direction `angle` (radians; 0 = right, π/2 = down).
pub fn polar(p: Pt, angle: f64, len: f64) -> Pt {
    [p[0] + len * angle.cos(), p[1] + len * angle.sin()]
}

/// `p + d`.
pub fn add(p: Pt, d: Pt) -> Pt {
    [p[0] + d[0], p[1] + d[1]]
}

/// A local frame: `origin + along · dir(up) + across · dir(up + 90°)` (`up` is an angle).
pub fn frame(origin: Pt, up: f64) -> impl Fn(f64, f64) -> Pt {
    move |a, b| polar(polar(origin, up, a), up + std::f64::consts::FRAC_PI_2, b)
}

/// Appends parts in declaration order, mapping design units through the fit.
pub struct Builder<'a> {
    /// Design units → pixels.
    pub fit: &'a Fit,
    /// The parts so far.
    pub parts: Vec<Part>,
    /// Outline ink, mixed into each part's base colour.
    pub ink: Rgb,
}

impl<'a> Builder<'a> {
    /// An empty character.
    pub fn new(fit: &'a Fit, ink: Rgb) -> Builder<'a> {
        Builder {
            fit,
            parts: Vec::new(),
            ink,
        }
    }

    /// Appends a bone and its part (design units); returns its index.
    #[allow(clippy::too_many_arguments)]
    pub fn bone(
        &mut self,
        name: &'static str,
        parent: Option<&str>,
        depth: i32,
        pts: &[Pt],
        radii: &[f64],
        base: Rgb,
        far: bool,
        joint: Option<&'static str>,
    ) -> usize {
        let parent = parent.map(|n| {
            self.parts
                .iter()
                .position(|p| p.name == n)
                .expect("parent declared first")
        });
        let pts: Vec<Pt> = pts.iter().map(|&q| self.fit.p(q)).collect();
        let radii: Vec<f64> = radii.iter().map(|&r| self.fit.l(r)).collect();
        self.parts.push(Part {
            name,
            parent,
            depth,
            tube: Tube::new(&pts, &radii),
            joint,
            base,
            ink: mix(base, self.ink, 0.82),
            outline: self.fit.l(6.0),
            gloss: 0.0,
            far,
            details: Vec::new(),
            extras: Vec::new(),
            merge: Vec::new(),
            decl: None,
            no_part: false,
            reversed: false,
            flat: false,
            hem: None,
        });
        self.parts.len() - 1
    }

    /// Dissolves part `i`'s outline inside the tube of the part called `into`.
    pub fn merge(&mut self, i: usize, into: &str) {
        let t = self
            .parts
            .iter()
            .find(|p| p.name == into)
            .expect("declared")
            .tube
            .clone();
        self.parts[i].merge.push(t);
    }

    /// Adds a detail to part `i`.
    pub fn detail(&mut self, i: usize, d: Detail) {
        self.parts[i].details.push(d);
    }

    /// A design-unit shape as a region in pixels.
    pub fn shape(&self, s: Shape) -> Region {
        let f = self.fit;
        Region::Shape(match s {
            Shape::Disc { c, r } => Shape::Disc {
                c: f.p(c),
                r: f.l(r),
            },
            Shape::Ellipse { c, rx, ry, angle } => Shape::Ellipse {
                c: f.p(c),
                rx: f.l(rx),
                ry: f.l(ry),
                angle,
            },
            Shape::Stroke { a, b, w } => Shape::Stroke {
                a: f.p(a),
                b: f.p(b),
                w: f.l(w),
            },
            Shape::Cone { a, b, r1, r2 } => Shape::Cone {
                a: f.p(a),
                b: f.p(b),
                r1: f.l(r1),
                r2: f.l(r2),
            },
        })
    }
}
