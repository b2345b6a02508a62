// re2d — the one table of resource limits shared by every command, host and parser.
//! Every size that comes from outside (a file, a PNG header, a JSON document,
//! a command-line option, a script) is checked against [`Limits`] **before**
//! anything is allocated for it. Each limit has a documented default
//! ([`Limits::DEFAULT`], listed in [`Limits::TABLE`] and the README) and can
//! be overridden:
//!
//! - per call, by passing a modified [`Limits`] to a `*_limited` function;
//! - per process, with [`Limits::set_current`] (what `re2d --limit NAME=VALUE`
//!   and `re2d-qjs --limit NAME=VALUE` do); the plain entry points
//!   (`png_io::decode_rgba`, `sprite::read_png`, file readers) read
//!   [`Limits::current`].
//!
//! Values are byte counts, pixel counts or nesting levels; on the command
//! line they accept a binary suffix (`k`, `M`, `G`: 2^10, 2^20, 2^30).

use std::io::Read;
use std::path::Path;
use std::sync::RwLock;

/// Resource limits. Construct with [`Limits::DEFAULT`] and override fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest width or height of a PNG that is decoded (pixels).
    pub png_max_side: u32,
    /// Largest decoded PNG buffer (bytes, RGBA8 after expansion).
    pub png_max_bytes: u64,
    /// Largest JSON document, script or text file read (bytes).
    pub json_max_bytes: u64,
    /// Deepest JSON nesting (arrays + objects) accepted.
    pub json_max_depth: u32,
    /// Most values of one JSON document, weighted by what their parsed tree
    /// holds ([`json_values`]: a number, string or key 1, an array
    /// [`JSON_ARRAY_WEIGHT`], an object [`JSON_OBJECT_WEIGHT`]): a tree holds
    /// up to [`JSON_BYTES_PER_VALUE`] bytes per counted value. Counted by
    /// the pre-pass ([`Limits::check_json_depth`]) before any parser runs.
    pub json_max_values: u64,
    /// Largest binary input file (PNG, model, archive) read whole (bytes).
    pub file_max_bytes: u64,
    /// Most frames one `re2d render` run produces.
    pub max_frames: u32,
    /// Largest total of rendered frames (`frames × frame bytes`, RGBA8) that
    /// `re2d render` holds at once for `--sheet`, `--apng`, `--gif` or `--fit`.
    pub sheet_max_bytes: u64,
    /// QuickJS heap limit of `re2d-qjs` (bytes).
    pub qjs_memory_bytes: u64,
    /// QuickJS stack limit of `re2d-qjs` (bytes). The script runs on a
    /// thread whose native stack is this plus [`QJS_STACK_MARGIN`].
    pub qjs_stack_bytes: u64,
    /// Wall-clock time limit of one `re2d-qjs` run (seconds; 0 = none;
    /// on by default, as a runaway script must end as every other command
    /// does).
    pub qjs_time_secs: u64,
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
    /// Largest BVH motion-capture file read (bytes; rig.md §6).
    pub bvh_max_bytes: u64,
    /// Most frames a BVH `Frames:` line may declare (checked before the
    /// motion is allocated).
    pub bvh_max_frames: u32,
    /// Most joints (ROOT + JOINT, End Sites not counted) in a BVH hierarchy.
    pub bvh_max_joints: u32,
    /// Most channels per BVH frame (the sum over all joints).
    pub bvh_max_channels: u32,
    /// Largest file one export writes (`msh export` OBJ/glTF, `riv
    /// render-ref` PNG buffers are `png-max-bytes`); computed before the
    /// work starts where possible and always enforced while streaming.
    pub export_max_bytes: u64,
    /// Most problems `riv check` lists (the rest are counted in one summary
    /// line), so a file of millions of bad records stays small in memory.
    pub riv_max_findings: u32,
    /// Most bones a rig skeleton declaration may have (rig.md §1; checked
    /// before anything per bone is allocated; connector bones come on top).
    pub rig_max_bones: u32,
    /// Largest drawing `re2d rig` processes (pixels): the pipeline holds
    /// about [`RIG_BYTES_PER_PIXEL`] bytes per pixel of the drawing, checked
    /// from the PNG header before it is decoded.
    pub rig_max_pixels: u64,
    /// Most tube work of a rig declaration on its drawing: the sum over the
    /// bones of segments × pixels of the tube's bounding box (every pixel of
    /// the box is tested against every segment), checked before slicing.
    pub rig_max_tube_work: u64,
    /// Most layers a layered drawing (`.ora`, `.psd`) may have, groups and
    /// hidden layers included (checked as the file's layer list is read).
    pub rig_max_layers: u32,
    /// Most layer pixels a layered drawing may hold: the sum over its
    /// visible layers of their rectangles' pixels (each decoded as RGBA8),
    /// checked from the headers before any layer is inflated or decoded.
    pub rig_max_layer_pixels: u64,
    /// Most motion-capture work of a BVH: frames × joints (forward
    /// kinematics of every joint on every frame), checked when the
    /// `Frames:` line is read.
    pub bvh_max_work: u64,
    /// Largest request body `re2d rig edit` reads (bytes: a declaration and
    /// a few fields), checked from `Content-Length` before a byte of it is
    /// read.
    pub edit_max_body: u64,
    /// Most clip key values of one `re2d rig build` or `rig motion`: the sum
    /// over its motions of keys × animated tracks (every bone plus the root
    /// translation), each motion charged at its BVH's `Frame Time:` line
    /// for the keys its duration (or `--range`) gives at the clip fps,
    /// before the motion section is read (issue 45; [`RIG_KEY_JSON_BYTES`]).
    pub rig_max_keys: u64,
    /// Largest total of bytes embedded in one `.riv` (its texture PNGs),
    /// checked from the file sizes before they are read and again before
    /// encoding: an export holds them about [`RIV_EMBEDDED_COPIES`] times.
    pub riv_max_embedded_bytes: u64,
}

