//! Who may ask what: every request head is checked here before its body is read.
//!
//! In this order (the first failing check answers; nothing is read, computed or written):
//!
//! | check | refusal |
//! |---|---|
//! | exactly one `Host`, and it is `127.0.0.1:PORT` or `localhost:PORT` (a page of another site whose name was pointed at 127.0.0.1 — DNS rebinding — sends its own name) | 421 |
//! | the path starts with `/TOKEN/` (the random token of the printed URL; compared in constant time) | 403 |
//! | an `Origin`, when sent, is `http://127.0.0.1:PORT` or `http://localhost:PORT` (a page of another origin; `null` too) | 403 |
//! | a `Sec-Fetch-Site`, when sent, is `same-origin` or `none` | 403 |
//! | the rest of the path is one of the [`Route`]s (no other file is ever served: no path reaches the file system) | 404 |
//! | its method (`GET`, or `POST` for the three actions; no `OPTIONS`: no CORS preflight succeeds) | 405 |
//! | a `GET` has no body | 400 |
//! | a `POST` has `Content-Type: application/json` (what a cross-origin form or beacon cannot send without a preflight) | 415 |
//! | no `Transfer-Encoding` (bodies are `Content-Length` only) | 501 |
//! | a `POST` has one `Content-Length`, digits only | 411 / 400 |
//! | the length is at most `edit-max-body` (limits table) | 413 |
//!
//! No response carries `Access-Control-Allow-Origin`: a script of another origin can neither read
//! an answer nor send a JSON body.

use crate::http::{Head, Response};

/// What a request asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// The page (`/TOKEN/`).
    Page,
    /// One of the page's files ([`crate::page::ASSETS`] index).
    Asset(usize),
    /// The keyed drawing's pixels (the silhouette: background transparent), RGBA8
    /// (`/TOKEN/silhouette.rgba`).
    Silhouette,
    /// The declaration and what the page needs to edit it (`/TOKEN/api/session`).
    Session,
    /// Cut the parts of a declaration (`POST /TOKEN/api/preview`).
    Preview,
    /// Write the declaration (`POST /TOKEN/api/save`).
    Save,
    /// Run the whole build (`POST /TOKEN/api/build`).
    Build,
    /// The last build's contact sheet (`/TOKEN/build/sheet.png`).
    Sheet,
    /// The page's open stream: while one is open the server runs (`/TOKEN/api/events`).
    Events,
}

impl Route {
    /// The route of `rest` (the path after `/TOKEN`).
    pub fn of(rest: &str) -> Option<Route> {
        Some(match rest {
            "/" => Route::Page,
            "/silhouette.rgba" => Route::Silhouette,
            "/api/session" => Route::Session,
            "/api/preview" => Route::Preview,
            "/api/save" => Route::Save,
            "/api/build" => Route::Build,
            "/build/sheet.png" => Route::Sheet,
            "/api/events" => Route::Events,
            _ => {
                let name = rest.strip_prefix('/')?;
                return crate::page::ASSETS
                    .iter()
                    .position(|a| a.0 == name)
                    .map(Route::Asset);
            }
        })
    }

    /// The method it takes.
    pub fn method(self) -> &'static str {
        match self {
            Route::Preview | Route::Save | Route::Build => "POST",
            _ => "GET",
        }
    }
}

/// What the checks compare with.
#[derive(Clone, Debug)]
pub struct Guard {
    /// The URL's token.
    pub token: String,
    /// The port the server listens on.
    pub port: u16,
    /// `edit-max-body`.
    pub max_body: u64,
}

/// Compares in time independent of where the strings differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

impl Guard {
    fn host_ok(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        host == format!("127.0.0.1:{}", self.port) || host == format!("localhost:{}", self.port)
    }

    fn origin_ok(&self, origin: &str) -> bool {
        let o = origin.to_ascii_lowercase();
        o == format!("http://127.0.0.1:{}", self.port)
            || o == format!("http://localhost:{}", self.port)
    }

    /// Checks a request head (see the module doc): its route and its body
    /// length, or the refusal.
    pub fn check(&self, h: &Head) -> Result<(Route, usize), Response> {
        match h.one("host") {
            Ok(Some(host)) if self.host_ok(host) => {}
            _ => {
                return Err(Response::error(
                    421,
                    "this server answers to 127.0.0.1 and localhost only",
                ));
            }
        }
        let path = h.path();
        let rest = path
            .strip_prefix('/')
            .and_then(|p| {
                let (tok, rest) = p.split_at(p.find('/').unwrap_or(p.len()));
                same(tok.as_bytes(), self.token.as_bytes()).then_some(rest)
            })
            .ok_or_else(|| Response::error(403, "no token: open the URL rig edit printed"))?;
        match h.one("origin") {
            Ok(None) => {}
            Ok(Some(o)) if self.origin_ok(o) => {}
            _ => {
                return Err(Response::error(
                    403,
                    "requests from another origin are refused",
                ));
            }
        }
        match h.one("sec-fetch-site") {
            Ok(None | Some("same-origin" | "none")) => {}
            _ => {
                return Err(Response::error(
                    403,
                    "requests from another site are refused",
                ));
            }
        }
        let route = Route::of(rest).ok_or_else(|| Response::error(404, "not found"))?;
        if h.method != route.method() {
            return Err(Response::error(
                405,
                format!("{rest} takes {}", route.method()),
            ));
        }
        if h.all("transfer-encoding").next().is_some() {
            return Err(Response::error(
                501,
                "bodies are sent with Content-Length only",
            ));
        }
        let len = h
            .content_length()
            .map_err(|_| Response::error(400, "a bad Content-Length"))?;
        if route.method() == "GET" {
            if len > 0 {
                return Err(Response::error(400, "a GET has no body"));
            }
            return Ok((route, 0));
        }
        let json = match h.one("content-type") {
            Ok(Some(ct)) => {
                let t = ct.split(';').next().unwrap_or("").trim();
                t.eq_ignore_ascii_case("application/json")
            }
            _ => false,
        };
        if !json {
            return Err(Response::error(415, "the body must be application/json"));
        }
        if h.one("content-length") == Ok(None) {
            return Err(Response::error(411, "Content-Length is required"));
        }
        if len > self.max_body {
            return Err(Response::error(
                413,
                format!(
                    "the body is {len} bytes, more than edit-max-body {} (see --limit)",
                    self.max_body
                ),
            ));
        }
        Ok((route, len as usize))
    }
}
