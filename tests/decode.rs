// re2d tests — v2 atlas header and decoders: worked examples and rules of rotsprite-atlas.md.

use re2d::rotsprite::atlas::{self, DecodeErrorKind, cell_grid};
use re2d::rotsprite::*;

const W: usize = 1024;

/// A blank 1024² atlas (stride 4096) with the v2 header and optional extensions.
struct Builder {
    px: Vec<u8>,
}

impl Builder {
    fn new(sub: bool, bld: bool) -> Self {
        let mut b = Builder {
            px: vec![0; W * W * 4],
        };
        b.set(0, 960, [82, 50, 68, 255]);
        b.set(1, 960, [82, 79, 84, 255]);
        b.set(2, 960, [2, 4, 4, 255]);
        if sub {
            b.set(3, 960, [83, 85, 66, 255]);
        }
        if bld {
            b.set(4, 960, [66, 76, 68, 255]);
        }
        b
    }
    fn set(&mut self, x: usize, y: usize, c: [u8; 4]) {
        let o = (y * W + x) * 4;
        self.px[o..o + 4].copy_from_slice(&c);
    }
    /// Active cell with part (ID.R), group (ID.G), blend part (ID.B), coverage R.
    fn cell(&mut self, mx: usize, my: usize, id: [u8; 3], depth: [u8; 3], xy: [u8; 3], cov: u8) {
        self.set(mx, 768 + my, [id[0], id[1], id[2], 255]);
        self.set(256 + mx, 768 + my, [depth[0], depth[1], depth[2], 255]);
        self.set(512 + mx, 768 + my, [cov, 0, 0, 255]);
        self.set(768 + mx, 768 + my, [xy[0], xy[1], xy[2], 255]);
    }
    fn block(&mut self, mx: usize, my: usize, f: impl Fn(usize, usize) -> [u8; 4]) {
        for dy in 0..4 {
            for dx in 0..4 {
                self.set(4 * mx + dx, 4 * my + dy, f(dx, dy));
            }
        }
    }
    fn img(&self) -> AtlasImage<'_> {
        AtlasImage::new(&self.px, W as i32, W as i32, (W * 4) as i32).unwrap()
    }
}

/// The three cells of §7.9.
fn worked_7_9(sub: bool) -> Builder {
    let mut b = Builder::new(sub, false);
    b.cell(10, 5, [1, 0, 0], [132, 0, 0], [136, 122, 0], 255);
    b.block(10, 5, |dx, dy| {
        if (dx + dy) % 2 == 0 {
            [200, 200, 200, 255]
        } else {
            [100, 100, 100, 255]
        }
    });
    b.cell(11, 5, [3, 0, 0], [125, 100, 0], [108, 138, 0x5A], 255);
    b.block(11, 5, |dx, dy| match (dx, dy) {
        (0, 0) => [0, 0, 0, 255],
        (3, 3) => [190, 120, 60, 0],
        (_, 0 | 1) => [210, 120, 60, 255],
        _ => [190, 120, 60, 255],
    });
    b.cell(60, 2, [16, 0, 0], [128, 0, 0], [128, 128, 0], 255);
    b.block(60, 2, |dx, dy| match (dx, dy) {
        (0, 0) => [9, 9, 9, 255],
        (2, 1) => [10, 20, 30, 255],
        (1, 2) => [40, 50, 60, 255],
        _ => [0, 0, 0, 0],
    });
    b
}

