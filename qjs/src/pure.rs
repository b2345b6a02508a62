//! Side-effect-free reads of live JS values, for the one-pass `$.mesh` hot
//! loops in [`super::mesh`] (js-mesh.md §7, §8.4 step 9).
//!
//! A [`Pass`] reads a value exactly as the engine's JS would, or answers
//! `None` ("not pure") when producing it could run JS (a getter, a proxy trap,
//! an object's `valueOf`) or needs a JS operator this layer does not model; the
//! caller then hands the current vertex to the literal JS code and resumes
//! after it. No function here calls into JS, so while a pass lives the heap
//! cannot change: reading a location twice gives the same value, and a value
//! read from a property slot or array element stays alive because the object
//! holding it — reachable from the call's arguments — keeps its reference.
//! That is why values are handed out borrowed ([`Val`]) and never freed.
//!
//! Two layers:
//! - the public QuickJS API (`JS_GetOwnProperty`, `JS_GetPrototype`) for
//!   ordinary objects and arrays: own data properties, then the prototype
//!   chain; an accessor or any object of another class (proxy, exotic) is
//!   "not pure";
//! - for the per-vertex reads, QuickJS's object header, which it does not
//!   export: a dense ("fast") `Array`'s element vector, count and `length`
//!   slot, and a `Float32Array`'s data pointer and element count (the same
//!   fields QuickJS's own fast paths use). The offsets are those of
//!   `struct JSObject` in the bundled quickjs-ng 0.16.2 on 64-bit targets.
//!   `Layout::probe` checks them once per process against the public API on
//!   objects it creates; on any mismatch (another QuickJS, a 32-bit target)
//!   there is no [`Layout`], the natives report "not pure" for everything and
//!   the literal JS runs (same results, only slower). `nat.fastReady()`
//!   exposes the probe so a test fails loudly if an upgrade disables it.

use std::marker::PhantomData;
use std::sync::OnceLock;

use rquickjs::{Array, Ctx, Object, TypedArray, Value, qjs};

/// What [`Pass::kind`] sees (no conversion, no JS runs).
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
    /// Anything else (symbol, BigInt, …).
    Other,
}

/// QuickJS version whose `struct JSObject` the offsets below describe.
const QJS_VERSION: &[u8] = b"0.16.2";

// Byte offsets in `struct JSObject` (64-bit): `header` (a list_head, 16 bytes),
// one byte of flag bits, `is_HTMLDDA`, `class_id`, `shape`, `prop`,
// `first_weak_ref`, then the union whose array member is
// `{ u1 (8 bytes), values/ptr, count }`.
const OFF_FLAGS: usize = 16;
const FAST_ARRAY_BIT: u8 = 1 << 4; // is_prototype, extensible, free_mark, is_exotic, fast_array
const OFF_CLASS_ID: usize = 18;
const OFF_PROP: usize = 32;
const OFF_ARRAY_VALUES: usize = 56;
const OFF_ARRAY_COUNT: usize = 64;

/// Class ids (learned from the public API) of the objects the fast layer
/// reads; present only when the probe confirmed the header layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    object: u16,
    array: u16,
    float32: u16,
}

static LAYOUT: OnceLock<Option<Layout>> = OnceLock::new();

impl Layout {
    /// The verified layout, probing on first use (`None`: fast layer off).
    pub fn get(ctx: &Ctx<'_>) -> Option<Layout> {
        *LAYOUT.get_or_init(|| Self::probe(ctx).unwrap_or(None))
    }

