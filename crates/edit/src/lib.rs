// re2d rig edit — place a skeleton declaration on its drawing with the mouse, see the parts it cuts, save it (issue 44; docs/edit.md).
//! `re2d rig edit`: a local web page over the rig pipeline.
//!
//! | file | does |
//! |---|---|
//! | `session.rs` | what an edit opens: the declaration or the drawing alone, the drawing's pixels, the silhouette and ink the previews reuse |
//! | `start.rs` | the starting declaration of a drawing alone: a default skeleton in the figure's box (the one function `rig guess` replaces) |
//! | `http.rs` | the HTTP/1.1 wire: a bounded request head (`httparse`), `Content-Length` bodies, responses |
//! | `guard.rs` | the checks of every request head: Host, token, Origin, route, method, type, body size |
//! | `api.rs` | what each route answers: the page, the drawing, the session, preview, save, build |
//! | `queue.rs` | the previews, newest first, on one worker thread |
//! | `format.rs` | how a saved declaration is written (one bone per line, every field kept) |
//! | `page.rs` | the page's files (`page/*.html|css|js`, embedded) |
//! | `server.rs` | the listener (127.0.0.1 only), connections, the page's liveness, opening the browser |
//!
//! Imports run down the table's order of use: `server` → `guard`/`http` → `api` → `queue`,
//! `session` → `start`; the rig crate does the work (`re2d_rig::cut::preview`, `build`).

pub mod api;
pub mod format;
pub mod guard;
pub mod http;
pub mod page;
pub mod queue;
pub mod server;
pub mod session;
pub mod start;

pub use server::{Options, Server, Stopped};
