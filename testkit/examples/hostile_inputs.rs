// re2d example: writes the "valid but huge" inputs of the memory-capped harness (`make hostile-test`).
//! `hostile_inputs DIR` writes small files whose processing is large (issue
//! 20): MSH models with many batches reusing one index range or a huge frame
//! count, `.riv` files with millions of records, skeleton-mesh models with
//! thousands of parts or big textures, NRes manifests the reader rejects,
//! and an archive of 65 536 empty entries; and one input per row of issue
//! 29's table (`r29-*`: colliding and overlong bone names, a 2 000-point
//! bone, a 1 000-joint capture declaring 10^6 frames, a 16384² drawing, 31 M
//! JSON numbers, broken and 65-byte textures, null numbers, a root height of
//! 1e37, 16 M `.riv` records); and one or a few per class of issue 45
//! (`r45-*`: a two-frame capture asking for a million keys, blend thresholds
//! beyond binary32, 250 000 triggers, 1×1 PNGs carrying 700 MB, a 15 MB
//! model). Every file is generated at test time (nothing large is
//! committed; the big PNGs are sparse); see `tests/hostile/run.py`.

use std::fs;
use std::path::Path;

use re2d_riv::write::{Header, RivObject, Value, encode};
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
        let s = re2d_testkit::msh::hostile(kind, n).expect("a hostile kind");
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
    let png = re2d_output::png_encode::encode_rgba(&px, side, side).expect("encode");
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
            let e = re2d_msh::nres::manifest::ManifestEntry {
                order: i,
                file: String::new(),
                type_id: 1,
                attrs: [0; 3],
                name_raw: re2d_msh::nres::name::field_for(name.as_bytes()).expect("a short name"),
            };
            (e, Vec::new())
        })
        .collect();
    let archive = re2d_msh::nres::manifest::pack(&entries).expect("a valid archive");
    write(dir, "nres-65536-empty.nres", &archive);
}

/// Renames bone `from` to `to` in a declaration (its parent references and
/// `mocap` key too).
fn rename(sk: &mut serde_json::Value, from: &str, to: &str) {
    for b in sk["bones"].as_array_mut().expect("bones") {
        for k in ["name", "parent"] {
            if b[k] == from {
                b[k] = json!(to);
            }
        }
    }
    if let Some(m) = sk.get_mut("mocap").and_then(|m| m.as_object_mut())
        && let Some(j) = m.remove(from)
    {
        m.insert(to.into(), j);
    }
}

/// A 1-bit palette PNG of `w × h` pure green (key colour) pixels, small at
/// any size.
fn green_png(w: u32, h: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Indexed);
    enc.set_depth(png::BitDepth::One);
    enc.set_palette(vec![0, 255, 0, 0, 0, 0]);
    let mut wr = enc.write_header().expect("header");
    let mut sw = wr.stream_writer().expect("stream");
    let row = vec![0u8; w.div_ceil(8) as usize];
    for _ in 0..h {
        std::io::Write::write_all(&mut sw, &row).expect("row");
    }
    sw.finish().expect("finish");
    drop(wr);
    out
}

/// A PNG signature and a valid IHDR of `w × h` RGBA8, then `tail` (no IDAT
/// and no IEND unless `tail` has them).
fn png_header(w: u32, h: u32, tail: &[u8]) -> Vec<u8> {
    let mut ihdr = b"IHDR".to_vec();
    ihdr.extend(w.to_be_bytes());
    ihdr.extend(h.to_be_bytes());
    ihdr.extend([8, 6, 0, 0, 0]);
    let crc = crc32(&ihdr);
    let mut v = b"\x89PNG\r\n\x1a\n".to_vec();
    v.extend(13u32.to_be_bytes());
    v.extend(&ihdr);
    v.extend(crc.to_be_bytes());
    v.extend(tail);
    v
}

