// re2d MSH — the editing API: replace vertex streams, rename nodes, add/remove entries, keeping every validator invariant (spec: msh.md §1.7, §6).
//! An [`Editor`] owns the model's archive and applies edits with the NRes
//! lossless policy (§1.7): a same-length table is rewritten in place, any
//! other goes to the end of the data region and its old bytes stay as an
//! unindexed region. Only tables whose payload changed get their attrs
//! recomputed, per §3.5 (Res1.attr2, Res19.attr2 and Res20's attrs are kept).
//!
//! Every edit is checked by re-running the validator on the result: an edit
//! that would introduce a strict violation the model did not already have is
//! refused (the model is left as it was) with that violation as the error.
//! Argument errors use the code `E_EDIT`.

use std::collections::HashSet;

use crate::nres::{Archive, Findings, Issue};

use super::check::analyze;
use super::model::{Model, NodeLayout};
use super::names;
use super::tables::{
    HEADER_SIZE, RES_NAMES, RES_NORMALS, RES_POSITIONS, RES_SLOTS, RES_UV0, SLOT_STRIDE,
    encode_normal_component, encode_uv_component, expected_attr3, record, stride,
};

fn edit_err(msg: impl Into<String>) -> Issue {
    Issue::new("E_EDIT", None, None, msg)
}

/// An editable model.
#[derive(Clone, Debug)]
pub struct Editor {
    model: Model<'static>,
}