/// Bytes the rig pipeline holds per pixel of the drawing, measured (peak RSS
/// of `re2d rig build` over the drawing's pixels: 41 on the 1696×2528 biped,
/// 40 on it scaled to 3985×5940, since the slicing follows the paint; 25 and
/// 22.6 before): what [`Limits::rig_max_pixels`] is sized with.
pub const RIG_BYTES_PER_PIXEL: u64 = 41;

/// Bytes a parsed JSON tree (`serde_json::Value`) holds per counted value
/// at most, measured as the peak RSS of `re2d export-riv` (the text
/// included) at 8M counted values: 610 MB for an array of numbers (the
/// array's doubling growth included), 619 MB of empty strings, 627 MB for
/// `[[0],[0],…]` (each inner array reserves four slots), 294 MB for
/// `[{"a":0},…]` (each object a B-tree node of eleven entries); without the
/// weights `[[0],…]` cost 190 bytes per value. What
/// [`Limits::json_max_values`] is sized with.
pub const JSON_BYTES_PER_VALUE: u64 = 80;
/// What an array counts in [`json_values`] (its first element reserves room
/// for four).
pub const JSON_ARRAY_WEIGHT: u64 = 4;
/// What an object counts in [`json_values`] (its first entry allocates a
/// B-tree node of eleven).
pub const JSON_OBJECT_WEIGHT: u64 = 12;

/// Bytes one clip key value (`[t, angle]` of a track, `[t, dx, dy]` of a
/// root translation) takes in a rig `model.json` at most: `[t,0.0,dy],`
/// with `t` and `dy` shortest-round-trip f64s of up to 24 characters each. With [`RIG_KEY_JSON_VALUES`] what [`Limits::rig_max_keys`] is
/// checked against `json-max-bytes` and `json-max-values` with, so a build
/// never writes a model `export-riv` refuses.
pub const RIG_KEY_JSON_BYTES: u64 = 56;
/// Weighted JSON values ([`json_values`]) of one clip key value: its array
/// ([`JSON_ARRAY_WEIGHT`]), up to two commas inside and one after it.
pub const RIG_KEY_JSON_VALUES: u64 = JSON_ARRAY_WEIGHT + 3;
/// How many copies of its embedded bytes an export holds at its peak (the
/// texture read, the object list, the encoded file and the read-back check):
/// what [`Limits::riv_max_embedded_bytes`] is sized with.
pub const RIV_EMBEDDED_COPIES: u64 = 4;

/// The deepest JSON nesting a limit may allow: the parsers recurse once per
/// level, and this keeps them inside an 8 MiB main-thread stack.
pub const JSON_DEPTH_CEILING: u32 = 10_000;

