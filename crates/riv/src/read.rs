//! The independent structural reader (rive-export.md §10.1, first half).
//!
//! Parses a `.riv` byte stream the way the runtime's reader does: header,
//! ToC (4 field ids per u32 word), then object records until the end.
//! It shares **no** code with the writer: its own varuint decoder and its
//! own transcription of the §4.2 key table ([`known_field`]), so an encoding
//! slip in one is caught by the other. It never panics and never allocates
//! more than the input size (every length is checked against the bytes
//! left); [`re2d::limits::Limits::riv_max_objects`] bounds the object count
//! and [`re2d::limits::Limits::riv_max_embedded_bytes`] the embedded bytes.

use re2d::limits::Limits;

/// The kinds of field value (§1). Bool never occurs in re2d files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// varuint (ToC id 0).
    Uint,
    /// length-prefixed string or bytes (ToC id 1).
    Blob,
    /// 4-byte binary32 (ToC id 2).
    Float,
    /// 4-byte colour (ToC id 3).
    Color,
}

/// A decoded property value.
#[derive(Clone, Debug, PartialEq)]
pub enum Field {
    /// varuint value.
    Uint(u64),
    /// binary32 value.
    Float(f32),
    /// string or bytes.
    Blob(Vec<u8>),
    /// colour word.
    Color(u32),
}

/// One decoded object record.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Byte offset of the type key.
    pub offset: usize,
    /// Type key.
    pub type_key: u64,
    /// Properties in stream order.
    pub fields: Vec<(u64, Field)>,
}

impl Record {
    /// The first value of property `key`.
    pub fn field(&self, key: u64) -> Option<&Field> {
        self.fields.iter().find(|(k, _)| *k == key).map(|(_, f)| f)
    }

    /// A uint property.
    pub fn uint(&self, key: u64) -> Option<u64> {
        match self.field(key) {
            Some(Field::Uint(v)) => Some(*v),
            _ => None,
        }
    }

    /// A float property.
    pub fn float(&self, key: u64) -> Option<f32> {
        match self.field(key) {
            Some(Field::Float(v)) => Some(*v),
            _ => None,
        }
    }

    /// A string/bytes property.
    pub fn blob(&self, key: u64) -> Option<&[u8]> {
        match self.field(key) {
            Some(Field::Blob(v)) => Some(v),
            _ => None,
        }
    }
}

/// A parsed file.
#[derive(Clone, Debug, PartialEq)]
pub struct RivFile {
    /// Major version.
    pub major: u64,
    /// Minor version.
    pub minor: u64,
    /// File id.
    pub file_id: u64,
    /// ToC: `(property key, declared field id 0..3)` in file order.
    pub toc: Vec<(u64, u8)>,
    /// Object records in stream order.
    pub records: Vec<Record>,
}

/// A parse failure: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// Byte offset where decoding failed.
    pub offset: usize,
    /// Reason.
    pub reason: String,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.reason)
    }
}

impl std::error::Error for ReadError {}

/// §4.2 as the reader knows it: the kind of every property key re2d may
/// write. Keys 69 (interpolatorId) and 376 (quantize) are deliberately
/// absent: a file carrying them must declare them in its ToC.
pub fn known_field(key: u64) -> Option<Kind> {
    match key {
        // strings: Component.name, Animation.name, Asset.name
        4 | 55 | 138 | 203 => Some(Kind::Blob),
        // bytes: FileAssetContents.bytes, Mesh.triangleIndexBytes
        212 | 223 => Some(Kind::Blob),
        // uints
        5 | 51 | 53 | 56 | 57 | 59 | 67 | 68 | 95 | 102 | 103 | 204 | 206 => Some(Kind::Uint),
        // state machines (§11.2)
        149 | 151 | 152 | 155 | 158 | 160 | 165 | 167 | 236 | 536 => Some(Kind::Uint),
        // draw rules and draw-order keys (§11.6)
        119..=122 => Some(Kind::Uint),
        140 | 166 => Some(Kind::Float),
        // doubles (binary32)
        7 | 8 | 15 | 24 | 25 | 70 | 89 | 90 | 91 | 207 | 208 | 215 | 216 => Some(Kind::Float),
        96..=101 => Some(Kind::Float),
        _ => None,
    }
}

struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn fail<T>(&self, reason: impl Into<String>) -> Result<T, ReadError> {
        Err(ReadError {
            offset: self.pos,
            reason: reason.into(),
        })
    }

    fn at_end(&self) -> bool {
        self.pos >= self.data.len()
    }

    /// LEB128, at most 10 bytes, value must fit in 64 bits.
    fn varuint(&mut self) -> Result<u64, ReadError> {
        let start = self.pos;
        let mut value: u64 = 0;
        let mut shift = 0u32;
        loop {
            let Some(&b) = self.data.get(self.pos) else {
                self.pos = start;
                return self.fail("truncated varuint");
            };
            self.pos += 1;
            let low = (b & 0x7f) as u64;
            if shift == 63 && low > 1 || shift > 63 {
                self.pos = start;
                return self.fail("varuint overflows 64 bits");
            }
            value |= low << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
            shift += 7;
        }
    }

    fn take(&mut self, n: u64) -> Result<&'a [u8], ReadError> {
        let left = (self.data.len() - self.pos) as u64;
        if n > left {
            return self.fail(format!("length {n} exceeds the {left} bytes left"));
        }
        let s = &self.data[self.pos..self.pos + n as usize];
        self.pos += n as usize;
        Ok(s)
    }

    fn u32_le(&mut self) -> Result<u32, ReadError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// `FileAssetContents.bytes`: what the file embeds (texture PNGs), all
/// together within `riv-max-embedded`.
const EMBEDDED_KEY: u64 = 212;

/// Parses a whole file with the default limits.
pub fn read(data: &[u8]) -> Result<RivFile, ReadError> {
    read_with(data, &Limits::DEFAULT)
}

/// Parses a whole file: header, ToC, and object records up to the last byte.
pub fn read_with(data: &[u8], limits: &Limits) -> Result<RivFile, ReadError> {
    let mut c = Cursor { data, pos: 0 };
    if data.len() as u64 > limits.file_max_bytes {
        return c.fail(format!(
            "file of {} bytes exceeds the limit of {}",
            data.len(),
            limits.file_max_bytes
        ));
    }
    if c.take(4).ok() != Some(b"RIVE".as_slice()) {
        c.pos = 0;
        return c.fail("not a Rive file (magic 'RIVE' missing)");
    }
    let major = c.varuint()?;
    let minor = c.varuint()?;
    let file_id = c.varuint()?;
    let mut keys = Vec::new();
    loop {
        let k = c.varuint()?;
        if k == 0 {
            break;
        }
        keys.push(k);
    }
    let mut toc = Vec::with_capacity(keys.len());
    let mut word = 0u32;
    for (i, &k) in keys.iter().enumerate() {
        if i % 4 == 0 {
            word = c.u32_le()?;
        }
        toc.push((k, ((word >> (2 * (i % 4))) & 3) as u8));
    }
    // first ToC entry per key, sorted for lookup (linear in the records)
    let mut toc_index: Vec<(u64, u8)> = Vec::with_capacity(toc.len());
    for &(k, id) in &toc {
        toc_index.push((k, id));
    }
    toc_index.sort_by_key(|e| e.0); // stable: a key's first entry stays first
    toc_index.dedup_by_key(|e| e.0);
    // Memory per record (issue 29): the record list is reserved once for
    // the most records the rest of the file can hold (each is at least two
    // bytes, and at most riv-max-objects), so it never doubles; each record's
    // properties take exactly their size (a growing Vec would reserve four).
    // 16 M one-property records then hold about 90 bytes each.
    let most =
        ((data.len() - c.pos) / 2).min(limits.riv_max_objects.min(usize::MAX as u64) as usize);
    let mut records: Vec<Record> = Vec::new();
    if records.try_reserve_exact(most).is_err() {
        return c.fail(format!(
            "cannot hold {most} objects in memory (limit riv-max-objects, see --limit)"
        ));
    }
    let mut scratch: Vec<(u64, Field)> = Vec::new();
    let mut embedded = 0u64;
    while !c.at_end() {
        if records.len() as u64 >= limits.riv_max_objects {
            return c.fail(format!(
                "more than {} objects (limit riv-max-objects, see --limit)",
                limits.riv_max_objects
            ));
        }
        let offset = c.pos;
        let type_key = c.varuint()?;
        let fields = &mut scratch;
        fields.clear();
        loop {
            let key = c.varuint()?;
            if key == 0 {
                break;
            }
            let kind = match known_field(key) {
                Some(k) => k,
                None => match toc_index
                    .binary_search_by_key(&key, |e| e.0)
                    .ok()
                    .map(|i| &toc_index[i])
                {
                    Some((_, 0)) => Kind::Uint,
                    Some((_, 1)) => Kind::Blob,
                    Some((_, 2)) => Kind::Float,
                    Some(_) => Kind::Color,
                    None => {
                        return c.fail(format!(
                            "property key {key} of object type {type_key} is neither known nor in the ToC"
                        ));
                    }
                },
            };
            let value = match kind {
                Kind::Uint => Field::Uint(c.varuint()?),
                Kind::Blob => {
                    let n = c.varuint()?;
                    let bytes = c.take(n)?;
                    if key == EMBEDDED_KEY {
                        embedded = embedded.saturating_add(n);
                        if embedded > limits.riv_max_embedded_bytes {
                            return c.fail(format!(
                                "the embedded file contents add up to {embedded} bytes or more, more than {} (limit riv-max-embedded, see --limit)",
                                limits.riv_max_embedded_bytes
                            ));
                        }
                    }
                    Field::Blob(bytes.to_vec())
                }
                Kind::Float => Field::Float(f32::from_bits(c.u32_le()?)),
                Kind::Color => Field::Color(c.u32_le()?),
            };
            fields.push((key, value));
        }
        // moved (not copied: a blob may be a large texture) into a list of
        // exactly its length
        let mut exact = Vec::with_capacity(fields.len());
        exact.append(fields);
        records.push(Record {
            offset,
            type_key,
            fields: exact,
        });
    }
    Ok(RivFile {
        major,
        minor,
        file_id,
        toc,
        records,
    })
}

