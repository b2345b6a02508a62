//! The reference renderer (rive-export.md §10.2): renders the **input
//! model**, never the `.riv`, so the runtime's pixels are judged against an
//! independent prediction.
//!
//! Stages: [`pose_at`] and [`moved_at`] (clip rotations and root
//! translations sampled at the export fps, keys at their quantised times,
//! loop/one-shot time handling of the runtime) →
//! [`deform`] (linear blend skinning of §7 with the §8.1 offset) →
//! [`render`] (parts far to near in the clip's draw-order key at that time
//! (issue 42) or the default order, bilinear texture sampling, "over"
//! compositing, pixel centres with the top-left fill rule, no
//! anti-aliasing, transparent canvas of the artboard size).
//!
//! A pose may mix clips ([`pose_layers`], issue 47): each clip applied in
//! order sets the bones it keys and leaves the rest, the rule of the
//! `.riv`'s state-machine layers (rive-export.md §11.4). [`render_scene`]
//! renders such a pose, optionally into a [`View`] (a window of the
//! artboard at a scale) and with the posed [silhouette](Rendered::silhouette)
//! (every pixel some part's texel covers with alpha > 0).

use super::error::{Code, RivError, err};
use super::export::{duration_frames, key_frames};
use super::model::{Clip, Frame, Model, World};
use re2d::limits::Limits;
use re2d::png_io::RgbaImage;

/// What to render.
#[derive(Clone, Debug, PartialEq)]
pub struct RefOptions {
    /// Clip to sample (`None`: the rest pose).
    pub clip: Option<String>,
    /// Clip time in seconds.
    pub time: f64,
    /// Export fps (key times are quantised to it).
    pub fps: u32,
    /// Artboard size override (as for the export).
    pub artboard: Option<(u32, u32)>,
    /// Offset override (as for the export).
    pub offset: Option<(f64, f64)>,
    /// Render only the part with this name (coverage masks).
    pub only_part: Option<String>,
}

impl Default for RefOptions {
    fn default() -> Self {
        RefOptions {
            clip: None,
            time: 0.0,
            fps: 60,
            artboard: None,
            offset: None,
            only_part: None,
        }
    }
}

/// The clip time the runtime shows at `t` seconds: keys at `frame/fps`,
/// the clip's duration in whole frames, a looping clip wrapping at its end
/// (`t mod duration`) and a one-shot clip holding its last frame, as the
/// runtime's animation instance does.
fn clip_time(c: &Clip, t: f64, fps: u32) -> f64 {
    let fpsf = fps as f64;
    let dur = duration_frames(c.duration, fps) as f64;
    let mut frames = t * fpsf;
    if c.looping {
        if dur > 0.0 && frames >= dur {
            frames %= dur;
        }
    } else if frames > dur {
        frames = dur;
    }
    frames / fpsf
}

/// The value of keys `(time, value)` at `time` (keys at their quantised
/// times): the first value before the first key, the last after the last,
/// hold or linear in between.
fn sample(keys: &[(f64, f64)], time: f64, fps: u32, step: bool) -> f64 {
    let fpsf = fps as f64;
    let times: Vec<f64> = key_frames(keys, fps)
        .into_iter()
        .map(|f| f as f64 / fpsf)
        .collect();
    let n = keys.len();
    if time <= times[0] {
        keys[0].1
    } else if time >= times[n - 1] {
        keys[n - 1].1
    } else {
        let k = times.iter().rposition(|&x| x <= time).unwrap_or(0);
        if step || times[k + 1] <= times[k] {
            keys[k].1
        } else {
            let f = (time - times[k]) / (times[k + 1] - times[k]);
            keys[k].1 + (keys[k + 1].1 - keys[k].1) * f
        }
    }
}

fn find_clip<'a>(model: &'a Model, name: &str) -> Result<&'a Clip, RivError> {
    match model.clip(name) {
        Some(c) => Ok(c),
        None => err(Code::Clip, format!("unknown clip '{name}'")),
    }
}

/// Local bone angles (rest angle + track value) of `clip` at time `t`:
/// keys at `frame/fps`, the clip's duration in whole frames, a looping clip
/// wrapping at its end (`t mod duration`) and a one-shot clip holding its
/// last frame, as the runtime's animation instance does.
pub fn pose_at(model: &Model, clip: Option<&str>, t: f64, fps: u32) -> Result<Vec<f64>, RivError> {
    clip_pose(model, clip, t, fps).map(|(local, _)| local)
}

