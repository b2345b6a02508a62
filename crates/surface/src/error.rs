// re2d surface compiler — error codes and messages (spec: surface-compiler.md §5.8, §9.1).
//! Stable `E_*` codes with a location (JSON path / cell anchor) and a reason.

use std::fmt;

/// The stable error codes of surface-compiler.md §5.8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Code {
    Json,
    Version,
    PatchType,
    Rect,
    Grid,
    Sections,
    Matrix,
    Sample,
    Uv,
    Id,
    Overlap,
    NonFinite,
    Range,
    Segment,
    Color,
    Size,
    MaterialFormat,
    MaterialSize,
    MaterialAlpha,
    Empty,
    Io,
    /// The output path is refused (it names an input).
    Output,
}

impl Code {
    /// The code as printed, e.g. `E_RANGE`.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Json => "E_JSON",
            Code::Version => "E_VERSION",
            Code::PatchType => "E_PATCH_TYPE",
            Code::Rect => "E_RECT",
            Code::Grid => "E_GRID",
            Code::Sections => "E_SECTIONS",
            Code::Matrix => "E_MATRIX",
            Code::Sample => "E_SAMPLE",
            Code::Uv => "E_UV",
            Code::Id => "E_ID",
            Code::Overlap => "E_OVERLAP",
            Code::NonFinite => "E_NONFINITE",
            Code::Range => "E_RANGE",
            Code::Segment => "E_SEGMENT",
            Code::Color => "E_COLOR",
            Code::Size => "E_SIZE",
            Code::MaterialFormat => "E_MATERIAL_FORMAT",
            Code::MaterialSize => "E_MATERIAL_SIZE",
            Code::MaterialAlpha => "E_MATERIAL_ALPHA",
            Code::Empty => "E_EMPTY",
            Code::Io => "E_IO",
            Code::Output => "E_OUTPUT",
        }
    }
    /// CLI exit code (§9.1): 3 for `E_IO`, 2 for a refused output path,
    /// 1 for everything else.
    pub fn exit_code(self) -> i32 {
        match self {
            Code::Io => 3,
            Code::Output => 2,
            _ => 1,
        }
    }
}

/// A compile failure: code, where (JSON path and/or cell), and why.
#[derive(Clone, Debug, PartialEq)]
pub struct CompileError {
    /// Stable code.
    pub code: Code,
    /// Location, e.g. `patches[3].samples[17] cell (128,64)`; may be empty.
    pub at: String,
    /// Human-readable reason.
    pub msg: String,
}

impl CompileError {
    /// Build an error.
    pub fn new(code: Code, at: impl Into<String>, msg: impl Into<String>) -> Self {
        CompileError {
            code,
            at: at.into(),
            msg: msg.into(),
        }
    }
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // One line: newlines from paths or messages are escaped.
        let clean = |s: &str| s.replace(['\n', '\r'], " ");
        if self.at.is_empty() {
            write!(f, "error[{}]: {}", self.code.as_str(), clean(&self.msg))
        } else {
            write!(
                f,
                "error[{}]: {}: {}",
                self.code.as_str(),
                clean(&self.at),
                clean(&self.msg)
            )
        }
    }
}

impl std::error::Error for CompileError {}

pub(crate) fn err<T>(
    code: Code,
    at: impl Into<String>,
    msg: impl Into<String>,
) -> Result<T, CompileError> {
    Err(CompileError::new(code, at, msg))
}
