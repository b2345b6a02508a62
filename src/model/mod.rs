// re2d — data-driven character models: validation, clips, poses, sockets (spec: js-rotsprite.md §1–4, §6).
//
//! The pure half of `$.re2dSprite`: a character definition (bones, parts,
//! binds, sockets, emotions, …) and its animation set are validated and
//! normalised exactly as the engine's JS module does, clips are sampled, and
//! a pose is turned into the per-part 3×4 matrices the rotsprite renderer
//! consumes ([`ModelPose::to_c`]).
//!
//! | file | what | spec |
//! |---|---|---|
//! | `matrix.rs` | multiply, affine, transform, inverse | §4 |
//! | `js.rs` | the JS value semantics the rules rely on (truthiness, `??`, ToString, `Math.round`) | §0 |
//! | `definition.rs` | `validateRotDefinition` and the typed [`Definition`] | §3.3 |
//! | `animation.rs` | `validateRotAnimations`, `sampleRotClip` | §3.4–3.5 |
//! | `pose.rs` | `buildRotModelPose`, sockets, joints, C model pose | §3.6, §4 |
//! | `jstext.rs` | JSON text from/to JS: lone surrogates kept, nesting up to the limit | §2 |
//! | `asset.rs` | `relativeAsset`, `normalizeRotPose`, `rotPixelRect` | §3.1, §3.2, §3.7 |
//!
//! Errors carry the JS error class the engine throws ([`ErrorClass`]), so the
//! JS adapter can throw the same class.

mod animation;
mod asset;
mod definition;
pub mod js;
pub mod jstext;
pub mod matrix;
mod pose;

pub use animation::{Animations, Clip, Sample, Track, sample_clip, validate_animations};
pub use asset::{PixelRect, normalize_rot_pose, relative_asset, rot_pixel_rect};
pub use definition::{Bind, Bone, Definition, Part, Socket, validate_definition};
pub use pose::{
    ModelPose, Record, RigInput, build_model_pose, model_joints, rows_to_c, socket_matrix,
};

/// The JS error class of a model error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorClass {
    /// `TypeError`: wrong type, unknown name, structural problem.
    Type,
    /// `RangeError`: a number out of range.
    Range,
    /// `SyntaxError`: unparsable JSON.
    Syntax,
    /// Plain `Error` (e.g. a file that cannot be read).
    Error,
}

/// A validation or evaluation error: its JS class and a message naming the
/// JSON path of the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelError {
    /// JS error class.
    pub class: ErrorClass,
    /// Human-readable message.
    pub message: String,
}

impl ModelError {
    /// A TypeError.
    pub fn type_(msg: impl Into<String>) -> Self {
        ModelError {
            class: ErrorClass::Type,
            message: msg.into(),
        }
    }
    /// A RangeError.
    pub fn range(msg: impl Into<String>) -> Self {
        ModelError {
            class: ErrorClass::Range,
            message: msg.into(),
        }
    }
    /// A SyntaxError.
    pub fn syntax(msg: impl Into<String>) -> Self {
        ModelError {
            class: ErrorClass::Syntax,
            message: msg.into(),
        }
    }
    /// A plain Error.
    pub fn error(msg: impl Into<String>) -> Self {
        ModelError {
            class: ErrorClass::Error,
            message: msg.into(),
        }
    }
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let class = match self.class {
            ErrorClass::Type => "TypeError",
            ErrorClass::Range => "RangeError",
            ErrorClass::Syntax => "SyntaxError",
            ErrorClass::Error => "Error",
        };
        write!(f, "{class}: {}", self.message)
    }
}

impl std::error::Error for ModelError {}

/// Expression states by component, index = native value (§1).
pub const FACE_EYES: [&str; 4] = ["open", "half", "closed", "happy"];
/// Mouth states.
pub const FACE_MOUTH: [&str; 4] = ["closed", "open", "smile", "talk"];
/// Brow states.
pub const FACE_BROWS: [&str; 4] = ["neutral", "angry", "sad", "surprised"];

/// The states of a face component (`eyes`, `mouth`, `brows`).
pub fn face_states(component: &str) -> Option<&'static [&'static str; 4]> {
    match component {
        "eyes" => Some(&FACE_EYES),
        "mouth" => Some(&FACE_MOUTH),
        "brows" => Some(&FACE_BROWS),
        _ => None,
    }
}
