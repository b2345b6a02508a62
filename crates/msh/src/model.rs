// re2d MSH — the model IR: the NRes archive kept losslessly plus the reading plan (which tables, records and links are usable) (spec: msh.md §2, §3, §4.1).
//! A [`Model`] owns the model's [`Archive`] (borrowing the input when it
//! was decoded from a slice) and a small plan computed by the checks: which
//! entry serves each table, the record counts, and per slot/batch/node
//! flags for what the tolerant profile dropped. Every accessor reads the
//! table bytes on demand, so decoding allocates nothing per vertex, index or
//! triangle. A model accepted by the strict profile has every flag set.

use crate::nres::Archive;
use crate::nres::bytes::get16;

use super::tables::{
    BATCH_STRIDE, Batch, HEADER_SIZE, Header, KEY_STRIDE, Key, NODE_STRIDE, NONE16, Node,
    POS_STRIDE, RES_BATCHES, RES_INDICES, RES_KEYS, RES_MAP, RES_NAMES, RES_NODES, RES_NORMALS,
    RES_POSITIONS, RES_SLOTS, RES_TRIS, RES_UV0, SLOT_STRIDE, Slot, TRI_STRIDE, TriDesc,
    decode_normal, decode_uv, record,
};

/// How the Res1 node table is interpreted (§3.1, check 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeLayout {
    /// 38-byte records: nodes, slots, animation are read.
    Stride38,
    /// The legacy 24-byte layout: copied through, no node or slot data.
    Stride24,
    /// The table is unusable (bad stride or size): copied through only.
    Unusable,
}

/// An MSH model: the archive and what of it is usable.
#[derive(Clone, Debug, PartialEq)]
pub struct Model<'a> {
    pub(crate) archive: Archive<'a>,
    /// Entry index serving each table type 0..=20 (`None` = absent or dropped).
    pub(crate) entry: [Option<u32>; 21],
    pub(crate) layout: NodeLayout,
    pub(crate) nodes: usize,
    pub(crate) slots: usize,
    pub(crate) vertices: usize,
    pub(crate) indices: usize,
    pub(crate) tris: usize,
    pub(crate) batches: usize,
    pub(crate) keys: usize,
    pub(crate) map_words: usize,
    pub(crate) frame_count: u32,
    pub(crate) res20_attr1: u32,
    pub(crate) normals_ok: bool,
    pub(crate) uvs_ok: bool,
    pub(crate) slot_ok: Vec<bool>,
    pub(crate) tri_ok: Vec<bool>,
    pub(crate) batch_ok: Vec<bool>,
    pub(crate) animated: Vec<bool>,
    pub(crate) flattened: bool,
    pub(crate) names: Vec<Option<(u32, u32)>>,
}

