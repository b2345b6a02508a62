// re2d anim — frames laid out in a sprite-sheet grid.

/// Lays `frames` (each `w`×`h` RGBA8) out left to right, top to bottom in a
/// grid of `columns` (at least 1; at most the frame count is used). Returns
/// the sheet pixels and its width and height; cells after the last frame
/// stay transparent.
pub fn sheet(
    frames: &[&[u8]],
    w: u32,
    h: u32,
    columns: u32,
) -> Result<(Vec<u8>, u32, u32), String> {
    let len = super::check_frames(frames, w, h)?;
    if columns == 0 {
        return Err("a sheet needs at least one column".into());
    }
    let columns = (columns as usize).min(frames.len());
    let rows = frames.len().div_ceil(columns);
    let sw = u32::try_from(columns * w as usize).map_err(|_| "sheet too wide")?;
    let sh = u32::try_from(rows * h as usize).map_err(|_| "sheet too tall")?;
    let total = len.checked_mul(columns * rows).ok_or("sheet too large")?;
    let mut out = vec![0u8; total];
    let (row, stride) = (w as usize * 4, sw as usize * 4);
    for (i, f) in frames.iter().enumerate() {
        let (cx, cy) = (i % columns, i / columns);
        for y in 0..h as usize {
            let dst = (cy * h as usize + y) * stride + cx * row;
            out[dst..dst + row].copy_from_slice(&f[y * row..(y + 1) * row]);
        }
    }
    Ok((out, sw, sh))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_order_and_empty_cells() {
        // 2×1 frames whose pixels are [i, x, 0, 255]
        let frames: Vec<Vec<u8>> = (0..5u8)
            .map(|i| (0..2u8).flat_map(|x| [i, x, 0, 255]).collect())
            .collect();
        let refs: Vec<&[u8]> = frames.iter().map(|f| &f[..]).collect();
        let (px, w, h) = sheet(&refs, 2, 1, 3).unwrap();
        assert_eq!((w, h), (6, 2));
        let at = |x: usize, y: usize| &px[(y * 6 + x) * 4..][..4];
        assert_eq!(at(0, 0), [0, 0, 0, 255]);
        assert_eq!(at(5, 0), [2, 1, 0, 255]);
        assert_eq!(at(2, 1), [4, 0, 0, 255]);
        assert_eq!(at(4, 1), [0, 0, 0, 0], "empty cell");
        let (_, w, h) = sheet(&refs, 2, 1, 99).unwrap();
        assert_eq!((w, h), (10, 1));
        assert!(sheet(&refs, 2, 1, 0).is_err());
        assert!(sheet(&refs, 3, 1, 2).is_err());
        assert!(sheet(&[], 2, 1, 2).is_err());
    }
}
