// re2d MSH export — options, pose selection, per-node geometry gathering shared by OBJ and glTF (spec: msh.md §7).
//! | file | does |
//! |---|---|
//! | `mod.rs` | [`Options`], the pose (static, `--time T` or none), the geometry walk over the chosen `(lod, group)` |
//! | `obj.rs` | Wavefront OBJ (§7.1): posed per-node objects or `--no-pose` |
//! | `gltf.rs` | glTF 2.0 `.glb` / `.gltf` (§7.2): node hierarchy, meshes, materials, axis conversion, `--anim` |
//!
//! Non-finite coordinates (only possible in damaged models) are written as
//! 0 with a `W_EXPORT_NONFINITE` diagnostic, so every output parses.

mod gltf;
mod obj;

pub use gltf::{gltf, gltf_to};
pub use obj::{obj, obj_to};

use super::anim::Pose;
use super::model::{Model, NodeLayout};
use super::pose::{poses_at, static_poses};
use super::tables::Batch;
use crate::nres::Issue;

/// Coordinate conversion for glTF (§7.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    /// `(x, y, −z)`, rotations `(−gx, −gy, gz, gw)`, winding reversed (default).
    LhToRh,
    /// The engine's values unchanged.
    Raw,
}

/// Which pose the nodes take.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PoseChoice {
    /// `Res8[fallback_key]` (default).
    Static,
    /// Sampled at this time (frame units).
    Time(f32),
}

/// Export options (§7, §8).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// LOD 0..=2.
    pub lod: usize,
    /// Group 0..=4.
    pub group: usize,
    /// Node pose.
    pub pose: PoseChoice,
    /// Axis conversion (glTF only; OBJ keeps the engine's coordinates).
    pub axis: Axis,
    /// OBJ: all Res3 vertices once, unposed. glTF: nodes without TRS.
    pub no_pose: bool,
    /// Every usable batch regardless of slots (diagnostics).
    pub all_batches: bool,
    /// glTF: one animation sampled at every frame.
    pub anim: bool,
    /// Frames per second for `--anim` (input times are `f / fps`).
    pub fps: f32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            lod: 0,
            group: 0,
            pose: PoseChoice::Static,
            axis: Axis::LhToRh,
            no_pose: false,
            all_batches: false,
            anim: false,
            fps: 30.0,
        }
    }
}

/// An exported file and the diagnostics of the export.
#[derive(Clone, Debug, PartialEq)]
pub struct Exported {
    /// The file bytes.
    pub bytes: Vec<u8>,
    /// Degenerate normals, non-unit quaternions, replaced non-finite values, ….
    pub diagnostics: Vec<Issue>,
}

/// What a streamed export wrote: its size and its diagnostics.
#[derive(Clone, Debug, PartialEq)]
pub struct Written {
    /// Bytes written.
    pub bytes: u64,
    /// Degenerate normals, non-unit quaternions, replaced non-finite values, ….
    pub diagnostics: Vec<Issue>,
}

/// The [`Issue`] inside an error of [`gltf_to`] / [`obj_to`] (a refused
/// model or limit), or an `E_IO` issue for a failed write.
pub fn into_issue(e: std::io::Error) -> Issue {
    match e.get_ref().and_then(|x| x.downcast_ref::<Issue>()) {
        Some(i) => i.clone(),
        None => Issue::new("E_IO", None, None, e.to_string()),
    }
}

