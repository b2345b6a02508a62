//! Shared raster and skinning helpers of stage 6 (rig.md §5): affine maps,
//! linear blend skinning, the mesh type, and the rasteriser that draws a
//! part's texture through a deformed mesh. Both [`crate::skin::weights`] (the
//! scheme table renders bends) and [`crate::skin::mesh`] (grids, the deviation
//! table) use them; this file uses neither, so the dependency runs one way:
//! `mesh → weights → raster`.

use crate::cut::slice::PartImage;

/// A part's mesh.
#[derive(Clone, Debug, PartialEq)]
pub struct PartMesh {
    /// Grid step.
    pub step: usize,
    /// Rest positions, drawing pixels.
    pub verts: Vec<[f64; 2]>,
    /// UVs 0..1.
    pub uv: Vec<[f64; 2]>,
    /// Triangles.
    pub tris: Vec<u16>,
}

/// An affine map `[a, b, c, d, e, f]`: `(a x + b y + c, d x + e y + f)`.
pub type Affine = [f64; 6];

/// Identity.
pub const IDENTITY: Affine = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0];

/// Rotation by `theta` about `p`.
pub fn rotation_about(p: [f64; 2], theta: f64) -> Affine {
    let (s, c) = theta.sin_cos();
    [
        c,
        -s,
        p[0] - c * p[0] + s * p[1],
        s,
        c,
        p[1] - s * p[0] - c * p[1],
    ]
}

/// `m` applied to `p`.
pub fn apply(m: &Affine, p: [f64; 2]) -> [f64; 2] {
    [
        m[0] * p[0] + m[1] * p[1] + m[2],
        m[3] * p[0] + m[4] * p[1] + m[5],
    ]
}

/// `a ∘ b` (b first).
pub fn compose(a: &Affine, b: &Affine) -> Affine {
    [
        a[0] * b[0] + a[1] * b[3],
        a[0] * b[1] + a[1] * b[4],
        a[0] * b[2] + a[1] * b[5] + a[2],
        a[3] * b[0] + a[4] * b[3],
        a[3] * b[1] + a[4] * b[4],
        a[3] * b[2] + a[4] * b[5] + a[5],
    ]
}

/// Linear blend skinning of `p` with `(bone, weight)` pairs and per-bone maps.
pub fn skin(p: [f64; 2], w: &[(usize, f64)], maps: &[Affine]) -> [f64; 2] {
    let total: f64 = w.iter().map(|x| x.1).sum();
    if total <= 1e-4 {
        return p;
    }
    let (mut x, mut y) = (0.0, 0.0);
    for &(b, wi) in w {
        let q = apply(&maps[b], p);
        x += q[0] * wi / total;
        y += q[1] * wi / total;
    }
    [x, y]
}

/// A canvas window `[x0, y0, x1, y1)` of RGBA8 straight alpha.
pub struct Canvas {
    /// Window in drawing pixels.
    pub win: [i64; 4],
    /// Pixels.
    pub rgba: Vec<u8>,
}

impl Canvas {
    /// A transparent window.
    pub fn new(win: [i64; 4]) -> Canvas {
        let n = ((win[2] - win[0]).max(0) * (win[3] - win[1]).max(0)) as usize;
        Canvas {
            win,
            rgba: vec![0; n * 4],
        }
    }

    /// A transparent window reusing `buf`'s allocation.
    pub fn reuse(win: [i64; 4], mut buf: Vec<u8>) -> Canvas {
        let n = ((win[2] - win[0]).max(0) * (win[3] - win[1]).max(0)) as usize;
        buf.clear();
        buf.resize(n * 4, 0);
        Canvas { win, rgba: buf }
    }

    /// Width.
    pub fn width(&self) -> usize {
        (self.win[2] - self.win[0]).max(0) as usize
    }
}

/// Rasterises `part` with deformed vertices `pts` into `c` (pixel centres,
/// nearest texel, "over"); calls
/// `covered` with each canvas pixel index and the alpha of the texel landing there.
pub fn raster(
    part: &PartImage,
    mesh: &PartMesh,
    pts: &[[f64; 2]],
    c: &mut Canvas,
    covered: impl FnMut(usize, u8),
) {
    raster_masked(part, mesh, pts, c, None, covered)
}

/// [`raster`] limited to the canvas pixels where `mask` is set.
pub fn raster_masked(
    part: &PartImage,
    mesh: &PartMesh,
    pts: &[[f64; 2]],
    c: &mut Canvas,
    mask: Option<&[bool]>,
    mut covered: impl FnMut(usize, u8),
) {
    let win = c.win;
    walk(part, mesh, pts, win, mask, |ci, ti| {
        let s = &part.rgba[ti * 4..][..4];
        crate::cut::verify::over(&mut c.rgba[ci * 4..ci * 4 + 4], s);
        covered(ci, s[3]);
    });
}

