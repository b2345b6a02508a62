// re2d — 3×4 affine helpers of the character model (spec: js-rotsprite.md §4).
//
//! Flat row-major 3×4 matrices (`m[4r + c]`, column 3 = translation) with the
//! exact evaluation order of the engine's JS, so records sent to the renderer
//! are bit-identical.

use super::ModelError;
use crate::math::PI;

/// A 3×4 affine matrix, row-major.
pub type Mat = [f64; 12];

/// The identity.
pub const IDENTITY: Mat = [1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0.];

/// `a · b`: each 3×3 entry summed from 0 in column order, translation
/// `((a3 + a0·b3) + a1·b7) + a2·b11`.
pub fn multiply(a: &Mat, b: &Mat) -> Mat {
    let mut m = [0.0; 12];
    for r in 0..3 {
        for c in 0..3 {
            let mut v = 0.0;
            v += a[4 * r] * b[c];
            v += a[4 * r + 1] * b[4 + c];
            v += a[4 * r + 2] * b[8 + c];
            m[4 * r + c] = v;
        }
        m[4 * r + 3] = a[4 * r + 3] + a[4 * r] * b[3] + a[4 * r + 1] * b[7] + a[4 * r + 2] * b[11];
    }
    m
}

/// `A(p) = R·D·(p − pivot) + pivot + translation` with `R = Rz·Ry·Rx`
/// (degrees, converted as `(v·π)/180`) and `D = diag(scale)`.
pub fn affine(pivot: [f64; 3], translation: [f64; 3], rotation: [f64; 3], scale: [f64; 3]) -> Mat {
    let [x, y, z] = rotation.map(|v| v * PI / 180.0);
    let (cx, sx) = (x.cos(), x.sin());
    let (cy, sy) = (y.cos(), y.sin());
    let (cz, sz) = (z.cos(), z.sin());
    let r = [
        [cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx],
        [sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx],
        [-sy, cy * sx, cy * cx],
    ];
    let mut m = [0.0; 12];
    for row in 0..3 {
        for c in 0..3 {
            m[4 * row + c] = r[row][c] * scale[c];
        }
        m[4 * row + 3] = pivot[row] + translation[row]
            - m[4 * row] * pivot[0]
            - m[4 * row + 1] * pivot[1]
            - m[4 * row + 2] * pivot[2];
    }
    m
}

/// `m · p` for a point.
pub fn transform(m: &Mat, p: [f64; 3]) -> [f64; 3] {
    [
        m[0] * p[0] + m[1] * p[1] + m[2] * p[2] + m[3],
        m[4] * p[0] + m[5] * p[1] + m[6] * p[2] + m[7],
        m[8] * p[0] + m[9] * p[1] + m[10] * p[2] + m[11],
    ]
}

/// Inverse of an affine matrix by the adjugate; `|det| < 1e-8` is a
/// RangeError (degenerate grip).
pub fn inverse(m: &Mat) -> Result<Mat, ModelError> {
    let (a, b, c) = (m[0], m[1], m[2]);
    let (d, e, f) = (m[4], m[5], m[6]);
    let (g, h, i) = (m[8], m[9], m[10]);
    let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    if det.abs() < 1e-8 || det.is_nan() {
        return Err(ModelError::range("matrix is degenerate (|det| < 1e-8)"));
    }
    let mut n = [
        (e * i - f * h) / det,
        (c * h - b * i) / det,
        (b * f - c * e) / det,
        0.0,
        (f * g - d * i) / det,
        (a * i - c * g) / det,
        (c * d - a * f) / det,
        0.0,
        (d * h - e * g) / det,
        (b * g - a * h) / det,
        (a * e - b * d) / det,
        0.0,
    ];
    for r in 0..3 {
        n[4 * r + 3] = -n[4 * r] * m[3] - n[4 * r + 1] * m[7] - n[4 * r + 2] * m[11];
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_about_z_block() {
        let m = affine([0.0; 3], [0.0; 3], [0.0, 0.0, 90.0], [1.0; 3]);
        let t = (90.0 * PI / 180.0).cos();
        assert_eq!(m[0], t);
        assert_eq!(m[1], -1.0);
        assert_eq!(m[4], 1.0);
        assert_eq!(m[5], t);
    }

    #[test]
    fn pivot_is_a_fixed_point() {
        let m = affine([3.0, -2.0, 1.0], [0.0; 3], [0.0, 0.0, 90.0], [1.0; 3]);
        let p = transform(&m, [3.0, -2.0, 1.0]);
        assert!((p[0] - 3.0).abs() < 1e-12 && (p[1] + 2.0).abs() < 1e-12 && p[2] == 1.0);
        // (4, -2, 1) is one unit right of the pivot: after 90° about z it is one unit down (+y).
        let q = transform(&m, [4.0, -2.0, 1.0]);
        assert!((q[0] - 3.0).abs() < 1e-12 && (q[1] + 1.0).abs() < 1e-12);
    }

    #[test]
    fn scale_multiplies_columns_and_translation_adds() {
        let m = affine([0.0; 3], [5.0, 6.0, 7.0], [0.0; 3], [2.0, 3.0, 4.0]);
        assert_eq!(m, [2., 0., 0., 5., 0., 3., 0., 6., 0., 0., 4., 7.]);
    }

    #[test]
    fn multiply_and_inverse() {
        let a = affine(
            [1.0, 2.0, 3.0],
            [4.0, -5.0, 6.0],
            [10.0, 20.0, 30.0],
            [1.0; 3],
        );
        let inv = inverse(&a).unwrap();
        let id = multiply(&a, &inv);
        for (x, y) in id.iter().zip(IDENTITY.iter()) {
            assert!((x - y).abs() < 1e-12);
        }
        assert_eq!(multiply(&IDENTITY, &a), a);
        let flat = [1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 0., 0.];
        assert!(inverse(&flat).is_err());
        // Translation of a·b.
        let t = [1., 0., 0., 1., 0., 1., 0., 2., 0., 0., 1., 3.];
        assert_eq!(transform(&multiply(&t, &t), [0.0; 3]), [2.0, 4.0, 6.0]);
    }
}
