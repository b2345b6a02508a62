//! What re2d writes: the one publishing path, the PNG encoder, animations.
//!
//! | module | does |
//! |---|---|
//! | [`publish`] | the one publishing path of every command: atomic writes (a temporary file renamed into place), clash checks against the inputs, whole folders, `--root` targets |
//! | [`png_encode`] | the compact, deterministic RGBA8 PNG encoder behind every still PNG |
//! | [`anim`] | rendered frames → sprite sheets, APNG, GIF, `--fit` crops |
//!
//! The runtime (`re2d`) only reads PNGs; the tools, the QuickJS host and the demos write through
//! this crate.
#![warn(missing_docs)]
#![allow(
    clippy::needless_range_loop,
    clippy::manual_range_contains,
    clippy::implicit_saturating_sub,
    clippy::manual_checked_ops
)]

pub mod anim;
pub mod png_encode;
pub mod publish;
