//! Stage 2 for a photo: the figure drawn on paper (`background: "paper"`,
//! and what `"auto"` picks when the border is paper, not a key colour).
//!
//! The approach of AnimatedDrawings (adaptive threshold, closing, a fill
//! from the border, the largest component) with what photos of paper under
//! a lamp need on top. Rules, with `s` = the image's shorter side:
//! 1. **Darkness** `g` = the smallest of R, G, B (a line of any colour is
//!    dark in some channel; yellow crayon in blue).
//! 2. **Noise** `σ` = 1.4826 × the median absolute deviation of `g` minus
//!    its 3 × 3 mean (the paper's grain and the camera's noise; the lines
//!    are too few to move a median).
//! 3. **Ink**: `g` below its local mean (a square window of radius
//!    `max(7, 0.04 s)`, edges replicated) by more than `C = max(8, 3.5 σ)`
//!    — a light gradient or a soft shadow moves the mean with the paper —
//!    or a **colour** far from the paper's: `max − min` of R, G, B more than
//!    40 above its median on the image border (a crayon fill whose outline
//!    is faint).
//! 4. **Specks** (ink components, 4-connected, of fewer than
//!    `max(3, 2·10⁻⁵ s²)` pixels: grain, dust) are dropped.
//! 5. **Closing** of the ink by a square of radius `max(2, round(s / 250))`
//!    (gaps in a pencil line).
//! 6. **Fill from the border**: the pixels off ink that a 4-connected fill
//!    from every border pixel off ink reaches are paper; everything else —
//!    the lines and what they enclose, so holes are filled — is figure.
//! 7. **Main components**: the figure's 4-connected components of at least
//!    5 % of the largest one's pixels are kept (a drawing in two pieces keeps
//!    both; dust does not).
//! 8. **Rim**: a 4-neighbour of the figure joins it when it is darker than
//!    the paper around it (the mean of `g` over the window's pixels off the
//!    figure) by more than `C / 2`: a photographed line fades into the paper
//!    over a pixel or two (the shipped masks of AnimatedDrawings reach 2 px
//!    past the line), a clean edge does not.
//!
//! **Auto** ([`looks_like_paper`]): the border has no key colour (see
//! `silhouette.rs`) and is light and grey: the median over the border of
//! `max(R, G, B)` at least 96 and of `max − min` at most 60.
//!
//! Every pass is linear in the pixels (box sums, run-length dilations, one
//! fill); nothing depends on a radius but the window sizes.

use re2d::png_io::RgbaImage;

/// The figure found on paper, and the numbers the rules used.
#[derive(Clone, Debug, PartialEq)]
pub struct PaperFigure {
    /// Per pixel, row-major: the figure.
    pub mask: Vec<bool>,
    /// The window radius of the local mean (px).
    pub window: usize,
    /// The noise σ measured.
    pub sigma: f64,
    /// The ink threshold `C`.
    pub threshold: f64,
    /// The closing radius (px).
    pub closing: usize,
    /// Components kept.
    pub components: usize,
}

fn darkness(img: &RgbaImage) -> Vec<u8> {
    img.data
        .chunks_exact(4)
        .map(|p| p[0].min(p[1]).min(p[2]))
        .collect()
}

fn chroma(p: &[u8]) -> u8 {
    p[0].max(p[1]).max(p[2]) - p[0].min(p[1]).min(p[2])
}

/// The border pixels' indices.
fn border(w: usize, h: usize) -> impl Iterator<Item = usize> {
    let top = 0..w;
    let bottom = (0..w).map(move |x| (h - 1) * w + x);
    let left = (1..h.saturating_sub(1)).map(move |y| y * w);
    let right = (1..h.saturating_sub(1)).map(move |y| y * w + w - 1);
    top.chain(bottom).chain(left).chain(right)
}

fn median(hist: &[u64]) -> f64 {
    let n: u64 = hist.iter().sum();
    let mut acc = 0;
    for (v, &c) in hist.iter().enumerate() {
        acc += c;
        if 2 * acc >= n.max(1) {
            return v as f64;
        }
    }
    0.0
}

/// True when the image border looks like paper (see the module doc).
pub fn looks_like_paper(img: &RgbaImage) -> bool {
    let (w, h) = (img.width as usize, img.height as usize);
    if w == 0 || h == 0 {
        return false;
    }
    let (mut bright, mut chr) = (vec![0u64; 256], vec![0u64; 256]);
    for i in border(w, h) {
        let p = &img.data[i * 4..i * 4 + 4];
        bright[p[0].max(p[1]).max(p[2]) as usize] += 1;
        chr[chroma(p) as usize] += 1;
    }
    median(&bright) >= 96.0 && median(&chr) <= 60.0
}

