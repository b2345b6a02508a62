// re2d — the entry points of the fuzz targets (fuzz/fuzz_targets/*) and of the corpus replay test.
//! Each function takes the fuzzer's bytes and drives one parser or pipeline
//! the way outside input reaches it. They must never panic, abort or hang:
//! errors are the expected outcome for most inputs. The same functions
//! replay the committed corpora in `tests/fuzz_corpus.rs`, so CI without
//! cargo-fuzz still runs every corpus file.
//!
//! | target | drives |
//! |---|---|
//! | `atlas` | a compact generator of v2 control cells → header, decode, decode_anime, draw (128), anime (256) |
//! | `v1` | a generated v1 head atlas (56..128 px) → layout, raster |
//! | `png` | PNG bytes → `png_io` decode, strict RGBA8 decode + inspect, sprite load |
//! | `surface` | surface JSON → compile (default and legacy) + inspect of the atlas |
//! | `model` | character + animation JSON → validate, sample, pose, joints, sockets, C pose |
//! | `build_file` | build-file JSON → jobs |
//! | `rig_skeleton` | a skeleton declaration → parse, tree, keying and slicing on a small drawing |
//! | `bvh` | BVH text → `rig::bvh::parse`, forward kinematics of the first and last frame, retargeting onto a small biped (`rig::motion`) |
//! | `js` (in `re2d_qjs::fuzz`) | generated calls into `$.mesh`, `$.re2dSprite` and the engine natives |

use re2d::limits::Limits;

/// A target: name (= `fuzz/fuzz_targets/<name>.rs`) and entry point.
pub type Target = (&'static str, fn(&[u8]));

/// Every target of this module.
pub const TARGETS: &[Target] = &[
    ("atlas", atlas),
    ("v1", v1),
    ("png", png),
    ("surface", surface),
    ("model", model),
    ("build_file", build_file),
    ("bvh", bvh),
    ("rig_skeleton", rig_skeleton),
    ("rig_ora", rig_ora),
    ("rig_psd", rig_psd),
];

/// Targets whose entry point lives in the QuickJS host crate (`re2d_qjs::fuzz`).
pub const JS_TARGETS: &[&str] = &["js"];

/// Limits small enough that one input stays fast under the fuzzer.
pub const FUZZ_LIMITS: Limits = Limits::FUZZ;

/// Little reader over the fuzzer's bytes (zeros when exhausted).
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }
    fn f32(&mut self) -> f32 {
        f32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }
    /// An angle: mostly ordinary degrees, sometimes a raw float (NaN, ∞, huge).
    fn angle(&mut self) -> f64 {
        let sel = self.u8();
        if sel < 240 {
            (self.u16() as f64 / 65535.0) * 720.0 - 360.0
        } else {
            self.f32() as f64
        }
    }
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

// ---- atlas -----------------------------------------------------------------

mod atlas_gen {
    use std::cell::RefCell;

    pub const W: usize = 1024;

    /// Buffers reused across inputs, so that one input costs its decode and
    /// renders, not the allocation and zeroing of ~8 MB.
    pub struct Scratch {
        /// One zeroed 1024² image.
        pub img: Vec<u8>,
        /// Byte offsets the previous input wrote into `img` (reset first).
        pub touched: Vec<usize>,
        /// The smooth renderer's workspace, reused across inputs as a caller
        /// reuses it across frames (its buffers stay sized for 256).
        pub ws: re2d::rotsprite::AnimeWorkspace,
        /// 128 px raster output.
        pub small: Vec<u8>,
        /// 256 px smooth output.
        pub big: Vec<u8>,
    }

    thread_local! {
        pub static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch {
            img: vec![0; W * W * 4],
            touched: Vec::new(),
            ws: re2d::rotsprite::AnimeWorkspace::new(),
            small: vec![0; 128 * 128 * 4],
            big: vec![0; 256 * 256 * 4],
        });
    }

    pub fn put(img: &mut [u8], touched: &mut Vec<usize>, x: usize, y: usize, px: [u8; 4]) {
        let o = (y * W + x) * 4;
        img[o..o + 4].copy_from_slice(&px);
        touched.push(o);
    }
}

