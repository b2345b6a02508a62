// re2d rig edit — the picture, pixel by pixel (docs/edit.md "The picture"). No canvas path or
// smoothing is used: every pixel follows the integer and float rules below, which the Rust
// reference (testkit/examples/edit_overlay.rs) follows too, so the page's pixels can be
// compared with it.

import { colour, radii, tubeD } from './model.js';

// Grey under the transparent pixels of the silhouette (the keyed drawing).
export const GREY = 48;
// Weight of a bone's colour over the pixels it owns (of 256).
export const TINT = 112;
// Half-width of a tube outline, in display pixels.
export const OUTLINE = 0.75;

// Display size of a w x h drawing at zoom 1/div.
export const displaySize = (w, h, div) => [Math.ceil(w / div), Math.ceil(h / div)];

// The run-length ownership map of a preview ([value, count, ...]) as one byte per pixel.
export function decodeRuns(runs, n) {
    const out = new Uint8Array(n);
    let at = 0;
    for (let i = 0; i + 1 < runs.length; i += 2) {
        const end = Math.min(n, at + runs[i + 1]);
        out.fill(runs[i], at, end);
        at = end;
    }
    return out;
}

// The silhouette (the drawing keyed) with the ownership map over it, at zoom 1/div: each display pixel is the mean
// (rounded down) of its block of drawing pixels, each first laid over GREY by its alpha
// (c·a + GREY·(255 − a)) / 255 rounded down, then, where a bone owns it (labels & 127 = 1 +
// the bone's index), mixed with the bone's colour: (c·(256 − TINT) + colour·TINT) >> 8 —
// white instead of the colour where a tie-break decided (labels & 128) and `ties` is on.
export function base(rgba, w, h, labels, div, owners, ties) {
    const [dw, dh] = displaySize(w, h, div);
    const img = new ImageData(dw, dh);
    const out = img.data;
    const acc = new Uint32Array(dw * 3);
    const cnt = new Uint32Array(dw);
    const pal = [];
    for (let k = 0; k < 128; k++) pal.push(colour(k));
    for (let dy = 0; dy < dh; dy++) {
        acc.fill(0);
        cnt.fill(0);
        const y1 = Math.min(h, (dy + 1) * div);
        for (let y = dy * div; y < y1; y++) {
            for (let x = 0; x < w; x++) {
                const i = y * w + x, s = i * 4, a = rgba[s + 3];
                let r = ((rgba[s] * a + GREY * (255 - a)) / 255) | 0;
                let g = ((rgba[s + 1] * a + GREY * (255 - a)) / 255) | 0;
                let b = ((rgba[s + 2] * a + GREY * (255 - a)) / 255) | 0;
                const l = labels ? labels[i] : 0;
                if (owners && (l & 127) > 0) {
                    const c = ties && (l & 128) ? [255, 255, 255] : pal[(l & 127) - 1];
                    r = (r * (256 - TINT) + c[0] * TINT) >> 8;
                    g = (g * (256 - TINT) + c[1] * TINT) >> 8;
                    b = (b * (256 - TINT) + c[2] * TINT) >> 8;
                }
                const dx = (x / div) | 0;
                acc[dx * 3] += r;
                acc[dx * 3 + 1] += g;
                acc[dx * 3 + 2] += b;
                cnt[dx]++;
            }
        }
        for (let dx = 0; dx < dw; dx++) {
            const o = (dy * dw + dx) * 4, n = cnt[dx];
            out[o] = (acc[dx * 3] / n) | 0;
            out[o + 1] = (acc[dx * 3 + 1] / n) | 0;
            out[o + 2] = (acc[dx * 3 + 2] / n) | 0;
            out[o + 3] = 255;
        }
    }
    return img;
}

function put(out, dw, dh, x, y, c) {
    if (x < 0 || y < 0 || x >= dw || y >= dh) return;
    const o = (y * dw + x) * 4;
    out[o] = c[0]; out[o + 1] = c[1]; out[o + 2] = c[2]; out[o + 3] = 255;
}

