// re2d surface compiler — cell generation, per-cell processing, header and output size (spec: surface-compiler.md §6, §7).
//! The compile algorithm of §6: the working image (§6.2), cell generation for
//! `samples`, `grid` and `loft` with the affine matrix (§6.3), per-cell checks,
//! segmentation and map encoding (§6.4, §7), header and extension texels
//! (§6.5) and nearest upscaling (§6.6). The default mode works on a validated
//! [`Surface`]; `--legacy` walks the raw JSON lazily (§6.8) and shares the
//! geometry formulas and the per-cell back end.

use std::collections::BTreeMap;

use super::encode::{self, Split};
use super::error::{Code, CompileError, err};
use super::json;
use super::material;
use super::model::{Rule, Shape, Surface};

/// Canonical working side.
pub const CANON: usize = 1024;
/// Output sizes allowed by §1.
pub const SIZES: [u32; 4] = [1024, 2048, 3072, 4096];

/// Compile options (§6.1).
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Physical output side: 1024, 2048, 3072 or 4096.
    pub size: u32,
    /// Apply the `segments` rules (and write BLD in SUB mode).
    pub segments: bool,
    /// `--segment-width ASSIGN=W`: width for rules with this `assign` and no `width`.
    pub segment_widths: BTreeMap<u8, f64>,
    /// `--legacy`: the older compiler's encoding and acceptance rules (§6.8).
    pub legacy: bool,
    /// Write transparent-anchor cells as coverage 128 (SUB mode); `--no-support` clears it.
    pub support: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            size: 1024,
            segments: false,
            segment_widths: BTreeMap::new(),
            legacy: false,
            support: true,
        }
    }
}

/// A compiled atlas.
#[derive(Clone, Debug, PartialEq)]
pub struct Atlas {
    /// Side in physical pixels.
    pub size: u32,
    /// RGBA8, row-major, stride `4·size`.
    pub rgba: Vec<u8>,
    /// Number of cells with map texels written (active cells).
    pub cells: usize,
    /// Warnings (`warning[W_*]: …` lines without the prefix).
    pub warnings: Vec<String>,
}

/// `lerp(p, q, t) = p + (q − p)·t` (§6.3).
#[inline]
pub fn lerp(p: f64, q: f64, t: f64) -> f64 {
    p + (q - p) * t
}

/// Apply a row-major 3×4 matrix in the order of §6.3.
#[inline]
pub fn apply_matrix(m: &[f64; 12], p: [f64; 3]) -> [f64; 3] {
    let r =
        |i: usize| ((m[4 * i] * p[0] + m[4 * i + 1] * p[1]) + m[4 * i + 2] * p[2]) + m[4 * i + 3];
    [r(0), r(1), r(2)]
}

/// Grid cell indices `(a, du)` along one axis with `n` points (§6.3).
#[inline]
pub fn grid_index(t: f64, n: usize) -> (usize, f64) {
    let s = t * (n - 1) as f64;
    let a = (s.floor().max(0.0) as usize).min(n - 2);
    (a, s - a as f64)
}

/// Bilinear grid evaluation (§6.3), `u, v ∈ [0, 1)`.
pub fn grid_eval(points: &[Vec<[f64; 3]>], u: f64, v: f64) -> [f64; 3] {
    let (a, du) = grid_index(u, points[0].len());
    let (b, dv) = grid_index(v, points.len());
    let (p00, p01, p10, p11) = (
        points[b][a],
        points[b][a + 1],
        points[b + 1][a],
        points[b + 1][a + 1],
    );
    let mut s = [0.0; 3];
    for i in 0..3 {
        s[i] = lerp(lerp(p00[i], p01[i], du), lerp(p10[i], p11[i], du), dv);
    }
    s
}

/// Which section row(s) a loft uses at `v` (§6.3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SectionPick {
    /// Row `i` as is.
    Row(usize),
    /// Lerp rows `i` and `i + 1` with `t`.
    Lerp(usize, f64),
}

/// Section lookup of §6.3 over the `v` column (IEEE comparisons, so a NaN
/// never matches — this is also the legacy behaviour).
pub fn section_pick(vs: &[f64], v: f64) -> SectionPick {
    if v <= vs[0] {
        return SectionPick::Row(0);
    }
    for i in 0..vs.len() - 1 {
        if v <= vs[i + 1] {
            return SectionPick::Lerp(i, (v - vs[i]) / (vs[i + 1] - vs[i]));
        }
    }
    SectionPick::Row(vs.len() - 1)
}

