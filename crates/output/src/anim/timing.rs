// re2d anim — frame delays and play counts shared by the APNG and GIF writers.

/// How long one frame is shown: `num / den` seconds (the APNG `fcTL`
/// fields; GIF rounds it to centiseconds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delay {
    /// Numerator, seconds.
    pub num: u16,
    /// Denominator (not 0).
    pub den: u16,
}

impl Delay {
    /// The delay of one frame at `fps` frames per second: exactly `1/fps`
    /// when `fps` is a whole number up to 65535, else `1/fps` rounded to
    /// whole milliseconds (at least 1 ms, at most 65.535 s).
    pub fn from_fps(fps: f64) -> Result<Delay, String> {
        if !(fps.is_finite() && fps > 0.0) {
            return Err(format!("frame rate {fps} is not a positive number"));
        }
        if fps.fract() == 0.0 && fps <= 65535.0 {
            return Ok(Delay {
                num: 1,
                den: fps as u16,
            });
        }
        let ms = (1000.0 / fps).round().clamp(1.0, 65535.0) as u16;
        Ok(Delay { num: ms, den: 1000 })
    }

    /// The delay in seconds.
    pub fn seconds(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// The delay in whole centiseconds (GIF), rounded, at least 1.
    pub fn centiseconds(self) -> u16 {
        (100.0 * self.seconds()).round().clamp(1.0, 65535.0) as u16
    }
}

/// Delay of every frame and how often the animation plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Delay of each frame.
    pub delay: Delay,
    /// Number of plays; 0 = forever (a looping clip).
    pub plays: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_from_frame_rates() {
        let d = |f| Delay::from_fps(f).unwrap();
        assert_eq!(d(12.0), Delay { num: 1, den: 12 });
        assert_eq!(d(65535.0), Delay { num: 1, den: 65535 });
        assert_eq!(d(12.5), Delay { num: 80, den: 1000 });
        assert_eq!(
            d(0.5),
            Delay {
                num: 2000,
                den: 1000
            }
        );
        assert_eq!(d(70000.0), Delay { num: 1, den: 1000 });
        assert_eq!(
            d(0.001),
            Delay {
                num: 65535,
                den: 1000
            }
        );
        assert_eq!(d(12.0).centiseconds(), 8);
        assert_eq!(d(30.0).centiseconds(), 3);
        assert_eq!(d(1000.0).centiseconds(), 1);
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(Delay::from_fps(bad).is_err());
        }
    }
}
