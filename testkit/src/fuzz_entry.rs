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
//! | `edit_request` | raw HTTP requests → `rig edit`'s head parser, checks and routes (session, silhouette, preview, save to memory) on a 64×64 drawing |
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
    ("edit_request", edit_request),
    ("jpeg", jpeg),
    ("rig_yaml", rig_yaml),
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

// ---- edit_request ----------------------------------------------------------

/// The token and port of the fuzzed editor (the corpus's requests carry them).
pub const EDIT_TOKEN: &str = "t0k";
/// See [`EDIT_TOKEN`].
pub const EDIT_PORT: u16 = 8080;

/// The editor of the fuzz target: a 64×64 drawing (a red disc on a green key) with a
/// two-bone declaration, previews on the caller's thread, saves kept in memory.
fn edit_app() -> &'static (re2d_edit::api::App, re2d_edit::guard::Guard) {
    use std::sync::OnceLock;
    static APP: OnceLock<(re2d_edit::api::App, re2d_edit::guard::Guard)> = OnceLock::new();
    APP.get_or_init(|| {
        const N: u32 = 64;
        let mut px = Vec::with_capacity((N * N * 4) as usize);
        for i in 0..N * N {
            let (x, y) = ((i % N) as f64 - 32.0, (i / N) as f64 - 32.0);
            px.extend_from_slice(if x * x / 144.0 + y * y / 900.0 < 1.0 {
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
        let doc = serde_json::json!({
            "version": 1, "image": "disc.png", "background": "#00ff00",
            "bones": [
                {"name": "body", "points": [[32, 40], [32, 10]], "radius": 10, "depth": 2},
                {"name": "arm", "parent": "body", "points": [[32, 30], [40, 50]], "radius": [5, 4], "depth": 1}
            ]
        });
        let session = re2d_edit::session::Session::from_parts(
            doc,
            img,
            std::path::PathBuf::from("fuzz/disc.skeleton.json"),
            &FUZZ_LIMITS,
        )
        .expect("the fuzz target's drawing opens");
        let app = re2d_edit::api::App::new(
            session,
            FUZZ_LIMITS,
            Vec::new(),
            re2d_edit::api::convention_joints(),
            re2d_rig::cut::slice::Rule::Paint,
            re2d_edit::api::Store::Memory(Default::default()),
            true,
        );
        let guard = re2d_edit::guard::Guard {
            token: EDIT_TOKEN.into(),
            port: EDIT_PORT,
            max_body: 1 << 16,
        };
        (app, guard)
    })
}

/// Raw bytes of one or more pipelined HTTP requests → the editor's head parser
/// (`re2d_edit::http::parse_head`), its checks (`guard`) and its routes (`api`, the whole build
/// and the event stream aside), as the server runs them. A refused head is answered with a 4xx
/// (or 501); a route answers one of its documented statuses; a save is stored only when it is
/// answered 200, and what it stores is a declaration the rig accepts for the drawing.
pub fn edit_request(data: &[u8]) {
    use re2d_edit::api::Store;
    use re2d_edit::guard::Route;
    use re2d_edit::http::{Parsed, parse_head};
    let (app, guard) = edit_app();
    let stored = || match &app.store {
        Store::Memory(m) => m.lock().unwrap_or_else(|e| e.into_inner()).clone(),
        Store::File => None,
    };
    let mut buf = data;
    for _ in 0..4 {
        let head = match parse_head(buf) {
            Ok(Parsed::Head(h, n)) => {
                buf = &buf[n..];
                h
            }
            Ok(Parsed::Partial) => return,
            Err(status) => {
                assert!(status == 400 || status == 431, "head refused with {status}");
                return;
            }
        };
        let (route, len) = match guard.check(&head) {
            Ok(r) => r,
            Err(r) => {
                assert!(
                    (400..=431).contains(&r.status) || r.status == 501,
                    "refused with {}",
                    r.status
                );
                return;
            }
        };
        assert!(len as u64 <= guard.max_body);
        if len > buf.len() {
            return;
        }
        let (body, rest) = buf.split_at(len);
        buf = rest;
        if matches!(route, Route::Build | Route::Events) {
            continue;
        }
        let before = stored();
        let r = app.handle(route, &head, body);
        assert!(
            matches!(r.status, 200 | 400 | 403 | 404 | 409 | 422),
            "{route:?} answered {}",
            r.status
        );
        let after = stored();
        if route == Route::Save && r.status == 200 {
            let text = after.expect("a save answered 200 stored the declaration");
            let sk = re2d_rig::declare::skeleton::Skeleton::parse(&text, &FUZZ_LIMITS)
                .expect("a saved declaration parses");
            sk.check_image(64, 64, &FUZZ_LIMITS)
                .expect("and fits the drawing");
        } else {
            assert!(
                before == after,
                "{route:?} answered {} and changed the store",
                r.status
            );
        }
    }
}

// ---- jpeg -------------------------------------------------------------------

/// A drawing file (JPEG, or PNG by its signature) → the header, the size
/// checks and the decode with the EXIF orientation applied
/// (`re2d_rig::declare::image`): never a panic, and a decoded image has the
/// size its header promised, as shown.
pub fn jpeg(data: &[u8]) {
    use re2d_rig::declare::image;
    let Ok(head) = image::header(data, "fuzz") else {
        return;
    };
    if let Ok(img) = image::decode(data, "fuzz", &FUZZ_LIMITS) {
        assert_eq!((img.width, img.height), (head.width, head.height));
        assert_eq!(img.data.len(), img.width as usize * img.height as usize * 4);
    }
    let _ = image::orientation(data);
}

// ---- rig_yaml ---------------------------------------------------------------

/// An AnimatedDrawings `char_cfg.yaml` → the joints, and when they parse,
/// the declaration over a 64×64 mask and its validation: never a panic.
pub fn rig_yaml(data: &[u8]) {
    use re2d_rig::guess::animated;
    let Ok(joints) = animated::joints(data, &FUZZ_LIMITS) else {
        return;
    };
    let mask: Vec<bool> = (0..64 * 64)
        .map(|i| {
            let (x, y) = ((i % 64) as f64 - 32.0, (i / 64) as f64 - 32.0);
            x * x + y * y < 400.0
        })
        .collect();
    if let Ok(decl) = animated::declaration(&joints, &mask, 64, 64, "texture.png") {
        let text = serde_json::to_vec(&decl).unwrap_or_default();
        if let Ok(sk) = re2d_rig::declare::skeleton::Skeleton::parse(&text, &FUZZ_LIMITS) {
            let _ = sk.check_image(64, 64, &FUZZ_LIMITS);
        }
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

/// OpenRaster bytes (rig.md, issue 40): read, flattened, the top layer per pixel.
pub fn rig_ora(data: &[u8]) {
    if data.starts_with(b"PK\x03\x04") {
        layered(data);
    }
}

/// Photoshop bytes (rig.md, issue 40): read, flattened, the top layer per pixel.
pub fn rig_psd(data: &[u8]) {
    if data.starts_with(b"8BPS") {
        layered(data);
    }
}
