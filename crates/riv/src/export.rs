//! Mapping the §7 model to Rive objects (rive-export.md §5, §6, §8) and the
//! deliberately broken `--control` variants (§9).
//!
//! [`export`] validates the options, builds the object list in the stream
//! order of §5.1 / §8.8 and encodes it. Everything is deterministic: equal
//! model and options give equal bytes.

use super::error::{Code, RivError, err};
use super::keys::{prop, ty};
use super::model::{Frame, Model, World, white_png};
use super::write::{Header, RivObject, Toc, Value, encode, index_bytes};

/// A negative-control variant (§9): each writes a file that is broken in
/// one specific way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Drawables in reversed order.
    Zflip,
    /// Asset indices rotated by one among the Images; with one image asset
    /// (a single texture page), every U mirrored (`1 − u`) instead.
    Tflip,
    /// Every Weight `values 255, indices 0`.
    Unbind,
    /// Every non-root bone written as its own RootBone at its rest pose.
    Forest,
    /// Every key value replaced by its track's first value.
    Static,
    /// Each part's weights replaced by a linear ramp along its chain of bones.
    Ramp,
    /// Major version 6.
    Badversion,
    /// The full ToC with its bitmap packed 16 keys per word.
    Toc16,
    /// Every root translation (keyed RootBone x/y) dropped (issue 19).
    Notranslate,
    /// Every Any → one-shot transition of the state machine points at the
    /// Exit state (issue 25).
    SmWrongTarget,
    /// The state machine's trigger conditions read extra, unnamed trigger
    /// inputs: firing a named trigger drives nothing (issue 25).
    SmUnread,
    /// Every layer's clip also keys every bone the other clips key, held at
    /// rest: the layer keyed on all bones (issue 47, `layers.rs`).
    LayerAll,
    /// Every draw-order key dropped (the DrawRules and DrawTargets stay, with no target):
    /// the parts keep the default order throughout (issue 42).
    NoDrawOrder,
}

impl Control {
    /// Every control, in §9 order.
    pub const ALL: [Control; 13] = [
        Control::Zflip,
        Control::Tflip,
        Control::Unbind,
        Control::Forest,
        Control::Static,
        Control::Ramp,
        Control::Badversion,
        Control::Toc16,
        Control::Notranslate,
        Control::SmWrongTarget,
        Control::SmUnread,
        Control::LayerAll,
        Control::NoDrawOrder,
    ];

    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            Control::Zflip => "zflip",
            Control::Tflip => "tflip",
            Control::Unbind => "unbind",
            Control::Forest => "forest",
            Control::Static => "static",
            Control::Ramp => "ramp",
            Control::Badversion => "badversion",
            Control::Toc16 => "toc16",
            Control::Notranslate => "notranslate",
            Control::SmWrongTarget => "sm-wrongtarget",
            Control::SmUnread => "sm-unread",
            Control::LayerAll => "layer-all",
            Control::NoDrawOrder => "nodraworder",
        }
    }

    /// Parses a CLI name.
    pub fn parse(s: &str) -> Option<Control> {
        Control::ALL.into_iter().find(|c| c.name() == s)
    }
}

/// Export options (the §9 command-line flags).
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Export only this clip (default: every clip, ascending by name).
    pub clip: Option<String>,
    /// Frames per second of the animations (LinearAnimation.fps), ≥ 1.
    pub fps: u32,
    /// Artboard size override.
    pub artboard: Option<(u32, u32)>,
    /// Offset override.
    pub offset: Option<(f64, f64)>,
    /// Write the empty ToC.
    pub empty_toc: bool,
    /// A broken variant, for negative controls.
    pub control: Option<Control>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            clip: None,
            fps: 60,
            artboard: None,
            offset: None,
            empty_toc: false,
            control: None,
        }
    }
}

/// Most frames per second accepted (LinearAnimation.fps is a uint; this
/// keeps `t · fps` exact in f64 for any sane clip).
pub const MAX_FPS: u32 = 100_000;

