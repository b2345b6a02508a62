// re2d MSH — synthetic test models from a seed, written by their own byte-level encoder (spec: msh.md §9.1).
//! The generator does **not** use the NRes writer or any table encoder of
//! re2d: it has its own little-endian writers, its own §1.5 sort and its own
//! archive layout code, so the reader and writer are tested against an
//! independent producer. Every profile is deterministic in `seed` (the seed
//! jitters coordinates, angles, garbage bytes and gap sizes).
//!
//! | profile | content |
//! |---|---|
//! | `triangle` | 1 node, 1 slot, 1 batch, 3 vertices, 1 descriptor (`sel_packed = 0x3F`, links `0xFFFF`), a static key, empty Res19 with `frame_count = 1` |
//! | `cube-lods` | 1 node with 3 LODs × 2 groups (6 slots), 1–3 batches per slot, materials 0–3 |
//! | `hierarchy-anim` | `root → spine → neck → head` plus `arm` (child of `root`), a box each; integer-time keys, Res19 maps per §5.9 incl. frames past a node's last key (13 frames) |
//! | `nested` | an outer archive holding `README.TXT`, `UNIT.MSH` (a `hierarchy-anim` model) and `ICON.BIN` |
//! | `quirks` | the `hierarchy-anim` model in a quirky container: types 9, 17 (0 bytes) and 99 (35-byte name), a **stride-24** Res1 (copy-through), garbage after name NULs, an unindexed region, unaligned payloads, non-zero padding, a valid non-canonical `sort_index`, mixed-case names, Res15/18/20 |
//! | `quirks38` | the same container with the normal 38-byte Res1 (exportable) |
//! | `big` | the benchmark model: ≈ 1 M triangles, ≈ 64 MiB (see [`big`]) |
//!
//! [`Synth`] also records what was generated (nodes, parents, slots and the
//! per-batch triangle and distinct-vertex counts) so that tests can compare
//! exports with the generator's own numbers.

/// Profile names accepted by [`generate`].
pub const PROFILES: [&str; 7] = [
    "triangle",
    "cube-lods",
    "hierarchy-anim",
    "nested",
    "quirks",
    "quirks38",
    "big",
];

/// One generated batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SynthBatch {
    /// Material index.
    pub material: u16,
    /// Triangles.
    pub triangles: u32,
    /// Distinct vertices it references.
    pub vertices: u32,
}

/// One generated node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SynthNode {
    /// Name written to Res10.
    pub name: String,
    /// Parent node.
    pub parent: Option<usize>,
    /// `((lod, group), batches)` for every slot the node references.
    pub slots: Vec<((usize, usize), Vec<SynthBatch>)>,
    /// Whether the node has an animation map.
    pub animated: bool,
}

/// A generated file and what it contains.
#[derive(Clone, Debug, PartialEq)]
pub struct Synth {
    /// The file.
    pub bytes: Vec<u8>,
    /// For `nested`: the entry holding the model.
    pub entry: Option<&'static str>,
    /// The nodes (empty for `quirks`, whose stride-24 Res1 has no node data).
    pub nodes: Vec<SynthNode>,
    /// `Res19.attr2`.
    pub frame_count: u32,
    /// Keys per node track (`hierarchy-anim`-based profiles; empty otherwise).
    pub key_times: Vec<Vec<f32>>,
}

/// Generates `profile` from `seed`.
pub fn generate(profile: &str, seed: u64) -> Result<Synth, String> {
    let mut rng = Rng(seed ^ 0x5EED_0000_0000_0001);
    Ok(match profile {
        "triangle" => triangle(&mut rng),
        "cube-lods" => cube_lods(&mut rng),
        "hierarchy-anim" => hierarchy(&mut rng).finish(&Layout::canonical()),
        "nested" => nested(&mut rng),
        "quirks" => quirks(&mut rng, true),
        "quirks38" => quirks(&mut rng, false),
        "big" => big(64 << 20, seed),
        _ => {
            return Err(format!(
                "unknown profile \"{profile}\" (expected one of {})",
                PROFILES.join(", ")
            ));
        }
    })
}

// ---------------------------------------------------------------- rng

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [lo, hi).
    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn nonzero_bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| 1 + (self.next() % 255) as u8).collect()
    }
}

// ---------------------------------------------------------------- byte writers (independent of re2d's)

fn p16(v: &mut Vec<u8>, x: u16) {
    v.push(x as u8);
    v.push((x >> 8) as u8);
}
fn p32(v: &mut Vec<u8>, x: u32) {
    for k in 0..4 {
        v.push((x >> (8 * k)) as u8);
    }
}
fn pf(v: &mut Vec<u8>, x: f32) {
    p32(v, x.to_bits());
}
fn pi16(v: &mut Vec<u8>, x: i16) {
    p16(v, x as u16);
}
/// `clamp(round_half_away(x·s), lo, hi)`, independent of the crate's codecs.
fn quant(x: f32, s: f32, lo: f32, hi: f32) -> i32 {
    let y = x * s;
    let r = if y >= 0.0 {
        (y + 0.5).floor()
    } else {
        -((-y + 0.5).floor())
    };
    r.max(lo).min(hi) as i32
}

