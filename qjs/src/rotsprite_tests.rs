//! Rust tests of the rotsprite JS layer: the JS transcriptions in `js/rotsprite.js` against `re2d::model`, and the native adapter's finalizer.

use std::path::PathBuf;

use indexmap::IndexMap;
use rquickjs::{CatchResultExt, Context, Module, Runtime};
use serde_json::{Value, json};

use super::modules::{HostLoader, HostResolver};
use re2d::model::{
    RigInput, Sample, build_model_pose, sample_clip, validate_animations, validate_definition,
};

/// Evaluate `src` as a module (with the built-ins and, optionally, the
/// default engine) and return `globalThis.__out` as numbers.
fn run_js(src: &str, engine: bool) -> Vec<f64> {
    let rt = Runtime::new().unwrap();
    rt.set_loader(HostResolver { aliases: true }, HostLoader);
    let ctx = Context::full(&rt).unwrap();
    let out = ctx.with(|ctx| {
        if engine {
            let e = super::engine::create(&ctx, 8, 8).unwrap();
            ctx.globals().set("engine", e).unwrap();
        }
        let m = Module::evaluate(ctx.clone(), "/test/rot.mjs", src)
            .catch(&ctx)
            .unwrap_or_else(|e| panic!("{e}"));
        m.finish::<()>()
            .catch(&ctx)
            .unwrap_or_else(|e| panic!("{e}"));
        ctx.globals().get::<_, Vec<f64>>("__out").unwrap()
    });
    rt.run_gc();
    out
}

fn definition() -> Value {
    json!({
        "version": 1, "atlas": "m.png", "style": "pixel",
        "rig": {
            "bones": [
                {"name": "hip", "pivot": [0, 20, 0], "portraitPivot": [0, 10, 0]},
                {"name": "chest", "parent": "hip", "pivot": [0, -4, 1]},
                {"name": "arm", "parent": "chest", "pivot": [-9.5, -10, 0]},
                {"name": "hand", "parent": "arm", "pivot": [-9.5, 18, 0.5]}
            ],
            "parts": [
                {"id": 6, "bone": "chest", "bind": {"rotation": [3, 4, 5], "scale": [1.1, 0.9, 1]}},
                {"id": 7, "bone": "arm", "oneSided": true, "portrait": true},
                {"id": 17, "bone": "hand", "selector": "eyes", "variant": 2,
                 "portraitBind": {"translation": [1, 2, 3]}},
                {"id": 200, "bone": "hip", "bind": {"translation": [0.25, -1, 2]}}
            ],
            "controls": {"lift": {"bone": "arm", "axis": "z"}, "twist": {"bone": "chest", "axis": "y"}}
        },
        "projection": {"bodyScale": 1.25, "portraitScale": 2.5}
    })
}

fn animations() -> Value {
    json!({"version": 1, "clips": {
        "walk": {"duration": 1.2, "loop": true, "tracks": [
            {"target": "arm", "channel": "rotation.z", "keys": [[0, -30], [0.6, 30], [1.2, -30]]},
            {"target": "hip", "channel": "translation.y", "keys": [[0.3, 0], [0.9, -2.5]]},
            {"target": "chest", "channel": "rotation.x", "interpolation": "step", "keys": [[0, 0], [0.5, 12.5]]},
            {"target": "face", "channel": "eyes", "keys": [[0, "open"], [1, "closed"]]}
        ]},
        "jump": {"duration": 0.8, "loop": false, "tracks": [
            {"target": "hand", "channel": "rotation.y", "keys": [[0.1, 10], [0.7, 170]]},
            {"target": "hip", "channel": "rotation.x", "keys": [[0, 0], [0.4, -15.5], [0.8, 0]]}
        ]}
    }})
}

const TIMES: [f64; 7] = [0.0, 0.05, 0.3, 0.61, 0.9, 1.7, 3.05];

