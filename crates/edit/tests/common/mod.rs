//! What the editor's tests share: a generated drawing in a folder of its own, a server on it,
//! and a raw HTTP client (bytes as written, so malformed requests can be sent).
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use re2d::limits::Limits;
use re2d_edit::{Options, Server};
use re2d_rig::cut::slice::Rule;
use re2d_testkit::drawings::{self, Drawing};

/// The generated biped at 424 x 632 (small: the tests run in a debug build).
pub fn biped() -> &'static Drawing {
    static D: OnceLock<Drawing> = OnceLock::new();
    D.get_or_init(|| drawings::generate(&drawings::biped().sized(424, 632)).expect("paints"))
}

/// A fresh folder under the system's temporary folder.
pub fn folder(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("re2d-edit-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp folder");
    d
}

/// The biped's three files in a folder of their own: (folder, declaration).
pub fn files(tag: &str) -> (PathBuf, PathBuf) {
    let d = folder(tag);
    let [_, _, decl] = biped().write_files(&d).expect("writes");
    (d, decl)
}

/// A server on `path` (a declaration or a drawing).
pub fn serve(path: &Path) -> Server {
    serve_with(path, &Limits::DEFAULT)
}

pub fn serve_with(path: &Path, limits: &Limits) -> Server {
    Server::start(
        &Options {
            path: path.to_path_buf(),
            port: 0,
            motions: Vec::new(),
            rule: Rule::Paint,
        },
        limits,
    )
    .expect("starts")
}

/// A response as read off the socket.
#[derive(Debug)]
pub struct Resp {
    pub status: u16,
    pub head: String,
    pub body: Vec<u8>,
}

impl Resp {
    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_string())
        })
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or(serde_json::Value::Null)
    }
}

/// Sends `bytes` and reads one response (its head, then Content-Length bytes or to the end).
pub fn raw(addr: SocketAddr, bytes: &[u8]) -> Resp {
    let mut s = TcpStream::connect(addr).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    // a refused request may be answered before all of it was sent: ignore a reset while sending
    let _ = s.write_all(bytes);
    read_response(&mut s)
}

pub fn read_response(s: &mut TcpStream) -> Resp {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = s.read(&mut chunk).expect("reads a response");
        assert!(
            n > 0,
            "the connection closed without a response: {:?}",
            String::from_utf8_lossy(&buf)
        );
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("a status");
    let mut body = buf[head_end..].to_vec();
    let len = head.lines().find_map(|l| {
        let (n, v) = l.split_once(':')?;
        n.eq_ignore_ascii_case("content-length")
            .then(|| v.trim().parse::<usize>().ok())?
    });
    match len {
        Some(n) => {
            while body.len() < n {
                let k = s.read(&mut chunk).expect("reads the body");
                assert!(k > 0, "the body ended early");
                body.extend_from_slice(&chunk[..k]);
            }
            body.truncate(n);
        }
        None => {
            let _ = s.read_to_end(&mut body);
        }
    }
    Resp { status, head, body }
}

/// `GET /TOKEN{rest}` with a correct Host and `extra` header lines.
pub fn get(srv: &Server, rest: &str, extra: &str) -> Resp {
    let req = format!(
        "GET /{}{rest} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n{extra}Connection: close\r\n\r\n",
        srv.token,
        srv.addr.port()
    );
    raw(srv.addr, req.as_bytes())
}

/// `POST /TOKEN{rest}` of a JSON body with a correct Host and `extra` header lines.
pub fn post(srv: &Server, rest: &str, body: &[u8], extra: &str) -> Resp {
    let mut req = format!(
        "POST /{}{rest} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{extra}Connection: close\r\n\r\n",
        srv.token,
        srv.addr.port(),
        body.len()
    )
    .into_bytes();
    req.extend_from_slice(body);
    raw(srv.addr, &req)
}

/// The declaration the server started from.
pub fn declaration(srv: &Server) -> serde_json::Value {
    srv.app.session.doc.clone()
}

/// `{"declaration": doc}` (and `extra` fields).
pub fn body(doc: &serde_json::Value) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({"declaration": doc})).unwrap()
}

/// Every file of a folder with its bytes (sorted): what "nothing changed" compares.
pub fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let bytes = std::fs::read(&p).unwrap_or_default();
            (p.file_name().unwrap().to_string_lossy().into_owned(), bytes)
        })
        .collect();
    out.sort();
    out
}
