// re2d rig edit — the page (docs/edit.md): the drawing with its skeleton and the parts the
// server cuts, the mouse and the panel that edit the declaration, save and build.

import * as M from './model.js';
import * as D from './draw.js';

const $ = (id) => document.getElementById(id);

// Everything the page knows.
const S = {
    decl: null, w: 0, h: 0, rgba: null, file: '', joints: [], fresh: false, motions: [],
    rule: 'paint', div: 1, mag: 1,
    labels: null, parts: null,           // the shown preview
    sel: null,                           // {bone, point|null}
    gen: 0, shownGen: 0, inFlight: 0,    // previews asked, shown, unanswered
    outlines: [],                        // per bone its outline pixels at this zoom
    history: [], future: [], dirty: false,
    drag: null, timer: null, walkTimer: null,
};

// What the browser test reads.
const api = {
    ready: false,
    previews: 0,
    last: null,
    get state() {
        return { gen: S.gen, shownGen: S.shownGen, inFlight: S.inFlight, timer: S.timer != null, dirty: S.dirty, div: S.div, mag: S.mag };
    },
    get decl() { return S.decl; },
    get idle() { return S.timer == null && S.inFlight === 0 && S.shownGen === S.gen; },
};
window.re2dEdit = api;

async function post(path, body) {
    return fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

function status(text) { $('status').textContent = text; }

// ---- zoom ----------------------------------------------------------------------------------

const ZOOMS = [['d8', '1/8'], ['d6', '1/6'], ['d4', '1/4'], ['d3', '1/3'], ['d2', '1/2'], ['d1', '1:1'], ['m2', '2:1'], ['m3', '3:1'], ['m4', '4:1']];

function setZoom(v) {
    S.div = v[0] === 'd' ? +v.slice(1) : 1;
    S.mag = v[0] === 'm' ? +v.slice(1) : 1;
    $('zoom').value = v;
    const [dw, dh] = D.displaySize(S.w, S.h, S.div);
    for (const c of [$('base'), $('over')]) {
        c.width = dw; c.height = dh;
        c.style.width = `${dw * S.mag}px`; c.style.height = `${dh * S.mag}px`;
    }
    S.outlines = [];
    renderBase();
    renderOverlay();
}

// The largest zoom at which the drawing fits the stage.
function fitZoom() {
    const st = $('stage');
    for (const d of [1, 2, 3, 4, 6, 8]) {
        if (S.w / d <= st.clientWidth && S.h / d <= st.clientHeight) return `d${d}`;
    }
    return 'd8';
}

// ---- rendering -----------------------------------------------------------------------------

function renderBase() {
    const img = D.base(S.rgba, S.w, S.h, S.labels, S.div, $('owners').checked, $('ties').checked);
    $('base').getContext('2d').putImageData(img, 0, 0);
}

function renderOverlay() {
    const img = D.overlay(S.decl, S.w, S.h, S.div, S.sel, S.outlines);
    $('over').getContext('2d').putImageData(img, 0, 0);
}

function el(tag, props = {}, ...kids) {
    const e = document.createElement(tag);
    Object.assign(e, props);
    for (const k of kids) e.append(k);
    return e;
}

function swatch(k) {
    const c = M.colour(k);
    const s = el('span', { className: 'sw' });
    s.style.background = `rgb(${c[0]},${c[1]},${c[2]})`;
    return s;
}

function renderPanel() {
    $('file').textContent = S.file;
    $('dirty').textContent = S.dirty ? '● unsaved' : (S.fresh ? 'new: not saved yet' : '');
    $('undo').disabled = S.history.length === 0;
    $('redo').disabled = S.future.length === 0;
    const list = $('bones');
    list.replaceChildren();
    const order = M.nearToFar(S.decl);
    order.forEach((k, n) => {
        const b = S.decl.bones[k];
        const up = el('button', { textContent: '▲', title: 'nearer' });
        const down = el('button', { textContent: '▼', title: 'farther' });
        up.disabled = n === 0;
        down.disabled = n === order.length - 1;
        up.onclick = (e) => { e.stopPropagation(); edit(() => M.moveInDepth(S.decl, k, -1)); };
        down.onclick = (e) => { e.stopPropagation(); edit(() => M.moveInDepth(S.decl, k, 1)); };
        const li = el('li', {}, swatch(k), el('span', { className: 'nm', textContent: b.name }));
        if (b.part === false) li.append(el('span', { className: 'nopart', textContent: 'part: false' }));
        else if (S.parts && S.parts[k] === false) li.append(el('span', { className: 'nopart', textContent: 'no part' }));
        li.append(up, down);
        li.dataset.bone = k;
        if (S.sel && S.sel.bone === k) li.className = 'sel';
        li.onclick = () => select(k, null);
        list.append(li);
    });
    renderBone();
    $('facing').value = S.decl.facing === 'left' ? 'left' : 'right';
    $('background').textContent = `background: ${S.decl.background ?? 'auto'}`;
}

function renderBone() {
    const box = $('bone');
    if (!S.sel || !S.decl.bones[S.sel.bone]) { box.hidden = true; return; }
    box.hidden = false;
    const k = S.sel.bone, b = S.decl.bones[k];
    $('name').value = b.name;
    const par = $('parent');
    par.replaceChildren(el('option', { value: '', textContent: '(none: a root)' }));
    const below = M.descendants(S.decl, k);
    S.decl.bones.forEach((o, i) => {
        if (!below.has(i)) par.append(el('option', { value: o.name, textContent: o.name }));
    });
    par.value = b.parent ?? '';
    $('part').checked = b.part !== false;
    $('bend').value = b.bend === 'reversed' ? 'reversed' : 'normal';
    $('bend').disabled = b.parent == null;
    $('joint').value = (S.decl.mocap && S.decl.mocap[b.name]) || '';
    const rs = M.radii(b);
    const i = S.sel.point;
    $('pointinfo').textContent = i == null
        ? `${b.points.length} points, radius ${Array.isArray(b.radius) ? rs.join(', ') : b.radius}`
        : `point ${i}${i === 0 ? ' (pivot)' : ''}: (${b.points[i][0]}, ${b.points[i][1]}), radius ${rs[i]}`;
    $('delpoint').disabled = i == null || b.points.length <= 2;
    $('delbone').disabled = S.decl.bones.length <= 1;
}

function renderResult(j, error) {
    $('error').textContent = error || '';
    const t = $('confidence');
    t.replaceChildren();
    if (j && j.confidence) {
        const c = j.confidence;
        const rows = [['doubt', c.doubt], ['tie-break share', c.tie_share], ['border off painted edges', c.unpainted_border_share],
            ['seed disagreement', c.seed_disagreement], ['tube excess', c.tube_excess], ['fit shrink', c.fit_shrink]];
        for (const [n, v] of rows) t.append(el('tr', {}, el('td', { textContent: n }), el('td', { textContent: v.toFixed(3) })));
    }
    const w = $('warnings');
    w.replaceChildren();
    for (const x of (j && j.warnings) || []) w.append(el('li', { textContent: x }));
}

// ---- changes, history, previews ------------------------------------------------------------

function snapshot() {
    S.history.push(JSON.stringify(S.decl));
    if (S.history.length > 200) S.history.shift();
    S.future = [];
}

// Runs `f` (which edits S.decl and returns false when it changed nothing) as one undoable step.
function edit(f, bones = null) {
    const before = JSON.stringify(S.decl);
    if (f() === false) return;
    if (JSON.stringify(S.decl) === before) return;
    S.history.push(before);
    S.future = [];
    changed(bones);
}

// After any change: outlines of `bones` (all when null) are redrawn, a preview is asked for.
function changed(bones, delay = 150) {
    S.dirty = true;
    if (bones) for (const k of bones) S.outlines[k] = null;
    else S.outlines = [];
    if (S.sel && !S.decl.bones[S.sel.bone]) S.sel = null;
    renderOverlay();
    renderPanel();
    schedulePreview(delay);
}

function schedulePreview(delay) {
    clearTimeout(S.timer);
    S.timer = setTimeout(() => { S.timer = null; preview(); }, delay);
}

async function preview() {
    const gen = ++S.gen;
    S.inFlight++;
    status('cutting…');
    let r, j;
    try {
        r = await post('api/preview', { gen, declaration: S.decl, rule: S.rule });
        j = await r.json();
    } catch (e) {
        S.inFlight--;
        status(`preview failed: ${e}`);
        return;
    }
    S.inFlight--;
    // a newer preview was asked for (or shown): this one is stale
    if (j.superseded || gen < S.shownGen) {
        if (gen === S.gen && j.superseded) S.shownGen = gen;
        return;
    }
    S.shownGen = gen;
    if (r.status !== 200) {
        renderResult(null, j.error || `error ${r.status}`);
        status('');
        api.last = { gen, error: j.error };
        return;
    }
    S.labels = D.decodeRuns(j.runs, S.w * S.h);
    S.parts = j.parts;
    renderBase();
    renderResult(j, '');
    renderPanel();
    api.previews++;
    api.last = { gen, labels: S.labels, parts: j.parts, warnings: j.warnings, confidence: j.confidence, cpu: j.cpu_seconds };
    status(`parts cut in ${(j.cpu_seconds * 1000).toFixed(0)} ms CPU`);
}

function undo() {
    if (!S.history.length) return;
    S.future.push(JSON.stringify(S.decl));
    S.decl = JSON.parse(S.history.pop());
    changed(null, 0);
}

function redo() {
    if (!S.future.length) return;
    S.history.push(JSON.stringify(S.decl));
    S.decl = JSON.parse(S.future.pop());
    changed(null, 0);
}

function select(k, point) {
    S.sel = k == null ? null : { bone: k, point };
    renderOverlay();
    renderPanel();
}

// ---- the mouse -----------------------------------------------------------------------------

// The event's position in drawing pixels.
function toDrawing(e) {
    const r = $('over').getBoundingClientRect();
    const [dw, dh] = D.displaySize(S.w, S.h, S.div);
    return [(e.clientX - r.left) / r.width * dw * S.div, (e.clientY - r.top) / r.height * dh * S.div];
}

// Drawing pixels per CSS pixel.
const scale = () => S.div / S.mag;

function nearestPoint(p, tol) {
    let best = null;
    const order = M.nearToFar(S.decl);
    if (S.sel) order.unshift(S.sel.bone);
    for (const k of order) {
        S.decl.bones[k].points.forEach((q, i) => {
            const d = Math.hypot(q[0] - p[0], q[1] - p[1]);
            if (d <= tol && (!best || d < best.d - 1e-9)) best = { k, i, d };
        });
    }
    return best;
}

// The tube edge under p: the bone (the selected first, then near to far) whose outline is
// within tol, with the point whose radius a drag changes.
function nearestEdge(p, tol) {
    const order = M.nearToFar(S.decl);
    if (S.sel) order.unshift(S.sel.bone);
    for (const k of order) {
        const b = S.decl.bones[k];
        const rs = M.radii(b);
        const n = M.nearestOnAxis(b, rs, p);
        if (n && Math.abs(n.d - n.r) <= tol) {
            const i = n.t < 0.5 ? n.seg : n.seg + 1;
            return { k, i, offset: n.d - n.r, rInterp: n.r, rOrig: rs[i] };
        }
    }
    return null;
}

function insideBone(p) {
    for (const k of M.nearToFar(S.decl)) {
        const b = S.decl.bones[k];
        if (M.tubeD(b, M.radii(b), p) <= 0) return k;
    }
    return null;
}

function onDown(e) {
    if (e.button !== 0) return;
    const p = toDrawing(e);
    const pt = nearestPoint(p, 8 * scale());
    if (pt) {
        const at = S.decl.bones[pt.k].points[pt.i];
        const group = e.shiftKey ? [[pt.k, pt.i]] : M.pointsAt(S.decl, at, 0.5);
        S.drag = { kind: 'point', start: p, group, orig: group.map(([k, i]) => S.decl.bones[k].points[i].slice()), before: JSON.stringify(S.decl), moved: false };
        select(pt.k, pt.i);
    } else {
        const edge = nearestEdge(p, 5 * scale());
        if (edge) {
            S.drag = { kind: 'radius', ...edge, before: JSON.stringify(S.decl), moved: false };
            select(edge.k, null);
        } else {
            select(insideBone(p), null);
            return;
        }
    }
    $('over').setPointerCapture(e.pointerId);
}

function onMove(e) {
    const g = S.drag;
    if (!g) return;
    const p = toDrawing(e);
    const touched = new Set();
    if (g.kind === 'point') {
        const dx = p[0] - g.start[0], dy = p[1] - g.start[1];
        g.group.forEach(([k, i], n) => {
            const o = g.orig[n];
            S.decl.bones[k].points[i] = [M.round1(Math.min(Math.max(o[0] + dx, 0), S.w)), M.round1(Math.min(Math.max(o[1] + dy, 0), S.h))];
            touched.add(k);
        });
    } else {
        const b = S.decl.bones[g.k];
        const n = M.nearestOnAxis(b, M.radii(b), p);
        const target = n.d - g.offset;
        M.setRadius(b, g.i, Array.isArray(b.radius) ? g.rOrig + (target - g.rInterp) : target);
        touched.add(g.k);
    }
    g.moved = true;
    S.dirty = true;
    for (const k of touched) S.outlines[k] = null;
    renderOverlay();
    renderBone();
    schedulePreview(300);
}

function onUp(e) {
    const g = S.drag;
    if (!g) return;
    S.drag = null;
    $('over').releasePointerCapture(e.pointerId);
    if (g.moved && JSON.stringify(S.decl) !== g.before) {
        S.history.push(g.before);
        S.future = [];
        changed([...new Set((g.group || [[g.k]]).map((x) => x[0]))], 0);
    }
}

function onDouble(e) {
    const p = toDrawing(e);
    const order = M.nearToFar(S.decl);
    if (S.sel) order.unshift(S.sel.bone);
    for (const k of order) {
        const b = S.decl.bones[k];
        const n = M.nearestOnAxis(b, M.radii(b), p);
        if (n && n.d <= 6 * scale() && n.t > 0 && n.t < 1) {
            let at = null;
            edit(() => { at = M.insertPoint(b, n.seg, n.t); }, [k]);
            select(k, at);
            return;
        }
    }
}

function onKey(e) {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'z') { e.preventDefault(); if (e.shiftKey) redo(); else undo(); }
    else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'y') { e.preventDefault(); redo(); }
    else if (e.key === 'Delete' || e.key === 'Backspace') deletePoint();
    else if (e.key === 'Escape') select(null, null);
}

