//! re2d QuickJS host (the `re2d-qjs` crate): built-in ES modules, the native `mesh`
//! adapter and a default CPU `engine`.
//!
//! | file | role | spec |
//! |---|---|---|
//! | [`modules`] | the built-in module table (aliases), resolver and loader | issue 3 §2 |
//! | [`model`] | native modules `re2d/native/rotsprite` (validation) and `re2d/native/host` | js-rotsprite.md §3 |
//! | [`sprite`] | `engine.rotSprite*` natives over `re2d::sprite`, host sprites | js-rotsprite.md §10 |
//! | [`mesh`] | native module `re2d/native/mesh` behind `js/mesh.js` | js-mesh.md §3, §4, §7, §8.4 |
//! | [`riv`] | native module `re2d/native/riv` behind `$.mesh.exportRiv` and `$.mesh.load` (`js/meshload.js`) | rive-export.md §7–§9, issue 30 |
//! | [`buffers`] | the one audited typed-array access | — |
//! | [`pure`] | side-effect-free reads of live JS values for the one-pass mesh loops | js-mesh.md §7, §8.4 |
//! | [`raster`] | CPU triangle rasteriser with depth test | js-mesh.md §8.4 (`submitMesh`) |
//! | [`engine`] | default `globalThis.engine` over [`raster`] | issue 3 §5 |
//! | [`errors`] | natives' errors thrown with their whole message (QuickJS cuts its own at 256 bytes) | — |
//! | [`guard`] | per-run limits: time limit, native memory share, `--root`, script inputs | issue 20 |
//! | [`host`] | running a file as the `re2d-qjs` CLI does (timers included) | issue 3 §1 |
//! | [`fuzz`] | the `js` fuzz target's driver (generated calls, hostile values) | — |
//! | [`sys`] | `re2d/native/sys` behind the qjs-compatible `std` and `os` modules | — |

pub mod buffers;
pub mod engine;
pub mod errors;
pub mod fuzz;
pub mod guard;
pub mod host;
pub mod mesh;
pub mod model;
pub mod modules;
pub mod pure;
pub mod raster;
pub mod riv;
pub mod sprite;
pub mod sys;

#[cfg(test)]
mod rotsprite_tests;
