// re2d MSH export — glTF 2.0 as .glb or .gltf with an embedded base64 buffer (spec: msh.md §7.2).
//! - one glTF node per MSH node (children from the parent indices), named
//!   from Res10 (Windows-1251 → UTF-8) or `node_<i>`; TRS from the local
//!   pose: translation = pos, rotation = the normalised conjugate of `q`
//!   (the quaternion whose textbook matrix is the engine's §5.6 matrix);
//! - a node with a slot for `(lod, group)` gets one mesh, one primitive per
//!   non-empty batch: `POSITION` (with min/max), `NORMAL` (normalised,
//!   degenerate → `(0, 1, 0)` with a diagnostic), `TEXCOORD_0`, indices
//!   remapped to a compact per-primitive vertex list (`u16` below 65 536
//!   vertices, else `u32`), material `mat_<m>` (white, double-sided);
//! - `--axis lh-to-rh`: positions/translations `(x, y, −z)`, normals
//!   `(nx, ny, −nz)`, rotations `(−gx, −gy, gz, gw)`, second and third index
//!   swapped; `--axis raw` writes the engine's values;
//! - `--anim`: one animation, LINEAR translation + rotation channels for
//!   every animated node, sampled (§5) at `t = f` for every frame, input
//!   times `f / fps`;
//! - no skins.
//!
//! The binary chunk is laid out in a first pass (vertex counts and bounds),
//! so the output's exact size is known (and checked against
//! `export-max-bytes`) before the second pass streams it into the writer;
//! `.gltf` streams the buffer's base64 text the same way. Rotation keys of
//! one channel are kept in one hemisphere (consecutive dot ≥ 0), and keys
//! with `|q|` off 1 count in `W_EXPORT_QUAT_SCALE` like node rotations.

use std::io::Write;

use serde_json::{Value, json};

use super::{
    Axis, Exported, Options, Part, Remap, Written, check_exportable, finite3, into_issue,
    local_poses, parts, summary_diag, unit,
};
use crate::anim::sample;
use crate::model::Model;
use crate::nres::Issue;
use crate::pose::gltf_rotation;
use crate::tables::Batch;

const ARRAY_BUFFER: u32 = 34962;
const ELEMENT_ARRAY_BUFFER: u32 = 34963;
const FLOAT: u32 = 5126;
const USHORT: u32 = 5123;
const UINT: u32 = 5125;

fn conv_pos(a: Axis, p: [f32; 3]) -> [f32; 3] {
    match a {
        Axis::LhToRh => [p[0], p[1], -p[2]],
        Axis::Raw => p,
    }
}

fn conv_rot(a: Axis, g: [f32; 4]) -> [f32; 4] {
    match a {
        Axis::LhToRh => [-g[0], -g[1], g[2], g[3]],
        Axis::Raw => g,
    }
}

/// Layout of one primitive in the binary chunk.
struct Prim {
    batch: Batch,
    vertices: usize,
    indices: usize,
    min: [f32; 3],
    max: [f32; 3],
}

fn pad4(n: usize) -> usize {
    (n + 3) & !3
}

/// Accessor + bufferView bookkeeping.
struct Layout {
    views: Vec<Value>,
    accessors: Vec<Value>,
    len: usize,
}

impl Layout {
    fn add(&mut self, bytes: usize, target: Option<u32>, accessor: Value) -> usize {
        let mut v = json!({"buffer": 0, "byteOffset": self.len, "byteLength": bytes});
        if let Some(t) = target {
            v["target"] = json!(t);
        }
        self.views.push(v);
        let mut a = accessor;
        a["bufferView"] = json!(self.views.len() - 1);
        self.accessors.push(a);
        self.len = pad4(self.len + bytes);
        self.accessors.len() - 1
    }
}

fn f32s(out: &mut dyn std::io::Write, v: &[f32]) -> std::io::Result<()> {
    for x in v {
        out.write_all(&x.to_le_bytes())?;
    }
    Ok(())
}

