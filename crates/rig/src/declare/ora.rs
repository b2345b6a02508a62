//! OpenRaster (`.ora`, as Krita, GIMP and MyPaint write it): a zip holding `mimetype`
//! (`image/openraster`), `stack.xml` and one PNG per layer.
//!
//! - `stack.xml`: the root `<image w h>` holds one `<stack>`; a `<stack>` holds `<layer>`s
//!   and nested `<stack>`s (groups), the first child on top. A layer's `src` names its PNG
//!   in the zip (with or without a leading `/`: pyora writes both), `x`/`y` place it (default 0), `opacity` (0–1, default 1) multiplies into
//!   its alpha, `visibility="hidden"` leaves it out; a group's opacity and visibility apply
//!   to everything in it, its `name` is the layers' group name. At most 64 groups deep.
//! - Every size is checked before anything is inflated: the entry's uncompressed size from
//!   the zip's directory against `file-max-bytes` (`json-max-bytes` for `stack.xml`), the
//!   canvas against the image limits, each layer PNG's header (its first 33 bytes) against
//!   the canvas and `rig-max-layer-pixels`; an entry that inflates to another size than its
//!   directory says is refused. Zip entries are read with the `zip` crate (deflate or
//!   stored).

use std::io::{Cursor, Read};

use re2d::limits::Limits;

use crate::RigError;
use crate::declare::layers::{Layer, Layered, check_rect, count_layer};

fn bad(msg: impl Into<String>) -> RigError {
    RigError::new("E_RIG_IMAGE", msg)
}

type Zip<'a> = zip::ZipArchive<Cursor<&'a [u8]>>;

/// Entry `name` of the zip, also when the zip stores it with a leading `/` (pyora does).
fn open<'z, 'a>(
    z: &'z mut Zip<'a>,
    name: &str,
) -> Result<zip::read::ZipFile<'z, Cursor<&'a [u8]>>, RigError> {
    let i = z
        .index_for_name(name)
        .or_else(|| z.index_for_name(&format!("/{name}")))
        .ok_or_else(|| bad(format!("the OpenRaster zip has no '{name}'")))?;
    z.by_index(i).map_err(|e| {
        bad(format!(
            "the OpenRaster zip's '{name}' is not readable: {e}"
        ))
    })
}

/// Reads entry `name` whole, after checking its declared size against `max`
/// (`limit` names it).
fn entry(z: &mut Zip, name: &str, max: u64, limit: &str) -> Result<Vec<u8>, RigError> {
    let mut f = open(z, name)?;
    let size = f.size();
    if size > max {
        return Err(RigError::new(
            "E_RIG_LIMIT",
            format!(
                "'{name}' inflates to {size} bytes, more than {max} (limit {limit}, see --limit)"
            ),
        ));
    }
    let mut out = Vec::with_capacity(size as usize);
    (&mut f)
        .take(size + 1)
        .read_to_end(&mut out)
        .map_err(|e| bad(format!("'{name}' does not inflate: {e}")))?;
    if out.len() as u64 != size {
        return Err(bad(format!(
            "'{name}' inflates to another size than the zip's directory says ({size} bytes)"
        )));
    }
    Ok(out)
}

/// The first 33 bytes of entry `name` (a PNG's signature and header), read without
/// inflating the rest.
fn head(z: &mut Zip, name: &str, max: u64) -> Result<(u32, u32), RigError> {
    let mut f = open(z, name)?;
    if f.size() > max {
        return Err(RigError::new(
            "E_RIG_LIMIT",
            format!(
                "'{name}' inflates to {} bytes, more than {max} (limit file-max-bytes, see --limit)",
                f.size()
            ),
        ));
    }
    let mut h = [0u8; 33];
    f.read_exact(&mut h)
        .map_err(|_| bad(format!("'{name}' is not a PNG")))?;
    re2d_riv::model::png_header_size(&h).ok_or_else(|| bad(format!("'{name}' is not a PNG")))
}

/// One layer of the stack, before its pixels are read.
struct Item {
    name: String,
    groups: Vec<String>,
    src: String,
    x: i64,
    y: i64,
    opacity: f64,
}

fn attr_f(n: roxmltree::Node, k: &str, default: f64) -> Result<f64, RigError> {
    match n.attribute(k) {
        None => Ok(default),
        Some(v) => v
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| bad(format!("stack.xml: {k}=\"{v}\" is not a number"))),
    }
}

fn attr_i(n: roxmltree::Node, k: &str) -> Result<i64, RigError> {
    match n.attribute(k) {
        None => Ok(0),
        Some(v) => v
            .trim()
            .parse::<i64>()
            .ok()
            .filter(|v| v.abs() < 1 << 31)
            .ok_or_else(|| bad(format!("stack.xml: {k}=\"{v}\" is not an integer"))),
    }
}

