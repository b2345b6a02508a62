//! Errors of the rig stages: a stable code (`E_RIG_*` for the skeleton, drawing and
//! pipeline, `E_BVH_*` for motion capture) and one line naming the offending item.
//! Every code is exit 1 (input rejected) in the CLI, except `E_IO` (exit 3).

use std::fmt;

/// A rejected input: code and a message naming the bone, joint, line or field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RigError {
    /// Stable code, e.g. `E_RIG_CYCLE`, `E_BVH_CHANNELS`, `E_IO`.
    pub code: &'static str,
    /// What is wrong, naming the item.
    pub message: String,
}

impl RigError {
    /// A new error.
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        RigError {
            code,
            message: message.into(),
        }
    }

    /// The CLI exit code: 3 for `E_IO`, 1 for every other code.
    pub fn exit_code(&self) -> i32 {
        if self.code == "E_IO" { 3 } else { 1 }
    }
}

impl fmt::Display for RigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for RigError {}
