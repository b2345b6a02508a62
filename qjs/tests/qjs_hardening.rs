// re2d tests — issue 12 for `re2d-qjs` and the JS natives: hostile inputs give catchable JS errors of the documented class, never a dead process.
//! Runs the real `re2d-qjs` binary on scripts written into a
//! temp dir. Row numbers refer to the table of issue 12.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn qjs() -> Command {
    Command::new(env!("CARGO_BIN_EXE_re2d-qjs"))
}

fn tmp(tag: &str) -> PathBuf {
    common::fresh_dir(&format!("re2d-qjs-hard-{tag}"))
}

/// A PNG whose IHDR claims `w`×`h` (and no pixels).
fn huge_png(w: u32, h: u32) -> Vec<u8> {
    fn crc(d: &[u8]) -> u32 {
        let mut c = !0u32;
        for &b in d {
            c ^= b as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
        }
        !c
    }
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut chunk = |kind: &[u8], data: &[u8]| {
        let mut body = kind.to_vec();
        body.extend(data);
        png.extend((data.len() as u32).to_be_bytes());
        png.extend(&body);
        png.extend(crc(&body).to_be_bytes());
    };
    let mut ihdr = w.to_be_bytes().to_vec();
    ihdr.extend(h.to_be_bytes());
    ihdr.extend([8, 6, 0, 0, 0]);
    chunk(b"IHDR", &ihdr);
    chunk(b"IDAT", b"\x78\x9c\x03\x00\x00\x00\x00\x01");
    chunk(b"IEND", b"");
    png
}

/// Runs `body` (an ES module) with a `check(name, fn)` helper that prints
/// `name: <ErrorClass>` or `name: ok <JSON result>`.
fn script(dir: &Path, body: &str, extra: &[&str]) -> (Output, String) {
    let prelude = r#"
import * as std from 'std';
import { createApi } from 're2d/api';
import * as R from 're2d/rotsprite';
const $ = createApi();
function check(name, f) {
    try { print(`${name}: ok ${JSON.stringify(f())}`); }
    catch (e) { print(`${name}: ${e?.constructor?.name} ${e?.message}`); }
}
"#;
    fs::write(dir.join("t.mjs"), format!("{prelude}\n{body}")).unwrap();
    let o = qjs()
        .current_dir(dir)
        .args(extra)
        .arg("t.mjs")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success(),
        "rc {:?}\nstdout: {out}\nstderr: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    (o, out)
}

#[track_caller]
fn line<'a>(out: &'a str, name: &str) -> &'a str {
    out.lines()
        .find(|l| l.starts_with(&format!("{name}:")))
        .unwrap_or_else(|| panic!("no line for {name} in {out}"))
}

#[test]
fn row02_huge_png_headers_are_range_errors_in_every_native() {
    let d = tmp("png");
    fs::write(d.join("huge.png"), huge_png(100_000, 100_000)).unwrap();
    fs::write(
        d.join("m.json"),
        r#"{"version":1,"atlas":"huge.png","rig":{"bones":[{"name":"r"}],"parts":[{"id":1,"bone":"r"}]}}"#,
    )
    .unwrap();
    let (_, out) = script(
        &d,
        r#"
check('loadTexture', () => engine.loadTexture('huge.png'));
check('rotSpriteLoad', () => engine.rotSpriteLoad('huge.png'));
check('from', () => $.re2dSprite.from('m.json'));
check('missing', () => engine.rotSpriteLoad('nope.png'));
"#,
        &[],
    );
    for n in ["loadTexture", "rotSpriteLoad", "from"] {
        let l = line(&out, n);
        assert!(
            l.contains("RangeError") && l.contains("png-max-side"),
            "{l}"
        );
    }
    assert!(line(&out, "missing").contains("TypeError"), "{out}");
}

