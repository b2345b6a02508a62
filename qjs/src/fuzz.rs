//! Fuzz driver of the QuickJS host (target `js`; the other targets are in `re2d_testkit::fuzz_entry`): the fuzzer's bytes
//! are a program of calls into `$.mesh`, `$.re2dSprite`, the rotsprite
//! validators and the engine natives, interpreted by a small JS loop (no
//! source text is generated, so one input costs one call).
//!
//! One runtime per thread (memory limit 64 MiB, stack 256 KiB) with the
//! built-in modules and a fresh default engine per input; each input gets a
//! fresh table of hostile values (NaN, ±∞, −0, huge lengths, lone
//! surrogates, proxies with throwing traps, getters, detached and resized
//! buffers, deep arrays, fixture file paths). Every op runs inside
//! `try/catch`: a thrown error is the expected outcome; what must never
//! happen is a panic, an abort or a hang in the host. Fixture files (tiny
//! PNGs, a huge-header PNG, a model JSON, a FIFO-free directory) live in a
//! per-process temp dir.

use std::cell::RefCell;
use std::path::PathBuf;

use rquickjs::{CatchResultExt, Context, Function, Module, Persistent, Runtime, TypedArray};

use super::modules::{HostLoader, HostResolver};

const PRELUDE: &str = r#"
import { createApi } from 're2d/api';
import { nodes, destroyNode } from 're2d/core';
import * as R from 're2d/rotsprite';
const DIR = globalThis.__fuzzDir;
const $ = createApi();
function deepArray(n) { let d = []; for (let i = 0; i < n; i++) d = [d]; return d; }
const def = () => ({ version: 1, atlas: 'tiny.png', rig: { bones: [{ name: 'root' }, { name: '\ud800', parent: 'root' }],
    parts: [{ id: 1, bone: 'root' }, { id: 6, bone: '\ud800', selector: 'eyes', variant: 2 }] },
    projection: [], defaults: { motion: 'walk' }, animations: 'anim.json', extra: deepArray(40) });
const anims = () => ({ version: 1, clips: { walk: { duration: 1, loop: true, tracks: [
    { target: 'root', channel: 'rotation.z', keys: [[0, 0], [0.5, 30], [1, 0]] },
    { target: 'face', channel: 'eyes', keys: [[0, 'open'], [0.5, 'closed']] }] } } });
