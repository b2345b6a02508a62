// re2d surface compiler — coordinate quantisation and the segment blend band (spec: surface-compiler.md §3, §7).
//! Pure number functions: SUB (§3.2) and legacy (§3.3) encodings, the
//! coordinate ranges of §3.1, and the one function that defines the
//! RECONSTRUCTED blend band shape of §7.

/// Scale `a` per component (X, Y, Z), §3.1.
pub const SCALE: [f64; 3] = [4.0, 2.0, 4.0];
/// Inclusive lower bounds per component, §3.1.
pub const MIN: [f64; 3] = [-32.0, -64.0, -32.0];
/// Inclusive upper bounds per component, §3.1.
pub const MAX: [f64; 3] = [31.75, 63.5, 31.75];

/// `q = clamp(round_half_even(((a·c) + 128)·16), 0, 4080)` (§3.2, §6.7).
pub fn quantize(c: f64, a: f64) -> u16 {
    let q = (((a * c) + 128.0) * 16.0).round_ties_even();
    if q.is_nan() {
        return 0;
    }
    q.clamp(0.0, 4080.0) as u16
}

/// Legacy byte `round_half_even(a·c + 128)`, clamped to 0..255 (§3.3; the
/// clamp never acts inside the §3.1 ranges).
pub fn legacy_byte(c: f64, a: f64) -> u8 {
    let q = (a * c + 128.0).round_ties_even();
    if q.is_nan() {
        return 0;
    }
    q.clamp(0.0, 255.0) as u8
}

/// Decode per §3.4 (with or without SUB) from the stored bytes.
pub fn decode_xyz(xy: [u8; 4], depth: [u8; 4], sub: bool) -> [f64; 3] {
    let mut x = (xy[0] as f64 - 128.0) / 4.0;
    let mut y = (xy[1] as f64 - 128.0) / 2.0;
    let mut z = (depth[0] as f64 - 128.0) / 4.0;
    if sub {
        x += (xy[2] >> 4) as f64 / 64.0;
        y += (xy[2] & 15) as f64 / 32.0;
        z += (depth[1] / 17) as f64 / 64.0;
    }
    [x, y, z]
}

/// Shape of the blend weight inside a band (§5.7 `profile`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Profile {
    /// `P(m) = m`
    #[default]
    Linear,
    /// `P(m) = m²·(3 − 2m)`
    Smoothstep,
}

/// Outcome of one segment rule on one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    /// New primary part.
    pub primary: u8,
    /// `Some((secondary, weight))` when the cell lies in the blend band
    /// (replaces any earlier secondary); `None` leaves them as they were.
    pub blend: Option<(u8, u8)>,
}