/// An exported file.
#[derive(Clone, Debug, PartialEq)]
pub struct Export {
    /// The `.riv` bytes.
    pub bytes: Vec<u8>,
    /// The object list that was encoded (for the round-trip check).
    pub objects: Vec<RivObject>,
    /// The artboard frame used.
    pub frame: Frame,
    /// Warnings (model warnings plus key-time rounding notes).
    pub warnings: Vec<String>,
}

/// Parts in draw order, nearest first (§6): depth ascending, declaration
/// index descending.
pub fn draw_order(model: &Model) -> Vec<usize> {
    super::draworder::default_order(model)
}

/// Quantised key frames of a track at `fps` (§8.6): `round_half_even(t·fps)`.
pub fn key_frames(keys: &[(f64, f64)], fps: u32) -> Vec<u64> {
    keys.iter()
        .map(|&(t, _)| (t * fps as f64).round_ties_even().max(0.0) as u64)
        .collect()
}

/// Duration in frames (§8.6).
pub fn duration_frames(duration: f64, fps: u32) -> u64 {
    (duration * fps as f64).round_ties_even().max(0.0) as u64
}

/// §8.5: `(values, indices)` of one vertex; `pairs` are `(bone, weight)`.
pub fn quantise(pairs: &[(usize, f64)]) -> (u64, u64) {
    let total: f64 = pairs.iter().map(|p| p.1).sum();
    if pairs.is_empty() || total <= 1e-4 {
        return (255, 0);
    }
    match pairs {
        [(b, _)] => (255, *b as u64 + 1),
        [(a, wa), (b, _), ..] => {
            let qa = ((255.0 * wa / total).round_ties_even() as u64).min(255);
            let qb = 255 - qa;
            if qb == 0 {
                (255, *a as u64 + 1)
            } else if qa == 0 {
                (255, *b as u64 + 1)
            } else {
                (qa | (qb << 8), (*a as u64 + 1) | ((*b as u64 + 1) << 8))
            }
        }
        [] => (255, 0),
    }
}

/// The `ramp` control's chain of a part: from the part's most proximal
/// weighted bone down its first child (canonical order) that is weighted or
/// leads to a weighted bone (a connector), then one more child past the last weighted bone (so the
/// ramp always crosses the part's distal joint, also for a part weighted
/// only to its own bone and its parent, as `re2d rig` makes them); a chain
/// of a single leaf bone takes its parent as the chain start.
pub fn ramp_chain(model: &Model, part: usize) -> Vec<usize> {
    let p = &model.parts[part];
    let mut used: Vec<usize> = p
        .weights
        .iter()
        .flatten()
        .filter(|(_, w)| *w > 0.0)
        .map(|(b, _)| *b)
        .collect();
    used.sort_unstable();
    used.dedup();
    let depth = |mut b: usize| {
        let mut d = 0;
        while let Some(q) = model.bones[b].parent {
            b = q;
            d += 1;
        }
        d
    };
    let Some(&top) = used.iter().min_by_key(|&&b| (depth(b), b)) else {
        return Vec::new();
    };
    let mut chain = vec![top];
    loop {
        let last = *chain.last().unwrap_or(&top);
        let children: Vec<usize> = (0..model.bones.len())
            .filter(|&c| model.bones[c].parent == Some(last))
            .collect();
        // a weighted child, or an unweighted one (a connector) leading to a weighted bone
        let leads = |c: usize| {
            used.iter().any(|&u| {
                let mut b = Some(u);
                while let Some(x) = b {
                    if x == c {
                        return true;
                    }
                    b = model.bones[x].parent;
                }
                false
            })
        };
        match children.iter().find(|&&c| leads(c)) {
            Some(&c) => chain.push(c),
            None => {
                if let Some(&c) = children.first() {
                    chain.push(c);
                }
                break;
            }
        }
    }
    if chain.len() == 1
        && let Some(parent) = model.bones[top].parent
    {
        chain.insert(0, parent);
    }
    chain
}

