// Plain-JS transcription of js-mesh.md §3, §4 and §7 (test oracle and bench baseline; no natives).
export function solveTwoBoneIK(startX, startY, len1, len2, targetX, targetY, bend) {
    const dx = targetX - startX, dy = targetY - startY;
    const dist = Math.hypot(dx, dy);
    const reachMax = len1 + len2, reachMin = Math.abs(len1 - len2);
    const base = Math.atan2(dy, dx);
    const side = bend < 0 ? -1 : 1;
    if (dist >= reachMax || len1 <= 0 || len2 <= 0) {
        return { a1: base, a2: base, elbow: { x: startX + Math.cos(base) * len1, y: startY + Math.sin(base) * len1 }, reached: dist <= reachMax };
    }
    const reach = Math.max(reachMin + 1e-6, dist);
    const cosA = (len1 * len1 + reach * reach - len2 * len2) / (2 * len1 * reach);
    const a1 = base + side * Math.acos(Math.max(-1, Math.min(1, cosA)));
    const elbow = { x: startX + Math.cos(a1) * len1, y: startY + Math.sin(a1) * len1 };
    const a2 = Math.atan2(targetY - elbow.y, targetX - elbow.x);
    return { a1, a2, elbow, reached: true };
}

export function solveChainIK(startX, startY, lengths, targetX, targetY, opts) {
    const o = opts || {};
    const n = Array.isArray(lengths) ? lengths.length : 0;
    if (n === 0) return { angles: [], reached: false, distance: Infinity };
    const iterations = isFinite(Number(o.iterations)) ? Math.max(1, Number(o.iterations)) : 12;
    const tolerance = isFinite(Number(o.tolerance)) ? Math.max(0, Number(o.tolerance)) : 0.5;
    let total = 0;
    for (let i = 0; i < n; i++) total += Number(lengths[i]) || 0;
    let distance = Math.hypot(targetX - startX, targetY - startY);
    if (distance >= total) {
        const a = Math.atan2(targetY - startY, targetX - startX);
        return { angles: new Array(n).fill(a), reached: false, distance: distance - total };
    }
    if (distance <= 1e-9) {
        const angles = [];
        for (let i = 0; i < n; i++) angles.push(i % 2 ? Math.PI : 0);
        return { angles, reached: true, distance: 0 };
    }
    const dir = Math.atan2(targetY - startY, targetX - startX);
    const px = [startX], py = [startY];
    for (let i = 0; i < n; i++) {
        px.push(px[i] + Math.cos(dir) * lengths[i]);
        py.push(py[i] + Math.sin(dir) * lengths[i]);
    }
    for (let it = 0; it < iterations; it++) {
        px[n] = targetX; py[n] = targetY;
        for (let i = n - 1; i >= 0; i--) {
            let dx = px[i] - px[i + 1], dy = py[i] - py[i + 1];
            let len = Math.hypot(dx, dy);
            if (len < 1e-9) { dx = 1; dy = 0; len = 1; }
            px[i] = px[i + 1] + (dx / len) * lengths[i];
            py[i] = py[i + 1] + (dy / len) * lengths[i];
        }
        px[0] = startX; py[0] = startY;
        for (let i = 0; i < n; i++) {
            let dx = px[i + 1] - px[i], dy = py[i + 1] - py[i];
            let len = Math.hypot(dx, dy);
            if (len < 1e-9) { dx = Math.cos(dir); dy = Math.sin(dir); len = 1; }
            px[i + 1] = px[i] + (dx / len) * lengths[i];
            py[i + 1] = py[i] + (dy / len) * lengths[i];
        }
        distance = Math.hypot(targetX - px[n], targetY - py[n]);
        if (distance <= tolerance) break;
    }
    const angles = [];
    for (let i = 0; i < n; i++) angles.push(Math.atan2(py[i + 1] - py[i], px[i + 1] - px[i]));
    return { angles, reached: distance <= tolerance, distance };
}

export function deformPart(part, pose, rest, out) {
    const n = part.vertexCount;
    const need = n * 8;
    if (out.length < need) return { buffer: out, count: 0, need };
    const verts = part.verts, uv = part.uv;
    // the engine reads every colour before the first vertex (issue 20 item 7)
    const rgb = [];
    for (let i = 0; i < n; i++) {
        const c = part.colors ? part.colors[i] : null;
        if (Array.isArray(c)) rgb.push(Number(c[0]) || 0, Number(c[1]) || 0, Number(c[2]) || 0);
        else rgb.push(255, 255, 255);
    }
    for (let i = 0; i < n; i++) {
        let x = verts[2 * i], y = verts[2 * i + 1];
        const w = part.weights[i];
        if (w && w.length) {
            let dx = 0, dy = 0, total = 0;
            for (let k = 0; k < w.length; k++) {
                const name = w[k][0], weight = w[k][1];
                const cur = pose ? pose[name] : null;
                const rst = rest ? rest[name] : null;
                if (!cur || !rst) continue;
                total += weight;
                const da = cur.angle - rst.angle;
                const lx = verts[2 * i] - rst.x, ly = verts[2 * i + 1] - rst.y;
                const rx = lx * Math.cos(da) - ly * Math.sin(da) + cur.x;
                const ry = lx * Math.sin(da) + ly * Math.cos(da) + cur.y;
                dx += (rx - verts[2 * i]) * weight;
                dy += (ry - verts[2 * i + 1]) * weight;
            }
            if (total > 0.0001) { x += dx / total; y += dy / total; }
        }
        const o = 8 * i;
        out[o] = x; out[o + 1] = y; out[o + 2] = part.depth;
        out[o + 3] = uv[2 * i] || 0; out[o + 4] = uv[2 * i + 1] || 0;
        out[o + 5] = rgb[3 * i]; out[o + 6] = rgb[3 * i + 1]; out[o + 7] = rgb[3 * i + 2];
    }
    return { buffer: out, count: n, need };
}

// Deterministic PRNG (mulberry32) for generated inputs.
export function rng(seed) {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

// A grid part of about `n` vertices weighted between bones 'upper' and 'lower'.
export function armPart(n, seed) {
    const r = rng(seed);
    const verts = [], uv = [], weights = [], tris = [];
    const cols = Math.max(2, Math.round(Math.sqrt(n * 4)));
    const rows = Math.max(2, Math.ceil(n / cols));
    for (let j = 0; j < rows; j++) {
        for (let i = 0; i < cols; i++) {
            if (verts.length / 2 >= n) break;
            const x = (i / (cols - 1)) * 200, y = (j / (rows - 1)) * 20 - 10;
            verts.push(x + r() * 0.01, y);
            uv.push(i / (cols - 1), j / (rows - 1));
            const t = Math.min(1, Math.max(0, (x - 80) / 40));
            weights.push(['upper', 1 - t, 'lower', t]);
        }
    }
    const count = verts.length / 2;
    for (let j = 0; j + 1 < rows; j++) {
        for (let i = 0; i + 1 < cols; i++) {
            const a = j * cols + i, b = a + 1, c = a + cols, d = c + 1;
            if (d < count) tris.push(a, b, d, a, d, c);
        }
    }
    return { verts, uv, weights, tris };
}