/// v2 atlas: byte 0 picks the header (valid, SUB, SUB+BLD, broken) and what
/// is rendered; each following 18-byte chunk writes one control cell
/// (mx, my, flags, ID rgb, depth rgb, coverage rg, XY rgb, colour rgba) and
/// its 4×4 colour block. Then header check, decode, decode_anime, the 128 px
/// raster and the 256 px smooth renderer with a legacy or model rig.
pub fn atlas(data: &[u8]) {
    use atlas_gen::{SCRATCH, W, put};
    use re2d::rotsprite::{AtlasImage, Frame, Rig, decode, decode_anime, draw};
    let mut b = Bytes(data);
    let mode = b.u8();
    let view = (
        b.angle(),
        b.angle(),
        (b.u8() % 5) as i32,
        (b.u8() % 5) as i32,
    );
    let rig_kind = b.u8();
    SCRATCH.with(|cell| {
        let mut guard = cell.borrow_mut();
        let atlas_gen::Scratch {
            img,
            touched,
            ws,
            small,
            big,
        } = &mut *guard;
        for &o in touched.iter() {
            img[o..o + 4].fill(0);
        }
        touched.clear();
        let hdr_y = W * 15 / 16;
        if mode & 3 != 3 {
            put(img, touched, 0, hdr_y, [82, 50, 68, 255]);
            put(img, touched, 1, hdr_y, [82, 79, 84, 255]);
            put(img, touched, 2, hdr_y, [2, 4, 4, 255]);
            if mode & 1 != 0 {
                put(img, touched, 3, hdr_y, [83, 85, 66, 255]);
            }
            if mode & 2 != 0 {
                put(img, touched, 4, hdr_y, [66, 76, 68, 255]);
            }
        }
        let mut cells = 0;
        while !b.is_empty() && cells < 256 {
            cells += 1;
            let mx = b.u8() as usize;
            let my = b.u8() as usize % 192;
            let flags = b.u8();
            let alpha = |bit: u8| if flags & bit != 0 { flags } else { 255 };
            let id = [b.u8(), b.u8(), b.u8(), alpha(1)];
            let depth = [b.u8(), b.u8(), b.u8(), alpha(2)];
            let cov = [b.u8(), b.u8(), 0, alpha(4)];
            let xy = [b.u8(), b.u8(), b.u8(), alpha(8)];
            let col = [b.u8(), b.u8(), b.u8(), b.u8()];
            let row = 768 + my;
            put(img, touched, mx, row, id);
            put(img, touched, 256 + mx, row, depth);
            put(img, touched, 512 + mx, row, cov);
            put(img, touched, 768 + mx, row, xy);
            for dy in 0..4 {
                for dx in 0..4 {
                    let mut c = col;
                    if flags & 0x80 != 0 {
                        c[0] ^= (dx * 40 + dy * 10) as u8;
                        c[3] = if (dx + dy) % 3 == 0 { 0 } else { col[3] };
                    }
                    put(img, touched, 4 * mx + dx, 4 * my + dy, c);
                }
            }
        }
        let Ok(view_img) = AtlasImage::new(img, W as i32, W as i32, 4 * W as i32) else {
            return;
        };
        let _ = re2d::rotsprite::atlas::extensions(&view_img);
        let pose = crate::atlas::walk_pose((rig_kind >> 2) as f64 / 64.0);
        let rig = match rig_kind & 3 {
            0 => None,
            1 => Some(Rig::legacy(rig_kind & 4 != 0)),
            _ => Some(Rig::model(&pose)),
        };
        let Ok(frame) = Frame::new(view.0, view.1, view.2, view.3, rig) else {
            return;
        };
        if let Ok(points) = decode(&view_img) {
            let _ = draw(&points, &frame, small);
        }
        if mode & 4 != 0
            && let Ok(points) = decode_anime(&view_img)
        {
            let _ = ws.render(&points, &frame, 256, big);
        }
    });
}

// ---- v1 --------------------------------------------------------------------

/// v1 head raster: side 56..128 (step 8, byte 0; 56 is below the layout's
/// minimum), a stride padding, a pose, and pixels cycled from the remaining
/// bytes.
pub fn v1(data: &[u8]) {
    use re2d::rotsprite::{AtlasImage, v1};
    let mut b = Bytes(data);
    let side = 56 + 8 * (b.u8() as i32 % 10);
    let pad = (b.u8() % 4) as i32 * 4;
    let (yaw, pitch) = (b.angle(), b.angle());
    let stride = 4 * side + pad;
    let mut img = vec![0u8; (stride * side) as usize];
    let rest = b.0;
    if !rest.is_empty() {
        for chunk in img.chunks_mut(rest.len()) {
            chunk.copy_from_slice(&rest[..chunk.len()]);
        }
    }
    let _ = v1::layout(side, side);
    let _ = v1::angles(yaw, pitch);
    if let Ok(view) = AtlasImage::new(&img, side, side, stride) {
        let mut out = vec![0u8; v1::V1_OUT_BYTES];
        let _ = v1::raster(&view, yaw, pitch, &mut out);
    }
}

// ---- png -------------------------------------------------------------------