/// Ramp weights of one vertex at rest position `v` along `chain`: the
/// vertex's nearest point on the chain's joint polyline (start of each chain
/// bone … tip of the last) lies on the segment of bone `k` at fraction `t`;
/// its weight goes linearly from bone `k` (t = 0) to the next chain bone
/// (t = 1), so every vertex along a bone is pulled by the joint below it (the
/// last bone's segment keeps weight 1).
pub fn ramp_weights(
    rest: &[World],
    model: &Model,
    chain: &[usize],
    v: [f64; 2],
) -> Vec<(usize, f64)> {
    if chain.len() < 2 {
        return chain.iter().map(|&b| (b, 1.0)).collect();
    }
    let mut pts: Vec<[f64; 2]> = chain.iter().map(|&b| [rest[b].x, rest[b].y]).collect();
    let last = *chain.last().unwrap_or(&0);
    let lw = rest[last];
    let ll = model.bones[last].length;
    pts.push([lw.x + ll * lw.angle.cos(), lw.y + ll * lw.angle.sin()]);
    let mut best = (f64::INFINITY, 0usize, 0.0);
    for (k, s) in pts.windows(2).enumerate() {
        let (a, b) = (s[0], s[1]);
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let (t, _) = re2d::math::nearest_on_segment(v, a, b);
        let d = (v[0] - (a[0] + t * dx)).hypot(v[1] - (a[1] + t * dy));
        if d < best.0 {
            best = (d, k, t);
        }
    }
    let (_, k, t) = best;
    if k + 1 < chain.len() {
        vec![(chain[k], 1.0 - t), (chain[k + 1], t)]
    } else {
        vec![(chain[k], 1.0)]
    }
}

/// The largest `--offset` coordinate (2^24 pixels): beyond it binary32, the
/// `.riv` number type, no longer holds whole pixels, and a translation of
/// 1e308 would become infinite in the file.
pub const MAX_OFFSET: f64 = 16_777_216.0;

/// Checks an `--offset` (export and reference renderer alike): finite and
/// within ±[`MAX_OFFSET`], else `E_OPTION`.
pub fn check_offset(offset: Option<(f64, f64)>) -> Result<(), RivError> {
    if let Some((x, y)) = offset
        && !(x.is_finite() && y.is_finite() && x.abs() <= MAX_OFFSET && y.abs() <= MAX_OFFSET)
    {
        return err(
            Code::Option,
            format!(
                "--offset {x:e},{y:e}: each coordinate must be finite and within ±{MAX_OFFSET}"
            ),
        );
    }
    Ok(())
}

/// Checks the options against the model.
fn check_options(model: &Model, o: &Options) -> Result<(), RivError> {
    if o.fps == 0 || o.fps > MAX_FPS {
        return err(Code::Option, format!("--fps must be 1..={MAX_FPS}"));
    }
    if let Some((w, h)) = o.artboard
        && (w == 0 || h == 0)
    {
        return err(Code::Option, "--artboard sizes must be at least 1");
    }
    check_offset(o.offset)?;
    if let Some(c) = &o.clip
        && model.clip(c).is_none()
    {
        let names: Vec<&str> = model.clips.iter().map(|c| c.name.as_str()).collect();
        return err(
            Code::Clip,
            format!("unknown clip '{c}' (clips: {})", names.join(", ")),
        );
    }
    Ok(())
}