#[test]
fn row06_non_utf8_arguments_and_script_path() {
    let d = tmp("args");
    let sub = d.join(std::ffi::OsStr::from_bytes(b"d\xff"));
    fs::create_dir(&sub).unwrap();
    fs::write(
        sub.join("s.mjs"),
        "print(scriptArgs.length, scriptArgs[1] === '\\ufffd', scriptArgs[2]);",
    )
    .unwrap();
    let o = qjs()
        .arg(sub.join("s.mjs"))
        .arg(std::ffi::OsStr::from_bytes(b"\xff"))
        .arg("b")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "3 true b");
    // a non-UTF-8 option value is a one-line usage error
    let o = qjs()
        .arg("--size")
        .arg(std::ffi::OsStr::from_bytes(b"\xff"))
        .arg("x.mjs")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&o.stderr).lines().count(), 1);
}

#[test]
fn row09_endless_inputs_and_memory_are_capped() {
    let d = tmp("mem");
    // an endless file: a FIFO fed until the reader gives up
    let fifo = d.join("zero");
    let c = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
    // SAFETY: valid path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let p = fifo.clone();
    let feed = move || {
        use std::io::Write;
        if let Ok(mut f) = fs::OpenOptions::new().write(true).open(&p) {
            let buf = vec![b'x'; 1 << 16];
            while f.write_all(&buf).is_ok() {}
        }
    };
    let w1 = std::thread::spawn(feed.clone());
    let (_, out) = script(
        &d,
        r#"
check('loadFile', () => std.loadFile('zero'));
check('alloc', () => { const a = []; for (;;) a.push(new Array(1 << 20).fill(1.5)); });
check('deep', () => { const f = (n) => f(n + 1) + 1; return f(0); });
check('after', () => 1 + 1);
"#,
        &[
            "--limit",
            "json-max-bytes=1M",
            "--memory-limit",
            "64M",
            "--stack-size",
            "256k",
        ],
    );
    w1.join().unwrap();
    let l = line(&out, "loadFile");
    assert!(
        l.contains("RangeError") && l.contains("json-max-bytes"),
        "{l}"
    );
    assert!(line(&out, "alloc").contains("InternalError"), "{out}");
    assert!(line(&out, "deep").contains("stack"), "{out}");
    assert_eq!(line(&out, "after"), "after: ok 2");
    // import() of an endless file is a catchable loading error
    let w2 = std::thread::spawn(feed);
    fs::write(
        d.join("imp.mjs"),
        "import('./zero').then(() => print('loaded'), (e) => print('import:', e.message));",
    )
    .unwrap();
    let o = qjs()
        .current_dir(&d)
        .args(["--limit", "json-max-bytes=1M", "imp.mjs"])
        .output()
        .unwrap();
    w2.join().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("import:") && out.contains("json-max-bytes"),
        "{out}"
    );
    // bad limit values are usage errors
    let o = qjs()
        .args(["--memory-limit", "lots", "x.mjs"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn row17_resized_and_detached_buffers_are_told_apart() {
    let d = tmp("buf");
    let (_, out) = script(
        &d,
        r#"
const ab = new ArrayBuffer(64, { maxByteLength: 128 });
const view = new Float32Array(ab, 32, 8);
ab.resize(16);
check('resized', () => engine.submitMesh(view, 3, 0));
const ab2 = new ArrayBuffer(64);
const v2 = new Float32Array(ab2);
ab2.transfer();
check('detached', () => engine.submitMesh(v2, 3, 0));
"#,
        &[],
    );
    let r = line(&out, "resized");
    assert!(
        r.contains("TypeError") && r.contains("resized") && !r.contains("detached"),
        "{r}"
    );
    let t = line(&out, "detached");
    assert!(t.contains("TypeError") && t.contains("detached"), "{t}");
}

#[test]
fn row18_script_with_nul_bytes_names_the_file() {
    let d = tmp("nul");
    fs::write(d.join("n.mjs"), b"print(1)\0\n").unwrap();
    let o = qjs().current_dir(&d).arg("n.mjs").output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("n.mjs") && err.contains("NUL"), "{err}");
}

#[test]
fn row19_validators_keep_lone_surrogates_deep_values_and_array_projection() {
    let d = tmp("valid");
    let (_, out) = script(
        &d,
        r#"
const base = { version: 1, atlas: 'a.png', rig: { bones: [{ name: 'root' }], parts: [{ id: 1, bone: 'root' }] } };
const lone = { version: 1, atlas: 'a\udc00.png', rig: { bones: [{ name: '\ud800' }], parts: [{ id: 1, bone: '\ud800' }] } };
check('animations', () => R.validateRotDefinition({ ...base, animations: '\ud800' }).animations === '\ud800');
check('names', () => { const d = R.validateRotDefinition(lone); return d.rig.bones[0].name === '\ud800' && d.atlas === 'a\udc00.png'; });
check('distinct', () => R.validateRotDefinition({ ...base, rig: { bones: [{ name: '\ud800' }, { name: '\ud801' }], parts: [{ id: 1, bone: '\ud801' }] } }).rig.parts[0].bone === '\ud801');
check('dup', () => R.validateRotDefinition({ ...base, rig: { bones: [{ name: '\ud800' }, { name: '\ud800' }], parts: [{ id: 1, bone: '\ud800' }] } }));
check('length', () => R.validateRotDefinition({ ...base, rig: { bones: [{ name: '\ud800'.repeat(80) }], parts: [{ id: 1, bone: '\ud800'.repeat(80) }] } }) && 1);
check('too long', () => R.validateRotDefinition({ ...base, rig: { bones: [{ name: '\ud800'.repeat(81) }], parts: [{ id: 1, bone: 'x' }] } }));
check('clip', () => R.validateRotAnimations({ version: 1, clips: { '\udfff': { duration: 1, loop: true, tracks: [{ target: '\ud800', channel: 'rotation.x', keys: [[0, 1]] }] } } }, R.validateRotDefinition(lone)).clips['\udfff'].tracks[0].target === '\ud800');
check('relative', () => R.relativeAsset('m/\ud800/x.json', '../\udc00.png') === 'm/\udc00.png');
let deep = []; for (let i = 0; i < 200; i++) deep = [deep];
check('deep', () => JSON.stringify(R.validateRotDefinition({ ...base, extra: deep }).extra) === JSON.stringify(deep));
let deeper = {}; for (let i = 0; i < 1200; i++) deeper = { a: deeper };
check('deeper', () => R.validateRotDefinition({ ...base, extra: deeper }));
check('projection', () => { const p = R.validateRotDefinition({ ...base, projection: [] }).projection; return [Array.isArray(p), p.bodyScale, p.portraitScale]; });
check('projection5', () => R.validateRotDefinition({ ...base, projection: 5 }));
"#,
        &[],
    );
    for n in [
        "animations",
        "names",
        "distinct",
        "clip",
        "relative",
        "deep",
    ] {
        assert_eq!(line(&out, n), format!("{n}: ok true"), "{out}");
    }
    assert_eq!(line(&out, "length"), "length: ok 1");
    assert!(line(&out, "dup").contains("TypeError"), "{out}");
    assert!(line(&out, "too long").contains("TypeError"), "{out}");
    let l = line(&out, "deeper");
    assert!(
        l.contains("RangeError") && l.contains("json-max-depth"),
        "{l}"
    );
    assert_eq!(line(&out, "projection"), "projection: ok [true,1,2]");
    assert!(line(&out, "projection5").contains("TypeError"), "{out}");
}

/// A script whose reader goes away (`re2d-qjs script | head -1`): the lines
/// that no one reads are lost, the script runs to its end and the process
/// exits 0 — no panic in the script thread.
#[test]
fn a_closed_stdout_loses_lines_without_a_panic() {
    use std::io::Read;
    use std::process::Stdio;
    let dir = tmp("closed-stdout");
    let js = dir.join("many.js");
    fs::write(
        &js,
        "for (let i = 0; i < 100000; i++) print('line ' + i);\nconsole.log('after');\nconsole.error('finished');\n",
    )
    .unwrap();
    let mut child = qjs()
        .arg(&js)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 7];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap(); // then the pipe closes
    assert_eq!(&first, b"line 0\n");
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "exit {:?}, stderr {err}", out.status);
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains("finished"), "the script ran to its end: {err}");
}
