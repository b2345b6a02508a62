// re2d ffi-tests/layout: size, alignment and every field offset of the six header structs equal re2d's Rust types.
use core::mem::{align_of, offset_of, size_of};

use re2d::rotsprite as rs;
use re2d_layout_test::c;

/// Asserts size and alignment of a header struct and its Rust twin, and the
/// offset and size of every listed field, against the numbers of c-abi.md §2.
macro_rules! same_layout {
    ($c:ty, $r:ty, $size:expr, $align:expr, [$($f:ident @ $off:expr),* $(,)?]) => {{
        assert_eq!(size_of::<$c>(), $size, "sizeof header {}", stringify!($c));
        assert_eq!(size_of::<$r>(), $size, "sizeof re2d {}", stringify!($r));
        assert_eq!(align_of::<$c>(), $align, "alignof header {}", stringify!($c));
        assert_eq!(align_of::<$r>(), $align, "alignof re2d {}", stringify!($r));
        $(
            assert_eq!(offset_of!($c, $f), $off, "header {}.{}", stringify!($c), stringify!($f));
            assert_eq!(offset_of!($r, $f), $off, "re2d {}.{}", stringify!($r), stringify!($f));
            assert_eq!(
                field_size(|v: &$c| &v.$f),
                field_size(|v: &$r| &v.$f),
                "size of field {}", stringify!($f)
            );
        )*
    }};
}

fn field_size<S, T>(_: impl Fn(&S) -> &T) -> usize {
    size_of::<T>()
}

#[test]
fn size_macro_is_64() {
    assert_eq!(c::R2D_ROTSPRITE_SIZE, 64);
    assert_eq!(rs::R2D_ROTSPRITE_SIZE, 64);
}

#[test]
fn point_layout() {
    same_layout!(
        c::R2DRotPoint,
        rs::R2DRotPoint,
        192,
        4,
        [
            x @ 0,
            y @ 4,
            z @ 8,
            rgba @ 12,
            part @ 16,
            group @ 17,
            corner_parts @ 18,
            blend_part @ 22,
            blend_weight @ 23,
            corner_blend_parts @ 24,
            corner_blend_weights @ 28,
            patch @ 32,
            du @ 36,
            dv @ 48,
            duv @ 60,
            colors @ 72,
            textured @ 88,
            mapped @ 89,
            material @ 90,
        ]
    );
}

#[test]
fn atlas_layout() {
    same_layout!(
        c::R2DRotAtlas,
        rs::R2DRotAtlas,
        16,
        8,
        [points @ 0, count @ 8]
    );
}

#[test]
fn part_pose_layout() {
    same_layout!(
        c::R2DRotPartPose,
        rs::R2DRotPartPose,
        104,
        8,
        [
            matrix @ 0,
            defined @ 96,
            visible @ 97,
            one_sided @ 98,
            selector @ 99,
            variant @ 100,
        ]
    );
}

#[test]
fn model_pose_layout() {
    same_layout!(
        c::R2DRotModelPose,
        rs::R2DRotModelPose,
        26632,
        8,
        [scale @ 0, parts @ 8]
    );
}

#[test]
fn rig_layout() {
    same_layout!(
        c::R2DRotRig,
        rs::R2DRotRig,
        64,
        8,
        [
            model @ 0,
            body @ 8,
            phase @ 16,
            stride @ 24,
            arm_left @ 32,
            arm_right @ 40,
            head_yaw @ 48,
            brows @ 56,
        ]
    );
}

#[test]
fn workspace_layout() {
    same_layout!(
        c::R2DRotAnimeWorkspace,
        rs::R2DRotAnimeWorkspace,
        64,
        8,
        [
            depth @ 0,
            distance @ 8,
            sample_depth @ 16,
            rgba @ 24,
            resolved @ 32,
            bounds @ 40,
            size @ 56,
        ]
    );
}

/// The header's `bool` fields are one byte and re2d reads them as `CBool`.
#[test]
fn bool_fields_are_one_byte() {
    assert_eq!(size_of::<rs::CBool>(), 1);
    assert_eq!(align_of::<rs::CBool>(), 1);
    assert_eq!(field_size(|v: &c::R2DRotPoint| &v.patch), 1);
    assert_eq!(field_size(|v: &c::R2DRotRig| &v.body), 1);
    assert_eq!(field_size(|v: &c::R2DRotPartPose| &v.one_sided), 1);
}
