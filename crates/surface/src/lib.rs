// re2d surface compiler — surface JSON → v2 atlas PNG (spec: surface-compiler.md).
//! Compiles a surface description (sampled points, bilinear grids, lofted
//! sections) into the pseudo-3D atlas PNG the runtime decodes.
//!
//! | file | does | spec |
//! |---|---|---|
//! | `json.rs` | JSON reader keeping integer/float literals, ±∞ overflow, legacy tokens | §5.1, §6.8.2 |
//! | `model.rs` | typed [`Surface`], the default-mode structural pass, JSON writer | §5 |
//! | `compile.rs` | working image, cell generation, per-cell processing, header, upscale | §6.2–§6.6 |
//! | `encode.rs` | SUB / legacy quantisation, ranges, the blend band of §7 | §3, §7 |
//! | `legacy.rs` | `--legacy` lazy acceptance rules | §6.8 |
//! | `material.rs` | material PNG → canonical RGBA, nearest resample | §6.2, §6.8.4 |
//! | `publish.rs` | deterministic PNG encoding and atomic publish | §2.4, §8 |
//! | `build.rs` | build files: a list of compile jobs | §9.3 |
//! | `inspect.rs` | atlas summary through the runtime decoder (`re2d atlas inspect`) | §9.2 |
//! | `error.rs` | `E_*` codes | §5.8 |
//!
//! Typical use: [`compile`] (JSON bytes + optional
//! material PNG + [`Options`]) →
//! [`Atlas`] (RGBA pixels) →
//! [`encode_png`] →
//! [`publish`].
//!
//! ```
//! use re2d_surface::{Options, compile, decode_rgba8, encode_png};
//!
//! // One 2×2-sample grid patch of part 80 covering 8×8 material texels.
//! let json = br#"{"version": 1, "patches": [{"type": "grid", "id": 80, "rect": [0, 0, 8, 8],
//!     "points": [[[0, 0, 0], [2, 0, 0]], [[0, 2, 0], [2, 2, 0]]]}]}"#;
//! let atlas = compile(json, None, &Options::default())?;
//! assert_eq!((atlas.size, atlas.cells), (1024, 4));
//! let texel = |x: usize, y: usize| &atlas.rgba[(y * 1024 + x) * 4..][..4];
//! assert_eq!(texel(0, 960), [82, 50, 68, 255]); // header "R2D"
//! assert_eq!(texel(0, 768), [80, 80, 0, 255]); // ID map: part 80 (group 80)
//!
//! let png = encode_png(&atlas.rgba, atlas.size)?; // compact and deterministic
//! assert_eq!(decode_rgba8(&png)?.rgba, atlas.rgba);
//!
//! // errors carry an E_* code (and the CLI exit code)
//! let err = compile(br#"{"version": 2}"#, None, &Options::default()).unwrap_err();
//! assert_eq!(err.code.exit_code(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]
#![allow(
    clippy::needless_range_loop,
    clippy::manual_range_contains,
    clippy::implicit_saturating_sub,
    clippy::manual_checked_ops
)]

pub mod build;
mod compile;
mod encode;
mod error;
pub mod inspect;
pub mod json;
mod legacy;
mod material;
mod model;
mod publish;

pub use build::{BuildJob, parse_build, parse_segment_width};
pub use compile::{
    Atlas, CANON, Options, SIZES, SectionPick, apply_matrix, apply_rules, compile, compile_surface,
    grid_eval, loft_eval, section_pick, upscale,
};
pub use encode::{MAX, MIN, Profile, SCALE, Split, decode_xyz, legacy_byte, quantize, split};
pub use error::{Code, CompileError};
pub use model::{DEFAULT_COLOR, IDENTITY, Patch, Rect, Rule, Sample, Shape, Surface, fmt_num};
pub use publish::{Rgba8, decode_rgba8, decode_rgba8_limited, encode_png, publish};
