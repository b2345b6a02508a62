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
    /// Largest NRes archive decoded (bytes; msh.md §1.6). Also applies to a
    /// nested model archive.
    pub nres_max_input_bytes: u64,
    /// Largest NRes `entry_count` accepted (msh.md §1.6).
    pub nres_max_entries: u32,
    /// Largest single NRes payload (bytes; msh.md §1.6).
    pub nres_max_payload_bytes: u64,
    /// Findings of one check code listed individually by the NRes/MSH
    /// validator; further ones are counted in one summary finding with the
    /// same code (so a damaged 256 MiB table cannot produce millions of
    /// messages).
    pub msh_max_findings_per_code: u32,
    /// Most object records the `.riv` reader accepts (each needs ≥ 2 bytes,
    /// so this only bounds the record list of a huge file).
    pub riv_max_objects: u64,
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
        nres_max_input_bytes: 256 << 20,
        nres_max_entries: 65_536,
        nres_max_payload_bytes: 256 << 20,
        msh_max_findings_per_code: 100,
        riv_max_objects: 1 << 24,
        frames_max_bytes: 1 << 30,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}
