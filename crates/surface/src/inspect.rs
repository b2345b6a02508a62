// re2d surface compiler — `re2d atlas inspect`: summarise an atlas with the runtime decoder (spec: surface-compiler.md §9.2).
//! Decoding is done only by [`re2d::rotsprite::decode`] (rotsprite-atlas.md
//! §7); this module adds bookkeeping: header flags, point counts per part,
//! coordinate bounds, blend pairs, and checks of the compiler's own output
//! rules (§2.4: uniform k×k blocks, binary alpha, zero reserved rows).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use re2d::rotsprite::atlas::{cell_grid, extensions};
use re2d::rotsprite::{AtlasImage, R2DRotPoint, decode, header_ok};

/// Per-part statistics.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PartStats {
    /// Number of decoded points with this primary part.
    pub points: usize,
    /// Points whose group differs from the part (segmented).
    pub regrouped: usize,
    /// Points with a secondary part.
    pub blended: usize,
    /// min/max of x, y, z.
    pub min: [f32; 3],
    /// max of x, y, z.
    pub max: [f32; 3],
}

/// One decoded cell with its anchor (for `--json`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    /// Canonical anchor.
    pub u: u16,
    /// Canonical anchor.
    pub v: u16,
    /// Coverage value of the cell's coverage texel (255 or 128).
    pub coverage: u8,
    /// The decoded point.
    pub point: R2DRotPoint,
}

/// What `re2d atlas inspect` reports.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Physical width (the side of a square atlas).
    pub size: u32,
    /// Physical height.
    pub height: u32,
    /// Header texels valid (§4.2).
    pub header: bool,
    /// SUB extension present.
    pub sub: bool,
    /// BLD extension present (with SUB).
    pub bld: bool,
    /// Decoded cells in row-major order (empty when rejected).
    pub cells: Vec<Cell>,
    /// Statistics per primary part.
    pub parts: BTreeMap<u8, PartStats>,
    /// `(primary, secondary) → count` of blended points.
    pub blend_pairs: BTreeMap<(u8, u8), usize>,
    /// Decoder rejection, if any.
    pub rejected: Option<String>,
    /// Further problems (compiler output rules).
    pub problems: Vec<String>,
}

/// Inspect an RGBA8 atlas of `w`×`h` pixels (stride `4·w`).
pub fn inspect(rgba: &[u8], w: u32, h: u32) -> Report {
    let mut r = Report {
        size: w,
        height: h,
        ..Report::default()
    };
    if w != h || !super::SIZES.contains(&w) {
        r.rejected = Some(format!(
            "size {w}x{h} is not a square 1024, 2048, 3072 or 4096"
        ));
        return r;
    }
    let img = match AtlasImage::new(rgba, w as i32, h as i32, 4 * w as i32) {
        Ok(i) => i,
        Err(e) => {
            r.rejected = Some(format!("{e:?}"));
            return r;
        }
    };
    r.header = header_ok(&img);
    if let Some(e) = extensions(&img) {
        r.sub = e.sub;
        r.bld = e.bld;
    }
    let k = (w / 1024) as usize;
    let px = |x: usize, y: usize| -> [u8; 4] { img.pixel_at((x * k) as i64, (y * k) as i64) };
    match decode(&img) {
        Err(e) => r.rejected = Some(e.to_string()),
        Ok(points) => {
            let grid = cell_grid(&img).unwrap_or_default();
            for (slot, &idx) in grid.iter().enumerate() {
                let Some(p) = usize::try_from(idx).ok().and_then(|i| points.get(i)) else {
                    continue;
                };
                let (mx, my) = (slot % 256, slot / 256);
                r.cells.push(Cell {
                    u: (mx * 4) as u16,
                    v: (my * 4) as u16,
                    coverage: px(512 + mx, 768 + my)[0],
                    point: *p,
                });
                let s = r.parts.entry(p.part).or_insert_with(|| PartStats {
                    min: [f32::INFINITY; 3],
                    max: [f32::NEG_INFINITY; 3],
                    ..PartStats::default()
                });
                s.points += 1;
                s.regrouped += (p.group != p.part) as usize;
                s.blended += (p.blend_part != 0) as usize;
                for (i, c) in [p.x, p.y, p.z].into_iter().enumerate() {
                    s.min[i] = s.min[i].min(c);
                    s.max[i] = s.max[i].max(c);
                }
                if p.blend_part != 0 {
                    *r.blend_pairs.entry((p.part, p.blend_part)).or_default() += 1;
                }
            }
        }
    }
    // Compiler output rules (§2.3, §2.4): binary alpha outside legacy material
    // quirks, uniform k×k blocks, reserved header rows zero.
    let side = w as usize;
    let mut nonbinary = 0usize;
    let mut nonuniform = 0usize;
    for y in 0..1024 {
        for x in 0..1024 {
            let t = px(x, y);
            if t[3] != 0 && t[3] != 255 {
                nonbinary += 1;
            }
            if k > 1 {
                let base = (y * k * side + x * k) * 4;
                'blk: for dy in 0..k {
                    for dx in 0..k {
                        let o = base + (dy * side + dx) * 4;
                        if rgba[o..o + 4] != t {
                            nonuniform += 1;
                            break 'blk;
                        }
                    }
                }
            }
        }
    }
    if nonbinary > 0 {
        r.problems
            .push(format!("{nonbinary} texels with alpha other than 0 or 255"));
    }
    if nonuniform > 0 {
        r.problems
            .push(format!("{nonuniform} k×k blocks are not uniform"));
    }
    let reserved = (960..1024)
        .flat_map(|y| (0..1024).map(move |x| (x, y)))
        .filter(|&(x, y)| !(y == 960 && x < 5) && px(x, y) != [0; 4])
        .count();
    if reserved > 0 {
        r.problems.push(format!(
            "{reserved} non-zero texels in the reserved rows 960..1023"
        ));
    }
    if !r.sub && px(4, 960) == [66, 76, 68, 255] {
        r.problems
            .push("BLD marker without SUB (ignored by readers)".into());
    }
    r
}

