// re2d — `buildRotModelPose`, sockets, joints and the C model pose (spec: js-rotsprite.md §3.6, §4, §10.2).
//
//! Bones are posed parent-first from clip samples, manual overrides and rig
//! controls; every part gets a 17-number record `[id, selector, variant,
//! oneSided, visible, matrix…]`. [`ModelPose::to_c`] validates the records
//! as the engine native `rotSpriteModelPose` does and fills the renderer's
//! [`R2DRotModelPose`].

use indexmap::IndexMap;
use serde_json::Value;

use super::definition::Definition;
use super::js::truthy;
use super::matrix::{IDENTITY, Mat, affine, multiply, transform};
use super::{ModelError, animation::Sample};
use crate::math::PI;
use crate::rotsprite::{CBool, R2DRotModelPose};

/// The rig inputs of a pose: body or portrait mode and control angles
/// (`rig[key] || 0` already applied).
#[derive(Clone, Debug, PartialEq)]
pub struct RigInput {
    /// Body mode (`rig.body !== false`).
    pub body: bool,
    /// Control key → angle in degrees.
    pub controls: IndexMap<String, f64>,
}

impl Default for RigInput {
    fn default() -> Self {
        RigInput {
            body: true,
            controls: IndexMap::new(),
        }
    }
}

/// One part record.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Part id.
    pub id: u8,
    /// 0 none, 1 eyes, 2 mouth, 3 brows, −1 an unknown truthy selector.
    pub selector: i32,
    /// `p.variant ?? 0`, passed through unvalidated.
    pub variant: Value,
    /// Back-face culled.
    pub one_sided: bool,
    /// Drawn.
    pub visible: bool,
    /// Part matrix.
    pub matrix: Mat,
}

/// The result of [`build_model_pose`].
#[derive(Clone, Debug, PartialEq)]
pub struct ModelPose {
    /// One record per part, in definition order.
    pub records: Vec<Record>,
    /// Bone matrices by name, in definition order.
    pub bones: IndexMap<String, Mat>,
    /// `projection.bodyScale` or `portraitScale`.
    pub scale: f64,
}

fn selector_index(v: &Value) -> i32 {
    if !truthy(Some(v)) {
        return 0;
    }
    match v.as_str() {
        Some("eyes") => 1,
        Some("mouth") => 2,
        Some("brows") => 3,
        _ => -1,
    }
}

/// `buildRotModelPose(definition, sample, rig, manual, visibleParts)` (§3.6).
pub fn build_model_pose(
    def: &Definition,
    sample: &Sample,
    rig: &RigInput,
    manual: &IndexMap<String, IndexMap<String, f64>>,
    visible_parts: Option<&[u8]>,
) -> ModelPose {
    let body = rig.body;
    let mut bones: IndexMap<String, Mat> = IndexMap::new();
    for b in &def.bones {
        let mut values: IndexMap<&str, f64> = IndexMap::new();
        for src in [sample.bones.get(&b.name), manual.get(&b.name)]
            .into_iter()
            .flatten()
        {
            for (k, v) in src {
                values.insert(k.as_str(), *v);
            }
        }
        let ch = |k: &str| values.get(k).copied().unwrap_or(0.0);
        let mut rotation = [ch("rotation.x"), ch("rotation.y"), ch("rotation.z")];
        let translation = [
            ch("translation.x"),
            ch("translation.y"),
            ch("translation.z"),
        ];
        for c in def.controls.iter().filter(|c| c.bone == b.name) {
            rotation[c.axis] += rig.controls.get(&c.key).copied().unwrap_or(0.0);
        }
        let pivot = if body { b.pivot } else { b.portrait_pivot };
        let local = affine(pivot, translation, rotation, [1.0; 3]);
        let parent = b
            .parent
            .as_ref()
            .and_then(|p| bones.get(p))
            .unwrap_or(&IDENTITY);
        let m = multiply(parent, &local);
        bones.insert(b.name.clone(), m);
    }
    let records = def
        .parts
        .iter()
        .map(|p| {
            let bind = if body { p.bind } else { p.portrait_bind };
            let m = multiply(
                &bones[&p.bone],
                &affine([0.0; 3], bind.translation, bind.rotation, bind.scale),
            );
            let visible = (body || p.portrait) && visible_parts.is_none_or(|v| v.contains(&p.id));
            Record {
                id: p.id,
                selector: selector_index(&p.selector),
                variant: if p.variant.is_null() {
                    Value::from(0)
                } else {
                    p.variant.clone()
                },
                one_sided: p.one_sided,
                visible,
                matrix: m,
            }
        })
        .collect();
    ModelPose {
        records,
        bones,
        scale: if body {
            def.body_scale
        } else {
            def.portrait_scale
        },
    }
}

