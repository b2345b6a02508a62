//! The offline structural check (rive-export.md §10.1): every rule a file
//! re2d writes must satisfy, verified on what [`super::read`] decoded.
//!
//! [`check`] returns a [`Report`] listing every problem found (not just the
//! first) plus a summary of what the file contains. A file passes when the
//! problem list is empty. Broken controls `badversion` and `toc16` fail
//! here; the other controls pass (structure does not prove rendering).
//!
//! Keyed properties: rotation (15) on any bone, and `RootBone.x`/`y`
//! (90/91) on a RootBone only (the root translations of issue 19); each at
//! most once per KeyedObject. Draw rules (§11.6, issue 42): a DrawRules on an
//! Image, its DrawTargets naming other Images (placement 0 or 1), its
//! drawTargetId "no target" or one of its own DrawTargets, the targets'
//! dependencies without a cycle; draw-order keys (KeyFrameId under property
//! 121 of a KeyedObject that points at a DrawRules) name one of that
//! DrawRules' targets or "no target".

use super::read::{Field, Record, RivFile, known_field, read_with, triangle_indices};
use re2d::limits::Limits;

/// What a checked file holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Major version.
    pub major: u64,
    /// Minor version.
    pub minor: u64,
    /// Number of ToC keys.
    pub toc_keys: usize,
    /// Number of object records.
    pub objects: usize,
    /// Embedded images: `(name, width, height, bytes)`.
    pub assets: Vec<(String, u32, u32, usize)>,
    /// Artboard `(name, width, height)`.
    pub artboard: Option<(String, f32, f32)>,
    /// Number of bones (Bone + RootBone).
    pub bones: usize,
    /// Meshes: `(image name, vertices, triangles, skinned)`.
    pub meshes: Vec<(String, usize, usize, bool)>,
    /// Animations: `(name, fps, duration frames, loop, keyed objects, keys)`.
    pub animations: Vec<(String, u64, u64, u64, usize, usize)>,
}

/// Result of [`check`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Every rule violation, in stream order (empty = the file passes); at
    /// most `riv-max-findings` of them, then one line counting the rest.
    pub problems: Vec<String>,
    /// How many problems were found (listed or only counted).
    pub problem_count: u64,
    /// Contents.
    pub summary: Summary,
    /// The state machines and draw rules (issue 42), for the listing.
    pub contents: super::contents::Contents,
}

impl Report {
    /// No problem found.
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

const BACKBOARD: u64 = 23;
const IMAGE_ASSET: u64 = 105;
const CONTENTS: u64 = 106;
const ARTBOARD: u64 = 1;
const ROOT_BONE: u64 = 41;
const BONE: u64 = 40;
const IMAGE: u64 = 100;
const MESH: u64 = 109;
const VERTEX: u64 = 108;
const SKIN: u64 = 43;
const TENDON: u64 = 44;
const WEIGHT: u64 = 45;
const ANIMATION: u64 = 31;
const KEYED_OBJECT: u64 = 25;
const KEYED_PROPERTY: u64 = 26;
const KEY_FRAME: u64 = 30;
// state machines (§11.1)
const MACHINE: u64 = 53;
const NUMBER: u64 = 56;
const TRIGGER: u64 = 58;
const LAYER: u64 = 57;
const ENTRY: u64 = 63;
const ANY: u64 = 62;
const EXIT: u64 = 64;
const ANIM_STATE: u64 = 61;
const BLEND_1D: u64 = 76;
const BLEND_ANIM_1D: u64 = 75;
const TRANSITION: u64 = 65;
const TRIGGER_CONDITION: u64 = 68;
// draw rules (§11.6)
const DRAW_RULES: u64 = 49;
const DRAW_TARGET: u64 = 48;
const KEY_FRAME_ID: u64 = 50;
const NO_TARGET: u64 = 4_294_967_295;

fn type_name(t: u64) -> &'static str {
    match t {
        BACKBOARD => "Backboard",
        IMAGE_ASSET => "ImageAsset",
        CONTENTS => "FileAssetContents",
        ARTBOARD => "Artboard",
        ROOT_BONE => "RootBone",
        BONE => "Bone",
        IMAGE => "Image",
        MESH => "Mesh",
        VERTEX => "MeshVertex",
        SKIN => "Skin",
        TENDON => "Tendon",
        WEIGHT => "Weight",
        ANIMATION => "LinearAnimation",
        KEYED_OBJECT => "KeyedObject",
        KEYED_PROPERTY => "KeyedProperty",
        KEY_FRAME => "KeyFrameDouble",
        MACHINE => "StateMachine",
        NUMBER => "StateMachineNumber",
        TRIGGER => "StateMachineTrigger",
        LAYER => "StateMachineLayer",
        ENTRY => "EntryState",
        ANY => "AnyState",
        EXIT => "ExitState",
        ANIM_STATE => "AnimationState",
        BLEND_1D => "BlendState1DInput",
        BLEND_ANIM_1D => "BlendAnimation1D",
        TRANSITION => "StateTransition",
        TRIGGER_CONDITION => "TransitionTriggerCondition",
        DRAW_RULES => "DrawRules",
        DRAW_TARGET => "DrawTarget",
        KEY_FRAME_ID => "KeyFrameId",
        _ => "unknown type",
    }
}

