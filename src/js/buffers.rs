//! The single audited place where JS typed-array memory is read or written
//! from Rust without copying (style.md §4.5).

use rquickjs::{Ctx, Exception, Result, TypedArray};

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
                Exception::throw_type(
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

/// What [`RawVal::kind`] sees (no conversion, no JS runs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// An int or a double.
    Num(f64),
    /// `undefined`.
    Undef,
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A string.
    Str,
    /// An object (of any class).
    Obj,
    /// Anything else (symbol, bigint, …).
    Other,
}

/// An owned JS value read element by element from Rust, without the
/// per-access wrappers of `rquickjs::Array::get` (hot loops that re-check
/// plain arrays every frame). Freed on drop.
pub struct RawVal<'a, 'js> {
    ctx: &'a Ctx<'js>,
    v: rquickjs::qjs::JSValue,
}

#[allow(unsafe_code)]
impl<'a, 'js> RawVal<'a, 'js> {
    /// A new reference to `v`.
    pub fn of(ctx: &'a Ctx<'js>, v: &rquickjs::Value<'js>) -> Self {
        // SAFETY: `v` is a live value of this context; dup takes a reference
        // that drop releases.
        let v = unsafe { rquickjs::qjs::JS_DupValue(ctx.as_raw().as_ptr(), v.as_raw()) };
        RawVal { ctx, v }
    }

    /// `this[i]` (ordinary property get: may run getters/proxy traps).
    pub fn get(&self, i: u32) -> Result<RawVal<'a, 'js>> {
        // SAFETY: `self.v` is a live owned value; the result is owned.
        let v =
            unsafe { rquickjs::qjs::JS_GetPropertyUint32(self.ctx.as_raw().as_ptr(), self.v, i) };
        self.owned(v)
    }

    /// `this.length` as a number, if it is one.
    pub fn length(&self) -> Result<Option<f64>> {
        // SAFETY: as in `get`; `JS_ATOM_length` is a predefined atom.
        let v = unsafe {
            rquickjs::qjs::JS_GetProperty(
                self.ctx.as_raw().as_ptr(),
                self.v,
                rquickjs::qjs::JS_ATOM_length as rquickjs::qjs::JSAtom,
            )
        };
        Ok(match self.owned(v)?.kind() {
            Kind::Num(n) => Some(n),
            _ => None,
        })
    }

    fn owned(&self, v: rquickjs::qjs::JSValue) -> Result<RawVal<'a, 'js>> {
        // SAFETY: reading the tag of a value just returned by QuickJS.
        if unsafe { rquickjs::qjs::JS_VALUE_GET_NORM_TAG(v) } == rquickjs::qjs::JS_TAG_EXCEPTION {
            return Err(rquickjs::Error::Exception);
        }
        Ok(RawVal { ctx: self.ctx, v })
    }

    /// The value's type, numbers included.
    pub fn kind(&self) -> Kind {
        use rquickjs::qjs as q;
        // SAFETY: tag and payload reads of a live value; the payload is only
        // read for the tag it belongs to.
        unsafe {
            match q::JS_VALUE_GET_NORM_TAG(self.v) {
                q::JS_TAG_INT => Kind::Num(q::JS_VALUE_GET_INT(self.v) as f64),
                q::JS_TAG_FLOAT64 => Kind::Num(q::JS_VALUE_GET_FLOAT64(self.v)),
                q::JS_TAG_UNDEFINED => Kind::Undef,
                q::JS_TAG_NULL => Kind::Null,
                q::JS_TAG_BOOL => Kind::Bool(q::JS_VALUE_GET_BOOL(self.v)),
                q::JS_TAG_STRING | q::JS_TAG_STRING_ROPE => Kind::Str,
                q::JS_TAG_OBJECT => Kind::Obj,
                _ => Kind::Other,
            }
        }
    }

    /// A genuine `Array` object (proxies answer `false`).
    pub fn is_array(&self) -> bool {
        // SAFETY: class check of a live value, no JS runs.
        unsafe { rquickjs::qjs::JS_IsArray(self.v) }
    }

    /// The value is a string whose UTF-8 (WTF-8) bytes equal `s`.
    pub fn str_is(&self, s: &str) -> bool {
        if self.kind() != Kind::Str {
            return false;
        }
        let ctx = self.ctx.as_raw().as_ptr();
        let mut len: rquickjs::qjs::size_t = 0;
        // SAFETY: `self.v` is a string, so no JS runs; the returned buffer
        // is valid for `len` bytes until `JS_FreeCString`.
        unsafe {
            let p = rquickjs::qjs::JS_ToCStringLen2(ctx, &mut len, self.v, false);
            if p.is_null() {
                return false;
            }
            let bytes = std::slice::from_raw_parts(p as *const u8, len as usize);
            let eq = bytes == s.as_bytes();
            rquickjs::qjs::JS_FreeCString(ctx, p);
            eq
        }
    }
}

#[allow(unsafe_code)]
impl Drop for RawVal<'_, '_> {
    fn drop(&mut self) {
        // SAFETY: releases the reference this value owns.
        unsafe { rquickjs::qjs::JS_FreeValue(self.ctx.as_raw().as_ptr(), self.v) }
    }
}
