//! The server: a listener on 127.0.0.1 only (never another address: there is no option for
//! one), a random token in the one URL it answers, one thread per connection (at most
//! [`MAX_CONNECTIONS`]; the others are answered 503 and closed), and the page's liveness.
//!
//! **When it stops**: on Ctrl-C (the default action of SIGINT: a save in flight leaves no
//! temporary file, `re2d_output::publish`), or when the page is closed. The page keeps one
//! request open, `GET /TOKEN/api/events` (an `EventSource`); the server pings it every second
//! and notices its end at once (the socket reads end of file) or at the next ping. Once a page
//! has connected, [`GRACE`] seconds with no stream open stop the server (a reload reconnects
//! well within them). Without a page (`--no-open` and the URL never opened) it runs until
//! Ctrl-C.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use re2d::limits::Limits;
use re2d_rig::RigError;
use re2d_rig::build::MotionSpec;
use re2d_rig::cut::slice::Rule;

use crate::api::{App, Store};
use crate::guard::{Guard, Route};
use crate::http::{self, Response};

/// Most connections served at once.
pub const MAX_CONNECTIONS: usize = 32;
/// Most event streams (pages) open at once.
pub const MAX_STREAMS: usize = 8;
/// Seconds without an open event stream, once a page connected, before the server stops.
pub const GRACE: Duration = Duration::from_secs(3);
/// An idle connection (or one sending its request too slowly) is closed after this.
pub const IDLE: Duration = Duration::from_secs(30);
/// Pings of the event stream.
pub const PING: Duration = Duration::from_secs(1);

/// What `rig edit` was asked.
#[derive(Clone, Debug)]
pub struct Options {
    /// The declaration or the drawing.
    pub path: PathBuf,
    /// The port (0: one the system picks).
    pub port: u16,
    /// The motions of a build.
    pub motions: Vec<MotionSpec>,
    /// The default slicing rule.
    pub rule: Rule,
}

/// Why the server stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// The page was closed.
    PageClosed,
    /// [`Server::stop`] was called.
    Asked,
}

#[derive(Default)]
struct LiveState {
    open: usize,
    seen: bool,
    stopped: bool,
}

/// The pages' liveness.
#[derive(Default)]
struct Live {
    state: Mutex<LiveState>,
    cv: Condvar,
}

impl Live {
    fn lock(&self) -> std::sync::MutexGuard<'_, LiveState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts an opened stream; `false` when [`MAX_STREAMS`] are open.
    fn opened(&self) -> bool {
        let mut s = self.lock();
        if s.open >= MAX_STREAMS {
            return false;
        }
        s.open += 1;
        s.seen = true;
        self.cv.notify_all();
        true
    }

    fn closed(&self) {
        let mut s = self.lock();
        s.open -= 1;
        self.cv.notify_all();
    }
}

/// A running editor.
pub struct Server {
    /// The URL to open (with its token).
    pub url: String,
    /// The bound address (127.0.0.1).
    pub addr: SocketAddr,
    /// The token.
    pub token: String,
    /// The editor's state.
    pub app: Arc<App>,
    live: Arc<Live>,
    stop: Arc<AtomicBool>,
}

/// A token of 128 random bits from the system's generator, as hex.
pub fn token() -> Result<String, RigError> {
    let mut b = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut b))
        .map_err(|e| RigError::new("E_IO", format!("/dev/urandom: {e}")))?;
    Ok(b.iter().map(|x| format!("{x:02x}")).collect())
}

/// The joint names of the motions' captures (their files read with the limits), or every
/// known convention's without a motion.
fn joints(motions: &[MotionSpec], limits: &Limits) -> Result<Vec<String>, RigError> {
    if motions.is_empty() {
        return Ok(crate::api::convention_joints());
    }
    let mut out: Vec<String> = Vec::new();
    for m in motions {
        let bvh = re2d_rig::motion::bvh::read(&m.path, limits)?;
        for j in bvh.joints {
            if !out.contains(&j.name) {
                out.push(j.name);
            }
        }
    }
    Ok(out)
}

impl Server {
    /// Opens the edit, binds 127.0.0.1:`port` and starts serving.
    pub fn start(opts: &Options, limits: &Limits) -> Result<Server, RigError> {
        let session = crate::session::open(&opts.path, limits)?;
        let joints = joints(&opts.motions, limits)?;
        let app = App::new(
            session,
            *limits,
            opts.motions.clone(),
            joints,
            opts.rule,
            Store::File,
            false,
        );
        Server::serve(app, opts.port)
    }

