// re2d example: writes the "valid but huge" inputs of the memory-capped harness (`make hostile-test`).
//! `hostile_inputs DIR` writes small files whose processing is large (issue
//! 20): MSH models with many batches reusing one index range or a huge frame
//! count, `.riv` files with millions of records, skeleton-mesh models with
//! thousands of parts or big textures, NRes manifests the reader rejects,
//! and an archive of 65 536 empty entries. Every file is generated at test
//! time (nothing large is committed); see `tests/hostile/run.py`.

use std::fs;
use std::path::Path;

use re2d::msh::synth;
use re2d::riv::write::{Header, RivObject, Value, encode};
use serde_json::json;

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    fs::write(dir.join(name), bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
}

fn msh(dir: &Path) {
    for (name, kind, n) in [
        ("msh-batches-1000.msh", "batches", 1000),
        ("msh-batches-65535.msh", "batches", 65_535),
        ("msh-frames-50M.msh", "frames", 50_000_000),
        ("msh-frames-4M.msh", "frames", 4_000_000),
        ("msh-frames-3.msh", "frames", 3),
    ] {
        let s = synth::hostile(kind, n).expect("a hostile kind");
        write(dir, name, &s.bytes);
    }
}

fn riv(dir: &Path) {
    let back = RivObject::new(23);
    let artboard = |w: f32, h: f32| {
        RivObject::new(1)
            .with(4, Value::Str("a".into()))
            .with(7, Value::Double(w))
            .with(8, Value::Double(h))
    };
    // 4 M objects of a type re2d never writes (one problem each)
    let mut v = vec![back.clone()];
    v.extend(std::iter::repeat_n(RivObject::new(2), 4 << 20));
    write(
        dir,
        "riv-unknown-4M.riv",
        &encode(&v, Header::default()).unwrap(),
    );
    drop(v);
    // 200 k empty Mesh records after the artboard (the old check: 4·10^10 steps)
    let mut v = vec![back.clone(), artboard(100.0, 100.0)];
    v.extend(std::iter::repeat_n(RivObject::new(109), 200_000));
    write(
        dir,
        "riv-meshes-200k.riv",
        &encode(&v, Header::default()).unwrap(),
    );
    for (name, w, h) in [
        ("riv-artboard-nan.riv", f32::NAN, 100.0),
        ("riv-artboard-inf.riv", 100.0, f32::INFINITY),
    ] {
        let v = vec![back.clone(), artboard(w, h)];
        write(dir, name, &encode(&v, Header::default()).unwrap());
    }
}

fn skeleton_models(dir: &Path) {
    // 4000 one-triangle parts on one bone
    let parts: Vec<_> = (0..4000)
        .map(|i| {
            let x = (i % 64) as f64 * 3.0;
            let y = (i / 64) as f64 * 3.0;
            json!({"name": format!("p{i}"), "depth": 0.5,
                   "verts": [x, y, x + 2.0, y, x, y + 2.0],
                   "uv": [0.0, 0.0, 1.0, 0.0, 0.0, 1.0],
                   "tris": [0, 1, 2],
                   "weights": [["root", 1], ["root", 1], ["root", 1]]})
        })
        .collect();
    let clip = json!({"spin": {"duration": 1.0, "loop": true, "interpolation": "linear",
                                "tracks": {"root": [[0.0, 0.0], [1.0, 0.5]]}}});
    let m = json!({"version": 1, "name": "many", "textures": {},
        "skeleton": {"root": {"x": 0.0, "y": 0.0, "length": 10.0, "angle": 0.0}},
        "parts": parts, "clips": clip});
    write(dir, "riv-parts-4000.model.json", m.to_string().as_bytes());
    // two 8192² textures (compressed, so the files are small)
    let side = 8192u32;
    let px = vec![200u8; side as usize * side as usize * 4];
    let png = re2d::png_io::encode_rgba(&px, side, side).expect("encode");
    drop(px);
    write(dir, "big-a.png", &png);
    write(dir, "big-b.png", &png);
    let part = |name: &str, tex: &str| {
        json!({"name": name, "texture": tex, "depth": 0.5,
               "verts": [0.0, 0.0, 50.0, 0.0, 0.0, 50.0],
               "uv": [0.0, 0.0, 1.0, 0.0, 0.0, 1.0], "tris": [0, 1, 2],
               "weights": [["root", 1], ["root", 1], ["root", 1]]})
    };
    let m = json!({"version": 1, "name": "textures",
        "skeleton": {"root": {"x": 0.0, "y": 0.0, "length": 10.0, "angle": 0.0}},
        "textures": {"a": "big-a.png", "b": "big-b.png"},
        "parts": [part("a", "a"), part("b", "b")], "clips": clip});
    write(
        dir,
        "riv-textures-8192.model.json",
        m.to_string().as_bytes(),
    );
}