/// The largest `qjs-memory` (16 GiB).
pub const QJS_MEMORY_CEILING: u64 = 16 << 30;
/// The largest `qjs-stack` (256 MiB).
pub const QJS_STACK_CEILING: u64 = 256 << 20;
/// Native stack of the script thread beyond `qjs-stack`: room for the
/// native frames between two QuickJS stack checks (regexp, JSON, parser).
pub const QJS_STACK_MARGIN: u64 = 8 << 20;
/// The longest `qjs-time` (seconds; about 11.6 days).
pub const QJS_TIME_CEILING: u64 = 1_000_000;

/// The most frames `bvh-max-frames` may allow (16 Mi: a day of 120 fps
/// capture is 10.4 M frames).
pub const BVH_FRAMES_CEILING: u32 = 1 << 24;
/// The most joints `bvh-max-joints` may allow.
pub const BVH_JOINTS_CEILING: u32 = 1 << 16;
/// The most channels `bvh-max-channels` may allow (six per joint).
pub const BVH_CHANNELS_CEILING: u32 = 6 << 16;
/// The most bones `rig-max-bones` may allow: labels are one byte (1 + bone
/// index) and declared plus connector bones must fit the 255 bones of a
/// `.riv` model.
pub const RIG_BONES_CEILING: u32 = 127;
/// The longest bone name of a rig declaration (bytes): the name becomes a
/// file name (`part_<name>.png`, well under the 255 bytes of a file name) and
/// is repeated in every vertex weight of the model.
pub const RIG_NAME_MAX_BYTES: usize = 64;

impl Limits {
    /// Limits of the fuzz targets (`testkit/src/fuzz_entry.rs`, `msh::invariants`):
    /// small enough that one input stays fast under the fuzzer.
    pub const FUZZ: Limits = Limits {
        png_max_side: 256,
        png_max_bytes: 256 << 10,
        json_max_bytes: 1 << 20,
        json_max_depth: 200,
        file_max_bytes: 1 << 20,
        max_frames: 16,
        sheet_max_bytes: 16 << 20,
        qjs_memory_bytes: 64 << 20,
        qjs_stack_bytes: 256 << 10,
        nres_max_input_bytes: 1 << 20,
        nres_max_entries: 256,
        nres_max_payload_bytes: 1 << 20,
        msh_max_findings_per_code: 8,
        bvh_max_bytes: 1 << 20,
        bvh_max_frames: 4096,
        bvh_max_joints: 256,
        bvh_max_channels: 1536,
        rig_max_layers: 64,
        rig_max_layer_pixels: 1 << 20,
        ..Limits::DEFAULT
    };

    /// The documented defaults.
    pub const DEFAULT: Limits = Limits {
        png_max_side: 16384,
        png_max_bytes: 1 << 30,
        json_max_bytes: 64 << 20,
        json_max_depth: 1000,
        json_max_values: 8 << 20,
        file_max_bytes: 1 << 30,
        max_frames: 10_000,
        sheet_max_bytes: 1 << 30,
        qjs_memory_bytes: 1 << 30,
        qjs_stack_bytes: 4 << 20,
        qjs_time_secs: 300,
        nres_max_input_bytes: 256 << 20,
        nres_max_entries: 65_536,
        nres_max_payload_bytes: 256 << 20,
        msh_max_findings_per_code: 100,
        riv_max_objects: 1 << 24,
        bvh_max_bytes: 64 << 20,
        bvh_max_frames: 1_000_000,
        bvh_max_joints: 1024,
        bvh_max_channels: 6144,
        export_max_bytes: 1 << 30,
        riv_max_findings: 1000,
        rig_max_bones: 64,
        rig_max_pixels: 24 << 20,
        rig_max_tube_work: 1 << 28,
        rig_max_layers: 1024,
        rig_max_layer_pixels: 64 << 20,
        bvh_max_work: 1 << 27,
        edit_max_body: 1 << 20,
        rig_max_keys: 1 << 20,
        riv_max_embedded_bytes: 256 << 20,
    };