/// Calls `f(window index, texel index)` for every pixel of `win` (where
/// `mask` is set, if given) whose centre falls in a triangle of `mesh`
/// deformed to `pts`, with the crop texel of alpha > 0 landing there
/// (nearest texel).
pub fn walk(
    part: &PartImage,
    mesh: &PartMesh,
    pts: &[[f64; 2]],
    win: [i64; 4],
    mask: Option<&[bool]>,
    f: impl FnMut(usize, usize),
) {
    let rgba = &part.rgba;
    walk_alpha(
        (part.width, part.height),
        |ti| rgba[ti * 4 + 3],
        mesh,
        pts,
        win,
        mask,
        f,
    )
}

/// The alpha of every texel of a part, one byte each: [`AlphaPlane::walk`]
/// touches a quarter of the memory [`walk`] does on the RGBA.
pub struct AlphaPlane {
    /// Crop width.
    pub width: usize,
    /// Crop height.
    pub height: usize,
    /// Per texel, its alpha.
    pub alpha: Vec<u8>,
}

impl AlphaPlane {
    /// The alpha plane of `part`.
    pub fn of(part: &PartImage) -> AlphaPlane {
        AlphaPlane {
            width: part.width,
            height: part.height,
            alpha: part.rgba.chunks_exact(4).map(|p| p[3]).collect(),
        }
    }

    /// [`walk`] of the part this plane was taken from.
    pub fn walk(
        &self,
        mesh: &PartMesh,
        pts: &[[f64; 2]],
        win: [i64; 4],
        f: impl FnMut(usize, usize),
    ) {
        let a = &self.alpha;
        walk_alpha(
            (self.width, self.height),
            |ti| a[ti],
            mesh,
            pts,
            win,
            None,
            f,
        )
    }
}

/// [`walk`] of a `size.0 × size.1` crop whose texel `ti` has alpha
/// `alpha(ti)`.
fn walk_alpha(
    size: (usize, usize),
    alpha: impl Fn(usize) -> u8,
    mesh: &PartMesh,
    pts: &[[f64; 2]],
    win: [i64; 4],
    mask: Option<&[bool]>,
    mut f: impl FnMut(usize, usize),
) {
    let (width, height) = size;
    let cw = win[2] - win[0];
    for t in mesh.tris.chunks_exact(3) {
        let (ia, ib, ic) = (t[0] as usize, t[1] as usize, t[2] as usize);
        let (a, b, d) = (pts[ia], pts[ib], pts[ic]);
        let area = (b[0] - a[0]) * (d[1] - a[1]) - (b[1] - a[1]) * (d[0] - a[0]);
        if area.abs() < 1e-12 {
            continue;
        }
        let x0 = (a[0].min(b[0]).min(d[0]).floor() as i64).max(win[0]);
        let x1 = (a[0].max(b[0]).max(d[0]).ceil() as i64).min(win[2]);
        let y0 = (a[1].min(b[1]).min(d[1]).floor() as i64).max(win[1]);
        let y1 = (a[1].max(b[1]).max(d[1]).ceil() as i64).min(win[3]);
        let (ua, ub, ud) = (mesh.uv[ia], mesh.uv[ib], mesh.uv[ic]);
        for y in y0..y1 {
            for x in x0..x1 {
                let ci = ((y - win[1]) * cw + (x - win[0])) as usize;
                if mask.is_some_and(|m| !m[ci]) {
                    continue;
                }
                // pixel centre nudged off the grid lines: a centre never lies on a
                // shared edge at rest, so no pixel is drawn by two triangles
                let p = [x as f64 + 0.5 + 1.0e-7, y as f64 + 0.5 + 1.3e-7];
                let l1 = ((p[0] - a[0]) * (d[1] - a[1]) - (p[1] - a[1]) * (d[0] - a[0])) / area;
                let l2 = ((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])) / area;
                let l0 = 1.0 - l1 - l2;
                if l0 < 0.0 || l1 < 0.0 || l2 < 0.0 {
                    continue;
                }
                let u = l0 * ua[0] + l1 * ub[0] + l2 * ud[0];
                let v = l0 * ua[1] + l1 * ub[1] + l2 * ud[1];
                // truncation, not floor (a libm call here): the two differ only
                // below 0, which the clamp maps to 0 either way
                let tx = ((u * width as f64) as i64).clamp(0, width as i64 - 1) as usize;
                let ty = ((v * height as f64) as i64).clamp(0, height as i64 - 1) as usize;
                let ti = ty * width + tx;
                if alpha(ti) == 0 {
                    continue;
                }
                f(ci, ti);
            }
        }
    }
}