// ---------------------------------------------------------------- model under construction

#[derive(Clone, Copy)]
struct BatchRec {
    material: u16,
    count: u16,
    start: u32,
    base: u32,
    opaque: [u16; 4], // flags, opaque4, opaque6, opaque14
}

#[derive(Clone, Copy)]
struct SlotRec {
    tri_start: u16,
    tri_count: u16,
    batch_start: u16,
    batch_count: u16,
    min: [f32; 3],
    max: [f32; 3],
    tail: [u32; 5],
}

#[derive(Clone)]
struct NodeRec {
    flags: u16,
    parent: u16,
    map: u16,
    fallback: u16,
    slots: [u16; 15],
    name: String,
}

#[derive(Clone, Copy)]
struct KeyRec {
    pos: [f32; 3],
    time: f32,
    q: [f32; 4],
}

#[derive(Default)]
struct Build {
    pos: Vec<[f32; 3]>,
    nrm: Vec<[f32; 3]>,
    uv: Vec<[f32; 2]>,
    idx: Vec<u16>,
    tris: Vec<[u8; 16]>,
    batches: Vec<BatchRec>,
    slots: Vec<SlotRec>,
    nodes: Vec<NodeRec>,
    keys: Vec<KeyRec>,
    map: Vec<u16>,
    frame_count: u32,
    info: Vec<SynthNode>,
    key_times: Vec<Vec<f32>>,
}

/// Box faces: normal axis, sign, (u axis, v axis).
const FACES: [([f32; 3], usize, usize); 6] = [
    ([1.0, 0.0, 0.0], 1, 2),
    ([-1.0, 0.0, 0.0], 1, 2),
    ([0.0, 1.0, 0.0], 0, 2),
    ([0.0, -1.0, 0.0], 0, 2),
    ([0.0, 0.0, 1.0], 0, 1),
    ([0.0, 0.0, -1.0], 0, 1),
];