/// `socketMatrix`: the socket's frame in model space for a pose.
pub fn socket_matrix(def: &Definition, pose: &ModelPose, key: &str) -> Result<Mat, ModelError> {
    let s = def
        .sockets
        .iter()
        .find(|s| s.name == key)
        .ok_or_else(|| ModelError::type_(format!("unknown socket '{key}'")))?;
    Ok(multiply(
        &pose.bones[&s.bone],
        &affine([0.0; 3], s.point, s.rotation, [1.0; 3]),
    ))
}

/// `modelJoints`: joint positions in the canonical 128×128 field for a view.
pub fn model_joints(
    def: &Definition,
    pose: &ModelPose,
    yaw: f64,
    pitch: f64,
) -> IndexMap<String, (f64, f64)> {
    let (a, b) = (yaw * PI / 180.0, pitch * PI / 180.0);
    let s = pose.scale;
    def.joints
        .iter()
        .map(|j| {
            let [x, y, z] = transform(&pose.bones[&j.bone], j.point);
            let zz = -a.sin() * x + a.cos() * z;
            let jx = 64.0 + (a.cos() * x + a.sin() * z) * s;
            let jy = 64.0 + (b.cos() * y - b.sin() * zz) * s;
            (j.name.clone(), (jx, jy))
        })
        .collect()
}

impl Record {
    /// The 17 numbers of the record (`variant` as a number when it is one).
    pub fn to_row(&self) -> [f64; 17] {
        let mut r = [0.0; 17];
        r[0] = self.id as f64;
        r[1] = self.selector as f64;
        r[2] = self.variant.as_f64().unwrap_or(f64::NAN);
        r[3] = self.one_sided as u8 as f64;
        r[4] = self.visible as u8 as f64;
        r[5..].copy_from_slice(&self.matrix);
        r
    }
}

impl ModelPose {
    /// Validates the records as `engine.rotSpriteModelPose` does and builds
    /// the renderer's model pose (every listed part defined).
    pub fn to_c(&self) -> Result<R2DRotModelPose, ModelError> {
        rows_to_c(
            self.scale,
            &self.records.iter().map(Record::to_row).collect::<Vec<_>>(),
        )
    }
}

