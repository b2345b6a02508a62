// re2d — C-layout data types of rotsprite_math.h (spec: c-abi.md §2).
//
//! The six `#[repr(C)]` structs shared by the safe core and the C ABI.
//!
//! The core renders straight from these records, so a C caller's atlas or
//! model pose is used without copying. Every `bool` field of the C header is a
//! [`CBool`] here: one byte, read as "non-zero is true", so a C caller that
//! stores 2 in a `bool` cannot cause undefined behaviour (c-abi.md §2.8).

use std::ffi::c_int;

/// Size of one `R2DRotPoint` C record in bytes.
pub const POINT_BYTES: usize = 192;

/// Width and height in pixels of the v1 raster output.
pub const R2D_ROTSPRITE_SIZE: c_int = 64;

/// A C `bool` as one raw byte. Values written by re2d are 0 or 1; values read
/// from callers count as true when non-zero.
#[repr(transparent)]
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct CBool(pub u8);

impl CBool {
    /// `true` → 1, `false` → 0.
    #[inline]
    pub const fn new(v: bool) -> Self {
        CBool(v as u8)
    }
    /// Non-zero is true.
    #[inline]
    pub const fn get(self) -> bool {
        self.0 != 0
    }
}

impl From<bool> for CBool {
    fn from(v: bool) -> Self {
        CBool::new(v)
    }
}

/// One decoded surface sample (192 bytes, align 4).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct R2DRotPoint {
    /// Local X (right), model units.
    pub x: f32,
    /// Local Y (down).
    pub y: f32,
    /// Local Z (toward the viewer).
    pub z: f32,
    /// Sample colour R, G, B, A.
    pub rgba: [u8; 4],
    /// Part id (1..254 when decoded).
    pub part: u8,
    /// Material group (continuity key).
    pub group: u8,
    /// Part id of patch corners 0..3 (0 = the point's own part).
    pub corner_parts: [u8; 4],
    /// Secondary part id (0 = none).
    pub blend_part: u8,
    /// Secondary weight 0..255.
    pub blend_weight: u8,
    /// Per-corner secondary part.
    pub corner_blend_parts: [u8; 4],
    /// Per-corner secondary weight.
    pub corner_blend_weights: [u8; 4],
    /// The point carries a bilinear surface patch.
    pub patch: CBool,
    /// Patch edge vector along u.
    pub du: [f32; 3],
    /// Patch edge vector along v.
    pub dv: [f32; 3],
    /// Patch twist (bilinear) term.
    pub duv: [f32; 3],
    /// Corner colours, `colors[corner][channel]`.
    pub colors: [[u8; 4]; 4],
    /// `material` is valid.
    pub textured: CBool,
    /// Decoded with the SUB extension.
    pub mapped: CBool,
    /// 5×5 RGBA footprint, row-major, entry `(ty*5+tx)*4`.
    pub material: [u8; 100],
}

impl R2DRotPoint {
    /// An all-zero point (every field and, when written whole, every padding
    /// byte is zero).
    pub const ZERO: R2DRotPoint = R2DRotPoint {
        x: 0.0,
        y: 0.0,
        z: 0.0,
        rgba: [0; 4],
        part: 0,
        group: 0,
        corner_parts: [0; 4],
        blend_part: 0,
        blend_weight: 0,
        corner_blend_parts: [0; 4],
        corner_blend_weights: [0; 4],
        patch: CBool(0),
        du: [0.0; 3],
        dv: [0.0; 3],
        duv: [0.0; 3],
        colors: [[0; 4]; 4],
        textured: CBool(0),
        mapped: CBool(0),
        material: [0; 100],
    };
}

impl R2DRotPoint {
    /// The exact C record bytes (native endianness) with every padding byte
    /// zero: what the library writes into caller memory, so decoded arrays
    /// are `memcmp`-comparable (c-abi.md §2.2).
    pub fn to_bytes(&self) -> [u8; POINT_BYTES] {
        let mut b = [0u8; POINT_BYTES];
        let f3 = |b: &mut [u8], off: usize, v: &[f32]| {
            for (i, x) in v.iter().enumerate() {
                b[off + 4 * i..off + 4 * i + 4].copy_from_slice(&x.to_ne_bytes());
            }
        };
        f3(&mut b, 0, &[self.x, self.y, self.z]);
        b[12..16].copy_from_slice(&self.rgba);
        b[16] = self.part;
        b[17] = self.group;
        b[18..22].copy_from_slice(&self.corner_parts);
        b[22] = self.blend_part;
        b[23] = self.blend_weight;
        b[24..28].copy_from_slice(&self.corner_blend_parts);
        b[28..32].copy_from_slice(&self.corner_blend_weights);
        b[32] = self.patch.0;
        f3(&mut b, 36, &self.du);
        f3(&mut b, 48, &self.dv);
        f3(&mut b, 60, &self.duv);
        for (i, c) in self.colors.iter().enumerate() {
            b[72 + 4 * i..76 + 4 * i].copy_from_slice(c);
        }
        b[88] = self.textured.0;
        b[89] = self.mapped.0;
        b[90..190].copy_from_slice(&self.material);
        b
    }
}

