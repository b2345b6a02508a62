//! The `.riv` writer: varuint, field values, object records, header and ToC
//! (rive-export.md §1–§3).
//!
//! [`RivObject`] lists are built by [`mod@super::export`]; [`encode`] turns them
//! into bytes. Property values are stored already converted to their wire
//! type (doubles as `f32`), so an object list compares exactly with what a
//! reader decodes.

use super::keys::{FieldType, field_type};

/// A property value in its wire type.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// varuint.
    Uint(u64),
    /// binary32 (rounded from f64 to nearest).
    Double(f32),
    /// UTF-8 string.
    Str(String),
    /// Raw bytes.
    Bytes(Vec<u8>),
}

impl Value {
    /// A double property from an f64 (round-to-nearest, §1).
    pub fn double(v: f64) -> Value {
        Value::Double(v as f32)
    }

    fn field_type(&self) -> FieldType {
        match self {
            Value::Uint(_) => FieldType::Uint,
            Value::Double(_) => FieldType::Double,
            Value::Str(_) => FieldType::Str,
            Value::Bytes(_) => FieldType::Bytes,
        }
    }
}

/// One object record: a type key and its properties in writing order.
#[derive(Clone, Debug, PartialEq)]
pub struct RivObject {
    /// Type key (§4.1).
    pub type_key: u64,
    /// `(property key, value)` in §4.2 order.
    pub props: Vec<(u64, Value)>,
}

impl RivObject {
    /// An object with no properties yet.
    pub fn new(type_key: u64) -> RivObject {
        RivObject {
            type_key,
            props: Vec::new(),
        }
    }

    /// Appends a property (builder style).
    pub fn with(mut self, key: u64, value: Value) -> RivObject {
        self.props.push((key, value));
        self
    }

    /// The value of property `key`, if written.
    pub fn get(&self, key: u64) -> Option<&Value> {
        self.props.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// The uint value of property `key`, if written as a uint.
    pub fn uint(&self, key: u64) -> Option<u64> {
        match self.get(key) {
            Some(Value::Uint(v)) => Some(*v),
            _ => None,
        }
    }
}

/// How the table of contents is written (§2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Toc {
    /// Every property key used, ascending, 4 field ids per u32 word.
    Full,
    /// The single byte `00` (valid: re2d writes only keys the runtime knows).
    Empty,
    /// The full key list with its bitmap packed 16 keys per word: the
    /// broken layout of some third-party writers (`--control toc16`).
    Packed16,
}

/// Header options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Major version (7; 6 for `--control badversion`).
    pub major: u64,
    /// Minor version (re2d writes 3).
    pub minor: u64,
    /// ToC form.
    pub toc: Toc,
}

impl Default for Header {
    fn default() -> Self {
        Header {
            major: 7,
            minor: 3,
            toc: Toc::Full,
        }
    }
}

/// Appends `v` as an unsigned LEB128 varuint in its shortest form.
pub fn put_varuint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// The varuint concatenation of `indices` (`Mesh.triangleIndexBytes`, §4.3).
pub fn index_bytes(indices: &[u16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(indices.len() * 2);
    for &i in indices {
        put_varuint(&mut out, i as u64);
    }
    out
}

/// Why an object list cannot be encoded (a bug in the caller, never input).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError(pub String);

impl std::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "riv writer: {}", self.0)
    }
}

impl std::error::Error for EncodeError {}

