//! Default `globalThis.engine` of `re2d-qjs` (issue 3 §5): `submitMesh` draws
//! the `draw` vertex layout (js-mesh.md §8.4) on the CPU via [`super::raster`].
//!
//! Members: `width`, `height`, `submitMesh(flat, indexCount, texture)` →
//! triangles drawn, `loadTexture(pngPath)` → id (≥ 0), `clear(r, g, b, a)`
//! (0–255, default opaque black), `savePNG(path)`, `readPixel(x, y)` →
//! `[r, g, b, a]` (re2d addition for tests), `log(...)` (stdout), and the
//! rotsprite natives + host sprites of [`super::sprite`]. A script
//! that assigns its own `globalThis.engine` replaces this object entirely.
//! `loadTexture` reads within the size limits of [`re2d::limits`]: a file
//! or image over one is a RangeError, other failures an Error; its decode
//! must fit the memory limit beside the heap and the held buffers (a
//! RangeError naming `qjs-memory`), and the texture it keeps shrinks the
//! QuickJS heap limit by its size.

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;

use rquickjs::{
    Ctx, Exception, Function, Object, Result, TypedArray,
    function::{Opt, Rest},
};

use super::buffers::with_f32_mut;
use super::raster::{Framebuffer, Texture, write_png};

/// Engine state shared by its functions.
pub struct State {
    /// The framebuffer.
    pub fb: Framebuffer,
    /// `loadTexture` textures.
    pub textures: Vec<Texture>,
    /// Host sprites (rotsprite images), `None` once freed.
    pub sprites: Vec<Option<Texture>>,
}

fn channel(v: Opt<f64>, default: u8) -> u8 {
    match v.0 {
        Some(x) if x.is_finite() => x.round().clamp(0.0, 255.0) as u8,
        _ => default,
    }
}

/// Build the default engine object for a `width × height` framebuffer.
pub fn create<'js>(ctx: &Ctx<'js>, width: u32, height: u32) -> Result<Object<'js>> {
    let st = Rc::new(RefCell::new(State {
        fb: Framebuffer::try_new(width, height).map_err(|e| crate::errors::range_error(ctx, &e))?,
        textures: Vec::new(),
        sprites: Vec::new(),
    }));
    let obj = Object::new(ctx.clone())?;
    obj.set("width", width)?;
    obj.set("height", height)?;

    let s = st.clone();
    obj.set(
        "submitMesh",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>,
                  flat: TypedArray<'js, f32>,
                  count: f64,
                  texture: Opt<f64>|
                  -> Result<usize> {
                let count = if count.is_finite() && count > 0.0 {
                    count as usize
                } else {
                    0
                };
                let mut st = s.borrow_mut();
                let State { fb, textures, .. } = &mut *st;
                let tex = texture
                    .0
                    .filter(|t| t.is_finite() && *t >= 0.0)
                    .and_then(|t| textures.get(t as usize));
                with_f32_mut(&ctx, &flat, |v| fb.draw_triangles(v, count, tex))
            },
        )?,
    )?;

    let s = st.clone();
    obj.set(
        "loadTexture",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>, path: String| -> Result<usize> {
                let path = super::guard::confine_read(Path::new(&path))
                    .map_err(|e| Exception::throw_message(&ctx, &format!("loadTexture: {e}")))?;
                let fail = |e: String| {
                    let msg = format!("loadTexture: {}: {e}", path.display());
                    if e.contains("(limit ") {
                        crate::errors::range_error(&ctx, &msg) // over a size limit
                    } else {
                        Exception::throw_message(&ctx, &msg)
                    }
                };
                // the file, the decode buffer and its RGBA8 copy, counted
                // before the file is read; then the texture kept (an image
                // over a PNG limit is refused by the decoder, naming it)
                super::guard::check_png_file(&ctx, &path, "loadTexture")?;
                let max = re2d::limits::Limits::current().file_max_bytes;
                let bytes = super::guard::read_counted(
                    &ctx,
                    &path,
                    max,
                    "file-max-bytes",
                    0,
                    "loadTexture",
                )?
                .map_err(|e| fail(e.to_string()))?;
                if let Some((w, h)) = re2d::png_io::header_size(&bytes)
                    && re2d::limits::Limits::current().check_image(w, h, 4).is_ok()
                {
                    let rgba = w as u64 * h as u64 * 4;
                    super::guard::check_native(&ctx, bytes.len() as u64 + 2 * rgba, "loadTexture")?;
                }
                let img = re2d::png_io::decode_rgba(std::io::Cursor::new(bytes)).map_err(fail)?;
                super::guard::hold_native(&ctx, img.data.len() as u64);
                let tex = Texture {
                    width: img.width,
                    height: img.height,
                    rgba: img.data,
                };
                let mut st = s.borrow_mut();
                st.textures.push(tex);
                Ok(st.textures.len() - 1)
            },
        )?,
    )?;

    let s = st.clone();
    obj.set(
        "clear",
        Function::new(
            ctx.clone(),
            move |r: Opt<f64>, g: Opt<f64>, b: Opt<f64>, a: Opt<f64>| {
                let c = [channel(r, 0), channel(g, 0), channel(b, 0), channel(a, 255)];
                s.borrow_mut().fb.clear(c);
            },
        )?,
    )?;

    let s = st.clone();
    obj.set(
        "savePNG",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>, path: String| -> Result<()> {
                let st = s.borrow();
                let fb = &st.fb;
                write_png(
                    &ctx,
                    "savePNG",
                    Path::new(&path),
                    fb.width,
                    fb.height,
                    &fb.rgba,
                )
            },
        )?,
    )?;

    let s = st.clone();
    obj.set(
        "readPixel",
        Function::new(ctx.clone(), move |x: f64, y: f64| -> Option<Vec<u8>> {
            let st = s.borrow();
            let fb = &st.fb;
            (x >= 0.0 && y >= 0.0 && (x as u32) < fb.width && (y as u32) < fb.height)
                .then(|| fb.pixel(x as u32, y as u32).to_vec())
        })?,
    )?;

    obj.set(
        "log",
        Function::new(ctx.clone(), |args: Rest<super::guard::Lossy>| {
            let parts: Vec<String> = args.0.into_iter().map(|c| c.0).collect();
            super::host::out_line(&parts.join(" "));
        })?,
    )?;
    super::sprite::install(ctx, &obj, st)?;
    Ok(obj)
}