/// Per bone (canonical order): the root translation `[dx, dy]` of `clip`
/// at time `t` (zero for bones without one), sampled like [`pose_at`].
pub fn moved_at(
    model: &Model,
    clip: Option<&str>,
    t: f64,
    fps: u32,
) -> Result<Vec<[f64; 2]>, RivError> {
    clip_pose(model, clip, t, fps).map(|(_, moved)| moved)
}

/// [`pose_at`] and [`moved_at`] together: one clip over the rest pose (none: the rest pose).
pub fn clip_pose(
    model: &Model,
    clip: Option<&str>,
    t: f64,
    fps: u32,
) -> Result<(Vec<f64>, Vec<[f64; 2]>), RivError> {
    let mut local: Vec<f64> = model.bones.iter().map(|b| b.angle).collect();
    let mut moved = vec![[0.0, 0.0]; model.bones.len()];
    if let Some(name) = clip {
        apply(
            model,
            find_clip(model, name)?,
            t,
            fps,
            &mut local,
            &mut moved,
        );
    }
    Ok((local, moved))
}

/// Clip `c` at time `t` applied over a pose: every bone it keys takes the
/// clip's angle (rest + track) and every root it translates the clip's
/// offset; the others keep their values.
fn apply(model: &Model, c: &Clip, t: f64, fps: u32, local: &mut [f64], moved: &mut [[f64; 2]]) {
    let time = clip_time(c, t, fps);
    for tr in &c.tracks {
        local[tr.bone] = model.bones[tr.bone].angle + sample(&tr.keys, time, fps, c.step);
    }
    for tr in &c.translations {
        let xs: Vec<(f64, f64)> = tr.keys.iter().map(|k| (k.0, k.1)).collect();
        let ys: Vec<(f64, f64)> = tr.keys.iter().map(|k| (k.0, k.2)).collect();
        moved[tr.bone] = [
            sample(&xs, time, fps, c.step),
            sample(&ys, time, fps, c.step),
        ];
    }
}

/// Local angles and root translations of `layers` — `(clip, time)` pairs —
/// applied in order over the rest pose (empty: the rest pose): a later clip
/// overrides an earlier one on the bones (and roots) it keys, as a later
/// state-machine layer does in the runtime (rive-export.md §11.4), and
/// leaves the others as the layers before it set them.
pub fn pose_layers(
    model: &Model,
    layers: &[(String, f64)],
    fps: u32,
) -> Result<(Vec<f64>, Vec<[f64; 2]>), RivError> {
    let mut local: Vec<f64> = model.bones.iter().map(|b| b.angle).collect();
    let mut moved = vec![[0.0, 0.0]; model.bones.len()];
    for (name, t) in layers {
        apply(
            model,
            find_clip(model, name)?,
            *t,
            fps,
            &mut local,
            &mut moved,
        );
    }
    Ok((local, moved))
}

/// Deformed vertex positions of part `pi` (artboard space, offset applied):
/// `v' = Σ (wᵢ/W)·(Pose_bᵢ·Rest_bᵢ⁻¹)·v`, or `v` when `W ≤ 1e-4`.
pub fn deform(
    model: &Model,
    pi: usize,
    pose: &[World],
    rest: &[World],
    frame: &Frame,
) -> Vec<[f64; 2]> {
    let part = &model.parts[pi];
    part.verts
        .iter()
        .zip(&part.weights)
        .map(|(v, pairs)| {
            let (x, y) = (v[0] + frame.ox, v[1] + frame.oy);
            let total: f64 = pairs.iter().map(|p| p.1).sum();
            if total <= 1e-4 {
                return [x, y];
            }
            let (mut dx, mut dy) = (0.0, 0.0);
            for &(b, w) in pairs {
                let (r, p) = (rest[b], pose[b]);
                let (s, c) = (p.angle - r.angle).sin_cos();
                let (lx, ly) = (x - r.x, y - r.y);
                dx += w / total * (c * lx - s * ly + p.x);
                dy += w / total * (s * lx + c * ly + p.y);
            }
            [dx, dy]
        })
        .collect()
}

/// A texture decoded for sampling (premultiplied, 0..1).
struct Tex {
    w: usize,
    h: usize,
    px: Vec<[f32; 4]>,
}

impl Tex {
    fn from_rgba(img: &RgbaImage) -> Tex {
        let px = img
            .data
            .chunks_exact(4)
            .map(|c| {
                let a = c[3] as f32 / 255.0;
                [
                    c[0] as f32 / 255.0 * a,
                    c[1] as f32 / 255.0 * a,
                    c[2] as f32 / 255.0 * a,
                    a,
                ]
            })
            .collect();
        Tex {
            w: img.width as usize,
            h: img.height as usize,
            px,
        }
    }