/// Builds the object list of §5.1/§8.8 (no encoding).
pub fn objects(
    model: &Model,
    o: &Options,
) -> Result<(Vec<RivObject>, Frame, Vec<String>), RivError> {
    check_options(model, o)?;
    let control = o.control;
    let frame = model.frame(o.artboard, o.offset);
    let (ox, oy) = (frame.ox, frame.oy);
    let rest = model.rest();
    let mut warnings = model.warnings.clone();
    let mut order = draw_order(model);
    if control == Some(Control::Zflip) {
        order.reverse();
    }
    // Assets in order of first use by the drawables, then white.
    let mut assets: Vec<Option<usize>> = Vec::new(); // texture index or None = white
    let mut part_asset = vec![0u64; model.parts.len()];
    for &p in &order {
        let t = model.parts[p].texture;
        if t.is_some() {
            let a = match assets.iter().position(|&x| x == t) {
                Some(a) => a,
                None => {
                    assets.push(t);
                    assets.len() - 1
                }
            };
            part_asset[p] = a as u64;
        }
    }
    if order.iter().any(|&p| model.parts[p].texture.is_none()) {
        assets.push(None);
        let white = assets.len() as u64 - 1;
        for &p in &order {
            if model.parts[p].texture.is_none() {
                part_asset[p] = white;
            }
        }
    }
    let mut image_asset: Vec<u64> = order.iter().map(|&p| part_asset[p]).collect();
    if control == Some(Control::Tflip) && !image_asset.is_empty() {
        image_asset.rotate_left(1);
    }
    // with one image asset (every part in one texture page) rotating the asset indices changes
    // nothing: the control mirrors the UVs instead (u -> 1 - u), so the texture lookup is wrong
    let mirror_uv = control == Some(Control::Tflip) && assets.len() == 1;
    let mut out = vec![RivObject::new(ty::BACKBOARD)];
    let white = white_png();
    for (i, a) in assets.iter().enumerate() {
        let (name, png, w, h) = match a {
            Some(t) => {
                let t = &model.textures[*t];
                (t.name.clone(), t.png.clone(), t.width, t.height)
            }
            None => ("white.png".to_string(), white.clone(), 1, 1),
        };
        out.push(
            RivObject::new(ty::IMAGE_ASSET)
                .with(prop::ASSET_NAME, Value::Str(name))
                .with(prop::FILE_ASSET_ID, Value::Uint(100 + i as u64))
                .with(prop::ASSET_WIDTH, Value::double(w as f64))
                .with(prop::ASSET_HEIGHT, Value::double(h as f64)),
        );
        out.push(
            RivObject::new(ty::FILE_ASSET_CONTENTS).with(prop::CONTENTS_BYTES, Value::Bytes(png)),
        );
    }
    // a machine is written only with every clip (its clip ids index them all)
    let machine = model.machine.as_ref().filter(|_| o.clip.is_none());
    let mut artboard = RivObject::new(ty::ARTBOARD)
        .with(prop::WIDTH, Value::double(frame.width as f64))
        .with(prop::HEIGHT, Value::double(frame.height as f64))
        .with(prop::NAME, Value::Str(model.name.clone()));
    if machine.is_some() {
        artboard = artboard.with(prop::DEFAULT_STATE_MACHINE_ID, Value::Uint(0));
    }
    out.push(artboard);
    // Bones: artboard index 1 + k.
    let mut comp = 1u64; // next component index
    for (k, b) in model.bones.iter().enumerate() {
        let forest = control == Some(Control::Forest) && b.parent.is_some();
        let o = match b.parent {
            None => RivObject::new(ty::ROOT_BONE)
                .with(prop::NAME, Value::Str(b.name.clone()))
                .with(prop::PARENT_ID, Value::Uint(0))
                .with(prop::ROOT_X, Value::double(b.x + ox))
                .with(prop::ROOT_Y, Value::double(b.y + oy))
                .with(prop::ROTATION, Value::double(b.angle))
                .with(prop::BONE_LENGTH, Value::double(b.length)),
            Some(_) if forest => RivObject::new(ty::ROOT_BONE)
                .with(prop::NAME, Value::Str(b.name.clone()))
                .with(prop::PARENT_ID, Value::Uint(0))
                .with(prop::ROOT_X, Value::double(rest[k].x + ox))
                .with(prop::ROOT_Y, Value::double(rest[k].y + oy))
                .with(prop::ROTATION, Value::double(rest[k].angle))
                .with(prop::BONE_LENGTH, Value::double(b.length)),
            Some(p) => RivObject::new(ty::BONE)
                .with(prop::NAME, Value::Str(b.name.clone()))
                .with(prop::PARENT_ID, Value::Uint(1 + p as u64))
                .with(prop::ROTATION, Value::double(b.angle))
                .with(prop::BONE_LENGTH, Value::double(b.length)),
        };
        out.push(o);
        comp += 1;
    }
    let nb = model.bones.len();
    let mut image_of = vec![0u64; model.parts.len()];
    for (di, &pi) in order.iter().enumerate() {
        let part = &model.parts[pi];
        let image = comp;
        image_of[pi] = image;
        out.push(
            RivObject::new(ty::IMAGE)
                .with(prop::NAME, Value::Str(part.name.clone()))
                .with(prop::PARENT_ID, Value::Uint(0))
                .with(prop::IMAGE_ASSET_ID, Value::Uint(image_asset[di])),
        );
        let mesh = image + 1;
        out.push(
            RivObject::new(ty::MESH)
                .with(prop::PARENT_ID, Value::Uint(image))
                .with(
                    prop::TRIANGLE_INDEX_BYTES,
                    Value::Bytes(index_bytes(&part.tris)),
                ),
        );
        let first_vertex = mesh + 1;
        for (v, uv) in part.verts.iter().zip(&part.uv) {
            out.push(
                RivObject::new(ty::MESH_VERTEX)
                    .with(prop::PARENT_ID, Value::Uint(mesh))
                    .with(prop::VERTEX_X, Value::double(v[0] + ox))
                    .with(prop::VERTEX_Y, Value::double(v[1] + oy))
                    .with(
                        prop::U,
                        Value::double(if mirror_uv { 1.0 - uv[0] } else { uv[0] }),
                    )
                    .with(prop::V, Value::double(uv[1])),
            );
        }
        comp = first_vertex + part.verts.len() as u64;
        let skinned = part
            .weights
            .iter()
            .any(|l| l.iter().map(|p| p.1).sum::<f64>() > 0.0);
        if !skinned {
            continue;
        }
        let skin = comp;
        out.push(RivObject::new(ty::SKIN).with(prop::PARENT_ID, Value::Uint(mesh)));
        for (k, w) in rest.iter().enumerate() {
            let (s, c) = w.angle.sin_cos();
            out.push(
                RivObject::new(ty::TENDON)
                    .with(prop::PARENT_ID, Value::Uint(skin))
                    .with(prop::TENDON_BONE_ID, Value::Uint(1 + k as u64))
                    .with(prop::TENDON_XX, Value::double(c))
                    .with(prop::TENDON_YX, Value::double(-s))
                    .with(prop::TENDON_XY, Value::double(s))
                    .with(prop::TENDON_YY, Value::double(c))
                    .with(prop::TENDON_TX, Value::double(w.x + ox))
                    .with(prop::TENDON_TY, Value::double(w.y + oy)),
            );
        }
        let chain = if control == Some(Control::Ramp) {
            ramp_chain(model, pi)
        } else {
            Vec::new()
        };
        for (i, pairs) in part.weights.iter().enumerate() {
            let (values, indices) = match control {
                Some(Control::Unbind) => (255, 0),
                Some(Control::Ramp) => quantise(&ramp_weights(&rest, model, &chain, part.verts[i])),
                _ => quantise(pairs),
            };
            out.push(
                RivObject::new(ty::WEIGHT)
                    .with(prop::PARENT_ID, Value::Uint(first_vertex + i as u64))
                    .with(prop::WEIGHT_VALUES, Value::Uint(values))
                    .with(prop::WEIGHT_INDICES, Value::Uint(indices)),
            );
        }
        comp = skin + 1 + nb as u64 + part.verts.len() as u64;
    }
    // Draw rules (§11.6, issue 42): after the last part's subtree; none for the reversed
    // stream of the zflip control (the rules realise orders over the default stream).
    let plan = match control {
        Some(Control::Zflip) => None,
        _ => super::draworder::Plan::new(model)?,
    };
    let placed = plan.as_ref().map(|p| p.records(&image_of, comp, &mut out));
    // Clips.
    for (ci, clip) in model.clips.iter().enumerate() {
        if o.clip.as_ref().is_some_and(|c| c != &clip.name) {
            continue;
        }
        let dur = duration_frames(clip.duration, o.fps);
        out.push(
            RivObject::new(ty::LINEAR_ANIMATION)
                .with(prop::ANIMATION_NAME, Value::Str(clip.name.clone()))
                .with(prop::FPS, Value::Uint(o.fps as u64))
                .with(prop::DURATION, Value::Uint(dur))
                .with(prop::LOOP_VALUE, Value::Uint(clip.looping as u64)),
        );
        // Keyed bones in canonical order: rotation, then x and y of a root's translation.
        let translations: &[super::model::Translation] = if control == Some(Control::Notranslate) {
            &[]
        } else {
            &clip.translations
        };
        let mut keyed: Vec<usize> = clip
            .tracks
            .iter()
            .map(|t| t.bone)
            .chain(translations.iter().map(|t| t.bone))
            .collect();
        keyed.sort_unstable();
        keyed.dedup();
        for bone_index in keyed {
            let bone = &model.bones[bone_index];
            let track = clip.tracks.iter().find(|t| t.bone == bone_index);
            let moved = translations.iter().find(|t| t.bone == bone_index);
            out.push(
                RivObject::new(ty::KEYED_OBJECT)
                    .with(prop::OBJECT_ID, Value::Uint(1 + bone_index as u64)),
            );
            let mut properties: Vec<KeyedValues> = Vec::with_capacity(3);
            if let Some(track) = track {
                let keys = track
                    .keys
                    .iter()
                    .map(|&(t, a)| (t, bone.angle + a))
                    .collect();
                properties.push((prop::ROTATION, "tracks", keys));
            }
            if let Some(m) = moved {
                let (x0, y0) = (bone.x + ox, bone.y + oy);
                properties.push((
                    prop::ROOT_X,
                    "translations",
                    m.keys.iter().map(|&(t, dx, _)| (t, x0 + dx)).collect(),
                ));
                properties.push((
                    prop::ROOT_Y,
                    "translations",
                    m.keys.iter().map(|&(t, _, dy)| (t, y0 + dy)).collect(),
                ));
            }
            for (key, field, keys) in properties {
                let frames = if key == prop::ROOT_Y {
                    // x already reported any quantisation problem of these times
                    key_frames(&keys, o.fps)
                } else {
                    let times: Vec<f64> = keys.iter().map(|k| k.0).collect();
                    let label = format!("clips.{}.{field}.{}", clip.name, bone.name);
                    checked_frames(&times, &label, o.fps, dur, &mut warnings)?
                };
                out.push(
                    RivObject::new(ty::KEYED_PROPERTY).with(prop::PROPERTY_KEY, Value::Uint(key)),
                );
                let first = keys[0].1;
                for (&f, &(_, v)) in frames.iter().zip(&keys) {
                    let value = if control == Some(Control::Static) {
                        first
                    } else {
                        v
                    };
                    out.push(
                        RivObject::new(ty::KEY_FRAME_DOUBLE)
                            .with(prop::FRAME, Value::Uint(f))
                            .with(
                                prop::INTERPOLATION_TYPE,
                                Value::Uint(if clip.step { 0 } else { 1 }),
                            )
                            .with(prop::VALUE, Value::double(value)),
                    );
                }
            }
        }
        // every clip keys every DrawRules (a machine leaving a clip must not keep its order)
        if let (Some(plan), Some(placed)) = (&plan, &placed)
            && control != Some(Control::NoDrawOrder)
        {
            let times: Vec<f64> = plan.keys[ci].iter().map(|k| k.0).collect();
            let label = format!("clips.{}.draw_order", clip.name);
            let frames = checked_frames(&times, &label, o.fps, dur, &mut warnings)?;
            plan.clip_records(ci, placed, &frames, &mut out);
        }
    }
    if let Some(m) = machine {
        let broken = match control {
            Some(Control::SmWrongTarget) => Some(super::machine::Broken::WrongTarget),
            Some(Control::SmUnread) => Some(super::machine::Broken::Unread),
            _ => None,
        };
        super::machine::records(m, &model.clips, broken, &mut out);
    }
    Ok((out, frame, warnings))
}

