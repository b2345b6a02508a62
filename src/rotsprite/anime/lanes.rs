// re2d — lanes of doubles for the quad fill's per-pixel root search: scalar, SSE2 (2) and AVX2 (4).
//
//! The quad fill evaluates the same formulas for W neighbouring pixels of a
//! row at once. Every lane performs exactly the scalar operations (IEEE
//! add/sub/mul/div/sqrt, one rounding each, never fused), so a lane's result
//! is bit-identical to the scalar code: SIMD changes how many pixels one
//! instruction handles, never a pixel's operation order. Comparisons are
//! ordered (false for NaN), as in the scalar code.
//!
//! [`Level`] picks the widest set the CPU has, once per process; the
//! environment variable `RE2D_SIMD=scalar|sse2|avx2` lowers it (used by the
//! tests to run every path, and to compare them in benchmarks).

use std::sync::OnceLock;

/// Instruction set used by the quad fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// One pixel at a time (any target).
    Scalar,
    /// Two pixels per instruction (baseline x86-64).
    Sse2,
    /// Four pixels per instruction (runtime-detected AVX2).
    Avx2,
}

impl Level {
    /// The level of this process: the CPU's best, lowered by `RE2D_SIMD`.
    pub fn get() -> Level {
        static LEVEL: OnceLock<Level> = OnceLock::new();
        *LEVEL.get_or_init(|| {
            let best = Level::detect();
            match std::env::var("RE2D_SIMD").ok().as_deref() {
                Some("scalar") => Level::Scalar,
                Some("sse2") => best.min(Level::Sse2),
                _ => best,
            }
        })
    }

    fn detect() -> Level {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                return Level::Avx2;
            }
            Level::Sse2
        }
        #[cfg(not(target_arch = "x86_64"))]
        Level::Scalar
    }
}

/// W doubles with the operations the root search needs.
///
/// # Safety
/// Implementations may use instructions the CPU must support: the methods
/// are only called from code entered after [`Level::get`] chose the type.
pub(super) trait Lanes: Copy {
    /// Number of lanes.
    const W: usize;
    /// Lane mask (all-ones / all-zeros per lane).
    type M: Copy;
    unsafe fn splat(x: f64) -> Self;
    /// `x + 0`, `x + 1`, … (exact for the small integers plus 0.5 it gets).
    unsafe fn ramp(x: f64) -> Self;
    unsafe fn add(self, b: Self) -> Self;
    unsafe fn sub(self, b: Self) -> Self;
    unsafe fn mul(self, b: Self) -> Self;
    unsafe fn div(self, b: Self) -> Self;
    unsafe fn sqrt(self) -> Self;
    unsafe fn neg(self) -> Self;
    unsafe fn abs(self) -> Self;
    /// `copysign(self, sign)`.
    unsafe fn copysign(self, sign: Self) -> Self;
    unsafe fn lt(self, b: Self) -> Self::M;
    unsafe fn gt(self, b: Self) -> Self::M;
    unsafe fn le(self, b: Self) -> Self::M;
    unsafe fn ge(self, b: Self) -> Self::M;
    /// Lanes that are NaN.
    unsafe fn isnan(self) -> Self::M;
    unsafe fn and(a: Self::M, b: Self::M) -> Self::M;
    unsafe fn or(a: Self::M, b: Self::M) -> Self::M;
    /// `!a & b`.
    unsafe fn andnot(a: Self::M, b: Self::M) -> Self::M;
    /// Lane i set → bit i.
    unsafe fn bits(m: Self::M) -> u32;
    /// Per lane: `m ? a : b`.
    unsafe fn select(m: Self::M, a: Self, b: Self) -> Self;
    /// Writes the W lanes to `out[..W]`.
    unsafe fn store(self, out: &mut [f64; 4]);
    /// Lanes `a[i..i + W]` (`i + W <= 4`).
    unsafe fn load_at(a: &[f64; 4], i: usize) -> Self;
    /// Writes the lanes to `out[i..i + W]` (`i + W <= 4`).
    unsafe fn store_at(self, out: &mut [f64; 4], i: usize);
}

