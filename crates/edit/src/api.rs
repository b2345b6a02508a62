//! What each route does, once [`crate::guard`] let its head through and its body was read:
//!
//! | route | answer |
//! |---|---|
//! | `GET /` and the page's files | the embedded page ([`crate::page`]) |
//! | `GET /silhouette.rgba` | the keyed drawing (the silhouette the rig cuts: background transparent, edges despilled), RGBA8, row-major (its size is in the session) |
//! | `GET /api/session` | the declaration (every field it has), the drawing's size, the file it saves to, the capture joints to offer, the slicing rule |
//! | `POST /api/preview` | `{"gen", "declaration", "rule"}` → the ownership map (run-length: `[value, count, …]`, value = 1 + bone index, +128 where a tie-break decided), which bones have a part, the warnings, the confidence, the CPU time; `{"superseded": true}` when a newer preview replaced it (a normal outcome, 200); 422 with the `E_RIG_*` line for a declaration the rig refuses |
//! | `POST /api/save` | `{"declaration"}` → validated as `rig build` validates it, written through the one publishing path (atomic); 422 for a refused declaration |
//! | `POST /api/build` | `{"declaration", "rule"}` → the whole `rig build` in memory (nothing written): the gates, the warnings, the sheet at `build/sheet.png`; 409 while another build runs |
//!
//! A body is refused with 400 when it is not a JSON object within `json-max-depth` /
//! `json-max-values`, or lacks a `declaration` object; with 403 when the declaration's `image`
//! is not the drawing being edited (the server reads and writes no other file); with 422 when the
//! rig refuses the declaration. A refused request changes nothing.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use re2d::limits::Limits;
use re2d_rig::build::{self, Input, MotionSpec, Options};
use re2d_rig::cut::preview::{Preview, preview};
use re2d_rig::cut::slice::{Rule, how};
use re2d_rig::declare::skeleton::Skeleton;
use serde_json::{Value, json};

use crate::guard::Route;
use crate::http::{Head, Response};
use crate::queue::{Outcome, Queue};
use crate::session::Session;

/// A validated request.
struct Ask {
    sk: Skeleton,
    rule: Rule,
    doc: Value,
    generation: u64,
}

/// Where a save goes.
pub enum Store {
    /// The session's declaration file, through `re2d_output::publish`.
    File,
    /// Memory (the fuzz target and tests that must not write).
    Memory(Mutex<Option<Vec<u8>>>),
}

/// How previews run.
enum Runner {
    /// On the worker thread, newest first.
    Queue(Queue<(Skeleton, Rule, u64), Response>),
    /// On the caller's thread (the fuzz target).
    Inline,
}

/// The editor's state behind the routes.
pub struct App {
    /// The opened edit.
    pub session: Arc<Session>,
    /// The limits every request is held to.
    pub limits: Limits,
    /// The motions of a build (`--motion`).
    pub motions: Vec<MotionSpec>,
    /// The capture joints the page offers for the `mocap` map.
    pub joints: Vec<String>,
    /// The rule a preview or build uses unless the request names one.
    pub rule: Rule,
    /// Where saves go.
    pub store: Store,
    runner: Runner,
    building: AtomicBool,
    builds: AtomicU64,
    sheet: Mutex<Option<Vec<u8>>>,
}

/// The joints of every capture's convention, for an edit without `--motion`
/// ([`re2d_rig::motion::mapping::CONVENTIONS`], the CMU names first).
pub fn convention_joints() -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in re2d_rig::motion::mapping::CONVENTIONS {
        for j in c.center.iter().chain(&c.left).chain(&c.right) {
            if !out.iter().any(|o| o == j) {
                out.push(j.to_string());
            }
        }
    }
    out
}

impl App {
    /// The editor over `session`; previews run on a worker thread unless `inline`.
    pub fn new(
        session: Session,
        limits: Limits,
        motions: Vec<MotionSpec>,
        joints: Vec<String>,
        rule: Rule,
        store: Store,
        inline: bool,
    ) -> App {
        let session = Arc::new(session);
        let runner = if inline {
            Runner::Inline
        } else {
            let s = session.clone();
            Runner::Queue(Queue::new(Arc::new(
                move |(sk, rule, generation): &(Skeleton, Rule, u64), stale: &dyn Fn() -> bool| {
                    let r = run_preview(&s, sk, *rule, *generation, stale);
                    release_freed_memory();
                    r
                },
            )))
        };
        App {
            session,
            limits,
            motions,
            joints,
            rule,
            store,
            runner,
            building: AtomicBool::new(false),
            builds: AtomicU64::new(0),
            sheet: Mutex::new(None),
        }
    }