#[test]
fn worked_examples_7_9() {
    let b = worked_7_9(false);
    let pts = decode(&b.img()).unwrap();
    assert_eq!(pts.len(), 3);
    // Row 2 first, then row 5 in column order.
    assert_eq!((pts[0].part, pts[0].rgba), (16, [10, 20, 30, 255]));
    assert_eq!((pts[1].x, pts[1].y, pts[1].z), (2.0, -3.0, 1.0));
    assert_eq!(pts[1].rgba, [200, 200, 200, 255]);
    assert_eq!(pts[2].rgba, [190, 120, 60, 255]);
    assert_eq!((pts[2].x, pts[2].y, pts[2].z), (-5.0, 5.0, -0.75));
    assert!(!pts[2].mapped.get());
    assert_eq!(pts[2].group, 3);

    let b = worked_7_9(true);
    let pts = decode(&b.img()).unwrap();
    assert_eq!(
        (pts[2].x, pts[2].y, pts[2].z),
        (-4.921875, 5.3125, -0.671875)
    );
    assert!(pts[2].mapped.get());
}

#[test]
fn decode_is_row_major_and_zero_padded() {
    let b = worked_7_9(true);
    let a = decode(&b.img()).unwrap();
    let c = decode(&b.img()).unwrap();
    let bytes = |v: &[R2DRotPoint]| v.iter().flat_map(|p| p.to_bytes()).collect::<Vec<u8>>();
    assert_eq!(bytes(&a), bytes(&c));
    for p in &a {
        let raw = p.to_bytes();
        assert_eq!(raw[33..36], [0, 0, 0]);
        assert_eq!(raw[190..192], [0, 0]);
    }
}

fn anime_8_4() -> Builder {
    let mut b = Builder::new(true, true);
    b.cell(20, 30, [6, 0, 7], [128, 0, 40], [128, 128, 0x00], 255);
    b.cell(21, 30, [6, 0, 0], [128, 0, 0], [136, 129, 0x10], 255);
    b.cell(20, 31, [6, 0, 0], [130, 34, 0], [128, 132, 0x00], 255);
    b.cell(21, 31, [6, 0, 0], [129, 0, 0], [137, 133, 0x00], 255);
    for y in 120..128 {
        for x in 80..88 {
            b.set(x, y, [(2 * x) as u8, y as u8, 50, 255]);
        }
    }
    b.set(81, 121, [0, 0, 0, 0]);
    // Strip cells of part 33.
    b.cell(40, 10, [33, 0, 0], [128, 0, 0], [128, 129, 0x08], 255);
    b.cell(41, 10, [33, 0, 0], [132, 0, 0], [136, 129, 0x00], 255);
    for y in 40..44 {
        for x in 160..168 {
            b.set(x, y, [150, 40, 40, 255]);
        }
    }
    b
}

#[test]
fn worked_example_8_4() {
    let b = anime_8_4();
    let plain = decode(&b.img()).unwrap();
    let pts = decode_anime(&b.img()).unwrap();
    assert_eq!(pts.len(), plain.len());
    // Order: strip row 10 first, then rows 30, 31.
    let (s0, s1, p, r) = (&pts[0], &pts[1], &pts[2], &pts[3]);
    assert_eq!((p.x, p.y, p.z), (0.0, 0.0, 0.0));
    assert!(p.patch.get() && p.textured.get());
    assert_eq!(p.du, [2.015625, 0.5, 0.0]);
    assert_eq!(p.dv, [0.0, 2.0, 0.53125]);
    assert_eq!(p.duv, [0.234375, 0.0, -0.28125]);
    assert_eq!(p.rgba, [161, 120, 50, 255]);
    assert_eq!(
        p.colors,
        [
            [160, 120, 50, 255],
            [168, 120, 50, 255],
            [160, 124, 50, 255],
            [168, 124, 50, 255]
        ]
    );
    assert_eq!(p.corner_parts, [6, 6, 6, 6]);
    assert_eq!(p.corner_blend_parts, [7, 0, 0, 0]);
    assert_eq!(p.corner_blend_weights, [40, 0, 0, 0]);
    for ty in 0..5u8 {
        for tx in 0..5u8 {
            let i = ((ty * 5 + tx) * 4) as usize;
            let want = if (tx, ty) == (1, 1) {
                [0, 0, 0, 0]
            } else {
                [160 + 2 * tx, 120 + ty, 50, 255]
            };
            assert_eq!(p.material[i..i + 4], want, "texel ({tx},{ty})");
        }
    }
    assert!(!r.patch.get());
    assert_eq!(r.rgba, [169, 121, 50, 255]);
    assert_eq!(r.colors[1], [169, 121, 50, 255]);
    assert!(s0.patch.get() && !s0.textured.get());
    assert_eq!(s0.du, [2.0, -0.25, 1.0]);
    assert_eq!(s0.dv, [0.0, 0.24f32, 0.0]);
    assert_eq!(s0.duv, [0.0; 3]);
    assert!(!s1.patch.get());
    // Same identity fields as the plain decode.
    for (a, q) in plain.iter().zip(&pts) {
        assert_eq!(
            (
                a.part,
                a.group,
                a.x,
                a.y,
                a.z,
                a.blend_part,
                a.blend_weight,
                a.mapped,
                a.rgba[3]
            ),
            (
                q.part,
                q.group,
                q.x,
                q.y,
                q.z,
                q.blend_part,
                q.blend_weight,
                q.mapped,
                q.rgba[3]
            )
        );
    }
}

