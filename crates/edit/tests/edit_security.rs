//! The editor's server against requests it must refuse (issue 44 item 5; the checks are listed
//! in crates/edit/src/guard.rs): each is sent as raw bytes over a real socket, must be answered
//! with its 4xx (or 501) status, and must change nothing — every file of the drawing's folder is
//! byte-identical afterwards, no temporary file appears, and the server still answers. Each
//! refusal has its positive twin (the same request made right is answered 200), so a check that
//! refused everything would fail too.

mod common;

use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::path::PathBuf;
use std::sync::OnceLock;

use common::*;
use re2d_edit::Server;
use serde_json::json;

/// One server for the refusals (they change nothing, so they can share it).
fn shared() -> &'static (Server, PathBuf) {
    static S: OnceLock<(Server, PathBuf)> = OnceLock::new();
    S.get_or_init(|| {
        let (dir, decl) = files("security");
        (serve(&decl), dir)
    })
}

/// Sends `req` (a closure over the server) and checks its status and that nothing changed.
fn refused(what: &str, want: u16, req: impl Fn(&Server) -> Resp) {
    let (srv, dir) = shared();
    let before = snapshot(dir);
    let r = req(srv);
    assert_eq!(
        r.status,
        want,
        "{what}: {} {}",
        r.head,
        String::from_utf8_lossy(&r.body)
    );
    assert!(
        r.header("access-control-allow-origin").is_none(),
        "{what}: a CORS header"
    );
    assert_eq!(snapshot(dir), before, "{what}: the folder changed");
    // still serving
    assert_eq!(
        get(srv, "/api/session", "").status,
        200,
        "{what}: the server stopped answering"
    );
}

fn port(srv: &Server) -> u16 {
    srv.addr.port()
}

#[test]
fn the_page_answers_with_its_token() {
    let (srv, _) = shared();
    let r = get(srv, "/", "");
    assert_eq!(r.status, 200);
    assert!(r.header("content-security-policy").is_some());
    assert!(String::from_utf8_lossy(&r.body).contains("main.js"));
    for f in ["main.js", "model.js", "draw.js", "edit.css"] {
        assert_eq!(get(srv, &format!("/{f}"), "").status, 200, "{f}");
    }
    let r = get(srv, "/silhouette.rgba", "");
    assert_eq!(r.body.len(), 424 * 632 * 4);
}

#[test]
fn requests_without_the_token_are_refused() {
    let p = |srv: &Server| port(srv);
    for (what, target) in [
        ("no token", "/".to_string()),
        ("the session without a token", "/api/session".to_string()),
        (
            "a wrong token",
            "/0123456789abcdef0123456789abcdef/".to_string(),
        ),
        ("the token in the query", "/?t=TOKEN".to_string()),
        ("a token too short", "/TOKEN-SHORT/".to_string()),
        ("the token with a suffix", "/TOKENx/".to_string()),
    ] {
        refused(what, 403, |srv| {
            let t = target
                .replace("TOKEN-SHORT", &srv.token[..31])
                .replace("TOKEN", &srv.token);
            let req = format!(
                "GET {t} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
                p(srv)
            );
            raw(srv.addr, req.as_bytes())
        });
    }
    refused("a save without the token", 403, |srv| {
        let b = body(&declaration(srv));
        let mut req = format!(
            "POST /api/save HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            p(srv),
            b.len()
        )
        .into_bytes();
        req.extend_from_slice(&b);
        raw(srv.addr, &req)
    });
}

#[test]
fn other_hosts_are_refused_against_dns_rebinding() {
    for (what, host) in [
        ("another name", "Host: attacker.example:PORT\r\n"),
        ("another port", "Host: 127.0.0.1:1\r\n"),
        ("no port", "Host: 127.0.0.1\r\n"),
        ("no Host", ""),
        (
            "two Hosts",
            "Host: 127.0.0.1:PORT\r\nHost: attacker.example:PORT\r\n",
        ),
        (
            "a name ending in localhost",
            "Host: evil-localhost:PORT\r\n",
        ),
    ] {
        refused(what, 421, |srv| {
            let h = host.replace("PORT", &port(srv).to_string());
            let req = format!(
                "GET /{}/api/session HTTP/1.1\r\n{h}Connection: close\r\n\r\n",
                srv.token
            );
            raw(srv.addr, req.as_bytes())
        });
    }
    let (srv, _) = shared();
    let req = format!(
        "GET /{}/api/session HTTP/1.1\r\nHost: LOCALHOST:{}\r\nConnection: close\r\n\r\n",
        srv.token,
        port(srv)
    );
    assert_eq!(
        raw(srv.addr, req.as_bytes()).status,
        200,
        "localhost is this server"
    );
}

