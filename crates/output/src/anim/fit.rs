// re2d anim — opaque bounds of frames, their union plus a margin (`re2d render --fit`), cropping.

/// A pixel rectangle `[x, x+w) × [y, y+h)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// Left column.
    pub x: u32,
    /// Top row.
    pub y: u32,
    /// Width.
    pub w: u32,
    /// Height.
    pub h: u32,
}

impl Rect {
    fn union(self, o: Rect) -> Rect {
        let (x0, y0) = (self.x.min(o.x), self.y.min(o.y));
        let x1 = (self.x + self.w).max(o.x + o.w);
        let y1 = (self.y + self.h).max(o.y + o.h);
        Rect {
            x: x0,
            y: y0,
            w: x1 - x0,
            h: y1 - y0,
        }
    }
}

/// The smallest rectangle holding every pixel of a `w`×`h` RGBA8 frame whose
/// alpha is not 0; `None` for a fully transparent frame (or a buffer that is
/// not `w`×`h`).
pub fn opaque_bounds(rgba: &[u8], w: u32, h: u32) -> Option<Rect> {
    let (wu, hu) = (w as usize, h as usize);
    if wu.checked_mul(hu)?.checked_mul(4)? != rgba.len() || wu == 0 {
        return None;
    }
    let mut b: Option<(usize, usize, usize, usize)> = None; // x0, y0, x1, y1 inclusive
    for (y, row) in rgba.chunks_exact(wu * 4).enumerate() {
        let alpha = |p: &[u8]| p[3] != 0;
        let Some(first) = row.chunks_exact(4).position(alpha) else {
            continue;
        };
        let last = row.chunks_exact(4).rposition(alpha).unwrap_or(first);
        b = Some(match b {
            None => (first, y, last, y),
            Some((x0, y0, x1, _)) => (x0.min(first), y0, x1.max(last), y),
        });
    }
    b.map(|(x0, y0, x1, y1)| Rect {
        x: x0 as u32,
        y: y0 as u32,
        w: (x1 - x0 + 1) as u32,
        h: (y1 - y0 + 1) as u32,
    })
}

/// The crop of `re2d render --fit`: the union of the opaque bounds of all
/// `frames` (each `w`×`h`), grown by `margin` pixels on every side and
/// clipped to the frame. All frames transparent: the whole frame.
pub fn fit_rect(frames: &[&[u8]], w: u32, h: u32, margin: u32) -> Rect {
    let full = Rect { x: 0, y: 0, w, h };
    let Some(u) = frames
        .iter()
        .filter_map(|f| opaque_bounds(f, w, h))
        .reduce(Rect::union)
    else {
        return full;
    };
    let x0 = u.x.saturating_sub(margin);
    let y0 = u.y.saturating_sub(margin);
    let x1 = (u.x + u.w).saturating_add(margin).min(w);
    let y1 = (u.y + u.h).saturating_add(margin).min(h);
    Rect {
        x: x0,
        y: y0,
        w: x1 - x0,
        h: y1 - y0,
    }
}

/// The pixels of `r` (which must lie inside the `w`×`h` frame) as a tightly
/// packed RGBA8 image.
pub fn crop(rgba: &[u8], w: u32, h: u32, r: Rect) -> Vec<u8> {
    assert!(
        r.x.checked_add(r.w).is_some_and(|x| x <= w)
            && r.y.checked_add(r.h).is_some_and(|y| y <= h),
        "crop rectangle outside the frame"
    );
    let (stride, row) = (w as usize * 4, r.w as usize * 4);
    let mut out = Vec::with_capacity(row * r.h as usize);
    for y in r.y as usize..(r.y + r.h) as usize {
        let o = y * stride + r.x as usize * 4;
        out.extend_from_slice(&rgba[o..o + row]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(w: u32, h: u32, opaque: &[(u32, u32, u8)]) -> Vec<u8> {
        let mut f = vec![0u8; (w * h * 4) as usize];
        for &(x, y, a) in opaque {
            f[((y * w + x) * 4) as usize..][..4].copy_from_slice(&[x as u8, y as u8, 9, a]);
        }
        f
    }

    fn rect(x: u32, y: u32, w: u32, h: u32) -> Rect {
        Rect { x, y, w, h }
    }

    #[test]
    fn bounds_count_any_nonzero_alpha() {
        assert_eq!(opaque_bounds(&frame(8, 6, &[]), 8, 6), None);
        assert_eq!(
            opaque_bounds(&frame(8, 6, &[(3, 2, 1)]), 8, 6),
            Some(rect(3, 2, 1, 1))
        );
        let f = frame(8, 6, &[(5, 1, 255), (2, 4, 7), (6, 3, 128)]);
        assert_eq!(opaque_bounds(&f, 8, 6), Some(rect(2, 1, 5, 4)));
        // colour without alpha does not count
        let mut g = frame(8, 6, &[(1, 1, 255)]);
        g[((5 * 8 + 7) * 4) as usize] = 200;
        assert_eq!(opaque_bounds(&g, 8, 6), Some(rect(1, 1, 1, 1)));
        assert_eq!(opaque_bounds(&f, 8, 5), None, "wrong size");
    }

    #[test]
    fn union_plus_margin_clipped_to_the_frame() {
        let a = frame(20, 10, &[(5, 4, 255)]);
        let b = frame(20, 10, &[(9, 6, 255)]);
        let t = frame(20, 10, &[]);
        assert_eq!(fit_rect(&[&a, &t, &b], 20, 10, 0), rect(5, 4, 5, 3));
        assert_eq!(fit_rect(&[&a, &b], 20, 10, 2), rect(3, 2, 9, 7));
        assert_eq!(fit_rect(&[&a, &b], 20, 10, 5), rect(0, 0, 15, 10));
        assert_eq!(fit_rect(&[&a], 20, 10, u32::MAX), rect(0, 0, 20, 10));
        assert_eq!(fit_rect(&[&t, &t], 20, 10, 3), rect(0, 0, 20, 10));
    }

    #[test]
    fn crop_copies_the_rectangle() {
        let f = frame(6, 5, &[(2, 1, 255), (4, 3, 200)]);
        let c = crop(&f, 6, 5, rect(2, 1, 3, 3));
        assert_eq!(c.len(), 3 * 3 * 4);
        assert_eq!(&c[..4], &[2, 1, 9, 255]);
        assert_eq!(&c[(2 * 3 + 2) * 4..][..4], &[4, 3, 9, 200]);
        assert_eq!(c.iter().filter(|&&v| v != 0).count(), 8);
        assert_eq!(crop(&f, 6, 5, rect(0, 0, 6, 5)), f);
    }
}