#[test]
fn js_sample_and_pose_match_rust_model_bit_for_bit() {
    let src = format!(
        r#"import {{ validateRotDefinition, validateRotAnimations, sampleRotClip, buildRotModelPose }} from 're2d/rotsprite';
const d = validateRotDefinition({def});
const a = validateRotAnimations({anim}, d);
const rigs = [{{}}, {{ body: false }}, {{ body: true, lift: 12.5, twist: -33 }}];
const manual = {{ hand: {{ 'rotation.x': 20 }}, arm: {{ 'translation.z': 1.5 }} }};
const out = [];
for (const clip of Object.values(a.clips)) {{
  for (const t of {times:?}) {{
    const s = sampleRotClip(clip, t);
    out.push(s.time, s.ended ? 1 : 0);
    for (const ch of Object.values(s.bones)) for (const v of Object.values(ch)) out.push(v);
    for (const rig of rigs) for (const vis of [null, [7, 200]]) {{
      const p = buildRotModelPose(d, s, rig, manual, vis);
      out.push(p.scale);
      for (const r of p.records) out.push(...r);
      for (const m of Object.values(p.bones)) out.push(...m);
    }}
  }}
}}
globalThis.__out = out;"#,
        def = definition(),
        anim = animations(),
        times = TIMES
    );
    let js = run_js(&src, false);

    let d = validate_definition(definition()).unwrap();
    let a = validate_animations(animations(), &d).unwrap();
    let mut rigs = vec![
        RigInput::default(),
        RigInput {
            body: false,
            controls: IndexMap::new(),
        },
    ];
    let mut controls = IndexMap::new();
    controls.insert("lift".to_string(), 12.5);
    controls.insert("twist".to_string(), -33.0);
    rigs.push(RigInput {
        body: true,
        controls,
    });
    let mut manual: IndexMap<String, IndexMap<String, f64>> = IndexMap::new();
    manual
        .entry("hand".into())
        .or_default()
        .insert("rotation.x".into(), 20.0);
    manual
        .entry("arm".into())
        .or_default()
        .insert("translation.z".into(), 1.5);
    let mut rust = Vec::new();
    for clip in a.clips.values() {
        for t in TIMES {
            let s: Sample = sample_clip(clip, t).unwrap();
            rust.push(s.time);
            rust.push(if s.ended { 1.0 } else { 0.0 });
            for ch in s.bones.values() {
                rust.extend(ch.values().copied());
            }
            for rig in &rigs {
                for vis in [None, Some(&[7u8, 200][..])] {
                    let p = build_model_pose(&d, &s, rig, &manual, vis);
                    rust.push(p.scale);
                    for r in &p.records {
                        rust.extend(r.to_row());
                    }
                    for m in p.bones.values() {
                        rust.extend(m);
                    }
                }
            }
        }
    }
    assert_eq!(js.len(), rust.len());
    for (i, (a, b)) in js.iter().zip(&rust).enumerate() {
        assert!(
            a.to_bits() == b.to_bits() || (*a == 0.0 && *b == 0.0),
            "value {i}: JS {a} vs Rust {b}"
        );
    }
}

fn golden(name: &str) -> Option<PathBuf> {
    let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("tests/golden")
        .join(name);
    p.exists().then_some(p)
}

#[test]
fn handle_finalizer_and_dispose_free_the_host_sprite() {
    let Some(atlas) = golden("animal-1024.png") else {
        eprintln!("tests/golden/animal-1024.png not found");
        return;
    };
    let src = format!(
        r#"const path = {path:?};
let h = engine.rotSpriteLoad(path);
const first = engine.rotSpriteInfo(h).sprite;
h = null;
const firstFreed = engine.spritePixels(first) === null ? 1 : 0;
const g = engine.rotSpriteLoad(path);
const second = engine.rotSpriteInfo(g).sprite;
const alive = engine.spritePixels(second) !== null ? 1 : 0;
engine.rotSpriteDispose(g);
const freed = engine.spritePixels(second) === null ? 1 : 0;
globalThis.__out = [first, firstFreed, second, alive, freed];"#,
        path = atlas.to_string_lossy()
    );
    let out = run_js(&src, true);
    assert_eq!(
        out,
        vec![0.0, 1.0, 1.0, 1.0, 1.0],
        "finalizer (refcount) frees sprite 0"
    );
}

#[test]
fn validation_errors_keep_their_class_through_the_native_module() {
    let src = r#"import { validateRotDefinition, validateRotAnimations } from 're2d/rotsprite';
const cls = (f) => { try { f(); return 0; } catch (e) {
  return e instanceof TypeError ? 1 : e instanceof RangeError ? 2 : e instanceof SyntaxError ? 3 : 4; } };
const d = { version: 1, atlas: 'a.png', rig: { bones: [{ name: 'b' }], parts: [{ id: 1, bone: 'b' }] } };
globalThis.__out = [
  cls(() => validateRotDefinition({ ...d, version: 2 })),
  cls(() => validateRotDefinition({ ...d, projection: { bodyScale: 9 } })),
  cls(() => validateRotDefinition(undefined)),
  cls(() => validateRotAnimations({ version: 1, clips: { c: { duration: 1, loop: true,
      tracks: [{ target: 'b', channel: 'rotation.x', keys: [[2, 0]] }] } } }, validateRotDefinition(d))),
  cls(() => validateRotDefinition(d)),
];"#;
    assert_eq!(run_js(src, false), vec![1.0, 2.0, 3.0, 2.0, 0.0]);
}
