//! Raster primitives of the drawing generator: the tube of a bone (a polyline with a
//! radius per point, as rig.md §1 declares it) with its exact signed distance and a local
//! frame for shading, small shapes for details, coverage and colour helpers.
//!
//! Coordinates are image pixels, y down; pixel `(x, y)` covers `[x, x+1) × [y, y+1)` and
//! is sampled at its centre `(x + 0.5, y + 0.5)`. Signed distances are negative inside.

/// A point in pixels (y down).
pub type Pt = [f64; 2];
/// A colour, sRGB components in 0..=1.
pub type Rgb = [f32; 3];

/// One segment of a tube.
#[derive(Clone, Debug)]
struct Seg {
    a: Pt,
    ba: Pt,
    l2: f64,
    len: f64,
    r1: f64,
    r2: f64,
    /// Arc length of the polyline at `a`.
    s0: f64,
    /// `1 / √(1 + k²)`, `k` = radius change per unit length.
    slope: f64,
}

/// The tube of a bone (rig.md §3: "all points within the interpolated radius of the
/// polyline"), read literally: `p` is inside when, for some segment, its distance to the
/// segment's nearest point `c(t)` is at most the radius interpolated at that `t`. (The union
/// of discs along the segment, i.e. the convex hull of the end discs, is slightly larger
/// beside a tapering segment: by about `r·k²/2` for a radius slope `k`; the characters keep
/// slopes gentle where it matters.) Points and radii are rounded to 0.1 px when built, so
/// the painted shape and the declaration written to JSON are the same numbers.
#[derive(Clone, Debug)]
pub struct Tube {
    /// Polyline points (≥ 2), first = the bone's start.
    pub points: Vec<Pt>,
    /// Radius at each point.
    pub radii: Vec<f64>,
    segs: Vec<Seg>,
}

/// The local frame of a pixel centre relative to one tube (for shading and bands).
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Arc length along the bone of the pixel's nearest axis point (0 at the first point,
    /// negative before it and beyond the length after the last point).
    pub s: f64,
    /// Signed lateral offset from the axis in pixels: positive on the right of the bone's
    /// direction of travel as seen on screen with y down (for a bone pointing right, below it).
    pub lat: f64,
    /// Tube radius at the nearest axis point.
    pub r: f64,
    /// Unit direction from the axis point to the pixel (zero on the axis).
    pub n: Pt,
}

/// Rounds to 0.1 (the precision of the declaration).
pub fn round1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

fn sub(a: Pt, b: Pt) -> Pt {
    [a[0] - b[0], a[1] - b[1]]
}

fn dot(a: Pt, b: Pt) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

fn len(a: Pt) -> f64 {
    dot(a, a).sqrt()
}

/// Exact signed distance to the round cone (the convex hull) of disc `(a, r1)` and disc
/// `(a + ba, r2)` (Inigo Quilez's formula; when one disc contains the other, the larger
/// disc).
fn sd_round_cone(p: Pt, a: Pt, ba: Pt, l2: f64, r1: f64, r2: f64) -> f64 {
    let rr = r1 - r2;
    let a2 = l2 - rr * rr;
    let pa = sub(p, a);
    if a2 <= 0.0 {
        let b = [a[0] + ba[0], a[1] + ba[1]];
        return (len(pa) - r1).min(len(sub(p, b)) - r2);
    }
    let il2 = 1.0 / l2;
    let y = dot(pa, ba);
    let z = y - l2;
    let xv = [pa[0] * l2 - ba[0] * y, pa[1] * l2 - ba[1] * y];
    let x2 = dot(xv, xv);
    let y2 = y * y * l2;
    let z2 = z * z * l2;
    let k = rr.signum() * rr * rr * x2;
    if z.signum() * a2 * z2 > k {
        return (x2 + z2).sqrt() * il2 - r2;
    }
    if y.signum() * a2 * y2 < k {
        return (x2 + y2).sqrt() * il2 - r1;
    }
    ((x2 * a2 * il2).sqrt() + y * rr) * il2 - r1
}