// Value makers: each input gets fresh values, made only when picked.
const MAKE = [
    () => undefined, () => null, () => 0, () => -0, () => 1, () => -1, () => 2, () => 3, () => 7, () => 17,
    () => 255, () => 256, () => 1e6, () => 1e308, () => -1e308, () => NaN, () => Infinity, () => -Infinity,
    () => 2 ** 31, () => 2 ** 32 + 1, () => 0.5, () => -0.5, () => 1e-300, () => true, () => false,
    () => '', () => 'a', () => '\ud800', () => '\udfff\ud800', () => 'x'.repeat(100),
    () => 'root', () => 'eyes', () => 'walk', () => 'pixel', () => 'anime', () => 'rotation.x', () => '__proto__',
    () => DIR + '/tiny.png', () => DIR + '/huge.png', () => DIR + '/v1.png', () => DIR + '/model.json',
    () => DIR + '/bad.json', () => DIR + '/missing.png', () => DIR, () => DIR + '/text.txt', () => '/',
    () => '../../..', () => 'tiny.png',
    () => [], () => [1, 2, 3], () => [0, 0, 10, 0, 0, 10], () => [0, 1, 2], () => [[0, 0], [1, 1]],
    () => deepArray(40), () => new Array(5), () => [NaN, NaN, NaN],
    () => ({}), () => ({ x: 1, y: 2 }), () => ({ length: 2 ** 32 - 1 }), () => ({ __proto__: null }),
    () => new Proxy({}, { get() { throw new RangeError('trap'); }, ownKeys() { throw new TypeError('keys'); } }),
    () => ({ get length() { throw new Error('len'); }, get verts() { return [1, 2]; } }),
    () => new Float32Array(8), () => new Float32Array(64), () => new Float64Array(16), () => new Uint8Array(4),
    () => new Int32Array(3),
    () => { const ab = new ArrayBuffer(64, { maxByteLength: 4096 }); const v = new Float32Array(ab, 8, 4); ab.resize(4); return v; },
    () => { const ab = new ArrayBuffer(32); const v = new Float32Array(ab); ab.transfer(); return v; },
    () => new ArrayBuffer(64, { maxByteLength: 4096 }),
    def, anims,
    () => ({ verts: [0, 0, 10, 0, 0, 10], tris: [0, 1, 2], colors: [[255, 0, 0]], uv: [0, 0, 1, 0, 0, 1] }),
    () => ({ shoulder: { x: 1, y: 2, length: 10, angle: 0 }, elbow: { parent: 'shoulder', length: 5 } }),
    () => ({ chain: ['shoulder', 'elbow'], limits: { elbow: [-1, 0] }, bend: -1 }),
    () => () => 1, () => Symbol('s'), () => 10n, () => new Date(0), () => new Map([[1, 2]]),
];
const ops = [
    (a) => $.mesh.skeleton(a),
    (a) => $.mesh.part(a),
    (a, b, c, d) => $.mesh.ik(a, b, c, d),
    (a, b, c) => $.mesh.draw(a, b, c),
    (a, b) => $.mesh.posed(a, b),
    (a) => R.validateRotDefinition(a),
    (a, b) => R.validateRotAnimations(a, R.validateRotDefinition(b)),
    (a, b) => R.relativeAsset(a, b),
    (a, b) => R.normalizeRotPose(a, b),
    (a, b) => R.rotPixelRect(a, b),
    (a, b) => $.re2dSprite.from(a, b),
    (a) => engine.rotSpriteLoad(a),
    (a, b, c, d, e, f) => engine.rotSpritePose(a, b, c, d, e, f),
    (a, b, c) => engine.rotSpritePrepare(a, b, c),
    (a, b, c, d, e, f, g) => engine.rotSpriteRig(a, b, c, d, e, f, g),
    (a, b) => engine.rotSpriteStyle(a, b),
    (a, b, c) => engine.rotSpritePart(a, b, c),
    (a, b, c, d) => engine.rotSpriteModelPose(a, b, c, d),
    (a) => engine.rotSpriteInfo(a),
    (a) => engine.rotSpriteFileStamp(a),
    (a) => engine.rotSpriteChanged(a),
    (a) => engine.rotSpriteDispose(a),
    (a) => engine.loadTexture(a),
    (a, b, c) => engine.submitMesh(a, b, c),
    (a, b, c, d) => engine.clear(a, b, c, d),
    (a, b) => engine.readPixel(a, b),
    (a) => engine.spritePixels(a),
    (a, b, c, d, e, f, g) => engine.drawSprite(a, b, c, d, e, f, g),
    (a, b) => { if (a instanceof ArrayBuffer && a.resizable) a.resize(Number(b) & 4095); },
    (a) => { if (a instanceof ArrayBuffer && !a.detached) a.transfer(); },
    (a, b, c) => { const n = $.re2dSprite.from(a, { id: 'n' }); n.rotPose(b, c); $.tick(1 / 60); $.render(); return n; },
    (a, b) => { const n = nodes.find((m) => m && typeof m.rotMotion === 'function'); if (n) { n.rotMotion(a); n.rotExpression(b); n.rotEmotion(a); } },
    (a, b) => { const n = nodes.find((m) => m && typeof m.rotBone === 'function'); if (n) { n.rotBone(a, b); n.rotLayer(a, b); n.rotStyle(a); } },
    (a) => JSON.stringify(R.validateRotDefinition(a)),
];
globalThis.__fuzzRun = function (bytes) {
    const made = [];
    const cache = new Map();
    const pick = (b) => {
        if (b >= MAKE.length && made.length) return made[b % made.length];
        const i = b % MAKE.length;
        if (!cache.has(i)) cache.set(i, MAKE[i]());
        return cache.get(i);
    };
    for (let i = 0; i + 7 < bytes.length; i += 8) {
        const op = ops[bytes[i] % ops.length];
        try {
            const args = [pick(bytes[i + 1]), pick(bytes[i + 2]), pick(bytes[i + 3]), pick(bytes[i + 4]),
                pick(bytes[i + 5]), pick(bytes[i + 6]), pick(bytes[i + 7])];
            const r = op(...args);
            if (r !== undefined) made.push(r);
        } catch (e) { void String(e); }
    }
    for (const n of [...nodes]) { try { destroyNode(n); } catch (e) {} }
};
"#;

/// Field order is drop order: the saved function and the context go before
/// the runtime (QuickJS asserts that a freed runtime holds no objects).
struct Host {
    run: Persistent<Function<'static>>,
    ctx: Context,
    rt: Runtime,
    runs: u64,
}