/// One keyed property of a bone: property key, model field (for messages),
/// `(time, absolute value)` keys.
type KeyedValues<'a> = (u64, &'a str, Vec<(f64, f64)>);

/// The frames of key times `times` at `fps` (round half to even), checked: two keys on one
/// frame are `E_KEY_QUANT`, a key past the clip's `dur` frames `E_KEY_RANGE`; a key moved by
/// the rounding is a warning. `label` names the keys in the messages (`clips.walk.tracks.arm`).
pub(crate) fn checked_frames(
    times: &[f64],
    label: &str,
    fps: u32,
    dur: u64,
    warnings: &mut Vec<String>,
) -> Result<Vec<u64>, RivError> {
    let frames: Vec<u64> = times
        .iter()
        .map(|t| (t * fps as f64).round_ties_even().max(0.0) as u64)
        .collect();
    for (i, (&f, &t)) in frames.iter().zip(times).enumerate() {
        if i > 0 && f <= frames[i - 1] {
            return err(
                Code::KeyQuant,
                format!(
                    "{label}: keys at {} s and {t} s both land on frame {f} at {fps} fps; use a higher --fps",
                    times[i - 1],
                ),
            );
        }
        if f > dur {
            return err(
                Code::KeyRange,
                format!("{label}: key at {t} s is frame {f}, beyond the duration of {dur} frames"),
            );
        }
        if (f as f64 / fps as f64 - t).abs() > 1e-6 {
            warnings.push(format!(
                "{label}: key at {t} s moved to frame {f} ({} s) at {fps} fps",
                f as f64 / fps as f64,
            ));
        }
    }
    Ok(frames)
}

