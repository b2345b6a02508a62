//! `make bench-edit`: what a preview of `re2d rig edit` costs on the generated 1696×2528
//! characters, and what the server holds when idle.
//!
//! Per character (`DIR/<name>.skeleton.json` from `rig_drawings`):
//! - **open**: the work done once per edit (silhouette, its edges, its ink), CPU of this thread;
//! - **cold**: the first preview after opening, through the server's request handling (JSON in,
//!   validation, `re2d_rig::cut::preview`, the run-length answer), CPU;
//! - **warm**: the median (and range) of 5 more, each on a declaration moved a little (a point
//!   and a radius), CPU;
//! - **uncached**: what a preview would cost without the cache (silhouette + `slice_with`, the
//!   slicing `rig slice` runs), CPU;
//! - **idle memory**: the resident set of a real `re2d rig edit --no-open` process after three
//!   previews over HTTP, against the bound: 3 × the drawing's RGBA bytes plus the
//!   slicing's own budget (`RIG_BYTES_PER_PIXEL` per pixel); and its peak.
//!
//! `edit_bench DIR NAME...` (run pinned to one core by the make target; prints, never fails
//! on a number).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use re2d::limits::{Limits, RIG_BYTES_PER_PIXEL};
use re2d_edit::api::{App, Store, thread_cpu};
use re2d_edit::guard::Route;
use re2d_edit::http::Head;
use re2d_rig::cut::slice::{Rule, slice_with};
use re2d_rig::declare::silhouette::silhouette;
use serde_json::{Value, json};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: edit_bench DIR NAME...");
        std::process::exit(2);
    }
    let dir = Path::new(&args[0]);
    let re2d = std::env::current_exe()
        .ok()
        .and_then(|p| Some(p.parent()?.parent()?.join("re2d")))
        .filter(|p| p.exists());
    println!("rig edit preview (CPU of one thread; target <= 1 s at 1696x2528) and idle memory");
    for name in &args[1..] {
        let decl = dir.join(format!("{name}.skeleton.json"));
        if let Err(e) = bench(name, &decl, re2d.as_deref()) {
            eprintln!("edit_bench: {name}: {e}");
            std::process::exit(1);
        }
    }
}

/// The declaration with bone `k`'s last point moved by `d` px and its radius scaled.
fn nudged(doc: &Value, k: usize, d: f64) -> Value {
    let mut v = doc.clone();
    let n = v["bones"].as_array().map_or(0, |b| b.len());
    let b = &mut v["bones"][k % n];
    let last = b["points"].as_array().map_or(1, |p| p.len()) - 1;
    let p = b["points"][last].clone();
    b["points"][last] = json!([
        p[0].as_f64().unwrap_or(0.0) + d,
        p[1].as_f64().unwrap_or(0.0)
    ]);
    if let Some(r) = b["radius"].as_f64() {
        b["radius"] = json!(r * 1.05);
    }
    v
}

fn head() -> Head {
    Head {
        method: "POST".into(),
        target: "/t/api/preview".into(),
        minor: 1,
        headers: Vec::new(),
    }
}

