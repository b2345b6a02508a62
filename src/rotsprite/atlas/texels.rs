// re2d — the reading rule of a validated v2 atlas: texel (x, y) is pixel (k·x, k·y) (spec: rotsprite-atlas.md §2).
//
//! Every read of the decoders lies in a region the size rules already
//! guarantee to be inside the image, so one check when the reader is made
//! replaces a bounds check per read (the decoders read about 30 texels per
//! point).

use super::super::image::AtlasImage;
use super::Extensions;

/// Reader of a `1024·k`-square atlas with a valid size and stride.
#[derive(Clone, Copy)]
pub(super) struct Texels<'a> {
    data: &'a [u8],
    stride: usize,
    /// Pixels per working texel (1..=4).
    pub k: usize,
}

impl<'a> Texels<'a> {
    /// A reader when `w == h == 1024·k` (k = 1..=4) and `stride ≥ 4w`;
    /// `AtlasImage` guarantees `(h-1)·stride + 4w` bytes.
    pub fn new(img: &AtlasImage<'a>) -> Option<Self> {
        let w = usize::try_from(img.w).ok()?;
        let k = w / 1024;
        let ok = img.w == img.h
            && w % 1024 == 0
            && (1..=4).contains(&k)
            && img.stride >= 4 * w
            && img.bytes().len() >= (w - 1) * img.stride + 4 * w;
        ok.then_some(Texels {
            data: img.bytes(),
            stride: img.stride,
            k,
        })
    }

    /// The 4 bytes at byte offset `off`.
    ///
    /// # Safety
    /// `off + 4 <= self.data.len()`.
    #[inline(always)]
    unsafe fn at(&self, off: usize) -> [u8; 4] {
        debug_assert!(off + 4 <= self.data.len());
        // SAFETY: guaranteed by the caller.
        unsafe {
            self.data
                .as_ptr()
                .add(off)
                .cast::<[u8; 4]>()
                .read_unaligned()
        }
    }

    /// Working texel (x, y): the pixel (k·x, k·y). The decoders read
    /// texels with `x ≤ 1024` (x = 1024 is the anime decoder's edge read,
    /// which lands in the row's padding or the next row) and `y ≤ 960`.
    ///
    /// # Safety
    /// `x ≤ 1024` and `y ≤ 1022`: then k·y ≤ h − 2 and k·x ≤ w, an offset
    /// of at most (h−2)·stride + 4w, and the image holds (h−1)·stride + 4w
    /// ≥ that + 4 bytes (stride ≥ 4w ≥ 4).
    #[inline(always)]
    pub unsafe fn texel(&self, x: usize, y: usize) -> [u8; 4] {
        debug_assert!(x <= 1024 && y <= 1022);
        // SAFETY: see above.
        unsafe { self.at(self.k * (y * self.stride + 4 * x)) }
    }

    /// Texels (x, y) … (x + N − 1, y) of one row.
    ///
    /// # Safety
    /// As [`Self::texel`] for each of them: `x + N − 1 ≤ 1024`, `y ≤ 1022`.
    #[inline(always)]
    pub unsafe fn run<const N: usize>(&self, x: usize, y: usize) -> [[u8; 4]; N] {
        debug_assert!(x + N - 1 <= 1024 && y <= 1022);
        if self.k == 1 {
            let off = y * self.stride + 4 * x;
            debug_assert!(off + 4 * N <= self.data.len());
            // SAFETY: with k = 1 the texels are the N consecutive pixels at
            // `off`, each inside the image by the texel rule.
            unsafe {
                self.data
                    .as_ptr()
                    .add(off)
                    .cast::<[[u8; 4]; N]>()
                    .read_unaligned()
            }
        } else {
            // SAFETY: forwarded.
            std::array::from_fn(|i| unsafe { self.texel(x + i, y) })
        }
    }