function deletePoint() {
    if (!S.sel || S.sel.point == null) return;
    const k = S.sel.bone;
    edit(() => M.removePoint(S.decl.bones[k], S.sel.point), [k]);
    select(k, null);
}

// ---- the panel -----------------------------------------------------------------------------

function wirePanel() {
    $('undo').onclick = undo;
    $('redo').onclick = redo;
    $('zoom').onchange = (e) => setZoom(e.target.value);
    $('rule').onchange = (e) => { S.rule = e.target.value; schedulePreview(0); };
    $('owners').onchange = renderBase;
    $('ties').onchange = renderBase;
    $('add').onclick = () => { let at; edit(() => { at = M.addChild(S.decl, null, S.w, S.h); }); select(at, null); };
    $('child').onclick = () => { let at; edit(() => { at = M.addChild(S.decl, S.sel.bone, S.w, S.h); }); select(at, null); };
    $('delbone').onclick = () => { edit(() => M.removeBone(S.decl, S.sel.bone)); select(null, null); };
    $('delpoint').onclick = deletePoint;
    $('name').onchange = (e) => {
        const k = S.sel.bone;
        const name = e.target.value.trim();
        if (S.decl.bones.some((b, i) => i !== k && b.name === name) || !name) {
            status(`"${name}" is empty or taken`);
            e.target.value = S.decl.bones[k].name;
            return;
        }
        edit(() => M.rename(S.decl, k, name), [k]);
    };
    $('parent').onchange = (e) => edit(() => M.setParent(S.decl, S.sel.bone, e.target.value || null));
    $('part').onchange = (e) => edit(() => M.setPart(S.decl, S.sel.bone, e.target.checked));
    $('bend').onchange = (e) => edit(() => M.setBend(S.decl, S.sel.bone, e.target.value === 'reversed'));
    $('joint').onchange = (e) => edit(() => M.setJoint(S.decl, S.sel.bone, e.target.value.trim()));
    $('facing').onchange = (e) => edit(() => { S.decl.facing = e.target.value; });
    $('save').onclick = save;
    $('build').onclick = build;
    const over = $('over');
    over.addEventListener('pointerdown', onDown);
    over.addEventListener('pointermove', onMove);
    over.addEventListener('pointerup', onUp);
    over.addEventListener('pointercancel', onUp);
    over.addEventListener('dblclick', onDouble);
    window.addEventListener('keydown', onKey);
}