fn nres(dir: &Path) {
    // manifests the reader would reject: 70 000 entries, an empty name
    let payload = dir.join("nres-payload.bin");
    fs::write(&payload, b"x").unwrap();
    let entry = |i: usize, name: &str| {
        json!({"order": i, "type": 1, "attr1": 0, "attr2": 0, "attr3": 0, "name": name,
               "file": "nres-payload.bin"})
    };
    let doc = |entries: Vec<serde_json::Value>| {
        json!({"format": "re2d-nres-manifest", "version": 1, "entries": entries}).to_string()
    };
    let many: Vec<_> = (0..70_000).map(|i| entry(i, &format!("e{i}"))).collect();
    write(dir, "nres-70000.manifest.json", doc(many).as_bytes());
    write(
        dir,
        "nres-empty-name.manifest.json",
        doc(vec![entry(0, "")]).as_bytes(),
    );
    // 65 536 empty entries (the extract that took two fsyncs per file)
    let entries: Vec<_> = (0..65_536u64)
        .map(|i| {
            let name = format!("e{i}");
            let e = re2d::nres::manifest::ManifestEntry {
                order: i,
                file: String::new(),
                type_id: 1,
                attrs: [0; 3],
                name_raw: re2d::nres::name::field_for(name.as_bytes()).expect("a short name"),
            };
            (e, Vec::new())
        })
        .collect();
    let archive = re2d::nres::manifest::pack(&entries).expect("a valid archive");
    write(dir, "nres-65536-empty.nres", &archive);
}

/// `--largest`: the largest inputs the default limits allow (for the peak
/// RSS measurements of the README), not used by the harness.
fn largest(dir: &Path) {
    // glTF just under export-max-bytes (450 batches ≈ 1.0 GB), OBJ (2 000
    // batches), --anim just under it (32 M frames × 32 bytes)
    for (name, kind, n) in [
        ("max-batches-450.msh", "batches", 450),
        ("max-batches-2000.msh", "batches", 2000),
        ("max-frames-32M.msh", "frames", 32_000_000),
    ] {
        write(dir, name, &synth::hostile(kind, n).expect("a kind").bytes);
    }
    // riv-max-objects (16 M) unknown objects
    let mut v = vec![RivObject::new(23)];
    v.extend(std::iter::repeat_n(RivObject::new(2), (1 << 24) - 1));
    write(
        dir,
        "max-objects-16M.riv",
        &encode(&v, Header::default()).unwrap(),
    );
    drop(v);
    // an archive just under nres-max-input (256 MiB): 65 536 entries of 4 000 bytes
    let entries: Vec<_> = (0..65_536u64)
        .map(|i| {
            let e = re2d::nres::manifest::ManifestEntry {
                order: i,
                file: String::new(),
                type_id: 1,
                attrs: [0; 3],
                name_raw: re2d::nres::name::field_for(format!("e{i}").as_bytes()).unwrap(),
            };
            (e, vec![(i % 251) as u8; 4000])
        })
        .collect();
    write(
        dir,
        "max-nres-256M.nres",
        &re2d::nres::manifest::pack(&entries).unwrap(),
    );
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .expect("usage: hostile_inputs DIR [--largest]");
    let dir = Path::new(&dir);
    fs::create_dir_all(dir).unwrap();
    if std::env::args().nth(2).as_deref() == Some("--largest") {
        largest(dir);
        println!("largest allowed inputs written to {}", dir.display());
        return;
    }
    msh(dir);
    riv(dir);
    skeleton_models(dir);
    nres(dir);
    println!("hostile inputs written to {}", dir.display());
}