/// Apply one rule (whose `id` equals the current primary) to a cell with
/// coordinate `c` on the rule's axis. This is the single definition of the
/// RECONSTRUCTED band of §7: band `|d| < W/2` around `T`, weight
/// `round_half_even(255·P((W/2 − |d|)/W))`, primary on the side of `d`
/// (`d = 0` keeps the source id), secondary dropped when the weight is 0.
pub fn split(id: u8, assign: u8, c: f64, threshold: f64, width: f64, profile: Profile) -> Split {
    let d = c - threshold;
    if width == 0.0 || d.abs() >= width / 2.0 || width.is_nan() {
        // Hard split: "strictly greater than".
        return Split {
            primary: if d > 0.0 { assign } else { id },
            blend: None,
        };
    }
    let ad = d.abs();
    let w = match profile {
        Profile::Linear => (255.0 * (0.5 * width - ad)) / width,
        Profile::Smoothstep => {
            let m = (width / 2.0 - ad) / width;
            255.0 * (m * m * (3.0 - 2.0 * m))
        }
    };
    let weight = w.round_ties_even().clamp(0.0, 255.0) as u8;
    let (primary, mut secondary) = if d > 0.0 { (assign, id) } else { (id, assign) };
    if weight == 0 {
        secondary = 0;
    }
    Split {
        primary,
        blend: Some((secondary, weight)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // §3.5 test vectors: (component index, input, q).
    #[test]
    fn sub_vectors() {
        let v: &[(usize, f64, u16)] = &[
            (0, 0.1, 2054),
            (0, -0.3, 2029),
            (0, 31.75, 4080),
            (0, -32.0, 0),
            (0, 1.0 / 128.0, 2048),
            (0, 3.0 / 128.0, 2050),
            (0, 13.37, 2904),
            (1, -0.3, 2038),
            (1, -0.25, 2040),
            (1, 13.37, 2476),
            (2, 0.3, 2067),
        ];
        for &(i, c, q) in v {
            assert_eq!(quantize(c, SCALE[i]), q, "component {i} value {c}");
        }
        // X = 0.1, Y = -0.3 in one cell → XY (128, 127, 0x66).
        let (qx, qy) = (quantize(0.1, 4.0), quantize(-0.3, 2.0));
        assert_eq!(
            (qx / 16, qy / 16, ((qx % 16) << 4) | (qy % 16)),
            (128, 127, 0x66)
        );
        // decoded values of the table
        assert_eq!(
            decode_xyz([126, 0, 13 << 4, 255], [128, 0, 0, 255], true)[0],
            -0.296875
        );
        assert_eq!(
            decode_xyz([154, 154, 12, 255], [129, 51, 0, 255], true),
            [6.5, 13.375, 0.296875]
        );
    }

    #[test]
    fn legacy_vectors() {
        assert_eq!(legacy_byte(0.125, 4.0), 128);
        assert_eq!(legacy_byte(0.375, 4.0), 130);
        assert_eq!(legacy_byte(-64.0, 2.0), 0);
        assert_eq!(legacy_byte(63.5, 2.0), 255);
    }

    // §7 test vectors, rule 7 → 20 at Y > 4, W = 6, linear.
    #[test]
    fn blend_vectors() {
        let s = |y: f64| split(7, 20, y, 4.0, 6.0, Profile::Linear);
        let plain = |p| Split {
            primary: p,
            blend: None,
        };
        let bl = |p, s, w| Split {
            primary: p,
            blend: Some((s, w)),
        };
        assert_eq!(s(0.5), plain(7));
        assert_eq!(s(2.0), bl(7, 20, 42));
        assert_eq!(s(4.0), bl(7, 20, 128));
        assert_eq!(s(5.0), bl(20, 7, 85));
        assert_eq!(s(6.0), bl(20, 7, 42));
        assert_eq!(s(6.5), bl(20, 7, 21));
        assert_eq!(s(7.5), plain(20));
        // band edges are hard: |d| = W/2
        assert_eq!(s(1.0), plain(7));
        assert_eq!(s(7.0), plain(20));
        // knee W = 7
        assert_eq!(
            split(8, 10, 36.0, 36.0, 7.0, Profile::Linear),
            bl(8, 10, 128)
        );
        assert_eq!(
            split(8, 10, 38.0, 36.0, 7.0, Profile::Linear),
            bl(10, 8, 55)
        );
        // hard split without width
        assert_eq!(split(7, 20, 4.0, 4.0, 0.0, Profile::Linear), plain(7));
        assert_eq!(split(7, 20, 4.001, 4.0, 0.0, Profile::Linear), plain(20));
        // smoothstep: m = 1/6 → 255·(1/36)·(8/3) = 18.888… → 19
        assert_eq!(
            split(7, 20, 6.0, 4.0, 6.0, Profile::Smoothstep),
            bl(20, 7, 19)
        );
        // smoothstep at the centre: m = 1/2 → 127.5 → 128
        assert_eq!(
            split(7, 20, 4.0, 4.0, 6.0, Profile::Smoothstep),
            bl(7, 20, 128)
        );
    }

    #[test]
    fn weight_zero_drops_secondary() {
        // W tiny but d inside: weight rounds to 0.
        let r = split(7, 20, 4.0 + 0.4999, 4.0, 1.0, Profile::Linear);
        assert_eq!(
            r,
            Split {
                primary: 20,
                blend: Some((0, 0))
            }
        );
    }
}