impl Report {
    /// Human-readable summary.
    pub fn text(&self) -> String {
        let mut s = String::new();
        if self.size == self.height && self.size.is_multiple_of(1024) {
            let k = self.size / 1024;
            let _ = writeln!(s, "size: {0}x{0} (k={k})", self.size);
        } else {
            let _ = writeln!(s, "size: {}x{}", self.size, self.height);
        }
        let _ = writeln!(
            s,
            "header: {}  SUB: {}  BLD: {}",
            if self.header { "R2D ROT v2" } else { "INVALID" },
            yn(self.sub),
            yn(self.bld)
        );
        match &self.rejected {
            Some(e) => {
                let _ = writeln!(s, "decoder: REJECTED: {e}");
            }
            None => {
                let support = self.cells.iter().filter(|c| c.coverage == 128).count();
                let _ = writeln!(
                    s,
                    "decoder: ok, {} points ({} transparent support)",
                    self.cells.len(),
                    support
                );
                let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
                let _ = writeln!(s, "parts:");
                for (id, p) in &self.parts {
                    let _ = writeln!(
                        s,
                        "  {id:3}: {:5} points  x [{}, {}]  y [{}, {}]  z [{}, {}]{}{}",
                        p.points,
                        p.min[0],
                        p.max[0],
                        p.min[1],
                        p.max[1],
                        p.min[2],
                        p.max[2],
                        if p.regrouped > 0 {
                            format!("  segmented {}", p.regrouped)
                        } else {
                            String::new()
                        },
                        if p.blended > 0 {
                            format!("  blended {}", p.blended)
                        } else {
                            String::new()
                        },
                    );
                    for i in 0..3 {
                        lo[i] = lo[i].min(p.min[i]);
                        hi[i] = hi[i].max(p.max[i]);
                    }
                }
                let _ = writeln!(
                    s,
                    "bounds: x [{}, {}]  y [{}, {}]  z [{}, {}]",
                    lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]
                );
                if !self.blend_pairs.is_empty() {
                    let pairs: Vec<String> = self
                        .blend_pairs
                        .iter()
                        .map(|((a, b), n)| format!("{a}→{b}: {n}"))
                        .collect();
                    let _ = writeln!(s, "blend pairs: {}", pairs.join(", "));
                }
            }
        }
        if self.problems.is_empty() {
            let _ = writeln!(s, "problems: none");
        } else {
            for p in &self.problems {
                let _ = writeln!(s, "problem: {p}");
            }
        }
        s
    }

    /// `{"size":S,"sub":bool,"bld":bool,"cells":[[u,v,primary,group,secondary,weight,coverage,X,Y,Z],...]}`
    pub fn json(&self) -> String {
        let mut s = format!(
            "{{\"size\":{},\"sub\":{},\"bld\":{},\"cells\":[",
            self.size, self.sub, self.bld
        );
        for (i, c) in self.cells.iter().enumerate() {
            let p = &c.point;
            if i > 0 {
                s.push(',');
            }
            let _ = write!(
                s,
                "[{},{},{},{},{},{},{},{},{},{}]",
                c.u, c.v, p.part, p.group, p.blend_part, p.blend_weight, c.coverage, p.x, p.y, p.z
            );
        }
        s.push_str("]}");
        s
    }
}

fn yn(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}
