//! Validation errors of the exporter (rive-export.md §8.7) with the CLI exit
//! code each maps to (1 invalid input, 3 I/O).

use std::fmt;

/// The stable error codes of §8.7, plus `Io` (exit 3) and `Option` (a bad
/// option value, exit 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Code {
    /// Bad JSON or `version ≠ 1`.
    ModelJson,
    /// Unknown parent or bone name, a cycle, or more than 255 bones.
    Bone,
    /// Bad part arrays.
    Part,
    /// Negative or non-finite weight, or an unknown bone.
    Weight,
    /// Missing texture file, not a PNG, or an unknown texture id.
    Texture,
    /// Bad clip: duration, times, unknown bone.
    Clip,
    /// Keys collide after quantisation at the export fps.
    KeyQuant,
    /// A quantised key frame is beyond the duration.
    KeyRange,
    /// A bad option value (fps, artboard size, clip name, …).
    Option,
    /// Reading the model failed.
    Io,
}

impl Code {
    /// The code as printed (`E_PART`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Code::ModelJson => "E_MODEL_JSON",
            Code::Bone => "E_BONE",
            Code::Part => "E_PART",
            Code::Weight => "E_WEIGHT",
            Code::Texture => "E_TEXTURE",
            Code::Clip => "E_CLIP",
            Code::KeyQuant => "E_KEY_QUANT",
            Code::KeyRange => "E_KEY_RANGE",
            Code::Option => "E_OPTION",
            Code::Io => "E_IO",
        }
    }
}

/// A rejected model or option: code and a message naming the offending item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RivError {
    /// The §8.7 code.
    pub code: Code,
    /// What is wrong, with the JSON path or name of the item.
    pub message: String,
}

impl RivError {
    /// A new error.
    pub fn new(code: Code, message: impl Into<String>) -> RivError {
        RivError {
            code,
            message: message.into(),
        }
    }

    /// The CLI exit code: 3 for I/O, 1 for everything else.
    pub fn exit_code(&self) -> i32 {
        if self.code == Code::Io { 3 } else { 1 }
    }
}

impl fmt::Display for RivError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for RivError {}

/// Shorthand used by the parsers.
pub(crate) fn err<T>(code: Code, message: impl Into<String>) -> Result<T, RivError> {
    Err(RivError::new(code, message))
}