    /// Bilinear, clamp to edge, texel centres at `(i + 0.5) / size`.
    fn sample(&self, u: f64, v: f64) -> [f32; 4] {
        let x = u * self.w as f64 - 0.5;
        let y = v * self.h as f64 - 0.5;
        let (x0, y0) = (x.floor(), y.floor());
        let (fx, fy) = ((x - x0) as f32, (y - y0) as f32);
        let cl = |i: f64, n: usize| (i.max(0.0) as usize).min(n - 1);
        let (xa, xb) = (cl(x0, self.w), cl(x0 + 1.0, self.w));
        let (ya, yb) = (cl(y0, self.h), cl(y0 + 1.0, self.h));
        let at = |x: usize, y: usize| self.px[y * self.w + x];
        let (p00, p10, p01, p11) = (at(xa, ya), at(xb, ya), at(xa, yb), at(xb, yb));
        let mut o = [0f32; 4];
        for k in 0..4 {
            let top = p00[k] + (p10[k] - p00[k]) * fx;
            let bot = p01[k] + (p11[k] - p01[k]) * fx;
            o[k] = top + (bot - top) * fy;
        }
        o
    }
}

fn edge(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// Top-left rule for the positive orientation of [`edge`] with y down.
fn top_left(a: [f64; 2], b: [f64; 2]) -> bool {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    dy < 0.0 || (dy == 0.0 && dx > 0.0)
}

/// Per pixel: how many parts drew a texel of alpha > 0 there (saturating),
/// and the last part that did (its index + 1), so a part counts once.
struct Cover {
    count: Vec<u8>,
    last: Vec<u32>,
    part: u32,
}

/// Fills one textured triangle into the premultiplied canvas; `cover`
/// (when given) counts the part at every pixel where the texel drawn has
/// alpha > 0.
fn fill(
    canvas: &mut [[f32; 4]],
    mut cover: Option<&mut Cover>,
    w: usize,
    h: usize,
    p: [[f64; 2]; 3],
    uv: [[f64; 2]; 3],
    tex: &Tex,
) {
    let mut p = p;
    let mut uv = uv;
    let mut area = edge(p[0], p[1], p[2]);
    if !area.is_finite() || area == 0.0 {
        return;
    }
    if area < 0.0 {
        p.swap(1, 2);
        uv.swap(1, 2);
        area = -area;
    }
    let minx = p.iter().map(|q| q[0]).fold(f64::INFINITY, f64::min);
    let maxx = p.iter().map(|q| q[0]).fold(-f64::INFINITY, f64::max);
    let miny = p.iter().map(|q| q[1]).fold(f64::INFINITY, f64::min);
    let maxy = p.iter().map(|q| q[1]).fold(-f64::INFINITY, f64::max);
    let x0 = (minx - 0.5).floor().max(0.0) as usize;
    let y0 = (miny - 0.5).floor().max(0.0) as usize;
    let x1 = ((maxx - 0.5).ceil().max(-1.0) + 1.0).min(w as f64) as usize;
    let y1 = ((maxy - 0.5).ceil().max(-1.0) + 1.0).min(h as f64) as usize;
    let tl = [
        top_left(p[1], p[2]),
        top_left(p[2], p[0]),
        top_left(p[0], p[1]),
    ];
    for y in y0..y1 {
        for x in x0..x1 {
            let c = [x as f64 + 0.5, y as f64 + 0.5];
            let e = [
                edge(p[1], p[2], c),
                edge(p[2], p[0], c),
                edge(p[0], p[1], c),
            ];
            if (0..3).any(|i| e[i] < 0.0 || (e[i] == 0.0 && !tl[i])) {
                continue;
            }
            let l = [e[0] / area, e[1] / area, e[2] / area];
            let u = l[0] * uv[0][0] + l[1] * uv[1][0] + l[2] * uv[2][0];
            let v = l[0] * uv[0][1] + l[1] * uv[1][1] + l[2] * uv[2][1];
            let s = tex.sample(u, v);
            let d = &mut canvas[y * w + x];
            let ia = 1.0 - s[3];
            for k in 0..4 {
                d[k] = s[k] + d[k] * ia;
            }
            if s[3] > 0.0
                && let Some(c) = cover.as_deref_mut()
                && c.last[y * w + x] != c.part
            {
                c.last[y * w + x] = c.part;
                c.count[y * w + x] = c.count[y * w + x].saturating_add(1);
            }
        }
    }
}

/// Renders the model at `o.time` of `o.clip` (§10.2) into a straight-alpha
/// RGBA8 image of the artboard size.
pub fn render(model: &Model, o: &RefOptions, limits: &Limits) -> Result<RgbaImage, RivError> {
    if o.fps == 0 {
        return err(Code::Option, "--fps must be at least 1");
    }
    if !o.time.is_finite() || o.time < 0.0 {
        return err(Code::Option, "--time must be a finite number >= 0");
    }
    let scene = Scene {
        layers: o.clip.iter().map(|c| (c.clone(), o.time)).collect(),
        fps: o.fps,
        artboard: o.artboard,
        offset: o.offset,
        view: None,
        only_part: o.only_part.clone(),
        silhouette: false,
    };
    render_scene(model, &scene, limits).map(|r| r.image)
}

/// A window of the artboard rendered at a scale: canvas pixel `(cx, cy)`
/// shows artboard point `(x + cx / scale, y + cy / scale)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// Artboard x of the canvas's left edge.
    pub x: f64,
    /// Artboard y of the canvas's top edge.
    pub y: f64,
    /// Canvas pixels per artboard pixel (> 0).
    pub scale: f64,
    /// Canvas width.
    pub width: u32,
    /// Canvas height.
    pub height: u32,
}

