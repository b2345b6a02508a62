// re2d MSH export tests: the Khronos glTF validator on every synthetic profile (with and without --anim) plus negative controls, and node/vertex/face counts of glTF and OBJ against the generator's own record (spec: msh.md §7, §9).

#[path = "../../../tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use re2d::limits::Limits;
use re2d_msh::export::{self, Axis, Options, PoseChoice};
use re2d_msh::nres::Profile;
use re2d_msh::synth::{self, Synth};
use re2d_msh::{self as msh, Model};
use serde_json::Value;

fn tmp(name: &str) -> PathBuf {
    common::fresh_dir(&format!("re2d-msh-export-{name}"))
}

fn load(s: &Synth) -> Model<'_> {
    msh::decode(
        &s.bytes,
        s.entry.map(str::as_bytes),
        Profile::Strict,
        &Limits::DEFAULT,
    )
    .unwrap()
    .0
}

/// The validator's folder: `npm ci` on first use (pinned by package-lock.json).
fn validator() -> PathBuf {
    static LOCK: Mutex<()> = Mutex::new(());
    let _g = LOCK.lock().unwrap();
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("tests/gltf");
    if !dir
        .join("node_modules/gltf-validator/package.json")
        .exists()
    {
        let st = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--silent"])
            .current_dir(&dir)
            .status()
            .expect("npm must be installed to run the glTF validator");
        assert!(st.success(), "npm ci in tests/gltf failed");
    }
    dir
}

/// Runs the Khronos validator on files: file → (errors, warnings, messages).
fn validate(files: &[PathBuf]) -> Vec<(String, u64, u64, Value)> {
    let dir = validator();
    let out = Command::new("node")
        .arg(dir.join("validate.mjs"))
        .args(files)
        .current_dir(&dir)
        .output()
        .expect("node must be installed");
    assert!(
        out.status.success(),
        "validator: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<_> = text
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (
                v["file"].as_str().unwrap().to_string(),
                v["errors"].as_u64().unwrap(),
                v["warnings"].as_u64().unwrap(),
                v["messages"].clone(),
            )
        })
        .collect();
    assert_eq!(rows.len(), files.len());
    rows
}

fn glb_json(b: &[u8]) -> Value {
    assert_eq!(&b[0..4], b"glTF");
    let n = u32::from_le_bytes(b[12..16].try_into().unwrap()) as usize;
    assert_eq!(&b[16..20], b"JSON");
    serde_json::from_slice(&b[20..20 + n]).unwrap()
}

fn bin(b: &[u8]) -> &[u8] {
    let n = u32::from_le_bytes(b[12..16].try_into().unwrap()) as usize;
    let o = 20 + n;
    let m = u32::from_le_bytes(b[o..o + 4].try_into().unwrap()) as usize;
    assert_eq!(&b[o + 4..o + 8], b"BIN\0");
    &b[o + 8..o + 8 + m]
}

const PROFILES: [&str; 5] = [
    "triangle",
    "cube-lods",
    "hierarchy-anim",
    "nested",
    "quirks38",
];

