//! The contact sheet (`sheet.png`): drawing, ownership map, reassembly, its difference, hidden
//! fill, meshes; the walk frames; and eight frames of each of the first two other clips
//! whose draw order changes (issue 42), each framed in orange where its order is not the
//! declaration's.

use crate::RigError;
use crate::cut::verify::Verification;
use crate::skin::mesh::{self, Canvas, PartMesh};
use re2d_riv::{self as riv, Model};

use super::model::page_name;
use super::{Input, Meshed, PNG_LEVEL, SHEET_FRAMES, SHEET_SCALE, Sliced};

pub(super) fn downscale(rgba: &[u8], w: usize, h: usize, bg: [u8; 3]) -> (Vec<u8>, usize, usize) {
    downscale_with(w, h, bg, |i| {
        let p = &rgba[i * 4..i * 4 + 4];
        [p[0], p[1], p[2], p[3]]
    })
}

/// [`downscale`] of the image whose pixel `i` is `px(i)` (no full-size copy).
pub(super) fn downscale_with(
    w: usize,
    h: usize,
    bg: [u8; 3],
    px: impl Fn(usize) -> [u8; 4],
) -> (Vec<u8>, usize, usize) {
    let f = SHEET_SCALE;
    let (tw, th) = (w.div_ceil(f), h.div_ceil(f));
    let mut out = vec![0u8; tw * th * 4];
    for ty in 0..th {
        for tx in 0..tw {
            let mut acc = [0u32; 3];
            let mut n = 0u32;
            for y in ty * f..((ty + 1) * f).min(h) {
                for x in tx * f..((tx + 1) * f).min(w) {
                    let p = px(y * w + x);
                    match p[3] {
                        255 => (0..3).for_each(|k| acc[k] += p[k] as u32),
                        0 => (0..3).for_each(|k| acc[k] += bg[k] as u32),
                        a => {
                            let a = a as u32;
                            for k in 0..3 {
                                acc[k] += (p[k] as u32 * a + bg[k] as u32 * (255 - a)) / 255;
                            }
                        }
                    }
                    n += 1;
                }
            }
            let o = &mut out[(ty * tw + tx) * 4..][..4];
            for k in 0..3 {
                o[k] = (acc[k] / n.max(1)) as u8;
            }
            o[3] = 255;
        }
    }
    (out, tw, th)
}

pub(super) fn palette(l: u8) -> [u8; 4] {
    if l == 0 {
        return [40, 40, 40, 255];
    }
    let h = (l as u32).wrapping_mul(2_654_435_761);
    [
        64 + (h >> 8 & 0xbf) as u8,
        64 + (h >> 16 & 0xbf) as u8,
        64 + (h >> 24 & 0xbf) as u8,
        255,
    ]
}

pub(super) fn line(img: &mut [u8], w: usize, h: usize, a: [f64; 2], b: [f64; 2], c: [u8; 4]) {
    let n = (b[0] - a[0]).abs().max((b[1] - a[1]).abs()).ceil().max(1.0) as usize;
    for i in 0..=n {
        let t = i as f64 / n as f64;
        let (x, y) = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t);
        if x >= 0.0 && y >= 0.0 && (x as usize) < w && (y as usize) < h {
            img[(y as usize * w + x as usize) * 4..][..4].copy_from_slice(&c);
        }
    }
}