#[test]
fn header_rules() {
    let b = Builder::new(false, false);
    assert!(header_ok(&b.img()));
    let mut bad = Builder::new(false, false);
    bad.set(2, 960, [2, 4, 5, 255]);
    assert!(!header_ok(&bad.img()));
    let mut alpha = Builder::new(false, false);
    alpha.set(0, 960, [82, 50, 68, 7]);
    assert!(header_ok(&alpha.img()));
    assert!(!atlas::v2_size_ok(1024, 1024, 4095));
    assert!(!atlas::v2_size_ok(1536, 1536, 6144));
    assert!(!atlas::v2_size_ok(5120, 5120, 20480));
    assert!(atlas::v2_size_ok(4096, 4096, 16384));
}

fn decode_err(b: &Builder) -> DecodeErrorKind {
    decode(&b.img()).unwrap_err().kind
}

#[test]
fn rejection_rules() {
    use DecodeErrorKind::*;
    assert_eq!(decode_err(&Builder::new(true, true)), Empty);
    let base = |f: &dyn Fn(&mut Builder)| {
        let mut b = Builder::new(true, true);
        b.cell(3, 4, [5, 0, 0], [128, 0, 0], [128, 128, 0], 255);
        b.block(3, 4, |_, _| [1, 2, 3, 255]);
        f(&mut b);
        b
    };
    assert!(decode(&base(&|_| {}).img()).is_ok());
    assert_eq!(
        decode_err(&base(&|b| b.set(3, 768 + 4, [0, 0, 0, 255]))),
        PartRange
    );
    assert_eq!(
        decode_err(&base(&|b| b.set(3, 768 + 4, [255, 0, 0, 255]))),
        PartRange
    );
    assert_eq!(
        decode_err(&base(&|b| b.set(512 + 3, 768 + 4, [200, 0, 0, 255]))),
        Coverage
    );
    assert_eq!(
        decode_err(&base(&|b| b.set(512 + 3, 768 + 4, [255, 0, 0, 254]))),
        CoverageAlpha
    );
    assert_eq!(
        decode_err(&base(&|b| b.set(3, 768 + 4, [5, 0, 0, 254]))),
        IdAlpha
    );
    assert_eq!(
        decode_err(&base(&|b| b.set(256 + 3, 768 + 4, [128, 0, 0, 1]))),
        DepthAlpha
    );
    assert_eq!(
        decode_err(&base(&|b| b.set(768 + 3, 768 + 4, [128, 128, 0, 0]))),
        XyAlpha
    );
    assert_eq!(
        decode_err(&base(&|b| b.set(12, 16, [1, 2, 3, 100]))),
        AnchorAlpha
    );
    assert_eq!(
        decode_err(&base(&|b| b.set(3, 768 + 4, [5, 0, 255, 255]))),
        Blend
    );
    assert_eq!(
        decode_err(&base(&|b| b.set(256 + 3, 768 + 4, [128, 0, 9, 255]))),
        Blend
    );
    // Under SUB, coverage 128 and a transparent anchor are accepted.
    let ok = base(&|b| {
        b.set(512 + 3, 768 + 4, [128, 0, 0, 255]);
        b.set(12, 16, [1, 2, 3, 0]);
    });
    let p = decode(&ok.img()).unwrap();
    assert_eq!(p[0].rgba, [1, 2, 3, 0]);
    // Inactive cells are skipped whatever they hold (coverage alpha 0).
    let skip = base(&|b| {
        b.set(9, 768 + 9, [0, 0, 0, 0]);
        b.set(512 + 9, 768 + 9, [255, 0, 0, 0]);
    });
    assert_eq!(decode(&skip.img()).unwrap().len(), 1);
    // Without SUB, coverage 128 fails and BLD alone is ignored.
    let mut plain = Builder::new(false, true);
    plain.cell(3, 4, [5, 0, 255], [128, 0, 0], [128, 128, 0], 255);
    plain.block(3, 4, |_, _| [1, 2, 3, 255]);
    let p = decode(&plain.img()).unwrap();
    assert_eq!(
        (p[0].blend_part, p[0].group, p[0].mapped.get()),
        (0, 5, false)
    );
}