/// The properties each type may carry, in the order §4.2 lists them.
fn allowed(t: u64) -> &'static [u64] {
    match t {
        BACKBOARD => &[],
        IMAGE_ASSET => &[203, 204, 208, 207],
        CONTENTS => &[212],
        ARTBOARD => &[7, 8, 4, 236],
        ROOT_BONE => &[4, 5, 90, 91, 15, 89],
        BONE => &[4, 5, 15, 89],
        IMAGE => &[4, 5, 206],
        MESH => &[5, 223],
        VERTEX => &[5, 24, 25, 215, 216],
        SKIN => &[5],
        TENDON => &[5, 95, 96, 97, 98, 99, 100, 101],
        WEIGHT => &[5, 102, 103],
        ANIMATION => &[55, 56, 57, 59],
        KEYED_OBJECT => &[51],
        KEYED_PROPERTY => &[53],
        KEY_FRAME => &[67, 68, 70],
        MACHINE => &[55],
        NUMBER => &[138, 140],
        TRIGGER => &[138],
        LAYER => &[138],
        ANIM_STATE => &[149],
        BLEND_1D => &[167, 536],
        BLEND_ANIM_1D => &[165, 166],
        TRANSITION => &[151, 152, 158, 160],
        TRIGGER_CONDITION => &[155],
        DRAW_RULES => &[5, 121],
        DRAW_TARGET => &[5, 119, 120],
        KEY_FRAME_ID => &[67, 68, 122],
        _ => &[],
    }
}

fn is_component(t: u64) -> bool {
    matches!(
        t,
        ROOT_BONE
            | BONE
            | IMAGE
            | MESH
            | VERTEX
            | SKIN
            | TENDON
            | WEIGHT
            | DRAW_RULES
            | DRAW_TARGET
    )
}

/// PNG signature and IHDR size of an embedded image.
fn png_size(b: &[u8]) -> Option<(u32, u32)> {
    const SIG: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];
    if b.len() < 24 || b[..8] != SIG || &b[12..16] != b"IHDR" {
        return None;
    }
    let w = u32::from_be_bytes([b[16], b[17], b[18], b[19]]);
    let h = u32::from_be_bytes([b[20], b[21], b[22], b[23]]);
    Some((w, h))
}

fn text(r: &Record, key: u64) -> String {
    r.blob(key)
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .unwrap_or_default()
}

/// The string properties (names): UTF-8 in every file re2d writes.
const STRING_KEYS: [u64; 4] = [4, 55, 138, 203];

/// Values no file re2d writes holds (issue 45): a non-finite number in any
/// double property (the Artboard's size and a key's value have their own
/// messages) and a name that is not UTF-8.
fn value_problems(r: &Record, p: &mut Problems) {
    for (k, f) in &r.fields {
        // the Artboard's size and a key's value have their own messages
        let own =
            (r.type_key == ARTBOARD && matches!(k, 7 | 8)) || (r.type_key == KEY_FRAME && *k == 70);
        match f {
            Field::Float(v) if !v.is_finite() && !own => {
                p.push(format!(
                    "{} at byte {}: property {k} = {v} is not a finite number",
                    type_name(r.type_key),
                    r.offset
                ));
            }
            Field::Blob(b) if STRING_KEYS.contains(k) && std::str::from_utf8(b).is_err() => {
                p.push(format!(
                    "{} at byte {}: the name (property {k}) is not UTF-8",
                    type_name(r.type_key),
                    r.offset
                ));
            }
            _ => {}
        }
    }
}

/// Reads and checks `data` (a parse failure is reported as the one problem).
pub fn check_bytes(data: &[u8], limits: &Limits) -> Report {
    match read_with(data, limits) {
        Ok(f) => check_with(&f, limits),
        Err(e) => Report {
            problems: vec![format!("unreadable: {e}")],
            problem_count: 1,
            summary: Summary::default(),
            contents: Default::default(),
        },
    }
}

/// The problem list, capped at `riv-max-findings` entries; the rest are
/// only counted (one summary line at the end).
struct Problems {
    list: Vec<String>,
    max: usize,
    more: u64,
}

impl Problems {
    fn push(&mut self, msg: String) {
        if self.list.len() < self.max {
            self.list.push(msg);
        } else {
            self.more += 1;
        }
    }

    fn count(&self) -> u64 {
        self.list.len() as u64 + self.more
    }

    fn finish(mut self) -> Vec<String> {
        if self.more > 0 {
            self.list.push(format!(
                "... and {} more problems (limit riv-max-findings, see --limit)",
                self.more
            ));
        }
        self.list
    }
}

/// Checks a parsed file against every rule of §10.1 (the current limits'
/// `riv-max-findings` caps the listed problems).
pub fn check(f: &RivFile) -> Report {
    check_with(f, &Limits::current())
}

