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
    let mut local: Vec<f64> = model.bones.iter().map(|b| b.angle).collect();
    let Some(name) = clip else {
        return Ok(local);
    };
    let c = find_clip(model, name)?;
    let time = clip_time(c, t, fps);
    for tr in &c.tracks {
        local[tr.bone] = model.bones[tr.bone].angle + sample(&tr.keys, time, fps, c.step);
    }
    Ok(local)
}

/// Per bone (canonical order): the root translation `[dx, dy]` of `clip`
/// at time `t` (zero for bones without one), sampled like [`pose_at`].
pub fn moved_at(
    model: &Model,
    clip: Option<&str>,
    t: f64,
    fps: u32,
) -> Result<Vec<[f64; 2]>, RivError> {
    let mut out = vec![[0.0, 0.0]; model.bones.len()];
    let Some(name) = clip else {
        return Ok(out);
    };
    let c = find_clip(model, name)?;
    let time = clip_time(c, t, fps);
    for tr in &c.translations {
        let xs: Vec<(f64, f64)> = tr.keys.iter().map(|k| (k.0, k.1)).collect();
        let ys: Vec<(f64, f64)> = tr.keys.iter().map(|k| (k.0, k.2)).collect();
        out[tr.bone] = [
            sample(&xs, time, fps, c.step),
            sample(&ys, time, fps, c.step),
        ];
    }
    Ok(out)
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

/// Fills one textured triangle into the premultiplied canvas.
fn fill(
    canvas: &mut [[f32; 4]],
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
    super::export::check_offset(o.offset)?;
    let frame = model.frame(o.artboard, o.offset);
    let (w, h) = (frame.width as usize, frame.height as usize);
    if w == 0 || h == 0 {
        return err(
            Code::Option,
            format!(
                "artboard {}x{} is empty (width and height must be at least 1)",
                frame.width, frame.height
            ),
        );
    }
    if frame.width > limits.png_max_side
        || frame.height > limits.png_max_side
        || (w as u64) * (h as u64) * 4 > limits.png_max_bytes
    {
        return err(
            Code::Option,
            format!(
                "artboard {}x{} exceeds the image limits ({} px side, {} bytes; limit png-max-side / png-max-bytes, see --limit)",
                frame.width, frame.height, limits.png_max_side, limits.png_max_bytes
            ),
        );
    }
    // Every buffer the render holds counts against png-max-bytes, checked
    // before any is allocated: the f32 canvas (16 B/px) and the RGBA8 result
    // (4 B/px), each texture as f32 (16 B/texel) plus the RGBA8 decode of
    // the largest one (4 B/texel).
    let texels: Vec<u64> = model
        .textures
        .iter()
        .map(|t| t.width as u64 * t.height as u64)
        .collect();
    let need = 20 * (w as u64) * (h as u64)
        + 16 * texels.iter().sum::<u64>()
        + 4 * texels.iter().copied().max().unwrap_or(0);
    if need > limits.png_max_bytes {
        return err(
            Code::Option,
            format!(
                "rendering {}x{} with {} texture(s) needs {need} bytes of buffers, more than {} (limit png-max-bytes, see --limit)",
                frame.width,
                frame.height,
                texels.len(),
                limits.png_max_bytes
            ),
        );
    }
    let only = match &o.only_part {
        Some(n) => match model.parts.iter().position(|p| &p.name == n) {
            Some(i) => Some(i),
            None => return err(Code::Part, format!("unknown part '{n}'")),
        },
        None => None,
    };
    let local = pose_at(model, o.clip.as_deref(), o.time, o.fps)?;
    let moved = moved_at(model, o.clip.as_deref(), o.time, o.fps)?;
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
    let mut canvas = vec![[0f32; 4]; w * h];
    // the clip's draw-order key at that time (issue 42), else the default order
    let clip = match &o.clip {
        Some(n) => Some(find_clip(model, n)?),
        None => None,
    };
    let time = clip.map_or(0.0, |c| clip_time(c, o.time, o.fps));
    let mut order = super::draworder::order_at(model, clip, time, o.fps);
    order.reverse(); // far to near
    for pi in order {
        if only.is_some_and(|o| o != pi) {
            continue;
        }
        let part = &model.parts[pi];
        let tex = part.texture.map_or(&white, |t| &texs[t]);
        let pts = deform(model, pi, &pose, &rest, &frame);
        for t in part.tris.chunks_exact(3) {
            let (a, b, c) = (t[0] as usize, t[1] as usize, t[2] as usize);
            fill(
                &mut canvas,
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
    Ok(RgbaImage {
        data,
        width: frame.width,
        height: frame.height,
    })
}
