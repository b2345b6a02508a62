// re2d — the one table of resource limits shared by every command, host and parser.
//! Every size that comes from outside (a file, a PNG header, a JSON document,
//! a command-line option, a script) is checked against [`Limits`] **before**
//! anything is allocated for it. Each limit has a documented default
//! ([`Limits::DEFAULT`]) and can be overridden per call (the CLI exposes the
//! ones a user may need to raise as options).

/// Resource limits. Construct with [`Limits::DEFAULT`] and override fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest width or height of a PNG that is decoded (pixels).
    pub png_max_side: u32,
    /// Largest decoded PNG buffer (bytes).
    pub png_max_bytes: u64,
    /// Largest JSON document read (bytes).
    pub json_max_bytes: u64,
    /// Largest binary model/archive file read whole (bytes).
    pub file_max_bytes: u64,
    /// Largest total of rendered frames held in memory at once by
    /// `re2d render` for `--sheet`, `--apng`, `--gif` or `--fit` (bytes).
    pub frames_max_bytes: u64,
}

impl Limits {
    /// The documented defaults.
    pub const DEFAULT: Limits = Limits {
        png_max_side: 16384,
        png_max_bytes: 1 << 30,
        json_max_bytes: 64 << 20,
        file_max_bytes: 1 << 30,
        frames_max_bytes: 1 << 30,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}