/// A key frame's frame (property 67): counted for its animation, increasing within its keyed
/// property, within the animation's duration.
fn key_frame(
    kind: &str,
    at: usize,
    r: &Record,
    anim: Option<(u64, usize)>,
    s: &mut Summary,
    last_frame: &mut Option<u64>,
    p: &mut Problems,
) {
    if let Some((_, a)) = anim {
        s.animations[a].5 += 1;
    }
    let frame = r.uint(67).unwrap_or(0);
    if last_frame.is_some_and(|l| frame <= l) {
        p.push(format!(
            "{kind} at byte {at}: frame {frame} does not increase"
        ));
    }
    if let Some((dur, _)) = anim
        && frame > dur
    {
        p.push(format!(
            "{kind} at byte {at}: frame {frame} is beyond the duration {dur}"
        ));
    }
    *last_frame = Some(frame);
}

/// [`check`] with explicit limits. Linear in the number of records.
pub fn check_with(f: &RivFile, limits: &Limits) -> Report {
    let mut p = Problems {
        list: Vec::new(),
        max: limits.riv_max_findings.max(1) as usize,
        more: 0,
    };
    let mut s = Summary {
        major: f.major,
        minor: f.minor,
        toc_keys: f.toc.len(),
        objects: f.records.len(),
        ..Summary::default()
    };
    // Header.
    if f.major != 7 {
        p.push(format!(
            "major version {} is not 7 (the runtime rejects it)",
            f.major
        ));
    }
    for &(k, id) in &f.toc {
        let want = match known_field(k) {
            Some(super::read::Kind::Uint) => Some(0),
            Some(super::read::Kind::Blob) => Some(1),
            Some(super::read::Kind::Float) => Some(2),
            _ => None,
        };
        match want {
            Some(w) if w == id => {}
            Some(w) => p.push(format!(
                "ToC declares key {k} with field id {id}, §4.2 says {w}"
            )),
            None => p.push(format!("ToC declares key {k}, which §4.2 does not use")),
        }
    }
    let recs = &f.records;
    // Properties: only §4.2 keys per type, each at most once, and 69/376 never.
    for r in recs {
        if allowed(r.type_key).is_empty() && !matches!(r.type_key, BACKBOARD | ENTRY | ANY | EXIT) {
            p.push(format!(
                "object at byte {}: type key {} is not one re2d writes",
                r.offset, r.type_key
            ));
            continue;
        }
        for (i, (k, _)) in r.fields.iter().enumerate() {
            if *k == 69 || *k == 376 {
                p.push(format!(
                    "{} at byte {}: property {k} must never be written",
                    type_name(r.type_key),
                    r.offset
                ));
            } else if !allowed(r.type_key).contains(k) {
                p.push(format!(
                    "{} at byte {}: property {k} does not belong to this type",
                    type_name(r.type_key),
                    r.offset
                ));
            } else if r.fields[..i].iter().any(|(j, _)| j == k) {
                p.push(format!(
                    "{} at byte {}: property {k} written twice",
                    type_name(r.type_key),
                    r.offset
                ));
            }
        }
        value_problems(r, &mut p);
    }
    // Object order: Backboard, (ImageAsset, FileAssetContents)*, Artboard.
    let mut i = 0;
    if recs.first().map(|r| r.type_key) != Some(BACKBOARD) {
        p.push("the first object is not a Backboard".into());
    } else {
        i = 1;
    }
    let mut decoded = 0u64;
    while i < recs.len() && recs[i].type_key == IMAGE_ASSET {
        let a = &recs[i];
        let name = text(a, 203);
        let (aw, ah) = (a.float(208), a.float(207));
        match recs.get(i + 1) {
            Some(c) if c.type_key == CONTENTS => {
                let bytes = c.blob(212).unwrap_or(&[]);
                match png_size(bytes) {
                    None => p.push(format!(
                        "asset {} '{name}': contents are not a PNG",
                        s.assets.len()
                    )),
                    Some((w, h)) if {
                        decoded += w as u64 * h as u64 * 4;
                        decoded > limits.png_max_bytes
                    } =>
                    {
                        p.push(format!(
                            "asset {} '{name}': the images together decode to {decoded} bytes, more than {} (limit png-max-bytes, see --limit)",
                            s.assets.len(),
                            limits.png_max_bytes
                        ))
                    }
                    Some((w, h)) => {
                        // read in full before it is trusted (one row of memory)
                        if let Err(e) =
                            re2d::png_io::validate_limited(std::io::Cursor::new(bytes), limits)
                        {
                            p.push(format!(
                                "asset {} '{name}': the PNG does not decode: {e}",
                                s.assets.len()
                            ));
                        }
                        if aw != Some(w as f32) || ah != Some(h as f32) {
                            p.push(format!(
                                "asset {} '{name}': size {aw:?}x{ah:?} differs from the PNG's {w}x{h}",
                                s.assets.len()
                            ));
                        }
                        s.assets.push((name, w, h, bytes.len()));
                    }
                }
                i += 2;
            }
            _ => {
                p.push(format!(
                    "asset {} '{name}' is not followed by its FileAssetContents",
                    s.assets.len()
                ));
                i += 1;
            }
        }
        if recs.get(i).map(|r| r.type_key) == Some(CONTENTS) {
            p.push(format!(
                "asset {} has more than one FileAssetContents",
                s.assets.len()
            ));
            while recs.get(i).map(|r| r.type_key) == Some(CONTENTS) {
                i += 1;
            }
        }
    }
    if recs.get(i).map(|r| r.type_key) != Some(ARTBOARD) {
        p.push("no Artboard follows the assets".into());
        return Report {
            problem_count: p.count(),
            problems: p.finish(),
            summary: s,
            contents: super::contents::contents(f),
        };
    }
    let ab = &recs[i];
    s.artboard = Some((
        text(ab, 4),
        ab.float(7).unwrap_or(0.0),
        ab.float(8).unwrap_or(0.0),
    ));
    for (key, side) in [(7, "width"), (8, "height")] {
        if let Some(v) = ab.float(key)
            && !v.is_finite()
        {
            p.push(format!("Artboard {side} {v} is not a finite number"));
        }
    }
    // Component list: index 0 is the Artboard.
    let mut comps: Vec<&Record> = vec![ab];
    let mut j = i + 1;
    while j < recs.len() && is_component(recs[j].type_key) {
        comps.push(&recs[j]);
        j += 1;
    }
    let asset_count = s.assets.len() as u64;
    // Parent types and per-mesh bookkeeping.
    let required = |t: u64| -> &'static [u64] {
        match t {
            ROOT_BONE | IMAGE => &[ARTBOARD],
            BONE => &[BONE, ROOT_BONE],
            MESH => &[IMAGE],
            VERTEX | SKIN => &[MESH],
            TENDON => &[SKIN],
            WEIGHT => &[VERTEX],
            DRAW_RULES => &[IMAGE],
            DRAW_TARGET => &[DRAW_RULES],
            _ => &[],
        }
    };
    let n = comps.len();
    let mut verts_of = vec![0usize; n]; // per Mesh index
    let mut skins_of = vec![0usize; n]; // per Mesh
    let mut tendons_of = vec![0u64; n]; // per Skin
    let mut weights_of = vec![0usize; n]; // per MeshVertex
    let mut mesh_of_skin = vec![usize::MAX; n];
    for (idx, r) in comps.iter().enumerate().skip(1) {
        let t = r.type_key;
        let parent = r.uint(5).unwrap_or(0);
        let what = format!("{} #{idx}", type_name(t));
        if parent >= idx as u64 {
            p.push(format!(
                "{what}: parentId {parent} is not before the object"
            ));
            continue;
        }
        let pt = comps[parent as usize].type_key;
        if !required(t).contains(&pt) {
            p.push(format!(
                "{what}: parent #{parent} is a {}, expected {}",
                type_name(pt),
                required(t)
                    .iter()
                    .map(|&x| type_name(x))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ));
            continue;
        }
        let parent = parent as usize;
        match t {
            ROOT_BONE | BONE => s.bones += 1,
            IMAGE => match r.uint(206) {
                Some(a) if a < asset_count => {}
                Some(a) => p.push(format!(
                    "{what}: assetId {a} is not below the asset count {asset_count}"
                )),
                None => p.push(format!("{what}: no assetId (the image is not drawn)")),
            },
            VERTEX => verts_of[parent] += 1,
            SKIN => {
                skins_of[parent] += 1;
                mesh_of_skin[idx] = parent;
            }
            TENDON => {
                tendons_of[parent] += 1;
                match r.uint(95) {
                    Some(b)
                        if (b as usize) < n
                            && matches!(comps[b as usize].type_key, BONE | ROOT_BONE) => {}
                    other => p.push(format!(
                        "{what}: boneId {other:?} does not point to a Bone or RootBone"
                    )),
                }
            }
            WEIGHT => weights_of[parent] += 1,
            _ => {}
        }
    }
    // Per-mesh lists in one pass each (compressed rows, in stream order):
    // the MeshVertex records naming the mesh as parent, the records whose
    // parent names such a vertex, and the mesh's first Skin.
    let is_mesh = |m: u64| (m as usize) < n && comps[m as usize].type_key == MESH;
    let mesh_of_vertex = |r: &Record| r.uint(5).filter(|&m| is_mesh(m)).map(|m| m as usize);
    let vertex_rows = rows(
        n,
        comps.iter().enumerate().filter_map(|(vi, v)| {
            (v.type_key == VERTEX)
                .then(|| mesh_of_vertex(v))
                .flatten()
                .map(|m| (m, vi))
        }),
    );
    let weight_rows = rows(
        n,
        comps.iter().enumerate().filter_map(|(wi, w)| {
            if w.type_key != WEIGHT {
                return None;
            }
            let vi = w.uint(5)?;
            let m = comps.get(vi as usize).and_then(|v| mesh_of_vertex(v))?;
            Some((m, wi))
        }),
    );
    let mut first_skin = vec![usize::MAX; n];
    for (k, &m) in mesh_of_skin.iter().enumerate() {
        if m != usize::MAX && first_skin[m] == usize::MAX {
            first_skin[m] = k;
        }
    }
    // Meshes: indices, skins, weights.
    for (idx, r) in comps.iter().enumerate() {
        if r.type_key != MESH {
            continue;
        }
        let image = r
            .uint(5)
            .and_then(|pi| comps.get(pi as usize))
            .map_or(String::new(), |im| text(im, 4));
        let what = format!("Mesh #{idx} ('{image}')");
        let tris = match r.blob(223).map(triangle_indices) {
            None => {
                p.push(format!("{what}: no triangleIndexBytes"));
                0
            }
            Some(Err(e)) => {
                p.push(format!("{what}: triangleIndexBytes: {e}"));
                0
            }
            Some(Ok(ix)) => {
                if ix.len() % 3 != 0 {
                    p.push(format!("{what}: {} indices, not a multiple of 3", ix.len()));
                }
                if let Some(bad) = ix.iter().find(|&&v| v as usize >= verts_of[idx]) {
                    p.push(format!(
                        "{what}: index {bad} is not below the vertex count {}",
                        verts_of[idx]
                    ));
                }
                ix.len() / 3
            }
        };
        if skins_of[idx] > 1 {
            p.push(format!("{what}: {} Skins", skins_of[idx]));
        }
        let skinned = skins_of[idx] > 0;
        let skin_idx = Some(first_skin[idx]).filter(|&k| k != usize::MAX);
        let tendons = skin_idx.map_or(0, |k| tendons_of[k]);
        for &vi in vertex_rows.row(idx) {
            let vi = vi as usize;
            let w = weights_of[vi];
            if skinned && w != 1 {
                p.push(format!(
                    "{what}: MeshVertex #{vi} has {w} Weights, expected 1"
                ));
            } else if !skinned && w != 0 {
                p.push(format!(
                    "{what}: MeshVertex #{vi} has a Weight but the mesh has no Skin"
                ));
            }
        }
        if skinned {
            for &wi in weight_rows.row(idx) {
                let (wi, w) = (wi as usize, comps[wi as usize]);
                let (values, indices) = (w.uint(102).unwrap_or(255), w.uint(103).unwrap_or(1));
                if values > u32::MAX as u64 || indices > u32::MAX as u64 {
                    p.push(format!("{what}: Weight #{wi} does not fit in 4 bytes"));
                    continue;
                }
                let sum: u64 = (0..4).map(|b| (values >> (8 * b)) & 0xff).sum();
                if sum != 255 {
                    p.push(format!("{what}: Weight #{wi} bytes sum to {sum}, not 255"));
                }
                for b in 0..4 {
                    let slot = (indices >> (8 * b)) & 0xff;
                    if slot > tendons {
                        p.push(format!(
                            "{what}: Weight #{wi} uses slot {slot} but the Skin has {tendons} Tendons"
                        ));
                    }
                }
            }
        }
        s.meshes.push((image, verts_of[idx], tris, skinned));
    }
    check_draw_rules(&comps, &mut p);
    // Animations.
    let is_bone =
        |id: u64| (id as usize) < n && matches!(comps[id as usize].type_key, BONE | ROOT_BONE);
    let mut anim: Option<(u64, usize)> = None; // (duration, summary index)
    let mut have_object = false;
    let mut have_property = false;
    let mut last_frame: Option<u64> = None;
    // properties keyed so far for the current KeyedObject, and whether it is a RootBone
    let mut keyed_props: Vec<u64> = Vec::new();
    let mut keyed_root = false;
    // the DrawRules the current KeyedObject points at, and whether its property is 121
    let mut keyed_rules: Option<usize> = None;
    let mut id_property = false;
    let mut machines_at = None;
    for (k, r) in recs[j..].iter().enumerate() {
        let at = r.offset;
        match r.type_key {
            MACHINE => {
                machines_at = Some(j + k);
                break;
            }
            ANIMATION => {
                let (fps, dur, lp) = (
                    r.uint(56).unwrap_or(60),
                    r.uint(57).unwrap_or(60),
                    r.uint(59).unwrap_or(0),
                );
                s.animations.push((text(r, 55), fps, dur, lp, 0, 0));
                anim = Some((dur, s.animations.len() - 1));
                have_object = false;
                keyed_props.clear();
                have_property = false;
            }
            KEYED_OBJECT => {
                let Some((_, a)) = anim else {
                    p.push(format!(
                        "KeyedObject at byte {at} without a LinearAnimation"
                    ));
                    continue;
                };
                s.animations[a].4 += 1;
                have_object = true;
                have_property = false;
                keyed_props.clear();
                keyed_root = false;
                keyed_rules = None;
                match r.uint(51) {
                    Some(id) if is_bone(id) => {
                        keyed_root = comps[id as usize].type_key == ROOT_BONE;
                    }
                    Some(id) if (id as usize) < n && comps[id as usize].type_key == DRAW_RULES => {
                        keyed_rules = Some(id as usize);
                    }
                    other => p.push(format!(
                        "KeyedObject at byte {at}: objectId {other:?} is not a bone or a DrawRules"
                    )),
                }
            }
            KEYED_PROPERTY => {
                if !have_object {
                    p.push(format!("KeyedProperty at byte {at} without a KeyedObject"));
                }
                have_property = true;
                last_frame = None;
                id_property = r.uint(53) == Some(121);
                match r.uint(53) {
                    Some(121) if keyed_rules.is_some() => {}
                    Some(121) => p.push(format!(
                        "KeyedProperty at byte {at}: propertyKey 121 (drawTargetId) keys an object that is not a DrawRules (the runtime drops it)"
                    )),
                    Some(_) if keyed_rules.is_some() => p.push(format!(
                        "KeyedProperty at byte {at}: a DrawRules can only be keyed on 121 (drawTargetId)"
                    )),
                    Some(15) => {}
                    Some(90 | 91) if keyed_root => {}
                    Some(k @ (90 | 91)) => p.push(format!(
                        "KeyedProperty at byte {at}: propertyKey {k} (RootBone x/y) keys an object that is not a RootBone"
                    )),
                    other => p.push(format!(
                        "KeyedProperty at byte {at}: propertyKey {other:?} is not 15 (rotation) or 90/91 (RootBone x/y)"
                    )),
                }
                if let Some(k) = r.uint(53) {
                    if keyed_props.contains(&k) {
                        p.push(format!(
                            "KeyedProperty at byte {at}: propertyKey {k} keyed twice for one object"
                        ));
                    }
                    keyed_props.push(k);
                }
            }
            KEY_FRAME_ID => {
                if !have_property || !id_property {
                    p.push(format!(
                        "KeyFrameId at byte {at} is not under a KeyedProperty 121"
                    ));
                    continue;
                }
                key_frame("KeyFrameId", at, r, anim, &mut s, &mut last_frame, &mut p);
                let value = r.uint(122).unwrap_or(NO_TARGET);
                let own = keyed_rules.is_some_and(|k| {
                    (value as usize) < n
                        && comps[value as usize].type_key == DRAW_TARGET
                        && comps[value as usize].uint(5) == Some(k as u64)
                });
                if value != NO_TARGET && !own {
                    p.push(format!(
                        "KeyFrameId at byte {at}: value {value} is not a DrawTarget of the keyed DrawRules (no order change)"
                    ));
                }
            }
            KEY_FRAME if id_property => p.push(format!(
                "KeyFrameDouble at byte {at} under a KeyedProperty 121 (an id property takes KeyFrameId)"
            )),
            KEY_FRAME => {
                if !have_property {
                    p.push(format!(
                        "KeyFrameDouble at byte {at} without a KeyedProperty"
                    ));
                    continue;
                }
                key_frame("KeyFrameDouble", at, r, anim, &mut s, &mut last_frame, &mut p);
                if !matches!(r.field(70), Some(Field::Float(v)) if v.is_finite()) {
                    p.push(format!("KeyFrameDouble at byte {at}: no finite value"));
                }
            }
            t => p.push(format!(
                "{} at byte {at}: unexpected after the artboard's components",
                type_name(t)
            )),
        }
    }
    let machine_count = match machines_at {
        Some(m) => check_machines(&recs[m..], s.animations.len() as u64, &mut p),
        None => 0,
    };
    if let Some(d) = ab.uint(236)
        && d >= machine_count
    {
        p.push(format!(
            "Artboard: defaultStateMachineId {d} is not below the state-machine count {machine_count}"
        ));
    }
    Report {
        problem_count: p.count(),
        problems: p.finish(),
        summary: s,
        contents: super::contents::contents(f),
    }
}

