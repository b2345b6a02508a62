// re2d MSH — table numbers, record layouts and scalar codecs of Res1..Res20 (spec: msh.md §2.1, §3, §5.1).
//! Every record type is a plain struct read from a slice of exactly its
//! stride (`from_bytes`), so no field read can go out of bounds. The scalar
//! codecs (normals, UVs, quaternions, selectors) follow §3.3, §3.4 and §5.1
//! to the letter.

use crate::nres::bytes::{le16, le32, lef32, lei16};

/// Res1: node table.
pub const RES_NODES: u32 = 1;
/// Res2: model header + slot table.
pub const RES_SLOTS: u32 = 2;
/// Res3: positions.
pub const RES_POSITIONS: u32 = 3;
/// Res4: packed normals.
pub const RES_NORMALS: u32 = 4;
/// Res5: packed UV0.
pub const RES_UV0: u32 = 5;
/// Res6: index buffer.
pub const RES_INDICES: u32 = 6;
/// Res7: triangle descriptors.
pub const RES_TRIS: u32 = 7;
/// Res8: animation key pool.
pub const RES_KEYS: u32 = 8;
/// Res10: node names.
pub const RES_NAMES: u32 = 10;
/// Res13: batch table.
pub const RES_BATCHES: u32 = 13;
/// Res15: extra per-vertex stream.
pub const RES_EXTRA15: u32 = 15;
/// Res16: tangent/bitangent stream.
pub const RES_EXTRA16: u32 = 16;
/// Res18: per-vertex colour stream.
pub const RES_EXTRA18: u32 = 18;
/// Res19: animation frame map.
pub const RES_MAP: u32 = 19;
/// Res20: auxiliary table.
pub const RES_AUX20: u32 = 20;

/// Types the loader opens; a second entry of one of these is a strict error.
pub const CORE_TYPES: [u32; 15] = [1, 2, 3, 4, 5, 6, 7, 8, 10, 13, 15, 16, 18, 19, 20];
/// Types a model must have (check 1).
pub const REQUIRED_TYPES: [u32; 5] = [1, 2, 3, 6, 13];

/// Res1 record size.
pub const NODE_STRIDE: usize = 38;
/// Res1 legacy record size (copy-through only).
pub const NODE_STRIDE_LEGACY: usize = 24;
/// Res2 header size.
pub const HEADER_SIZE: usize = 140;
/// Res2 slot record size.
pub const SLOT_STRIDE: usize = 68;
/// Res3 record size.
pub const POS_STRIDE: usize = 12;
/// Res7 record size.
pub const TRI_STRIDE: usize = 16;
/// Res8 record size.
pub const KEY_STRIDE: usize = 24;
/// Res13 record size.
pub const BATCH_STRIDE: usize = 20;
/// "No slot / no link / no map / root" marker.
pub const NONE16: u16 = 0xFFFF;

/// Record stride of a fixed-stride table (`None` for Res1, Res2, Res10,
/// Res20 and unknown types, which have their own rules).
pub fn stride(type_id: u32) -> Option<usize> {
    Some(match type_id {
        3 => 12,
        4 | 5 | 18 => 4,
        6 | 19 => 2,
        7 => 16,
        8 => 24,
        13 => 20,
        15 | 16 => 8,
        _ => return None,
    })
}

/// `attr3` the writer records for a table (§3.5; Res8 records 4, not its stride).
pub fn expected_attr3(type_id: u32) -> Option<u32> {
    Some(match type_id {
        2 => 68,
        3 => 12,
        4 | 5 => 4,
        6 => 2,
        7 => 16,
        13 => 20,
        8 => 4,
        19 => 2,
        10 => 0,
        _ => return None,
    })
}

/// Word index of `slot[lod·5 + group]` of `node` in Res1 seen as `u16[]` (§3.1).
pub fn slot_word_index(node: usize, lod: usize, group: usize) -> usize {
    4 + node * 19 + lod * 5 + group
}