    /// The 4×4 texels (x..x + 4, y..y + 4), one row of four per register
    /// (texel x + i in the 32-bit lane i). One base offset and, at one and
    /// two pixels per texel, two 16-byte loads per row instead of sixteen
    /// separately addressed reads.
    ///
    /// # Safety
    /// `x + 3 ≤ 1023` and `y + 3 ≤ 1022`; SSE2 (the x86-64 baseline).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub unsafe fn block4(&self, x: usize, y: usize) -> [std::arch::x86_64::__m128i; 4] {
        use std::arch::x86_64::*;
        debug_assert!(x + 3 <= 1023 && y + 3 <= 1022);
        let k = self.k;
        let base = k * (y * self.stride + 4 * x);
        let row = k * self.stride;
        // SAFETY: the texels read lie inside the image by the texel rule;
        // at k = 2 the second load ends at pixel 2·(x + 3) + 1 ≤ 2047 < w.
        std::array::from_fn(|dy| unsafe {
            let p = self.data.as_ptr().add(base + dy * row);
            debug_assert!(base + dy * row + 16 * k.min(2) <= self.data.len());
            match k {
                1 => _mm_loadu_si128(p.cast()),
                2 => {
                    let a = _mm_castsi128_ps(_mm_loadu_si128(p.cast()));
                    let b = _mm_castsi128_ps(_mm_loadu_si128(p.add(16).cast()));
                    _mm_castps_si128(_mm_shuffle_ps::<0b10_00_10_00>(a, b))
                }
                _ => {
                    let at = |i: usize| p.add(4 * k * i).cast::<i32>().read_unaligned();
                    _mm_set_epi32(at(3), at(2), at(1), at(0))
                }
            }
        })
    }

    /// Texels (x, y) … (x + 4, y) as 20 bytes (the material row of §8.2).
    /// At two pixels per texel the first four come from two 16-byte loads;
    /// the fifth, which may be the edge read at x + 4 = 1024, is read alone
    /// as [`Self::texel`] reads it.
    ///
    /// # Safety
    /// As [`Self::texel`] for each of them: `x + 4 ≤ 1024`, `y ≤ 1022`.
    #[inline(always)]
    pub unsafe fn row5(&self, x: usize, y: usize) -> [u8; 20] {
        debug_assert!(x + 4 <= 1024 && y <= 1022);
        #[cfg(target_arch = "x86_64")]
        if self.k == 2 {
            use std::arch::x86_64::*;
            let off = 2 * (y * self.stride + 4 * x);
            let mut out = [0u8; 20];
            // SAFETY: pixels 2x … 2x + 7 ≤ 2047 of row 2y (x + 3 ≤ 1023)
            // lie inside the image; the fifth texel as `texel` reads it;
            // SSE2 is part of the x86-64 baseline.
            unsafe {
                let p = self.data.as_ptr().add(off);
                let a = _mm_castsi128_ps(_mm_loadu_si128(p.cast()));
                let b = _mm_castsi128_ps(_mm_loadu_si128(p.add(16).cast()));
                let four = _mm_shuffle_ps::<0b10_00_10_00>(a, b);
                _mm_storeu_si128(out.as_mut_ptr().cast(), _mm_castps_si128(four));
                out[16..].copy_from_slice(&self.texel(x + 4, y));
            }
            return out;
        }
        // SAFETY: forwarded.
        let row = unsafe { self.run::<5>(x, y) };
        let mut out = [0u8; 20];
        out.copy_from_slice(row.as_flattened());
        out
    }

    /// The address of physical pixel (col, row).
    ///
    /// # Safety
    /// `col < w` and `row < h`; reads through it stay inside the image.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub unsafe fn pixel_ptr(&self, col: usize, row: usize) -> *const u8 {
        debug_assert!(col < 1024 * self.k && row < 1024 * self.k);
        // SAFETY: inside the image (see above).
        unsafe { self.data.as_ptr().add(row * self.stride + 4 * col) }
    }

    /// Physical pixels (col, row) … (col + N − 1, row).
    ///
    /// # Safety
    /// `col + N ≤ w` and `row < h − 1`.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    #[inline(always)]
    pub unsafe fn pixels<const N: usize>(&self, col: usize, row: usize) -> [[u8; 4]; N] {
        debug_assert!(col + N <= 1024 * self.k && row < 1024 * self.k - 1);
        let off = row * self.stride + 4 * col;
        // SAFETY: N consecutive pixels of one row, inside the image as above.
        unsafe {
            self.data
                .as_ptr()
                .add(off)
                .cast::<[[u8; 4]; N]>()
                .read_unaligned()
        }
    }

    /// Header texel `i` (0..=4) of §5: pixel (k·i, h·15/16).
    pub fn header(&self, i: usize) -> [u8; 4] {
        assert!(i <= 4);
        // SAFETY: x = i ≤ 4, y = 960.
        unsafe { self.texel(i, 960) }
    }

    /// The SUB/BLD extensions (§5.2).
    pub fn extensions(&self) -> Extensions {
        let sub = self.header(3) == [83, 85, 66, 255];
        let bld = sub && self.header(4) == [66, 76, 68, 255];
        Extensions { sub, bld }
    }
}
