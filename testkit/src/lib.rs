//! re2d-testkit — the generated test data of the re2d workspace (dev-only, `publish = false`).
//!
//! The core crate `re2d` is what C, Rust and JS users link; the generators of test data live
//! here, outside its API. This crate is a dev-dependency of the core, the CLI and the QuickJS
//! host and the dependency of the examples, benches and fuzz targets; nothing a user builds
//! depends on it (`cargo tree -p re2d -e normal` does not show it). Every generator is
//! deterministic: the committed files it feeds (golden images, frame hashes, `tests/riv/fixtures`,
//! the rig characters, the fuzz corpora) are byte-identical to what it makes.
//!
//! | module | makes | used by |
//! |---|---|---|
//! | [`atlas`] | the dense 1024²/2048² v2 atlas, the walking and turning model poses | `tests/frames.rs` (frame hashes), `tests/sprite.rs`, `tests/decode.rs` (row walk), the core's doc examples, `benches/core.rs`, `benches/png.rs`, `examples/demo.rs` (`make demo`), `examples/bench_atlases.rs`, [`fuzz_entry`] |
//! | [`surface`] | the dense humanoid-size surface JSON | `tests/surface.rs`, `benches/compile.rs`, `examples/dense_fixture.rs` |
//! | [`riv`] | the `.riv` test characters (walk, arm, mocap) and their textures | `tests/riv.rs`, `tests/riv_translate.rs`, `examples/riv_fixtures.rs` (writes `tests/riv/fixtures`), `examples/hostile_inputs.rs` |
//! | [`msh`] | "valid but huge" MSH models (many batches on one index range, huge frame counts) | `cli/tests/bounded_cli.rs`, `examples/hostile_inputs.rs` (`make hostile-test`) |
//! | [`drawings`] | painted rig test characters (biped, quadruped, layered girl/coat/skirt) on a chroma key with their skeleton declarations and ground-truth labels | `tests/rig_stages.rs`, its own tests (`drawings::tests`), `cli/tests/rig_cli.rs`, `examples/rig_drawings.rs` (`make test-rig`, `test-motion`, `test-browser`, `test-mesh-load`, `demo-riv`, `bench-rig`), `examples/hostile_inputs.rs` |
//! | [`fuzz_entry`] | the entry points of the fuzz targets | `fuzz/fuzz_targets/*`, `tests/fuzz_corpus.rs` (corpus replay) |
//!
//! Only integration tests (`tests/*.rs`), doc tests, examples and benches can use this crate:
//! a unit test inside the core would link the core twice (once as the test, once through this
//! crate) and its `#[no_mangle]` C functions would be defined twice. The generators therefore
//! use only the core's public API.
#![warn(missing_docs)]
// The generators mirror the core's numeric style (index loops, explicit range tests).
#![allow(
    clippy::needless_range_loop,
    clippy::manual_range_contains,
    clippy::implicit_saturating_sub,
    clippy::manual_checked_ops
)]

pub mod atlas;
pub mod drawings;
pub mod fuzz_entry;
pub mod msh;
pub mod riv;
pub mod surface;
