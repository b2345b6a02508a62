// re2d NRes — entry names: the 36-byte field, lower-case collation, writer rules, Windows-1251 text (spec: msh.md §1.3, §1.5, §3.4).
//! - [`name_of`]: the bytes before the first NUL of `name_raw` (`None` when
//!   no NUL occurs within the 36 bytes);
//! - [`compare`]: ASCII case-insensitive, folding `A`..`Z` to **lower**
//!   case, then unsigned bytes, shorter first on a common prefix
//!   (`"a_b" < "ab"`);
//! - [`check_new_name`]: what a writer accepts (≤ 35 bytes, no NUL);
//! - [`cp1251_to_utf8`] / [`utf8_to_cp1251`]: names are Windows-1251 bytes;
//!   exporters and JSON output transcode them.

use std::cmp::Ordering;

/// Size of the on-disk name field.
pub const NAME_FIELD: usize = 36;
/// Longest name a writer accepts (the field keeps one byte for the NUL).
pub const NAME_MAX: usize = 35;

/// The name: bytes before the first NUL, or `None` when the field has none.
pub fn name_of(raw: &[u8; NAME_FIELD]) -> Option<&[u8]> {
    raw.iter().position(|&b| b == 0).map(|n| &raw[..n])
}

#[inline]
fn fold(b: u8) -> u8 {
    b.to_ascii_lowercase()
}

/// Compares two names ASCII case-insensitively (lower-case fold, unsigned bytes).
pub fn compare(a: &[u8], b: &[u8]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        match fold(*x).cmp(&fold(*y)) {
            Ordering::Equal => {}
            o => return o,
        }
    }
    a.len().cmp(&b.len())
}

/// Whether two names are equal under [`compare`].
pub fn eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| fold(*x) == fold(*y))
}

/// Why a writer refuses a name.
pub fn check_new_name(name: &[u8]) -> Result<(), String> {
    if name.len() > NAME_MAX {
        return Err(format!(
            "name is {} bytes, at most {NAME_MAX} fit the field",
            name.len()
        ));
    }
    if name.contains(&0) {
        return Err("name contains a NUL byte".into());
    }
    Ok(())
}

/// A zero-filled name field holding `name` (checked by [`check_new_name`]).
pub fn field_for(name: &[u8]) -> Result<[u8; NAME_FIELD], String> {
    check_new_name(name)?;
    let mut raw = [0u8; NAME_FIELD];
    raw[..name.len()].copy_from_slice(name);
    Ok(raw)
}

/// Windows-1251 code points of bytes 0x80..=0xFF (0x98 is unassigned → U+FFFD).
const CP1251_HIGH: [u16; 128] = [
    0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021, 0x20AC, 0x2030, 0x0409, 0x2039,
    0x040A, 0x040C, 0x040B, 0x040F, 0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0xFFFD, 0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F, 0x00A0, 0x040E, 0x045E, 0x0408,
    0x00A4, 0x0490, 0x00A6, 0x00A7, 0x0401, 0x00A9, 0x0404, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x0407,
    0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6, 0x00B7, 0x0451, 0x2116, 0x0454, 0x00BB,
    0x0458, 0x0405, 0x0455, 0x0457, 0x0410, 0x0411, 0x0412, 0x0413, 0x0414, 0x0415, 0x0416, 0x0417,
    0x0418, 0x0419, 0x041A, 0x041B, 0x041C, 0x041D, 0x041E, 0x041F, 0x0420, 0x0421, 0x0422, 0x0423,
    0x0424, 0x0425, 0x0426, 0x0427, 0x0428, 0x0429, 0x042A, 0x042B, 0x042C, 0x042D, 0x042E, 0x042F,
    0x0430, 0x0431, 0x0432, 0x0433, 0x0434, 0x0435, 0x0436, 0x0437, 0x0438, 0x0439, 0x043A, 0x043B,
    0x043C, 0x043D, 0x043E, 0x043F, 0x0440, 0x0441, 0x0442, 0x0443, 0x0444, 0x0445, 0x0446, 0x0447,
    0x0448, 0x0449, 0x044A, 0x044B, 0x044C, 0x044D, 0x044E, 0x044F,
];

/// Transcodes Windows-1251 bytes to UTF-8 (unassigned 0x98 → U+FFFD).
pub fn cp1251_to_utf8(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| {
            if b < 0x80 {
                b as char
            } else {
                char::from_u32(CP1251_HIGH[(b - 0x80) as usize] as u32).unwrap_or('\u{FFFD}')
            }
        })
        .collect()
}

/// Transcodes UTF-8 text to Windows-1251; `None` if a character has no
/// Windows-1251 byte.
pub fn utf8_to_cp1251(text: &str) -> Option<Vec<u8>> {
    text.chars()
        .map(|c| {
            let u = c as u32;
            if u < 0x80 {
                Some(u as u8)
            } else {
                CP1251_HIGH
                    .iter()
                    .position(|&x| x as u32 == u && u != 0xFFFD)
                    .map(|i| 0x80 + i as u8)
            }
        })
        .collect()
}

/// A printable form of a name for messages and listings: Windows-1251 →
/// UTF-8, control characters escaped.
pub fn display(bytes: &[u8]) -> String {
    let mut s = String::new();
    for c in cp1251_to_utf8(bytes).chars() {
        if c.is_control() {
            s.push_str(&format!("\\x{:02x}", c as u32));
        } else {
            s.push(c);
        }
    }
    s
}