/// Loft point from an interpolated section `[rx, front, back, cx, cy, cz, offset]` (§6.3).
pub fn loft_point(s: &[f64; 7], u: f64) -> [f64; 3] {
    let [rx, front, back, cx, cy, cz, offset] = *s;
    let th = (u - 0.5) * std::f64::consts::TAU + offset;
    let (sin, cos) = (th.sin(), th.cos());
    [
        cx + rx * sin,
        cy,
        cz + (if cos >= 0.0 { front } else { back }) * cos,
    ]
}

/// Loft evaluation (§6.3).
pub fn loft_eval(sections: &[[f64; 8]], vs: &[f64], u: f64, v: f64) -> [f64; 3] {
    let mut s = [0.0; 7];
    match section_pick(vs, v) {
        SectionPick::Row(i) => s.copy_from_slice(&sections[i][1..]),
        SectionPick::Lerp(i, t) => {
            for (j, o) in s.iter_mut().enumerate() {
                *o = lerp(sections[i][j + 1], sections[i + 1][j + 1], t);
            }
        }
    }
    loft_point(&s, u)
}

/// The per-cell back end of §6.4 plus the working image.
pub(super) struct Work {
    img: Vec<u8>,
    used: Vec<bool>,
    pub(super) cells: usize,
    pub(super) material: bool,
    legacy: bool,
    support: bool,
}

/// Result of segmentation for one cell: primary, secondary, weight.
pub(super) type Seg = (u8, u8, u8);

impl Work {
    #[inline]
    fn put(&mut self, x: usize, y: usize, px: [u8; 4]) {
        let o = (y * CANON + x) * 4;
        self.img[o..o + 4].copy_from_slice(&px);
    }

    /// Steps 1–8 of §6.4 for one record. `seg` runs step 5; `color` is the
    /// patch colour (only needed without a material).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn cell(
        &mut self,
        at: &dyn Fn() -> String,
        u: i64,
        v: i64,
        id: i64,
        xyz: [f64; 3],
        color: &dyn Fn() -> Result<[u8; 3], CompileError>,
        seg: &mut dyn FnMut(u8, [f64; 3]) -> Result<Seg, CompileError>,
    ) -> Result<(), CompileError> {
        if u % 4 != 0 || v % 4 != 0 || !(0..1024).contains(&u) || !(0..768).contains(&v) {
            return err(
                Code::Uv,
                at(),
                format!("anchor ({u},{v}) not a multiple of 4 inside 0..1024 x 0..768"),
            );
        }
        if !(1..=254).contains(&id) {
            return err(Code::Id, at(), format!("part id {id} not in 1..254"));
        }
        let (mx, my) = ((u / 4) as usize, (v / 4) as usize);
        let slot = my * 256 + mx;
        if self.used[slot] {
            return err(
                Code::Overlap,
                at(),
                format!("cell ({u},{v}) is already used"),
            );
        }
        self.used[slot] = true;
        const NAMES: [&str; 3] = ["X", "Y", "Z"];
        for i in 0..3 {
            if !xyz[i].is_finite() {
                return err(
                    Code::NonFinite,
                    at(),
                    format!("{}={} is not finite", NAMES[i], xyz[i]),
                );
            }
        }
        for i in 0..3 {
            if xyz[i] < encode::MIN[i] || xyz[i] > encode::MAX[i] {
                return err(
                    Code::Range,
                    at(),
                    format!(
                        "{}={} outside [{}, {}]",
                        NAMES[i],
                        xyz[i],
                        encode::MIN[i],
                        encode::MAX[i]
                    ),
                );
            }
        }
        let (primary, secondary, weight) = seg(id as u8, xyz)?;
        let (u, v) = (u as usize, v as usize);
        if !self.material {
            let c = color()?;
            let px = [c[0], c[1], c[2], 255];
            for y in v..v + 4 {
                for x in u..u + 4 {
                    self.put(x, y, px);
                }
            }
        }
        let alpha = self.img[(v * CANON + u) * 4 + 3];
        let cov = if alpha == 255 {
            255
        } else if alpha == 0 && !self.legacy && self.support {
            128
        } else {
            return Ok(()); // skipped: counts for overlap only
        };
        if self.legacy {
            let z8 = encode::legacy_byte(xyz[2], 4.0);
            self.put(mx, 768 + my, [primary, 0, 0, 255]);
            self.put(256 + mx, 768 + my, [z8, z8, z8, 255]);
            self.put(512 + mx, 768 + my, [255, 255, 255, 255]);
            let (x8, y8) = (
                encode::legacy_byte(xyz[0], 4.0),
                encode::legacy_byte(xyz[1], 2.0),
            );
            self.put(768 + mx, 768 + my, [x8, y8, 0, 255]);
        } else {
            let qx = encode::quantize(xyz[0], encode::SCALE[0]);
            let qy = encode::quantize(xyz[1], encode::SCALE[1]);
            let qz = encode::quantize(xyz[2], encode::SCALE[2]);
            self.put(mx, 768 + my, [primary, id as u8, secondary, 255]);
            self.put(
                256 + mx,
                768 + my,
                [(qz / 16) as u8, (qz % 16) as u8 * 17, weight, 255],
            );
            self.put(512 + mx, 768 + my, [cov, 0, 0, 255]);
            let b = (((qx % 16) << 4) | (qy % 16)) as u8;
            self.put(
                768 + mx,
                768 + my,
                [(qx / 16) as u8, (qy / 16) as u8, b, 255],
            );
        }
        self.cells += 1;
        Ok(())
    }
}