/// PNG bytes through every PNG reader: the any-colour decoder (as the
/// engine natives and `render` read atlases), the strict RGBA8 decoder and
/// `atlas inspect`, and sprite loading (classification, v1/v2 decode).
pub fn png(data: &[u8]) {
    let l = FUZZ_LIMITS;
    if let Ok(img) = re2d::png_io::decode_rgba_limited(std::io::Cursor::new(data), &l) {
        let _ = re2d::sprite::SpriteHandle::from_image(img, std::path::Path::new("fuzz.png"));
    }
    if let Ok(img) = re2d_surface::decode_rgba8_limited(data, &l) {
        let _ = re2d_surface::inspect::inspect(&img.rgba, img.width, img.height);
    }
}

// ---- surface ---------------------------------------------------------------

/// Surface JSON → compile (byte 0 picks legacy/segments/support) → inspect.
pub fn surface(data: &[u8]) {
    use re2d_surface::{Options, compile, inspect::inspect};
    let Some((&sel, json)) = data.split_first() else {
        return;
    };
    if FUZZ_LIMITS.check_json_depth(json).is_err() {
        return;
    }
    let opts = Options {
        legacy: sel & 1 != 0,
        segments: sel & 2 != 0,
        support: sel & 4 == 0,
        segment_widths: if sel & 8 != 0 {
            [(3u8, 2.0), (7, 0.5)].into_iter().collect()
        } else {
            Default::default()
        },
        ..Options::default()
    };
    if let Ok(atlas) = compile(json, None, &opts) {
        let _ = inspect(&atlas.rgba, atlas.size, atlas.size);
    }
}

// ---- model -----------------------------------------------------------------

/// Definition JSON, a 0xFF byte, animation JSON (text as the JS host hands
/// it over, lone surrogate escapes included) → validate both, then for every
/// clip sample at a few times, build body and portrait poses, joints,
/// sockets and the C model pose.
pub fn model(data: &[u8]) {
    use re2d::model::{
        RigInput, build_model_pose, model_joints, rows_to_c, sample_clip, socket_matrix,
        validate_animations, validate_definition,
    };
    let (def_text, anim_text) = match data.iter().position(|&b| b == 0xFF) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &b""[..]),
    };
    let parse = |t: &[u8]| {
        let s = std::str::from_utf8(t).ok()?;
        re2d::model::jstext::parse(s, &FUZZ_LIMITS).ok()
    };
    let Some(def_v) = parse(def_text) else {
        return;
    };
    let _ = re2d::model::relative_asset(
        def_v.get("file").and_then(|v| v.as_str()),
        def_v
            .get("atlas")
            .and_then(|v| v.as_str())
            .unwrap_or("a.png"),
    );
    let Ok(def) = validate_definition(def_v) else {
        return;
    };
    let _ = re2d::model::jstext::to_text(&def.json);
    let anims = match parse(anim_text) {
        Some(v) => validate_animations(v, &def),
        None => validate_animations(serde_json::json!({"version": 1, "clips": {}}), &def),
    };
    let Ok(anims) = anims else { return };
    let mut samples = vec![re2d::model::Sample::default()];
    for clip in anims.clips.values() {
        for t in [
            0.0,
            clip.duration * 0.37,
            clip.duration,
            clip.duration * 2.5,
        ] {
            if let Ok(s) = sample_clip(clip, t) {
                samples.push(s);
            }
        }
    }
    let controls: indexmap::IndexMap<String, f64> = def
        .controls
        .iter()
        .enumerate()
        .map(|(i, c)| (c.key.clone(), i as f64 * 7.5 - 20.0))
        .collect();
    for (i, s) in samples.iter().enumerate().take(4) {
        let rig = RigInput {
            body: i % 2 == 0,
            controls: if i % 3 == 0 {
                controls.clone()
            } else {
                Default::default()
            },
        };
        let visible: Vec<u8> = def.parts.iter().map(|p| p.id).step_by(2).collect();
        let vis = (i % 4 == 1).then_some(&visible[..]);
        let pose = build_model_pose(&def, s, &rig, &Default::default(), vis);
        let _ = model_joints(&def, &pose, 30.0 * i as f64, 10.0);
        for sk in &def.sockets {
            let _ = socket_matrix(&def, &pose, &sk.name);
        }
        let rows: Vec<[f64; 17]> = pose.records.iter().map(|r| r.to_row()).collect();
        let _ = rows_to_c(pose.scale, &rows);
    }
}

// ---- build -----------------------------------------------------------------

/// Build-file JSON → jobs.
pub fn build_file(data: &[u8]) {
    if FUZZ_LIMITS.check_json_depth(data).is_err() {
        return;
    }
    let _ = re2d_surface::parse_build(data, std::path::Path::new("base"));
}