    /// Compare header reads with the public API on fresh objects.
    fn probe(ctx: &Ctx<'_>) -> rquickjs::Result<Option<Layout>> {
        if !cfg!(target_pointer_width = "64") {
            return Ok(None);
        }
        // SAFETY: JS_GetVersion returns a static NUL-terminated string.
        let version = unsafe { std::ffi::CStr::from_ptr(qjs::JS_GetVersion()) };
        if version.to_bytes() != QJS_VERSION {
            return Ok(None);
        }
        let obj = Object::new(ctx.clone())?;
        let arr = Array::new(ctx.clone())?;
        arr.set(0, 1.5)?;
        arr.set(1, "s")?;
        arr.set(2, 7)?;
        let slow = Array::new(ctx.clone())?;
        slow.set(5, 1)?; // a hole before index 5: QuickJS drops the fast vector
        let f32s = TypedArray::<f32>::new(ctx.clone(), [0.25f32, 2.0, 3.0])?;
        let (o, a, s, f) = (
            obj.as_raw(),
            arr.as_value().as_raw(),
            slow.as_value().as_raw(),
            f32s.as_value().as_raw(),
        );
        // SAFETY: the four values are live objects (held above); each read is
        // inside a `JSObject` (72 bytes in 0.16.2, checked above), and the
        // element vectors are only read after the count read agrees.
        let ok = unsafe {
            let class = |v| qjs::JS_GetClassID(v) as u16;
            let lay = Layout {
                object: class(o),
                array: class(a),
                float32: class(f),
            };
            let header_ok = [o, a, s, f]
                .iter()
                .all(|&v| read::<u16>(v, OFF_CLASS_ID) == class(v))
                && !is_fast(o)
                && is_fast(a)
                && !is_fast(s)
                && class(s) == lay.array
                && is_fast(f);
            let array_ok = header_ok && read::<u32>(a, OFF_ARRAY_COUNT) == 3 && {
                let v = read::<*const qjs::JSValue>(a, OFF_ARRAY_VALUES);
                let len = read::<*const qjs::JSValue>(a, OFF_PROP);
                num(*v) == Some(1.5)
                    && qjs::JS_VALUE_GET_NORM_TAG(*v.add(1)) == qjs::JS_TAG_STRING
                    && num(*v.add(2)) == Some(7.0)
                    && num(*len) == Some(3.0)
            };
            let raw = f32s.as_raw();
            let f32_ok = header_ok
                && read::<u32>(f, OFF_ARRAY_COUNT) == 3
                && raw.is_some_and(|r| {
                    read::<*const f32>(f, OFF_ARRAY_VALUES) == r.as_ptr() as *const f32
                });
            (array_ok && f32_ok).then_some(lay)
        };
        if ok.is_none() {
            return Ok(None);
        }
        // `length` set past the count keeps the vector; the slot follows it.
        arr.as_object().set("length", 10)?;
        // SAFETY: as above.
        let len_ok = unsafe {
            let len = read::<*const qjs::JSValue>(a, OFF_PROP);
            is_fast(a) && read::<u32>(a, OFF_ARRAY_COUNT) == 3 && num(*len) == Some(10.0)
        };
        Ok(ok.filter(|_| len_ok))
    }
}

/// Read a `T` at byte `off` of the object `v` points to.
///
/// # Safety
/// `v` is a live object value and `off..off + size_of::<T>()` lies inside
/// its `JSObject`.
unsafe fn read<T: Copy>(v: qjs::JSValue, off: usize) -> T {
    unsafe {
        let p = qjs::JS_VALUE_GET_PTR(v) as *const u8;
        std::ptr::read_unaligned(p.add(off) as *const T)
    }
}

/// # Safety
/// As [`read`]: `v` is a live object.
unsafe fn is_fast(v: qjs::JSValue) -> bool {
    unsafe { read::<u8>(v, OFF_FLAGS) & FAST_ARRAY_BIT != 0 }
}

/// The number in `v`, if it holds one (no conversion).
fn num(v: qjs::JSValue) -> Option<f64> {
    // SAFETY: tag and payload reads of a value; the payload is read only for
    // its own tag.
    unsafe {
        match qjs::JS_VALUE_GET_NORM_TAG(v) {
            qjs::JS_TAG_INT => Some(qjs::JS_VALUE_GET_INT(v) as f64),
            qjs::JS_TAG_FLOAT64 => Some(qjs::JS_VALUE_GET_FLOAT64(v)),
            _ => None,
        }
    }
}

/// A value read during a [`Pass`] (borrowed: see the module notes).
#[derive(Clone, Copy)]
pub struct Val<'p>(qjs::JSValue, PhantomData<&'p ()>);

/// An array read many times in one pass: its dense element vector is looked
/// up once ([`Pass::view`]).
#[derive(Clone, Copy)]
pub struct View<'p> {
    v: Val<'p>,
    values: *const qjs::JSValue,
    count: u32,
}

/// An interned property key owned by a pass (released on drop).
pub struct Atom<'p> {
    ctx: *mut qjs::JSContext,
    atom: qjs::JSAtom,
    _p: PhantomData<&'p ()>,
}