    /// The answer to `route` with `body` (the events stream is the server's).
    pub fn handle(&self, route: Route, _head: &Head, body: &[u8]) -> Response {
        match route {
            Route::Page => crate::page::index(),
            Route::Asset(i) => crate::page::asset(i),
            Route::Silhouette => Response::new(
                200,
                "application/octet-stream",
                self.session.prep.sil.rgba.clone(),
            ),
            Route::Session => self.session_json(),
            Route::Preview | Route::Save | Route::Build => match self.request(body) {
                Err(r) => r,
                Ok(a) if route == Route::Preview => self.preview(a),
                Ok(a) if route == Route::Save => self.save(&a.doc),
                Ok(a) => self.build(a.sk, a.rule),
            },
            Route::Sheet => match &*self.sheet.lock().unwrap_or_else(|e| e.into_inner()) {
                Some(png) => Response::new(200, "image/png", png.clone()),
                None => Response::error(404, "no build yet"),
            },
            Route::Events => Response::error(400, "the events stream is served by the server"),
        }
    }

    fn session_json(&self) -> Response {
        let s = &self.session;
        Response::json(
            200,
            &json!({
                "declaration": s.doc,
                "width": s.width,
                "height": s.height,
                "file": s.decl_path.file_name().map(|f| f.to_string_lossy().into_owned()),
                "fresh": s.fresh,
                "joints": self.joints,
                "motions": self.motions.iter().map(|m| m.name.clone()).collect::<Vec<_>>(),
                "rule": self.rule.name(),
            }),
        )
    }

    /// Parses a body `{"declaration": {...}, "rule"?: "paint"|"tubes", "gen"?: n}` and
    /// validates the declaration (see the module doc for the refusals).
    fn request(&self, body: &[u8]) -> Result<Ask, Response> {
        if let Err(e) = self.limits.check_json_depth(body) {
            return Err(Response::error(400, e.to_string()));
        }
        let Ok(Value::Object(mut req)) = serde_json::from_slice::<Value>(body) else {
            return Err(Response::error(400, "the body is not a JSON object"));
        };
        let Some(doc @ Value::Object(_)) = req.remove("declaration") else {
            return Err(Response::error(
                400,
                "the body has no \"declaration\" object",
            ));
        };
        let rule = match req.get("rule") {
            None | Some(Value::Null) => self.rule,
            Some(Value::String(r)) => Rule::parse(r)
                .ok_or_else(|| Response::error(400, format!("rule '{r}' is not paint or tubes")))?,
            Some(_) => return Err(Response::error(400, "rule is not a string")),
        };
        let generation = req.get("gen").and_then(Value::as_u64).unwrap_or(0);
        if doc.get("image").and_then(Value::as_str) != Some(self.session.image_ref.as_str()) {
            return Err(Response::error(
                403,
                format!(
                    "the declaration's image must stay \"{}\": this editor reads no other file",
                    self.session.image_ref
                ),
            ));
        }
        let text = serde_json::to_vec(&doc).unwrap_or_default();
        let (w, h) = (self.session.width, self.session.height);
        let refuse = |e: String| Response::json(422, &json!({"error": e, "gen": generation}));
        let sk = Skeleton::parse(&text, &self.limits)
            .and_then(|sk| sk.check_image(w, h, &self.limits).map(|_| sk))
            .map_err(|e| refuse(e.to_string()))?;
        if sk.background != self.session.background {
            return Err(refuse(
                "E_EDIT_BACKGROUND: the background cannot change in the editor (it keys the drawing the previews cut): edit the file and open it again".into(),
            ));
        }
        Ok(Ask {
            sk,
            rule,
            doc,
            generation,
        })
    }

    fn preview(&self, a: Ask) -> Response {
        let generation = a.generation;
        let superseded = || Response::json(200, &json!({"superseded": true, "gen": generation}));
        match &self.runner {
            Runner::Inline => run_preview(&self.session, &a.sk, a.rule, generation, &|| false)
                .unwrap_or_else(superseded),
            Runner::Queue(q) => match q.ask((a.sk, a.rule, generation)) {
                Outcome::Done(r) => r,
                Outcome::Superseded => superseded(),
                Outcome::Panicked => Response::error(500, "the preview failed (a bug)"),
            },
        }
    }

    fn save(&self, doc: &Value) -> Response {
        let bytes = crate::format::declaration(doc);
        let s = &self.session;
        match &self.store {
            Store::Memory(m) => {
                *m.lock().unwrap_or_else(|e| e.into_inner()) = Some(bytes.clone());
            }
            Store::File => {
                if let Err(e) =
                    re2d_output::publish::publish(&s.decl_path, &bytes, &[s.image_path.as_path()])
                {
                    return Response::error(500, format!("{}: {e}", s.decl_path.display()));
                }
            }
        }
        Response::json(
            200,
            &json!({"saved": s.decl_path.display().to_string(), "bytes": bytes.len()}),
        )
    }

