// re2d tests — replays tests/golden/golden.json through the Rust API and compares FNV-1a hashes and PNG pixels.
//
// The golden directory is $RE2D_GOLDEN_DIR, else tests/golden (the existing
// library's outputs, vendored). Every mismatch of a group is collected
// and reported together.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use re2d::rotsprite::{
    AnimeWorkspace, AtlasImage, CBool, Frame, R2DRotModelPose, R2DRotPoint, Rig, decode,
    decode_anime, draw,
};
use serde_json::Value;

fn golden_dir() -> PathBuf {
    let dir = std::env::var_os("RE2D_GOLDEN_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden"),
        PathBuf::from,
    );
    assert!(
        dir.join("golden.json").is_file(),
        "golden data not found at {} (set RE2D_GOLDEN_DIR)",
        dir.display()
    );
    dir
}

fn manifest() -> Value {
    let text = std::fs::read_to_string(golden_dir().join("golden.json")).expect("read golden.json");
    serde_json::from_str(&text).expect("parse golden.json")
}

/// FNV-1a 64 of the golden README.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

fn hex(v: &Value) -> u64 {
    u64::from_str_radix(v.as_str().expect("hash is a string"), 16).expect("hex hash")
}

/// Decodes an 8-bit RGBA PNG without any conversion.
fn read_png(name: &str) -> (u32, u32, Vec<u8>) {
    let file = std::fs::File::open(golden_dir().join(name)).expect("open png");
    let mut dec = png::Decoder::new(std::io::BufReader::new(file));
    dec.set_transformations(png::Transformations::IDENTITY);
    let mut reader = dec.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("png size")];
    let info = reader.next_frame(&mut buf).expect("png frame");
    assert_eq!(info.color_type, png::ColorType::Rgba, "{name}");
    assert_eq!(info.bit_depth, png::BitDepth::Eight, "{name}");
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// The 192-byte C record of a point (c-abi.md §2.2), padding zero.
fn record(p: &R2DRotPoint) -> [u8; 192] {
    let mut r = [0u8; 192];
    let f3 = |r: &mut [u8; 192], off: usize, v: &[f32; 3]| {
        for (i, x) in v.iter().enumerate() {
            r[off + 4 * i..off + 4 * i + 4].copy_from_slice(&x.to_le_bytes());
        }
    };
    f3(&mut r, 0, &[p.x, p.y, p.z]);
    r[12..16].copy_from_slice(&p.rgba);
    r[16] = p.part;
    r[17] = p.group;
    r[18..22].copy_from_slice(&p.corner_parts);
    r[22] = p.blend_part;
    r[23] = p.blend_weight;
    r[24..28].copy_from_slice(&p.corner_blend_parts);
    r[28..32].copy_from_slice(&p.corner_blend_weights);
    r[32] = p.patch.0;
    f3(&mut r, 36, &p.du);
    f3(&mut r, 48, &p.dv);
    f3(&mut r, 60, &p.duv);
    for (j, c) in p.colors.iter().enumerate() {
        r[72 + 4 * j..76 + 4 * j].copy_from_slice(c);
    }
    r[88] = p.textured.0;
    r[89] = p.mapped.0;
    r[90..190].copy_from_slice(&p.material);
    r
}

fn points_hash(points: &[R2DRotPoint]) -> u64 {
    let bytes: Vec<u8> = points.iter().flat_map(record).collect();
    fnv(&bytes)
}

fn model_of(v: &Value) -> Box<R2DRotModelPose> {
    let mut m = Box::<R2DRotModelPose>::default();
    m.scale = v["scale"].as_f64().expect("scale");
    for p in v["parts"].as_array().expect("parts") {
        let id = p["id"].as_u64().expect("id") as usize;
        let pose = &mut m.parts[id];
        for (k, x) in p["matrix"].as_array().expect("matrix").iter().enumerate() {
            pose.matrix[k] = x.as_f64().expect("matrix entry");
        }
        pose.defined = CBool::new(p["defined"].as_bool().expect("defined"));
        pose.visible = CBool::new(p["visible"].as_bool().expect("visible"));
        pose.one_sided = CBool::new(p["one_sided"].as_bool().expect("one_sided"));
        pose.selector = p["selector"].as_u64().expect("selector") as u8;
        pose.variant = p["variant"].as_u64().expect("variant") as u8;
    }
    m
}