/// The fixture files the generated calls read. Their content is fixed, so every fuzz process
/// and test shares one folder (none is left behind per process); each file is written under a
/// private name and renamed into place, so no process reads a half-written file.
fn fixtures() -> PathBuf {
    let dir = std::env::temp_dir().join("re2d-fuzz-js");
    let _ = std::fs::create_dir_all(&dir);
    let put = |name: &str, bytes: &[u8]| {
        let tmp = dir.join(format!(".{name}.{}", std::process::id()));
        if std::fs::write(&tmp, bytes).is_ok() && std::fs::rename(&tmp, dir.join(name)).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    };
    let png = |w: u32, h: u32, f: &dyn Fn(u32, u32) -> [u8; 4]| {
        let px: Vec<u8> = (0..h)
            .flat_map(|y| (0..w).flat_map(move |x| f(x, y)))
            .collect();
        re2d_output::png_encode::encode_rgba(&px, w, h).unwrap_or_default()
    };
    put(
        "tiny.png",
        &png(4, 4, &|x, y| [x as u8 * 60, y as u8 * 60, 9, 255]),
    );
    put("v1.png", &png(64, 64, &|x, y| [x as u8, y as u8, 200, 255]));
    let mut huge = png(1, 1, &|_, _| [0; 4]);
    huge[16..24].copy_from_slice(&[0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0]); // 100000×100000 (bad CRC too)
    put("huge.png", &huge);
    put(
        "model.json",
        br#"{"version":1,"atlas":"v1.png","rig":{"bones":[{"name":"root"}],"parts":[{"id":1,"bone":"root"}]}}"#,
    );
    put("anim.json", br#"{"version":1,"clips":{}}"#);
    put("bad.json", b"{\"version\":1,\"atlas\":\"\\ud800\"");
    put("text.txt", b"hello");
    dir
}

fn new_host() -> Option<Host> {
    let dir = fixtures();
    let rt = Runtime::new().ok()?;
    rt.set_memory_limit(64 << 20);
    rt.set_max_stack_size(256 << 10);
    rt.set_loader(HostResolver { aliases: true }, HostLoader);
    let ctx = Context::full(&rt).ok()?;
    let run = ctx.with(|ctx| -> Option<Persistent<Function<'static>>> {
        ctx.globals()
            .set("__fuzzDir", dir.to_string_lossy().into_owned())
            .ok()?;
        ctx.globals()
            .set("engine", super::engine::create(&ctx, 32, 24).ok()?)
            .ok()?;
        let (_, p) = Module::declare(ctx.clone(), "fuzz-prelude", PRELUDE)
            .and_then(|m| m.eval())
            .catch(&ctx)
            .ok()?;
        p.finish::<()>().catch(&ctx).ok()?;
        let f: Function = ctx.globals().get("__fuzzRun").ok()?;
        Some(Persistent::save(&ctx, f))
    })?;
    while rt.execute_pending_job().unwrap_or(false) {}
    Some(Host {
        run,
        ctx,
        rt,
        runs: 0,
    })
}

thread_local! {
    static HOST: RefCell<Option<Host>> = const { RefCell::new(None) };
}

/// Creates this thread's runtime ahead of the first input (the fuzz
/// target's `init`), so start-up is not counted against an input's time.
pub fn init() {
    HOST.with(|h| {
        let mut h = h.borrow_mut();
        if h.is_none() {
            *h = new_host();
        }
    });
}

/// Calls per input: an input is a program of 8-byte calls and only its
/// first `MAX_CALLS` run, so that one input stays well under a millisecond
/// (a 4 KiB input of 512 calls ran at 50 exec/s under ASan; the sequences
/// that matter — make a value, mutate or detach it, call again with it —
/// are a few calls long). Campaigns pass `-max_len=128` to match.
pub const MAX_CALLS: usize = 16;

/// Runs one input (see the module docs).
pub fn run(data: &[u8]) {
    let data = &data[..data.len().min(8 * MAX_CALLS)];
    HOST.with(|h| {
        let mut h = h.borrow_mut();
        if h.is_none() {
            *h = new_host();
        }
        let Some(host) = h.as_mut() else { return };
        host.runs += 1;
        let run = host.run.clone();
        host.ctx.with(|ctx| {
            if let Ok(e) = super::engine::create(&ctx, 32, 24) {
                let _ = ctx.globals().set("engine", e);
            }
            let Ok(f) = run.restore(&ctx) else { return };
            let Ok(bytes) = TypedArray::<u8>::new(ctx.clone(), data.to_vec()) else {
                return;
            };
            let _ = f.call::<_, ()>((bytes,)).catch(&ctx);
        });
        while let Ok(true) = host.rt.execute_pending_job() {}
        if host.runs % 64 == 0 {
            host.rt.run_gc();
        }
    });
}