#[test]
fn khronos_validator_accepts_every_profile_and_rejects_corrupted_files() {
    let d = tmp("validator");
    let mut files = Vec::new();
    for p in PROFILES {
        for seed in [1u64, 2] {
            let s = synth::generate(p, seed).unwrap();
            let m = load(&s);
            let mut variants: Vec<(String, Options, bool)> = vec![
                ("static".into(), Options::default(), true),
                (
                    "anim".into(),
                    Options {
                        anim: true,
                        ..Options::default()
                    },
                    true,
                ),
                (
                    "anim-raw".into(),
                    Options {
                        anim: true,
                        axis: Axis::Raw,
                        fps: 24.0,
                        ..Options::default()
                    },
                    true,
                ),
                (
                    "t2_5".into(),
                    Options {
                        pose: PoseChoice::Time(2.5),
                        ..Options::default()
                    },
                    true,
                ),
                (
                    "gltf".into(),
                    Options {
                        anim: true,
                        ..Options::default()
                    },
                    false,
                ),
                (
                    "nopose".into(),
                    Options {
                        no_pose: true,
                        ..Options::default()
                    },
                    true,
                ),
                (
                    "all".into(),
                    Options {
                        all_batches: true,
                        ..Options::default()
                    },
                    true,
                ),
            ];
            if p == "cube-lods" {
                for (l, g) in [(1, 0), (2, 1), (0, 1)] {
                    variants.push((
                        format!("l{l}g{g}"),
                        Options {
                            lod: l,
                            group: g,
                            ..Options::default()
                        },
                        true,
                    ));
                }
            }
            for (tag, o, glb) in variants {
                let e = export::gltf(&m, &o, glb).unwrap();
                let f = d.join(format!(
                    "{p}-{seed}-{tag}.{}",
                    if glb { "glb" } else { "gltf" }
                ));
                std::fs::write(&f, &e.bytes).unwrap();
                files.push(f);
            }
        }
    }
    // negative controls: the same check must fail on broken files
    let good = std::fs::read(d.join("hierarchy-anim-1-anim.glb")).unwrap();
    let j = glb_json(&good);
    let acc = j["meshes"][0]["primitives"][0]["indices"].as_u64().unwrap() as usize;
    let view = j["accessors"][acc]["bufferView"].as_u64().unwrap() as usize;
    let off = j["bufferViews"][view]["byteOffset"].as_u64().unwrap() as usize;
    let n = u32::from_le_bytes(good[12..16].try_into().unwrap()) as usize;
    let mut bad_index = good.clone();
    let at = 20 + n + 8 + off;
    bad_index[at..at + 2].copy_from_slice(&0xFFF0u16.to_le_bytes());
    let f_idx = d.join("corrupt-index.glb");
    std::fs::write(&f_idx, &bad_index).unwrap();
    let f_trunc = d.join("corrupt-truncated.glb");
    std::fs::write(&f_trunc, &good[..good.len() - 100]).unwrap();
    let mut bad_json = good.clone();
    let s = String::from_utf8_lossy(&bad_json[20..20 + n]).replace("\"mode\":4", "\"mode\":9");
    bad_json[20..20 + n].copy_from_slice(s.as_bytes());
    let f_json = d.join("corrupt-mode.glb");
    std::fs::write(&f_json, &bad_json).unwrap();
    let controls = [f_idx, f_trunc, f_json];
    files.extend(controls.iter().cloned());
    let rows = validate(&files);
    let mut checked = 0;
    for (file, errors, warnings, msgs) in &rows {
        if controls.iter().any(|c| c.to_str().unwrap() == file) {
            assert!(*errors > 0, "negative control {file} passed the validator");
        } else {
            assert_eq!(*errors, 0, "{file}: {msgs}");
            assert_eq!(*warnings, 0, "{file}: {msgs}");
            checked += 1;
        }
    }
    assert_eq!(checked, files.len() - 3);
    assert!(checked >= 70);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn gltf_counts_match_the_generator() {
    for p in PROFILES {
        let s = synth::generate(p, 3).unwrap();
        let m = load(&s);
        let slots: Vec<(usize, usize)> = if p == "cube-lods" {
            (0..3).flat_map(|l| (0..2).map(move |g| (l, g))).collect()
        } else {
            vec![(0, 0)]
        };
        for (lod, group) in slots {
            let e = export::gltf(
                &m,
                &Options {
                    lod,
                    group,
                    anim: true,
                    ..Options::default()
                },
                true,
            )
            .unwrap();
            let j = glb_json(&e.bytes);
            let nodes = j["nodes"].as_array().unwrap();
            assert_eq!(nodes.len(), s.nodes.len(), "{p}");
            for (i, sn) in s.nodes.iter().enumerate() {
                assert_eq!(nodes[i]["name"], sn.name.as_str());
                let want = sn
                    .slots
                    .iter()
                    .find(|(k, _)| *k == (lod, group))
                    .map(|(_, b)| b);
                match want {
                    None => assert!(nodes[i].get("mesh").is_none()),
                    Some(batches) => {
                        let mesh = &j["meshes"][nodes[i]["mesh"].as_u64().unwrap() as usize];
                        let prims = mesh["primitives"].as_array().unwrap();
                        assert_eq!(prims.len(), batches.len(), "{p} node {i}");
                        for (pr, sb) in prims.iter().zip(batches) {
                            let pos = &j["accessors"]
                                [pr["attributes"]["POSITION"].as_u64().unwrap() as usize];
                            let ind = &j["accessors"][pr["indices"].as_u64().unwrap() as usize];
                            assert_eq!(pos["count"].as_u64().unwrap(), sb.vertices as u64);
                            assert_eq!(ind["count"].as_u64().unwrap(), 3 * sb.triangles as u64);
                            let mat = &j["materials"][pr["material"].as_u64().unwrap() as usize];
                            assert_eq!(mat["name"], format!("mat_{}", sb.material).as_str());
                            assert_eq!(mat["doubleSided"], true);
                        }
                    }
                }
                // children from the parent indices
                if let Some(par) = sn.parent {
                    let ch = nodes[par]["children"].as_array().unwrap();
                    assert!(ch.iter().any(|c| c.as_u64() == Some(i as u64)));
                }
            }
            assert!(j.get("skins").is_none());
            let animated = s.nodes.iter().filter(|n| n.animated).count();
            if animated > 0 {
                let a = &j["animations"][0];
                assert_eq!(a["channels"].as_array().unwrap().len(), 2 * animated);
                let inp = &j["accessors"][a["samplers"][0]["input"].as_u64().unwrap() as usize];
                assert_eq!(inp["count"].as_u64().unwrap(), s.frame_count as u64);
                assert_eq!(
                    inp["max"][0].as_f64().unwrap() as f32,
                    (s.frame_count - 1) as f32 / 30.0
                );
            } else {
                assert!(j.get("animations").is_none());
            }
        }
    }
}

#[test]
fn gltf_axis_conversion_and_winding() {
    let s = synth::generate("triangle", 1).unwrap();
    let m = load(&s);
    for (axis, sign, order) in [
        (Axis::LhToRh, -1.0f32, [0u16, 2, 1]),
        (Axis::Raw, 1.0, [0, 1, 2]),
    ] {
        let e = export::gltf(
            &m,
            &Options {
                axis,
                ..Options::default()
            },
            true,
        )
        .unwrap();
        let j = glb_json(&e.bytes);
        let b = bin(&e.bytes);
        let pr = &j["meshes"][0]["primitives"][0];
        let view = |acc: u64| {
            let a = &j["accessors"][acc as usize];
            let v = &j["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
            let o = v["byteOffset"].as_u64().unwrap() as usize;
            &b[o..o + v["byteLength"].as_u64().unwrap() as usize]
        };
        let pos = view(pr["attributes"]["POSITION"].as_u64().unwrap());
        let f = |k: usize| f32::from_le_bytes(pos[4 * k..4 * k + 4].try_into().unwrap());
        for v in 0..3 {
            let p = m.position(v).unwrap();
            assert_eq!(
                [f(3 * v), f(3 * v + 1), f(3 * v + 2)],
                [p[0], p[1], sign * p[2]]
            );
        }
        let nrm = view(pr["attributes"]["NORMAL"].as_u64().unwrap());
        let nz = f32::from_le_bytes(nrm[8..12].try_into().unwrap());
        assert_eq!(nz, sign, "normal (0, 0, 1) → (0, 0, ±1)");
        let ind = view(pr["indices"].as_u64().unwrap());
        let idx: Vec<u16> = ind
            .chunks(2)
            .take(3)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        assert_eq!(idx, order);
        let uv = view(pr["attributes"]["TEXCOORD_0"].as_u64().unwrap());
        let u = |k: usize| f32::from_le_bytes(uv[4 * k..4 * k + 4].try_into().unwrap());
        assert_eq!(
            [u(2), u(3), u(4), u(5)],
            [1.0, 0.0, 0.0, 1.0],
            "UV as decoded, origin top-left"
        );
    }
}

#[test]
fn gltf_rotation_is_the_axis_converted_conjugate() {
    let s = synth::generate("hierarchy-anim", 4).unwrap();
    let m = load(&s);
    let t = 2.5;
    let e = export::gltf(
        &m,
        &Options {
            pose: PoseChoice::Time(t),
            ..Options::default()
        },
        true,
    )
    .unwrap();
    let j = glb_json(&e.bytes);
    let pose = re2d_msh::anim::sample(&m, 1, t).unwrap().pose;
    let n = pose.q.iter().map(|v| v * v).sum::<f32>().sqrt();
    let want = [pose.q[0] / n, pose.q[1] / n, -pose.q[2] / n, pose.q[3] / n];
    let got: Vec<f32> = j["nodes"][1]["rotation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap() as f32)
        .collect();
    for i in 0..4 {
        assert!((got[i] - want[i]).abs() < 1e-6, "{got:?} vs {want:?}");
    }
    let tr: Vec<f64> = j["nodes"][1]["translation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(
        tr,
        vec![
            pose.pos[0] as f64,
            pose.pos[1] as f64,
            -(pose.pos[2] as f64)
        ]
    );
}

fn obj_counts(text: &str) -> (usize, usize, usize, usize, usize) {
    let c = |p: &str| text.lines().filter(|l| l.starts_with(p)).count();
    (c("o "), c("v "), c("vt "), c("vn "), c("f "))
}

#[test]
fn obj_counts_match_the_generator() {
    for p in PROFILES {
        let s = synth::generate(p, 8).unwrap();
        let m = load(&s);
        let e = export::obj(&m, &Options::default()).unwrap();
        let text = String::from_utf8(e.bytes).unwrap();
        let (o, v, vt, vn, f) = obj_counts(&text);
        let with_slot: Vec<_> = s
            .nodes
            .iter()
            .filter_map(|n| n.slots.iter().find(|(k, _)| *k == (0, 0)).map(|(_, b)| b))
            .collect();
        assert_eq!(o, with_slot.len(), "{p}");
        let verts: u32 = with_slot
            .iter()
            .flat_map(|b| b.iter())
            .map(|b| b.vertices)
            .sum();
        let tris: u32 = with_slot
            .iter()
            .flat_map(|b| b.iter())
            .map(|b| b.triangles)
            .sum();
        assert_eq!(
            (v, vt, vn, f),
            (
                verts as usize,
                verts as usize,
                verts as usize,
                tris as usize
            ),
            "{p}"
        );
        let mats = text
            .lines()
            .filter(|l| l.starts_with("usemtl mat_"))
            .count();
        assert_eq!(mats, with_slot.iter().map(|b| b.len()).sum::<usize>());
        // --no-pose: every Res3 vertex once, faces base_vertex + idx + 1
        let e = export::obj(
            &m,
            &Options {
                no_pose: true,
                ..Options::default()
            },
        )
        .unwrap();
        let text = String::from_utf8(e.bytes).unwrap();
        let (_, v, _, _, f) = obj_counts(&text);
        assert_eq!((v, f), (m.vertex_count(), tris as usize));
    }
    // vt = (u, 1 − v); faces v/vt/vn
    let s = synth::generate("triangle", 1).unwrap();
    let m = load(&s);
    let text = String::from_utf8(export::obj(&m, &Options::default()).unwrap().bytes).unwrap();
    let vts: Vec<&str> = text.lines().filter(|l| l.starts_with("vt ")).collect();
    assert_eq!(vts, ["vt 0 1", "vt 1 1", "vt 0 0"]);
    assert!(text.contains("\nf 1/1/1 2/2/2 3/3/3\n"), "{text}");
    assert!(text.contains("\no triangle\n"));
    assert!(text.contains("\nusemtl mat_0\n"));
}

#[test]
fn obj_posed_vertices_are_world_transformed() {
    let s = synth::generate("hierarchy-anim", 2).unwrap();
    let m = load(&s);
    let t = 3.5;
    let text = String::from_utf8(
        export::obj(
            &m,
            &Options {
                pose: PoseChoice::Time(t),
                ..Options::default()
            },
        )
        .unwrap()
        .bytes,
    )
    .unwrap();
    let w = re2d_msh::pose::world_matrices(&m, &re2d_msh::pose::poses_at(&m, t));
    // the first vertex of "head" (node 3) is the first position of its batch
    let head = text.split("\no head\n").nth(1).unwrap();
    let first: Vec<f32> = head.lines().next().unwrap()[2..]
        .split(' ')
        .map(|x| x.parse().unwrap())
        .collect();
    let b = m.batch(3).unwrap();
    let v = m.batch_vertex(&b, 0).unwrap();
    let want = re2d_msh::pose::transform_point(&w[3], m.position(v).unwrap());
    assert_eq!(first, want.to_vec());
}

#[test]
fn stride24_models_are_not_exported() {
    let s = synth::generate("quirks", 1).unwrap();
    let m = load(&s);
    assert_eq!(
        export::obj(&m, &Options::default()).unwrap_err().code,
        "E_NODE_LAYOUT"
    );
    assert_eq!(
        export::gltf(&m, &Options::default(), true)
            .unwrap_err()
            .code,
        "E_NODE_LAYOUT"
    );
}