/// The six still panels of the sheet (drawing, ownership, reassembly,
/// difference, hidden fill, meshes), each `tw × th`.
pub(super) fn panels(
    input: &Input,
    s: &Sliced,
    v: &Verification,
    m: &Meshed,
) -> (Vec<Vec<u8>>, usize, usize) {
    let (w, h) = (input.image.width as usize, input.image.height as usize);
    let grey = [48, 48, 48];
    let mut panels: Vec<Vec<u8>> = Vec::new();
    let (drawing, tw, th) = downscale(&input.image.data, w, h, grey);
    panels.push(drawing);
    // the ownership map; white where a tie-break decided the owner
    let (owner, how, sil) = (&s.sl.owner, &s.sl.how, &s.sil.rgba);
    panels.push(
        downscale_with(w, h, grey, |i| {
            let l = if sil[i * 4 + 3] >= 128 { owner[i] } else { 0 };
            if l > 0 && how[i] == crate::cut::slice::how::TIE {
                [255, 255, 255, 255]
            } else {
                palette(l)
            }
        })
        .0,
    );
    let reassembled = downscale(&v.image, w, h, grey).0;
    panels.push(reassembled.clone());
    let img = &v.image;
    panels.push(
        downscale_with(w, h, grey, |i| {
            // most of a correct reassembly: the drawing's own pixel
            if img[i * 4..i * 4 + 4] == sil[i * 4..i * 4 + 4] {
                return [0, 0, 0, 255];
            }
            let d = (0..3)
                .map(|k| {
                    let a = img[i * 4 + k] as u32 * img[i * 4 + 3] as u32 / 255;
                    let b = sil[i * 4 + k] as u32 * sil[i * 4 + 3] as u32 / 255;
                    a.abs_diff(b)
                })
                .max()
                .unwrap_or(0);
            let a = img[i * 4 + 3].abs_diff(sil[i * 4 + 3]) as u32;
            let g = (d.max(a) * 4).min(255) as u8;
            [g, g, g, 255]
        })
        .0,
    );
    let mut hidden = vec![false; w * h];
    for p in &s.sl.parts {
        for y in 0..p.height {
            for x in 0..p.width {
                if p.hidden[y * p.width + x] == 1 {
                    hidden[(y + p.origin[1]) * w + x + p.origin[0]] = true;
                }
            }
        }
    }
    panels.push(
        downscale_with(w, h, grey, |i| {
            if hidden[i] {
                [255, 0, 255, 255]
            } else {
                let p = &sil[i * 4..i * 4 + 4];
                [p[0] / 3, p[1] / 3, p[2] / 3, p[3]]
            }
        })
        .0,
    );
    drop(hidden);
    let mut meshes = reassembled;
    let f = SHEET_SCALE as f64;
    // each adaptive mesh's every edge (dense only in the blend zones)
    for (k, pm) in m.meshes.iter().enumerate() {
        let c = palette(k as u8 + 1);
        let mut edges: std::collections::HashMap<(u16, u16), u8> = std::collections::HashMap::new();
        for t in pm.tris.chunks_exact(3) {
            for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                *edges.entry((a.min(b), a.max(b))).or_insert(0) += 1;
            }
        }
        for (a, b) in edges.into_keys() {
            let (pa, pb) = (pm.verts[a as usize], pm.verts[b as usize]);
            {
                line(
                    &mut meshes,
                    tw,
                    th,
                    [pa[0] / f, pa[1] / f],
                    [pb[0] / f, pb[1] / f],
                    c,
                );
            }
        }
    }
    panels.push(meshes);
    (panels, tw, th)
}