/// State machines (§11.4): every record attaches to its owner by stream
/// order; inputs before layers; per layer exactly one Entry, Any and Exit,
/// the Entry with a transition; stateToId below the layer's state count;
/// animation ids below the clip count; condition and blend inputs in range
/// and of the right kind; blend thresholds ascending. Returns the number
/// of machines.
fn check_machines(recs: &[Record], clips: u64, p: &mut Problems) -> u64 {
    let mut machines = 0u64;
    // current machine's inputs (type keys), current layer's states and pending stateToIds
    let mut inputs: Vec<u64> = Vec::new();
    let mut states: Vec<u64> = Vec::new();
    let mut targets: Vec<(usize, u64)> = Vec::new();
    let mut in_layer = false;
    let mut entry_transitions = 0;
    let mut have_transition = false;
    let mut last_threshold: Option<f32> = None;
    let finish_layer = |states: &Vec<u64>,
                        targets: &Vec<(usize, u64)>,
                        entry_t: usize,
                        p: &mut Problems| {
        for kind in [ENTRY, ANY, EXIT] {
            let n = states.iter().filter(|&&t| t == kind).count();
            if n != 1 {
                p.push(format!(
                    "a layer has {n} {} (exactly one needed)",
                    type_name(kind)
                ));
            }
        }
        if states.contains(&ENTRY) && entry_t == 0 {
            p.push("a layer's EntryState has no transition (the layer never leaves it)".into());
        }
        for &(at, to) in targets {
            if to >= states.len() as u64 {
                p.push(format!(
                    "StateTransition at byte {at}: stateToId {to} is not below the layer's {} states (the file fails to load)",
                    states.len()
                ));
            }
        }
    };
    for r in recs {
        let at = r.offset;
        let t = r.type_key;
        match t {
            MACHINE => {
                if in_layer {
                    finish_layer(&states, &targets, entry_transitions, p);
                }
                machines += 1;
                inputs.clear();
                states.clear();
                targets.clear();
                in_layer = false;
                have_transition = false;
            }
            NUMBER | TRIGGER => {
                if in_layer {
                    p.push(format!(
                        "{} at byte {at}: an input after a layer",
                        type_name(t)
                    ));
                }
                if text(r, 138).is_empty() {
                    p.push(format!("{} at byte {at}: no name (138)", type_name(t)));
                }
                inputs.push(t);
            }
            LAYER => {
                if in_layer {
                    finish_layer(&states, &targets, entry_transitions, p);
                }
                in_layer = true;
                states.clear();
                targets.clear();
                entry_transitions = 0;
                have_transition = false;
            }
            ENTRY | ANY | EXIT | ANIM_STATE | BLEND_1D => {
                if !in_layer {
                    p.push(format!("{} at byte {at} without a layer", type_name(t)));
                    continue;
                }
                states.push(t);
                have_transition = false;
                last_threshold = None;
                if t == ANIM_STATE && r.uint(149).is_none_or(|a| a >= clips) {
                    p.push(format!(
                        "AnimationState at byte {at}: animationId {:?} is not below the clip count {clips}",
                        r.uint(149)
                    ));
                }
                if t == BLEND_1D {
                    match r.uint(167) {
                        Some(i) if inputs.get(i as usize) == Some(&NUMBER) => {}
                        other => p.push(format!(
                            "BlendState1DInput at byte {at}: inputId {other:?} is not a Number input"
                        )),
                    }
                }
            }
            BLEND_ANIM_1D => {
                if states.last() != Some(&BLEND_1D) {
                    p.push(format!(
                        "BlendAnimation1D at byte {at} does not follow a 1-D blend state"
                    ));
                }
                if r.uint(165).is_none_or(|a| a >= clips) {
                    p.push(format!(
                        "BlendAnimation1D at byte {at}: animationId {:?} is not below the clip count {clips}",
                        r.uint(165)
                    ));
                }
                let v = r.float(166);
                if let (Some(v), Some(l)) = (v, last_threshold)
                    && v <= l
                {
                    p.push(format!(
                        "BlendAnimation1D at byte {at}: threshold {v} does not increase (the runtime never sorts them)"
                    ));
                }
                last_threshold = v.or(last_threshold);
            }
            TRANSITION => {
                let Some(&from) = states.last() else {
                    p.push(format!("StateTransition at byte {at} without a state"));
                    continue;
                };
                if from == ENTRY {
                    entry_transitions += 1;
                }
                let to = r.uint(151).unwrap_or(0);
                // states are indexed in stream order; the Entry state is the one at its index
                if states.get(to as usize) == Some(&ENTRY) {
                    p.push(format!(
                        "StateTransition at byte {at}: it leads into the EntryState (no transition may)"
                    ));
                }
                have_transition = true;
                targets.push((at, to));
            }
            TRIGGER_CONDITION => {
                if !have_transition {
                    p.push(format!(
                        "TransitionTriggerCondition at byte {at} without a transition"
                    ));
                }
                match r.uint(155) {
                    Some(i) if inputs.get(i as usize) == Some(&TRIGGER) => {}
                    other => p.push(format!(
                        "TransitionTriggerCondition at byte {at}: inputId {other:?} is not a Trigger input (the condition is dropped)"
                    )),
                }
            }
            t => p.push(format!(
                "{} at byte {at}: unexpected after the state machines",
                type_name(t)
            )),
        }
    }
    if in_layer {
        finish_layer(&states, &targets, entry_transitions, p);
    }
    machines
}

