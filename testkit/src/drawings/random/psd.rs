//! Photoshop writer (placeholder until the reader lands).

/// The character as a Photoshop file.
pub fn write(_c: &super::RandomCharacter) -> Vec<u8> {
    Vec::new()
}