impl Tube {
    /// A tube through `points` with one radius per point (both rounded to 0.1 px).
    pub fn new(points: &[Pt], radii: &[f64]) -> Tube {
        assert!(points.len() >= 2 && points.len() == radii.len());
        let points: Vec<Pt> = points
            .iter()
            .map(|p| [round1(p[0]), round1(p[1])])
            .collect();
        let radii: Vec<f64> = radii.iter().map(|&r| round1(r).max(0.1)).collect();
        let mut segs = Vec::with_capacity(points.len() - 1);
        let mut s0 = 0.0;
        for i in 0..points.len() - 1 {
            let a = points[i];
            let ba = sub(points[i + 1], a);
            let l2 = dot(ba, ba).max(1e-9);
            let len = l2.sqrt();
            let k = (radii[i + 1] - radii[i]) / len;
            segs.push(Seg {
                a,
                ba,
                l2,
                len,
                r1: radii[i],
                r2: radii[i + 1],
                s0,
                slope: 1.0 / (1.0 + k * k).sqrt(),
            });
            s0 += len;
        }
        Tube {
            points,
            radii,
            segs,
        }
    }

    /// Bounding box `[x0, y0, x1, y1]` of the tube.
    pub fn bounds(&self) -> [f64; 4] {
        let mut b = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
        for (p, r) in self.points.iter().zip(&self.radii) {
            b[0] = b[0].min(p[0] - r);
            b[1] = b[1].min(p[1] - r);
            b[2] = b[2].max(p[0] + r);
            b[3] = b[3].max(p[1] + r);
        }
        b
    }

    /// Signed distance to the tube's outline: per segment, the distance from `p` to its
    /// nearest axis point minus the radius interpolated there, divided by the slope factor
    /// `√(1 + k²)` of the radius (`k` = radius change per unit length) beside the segment,
    /// so it is a distance in pixels for anti-aliasing; the minimum over the segments.
    pub fn sd(&self, p: Pt) -> f64 {
        let mut best = f64::MAX;
        for g in &self.segs {
            let tr = dot(sub(p, g.a), g.ba) / g.l2;
            let t = tr.clamp(0.0, 1.0);
            let c = [g.a[0] + g.ba[0] * t, g.a[1] + g.ba[1] * t];
            let m = len(sub(p, c)) - (g.r1 + (g.r2 - g.r1) * t);
            let d = if tr > 0.0 && tr < 1.0 { m * g.slope } else { m };
            best = best.min(d);
        }
        best
    }

    /// The signed distance and the local frame at `p`: the frame of the segment whose axis
    /// point is nearest relative to its radius (ties: the earlier segment, so the frame is
    /// stable where two segments share a joint disc). Beyond the polyline's ends the arc
    /// length continues (negative before the first point), so bands stop at the end caps.
    pub fn sample(&self, p: Pt) -> Sample {
        let mut best = (f64::MAX, 0, 0.0);
        for (i, g) in self.segs.iter().enumerate() {
            let tr = dot(sub(p, g.a), g.ba) / g.l2;
            let t = tr.clamp(0.0, 1.0);
            let c = [g.a[0] + g.ba[0] * t, g.a[1] + g.ba[1] * t];
            let m = len(sub(p, c)) - (g.r1 + (g.r2 - g.r1) * t);
            if m < best.0 {
                best = (m, i, tr);
            }
        }
        let (i, tr) = (best.1, best.2);
        let g = &self.segs[i];
        let t = tr.clamp(0.0, 1.0);
        let c = [g.a[0] + g.ba[0] * t, g.a[1] + g.ba[1] * t];
        let v = sub(p, c);
        let d = len(v);
        let n = if d > 1e-9 {
            [v[0] / d, v[1] / d]
        } else {
            [0.0, 0.0]
        };
        let cross = g.ba[0] * v[1] - g.ba[1] * v[0];
        let first = i == 0 && tr < 0.0;
        let last = i + 1 == self.segs.len() && tr > 1.0;
        let ts = if first || last { tr } else { t };
        Sample {
            s: g.s0 + ts * g.len,
            lat: if cross >= 0.0 { d } else { -d },
            r: g.r1 + (g.r2 - g.r1) * t,
            n,
        }
    }
}