/// Exports glTF: `.glb` when `binary`, else `.gltf` JSON with a base64
/// buffer, into memory (limit `export-max-bytes` of the current limits).
pub fn gltf(m: &Model<'_>, o: &Options, binary: bool) -> Result<Exported, Issue> {
    let mut bytes = Vec::new();
    let max = re2d::limits::Limits::current().export_max_bytes;
    let info = gltf_to(m, o, binary, max, &mut bytes).map_err(into_issue)?;
    Ok(Exported {
        bytes,
        diagnostics: info.diagnostics,
    })
}

fn too_large(what: String, max: u64) -> Issue {
    Issue::new(
        "E_EXPORT_TOO_LARGE",
        None,
        None,
        format!("{what}, more than {max} bytes (limit export-max-bytes, see --limit)"),
    )
}

/// [`gltf`] streamed into `w`: the output size is computed and checked
/// against `max_bytes` (and glTF's 32-bit lengths) before anything is
/// written — a lower bound before the vertex pass, the exact size after it —
/// and the binary buffer is written straight into `w` (never held in
/// memory). A content error is an `io::Error` wrapping the [`Issue`]
/// (see [`into_issue`]).
pub fn gltf_to(
    m: &Model<'_>,
    o: &Options,
    binary: bool,
    max_bytes: u64,
    w: &mut dyn std::io::Write,
) -> std::io::Result<Written> {
    let fail = |i: Issue| std::io::Error::other(i);
    check_exportable(m, o).map_err(fail)?;
    // a lower bound of the buffer before the vertex pass: every index once,
    // and the animation's key frames
    let ps0: Vec<Part> = parts(m, o);
    let fc0 = m.frame_count() as u64;
    let animated0 = if o.anim && !o.all_batches {
        (0..m.node_count()).filter(|&n| m.is_animated(n)).count() as u64
    } else {
        0
    };
    let index_bytes: u64 = ps0
        .iter()
        .flat_map(|p| &p.batches)
        .map(|b| (m.batch_index_bytes(b).len() / 2) as u64 * 2)
        .sum();
    let anim_bytes = if animated0 > 0 {
        fc0 * (4 + 28 * animated0)
    } else {
        0
    };
    let lower = index_bytes + anim_bytes;
    if lower > max_bytes.min(u32::MAX as u64) {
        return Err(fail(too_large(
            format!(
                "the glTF buffer needs at least {lower} bytes ({} index bytes, {fc0} frames x {animated0} animated nodes)",
                index_bytes
            ),
            max_bytes.min(u32::MAX as u64),
        )));
    }
    let axis = o.axis;
    let swap = axis == Axis::LhToRh;
    let normals = m.has_normals();
    let uvs = m.has_uvs();
    let mut nonfinite = 0u64;
    let mut degenerate = 0u64;
    let mut diagnostics = Vec::new();
    let ps = ps0;
    // ---- pass 1: compact vertex counts and bounds
    let mut remap = Remap::new(m.vertex_count());
    let mut prims: Vec<Vec<Prim>> = Vec::with_capacity(ps.len());
    let cap = max_bytes.min(u32::MAX as u64);
    let mut running = anim_bytes;
    for p in &ps {
        let mut v = Vec::new();
        for b in &p.batches {
            remap.clear();
            let n = m.batch_index_bytes(b).len() / 2;
            let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
            for k in 0..n {
                let Some(vx) = m.batch_vertex(b, k) else {
                    continue;
                };
                if remap.get(vx).1 {
                    let mut dummy = 0;
                    let q = conv_pos(
                        axis,
                        finite3(m.position(vx).unwrap_or([0.0; 3]), &mut dummy),
                    );
                    for c in 0..3 {
                        lo[c] = lo[c].min(q[c]);
                        hi[c] = hi[c].max(q[c]);
                    }
                }
            }
            let vertices = remap.order().len();
            // the buffer so far (a lower bound of the final one): refuse as
            // soon as it passes the limit, not after the whole pass
            running += (12 + 12 * normals as u64 + 8 * uvs as u64) * vertices as u64
                + n as u64 * if vertices >= 65_536 { 4 } else { 2 };
            if running > cap {
                return Err(fail(too_large(
                    format!("the glTF buffer reaches {running} bytes"),
                    cap,
                )));
            }
            v.push(Prim {
                batch: *b,
                vertices,
                indices: n,
                min: lo,
                max: hi,
            });
        }
        prims.push(v);
    }
    // ---- JSON
    let mut lay = Layout {
        views: vec![],
        accessors: vec![],
        len: 0,
    };
    let mut materials: Vec<u16> = prims
        .iter()
        .flatten()
        .map(|p| p.batch.material_index)
        .collect();
    materials.sort_unstable();
    materials.dedup();
    let mut meshes = Vec::new();
    let mut part_mesh: Vec<Option<usize>> = Vec::with_capacity(ps.len());
    for (pi, p) in ps.iter().enumerate() {
        if prims[pi].is_empty() {
            part_mesh.push(None);
            continue;
        }
        let mut jp = Vec::new();
        for pr in &prims[pi] {
            let n = pr.vertices;
            let pos = lay.add(
                n * 12,
                Some(ARRAY_BUFFER),
                json!({"componentType": FLOAT, "count": n, "type": "VEC3",
                       "min": pr.min, "max": pr.max}),
            );
            let mut attrs = json!({ "POSITION": pos });
            if normals {
                attrs["NORMAL"] = json!(lay.add(
                    n * 12,
                    Some(ARRAY_BUFFER),
                    json!({"componentType": FLOAT, "count": n, "type": "VEC3"})
                ));
            }
            if uvs {
                attrs["TEXCOORD_0"] = json!(lay.add(
                    n * 8,
                    Some(ARRAY_BUFFER),
                    json!({"componentType": FLOAT, "count": n, "type": "VEC2"})
                ));
            }
            let wide = n >= 65_536;
            let ind = lay.add(
                pr.indices * if wide { 4 } else { 2 },
                Some(ELEMENT_ARRAY_BUFFER),
                json!({"componentType": if wide { UINT } else { USHORT },
                       "count": pr.indices, "type": "SCALAR"}),
            );
            let mat = materials
                .binary_search(&pr.batch.material_index)
                .unwrap_or(0);
            jp.push(json!({"attributes": attrs, "indices": ind, "material": mat, "mode": 4}));
        }
        meshes.push(json!({"name": p.name, "primitives": jp}));
        part_mesh.push(Some(meshes.len() - 1));
    }
    // nodes
    let mut nodes = Vec::new();
    let mut roots = Vec::new();
    let animating = o.anim && !o.all_batches;
    let mut anim_nodes: Vec<usize> = Vec::new();
    if o.all_batches {
        let mut n = json!({"name": "all_batches"});
        if let Some(Some(mi)) = part_mesh.first() {
            n["mesh"] = json!(mi);
        }
        nodes.push(n);
        roots.push(0);
    } else {
        let poses = local_poses(m, o);
        let mut mesh_of = vec![None; m.node_count()];
        for (pi, p) in ps.iter().enumerate() {
            if let Some(n) = p.node {
                mesh_of[n] = part_mesh[pi];
            }
        }
        let mut children: Vec<Vec<usize>> = vec![vec![]; m.node_count()];
        for n in 0..m.node_count() {
            match m.parent(n) {
                Some(p) => children[p].push(n),
                None => roots.push(n),
            }
        }
        let mut nonunit = 0u64;
        for n in 0..m.node_count() {
            let mut j = json!({"name": m.display_name(n)});
            if !o.no_pose {
                let pose = poses[n];
                let t = conv_pos(axis, finite3(pose.pos, &mut nonfinite));
                let (g, off) = gltf_rotation(pose.q);
                if off {
                    nonunit += 1;
                }
                j["translation"] = json!(t);
                j["rotation"] = json!(conv_rot(axis, g));
            }
            if let Some(mi) = mesh_of[n] {
                j["mesh"] = json!(mi);
            }
            if !children[n].is_empty() {
                j["children"] = json!(children[n]);
            }
            nodes.push(j);
            if animating && m.is_animated(n) {
                anim_nodes.push(n);
            }
        }
        diagnostics.extend(summary_diag(
            "W_EXPORT_QUAT_SCALE",
            nonunit,
            "node rotations have |q| off 1 by more than 1e-3: the engine's matrix also scales, glTF TRS cannot express it",
        ));
        if m.is_flattened() {
            diagnostics.push(Issue::new(
                "W_EXPORT_FLATTENED",
                Some(1),
                None,
                "the node hierarchy was flattened (bad parent index): every node is a root",
            ));
        }
    }
    if o.anim && anim_nodes.is_empty() {
        diagnostics.push(Issue::new(
            "W_EXPORT_NO_ANIM",
            None,
            None,
            "--anim: the model has no animated node; no animation written",
        ));
    }
    let fc = m.frame_count() as usize;
    let mut animations = Vec::new();
    if !anim_nodes.is_empty() && fc > 0 {
        // bound the output before laying anything out (frame_count comes from the file)
        let need = (fc as u64) * (4 + 28 * anim_nodes.len() as u64) + lay.len as u64;
        if need > max_bytes.min(u32::MAX as u64) {
            return Err(fail(too_large(
                format!(
                    "{fc} frames × {} animated nodes need {need} bytes",
                    anim_nodes.len()
                ),
                max_bytes.min(u32::MAX as u64),
            )));
        }
        let input = lay.add(
            fc * 4,
            None,
            json!({"componentType": FLOAT, "count": fc, "type": "SCALAR",
                   "min": [0.0f32], "max": [(fc - 1) as f32 / o.fps]}),
        );
        let mut samplers = Vec::new();
        let mut channels = Vec::new();
        for &n in &anim_nodes {
            let tr = lay.add(
                fc * 12,
                None,
                json!({"componentType": FLOAT, "count": fc, "type": "VEC3"}),
            );
            let ro = lay.add(
                fc * 16,
                None,
                json!({"componentType": FLOAT, "count": fc, "type": "VEC4"}),
            );
            for (path, acc) in [("translation", tr), ("rotation", ro)] {
                samplers.push(json!({"input": input, "output": acc, "interpolation": "LINEAR"}));
                channels.push(
                    json!({"sampler": samplers.len() - 1, "target": {"node": n, "path": path}}),
                );
            }
        }
        animations.push(json!({"name": "anim", "samplers": samplers, "channels": channels}));
    }
    let bin_len = lay.len;
    if bin_len as u64 > max_bytes.min(u32::MAX as u64) {
        return Err(fail(too_large(
            format!("the glTF buffer needs {bin_len} bytes"),
            max_bytes.min(u32::MAX as u64),
        )));
    }
    let mut doc = json!({
        "asset": {"version": "2.0", "generator": "re2d msh export"},
        "scene": 0,
        "scenes": [{"name": "msh", "nodes": roots}],
    });
    if !nodes.is_empty() {
        doc["nodes"] = json!(nodes);
    } else {
        doc["scenes"] = json!([{"name": "msh"}]);
    }
    if !meshes.is_empty() {
        doc["meshes"] = json!(meshes);
        doc["materials"] = json!(
            materials
                .iter()
                .map(|k| json!({"name": format!("mat_{k}"), "doubleSided": true,
                    "pbrMetallicRoughness": {"baseColorFactor": [1.0, 1.0, 1.0, 1.0],
                                             "metallicFactor": 0.0}}))
                .collect::<Vec<_>>()
        );
    }
    if !lay.accessors.is_empty() {
        doc["accessors"] = json!(lay.accessors);
        doc["bufferViews"] = json!(lay.views);
    }
    if !animations.is_empty() {
        doc["animations"] = json!(animations);
    }
    // ---- pass 2: binary data, written straight into the output
    let mut anim_nonunit = 0u64;
    let write_bin = |out: &mut Counter<'_>,
                     remap: &mut Remap,
                     nonfinite: &mut u64,
                     degenerate: &mut u64,
                     anim_nonunit: &mut u64|
     -> std::io::Result<()> {
        for pv in &prims {
            for pr in pv {
                let b = &pr.batch;
                remap.clear();
                let n = pr.indices;
                for k in 0..n {
                    if let Some(v) = m.batch_vertex(b, k) {
                        remap.get(v);
                    }
                }
                let order = remap.order().to_vec();
                for &v in &order {
                    let p = finite3(m.position(v as usize).unwrap_or([0.0; 3]), nonfinite);
                    f32s(out, &conv_pos(axis, p))?;
                }
                out.align()?;
                if normals {
                    for &v in &order {
                        let nn = m.normal(v as usize).and_then(unit).unwrap_or_else(|| {
                            *degenerate += 1;
                            [0.0, 1.0, 0.0]
                        });
                        f32s(out, &conv_pos(axis, nn))?;
                    }
                    out.align()?;
                }
                if uvs {
                    for &v in &order {
                        let t = m.uv(v as usize).unwrap_or([0.0; 2]);
                        f32s(out, &t)?;
                    }
                    out.align()?;
                }
                let wide = pr.vertices >= 65_536;
                for t in 0..n / 3 {
                    let mut k =
                        |j: usize| m.batch_vertex(b, 3 * t + j).map_or(0, |v| remap.get(v).0);
                    let (a, mut bb, mut c) = (k(0), k(1), k(2));
                    if swap {
                        std::mem::swap(&mut bb, &mut c);
                    }
                    for i in [a, bb, c] {
                        if wide {
                            out.write_all(&i.to_le_bytes())?;
                        } else {
                            out.write_all(&(i as u16).to_le_bytes())?;
                        }
                    }
                }
                out.align()?;
            }
        }
        if !anim_nodes.is_empty() && fc > 0 {
            for f in 0..fc {
                out.write_all(&(f as f32 / o.fps).to_le_bytes())?;
            }
            for &n in &anim_nodes {
                let pose_at = |f: usize| {
                    sample(m, n, f as f32)
                        .map(|s| s.pose)
                        .unwrap_or(crate::anim::Pose::IDENTITY)
                };
                // translations, then rotations: sampled twice rather than held
                for f in 0..fc {
                    let pose = pose_at(f);
                    f32s(out, &conv_pos(axis, finite3(pose.pos, nonfinite)))?;
                }
                let mut prev: Option<[f32; 4]> = None;
                for f in 0..fc {
                    let (g, off) = gltf_rotation(pose_at(f).q);
                    if off {
                        *anim_nonunit += 1;
                    }
                    let r = same_hemisphere(prev, conv_rot(axis, g));
                    prev = Some(r);
                    f32s(out, &r)?;
                }
            }
        }
        out.align()
    };
    let start_len;
    {
        let mut out = Counter { w, n: 0, start: 0 };
        if binary {
            if bin_len > 0 {
                doc["buffers"] = json!([{"byteLength": bin_len}]);
            }
            let mut js = serde_json::to_vec(&doc)
                .map_err(|e| fail(Issue::new("E_EXPORT_JSON", None, None, e.to_string())))?;
            while js.len() % 4 != 0 {
                js.push(b' ');
            }
            let total = 12 + 8 + js.len() + if bin_len > 0 { 8 + bin_len } else { 0 };
            if total as u64 > max_bytes.min(u32::MAX as u64) {
                return Err(fail(too_large(
                    format!("the .glb needs {total} bytes"),
                    max_bytes.min(u32::MAX as u64),
                )));
            }
            out.write_all(b"glTF")?;
            out.write_all(&2u32.to_le_bytes())?;
            out.write_all(&(total as u32).to_le_bytes())?;
            out.write_all(&(js.len() as u32).to_le_bytes())?;
            out.write_all(b"JSON")?;
            out.write_all(&js)?;
            drop(js);
            if bin_len > 0 {
                out.write_all(&(bin_len as u32).to_le_bytes())?;
                out.write_all(b"BIN\0")?;
                out.start = out.n;
                write_bin(
                    &mut out,
                    &mut remap,
                    &mut nonfinite,
                    &mut degenerate,
                    &mut anim_nonunit,
                )?;
            }
            debug_assert_eq!(out.n, total as u64);
        } else {
            // the buffer's base64 text is streamed where a placeholder sits
            const HOLE: &str = "@@re2d-buffer@@";
            if bin_len > 0 {
                doc["buffers"] = json!([{"byteLength": bin_len,
                    "uri": format!("data:application/octet-stream;base64,{HOLE}")}]);
            }
            let mut js = serde_json::to_vec_pretty(&doc)
                .map_err(|e| fail(Issue::new("E_EXPORT_JSON", None, None, e.to_string())))?;
            js.push(b'\n');
            let total = js.len() as u64 + (bin_len as u64).div_ceil(3) * 4;
            if total > max_bytes {
                return Err(fail(too_large(
                    format!("the .gltf needs {total} bytes"),
                    max_bytes,
                )));
            }
            let cut = if bin_len > 0 {
                js.windows(HOLE.len())
                    .position(|x| x == HOLE.as_bytes())
                    .unwrap_or(js.len())
            } else {
                js.len()
            };
            out.write_all(&js[..cut])?;
            if bin_len > 0 {
                let mut b64 = Base64Writer {
                    w: &mut out,
                    pending: [0; 3],
                    len: 0,
                };
                {
                    let mut inner = Counter {
                        w: &mut b64,
                        n: 0,
                        start: 0,
                    };
                    write_bin(
                        &mut inner,
                        &mut remap,
                        &mut nonfinite,
                        &mut degenerate,
                        &mut anim_nonunit,
                    )?;
                }
                b64.finish()?;
                out.write_all(&js[(cut + HOLE.len()).min(js.len())..])?;
            }
        }
        start_len = out.n;
    }
    diagnostics.extend(summary_diag(
        "W_EXPORT_QUAT_SCALE",
        anim_nonunit,
        "animation rotation keys have |q| off 1 by more than 1e-3: the engine's matrix also scales, glTF cannot express it",
    ));
    diagnostics.extend(summary_diag(
        "W_EXPORT_NORMAL",
        degenerate,
        "degenerate normals (length < 1e-6) written as (0, 1, 0)",
    ));
    diagnostics.extend(summary_diag(
        "W_EXPORT_NONFINITE",
        nonfinite,
        "non-finite coordinates written as 0",
    ));
    Ok(Written {
        bytes: start_len,
        diagnostics,
    })
}