#[test]
fn other_origins_are_refused() {
    for (what, header) in [
        ("another origin", "Origin: http://attacker.example\r\n"),
        ("the null origin", "Origin: null\r\n"),
        ("https of this host", "Origin: https://127.0.0.1:PORT\r\n"),
        ("another port", "Origin: http://127.0.0.1:1\r\n"),
        ("a cross-site fetch", "Sec-Fetch-Site: cross-site\r\n"),
        (
            "a same-site fetch (another port)",
            "Sec-Fetch-Site: same-site\r\n",
        ),
    ] {
        refused(&format!("save from {what}"), 403, |srv| {
            let h = header.replace("PORT", &port(srv).to_string());
            let mut d = declaration(srv);
            d["bones"][0]["points"][0][0] = json!(1.5);
            post(srv, "/api/save", &body(&d), &h)
        });
        refused(&format!("session from {what}"), 403, |srv| {
            get(
                srv,
                "/api/session",
                &header.replace("PORT", &port(srv).to_string()),
            )
        });
    }
    // a CORS preflight is never granted
    refused("an OPTIONS preflight", 405, |srv| {
        let req = format!(
            "OPTIONS /{}/api/save HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nOrigin: http://127.0.0.1:{}\r\nAccess-Control-Request-Method: POST\r\nConnection: close\r\n\r\n",
            srv.token,
            port(srv),
            port(srv)
        );
        raw(srv.addr, req.as_bytes())
    });
    // the page's own origin is served
    let (srv, _) = shared();
    let own = format!(
        "Origin: http://127.0.0.1:{}\r\nSec-Fetch-Site: same-origin\r\n",
        port(srv)
    );
    assert_eq!(get(srv, "/api/session", &own).status, 200);
}

#[test]
fn no_path_reaches_the_file_system() {
    for target in [
        "/TOKEN/../../../../etc/passwd",
        "/TOKEN/%2e%2e/%2e%2e/etc/passwd",
        "/TOKEN//etc/passwd",
        "/TOKEN/api/../../biped.png",
        "/TOKEN/biped.png",
        "/TOKEN/biped.skeleton.json",
        "/TOKEN/main.js/../../x",
        "/TOKEN/.%2f",
    ] {
        refused(target, 404, |srv| {
            let t = target.replace("TOKEN", &srv.token);
            let req = format!(
                "GET {t} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
                port(srv)
            );
            raw(srv.addr, req.as_bytes())
        });
    }
    // a declaration naming another image, inside or outside the folder, is refused before any read
    for image in [
        "../outside.png",
        "/etc/passwd",
        "biped.labels.png",
        "sub/biped.png",
    ] {
        for route in ["/api/save", "/api/preview", "/api/build"] {
            refused(&format!("{route} with image {image}"), 403, |srv| {
                let mut d = declaration(srv);
                d["image"] = json!(image);
                post(srv, route, &body(&d), "")
            });
        }
    }
}

