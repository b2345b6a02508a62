//! `re2d-qjs`: run an ES module under QuickJS with re2d's built-in modules
//! and default CPU engine (issue 3). Argument parsing only; see `re2d_qjs::host`.
//!
//! `--time-limit SECONDS` sets the `qjs-time` limit; `--root DIR` confines
//! the script's file access (see `re2d_qjs::guard`).
//!
//! Arguments are read as OS strings: the script path may be any bytes; script
//! arguments that are not UTF-8 reach `scriptArgs` with each invalid byte
//! replaced by U+FFFD. Usage errors exit 2 with one line on stderr.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::exit;

use re2d::limits::{Limits, parse_size};
use re2d_qjs::host::{Options, run};

const USAGE: &str = "usage: re2d-qjs [--no-builtins] [--no-engine] [--size WxH] [--memory-limit BYTES] \
[--stack-size BYTES] [--time-limit SECONDS] [--root DIR] [--limit NAME=VALUE] FILE.mjs [args...] \
| --help | --version";

fn fail(msg: &str) -> ! {
    eprintln!("re2d-qjs: {msg}");
    exit(2);
}

fn parse_wh(s: &str) -> Option<(u32, u32)> {
    let (w, h) = s.split_once(['x', 'X'])?;
    let (w, h) = (w.parse::<u32>().ok()?, h.parse::<u32>().ok()?);
    (w > 0 && h > 0 && w <= 16384 && h <= 16384).then_some((w, h))
}

/// An option value as UTF-8 (option values are ASCII by nature).
fn text(v: Option<OsString>, opt: &str) -> String {
    match v.map(OsString::into_string) {
        Some(Ok(s)) => s,
        Some(Err(_)) => fail(&format!("{opt}: the value is not UTF-8")),
        None => fail(&format!("{opt} needs a value ({USAGE})")),
    }
}

fn main() {
    let mut opts = Options {
        file: PathBuf::new(),
        args: Vec::new(),
        builtins: true,
        engine: true,
        size: (640, 480),
        root: None,
    };
    let mut limits = Limits::DEFAULT;
    let mut it = std::env::args_os().skip(1);
    let file = loop {
        let Some(a) = it.next() else {
            fail(&format!("missing FILE ({USAGE})"));
        };
        let Some(s) = a.to_str() else { break a };
        let (name, inline) = match s.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n.to_string(), Some(OsString::from(v))),
            _ => (s.to_string(), None),
        };
        let mut value = |opt: &str| text(inline.clone().or_else(|| it.next()), opt);
        match name.as_str() {
            "--no-builtins" => opts.builtins = false,
            "--no-engine" => opts.engine = false,
            "--size" => {
                let v = value("--size");
                opts.size =
                    parse_wh(&v).unwrap_or_else(|| fail(&format!("bad --size '{v}' (want WxH)")));
            }
            "--memory-limit" | "--stack-size" => {
                let v = value(&name);
                let key = if name == "--memory-limit" {
                    "qjs-memory"
                } else {
                    "qjs-stack"
                };
                if parse_size(&v).is_none() {
                    fail(&format!("bad {name} '{v}' (bytes, optional k/M/G)"));
                }
                limits.set(key, &v).unwrap_or_else(|e| fail(&e));
            }
            "--time-limit" => {
                let v = value("--time-limit");
                if !v.bytes().all(|b| b.is_ascii_digit()) || v.is_empty() {
                    fail(&format!("bad --time-limit '{v}' (whole seconds, 0 = none)"));
                }
                limits.set("qjs-time", &v).unwrap_or_else(|e| fail(&e));
            }
            "--root" => {
                let v = inline
                    .clone()
                    .or_else(|| it.next())
                    .unwrap_or_else(|| fail(&format!("--root needs a value ({USAGE})")));
                opts.root = Some(PathBuf::from(v));
            }
            "--limit" => {
                let v = value("--limit");
                limits.set_pair(&v).unwrap_or_else(|e| fail(&e));
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                exit(0);
            }
            "-V" | "--version" => {
                println!("re2d-qjs {}", env!("CARGO_PKG_VERSION"));
                exit(0);
            }
            s if s.starts_with('-') && s.len() > 1 => {
                fail(&format!("unknown option '{s}' ({USAGE})"))
            }
            _ => break a,
        }
    };
    Limits::set_current(limits);
    opts.file = PathBuf::from(file);
    opts.args = it.map(|a| a.to_string_lossy().into_owned()).collect();
    exit(run(&opts));
}