async function save() {
    status('saving…');
    const r = await post('api/save', { declaration: S.decl });
    const j = await r.json();
    if (r.status === 200) {
        S.dirty = false;
        S.fresh = false;
        status(`saved ${j.saved}`);
        api.saved = (api.saved || 0) + 1;
    } else {
        status(`not saved: ${j.error}`);
    }
    renderPanel();
}

async function build() {
    $('build').disabled = true;
    status('building…');
    try {
        const r = await post('api/build', { declaration: S.decl, rule: S.rule });
        const j = await r.json();
        $('buildout').hidden = false;
        if (r.status !== 200) {
            $('gates').textContent = j.error;
            $('gates').className = 'fail';
            status('');
            return;
        }
        $('gates').textContent = j.failed.length ? `failed gates: ${j.failed.join(', ')}` : `every gate passed (${j.seconds.toFixed(1)} s)`;
        $('gates').className = j.failed.length ? 'fail' : '';
        const img = $('sheet');
        img.onload = () => walk(img, j);
        img.src = j.sheet;
        status('built');
        api.built = j;
    } finally {
        $('build').disabled = false;
    }
}

// The walk: the sheet's second row, one frame at a time, 8 frames a second.
function walk(img, j) {
    clearInterval(S.walkTimer);
    const c = $('walk');
    if (!j.frames) { c.hidden = true; return; }
    const [tw, th] = j.panel;
    c.hidden = false;
    c.width = tw; c.height = th;
    let f = 0;
    const ctx = c.getContext('2d');
    S.walkTimer = setInterval(() => {
        ctx.drawImage(img, f * tw, th, tw, th, 0, 0, tw, th);
        f = (f + 1) % j.frames;
    }, 125);
}

// ---- start ---------------------------------------------------------------------------------

async function start() {
    const s = await (await fetch('api/session')).json();
    const px = await (await fetch('silhouette.rgba')).arrayBuffer();
    Object.assign(S, { decl: s.declaration, w: s.width, h: s.height, file: s.file, joints: s.joints, fresh: s.fresh, motions: s.motions, rule: s.rule });
    S.rgba = new Uint8Array(px);
    $('rule').value = S.rule;
    $('joints').replaceChildren(...S.joints.map((j) => el('option', { value: j })));
    for (const [v, t] of ZOOMS) $('zoom').append(el('option', { value: v, textContent: t }));
    wirePanel();
    setZoom(fitZoom());
    renderPanel();
    // the page's liveness: the server stops a few seconds after the last page closes
    new EventSource('api/events');
    api.ready = true;
    await preview();
}

start().catch((e) => status(`the editor failed to start: ${e}`));