impl Build {
    /// A triangle descriptor for vertices a, b, c (absolute).
    fn tri_desc(&mut self, a: usize, b: usize, c: usize) {
        let (p0, p1, p2) = (self.pos[a], self.pos[b], self.pos[c]);
        let e1 = [p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]];
        let e2 = [p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]];
        let n = [
            e1[1] * e2[2] - e1[2] * e2[1],
            e1[2] * e2[0] - e1[0] * e2[2],
            e1[0] * e2[1] - e1[1] * e2[0],
        ];
        let l = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt().max(1e-30);
        let mut r = Vec::with_capacity(16);
        p16(&mut r, 0);
        for _ in 0..3 {
            p16(&mut r, 0xFFFF);
        }
        for k in 0..3 {
            pi16(&mut r, quant(n[k] / l, 32767.0, -32767.0, 32767.0) as i16);
        }
        p16(&mut r, 0x3F);
        let mut rec = [0u8; 16];
        rec.copy_from_slice(&r);
        self.tris.push(rec);
    }

    /// Adds a box as one slot whose faces are split over `materials.len()`
    /// batches; returns the slot index and the batches' summary.
    fn add_box(&mut self, c: [f32; 3], h: [f32; 3], materials: &[u16]) -> (u16, Vec<SynthBatch>) {
        let base = self.pos.len() as u32;
        let tri_start = self.tris.len() as u16;
        let batch_start = self.batches.len() as u16;
        for (normal, ua, va) in FACES {
            let na = (0..3).find(|&k| normal[k] != 0.0).unwrap_or(0);
            for (su, sv) in [(-1.0f32, -1.0f32), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                let mut p = c;
                p[na] += normal[na] * h[na];
                p[ua] += su * h[ua];
                p[va] += sv * h[va];
                self.pos.push(p);
                self.nrm.push(normal);
                self.uv.push([(su + 1.0) * 0.5, (sv + 1.0) * 0.5]);
            }
        }
        let per = 6usize.div_ceil(materials.len());
        let mut out = Vec::new();
        let mut face = 0usize;
        for &mat in materials {
            let start = self.idx.len() as u32;
            let first_face = face;
            while face < 6 && face < first_face + per {
                let v = (face * 4) as u16 - (first_face * 4) as u16;
                // counter-clockwise around the outward normal (right-hand rule)
                let a = base as usize + face * 4;
                let (p0, p1, p2) = (self.pos[a], self.pos[a + 1], self.pos[a + 2]);
                let e1 = [p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]];
                let e2 = [p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]];
                let cr = [
                    e1[1] * e2[2] - e1[2] * e2[1],
                    e1[2] * e2[0] - e1[0] * e2[2],
                    e1[0] * e2[1] - e1[1] * e2[0],
                ];
                let f = &FACES[face].0;
                let flip = cr[0] * f[0] + cr[1] * f[1] + cr[2] * f[2] < 0.0;
                let quad: [u16; 6] = if flip {
                    [v, v + 2, v + 1, v, v + 3, v + 2]
                } else {
                    [v, v + 1, v + 2, v, v + 2, v + 3]
                };
                self.idx.extend_from_slice(&quad);
                face += 1;
            }
            let bbase = base + (first_face * 4) as u32;
            let count = self.idx.len() as u32 - start;
            for t in 0..count as usize / 3 {
                let k = start as usize + 3 * t;
                let (a, b, cc) = (self.idx[k], self.idx[k + 1], self.idx[k + 2]);
                self.tri_desc(
                    (bbase + a as u32) as usize,
                    (bbase + b as u32) as usize,
                    (bbase + cc as u32) as usize,
                );
            }
            self.batches.push(BatchRec {
                material: mat,
                count: count as u16,
                start,
                base: bbase,
                opaque: [0, 0, 0, 0],
            });
            out.push(SynthBatch {
                material: mat,
                triangles: count / 3,
                vertices: ((face - first_face) * 4) as u32,
            });
        }
        let tri_count = self.tris.len() as u16 - tri_start;
        self.slots.push(SlotRec {
            tri_start,
            tri_count,
            batch_start,
            batch_count: materials.len() as u16,
            min: [c[0] - h[0], c[1] - h[1], c[2] - h[2]],
            max: [c[0] + h[0], c[1] + h[1], c[2] + h[2]],
            tail: [0; 5],
        });
        ((self.slots.len() - 1) as u16, out)
    }

    fn node(&mut self, name: &str, parent: Option<usize>) -> usize {
        self.nodes.push(NodeRec {
            flags: 0,
            parent: parent.map_or(0xFFFF, |p| p as u16),
            map: 0xFFFF,
            fallback: 0,
            slots: [0xFFFF; 15],
            name: name.to_string(),
        });
        self.info.push(SynthNode {
            name: name.to_string(),
            parent,
            slots: vec![],
            animated: false,
        });
        self.nodes.len() - 1
    }

    fn set_slot(&mut self, node: usize, lod: usize, group: usize, slot: u16, b: Vec<SynthBatch>) {
        self.nodes[node].slots[lod * 5 + group] = slot;
        self.info[node].slots.push(((lod, group), b));
    }

    /// Adds a node's keys (times must be integers, increasing, first 0);
    /// sets its fallback key (the last one).
    fn keys(&mut self, node: usize, keys: &[KeyRec]) {
        self.keys.extend_from_slice(keys);
        self.nodes[node].fallback = (self.keys.len() - 1) as u16;
        self.key_times.push(keys.iter().map(|k| k.time).collect());
    }

    /// Lays out Res19 per §5.9 for the animated nodes (more than one key).
    fn maps(&mut self) {
        let mut start = 0usize;
        let mut last_max = 0.0f32;
        let mut first = 0usize;
        let tracks: Vec<(usize, usize)> = (0..self.nodes.len())
            .map(|n| {
                let fb = self.nodes[n].fallback as usize;
                let r = (first, fb);
                first = fb + 1;
                r
            })
            .collect();
        for &(_, b) in &tracks {
            last_max = last_max.max(self.keys[b].time);
        }
        self.frame_count = last_max as u32 + 1;
        let fc = self.frame_count as usize;
        for (n, &(a, b)) in tracks.iter().enumerate() {
            if b == a {
                continue; // static node
            }
            self.nodes[n].map = start as u16;
            self.info[n].animated = true;
            for f in 0..fc {
                let ff = f as f32;
                let v = if self.keys[b].time <= ff {
                    b
                } else {
                    (a..=b)
                        .rev()
                        .find(|&j| self.keys[j].time <= ff)
                        .unwrap_or(a)
                };
                self.map.push(v as u16);
            }
            start += fc;
        }
    }

    /// The tables as (type, attr1, attr2, attr3, payload).
    fn tables(&self, res1_stride24: bool) -> Vec<Table> {
        let mut t = Vec::new();
        let n = self.nodes.len() as u32;
        // Res1
        let mut r1 = Vec::new();
        for nd in &self.nodes {
            let mut rec = Vec::with_capacity(38);
            p16(&mut rec, nd.flags);
            p16(&mut rec, nd.parent);
            p16(&mut rec, nd.map);
            p16(&mut rec, nd.fallback);
            for s in nd.slots {
                p16(&mut rec, s);
            }
            if res1_stride24 {
                rec.truncate(24); // unknown legacy layout: any 24 bytes
            }
            r1.extend_from_slice(&rec);
        }
        t.push(Table::new(
            1,
            [n, 0, if res1_stride24 { 24 } else { 38 }],
            r1,
        ));
        // Res2
        let mut r2 = Vec::new();
        let (mut lo, mut hi) = ([f32::MAX; 3], [f32::MIN; 3]);
        for p in &self.pos {
            for k in 0..3 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
        if self.pos.is_empty() {
            (lo, hi) = ([0.0; 3], [0.0; 3]);
        }
        for c in 0..8 {
            for k in 0..3 {
                pf(&mut r2, if c >> k & 1 == 1 { hi[k] } else { lo[k] });
            }
        }
        let ctr = [
            (lo[0] + hi[0]) / 2.0,
            (lo[1] + hi[1]) / 2.0,
            (lo[2] + hi[2]) / 2.0,
        ];
        let rad = self
            .pos
            .iter()
            .map(|p| {
                ((p[0] - ctr[0]).powi(2) + (p[1] - ctr[1]).powi(2) + (p[2] - ctr[2]).powi(2)).sqrt()
            })
            .fold(0.0f32, f32::max);
        for v in [
            ctr[0], ctr[1], ctr[2], rad, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2], 0.0,
        ] {
            pf(&mut r2, v);
        }
        for s in &self.slots {
            p16(&mut r2, s.tri_start);
            p16(&mut r2, s.tri_count);
            p16(&mut r2, s.batch_start);
            p16(&mut r2, s.batch_count);
            for v in s.min.iter().chain(&s.max) {
                pf(&mut r2, *v);
            }
            let c = [
                (s.min[0] + s.max[0]) / 2.0,
                (s.min[1] + s.max[1]) / 2.0,
                (s.min[2] + s.max[2]) / 2.0,
            ];
            let r =
                ((s.max[0] - c[0]).powi(2) + (s.max[1] - c[1]).powi(2) + (s.max[2] - c[2]).powi(2))
                    .sqrt();
            for v in [c[0], c[1], c[2], r] {
                pf(&mut r2, v);
            }
            for v in s.tail {
                p32(&mut r2, v);
            }
        }
        t.push(Table::new(2, [self.slots.len() as u32, 0, 68], r2));
        // Res3/4/5
        let nv = self.pos.len() as u32;
        let mut r3 = Vec::with_capacity(self.pos.len() * 12);
        for p in &self.pos {
            for v in p {
                pf(&mut r3, *v);
            }
        }
        t.push(Table::new(3, [nv, 0, 12], r3));
        let mut r4 = Vec::with_capacity(self.nrm.len() * 4);
        for nn in &self.nrm {
            for v in nn {
                r4.push(quant(*v, 127.0, -128.0, 127.0) as i8 as u8);
            }
            r4.push(0);
        }
        t.push(Table::new(4, [nv, 0, 4], r4));
        let mut r5 = Vec::with_capacity(self.uv.len() * 4);
        for u in &self.uv {
            for v in u {
                pi16(&mut r5, quant(*v, 1024.0, -32768.0, 32767.0) as i16);
            }
        }
        t.push(Table::new(5, [nv, 0, 4], r5));
        // Res13, Res6, Res7
        let mut r13 = Vec::with_capacity(self.batches.len() * 20);
        for b in &self.batches {
            p16(&mut r13, b.opaque[0]);
            p16(&mut r13, b.material);
            p16(&mut r13, b.opaque[1]);
            p16(&mut r13, b.opaque[2]);
            p16(&mut r13, b.count);
            p32(&mut r13, b.start);
            p16(&mut r13, b.opaque[3]);
            p32(&mut r13, b.base);
        }
        t.push(Table::new(13, [self.batches.len() as u32, 0, 20], r13));
        let mut r6 = Vec::with_capacity(self.idx.len() * 2);
        for i in &self.idx {
            p16(&mut r6, *i);
        }
        t.push(Table::new(6, [self.idx.len() as u32, 0, 2], r6));
        let r7: Vec<u8> = self.tris.iter().flatten().copied().collect();
        t.push(Table::new(7, [self.tris.len() as u32, 0, 16], r7));
        // Res8, Res19
        let mut r8 = Vec::with_capacity(self.keys.len() * 24);
        for k in &self.keys {
            for v in k.pos {
                pf(&mut r8, v);
            }
            pf(&mut r8, k.time);
            for v in k.q {
                pi16(&mut r8, quant(v, 32767.0, -32767.0, 32767.0) as i16);
            }
        }
        t.push(Table::new(8, [self.keys.len() as u32, 0, 4], r8));
        let mut r19 = Vec::with_capacity(self.map.len() * 2);
        for w in &self.map {
            p16(&mut r19, *w);
        }
        t.push(Table::new(
            19,
            [self.map.len() as u32, self.frame_count, 2],
            r19,
        ));
        // Res10
        let mut r10 = Vec::new();
        for nd in &self.nodes {
            if nd.name.is_empty() {
                p32(&mut r10, 0);
            } else {
                p32(&mut r10, nd.name.len() as u32);
                r10.extend_from_slice(nd.name.as_bytes());
                r10.push(0);
            }
        }
        t.push(Table::new(10, [n, 0, 0], r10));
        t
    }

    fn finish(self, layout: &Layout) -> Synth {
        let tables = self.tables(false);
        let bytes = encode_nres(&tables, layout);
        Synth {
            bytes,
            entry: None,
            nodes: self.info,
            frame_count: self.frame_count,
            key_times: self.key_times,
        }
    }
}

