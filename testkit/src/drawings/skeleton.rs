//! The skeleton declaration of a generated drawing, as rig.md §1 defines it: one bone per
//! part in declaration order (the label of a bone is 1 + its index here), its polyline and
//! per-point radius (the exact tube the part was painted in, or for a layered character the
//! tube a user would draw, with `"part": false` where declared), parent, depth, `"bend":
//! "reversed"` where declared, `facing` and the `mocap` joint map. One bone per line, so a diff of two drawings reads well.

use super::part::Part;

fn num(v: f64) -> String {
    // `+ 0.0` turns -0 into 0; values are already rounded to 0.1.
    format!("{}", v + 0.0)
}

fn text(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

/// The declaration JSON of `parts` painted into `image` over `background`
/// (`"#rrggbb"` or `"alpha"`).
/// A quadruped (`declared_order`) keeps its declared draw order: its legs are driven by a
/// human capture's limbs, whose depths are a human's (issue 42).
pub fn declaration(
    image: &str,
    background: &str,
    parts: &[Part],
    facing: &str,
    declared_order: bool,
) -> String {
    let mut out = String::new();
    out.push_str("{\n  \"version\": 1,\n");
    out.push_str(&format!("  \"image\": {},\n", text(image)));
    out.push_str(&format!("  \"background\": {},\n", text(background)));
    out.push_str("  \"bones\": [\n");
    for (i, p) in parts.iter().enumerate() {
        let tube = p.decl.as_ref().unwrap_or(&p.tube);
        let pts: Vec<String> = tube
            .points
            .iter()
            .map(|q| format!("[{}, {}]", num(q[0]), num(q[1])))
            .collect();
        let radii: Vec<String> = tube.radii.iter().map(|&r| num(r)).collect();
        let parent = match p.parent {
            Some(j) => format!(", \"parent\": {}", text(parts[j].name)),
            None => String::new(),
        };
        out.push_str(&format!(
            "    {{\"name\": {}{parent}, \"points\": [{}], \"radius\": [{}], \"depth\": {}{}{}}}{}\n",
            text(p.name),
            pts.join(", "),
            radii.join(", "),
            p.depth,
            if p.no_part { ", \"part\": false" } else { "" },
            if p.reversed { ", \"bend\": \"reversed\"" } else { "" },
            if i + 1 < parts.len() { "," } else { "" }
        ));
    }
    out.push_str("  ],\n");
    out.push_str(&format!("  \"facing\": {}", text(facing)));
    if declared_order {
        out.push_str(",\n  \"draw_order\": \"declared\"");
    }
    let mapped: Vec<String> = parts
        .iter()
        .filter_map(|p| p.joint.map(|j| format!("{}: {}", text(p.name), text(j))))
        .collect();
    if !mapped.is_empty() {
        out.push_str(&format!(",\n  \"mocap\": {{{}}}", mapped.join(", ")));
    }
    out.push_str("\n}\n");
    out
}
