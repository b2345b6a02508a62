//! OpenRaster writer (placeholder until the reader lands).

/// The character as an OpenRaster file.
pub fn write(_c: &super::RandomCharacter) -> Vec<u8> {
    Vec::new()
}
