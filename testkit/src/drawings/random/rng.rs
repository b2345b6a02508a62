//! The random source of one random character: SplitMix64 from the seed (every seed a
//! different character; the same seed the same one on every machine).

use super::super::vary::mix64;

/// Uniform draws from one seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// The source of `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(mix64(seed ^ 0x7261_6e64_6f6d))
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        (mix64(self.0) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// One of `options`, uniformly.
    pub fn pick<T: Copy>(&mut self, options: &[T]) -> T {
        options[((self.unit() * options.len() as f64) as usize).min(options.len() - 1)]
    }

    /// An angle of `deg` ± `spread` degrees, in radians.
    pub fn angle(&mut self, deg: f64, spread: f64) -> f64 {
        self.range(deg - spread, deg + spread).to_radians()
    }

    /// A colour: hue anywhere, saturation and value in the given ranges (sRGB, 0..=1).
    pub fn hsv(&mut self, s: (f64, f64), v: (f64, f64)) -> [f32; 3] {
        let h = self.unit() * 6.0;
        let s = self.range(s.0, s.1);
        let v = self.range(v.0, v.1);
        let c = v * s;
        let x = c * (1.0 - ((h % 2.0) - 1.0).abs());
        let (r, g, b) = match h as u32 {
            0 => (c, x, 0.0),
            1 => (x, c, 0.0),
            2 => (0.0, c, x),
            3 => (0.0, x, c),
            4 => (x, 0.0, c),
            _ => (c, 0.0, x),
        };
        let m = v - c;
        [(r + m) as f32, (g + m) as f32, (b + m) as f32]
    }
}
