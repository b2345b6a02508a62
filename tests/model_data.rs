// re2d tests — the engine's real character/animation files validate and pose (assets/).

use indexmap::IndexMap;
use re2d::model::*;
use serde_json::Value;

fn load(name: &str) -> Value {
    let path = format!("{}/assets/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).expect("assets/ present")).unwrap()
}

#[test]
fn shipped_models_validate_sample_and_pose() {
    for base in ["russi", "animal", "prop"] {
        let def = validate_definition(load(&format!("{base}.character.json"))).unwrap();
        let anims = match def.json.get("animations") {
            Some(Value::String(p)) => {
                let p = relative_asset(Some(&format!("{base}.character.json")), p).unwrap();
                validate_animations(load(&p), &def).unwrap()
            }
            _ => validate_animations(load(&format!("{base}.animations.json")), &def).unwrap(),
        };
        assert!(!anims.clips.is_empty(), "{base}");
        for (name, clip) in &anims.clips {
            for step in 0..8 {
                let t = clip.duration * step as f64 / 7.0;
                let s = sample_clip(clip, t).unwrap();
                let pose = build_model_pose(&def, &s, &RigInput::default(), &IndexMap::new(), None);
                assert_eq!(pose.records.len(), def.parts.len());
                pose.to_c().unwrap_or_else(|e| panic!("{base}/{name}: {e}"));
            }
        }
    }
}