/// Apply typed rules to one cell (§6.4 step 5, §7).
pub fn apply_rules(
    rules: &[Rule],
    widths: &BTreeMap<u8, f64>,
    id: u8,
    xyz: [f64; 3],
    legacy: bool,
) -> Seg {
    let (mut primary, mut secondary, mut weight) = (id, 0u8, 0u8);
    for r in rules {
        if r.id != primary {
            continue;
        }
        let w = if legacy {
            0.0
        } else {
            r.width
                .or_else(|| widths.get(&r.assign).copied())
                .unwrap_or(0.0)
        };
        let Split { primary: p, blend } =
            encode::split(r.id, r.assign, xyz[r.axis], r.greater_than, w, r.profile);
        primary = p;
        if let Some((s, wt)) = blend {
            secondary = s;
            weight = wt;
        }
    }
    (primary, secondary, weight)
}

pub(super) fn new_work(material_png: Option<&[u8]>, opts: &Options) -> Result<Work, CompileError> {
    if !SIZES.contains(&opts.size) {
        return err(
            Code::Size,
            "--size",
            format!("{} is not 1024, 2048, 3072 or 4096", opts.size),
        );
    }
    let mut img = match material_png {
        Some(bytes) => material::load(bytes, opts.legacy)?,
        None => vec![0u8; CANON * CANON * 4],
    };
    let bad_alpha = if material_png.is_some() && !opts.legacy {
        img[..CANON * 768 * 4]
            .chunks_exact(4)
            .position(|p| p[3] != 0 && p[3] != 255)
    } else {
        None
    };
    if let Some(i) = bad_alpha {
        return err(
            Code::MaterialAlpha,
            "--material",
            format!(
                "texel ({},{}) has alpha {} (must be 0 or 255)",
                i % CANON,
                i / CANON,
                img[i * 4 + 3]
            ),
        );
    }
    img[CANON * 768 * 4..].fill(0);
    Ok(Work {
        img,
        used: vec![false; 256 * 192],
        cells: 0,
        material: material_png.is_some(),
        legacy: opts.legacy,
        support: opts.support,
    })
}

pub(super) fn finish(
    mut w: Work,
    opts: &Options,
    warnings: Vec<String>,
) -> Result<Atlas, CompileError> {
    if w.cells == 0 && !opts.legacy {
        return err(Code::Empty, "", "no cell would be active in the atlas");
    }
    w.put(0, 960, [82, 50, 68, 255]);
    w.put(1, 960, [82, 79, 84, 255]);
    w.put(2, 960, [2, 4, 4, 255]);
    if !opts.legacy {
        w.put(3, 960, [83, 85, 66, 255]);
        if opts.segments {
            w.put(4, 960, [66, 76, 68, 255]);
        }
    }
    let cells = w.cells;
    Ok(Atlas {
        size: opts.size,
        rgba: upscale(&w.img, opts.size as usize / CANON),
        cells,
        warnings,
    })
}