type Key = (&'static str, Option<u32>, Option<u64>);

fn strict_errors(a: &Archive<'_>) -> (Option<Model<'static>>, Vec<Issue>) {
    let mut f = Findings::new(u32::MAX);
    let m = analyze(a.clone().into_owned(), &mut f);
    let errs = f
        .finish()
        .into_iter()
        .filter(|x| x.strict_error)
        .map(|x| x.issue)
        .collect();
    (m, errs)
}

impl Editor {
    /// Starts editing a model (the archive is copied once).
    pub fn new(model: &Model<'_>) -> Editor {
        Editor {
            model: model.clone().into_owned(),
        }
    }

    /// The model as edited so far.
    pub fn model(&self) -> &Model<'static> {
        &self.model
    }

    /// Lossless encoding of the edited model.
    pub fn encode(&self) -> Result<Vec<u8>, Issue> {
        self.model.archive.encode_lossless()
    }

    /// Applies `f` to a copy of the archive; keeps it when no new strict
    /// violation appears.
    fn apply(
        &mut self,
        f: impl FnOnce(&mut Archive<'static>) -> Result<(), Issue>,
    ) -> Result<(), Issue> {
        let before: HashSet<Key> = strict_errors(&self.model.archive)
            .1
            .iter()
            .map(|i| (i.code, i.table, i.index))
            .collect();
        let mut a = self.model.archive.clone();
        f(&mut a)?;
        let (m, after) = strict_errors(&a);
        if let Some(new) = after
            .into_iter()
            .find(|i| !before.contains(&(i.code, i.table, i.index)))
        {
            return Err(new);
        }
        match m {
            Some(m) => {
                self.model = m;
                Ok(())
            }
            None => Err(edit_err("the edited archive is no longer a model")),
        }
    }

    /// Replaces table `t`'s payload and recomputes its attrs (§3.5).
    fn set_table(a: &mut Archive<'static>, entry: usize, t: u32, data: &[u8]) -> Result<(), Issue> {
        let same = a.payload(entry) == Some(data);
        a.replace_payload(entry, data)?;
        if same {
            return Ok(());
        }
        let e = a.entries()[entry].clone();
        let count = match t {
            RES_SLOTS => (data.len().saturating_sub(HEADER_SIZE) / SLOT_STRIDE) as u32,
            RES_NAMES => e.attr1,
            _ => (data.len() / stride(t).unwrap_or(1)) as u32,
        };
        let attr2 = if t == 19 { e.attr2 } else { 0 };
        let attr3 = expected_attr3(t)
            .or(stride(t).map(|s| s as u32))
            .unwrap_or(e.attr3);
        a.set_attrs(entry, count, attr2, attr3)
    }

    fn table_entry(&self, t: u32) -> Result<usize, Issue> {
        self.model
            .table_entry(t)
            .ok_or_else(|| edit_err(format!("the model has no usable Res{t}")))
    }

    /// Replaces every position (the count must stay the same). With
    /// `update_bounds`, each slot's AABB and sphere are recomputed from the
    /// vertices its batches reference (§6.3).
    pub fn replace_positions(&mut self, p: &[[f32; 3]], update_bounds: bool) -> Result<(), Issue> {
        if p.len() != self.model.vertex_count() {
            return Err(edit_err(format!(
                "{} positions given, the model has {} vertices",
                p.len(),
                self.model.vertex_count()
            )));
        }
        let e3 = self.table_entry(RES_POSITIONS)?;
        let mut data = Vec::with_capacity(p.len() * 12);
        for v in p {
            for c in v {
                data.extend_from_slice(&c.to_le_bytes());
            }
        }
        let slots = if update_bounds {
            Some((self.table_entry(RES_SLOTS)?, self.slot_bounds(p)))
        } else {
            None
        };
        self.apply(|a| {
            Self::set_table(a, e3, RES_POSITIONS, &data)?;
            if let Some((e2, s)) = slots {
                Self::set_table(a, e2, RES_SLOTS, &s)?;
            }
            Ok(())
        })
    }

    /// Res2 with slot bounds recomputed for positions `p`.
    fn slot_bounds(&self, p: &[[f32; 3]]) -> Vec<u8> {
        let m = &self.model;
        let mut r2 = m.table(RES_SLOTS).to_vec();
        for s in 0..m.slot_count() {
            let Some(mut slot) = m.slot(s) else { continue };
            let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
            let mut verts = Vec::new();
            for (_, b) in m.slot_batches(s) {
                let n = m.batch_index_bytes(&b).len() / 2;
                for k in 0..n {
                    if let Some(v) = m.batch_vertex(&b, k).and_then(|v| p.get(v)) {
                        verts.push(*v);
                        for c in 0..3 {
                            lo[c] = lo[c].min(v[c]);
                            hi[c] = hi[c].max(v[c]);
                        }
                    }
                }
            }
            if verts.is_empty() {
                continue;
            }
            let c = [
                (lo[0] + hi[0]) / 2.0,
                (lo[1] + hi[1]) / 2.0,
                (lo[2] + hi[2]) / 2.0,
            ];
            let r = verts
                .iter()
                .map(|v| {
                    ((v[0] - c[0]).powi(2) + (v[1] - c[1]).powi(2) + (v[2] - c[2]).powi(2)).sqrt()
                })
                .fold(0.0f32, f32::max);
            slot.aabb_min = lo;
            slot.aabb_max = hi;
            slot.sphere_center = c;
            slot.sphere_radius = r;
            let o = HEADER_SIZE + s * SLOT_STRIDE;
            r2[o..o + SLOT_STRIDE].copy_from_slice(&slot.to_bytes());
        }
        r2
    }

    /// Replaces every UV0 (encoded `clamp(round(uv·1024))`).
    pub fn replace_uvs(&mut self, uv: &[[f32; 2]]) -> Result<(), Issue> {
        if uv.len() != self.model.vertex_count() {
            return Err(edit_err(format!(
                "{} UVs given, the model has {} vertices",
                uv.len(),
                self.model.vertex_count()
            )));
        }
        let e5 = self.table_entry(RES_UV0)?;
        let mut data = Vec::with_capacity(uv.len() * 4);
        for t in uv {
            for c in t {
                data.extend_from_slice(&encode_uv_component(*c).to_le_bytes());
            }
        }
        self.apply(|a| Self::set_table(a, e5, RES_UV0, &data))
    }

    /// Replaces every normal (encoded `clamp(round(v·127))`); the unknown
    /// fourth byte of each record is kept.
    pub fn replace_normals(&mut self, n: &[[f32; 3]]) -> Result<(), Issue> {
        if n.len() != self.model.vertex_count() {
            return Err(edit_err(format!(
                "{} normals given, the model has {} vertices",
                n.len(),
                self.model.vertex_count()
            )));
        }
        let e4 = self.table_entry(RES_NORMALS)?;
        let old = self.model.table(RES_NORMALS);
        let mut data = Vec::with_capacity(n.len() * 4);
        for (i, v) in n.iter().enumerate() {
            for c in v {
                data.push(encode_normal_component(*c) as u8);
            }
            data.push(record::<4>(old, i).map_or(0, |r| r[3]));
        }
        self.apply(|a| Self::set_table(a, e4, RES_NORMALS, &data))
    }

    /// Renames node `i` in Res10 (raw Windows-1251 bytes, no NUL; empty = no name).
    pub fn rename_node(&mut self, i: usize, name: &[u8]) -> Result<(), Issue> {
        let m = &self.model;
        if m.node_layout() != NodeLayout::Stride38 || i >= m.node_count() {
            return Err(edit_err(format!("no node {i}")));
        }
        if name.contains(&0) {
            return Err(edit_err("a node name cannot contain a NUL byte"));
        }
        let e10 = self.table_entry(RES_NAMES)?;
        let list: Vec<Option<&[u8]>> = (0..m.node_count())
            .map(|k| if k == i { Some(name) } else { m.node_name(k) })
            .collect();
        let data = names::encode(&list);
        self.apply(|a| Self::set_table(a, e10, RES_NAMES, &data))
    }

    /// Adds an archive entry (for example an unknown type or a missing
    /// optional table); returns its directory index.
    pub fn add_entry(
        &mut self,
        type_id: u32,
        attrs: [u32; 3],
        name: &[u8],
        data: &[u8],
    ) -> Result<usize, Issue> {
        let mut idx = 0;
        self.apply(|a| {
            idx = a.add_entry(type_id, attrs, name, data)?;
            Ok(())
        })?;
        Ok(idx)
    }

    /// Removes an archive entry (its bytes stay as an unindexed region).
    pub fn remove_entry(&mut self, i: usize) -> Result<(), Issue> {
        self.apply(|a| a.remove_entry(i).map(|_| ()))
    }

    /// Renames an archive entry.
    pub fn rename_entry(&mut self, i: usize, name: &[u8]) -> Result<(), Issue> {
        self.apply(|a| a.rename_entry(i, name))
    }
}

impl<'a> Model<'a> {
    /// The model with an archive that owns its bytes.
    pub fn into_owned(self) -> Model<'static> {
        Model {
            archive: self.archive.into_owned(),
            entry: self.entry,
            layout: self.layout,
            nodes: self.nodes,
            slots: self.slots,
            vertices: self.vertices,
            indices: self.indices,
            tris: self.tris,
            batches: self.batches,
            keys: self.keys,
            map_words: self.map_words,
            frame_count: self.frame_count,
            res20_attr1: self.res20_attr1,
            normals_ok: self.normals_ok,
            uvs_ok: self.uvs_ok,
            slot_ok: self.slot_ok,
            tri_ok: self.tri_ok,
            batch_ok: self.batch_ok,
            animated: self.animated,
            flattened: self.flattened,
            names: self.names,
        }
    }
}