/// Eight walk frames rendered from the model at 1/[`SHEET_SCALE`].
pub(super) fn walk_frames(
    input: &Input,
    m: &Meshed,
    model: &Model,
    clip: Option<&str>,
    fps: u32,
    (tw, th): (usize, usize),
) -> Result<Vec<Vec<u8>>, RigError> {
    let (w, h) = (input.image.width as usize, input.image.height as usize);
    let grey = [48, 48, 48];
    let f = SHEET_SCALE as f64;
    let mut frames: Vec<Vec<u8>> = Vec::new();
    // the pages as images the rasteriser samples (the frames show what the .riv holds)
    let page_imgs: Vec<crate::cut::slice::PartImage> = m
        .pages
        .pages
        .iter()
        .enumerate()
        .map(|(i, (pw, ph, rgba))| crate::cut::slice::PartImage {
            name: page_name(i),
            bone: 0,
            origin: [0, 0],
            width: *pw,
            height: *ph,
            rgba: rgba.clone(),
            hidden: Vec::new(),
            pivot: [0.0, 0.0],
            area: 0,
            hidden_px: 0,
            filled_px: 0,
            tube_px: 0,
            visible_px: 0,
        })
        .collect();
    if let Some(clip) = clip
        && let Some(c) = model.clip(clip)
    {
        let rest = model.rest();
        let default = riv::draworder::default_order(model);
        let frame = riv::model::Frame {
            width: w as u32,
            height: h as u32,
            ox: 0.0,
            oy: 0.0,
        };
        for i in 0..SHEET_FRAMES {
            let time = c.duration * i as f64 / SHEET_FRAMES as f64;
            let err = |e: riv::RivError| RigError::new("E_RIG_MODEL", e.to_string());
            let (local, moved) =
                riv::reference::clip_pose(model, Some(clip), time, fps).map_err(err)?;
            let pose = model.world_moved(&local, &moved, 0.0, 0.0);
            let mut canvas = Canvas::new([0, 0, tw as i64, th as i64]);
            // far to near in the clip's order at that time (its draw-order keys, issue 42)
            let order = riv::draworder::order_at(model, Some(c), time, fps);
            for &pk in order.iter().rev() {
                let Some(k) = input
                    .sk
                    .bones
                    .iter()
                    .position(|b| b.name == model.parts[pk].name)
                else {
                    continue;
                };
                let pts: Vec<[f64; 2]> = riv::reference::deform(model, pk, &pose, &rest, &frame)
                    .into_iter()
                    .map(|p| [p[0] / f, p[1] / f])
                    .collect();
                let Some(place) = &m.pages.placed[k] else {
                    continue;
                };
                let scaled = PartMesh {
                    step: m.meshes[k].step,
                    verts: Vec::new(),
                    uv: model.parts[pk].uv.clone(),
                    tris: model.parts[pk].tris.clone(),
                };
                mesh::raster(
                    &page_imgs[place.page],
                    &scaled,
                    &pts,
                    &mut canvas,
                    |_, _| {},
                );
            }
            let mut px = canvas.rgba;
            for p in px.chunks_exact_mut(4) {
                let a = p[3] as u32;
                for k in 0..3 {
                    p[k] = ((p[k] as u32 * a + grey[k] as u32 * (255 - a)) / 255) as u8;
                }
                p[3] = 255;
            }
            if order != default {
                border(&mut px, tw, th, [255, 150, 20, 255]);
            }
            frames.push(px);
        }
    }
    Ok(frames)
}

/// A 6-pixel frame of colour `c` around a `w × h` image.
fn border(px: &mut [u8], w: usize, h: usize, c: [u8; 4]) {
    for y in 0..h {
        for x in 0..w {
            if x < 6 || y < 6 || x + 6 >= w || y + 6 >= h {
                px[(y * w + x) * 4..][..4].copy_from_slice(&c);
            }
        }
    }
}

/// The sheet: panels on the first row, walk frames on the second, then a row of frames per
/// clip whose draw order changes (`ordered`).
pub(super) fn assemble(
    panels: &[Vec<u8>],
    frames: &[Vec<u8>],
    ordered: &[Vec<Vec<u8>>],
    tw: usize,
    th: usize,
) -> Result<Vec<u8>, RigError> {
    let cols = SHEET_FRAMES.max(panels.len());
    let mut lists: Vec<&[Vec<u8>]> = vec![panels];
    if !frames.is_empty() {
        lists.push(frames);
    }
    lists.extend(
        ordered
            .iter()
            .filter(|o| !o.is_empty())
            .map(|o| o.as_slice()),
    );
    let rows = lists.len();
    let (sw, sh) = (cols * tw, rows * th);
    let mut out = vec![0u8; sw * sh * 4];
    for px in out.chunks_exact_mut(4) {
        px.copy_from_slice(&[20, 20, 20, 255]);
    }
    for (row, list) in lists.into_iter().enumerate() {
        for (i, p) in list.iter().enumerate() {
            for y in 0..th {
                let dst = ((row * th + y) * sw + i * tw) * 4;
                out[dst..dst + tw * 4].copy_from_slice(&p[y * tw * 4..(y + 1) * tw * 4]);
            }
        }
    }
    re2d_output::png_encode::encode_rgba_level(&out, sw as u32, sh as u32, PNG_LEVEL)
        .map_err(|e| RigError::new("E_RIG_IMAGE", e))
}