pub(crate) fn check_exportable(m: &Model<'_>, o: &Options) -> Result<(), Issue> {
    if m.node_layout() != NodeLayout::Stride38 {
        return Err(Issue::new(
            "E_NODE_LAYOUT",
            Some(1),
            None,
            match m.node_layout() {
                NodeLayout::Stride24 => {
                    "the model uses the legacy 24-byte node table, whose layout is unknown: it cannot be exported"
                }
                _ => "the node table is unusable: the model cannot be exported",
            },
        ));
    }
    if o.lod > 2 || o.group > 4 {
        return Err(Issue::new(
            "E_EXPORT_OPTION",
            None,
            None,
            format!(
                "lod {} / group {} out of range (lod 0..2, group 0..4)",
                o.lod, o.group
            ),
        ));
    }
    if !(o.fps.is_finite() && o.fps > 0.0) {
        return Err(Issue::new(
            "E_EXPORT_OPTION",
            None,
            None,
            format!("fps {} must be a positive number", o.fps),
        ));
    }
    if let PoseChoice::Time(t) = o.pose
        && !t.is_finite()
    {
        return Err(Issue::new(
            "E_EXPORT_OPTION",
            None,
            None,
            format!("time {t} must be finite"),
        ));
    }
    Ok(())
}

/// Local poses for the chosen pose option.
pub(crate) fn local_poses(m: &Model<'_>, o: &Options) -> Vec<Pose> {
    match o.pose {
        PoseChoice::Static => static_poses(m),
        PoseChoice::Time(t) => poses_at(m, t),
    }
}

/// What one exported mesh (node or batch dump) draws.
pub(crate) struct Part {
    /// MSH node, or `None` for the `--all-batches` dump.
    pub node: Option<usize>,
    /// Object / mesh name.
    pub name: String,
    /// Usable, non-empty batches in slot order.
    pub batches: Vec<Batch>,
}

/// Parts of the export: one per node with a slot for `(lod, group)`, or one
/// dump of every usable batch.
pub(crate) fn parts(m: &Model<'_>, o: &Options) -> Vec<Part> {
    if o.all_batches {
        let batches = (0..m.batch_count())
            .filter_map(|b| m.batch(b))
            .filter(|b| b.index_count >= 3)
            .collect();
        return vec![Part {
            node: None,
            name: "all_batches".into(),
            batches,
        }];
    }
    (0..m.node_count())
        .filter_map(|n| {
            let s = m.slot_of(n, o.lod, o.group)?;
            let batches: Vec<Batch> = m
                .slot_batches(s)
                .map(|(_, b)| b)
                .filter(|b| b.index_count >= 3)
                .collect();
            Some(Part {
                node: Some(n),
                name: m.display_name(n),
                batches,
            })
        })
        .collect()
}

/// Replaces non-finite components by 0, counting them.
pub(crate) fn finite3(v: [f32; 3], bad: &mut u64) -> [f32; 3] {
    v.map(|x| {
        if x.is_finite() {
            x
        } else {
            *bad += 1;
            0.0
        }
    })
}

/// Normalised normal, or `None` when shorter than 1e-6.
pub(crate) fn unit(n: [f32; 3]) -> Option<[f32; 3]> {
    let l = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    (l >= 1e-6 && l.is_finite()).then(|| [n[0] / l, n[1] / l, n[2] / l])
}

/// A reusable vertex → compact index table (no allocation per primitive).
pub(crate) struct Remap {
    slot: Vec<u32>,
    touched: Vec<u32>,
}

impl Remap {
    pub(crate) fn new(vertices: usize) -> Remap {
        Remap {
            slot: vec![u32::MAX; vertices],
            touched: Vec::new(),
        }
    }

    /// The compact index of `v`, assigning the next one on first sight.
    pub(crate) fn get(&mut self, v: usize) -> (u32, bool) {
        let s = &mut self.slot[v];
        if *s == u32::MAX {
            *s = self.touched.len() as u32;
            self.touched.push(v as u32);
            (*s, true)
        } else {
            (*s, false)
        }
    }

    /// Vertices in compact order.
    pub(crate) fn order(&self) -> &[u32] {
        &self.touched
    }

    /// Forgets every assignment.
    pub(crate) fn clear(&mut self) {
        for &v in &self.touched {
            self.slot[v as usize] = u32::MAX;
        }
        self.touched.clear();
    }
}

pub(crate) fn summary_diag(code: &'static str, n: u64, what: &str) -> Option<Issue> {
    (n > 0).then(|| Issue::new(code, None, None, format!("{n} {what}")))
}