/// Res1 record (stride 38).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// `hdr0`: flags (preserved, meaning unknown).
    pub flags: u16,
    /// `hdr1`: parent index or `0xFFFF`.
    pub parent: u16,
    /// `hdr2`: start of the node's Res19 block or `0xFFFF`.
    pub anim_map_start: u16,
    /// `hdr3`: fallback key index in Res8.
    pub fallback_key: u16,
    /// `slot[lod·5 + group]`, `0xFFFF` = none.
    pub slots: [u16; 15],
}

impl Node {
    /// Reads a 38-byte record.
    pub fn from_bytes(r: &[u8; NODE_STRIDE]) -> Node {
        let mut slots = [0u16; 15];
        for (k, s) in slots.iter_mut().enumerate() {
            *s = le16(r, 8 + 2 * k);
        }
        Node {
            flags: le16(r, 0),
            parent: le16(r, 2),
            anim_map_start: le16(r, 4),
            fallback_key: le16(r, 6),
            slots,
        }
    }

    /// Writes a 38-byte record.
    pub fn to_bytes(&self) -> [u8; NODE_STRIDE] {
        let mut r = [0u8; NODE_STRIDE];
        r[0..2].copy_from_slice(&self.flags.to_le_bytes());
        r[2..4].copy_from_slice(&self.parent.to_le_bytes());
        r[4..6].copy_from_slice(&self.anim_map_start.to_le_bytes());
        r[6..8].copy_from_slice(&self.fallback_key.to_le_bytes());
        for (k, s) in self.slots.iter().enumerate() {
            r[8 + 2 * k..10 + 2 * k].copy_from_slice(&s.to_le_bytes());
        }
        r
    }
}

/// Res2 model header (first 140 bytes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Header {
    /// Global bounding hull: 8 corners.
    pub hull: [[f32; 3]; 8],
    /// Global bounding sphere: centre xyz, radius.
    pub sphere: [f32; 4],
    /// Global capsule: A xyz, B xyz, radius.
    pub capsule: [f32; 7],
}

impl Header {
    /// Reads the 140-byte header.
    pub fn from_bytes(r: &[u8; HEADER_SIZE]) -> Header {
        let f = |k: usize| lef32(r, 4 * k);
        let mut hull = [[0.0; 3]; 8];
        for (c, corner) in hull.iter_mut().enumerate() {
            *corner = [f(3 * c), f(3 * c + 1), f(3 * c + 2)];
        }
        Header {
            hull,
            sphere: [f(24), f(25), f(26), f(27)],
            capsule: [f(28), f(29), f(30), f(31), f(32), f(33), f(34)],
        }
    }

    /// Writes the 140-byte header.
    pub fn to_bytes(&self) -> [u8; HEADER_SIZE] {
        let mut v = Vec::with_capacity(35);
        for c in &self.hull {
            v.extend_from_slice(c);
        }
        v.extend_from_slice(&self.sphere);
        v.extend_from_slice(&self.capsule);
        let mut r = [0u8; HEADER_SIZE];
        for (k, x) in v.iter().enumerate() {
            r[4 * k..4 * k + 4].copy_from_slice(&x.to_le_bytes());
        }
        r
    }
}

/// Res2 slot record (68 bytes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slot {
    /// First triangle descriptor (Res7).
    pub tri_start: u16,
    /// Number of triangle descriptors.
    pub tri_count: u16,
    /// First batch (Res13).
    pub batch_start: u16,
    /// Number of batches.
    pub batch_count: u16,
    /// Local AABB minimum.
    pub aabb_min: [f32; 3],
    /// Local AABB maximum.
    pub aabb_max: [f32; 3],
    /// Bounding sphere centre.
    pub sphere_center: [f32; 3],
    /// Bounding sphere radius.
    pub sphere_radius: f32,
    /// Opaque tail, preserved verbatim.
    pub tail: [u32; 5],
}

