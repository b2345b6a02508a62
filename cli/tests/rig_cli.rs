// re2d CLI tests — `re2d rig build|slice|verify|mesh|motion`: the folder it writes, the gates in
// its report, and every bad input of issue 19 → its code, exit 1, nothing written.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};

use re2d_testkit::drawings::{self, CharacterSpec};
use serde_json::Value;

fn repo() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn run(args: &[&str]) -> (i32, String, String) {
    common::run(env!("CARGO_BIN_EXE_re2d"), args)
}

/// Writes `spec`'s drawing into a fresh folder; returns (folder, skeleton path).
fn drawing(tag: &str, spec: CharacterSpec) -> (PathBuf, PathBuf) {
    let dir = common::fresh_dir(&format!("re2d-rig-{tag}"));
    let d = drawings::generate(&spec).unwrap();
    let [_, _, sk] = d.write_files(&dir).unwrap();
    (dir, sk)
}

fn small(tag: &str) -> (PathBuf, PathBuf) {
    drawing(tag, drawings::biped().sized(424, 632))
}

fn edit(sk: &Path, f: impl FnOnce(&mut Value)) -> PathBuf {
    let mut v: Value = serde_json::from_slice(&std::fs::read(sk).unwrap()).unwrap();
    f(&mut v);
    let out = sk.with_file_name("edited.skeleton.json");
    std::fs::write(&out, serde_json::to_vec(&v).unwrap()).unwrap();
    out
}