/// BVH bytes → reader (fuzz limits), forward kinematics of the first and last
/// frame, and a retarget onto a seven-bone side-view biped with the default
/// options: whatever the capture holds, every step returns a value or a
/// typed error.
pub fn bvh(data: &[u8]) {
    use re2d_rig::motion::{self, bvh};
    let Ok(b) = bvh::parse(data, &FUZZ_LIMITS) else {
        return;
    };
    let n = b.frames;
    if n > 0 {
        let _ = b.positions(0);
        let _ = b.positions(n - 1);
    }
    let bone =
        |name: &str, parent: Option<usize>, start: [f64; 2], end: [f64; 2]| motion::MotionBone {
            name: name.into(),
            parent,
            start,
            end,
            joint: None,
            bend: motion::Bend::Normal,
        };
    let bones = [
        bone("pelvis", None, [100.0, 200.0], [100.0, 160.0]),
        bone("torso", Some(0), [100.0, 160.0], [100.0, 80.0]),
        bone("thigh_near", Some(0), [100.0, 200.0], [105.0, 260.0]),
        bone("shin_near", Some(2), [105.0, 260.0], [100.0, 320.0]),
        bone("thigh_far", Some(0), [100.0, 200.0], [95.0, 260.0]),
        bone("shin_far", Some(4), [95.0, 260.0], [100.0, 320.0]),
        bone("arm_near", Some(1), [100.0, 90.0], [110.0, 150.0]),
    ];
    let opts = motion::MotionOptions {
        fps: 24.0,
        ..motion::MotionOptions::default()
    };
    if let Ok(w) = motion::retarget(&b, &bones, &opts) {
        assert_eq!(w.angles.len(), bones.len());
        assert_eq!(w.times.len(), w.root_dy.len());
        for a in &w.angles {
            assert_eq!(a.first(), a.last(), "the cycle closes exactly");
        }
    }
}

// ---- rig_skeleton ----------------------------------------------------------

/// A rig skeleton declaration (rig.md §1) → parse and validate; when it fits
/// a 64×64 drawing (a red disc on a green key), build the bone tree, the
/// motion bones, the silhouette, the slicing and the pivot map.
pub fn rig_skeleton(data: &[u8]) {
    use re2d_rig::cut::{slice, verify};
    use re2d_rig::declare::{silhouette, skeleton::Skeleton, tree};
    let Ok(sk) = Skeleton::parse(data, &FUZZ_LIMITS) else {
        return;
    };
    let _ = re2d_rig::motion::bones_of(&sk);
    let _ = sk.parents_first();
    let _ = sk.far_to_near();
    let t = tree::build(&sk);
    const N: u32 = 64;
    if sk.check_image(N, N, &FUZZ_LIMITS).is_err() {
        return;
    }
    let mut px = Vec::with_capacity((N * N * 4) as usize);
    for i in 0..N * N {
        let (x, y) = ((i % N) as f64 - 32.0, (i / N) as f64 - 32.0);
        px.extend_from_slice(if x * x + y * y < 400.0 {
            &[200, 40, 40, 255]
        } else {
            &[0, 255, 0, 255]
        });
    }
    let img = re2d::png_io::RgbaImage {
        data: px,
        width: N,
        height: N,
    };
    let Ok(sil) = silhouette::silhouette(&img, sk.background) else {
        return;
    };
    if let Ok(sl) = slice::slice(&sk, &sil) {
        let _ = verify::PivotMap::new(&sk, &t, &sl).to_json();
    }
}

// ---- rig_ora / rig_psd -------------------------------------------------------

/// A layered drawing's bytes → read (canvas at most the fuzz limits' PNG side), flatten,
/// the layer on top per pixel; every layer lies on the canvas.
fn layered(data: &[u8]) {
    use re2d_rig::declare::layers;
    let canvas = |w: u32, h: u32| {
        FUZZ_LIMITS
            .check_image(w, h, 4)
            .map_err(|e| re2d_rig::RigError::new("E_RIG_LIMIT", e.to_string()))
    };
    let Ok(l) = layers::read(data, "fuzz", &FUZZ_LIMITS, &canvas) else {
        return;
    };
    for x in &l.layers {
        assert!(x.x + x.w <= l.width as usize && x.y + x.h <= l.height as usize);
        assert_eq!(x.rgba.len(), x.w * x.h * 4);
    }
    let flat = l.flatten();
    assert_eq!(flat.len(), (l.width * l.height * 4) as usize);
    let top = l.top_layer();
    for (i, &t) in top.iter().enumerate() {
        assert!(t as usize <= l.layers.len());
        assert!(
            t == 0
                || flat[i * 4 + 3] > 0
                || l.layers[t as usize - 1].alpha_at(i, l.width as usize) > 0
        );
    }
}

/// OpenRaster bytes (rig.md, issue 40) → [`layered`].
pub fn rig_ora(data: &[u8]) {
    if data.starts_with(b"PK\x03\x04") {
        layered(data);
    }
}

/// Photoshop bytes (rig.md, issue 40) → [`layered`].
pub fn rig_psd(data: &[u8]) {
    if data.starts_with(b"8BPS") {
        layered(data);
    }
}
