//! Typed-array memory read or written from Rust without copying, as a slice
//! for the duration of a closure (style.md §4.5). The `$.mesh` one-pass loops
//! use [`super::pure`] instead, which also reads `Array` elements and object
//! properties without running JS.

use rquickjs::{Ctx, Result, TypedArray};

macro_rules! slice_fn {
    ($name:ident, $t:ty) => {
        /// Run `f` on the elements of a typed array as a mutable slice.
        ///
        /// The slice never outlives the call and no JS code runs while it
        /// exists (`f` is plain Rust), so QuickJS cannot detach or resize the
        /// buffer under it. A detached array, or a view left out of bounds by
        /// shrinking a resizable buffer, throws a `TypeError` that says which.
        pub fn $name<'js, R>(
            ctx: &Ctx<'js>,
            array: &TypedArray<'js, $t>,
            f: impl FnOnce(&mut [$t]) -> R,
        ) -> Result<R> {
            let raw = array.as_raw().ok_or_else(|| {
                // Both cases leave the view unusable; `buffer.detached`
                // (ES2024) tells them apart for the message.
                let detached = array
                    .as_object()
                    .get::<_, rquickjs::Object>("buffer")
                    .and_then(|b| b.get::<_, bool>("detached"))
                    .unwrap_or(true);
                crate::errors::type_error(
                    ctx,
                    if detached {
                        "typed array is detached (its ArrayBuffer was transferred)"
                    } else {
                        "typed array is out of bounds (its ArrayBuffer was resized smaller)"
                    },
                )
            })?;
            let len = raw.len() / std::mem::size_of::<$t>();
            if len == 0 {
                return Ok(f(&mut []));
            }
            let ptr = raw.as_ptr() as *mut $t;
            // SAFETY: `as_raw` gives the live byte range of this view (offset
            // and length applied); typed-array element storage is aligned for
            // the element type (QuickJS rejects misaligned views). The borrow
            // is confined to `f`, during which no JS runs.
            #[allow(unsafe_code)]
            let slice = unsafe { std::slice::from_raw_parts_mut(ptr, len) };
            Ok(f(slice))
        }
    };
}

slice_fn!(with_f32_mut, f32);
slice_fn!(with_f64_mut, f64);
slice_fn!(with_u8_mut, u8);