#[test]
fn grid_maps_cells_to_point_indices() {
    let b = anime_8_4();
    let grid = cell_grid(&b.img()).unwrap();
    assert_eq!(grid[10 * 256 + 40], 0);
    assert_eq!(grid[10 * 256 + 41], 1);
    assert_eq!(grid[31 * 256 + 21], 5);
    assert_eq!(grid.iter().filter(|&&g| g >= 0).count(), 6);
}

#[test]
fn last_column_corner_reads_past_the_width() {
    // Cell (255, 0): corners 1 and 3 read column 1024, i.e. the row's padding.
    let stride = W * 4 + 4;
    let mut px = vec![0u8; W * stride];
    let mut b = Builder::new(false, false);
    b.cell(255, 0, [5, 0, 0], [128, 0, 0], [128, 128, 0], 255);
    b.block(255, 0, |_, _| [10, 20, 30, 255]);
    for y in 0..W {
        px[y * stride..y * stride + W * 4].copy_from_slice(&b.px[y * W * 4..(y + 1) * W * 4]);
        px[y * stride + W * 4..(y + 1) * stride].copy_from_slice(&[y as u8, 77, 88, 255]);
    }
    let img = AtlasImage::new(&px, W as i32, W as i32, stride as i32).unwrap();
    let p = decode_anime(&img).unwrap();
    assert_eq!(p[0].colors[1], [0, 77, 88, 255]);
    assert_eq!(p[0].colors[3], [4, 77, 88, 255]);
}

/// `b` scaled by `k` with `pad` bytes of row padding: working texel (X, Y)
/// is the physical pixel (kX, kY); every other pixel of its k×k block holds
/// junk (an active-looking coverage value) that the reading rule ignores.
fn upscaled(b: &Builder, k: usize, pad: usize) -> (Vec<u8>, usize) {
    let side = W * k;
    let stride = side * 4 + pad;
    let mut px = vec![0u8; side * stride];
    for y in 0..side {
        for x in 0..side {
            let c = if x % k == 0 && y % k == 0 {
                let o = ((y / k) * W + x / k) * 4;
                [b.px[o], b.px[o + 1], b.px[o + 2], b.px[o + 3]]
            } else {
                [255, 1, 2, 255]
            };
            px[y * stride + x * 4..][..4].copy_from_slice(&c);
        }
        px[y * stride + side * 4..(y + 1) * stride].fill(255);
    }
    (px, stride)
}