impl Lanes for f64 {
    const W: usize = 1;
    type M = bool;
    #[inline(always)]
    unsafe fn splat(x: f64) -> Self {
        x
    }
    #[inline(always)]
    unsafe fn ramp(x: f64) -> Self {
        x
    }
    #[inline(always)]
    unsafe fn add(self, b: Self) -> Self {
        self + b
    }
    #[inline(always)]
    unsafe fn sub(self, b: Self) -> Self {
        self - b
    }
    #[inline(always)]
    unsafe fn mul(self, b: Self) -> Self {
        self * b
    }
    #[inline(always)]
    unsafe fn div(self, b: Self) -> Self {
        self / b
    }
    #[inline(always)]
    unsafe fn sqrt(self) -> Self {
        f64::sqrt(self)
    }
    #[inline(always)]
    unsafe fn neg(self) -> Self {
        -self
    }
    #[inline(always)]
    unsafe fn abs(self) -> Self {
        f64::abs(self)
    }
    #[inline(always)]
    unsafe fn copysign(self, sign: Self) -> Self {
        f64::copysign(self, sign)
    }
    #[inline(always)]
    unsafe fn lt(self, b: Self) -> bool {
        self < b
    }
    #[inline(always)]
    unsafe fn gt(self, b: Self) -> bool {
        self > b
    }
    #[inline(always)]
    unsafe fn le(self, b: Self) -> bool {
        self <= b
    }
    #[inline(always)]
    unsafe fn ge(self, b: Self) -> bool {
        self >= b
    }
    #[inline(always)]
    unsafe fn isnan(self) -> bool {
        self.is_nan()
    }
    #[inline(always)]
    unsafe fn and(a: bool, b: bool) -> bool {
        a & b
    }
    #[inline(always)]
    unsafe fn or(a: bool, b: bool) -> bool {
        a | b
    }
    #[inline(always)]
    unsafe fn andnot(a: bool, b: bool) -> bool {
        !a & b
    }
    #[inline(always)]
    unsafe fn bits(m: bool) -> u32 {
        m as u32
    }
    #[inline(always)]
    unsafe fn select(m: bool, a: Self, b: Self) -> Self {
        if m { a } else { b }
    }
    #[inline(always)]
    unsafe fn store(self, out: &mut [f64; 4]) {
        out[0] = self;
    }
    #[inline(always)]
    unsafe fn load_at(a: &[f64; 4], i: usize) -> Self {
        a[i]
    }
    #[inline(always)]
    unsafe fn store_at(self, out: &mut [f64; 4], i: usize) {
        out[i] = self;
    }
}

#[cfg(target_arch = "x86_64")]
pub(super) use x86::{Avx2, Sse2};

