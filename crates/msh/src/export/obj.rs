// re2d MSH export — Wavefront OBJ (spec: msh.md §7.1).
//! Coordinates are the engine's own and faces keep the stored index order.
//! Posed mode (default): per node with a slot, `o <name>`, its referenced
//! vertices transformed by `W[n]` (normals by its 3×3 part, renormalised),
//! deduplicated within the node, then per batch `usemtl mat_<m>` and its
//! faces. `--no-pose`: all Res3 vertices once, in order, faces
//! `base_vertex + idx + 1`. `vt = (u, 1 − v)`; `vn` is the normalised decoded
//! normal, omitted (for that vertex) below length 1e-6. No `.mtl` is written.

use std::fmt::Write;

use super::{
    Exported, Options, Remap, Written, check_exportable, finite3, into_issue, local_poses, parts,
    summary_diag, unit,
};
use crate::model::Model;
use crate::nres::Issue;
use crate::pose::{IDENTITY, Mat4, transform_dir, transform_point, world_matrices};

fn clean(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_whitespace() || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    if s.is_empty() { "_".into() } else { s }
}

struct Refs {
    /// OBJ `v` index (1-based) of the compact vertex.
    v: Vec<u64>,
    /// OBJ `vn` index or 0 for none.
    vn: Vec<u64>,
}

/// The `vn` lines written so far and the model's normals left out.
struct Normals {
    /// The model has a normal stream (a missing normal then counts).
    has: bool,
    /// `vn` lines written (the last 1-based index).
    written: u64,
    /// Normals shorter than 1e-6, written as no `vn` reference.
    degenerate: u64,
}

impl Normals {
    /// Writes a `vn` line for a usable normal and records its 1-based index
    /// in `refs.vn`, or records 0 (no normal) and counts a degenerate one
    /// when the model has normals.
    fn write(&mut self, out: &mut String, n: Option<[f32; 3]>, refs: &mut Refs) {
        match n {
            Some(n) => {
                let _ = writeln!(out, "vn {} {} {}", n[0], n[1], n[2]);
                self.written += 1;
                refs.vn.push(self.written);
            }
            None => {
                if self.has {
                    self.degenerate += 1;
                }
                refs.vn.push(0);
            }
        }
    }
}

fn face(out: &mut String, r: &Refs, k: [usize; 3], uvs: bool) {
    out.push('f');
    for i in k {
        let v = r.v[i];
        let n = r.vn[i];
        let _ = match (uvs, n) {
            (true, 0) => write!(out, " {v}/{v}"),
            (true, n) => write!(out, " {v}/{v}/{n}"),
            (false, 0) => write!(out, " {v}"),
            (false, n) => write!(out, " {v}//{n}"),
        };
    }
    out.push('\n');
}

/// Exports OBJ text into memory (limit `export-max-bytes` of the current
/// limits).
pub fn obj(m: &Model<'_>, o: &Options) -> Result<Exported, Issue> {
    let mut bytes = Vec::new();
    let max = re2d::limits::Limits::current().export_max_bytes;
    let info = obj_to(m, o, max, &mut bytes).map_err(into_issue)?;
    Ok(Exported {
        bytes,
        diagnostics: info.diagnostics,
    })
}

fn too_large(what: String, max: u64) -> std::io::Error {
    std::io::Error::other(Issue::new(
        "E_EXPORT_TOO_LARGE",
        None,
        None,
        format!("{what}, more than {max} bytes (limit export-max-bytes, see --limit)"),
    ))
}

/// Text is built in a small buffer and streamed into the writer, counting
/// against the limit.
struct Sink<'a> {
    w: &'a mut dyn std::io::Write,
    written: u64,
    max: u64,
}

impl Sink<'_> {
    fn pass(&mut self, out: &mut String, force: bool) -> std::io::Result<()> {
        if force || out.len() >= 1 << 16 {
            self.written += out.len() as u64;
            if self.written > self.max {
                return Err(too_large(
                    format!("the OBJ text passes {} bytes", self.written),
                    self.max,
                ));
            }
            self.w.write_all(out.as_bytes())?;
            out.clear();
        }
        Ok(())
    }
}