// ---------------------------------------------------------------- independent NRes encoder

#[derive(Clone)]
struct Table {
    type_id: u32,
    attrs: [u32; 3],
    name_raw: [u8; 36],
    payload: Vec<u8>,
}

impl Table {
    fn new(type_id: u32, attrs: [u32; 3], payload: Vec<u8>) -> Table {
        let mut t = Table {
            type_id,
            attrs,
            name_raw: [0; 36],
            payload,
        };
        t.set_name(&format!("model_{type_id}"));
        t
    }
    fn set_name(&mut self, name: &str) {
        self.name_raw = [0; 36];
        self.name_raw[..name.len()].copy_from_slice(name.as_bytes());
    }
}

/// How the generator lays out an archive.
struct Layout {
    /// Bytes written before payload `i` (default: zero padding to 8).
    pre: Vec<Option<Vec<u8>>>,
    /// Bytes between the last payload and the directory (default: zero padding).
    tail: Option<Vec<u8>>,
    /// Reverse the order of equal names in `sort_index` (valid, non-canonical).
    reverse_ties: bool,
}

impl Layout {
    fn canonical() -> Layout {
        Layout {
            pre: vec![],
            tail: None,
            reverse_ties: false,
        }
    }
}

fn lower(b: u8) -> u8 {
    if b.is_ascii_uppercase() { b + 32 } else { b }
}