impl Slot {
    /// Reads a 68-byte record.
    pub fn from_bytes(r: &[u8; SLOT_STRIDE]) -> Slot {
        let v3 = |o: usize| [lef32(r, o), lef32(r, o + 4), lef32(r, o + 8)];
        Slot {
            tri_start: le16(r, 0),
            tri_count: le16(r, 2),
            batch_start: le16(r, 4),
            batch_count: le16(r, 6),
            aabb_min: v3(8),
            aabb_max: v3(20),
            sphere_center: v3(32),
            sphere_radius: lef32(r, 44),
            tail: [
                le32(r, 48),
                le32(r, 52),
                le32(r, 56),
                le32(r, 60),
                le32(r, 64),
            ],
        }
    }

    /// Writes a 68-byte record.
    pub fn to_bytes(&self) -> [u8; SLOT_STRIDE] {
        let mut r = [0u8; SLOT_STRIDE];
        r[0..2].copy_from_slice(&self.tri_start.to_le_bytes());
        r[2..4].copy_from_slice(&self.tri_count.to_le_bytes());
        r[4..6].copy_from_slice(&self.batch_start.to_le_bytes());
        r[6..8].copy_from_slice(&self.batch_count.to_le_bytes());
        let floats = [
            self.aabb_min[0],
            self.aabb_min[1],
            self.aabb_min[2],
            self.aabb_max[0],
            self.aabb_max[1],
            self.aabb_max[2],
            self.sphere_center[0],
            self.sphere_center[1],
            self.sphere_center[2],
            self.sphere_radius,
        ];
        for (k, x) in floats.iter().enumerate() {
            r[8 + 4 * k..12 + 4 * k].copy_from_slice(&x.to_le_bytes());
        }
        for (k, x) in self.tail.iter().enumerate() {
            r[48 + 4 * k..52 + 4 * k].copy_from_slice(&x.to_le_bytes());
        }
        r
    }
}

/// Res13 batch record (20 bytes, unaligned u32 fields).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    /// Batch flags (also a filter mask).
    pub flags: u16,
    /// Material index.
    pub material_index: u16,
    /// Opaque, preserved.
    pub opaque4: u16,
    /// Opaque, preserved.
    pub opaque6: u16,
    /// Number of indices.
    pub index_count: u16,
    /// First index in Res6 (elements, not bytes).
    pub index_start: u32,
    /// Opaque, preserved.
    pub opaque14: u16,
    /// Added to every index.
    pub base_vertex: u32,
}

impl Batch {
    /// Reads a 20-byte record.
    pub fn from_bytes(r: &[u8; BATCH_STRIDE]) -> Batch {
        Batch {
            flags: le16(r, 0),
            material_index: le16(r, 2),
            opaque4: le16(r, 4),
            opaque6: le16(r, 6),
            index_count: le16(r, 8),
            index_start: le32(r, 10),
            opaque14: le16(r, 14),
            base_vertex: le32(r, 16),
        }
    }
}

/// Res7 triangle descriptor (16 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TriDesc {
    /// Filter mask for collision and picking.
    pub flags: u16,
    /// Neighbouring triangles or `0xFFFF`.
    pub links: [u16; 3],
    /// Face normal, scale 1/32767.
    pub normal: [i16; 3],
    /// Three 2-bit selectors.
    pub sel_packed: u16,
}

impl TriDesc {
    /// Reads a 16-byte record.
    pub fn from_bytes(r: &[u8; TRI_STRIDE]) -> TriDesc {
        TriDesc {
            flags: le16(r, 0),
            links: [le16(r, 2), le16(r, 4), le16(r, 6)],
            normal: [lei16(r, 8), lei16(r, 10), lei16(r, 12)],
            sel_packed: le16(r, 14),
        }
    }

    /// The three selectors (§3.4): 2-bit fields at bits 0, 2, 4; 3 → `0xFFFF`.
    pub fn selectors(&self) -> [u16; 3] {
        sel_decode(self.sel_packed)
    }
}

/// Decodes `sel_packed` (§3.4).
pub fn sel_decode(p: u16) -> [u16; 3] {
    let f = |s: u32| match (p >> s) & 3 {
        3 => NONE16,
        v => v,
    };
    [f(0), f(2), f(4)]
}