#[test]
fn oversized_requests_are_refused_before_they_are_read() {
    let max = re2d::limits::Limits::DEFAULT.edit_max_body;
    for len in [max + 1, 1 << 40, u64::MAX / 2] {
        // the body is never sent: the answer comes from the Content-Length alone
        refused(&format!("Content-Length {len}"), 413, |srv| {
            let req = format!(
                "POST /{}/api/save HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: {len}\r\n\r\n",
                srv.token,
                port(srv)
            );
            raw(srv.addr, req.as_bytes())
        });
    }
    refused("a chunked body", 501, |srv| {
        let req = format!(
            "POST /{}/api/save HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{{}}\r\n0\r\n\r\n",
            srv.token,
            port(srv)
        );
        raw(srv.addr, req.as_bytes())
    });
    refused("a 64 KiB header", 431, |srv| {
        let req = format!(
            "GET /{}/api/session HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nX-Big: {}\r\n\r\n",
            srv.token,
            port(srv),
            "a".repeat(64 << 10)
        );
        raw(srv.addr, req.as_bytes())
    });
    refused("100 headers", 431, |srv| {
        let many: String = (0..100).map(|i| format!("X-H{i}: {i}\r\n")).collect();
        let req = format!(
            "GET /{}/api/session HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n{many}\r\n",
            srv.token,
            port(srv)
        );
        raw(srv.addr, req.as_bytes())
    });
    // a body at the limit is read (and refused for what it is, not for its size)
    refused("a body of exactly edit-max-body bytes", 400, |srv| {
        let mut b = vec![b' '; max as usize];
        b[0] = b'[';
        b[max as usize - 1] = b']';
        post(srv, "/api/preview", &b, "")
    });
}

#[test]
fn malformed_bodies_are_refused() {
    let cases: Vec<(&str, u16, Vec<u8>)> = vec![
        ("truncated JSON", 400, b"{\"declaration\": {".to_vec()),
        ("not JSON", 400, b"hello".to_vec()),
        ("an array", 400, b"[]".to_vec()),
        ("no declaration", 400, b"{\"gen\": 1}".to_vec()),
        (
            "a declaration that is a string",
            400,
            b"{\"declaration\": \"x\"}".to_vec(),
        ),
        // inside an unknown field of the declaration, past json-max-depth (refused by the
        // limits' pre-pass, and by serde_json's own recursion limit behind it)
        ("JSON nested 200000 deep", 400, {
            let mut v = b"{\"declaration\": {\"x\": ".to_vec();
            v.extend(std::iter::repeat_n(b'[', 200_000));
            v.extend(std::iter::repeat_n(b']', 200_000));
            v.extend_from_slice(b"}}");
            v
        }),
        (
            "invalid UTF-8",
            400,
            b"{\"declaration\": \"\xff\xfe\"}".to_vec(),
        ),
        (
            "an unknown rule",
            400,
            b"{\"declaration\": {}, \"rule\": \"magic\"}".to_vec(),
        ),
    ];
    for route in ["/api/save", "/api/preview", "/api/build"] {
        for (what, want, b) in &cases {
            refused(&format!("{route}: {what}"), *want, |srv| {
                post(srv, route, b, "")
            });
        }
    }
    // declarations the rig refuses: 422 with the rig's code, nothing written
    type Edit = Box<dyn Fn(&mut serde_json::Value)>;
    let bad: Vec<(&str, &str, Edit)> = vec![
        (
            "a parent cycle",
            "E_RIG_CYCLE",
            Box::new(|d| d["bones"][0]["parent"] = d["bones"][1]["name"].clone()),
        ),
        (
            "a point outside",
            "E_RIG_OUTSIDE",
            Box::new(|d| d["bones"][0]["points"][0] = json!([9999, 5])),
        ),
        (
            "a zero radius",
            "E_RIG_RADIUS",
            Box::new(|d| d["bones"][0]["radius"] = json!(0)),
        ),
        (
            "a duplicate name",
            "E_RIG_DUPLICATE",
            Box::new(|d| d["bones"][1]["name"] = d["bones"][0]["name"].clone()),
        ),
        (
            "version 2",
            "E_RIG_VERSION",
            Box::new(|d| d["version"] = json!(2)),
        ),
        (
            "another background",
            "E_EDIT_BACKGROUND",
            Box::new(|d| d["background"] = json!("#0000ff")),
        ),
    ];
    for route in ["/api/save", "/api/preview", "/api/build"] {
        for (what, code, f) in &bad {
            refused(&format!("{route}: {what}"), 422, |srv| {
                let mut d = declaration(srv);
                f(&mut d);
                let r = post(srv, route, &body(&d), "");
                let e = r.json()["error"].as_str().unwrap_or("").to_string();
                assert!(e.starts_with(code), "{route}: {what}: {e}");
                r
            });
        }
    }
    refused("a save that is text/plain", 415, |srv| {
        let b = body(&declaration(srv));
        let mut req = format!(
            "POST /{}/api/save HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n",
            srv.token,
            port(srv),
            b.len()
        )
        .into_bytes();
        req.extend_from_slice(&b);
        raw(srv.addr, &req)
    });
    refused("a save without Content-Length", 411, |srv| {
        let req = format!(
            "POST /{}/api/save HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\r\n",
            srv.token,
            port(srv)
        );
        raw(srv.addr, req.as_bytes())
    });
    refused("a GET with a body", 400, |srv| {
        let req = format!(
            "GET /{}/api/session HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: 3\r\n\r\nabc",
            srv.token,
            port(srv)
        );
        raw(srv.addr, req.as_bytes())
    });
    refused("a save by GET", 405, |srv| get(srv, "/api/save", ""));
    refused("a garbage request line", 400, |srv| {
        raw(srv.addr, b"\x16\x03\x01\x02\x00 nonsense\r\n\r\n")
    });
}