fn name_less(a: &[u8; 36], b: &[u8; 36]) -> std::cmp::Ordering {
    let cut = |r: &[u8; 36]| r.iter().position(|&x| x == 0).unwrap_or(36);
    let (x, y) = (&a[..cut(a)], &b[..cut(b)]);
    let n = x.len().min(y.len());
    for i in 0..n {
        let (p, q) = (lower(x[i]), lower(y[i]));
        if p != q {
            return p.cmp(&q);
        }
    }
    x.len().cmp(&y.len())
}

fn encode_nres(tables: &[Table], layout: &Layout) -> Vec<u8> {
    let mut out = vec![0u8; 16];
    let mut offsets = Vec::new();
    for (i, t) in tables.iter().enumerate() {
        match layout.pre.get(i).cloned().flatten() {
            Some(pre) => out.extend_from_slice(&pre),
            None => {
                while !out.len().is_multiple_of(8) {
                    out.push(0);
                }
            }
        }
        offsets.push(out.len() as u32);
        out.extend_from_slice(&t.payload);
    }
    match &layout.tail {
        Some(tail) => out.extend_from_slice(tail),
        None => {
            while !out.len().is_multiple_of(8) {
                out.push(0);
            }
        }
    }
    // sort_index: insertion sort by name, ties by index
    let mut p: Vec<usize> = Vec::new();
    for i in 0..tables.len() {
        let mut at = p.len();
        while at > 0 && name_less(&tables[p[at - 1]].name_raw, &tables[i].name_raw).is_gt() {
            at -= 1;
        }
        p.insert(at, i);
    }
    if layout.reverse_ties {
        let mut s = 0;
        while s < p.len() {
            let mut e = s + 1;
            while e < p.len() && name_less(&tables[p[s]].name_raw, &tables[p[e]].name_raw).is_eq() {
                e += 1;
            }
            p[s..e].reverse();
            s = e;
        }
    }
    for (i, t) in tables.iter().enumerate() {
        p32(&mut out, t.type_id);
        p32(&mut out, t.attrs[0]);
        p32(&mut out, t.attrs[1]);
        p32(&mut out, t.payload.len() as u32);
        p32(&mut out, t.attrs[2]);
        out.extend_from_slice(&t.name_raw);
        p32(&mut out, offsets[i]);
        p32(&mut out, p[i] as u32);
    }
    let total = out.len() as u32;
    out[0..4].copy_from_slice(b"NRes");
    out[4..8].copy_from_slice(&[0, 1, 0, 0]);
    out[8..12].copy_from_slice(&(tables.len() as u32).to_le_bytes());
    out[12..16].copy_from_slice(&total.to_le_bytes());
    out
}

// ---------------------------------------------------------------- profiles

fn identity_key(pos: [f32; 3]) -> KeyRec {
    KeyRec {
        pos,
        time: 0.0,
        q: [0.0, 0.0, 0.0, 1.0],
    }
}

fn axis_angle(axis: [f32; 3], deg: f32) -> [f32; 4] {
    let h = deg.to_radians() / 2.0;
    let s = h.sin();
    [axis[0] * s, axis[1] * s, axis[2] * s, h.cos()]
}

fn triangle(rng: &mut Rng) -> Synth {
    let mut b = Build::default();
    let n = b.node("triangle", None);
    let d = rng.f(-0.1, 0.1);
    b.pos = vec![[0.0, 0.0, 0.0], [1.0 + d, 0.0, 0.0], [0.0, 1.0, d]];
    b.nrm = vec![[0.0, 0.0, 1.0]; 3];
    b.uv = vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]];
    b.idx = vec![0, 1, 2];
    b.tri_desc(0, 1, 2);
    b.batches.push(BatchRec {
        material: 0,
        count: 3,
        start: 0,
        base: 0,
        opaque: [0; 4],
    });
    b.slots.push(SlotRec {
        tri_start: 0,
        tri_count: 1,
        batch_start: 0,
        batch_count: 1,
        min: [0.0, 0.0, d.min(0.0)],
        max: [1.0 + d.max(0.0), 1.0, d.max(0.0)],
        tail: [0; 5],
    });
    b.set_slot(
        n,
        0,
        0,
        0,
        vec![SynthBatch {
            material: 0,
            triangles: 1,
            vertices: 3,
        }],
    );
    b.keys(n, &[identity_key([0.0; 3])]);
    b.frame_count = 1; // static model: empty Res19, frame_count 1
    b.finish(&Layout::canonical())
}