impl Default for R2DRotPoint {
    fn default() -> Self {
        Self::ZERO
    }
}

/// Decoded point cache as the C ABI sees it: a pointer and a count.
#[repr(C)]
#[derive(Debug)]
pub struct R2DRotAtlas {
    /// First point (C `malloc` block when made by the library).
    pub points: *mut R2DRotPoint,
    /// Number of valid points.
    pub count: c_int,
}

/// Per-part transform of a data-driven model (104 bytes, align 8).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct R2DRotPartPose {
    /// 3×4 affine, row-major; column 3 is the translation.
    pub matrix: [f64; 12],
    /// The part exists in the model.
    pub defined: CBool,
    /// The part is drawn.
    pub visible: CBool,
    /// Back-face culled.
    pub one_sided: CBool,
    /// 0 ordinary, 1 eyes, 2 mouth, other values brows.
    pub selector: u8,
    /// Variant compared with the selected expression.
    pub variant: u8,
}

impl R2DRotPartPose {
    /// An undefined part (all zero).
    pub const ZERO: R2DRotPartPose = R2DRotPartPose {
        matrix: [0.0; 12],
        defined: CBool(0),
        visible: CBool(0),
        one_sided: CBool(0),
        selector: 0,
        variant: 0,
    };
}

impl Default for R2DRotPartPose {
    fn default() -> Self {
        Self::ZERO
    }
}

/// Pose of a data-driven model: a scale and 256 part transforms indexed by a
/// point's `part` byte.
#[repr(C)]
#[derive(Clone, Debug, PartialEq)]
pub struct R2DRotModelPose {
    /// Projection scale of the model.
    pub scale: f64,
    /// Part transforms, indexed by part id.
    pub parts: [R2DRotPartPose; 256],
}

impl Default for R2DRotModelPose {
    fn default() -> Self {
        R2DRotModelPose {
            scale: 0.0,
            parts: [R2DRotPartPose::ZERO; 256],
        }
    }
}

/// Rig passed to the renderers: a model pose, or the legacy walking rig.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct R2DRotRig {
    /// Data-driven model, or NULL for the legacy rig.
    pub model: *const R2DRotModelPose,
    /// Project the body, not only the head.
    pub body: CBool,
    /// Gait phase, radians.
    pub phase: f64,
    /// Gait swing amplitude, degrees.
    pub stride: f64,
    /// Left arm raise, degrees.
    pub arm_left: f64,
    /// Right arm raise, degrees.
    pub arm_right: f64,
    /// Independent head yaw, degrees.
    pub head_yaw: f64,
    /// Brow variant 0..3.
    pub brows: c_int,
}

/// Reusable scratch of the smooth renderer. All-zero is the empty state.
#[repr(C)]
#[derive(Debug)]
pub struct R2DRotAnimeWorkspace {
    /// N·N supersample depths.
    pub depth: *mut f32,
    /// N·N supersample splat distances.
    pub distance: *mut f32,
    /// S·S per-output-pixel depth (0 where uncovered).
    pub sample_depth: *mut f32,
    /// N·N·4 supersample colours.
    pub rgba: *mut u8,
    /// S·S·4 output image before edge-colour extrusion.
    pub resolved: *mut u8,
    /// Touched supersample rectangle x0, y0, x1, y1 (half-open).
    pub bounds: [c_int; 4],
    /// S of the allocated buffers (0 when none).
    pub size: c_int,
}

// Layouts that do not depend on the pointer width (c-abi.md §2).
const _: () = assert!(std::mem::size_of::<R2DRotPoint>() == 192);
const _: () = assert!(std::mem::align_of::<R2DRotPoint>() == 4);
const _: () = assert!(std::mem::size_of::<R2DRotPartPose>() == 104);
const _: () = assert!(std::mem::size_of::<R2DRotModelPose>() == 26632);
