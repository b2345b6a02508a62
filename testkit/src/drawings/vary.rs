//! Seeded variation of a character: proportions, pose angles and palette. Seed 0 is the
//! reference drawing (no variation); every other seed is a deterministic variant
//! (SplitMix64), so a test can use a drawing the project never saw.

/// SplitMix64 finaliser: a well-mixed 64-bit hash of `x`.
pub fn mix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A hash of a seed and a grid cell (pattern jitter).
pub fn hash2(seed: u64, i: i64, j: i64) -> u64 {
    mix64(seed ^ mix64((i as u64).wrapping_mul(0x517c_c1b7_2722_0a95) ^ (j as u64)))
}

/// The variation source of one drawing.
#[derive(Clone, Debug)]
pub struct Vary {
    state: u64,
    on: bool,
}

impl Vary {
    /// Variation for `seed` (none for seed 0).
    pub fn new(seed: u64) -> Vary {
        Vary {
            state: mix64(seed),
            on: seed != 0,
        }
    }

    fn unit(&mut self) -> f64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        (mix64(self.state) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A factor `1 ± spread` (exactly 1 for seed 0).
    pub fn scale(&mut self, spread: f64) -> f64 {
        if self.on {
            1.0 + spread * (2.0 * self.unit() - 1.0)
        } else {
            1.0
        }
    }

    /// An angle of `deg ± spread` degrees, in radians (exactly `deg` for seed 0).
    pub fn angle(&mut self, deg: f64, spread: f64) -> f64 {
        let d = if self.on {
            deg + spread * (2.0 * self.unit() - 1.0)
        } else {
            deg
        };
        d.to_radians()
    }

    /// One of `options` (the first for seed 0).
    pub fn pick<T: Copy>(&mut self, options: &[T]) -> T {
        if self.on {
            options[((self.unit() * options.len() as f64) as usize).min(options.len() - 1)]
        } else {
            options[0]
        }
    }

    /// A seed for a pattern (a fixed one for seed 0).
    pub fn pattern_seed(&mut self) -> u64 {
        if self.on {
            mix64(self.state ^ 0x5eed)
        } else {
            0x5eed
        }
    }
}
