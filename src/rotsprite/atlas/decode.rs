// re2d — v2 point decode: activity, rejection rules, point construction and colour picks (spec: rotsprite-atlas.md §6–7).

use std::convert::Infallible;
use std::mem::MaybeUninit;

use super::super::image::AtlasImage;
use super::super::types::{CBool, R2DRotPoint};
use super::texels::Texels;
use super::{DecodeError, DecodeErrorKind, Extensions, GRID_H, GRID_W, header_error, maps};

/// Texel x of the ID, depth, coverage and XY maps' column 0 (row 768).
const MAP_ID: usize = 0;
const MAP_DEPTH: usize = 256;
const MAP_COVERAGE: usize = 512;
const MAP_XY: usize = 768;

fn fail(kind: DecodeErrorKind, mx: usize, my: usize) -> DecodeError {
    DecodeError {
        kind,
        cell: Some((mx as u16, my as u16)),
    }
}

/// The feature pick's preference order (§7.7): block samples (dx, dy) by
/// distance to (2, 2), ties in visiting order. The first opaque one is the
/// sample the full scan with a strict `<` would keep.
const FEATURE_ORDER: [(usize, usize); 16] = [
    (2, 2),
    (2, 1),
    (1, 2),
    (3, 2),
    (2, 3),
    (1, 1),
    (3, 1),
    (1, 3),
    (3, 3),
    (2, 0),
    (0, 2),
    (1, 0),
    (3, 0),
    (0, 1),
    (0, 3),
    (0, 0),
];

/// Representative pick (§7.6): the opaque block sample nearest the mean.
fn representative(t: &Texels<'_>, mx: usize, my: usize, anchor: [u8; 4]) -> [u8; 4] {
    let mut samples = [[0u8; 4]; 16];
    let mut n = 0usize;
    let (mut sr, mut sg, mut sb) = (0i32, 0i32, 0i32);
    for dy in 0..4 {
        for dx in 0..4 {
            // SAFETY: x = 4·mx + dx < 1024, y = 4·my + dy < 768.
            let s = unsafe { t.texel(4 * mx + dx, 4 * my + dy) };
            if s[3] == 255 {
                samples[n] = s;
                n += 1;
                sr += s[0] as i32;
                sg += s[1] as i32;
                sb += s[2] as i32;
            }
        }
    }
    if n == 0 {
        return anchor;
    }
    let ni = n as i32;
    let mut best = samples[0];
    let mut best_d = i32::MAX;
    for s in &samples[..n] {
        let dr = ni * s[0] as i32 - sr;
        let dg = ni * s[1] as i32 - sg;
        let db = ni * s[2] as i32 - sb;
        let d = dr * dr + dg * dg + db * db;
        if d < best_d {
            best_d = d;
            best = *s;
        }
    }
    best
}

/// Feature pick (§7.7): the opaque block sample nearest sample (2, 2).
#[inline(always)]
fn feature(t: &Texels<'_>, mx: usize, my: usize, anchor: [u8; 4]) -> [u8; 4] {
    for (dx, dy) in FEATURE_ORDER {
        // SAFETY: x = 4·mx + dx < 1024, y = 4·my + dy < 768.
        let s = unsafe { t.texel(4 * mx + dx, 4 * my + dy) };
        if s[3] == 255 {
            return s;
        }
    }
    anchor
}

/// Validates active cell (mx, my) and writes its point into `slot` (§7.4,
/// §7.5). Not inlined: inlined into the cell loop, its texel addresses
/// would become induction variables updated for every inactive cell too.
#[inline(never)]
pub(super) fn point(
    t: &Texels<'_>,
    ext: Extensions,
    mx: usize,
    my: usize,
    slot: &mut MaybeUninit<R2DRotPoint>,
) -> Result<(), DecodeError> {
    use DecodeErrorKind::*;
    debug_assert!(mx < GRID_W && my < GRID_H);
    // SAFETY: map texels have x < 1024 and y = 768 + my < 960; the anchor
    // x = 4·mx < 1024, y = 4·my < 768.
    let (id, depth, cov, xy, anchor) = unsafe {
        (
            t.texel(MAP_ID + mx, 768 + my),
            t.texel(MAP_DEPTH + mx, 768 + my),
            t.texel(MAP_COVERAGE + mx, 768 + my),
            t.texel(MAP_XY + mx, 768 + my),
            t.texel(4 * mx, 4 * my),
        )
    };
    let part = id[0];
    if part == 0 || part == 255 {
        return Err(fail(PartRange, mx, my));
    }
    if cov[0] != 255 && !(ext.sub && cov[0] == 128) {
        return Err(fail(Coverage, mx, my));
    }
    if cov[3] != 255 {
        return Err(fail(CoverageAlpha, mx, my));
    }
    if id[3] != 255 {
        return Err(fail(IdAlpha, mx, my));
    }
    if depth[3] != 255 {
        return Err(fail(DepthAlpha, mx, my));
    }
    if xy[3] != 255 {
        return Err(fail(XyAlpha, mx, my));
    }
    if anchor[3] != 255 && !(ext.sub && anchor[3] == 0) {
        return Err(fail(AnchorAlpha, mx, my));
    }
    if ext.bld && (id[2] == 255 || (id[2] == 0 && depth[2] != 0)) {
        return Err(fail(Blend, mx, my));
    }
    let mut x = (xy[0] as i32 - 128) as f32 * 0.25f32;
    let mut y = (xy[1] as i32 - 128) as f32 * 0.5f32;
    let mut z = (depth[0] as i32 - 128) as f32 * 0.25f32;
    if ext.sub {
        x += (xy[2] >> 4) as f32 / 64.0f32;
        y += (xy[2] & 15) as f32 / 32.0f32;
        z += (depth[1] / 17) as f32 / 64.0f32;
    }
    let (blend_part, blend_weight) = if ext.bld { (id[2], depth[2]) } else { (0, 0) };
    let mut rgba = if part < 16 {
        representative(t, mx, my, anchor)
    } else {
        feature(t, mx, my, anchor)
    };
    if ext.sub {
        rgba[3] = anchor[3];
    }
    slot.write(R2DRotPoint {
        x,
        y,
        z,
        rgba,
        part,
        group: if ext.sub && id[1] != 0 { id[1] } else { part },
        blend_part,
        blend_weight,
        mapped: CBool::new(ext.sub),
        ..R2DRotPoint::ZERO
    });
    // The padding now, while the record's lines are in cache: a separate
    // pass over a dense atlas's 8.8 MB of records would fetch them again.
    zero_pad(slot);
    Ok(())
}

