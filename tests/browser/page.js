// re2d riv browser harness, in-page part (spec rive-export.md §10.3 "Frames").
// Uses only the low-level API of @rive-app/canvas-single (names checked against the pinned
// version by harness.mjs): RuntimeLoader.awaitInstance, load, defaultArtboard, animationByName,
// LinearAnimationInstance, advance, apply, makeRenderer, clear, align, draw, flush.
'use strict';

window.re2d = {
    // WebGL availability in this browser (the harness refuses to run without it).
    webgl() {
        const c = document.createElement('canvas');
        return !!(c.getContext('webgl2') || c.getContext('webgl'));
    },

    // Loads url; returns {ok, error, artboard, width, height, animations: [{name, fps, duration, loop}]}.
    async info(url) {
        const out = { ok: false };
        try {
            const rive = await window.rive.RuntimeLoader.awaitInstance();
            const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
            const file = await rive.load(bytes, undefined, false);
            if (!file) throw new Error('load returned no file');
            const ab = file.defaultArtboard();
            if (!ab) throw new Error('no default artboard');
            out.artboard = ab.name;
            out.width = ab.bounds.maxX - ab.bounds.minX;
            out.height = ab.bounds.maxY - ab.bounds.minY;
            out.animations = [];
            for (let i = 0; i < ab.animationCount(); i++) {
                const a = ab.animationByIndex(i);
                out.animations.push({ name: a.name, fps: a.fps, duration: a.duration, loop: a.loopValue });
            }
            ab.delete();
            out.ok = true;
        } catch (e) {
            out.error = String((e && e.message) || e);
        }
        return out;
    },

    // Renders clip at each time of `times` (seconds), each from a fresh artboard and a fresh
    // animation instance advanced by t in one step; returns PNG data URLs (un-premultiplied RGBA).
    async frames(url, clip, times) {
        const rive = await window.rive.RuntimeLoader.awaitInstance();
        const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
        const file = await rive.load(bytes, undefined, false);
        if (!file) throw new Error('load returned no file');
        const canvas = document.getElementById('c');
        const probe = file.defaultArtboard();
        const w = Math.round(probe.bounds.maxX - probe.bounds.minX);
        const h = Math.round(probe.bounds.maxY - probe.bounds.minY);
        probe.delete();
        canvas.width = w;
        canvas.height = h;
        const renderer = rive.makeRenderer(canvas);
        const out = [];
        for (const t of times) {
            const ab = file.defaultArtboard();
            const anim = new rive.LinearAnimationInstance(ab.animationByName(clip), ab);
            anim.advance(t);
            anim.apply(1);
            ab.advance(0);
            renderer.clear();
            renderer.save();
            renderer.align(rive.Fit.none, rive.Alignment.topLeft,
                { minX: 0, minY: 0, maxX: w, maxY: h }, ab.bounds);
            ab.draw(renderer);
            renderer.restore();
            renderer.flush();
            rive.resolveAnimationFrame();
            out.push(canvas.toDataURL('image/png'));
            anim.delete();
            ab.delete();
        }
        renderer.delete();
        return out;
    },

    // Steps the state machine `sm` of a fresh artboard through `steps` (issue 25; §11.8
    // low-level API): each step sets Number inputs (`set: {name: value}`), fires triggers
    // (`fire: [name]`), then advances by `dt` seconds; a step with `shot: true` renders a frame.
    // Inputs are looked up by name; a missing input throws. Returns PNG data URLs of the shots.
    async machine(url, sm, steps) {
        const rive = await window.rive.RuntimeLoader.awaitInstance();
        const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
        const file = await rive.load(bytes, undefined, false);
        if (!file) throw new Error('load returned no file');
        const canvas = document.getElementById('c');
        const ab = file.defaultArtboard();
        const w = Math.round(ab.bounds.maxX - ab.bounds.minX);
        const h = Math.round(ab.bounds.maxY - ab.bounds.minY);
        canvas.width = w;
        canvas.height = h;
        const renderer = rive.makeRenderer(canvas);
        const machine = ab.stateMachineByName(sm);
        if (!machine) throw new Error(`no state machine ${sm}`);
        const smi = new rive.StateMachineInstance(machine, ab);
        const input = (name) => {
            for (let i = 0; i < smi.inputCount(); i++) {
                const x = smi.input(i);
                if (x.name === name) return x;
            }
            throw new Error(`no input ${name}`);
        };
        const out = [];
        for (const st of steps) {
            for (const [k, v] of Object.entries(st.set || {})) input(k).asNumber().value = v;
            for (const k of st.fire || []) input(k).asTrigger().fire();
            smi.advanceAndApply(st.dt);
            ab.advance(0);
            if (st.shot) {
                renderer.clear();
                renderer.save();
                renderer.align(rive.Fit.none, rive.Alignment.topLeft,
                    { minX: 0, minY: 0, maxX: w, maxY: h }, ab.bounds);
                ab.draw(renderer);
                renderer.restore();
                renderer.flush();
                rive.resolveAnimationFrame();
                out.push(canvas.toDataURL('image/png'));
            }
        }
        smi.delete();
        ab.delete();
        renderer.delete();
        return out;
    },
};

// The low-level calls the harness relies on, checked against the loaded runtime version:
// returns the names that are missing (empty = all present).
window.re2d.api = async function api(url) {
    const missing = [];
    const need = (obj, names, where) => {
        for (const n of names) if (!obj || typeof obj[n] === 'undefined') missing.push(`${where}.${n}`);
    };
    need(window.rive, ['RuntimeLoader'], 'rive');
    need(window.rive && window.rive.RuntimeLoader, ['awaitInstance'], 'RuntimeLoader');
    const rive = await window.rive.RuntimeLoader.awaitInstance();
    need(rive, ['load', 'makeRenderer', 'LinearAnimationInstance', 'Fit', 'Alignment', 'resolveAnimationFrame'], 'runtime');
    need(rive.Fit, ['none'], 'Fit');
    need(rive.Alignment, ['topLeft'], 'Alignment');
    const file = await rive.load(new Uint8Array(await (await fetch(url)).arrayBuffer()), undefined, false);
    need(file, ['defaultArtboard'], 'File');
    const ab = file.defaultArtboard();
    need(ab, ['name', 'bounds', 'animationByName', 'animationByIndex', 'animationCount', 'advance', 'draw', 'delete'], 'Artboard');
    const la = ab.animationByIndex(0);
    need(la, ['name', 'fps', 'duration', 'loopValue'], 'LinearAnimation');
    const inst = new rive.LinearAnimationInstance(la, ab);
    need(inst, ['advance', 'apply', 'delete'], 'LinearAnimationInstance');
    const r = rive.makeRenderer(document.createElement('canvas'));
    need(r, ['clear', 'save', 'restore', 'align', 'flush', 'delete'], 'Renderer');
    inst.delete();
    ab.delete();
    r.delete();
    return missing;
};

// C0 control: requests external URLs (a fetch, an image and a script) so the interception must see them.
window.re2d.external = async function external() {
    const urls = [
        'https://cdn.jsdelivr.net/npm/@rive-app/canvas-single@2.43.1/rive.wasm',
        'https://example.com/re2d-probe.json',
    ];
    await Promise.allSettled(urls.map((u) => fetch(u)));
    await new Promise((res) => {
        const img = new Image();
        img.onload = img.onerror = res;
        img.src = 'http://example.org/probe.png';
    });
    return urls.length + 1;
};