/// The visible layers of `stack` (top first) into `out`; `seen` counts every layer and
/// group against `rig-max-layers`.
fn walk(
    stack: roxmltree::Node,
    groups: &mut Vec<String>,
    opacity: f64,
    out: &mut Vec<Item>,
    seen: &mut usize,
    limits: &Limits,
) -> Result<(), RigError> {
    if groups.len() > 64 {
        return Err(bad("stack.xml: groups nested more than 64 deep"));
    }
    for n in stack.children().filter(|n| n.is_element()) {
        let tag = n.tag_name().name();
        if tag != "stack" && tag != "layer" {
            continue;
        }
        *seen += 1;
        count_layer(*seen, limits)?;
        if n.attribute("visibility") == Some("hidden") {
            continue;
        }
        let op = opacity * attr_f(n, "opacity", 1.0)?.clamp(0.0, 1.0);
        let name = n.attribute("name").unwrap_or("").to_string();
        if tag == "stack" {
            groups.push(name);
            walk(n, groups, op, out, seen, limits)?;
            groups.pop();
        } else {
            // a leading "/" (pyora writes one) names the same entry
            let src = n
                .attribute("src")
                .ok_or_else(|| bad(format!("stack.xml: layer '{name}' has no src")))?
                .trim_start_matches('/');
            out.push(Item {
                name,
                groups: groups.clone(),
                src: src.to_string(),
                x: attr_i(n, "x")?,
                y: attr_i(n, "y")?,
                opacity: op,
            });
        }
    }
    Ok(())
}

/// Reads an OpenRaster file; `canvas` checks the canvas size before any layer is read.
pub fn read(
    bytes: &[u8],
    limits: &Limits,
    canvas: &dyn Fn(u32, u32) -> Result<(), RigError>,
) -> Result<Layered, RigError> {
    let mut z = Zip::new(Cursor::new(bytes))
        .map_err(|e| bad(format!("not a readable zip (OpenRaster): {e}")))?;
    let mime = entry(&mut z, "mimetype", 64, "file-max-bytes")?;
    if mime.trim_ascii() != b"image/openraster" {
        return Err(bad("a zip whose mimetype is not image/openraster"));
    }
    let xml = entry(&mut z, "stack.xml", limits.json_max_bytes, "json-max-bytes")?;
    let xml = String::from_utf8(xml).map_err(|_| {
        RigError::new(
            "E_RIG_LAYER",
            "stack.xml is not UTF-8 (layer names must be UTF-8)",
        )
    })?;
    let doc = roxmltree::Document::parse(&xml).map_err(|e| bad(format!("stack.xml: {e}")))?;
    let root = doc.root_element();
    if root.tag_name().name() != "image" {
        return Err(bad("stack.xml: the root is not <image>"));
    }
    let dim = |k: &str| -> Result<u32, RigError> {
        root.attribute(k)
            .and_then(|v| v.trim().parse::<u32>().ok())
            .filter(|&v| v > 0)
            .ok_or_else(|| bad(format!("stack.xml: <image> has no positive {k}")))
    };
    let (w, h) = (dim("w")?, dim("h")?);
    canvas(w, h)?;
    let Some(stack) = root.children().find(|n| n.has_tag_name("stack")) else {
        return Err(bad("stack.xml: <image> has no <stack>"));
    };
    let mut items = Vec::new();
    let mut seen = 0usize;
    walk(stack, &mut Vec::new(), 1.0, &mut items, &mut seen, limits)?;
    // sizes first, for every layer, before anything is inflated
    let mut total = 0u64;
    let mut dims = Vec::with_capacity(items.len());
    for it in &items {
        let (lw, lh) = head(&mut z, &it.src, limits.file_max_bytes)?;
        check_rect(
            &it.name,
            [it.x, it.y, it.x + lw as i64, it.y + lh as i64],
            (w, h),
            &mut total,
            limits,
        )?;
        dims.push((lw, lh));
    }
    let mut layers = Vec::with_capacity(items.len());
    for (it, (lw, lh)) in items.iter().zip(dims).rev() {
        let png = entry(&mut z, &it.src, limits.file_max_bytes, "file-max-bytes")?;
        let img = re2d::png_io::decode_rgba_limited(Cursor::new(&png), limits)
            .map_err(|e| bad(format!("layer '{}' ({}): {e}", it.name, it.src)))?;
        if (img.width, img.height) != (lw, lh) {
            return Err(bad(format!("layer '{}': its PNG changed size", it.name)));
        }
        let mut rgba = img.data;
        if it.opacity < 1.0 {
            for p in rgba.chunks_exact_mut(4) {
                p[3] = (p[3] as f64 * it.opacity).round() as u8;
            }
        }
        if lw == 0 || lh == 0 {
            continue;
        }
        layers.push(Layer {
            name: it.name.clone(),
            groups: it.groups.clone(),
            x: it.x as usize,
            y: it.y as usize,
            w: lw as usize,
            h: lh as usize,
            rgba,
        });
    }
    Ok(Layered {
        width: w,
        height: h,
        layers,
    })
}