fn bench(name: &str, decl: &Path, re2d: Option<&Path>) -> Result<(), String> {
    let limits = Limits::DEFAULT;
    let t0 = thread_cpu();
    let session = re2d_edit::session::open(decl, &limits).map_err(|e| e.to_string())?;
    let open = thread_cpu() - t0;
    let (w, h) = (session.width, session.height);
    let doc = session.doc.clone();
    let app = App::new(
        session,
        limits,
        Vec::new(),
        Vec::new(),
        Rule::Paint,
        Store::Memory(Default::default()),
        true,
    );
    let preview = |doc: &Value| -> Result<f64, String> {
        let body = serde_json::to_vec(&json!({"declaration": doc})).map_err(|e| e.to_string())?;
        let t = thread_cpu();
        let r = app.handle(Route::Preview, &head(), &body);
        let cpu = thread_cpu() - t;
        if r.status != 200 {
            return Err(format!(
                "preview {}: {}",
                r.status,
                String::from_utf8_lossy(&r.body)
            ));
        }
        Ok(cpu)
    };
    let cold = preview(&doc)?;
    let mut warm: Vec<f64> = (0..5)
        .map(|i| preview(&nudged(&doc, 3 + 2 * i, 6.0 + i as f64)))
        .collect::<Result<_, _>>()?;
    warm.sort_by(f64::total_cmp);
    let input = re2d_rig::build::load(decl, &limits).map_err(|e| e.to_string())?;
    let t = thread_cpu();
    let sil = silhouette(&input.image, input.sk.background).map_err(|e| e.to_string())?;
    slice_with(&input.sk, &sil, Rule::Paint).map_err(|e| e.to_string())?;
    let uncached = thread_cpu() - t;
    println!(
        "{name} {w}x{h}: open {:.0} ms (silhouette, edges, ink, once); preview cold {:.0} ms, warm median {:.0} ms ({:.0}-{:.0}); uncached (silhouette + slice_with) {:.0} ms",
        open * 1e3,
        cold * 1e3,
        warm[2] * 1e3,
        warm[0] * 1e3,
        warm[4] * 1e3,
        uncached * 1e3
    );
    if let Some(bin) = re2d {
        idle_memory(bin, decl, &doc, w as u64 * h as u64)?;
    }
    Ok(())
}

/// Runs `re2d rig edit --no-open`, sends three previews, and reads its resident set.
fn idle_memory(bin: &Path, decl: &Path, doc: &Value, pixels: u64) -> Result<(), String> {
    let mut child = Command::new(bin)
        .args(["rig", "edit"])
        .arg(decl)
        .arg("--no-open")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    let mut line = Vec::new();
    let mut out = child.stdout.take().ok_or("no stdout")?;
    let mut b = [0u8; 1];
    while out.read(&mut b).map_err(|e| e.to_string())? == 1 && b[0] != b'\n' {
        line.push(b[0]);
    }
    let line = String::from_utf8_lossy(&line).into_owned();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .ok_or_else(|| format!("no URL in {line:?}"))?;
    let rest = url.trim_start_matches("http://");
    let (hostport, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    for i in 0..3 {
        let body = serde_json::to_vec(&json!({"declaration": nudged(doc, 2 + i, 4.0)}))
            .map_err(|e| e.to_string())?;
        let mut s = TcpStream::connect(hostport).map_err(|e| e.to_string())?;
        s.set_read_timeout(Some(Duration::from_secs(120)))
            .map_err(|e| e.to_string())?;
        write!(
            s,
            "POST {path}api/preview HTTP/1.1\r\nHost: {hostport}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )
        .map_err(|e| e.to_string())?;
        s.write_all(&body).map_err(|e| e.to_string())?;
        let mut resp = Vec::new();
        s.read_to_end(&mut resp).map_err(|e| e.to_string())?;
        if !resp.starts_with(b"HTTP/1.1 200") {
            return Err(format!(
                "preview over HTTP: {}",
                String::from_utf8_lossy(&resp[..resp.len().min(200)])
            ));
        }
    }
    std::thread::sleep(Duration::from_millis(500));
    let status =
        std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap_or_default();
    let kib = |key: &str| -> u64 {
        status
            .lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
            .unwrap_or(0)
    };
    let (rss, peak) = (kib("VmRSS:"), kib("VmHWM:"));
    let _ = child.kill();
    let _ = child.wait();
    let rgba = pixels * 4 / 1024;
    let bound = 3 * rgba + pixels * RIG_BYTES_PER_PIXEL / 1024;
    println!(
        "  server idle after 3 previews: {rss} KiB = {:.2} x the drawing's RGBA ({rgba} KiB); bound 3 x RGBA + the slicing's {RIG_BYTES_PER_PIXEL} B/px = {bound} KiB ({}); peak {peak} KiB",
        rss as f64 / rgba as f64,
        if rss <= bound { "met" } else { "MISSED" }
    );
    Ok(())
}