#[test]
fn scaled_atlases_read_the_top_left_pixel_of_each_block() {
    // Cells in the first and last control rows and columns, and in rows
    // between otherwise empty ones.
    let mut b = anime_8_4();
    b.cell(0, 0, [2, 0, 0], [128, 0, 0], [128, 128, 0], 255);
    b.cell(255, 0, [2, 0, 0], [129, 0, 0], [130, 128, 0], 255);
    b.cell(0, 191, [3, 0, 0], [128, 0, 0], [128, 140, 0], 255);
    b.cell(255, 191, [3, 0, 0], [127, 0, 0], [126, 140, 0], 255);
    b.cell(128, 100, [4, 0, 0], [128, 0, 0], [128, 100, 0], 255);
    b.cell(255, 150, [4, 0, 0], [128, 0, 0], [128, 100, 0], 255);
    b.cell(0, 151, [4, 0, 0], [128, 0, 0], [128, 100, 0], 255);
    for (mx, my) in [
        (0, 0),
        (255, 0),
        (0, 191),
        (255, 191),
        (128, 100),
        (255, 150),
        (0, 151),
    ] {
        b.block(mx, my, |dx, dy| [dx as u8 * 50, dy as u8 * 50, 7, 255]);
    }
    let bytes = |v: &[R2DRotPoint]| v.iter().flat_map(|p| p.to_bytes()).collect::<Vec<u8>>();
    let want = decode(&b.img()).unwrap();
    assert_eq!(want.len(), 13);
    let want_grid = cell_grid(&b.img()).unwrap();
    let want_anime = decode_anime(&b.img()).unwrap();
    for (k, pad) in [(2, 0), (2, 12), (3, 4)] {
        let (px, stride) = upscaled(&b, k, pad);
        let side = (W * k) as i32;
        let img = AtlasImage::new(&px, side, side, stride as i32).unwrap();
        assert_eq!(
            bytes(&decode(&img).unwrap()),
            bytes(&want),
            "k={k} pad={pad}"
        );
        assert_eq!(cell_grid(&img).unwrap(), want_grid, "k={k} pad={pad}");
        let anime = decode_anime(&img).unwrap();
        assert_eq!(anime.len(), want_anime.len());
        for (p, q) in anime.iter().zip(&want_anime) {
            assert_eq!((p.x, p.y, p.z, p.part), (q.x, q.y, q.z, q.part));
            assert_eq!(p.patch.get(), q.patch.get(), "k={k} pad={pad}");
        }
    }
}

/// The row walk of [`decode_anime`] finds the neighbours the cell grid
/// gives [`atlas::anime_scan`]: the dense figure (`re2d_testkit::atlas`) with a fifth of
/// its cells switched off at random (gaps in rows, lone cells, missing lower and
/// diagonal neighbours) and its empty rows between the part tiles.
#[test]
fn row_walk_matches_the_index_grid() {
    use atlas::{GRID_H, GRID_W, anime_scan};
    let mut px = re2d_testkit::atlas::dense_atlas(1);
    let mut seed = 7u32;
    for my in 0..GRID_H {
        for mx in 0..GRID_W {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            if seed >> 29 == 0 || (mx == 61 && my % 3 == 0) {
                // Coverage alpha 0: the cell is inactive.
                px[((768 + my) * 1024 + 512 + mx) * 4 + 3] = 0;
            }
        }
    }
    let img = AtlasImage::new(&px, 1024, 1024, 4096).unwrap();
    let base = decode(&img).unwrap();
    let grid = cell_grid(&img).unwrap();
    let mut want = Vec::new();
    anime_scan(&img, &base, &grid, |p| want.push(p));
    let got = decode_anime(&img).unwrap();
    assert_eq!(got.len(), want.len());
    let patches = got.iter().filter(|p| p.textured.get()).count();
    assert!(patches > 1000 && patches < got.len() * 9 / 10, "{patches}");
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "point {i}");
    }
}
