//! The editor's routes doing their work (issue 44 items 1, 3, 4): a preview is the ownership
//! map `rig slice` writes for the same declaration, a save keeps every field and builds as the
//! preview showed, a drawing alone starts a declaration, the server stops when the page closes.

mod common;

use std::io::Write;
use std::net::TcpStream;
use std::path::Path;
use std::time::Duration;

use common::*;
use re2d::limits::Limits;
use re2d_edit::Stopped;
use re2d_rig::build;
use re2d_rig::cut::slice::Rule;
use serde_json::{Value, json};

/// The ownership map of a preview answer, one byte per pixel (runs decoded).
fn labels_of(r: &Resp) -> Vec<u8> {
    let j = r.json();
    let runs = j["runs"].as_array().expect("runs");
    let mut out = Vec::new();
    for p in runs.chunks(2) {
        let (v, n) = (
            p[0].as_u64().unwrap() as u8,
            p[1].as_u64().unwrap() as usize,
        );
        out.extend(std::iter::repeat_n(v & 0x7f, n));
    }
    out
}

/// `rig slice`'s labels of the declaration file at `path`.
fn slice_labels(path: &Path) -> Vec<u8> {
    let input = build::load(path, &Limits::DEFAULT).expect("loads");
    let s =
        build::slice_stage(&input, Rule::Paint, &mut build::Timings::default()).expect("slices");
    s.sl.labels(&s.sil)
}

/// The declaration with its first bone's tip moved and a second bone's radius grown.
fn moved(doc: &Value) -> Value {
    let mut d = doc.clone();
    let tip = d["bones"][4]["points"].as_array().unwrap().len() - 1;
    let p = d["bones"][4]["points"][tip].clone();
    d["bones"][4]["points"][tip] =
        json!([p[0].as_f64().unwrap() + 12.5, p[1].as_f64().unwrap() - 7.0]);
    d["bones"][11]["radius"] = json!(40);
    d
}

#[test]
fn a_preview_is_what_rig_slice_cuts_and_a_save_builds_it() {
    let (dir, decl) = files("api-save");
    let srv = serve(&decl);
    let mut d = moved(&declaration(&srv));
    // fields the rig does not know stay where they are
    d["x-author"] = json!({"name": "someone", "tags": [1, 2]});
    d["bones"][2]["x-note"] = json!("keep me");
    let r = post(
        &srv,
        "/api/preview",
        &serde_json::to_vec(&json!({"declaration": d, "gen": 7})).unwrap(),
        "",
    );
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["gen"], 7);
    let shown = labels_of(&r);
    assert_eq!(shown.len(), 424 * 632);
    // the preview differs from the declaration on disk (the edit shows)
    assert_ne!(
        shown,
        slice_labels(&decl),
        "the moved declaration cut the same parts"
    );
    let r = post(&srv, "/api/save", &body(&d), "");
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let text = std::fs::read(&decl).unwrap();
    let saved: Value = serde_json::from_slice(&text).expect("the saved file is JSON");
    assert_eq!(
        saved, d,
        "the saved declaration is the one posted, every field kept"
    );
    assert!(
        String::from_utf8_lossy(&text).contains("\n    {\"name\": \"pelvis\""),
        "one bone per line"
    );
    // what the file builds is what the page showed
    assert_eq!(
        slice_labels(&decl),
        shown,
        "rig slice of the saved file differs from the preview"
    );
    // no temporary file is left
    let names: Vec<String> = snapshot(&dir).into_iter().map(|(n, _)| n).collect();
    assert_eq!(
        names,
        ["biped.labels.png", "biped.png", "biped.skeleton.json"]
    );
}

