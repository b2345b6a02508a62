//! The HTTP/1.1 wire of the editor: a request head parsed by `httparse` from at most
//! [`HEAD_MAX`] bytes and [`HEADERS_MAX`] headers, a body of exactly `Content-Length` bytes
//! (never chunked: `Transfer-Encoding` is refused), and responses with the headers every answer
//! carries ([`Response::write_to`]).
//!
//! The head is checked ([`crate::guard`]) before a byte of the body is read, so a body over
//! `edit-max-body` (the limits table) is refused from its `Content-Length` alone.

use std::io::{Read, Write};

/// Most bytes of a request head (request line and headers).
pub const HEAD_MAX: usize = 16 * 1024;
/// Most headers of a request.
pub const HEADERS_MAX: usize = 48;

/// A header sent more than once, or a `Content-Length` that is not one run of digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadHeader;

/// A request head.
#[derive(Clone, Debug, PartialEq)]
pub struct Head {
    /// `GET`, `POST`, … as sent.
    pub method: String,
    /// The request target as sent (path and query).
    pub target: String,
    /// HTTP/1.0 (0) or HTTP/1.1 (1).
    pub minor: u8,
    /// The headers, names lower-cased, in order.
    pub headers: Vec<(String, String)>,
}

impl Head {
    /// The values of header `name` (lower case).
    pub fn all<'a>(&'a self, name: &str) -> impl Iterator<Item = &'a str> + 'a {
        let name = name.to_string();
        self.headers
            .iter()
            .filter(move |(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The one value of header `name`; `Err` when it is sent more than once.
    pub fn one(&self, name: &str) -> Result<Option<&str>, BadHeader> {
        let mut it = self.all(name);
        let first = it.next();
        if it.next().is_some() {
            return Err(BadHeader);
        }
        Ok(first)
    }

    /// The path of the target (without the query).
    pub fn path(&self) -> &str {
        self.target.split(['?', '#']).next().unwrap_or("")
    }

    /// The body length the head declares: `Ok(0)` without `Content-Length`;
    /// `Err` for an unreadable or repeated one.
    pub fn content_length(&self) -> Result<u64, BadHeader> {
        match self.one("content-length")? {
            None => Ok(0),
            Some(v) if !v.is_empty() && v.len() <= 19 && v.bytes().all(|b| b.is_ascii_digit()) => {
                v.parse().map_err(|_| BadHeader)
            }
            Some(_) => Err(BadHeader),
        }
    }

    /// The client asked to close the connection after this request (or
    /// speaks HTTP/1.0).
    pub fn wants_close(&self) -> bool {
        let conn = self
            .all("connection")
            .any(|v| v.to_ascii_lowercase().contains("close"));
        conn || self.minor == 0
    }
}

/// What became of the bytes read so far.
#[derive(Debug, PartialEq)]
pub enum Parsed {
    /// The head is complete: it and its length in bytes.
    Head(Head, usize),
    /// More bytes are needed.
    Partial,
}

/// Parses a request head from the start of `buf`: `Err(status)` for a
/// malformed head (400) or one with too many headers (431).
pub fn parse_head(buf: &[u8]) -> Result<Parsed, u16> {
    let mut headers = [httparse::EMPTY_HEADER; HEADERS_MAX];
    let mut req = httparse::Request::new(&mut headers);
    match req.parse(buf) {
        Ok(httparse::Status::Complete(n)) => {
            let method = req.method.unwrap_or("").to_string();
            let target = req.path.unwrap_or("").to_string();
            let minor = req.version.unwrap_or(1);
            let mut list = Vec::with_capacity(req.headers.len());
            for h in req.headers.iter() {
                // header values are ASCII text; anything else is refused
                let v = std::str::from_utf8(h.value).map_err(|_| 400u16)?;
                if !v.is_ascii() {
                    return Err(400);
                }
                list.push((h.name.to_ascii_lowercase(), v.trim().to_string()));
            }
            Ok(Parsed::Head(
                Head {
                    method,
                    target,
                    minor,
                    headers: list,
                },
                n,
            ))
        }
        Ok(httparse::Status::Partial) => Ok(Parsed::Partial),
        Err(httparse::Error::TooManyHeaders) => Err(431),
        Err(_) => Err(400),
    }
}

/// Reads one request head from `stream` into `buf` (which may hold bytes
/// of a pipelined request already): `Ok(None)` when the peer closed before
/// a byte of it, `Err(status)` for a bad or oversized head (431), `Err(0)`
/// for an I/O error or a timeout. The bytes after the head stay in `buf`.
pub fn read_head(stream: &mut impl Read, buf: &mut Vec<u8>) -> Result<Option<Head>, u16> {
    let mut chunk = [0u8; 4096];
    loop {
        if !buf.is_empty() {
            match parse_head(buf)? {
                Parsed::Head(h, n) => {
                    buf.drain(..n);
                    return Ok(Some(h));
                }
                Parsed::Partial if buf.len() >= HEAD_MAX => return Err(431),
                Parsed::Partial => {}
            }
        }
        let room = (HEAD_MAX - buf.len()).min(chunk.len());
        match stream.read(&mut chunk[..room]) {
            Ok(0) if buf.is_empty() => return Ok(None),
            Ok(0) => return Err(0),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return Err(0),
        }
    }
}

/// Reads a body of exactly `len` bytes (the caller checked `len` against
/// the limit), starting with what `buf` holds already; leaves the bytes of
/// the next request in `buf`.
pub fn read_body(
    stream: &mut impl Read,
    buf: &mut Vec<u8>,
    len: usize,
) -> std::io::Result<Vec<u8>> {
    let have = buf.len().min(len);
    let mut body: Vec<u8> = buf.drain(..have).collect();
    if body.len() < len {
        body.resize(len, 0);
        stream.read_exact(&mut body[have..])?;
    }
    Ok(body)
}

/// A response.
#[derive(Clone, Debug, PartialEq)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// `Content-Type`.
    pub content_type: &'static str,
    /// Body.
    pub body: Vec<u8>,
    /// The page's `Content-Security-Policy` (set on HTML only).
    pub csp: bool,
}

/// The policy of the page: its own scripts, styles and images only, no
/// frames, no forms, no plugins.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

impl Response {
    /// A response with `body`.
    pub fn new(status: u16, content_type: &'static str, body: Vec<u8>) -> Response {
        Response {
            status,
            content_type,
            body,
            csp: false,
        }
    }

    /// A JSON response.
    pub fn json(status: u16, v: &serde_json::Value) -> Response {
        Response::new(
            status,
            "application/json",
            serde_json::to_vec(v).unwrap_or_default(),
        )
    }

    /// A refusal: `{"error": msg}` with `status`.
    pub fn error(status: u16, msg: impl Into<String>) -> Response {
        Response::json(status, &serde_json::json!({"error": msg.into()}))
    }

    /// Writes the response (HTTP/1.1, `Content-Length`, no caching, no
    /// sniffing, no referrer, no framing; never an
    /// `Access-Control-Allow-Origin`).
    pub fn write_to(&self, w: &mut impl Write, close: bool) -> std::io::Result<()> {
        let mut head = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\nX-Frame-Options: DENY\r\nCross-Origin-Resource-Policy: same-origin\r\n",
            self.status,
            reason(self.status),
            self.content_type,
            self.body.len()
        );
        if self.csp {
            head.push_str("Content-Security-Policy: ");
            head.push_str(CSP);
            head.push_str("\r\n");
        }
        if close {
            head.push_str("Connection: close\r\n");
        }
        head.push_str("\r\n");
        w.write_all(head.as_bytes())?;
        w.write_all(&self.body)?;
        w.flush()
    }
}

