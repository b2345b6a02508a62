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
///
/// x86-64: the sixteen samples in four SSE2 registers, with no branch on a
/// sample (the dense figure's parts below 16 take this pick for every
/// point, and the opaque tests and the running minimum mispredicted about
/// three times per point). Integer arithmetic, so the same pick as the
/// scalar form: sums and `n·c − sum` fit 16 bits (16·255), the squared
/// distances 32 bits; the first minimum in sample order wins, as the
/// scalar form's strict `<` keeps it.
#[cfg(target_arch = "x86_64")]
fn representative(t: &Texels<'_>, mx: usize, my: usize, anchor: [u8; 4]) -> [u8; 4] {
    use std::arch::x86_64::*;
    // SAFETY: x = 4·mx + 3 < 1024, y = 4·my + 3 < 768; SSE2 is part of the
    // x86-64 baseline; the loads read the 16-byte arrays they name.
    unsafe {
        let rows = t.block4(4 * mx, 4 * my);
        // −1 in the 32-bit lanes of opaque samples (alpha, the top byte, 255).
        let ones = _mm_set1_epi8(-1);
        let opaque = rows.map(|r| _mm_srai_epi32::<24>(_mm_cmpeq_epi8(r, ones)));
        let count = _mm_add_epi32(
            _mm_add_epi32(opaque[0], opaque[1]),
            _mm_add_epi32(opaque[2], opaque[3]),
        );
        let count = _mm_add_epi32(count, _mm_shuffle_epi32::<0b01_00_11_10>(count));
        let count = _mm_add_epi32(count, _mm_shuffle_epi32::<0b10_11_00_01>(count));
        let n = -_mm_cvtsi128_si32(count);
        if n == 0 {
            return anchor;
        }
        // Per-channel sums of the opaque samples, as 16-bit lanes
        // [r, g, b, a, r, g, b, a].
        let zero = _mm_setzero_si128();
        let halves = |r: __m128i| (_mm_unpacklo_epi8(r, zero), _mm_unpackhi_epi8(r, zero));
        let mut sum = zero;
        for (r, m) in rows.iter().zip(&opaque) {
            let (lo, hi) = halves(_mm_and_si128(*r, *m));
            sum = _mm_add_epi16(sum, _mm_add_epi16(lo, hi));
        }
        sum = _mm_add_epi16(sum, _mm_shuffle_epi32::<0b01_00_11_10>(sum));
        // Alpha lanes out of the distance: weight 0, sum 0.
        let rgb = _mm_set_epi16(0, -1, -1, -1, 0, -1, -1, -1);
        let sum = _mm_and_si128(sum, rgb);
        let nv = _mm_and_si128(_mm_set1_epi16(n as i16), rgb);
        // Squared distances of the four samples of each row, i32::MAX where
        // the sample is not opaque.
        let dist = |lo: __m128i, hi: __m128i| {
            let sq = |h: __m128i| {
                let e = _mm_sub_epi16(_mm_mullo_epi16(h, nv), sum);
                _mm_madd_epi16(e, e)
            };
            let (a, b) = (_mm_castsi128_ps(sq(lo)), _mm_castsi128_ps(sq(hi)));
            _mm_add_epi32(
                _mm_castps_si128(_mm_shuffle_ps::<0b10_00_10_00>(a, b)),
                _mm_castps_si128(_mm_shuffle_ps::<0b11_01_11_01>(a, b)),
            )
        };
        let big = _mm_set1_epi32(i32::MAX);
        let d = std::array::from_fn::<_, 4, _>(|i| {
            let (lo, hi) = halves(rows[i]);
            let m = opaque[i];
            _mm_or_si128(_mm_and_si128(m, dist(lo, hi)), _mm_andnot_si128(m, big))
        });
        let min = |a: __m128i, b: __m128i| {
            let gt = _mm_cmpgt_epi32(a, b);
            _mm_or_si128(_mm_and_si128(gt, b), _mm_andnot_si128(gt, a))
        };
        let mut low = min(min(d[0], d[1]), min(d[2], d[3]));
        low = min(low, _mm_shuffle_epi32::<0b01_00_11_10>(low));
        low = min(low, _mm_shuffle_epi32::<0b10_11_00_01>(low));
        let mut first = 0u32;
        for (i, d) in d.iter().enumerate() {
            let eq = _mm_castsi128_ps(_mm_cmpeq_epi32(*d, low));
            first |= (_mm_movemask_ps(eq) as u32) << (4 * i);
        }
        let k = first.trailing_zeros() as usize;
        let mut row = [0u8; 16];
        _mm_storeu_si128(row.as_mut_ptr().cast(), rows[k / 4]);
        let i = 4 * (k % 4);
        [row[i], row[i + 1], row[i + 2], row[i + 3]]
    }
}

/// [`representative`] one sample at a time, in the words of §7.6.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn representative_scalar(t: &Texels<'_>, mx: usize, my: usize, anchor: [u8; 4]) -> [u8; 4] {
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

/// The scalar form is the pick off x86-64.
#[cfg(not(target_arch = "x86_64"))]
fn representative(t: &Texels<'_>, mx: usize, my: usize, anchor: [u8; 4]) -> [u8; 4] {
    representative_scalar(t, mx, my, anchor)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The SSE2 pick is the scalar pick of §7.6 on random blocks: any
    /// number of opaque samples (none, all), other alphas, equal colours
    /// (ties), colours at 0 and 255, at one and two pixels per texel.
    #[test]
    fn representative_matches_the_scalar_form() {
        let mut seed = 0x2545_f491_u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        let mut checked = 0;
        for k in [1usize, 2, 3] {
            let side = 1024 * k;
            let mut rgba = vec![0u8; side * side * 4];
            for my in 0..64 {
                for mx in 0..64 {
                    let opaque_share = next() % 17;
                    let palette: [[u8; 3]; 3] = std::array::from_fn(|_| {
                        let c = next().to_le_bytes();
                        [c[0], c[1], c[2]]
                    });
                    let plain = next() % 3 == 0;
                    for dy in 0..4 {
                        for dx in 0..4 {
                            let r = next();
                            let alpha = if r % 16 < opaque_share {
                                255
                            } else {
                                [0, 254, 128, 1][(r >> 4) as usize % 4]
                            };
                            let c = if plain {
                                palette[(r >> 8) as usize % 3]
                            } else {
                                let b = (r >> 8).to_le_bytes();
                                [b[0], b[1] | b[0] & 0x80, b[2] & 0xf8]
                            };
                            let o = (k * (4 * my + dy) * side + k * (4 * mx + dx)) * 4;
                            rgba[o..o + 4].copy_from_slice(&[c[0], c[1], c[2], alpha]);
                        }
                    }
                }
            }
            let img = AtlasImage::new(&rgba, side as i32, side as i32, 4 * side as i32).unwrap();
            let t = Texels::new(&img).unwrap();
            for my in 0..64 {
                for mx in 0..64 {
                    let anchor = [1, 2, 3, 4];
                    assert_eq!(
                        representative(&t, mx, my, anchor),
                        representative_scalar(&t, mx, my, anchor),
                        "k {k} cell ({mx}, {my})"
                    );
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 3 * 64 * 64);
    }
}
