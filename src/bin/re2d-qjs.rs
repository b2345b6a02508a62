//! `re2d-qjs`: run an ES module under QuickJS with re2d's built-in modules
//! and default CPU engine (issue 3). Argument parsing only; see `re2d::js::host`.

use std::path::PathBuf;
use std::process::exit;

use re2d::js::host::{Options, run};

const USAGE: &str = "usage: re2d-qjs [--no-builtins] [--no-engine] [--size WxH] FILE.mjs [args...] | --help | --version";

fn fail(msg: &str) -> ! {
    eprintln!("re2d-qjs: {msg}");
    exit(2);
}

fn parse_size(s: &str) -> Option<(u32, u32)> {
    let (w, h) = s.split_once(['x', 'X'])?;
    let (w, h) = (w.parse::<u32>().ok()?, h.parse::<u32>().ok()?);
    (w > 0 && h > 0 && w <= 16384 && h <= 16384).then_some((w, h))
}

fn main() {
    let mut opts = Options {
        file: PathBuf::new(),
        args: Vec::new(),
        builtins: true,
        engine: true,
        size: (640, 480),
    };
    let mut it = std::env::args().skip(1);
    let file = loop {
        let Some(a) = it.next() else {
            fail(&format!("missing FILE ({USAGE})"));
        };
        match a.as_str() {
            "--no-builtins" => opts.builtins = false,
            "--no-engine" => opts.engine = false,
            "--size" => {
                let v = it.next().unwrap_or_else(|| fail("--size needs WxH"));
                opts.size =
                    parse_size(&v).unwrap_or_else(|| fail(&format!("bad --size '{v}' (want WxH)")));
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                exit(0);
            }
            "-V" | "--version" => {
                println!("re2d-qjs {}", env!("CARGO_PKG_VERSION"));
                exit(0);
            }
            s if s.starts_with("--size=") => {
                let v = &s["--size=".len()..];
                opts.size =
                    parse_size(v).unwrap_or_else(|| fail(&format!("bad --size '{v}' (want WxH)")));
            }
            s if s.starts_with('-') && s.len() > 1 => {
                fail(&format!("unknown option '{s}' ({USAGE})"))
            }
            _ => break a,
        }
    };
    opts.file = PathBuf::from(file);
    opts.args = it.collect();
    exit(run(&opts));
}
