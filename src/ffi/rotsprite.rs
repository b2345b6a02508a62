// re2d — the 14 functions of rotsprite_math.h (spec: c-abi.md §3).
//
//! `extern "C"` adapters: NULL checks in the documented order, caller memory
//! viewed as slices only after validation, C allocator for every block the
//! caller may free.

use std::ffi::c_int;
use std::mem::{MaybeUninit, size_of};
use std::ptr;
use std::slice;

use super::guard;
use crate::rotsprite::anime::{self, WorkspaceBufs};
use crate::rotsprite::atlas::{self, MAX_POINTS};
use crate::rotsprite::{
    AtlasImage, Frame, R2DRotAnimeWorkspace, R2DRotAtlas, R2DRotPoint, R2DRotRig, Rig, draw, rig,
    threads, v1,
};

/// Borrows the caller's atlas bytes after the size checks passed.
///
/// # Safety
/// `atlas` is non-NULL and points to `(h-1)*stride + 4*w` readable bytes.
unsafe fn image<'a>(atlas: *const u8, w: c_int, h: c_int, stride: c_int) -> Option<AtlasImage<'a>> {
    let len = AtlasImage::required_len(w, h, stride).ok()?;
    // SAFETY: caller guarantees `len` readable bytes (c-abi.md §3.3, §3.4).
    let bytes = unsafe { slice::from_raw_parts(atlas, len) };
    AtlasImage::new(bytes, w, h, stride).ok()
}

/// Borrows the caller's rig.
///
/// # Safety
/// `rig` is NULL or valid, and so is `rig->model`.
unsafe fn rig_of<'a>(rig: *const R2DRotRig) -> Option<Rig<'a>> {
    // SAFETY: guaranteed by the caller.
    unsafe { rig.as_ref().map(|r| Rig::from_c(r)) }
}