/// The addresses of this machine's interfaces other than loopback (from /proc/net/fib_trie's
/// local host routes).
fn other_addresses() -> Vec<Ipv4Addr> {
    let text = std::fs::read_to_string("/proc/net/fib_trie").unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for w in lines.windows(2) {
        if w[1].contains("/32 host LOCAL")
            && let Some(ip) = w[0]
                .trim()
                .trim_start_matches("|-- ")
                .parse::<Ipv4Addr>()
                .ok()
            && !ip.is_loopback()
            && !out.contains(&ip)
        {
            out.push(ip);
        }
    }
    out
}

#[test]
fn the_server_listens_on_loopback_only() {
    let (srv, _) = shared();
    assert_eq!(srv.addr.ip(), Ipv4Addr::LOCALHOST);
    // the kernel's table of listening sockets: this port is bound to 127.0.0.1 only
    let hex_port = format!(":{:04X}", srv.addr.port());
    let mut listening = Vec::new();
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        for l in std::fs::read_to_string(table)
            .unwrap_or_default()
            .lines()
            .skip(1)
        {
            let f: Vec<&str> = l.split_whitespace().collect();
            if f.len() > 3 && f[1].ends_with(&hex_port) && f[3] == "0A" {
                listening.push(f[1].to_string());
            }
        }
    }
    assert_eq!(
        listening,
        vec![format!("0100007F{hex_port}")],
        "listening sockets on the port"
    );
    // and no other address of this machine reaches it
    for ip in other_addresses() {
        let r = TcpStream::connect_timeout(
            &SocketAddr::from((ip, srv.addr.port())),
            std::time::Duration::from_secs(2),
        );
        assert!(r.is_err(), "{ip}:{} accepted a connection", srv.addr.port());
    }
}

#[test]
fn at_most_so_many_connections() {
    // a server of its own: the other tests share one
    let (_dir, decl) = files("connections");
    let srv = &serve(&decl);
    let idle: Vec<TcpStream> = (0..re2d_edit::server::MAX_CONNECTIONS)
        .map(|_| TcpStream::connect(srv.addr).unwrap())
        .collect();
    // the server counts a connection once its thread started: ask through each, keep-alive
    let mut answered = 0;
    for mut s in idle.iter() {
        let req = format!(
            "GET /{}/api/session HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
            srv.token,
            port(srv)
        );
        use std::io::Write;
        s.write_all(req.as_bytes()).unwrap();
        let mut s2 = s.try_clone().unwrap();
        if read_response(&mut s2).status == 200 {
            answered += 1;
        }
    }
    assert_eq!(answered, re2d_edit::server::MAX_CONNECTIONS);
    let r = get(srv, "/api/session", "");
    assert_eq!(r.status, 503, "one connection more than the cap");
    drop(idle);
    // the connections close; the server serves again
    let mut ok = false;
    for _ in 0..200 {
        if get(srv, "/api/session", "").status == 200 {
            ok = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(
        ok,
        "the server did not recover after the connections closed"
    );
}