/// Negates `q` when it lies in the other hemisphere than the previous key
/// (dot < 0), so a naive slerp between consecutive keys takes the short way.
pub(crate) fn same_hemisphere(prev: Option<[f32; 4]>, q: [f32; 4]) -> [f32; 4] {
    match prev {
        Some(p) if p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3] < 0.0 => q.map(|v| -v),
        _ => q,
    }
}

/// A writer that counts bytes and pads to 4 from `start`.
struct Counter<'a> {
    w: &'a mut dyn std::io::Write,
    n: u64,
    start: u64,
}

impl Counter<'_> {
    fn align(&mut self) -> std::io::Result<()> {
        let pad = (4 - (self.n - self.start) % 4) % 4;
        self.write_all(&[0u8; 3][..pad as usize])
    }
}

impl std::io::Write for Counter<'_> {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        let k = self.w.write(b)?;
        self.n += k as u64;
        Ok(k)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.w.flush()
    }
}

/// Streams standard base64 (with padding at [`Base64Writer::finish`]).
struct Base64Writer<'a, 'b> {
    w: &'a mut Counter<'b>,
    pending: [u8; 3],
    len: usize,
}

impl Base64Writer<'_, '_> {
    fn finish(&mut self) -> std::io::Result<()> {
        if self.len > 0 {
            let t = base64(&self.pending[..self.len]);
            self.len = 0;
            self.w.write_all(t.as_bytes())?;
        }
        Ok(())
    }
}

impl std::io::Write for Base64Writer<'_, '_> {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        let mut rest = b;
        while !rest.is_empty() && self.len > 0 {
            self.pending[self.len] = rest[0];
            self.len += 1;
            rest = &rest[1..];
            if self.len == 3 {
                let t = base64(&self.pending);
                self.w.write_all(t.as_bytes())?;
                self.len = 0;
            }
        }
        let whole = rest.len() / 3 * 3;
        if whole > 0 {
            self.w.write_all(base64(&rest[..whole]).as_bytes())?;
        }
        for &c in &rest[whole..] {
            self.pending[self.len] = c;
            self.len += 1;
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.w.flush()
    }
}

/// Standard base64 with padding.
pub(crate) fn base64(b: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(b.len().div_ceil(3) * 4);
    for c in b.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        s.push(A[(n >> 18) as usize & 63] as char);
        s.push(A[(n >> 12) as usize & 63] as char);
        s.push(if c.len() > 1 {
            A[(n >> 6) as usize & 63] as char
        } else {
            '='
        });
        s.push(if c.len() > 2 {
            A[n as usize & 63] as char
        } else {
            '='
        });
    }
    s
}