    /// Every limit: option name, meaning, default (as documented in the
    /// table of docs/limits.md, between the `limits:begin`/`limits:end` markers).
    pub const TABLE: &'static [(&'static str, &'static str, &'static str)] = &[
        (
            "png-max-side",
            "largest PNG width or height decoded (pixels)",
            "16384",
        ),
        (
            "png-max-bytes",
            "largest decoded PNG (RGBA8 bytes, checked from the header before decoding)",
            "1G",
        ),
        (
            "json-max-bytes",
            "largest JSON, script or text file read (bytes)",
            "64M",
        ),
        (
            "json-max-depth",
            "deepest JSON nesting of arrays and objects (at most 10000)",
            "1000",
        ),
        (
            "json-max-values",
            "most values in one JSON document (a number, string or key 1, an array 4, an object 12; about 80 bytes each once parsed)",
            "8M",
        ),
        (
            "file-max-bytes",
            "largest PNG or other binary input file read (bytes)",
            "1G",
        ),
        (
            "max-frames",
            "most frames one `re2d render` produces",
            "10000",
        ),
        (
            "sheet-max-bytes",
            "largest total of frames `re2d render` holds for --sheet/--apng/--gif/--fit (frames x frame bytes)",
            "1G",
        ),
        (
            "qjs-memory",
            "QuickJS heap plus native buffers of `re2d-qjs` (bytes; also `--memory-limit`; at most 16G)",
            "1G",
        ),
        (
            "qjs-stack",
            "QuickJS stack of `re2d-qjs` (bytes; also `--stack-size`; at most 256M)",
            "4M",
        ),
        (
            "qjs-time",
            "wall-clock seconds one `re2d-qjs` run may take (also `--time-limit`; 0 = none; at most 1000000)",
            "300",
        ),
        (
            "nres-max-input",
            "largest NRes/MSH archive decoded (bytes)",
            "256M",
        ),
        (
            "nres-max-entries",
            "most NRes directory entries accepted",
            "65536",
        ),
        (
            "nres-max-payload",
            "largest single NRes payload (bytes)",
            "256M",
        ),
        (
            "msh-max-findings",
            "findings of one check code listed by `re2d msh validate` (the rest are counted)",
            "100",
        ),
        (
            "riv-max-objects",
            "most object records the `.riv` reader accepts",
            "16M",
        ),
        (
            "bvh-max-bytes",
            "largest BVH motion-capture file read (bytes)",
            "64M",
        ),
        (
            "bvh-max-frames",
            "most frames a BVH may declare, refused before the motion is allocated (at most 16M)",
            "1000000",
        ),
        (
            "bvh-max-joints",
            "most joints in a BVH hierarchy (End Sites not counted; at most 65536)",
            "1024",
        ),
        (
            "bvh-max-channels",
            "most channels in one BVH frame, all joints together (at most 393216)",
            "6144",
        ),
        (
            "export-max-bytes",
            "largest file `re2d msh export` writes (OBJ or glTF; refused before the export when the size is known)",
            "1G",
        ),
        (
            "riv-max-findings",
            "most problems `re2d riv check` lists (the rest are counted in one summary line)",
            "1000",
        ),
        (
            "rig-max-bones",
            "most bones in a rig skeleton declaration (at most 127)",
            "64",
        ),
        (
            "rig-max-pixels",
            "largest drawing `re2d rig` processes (pixels; about 41 bytes of memory each)",
            "24M",
        ),
        (
            "rig-max-tube-work",
            "most tube work of a rig declaration: sum over bones of segments x tube box pixels",
            "256M",
        ),
        (
            "bvh-max-work",
            "most BVH work: frames x joints (forward kinematics of every joint on every frame)",
            "128M",
        ),
        (
            "edit-max-body",
            "largest request body `re2d rig edit` reads (bytes, from Content-Length before reading)",
            "1M",
        ),
        (
            "rig-max-keys",
            "most clip key values of one rig build: the sum over motions of keys x animated tracks, charged at each BVH's Frame Time line",
            "1M",
        ),
        (
            "riv-max-embedded",
            "largest total of bytes (texture PNGs) embedded in one .riv, checked from the file sizes before reading",
            "256M",
        ),
        (
            "rig-max-layers",
            "most layers in a layered drawing (.ora, .psd), groups and hidden layers included",
            "1024",
        ),
        (
            "rig-max-layer-pixels",
            "most layer pixels of a layered drawing: sum of its visible layers' rectangles (4 bytes each)",
            "64M",
        ),
    ];

    /// The largest value each limit accepts (`--limit` refuses more): what
    /// the formats can address or a 2 GiB address space can hold.
    pub const MAXIMA: &'static [(&'static str, u64)] = &[
        ("png-max-side", i32::MAX as u64),
        ("png-max-bytes", 4 << 30),
        ("json-max-bytes", 1 << 30),
        ("json-max-depth", JSON_DEPTH_CEILING as u64),
        ("json-max-values", 1 << 30),
        ("file-max-bytes", 4 << 30),
        ("max-frames", 1 << 20),
        ("sheet-max-bytes", 4 << 30),
        ("qjs-memory", QJS_MEMORY_CEILING),
        ("qjs-stack", QJS_STACK_CEILING),
        ("qjs-time", QJS_TIME_CEILING),
        ("nres-max-input", 4 << 30),
        ("nres-max-entries", 1 << 20),
        ("nres-max-payload", 4 << 30),
        ("msh-max-findings", 100_000),
        ("riv-max-objects", 1 << 24),
        ("bvh-max-bytes", 1 << 30),
        ("bvh-max-frames", BVH_FRAMES_CEILING as u64),
        ("bvh-max-joints", BVH_JOINTS_CEILING as u64),
        ("bvh-max-channels", BVH_CHANNELS_CEILING as u64),
        ("export-max-bytes", 4 << 30),
        ("riv-max-findings", 1_000_000),
        ("rig-max-bones", RIG_BONES_CEILING as u64),
        ("rig-max-pixels", 1 << 28),
        ("rig-max-tube-work", 1 << 40),
        ("bvh-max-work", 1 << 40),
        ("edit-max-body", 1 << 30),
        ("rig-max-keys", 1 << 24),
        ("riv-max-embedded", 1 << 30),
        ("rig-max-layers", 1 << 20),
        ("rig-max-layer-pixels", 1 << 30),
    ];

    /// The largest value limit `name` accepts, or `None` for an unknown name.
    pub fn maximum(name: &str) -> Option<u64> {
        Self::MAXIMA.iter().find(|r| r.0 == name).map(|r| r.1)
    }

    /// Sets the limit called `name` (a [`Limits::TABLE`] name) from `value`
    /// (an integer with an optional `k`/`M`/`G` suffix).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let v = parse_size(value).ok_or_else(|| {
            format!("limit {name}: '{value}' is not a size (an integer, optional k/M/G)")
        })?;
        let Some(max) = Self::maximum(name) else {
            let names: Vec<&str> = Self::TABLE.iter().map(|r| r.0).collect();
            return Err(format!(
                "unknown limit '{name}' (limits: {})",
                names.join(", ")
            ));
        };
        // qjs-time 0 means "no time limit"; every other limit is at least 1
        let min = u64::from(name != "qjs-time");
        if v < min || v > max {
            return Err(format!("limit {name}: {v} is not in {min}..={max}"));
        }
        let small = || v as u32;
        let big = || v;
        match name {
            "png-max-side" => self.png_max_side = small(),
            "png-max-bytes" => self.png_max_bytes = big(),
            "json-max-bytes" => self.json_max_bytes = big(),
            "json-max-depth" => self.json_max_depth = small(),
            "json-max-values" => self.json_max_values = big(),
            "file-max-bytes" => self.file_max_bytes = big(),
            "max-frames" => self.max_frames = small(),
            "sheet-max-bytes" => self.sheet_max_bytes = big(),
            "qjs-memory" => self.qjs_memory_bytes = big(),
            "qjs-stack" => self.qjs_stack_bytes = big(),
            "qjs-time" => self.qjs_time_secs = big(),
            "nres-max-input" => self.nres_max_input_bytes = big(),
            "nres-max-entries" => self.nres_max_entries = small(),
            "nres-max-payload" => self.nres_max_payload_bytes = big(),
            "msh-max-findings" => self.msh_max_findings_per_code = small(),
            "riv-max-objects" => self.riv_max_objects = big(),
            "bvh-max-bytes" => self.bvh_max_bytes = big(),
            "bvh-max-frames" => self.bvh_max_frames = small(),
            "bvh-max-joints" => self.bvh_max_joints = small(),
            "bvh-max-channels" => self.bvh_max_channels = small(),
            "export-max-bytes" => self.export_max_bytes = big(),
            "riv-max-findings" => self.riv_max_findings = small(),
            "rig-max-bones" => self.rig_max_bones = small(),
            "rig-max-pixels" => self.rig_max_pixels = big(),
            "rig-max-tube-work" => self.rig_max_tube_work = big(),
            "bvh-max-work" => self.bvh_max_work = big(),
            "edit-max-body" => self.edit_max_body = big(),
            "rig-max-keys" => self.rig_max_keys = big(),
            "riv-max-embedded" => self.riv_max_embedded_bytes = big(),
            "rig-max-layers" => self.rig_max_layers = small(),
            "rig-max-layer-pixels" => self.rig_max_layer_pixels = big(),
            _ => {
                let names: Vec<&str> = Self::TABLE.iter().map(|r| r.0).collect();
                return Err(format!(
                    "unknown limit '{name}' (limits: {})",
                    names.join(", ")
                ));
            }
        }
        Ok(())
    }

    /// Applies one `NAME=VALUE` setting.
    pub fn set_pair(&mut self, pair: &str) -> Result<(), String> {
        let (n, v) = pair
            .split_once('=')
            .ok_or_else(|| format!("'{pair}' is not NAME=VALUE"))?;
        self.set(n.trim(), v.trim())
    }

    /// The process-wide limits (the defaults unless [`Limits::set_current`]
    /// changed them).
    pub fn current() -> Limits {
        *CURRENT.read().unwrap_or_else(|e| e.into_inner())
    }

    /// Replaces the process-wide limits.
    pub fn set_current(l: Limits) {
        *CURRENT.write().unwrap_or_else(|e| e.into_inner()) = l;
    }

    /// Checks a `w × h` image of `bpp` bytes per pixel against the PNG
    /// limits (side, then bytes).
    pub fn check_image(&self, w: u32, h: u32, bpp: u64) -> Result<(), LimitError> {
        let side = w.max(h);
        if side > self.png_max_side {
            return Err(LimitError::new(
                "png-max-side",
                format!(
                    "image is {w}x{h}, larger than {} pixels a side",
                    self.png_max_side
                ),
            ));
        }
        let bytes = w as u64 * h as u64 * bpp;
        if bytes > self.png_max_bytes {
            return Err(LimitError::new(
                "png-max-bytes",
                format!(
                    "a {w}x{h} image needs {bytes} bytes, more than {}",
                    self.png_max_bytes
                ),
            ));
        }
        Ok(())
    }

    /// Checks the nesting depth of a JSON text (arrays and objects, strings
    /// skipped) and its weighted number of values (`json-max-values`, see
    /// [`json_values`]) without parsing it: a cheap pre-pass before any
    /// parser recurses or builds a tree.
    pub fn check_json_depth(&self, text: &[u8]) -> Result<(), LimitError> {
        let max = self.json_max_depth.min(JSON_DEPTH_CEILING) as usize;
        let values = json_scan(text, max).ok_or_else(|| {
            LimitError::new(
                "json-max-depth",
                format!("JSON nesting is deeper than {max} levels"),
            )
        })?;
        if values > self.json_max_values {
            return Err(LimitError::new(
                "json-max-values",
                format!(
                    "the JSON counts {values} values or more (arrays {JSON_ARRAY_WEIGHT}, objects {JSON_OBJECT_WEIGHT}), more than {} (about {JSON_BYTES_PER_VALUE} bytes each once parsed)",
                    self.json_max_values
                ),
            ));
        }
        Ok(())
    }
}

