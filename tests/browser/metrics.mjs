// re2d riv browser harness: image metrics of spec rive-export.md §10.4, computed from saved PNGs.
import fs from 'node:fs';
import { PNG } from 'pngjs';

export function readPng(file) {
    const p = PNG.sync.read(fs.readFileSync(file));
    return { w: p.width, h: p.height, data: p.data };
}

export function writePng(file, img) {
    const p = new PNG({ width: img.w, height: img.h });
    img.data.copy ? img.data.copy(p.data) : p.data.set(img.data);
    fs.writeFileSync(file, PNG.sync.write(p));
}

function sameSize(a, b) {
    if (a.w !== b.w || a.h !== b.h) throw new Error(`size mismatch ${a.w}x${a.h} vs ${b.w}x${b.h}`);
}

// Composited over opaque black.
function over(img, i) {
    const a = img.data[i + 3] / 255;
    return [img.data[i] * a, img.data[i + 1] * a, img.data[i + 2] * a];
}

export const mask = (img, i) => img.data[i * 4 + 3] > 127;

export function coverage(img) {
    let n = 0;
    for (let i = 0; i < img.w * img.h; i++) if (mask(img, i)) n++;
    return n / (img.w * img.h);
}

export function iou(a, b) {
    sameSize(a, b);
    let inter = 0, uni = 0;
    for (let i = 0; i < a.w * a.h; i++) {
        const ma = mask(a, i), mb = mask(b, i);
        if (ma && mb) inter++;
        if (ma || mb) uni++;
    }
    return uni ? inter / uni : 1;
}

// Fraction of pixels in A ∪ B whose max RGB difference (over black) is ≤ 32.
export function colour(a, b) {
    sameSize(a, b);
    let ok = 0, uni = 0;
    for (let i = 0; i < a.w * a.h; i++) {
        if (!(mask(a, i) || mask(b, i))) continue;
        uni++;
        const ca = over(a, i * 4), cb = over(b, i * 4);
        const d = Math.max(Math.abs(ca[0] - cb[0]), Math.abs(ca[1] - cb[1]), Math.abs(ca[2] - cb[2]));
        if (d <= 32) ok++;
    }
    return uni ? ok / uni : 1;
}

// Pixels whose max RGBA channel difference is > 8; `region` (optional) is a Uint8Array mask.
export function changed(a, b, region) {
    sameSize(a, b);
    let n = 0;
    for (let i = 0; i < a.w * a.h; i++) {
        if (region && !region[i]) continue;
        const o = i * 4;
        let d = 0;
        for (let k = 0; k < 4; k++) d = Math.max(d, Math.abs(a.data[o + k] - b.data[o + k]));
        if (d > 8) n++;
    }
    return n;
}

export function union(a, b) {
    let n = 0;
    for (let i = 0; i < a.w * a.h; i++) if (mask(a, i) || mask(b, i)) n++;
    return n;
}

export function regionOf(img) {
    const r = new Uint8Array(img.w * img.h);
    for (let i = 0; i < r.length; i++) r[i] = mask(img, i) ? 1 : 0;
    return r;
}

export function count(region) {
    let n = 0;
    for (const v of region) n += v;
    return n;
}

// Pixels of `own` not in any of `others`, eroded by `by` pixels (4-neighbourhood steps).
export function exclusive(own, others, w, h, by) {
    let r = new Uint8Array(own.length);
    for (let i = 0; i < r.length; i++) r[i] = own[i] && !others.some((o) => o[i]) ? 1 : 0;
    for (let step = 0; step < by; step++) {
        const n = new Uint8Array(r.length);
        for (let y = 0; y < h; y++) {
            for (let x = 0; x < w; x++) {
                const i = y * w + x;
                n[i] = r[i] && x > 0 && x < w - 1 && y > 0 && y < h - 1 &&
                    r[i - 1] && r[i + 1] && r[i - w] && r[i + w] ? 1 : 0;
            }
        }
        r = n;
    }
    return r;
}

// Fraction of the frame's pixels showing the marker colour [r, g, b] (each channel within 48 of
// it, alpha > 127): the visible share of a part's hidden fill when the fill is painted with it.
export function markerFraction(img, marker) {
    let n = 0;
    for (let i = 0; i < img.w * img.h; i++) {
        const o = i * 4;
        if (img.data[o + 3] > 127 && Math.abs(img.data[o] - marker[0]) <= 48 && Math.abs(img.data[o + 1] - marker[1]) <= 48 &&
            Math.abs(img.data[o + 2] - marker[2]) <= 48) n++;
    }
    return n / (img.w * img.h);
}

// Seams (issue 47; crates/riv/src/seams.rs): the pixels of the runtime frame `img` whose alpha is
// below 250 on the seam mask `maskImg` (render-ref --seam-mask of the same pose: where two or more
// parts meet inside the posed silhouette, eroded by its soft rim), and the mask's size.
export const SEAM_OPAQUE = 250;
export function uncovered(img, maskImg) {
    sameSize(img, maskImg);
    let n = 0, m = 0;
    for (let i = 0; i < img.w * img.h; i++) {
        if (maskImg.data[i * 4 + 3] === 0) continue;
        m++;
        if (img.data[i * 4 + 3] < SEAM_OPAQUE) n++;
    }
    return { uncovered: n, mask: m };
}

// Colour IoU with one pixel of slack (issue 42): the fraction of pixels in A ∪ B whose colour
// (over black) is within 32 of B's at the same pixel or one of its 8 neighbours, and B's of A's
// likewise; the rasterisers' sub-pixel differences along internal edges (outlines, part seams)
// count as agreement, a part drawn in the wrong order (a whole fist) does not.
export function colourNear(a, b) {
    sameSize(a, b);
    const w = a.w, h = a.h;
    const near = (x, y, img, c) => {
        for (let dy = -1; dy <= 1; dy++) {
            for (let dx = -1; dx <= 1; dx++) {
                const xx = x + dx, yy = y + dy;
                if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
                const o = over(img, (yy * w + xx) * 4);
                if (Math.max(Math.abs(o[0] - c[0]), Math.abs(o[1] - c[1]), Math.abs(o[2] - c[2])) <= 32) return true;
            }
        }
        return false;
    };
    let ok = 0, uni = 0;
    for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
            const i = y * w + x;
            if (!(mask(a, i) || mask(b, i))) continue;
            uni++;
            if (near(x, y, b, over(a, i * 4)) && near(x, y, a, over(b, i * 4))) ok++;
        }
    }
    return uni ? ok / uni : 1;
}
