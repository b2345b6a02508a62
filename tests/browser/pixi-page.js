// re2d PixiJS harness, in-page part: renders a character through the player (js/pixi) with
// PixiJS v8's WebGL renderer (no antialiasing, transparent canvas of the §8.1 artboard size, the
// character at the frame's offset: what `re2d riv render-ref` draws), steps state machines in
// the player and in the official Rive runtime, and loads bad inputs. Frames are PNG data URLs.
import { Application, Assets, Cache } from 'pixi.js';
import { artboardFrame, loadCharacter } from '/player/index.js';
import { LAYER_MUTANTS, MUTANTS } from '/player/test/mutants.js';

// PixiJS decodes images in a Web Worker by default; the harness's request interception (every
// request outside 127.0.0.1 is caught, tests/browser/browser.mjs) stalls the worker's requests
// in headless chromium, so images are decoded on the page here (what PixiJS does without
// worker support; the player does not depend on either).
Assets.setPreferences({ preferWorkers: false });

let app = null;

async function appOf(w, h) {
    if (!app) {
        app = new Application();
        await app.init({ width: w, height: h, backgroundAlpha: 0, antialias: false, preference: 'webgl', preserveDrawingBuffer: true,
            autoStart: false, resolution: 1, sharedTicker: false });
        document.body.appendChild(app.canvas);
    }
    if (app.renderer.width !== w || app.renderer.height !== h) app.renderer.resize(w, h);
    return app;
}

// The model of `url`, loaded as an object (so a variant can be built), and its character.
async function character(url, variant) {
    let source = url;
    if (variant) {
        const json = await (await fetch(url)).json();
        source = variant(json);
    }
    return loadCharacter(source, { autoUpdate: false, baseUrl: url });
}

function shot() {
    app.renderer.render(app.stage);
    return app.canvas.toDataURL('image/png');
}