/// What [`render_scene`] renders.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// The pose: `(clip, time)` layers applied in order over the rest pose
    /// ([`pose_layers`]; empty: the rest pose).
    pub layers: Vec<(String, f64)>,
    /// Export fps (key times are quantised to it).
    pub fps: u32,
    /// Artboard size override (as for the export).
    pub artboard: Option<(u32, u32)>,
    /// Offset override (as for the export).
    pub offset: Option<(f64, f64)>,
    /// The window rendered (`None`: the whole artboard at scale 1).
    pub view: Option<View>,
    /// Render only the part with this name (coverage masks).
    pub only_part: Option<String>,
    /// Also return the silhouette.
    pub silhouette: bool,
}

impl Default for Scene {
    fn default() -> Self {
        Scene {
            layers: Vec::new(),
            fps: 60,
            artboard: None,
            offset: None,
            view: None,
            only_part: None,
            silhouette: false,
        }
    }
}

/// A rendered scene.
#[derive(Clone, Debug, PartialEq)]
pub struct Rendered {
    /// Straight-alpha RGBA8.
    pub image: RgbaImage,
    /// With [`Scene::silhouette`]: per pixel (row-major), how many parts
    /// drew a texel of alpha > 0 there (at most 255). The posed silhouette
    /// is where it is at least 1 (gaps between parts included), the joins
    /// between parts where it is at least 2.
    pub silhouette: Option<Vec<u8>>,
}

/// Checks a scene's options and the render's buffers against the limits
/// before anything is allocated; returns the artboard frame and the canvas
/// size.
pub fn check_buffers(
    model: &Model,
    sc: &Scene,
    limits: &Limits,
) -> Result<(Frame, usize, usize), RivError> {
    if sc.fps == 0 {
        return err(Code::Option, "--fps must be at least 1");
    }
    if sc.layers.iter().any(|(_, t)| !t.is_finite() || *t < 0.0) {
        return err(Code::Option, "--time must be a finite number >= 0");
    }
    super::export::check_offset(sc.offset)?;
    let frame = model.frame(sc.artboard, sc.offset);
    let (cw, ch) = match sc.view {
        Some(v) => {
            if !(v.scale.is_finite() && v.scale > 0.0 && v.x.is_finite() && v.y.is_finite()) {
                return err(
                    Code::Option,
                    "the view's scale must be a finite number > 0 at a finite corner",
                );
            }
            (v.width, v.height)
        }
        None => (frame.width, frame.height),
    };
    let (w, h) = (cw as usize, ch as usize);
    if w == 0 || h == 0 {
        return err(
            Code::Option,
            format!("artboard {cw}x{ch} is empty (width and height must be at least 1)"),
        );
    }
    if cw > limits.png_max_side
        || ch > limits.png_max_side
        || (w as u64) * (h as u64) * 4 > limits.png_max_bytes
    {
        return err(
            Code::Option,
            format!(
                "artboard {cw}x{ch} exceeds the image limits ({} px side, {} bytes; limit png-max-side / png-max-bytes, see --limit)",
                limits.png_max_side, limits.png_max_bytes
            ),
        );
    }
    // Every buffer the render holds counts against png-max-bytes, checked
    // before any is allocated: the f32 canvas (16 B/px), the RGBA8 result
    // (4 B/px) and the silhouette (5 B/px: a count and a part), each texture as f32
    // (16 B/texel) plus the RGBA8 decode of the largest one (4 B/texel).
    let texels: Vec<u64> = model
        .textures
        .iter()
        .map(|t| t.width as u64 * t.height as u64)
        .collect();
    let per_px = if sc.silhouette { 25 } else { 20 };
    let need = per_px * (w as u64) * (h as u64)
        + 16 * texels.iter().sum::<u64>()
        + 4 * texels.iter().copied().max().unwrap_or(0);
    if need > limits.png_max_bytes {
        return err(
            Code::Option,
            format!(
                "rendering {cw}x{ch} with {} texture(s) needs {need} bytes of buffers, more than {} (limit png-max-bytes, see --limit)",
                texels.len(),
                limits.png_max_bytes
            ),
        );
    }
    Ok((frame, w, h))
}

