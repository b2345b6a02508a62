// re2d CLI tests — `re2d rig edit`: one line and its exit code for what it refuses, the URL it
// prints, Ctrl-C, and the exit once the page is closed (issue 44).

#[path = "../../tests/common/mod.rs"]
mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use re2d_testkit::drawings;

fn small(tag: &str) -> (PathBuf, PathBuf) {
    let dir = common::fresh_dir(&format!("re2d-edit-{tag}"));
    let d = drawings::generate(&drawings::biped().sized(424, 632)).unwrap();
    let [_, _, sk] = d.write_files(&dir).unwrap();
    (dir, sk)
}

fn run(args: &[&str]) -> (i32, String, String) {
    common::run(env!("CARGO_BIN_EXE_re2d"), args)
}

/// The server process, killed when a test ends early (a failed assertion leaves no server).
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        if self.0.try_wait().ok().flatten().is_none() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

impl std::ops::Deref for Server {
    type Target = Child;
    fn deref(&self) -> &Child {
        &self.0
    }
}

impl std::ops::DerefMut for Server {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

/// Starts `rig edit PATH --no-open` and reads the URL it prints: (server, host:port, /TOKEN/).
fn start(path: &Path) -> (Server, String, String) {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_re2d"));
    cmd.args(["rig", "edit"])
        .arg(path)
        .arg("--no-open")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SIGINT at its default action, as in a terminal: a test run started in the background
    // by a non-interactive shell inherits it ignored (and so would the editor).
    // SAFETY: signal() is async-signal-safe, the only call between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no URL: {line:?}"));
    let rest = url.trim_start_matches("http://");
    let (host, path) = rest.split_at(rest.find('/').unwrap());
    (Server(child), host.to_string(), path.to_string())
}

fn wait(child: &mut Child, secs: u64) -> Option<std::process::ExitStatus> {
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(secs) {
        if let Some(s) = child.try_wait().unwrap() {
            return Some(s);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    None
}

#[test]
fn refusals_are_one_line_with_their_code() {
    let (dir, sk) = small("refuse");
    let bad = dir.join("bad.skeleton.json");
    std::fs::write(
        &bad,
        b"{\"version\": 1, \"image\": \"biped.png\", \"bones\": [",
    )
    .unwrap();
    let (code, out, err) = run(&["rig", "edit", bad.to_str().unwrap(), "--no-open"]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("re2d rig edit: E_RIG_JSON"), "{err}");
    let (code, _, err) = run(&[
        "rig",
        "edit",
        dir.join("missing.json").to_str().unwrap(),
        "--no-open",
    ]);
    assert_eq!(code, 3, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // a port that is taken
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port().to_string();
    let (code, _, err) = run(&[
        "rig",
        "edit",
        sk.to_str().unwrap(),
        "--no-open",
        "--port",
        &port,
    ]);
    assert_eq!(code, 3, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("cannot listen on 127.0.0.1"), "{err}");
    // a bad --motion is a usage error
    let (code, _, err) = run(&[
        "rig",
        "edit",
        sk.to_str().unwrap(),
        "--no-open",
        "--motion",
        "a b=x.bvh",
    ]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn ctrl_c_stops_it_and_changes_nothing() {
    let (dir, sk) = small("sigint");
    let before = std::fs::read(&sk).unwrap();
    let (mut child, host, path) = start(&sk);
    // it serves
    let mut s = TcpStream::connect(&host).unwrap();
    write!(
        s,
        "GET {path}api/session HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut resp = String::new();
    s.read_to_string(&mut resp).unwrap();
    assert!(resp.starts_with("HTTP/1.1 200"), "{resp}");
    // SAFETY: kill sends SIGINT to our own child process.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = wait(&mut child, 60).expect("Ctrl-C stopped it");
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(2), "{status:?}");
    assert_eq!(std::fs::read(&sk).unwrap(), before);
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
}

#[test]
fn closing_the_page_stops_it() {
    let (_dir, sk) = small("close");
    let (mut child, host, path) = start(&sk);
    let mut page = TcpStream::connect(&host).unwrap();
    write!(
        page,
        "GET {path}api/events HTTP/1.1\r\nHost: {host}\r\n\r\n"
    )
    .unwrap();
    let mut b = [0u8; 32];
    let n = page.read(&mut b).unwrap();
    assert!(b[..n].starts_with(b"HTTP/1.1 200"));
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "it stopped with the page open"
    );
    drop(page);
    let status = wait(&mut child, 60).expect("it stops once the page is closed");
    assert_eq!(status.code(), Some(0));
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert!(out.contains("the page was closed"), "{out}");
}
