//! The page's files, embedded: `page/index.html` and the small ES modules and style sheet it
//! loads (no framework). Served under `/TOKEN/` only.

use crate::http::Response;

/// Every file but the page itself: name, `Content-Type`, text.
pub const ASSETS: &[(&str, &str, &str)] = &[
    (
        "edit.css",
        "text/css; charset=utf-8",
        include_str!("../page/edit.css"),
    ),
    (
        "main.js",
        "text/javascript; charset=utf-8",
        include_str!("../page/main.js"),
    ),
    (
        "model.js",
        "text/javascript; charset=utf-8",
        include_str!("../page/model.js"),
    ),
    (
        "draw.js",
        "text/javascript; charset=utf-8",
        include_str!("../page/draw.js"),
    ),
];

/// The page, with its `Content-Security-Policy`.
pub fn index() -> Response {
    let mut r = Response::new(
        200,
        "text/html; charset=utf-8",
        include_str!("../page/index.html").as_bytes().to_vec(),
    );
    r.csp = true;
    r
}

/// File `i` of [`ASSETS`].
pub fn asset(i: usize) -> Response {
    match ASSETS.get(i) {
        Some((_, ct, text)) => Response::new(200, ct, text.as_bytes().to_vec()),
        None => Response::error(404, "not found"),
    }
}
