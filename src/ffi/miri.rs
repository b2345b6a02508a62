//! Unit tests of the C ABI driven from Rust with Rust-made pointers, small
//! enough for Miri (`make test-miri`): every `unsafe` block of the adapters
//! (pointer checks, slices over caller memory, `malloc`/`free` ownership,
//! the C rig pointer) runs under Miri's checks here. They also run in plain
//! `cargo test`.

use std::ptr;

use super::rotsprite::*;
use crate::rotsprite::{R2DRotAnimeWorkspace, R2DRotAtlas, R2DRotModelPose, R2DRotRig};

const W: usize = 1024;

/// A 1024² v2 atlas with `n` active cells of part 1 and 6 (header, ID,
/// depth, coverage, XY maps and opaque colour blocks).
fn tiny_atlas(n: usize) -> Vec<u8> {
    let mut img = vec![0u8; W * W * 4];
    let mut put = |x: usize, y: usize, px: [u8; 4]| {
        let o = (y * W + x) * 4;
        img[o..o + 4].copy_from_slice(&px);
    };
    let hy = W * 15 / 16;
    put(0, hy, [82, 50, 68, 255]);
    put(1, hy, [82, 79, 84, 255]);
    put(2, hy, [2, 4, 4, 255]);
    for i in 0..n {
        let (mx, my) = (100 + i % 8, 40 + i / 8);
        let part = if i % 2 == 0 { 1 } else { 6 };
        put(mx, 768 + my, [part, 0, 0, 255]);
        put(256 + mx, 768 + my, [128, 120 + i as u8, 128, 255]);
        put(512 + mx, 768 + my, [255, 0, 0, 255]);
        put(768 + mx, 768 + my, [100 + i as u8, 90, 0, 255]);
        for dy in 0..4 {
            for dx in 0..4 {
                put(4 * mx + dx, 4 * my + dy, [200, 80, 40, 255]);
            }
        }
    }
    img
}

fn empty_atlas() -> R2DRotAtlas {
    R2DRotAtlas {
        points: ptr::null_mut(),
        count: 0,
    }
}

#[test]
fn null_and_bad_arguments_are_refused_without_writes() {
    let mut cell = 7;
    assert!(!r2d_rotsprite_layout(63, 63, &mut cell));
    assert_eq!(cell, 7);
    assert!(r2d_rotsprite_layout(64, 64, &mut cell));
    assert_eq!(cell, 8);
    let mut out = vec![9u8; 64 * 64 * 4];
    assert!(!r2d_rotsprite_raster(
        ptr::null(),
        64,
        64,
        256,
        0.0,
        0.0,
        out.as_mut_ptr()
    ));
    assert!(out.iter().all(|&b| b == 9));
    let mut a = empty_atlas();
    assert!(!r2d_rotsprite_v2_decode(
        ptr::null(),
        1024,
        1024,
        4096,
        &mut a
    ));
    assert!(a.points.is_null());
    r2d_rotsprite_v2_free(ptr::null_mut());
    r2d_rotsprite_anime_workspace_free(ptr::null_mut());
}

#[test]
fn v1_raster_writes_64_squared_pixels() {
    let img: Vec<u8> = (0..64 * 64 * 4).map(|i| (i % 251) as u8 | 3).collect();
    let mut out = vec![0u8; 64 * 64 * 4];
    assert!(r2d_rotsprite_raster(
        img.as_ptr(),
        64,
        64,
        256,
        30.0,
        10.0,
        out.as_mut_ptr()
    ));
    assert!(out.iter().any(|&b| b != 0));
}

#[test]
fn decode_draw_anime_and_free() {
    let img = tiny_atlas(6);
    assert!(r2d_rotsprite_v2_header(img.as_ptr(), 1024, 1024, 4096));
    let mut a = empty_atlas();
    assert!(r2d_rotsprite_v2_decode(
        img.as_ptr(),
        1024,
        1024,
        4096,
        &mut a
    ));
    assert_eq!(a.count, 6);
    let mut out = vec![0u8; 128 * 128 * 4];
    assert!(r2d_rotsprite_v2_draw(
        &a,
        20.0,
        5.0,
        0,
        0,
        ptr::null(),
        out.as_mut_ptr()
    ));
    // with a model rig (every part an identity transform)
    let mut pose = R2DRotModelPose {
        scale: 1.0,
        ..Default::default()
    };
    for id in [1usize, 6] {
        let p = &mut pose.parts[id];
        p.matrix = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];
        p.defined = crate::rotsprite::CBool::new(true);
        p.visible = crate::rotsprite::CBool::new(true);
    }
    let rig = R2DRotRig {
        model: &pose,
        body: crate::rotsprite::CBool::new(true),
        ..zero_rig()
    };
    assert!(r2d_rotsprite_v2_draw(
        &a,
        0.0,
        0.0,
        0,
        0,
        &rig,
        out.as_mut_ptr()
    ));
    let (mut jx, mut jy) = (0.0, 0.0);
    r2d_rotsprite_v2_joint(1, 0.0, 0.0, 0.0, 10.0, 0.0, &rig, &mut jx, &mut jy);
    assert!(jx.is_finite() && jy.is_finite());
    r2d_rotsprite_v2_free(&mut a);
    assert!(a.points.is_null() && a.count == 0);
    r2d_rotsprite_v2_free(&mut a); // idempotent

    let mut s = empty_atlas();
    assert!(r2d_rotsprite_v2_decode_anime(
        img.as_ptr(),
        1024,
        1024,
        4096,
        &mut s
    ));
    let mut ws = R2DRotAnimeWorkspace {
        depth: ptr::null_mut(),
        distance: ptr::null_mut(),
        sample_depth: ptr::null_mut(),
        rgba: ptr::null_mut(),
        resolved: ptr::null_mut(),
        bounds: [0; 4],
        size: 0,
    };
    let mut big = vec![0u8; 256 * 256 * 4];
    assert!(r2d_rotsprite_v2_anime_workspace(
        &s,
        30.0,
        0.0,
        0,
        0,
        ptr::null(),
        big.as_mut_ptr(),
        &mut ws
    ));
    assert_eq!(ws.size, 256);
    r2d_rotsprite_anime_workspace_free(&mut ws);
    assert!(ws.depth.is_null());
    r2d_rotsprite_v2_free(&mut s);
}

/// The legacy rig fields, all zero (model set by the caller).
fn zero_rig() -> R2DRotRig {
    R2DRotRig {
        model: ptr::null(),
        body: crate::rotsprite::CBool::new(false),
        phase: 0.0,
        stride: 0.0,
        arm_left: 0.0,
        arm_right: 0.0,
        head_yaw: 0.0,
        brows: 0,
    }
}