/// Decodes every active control cell in row-major order (§7), handing each
/// point to `sink`. Returns the point count.
///
/// On error some points may already have been handed out; callers discard
/// them.
pub fn scan(img: &AtlasImage<'_>, mut sink: impl FnMut(R2DRotPoint)) -> Result<usize, DecodeError> {
    let t = maps(img).ok_or_else(header_error)?;
    let ext = t.extensions();
    each_active(&t, |mx, my, _| {
        let mut p = MaybeUninit::uninit();
        point(&t, ext, mx, my, &mut p)?;
        // SAFETY: `point` wrote the record (it returned Ok).
        sink(unsafe { p.assume_init() });
        Ok(())
    })
}

/// [`scan`] writing point `i` into `slots[i]` (which must have room for
/// every active cell: [`super::MAX_POINTS`], or the active count). Returns the
/// count; `slots[..count]` are initialised, padding bytes zero.
pub(crate) fn decode_into(
    img: &AtlasImage<'_>,
    slots: &mut [MaybeUninit<R2DRotPoint>],
) -> Result<usize, DecodeError> {
    let t = maps(img).ok_or_else(header_error)?;
    let ext = t.extensions();
    each_active(&t, |mx, my, i| point(&t, ext, mx, my, &mut slots[i]))
}

/// Calls `f(mx, my)` for every active control cell (mx, my) in row-major
/// order (§7.2; active per §7.3: coverage texel with R ≠ 0 and A ≠ 0),
/// stopping at its first error. A run of 16 coverage
/// texels whose alpha bytes are all zero holds no active cell and is passed
/// over with one read (most of a real atlas's 256×192 grid is empty).
#[inline(always)]
pub(super) fn for_active<E>(
    t: &Texels<'_>,
    mut f: impl FnMut(usize, usize) -> Result<(), E>,
) -> Result<(), E> {
    for my in 0..GRID_H {
        for bx in (0..GRID_W).step_by(16) {
            // SAFETY: x = 512 + bx + 15 ≤ 767 ≤ 1024, y = 768 + my < 960.
            let run = unsafe { t.run::<16>(MAP_COVERAGE + bx, 768 + my) };
            if run.iter().fold(0u8, |a, c| a | c[3]) == 0 {
                continue;
            }
            for (i, c) in run.iter().enumerate() {
                if c[0] != 0 && c[3] != 0 {
                    f(bx + i, my)?;
                }
            }
        }
    }
    Ok(())
}

/// Calls `f(mx, my, i)` for the `i`-th active control cell (mx, my) in
/// row-major order, stopping at its first error. Returns the count of
/// active cells; none is an `Empty` error.
#[inline(always)]
fn each_active(
    t: &Texels<'_>,
    mut f: impl FnMut(usize, usize, usize) -> Result<(), DecodeError>,
) -> Result<usize, DecodeError> {
    let mut count = 0usize;
    for_active(t, |mx, my| {
        f(mx, my, count)?;
        count += 1;
        Ok(())
    })?;
    if count == 0 {
        return Err(DecodeError {
            kind: DecodeErrorKind::Empty,
            cell: None,
        });
    }
    Ok(count)
}

/// Sets the five padding bytes of a record (33–35, 190–191) to zero, as
/// the C records must be (c-abi.md §2.2): a record written as a whole Rust
/// value leaves them unspecified. Every decoded record gets this in
/// [`point`], so the records the decoders hand out have zero padding.
#[inline(always)]
fn zero_pad(r: &mut MaybeUninit<R2DRotPoint>) {
    let b = r.as_mut_ptr().cast::<u8>();
    // SAFETY: offsets 33..36 and 190..192 lie inside the 192-byte record.
    unsafe {
        b.add(33).write(0);
        b.add(34).write(0);
        b.add(35).write(0);
        b.add(190).write(0);
        b.add(191).write(0);
    }
}

/// Number of active cells of a valid atlas (`None`: header invalid).
pub(super) fn count_active(t: &Texels<'_>) -> usize {
    let mut n = 0;
    let Ok(()) = for_active::<Infallible>(t, |_, _| {
        n += 1;
        Ok(())
    });
    n
}

/// Decodes an atlas into a `Vec` of points (Rust API of
/// `r2d_rotsprite_v2_decode`).
pub fn decode(img: &AtlasImage<'_>) -> Result<Vec<R2DRotPoint>, DecodeError> {
    let t = maps(img).ok_or_else(header_error)?;
    let mut points = Vec::with_capacity(count_active(&t));
    super::advise_vec(&mut points);
    let count = decode_into(img, points.spare_capacity_mut())?;
    // SAFETY: decode_into initialised the first `count` slots.
    unsafe { points.set_len(count) };
    Ok(points)
}