impl Atom<'_> {
    /// The atom number (equal numbers = equal keys).
    pub fn id(&self) -> u32 {
        self.atom
    }
}

impl Drop for Atom<'_> {
    fn drop(&mut self) {
        // SAFETY: releases the reference taken when the atom was made.
        unsafe { qjs::JS_FreeAtom(self.ctx, self.atom) }
    }
}

/// What `Array.isArray(v)` answers, if that is known without running JS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IsArray {
    /// A genuine `Array`.
    Yes,
    /// A primitive or an ordinary non-array object.
    No,
    /// A proxy (or an unknown class): JS must decide.
    Unknown,
}

/// A `Float32Array`'s elements, writable during one pass.
pub struct F32Out<'p> {
    ptr: *mut f32,
    len: usize,
    _p: PhantomData<&'p ()>,
}

impl F32Out<'_> {
    /// Number of elements the array has now.
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` if no element is writable (empty, detached, out of bounds).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `out[i] = x` as JS stores a number into a `Float32Array`: rounded to
    /// float; an index past the end is dropped (typed arrays never throw there).
    #[inline]
    pub fn set(&self, i: usize, x: f64) {
        if i < self.len {
            // SAFETY: `i` is in bounds of the element vector, which cannot be
            // detached or resized while the pass lives (no JS runs).
            unsafe { self.ptr.add(i).write(x as f32) }
        }
    }

    /// `out[i]` (number); `None` past the end (JS reads `undefined` there).
    #[inline]
    pub fn get(&self, i: usize) -> Option<f32> {
        // SAFETY: as in `set`.
        (i < self.len).then(|| unsafe { self.ptr.add(i).read() })
    }
}

/// One run of pure reads (see the module notes).
pub struct Pass<'p> {
    ctx: *mut qjs::JSContext,
    lay: Layout,
    _p: PhantomData<&'p ()>,
}

impl<'p> Pass<'p> {
    /// Start a pass.
    ///
    /// # Safety
    /// Until the pass and everything read through it are dropped, the caller
    /// runs no JS and frees or mutates no JS value (only the pure Rust of the
    /// loop using it runs); the values given to [`Pass::val`] stay alive.
    pub unsafe fn new(ctx: &'p Ctx<'_>, lay: Layout) -> Self {
        Pass {
            ctx: ctx.as_raw().as_ptr(),
            lay,
            _p: PhantomData,
        }
    }

    /// An argument of the native call, as a pass value.
    pub fn val(&self, v: &'p Value<'_>) -> Val<'p> {
        Val(v.as_raw(), PhantomData)
    }

    /// The value's type (numbers included).
    pub fn kind(&self, v: Val<'p>) -> Kind {
        // SAFETY: tag and payload reads of a live value.
        unsafe {
            match qjs::JS_VALUE_GET_NORM_TAG(v.0) {
                qjs::JS_TAG_INT => Kind::Num(qjs::JS_VALUE_GET_INT(v.0) as f64),
                qjs::JS_TAG_FLOAT64 => Kind::Num(qjs::JS_VALUE_GET_FLOAT64(v.0)),
                qjs::JS_TAG_UNDEFINED => Kind::Undef,
                qjs::JS_TAG_NULL => Kind::Null,
                qjs::JS_TAG_BOOL => Kind::Bool(qjs::JS_VALUE_GET_BOOL(v.0)),
                qjs::JS_TAG_STRING | qjs::JS_TAG_STRING_ROPE => Kind::Str,
                qjs::JS_TAG_OBJECT => Kind::Obj,
                _ => Kind::Other,
            }
        }
    }

    /// The number `v` holds (no conversion).
    #[inline]
    pub fn num(&self, v: Val<'p>) -> Option<f64> {
        num(v.0)
    }

    /// JS truthiness, when known without reading a string's length.
    pub fn truthy(&self, v: Val<'p>) -> Option<bool> {
        match self.kind(v) {
            Kind::Num(x) => Some(!(x == 0.0 || x.is_nan())),
            Kind::Undef | Kind::Null => Some(false),
            Kind::Bool(b) => Some(b),
            Kind::Obj => Some(true),
            Kind::Str | Kind::Other => None,
        }
    }

    /// `ToNumber(v)` for values where it runs no JS (not objects, symbols or
    /// BigInts, which may call `valueOf` or throw).
    pub fn to_number(&self, v: Val<'p>) -> Option<f64> {
        match self.kind(v) {
            Kind::Num(x) => Some(x),
            Kind::Undef => Some(f64::NAN),
            Kind::Null | Kind::Bool(false) => Some(0.0),
            Kind::Bool(true) => Some(1.0),
            Kind::Str => {
                let mut d = 0.0;
                // SAFETY: ToNumber of a string parses it; no JS runs.
                (unsafe { qjs::JS_ToFloat64(self.ctx, &mut d, v.0) } == 0).then_some(d)
            }
            Kind::Obj | Kind::Other => None,
        }
    }

    /// Identity of a string value (its heap address), for caches keyed by
    /// "the same string seen again"; `None` for non-strings.
    #[inline]
    pub fn string_id(&self, v: Val<'p>) -> Option<usize> {
        // SAFETY: tag read; a string value's payload is its heap pointer.
        unsafe {
            (qjs::JS_VALUE_GET_NORM_TAG(v.0) == qjs::JS_TAG_STRING)
                .then(|| qjs::JS_VALUE_GET_PTR(v.0) as usize)
        }
    }

    /// The property key of a string value (`ToPropertyKey`, pure for strings).
    pub fn key_of(&self, v: Val<'p>) -> Option<Atom<'p>> {
        if self.kind(v) != Kind::Str {
            return None;
        }
        // SAFETY: interning a string runs no JS; 0 (JS_ATOM_NULL) = failure.
        let atom = unsafe { qjs::JS_ValueToAtom(self.ctx, v.0) };
        if atom == 0 {
            self.clear_exception();
            return None;
        }
        Some(Atom {
            ctx: self.ctx,
            atom,
            _p: PhantomData,
        })
    }

    /// The key `name`.
    pub fn key(&self, name: &std::ffi::CStr) -> Option<Atom<'p>> {
        // SAFETY: `name` is NUL-terminated; interning runs no JS.
        let atom = unsafe { qjs::JS_NewAtom(self.ctx, name.as_ptr()) };
        if atom == 0 {
            self.clear_exception();
            return None;
        }
        Some(Atom {
            ctx: self.ctx,
            atom,
            _p: PhantomData,
        })
    }

    /// A class-id read of an object value.
    #[inline]
    fn class(&self, v: Val<'p>) -> Option<u16> {
        // SAFETY: the header read happens only for object values, and the
        // layout was verified by the probe.
        unsafe {
            (qjs::JS_VALUE_GET_NORM_TAG(v.0) == qjs::JS_TAG_OBJECT)
                .then(|| read::<u16>(v.0, OFF_CLASS_ID))
        }
    }

    /// `v[i]` for an array or an ordinary object; `None` if not pure.
    #[inline(always)]
    pub fn elem(&self, v: Val<'p>, i: u32) -> Option<Val<'p>> {
        // SAFETY: the header is read only for object values (layout verified
        // by the probe); a fast Array has `count` initialised values, read
        // without taking a reference (module notes).
        unsafe {
            if qjs::JS_VALUE_GET_NORM_TAG(v.0) == qjs::JS_TAG_OBJECT
                && read::<u16>(v.0, OFF_CLASS_ID) == self.lay.array
                && is_fast(v.0)
                && i < read::<u32>(v.0, OFF_ARRAY_COUNT)
            {
                let values = read::<*const qjs::JSValue>(v.0, OFF_ARRAY_VALUES);
                return Some(Val(*values.add(i as usize), PhantomData));
            }
        }
        self.elem_slow(v, i)
    }

    /// `v` prepared for repeated [`Pass::at`] reads (any value: reads of a
    /// non-array go through [`Pass::elem`]'s general path).
    pub fn view(&self, v: Val<'p>) -> View<'p> {
        // SAFETY: as in `elem`; the vector cannot move or shrink while the
        // pass lives (no JS runs).
        unsafe {
            if qjs::JS_VALUE_GET_NORM_TAG(v.0) == qjs::JS_TAG_OBJECT
                && read::<u16>(v.0, OFF_CLASS_ID) == self.lay.array
                && is_fast(v.0)
            {
                return View {
                    v,
                    values: read::<*const qjs::JSValue>(v.0, OFF_ARRAY_VALUES),
                    count: read::<u32>(v.0, OFF_ARRAY_COUNT),
                };
            }
        }
        View {
            v,
            values: std::ptr::null(),
            count: 0,
        }
    }

    /// `a[i]`, as [`Pass::elem`].
    #[inline(always)]
    pub fn at(&self, a: View<'p>, i: u32) -> Option<Val<'p>> {
        if i < a.count {
            // SAFETY: `i` is below the vector's count (see `view`).
            return Some(Val(unsafe { *a.values.add(i as usize) }, PhantomData));
        }
        self.elem_slow(a.v, i)
    }

    /// [`Pass::elem`] off the dense vector: holes, slow arrays, objects.
    #[cold]
    #[inline(never)]
    fn elem_slow(&self, v: Val<'p>, i: u32) -> Option<Val<'p>> {
        // SAFETY: an index below 2^31 is an immediate atom (nothing to free);
        // larger ones are interned and released by `Atom`.
        let atom = Atom {
            ctx: self.ctx,
            atom: unsafe { qjs::JS_NewAtomUInt32(self.ctx, i) },
            _p: PhantomData,
        };
        if atom.atom == 0 {
            self.clear_exception();
            return None;
        }
        self.get(v, &atom)
    }

    /// The value `v` holds if it is an int-tagged number (QuickJS stores
    /// small integers so).
    #[inline(always)]
    pub fn int(&self, v: Val<'p>) -> Option<i32> {
        // SAFETY: tag and payload reads of a live value.
        unsafe {
            (qjs::JS_VALUE_GET_NORM_TAG(v.0) == qjs::JS_TAG_INT).then(|| qjs::JS_VALUE_GET_INT(v.0))
        }
    }

    /// `v.length` of a genuine `Array` (its `length` slot); `None` otherwise.
    #[inline]
    pub fn array_length(&self, v: Val<'p>) -> Option<f64> {
        if self.class(v)? != self.lay.array {
            return None;
        }
        // SAFETY: every Array's first property slot is its `length` (a plain
        // number), verified by the probe.
        unsafe { num(*read::<*const qjs::JSValue>(v.0, OFF_PROP)) }
    }

    /// `Array.isArray(v)` when no proxy is involved.
    pub fn is_array(&self, v: Val<'p>) -> IsArray {
        match self.class(v) {
            None => IsArray::No,
            Some(c) if c == self.lay.array => IsArray::Yes,
            Some(c) if c == self.lay.object || c == self.lay.float32 => IsArray::No,
            Some(_) if self.is_proxy(v) => IsArray::Unknown,
            Some(_) => IsArray::No,
        }
    }

    fn is_proxy(&self, v: Val<'p>) -> bool {
        // SAFETY: class check of a live value.
        unsafe { qjs::JS_IsProxy(v.0) }
    }

    /// `v[key]` — own data property, else the prototype chain — for ordinary
    /// objects and arrays; `None` if an accessor, a proxy or another class is
    /// met (JS could run) or the read failed.
    pub fn get(&self, v: Val<'p>, key: &Atom<'p>) -> Option<Val<'p>> {
        let mut obj = v.0;
        for _ in 0..4096 {
            let c = self.class(Val(obj, PhantomData))?;
            if c != self.lay.object && c != self.lay.array {
                return None;
            }
            let mut desc = qjs::JSPropertyDescriptor {
                flags: 0,
                value: qjs::JS_UNDEFINED,
                getter: qjs::JS_UNDEFINED,
                setter: qjs::JS_UNDEFINED,
            };
            // SAFETY: for ordinary objects and arrays this looks the key up in
            // the object's own storage without calling anything (accessors are
            // returned, not called). The references it takes are released at
            // once: the value stays owned by its slot (module notes).
            unsafe {
                match qjs::JS_GetOwnProperty(self.ctx, &mut desc, obj, key.atom) {
                    r if r < 0 => {
                        self.clear_exception();
                        return None;
                    }
                    0 => {}
                    _ => {
                        self.free(desc.getter);
                        self.free(desc.setter);
                        self.free(desc.value);
                        if desc.flags & qjs::JS_PROP_GETSET as i32 != 0 {
                            return None;
                        }
                        return Some(Val(desc.value, PhantomData));
                    }
                }
                let proto = qjs::JS_GetPrototype(self.ctx, obj);
                self.free(proto); // held by the object's shape
                match qjs::JS_VALUE_GET_NORM_TAG(proto) {
                    qjs::JS_TAG_NULL => return Some(Val(qjs::JS_UNDEFINED, PhantomData)),
                    qjs::JS_TAG_OBJECT => obj = proto,
                    _ => {
                        self.clear_exception();
                        return None;
                    }
                }
            }
        }
        None
    }

    /// A `Float32Array` that stores numbers as JS does (`None`: another
    /// kind of value, or an immutable buffer where JS throws).
    pub fn f32_out(&self, v: Val<'p>) -> Option<F32Out<'p>> {
        if self.class(v)? != self.lay.float32 {
            return None;
        }
        // SAFETY: `v` is a Float32Array: `count` and the data pointer are
        // the live accessible range (0 when detached or out of bounds).
        let (ptr, len) = unsafe {
            (
                read::<*mut f32>(v.0, OFF_ARRAY_VALUES),
                read::<u32>(v.0, OFF_ARRAY_COUNT) as usize,
            )
        };
        if len > 0 {
            // SAFETY: the array is in bounds (len > 0), so this cannot throw;
            // the returned buffer reference is released at once.
            unsafe {
                let buf = qjs::JS_GetTypedArrayBuffer(
                    self.ctx,
                    v.0,
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                );
                if qjs::JS_VALUE_GET_NORM_TAG(buf) != qjs::JS_TAG_OBJECT {
                    self.clear_exception();
                    return None;
                }
                let immutable = qjs::JS_IsImmutableArrayBuffer(buf) == 1;
                self.free(buf);
                if immutable {
                    return None;
                }
            }
        }
        Some(F32Out {
            ptr,
            len,
            _p: PhantomData,
        })
    }

    fn free(&self, v: qjs::JSValue) {
        // SAFETY: releases one reference the caller owns.
        unsafe {
            if qjs::JS_VALUE_HAS_REF_COUNT(v) {
                qjs::JS_FreeValue(self.ctx, v)
            }
        }
    }

    fn clear_exception(&self) {
        // SAFETY: takes and releases the pending exception (if any).
        unsafe { self.free(qjs::JS_GetException(self.ctx)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rquickjs::{Context, Runtime};

    /// Evaluate `src` (a script whose value is an array of test subjects)
    /// and hand its elements to `f` inside one pass.
    fn with_values(src: &str, f: impl FnOnce(&Pass<'_>, &[Val<'_>])) {
        let rt = Runtime::new().unwrap();
        let ctx = Context::full(&rt).unwrap();
        ctx.with(|ctx| {
            let lay = Layout::get(&ctx).expect("layout probe of the bundled QuickJS");
            let arr: Array = ctx.eval(src).unwrap();
            let vals: Vec<Value> = arr.iter().map(|v| v.unwrap()).collect();
            // SAFETY: the closure below runs no JS.
            let p = unsafe { Pass::new(&ctx, lay) };
            let v: Vec<Val> = vals.iter().map(|v| p.val(v)).collect();
            f(&p, &v);
        });
    }

    #[test]
    fn probe_confirms_the_bundled_layout() {
        let rt = Runtime::new().unwrap();
        let ctx = Context::full(&rt).unwrap();
        ctx.with(|ctx| assert!(Layout::get(&ctx).is_some()));
    }

    #[test]
    fn dense_holey_and_object_reads() {
        with_values(
            "const holey = [1, , 3]; holey.length = 5; \
             const slow = []; slow[3] = 'far'; \
             [[1.5, 'two', 3], holey, slow, {0: 'zero', x: 7}]",
            |p, v| {
                assert_eq!(p.elem(v[0], 0).and_then(|x| p.num(x)), Some(1.5));
                assert_eq!(p.kind(p.elem(v[0], 1).unwrap()), Kind::Str);
                assert_eq!(
                    p.kind(p.elem(v[0], 3).unwrap()),
                    Kind::Undef,
                    "past the end"
                );
                assert_eq!(p.array_length(v[0]), Some(3.0));
                assert_eq!(p.kind(p.elem(v[1], 1).unwrap()), Kind::Undef, "hole");
                assert_eq!(p.array_length(v[1]), Some(5.0));
                assert_eq!(p.kind(p.elem(v[2], 3).unwrap()), Kind::Str, "slow array");
                assert_eq!(p.kind(p.elem(v[3], 0).unwrap()), Kind::Str, "object index");
                assert_eq!(p.array_length(v[3]), None, "not an Array");
                let x = p.key(c"x").unwrap();
                assert_eq!(p.get(v[3], &x).and_then(|x| p.num(x)), Some(7.0));
                let view = p.view(v[0]);
                assert_eq!(p.at(view, 2).and_then(|x| p.int(x)), Some(3));
                assert_eq!(p.kind(p.at(view, 9).unwrap()), Kind::Undef);
            },
        );
    }

    #[test]
    fn anything_that_could_run_js_is_not_pure() {
        with_values(
            "const g = { get x() { throw new Error('ran'); } }; \
             const a = [1, 2]; Object.defineProperty(a, 1, { get() { throw new Error('ran'); } }); \
             const inherited = Object.create({ get x() { throw new Error('ran'); } }); \
             Array.prototype[7] = 1; \
             [g, a, inherited, new Proxy({ x: 1 }, {}), new Proxy([], {}), new Map(), [0]]",
            |p, v| {
                let x = p.key(c"x").unwrap();
                assert!(p.get(v[0], &x).is_none(), "own accessor");
                assert!(p.elem(v[1], 1).is_none(), "accessor element");
                assert!(p.elem(v[1], 0).is_some(), "its plain element");
                assert!(p.get(v[2], &x).is_none(), "inherited accessor");
                assert!(p.get(v[3], &x).is_none(), "proxy");
                assert_eq!(p.is_array(v[4]), IsArray::Unknown, "proxy of an array");
                assert_eq!(p.is_array(v[5]), IsArray::No);
                assert_eq!(p.is_array(v[6]), IsArray::Yes);
                assert_eq!(
                    p.elem(v[6], 7).and_then(|x| p.num(x)),
                    Some(1.0),
                    "a plain value inherited from Array.prototype"
                );
            },
        );
    }

    #[test]
    fn conversions_and_identity() {
        with_values(
            "['', 'a', ' 2 ', 0, -0, NaN, null, undefined, true, {}, Symbol('s'), 5n, 'a']",
            |p, v| {
                assert_eq!(p.truthy(v[0]), None, "strings: JS decides");
                assert_eq!(p.to_number(v[2]), Some(2.0));
                assert!(p.to_number(v[1]).unwrap().is_nan());
                assert_eq!(p.truthy(v[3]), Some(false));
                assert_eq!(p.truthy(v[4]), Some(false));
                assert_eq!(p.truthy(v[5]), Some(false));
                assert_eq!(p.to_number(v[6]), Some(0.0));
                assert!(p.to_number(v[7]).unwrap().is_nan());
                assert_eq!(p.to_number(v[8]), Some(1.0));
                assert_eq!(p.to_number(v[9]), None, "objects may run valueOf");
                assert_eq!(p.to_number(v[10]), None);
                assert_eq!(p.to_number(v[11]), None);
                assert_eq!(
                    p.string_id(v[1]),
                    p.string_id(v[12]),
                    "one literal, one string"
                );
                assert_eq!(p.string_id(v[3]), None);
                let (a, b) = (p.key_of(v[1]).unwrap(), p.key_of(v[12]).unwrap());
                assert_eq!(a.id(), b.id());
            },
        );
    }

    #[test]
    fn float32_outputs() {
        with_values(
            "const rab = new ArrayBuffer(16, { maxByteLength: 32 }); const t = new Float32Array(rab); rab.resize(8); \
             const d = new Float32Array(4); d.buffer.transfer(); \
             [new Float32Array(3), t, d, new Float32Array(new ArrayBuffer(8).transferToImmutable()), new Float64Array(2), new Float32Array(new ArrayBuffer(16), 4, 2)]",
            |p, v| {
                let o = p.f32_out(v[0]).unwrap();
                assert_eq!(o.len(), 3);
                o.set(1, 0.1);
                o.set(3, 9.0); // dropped
                assert_eq!(o.get(1), Some(0.1f32));
                assert_eq!(o.get(3), None);
                assert_eq!(p.f32_out(v[1]).unwrap().len(), 2, "length-tracking, shrunk");
                assert!(p.f32_out(v[2]).unwrap().is_empty(), "detached");
                assert!(p.f32_out(v[3]).is_none(), "immutable buffer");
                assert!(p.f32_out(v[4]).is_none(), "not a Float32Array");
                let off = p.f32_out(v[5]).unwrap();
                assert_eq!(off.len(), 2, "a view at an offset");
            },
        );
    }
}