#[unsafe(no_mangle)]
pub extern "C" fn r2d_rotsprite_layout(w: c_int, h: c_int, cell: *mut c_int) -> bool {
    guard(false, || match v1::layout(w, h) {
        Some(n) => {
            if !cell.is_null() {
                // SAFETY: non-NULL out-parameter supplied by the caller.
                unsafe { *cell = n };
            }
            true
        }
        None => false,
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn r2d_rotsprite_angles(
    yaw: f64,
    pitch: f64,
    out_yaw: *mut f64,
    out_pitch: *mut f64,
) -> bool {
    guard(false, || {
        if out_yaw.is_null() || out_pitch.is_null() {
            return false;
        }
        let Some((y, p)) = v1::angles(yaw, pitch) else {
            return false;
        };
        // SAFETY: both out-parameters are non-NULL.
        unsafe {
            *out_yaw = y;
            *out_pitch = p;
        }
        true
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn r2d_rotsprite_raster(
    atlas: *const u8,
    w: c_int,
    h: c_int,
    stride: c_int,
    yaw: f64,
    pitch: f64,
    out: *mut u8,
) -> bool {
    guard(false, || {
        if atlas.is_null() || out.is_null() || v1::layout(w, h).is_none() || stride < 4 * w {
            return false;
        }
        if v1::angles(yaw, pitch).is_none() {
            return false;
        }
        // SAFETY: sizes validated; the caller provides the documented buffers.
        let Some(img) = (unsafe { image(atlas, w, h, stride) }) else {
            return false;
        };
        let out = unsafe { slice::from_raw_parts_mut(out, v1::V1_OUT_BYTES) };
        v1::raster(&img, yaw, pitch, out).is_ok()
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn r2d_rotsprite_v2_header(
    atlas: *const u8,
    w: c_int,
    h: c_int,
    stride: c_int,
) -> bool {
    guard(false, || {
        if atlas.is_null() || !atlas::v2_size_ok(w, h, stride) {
            return false;
        }
        // SAFETY: sizes validated; the caller provides the atlas bytes.
        unsafe { image(atlas, w, h, stride) }.is_some_and(|img| atlas::header_ok(&img))
    })
}

/// Argument checks shared by both decoders (`out` non-NULL, then the
/// header check of §3.4) and the image view.
///
/// # Safety
/// As [`image`] when the size checks pass.
unsafe fn decode_args<'a>(
    atlas: *const u8,
    w: c_int,
    h: c_int,
    stride: c_int,
    out: *mut R2DRotAtlas,
) -> Option<AtlasImage<'a>> {
    if out.is_null() || atlas.is_null() || !atlas::v2_size_ok(w, h, stride) {
        return None;
    }
    // SAFETY: forwarded.
    let img = unsafe { image(atlas, w, h, stride) }?;
    atlas::header_ok(&img).then_some(img)
}

/// Hands a decoded block to the caller: `*out = {points, count}` (the old
/// content is overwritten, not freed).
///
/// # Safety
/// `out` is non-NULL and writable.
unsafe fn set_atlas(out: *mut R2DRotAtlas, block: *mut R2DRotPoint, count: usize) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        (*out).points = block;
        (*out).count = count as c_int;
    }
}

#[unsafe(no_mangle)]
pub extern "C" fn r2d_rotsprite_v2_decode(
    atlas: *const u8,
    w: c_int,
    h: c_int,
    stride: c_int,
    out: *mut R2DRotAtlas,
) -> bool {
    guard(false, || {
        // SAFETY: the caller provides the atlas bytes.
        let Some(img) = (unsafe { decode_args(atlas, w, h, stride, out) }) else {
            return false;
        };
        // SAFETY: plain C allocation; freed below on failure or by the caller.
        let block =
            unsafe { libc::malloc(MAX_POINTS * size_of::<R2DRotPoint>()) } as *mut R2DRotPoint;
        if block.is_null() {
            return false;
        }
        atlas::advise_huge_pages(block.cast(), MAX_POINTS * size_of::<R2DRotPoint>());
        // SAFETY: the block has room for MAX_POINTS records; uninitialised
        // memory is valid for MaybeUninit.
        let slots = unsafe {
            slice::from_raw_parts_mut(block.cast::<MaybeUninit<R2DRotPoint>>(), MAX_POINTS)
        };
        match atlas::decode_into(&img, slots) {
            Ok(count) => {
                // SAFETY: `out` is non-NULL (checked by decode_args).
                unsafe { set_atlas(out, block, count) };
                true
            }
            Err(_) => {
                // SAFETY: the block came from malloc above.
                unsafe { libc::free(block.cast()) };
                false
            }
        }
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn r2d_rotsprite_v2_free(atlas: *mut R2DRotAtlas) {
    guard((), || {
        // SAFETY: NULL or a caller atlas whose points came from the C allocator.
        if let Some(a) = unsafe { atlas.as_mut() } {
            unsafe { libc::free(a.points.cast()) };
            a.points = ptr::null_mut();
            a.count = 0;
        }
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn r2d_rotsprite_v2_raster(
    atlas: *const R2DRotAtlas,
    yaw: f64,
    pitch: f64,
    eyes: c_int,
    mouth: c_int,
    out: *mut u8,
) -> bool {
    r2d_rotsprite_v2_draw(atlas, yaw, pitch, eyes, mouth, ptr::null(), out)
}

/// Points of a caller atlas (count ≤ 0 → empty).
///
/// # Safety
/// `a.points` is non-NULL and holds `a.count` records.
unsafe fn points_of<'a>(a: &R2DRotAtlas) -> &'a [R2DRotPoint] {
    let n = a.count.max(0) as usize;
    // SAFETY: guaranteed by the caller.
    unsafe { slice::from_raw_parts(a.points, n) }
}

/// The argument checks of `r2d_rotsprite_v2_draw` (§3.8), shared with the
/// smooth renderer: the atlas points and the validated frame.
///
/// # Safety
/// Pointers are NULL or valid as documented.
unsafe fn render_args<'a>(
    atlas: *const R2DRotAtlas,
    yaw: f64,
    pitch: f64,
    eyes: c_int,
    mouth: c_int,
    rig: *const R2DRotRig,
    out: *mut u8,
) -> Option<(&'a [R2DRotPoint], Frame<'a>)> {
    // SAFETY: NULL or a valid caller atlas.
    let a = unsafe { atlas.as_ref() }?;
    if a.points.is_null() || out.is_null() {
        return None;
    }
    // SAFETY: forwarded from the caller's contract.
    let frame = Frame::new(yaw, pitch, eyes, mouth, unsafe { rig_of(rig) }).ok()?;
    Some((unsafe { points_of(a) }, frame))
}

#[unsafe(no_mangle)]
pub extern "C" fn r2d_rotsprite_v2_draw(
    atlas: *const R2DRotAtlas,
    yaw: f64,
    pitch: f64,
    eyes: c_int,
    mouth: c_int,
    rig: *const R2DRotRig,
    out: *mut u8,
) -> bool {
    guard(false, || {
        // SAFETY: caller contract of c-abi.md §3.8.
        let Some((points, frame)) =
            (unsafe { render_args(atlas, yaw, pitch, eyes, mouth, rig, out) })
        else {
            return false;
        };
        let out = unsafe { slice::from_raw_parts_mut(out, draw::DRAW_OUT_BYTES) };
        draw::draw(points, &frame, out).is_ok()
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn r2d_rotsprite_v2_joint(
    part: c_int,
    x: f64,
    y: f64,
    z: f64,
    yaw: f64,
    pitch: f64,
    rig: *const R2DRotRig,
    out_x: *mut f64,
    out_y: *mut f64,
) {
    guard((), || {
        // SAFETY: NULL or a valid caller rig.
        let r = unsafe { rig_of(rig) };
        let (jx, jy) = rig::joint(part, x, y, z, yaw, pitch, r.as_ref());
        // SAFETY: each output is written only when non-NULL.
        unsafe {
            if let Some(o) = out_x.as_mut() {
                *o = jx;
            }
            if let Some(o) = out_y.as_mut() {
                *o = jy;
            }
        }
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn r2d_rotsprite_v2_decode_anime(
    atlas: *const u8,
    w: c_int,
    h: c_int,
    stride: c_int,
    out: *mut R2DRotAtlas,
) -> bool {
    guard(false, || {
        // SAFETY: the caller provides the atlas bytes.
        let Some(img) = (unsafe { decode_args(atlas, w, h, stride, out) }) else {
            return false;
        };
        let Some(grid) = atlas::Grid::new(&img) else {
            return false;
        };
        let count = grid.count();
        if count == 0 {
            return false;
        }
        // SAFETY: plain C allocation of exactly `count` records.
        let block = unsafe { libc::malloc(count * size_of::<R2DRotPoint>()) } as *mut R2DRotPoint;
        if block.is_null() {
            return false;
        }
        atlas::advise_huge_pages(block.cast(), count * size_of::<R2DRotPoint>());
        // SAFETY: the block has room for `count` records.
        let slots =
            unsafe { slice::from_raw_parts_mut(block.cast::<MaybeUninit<R2DRotPoint>>(), count) };
        // The plain decode goes straight into the block; each record is
        // augmented in place one grid row later (no intermediate atlas).
        if grid.decode_anime_into(&img, slots).is_err() {
            // SAFETY: the block came from malloc above.
            unsafe { libc::free(block.cast()) };
            return false;
        }
        // SAFETY: `out` is non-NULL (checked by decode_args).
        unsafe { set_atlas(out, block, count) };
        true
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn r2d_rotsprite_v2_anime(
    atlas: *const R2DRotAtlas,
    yaw: f64,
    pitch: f64,
    eyes: c_int,
    mouth: c_int,
    rig: *const R2DRotRig,
    out: *mut u8,
) -> bool {
    let mut ws = R2DRotAnimeWorkspace {
        depth: ptr::null_mut(),
        distance: ptr::null_mut(),
        sample_depth: ptr::null_mut(),
        rgba: ptr::null_mut(),
        resolved: ptr::null_mut(),
        bounds: [0; 4],
        size: 0,
    };
    let ok = r2d_rotsprite_v2_anime_workspace(atlas, yaw, pitch, eyes, mouth, rig, out, &mut ws);
    r2d_rotsprite_anime_workspace_free(&mut ws);
    ok
}

/// Frees the five buffers with C `free` and zeroes the struct (§3.12).
fn workspace_release(ws: &mut R2DRotAnimeWorkspace) {
    // SAFETY: workspace buffers are NULL or C allocations (c-abi.md §4).
    unsafe {
        libc::free(ws.depth.cast());
        libc::free(ws.distance.cast());
        libc::free(ws.sample_depth.cast());
        libc::free(ws.rgba.cast());
        libc::free(ws.resolved.cast());
    }
    ws.depth = ptr::null_mut();
    ws.distance = ptr::null_mut();
    ws.sample_depth = ptr::null_mut();
    ws.rgba = ptr::null_mut();
    ws.resolved = ptr::null_mut();
    ws.bounds = [0; 4];
    ws.size = 0;
}

#[unsafe(no_mangle)]
pub extern "C" fn r2d_rotsprite_anime_workspace_free(workspace: *mut R2DRotAnimeWorkspace) {
    guard((), || {
        // SAFETY: NULL or a valid caller workspace.
        if let Some(ws) = unsafe { workspace.as_mut() } {
            workspace_release(ws);
        }
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn r2d_rotsprite_v2_anime_workspace(
    atlas: *const R2DRotAtlas,
    yaw: f64,
    pitch: f64,
    eyes: c_int,
    mouth: c_int,
    rig: *const R2DRotRig,
    out: *mut u8,
    workspace: *mut R2DRotAnimeWorkspace,
) -> bool {
    r2d_rotsprite_v2_anime_sized(atlas, yaw, pitch, eyes, mouth, rig, out, workspace, 256)
}

/// Allocates the five buffers of a size-`size` workspace with the C
/// allocator (§3.14 step 5). On failure the workspace is left zeroed.
fn workspace_alloc(ws: &mut R2DRotAnimeWorkspace, size: usize) -> bool {
    let n = 2 * size;
    // SAFETY: plain C allocations, released by workspace_release.
    unsafe {
        ws.depth = libc::malloc(n * n * 4).cast();
        ws.distance = libc::malloc(n * n * 4).cast();
        ws.rgba = libc::malloc(n * n * 4).cast();
        ws.resolved = libc::malloc(size * size * 4).cast();
        ws.sample_depth = libc::calloc(size * size, 4).cast();
    }
    if ws.depth.is_null()
        || ws.distance.is_null()
        || ws.rgba.is_null()
        || ws.resolved.is_null()
        || ws.sample_depth.is_null()
    {
        workspace_release(ws);
        return false;
    }
    ws.size = size as i32;
    ws.bounds = [0, 0, n as i32, n as i32];
    true
}

#[unsafe(no_mangle)]
pub extern "C" fn r2d_rotsprite_v2_anime_sized(
    atlas: *const R2DRotAtlas,
    yaw: f64,
    pitch: f64,
    eyes: c_int,
    mouth: c_int,
    rig: *const R2DRotRig,
    out: *mut u8,
    workspace: *mut R2DRotAnimeWorkspace,
    size: c_int,
) -> bool {
    guard(false, || {
        // SAFETY: caller contract of c-abi.md §3.8 / §3.14.
        let Some((points, frame)) =
            (unsafe { render_args(atlas, yaw, pitch, eyes, mouth, rig, out) })
        else {
            return false;
        };
        if size != 256 && size != 512 {
            return false;
        }
        // SAFETY: NULL or a valid caller workspace.
        let Some(ws) = (unsafe { workspace.as_mut() }) else {
            return false;
        };
        let s = size as usize;
        let n = 2 * s;
        if !ws.depth.is_null() && ws.size != size {
            workspace_release(ws);
        }
        // A workspace with some buffers missing was not made by the library;
        // start it afresh rather than touch NULL memory.
        let partial = ws.distance.is_null()
            || ws.rgba.is_null()
            || ws.resolved.is_null()
            || ws.sample_depth.is_null();
        if !ws.depth.is_null() && partial {
            workspace_release(ws);
        }
        if ws.depth.is_null() && !workspace_alloc(ws, s) {
            return false;
        }
        // SAFETY: the buffers have the sizes allocated for `size`.
        let bufs = unsafe {
            WorkspaceBufs {
                depth: slice::from_raw_parts_mut(ws.depth, n * n),
                distance: slice::from_raw_parts_mut(ws.distance, n * n),
                sample_depth: slice::from_raw_parts_mut(ws.sample_depth, s * s),
                rgba: slice::from_raw_parts_mut(ws.rgba, n * n * 4),
                resolved: slice::from_raw_parts_mut(ws.resolved, s * s * 4),
                bounds: &mut ws.bounds,
            }
        };
        let out = unsafe { slice::from_raw_parts_mut(out, s * s * 4) };
        let threads = threads::render_threads();
        anime::render_threads(points, &frame, s, out, bufs, threads).is_ok()
    })
}