fn rig_of<'a>(v: &Value, model: Option<&'a R2DRotModelPose>) -> Rig<'a> {
    let f = |k: &str| v[k].as_f64().expect("rig field");
    Rig {
        model,
        body: v["body"].as_bool().expect("body"),
        phase: f("phase"),
        stride: f("stride"),
        arm_left: f("arm_left"),
        arm_right: f("arm_right"),
        head_yaw: f("head_yaw"),
        brows: v["brows"].as_i64().expect("brows") as i32,
    }
}

struct Atlases {
    plain: HashMap<String, Vec<R2DRotPoint>>,
    anime: HashMap<String, Vec<R2DRotPoint>>,
}

fn load_atlases(g: &Value, errors: &mut Vec<String>) -> Atlases {
    let mut plain = HashMap::new();
    let mut anime = HashMap::new();
    for a in g["atlases"].as_array().expect("atlases") {
        let file = a["file"].as_str().expect("file").to_string();
        let (w, h, px) = read_png(&file);
        if fnv(&px) != hex(&a["fnv1a64"]) {
            errors.push(format!("{file}: atlas pixels hash {:016x}", fnv(&px)));
        }
        let stride = a["stride"].as_i64().expect("stride") as i32;
        let img = AtlasImage::new(&px, w as i32, h as i32, stride).expect("atlas image");
        plain.insert(file.clone(), decode(&img).expect("decode"));
        anime.insert(file, decode_anime(&img).expect("decode_anime"));
    }
    Atlases { plain, anime }
}

fn check_image(o: &Value, out: &[u8], errors: &mut Vec<String>) {
    let file = o["file"].as_str().expect("file");
    let got = fnv(out);
    if got != hex(&o["fnv1a64"]) {
        errors.push(format!("{file}: hash {got:016x}, want {}", o["fnv1a64"]));
    }
    let alpha = out.chunks(4).filter(|p| p[3] != 0).count() as u64;
    if Some(alpha) != o["nonzero_alpha_pixels"].as_u64() {
        errors.push(format!(
            "{file}: {alpha} pixels with alpha, want {}",
            o["nonzero_alpha_pixels"]
        ));
    }
    let (_, _, want) = read_png(file);
    if want != out {
        let diff = want.iter().zip(out).filter(|(a, b)| a != b).count();
        errors.push(format!("{file}: {diff} bytes differ from the PNG"));
    }
}

fn report(errors: Vec<String>) {
    assert!(
        errors.is_empty(),
        "{} golden mismatches:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

fn outputs<'a>(g: &'a Value, functions: &[&str]) -> Vec<&'a Value> {
    let list: Vec<&Value> = g["outputs"]
        .as_array()
        .expect("outputs")
        .iter()
        .filter(|o| functions.contains(&o["function"].as_str().expect("function")))
        .collect();
    assert!(!list.is_empty(), "no golden case for {functions:?}");
    list
}

#[test]
fn golden_decodes() {
    let g = manifest();
    let mut errors = Vec::new();
    let atl = load_atlases(&g, &mut errors);
    for o in outputs(
        &g,
        &["r2d_rotsprite_v2_decode", "r2d_rotsprite_v2_decode_anime"],
    ) {
        let file = o["file"].as_str().expect("file");
        let atlas = o["atlas"].as_str().expect("atlas");
        let anime = o["function"] == "r2d_rotsprite_v2_decode_anime";
        let pts = if anime {
            &atl.anime[atlas]
        } else {
            &atl.plain[atlas]
        };
        assert_eq!(o["returned"], true);
        if Some(pts.len() as u64) != o["output"]["count"].as_u64() {
            errors.push(format!(
                "{file}: count {}, want {}",
                pts.len(),
                o["output"]["count"]
            ));
            continue;
        }
        let h = points_hash(pts);
        if h != hex(&o["fnv1a64"]) {
            errors.push(format!(
                "{file}: points hash {h:016x}, want {}",
                o["fnv1a64"]
            ));
        }
    }
    report(errors);
}