/// Per pixel, the mean of `v` over the square of radius `r` around it (the
/// image's edge replicated), as a sum over (2r + 1)² pixels: `sums[i]`.
fn box_sums(v: &[u8], w: usize, h: usize, r: usize) -> Vec<u32> {
    // horizontal sums with replicated edges, then vertical
    let mut hs = vec![0u32; w * h];
    for y in 0..h {
        let row = &v[y * w..(y + 1) * w];
        let at = |x: isize| row[x.clamp(0, w as isize - 1) as usize] as u32;
        let mut s: u32 = (-(r as isize)..=r as isize).map(at).sum();
        for x in 0..w {
            hs[y * w + x] = s;
            s += at(x as isize + r as isize + 1);
            s -= at(x as isize - r as isize);
        }
    }
    let mut out = vec![0u32; w * h];
    let mut col = vec![0u32; w];
    let rowi = |y: isize| y.clamp(0, h as isize - 1) as usize * w;
    for y in -(r as isize)..=r as isize {
        let o = rowi(y);
        for x in 0..w {
            col[x] += hs[o + x];
        }
    }
    for y in 0..h {
        out[y * w..(y + 1) * w].copy_from_slice(&col);
        let (add, sub) = (
            rowi(y as isize + r as isize + 1),
            rowi(y as isize - r as isize),
        );
        for x in 0..w {
            col[x] = col[x] + hs[add + x] - hs[sub + x];
        }
    }
    out
}

/// Binary dilation by a square of radius `r`, separable, linear in the
/// pixels whatever `r` (the distance to the last set pixel on each side).
fn dilate(m: &[bool], w: usize, h: usize, r: usize) -> Vec<bool> {
    let line = |get: &dyn Fn(usize) -> bool, n: usize, out: &mut dyn FnMut(usize, bool)| {
        let mut last: Option<usize> = None;
        let mut near = vec![false; n];
        for i in 0..n {
            if get(i) {
                last = Some(i);
            }
            near[i] = last.is_some_and(|l| i - l <= r);
        }
        last = None;
        for i in (0..n).rev() {
            if get(i) {
                last = Some(i);
            }
            out(i, near[i] || last.is_some_and(|l| l - i <= r));
        }
    };
    let mut rows = vec![false; w * h];
    for y in 0..h {
        line(&|x| m[y * w + x], w, &mut |x, v| rows[y * w + x] = v);
    }
    let mut out = vec![false; w * h];
    for x in 0..w {
        line(&|y| rows[y * w + x], h, &mut |y, v| out[y * w + x] = v);
    }
    out
}

fn erode(m: &[bool], w: usize, h: usize, r: usize) -> Vec<bool> {
    let inv: Vec<bool> = m.iter().map(|&b| !b).collect();
    dilate(&inv, w, h, r).into_iter().map(|b| !b).collect()
}

/// 4-connected components of `m`: a label per pixel (0 = off) and the size
/// of each label (index 0 unused).
pub fn components(m: &[bool], w: usize, h: usize) -> (Vec<u32>, Vec<usize>) {
    let mut label = vec![0u32; w * h];
    let mut sizes = vec![0usize];
    let mut stack: Vec<usize> = Vec::new();
    for start in 0..w * h {
        if !m[start] || label[start] != 0 {
            continue;
        }
        let l = sizes.len() as u32;
        label[start] = l;
        stack.push(start);
        let mut n = 0;
        while let Some(i) = stack.pop() {
            n += 1;
            let (x, y) = (i % w, i / w);
            let mut visit = |j: usize| {
                if m[j] && label[j] == 0 {
                    label[j] = l;
                    stack.push(j);
                }
            };
            if x > 0 {
                visit(i - 1);
            }
            if x + 1 < w {
                visit(i + 1);
            }
            if y > 0 {
                visit(i - w);
            }
            if y + 1 < h {
                visit(i + w);
            }
        }
        sizes.push(n);
    }
    (label, sizes)
}