/// Draw rules (§11.6): a DrawRules' drawTargetId is "no target" or one of its own
/// DrawTargets; a DrawTarget names an Image other than its rules' own, with placement 0 or
/// 1; an Image carries at most one DrawRules; and the targets' dependencies (a target on an
/// Image waits for that Image's rules' targets) have no cycle, which the runtime cannot sort.
fn check_draw_rules(comps: &[&Record], p: &mut Problems) {
    let n = comps.len();
    let image_of = |k: usize| comps[k].uint(5).map(|x| x as usize).filter(|&x| x < n);
    // per Image index: its DrawRules
    let mut rules_of = vec![usize::MAX; n];
    for (k, r) in comps.iter().enumerate() {
        if r.type_key != DRAW_RULES {
            continue;
        }
        let Some(im) = image_of(k) else { continue };
        if rules_of[im] != usize::MAX {
            p.push(format!("Image #{im} has more than one DrawRules"));
        }
        rules_of[im] = k;
        match r.uint(121) {
            None | Some(NO_TARGET) => {}
            Some(t)
                if (t as usize) < n
                    && comps[t as usize].type_key == DRAW_TARGET
                    && comps[t as usize].uint(5) == Some(k as u64) => {}
            Some(t) => p.push(format!(
                "DrawRules #{k}: drawTargetId {t} is not one of its DrawTargets"
            )),
        }
    }
    for (k, r) in comps.iter().enumerate() {
        if r.type_key != DRAW_TARGET {
            continue;
        }
        let own = image_of(k).and_then(image_of);
        match r.uint(119) {
            Some(d) if (d as usize) < n && comps[d as usize].type_key == IMAGE => {
                if Some(d as usize) == own {
                    p.push(format!("DrawTarget #{k} names its own rules' Image"));
                }
            }
            other => p.push(format!(
                "DrawTarget #{k}: drawableId {other:?} is not an Image (the governed Image would not be drawn)"
            )),
        }
        if r.uint(120).is_none_or(|v| v > 1) {
            p.push(format!(
                "DrawTarget #{k}: placementValue {:?} is not 0 (before) or 1 (after)",
                r.uint(120)
            ));
        }
    }
    // cycle: follow, from every rules' Image, the Images its targets name (depth-first,
    // colours: 0 new, 1 on the path, 2 done)
    let mut targets_of: std::collections::HashMap<usize, Vec<usize>> =
        std::collections::HashMap::new();
    for t in comps.iter().filter(|t| t.type_key == DRAW_TARGET) {
        if let (Some(rk), Some(d)) = (t.uint(5), t.uint(119))
            && (d as usize) < n
        {
            targets_of.entry(rk as usize).or_default().push(d as usize);
        }
    }
    let next = |im: usize| -> Vec<usize> {
        match rules_of[im] {
            usize::MAX => Vec::new(),
            rk => targets_of.get(&rk).cloned().unwrap_or_default(),
        }
    };
    let mut colour = vec![0u8; n];
    for start in 0..n {
        if rules_of[start] == usize::MAX || colour[start] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, Vec<usize>)> = vec![(start, next(start))];
        colour[start] = 1;
        while let Some((node, rest)) = stack.last_mut() {
            match rest.pop() {
                Some(d) if colour[d] == 1 => {
                    p.push(format!(
                        "draw rules: the targets of Image #{node} lead back to Image #{d} (a cycle the runtime cannot sort)"
                    ));
                    colour[d] = 2;
                }
                Some(d) if colour[d] == 0 => {
                    colour[d] = 1;
                    let nx = next(d);
                    stack.push((d, nx));
                }
                Some(_) => {}
                None => {
                    colour[*node] = 2;
                    stack.pop();
                }
            }
        }
    }
}