    fn build(&self, sk: Skeleton, rule: Rule) -> Response {
        if self.building.swap(true, Ordering::SeqCst) {
            return Response::error(409, "a build is running");
        }
        let r = self.run_build(sk, rule);
        self.building.store(false, Ordering::SeqCst);
        release_freed_memory();
        r
    }

    fn run_build(&self, sk: Skeleton, rule: Rule) -> Response {
        let s = &self.session;
        let start = Instant::now();
        let image = match crate::session::decode(&s.png, &self.limits) {
            Ok(i) => i,
            Err(e) => return Response::error(500, e.to_string()),
        };
        let input = Input {
            sk,
            image,
            image_path: s.image_path.clone(),
            name: s.name.clone(),
            layers: None,
        };
        let opts = Options {
            motions: self.motions.clone(),
            slicing: rule,
            ..Options::default()
        };
        let built = match build::build(&input, &opts, &self.limits) {
            Ok(b) => b,
            Err(e) => return Response::error(422, e.to_string()),
        };
        drop(input);
        let sheet = built
            .files
            .iter()
            .find(|(n, _)| n == "sheet.png")
            .map(|(_, b)| b.clone());
        let n = self.builds.fetch_add(1, Ordering::SeqCst) + 1;
        *self.sheet.lock().unwrap_or_else(|e| e.into_inner()) = sheet;
        let (tw, th) = (
            (s.width as usize).div_ceil(build::SHEET_SCALE),
            (s.height as usize).div_ceil(build::SHEET_SCALE),
        );
        Response::json(
            200,
            &json!({
                "sheet": format!("build/sheet.png?n={n}"),
                "panel": [tw, th],
                "frames": if self.motions.is_empty() { 0 } else { build::SHEET_FRAMES },
                "gates": built.report["gates"],
                "failed": built.failed,
                "warnings": built.report["slicing"]["warnings"],
                "seconds": start.elapsed().as_secs_f64(),
            }),
        )
    }
}

/// The CPU time of the calling thread (seconds; Linux, 0 elsewhere).
pub fn thread_cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

/// Hands the memory a preview or build freed back to the system (glibc keeps it otherwise:
/// the CLI raises its trim threshold for the pipelines), so an idle editor holds the drawing,
/// its silhouette and ink, not the peak of its last preview.
pub fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free heap pages to the kernel.
    unsafe {
        libc::malloc_trim(0);
    }
}

fn run_preview(
    s: &Session,
    sk: &Skeleton,
    rule: Rule,
    generation: u64,
    stale: &dyn Fn() -> bool,
) -> Option<Response> {
    let t0 = thread_cpu();
    match preview(sk, &s.prep, rule, stale) {
        Ok(Some(p)) => Some(preview_json(&p, s, generation, thread_cpu() - t0)),
        Ok(None) => None,
        Err(e) => Some(Response::json(
            422,
            &json!({"error": e.to_string(), "gen": generation}),
        )),
    }
}

/// The preview as JSON: the ownership map run-length encoded (value = label, + 128 where a
/// tie-break decided), written directly (a few hundred thousand numbers).
fn preview_json(p: &Preview, s: &Session, generation: u64, cpu: f64) -> Response {
    use std::fmt::Write;
    let mut runs = String::with_capacity(1 << 16);
    let value = |i: usize| {
        let l = p.labels[i];
        if l > 0 && p.how[i] == how::TIE {
            l | 0x80
        } else {
            l
        }
    };
    let n = p.labels.len();
    let mut i = 0;
    while i < n {
        let v = value(i);
        let mut j = i + 1;
        while j < n && value(j) == v {
            j += 1;
        }
        if i > 0 {
            runs.push(',');
        }
        let _ = write!(runs, "{v},{}", j - i);
        i = j;
    }
    let c = &p.confidence;
    let head = json!({
        "gen": generation,
        "width": s.width,
        "height": s.height,
        "parts": p.has_part,
        "warnings": p.warnings,
        "confidence": {
            "doubt": c.doubt(), "tie_share": c.tie_share(), "unpainted_border_share": c.unpainted_share(),
            "seed_disagreement": c.seed_disagreement, "tube_excess": c.tube_excess(), "fit_shrink": c.fit_shrink,
        },
        "cpu_seconds": cpu,
    });
    let mut body = serde_json::to_string(&head).unwrap_or_default();
    body.pop();
    body.push_str(",\"runs\":[");
    body.push_str(&runs);
    body.push_str("]}");
    Response::new(200, "application/json", body.into_bytes())
}