#[test]
fn golden_raster_and_draw() {
    let g = manifest();
    let mut errors = Vec::new();
    let atl = load_atlases(&g, &mut errors);
    for o in outputs(&g, &["r2d_rotsprite_v2_raster", "r2d_rotsprite_v2_draw"]) {
        let a = &o["args"];
        let pts = &atl.plain[o["atlas"].as_str().expect("atlas")];
        let model = a["rig"]["model"]
            .is_object()
            .then(|| model_of(&a["rig"]["model"]));
        let rig = (!a["rig"].is_null()).then(|| rig_of(&a["rig"], model.as_deref()));
        let frame = Frame::new(
            a["yaw"].as_f64().expect("yaw"),
            a["pitch"].as_f64().expect("pitch"),
            a["eyes"].as_i64().expect("eyes") as i32,
            a["mouth"].as_i64().expect("mouth") as i32,
            rig,
        )
        .expect("valid frame");
        let mut out = vec![0xCDu8; 128 * 128 * 4];
        draw(pts, &frame, &mut out).expect("draw");
        check_image(o, &out, &mut errors);
    }
    report(errors);
}

#[test]
fn golden_anime() {
    let g = manifest();
    let mut errors = Vec::new();
    let atl = load_atlases(&g, &mut errors);
    let mut workspaces: HashMap<String, AnimeWorkspace> = HashMap::new();
    let mut last_call: HashMap<String, String> = HashMap::new();
    for o in outputs(
        &g,
        &["r2d_rotsprite_v2_anime", "r2d_rotsprite_v2_anime_sized"],
    ) {
        let a = &o["args"];
        let file = o["file"].as_str().expect("file");
        let sized = o["function"] == "r2d_rotsprite_v2_anime_sized";
        let ws_id = if sized {
            a["workspace"]["id"].as_str().expect("workspace id")
        } else {
            ""
        };
        if o["output"]["kind"] == "f32le" {
            // sample_depth right after the call of the matching image
            let image = o["output"]["image_file"].as_str().expect("image_file");
            assert_eq!(
                last_call.get(ws_id).map(String::as_str),
                Some(image),
                "{file}"
            );
            let sd: Vec<u8> = workspaces[ws_id]
                .sample_depth()
                .iter()
                .flat_map(|f| f.to_le_bytes())
                .collect();
            if fnv(&sd) != hex(&o["fnv1a64"]) {
                errors.push(format!("{file}: sample_depth hash {:016x}", fnv(&sd)));
            }
            let want = std::fs::read(golden_dir().join(file)).expect("read f32");
            if want != sd {
                errors.push(format!("{file}: sample_depth differs from the file"));
            }
            continue;
        }
        let pts = &atl.anime[o["atlas"].as_str().expect("atlas")];
        let model = a["rig"]["model"]
            .is_object()
            .then(|| model_of(&a["rig"]["model"]));
        let rig = (!a["rig"].is_null()).then(|| rig_of(&a["rig"], model.as_deref()));
        let frame = Frame::new(
            a["yaw"].as_f64().expect("yaw"),
            a["pitch"].as_f64().expect("pitch"),
            a["eyes"].as_i64().expect("eyes") as i32,
            a["mouth"].as_i64().expect("mouth") as i32,
            rig,
        )
        .expect("valid frame");
        let size = if sized {
            a["size"].as_u64().expect("size") as usize
        } else {
            256
        };
        let mut out = vec![0xCDu8; size * size * 4];
        let mut fresh = AnimeWorkspace::new();
        let ws = if sized {
            workspaces.entry(ws_id.to_string()).or_default()
        } else {
            &mut fresh
        };
        ws.render(pts, &frame, size, &mut out).expect("render");
        if sized {
            last_call.insert(ws_id.to_string(), file.to_string());
            let after = &o["workspace_after"];
            if Some(ws.size() as u64) != after["size"].as_u64() {
                errors.push(format!("{file}: workspace size {}", ws.size()));
            }
            let want: Vec<i64> = after["bounds"]
                .as_array()
                .expect("bounds")
                .iter()
                .map(|b| b.as_i64().expect("bound"))
                .collect();
            let got: Vec<i64> = ws.bounds().iter().map(|&b| i64::from(b)).collect();
            if got != want {
                errors.push(format!("{file}: bounds {got:?}, want {want:?}"));
            }
        }
        check_image(o, &out, &mut errors);
    }
    report(errors);
}
