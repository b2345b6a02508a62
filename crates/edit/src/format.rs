//! How a declaration is written: the shape people write by hand (docs/rig.md), so a saved file
//! diffs well — each top-level field on its own line, each bone on one line, every other value
//! compact. Field order and unknown fields are kept as they are in the document (the workspace's
//! `serde_json` keeps insertion order).

use serde_json::Value;

/// The declaration `doc` as text, ending with a newline.
pub fn declaration(doc: &Value) -> Vec<u8> {
    let compact = |v: &Value| serde_json::to_string(v).unwrap_or_default();
    let Value::Object(root) = doc else {
        let mut s = compact(doc);
        s.push('\n');
        return s.into_bytes();
    };
    let mut out = String::from("{\n");
    let n = root.len();
    for (i, (k, v)) in root.iter().enumerate() {
        out.push_str("  ");
        out.push_str(&compact(&Value::String(k.clone())));
        out.push_str(": ");
        match v {
            Value::Array(items) if k == "bones" && !items.is_empty() => {
                out.push_str("[\n");
                for (j, b) in items.iter().enumerate() {
                    out.push_str("    ");
                    out.push_str(&spaced(b));
                    if j + 1 < items.len() {
                        out.push(',');
                    }
                    out.push('\n');
                }
                out.push_str("  ]");
            }
            _ => out.push_str(&spaced(v)),
        }
        if i + 1 < n {
            out.push(',');
        }
        out.push('\n');
    }
    out.push_str("}\n");
    out.into_bytes()
}

/// `v` on one line, with a space after each `:` and `,` between an object's fields and
/// between arrays (`[[1, 2], [3, 4]]`), as docs/rig.md writes them.
fn spaced(v: &Value) -> String {
    match v {
        Value::Object(m) => {
            let fields: Vec<String> = m
                .iter()
                .map(|(k, x)| {
                    format!(
                        "{}: {}",
                        serde_json::to_string(&Value::String(k.clone())).unwrap_or_default(),
                        spaced(x)
                    )
                })
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
        Value::Array(a) => {
            let items: Vec<String> = a.iter().map(spaced).collect();
            format!("[{}]", items.join(", "))
        }
        _ => serde_json::to_string(v).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_bone_per_line_and_the_same_document() {
        let text = r#"{"version": 1, "image": "a.png", "zz": {"keep": [1, 2]},
            "bones": [{"name": "a", "points": [[1, 2], [3.5, 4]], "radius": 2, "x-note": "hi"},
                      {"name": "b", "parent": "a", "points": [[3.5, 4], [9, 9]], "radius": [1, 2]}],
            "mocap": {"a": "Hips"}}"#;
        let doc: Value = serde_json::from_str(text).unwrap();
        let out = declaration(&doc);
        let s = String::from_utf8(out.clone()).unwrap();
        assert_eq!(
            s,
            "{\n  \"version\": 1,\n  \"image\": \"a.png\",\n  \"zz\": {\"keep\": [1, 2]},\n  \"bones\": [\n    {\"name\": \"a\", \"points\": [[1, 2], [3.5, 4]], \"radius\": 2, \"x-note\": \"hi\"},\n    {\"name\": \"b\", \"parent\": \"a\", \"points\": [[3.5, 4], [9, 9]], \"radius\": [1, 2]}\n  ],\n  \"mocap\": {\"a\": \"Hips\"}\n}\n"
        );
        let back: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(back, doc);
    }
}