// The pixels of bone b's tube outline at zoom 1/div: display pixels whose centre, in drawing
// pixels ((x + 0.5)·div, (y + 0.5)·div), lies within OUTLINE display pixels of the outline
// (|tube distance| / div < OUTLINE). Only the tube's box (plus two pixels) is visited.
export function outline(b, dw, dh, div) {
    const rs = radii(b);
    const rmax = Math.max(...rs);
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const p of b.points) {
        x0 = Math.min(x0, p[0] - rmax); y0 = Math.min(y0, p[1] - rmax);
        x1 = Math.max(x1, p[0] + rmax); y1 = Math.max(y1, p[1] + rmax);
    }
    const bx0 = Math.max(0, Math.floor(x0 / div) - 2), by0 = Math.max(0, Math.floor(y0 / div) - 2);
    const bx1 = Math.min(dw, Math.ceil(x1 / div) + 2), by1 = Math.min(dh, Math.ceil(y1 / div) + 2);
    const px = [];
    for (let y = by0; y < by1; y++) {
        for (let x = bx0; x < bx1; x++) {
            const d = tubeD(b, rs, [(x + 0.5) * div, (y + 0.5) * div]) / div;
            if (Math.abs(d) < OUTLINE) px.push(y * dw + x);
        }
    }
    return px;
}

// A segment: 2·(its longer side in display pixels) steps, rounded up (at least 1); at each
// step t = i / n, the point a + t·(b − a) and the two half-pixel neighbours right and below,
// truncated to a pixel.
function line(out, dw, dh, a, b, div, c) {
    const ax = a[0] / div, ay = a[1] / div, bx = b[0] / div, by = b[1] / div;
    const n = Math.max(1, Math.ceil(Math.max(Math.abs(bx - ax), Math.abs(by - ay)) * 2));
    for (let i = 0; i <= n; i++) {
        const t = i / n;
        const x = ax + t * (bx - ax), y = ay + t * (by - ay);
        for (const [ox, oy] of [[0, 0], [0.5, 0], [0, 0.5]]) {
            put(out, dw, dh, Math.trunc(x + ox), Math.trunc(y + oy), c);
        }
    }
}

// A dot of radius r display pixels: the pixels whose centre is within r of the point take c,
// those within r + 1 black.
function dot(out, dw, dh, p, div, r, c) {
    const cx = p[0] / div, cy = p[1] / div;
    for (let y = Math.floor(cy - r - 1); y <= Math.ceil(cy + r + 1); y++) {
        for (let x = Math.floor(cx - r - 1); x <= Math.ceil(cx + r + 1); x++) {
            const ex = x + 0.5 - cx, ey = y + 0.5 - cy;
            const d = Math.sqrt(ex * ex + ey * ey);
            if (d <= r + 1) put(out, dw, dh, x, y, d <= r ? c : [0, 0, 0]);
        }
    }
}

export const WHITE = [255, 255, 255];
export const PIVOT = [220, 20, 20];
export const SELECTED = [255, 255, 255];
export const SELECTED_POINT = [0, 200, 255];

// The skeleton over the drawing, transparent elsewhere, in this order: every bone's tube
// outline in its colour (the selected bone's in white), every bone's polyline in black, a white
// dot of radius 2 at every point but the first, a red dot of radius 3 at every first point (the
// pivot); the selected point last, radius 4, in light blue. `outlines` caches each bone's
// outline pixels (an array per bone, or null to compute).
export function overlay(decl, w, h, div, sel, outlines) {
    const [dw, dh] = displaySize(w, h, div);
    const img = new ImageData(dw, dh);
    const out = img.data;
    decl.bones.forEach((b, k) => {
        if (!outlines[k]) outlines[k] = outline(b, dw, dh, div);
        const c = sel && sel.bone === k ? SELECTED : colour(k);
        for (const i of outlines[k]) {
            const o = i * 4;
            out[o] = c[0]; out[o + 1] = c[1]; out[o + 2] = c[2]; out[o + 3] = 255;
        }
    });
    for (const b of decl.bones) {
        for (let i = 0; i + 1 < b.points.length; i++) line(out, dw, dh, b.points[i], b.points[i + 1], div, [0, 0, 0]);
    }
    for (const b of decl.bones) for (const p of b.points.slice(1)) dot(out, dw, dh, p, div, 2, WHITE);
    for (const b of decl.bones) dot(out, dw, dh, b.points[0], div, 3, PIVOT);
    if (sel && sel.point != null && decl.bones[sel.bone]) {
        const p = decl.bones[sel.bone].points[sel.point];
        if (p) dot(out, dw, dh, p, div, 4, SELECTED_POINT);
    }
    return img;
}