/// Decodes `Mesh.triangleIndexBytes`: varuints, each a u16 index.
pub fn triangle_indices(bytes: &[u8]) -> Result<Vec<u16>, ReadError> {
    let mut c = Cursor {
        data: bytes,
        pos: 0,
    };
    let mut out = Vec::with_capacity(bytes.len());
    while !c.at_end() {
        let v = c.varuint()?;
        if v > u16::MAX as u64 {
            return c.fail(format!("index {v} does not fit in u16"));
        }
        out.push(v as u16);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_worked_header_and_a_record() {
        let mut f = vec![0x52, 0x49, 0x56, 0x45, 7, 3, 0];
        f.extend([4, 5, 7, 8, 0xD4, 0x01, 0, 0xA1, 0, 0, 0, 1, 0, 0, 0]);
        f.extend([30, 67, 0xac, 0x02, 70, 0, 0, 0xc0, 0x3f, 0]);
        let r = read(&f).unwrap();
        assert_eq!((r.major, r.minor, r.file_id), (7, 3, 0));
        assert_eq!(r.toc, vec![(4, 1), (5, 0), (7, 2), (8, 2), (212, 1)]);
        assert_eq!(r.records.len(), 1);
        assert_eq!(r.records[0].uint(67), Some(300));
        assert_eq!(r.records[0].float(70), Some(1.5));
    }

    #[test]
    fn refuses_truncation_overflow_and_unknown_keys() {
        let head = [0x52, 0x49, 0x56, 0x45, 7, 3, 0, 0];
        assert!(read(b"RIV").is_err());
        assert!(read(&[0x52, 0x49, 0x56, 0x45, 0x87]).is_err());
        let mut t = head.to_vec();
        t.extend([30, 67]); // value missing
        assert!(read(&t).is_err());
        let mut u = head.to_vec();
        u.extend([100, 69, 0, 0]); // interpolatorId, not in the ToC
        let e = read(&u).unwrap_err();
        assert!(e.reason.contains("69"), "{e}");
        let mut o = head.to_vec();
        o.extend([0xff; 11]);
        assert!(read(&o).is_err());
        let mut big = head.to_vec();
        big.extend([106, 0xd4, 0x01, 0xff, 0xff, 0xff, 0xff, 0x0f]); // 4 GiB blob
        assert!(read(&big).unwrap_err().reason.contains("exceeds"));
        // a key that is in the ToC is skipped by its declared type
        let mut k = vec![0x52, 0x49, 0x56, 0x45, 7, 3, 0, 69, 0, 0, 0, 0, 0];
        k.extend([30, 69, 5, 0]);
        assert_eq!(read(&k).unwrap().records[0].uint(69), Some(5));
    }

    #[test]
    fn index_bytes_decode() {
        assert_eq!(
            triangle_indices(&[0, 1, 0x81, 0x04]).unwrap(),
            vec![0, 1, 513]
        );
        assert!(triangle_indices(&[0x80, 0x80, 0x04]).is_err());
        assert!(triangle_indices(&[0x80]).is_err());
    }
}