    /// Serves `app` on 127.0.0.1:`port`.
    pub fn serve(app: App, port: u16) -> Result<Server, RigError> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port)).map_err(|e| {
            RigError::new("E_IO", format!("cannot listen on 127.0.0.1:{port}: {e}"))
        })?;
        let addr = listener
            .local_addr()
            .map_err(|e| RigError::new("E_IO", e.to_string()))?;
        let token = token()?;
        let guard = Arc::new(Guard {
            token: token.clone(),
            port: addr.port(),
            max_body: app.limits.edit_max_body,
        });
        let app = Arc::new(app);
        let live = Arc::new(Live::default());
        let stop = Arc::new(AtomicBool::new(false));
        let (a, l, s) = (app.clone(), live.clone(), stop.clone());
        std::thread::Builder::new()
            .name("re2d-edit-accept".into())
            .spawn(move || accept(listener, guard, a, l, s))
            .map_err(|e| RigError::new("E_IO", e.to_string()))?;
        Ok(Server {
            url: format!("http://127.0.0.1:{}/{token}/", addr.port()),
            addr,
            token,
            app,
            live,
            stop,
        })
    }

    /// Blocks until the page is closed (see the module doc) or [`Server::stop`].
    pub fn wait(&self) -> Stopped {
        let mut s = self.live.lock();
        loop {
            if s.stopped {
                return Stopped::Asked;
            }
            if s.seen && s.open == 0 {
                let (g, t) = self
                    .live
                    .cv
                    .wait_timeout_while(s, GRACE, |s| s.open == 0 && !s.stopped)
                    .unwrap_or_else(|e| e.into_inner());
                s = g;
                if t.timed_out() {
                    self.stop.store(true, Ordering::SeqCst);
                    let _ = TcpStream::connect(self.addr);
                    return Stopped::PageClosed;
                }
                continue;
            }
            s = self.live.cv.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Stops serving: no new connection is accepted, the streams end.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.live.lock().stopped = true;
        self.live.cv.notify_all();
        // wake the accept loop
        let _ = TcpStream::connect(self.addr);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

fn accept(
    listener: TcpListener,
    guard: Arc<Guard>,
    app: Arc<App>,
    live: Arc<Live>,
    stop: Arc<AtomicBool>,
) {
    let active = Arc::new(AtomicUsize::new(0));
    for conn in listener.incoming() {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let Ok(mut stream) = conn else { continue };
        if active.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            active.fetch_sub(1, Ordering::SeqCst);
            let _ = Response::error(503, "too many connections").write_to(&mut stream, true);
            continue;
        }
        let (g, a, l, s, n) = (
            guard.clone(),
            app.clone(),
            live.clone(),
            stop.clone(),
            active.clone(),
        );
        let spawned = std::thread::Builder::new()
            .name("re2d-edit-conn".into())
            .spawn(move || {
                connection(stream, &g, &a, &l, &s);
                n.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            active.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// Serves the requests of one connection (keep-alive) until it closes, errs or asks to close.
fn connection(mut stream: TcpStream, guard: &Guard, app: &App, live: &Live, stop: &AtomicBool) {
    let _ = stream.set_read_timeout(Some(IDLE));
    let _ = stream.set_nodelay(true);
    let mut buf = Vec::new();
    loop {
        let head = match http::read_head(&mut stream, &mut buf) {
            Ok(Some(h)) => h,
            Ok(None) | Err(0) => return,
            Err(status) => {
                let _ = Response::error(status, http::reason(status)).write_to(&mut stream, true);
                return;
            }
        };
        let (route, len) = match guard.check(&head) {
            Ok(r) => r,
            Err(refusal) => {
                // the body (if any) is never read: the connection closes
                let _ = refusal.write_to(&mut stream, true);
                return;
            }
        };
        if route == Route::Events {
            events(stream, live, stop);
            return;
        }
        let Ok(body) = http::read_body(&mut stream, &mut buf, len) else {
            return;
        };
        let resp = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            app.handle(route, &head, &body)
        }))
        .unwrap_or_else(|_| Response::error(500, "the request failed (a bug)"));
        let close = head.wants_close();
        if resp.write_to(&mut stream, close).is_err() || close {
            return;
        }
    }
}

/// The page's event stream: open while the page lives (see the module doc).
fn events(mut stream: TcpStream, live: &Live, stop: &AtomicBool) {
    if !live.opened() {
        let _ = Response::error(429, "too many pages").write_to(&mut stream, true);
        return;
    }
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\nretry: 1000\n\n";
    let mut ok = stream.write_all(head.as_bytes()).is_ok();
    let _ = stream.set_read_timeout(Some(PING));
    let mut scratch = [0u8; 256];
    while ok && !stop.load(Ordering::SeqCst) {
        match stream.read(&mut scratch) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                ok = stream.write_all(b": ping\n\n").is_ok();
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    live.closed();
}

/// Opens `url` in the system's browser (`xdg-open`, macOS `open`, Windows `start`), without
/// waiting for it.
pub fn open_browser(url: &str) -> Result<(), String> {
    #[cfg(target_os = "macos")]
    let mut cmd = std::process::Command::new("open");
    #[cfg(windows)]
    let mut cmd = {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    };
    #[cfg(not(any(target_os = "macos", windows)))]
    let mut cmd = std::process::Command::new("xdg-open");
    cmd.arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(|_| ())
        .map_err(|e| e.to_string())
}