/// The bytes `model` embeds (its texture PNGs), refused (`E_TEXTURE`) over
/// `riv-max-embedded` of `limits` before anything is copied or encoded
/// (a model built in memory never passed [`Model::from_json`]'s check).
pub fn check_embedded(model: &Model, limits: &re2d::limits::Limits) -> Result<u64, RivError> {
    let total = model
        .textures
        .iter()
        .fold(0u64, |a, t| a.saturating_add(t.png.len() as u64));
    if total > limits.riv_max_embedded_bytes {
        return err(
            Code::Texture,
            format!(
                "the textures are {total} bytes to embed, more than {} (limit riv-max-embedded, see --limit)",
                limits.riv_max_embedded_bytes
            ),
        );
    }
    Ok(total)
}

/// Exports `model` to `.riv` bytes (the embedded bytes checked first against
/// the current `riv-max-embedded`).
pub fn export(model: &Model, o: &Options) -> Result<Export, RivError> {
    check_embedded(model, &re2d::limits::Limits::current())?;
    let keyed_on_all;
    let model = if o.control == Some(Control::LayerAll) {
        keyed_on_all = super::layers::keyed_on_all(model);
        &keyed_on_all
    } else {
        model
    };
    let (objects, frame, warnings) = objects(model, o)?;
    let header = Header {
        major: if o.control == Some(Control::Badversion) {
            6
        } else {
            7
        },
        minor: 3,
        toc: match (o.control, o.empty_toc) {
            (Some(Control::Toc16), _) => Toc::Packed16,
            (_, true) => Toc::Empty,
            _ => Toc::Full,
        },
    };
    let bytes = encode(&objects, header).map_err(|e| RivError::new(Code::Option, e.to_string()))?;
    Ok(Export {
        bytes,
        objects,
        frame,
        warnings,
    })
}