window.re2dPixi = {
    renderer: () => app && app.renderer.name,

    // `clip` at each time of `times` (seconds, + shift), each posed by play(clip, t); swap: two
    // part indices whose depths are exchanged (the draw-order control); nokeys: every clip's
    // draw-order keys dropped (the control of the keys, issue 42).
    async frames(url, clip, times, { shift = 0, swap = null, nokeys = false } = {}) {
        const ch = await character(url, (swap || nokeys) && ((m) => {
            if (nokeys) for (const c of Object.values(m.clips || {})) delete c.draw_order;
            if (!swap) return m;
            const [i, j] = swap;
            const d = (p) => (p.depth === undefined || p.depth === null ? 0.5 : p.depth);
            const [di, dj] = [d(m.parts[i]), d(m.parts[j])];
            m.parts[i].depth = dj;
            m.parts[j].depth = di;
            // and in every draw-order key, which decides the order wherever a clip has keys
            const name = (k) => (typeof m.parts[k].name === 'string' ? m.parts[k].name : `part${k}`);
            const [ni, nj] = [name(i), name(j)];
            for (const c of Object.values(m.clips || {})) {
                for (const key of c.draw_order || []) key[1] = key[1].map((n) => (n === ni ? nj : n === nj ? ni : n));
            }
            return m;
        }));
        const f = artboardFrame(ch.model);
        await appOf(f.width, f.height);
        ch.position.set(f.x, f.y);
        app.stage.addChild(ch);
        const urls = times.map((t) => { ch.play(clip, t + shift); return shot(); });
        ch.destroy();
        return { frame: f, urls, renderer: app.renderer.name };
    },

    // The player's state machine stepped like the Rive harness's (set, fire, update(dt)): the
    // pose after each step (local angle per bone, x/y per root, in the artboard frame) and the
    // state changes. `mutant`: a MUTANTS name (a control).
    async machine(url, steps, mutant) {
        const ch = await character(url);
        if (mutant) ({ ...MUTANTS, ...LAYER_MUTANTS })[mutant](ch.machine);
        const f = artboardFrame(ch.model);
        await appOf(f.width, f.height);
        ch.position.set(f.x, f.y);
        app.stage.addChild(ch);
        const out = { poses: [], states: [] };
        for (const st of steps) {
            for (const [k, v] of Object.entries(st.set || {})) ch.setInput(k, v);
            for (const k of st.fire || []) ch.fire(k);
            const names = [];
            const on = (n) => names.push(n);
            ch.on('statechange', on);
            ch.update(st.dt);
            ch.off('statechange', on);
            out.states.push(names);
            const p = ch._pose;
            out.poses.push(ch.model.bones.map((b, k) => (b.parent < 0 ? [p.angle[k], p.x[k] + f.x, p.y[k] + f.y] : [p.angle[k]])));
        }
        ch.destroy();
        return out;
    },

    // The player's state machine stepped (set, fire, update(dt)) with a frame shot after each step
    // marked `shot`; nolayers: the model's state-machine layers dropped (the control of L).
    async machineShots(url, steps, { nolayers = false } = {}) {
        const ch = await character(url, nolayers && ((m) => { delete m.state_machine.layers; return m; }));
        const f = artboardFrame(ch.model);
        await appOf(f.width, f.height);
        ch.position.set(f.x, f.y);
        app.stage.addChild(ch);
        const urls = [];
        for (const st of steps) {
            for (const [k, v] of Object.entries(st.set || {})) ch.setInput(k, v);
            // without its layers the model has no input for the layer's trigger: nothing to fire
            for (const k of st.fire || []) if (!nolayers || ch.machine.inputs.some((i) => i.name === k)) ch.fire(k);
            ch.update(st.dt);
            if (st.shot) urls.push(shot());
        }
        ch.destroy();
        return { urls };
    },

    // The same steps in the Rive runtime (low-level API) on the exported .riv: each bone's
    // rotation, each root's x/y after each step, and the reported state changes. The machine is
    // first advanced by 0, as a character's is when it is made (it shows its first state).
    async riveMachine(rivUrl, sm, steps, bones) {
        const rive = await window.rive.RuntimeLoader.awaitInstance();
        const file = await rive.load(new Uint8Array(await (await fetch(rivUrl)).arrayBuffer()), undefined, false);
        if (!file) throw new Error('load returned no file');
        const ab = file.defaultArtboard();
        const smi = new rive.StateMachineInstance(ab.stateMachineByName(sm), ab);
        const input = (name) => {
            for (let i = 0; i < smi.inputCount(); i++) if (smi.input(i).name === name) return smi.input(i);
            throw new Error(`no input ${name}`);
        };
        const handles = bones.map(([name, root]) => (root ? ab.rootBone(name) : ab.bone(name)));
        const out = { poses: [], states: [] };
        smi.advanceAndApply(0);
        for (const st of steps) {
            for (const [k, v] of Object.entries(st.set || {})) input(k).asNumber().value = v;
            for (const k of st.fire || []) input(k).asTrigger().fire();
            smi.advanceAndApply(st.dt);
            const names = [];
            for (let i = 0; i < smi.stateChangedCount(); i++) names.push(smi.stateChangedNameByIndex(i));
            out.states.push(names);
            out.poses.push(handles.map((h, k) => (bones[k][1] ? [h.rotation, h.x, h.y] : [h.rotation])));
        }
        smi.delete();
        ab.delete();
        return out;
    },

    // Bad inputs: each case loads `source` (a URL, or {model, baseUrl}) and must reject. Returns
    // per case the rejection (name, code, field, message), the stage's child count and which of
    // `watch` (URLs) the asset cache holds afterwards.
    async bad(cases) {
        await appOf(64, 64);
        const out = [];
        for (const c of cases) {
            for (const u of c.preload || []) await Assets.load(new URL(u, location.href).href);
            const before = app.stage.children.length;
            let r;
            try {
                const src = c.url || c.model;
                const ch = await loadCharacter(src, { autoUpdate: false, baseUrl: c.baseUrl });
                app.stage.addChild(ch);
                r = { resolved: true, parts: ch.parts.length };
            } catch (e) {
                r = { resolved: false, name: e && e.name, isError: e instanceof Error, code: e && e.code, field: e && e.field, message: String(e && e.message) };
            }
            r.stageAdded = app.stage.children.length - before;
            r.cached = (c.watch || []).filter((u) => Cache.has(new URL(u, location.href).href));
            out.push(r);
            for (const ch of app.stage.removeChildren()) ch.destroy();
            await Assets.unload((c.preload || []).map((u) => new URL(u, location.href).href)).catch(() => {});
        }
        return out;
    },
};
window.re2dPixiReady = true;
