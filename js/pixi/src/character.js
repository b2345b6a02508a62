// The character: a PixiJS Container holding one Mesh per part, posed every update.
//
// Per update: time (the state machine's advance, or the played clip's time) → pose (sampler.js /
// machine.js) → world transforms and skin matrices (skeleton.js) → each part's vertices skinned
// on the CPU into its geometry's position buffer → the draw-order step (draworder.js).
//
// Skinning on the CPU into batched meshes was chosen by measurement (`make bench-pixi`,
// docs/pixi.md; 100 walking bipeds, 222 300 vertices a frame, WebGL on SwiftShader, best of
// three runs): it costs the same as a skinning vertex shader within the machine's noise (page
// CPU 10.5 against 8.3 ms, page wall 6.9 against 10.4 ms, software GL 165 against 157 ms a
// frame), and less than PixiJS's default for meshes over 100 vertices (a draw call and a buffer
// upload per part: 13.7 and 203 ms), because PixiJS packs the parts of every character sharing a
// texture page into a few draw calls. At the same cost it keeps one code path for WebGL and
// WebGPU and PixiJS's own mesh pipeline (tint, alpha, batching with the game's sprites), where a
// skinning shader is a custom shader in two languages that PixiJS never batches. Every part is
// therefore batched.

// Coordinates: the model's own (the drawing's pixels, y down); place, scale or flip the
// character with the Container's transform.

import { Container, Mesh, MeshGeometry, Texture, Ticker } from 'pixi.js';
import { DrawOrder } from './draworder.js';
import { StateMachine } from './machine.js';
import { Pose, applyClip, clipTime, drawOrderAt } from './sampler.js';
import { skin, skinMatrices, world } from './skeleton.js';

export class Re2dCharacter extends Container {
    /**
     * @param model a validated model (model.js `readModel`)
     * @param textures one Texture per `model.textures` entry
     * @param options `{ autoUpdate = true, ticker = Ticker.shared }`
     */
    constructor(model, textures, options = {}) {
        super({ label: model.name });
        this.model = model;
        this.timeScale = 1;
        const n = model.bones.length;
        this._pose = new Pose(model.bones);
        this._rest = world(model.bones, this._pose, new Float64Array(3 * n));
        this._world = new Float64Array(3 * n);
        this._mats = new Float64Array(4 * n);
        /** One Mesh per model part, in the model's order (`name` is the part's). */
        this.parts = model.parts.map((p) => new Mesh({
            label: p.name,
            geometry: new MeshGeometry({ positions: new Float32Array(p.verts), uvs: p.uv, indices: p.tris }),
            texture: p.texture < 0 ? Texture.WHITE : textures[p.texture],
        }));
        for (const m of this.parts) m.geometry.batchMode = 'batch';
        this._positions = this.parts.map((m) => m.geometry.getBuffer('aPosition'));
        this.drawOrder = new DrawOrder(model.parts);
        this.drawOrder.apply(this, this.parts);
        /** The state machine, when the model has one (null otherwise; made by playMachine). */
        this.machine = null;
        this.clip = null;
        this.time = 0;
        if (model.machine) this.playMachine();
        else if (model.clips.length) this.play(model.clips[0].name);
        else this._refresh();
        this._ticker = null;
        if (options.autoUpdate !== false) {
            this._ticker = options.ticker || Ticker.shared;
            this._ticker.add(this._tick, this);
        }
    }

    /** Clip name → `{ duration, loop }`. */
    get clips() {
        const out = {};
        for (const c of this.model.clips) out[c.name] = { duration: c.duration, loop: c.loop };
        return out;
    }

    /** Plays a clip directly from `time` seconds (the state machine stops driving the pose). */
    play(name, time = 0) {
        const c = this.model.clips.find((x) => x.name === name);
        if (!c) throw new Error(`re2d: no clip '${name}' (clips: ${this.model.clips.map((x) => x.name).join(', ')})`);
        if (typeof time !== 'number' || !Number.isFinite(time)) throw new RangeError('re2d: play: time must be a finite number of seconds');
        this.clip = c;
        this.time = time;
        this._refresh();
        return this;
    }

    /** Starts the state machine afresh from the rest pose (its Entry; advanced by 0). */
    playMachine() {
        if (!this.model.machine) throw new Error(`re2d: the model '${this.model.name}' has no state machine`);
        this.machine = new StateMachine(this.model);
        this.clip = null;
        this._pose.reset();
        this._advanceMachine(0);
        this._refresh();
        return this;
    }

    /** Sets a Number input of the state machine (`speed`). */
    setInput(name, value) { this._needMachine().setNumber(name, value); }

    /** Reads a Number input of the state machine. */
    getInput(name) {
        if (!this.machine) throw new Error(`re2d: the model '${this.model.name}' has no state machine`);
        return this.machine.getNumber(name);
    }

    /** Fires a trigger of the state machine (its one-shot plays on the next update). */
    fire(name) { this._needMachine().fire(name); }

    /** Advances by `dt` seconds (× timeScale) and poses the meshes. */
    update(dt) {
        if (typeof dt !== 'number' || !Number.isFinite(dt) || dt < 0) throw new RangeError('re2d: update(dt) needs a finite number of seconds >= 0');
        const s = dt * this.timeScale;
        if (this.clip) this.time += s;
        else if (this.machine) this._advanceMachine(s);
        this._refresh();
    }

    destroy(options) {
        if (this._ticker) this._ticker.remove(this._tick, this);
        this._ticker = null;
        const geometries = this.parts.map((m) => m.geometry);
        super.destroy({ children: true, ...(typeof options === 'object' ? options : {}), texture: false, textureSource: false });
        for (const g of geometries) g.destroy();
    }

    _tick(ticker) { this.update(ticker.deltaMS / 1000); }

    // the machine for an input change; a clip played directly hands the pose back to it
    _needMachine() {
        if (!this.machine) throw new Error(`re2d: the model '${this.model.name}' has no state machine`);
        if (this.clip) this.playMachine();
        return this.machine;
    }

    _advanceMachine(dt) {
        const changes = this.machine.advance(dt, this._pose);
        for (const name of changes) this.emit('statechange', name);
    }

    // pose → world → skin matrices → vertices → draw order
    _refresh() {
        const m = this.model;
        const t = this.clip ? clipTime(this.clip, this.time) : 0;
        if (this.clip) {
            this._pose.reset();
            applyClip(this.clip, t, this._pose, 1);
        }
        world(m.bones, this._pose, this._world);
        // the draw-order key in effect (issue 42), else the model's order (no allocation); a
        // machine's clip time is already within its clip, as its bones were sampled
        const k = this.clip ? null : this.machine && this.machine.keyed;
        const far = this.clip ? drawOrderAt(this.clip, t) : k ? drawOrderAt(k.clip, k.time) : null;
        this.drawOrder.set(far || this.drawOrder.rest);
        skinMatrices(this._world, this._rest, m.bones.length, this._mats);
        for (let i = 0; i < m.parts.length; i++) {
            const buf = this._positions[i];
            skin(m.parts[i], this._mats, buf.data);
            buf.update();
        }
        this.drawOrder.apply(this, this.parts);
    }
}