/// The lanes available on every CPU of the target (SSE2 on x86-64).
#[cfg(target_arch = "x86_64")]
pub(super) type Baseline = Sse2;
/// The lanes available on every CPU of the target.
#[cfg(not(target_arch = "x86_64"))]
pub(super) type Baseline = f64;

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::Lanes;
    use std::arch::x86_64::*;

    /// Two lanes in an SSE2 register (baseline x86-64).
    #[derive(Clone, Copy)]
    pub struct Sse2(__m128d);

    /// Four lanes in an AVX register; only made inside AVX2-enabled code.
    #[derive(Clone, Copy)]
    pub struct Avx2(__m256d);

    const SIGN: f64 = -0.0;

    // SAFETY (both impls): SSE2 is part of the x86-64 baseline; the AVX
    // methods run only in functions entered after AVX2 was detected.
    impl Lanes for Sse2 {
        const W: usize = 2;
        type M = __m128d;
        #[inline(always)]
        unsafe fn splat(x: f64) -> Self {
            unsafe { Sse2(_mm_set1_pd(x)) }
        }
        #[inline(always)]
        unsafe fn ramp(x: f64) -> Self {
            unsafe { Sse2(_mm_add_pd(_mm_set1_pd(x), _mm_set_pd(1.0, 0.0))) }
        }
        #[inline(always)]
        unsafe fn add(self, b: Self) -> Self {
            unsafe { Sse2(_mm_add_pd(self.0, b.0)) }
        }
        #[inline(always)]
        unsafe fn sub(self, b: Self) -> Self {
            unsafe { Sse2(_mm_sub_pd(self.0, b.0)) }
        }
        #[inline(always)]
        unsafe fn mul(self, b: Self) -> Self {
            unsafe { Sse2(_mm_mul_pd(self.0, b.0)) }
        }
        #[inline(always)]
        unsafe fn div(self, b: Self) -> Self {
            unsafe { Sse2(_mm_div_pd(self.0, b.0)) }
        }
        #[inline(always)]
        unsafe fn sqrt(self) -> Self {
            unsafe { Sse2(_mm_sqrt_pd(self.0)) }
        }
        #[inline(always)]
        unsafe fn neg(self) -> Self {
            unsafe { Sse2(_mm_xor_pd(self.0, _mm_set1_pd(SIGN))) }
        }
        #[inline(always)]
        unsafe fn abs(self) -> Self {
            unsafe { Sse2(_mm_andnot_pd(_mm_set1_pd(SIGN), self.0)) }
        }
        #[inline(always)]
        unsafe fn copysign(self, sign: Self) -> Self {
            unsafe {
                let s = _mm_set1_pd(SIGN);
                Sse2(_mm_or_pd(_mm_andnot_pd(s, self.0), _mm_and_pd(s, sign.0)))
            }
        }
        #[inline(always)]
        unsafe fn lt(self, b: Self) -> __m128d {
            unsafe { _mm_cmplt_pd(self.0, b.0) }
        }
        #[inline(always)]
        unsafe fn gt(self, b: Self) -> __m128d {
            unsafe { _mm_cmpgt_pd(self.0, b.0) }
        }
        #[inline(always)]
        unsafe fn le(self, b: Self) -> __m128d {
            unsafe { _mm_cmple_pd(self.0, b.0) }
        }
        #[inline(always)]
        unsafe fn ge(self, b: Self) -> __m128d {
            unsafe { _mm_cmpge_pd(self.0, b.0) }
        }
        #[inline(always)]
        unsafe fn isnan(self) -> __m128d {
            unsafe { _mm_cmpunord_pd(self.0, self.0) }
        }
        #[inline(always)]
        unsafe fn and(a: __m128d, b: __m128d) -> __m128d {
            unsafe { _mm_and_pd(a, b) }
        }
        #[inline(always)]
        unsafe fn or(a: __m128d, b: __m128d) -> __m128d {
            unsafe { _mm_or_pd(a, b) }
        }
        #[inline(always)]
        unsafe fn andnot(a: __m128d, b: __m128d) -> __m128d {
            unsafe { _mm_andnot_pd(a, b) }
        }
        #[inline(always)]
        unsafe fn bits(m: __m128d) -> u32 {
            unsafe { _mm_movemask_pd(m) as u32 }
        }
        #[inline(always)]
        unsafe fn select(m: __m128d, a: Self, b: Self) -> Self {
            unsafe { Sse2(_mm_or_pd(_mm_and_pd(m, a.0), _mm_andnot_pd(m, b.0))) }
        }
        #[inline(always)]
        unsafe fn store(self, out: &mut [f64; 4]) {
            unsafe { _mm_storeu_pd(out.as_mut_ptr(), self.0) }
        }
        #[inline(always)]
        unsafe fn load_at(a: &[f64; 4], i: usize) -> Self {
            assert!(i <= 2);
            // SAFETY: lanes i, i + 1 of a 4-element array.
            unsafe { Sse2(_mm_loadu_pd(a.as_ptr().add(i))) }
        }
        #[inline(always)]
        unsafe fn store_at(self, out: &mut [f64; 4], i: usize) {
            assert!(i <= 2);
            // SAFETY: lanes i, i + 1 of a 4-element array.
            unsafe { _mm_storeu_pd(out.as_mut_ptr().add(i), self.0) }
        }
    }

    impl Lanes for Avx2 {
        const W: usize = 4;
        type M = __m256d;
        #[inline(always)]
        unsafe fn splat(x: f64) -> Self {
            unsafe { Avx2(_mm256_set1_pd(x)) }
        }
        #[inline(always)]
        unsafe fn ramp(x: f64) -> Self {
            unsafe {
                Avx2(_mm256_add_pd(
                    _mm256_set1_pd(x),
                    _mm256_set_pd(3.0, 2.0, 1.0, 0.0),
                ))
            }
        }
        #[inline(always)]
        unsafe fn add(self, b: Self) -> Self {
            unsafe { Avx2(_mm256_add_pd(self.0, b.0)) }
        }
        #[inline(always)]
        unsafe fn sub(self, b: Self) -> Self {
            unsafe { Avx2(_mm256_sub_pd(self.0, b.0)) }
        }
        #[inline(always)]
        unsafe fn mul(self, b: Self) -> Self {
            unsafe { Avx2(_mm256_mul_pd(self.0, b.0)) }
        }
        #[inline(always)]
        unsafe fn div(self, b: Self) -> Self {
            unsafe { Avx2(_mm256_div_pd(self.0, b.0)) }
        }
        #[inline(always)]
        unsafe fn sqrt(self) -> Self {
            unsafe { Avx2(_mm256_sqrt_pd(self.0)) }
        }
        #[inline(always)]
        unsafe fn neg(self) -> Self {
            unsafe { Avx2(_mm256_xor_pd(self.0, _mm256_set1_pd(SIGN))) }
        }
        #[inline(always)]
        unsafe fn abs(self) -> Self {
            unsafe { Avx2(_mm256_andnot_pd(_mm256_set1_pd(SIGN), self.0)) }
        }
        #[inline(always)]
        unsafe fn copysign(self, sign: Self) -> Self {
            unsafe {
                let s = _mm256_set1_pd(SIGN);
                Avx2(_mm256_or_pd(
                    _mm256_andnot_pd(s, self.0),
                    _mm256_and_pd(s, sign.0),
                ))
            }
        }
        #[inline(always)]
        unsafe fn lt(self, b: Self) -> __m256d {
            unsafe { _mm256_cmp_pd::<_CMP_LT_OQ>(self.0, b.0) }
        }
        #[inline(always)]
        unsafe fn gt(self, b: Self) -> __m256d {
            unsafe { _mm256_cmp_pd::<_CMP_GT_OQ>(self.0, b.0) }
        }
        #[inline(always)]
        unsafe fn le(self, b: Self) -> __m256d {
            unsafe { _mm256_cmp_pd::<_CMP_LE_OQ>(self.0, b.0) }
        }
        #[inline(always)]
        unsafe fn ge(self, b: Self) -> __m256d {
            unsafe { _mm256_cmp_pd::<_CMP_GE_OQ>(self.0, b.0) }
        }
        #[inline(always)]
        unsafe fn isnan(self) -> __m256d {
            unsafe { _mm256_cmp_pd::<_CMP_UNORD_Q>(self.0, self.0) }
        }
        #[inline(always)]
        unsafe fn and(a: __m256d, b: __m256d) -> __m256d {
            unsafe { _mm256_and_pd(a, b) }
        }
        #[inline(always)]
        unsafe fn or(a: __m256d, b: __m256d) -> __m256d {
            unsafe { _mm256_or_pd(a, b) }
        }
        #[inline(always)]
        unsafe fn andnot(a: __m256d, b: __m256d) -> __m256d {
            unsafe { _mm256_andnot_pd(a, b) }
        }
        #[inline(always)]
        unsafe fn bits(m: __m256d) -> u32 {
            unsafe { _mm256_movemask_pd(m) as u32 }
        }
        #[inline(always)]
        unsafe fn select(m: __m256d, a: Self, b: Self) -> Self {
            unsafe { Avx2(_mm256_blendv_pd(b.0, a.0, m)) }
        }
        #[inline(always)]
        unsafe fn store(self, out: &mut [f64; 4]) {
            unsafe { _mm256_storeu_pd(out.as_mut_ptr(), self.0) }
        }
        #[inline(always)]
        unsafe fn load_at(a: &[f64; 4], i: usize) -> Self {
            assert!(i == 0);
            unsafe { Avx2(_mm256_loadu_pd(a.as_ptr())) }
        }
        #[inline(always)]
        unsafe fn store_at(self, out: &mut [f64; 4], i: usize) {
            assert!(i == 0);
            unsafe { _mm256_storeu_pd(out.as_mut_ptr(), self.0) }
        }
    }
}