/// The figure on paper (see the module doc).
pub fn figure(img: &RgbaImage) -> PaperFigure {
    let (w, h) = (img.width as usize, img.height as usize);
    let n = w * h;
    let s = w.min(h);
    let g = darkness(img);
    // 2. noise: the MAD of g minus its 3x3 mean, in ninths of a level
    let s3 = box_sums(&g, w, h, 1);
    const SPAN: i32 = 9 * 255;
    let mut hist = vec![0u64; 2 * SPAN as usize + 1];
    for i in 0..n {
        hist[(9 * g[i] as i32 - s3[i] as i32 + SPAN) as usize] += 1;
    }
    drop(s3);
    let med = median(&hist) as i32 - SPAN;
    let mut dev = vec![0u64; 2 * SPAN as usize + 1];
    for (v, &c) in hist.iter().enumerate() {
        dev[(v as i32 - SPAN - med).unsigned_abs() as usize] += c;
    }
    // the residual of a 3 x 3 mean has sqrt(8/9) of the noise's deviation
    let sigma = 1.4826 * median(&dev) / 9.0 / (8.0f64 / 9.0).sqrt();
    let threshold = (3.5 * sigma).max(8.0);
    // 3. ink: darker than the local mean by C, or far from the paper's colour
    let window = 7usize.max((0.04 * s as f64).round() as usize);
    let sums = box_sums(&g, w, h, window);
    let area = ((2 * window + 1) * (2 * window + 1)) as f64;
    let mut chr = vec![0u64; 256];
    for i in border(w, h) {
        chr[chroma(&img.data[i * 4..i * 4 + 4]) as usize] += 1;
    }
    let colour_cut = median(&chr) + 40.0;
    let mut ink: Vec<bool> = (0..n)
        .map(|i| {
            (g[i] as f64) < sums[i] as f64 / area - threshold
                || chroma(&img.data[i * 4..i * 4 + 4]) as f64 > colour_cut
        })
        .collect();
    drop(sums);
    // 4. specks
    let speck = 3usize.max((2e-5 * (s * s) as f64) as usize);
    let (label, sizes) = components(&ink, w, h);
    for i in 0..n {
        if ink[i] && sizes[label[i] as usize] < speck {
            ink[i] = false;
        }
    }
    drop(label);
    // 5. closing
    let closing = 2usize.max((s as f64 / 250.0).round() as usize);
    let ink = erode(&dilate(&ink, w, h, closing), w, h, closing);
    // 6. fill from the border
    let paper = fill_from_border(&ink, w, h);
    let fig: Vec<bool> = paper.iter().map(|&p| !p).collect();
    // 7. main components
    let (label, sizes) = components(&fig, w, h);
    let big = sizes.iter().skip(1).copied().max().unwrap_or(0);
    let keep: Vec<bool> = sizes.iter().map(|&c| c > 0 && c * 20 >= big).collect();
    let kept = keep.iter().filter(|&&k| k).count();
    let mut mask: Vec<bool> = label.iter().map(|&l| l != 0 && keep[l as usize]).collect();
    // 8. the rim: a 4-neighbour of the figure darker than the paper around it by C / 2
    let paper: Vec<u8> = g
        .iter()
        .zip(&mask)
        .map(|(&v, &m)| if m { 0 } else { v })
        .collect();
    let off: Vec<u8> = mask.iter().map(|&m| u8::from(!m)).collect();
    let (psum, pn) = (box_sums(&paper, w, h, window), box_sums(&off, w, h, window));
    let core = mask.clone();
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            let next = (x > 0 && core[i - 1])
                || (x + 1 < w && core[i + 1])
                || (y > 0 && core[i - w])
                || (y + 1 < h && core[i + w]);
            if !core[i] && next && pn[i] > 0 {
                let level = psum[i] as f64 / pn[i] as f64;
                if (g[i] as f64) < level - threshold / 2.0 {
                    mask[i] = true;
                }
            }
        }
    }
    PaperFigure {
        mask,
        window,
        sigma,
        threshold,
        closing,
        components: kept,
    }
}

/// The pixels off `ink` reached by a 4-connected fill from every border
/// pixel off `ink`.
fn fill_from_border(ink: &[bool], w: usize, h: usize) -> Vec<bool> {
    let mut seen = vec![false; w * h];
    let mut stack: Vec<usize> = Vec::new();
    for i in border(w, h) {
        if !ink[i] && !seen[i] {
            seen[i] = true;
            stack.push(i);
        }
    }
    while let Some(i) = stack.pop() {
        let (x, y) = (i % w, i / w);
        let mut visit = |j: usize| {
            if !ink[j] && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        };
        if x > 0 {
            visit(i - 1);
        }
        if x + 1 < w {
            visit(i + 1);
        }
        if y > 0 {
            visit(i - w);
        }
        if y + 1 < h {
            visit(i + w);
        }
    }
    seen
}