/// Encodes a whole file: header, ToC, then every object record.
///
/// Every property key must be one of §4.2 and its value of the declared
/// type; anything else is refused (the runtime could not skip it, §3).
pub fn encode(objects: &[RivObject], header: Header) -> Result<Vec<u8>, EncodeError> {
    let mut keys: Vec<u64> = Vec::new();
    for o in objects {
        if o.type_key == 0 {
            return Err(EncodeError("type key 0".into()));
        }
        for (k, v) in &o.props {
            let ft = field_type(*k)
                .ok_or_else(|| EncodeError(format!("property key {k} is not in §4.2")))?;
            if ft != v.field_type() {
                return Err(EncodeError(format!(
                    "property key {k} holds a {:?}, declared {ft:?}",
                    v.field_type()
                )));
            }
            keys.push(*k);
        }
    }
    keys.sort_unstable();
    keys.dedup();
    let mut out = Vec::new();
    out.extend_from_slice(b"RIVE");
    put_varuint(&mut out, header.major);
    put_varuint(&mut out, header.minor);
    put_varuint(&mut out, 0); // file id
    let toc_keys: &[u64] = if header.toc == Toc::Empty { &[] } else { &keys };
    for &k in toc_keys {
        put_varuint(&mut out, k);
    }
    put_varuint(&mut out, 0);
    let per_word = if header.toc == Toc::Packed16 { 16 } else { 4 };
    for chunk in toc_keys.chunks(per_word) {
        let mut word = 0u32;
        for (i, &k) in chunk.iter().enumerate() {
            let id = field_type(k).map_or(0, FieldType::toc_id);
            word |= id << (2 * i);
        }
        out.extend_from_slice(&word.to_le_bytes());
    }
    for o in objects {
        put_varuint(&mut out, o.type_key);
        for (k, v) in &o.props {
            put_varuint(&mut out, *k);
            match v {
                Value::Uint(u) => put_varuint(&mut out, *u),
                Value::Double(d) => out.extend_from_slice(&d.to_le_bytes()),
                Value::Str(s) => {
                    put_varuint(&mut out, s.len() as u64);
                    out.extend_from_slice(s.as_bytes());
                }
                Value::Bytes(b) => {
                    put_varuint(&mut out, b.len() as u64);
                    out.extend_from_slice(b);
                }
            }
        }
        put_varuint(&mut out, 0);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::{prop, ty};

    fn var(v: u64) -> Vec<u8> {
        let mut o = Vec::new();
        put_varuint(&mut o, v);
        o
    }

    #[test]
    fn varuint_shortest_form() {
        assert_eq!(var(0), [0x00]);
        assert_eq!(var(127), [0x7f]);
        assert_eq!(var(128), [0x80, 0x01]);
        assert_eq!(var(212), [0xd4, 0x01]);
        assert_eq!(var(32640), [0x80, 0xff, 0x01]); // §8.5 example
        assert_eq!(var(513), [0x81, 0x04]);
        assert_eq!(var(u64::MAX).len(), 10);
    }

    #[test]
    fn header_worked_example_of_section_2() {
        // ToC keys 4 (string), 5 (uint), 7 (double), 8 (double), 212 (bytes).
        let objs = vec![
            RivObject::new(ty::ARTBOARD)
                .with(prop::WIDTH, Value::double(1.0))
                .with(prop::HEIGHT, Value::double(1.0))
                .with(prop::NAME, Value::Str("a".into())),
            RivObject::new(ty::FILE_ASSET_CONTENTS)
                .with(prop::CONTENTS_BYTES, Value::Bytes(vec![]))
                .with(prop::PARENT_ID, Value::Uint(0)),
        ];
        let b = encode(&objs, Header::default()).unwrap();
        assert_eq!(
            &b[..22],
            &[
                0x52, 0x49, 0x56, 0x45, 0x07, 0x03, 0x00, //
                0x04, 0x05, 0x07, 0x08, 0xD4, 0x01, 0x00, //
                0xA1, 0, 0, 0, 0x01, 0, 0, 0
            ]
        );
        let e = encode(
            &objs,
            Header {
                toc: Toc::Empty,
                ..Header::default()
            },
        )
        .unwrap();
        assert_eq!(&e[..8], &[0x52, 0x49, 0x56, 0x45, 0x07, 0x03, 0x00, 0x00]);
        // toc16 packs all five ids into one word: 0xA1 | 1 << 8.
        let p = encode(
            &objs,
            Header {
                toc: Toc::Packed16,
                ..Header::default()
            },
        )
        .unwrap();
        assert_eq!(&p[14..18], &[0xA1, 0x01, 0, 0]);
        assert_eq!(p.len() + 4, b.len());
    }

    #[test]
    fn record_layout_and_refusals() {
        let o = RivObject::new(ty::KEY_FRAME_DOUBLE)
            .with(prop::FRAME, Value::Uint(300))
            .with(prop::VALUE, Value::double(1.5));
        let b = encode(
            &[o],
            Header {
                toc: Toc::Empty,
                ..Header::default()
            },
        )
        .unwrap();
        assert_eq!(
            &b[8..],
            &[30, 67, 0xac, 0x02, 70, 0x00, 0x00, 0xc0, 0x3f, 0x00]
        );
        let bad = RivObject::new(ty::IMAGE).with(69, Value::Uint(0));
        assert!(encode(&[bad], Header::default()).is_err());
        let wrong = RivObject::new(ty::IMAGE).with(prop::NAME, Value::Uint(0));
        assert!(encode(&[wrong], Header::default()).is_err());
    }
}