/// `rotSpriteModelPose(h, scale, rows)` validation (§10.2) → a C model pose.
pub fn rows_to_c(scale: f64, rows: &[[f64; 17]]) -> Result<R2DRotModelPose, ModelError> {
    if !(scale.is_finite() && scale > 0.0 && scale <= 8.0) {
        return Err(ModelError::range("scale must be in (0, 8]"));
    }
    if rows.is_empty() || rows.len() > 254 {
        return Err(ModelError::range("1..254 rows expected"));
    }
    let mut pose = R2DRotModelPose {
        scale,
        ..Default::default()
    };
    for (i, row) in rows.iter().enumerate() {
        if row.iter().any(|v| !v.is_finite() || v.abs() > 1e6) {
            return Err(ModelError::range(format!(
                "row {i}: values must be finite with |v| <= 1e6"
            )));
        }
        let int_in = |v: f64, lo: f64, hi: f64| v.fract() == 0.0 && v >= lo && v <= hi;
        if !(int_in(row[0], 1.0, 254.0)
            && int_in(row[1], 0.0, 3.0)
            && int_in(row[2], 0.0, 3.0)
            && int_in(row[3], 0.0, 1.0)
            && int_in(row[4], 0.0, 1.0))
        {
            return Err(ModelError::range(format!(
                "row {i}: id/selector/variant/flags out of range"
            )));
        }
        let p = &mut pose.parts[row[0] as usize];
        if p.defined.get() {
            return Err(ModelError::range(format!(
                "row {i}: duplicate id {}",
                row[0]
            )));
        }
        p.defined = CBool::new(true);
        p.selector = row[1] as u8;
        p.variant = row[2] as u8;
        p.one_sided = CBool::new(row[3] != 0.0);
        p.visible = CBool::new(row[4] != 0.0);
        p.matrix.copy_from_slice(&row[5..]);
    }
    Ok(pose)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ErrorClass, validate_definition};
    use serde_json::json;

    fn def() -> Definition {
        validate_definition(json!({
            "version": 1, "atlas": "a.png",
            "rig": {
                "bones": [
                    {"name": "root", "pivot": [0, 0, 0]},
                    {"name": "arm", "parent": "root", "pivot": [4, 0, 0], "portraitPivot": [0, 0, 0]},
                    {"name": "hand", "parent": "arm", "pivot": [8, 0, 0]}
                ],
                "parts": [
                    {"id": 6, "bone": "root"},
                    {"id": 7, "bone": "arm", "portrait": true},
                    {"id": 20, "bone": "hand", "selector": "mouth", "variant": 2, "oneSided": true,
                     "bind": {"translation": [1, 0, 0]}}
                ],
                "joints": [{"name": "wrist", "bone": "hand", "point": [8, 0, 0]}],
                "controls": {"lift": {"bone": "arm", "axis": "z"}},
                "sockets": [{"name": "grip", "bone": "hand", "point": [10, 0, 0]}]
            },
            "projection": {"bodyScale": 1.5}
        }))
        .unwrap()
    }

    #[test]
    fn ancestor_rotation_reaches_descendants() {
        let d = def();
        let mut sample = Sample::default();
        sample
            .bones
            .entry("root".into())
            .or_default()
            .insert("rotation.z".into(), 30.0);
        let pose = build_model_pose(&d, &sample, &RigInput::default(), &IndexMap::new(), None);
        let th = 30.0 * PI / 180.0;
        for r in &pose.records {
            assert_eq!(
                [r.matrix[0], r.matrix[1], r.matrix[4], r.matrix[5]],
                [th.cos(), -th.sin(), th.sin(), th.cos()]
            );
        }
        assert_eq!(pose.scale, 1.5);
        let rec = &pose.records[2];
        assert_eq!(
            (
                rec.id,
                rec.selector,
                rec.variant.clone(),
                rec.one_sided,
                rec.visible
            ),
            (20, 2, json!(2), true, true)
        );
        // The wrist joint (8, 0) rotates about the root pivot.
        let j = model_joints(&d, &pose, 0.0, 0.0)["wrist"];
        assert!((j.0 - (64.0 + 8.0 * th.cos() * 1.5)).abs() < 1e-12);
        assert!((j.1 - (64.0 + 8.0 * th.sin() * 1.5)).abs() < 1e-12);
    }

    #[test]
    fn controls_add_and_manual_overrides_win() {
        let d = def();
        let mut sample = Sample::default();
        sample
            .bones
            .entry("arm".into())
            .or_default()
            .insert("rotation.z".into(), 10.0);
        let mut manual = IndexMap::new();
        manual.insert(
            "arm".to_string(),
            IndexMap::from([("rotation.z".to_string(), 40.0)]),
        );
        let rig = RigInput {
            body: true,
            controls: IndexMap::from([("lift".to_string(), 5.0)]),
        };
        let pose = build_model_pose(&d, &sample, &rig, &manual, None);
        let expect = affine([4.0, 0.0, 0.0], [0.0; 3], [0.0, 0.0, 45.0], [1.0; 3]);
        assert_eq!(pose.bones["arm"], multiply(&IDENTITY, &expect));
    }

    #[test]
    fn portrait_mode_and_visible_parts() {
        let d = def();
        let rig = RigInput {
            body: false,
            ..Default::default()
        };
        let pose = build_model_pose(&d, &Sample::default(), &rig, &IndexMap::new(), None);
        let vis: Vec<bool> = pose.records.iter().map(|r| r.visible).collect();
        assert_eq!(vis, [false, true, false]);
        assert_eq!(pose.scale, 2.0);
        let pose = build_model_pose(
            &d,
            &Sample::default(),
            &RigInput::default(),
            &IndexMap::new(),
            Some(&[6]),
        );
        let vis: Vec<bool> = pose.records.iter().map(|r| r.visible).collect();
        assert_eq!(vis, [true, false, false]);
        assert_eq!(pose.bones.len(), 3);
    }

    #[test]
    fn sockets_and_c_pose() {
        let d = def();
        let pose = build_model_pose(
            &d,
            &Sample::default(),
            &RigInput::default(),
            &IndexMap::new(),
            None,
        );
        let s = socket_matrix(&d, &pose, "grip").unwrap();
        assert_eq!(transform(&s, [0.0; 3]), [10.0, 0.0, 0.0]);
        assert_eq!(
            socket_matrix(&d, &pose, "nope").unwrap_err().class,
            ErrorClass::Type
        );
        let c = pose.to_c().unwrap();
        assert!(c.parts[20].defined.get() && c.parts[20].one_sided.get());
        assert_eq!((c.parts[20].selector, c.parts[20].variant), (2, 2));
        assert_eq!(c.parts[20].matrix[3], 1.0);
        assert!(!c.parts[5].defined.get());
        let mut bad = pose.clone();
        bad.records[0].selector = -1;
        assert_eq!(bad.to_c().unwrap_err().class, ErrorClass::Range);
        let mut dup = pose.clone();
        dup.records[1].id = 6;
        assert_eq!(dup.to_c().unwrap_err().class, ErrorClass::Range);
    }
}