/// Nearest upscale of the 1024² working image by `k` (§6.6).
pub fn upscale(img: &[u8], k: usize) -> Vec<u8> {
    if k == 1 {
        return img.to_vec();
    }
    let s = CANON * k;
    let mut out = vec![0u8; s * s * 4];
    for y in 0..CANON {
        let src = &img[y * CANON * 4..(y + 1) * CANON * 4];
        let row0 = y * k * s * 4;
        {
            let dst = &mut out[row0..row0 + s * 4];
            for (x, px) in src.chunks_exact(4).enumerate() {
                for j in 0..k {
                    let o = (x * k + j) * 4;
                    dst[o..o + 4].copy_from_slice(px);
                }
            }
        }
        for r in 1..k {
            out.copy_within(row0..row0 + s * 4, row0 + r * s * 4);
        }
    }
    out
}

/// Compile a validated surface (default or legacy encoding) with an optional
/// material PNG (§6).
pub fn compile_surface(
    surface: &Surface,
    material_png: Option<&[u8]>,
    opts: &Options,
) -> Result<Atlas, CompileError> {
    surface.check()?;
    let mut w = new_work(material_png, opts)?;
    let mut warnings = Vec::new();
    if opts.legacy
        && opts.segments
        && surface
            .segments
            .iter()
            .any(|r| r.width.is_some_and(|x| x > 0.0))
    {
        warnings.push("W_LEGACY_WIDTH: segment widths are ignored with --legacy".to_string());
    }
    let none: &[Rule] = &[];
    let rules = if opts.segments {
        &surface.segments[..]
    } else {
        none
    };
    let mut seg = |id: u8, xyz: [f64; 3]| {
        Ok(apply_rules(
            rules,
            &opts.segment_widths,
            id,
            xyz,
            opts.legacy,
        ))
    };
    for (pi, p) in surface.patches.iter().enumerate() {
        let color = p.color;
        let colf = move || Ok(color);
        match &p.shape {
            Shape::Samples(rows) => {
                for (ri, r) in rows.iter().enumerate() {
                    let at = || format!("patches[{pi}].samples[{ri}] cell ({},{})", r.u, r.v);
                    w.cell(&at, r.u, r.v, r.id, r.xyz, &colf, &mut seg)?;
                }
            }
            Shape::Grid {
                id,
                rect,
                points,
                matrix,
            } => {
                for_rect(rect, |xx, yy, u, v| {
                    let at = || format!("patches[{pi}] (grid) cell ({xx},{yy})");
                    let xyz = apply_matrix(matrix, grid_eval(points, u, v));
                    w.cell(&at, xx, yy, *id, xyz, &colf, &mut seg)
                })?;
            }
            Shape::Loft {
                id,
                rect,
                sections,
                matrix,
            } => {
                let vs: Vec<f64> = sections.iter().map(|s| s[0]).collect();
                for_rect(rect, |xx, yy, u, v| {
                    let at = || format!("patches[{pi}] (loft) cell ({xx},{yy})");
                    let xyz = apply_matrix(matrix, loft_eval(sections, &vs, u, v));
                    w.cell(&at, xx, yy, *id, xyz, &colf, &mut seg)
                })?;
            }
        }
    }
    if opts.legacy && w.cells == 0 {
        warnings.push("W_EMPTY: no cell written; the runtime rejects this atlas".to_string());
    }
    finish(w, opts, warnings)
}

/// Visit the anchors of a half-open rect in generation order (§5.6, §6.3).
fn for_rect(
    rect: &[i64; 4],
    mut f: impl FnMut(i64, i64, f64, f64) -> Result<(), CompileError>,
) -> Result<(), CompileError> {
    let [x, y, w, h] = *rect;
    let mut yy = y;
    while yy <= y + h - 4 {
        let mut xx = x;
        while xx <= x + w - 4 {
            f(
                xx,
                yy,
                (xx - x) as f64 / w as f64,
                (yy - y) as f64 / h as f64,
            )?;
            xx += 4;
        }
        yy += 4;
    }
    Ok(())
}

/// Compile surface JSON bytes (§5, §6). The default mode runs the structural
/// pass first; `opts.legacy` follows §6.8.
pub fn compile(
    surface_json: &[u8],
    material_png: Option<&[u8]>,
    opts: &Options,
) -> Result<Atlas, CompileError> {
    let doc = json::parse(surface_json, opts.legacy)
        .map_err(|e| CompileError::new(Code::Json, format!("byte {}", e.offset), e.msg))?;
    if opts.legacy {
        return super::legacy::compile(&doc, material_png, opts);
    }
    let mut warnings = Vec::new();
    let surface = Surface::from_json_warn(&doc, &mut warnings)?;
    let mut atlas = compile_surface(&surface, material_png, opts)?;
    warnings.append(&mut atlas.warnings);
    atlas.warnings = warnings;
    Ok(atlas)
}