#[test]
fn a_drawing_alone_starts_a_declaration() {
    let dir = folder("api-fresh");
    let [png, _, _] = biped().write_files(&dir).unwrap();
    std::fs::remove_file(dir.join("biped.skeleton.json")).unwrap();
    let srv = serve(&png);
    let s = &srv.app.session;
    assert!(s.fresh);
    assert_eq!(s.decl_path, dir.join("biped.skeleton.json"));
    assert_eq!(s.doc["image"], "biped.png");
    assert_eq!(s.doc["background"], "auto");
    assert!(!s.decl_path.exists(), "nothing is written before a save");
    // the default skeleton lies in the figure's box
    let [x0, y0, x1, y1] = re2d_edit::start::figure_box(&s.prep.sil);
    for b in s.doc["bones"].as_array().unwrap() {
        for p in b["points"].as_array().unwrap() {
            let (x, y) = (p[0].as_f64().unwrap(), p[1].as_f64().unwrap());
            assert!(
                x >= x0 - 0.1 * (y1 - y0) && x <= x1 + 0.1 * (y1 - y0) && y >= y0 && y <= y1,
                "{b}"
            );
        }
    }
    let r = post(&srv, "/api/preview", &body(&s.doc), "");
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(post(&srv, "/api/save", &body(&s.doc), "").status, 200);
    drop(srv);
    // opening the drawing again opens its declaration
    let again = serve(&png);
    assert!(!again.app.session.fresh);
    drop(again);
    // a declaration beside it that draws another image is not replaced
    let mut other =
        serde_json::from_slice::<Value>(&std::fs::read(dir.join("biped.skeleton.json")).unwrap())
            .unwrap();
    other["image"] = json!("biped.labels.png");
    std::fs::write(
        dir.join("biped.skeleton.json"),
        serde_json::to_vec(&other).unwrap(),
    )
    .unwrap();
    let e = re2d_edit::Server::start(
        &re2d_edit::Options {
            path: png.clone(),
            port: 0,
            motions: vec![],
            rule: Rule::Paint,
        },
        &Limits::DEFAULT,
    )
    .err()
    .expect("refused");
    assert_eq!(e.code, "E_EDIT_EXISTS", "{e}");
}

#[test]
fn the_server_stops_when_the_page_closes() {
    let (_dir, decl) = files("api-live");
    let srv = std::sync::Arc::new(serve(&decl));
    let mut page = TcpStream::connect(srv.addr).unwrap();
    write!(
        page,
        "GET /{}/api/events HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAccept: text/event-stream\r\n\r\n",
        srv.token,
        srv.addr.port()
    )
    .unwrap();
    let mut head = [0u8; 64];
    let n = std::io::Read::read(&mut page, &mut head).unwrap();
    assert!(String::from_utf8_lossy(&head[..n]).starts_with("HTTP/1.1 200"));
    let (tx, rx) = std::sync::mpsc::channel();
    let s = srv.clone();
    std::thread::spawn(move || tx.send(s.wait()).unwrap());
    // while the page is open the server runs
    assert!(
        rx.recv_timeout(Duration::from_millis(1500)).is_err(),
        "the server stopped with the page open"
    );
    drop(page);
    let why = rx
        .recv_timeout(Duration::from_secs(120))
        .expect("the server stops once the page is closed");
    assert_eq!(why, Stopped::PageClosed);
    // and no longer accepts
    std::thread::sleep(Duration::from_millis(200));
    let late = TcpStream::connect(srv.addr).map(|mut s| {
        let _ = write!(
            s,
            "GET /{}/api/session HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
            srv.token,
            srv.addr.port()
        );
        let mut b = [0u8; 16];
        std::io::Read::read(&mut s, &mut b).unwrap_or(0)
    });
    assert!(
        matches!(late, Err(_) | Ok(0)),
        "a stopped server answered: {late:?}"
    );
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "a whole build: run in release by `make test-edit`"
)]
fn a_build_shows_the_sheet() {
    let (_dir, decl) = files("api-build");
    let srv = serve(&decl);
    assert_eq!(
        get(&srv, "/build/sheet.png", "").status,
        404,
        "no sheet before a build"
    );
    let r = post(&srv, "/api/build", &body(&declaration(&srv)), "");
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let j = r.json();
    assert_eq!(j["panel"], json!([106, 158]));
    let url = j["sheet"].as_str().unwrap();
    assert!(url.starts_with("build/sheet.png"));
    let png = get(&srv, "/build/sheet.png", "");
    assert_eq!(png.status, 200);
    assert_eq!(png.header("content-type").as_deref(), Some("image/png"));
    let (w, h) = re2d_riv::model::png_header_size(&png.body).expect("a PNG");
    assert_eq!(
        (w, h),
        (8 * 106, 158),
        "the still panels of a build without a motion"
    );
}
