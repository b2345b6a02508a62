//! re2d — runtime and toolchain for pseudo-3D 2D characters.
//!
//! Three faces over one safe core:
//! - a C-ABI drop-in for the engine's `rotsprite_math.h` (`ffi`, built as
//!   `libre2d.a` / `libre2d.so`, header in `include/`), bit-identical to the
//!   existing C library;
//! - a Rust API ([`rotsprite`], [`math`]);
//! - the command-line tool (`cli/`, binary `re2d`) and the QuickJS host (`qjs/`,
//!   binary `re2d-qjs`) are separate crates of this workspace over this one.
//!
//! The behaviour is documented in `docs/` and the README.
#![warn(missing_docs)]
// The numeric code mirrors the spec's formulas literally (index loops, explicit
// range tests, explicit division guards), which is what bit-exactness is
// reviewed against; these style lints would rewrite that shape.
#![allow(
    clippy::needless_range_loop,
    clippy::manual_range_contains,
    clippy::implicit_saturating_sub,
    clippy::manual_checked_ops
)]

pub mod character;
pub mod limits;
pub mod math;
pub mod mesh;
pub mod model;
pub mod png_io;
pub mod rotsprite;
pub mod sprite;

mod ffi;