/// The reason phrase of a status.
pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        421 => "Misdirected Request",
        422 => "Unprocessable Content",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_in_pieces() {
        let raw = b"GET /t/ HTTP/1.1\r\nHost: 127.0.0.1:9\r\nX-A: 1\r\n\r\nrest";
        let mut buf = Vec::new();
        let mut r = &raw[..];
        let h = read_head(&mut r, &mut buf).unwrap().unwrap();
        assert_eq!(h.path(), "/t/");
        assert_eq!(h.one("host"), Ok(Some("127.0.0.1:9")));
        assert_eq!(buf, b"rest");
    }

    #[test]
    fn an_endless_head_is_431() {
        let mut raw = b"GET / HTTP/1.1\r\nX: ".to_vec();
        raw.resize(HEAD_MAX * 4, b'a');
        let mut buf = Vec::new();
        assert_eq!(read_head(&mut &raw[..], &mut buf), Err(431));
        assert!(buf.len() <= HEAD_MAX);
    }

    #[test]
    fn content_length_is_digits_once() {
        let h = |v: &[(&str, &str)]| Head {
            method: "POST".into(),
            target: "/".into(),
            minor: 1,
            headers: v
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
        };
        assert_eq!(h(&[("content-length", "12")]).content_length(), Ok(12));
        assert_eq!(h(&[]).content_length(), Ok(0));
        assert!(h(&[("content-length", "-1")]).content_length().is_err());
        assert!(h(&[("content-length", "1 2")]).content_length().is_err());
        assert!(
            h(&[("content-length", "99999999999999999999")])
                .content_length()
                .is_err()
        );
        assert!(
            h(&[("content-length", "1"), ("content-length", "1")])
                .content_length()
                .is_err()
        );
    }
}