fn cube_lods(rng: &mut Rng) -> Synth {
    let mut b = Build::default();
    let n = b.node("cube", None);
    for lod in 0..3 {
        for group in 0..2 {
            let s = 1.0 - 0.2 * lod as f32 + rng.f(-0.05, 0.05);
            let (c, h, mats): ([f32; 3], [f32; 3], Vec<u16>) = if group == 0 {
                ([0.0, s, 0.0], [s, s, s], (0..(3 - lod as u16)).collect())
            } else {
                ([0.0, 0.05, 0.0], [1.5 * s, 0.05, 1.5 * s], vec![3])
            };
            let (slot, info) = b.add_box(c, h, &mats);
            b.set_slot(n, lod, group, slot, info);
        }
    }
    b.keys(n, &[identity_key([0.0; 3])]);
    b.frame_count = 1;
    b.finish(&Layout::canonical())
}

fn hierarchy(rng: &mut Rng) -> Build {
    let mut b = Build::default();
    type NodeSpec = (&'static str, Option<usize>, [f32; 3], [f32; 3]);
    let spec: [NodeSpec; 5] = [
        ("root", None, [0.0, 0.0, 0.0], [0.6, 0.3, 0.4]),
        ("spine", Some(0), [0.0, 0.5, 0.0], [0.3, 0.5, 0.25]),
        ("neck", Some(1), [0.0, 1.0, 0.0], [0.12, 0.2, 0.12]),
        ("head", Some(2), [0.0, 0.4, 0.0], [0.3, 0.3, 0.3]),
        ("arm", Some(0), [0.7, 0.2, 0.0], [0.5, 0.1, 0.1]),
    ];
    for (i, (name, parent, off, half)) in spec.iter().enumerate() {
        let n = b.node(name, *parent);
        let (slot, info) = b.add_box([0.0, half[1], 0.0], *half, &[i as u16]);
        b.set_slot(n, 0, 0, slot, info);
        let amp = rng.f(20.0, 40.0);
        let keys: Vec<KeyRec> = match i {
            0 => vec![identity_key(*off)],
            1 => [0.0f32, 4.0, 8.0]
                .iter()
                .enumerate()
                .map(|(k, &t)| KeyRec {
                    pos: *off,
                    time: t,
                    q: axis_angle([0.0, 1.0, 0.0], [0.0, amp, 0.0][k]),
                })
                .collect(),
            2 => [0.0f32, 3.0, 6.0, 12.0]
                .iter()
                .enumerate()
                .map(|(k, &t)| KeyRec {
                    pos: *off,
                    time: t,
                    q: axis_angle([0.0, 0.0, 1.0], [0.0, amp, -amp, 0.0][k]),
                })
                .collect(),
            3 => [0.0f32, 5.0]
                .iter()
                .enumerate()
                .map(|(k, &t)| KeyRec {
                    pos: [off[0], off[1] + 0.1 * k as f32, off[2]],
                    time: t,
                    q: axis_angle([1.0, 0.0, 0.0], [0.0, amp][k]),
                })
                .collect(),
            _ => (0..7)
                .map(|k| KeyRec {
                    pos: *off,
                    time: k as f32,
                    q: axis_angle([0.0, 0.0, 1.0], amp * ((k as f32) * 0.9).sin()),
                })
                .collect(),
        };
        b.keys(n, &keys);
    }
    b.maps();
    b
}

fn nested(rng: &mut Rng) -> Synth {
    let inner = hierarchy(rng).finish(&Layout::canonical());
    let mut readme = Table::new(
        0x5458_4554,
        [0, 0, 0],
        b"synthetic nested model for re2d tests\n".to_vec(),
    );
    readme.set_name("README.TXT");
    let mut unit = Table::new(0x4853_4D00, [1, 0, 0], inner.bytes);
    unit.set_name("UNIT.MSH");
    let n = 32 + rng.below(32) as usize;
    let mut icon = Table::new(0x4E4F_4349, [0, 0, 0], rng.nonzero_bytes(n));
    icon.set_name("ICON.BIN");
    Synth {
        bytes: encode_nres(&[readme, unit, icon], &Layout::canonical()),
        entry: Some("UNIT.MSH"),
        nodes: inner.nodes,
        frame_count: inner.frame_count,
        key_times: inner.key_times,
    }
}

fn quirks(rng: &mut Rng, stride24: bool) -> Synth {
    let mut b = hierarchy(rng);
    // optional streams: Res15 (8 opaque bytes), Res18 (4 bytes, BGRA-like)
    let nv = b.pos.len();
    let mut tables = b.tables(stride24);
    let names = [
        "Quirk_Nodes",
        "quirk_SLOTS",
        "Quirk_Positions",
        "quirk_normals",
        "QUIRK_UV",
        "Quirk_Batches",
        "quirk_indices",
        "Quirk_Tris",
        "quirk_keys",
        "Quirk_Map",
        "quirk_names",
    ];
    for (t, n) in tables.iter_mut().zip(names) {
        t.set_name(n);
    }
    let r15: Vec<u8> = (0..nv * 8).map(|_| rng.next() as u8).collect();
    let r18: Vec<u8> = (0..nv * 4).map(|_| rng.next() as u8).collect();
    let mut t15 = Table::new(15, [nv as u32, 0, 8], r15);
    t15.set_name("Quirk_Extra15");
    let mut t18 = Table::new(18, [nv as u32, 0, 4], r18);
    t18.set_name("quirk_colour");
    let mut t9 = Table::new(9, [3, 1, 0], rng.nonzero_bytes(13));
    t9.set_name("SERVICE");
    let mut t17 = Table::new(17, [0, 0, 0], vec![]);
    t17.set_name("service"); // same name as type 9 up to case; 0-byte payload
    let mut t99 = Table::new(99, [0xDEAD, 0xBEEF, 7], rng.nonzero_bytes(21));
    t99.set_name("ABCDEFGHIJKLMNOPQRSTUVWXYZ012345678"); // 35 bytes
    let mut t20 = Table::new(20, [7, 0, 0], rng.nonzero_bytes(10));
    t20.set_name("Quirk_Aux20");
    // garbage after the NUL of a few names
    for k in [1, 4, 10] {
        let t = &mut tables[k];
        let len = t.name_raw.iter().position(|&x| x == 0).unwrap_or(35);
        let g = rng.nonzero_bytes(35 - len);
        t.name_raw[len + 1..].copy_from_slice(&g);
    }
    // observed-like order: 1,2,3,4,5,18,15,13,6,7,8,19,9,10,17,20 (+99)
    let by = |ty: u32, ts: &[Table]| ts.iter().position(|t| t.type_id == ty).unwrap_or(0);
    let order = [1u32, 2, 3, 4, 5, 13, 6, 7, 8, 19, 10];
    let mut all: Vec<Table> = Vec::new();
    for ty in order {
        all.push(tables[by(ty, &tables)].clone());
        match ty {
            5 => {
                all.push(t18.clone());
                all.push(t15.clone());
            }
            19 => all.push(t9.clone()),
            10 => {
                all.push(t17.clone());
                all.push(t20.clone());
                all.push(t99.clone());
            }
            _ => {}
        }
    }
    let mut pre: Vec<Option<Vec<u8>>> = vec![None; all.len()];
    let pos_of = |ty: u32| all.iter().position(|t| t.type_id == ty).unwrap_or(0);
    // an unindexed region between Res3 and Res4
    pre[pos_of(4)] = Some(vec![0xEE; 24 + rng.below(8) as usize]);
    // unaligned payloads: no padding before Res6 and Res9
    pre[pos_of(6)] = Some(vec![]);
    pre[pos_of(9)] = Some(vec![0xAB; 3]);
    // non-zero padding before Res7 (length keeps it 8-aligned only by chance)
    pre[pos_of(7)] = Some(vec![0x55; 5]);
    let layout = Layout {
        pre,
        tail: Some({
            let n = 5 + rng.below(11) as usize;
            rng.nonzero_bytes(n)
        }),
        reverse_ties: true,
    };
    let bytes = encode_nres(&all, &layout);
    Synth {
        bytes,
        entry: None,
        nodes: if stride24 {
            vec![]
        } else {
            std::mem::take(&mut b.info)
        },
        frame_count: b.frame_count,
        key_times: std::mem::take(&mut b.key_times),
    }
}

/// The benchmark model: about `target` bytes (≈ 1 M triangles for 64 MiB).
/// Every node holds one slot of 2 batches; a batch is 1 024 ribbons of 4
/// quads (10 vertices, 8 triangles each); vertices have positions, normals,
/// UVs and the optional Res15 (8 bytes) and Res18 (4 bytes) streams; Res7 has
/// one descriptor per triangle (slot triangle ranges are `u16`, so they wrap
/// inside the first 65 536 descriptors).
pub fn big(target: usize, seed: u64) -> Synth {
    let mut rng = Rng(seed);
    // per triangle: 6 (Res6) + 16 (Res7) + 1.25 × 32 (Res3/4/5/15/18) = 62 bytes
    let tris_wanted = (target as f64 / 62.0) as usize;
    let per_batch = 8192usize; // triangles
    let batches = tris_wanted.div_ceil(per_batch).max(2) & !1;
    let nodes = batches / 2;
    let ribbons = per_batch / 8;
    let nv = batches * ribbons * 10;
    let nt = batches * per_batch;
    let mut r3 = Vec::with_capacity(nv * 12);
    let mut r4 = Vec::with_capacity(nv * 4);
    let mut r5 = Vec::with_capacity(nv * 4);
    let mut r15 = Vec::with_capacity(nv * 8);
    let mut r18 = Vec::with_capacity(nv * 4);
    let mut r6 = Vec::with_capacity(nt * 6);
    let mut r7 = Vec::with_capacity(nt * 16);
    let mut r13 = Vec::with_capacity(batches * 20);
    let mut info = Vec::with_capacity(nodes);
    for b in 0..batches {
        let node = b / 2;
        let ox = (node % 8) as f32 * 10.0;
        let oz = (node / 8) as f32 * 10.0;
        let base = (b * ribbons * 10) as u32;
        let istart = (b * per_batch * 3) as u32;
        for r in 0..ribbons {
            let y = (b % 2) as f32 * 2.0 + rng.f(0.0, 0.01);
            let x0 = ox + (r % 32) as f32 * 0.3;
            let z0 = oz + (r / 32) as f32 * 0.3;
            for k in 0..5 {
                for s in 0..2 {
                    let (x, z) = (x0 + s as f32 * 0.2, z0 + k as f32 * 0.05);
                    for v in [x, y, z] {
                        pf(&mut r3, v);
                    }
                    r4.extend_from_slice(&[0, 127, 0, 0]);
                    pi16(&mut r5, (s * 1024) as i16);
                    pi16(&mut r5, (k * 256) as i16);
                    r15.extend_from_slice(&[k as u8, s as u8, 0, 0, 0, 0, 0, 1]);
                    r18.extend_from_slice(&[0x80, 0x90, 0xA0 + (r % 64) as u8, 0xFF]);
                }
            }
            let v0 = (r * 10) as u16;
            for q in 0..4u16 {
                let a = v0 + 2 * q;
                for i in [a, a + 1, a + 3, a, a + 3, a + 2] {
                    p16(&mut r6, i);
                }
                for _ in 0..2 {
                    p16(&mut r7, 0);
                    for _ in 0..3 {
                        p16(&mut r7, 0xFFFF);
                    }
                    for v in [0i16, 32767, 0] {
                        pi16(&mut r7, v);
                    }
                    p16(&mut r7, 0x3F);
                }
            }
        }
        p16(&mut r13, 0);
        p16(&mut r13, (b % 4) as u16);
        p16(&mut r13, 0);
        p16(&mut r13, 0);
        p16(&mut r13, (per_batch * 3) as u16);
        p32(&mut r13, istart);
        p16(&mut r13, 0);
        p32(&mut r13, base);
        if b % 2 == 0 {
            info.push(SynthNode {
                name: format!("part_{node}"),
                parent: None,
                slots: vec![],
                animated: false,
            });
        }
        info[node].slots.push((
            (0, 0),
            vec![SynthBatch {
                material: (b % 4) as u16,
                triangles: per_batch as u32,
                vertices: (ribbons * 10) as u32,
            }],
        ));
    }
    let mut r1 = Vec::with_capacity(nodes * 38);
    let mut r2 = vec![0u8; 0];
    for _ in 0..35 {
        pf(&mut r2, 0.0);
    }
    let mut r10 = Vec::new();
    let mut r8 = Vec::new();
    for n in 0..nodes {
        p16(&mut r1, 0);
        p16(&mut r1, 0xFFFF);
        p16(&mut r1, 0xFFFF);
        p16(&mut r1, n as u16);
        p16(&mut r1, n as u16);
        for _ in 1..15 {
            p16(&mut r1, 0xFFFF);
        }
        let ts = ((2 * n * per_batch) % 49_152) as u16;
        p16(&mut r2, ts);
        p16(&mut r2, (2 * per_batch) as u16);
        p16(&mut r2, (2 * n) as u16);
        p16(&mut r2, 2);
        for v in [0.0f32, 0.0, 0.0, 100.0, 4.0, 100.0, 50.0, 2.0, 50.0, 71.0] {
            pf(&mut r2, v);
        }
        for _ in 0..5 {
            p32(&mut r2, 0);
        }
        let name = format!("part_{n}");
        p32(&mut r10, name.len() as u32);
        r10.extend_from_slice(name.as_bytes());
        r10.push(0);
        for v in [0.0f32, 0.0, 0.0, 0.0] {
            pf(&mut r8, v);
        }
        for v in [0i16, 0, 0, 32767] {
            pi16(&mut r8, v);
        }
    }
    let tables = vec![
        Table::new(1, [nodes as u32, 0, 38], r1),
        Table::new(2, [nodes as u32, 0, 68], r2),
        Table::new(3, [nv as u32, 0, 12], r3),
        Table::new(4, [nv as u32, 0, 4], r4),
        Table::new(5, [nv as u32, 0, 4], r5),
        Table::new(18, [nv as u32, 0, 4], r18),
        Table::new(15, [nv as u32, 0, 8], r15),
        Table::new(13, [batches as u32, 0, 20], r13),
        Table::new(6, [(nt * 3) as u32, 0, 2], r6),
        Table::new(7, [nt as u32, 0, 16], r7),
        Table::new(8, [nodes as u32, 0, 4], r8),
        Table::new(19, [0, 1, 2], vec![]),
        Table::new(10, [nodes as u32, 0, 0], r10),
    ];
    Synth {
        bytes: encode_nres(&tables, &Layout::canonical()),
        entry: None,
        nodes: info,
        frame_count: 1,
        key_times: vec![],
    }
}