impl<'a> Model<'a> {
    /// The archive (lossless source of every byte).
    pub fn archive(&self) -> &Archive<'a> {
        &self.archive
    }

    /// Gives the archive back.
    pub fn into_archive(self) -> Archive<'a> {
        self.archive
    }

    /// Lossless re-encoding of the model's archive (§6.1).
    pub fn encode(&self) -> Result<Vec<u8>, crate::nres::Issue> {
        self.archive.encode_lossless()
    }

    /// Payload of the entry serving table `type_id` (empty when absent or dropped).
    pub fn table(&self, type_id: u32) -> &[u8] {
        self.entry
            .get(type_id as usize)
            .copied()
            .flatten()
            .and_then(|i| self.archive.payload(i as usize))
            .unwrap_or(&[])
    }

    /// Directory index of the entry serving table `type_id`.
    pub fn table_entry(&self, type_id: u32) -> Option<usize> {
        self.entry
            .get(type_id as usize)
            .copied()
            .flatten()
            .map(|i| i as usize)
    }

    /// How Res1 is interpreted.
    pub fn node_layout(&self) -> NodeLayout {
        self.layout
    }

    /// Number of interpreted nodes (0 for a stride-24 or unusable Res1).
    pub fn node_count(&self) -> usize {
        self.nodes
    }

    /// Number of slots.
    pub fn slot_count(&self) -> usize {
        self.slots
    }

    /// Number of vertices (Res3 records).
    pub fn vertex_count(&self) -> usize {
        self.vertices
    }

    /// Number of Res6 indices.
    pub fn index_count(&self) -> usize {
        self.indices
    }

    /// Number of Res7 triangle descriptors.
    pub fn tri_count(&self) -> usize {
        self.tris
    }

    /// Number of Res13 batches.
    pub fn batch_count(&self) -> usize {
        self.batches
    }

    /// Number of Res8 keys.
    pub fn key_count(&self) -> usize {
        self.keys
    }

    /// Number of Res19 map words.
    pub fn map_word_count(&self) -> usize {
        self.map_words
    }

    /// The global frame count (`Res19.attr2`; 0 without Res19).
    pub fn frame_count(&self) -> u32 {
        self.frame_count
    }

    /// `Res20.attr1` when Res20 exists, else 0 (§2.3).
    pub fn res20_attr1(&self) -> u32 {
        self.res20_attr1
    }

    /// Whether the hierarchy was flattened because of a bad parent index (check 17).
    pub fn is_flattened(&self) -> bool {
        self.flattened
    }

    /// Node `i` (38-byte layout only).
    pub fn node(&self, i: usize) -> Option<Node> {
        if self.layout != NodeLayout::Stride38 || i >= self.nodes {
            return None;
        }
        record::<NODE_STRIDE>(self.table(RES_NODES), i).map(Node::from_bytes)
    }

    /// The parent used for the world matrix (`None` for a root or when flattened).
    pub fn parent(&self, i: usize) -> Option<usize> {
        if self.flattened {
            return None;
        }
        let p = self.node(i)?.parent;
        (p != NONE16 && (p as usize) < i).then_some(p as usize)
    }

    /// Slot of `(node, lod, group)` (§3.1): `None` for `0xFFFF`, a reference
    /// past the slot table (check 7) or a dropped slot (check 8).
    pub fn slot_of(&self, node: usize, lod: usize, group: usize) -> Option<usize> {
        if lod > 2 || group > 4 || node >= self.nodes || self.layout != NodeLayout::Stride38 {
            return None;
        }
        let w = super::tables::slot_word_index(node, lod, group);
        let s = get16(self.table(RES_NODES), 2 * w)?;
        let s = s as usize;
        (s != NONE16 as usize && s < self.slots && self.slot_ok[s]).then_some(s)
    }

    /// The model header (zeros when Res2 is unusable).
    pub fn header(&self) -> Header {
        match record::<HEADER_SIZE>(self.table(RES_SLOTS), 0) {
            Some(r) => Header::from_bytes(r),
            None => Header::from_bytes(&[0; HEADER_SIZE]),
        }
    }

    /// Slot record `i` (raw, whether or not it was dropped).
    pub fn slot(&self, i: usize) -> Option<Slot> {
        let t = self.table(RES_SLOTS);
        let t = t.get(HEADER_SIZE..).unwrap_or(&[]);
        record::<SLOT_STRIDE>(t, i).map(Slot::from_bytes)
    }

    /// Whether slot `i` is usable (check 8).
    pub fn slot_usable(&self, i: usize) -> bool {
        self.slot_ok.get(i).copied().unwrap_or(false)
    }

    /// Usable batches of slot `i`, in order (dropped batches are skipped).
    pub fn slot_batches(&self, i: usize) -> impl Iterator<Item = (usize, Batch)> + '_ {
        let range = match (self.slot_usable(i), self.slot(i)) {
            (true, Some(s)) => {
                s.batch_start as usize..s.batch_start as usize + s.batch_count as usize
            }
            _ => 0..0,
        };
        range.filter_map(move |b| self.batch(b).map(|x| (b, x)))
    }

    /// Triangle descriptor range of slot `i` (`None` when dropped, check 9).
    pub fn slot_tris(&self, i: usize) -> Option<std::ops::Range<usize>> {
        let s = self.slot(i)?;
        (self.slot_usable(i) && self.tri_ok[i])
            .then(|| s.tri_start as usize..s.tri_start as usize + s.tri_count as usize)
    }

    /// Batch `i` when usable (checks 10, 11).
    pub fn batch(&self, i: usize) -> Option<Batch> {
        if !self.batch_ok.get(i).copied().unwrap_or(false) {
            return None;
        }
        record::<BATCH_STRIDE>(self.table(RES_BATCHES), i).map(Batch::from_bytes)
    }

    /// Batch record `i` as stored, usable or not.
    pub fn batch_raw(&self, i: usize) -> Option<Batch> {
        record::<BATCH_STRIDE>(self.table(RES_BATCHES), i).map(Batch::from_bytes)
    }

    /// The indices a batch draws as triangles: `index_count` rounded down to
    /// a multiple of 3 (check 12), raw `u16` little-endian bytes. Empty for a
    /// dropped batch.
    pub fn batch_index_bytes(&self, b: &Batch) -> &[u8] {
        let n = (b.index_count as usize / 3) * 3;
        let s = b.index_start as usize * 2;
        self.table(RES_INDICES).get(s..s + n * 2).unwrap_or(&[])
    }

    /// Vertex index `k` of a batch's triangle list (index + base_vertex).
    pub fn batch_vertex(&self, b: &Batch, k: usize) -> Option<usize> {
        let ib = self.batch_index_bytes(b);
        Some(get16(ib, 2 * k)? as usize + b.base_vertex as usize)
    }

    /// Position of vertex `v`.
    pub fn position(&self, v: usize) -> Option<[f32; 3]> {
        let r = record::<POS_STRIDE>(self.table(RES_POSITIONS), v)?;
        let f = |o: usize| f32::from_le_bytes([r[o], r[o + 1], r[o + 2], r[o + 3]]);
        Some([f(0), f(4), f(8)])
    }

    /// Decoded normal of vertex `v` (`None` when Res4 is absent or too short).
    pub fn normal(&self, v: usize) -> Option<[f32; 3]> {
        if !self.normals_ok {
            return None;
        }
        record::<4>(self.table(RES_NORMALS), v).map(|r| decode_normal(*r))
    }

    /// Decoded UV0 of vertex `v` (`None` when Res5 is absent or too short).
    pub fn uv(&self, v: usize) -> Option<[f32; 2]> {
        if !self.uvs_ok {
            return None;
        }
        record::<4>(self.table(RES_UV0), v).map(|r| {
            decode_uv(
                i16::from_le_bytes([r[0], r[1]]),
                i16::from_le_bytes([r[2], r[3]]),
            )
        })
    }

    /// Whether the model has usable normals / UVs.
    pub fn has_normals(&self) -> bool {
        self.normals_ok
    }

    /// Whether the model has usable UVs.
    pub fn has_uvs(&self) -> bool {
        self.uvs_ok
    }

    /// Triangle descriptor `t`; links past the table read as `0xFFFF` (check 13).
    pub fn tri(&self, t: usize) -> Option<TriDesc> {
        let mut d = record::<TRI_STRIDE>(self.table(RES_TRIS), t).map(TriDesc::from_bytes)?;
        for l in &mut d.links {
            if *l != NONE16 && *l as usize >= self.tris {
                *l = NONE16;
            }
        }
        Some(d)
    }

    /// Raw Res10 name bytes of node `i` (`None` when absent).
    pub fn node_name(&self, i: usize) -> Option<&[u8]> {
        let (s, e) = (*self.names.get(i)?)?;
        self.table(RES_NAMES).get(s as usize..e as usize)
    }

    /// Node name as UTF-8 (Windows-1251 transcoded), or `node_<i>`.
    pub fn display_name(&self, i: usize) -> String {
        match self.node_name(i) {
            Some(n) => crate::nres::name::cp1251_to_utf8(n),
            None => format!("node_{i}"),
        }
    }

    /// Animation key `k`.
    pub fn key(&self, k: usize) -> Option<Key> {
        if k >= self.keys {
            return None;
        }
        record::<KEY_STRIDE>(self.table(RES_KEYS), k).map(Key::from_bytes)
    }

    /// Res19 word `w`.
    pub fn map_word(&self, w: usize) -> Option<u16> {
        if w >= self.map_words {
            return None;
        }
        get16(self.table(RES_MAP), 2 * w)
    }

    /// Whether node `i`'s animation map is used (it has one and passed check 16).
    pub fn is_animated(&self, i: usize) -> bool {
        self.animated.get(i).copied().unwrap_or(false)
    }
}
