//! Where a part's hidden fill takes its colours from (issue 42): the nearest *clean* visible
//! pixel of the part — visible, not on a painted line, and at least [`CLEAR`] pixels
//! (4-neighbour steps) inside the part's visible paint. The pixels along the border of the
//! visible paint are its outline, or the anti-aliased edge of the part in front of it, and
//! copied outwards they streak the fill with ink: on the fighter's uncovered areas that fill
//! was further from the painter's hidden paint (mean RGB distance 78–83) than a flat fill of
//! the part's mean colour (56–59) — `rig_fill_judge`. A part with no clean pixel falls back to
//! every visible pixel.

/// Steps inside the visible paint a fill source must lie.
pub const CLEAR: usize = 3;

/// Per crop pixel (`w × h`): a source of the hidden fill (see the module doc); `ink(i)`
/// tells whether crop pixel `i` is on a painted line.
pub fn sources(visible: &[bool], ink: impl Fn(usize) -> bool, w: usize, h: usize) -> Vec<bool> {
    let mut cur: Vec<bool> = (0..w * h).map(|i| visible[i] && !ink(i)).collect();
    for _ in 0..CLEAR {
        let prev = cur.clone();
        for y in 0..h {
            for x in 0..w {
                let i = y * w + x;
                if !prev[i] {
                    continue;
                }
                let inside = x > 0
                    && y > 0
                    && x + 1 < w
                    && y + 1 < h
                    && prev[i - 1]
                    && prev[i + 1]
                    && prev[i - w]
                    && prev[i + w];
                cur[i] = inside;
            }
        }
    }
    if cur.iter().any(|&c| c) {
        cur
    } else {
        visible.to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_border_and_the_ink_are_no_sources() {
        // a 21×21 visible crop with an ink line down column 10: a source lies more than CLEAR
        // 4-neighbour steps from the ink, the crop's border and the invisible
        let (w, h) = (21, 21);
        let visible = vec![true; w * h];
        let s = sources(&visible, |i| i % w == 10, w, h);
        assert!(!s[10 * w + 10], "on the ink");
        assert!(!s[10 * w + 13] && !s[10 * w + 7], "3 steps from the ink");
        assert!(s[10 * w + 14] && s[10 * w + 6], "4 steps from the ink");
        assert!(
            !s[2 * w + 5] && s[3 * w + 5],
            "the border: 3 steps in is the first source"
        );
        // a 9×9 visible square split by an ink line has no clean pixel: every visible pixel is
        // a source (the fallback)
        let (w, h) = (11, 11);
        let visible: Vec<bool> = (0..w * h)
            .map(|i| (1..10).contains(&(i % w)) && (1..10).contains(&(i / w)))
            .collect();
        let s = sources(&visible, |i| i % w == 5, w, h);
        assert_eq!(s, visible);
    }
}