/// `rig build` on `sk` fails with `code`, exit 1, one line, and writes nothing.
fn rejects(dir: &Path, sk: &Path, code: &str) {
    let out = dir.join("out");
    let (c, stdout, stderr) = run(&[
        "rig",
        "build",
        sk.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(c, 1, "{code}: stderr {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(code), "{code}: {stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(!out.exists(), "{code}: the output folder was written");
    let leftovers: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".out"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

fn bones(v: &mut Value) -> &mut Vec<Value> {
    v["bones"].as_array_mut().unwrap()
}

#[test]
fn bad_skeletons_are_rejected_with_their_code_and_nothing_written() {
    let (dir, sk) = small("bad");
    type Edit = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, Edit)> = vec![
        (
            "E_RIG_CYCLE",
            Box::new(|v| {
                // pelvis (the root) gets a descendant as its parent
                bones(v)[0]["parent"] = Value::from("chest");
            }),
        ),
        (
            "E_RIG_PARENT",
            Box::new(|v| bones(v)[3]["parent"] = Value::from("nobody")),
        ),
        (
            "E_RIG_DUPLICATE",
            Box::new(|v| {
                let n = bones(v)[2]["name"].clone();
                bones(v)[5]["name"] = n;
            }),
        ),
        (
            "E_RIG_POINTS",
            Box::new(|v| {
                let p = bones(v)[4]["points"][0].clone();
                bones(v)[4]["points"] = Value::Array(vec![p]);
                bones(v)[4]["radius"] = Value::from(10.0);
            }),
        ),
        (
            "E_RIG_RADIUS",
            Box::new(|v| bones(v)[6]["radius"] = Value::from(0.0)),
        ),
        (
            "E_RIG_BEND",
            Box::new(|v| bones(v)[5]["bend"] = Value::from("backwards")),
        ),
        (
            "E_RIG_RADIUS",
            Box::new(|v| bones(v)[6]["radius"] = Value::from(-3.0)),
        ),
        (
            "E_RIG_OUTSIDE",
            Box::new(|v| bones(v)[7]["points"][0] = serde_json::json!([5000.0, 10.0])),
        ),
        (
            "E_RIG_NAN",
            Box::new(|v| bones(v)[7]["points"][0] = serde_json::json!([null, 10.0])),
        ),
        (
            "E_RIG_PART",
            Box::new(|v| {
                // a bone whose tube lies on the key only
                bones(v).push(serde_json::json!({"name": "ghost", "parent": "pelvis",
                "points": [[4.0, 4.0], [30.0, 4.0]], "radius": 2.0, "depth": 9}));
            }),
        ),
    ];
    for (code, f) in &cases {
        let bad = edit(&sk, f);
        rejects(&dir, &bad, code);
    }
    // not JSON at all
    let garbage = dir.join("garbage.skeleton.json");
    std::fs::write(&garbage, b"{\"version\": 1, \"bones\": [").unwrap();
    rejects(&dir, &garbage, "E_RIG_JSON");
}

#[test]
fn an_image_without_a_key_border_is_rejected() {
    let (dir, sk) = small("nokey");
    let png = dir.join("biped.png");
    let img = re2d::png_io::read_png_file(&png).unwrap();
    let (w, h) = (img.width as usize, img.height as usize);
    let mut px = img.data.clone();
    // every border pixel a different colour: no key can own the border
    for i in 0..w * h {
        let (x, y) = (i % w, i / w);
        if x < 3 || y < 3 || x >= w - 3 || y >= h - 3 {
            px[i * 4..i * 4 + 4].copy_from_slice(&[
                (i * 7) as u8,
                (i * 13) as u8,
                (i * 29) as u8,
                255,
            ]);
        }
    }
    std::fs::write(
        &png,
        re2d_output::png_encode::encode_rgba(&px, img.width, img.height).unwrap(),
    )
    .unwrap();
    rejects(&dir, &sk, "E_RIG_KEY");
    let auto = edit(&sk, |v| v["background"] = Value::from("auto"));
    rejects(&dir, &auto, "E_RIG_KEY");
}

#[test]
fn a_bad_motion_capture_is_rejected_before_anything_is_written() {
    let (dir, sk) = small("badbvh");
    let bvh = dir.join("cut.bvh");
    let full = std::fs::read(repo().join("assets/mocap/cmu-131-01-walk.bvh")).unwrap();
    std::fs::write(&bvh, &full[..full.len() / 3]).unwrap();
    let out = dir.join("out");
    let (c, _, stderr) = run(&[
        "rig",
        "build",
        sk.to_str().unwrap(),
        "--motion",
        bvh.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(c, 1, "{stderr}");
    assert!(stderr.contains("E_BVH_"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(!out.exists());
}

#[test]
fn a_non_empty_output_folder_needs_force_and_is_left_alone() {
    let (dir, sk) = small("force");
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("keep.txt"), b"mine").unwrap();
    let (c, _, stderr) = run(&[
        "rig",
        "slice",
        sk.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(c, 2, "{stderr}");
    assert_eq!(std::fs::read(out.join("keep.txt")).unwrap(), b"mine");
    let (c, stdout, stderr) = run(&[
        "rig",
        "slice",
        sk.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(c, 0, "{stderr}");
    assert!(stdout.contains("17 parts"), "{stdout}");
    assert!(!out.join("keep.txt").exists());
    assert!(out.join("pivots.json").exists() && out.join("labels.png").exists());
}

/// The whole pipeline on the seed-sized biped (release only: `make test-rig`).
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "4.3 Mpx: run in release by `make test-rig`"
)]
fn build_writes_the_folder_and_every_gate_passes() {
    let (dir, sk) = drawing("build", drawings::biped());
    let out = dir.join("out");
    let bvh = repo().join("assets/mocap/cmu-131-01-walk.bvh");
    // a stand-in runtime: the folder gets it beside its pages, byte for byte
    let runtime = dir.join("stand-in-rive.js");
    std::fs::write(&runtime, "/* the Rive runtime */").unwrap();
    let (c, stdout, stderr) = run(&[
        "rig",
        "build",
        sk.to_str().unwrap(),
        "--motion",
        bvh.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--runtime",
        runtime.to_str().unwrap(),
    ]);
    assert_eq!(c, 0, "{stdout}{stderr}");
    assert_eq!(
        std::fs::read(out.join("rive.js")).unwrap(),
        std::fs::read(&runtime).unwrap()
    );
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let parts = names.iter().filter(|n| n.starts_with("part_")).count();
    assert_eq!(parts, 17, "{names:?}");
    for f in [
        "pivots.json",
        "labels.png",
        "model.json",
        "character.riv",
        "report.json",
        "sheet.png",
        "pages.json",
        // the player pages (issue 45, 47): the clip, the idle clip, the state machine, the runtime
        "walk.html",
        "idle.html",
        "machine.html",
        "rive.js",
    ] {
        assert!(names.iter().any(|n| n == f), "{f} missing: {names:?}");
    }
    // the texture pages (issue 26): the model's textures are exactly them
    let pages = names.iter().filter(|n| n.starts_with("page_")).count();
    assert!(pages >= 1, "{names:?}");
    assert_eq!(names.len(), 17 + 7 + 4 + pages, "{names:?}");
    let r: Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(r["pages"]["count"], pages, "{}", r["pages"]);
    let model: Value =
        serde_json::from_slice(&std::fs::read(out.join("model.json")).unwrap()).unwrap();
    let textures = model["textures"].as_object().unwrap();
    assert_eq!(textures.len(), pages, "{textures:?}");
    assert!(
        textures
            .values()
            .all(|f| f.as_str().unwrap().starts_with("page_"))
    );
    assert_eq!(
        r["gates"]["failed"],
        serde_json::json!([]),
        "{}",
        r["gates"]
    );
    assert_eq!(r["motion"]["loop_closed"], true);
    // the .riv passes the independent structural check
    let (c, stdout, _) = run(&["riv", "check", out.join("character.riv").to_str().unwrap()]);
    assert_eq!(c, 0, "{stdout}");
    // model.json is the export-riv input of character.riv: exporting it gives the same bytes
    let again = dir.join("again.riv");
    let (c, _, stderr) = run(&[
        "export-riv",
        out.join("model.json").to_str().unwrap(),
        "-o",
        again.to_str().unwrap(),
    ]);
    assert_eq!(c, 0, "{stderr}");
    assert!(std::fs::read(&again).unwrap() == std::fs::read(out.join("character.riv")).unwrap());
    // labels.png: red = 1 + bone index; the painter's truth agrees on ≥ 99 % of the figure
    let labels = re2d::png_io::read_png_file(&out.join("labels.png")).unwrap();
    let truth = re2d::png_io::read_png_file(&dir.join("biped.labels.png")).unwrap();
    let (mut same, mut fig) = (0u64, 0u64);
    for (a, b) in labels.data.chunks(4).zip(truth.data.chunks(4)) {
        if a[0] != 0 || b[0] != 0 {
            fig += 1;
            same += u64::from(a[0] == b[0]);
        }
    }
    assert!(same as f64 / fig as f64 > 0.99, "{same}/{fig}");
    // the pivot map holds no world coordinate: no x/y, only PNG pivots
    let pv: Value =
        serde_json::from_slice(&std::fs::read(out.join("pivots.json")).unwrap()).unwrap();
    for b in pv["bones"].as_array().unwrap() {
        assert!(
            b.get("x").is_none() && b.get("y").is_none() && b.get("start").is_none(),
            "{b}"
        );
    }
}

/// Several motions in one build (issue 25): a cyclic walk, the fair1 jump as a
/// detected one-shot, the wave cut by `--range`, and the idle pose; the
/// usage errors of `--range`, `--up` and `--motion`.
#[test]
fn several_motions_build_into_one_model() {
    let (dir, sk) = small("motions");
    let out = dir.join("out");
    let m = |f: &str| repo().join("assets/mocap").join(f);
    let walk = format!("walk={}", m("cmu-131-01-walk.bvh").display());
    let jump = format!("jump={}", m("fair1-jumping.bvh").display());
    let wave = format!("wave={}:once", m("fair1-wave-hello.bvh").display());
    let base = [
        "rig",
        "build",
        sk.to_str().unwrap(),
        "--motion",
        &walk,
        "--motion",
        &jump,
        "--motion",
        &wave,
    ];
    let with = |extra: &[&str]| {
        let mut a: Vec<&str> = base.to_vec();
        a.extend_from_slice(extra);
        a.extend_from_slice(&["--out", out.to_str().unwrap()]);
        run(&a)
    };
    let (c, stdout, stderr) = with(&["--range", "wave=0.5..2.5"]);
    assert_eq!(c, 0, "{stdout}{stderr}");
    let model: Value =
        serde_json::from_slice(&std::fs::read(out.join("model.json")).unwrap()).unwrap();
    let clips = model["clips"].as_object().unwrap();
    let mut names: Vec<&String> = clips.keys().collect();
    names.sort();
    assert_eq!(names, ["idle", "jump", "walk", "wave"]);
    assert_eq!(clips["walk"]["loop"], true);
    assert_eq!(clips["jump"]["loop"], false);
    assert_eq!(clips["wave"]["loop"], false);
    assert_eq!(clips["idle"]["loop"], true);
    // the wave: 2 s at 60 fps
    assert!((clips["wave"]["duration"].as_f64().unwrap() - 2.0).abs() < 0.02);
    // idle holds the drawn pose: every key 0, on every bone another clip keys
    for (bone, keys) in clips["idle"]["tracks"].as_object().unwrap() {
        assert!(
            clips["walk"]["tracks"].get(bone).is_some()
                || clips["jump"]["tracks"].get(bone).is_some()
        );
        assert!(
            keys.as_array().unwrap().iter().all(|k| k[1] == 0.0),
            "{bone}"
        );
    }
    let r: Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(r["motions"]["jump"]["up"], "+Z");
    assert_eq!(r["motions"]["walk"]["up"], "+Y");
    assert_eq!(r["motion"]["looped"], true, "the sheet's clip is the walk");
    // the .riv passes the structural check
    let (c, stdout, _) = run(&["riv", "check", out.join("character.riv").to_str().unwrap()]);
    assert_eq!(c, 0, "{stdout}");
    // usage errors: exit 2, one line, nothing replaced
    let before = std::fs::read(out.join("model.json")).unwrap();
    for (extra, want) in [
        (
            vec!["--range", "nosuch=0..1", "--force"],
            "no motion called 'nosuch'",
        ),
        (vec!["--up", "w", "--force"], "not an axis"),
        (vec!["--range", "2..1", "--force"], "increasing"),
    ] {
        let (c, _, stderr) = with(&extra);
        assert_eq!(c, 2, "{extra:?}: {stderr}");
        assert!(stderr.contains(want), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    // a one-shot capture forced to loop: E_BVH_GAIT, exit 1
    let looped = format!("jump={}:loop", m("fair1-jumping.bvh").display());
    let (c, _, stderr) = run(&[
        "rig",
        "build",
        sk.to_str().unwrap(),
        "--motion",
        &looped,
        "--out",
        out.to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(c, 1, "{stderr}");
    assert!(
        stderr.contains("E_BVH_GAIT") && stderr.contains("motion 'jump'"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(out.join("model.json")).unwrap(), before);
}

/// Issue 45 classes 1 and 2: a clip name the state machine cannot take, an
/// empty or repeated one, and an override without a motion are usage
/// errors when the options are parsed (exit 2, one line, nothing written);
/// a capture whose keys × tracks do not fit `rig-max-keys` is refused at
/// its `Frame Time:` line (exit 1, naming the limit), before the
/// retargeting and the model — also when several motions share the budget.
#[test]
fn clip_names_and_key_budgets_are_refused_before_the_work() {
    let (dir, sk) = small("budget");
    let walk = repo().join("assets/mocap/cmu-131-01-walk.bvh");
    let w = walk.to_str().unwrap();
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    let s = sk.to_str().unwrap();
    let speed = format!("speed={w}:once");
    let empty = format!("={w}");
    let twice = format!("walk={w}");
    let long = format!("{}={w}", "n".repeat(65));
    for (args, want) in [
        (vec!["--motion", &speed], "state machine's input"),
        (vec!["--motion", &empty], "empty"),
        (vec!["--motion", w, "--clip", ""], "empty"),
        (vec!["--motion", &long], "more than 64"),
        (vec!["--motion", &twice, "--motion", &twice], "two motions"),
        (vec!["--range", "0..1"], "no --motion"),
        (vec!["--up", "+Z"], "no --motion"),
    ] {
        let mut a = vec!["rig", "build", s];
        a.extend(&args);
        a.extend(["--out", o]);
        let (c, _, stderr) = run(&a);
        assert_eq!(c, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(!out.exists(), "{args:?} wrote the folder");
    }
    // the committed walk, its hierarchy with two frames 16 666 s apart: a
    // million keys at 60 fps
    let text = std::fs::read_to_string(&walk).unwrap();
    let head = &text[..text.find("MOTION").unwrap()];
    let frames: Vec<&str> = text[text.find("Frame Time").unwrap()..]
        .lines()
        .skip(1)
        .take(2)
        .collect();
    let long = dir.join("long.bvh");
    std::fs::write(
        &long,
        format!(
            "{head}MOTION\nFrames: 2\nFrame Time: 16666\n{}\n{}\n",
            frames[0], frames[1]
        ),
    )
    .unwrap();
    let m = format!("walk={}", long.display());
    for cmd in [
        vec!["rig", "build", s, "--motion", &m, "--out", o],
        vec!["rig", "motion", s, "--motion", &m],
    ] {
        let (c, stdout, stderr) = run(&cmd);
        assert_eq!(c, 1, "{stderr}");
        assert!(
            stderr.contains("rig-max-keys") && stderr.contains("E_BVH_LIMIT"),
            "{stderr}"
        );
        assert!(
            stderr.contains("long.bvh: line "),
            "at its Frame Time line: {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stdout.is_empty() && !out.exists());
    }
    // two motions share the budget: each alone fits, together they do not
    let one = format!("walk={w}:once");
    let two = format!("again={w}:once");
    let mut a = vec!["rig", "motion", s, "--motion", &one];
    let (c, report, stderr) = run(&a);
    assert_eq!(c, 0, "{stderr}");
    let r: Value = serde_json::from_str(&report).unwrap();
    let keys = r["keys"].as_u64().expect("keys in the report");
    let tracks = {
        let v: Value = serde_json::from_slice(&std::fs::read(&sk).unwrap()).unwrap();
        let b = v["bones"].as_array().unwrap();
        b.len()
            + b.iter()
                .filter(|x| x.get("parent").is_none_or(Value::is_null))
                .count()
    } as u64;
    let limit = format!("rig-max-keys={}", keys * tracks + keys * tracks / 2);
    a = vec![
        "--limit", &limit, "rig", "build", s, "--motion", &one, "--out", o,
    ];
    let (c, _, stderr) = run(&a);
    assert!(
        c == 0 || stderr.contains("E_RIG_GATE"),
        "one motion fits: {stderr}"
    );
    std::fs::remove_dir_all(&out).ok();
    a = vec![
        "--limit", &limit, "rig", "build", s, "--motion", &one, "--motion", &two, "--out", o,
    ];
    let (c, _, stderr) = run(&a);
    assert_eq!(c, 1, "{stderr}");
    assert!(
        stderr.contains("rig-max-keys")
            && stderr.contains("spent by the earlier motions")
            && stderr.contains("motion 'again'"),
        "{stderr}"
    );
    assert!(!out.exists());
}

/// The `.riv` a page embeds (between `atob('` and `')`), decoded.
fn embedded(html: &str) -> Vec<u8> {
    let start = html.find("atob('").expect("atob") + 6;
    let b64 = &html[start..start + html[start..].find('\'').unwrap()];
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let mut out = Vec::new();
    for q in b64.as_bytes().chunks(4) {
        let n = q.iter().enumerate().fold(0u32, |a, (i, &c)| {
            if c == b'=' {
                a
            } else {
                a | (val(c) as u32) << (18 - 6 * i)
            }
        });
        let keep = q.iter().filter(|&&c| c != b'=').count() - 1;
        out.extend(&[(n >> 16) as u8, (n >> 8) as u8, n as u8][..keep]);
    }
    out
}

/// `re2d rig page` (issue 47 item 5, issue 45 item 3): `--help` prints the
/// usage (exit 0); an unknown clip or machine is refused with the list of
/// what the file has (exit 1, one line, nothing written); the page embeds
/// the `.riv` byte for byte (it never fetches it), loads `rive.js` from
/// beside itself (written there) and sizes its canvas to the artboard; a
/// missing runtime is exit 3. The pages play in Chromium from file://:
/// `make test-pages` (tests/browser/pages.mjs).
#[test]
fn rig_page_writes_a_page_that_needs_no_fetch() {
    let (c, help, _) = run(&["rig", "page", "--help"]);
    assert_eq!(c, 0);
    assert!(
        help.contains("--clip") && help.contains("--machine") && help.contains("--runtime"),
        "{help}"
    );
    let dir = common::fresh_dir("re2d-rig-page");
    let riv = dir.join("walk.riv");
    let model = repo().join("tests/riv/fixtures/walk/model.json");
    let (c, _, e) = run(&[
        "export-riv",
        model.to_str().unwrap(),
        "-o",
        riv.to_str().unwrap(),
    ]);
    assert_eq!(c, 0, "{e}");
    let rt = dir.join("runtime.js");
    std::fs::write(&rt, "/* the Rive runtime */").unwrap();
    let (r, t) = (riv.to_str().unwrap(), rt.to_str().unwrap());
    // a misspelt clip: refused with the list, nothing written
    let (c, _, e) = run(&["rig", "page", r, "--clip", "wlak", "--runtime", t]);
    assert_eq!(c, 1, "{e}");
    assert!(
        e.contains("no clip 'wlak'") && e.contains("(clips: probe_knee, probe_root, walk)"),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1, "{e}");
    let (c, _, e) = run(&["rig", "page", r, "--machine", "--runtime", t]);
    assert_eq!(c, 1, "the walk fixture has no state machine: {e}");
    assert!(
        e.contains("no state machine") && e.contains("clips: probe_knee, probe_root, walk"),
        "{e}"
    );
    let (c, _, e) = run(&[
        "rig",
        "page",
        r,
        "--clip",
        "walk",
        "--machine",
        "--runtime",
        t,
    ]);
    assert_eq!(c, 2, "{e}");
    let (c, _, e) = run(&[
        "rig",
        "page",
        r,
        "--runtime",
        dir.join("none.js").to_str().unwrap(),
    ]);
    assert_eq!(c, 3, "{e}");
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".html") || n == "rive.js")
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // without --clip or --machine: the first clip (the file has no state machine)
    let (c, out, e) = run(&["rig", "page", r, "--runtime", t]);
    assert_eq!(c, 0, "{e}");
    assert!(out.contains("probe_knee.html"), "{out}");
    // --clip walk: walk.html beside the .riv
    let (c, out, e) = run(&["rig", "page", r, "--clip", "walk", "--runtime", t]);
    assert_eq!(c, 0, "{e}");
    assert!(out.contains("walk.html"), "{out}");
    let html = std::fs::read_to_string(dir.join("walk.html")).unwrap();
    assert_eq!(
        embedded(&html),
        std::fs::read(&riv).unwrap(),
        "the .riv, embedded byte for byte"
    );
    assert!(
        html.contains("<script src=\"rive.js\">") && !html.contains("fetch("),
        "{}",
        &html[..600]
    );
    assert!(html.contains("animations: \"walk\""));
    assert_eq!(
        std::fs::read(dir.join("rive.js")).unwrap(),
        std::fs::read(&rt).unwrap()
    );
    let (c, check, _) = run(&["riv", "check", "--json", r]);
    assert_eq!(c, 0);
    let ab: Value = serde_json::from_str(&check).unwrap();
    let (w, h) = (
        ab["artboard"]["width"].as_f64().unwrap().ceil(),
        ab["artboard"]["height"].as_f64().unwrap().ceil(),
    );
    assert!(
        html.contains(&format!("<canvas id=\"c\" width=\"{w}\" height=\"{h}\">")),
        "canvas {w}x{h}"
    );
    // -o elsewhere: the runtime goes beside the page
    let other = dir.join("elsewhere/p.html");
    let (c, _, e) = run(&[
        "rig",
        "page",
        r,
        "--clip",
        "walk",
        "-o",
        other.to_str().unwrap(),
        "--runtime",
        t,
    ]);
    assert_eq!(c, 0, "{e}");
    assert!(dir.join("elsewhere/rive.js").exists());
    // the page may not replace its own .riv
    let (c, _, e) = run(&["rig", "page", r, "-o", r, "--runtime", t]);
    assert_ne!(c, 0, "{e}");
    assert_eq!(
        embedded(&std::fs::read_to_string(&other).unwrap()),
        std::fs::read(&riv).unwrap()
    );
}

/// Issue 47: a wave on the arms over the walk (`:once:arms`), its layer in model.json, every
/// warning of the report on stderr, `rig render` of a clip and of the wave over the walk (a strip,
/// a sheet, a GIF, numbered frames, all of the motion box's size), `re2d render` of the rig model,
/// and the bad inputs: an unknown bone in the set, an unknown clip, a frame budget over the limit,
/// an option of a character model given to a rig model.
#[test]
fn a_body_part_motion_plays_as_a_layer_and_rig_render_shows_it() {
    let (dir, sk) = small("layers");
    let out = dir.join("out");
    let m = |f: &str| repo().join("assets/mocap").join(f);
    let walk = format!("walk={}", m("cmu-131-01-walk.bvh").display());
    let wave = format!("wave={}:once:arms", m("fair1-wave-hello.bvh").display());
    let (c, stdout, stderr) = run(&[
        "rig",
        "build",
        sk.to_str().unwrap(),
        "--motion",
        &walk,
        "--motion",
        &wave,
        "--max-turn",
        "wave=150",
        "--strips",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(c, 0, "{stdout}{stderr}");
    let model: Value =
        serde_json::from_slice(&std::fs::read(out.join("model.json")).unwrap()).unwrap();
    assert_eq!(
        model["state_machine"]["layers"],
        serde_json::json!([{"name": "wave", "clip": "wave", "trigger": "wave"}])
    );
    assert_eq!(model["state_machine"]["triggers"], serde_json::json!([]));
    let mut keyed: Vec<&String> = model["clips"]["wave"]["tracks"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    keyed.sort();
    assert_eq!(
        keyed,
        [
            "forearm_far",
            "forearm_near",
            "hand_far",
            "hand_near",
            "upper_arm_far",
            "upper_arm_near"
        ]
    );
    assert!(model["clips"]["wave"].get("translations").is_none());
    // every warning of the report is a line of stderr, and a clamp line counts its keys
    let r: Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let warnings = r["warnings"].as_array().unwrap();
    assert!(!warnings.is_empty());
    for w in warnings {
        let line = format!("re2d rig build: warning: {}", w.as_str().unwrap());
        assert!(stderr.lines().any(|l| l == line), "{line} not in {stderr}");
    }
    assert!(
        warnings
            .iter()
            .any(|w| w.as_str().unwrap().contains("clamped")
                && w.as_str().unwrap().contains(" keys")),
        "{warnings:?}"
    );
    assert_eq!(r["motions"]["wave"]["max_turn_deg"], 150.0);
    for c in ["walk", "wave", "idle"] {
        assert!(out.join(format!("strip_{c}.png")).is_file(), "strip {c}");
    }
    // rig render: the wave over the walk, 4 frames, every output
    let mj = out.join("model.json");
    let r_dir = dir.join("render");
    let p = |n: &str| r_dir.join(n).to_string_lossy().into_owned();
    std::fs::create_dir_all(&r_dir).unwrap();
    let (c, stdout, stderr) = run(&[
        "rig",
        "render",
        mj.to_str().unwrap(),
        "--clip",
        "walk",
        "--over",
        "wave",
        "--frames",
        "4",
        "--scale",
        "0.5",
        "--strip",
        &p("strip.png"),
        "--sheet",
        &p("sheet.png"),
        "--columns",
        "2",
        "--gif",
        &p("x.gif"),
        "--apng",
        &p("x.apng"),
        "--png",
        &p("frames"),
    ]);
    assert_eq!(c, 0, "{stdout}{stderr}");
    assert!(stdout.contains("walk + wave: 4 frames"), "{stdout}");
    let f0 = re2d::png_io::read_png_file(&r_dir.join("frames/frame-0000.png")).unwrap();
    let strip = re2d::png_io::read_png_file(&r_dir.join("strip.png")).unwrap();
    let sheet = re2d::png_io::read_png_file(&r_dir.join("sheet.png")).unwrap();
    assert_eq!((strip.width, strip.height), (4 * f0.width, f0.height));
    assert_eq!((sheet.width, sheet.height), (2 * f0.width, 2 * f0.height));
    assert!(r_dir.join("frames/frame-0003.png").is_file());
    assert!(!r_dir.join("frames/frame-0004.png").exists());
    let gif = std::fs::read(r_dir.join("x.gif")).unwrap();
    assert_eq!(&gif[..6], b"GIF89a");
    // the frame is the motion box: the figure reaches within the margin (8 px) and the meshes'
    // slack around the paint (a few px) of every side
    let mut b = [u32::MAX, u32::MAX, 0, 0];
    for f in 0..4 {
        let img =
            re2d::png_io::read_png_file(&r_dir.join(format!("frames/frame-{f:04}.png"))).unwrap();
        for (i, px) in img.data.chunks(4).enumerate() {
            if px[3] > 0 {
                let (x, y) = (i as u32 % img.width, i as u32 / img.width);
                b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
            }
        }
    }
    assert!(b[0] <= 16 && b[1] <= 16, "{b:?}");
    assert!(
        b[2] + 17 >= f0.width && b[3] + 17 >= f0.height,
        "{b:?} in {}x{}",
        f0.width,
        f0.height
    );
    // re2d render recognises the rig model
    let (c, _, stderr) = run(&[
        "render",
        mj.to_str().unwrap(),
        "--clip",
        "wave",
        "--frames",
        "3",
        "--sheet",
        &p("r.png"),
    ]);
    assert_eq!(c, 0, "{stderr}");
    assert!(r_dir.join("r.png").is_file());
    // bad inputs: one line, exit code, nothing written
    let cases: Vec<(Vec<String>, i32, &str)> = vec![
        (
            vec![
                "render".into(),
                mj.display().to_string(),
                "--yaw".into(),
                "10".into(),
                "--gif".into(),
                p("no.gif"),
            ],
            2,
            "is a rig model",
        ),
        (
            vec![
                "rig".into(),
                "render".into(),
                mj.display().to_string(),
                "--clip".into(),
                "wav".into(),
                "--gif".into(),
                p("no.gif"),
            ],
            1,
            "unknown clip 'wav' (clips: idle, walk, wave)",
        ),
        (
            vec![
                "--limit".into(),
                "sheet-max-bytes=1000".into(),
                "rig".into(),
                "render".into(),
                mj.display().to_string(),
                "--gif".into(),
                p("no.gif"),
            ],
            1,
            "sheet-max-bytes",
        ),
        (
            vec![
                "--limit".into(),
                "max-frames=3".into(),
                "rig".into(),
                "render".into(),
                mj.display().to_string(),
                "--frames".into(),
                "4".into(),
                "--gif".into(),
                p("no.gif"),
            ],
            1,
            "max-frames",
        ),
    ];
    for (args, code, want) in cases {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let (c, _, stderr) = run(&a);
        assert_eq!(c, code, "{args:?}: {stderr}");
        assert!(stderr.contains(want), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(!r_dir.join("no.gif").exists());
    }
    // a set naming a bone the skeleton does not have
    let bad = format!("wave={}:once:wing", m("fair1-wave-hello.bvh").display());
    let (c, _, stderr) = run(&[
        "rig",
        "build",
        sk.to_str().unwrap(),
        "--motion",
        &walk,
        "--motion",
        &bad,
        "--out",
        out.to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(c, 1, "{stderr}");
    assert!(
        stderr.contains("E_RIG_MOTION") && stderr.contains("no bone 'wing'"),
        "{stderr}"
    );
}