/// Renders a [`Scene`] (§10.2 rules): the pose of its layers, every part far
/// to near, into the artboard or the scene's [`View`].
pub fn render_scene(model: &Model, sc: &Scene, limits: &Limits) -> Result<Rendered, RivError> {
    let (frame, w, h) = check_buffers(model, sc, limits)?;
    let only = match &sc.only_part {
        Some(n) => match model.parts.iter().position(|p| &p.name == n) {
            Some(i) => Some(i),
            None => return err(Code::Part, format!("unknown part '{n}'")),
        },
        None => None,
    };
    let (local, moved) = pose_layers(model, &sc.layers, sc.fps)?;
    let pose = model.world_moved(&local, &moved, frame.ox, frame.oy);
    let rest_local: Vec<f64> = model.bones.iter().map(|b| b.angle).collect();
    let rest = model.world(&rest_local, frame.ox, frame.oy);
    let mut texs: Vec<Tex> = Vec::with_capacity(model.textures.len());
    for t in &model.textures {
        if (t.width as u64) * (t.height as u64) * 4 > limits.png_max_bytes {
            return err(
                Code::Texture,
                format!("texture '{}' exceeds the PNG byte limit", t.name),
            );
        }
        let img = re2d::png_io::decode_rgba(std::io::Cursor::new(&t.png))
            .map_err(|e| RivError::new(Code::Texture, format!("texture '{}': {e}", t.name)))?;
        texs.push(Tex::from_rgba(&img));
    }
    let white = Tex {
        w: 1,
        h: 1,
        px: vec![[1.0; 4]],
    };
    let to_canvas = |p: [f64; 2]| match sc.view {
        Some(v) => [(p[0] - v.x) * v.scale, (p[1] - v.y) * v.scale],
        None => p,
    };
    let mut canvas = vec![[0f32; 4]; w * h];
    let mut cover = sc.silhouette.then(|| Cover {
        count: vec![0; w * h],
        last: vec![0; w * h],
        part: 0,
    });
    // the draw-order key at that time of the last layer whose clip has keys (issue 42), else
    // the default order
    let mut keyed = None;
    for (n, t) in &sc.layers {
        let c = find_clip(model, n)?;
        if !c.draw_order.is_empty() {
            keyed = Some((c, *t));
        }
    }
    let time = keyed.map_or(0.0, |(c, t)| clip_time(c, t, sc.fps));
    let mut order = super::draworder::order_at(model, keyed.map(|(c, _)| c), time, sc.fps);
    order.reverse(); // far to near
    for pi in order {
        if only.is_some_and(|o| o != pi) {
            continue;
        }
        let part = &model.parts[pi];
        if let Some(c) = cover.as_mut() {
            c.part = pi as u32 + 1;
        }
        let tex = part.texture.map_or(&white, |t| &texs[t]);
        let pts: Vec<[f64; 2]> = deform(model, pi, &pose, &rest, &frame)
            .into_iter()
            .map(to_canvas)
            .collect();
        for t in part.tris.chunks_exact(3) {
            let (a, b, c) = (t[0] as usize, t[1] as usize, t[2] as usize);
            fill(
                &mut canvas,
                cover.as_mut(),
                w,
                h,
                [pts[a], pts[b], pts[c]],
                [part.uv[a], part.uv[b], part.uv[c]],
                tex,
            );
        }
    }
    let mut data = Vec::with_capacity(w * h * 4);
    for px in &canvas {
        let a = px[3].clamp(0.0, 1.0);
        if a <= 0.0 {
            data.extend_from_slice(&[0, 0, 0, 0]);
            continue;
        }
        for k in 0..3 {
            data.push(((px[k] / a).clamp(0.0, 1.0) * 255.0).round() as u8);
        }
        data.push((a * 255.0).round() as u8);
    }
    Ok(Rendered {
        image: RgbaImage {
            data,
            width: w as u32,
            height: h as u32,
        },
        silhouette: cover.map(|c| c.count),
    })
}