/// Res8 animation key (24 bytes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Key {
    /// Position.
    pub pos: [f32; 3],
    /// Time in frame units.
    pub time: f32,
    /// Quaternion x, y, z, w as stored.
    pub q: [i16; 4],
}

impl Key {
    /// Reads a 24-byte record.
    pub fn from_bytes(r: &[u8; KEY_STRIDE]) -> Key {
        Key {
            pos: [lef32(r, 0), lef32(r, 4), lef32(r, 8)],
            time: lef32(r, 12),
            q: [lei16(r, 16), lei16(r, 18), lei16(r, 20), lei16(r, 22)],
        }
    }

    /// Writes a 24-byte record.
    pub fn to_bytes(&self) -> [u8; KEY_STRIDE] {
        let mut r = [0u8; KEY_STRIDE];
        for (k, x) in [self.pos[0], self.pos[1], self.pos[2], self.time]
            .iter()
            .enumerate()
        {
            r[4 * k..4 * k + 4].copy_from_slice(&x.to_le_bytes());
        }
        for (k, x) in self.q.iter().enumerate() {
            r[16 + 2 * k..18 + 2 * k].copy_from_slice(&x.to_le_bytes());
        }
        r
    }

    /// The decoded quaternion `(x, y, z, w)` (§5.1).
    pub fn quat(&self) -> [f32; 4] {
        self.q.map(decode_quat_component)
    }
}

/// One quaternion component: `f32(s) * (1.0f32 / 32767.0)` (a multiplication
/// by the f32 reciprocal, as the engine does; no clamp).
pub fn decode_quat_component(s: i16) -> f32 {
    s as f32 * (1.0f32 / 32767.0)
}

/// Encodes a quaternion component: `clamp(round(q·32767), −32767, 32767)`,
/// half away from zero (§5.9).
pub fn encode_quat_component(q: f32) -> i16 {
    let v = (q * 32767.0).round();
    if v.is_nan() {
        return 0;
    }
    v.clamp(-32767.0, 32767.0) as i16
}

/// Decodes a packed normal (§3.3): `clamp(v / 127, −1, 1)` for x, y, z.
pub fn decode_normal(b: [u8; 4]) -> [f32; 3] {
    let f = |v: u8| ((v as i8) as f32 / 127.0).clamp(-1.0, 1.0);
    [f(b[0]), f(b[1]), f(b[2])]
}

/// Encodes one normal component: `clamp(round(v·127), −128, 127)`.
pub fn encode_normal_component(v: f32) -> i8 {
    let r = (v * 127.0).round();
    if r.is_nan() {
        return 0;
    }
    r.clamp(-128.0, 127.0) as i8
}

/// Decodes a packed UV (§3.3): `v / 1024`.
pub fn decode_uv(u: i16, v: i16) -> [f32; 2] {
    [u as f32 / 1024.0, v as f32 / 1024.0]
}

/// Encodes one UV component: `clamp(round(uv·1024), −32768, 32767)`.
pub fn encode_uv_component(v: f32) -> i16 {
    let r = (v * 1024.0).round();
    if r.is_nan() {
        return 0;
    }
    r.clamp(-32768.0, 32767.0) as i16
}

/// Decodes a Res7 face normal component (scale 1/32767).
pub fn decode_face_normal(n: [i16; 3]) -> [f32; 3] {
    n.map(|v| v as f32 / 32767.0)
}

/// Encodes a Res7 face normal component: `clamp(round(n·32767), −32767, 32767)`.
pub fn encode_face_normal_component(v: f32) -> i16 {
    encode_quat_component(v)
}

/// Reads record `i` of a fixed-stride table (`None` past the end).
#[inline]
pub(crate) fn record<const N: usize>(table: &[u8], i: usize) -> Option<&[u8; N]> {
    let s = i.checked_mul(N)?;
    table.get(s..s.checked_add(N)?)?.try_into().ok()
}
