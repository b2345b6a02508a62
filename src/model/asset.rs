// re2d — asset paths and view helpers: relativeAsset, normalizeRotPose, rotPixelRect (spec: js-rotsprite.md §3.1, §3.2, §3.7).

use super::ModelError;
use super::js::js_round;

/// `relativeAsset(file, path)`: `path` resolved against the directory of the
/// model file `file` (`None` = no directory). `..` may not escape the root
/// (RangeError); the file's own `.`/`..` segments are kept as written.
pub fn relative_asset(file: Option<&str>, path: &str) -> Result<String, ModelError> {
    if path.is_empty() {
        return Err(ModelError::type_("asset path must be a non-empty string"));
    }
    if path.starts_with('/') {
        return Ok(path.to_string());
    }
    let file = file.unwrap_or("");
    let root = if file.starts_with('/') { "/" } else { "" };
    let dir = file.rfind('/').map_or("", |i| &file[..=i]);
    let mut parts: Vec<&str> = dir.split('/').filter(|s| !s.is_empty()).collect();
    for s in path.split('/') {
        match s {
            ".." => {
                if parts.pop().is_none() {
                    return Err(ModelError::range(format!(
                        "asset path '{path}' escapes the root"
                    )));
                }
            }
            "" | "." => {}
            s => parts.push(s),
        }
    }
    Ok(format!("{root}{}", parts.join("/")))
}

/// `normalizeRotPose(yaw, pitch)`: `((yaw mod 360) + 540) mod 360 − 180`
/// (never −0) and pitch clamped to ±75. Non-finite input is a RangeError.
pub fn normalize_rot_pose(yaw: f64, pitch: f64) -> Result<(f64, f64), ModelError> {
    if !yaw.is_finite() || !pitch.is_finite() {
        return Err(ModelError::range("yaw and pitch must be finite numbers"));
    }
    let y = ((yaw % 360.0) + 540.0) % 360.0 - 180.0;
    let y = if y == 0.0 { 0.0 } else { y };
    Ok((y, pitch.clamp(-75.0, 75.0)))
}

/// A pixel-snapped square screen rectangle (centre-based).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PixelRect {
    /// Centre x.
    pub x: f64,
    /// Centre y.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
    /// Integer magnification of the raster.
    pub scale: f64,
}

/// `rotPixelRect(t, rasterSize)` for a node rectangle `(x, y, w, h)`.
pub fn rot_pixel_rect(x: f64, y: f64, w: f64, h: f64, raster: f64) -> PixelRect {
    let scale = js_round(w.abs().min(h.abs()) / raster).max(1.0);
    let size = raster * scale;
    let left = js_round(x - size / 2.0);
    let top = js_round(y - size / 2.0);
    PixelRect {
        x: left + size / 2.0,
        y: top + size / 2.0,
        w: size,
        h: size,
        scale,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ErrorClass;

    #[test]
    fn relative_asset_examples() {
        assert_eq!(
            relative_asset(Some("models/prop.json"), "prop.png").unwrap(),
            "models/prop.png"
        );
        assert_eq!(relative_asset(None, "a.png").unwrap(), "a.png");
        assert_eq!(
            relative_asset(Some("/abs/m.json"), "../x.png").unwrap(),
            "/x.png"
        );
        assert_eq!(
            relative_asset(Some("a//b/c.json"), "./d/../e.png").unwrap(),
            "a/b/e.png"
        );
        assert_eq!(
            relative_asset(Some("./m/x.json"), "a.png").unwrap(),
            "./m/a.png"
        );
        assert_eq!(
            relative_asset(Some("a.json"), "../x").unwrap_err().class,
            ErrorClass::Range
        );
        assert_eq!(
            relative_asset(None, "../a.png").unwrap_err().class,
            ErrorClass::Range
        );
        assert_eq!(
            relative_asset(Some("x/y.json"), "/a.png").unwrap(),
            "/a.png"
        );
        assert_eq!(
            relative_asset(None, "").unwrap_err().class,
            ErrorClass::Type
        );
    }

    #[test]
    fn normalize_examples() {
        let y = |v: f64| normalize_rot_pose(v, 0.0).unwrap().0;
        assert_eq!(y(360.0).to_bits(), 0f64.to_bits());
        assert_eq!(y(180.0), -180.0);
        assert_eq!(y(-540.0), -180.0);
        assert_eq!(y(-180.5), 179.5);
        assert_eq!(y(12.5), 12.5);
        assert_eq!(normalize_rot_pose(0.0, 100.0).unwrap().1, 75.0);
        assert_eq!(normalize_rot_pose(0.0, -100.0).unwrap().1, -75.0);
        assert!(normalize_rot_pose(0.0, -0.0).unwrap().1.is_sign_negative());
        assert!(normalize_rot_pose(f64::NAN, 0.0).is_err());
    }

    #[test]
    fn pixel_rect_examples() {
        let r = rot_pixel_rect(0.5, -0.5, 64.0, 64.0, 64.0);
        assert_eq!(
            r,
            PixelRect {
                x: 1.0,
                y: 0.0,
                w: 64.0,
                h: 64.0,
                scale: 1.0
            }
        );
        let r = rot_pixel_rect(100.0, 100.0, 384.0, 400.0, 128.0);
        assert_eq!((r.scale, r.w), (3.0, 384.0));
        assert_eq!(rot_pixel_rect(0.0, 0.0, 10.0, 10.0, 128.0).w, 128.0);
    }
}