/// [`obj`] streamed into `w`. A lower bound of the text (8 bytes per face
/// and per vertex line) is checked against `max_bytes` before any work;
/// the exact size is enforced while writing (the output then fails and the
/// publish path removes it). A content error is an `io::Error` wrapping the
/// [`Issue`] (see [`super::into_issue`]).
pub fn obj_to(
    m: &Model<'_>,
    o: &Options,
    max_bytes: u64,
    w: &mut dyn std::io::Write,
) -> std::io::Result<Written> {
    check_exportable(m, o).map_err(std::io::Error::other)?;
    {
        let faces: u64 = parts(m, o)
            .iter()
            .flat_map(|p| &p.batches)
            .map(|b| (m.batch_index_bytes(b).len() / 6) as u64)
            .sum();
        let verts = if o.no_pose || o.all_batches {
            m.vertex_count() as u64
        } else {
            0
        };
        let lower = 8 * (faces + verts);
        if lower > max_bytes {
            return Err(too_large(
                format!("the OBJ text needs at least {lower} bytes ({faces} faces)"),
                max_bytes,
            ));
        }
    }
    let mut sink = Sink {
        w,
        written: 0,
        max: max_bytes,
    };
    let mut out = String::new();
    let mut bad = 0u64;
    let mut normals = Normals {
        has: m.has_normals(),
        written: 0,
        degenerate: 0,
    };
    let uvs = m.has_uvs();
    let unposed = o.no_pose || o.all_batches;
    let _ = writeln!(
        out,
        "# re2d msh export: lod {} group {}, {}",
        o.lod,
        o.group,
        if o.all_batches {
            "all batches, unposed".to_string()
        } else if o.no_pose {
            "unposed".to_string()
        } else {
            match o.pose {
                super::PoseChoice::Static => "static pose".to_string(),
                super::PoseChoice::Time(t) => format!("pose at t = {t}"),
            }
        }
    );
    let ps = parts(m, o);
    let mut vcount = 0u64;
    if unposed {
        // every vertex once, in order
        let nv = m.vertex_count();
        let mut refs = Refs {
            v: Vec::with_capacity(nv),
            vn: Vec::with_capacity(nv),
        };
        for v in 0..nv {
            let p = finite3(m.position(v).unwrap_or([0.0; 3]), &mut bad);
            let _ = writeln!(out, "v {} {} {}", p[0], p[1], p[2]);
            vcount += 1;
            refs.v.push(vcount);
            sink.pass(&mut out, false)?;
        }
        if uvs {
            for v in 0..nv {
                let t = m.uv(v).unwrap_or([0.0; 2]);
                let _ = writeln!(out, "vt {} {}", t[0], 1.0 - t[1]);
                sink.pass(&mut out, false)?;
            }
        }
        for v in 0..nv {
            let n = m.normal(v).and_then(unit);
            normals.write(&mut out, n, &mut refs);
            sink.pass(&mut out, false)?;
        }
        for p in &ps {
            let _ = writeln!(out, "o {}", clean(&p.name));
            for b in &p.batches {
                let _ = writeln!(out, "usemtl mat_{}", b.material_index);
                let n = m.batch_index_bytes(b).len() / 2;
                for t in 0..n / 3 {
                    let k = |j: usize| m.batch_vertex(b, 3 * t + j).unwrap_or(0);
                    face(&mut out, &refs, [k(0), k(1), k(2)], uvs);
                    sink.pass(&mut out, false)?;
                }
            }
        }
    } else {
        let poses = local_poses(m, o);
        let world = world_matrices(m, &poses);
        let mut remap = Remap::new(m.vertex_count());
        for p in &ps {
            let w: &Mat4 = p.node.and_then(|n| world.get(n)).unwrap_or(&IDENTITY);
            let _ = writeln!(out, "o {}", clean(&p.name));
            remap.clear();
            for b in &p.batches {
                let n = m.batch_index_bytes(b).len() / 2;
                for k in 0..n {
                    if let Some(v) = m.batch_vertex(b, k) {
                        remap.get(v);
                    }
                }
            }
            let order: Vec<u32> = remap.order().to_vec();
            let mut refs = Refs {
                v: Vec::with_capacity(order.len()),
                vn: Vec::with_capacity(order.len()),
            };
            for &v in &order {
                let pos = transform_point(w, m.position(v as usize).unwrap_or([0.0; 3]));
                let pos = finite3(pos, &mut bad);
                let _ = writeln!(out, "v {} {} {}", pos[0], pos[1], pos[2]);
                vcount += 1;
                refs.v.push(vcount);
                sink.pass(&mut out, false)?;
            }
            if uvs {
                for &v in &order {
                    let t = m.uv(v as usize).unwrap_or([0.0; 2]);
                    let _ = writeln!(out, "vt {} {}", t[0], 1.0 - t[1]);
                    sink.pass(&mut out, false)?;
                }
            }
            for &v in &order {
                let n = m
                    .normal(v as usize)
                    .map(|n| transform_dir(w, n))
                    .and_then(unit);
                normals.write(&mut out, n, &mut refs);
                sink.pass(&mut out, false)?;
            }
            for b in &p.batches {
                let _ = writeln!(out, "usemtl mat_{}", b.material_index);
                let n = m.batch_index_bytes(b).len() / 2;
                for t in 0..n / 3 {
                    let mut k = |j: usize| {
                        m.batch_vertex(b, 3 * t + j)
                            .map_or(0, |v| remap.get(v).0 as usize)
                    };
                    let ks = [k(0), k(1), k(2)];
                    face(&mut out, &refs, ks, uvs);
                    sink.pass(&mut out, false)?;
                }
            }
        }
    }
    let diagnostics = [
        summary_diag(
            "W_EXPORT_NONFINITE",
            bad,
            "non-finite coordinates written as 0",
        ),
        summary_diag(
            "W_EXPORT_NORMAL",
            normals.degenerate,
            "vertices with a normal shorter than 1e-6 have no vn reference",
        ),
    ]
    .into_iter()
    .flatten()
    .collect();
    sink.pass(&mut out, true)?;
    Ok(Written {
        bytes: sink.written,
        diagnostics,
    })
}
