// re2d tests — issue 20 for `re2d-qjs`: stack sizes, time limit, native memory, --root, publish inputs, lone surrogates.
//! Runs the real `re2d-qjs` binary on scripts written into a temp dir.
//! Each test fails on the host before issue 20 (an abort, a script that
//! never stops, an unrefused allocation, an unconfined write, a throw).

#[path = "../../tests/common/mod.rs"]
mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn qjs() -> Command {
    Command::new(env!("CARGO_BIN_EXE_re2d-qjs"))
}

fn tmp(tag: &str) -> PathBuf {
    common::fresh_dir(&format!("re2d-qjs-limits-{tag}"))
}

/// Runs `re2d-qjs [args] FILE` in `dir` with `body` as FILE.
fn run(dir: &Path, file: &str, body: &str, args: &[&str]) -> Output {
    fs::write(dir.join(file), body).unwrap();
    qjs()
        .current_dir(dir)
        .args(args)
        .arg(file)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn describe(o: &Output) -> String {
    format!(
        "rc {:?}\nstdout: {}\nstderr: {}",
        o.status.code(),
        text(&o.stdout),
        text(&o.stderr)
    )
}

/// Deep recursion and a deep `JSON.parse` are RangeErrors at every stack
/// size up to the maximum: the script thread's native stack is always
/// larger than the QuickJS limit (main aborted from 8M up, rc 134).
#[test]
fn every_stack_size_gives_a_range_error() {
    let d = tmp("stack");
    let body = r#"
const f = (n) => f(n + 1) + 1;
try { f(0); print('no error'); } catch (e) { print('recursion', e.constructor.name); }
const s = '['.repeat(4 << 20);
try { JSON.parse(s); print('no error'); } catch (e) { print('json', e.constructor.name); }
print('after', 1 + 1);
"#;
    for size in ["256k", "4M", "8M", "17M", "64M", "256M"] {
        let o = run(&d, "deep.mjs", body, &["--stack-size", size]);
        assert_eq!(o.status.code(), Some(0), "{size}: {}", describe(&o));
        assert_eq!(
            text(&o.stdout),
            "recursion RangeError\njson RangeError\nafter 2\n",
            "{size}: {}",
            describe(&o)
        );
    }
    // too small to run anything: the overflow is still reported as one
    // (was "<unprintable value>")
    for size in ["1", "1k"] {
        let o = run(&d, "deep.mjs", body, &["--stack-size", size]);
        assert_eq!(o.status.code(), Some(1), "{size}: {}", describe(&o));
        assert!(
            text(&o.stderr).starts_with("RangeError: Maximum call stack size exceeded"),
            "{size}: {}",
            describe(&o)
        );
    }
    // the same through the limits table
    let o = run(&d, "deep.mjs", body, &["--limit", "qjs-stack=32M"]);
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    // the maximum is in the table: one more byte is a usage error
    for args in [["--stack-size", "257M"], ["--limit", "qjs-stack=268435457"]] {
        let o = run(&d, "deep.mjs", body, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", describe(&o));
        assert_eq!(text(&o.stderr).lines().count(), 1);
        assert!(text(&o.stderr).contains("qjs-stack"), "{}", describe(&o));
    }
}

/// `--time-limit` stops every kind of endless script with exit 1 and one
/// stderr line naming the limit; `try`/`catch`/`finally` cannot keep it
/// running. (No timing is asserted: only that each run ends that way.)
#[test]
fn time_limit_stops_loops_regexps_sleeps_timers_and_jobs() {
    let d = tmp("time");
    let cases = [
        ("loop", "print('start'); for (;;) {}"),
        (
            "caught",
            "for (;;) { try { for (;;) {} } catch (e) { print('caught'); } finally { print('finally'); } }",
        ),
        ("regexp", "print(/(a+)+b/.test('a'.repeat(64)));"),
        (
            "sleep",
            "import * as os from 'os'; try { os.sleep(1e12); } catch (e) { print('caught'); } print('after');",
        ),
        (
            "timer",
            "setTimeout(() => print('late'), 1e12); print('queued');",
        ),
        (
            "flood",
            "function f() { setTimeout(f, 0); setTimeout(f, 0); } f();",
        ),
        ("jobs", "async function g() { for (;;) await null; } g();"),
    ];
    for (name, body) in cases {
        let o = run(&d, &format!("{name}.mjs"), body, &["--time-limit", "1"]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", describe(&o));
        let err = text(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{name}: {}", describe(&o));
        assert!(
            err.contains("limit qjs-time") && err.contains("1 s"),
            "{name}: {err}"
        );
        let out = text(&o.stdout);
        assert!(
            !out.contains("caught")
                && !out.contains("finally")
                && !out.contains("after")
                && !out.contains("late"),
            "{name}: {out}"
        );
    }
    // the table row, and a script that ends in time is unaffected
    let o = run(
        &d,
        "quick.mjs",
        "import * as os from 'os'; os.sleep(1); setTimeout(() => print('t'), 1); print('m');",
        &["--limit", "qjs-time=600"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    assert_eq!(text(&o.stdout), "m\nt\n");
    for args in [
        ["--time-limit", "1.5"],
        ["--time-limit", "-1"],
        ["--time-limit", "1000001"],
    ] {
        let o = run(&d, "quick.mjs", "", &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", describe(&o));
        assert_eq!(text(&o.stderr).lines().count(), 1);
    }
}

/// The framebuffer of `--size` and the buffers of a PNG encode count
/// against the memory limit: refused before they are allocated.
#[test]
fn native_buffers_count_against_the_memory_limit() {
    let d = tmp("mem");
    let body = r#"
print('running');
engine.clear(10, 20, 30, 255);
try { engine.savePNG('out.png'); print('saved'); }
catch (e) { print(e.constructor.name, e.message); }
"#;
    // 16384² is 2 GiB of framebuffer: refused at start-up, nothing run
    for args in [
        &["--size", "16384x16384", "--memory-limit", "10M"][..],
        &["--size", "16384x16384"][..],
    ] {
        let o = run(&d, "big.mjs", body, args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", describe(&o));
        assert_eq!(text(&o.stdout), "", "{args:?}");
        let err = text(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("qjs-memory") && err.contains("2147483648"),
            "{err}"
        );
    }
    // a framebuffer that fits but leaves no room for the heap
    let o = run(&d, "big.mjs", body, &["--size", "11585x11585"]);
    assert_eq!(o.status.code(), Some(1), "{}", describe(&o));
    assert_eq!(text(&o.stdout), "");
    let err = text(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("qjs-memory") && err.contains("1073697800"),
        "{err}"
    );
    // 2000² holds 32 MB; its encode needs more than the 8 MB left
    let o = run(
        &d,
        "big.mjs",
        body,
        &["--size", "2000x2000", "--memory-limit", "40M"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    let out = text(&o.stdout);
    assert!(
        out.contains("RangeError") && out.contains("qjs-memory") && out.contains("savePNG"),
        "{out}"
    );
    assert!(!d.join("out.png").exists());
    // with room for it the same save works
    let o = run(
        &d,
        "big.mjs",
        body,
        &["--size", "2000x2000", "--memory-limit", "200M"],
    );
    assert_eq!(text(&o.stdout), "running\nsaved\n", "{}", describe(&o));
    assert!(d.join("out.png").exists());
    // the maximum of the limit itself
    let o = run(&d, "big.mjs", body, &["--memory-limit", "17G"]);
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
}

/// `--root` confines loadFile, imports, texture reads and every native
/// write (symlinks resolved); without it nothing changes.
#[test]
fn root_confines_reads_imports_and_writes() {
    let d = tmp("root");
    let root = d.join("r");
    let other = d.join("o");
    fs::create_dir_all(root.join("sub")).unwrap();
    fs::create_dir_all(&other).unwrap();
    fs::write(other.join("secret.txt"), "secret").unwrap();
    fs::write(other.join("m.mjs"), "export const x = 1;").unwrap();
    fs::write(root.join("inside.txt"), "inside").unwrap();
    // $.mesh.load (issue 30): a model outside, and a model inside whose texture is outside
    let model = |tex: &str| {
        format!(
            r#"{{"version": 1, "textures": {{"t": "{tex}"}}, "parts": [{{"verts": [0, 0], "uv": [0, 0], "texture": "t"}}]}}"#
        )
    };
    fs::write(other.join("model.json"), model("secret.txt")).unwrap();
    fs::write(root.join("model.json"), model("escape/secret.txt")).unwrap();
    std::os::unix::fs::symlink("../o", root.join("escape")).unwrap();
    std::os::unix::fs::symlink("../o/new.png", root.join("link.png")).unwrap();
    let body = r#"
import * as std from 'std';
import { installMesh } from 're2d/mesh';
function check(n, f) { try { print(n, 'ok', JSON.stringify(f())); } catch (e) { print(n, e.constructor.name, e.code, e.message); } }
check('load-out', () => installMesh({}).load('escape/model.json'));
check('load-tex', () => installMesh({}).load('model.json'));
check('in', () => std.loadFile('sub/../inside.txt'));
check('out', () => std.loadFile('../o/secret.txt'));
check('link', () => std.loadFile('escape/secret.txt'));
check('save-in', () => engine.savePNG('sub/new/a.png'));
check('save-out', () => engine.savePNG('../o/x.png'));
check('save-link', () => engine.savePNG('link.png'));
check('save-dotdot', () => engine.savePNG('sub/nope/../../../o/y.png'));
check('tex', () => engine.loadTexture('escape/secret.txt'));
check('stamp-in', () => typeof engine.rotSpriteFileStamp('inside.txt'));
check('stamp-out', () => engine.rotSpriteFileStamp('escape/secret.txt'));
import('../o/m.mjs').then(() => print('import ok'), (e) => print('import', e.message));
"#;
    fs::write(root.join("t.mjs"), body).unwrap();
    let o = qjs()
        .current_dir(&root)
        .args(["--size", "4x4", "--root", "."])
        .arg("t.mjs")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    let out = text(&o.stdout);
    let line = |n: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("{n} ")))
            .unwrap_or_else(|| panic!("no {n} in {out}"))
            .to_string()
    };
    assert_eq!(line("in"), "in ok \"inside\"");
    assert!(
        line("load-out").starts_with("load-out Error E_IO "),
        "{out}"
    );
    assert!(
        line("load-tex").starts_with("load-tex Error E_TEXTURE "),
        "{out}"
    );
    assert_eq!(line("save-in"), "save-in ok undefined");
    assert_eq!(line("stamp-in"), "stamp-in ok \"string\"");
    assert_eq!(
        line("stamp-out"),
        "stamp-out ok null",
        "outside the root: as if missing"
    );
    for n in [
        "out",
        "link",
        "save-out",
        "save-link",
        "save-dotdot",
        "tex",
        "import",
        "load-out",
        "load-tex",
    ] {
        assert!(line(n).contains("outside the --root"), "{n}: {out}");
    }
    assert!(root.join("sub/new/a.png").exists());
    let left: Vec<_> = fs::read_dir(&other)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 3, "nothing written outside the root: {left:?}");
    assert!(!root.join("sub/nope").exists());
    // a --root that is not a folder
    let o = qjs()
        .current_dir(&root)
        .args(["--root", "inside.txt", "t.mjs"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", describe(&o));
    assert_eq!(text(&o.stderr).lines().count(), 1);
}

/// The running script and its imports are inputs of the publish path;
/// a dangling link never gets its destination's folders created.
#[test]
fn savepng_never_replaces_the_script_or_creates_link_folders() {
    let d = tmp("inputs");
    fs::write(d.join("lib.mjs"), "export const k = 3;").unwrap();
    std::os::unix::fs::symlink("gone/deeper/t.png", d.join("dangling.png")).unwrap();
    let body = r#"
import { k } from './lib.mjs';
function check(n, f) { try { f(); print(n, 'ok'); } catch (e) { print(n, e.constructor.name, e.message); } }
check('self', () => engine.savePNG('main.mjs'));
check('import', () => engine.savePNG('lib.mjs'));
check('dangling', () => engine.savePNG('dangling.png'));
print('k', k);
"#;
    let o = run(&d, "main.mjs", body, &["--size", "2x2"]);
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    let out = text(&o.stdout);
    assert!(
        out.contains("self Error") && out.contains("refusing to overwrite"),
        "{out}"
    );
    assert!(
        out.contains("import Error") && out.contains("lib.mjs"),
        "{out}"
    );
    assert!(out.contains("dangling Error"), "{out}");
    assert_eq!(fs::read_to_string(d.join("main.mjs")).unwrap(), body);
    assert_eq!(
        fs::read_to_string(d.join("lib.mjs")).unwrap(),
        "export const k = 3;"
    );
    assert!(!d.join("gone").exists(), "the link's folders were created");
}

/// `print`, `console.log`/`error` and `std.out.puts` write a lone surrogate
/// as U+FFFD instead of throwing.
#[test]
fn lone_surrogates_print_as_replacement_characters() {
    let d = tmp("surrogate");
    let o = run(
        &d,
        "s.mjs",
        r#"
import * as std from 'std';
print('\uD800', 'a\uDC00b', '\uD83D\uDE00');
console.log('x\uDFFF');
console.error('\uD800!');
std.out.puts('\uDBFF\n');
print(['\uD800']);
"#,
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    assert_eq!(
        text(&o.stdout),
        "\u{FFFD} a\u{FFFD}b \u{1F600}\nx\u{FFFD}\n\u{FFFD}\n\u{FFFD}\n"
    );
    assert_eq!(text(&o.stderr), "\u{FFFD}!\n");
}

/// A script stuck in native code past the deadline (here a publish held by
/// the test pause) is ended by the watchdog: one line, exit 1, and the
/// temporary file in flight removed.
#[test]
fn watchdog_ends_a_run_stuck_in_native_code() {
    let d = tmp("watchdog");
    fs::write(
        d.join("s.mjs"),
        "engine.savePNG('out.png'); print('saved');",
    )
    .unwrap();
    let o = qjs()
        .current_dir(&d)
        .env("RE2D_TEST_PUBLISH_PAUSE_MS", "60000")
        .args(["--size", "8x8", "--time-limit", "1", "s.mjs"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", describe(&o));
    let err = text(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("limit qjs-time"), "{err}");
    assert_eq!(text(&o.stdout), "");
    let left: Vec<_> = fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["s.mjs"], "no output, no temporary file");
}

/// Textures are native memory too: each kept texture shrinks what is left
/// for the heap, and a decode that does not fit is refused before it is
/// allocated (before, 100 loads of a 4 MB texture all succeeded under a
/// 32 MB limit).
#[test]
fn textures_count_against_the_memory_limit() {
    let d = tmp("tex");
    let png =
        re2d_output::png_encode::encode_rgba(&vec![7u8; 1000 * 1000 * 4], 1000, 1000).unwrap();
    fs::write(d.join("t.png"), png).unwrap();
    let body = r#"
let n = 0;
try { for (; n < 100; n++) engine.loadTexture('t.png'); print('loaded', n); }
catch (e) { print('after', n, e.constructor.name, e.message); }
"#;
    let o = run(
        &d,
        "t.mjs",
        body,
        &["--size", "8x8", "--memory-limit", "32M"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    let out = text(&o.stdout);
    let n: u32 = out
        .split_whitespace()
        .nth(1)
        .and_then(|w| w.parse().ok())
        .unwrap_or(999);
    assert!(
        out.starts_with("after") && out.contains("RangeError") && out.contains("qjs-memory"),
        "{out}"
    );
    // 32 MiB holds at most 8 textures of 4 MB (fewer: the decode needs twice one)
    assert!((1..8).contains(&n), "{out}");
    // with room for them, they load
    let o = run(
        &d,
        "t.mjs",
        &body.replace("100", "12"),
        &["--size", "8x8", "--memory-limit", "200M"],
    );
    assert_eq!(text(&o.stdout), "loaded 12\n", "{}", describe(&o));
}

/// Issue 45 class 6: one answer for every path outside `--root`, whether it
/// exists or not (a file, a folder, a path above the root, a dangling link
/// in the root pointing out), through every reading native — a script
/// cannot learn which paths exist on the machine. Inside the root a missing
/// file is still "cannot read" (the script may know its own folder).
#[test]
fn one_answer_for_every_path_outside_the_root() {
    // a deep folder, as a checkout under a long path has: QuickJS cuts the
    // messages it formats itself at 256 bytes, which once made the answers
    // for `exists` and `missing` differ where the cut fell (every answer
    // here names the root, so every one outgrows 256 bytes)
    let d = tmp("oracle").join(format!("deep-{}", "folder-".repeat(28)));
    let root = d.join("r");
    let other = d.join("o");
    fs::create_dir_all(&root).unwrap();
    fs::create_dir_all(&other).unwrap();
    fs::write(other.join("exists.txt"), "x").unwrap();
    std::os::unix::fs::symlink("../o/exists.txt", root.join("to-existing")).unwrap();
    std::os::unix::fs::symlink("../o/missing.txt", root.join("to-missing")).unwrap();
    let pairs = [
        ("../o/exists.txt", "../o/missing.txt"),
        ("../o", "../no-such-folder/x"),
        ("to-existing", "to-missing"),
        ("to-existing", "to-missing/deeper"),
        ("/etc/passwd", "/etc/no-such-file-r45"),
    ];
    let body = format!(
        r#"
import * as std from 'std';
import {{ installMesh }} from 're2d/mesh';
const mesh = installMesh({{}});
const probes = {{
    'loadFile': (p) => std.loadFile(p),
    'mesh.load': (p) => mesh.load(p),
    'mesh.load texture': (p) => mesh.load({{ version: 1, textures: {{ t: p }}, parts: [{{ verts: [0, 0], uv: [0, 0], texture: 't' }}] }}),
    'loadTexture': (p) => engine.loadTexture(p),
    'rotSpriteLoad': (p) => engine.rotSpriteLoad(p),
}};
const answer = (f, p) => {{
    try {{ return 'returned ' + JSON.stringify(f(p)); }} catch (e) {{ return `${{e.constructor.name}} ${{e.code}} ${{String(e.message).split(p).join('PATH')}}`; }}
}};
for (const [a, b] of {pairs}) {{
    for (const [n, f] of Object.entries(probes)) print(n, a, '|', answer(f, a), '|', answer(f, b));
    // the loader names the resolved path: every path taken out
    const norm = (m) => String(m).replace(/'[^']*'/g, "'Q'").replace(/\S+: outside/g, 'P: outside');
    const ia = await import(a).then(() => 'imported', (e) => norm(e.message));
    const ib = await import(b).then(() => 'imported', (e) => norm(e.message));
    print('import', a, '|', ia, '|', ib);
}}
print('inside', answer(probes.loadFile, 'no-such-inside.txt'));
"#,
        pairs = serde_json::to_string(&pairs.map(|(a, b)| [a, b])).unwrap()
    );
    let o = {
        fs::write(root.join("t.mjs"), body).unwrap();
        qjs()
            .current_dir(&root)
            .args(["--size", "4x4", "--root", "."])
            .arg("t.mjs")
            .output()
            .unwrap()
    };
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    let out = text(&o.stdout);
    let mut n = 0;
    for l in out.lines().filter(|l| !l.starts_with("inside")) {
        let cells: Vec<&str> = l.split(" | ").collect();
        assert_eq!(cells.len(), 3, "{l}");
        assert_eq!(cells[1], cells[2], "two answers outside the root: {l}");
        // a bare specifier (`to-existing`) is no path for an import: the resolver's one answer
        let bare = l.starts_with("import") && cells[1].contains("cannot resolve module");
        assert!(bare || cells[1].contains("outside the --root"), "{l}");
        n += 1;
    }
    assert_eq!(n, pairs.len() * 6, "{out}");
    let inside = out.lines().find(|l| l.starts_with("inside")).unwrap();
    assert!(
        inside.contains("cannot read") || inside.contains("null"),
        "{inside}"
    );
}

/// Issue 45 class 7: a native read counts against `qjs-memory` before its
/// buffer is allocated — a 200 MB texture of `$.mesh.load`, a 50 MB text
/// of `std.loadFile` and `$.mesh.load` of a model whose parsed tree would
/// not fit are `RangeError`s naming the limit at 32 MiB, their files never
/// read (the peak stays far below their size).
#[test]
fn native_reads_count_against_the_memory_limit() {
    let d = tmp("reads");
    // sparse files: a 200 MB "PNG" (a signature, then zeros) and 100 MB of text
    let sparse = |name: &str, head: &[u8], len: u64| {
        let f = fs::File::create(d.join(name)).unwrap();
        use std::io::Write;
        (&f).write_all(head).unwrap();
        f.set_len(len).unwrap();
    };
    sparse("big.png", b"\x89PNG\r\n\x1a\n", 200 << 20);
    sparse("big.txt", b"hello", 50 << 20);
    fs::write(
        d.join("big-tex.json"),
        r#"{"version": 1, "textures": {"t": "big.png"}, "skeleton": {"root": {"x": 0, "y": 0, "length": 1}},
            "parts": [{"verts": [0, 0, 1, 0, 0, 1], "uv": [0, 0, 1, 0, 0, 1], "tris": [0, 1, 2], "texture": "t"}]}"#,
    )
    .unwrap();
    // 3 M numbers: 6 MB of text, about 240 MB of parsed tree
    let mut m = String::from(r#"{"version": 1, "extra": ["#);
    m.push_str(&"0,".repeat(3_000_000));
    m.push_str("0]}");
    fs::write(d.join("big-tree.json"), m).unwrap();
    let body = r#"
import * as std from 'std';
import { installMesh } from 're2d/mesh';
const mesh = installMesh({});
for (const [n, f] of [['texture', () => mesh.load('big-tex.json')], ['text', () => std.loadFile('big.txt')],
                      ['tree', () => mesh.load('big-tree.json')]]) {
    try { f(); print(n, 'ok'); } catch (e) { print(n, e.constructor.name, String(e.message).slice(0, 300)); }
}
"#;
    let o = run(
        &d,
        "reads.mjs",
        body,
        &["--memory-limit", "32M", "--size", "4x4"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    let out = text(&o.stdout);
    for n in ["texture", "text", "tree"] {
        let l = out
            .lines()
            .find(|l| l.starts_with(n))
            .unwrap_or_else(|| panic!("{n}: {out}"));
        assert!(l.contains("RangeError") && l.contains("qjs-memory"), "{l}");
    }
    // with room for them the same reads work (the text) or fail on content (the zeros are no PNG)
    let o = run(
        &d,
        "reads.mjs",
        body,
        &["--memory-limit", "2G", "--size", "4x4"],
    );
    let out = text(&o.stdout);
    assert!(out.contains("text ok"), "{out}");
    assert!(!out.contains("qjs-memory"), "{out}");
}