/// A small closed shape for details and extras (eyes, fingers, hair spikes, …).
#[derive(Clone, Debug)]
pub enum Shape {
    /// A disc.
    Disc {
        /// Centre.
        c: Pt,
        /// Radius.
        r: f64,
    },
    /// An ellipse rotated by `angle` (radians).
    Ellipse {
        /// Centre.
        c: Pt,
        /// Semi-axis along the rotated x.
        rx: f64,
        /// Semi-axis along the rotated y.
        ry: f64,
        /// Rotation.
        angle: f64,
    },
    /// A line from `a` to `b` of width `w` with round ends.
    Stroke {
        /// Start.
        a: Pt,
        /// End.
        b: Pt,
        /// Width.
        w: f64,
    },
    /// A tapered stroke: round cone from disc `(a, r1)` to disc `(b, r2)`.
    Cone {
        /// Start.
        a: Pt,
        /// End.
        b: Pt,
        /// Radius at the start.
        r1: f64,
        /// Radius at the end.
        r2: f64,
    },
}

impl Shape {
    /// Signed distance (exact for discs, strokes and cones; a close estimate for ellipses).
    pub fn sd(&self, p: Pt) -> f64 {
        match *self {
            Shape::Disc { c, r } => len(sub(p, c)) - r,
            Shape::Ellipse { c, rx, ry, angle } => {
                let (sn, cs) = angle.sin_cos();
                let q = sub(p, c);
                let x = (q[0] * cs + q[1] * sn) / rx;
                let y = (-q[0] * sn + q[1] * cs) / ry;
                let k = (x * x + y * y).sqrt();
                // First-order estimate: (k - 1) / |∇k|.
                let gx = x / rx;
                let gy = y / ry;
                let g = (gx * gx + gy * gy).sqrt().max(1e-9) / k.max(1e-9);
                (k - 1.0) / g.max(1e-9)
            }
            Shape::Stroke { a, b, w } => {
                let ba = sub(b, a);
                let pa = sub(p, a);
                let t = (dot(pa, ba) / dot(ba, ba).max(1e-9)).clamp(0.0, 1.0);
                len([pa[0] - ba[0] * t, pa[1] - ba[1] * t]) - w * 0.5
            }
            Shape::Cone { a, b, r1, r2 } => {
                let ba = sub(b, a);
                sd_round_cone(p, a, ba, dot(ba, ba).max(1e-9), r1, r2)
            }
        }
    }

    /// Bounding box `[x0, y0, x1, y1]`.
    pub fn bounds(&self) -> [f64; 4] {
        match *self {
            Shape::Disc { c, r } => [c[0] - r, c[1] - r, c[0] + r, c[1] + r],
            Shape::Ellipse { c, rx, ry, .. } => {
                let r = rx.max(ry);
                [c[0] - r, c[1] - r, c[0] + r, c[1] + r]
            }
            Shape::Stroke { a, b, w } => {
                let h = w * 0.5;
                [
                    a[0].min(b[0]) - h,
                    a[1].min(b[1]) - h,
                    a[0].max(b[0]) + h,
                    a[1].max(b[1]) + h,
                ]
            }
            Shape::Cone { a, b, r1, r2 } => [
                (a[0] - r1).min(b[0] - r2),
                (a[1] - r1).min(b[1] - r2),
                (a[0] + r1).max(b[0] + r2),
                (a[1] + r1).max(b[1] + r2),
            ],
        }
    }
}

/// Area coverage of a pixel by a shape from the signed distance at its centre (a one-pixel
/// box filter across a locally straight edge); `antialias = false` thresholds at the centre.
pub fn coverage(sd: f64, antialias: bool) -> f32 {
    if antialias {
        (0.5 - sd).clamp(0.0, 1.0) as f32
    } else if sd <= 0.0 {
        1.0
    } else {
        0.0
    }
}

/// Hermite step from 0 at `e0` to 1 at `e1`.
pub fn smoothstep(e0: f32, e1: f32, x: f32) -> f32 {
    let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// `a + (b - a) · t` per channel.
pub fn mix(a: Rgb, b: Rgb, t: f32) -> Rgb {
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

/// `c · k` per channel.
pub fn scale(c: Rgb, k: f32) -> Rgb {
    [c[0] * k, c[1] * k, c[2] * k]
}

/// A colour from `0xRRGGBB`.
pub const fn hex(v: u32) -> Rgb {
    [
        ((v >> 16) & 255) as f32 / 255.0,
        ((v >> 8) & 255) as f32 / 255.0,
        (v & 255) as f32 / 255.0,
    ]
}