/// The weighted number of values of a JSON text as
/// [`Limits::check_json_depth`] counts them (outside strings: one plus one
/// per comma and colon, [`JSON_ARRAY_WEIGHT`] per `[`,
/// [`JSON_OBJECT_WEIGHT`] per `{`): a tree parsed from it holds up to that
/// many times [`JSON_BYTES_PER_VALUE`] bytes.
pub fn json_values(text: &[u8]) -> u64 {
    json_scan(text, usize::MAX).unwrap_or(u64::MAX)
}

/// One pass over a JSON text outside its strings: the weighted number of
/// values ([`json_values`]), or `None` as soon as arrays and objects nest
/// deeper than `max_depth`.
fn json_scan(text: &[u8], max_depth: usize) -> Option<u64> {
    let (mut depth, mut in_str, mut esc) = (0usize, false, false);
    let mut values = 1u64;
    for &b in text {
        if in_str {
            if esc {
                esc = false;
            } else if b == b'\\' {
                esc = true;
            } else if b == b'"' {
                in_str = false;
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b',' | b':' => values += 1,
            b'[' | b'{' => {
                values += if b == b'[' {
                    JSON_ARRAY_WEIGHT
                } else {
                    JSON_OBJECT_WEIGHT
                };
                depth += 1;
                if depth > max_depth {
                    return None;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Some(values)
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

static CURRENT: RwLock<Limits> = RwLock::new(Limits::DEFAULT);

/// Parses `123`, `64k`, `16M`, `1G` (binary multiples; `K`, `m`, `g` too).
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, mul) = match s.chars().last()? {
        'k' | 'K' => (&s[..s.len() - 1], 1u64 << 10),
        'm' | 'M' => (&s[..s.len() - 1], 1 << 20),
        'g' | 'G' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    num.parse::<u64>().ok()?.checked_mul(mul)
}

/// A limit was exceeded: which one (its [`Limits::TABLE`] name) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LimitError {
    /// The limit's option name, e.g. `png-max-side`.
    pub limit: &'static str,
    /// What exceeded it.
    pub msg: String,
}

impl LimitError {
    /// A new error for `limit`.
    pub fn new(limit: &'static str, msg: impl Into<String>) -> Self {
        LimitError {
            limit,
            msg: msg.into(),
        }
    }
}

impl std::fmt::Display for LimitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (limit {}, see --limit)", self.msg, self.limit)
    }
}

impl std::error::Error for LimitError {}

/// Why an input file was not read.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be opened or read (CLI exit code 3).
    Io(std::io::Error),
    /// The file is larger than the limit (CLI exit code 1).
    TooLarge(LimitError),
}

impl ReadError {
    /// The CLI exit code: 3 for I/O, 1 for a refused input.
    pub fn exit_code(&self) -> i32 {
        match self {
            ReadError::Io(_) => 3,
            ReadError::TooLarge(_) => 1,
        }
    }
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "cannot read: {e}"),
            ReadError::TooLarge(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads a whole file, refusing more than `max` bytes (the limit named
/// `limit`) without ever holding more than `max + 1` bytes: works for
/// endless inputs (`/dev/zero`) and FIFOs. A directory is an I/O error.
pub fn read_file(path: &Path, max: u64, limit: &'static str) -> Result<Vec<u8>, ReadError> {
    let f = std::fs::File::open(path).map_err(ReadError::Io)?;
    let meta = f.metadata().map_err(ReadError::Io)?;
    if meta.is_dir() {
        return Err(ReadError::Io(std::io::Error::other("is a directory")));
    }
    let too_large = || {
        ReadError::TooLarge(LimitError::new(
            limit,
            format!("input is larger than {max} bytes"),
        ))
    };
    if meta.is_file() && meta.len() > max {
        return Err(too_large());
    }
    let hint = if meta.is_file() {
        meta.len().min(max) as usize
    } else {
        0
    };
    // Grown by hand, never past `max + 1` bytes (read_to_end doubles the
    // capacity, which for an endless input reserves twice the limit).
    // `buf` is zero-filled as it grows; `used` bytes of it hold the input.
    let cap = max.saturating_add(1).min(usize::MAX as u64) as usize;
    let oom = || ReadError::Io(std::io::Error::from(std::io::ErrorKind::OutOfMemory));
    let mut buf: Vec<u8> = Vec::new();
    let first = hint.saturating_add(1).min(cap);
    buf.try_reserve_exact(first).map_err(|_| oom())?;
    buf.resize(first, 0);
    let mut used = 0usize;
    let mut f = f;
    loop {
        if used == buf.len() {
            if used >= cap {
                break;
            }
            let grow = used.max(64 << 10).min(cap - used);
            buf.try_reserve_exact(grow).map_err(|_| oom())?;
            buf.resize(used + grow, 0);
        }
        match f.read(&mut buf[used..]) {
            Ok(0) => break,
            Ok(n) => used += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ReadError::Io(e)),
        }
        if used as u64 > max {
            return Err(too_large());
        }
    }
    if used as u64 > max {
        return Err(too_large());
    }
    buf.truncate(used);
    Ok(buf)
}

/// [`read_file`] with the JSON size limit of the current limits, then the
/// depth pre-check.
pub fn read_json_file(path: &Path) -> Result<Vec<u8>, ReadError> {
    let l = Limits::current();
    let bytes = read_file(path, l.json_max_bytes, "json-max-bytes")?;
    l.check_json_depth(&bytes).map_err(ReadError::TooLarge)?;
    Ok(bytes)
}

/// [`read_file`] with the JSON/text limit of the current limits (scripts,
/// text files), without the depth check.
pub fn read_text_file(path: &Path) -> Result<Vec<u8>, ReadError> {
    read_file(path, Limits::current().json_max_bytes, "json-max-bytes")
}

/// [`read_file`] with the binary file limit of the current limits.
pub fn read_binary_file(path: &Path) -> Result<Vec<u8>, ReadError> {
    read_file(path, Limits::current().file_max_bytes, "file-max-bytes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_names() {
        assert_eq!(parse_size("64k"), Some(65536));
        assert_eq!(parse_size("2M"), Some(2 << 20));
        assert_eq!(parse_size("1G"), Some(1 << 30));
        assert_eq!(parse_size("12"), Some(12));
        assert_eq!(parse_size("-1"), None);
        assert_eq!(parse_size("1.5M"), None);
        assert_eq!(parse_size("99999999999999999999"), None);
        assert_eq!(parse_size("k"), None);
        let mut l = Limits::DEFAULT;
        l.set_pair("png-max-side=100").unwrap();
        assert_eq!(l.png_max_side, 100);
        assert!(l.set_pair("png-max-side=0").is_err());
        assert!(l.set_pair("json-max-depth=10001").is_err());
        assert!(l.set_pair("qjs-stack=257M").is_err());
        assert!(l.set_pair("qjs-stack=256M").is_ok());
        assert!(l.set_pair("qjs-memory=17G").is_err());
        assert!(l.set_pair("qjs-memory=0").is_err());
        assert!(l.set_pair("qjs-time=1000001").is_err());
        l.set_pair("qjs-time=0").unwrap();
        assert_eq!(l.qjs_time_secs, 0);
        // a script runs under a time limit unless asked otherwise (issue 45)
        const { assert!(Limits::DEFAULT.qjs_time_secs > 0) };
        assert!(l.set_pair("nope=1").unwrap_err().contains("png-max-side"));
        // every table name is settable, up to its maximum and no further
        assert_eq!(Limits::TABLE.len(), Limits::MAXIMA.len());
        for (n, _, d) in Limits::TABLE {
            let mut l = Limits::DEFAULT;
            l.set(n, d).unwrap();
            assert_eq!(l, Limits::DEFAULT, "{n}: the documented default");
            let max = Limits::maximum(n).expect("a maximum for every limit");
            assert!(parse_size(d).unwrap() <= max, "{n}: default above maximum");
            l.set(n, &max.to_string()).unwrap();
            assert!(l.set(n, &(max + 1).to_string()).is_err(), "{n}");
        }
        assert!(l.set_pair("msh-max-findings=4294967295").is_err());
    }

    #[test]
    fn json_depth_prepass() {
        let l = Limits {
            json_max_depth: 3,
            ..Limits::DEFAULT
        };
        assert!(l.check_json_depth(b"[[[1]]]").is_ok());
        assert!(l.check_json_depth(b"[[[[1]]]]").is_err());
        assert!(l.check_json_depth(br#"[["[[[[\"["]]"#).is_ok());
        assert!(l.check_json_depth(b"[{},{},[{}]]").is_ok());
    }

    #[test]
    fn json_values_are_weighted_by_what_they_hold() {
        assert_eq!(json_values(b"0"), 1);
        assert_eq!(json_values(b"[0,1,2]"), 3 + JSON_ARRAY_WEIGHT);
        assert_eq!(json_values(br#"{"a":"[,:{"}"#), 2 + JSON_OBJECT_WEIGHT);
        let l = Limits {
            json_max_values: 3 + JSON_ARRAY_WEIGHT,
            ..Limits::DEFAULT
        };
        assert!(l.check_json_depth(b"[0,1,2]").is_ok());
        let e = l.check_json_depth(b"[0,1,2,3]").unwrap_err();
        assert_eq!(e.limit, "json-max-values");
        assert!(l.check_json_depth(b"[[0],[1]]").is_err());
    }

    #[test]
    fn image_limits() {
        let l = Limits::DEFAULT;
        assert!(l.check_image(16384, 16384, 4).is_ok());
        assert_eq!(
            l.check_image(16385, 1, 4).unwrap_err().limit,
            "png-max-side"
        );
        let small = Limits {
            png_max_bytes: 100,
            ..l
        };
        assert_eq!(
            small.check_image(5, 6, 4).unwrap_err().limit,
            "png-max-bytes"
        );
        assert!(small.check_image(5, 5, 4).is_ok());
    }
}