fn crc32(data: &[u8]) -> u32 {
    let mut c = 0xffff_ffffu32;
    for &b in data {
        c ^= b as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

/// Issue 29: one input per row of the issue's table (`r29-*` cases of
/// tests/hostile/run.py).
fn issue29(dir: &Path) {
    use re2d_testkit::drawings;
    // a small biped and its declaration (rows 1-3, 10b, 10f)
    let d = drawings::generate(&drawings::biped().sized(424, 632)).expect("a drawing");
    write(dir, "small.png", &d.png().expect("png"));
    let mut sk: serde_json::Value = serde_json::from_str(&d.skeleton_json).expect("json");
    sk["image"] = json!("small.png");
    write(dir, "small.skeleton.json", sk.to_string().as_bytes());
    let names: Vec<String> = sk["bones"]
        .as_array()
        .expect("bones")
        .iter()
        .map(|b| b["name"].as_str().expect("name").to_string())
        .collect();
    let variant = |file: &str, f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = sk.clone();
        f(&mut v);
        write(dir, file, v.to_string().as_bytes());
    };
    let (a, b) = (&names[names.len() - 2], &names[names.len() - 1]);
    variant("r29-names-collide.skeleton.json", &|v| {
        rename(v, a, "x.y");
        rename(v, b, "x_y");
    });
    variant("r29-names-unicode.skeleton.json", &|v| {
        rename(v, a, "рука");
        rename(v, b, "нога");
    });
    variant("r29-name-600k.skeleton.json", &|v| {
        rename(v, &names[0], &"b".repeat(600_000))
    });
    variant("r29-name-300.skeleton.json", &|v| {
        rename(v, &names[0], &"b".repeat(300))
    });
    // row 4: one bone of 2 000 points on a 1000x1000 drawing
    let big = drawings::generate(&drawings::biped().sized(1000, 1000)).expect("a drawing");
    write(dir, "r29-1000.png", &big.png().expect("png"));
    let mut bsk: serde_json::Value = serde_json::from_str(&big.skeleton_json).expect("json");
    bsk["image"] = json!("r29-1000.png");
    {
        let b0 = &mut bsk["bones"][0];
        // a zigzag over the whole drawing: the tube's box is the drawing
        let pts: Vec<_> = (0..2000)
            .map(|i| {
                let x = if i % 2 == 0 { 20.0 } else { 980.0 };
                json!([x, 20.0 + i as f64 / 1999.0 * 960.0])
            })
            .collect();
        b0["points"] = json!(pts);
        b0["radius"] = json!(40.0);
    }
    write(
        dir,
        "r29-points-2000.skeleton.json",
        bsk.to_string().as_bytes(),
    );
    // row 5: a 1 000-joint chain without channels, Frames: 1000000, no motion lines
    // (its last joints carry leg names, so the gait search walks the whole chain)
    let legs = [
        "LeftHip",
        "LeftKnee",
        "LeftAnkle",
        "RightHip",
        "RightKnee",
        "RightAnkle",
    ];
    let mut bvh = String::from("HIERARCHY\n");
    for i in 0..1000 {
        let name = if i >= 994 {
            legs[i - 994].to_string()
        } else {
            format!("j{i}")
        };
        bvh += &format!(
            "{} {name}\n{{\nOFFSET 0 1 0\n",
            if i == 0 { "ROOT" } else { "JOINT" }
        );
    }
    bvh += "End Site\n{\nOFFSET 0 1 0\n}\n";
    bvh += &"}\n".repeat(1000);
    bvh += "MOTION\nFrames: 1000000\nFrame Time: 0.0083333\n";
    variant("r29-legs.skeleton.json", &|v| {
        v["mocap"] = json!({"thigh_near": "LeftHip", "shin_near": "LeftKnee",
                            "thigh_far": "RightHip", "shin_far": "RightKnee"})
    });
    write(dir, "r29-chain-1000.bvh", bvh.as_bytes());
    // row 6: a 16384x16384 drawing (exactly at png-max-side / png-max-bytes)
    write(dir, "r29-16384.png", &green_png(16384, 16384));
    variant("r29-16384.skeleton.json", &|v| {
        v["image"] = json!("r29-16384.png")
    });
    // row 7: a 62 MB model of 31 M numbers (json-max-bytes is 64M)
    let mut m = br#"{"version": 1, "name": "n", "textures": {},
        "skeleton": {"root": {"x": 0, "y": 0, "length": 10, "angle": 0}},
        "parts": [{"name": "p", "depth": 0.5, "tris": [0, 1, 2],
        "weights": [["root", 1], ["root", 1], ["root", 1]], "uv": [0,0,1,0,0,1], "verts": ["#
        .to_vec();
    for _ in 0..31_000_000 / 2 - 1 {
        m.extend_from_slice(b"0,0,");
    }
    m.extend_from_slice(b"0,0]}], \"clips\": {}}");
    write(dir, "r29-31M-numbers.model.json", &m);
    drop(m);
    // row 9 / 10d: a valid IHDR + 200 random bytes; a 65-byte PNG declaring 16384²
    let mut z = 0x2545_f491_4f6c_dd1du64;
    let noise: Vec<u8> = (0..200)
        .map(|_| {
            z ^= z << 13;
            z ^= z >> 7;
            z ^= z << 17;
            z as u8
        })
        .collect();
    write(dir, "r29-broken.png", &png_header(64, 64, &noise));
    // IHDR, then an IDAT of the first 20 bytes of a zlib stream of zeros,
    // then the file ends (65 bytes)
    let z20: [u8; 20] = [
        0x78, 0xda, 0xed, 0xc1, 0x31, 0x01, 0x00, 0x00, 0x00, 0xc2, 0xa0, 0xf5, 0x4f, 0x6d, 0x08,
        0x5f, 0xa0, 0x00, 0x00, 0x00,
    ];
    let mut idat = b"IDAT".to_vec();
    idat.extend(z20);
    let mut chunk = 20u32.to_be_bytes().to_vec();
    chunk.extend(&idat);
    chunk.extend(crc32(&idat).to_be_bytes());
    let p65 = png_header(16384, 16384, &chunk);
    assert_eq!(p65.len(), 65);
    write(dir, "r29-65.png", &p65);
    variant("r29-65.skeleton.json", &|v| {
        v["image"] = json!("r29-65.png")
    });
    // a small model (rows 9, 10a, 10c)
    let model = |tex: Option<&str>, verts: serde_json::Value, key: serde_json::Value| {
        json!({"version": 1, "name": "small",
            "textures": tex.map_or(json!({}), |t| json!({"t": t})),
            "skeleton": {"root": {"x": 0.0, "y": 0.0, "length": 10.0, "angle": 0.0}},
            "parts": [{"name": "p", "texture": tex.map(|_| "t"), "depth": 0.5, "verts": verts,
                "uv": [0.0, 0.0, 1.0, 0.0, 0.0, 1.0], "tris": [0, 1, 2],
                "weights": [["root", 1], ["root", 1], ["root", 1]]}],
            "clips": {"move": {"duration": 1.0, "loop": true, "interpolation": "linear",
                "tracks": {"root": [[0.0, 0.0], [1.0, 0.5]]},
                "translations": {"root": [[0.0, 0.0, 0.0], key]}}}})
        .to_string()
    };
    let v = json!([0.0, 0.0, 50.0, 0.0, 0.0, 50.0]);
    let k = json!([1.0, 5.0, 5.0]);
    write(
        dir,
        "r29-small.model.json",
        model(None, v.clone(), k.clone()).as_bytes(),
    );
    write(
        dir,
        "r29-broken-tex.model.json",
        model(Some("r29-broken.png"), v.clone(), k.clone()).as_bytes(),
    );
    write(
        dir,
        "r29-65-tex.model.json",
        model(Some("r29-65.png"), v.clone(), k.clone()).as_bytes(),
    );
    write(
        dir,
        "r29-null-verts.model.json",
        model(None, json!([0.0, null, 50.0, 0.0, 0.0, 50.0]), k).as_bytes(),
    );
    write(
        dir,
        "r29-null-key.model.json",
        model(None, v, json!([1.0, null, 5.0])).as_bytes(),
    );
    // row 9: a .riv embedding a texture whose header is valid and whose
    // data is not (riv check read only the header)
    let j: serde_json::Value = serde_json::from_str(&model(
        Some("t"),
        json!([0.0, 0.0, 50.0, 0.0, 0.0, 50.0]),
        json!([1.0, 5.0, 5.0]),
    ))
    .expect("json");
    let mut src =
        |_: &str, _: &serde_json::Value| -> Result<(String, Vec<u8>), re2d_riv::RivError> {
            Ok(("t.png".into(), re2d_testkit::riv::texture(0.3)))
        };
    let m =
        re2d_riv::Model::from_json(&j, &mut src, &re2d::limits::Limits::DEFAULT).expect("model");
    let mut riv = re2d_riv::export(&m, &re2d_riv::Options::default())
        .expect("export")
        .bytes;
    let at = riv.windows(4).position(|w| w == b"IDAT").expect("an IDAT") + 8;
    riv[at..at + 16].iter_mut().for_each(|b| *b ^= 0x5a);
    write(dir, "r29-broken-tex.riv", &riv);
    // row 10f: the repository's walk with the root height scaled to ~1e37
    let walk = include_str!("../../assets/mocap/cmu-131-01-walk.bvh");
    let (head, motion) = walk.split_at(walk.find("Frame Time:").expect("motion"));
    let mut out = head.to_string();
    for (i, line) in motion.lines().enumerate() {
        if i == 0 {
            out += line;
        } else {
            let mut vals: Vec<String> = line.split_whitespace().map(str::to_string).collect();
            if let Some(y) = vals.get_mut(1) {
                let h: f64 = y.parse().expect("a number");
                *y = format!("{:e}", h * 5e36);
            }
            out += &vals.join(" ");
        }
        out += "\n";
    }
    write(dir, "r29-root-8e37.bvh", out.as_bytes());
    // a small archive (row 8)
    let s = re2d_msh::synth::generate("triangle", 1).expect("an archive");
    write(dir, "r29-small.nres", &s.bytes);
    // row 11: riv-max-objects (16 M) records of 4 bytes (a Node with parentId 0)
    let node = RivObject::new(2).with(5, Value::Uint(0));
    let back = RivObject::new(23);
    let e1 = encode(&[back.clone(), node.clone()], Header::default()).expect("encode");
    let e2 = encode(&[back, node.clone(), node], Header::default()).expect("encode");
    let rec = e2[e1.len()..].to_vec();
    let mut f = e1.clone();
    f.reserve(rec.len() << 24);
    for _ in 0..(1u32 << 24) - 2 {
        f.extend_from_slice(&rec);
    }
    write(dir, "r29-16M-records.riv", &f);
}

/// A table-driven CRC-32 (PNG) that continues from `c` (start with
/// `0xffff_ffff`, finish with `!c`).
fn crc32_update(mut c: u32, data: &[u8]) -> u32 {
    static TABLE: std::sync::OnceLock<[u32; 256]> = std::sync::OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let mut t = [0u32; 256];
        for (n, e) in t.iter_mut().enumerate() {
            let mut c = n as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    0xedb8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
            *e = c;
        }
        t
    });
    for &b in data {
        c = t[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8);
    }
    c
}

/// A valid 1×1 RGBA PNG carrying an ancillary chunk of `extra` zero bytes
/// before its IDAT, written sparse (the zeros are a hole in the file).
fn png_with_chunk(path: &Path, extra: u64) {
    use std::io::{Seek, SeekFrom, Write};
    let one = re2d_output::png_encode::encode_rgba(&[200, 100, 50, 255], 1, 1).expect("encode");
    // signature + IHDR chunk (8 + 25 bytes), then the rest (IDAT, IEND)
    let (head, tail) = one.split_at(33);
    let mut f = fs::File::create(path).expect("create");
    f.write_all(head).unwrap();
    f.write_all(&(extra as u32).to_be_bytes()).unwrap();
    f.write_all(b"ruSt").unwrap();
    let mut c = crc32_update(0xffff_ffff, b"ruSt");
    let zeros = vec![0u8; 1 << 20];
    let mut left = extra;
    while left > 0 {
        let n = left.min(zeros.len() as u64) as usize;
        c = crc32_update(c, &zeros[..n]);
        left -= n as u64;
    }
    f.seek(SeekFrom::Current(extra as i64)).unwrap();
    f.write_all(&(!c).to_be_bytes()).unwrap();
    f.write_all(tail).unwrap();
}

/// Issue 45: one input (or a few) per class of its adversarial round
/// (`r45-*` cases of tests/hostile/run.py).
fn issue45(dir: &Path) {
    // 1. clip keys: the repository's walk hierarchy with two frames that
    // last 16666 s, 4166 s and 1666 s (1 M, 250 k and 100 k keys at 60 fps)
    let walk = include_str!("../../assets/mocap/cmu-131-01-walk.bvh");
    write(dir, "r45-walk.bvh", walk.as_bytes());
    let (head, motion) = walk.split_at(walk.find("MOTION").expect("motion"));
    let frames: Vec<&str> = motion
        .lines()
        .skip_while(|l| !l.starts_with("Frame Time"))
        .skip(1)
        .take(2)
        .collect();
    for (name, secs) in [("1M", 16666), ("250k", 4166), ("100k", 1666)] {
        let b = format!(
            "{head}MOTION\nFrames: 2\nFrame Time: {secs}\n{}\n{}\n",
            frames[0], frames[1]
        );
        write(dir, &format!("r45-keys-{name}.bvh"), b.as_bytes());
    }
    // 3. blend thresholds outside binary32 or equal in it
    let machine = |blend: serde_json::Value| {
        json!({"version": 1, "name": "m", "textures": {},
            "skeleton": {"root": {"x": 0.0, "y": 0.0, "length": 10.0, "angle": 0.0}},
            "parts": [{"name": "p", "depth": 0.5, "verts": [0.0, 0.0, 50.0, 0.0, 0.0, 50.0],
                "uv": [0.0, 0.0, 1.0, 0.0, 0.0, 1.0], "tris": [0, 1, 2],
                "weights": [["root", 1], ["root", 1], ["root", 1]]}],
            "clips": {
                "idle": {"duration": 1.0, "loop": true, "tracks": {"root": [[0.0, 0.0], [1.0, 0.0]]}},
                "walk": {"duration": 1.0, "loop": true, "tracks": {"root": [[0.0, 0.0], [1.0, 0.5]]}},
                "jump": {"duration": 1.0, "loop": false, "tracks": {"root": [[0.0, 0.0], [1.0, 0.5]]}}},
            "state_machine": {"name": "sm", "input": "speed", "blend": blend,
                "triggers": [["jump", "jump"]]}})
    };
    for (name, blend) in [
        ("1e39", json!([["idle", 0.0], ["walk", 1e39]])),
        ("1e308", json!([["idle", -1e308], ["walk", 1e308]])),
        ("f32-equal", json!([["idle", 1.0], ["walk", 1.00000001]])),
        ("ok", json!([["idle", 0.0], ["walk", 1.0]])),
    ] {
        write(
            dir,
            &format!("r45-threshold-{name}.model.json"),
            machine(blend).to_string().as_bytes(),
        );
    }
    // .riv files with what no re2d file holds: an infinite and a NaN
    // threshold, an input name that is not UTF-8, a transition into Entry
    let ok = machine(json!([["idle", 0.0], ["walk", 1.0]]));
    let mut none =
        |_: &str, _: &serde_json::Value| -> Result<(String, Vec<u8>), re2d_riv::RivError> {
            unreachable!("no textures")
        };
    let m = re2d_riv::Model::from_json(&ok, &mut none, &re2d::limits::Limits::DEFAULT)
        .expect("a valid machine");
    let (objects, _, _) =
        re2d_riv::export::objects(&m, &re2d_riv::Options::default()).expect("objects");
    use re2d_riv::keys::{prop, ty};
    let edit = |name: &str, f: &dyn Fn(&mut Vec<RivObject>)| {
        let mut o = objects.clone();
        f(&mut o);
        write(dir, name, &encode(&o, Header::default()).expect("encode"));
    };
    let set = |o: &mut RivObject, key: u64, v: Value| {
        for p in o.props.iter_mut().filter(|p| p.0 == key) {
            p.1 = v.clone();
        }
    };
    for (name, v) in [("inf", f32::INFINITY), ("nan", f32::NAN)] {
        edit(&format!("r45-threshold-{name}.riv"), &|o| {
            let b = o
                .iter_mut()
                .rfind(|r| r.type_key == ty::BLEND_ANIMATION_1D)
                .expect("a blend clip");
            set(b, prop::BLEND_VALUE, Value::Double(v));
        });
    }
    {
        // named "sé_d" (UTF-8), then its two bytes of é replaced by Latin-1 é twice
        let mut o = objects.clone();
        let n = o
            .iter_mut()
            .find(|r| r.type_key == ty::SM_NUMBER)
            .expect("a number input");
        set(n, prop::SM_NAME, Value::Str("s\u{e9}_d".into()));
        let mut b = encode(&o, Header::default()).expect("encode");
        let at = b
            .windows(5)
            .position(|w| w == "s\u{e9}_d".as_bytes())
            .expect("the name");
        b[at + 1] = 0xe9;
        b[at + 2] = 0xe9;
        write(dir, "r45-input-name-latin1.riv", &b);
    }
    edit("r45-any-to-entry.riv", &|o| {
        let any = o
            .iter()
            .position(|r| r.type_key == ty::ANY_STATE)
            .expect("an Any state");
        set(&mut o[any + 1], prop::STATE_TO_ID, Value::Uint(0));
    });
    // 4. a 5 MB model of 250 000 triggers, and one of 130 000 clips in the blend
    let mut v = ok.clone();
    let triggers: Vec<_> = (0..250_000)
        .map(|i| json!(["jump", format!("t{i}")]))
        .collect();
    v["state_machine"]["triggers"] = json!(triggers);
    write(
        dir,
        "r45-triggers-250k.model.json",
        v.to_string().as_bytes(),
    );
    let mut v = ok.clone();
    let clips = v["clips"].as_object_mut().expect("clips");
    let mut blend = vec![json!(["idle", 0.0])];
    for i in 0..130_000 {
        clips.insert(
            format!("c{i}"),
            json!({"duration": 1.0, "loop": true, "tracks": {}}),
        );
        blend.push(json!([format!("c{i}"), (i + 1) as f64]));
    }
    v["state_machine"]["blend"] = json!(blend);
    write(dir, "r45-blend-130k.model.json", v.to_string().as_bytes());
    // 5. valid 1x1 PNGs carrying 700 MB and 400 MB ancillary chunks (sparse)
    png_with_chunk(&dir.join("r45-tex-700M.png"), 700 << 20);
    png_with_chunk(&dir.join("r45-tex-400M.png"), 400 << 20);
    let textured = |tex: serde_json::Value, parts: &[&str]| {
        let parts: Vec<_> = parts
            .iter()
            .map(|t| {
                json!({"name": format!("p{t}"), "texture": t, "depth": 0.5,
                    "verts": [0.0, 0.0, 50.0, 0.0, 0.0, 50.0],
                    "uv": [0.0, 0.0, 1.0, 0.0, 0.0, 1.0], "tris": [0, 1, 2],
                    "weights": [["root", 1], ["root", 1], ["root", 1]]})
            })
            .collect();
        json!({"version": 1, "name": "t", "textures": tex,
            "skeleton": {"root": {"x": 0.0, "y": 0.0, "length": 10.0, "angle": 0.0}},
            "parts": parts, "clips": {}})
        .to_string()
    };
    write(
        dir,
        "r45-tex-700M.model.json",
        textured(json!({"a": "r45-tex-700M.png"}), &["a"]).as_bytes(),
    );
    write(
        dir,
        "r45-tex-400M.model.json",
        textured(json!({"a": "r45-tex-400M.png"}), &["a"]).as_bytes(),
    );
    write(
        dir,
        "r45-tex-2x400M.model.json",
        textured(
            json!({"a": "r45-tex-400M.png", "b": "r45-tex-400M.png"}),
            &["a", "b"],
        )
        .as_bytes(),
    );
    // 7. a 15 MB model.json: 7.5 M numbers in a part
    let mut m = br#"{"version": 1, "name": "n", "textures": {},
        "skeleton": {"root": {"x": 0, "y": 0, "length": 10, "angle": 0}},
        "parts": [{"name": "p", "depth": 0.5, "tris": [0, 1, 2],
        "weights": [["root", 1], ["root", 1], ["root", 1]], "uv": [0,0,1,0,0,1], "verts": ["#
        .to_vec();
    for _ in 0..7_500_000 / 2 - 1 {
        m.extend_from_slice(b"0,0,");
    }
    m.extend_from_slice(b"0,0]}], \"clips\": {}}");
    write(dir, "r45-15M.model.json", &m);
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
        write(
            dir,
            name,
            &re2d_testkit::msh::hostile(kind, n).expect("a kind").bytes,
        );
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
            let e = re2d_msh::nres::manifest::ManifestEntry {
                order: i,
                file: String::new(),
                type_id: 1,
                attrs: [0; 3],
                name_raw: re2d_msh::nres::name::field_for(format!("e{i}").as_bytes()).unwrap(),
            };
            (e, vec![(i % 251) as u8; 4000])
        })
        .collect();
    write(
        dir,
        "max-nres-256M.nres",
        &re2d_msh::nres::manifest::pack(&entries).unwrap(),
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
    issue29(dir);
    issue45(dir);
    println!("hostile inputs written to {}", dir.display());
}