/// Lists of record indices per owner, built in two linear passes.
struct Rows {
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Rows {
    fn row(&self, owner: usize) -> &[u32] {
        &self.items[self.start[owner] as usize..self.start[owner + 1] as usize]
    }
}

fn rows(n: usize, pairs: impl Iterator<Item = (usize, usize)> + Clone) -> Rows {
    let mut start = vec![0u32; n + 1];
    for (o, _) in pairs.clone() {
        start[o + 1] += 1;
    }
    for k in 0..n {
        start[k + 1] += start[k];
    }
    let mut fill = start.clone();
    let mut items = vec![0u32; start[n] as usize];
    for (o, i) in pairs {
        items[fill[o] as usize] = i as u32;
        fill[o] += 1;
    }
    Rows { start, items }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_size_needs_signature_and_ihdr() {
        let mut b = vec![0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];
        b.extend(b"IHDR");
        b.extend(3u32.to_be_bytes());
        b.extend(5u32.to_be_bytes());
        assert_eq!(png_size(&b), Some((3, 5)));
        b[1] = b'X';
        assert_eq!(png_size(&b), None);
    }

    #[test]
    fn empty_and_garbage_are_reported_not_panicking() {
        let r = check_bytes(b"", &Limits::DEFAULT);
        assert!(!r.ok());
        let r = check_bytes(&[0x52, 0x49, 0x56, 0x45, 7, 3, 0, 0], &Limits::DEFAULT);
        assert!(r.problems[0].contains("Backboard"), "{:?}", r.problems);
        let r = check_bytes(
            &[0x52, 0x49, 0x56, 0x45, 6, 3, 0, 0, 23, 0, 1, 0],
            &Limits::DEFAULT,
        );
        assert!(r.problems.iter().any(|m| m.contains("major version 6")));
    }
}
