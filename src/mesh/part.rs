//! Native skinned part: the validated copy of a JS part record (spec
//! js-mesh.md §6) that deformation reads on the hot path.
//!
//! Every per-vertex value that does not depend on the pose (`z`, `u`, `v`,
//! `r`, `g`, `b`) is pre-rounded to `f32` once; bone names are interned so a
//! frame looks each bone up once, not once per vertex.

/// How a vertex influenced by two bones blends their motions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Blend {
    /// The engine's linear blend of displaced positions (§7, default).
    #[default]
    Linear,
    /// re2d extension (`blend: 'rigid'`): blend the bone motions as 2D dual
    /// numbers (rotor + translation), so a half-weight vertex keeps its
    /// distance from the joint at any angle.
    Rigid,
}

/// One `[bone, weight]` pair of a vertex (bone = index into `bones`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Influence {
    /// Index into [`MeshPart::bones`].
    pub bone: u32,
    /// Raw weight (§6: `N0(weight)`).
    pub weight: f64,
}

/// A part ready for native deformation.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshPart {
    /// Rest positions, flat `x, y` (f64, as JS numbers).
    pub verts: Vec<f64>,
    /// Per vertex `u, v, r, g, b`, already rounded to f32 (`z` is the
    /// part depth, passed per frame since JS may change it).
    pub consts: Vec<[f32; 5]>,
    /// Up to two influences per vertex (§6 keeps at most two pairs).
    pub influences: Vec<[Option<Influence>; 2]>,
    /// Distinct bone names referenced by `influences`.
    pub bones: Vec<String>,
    /// Blend mode.
    pub blend: Blend,
}

/// Error building a [`MeshPart`] from flat arrays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartError {
    /// An input array has the wrong length for the vertex count.
    Length(&'static str),
    /// An influence refers to a bone index that does not exist.
    BoneIndex,
}

impl std::fmt::Display for PartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PartError::Length(what) => write!(f, "mesh part: bad length of {what}"),
            PartError::BoneIndex => write!(f, "mesh part: bone index out of range"),
        }
    }
}

impl std::error::Error for PartError {}

impl MeshPart {
    /// Build from flat arrays for `n` vertices: `verts` (2n), `uv` (2n, the
    /// spec's `uv[i] || 0` already applied), `colors` (3n),
    /// `infl` (2n bone indices, negative = none), `weights` (2n) and the
    /// interned bone names.
    #[allow(clippy::too_many_arguments)]
    pub fn from_flat(
        verts: &[f64],
        uv: &[f64],
        colors: &[f64],
        infl: &[i32],
        weights: &[f64],
        bones: Vec<String>,
        blend: Blend,
    ) -> Result<Self, PartError> {
        let n = verts.len() / 2;
        if verts.len() != 2 * n {
            return Err(PartError::Length("verts"));
        }
        if uv.len() != 2 * n {
            return Err(PartError::Length("uv"));
        }
        if colors.len() != 3 * n {
            return Err(PartError::Length("colors"));
        }
        if infl.len() != 2 * n || weights.len() != 2 * n {
            return Err(PartError::Length("weights"));
        }
        let mut consts = Vec::with_capacity(n);
        let mut influences = Vec::with_capacity(n);
        for i in 0..n {
            consts.push([
                uv[2 * i] as f32,
                uv[2 * i + 1] as f32,
                colors[3 * i] as f32,
                colors[3 * i + 1] as f32,
                colors[3 * i + 2] as f32,
            ]);
            let mut pair = [None, None];
            for k in 0..2 {
                let b = infl[2 * i + k];
                if b >= 0 {
                    if b as usize >= bones.len() {
                        return Err(PartError::BoneIndex);
                    }
                    pair[k] = Some(Influence {
                        bone: b as u32,
                        weight: weights[2 * i + k],
                    });
                }
            }
            influences.push(pair);
        }
        Ok(MeshPart {
            verts: verts.to_vec(),
            consts,
            influences,
            bones,
            blend,
        })
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.consts.len()
    }
}
