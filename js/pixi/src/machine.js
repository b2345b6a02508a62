// The state machine: the model's `state_machine` section played with the semantics of the Rive
// runtime (rive-export.md §11.5), so a character behaves as its `character.riv` does.
//
// The model's section becomes the graph export-riv writes (src/riv/machine.rs, §11.7): one
// layer with Entry → a 1-D blend of the clips by the Number input (Reset on), Any → one-shot k
// when trigger k fires, one-shot k → the blend at 100 % of its clip; then one layer per motion
// by body part (`state_machine.layers`, src/riv/layers.rs), its trigger an input after the
// others. `layersOf` builds that graph as data (inputs, layers of states with transitions);
// `StateMachine` runs any such graph.
//
// Semantics (§11.5):
// - every advance, each layer in order advances its current state by dt, then takes the first
//   allowed transition of the Any state, then of the current state (chained, at most 100), never
//   one to the state that is already current; then applies its state to the pose;
// - a transition is allowed when its trigger fired (each layer uses a fired trigger once) and
//   its exit time, if any, has passed (a one-shot: the time played since the state was entered;
//   a loop: the exit time within the loop that is playing);
// - a state is entered afresh (its clips at 0) and first advanced by the time the previous
//   animation state ran past its end;
// - triggers are cleared at the end of every advance, used or not; numbers keep their value
//   (float32, initially 0);
// - a clip applied at weight w moves each keyed value by (key − v)·w; values persist between
//   advances (nothing resets them but Reset);
// - 1-D blend: all its clips advance every frame; below the first threshold the first clip plays
//   alone, above the last the last, exactly at a threshold that one; between thresholds a < x < b
//   clip A is applied at 1 − m then clip B at m, m = (x − a)/(b − a); with Reset, before each
//   apply every value the blend's clips key goes back to a baseline: the first clip's first key
//   for what it keys, else the value when the state was entered;
// - transitions have duration 0 (export-riv writes no mixing); the Exit state applies nothing;
// - a transition out of an animation state holds that animation: on the advance it is left, it
//   is applied once more at the time it left, before the new state (the runtime's hold
//   animation; seen where a body-part layer's one-shot ends in Exit: its last frame shows once);
// A layer whose state changed during an advance reports the state it ends in (once, however
// many transitions it chained), by the web runtime's names: a clip's name, "unknown" for a blend,
// "exit".

import { Pose, applyClip, firstKeys } from './sampler.js';

const MAX_CHAIN = 100;

/** The graph export-riv writes for the model's machine: `{ inputs, layers }`. */
export function layersOf(model) {
    const m = model.machine;
    const inputs = [{ name: m.input, type: 'number', value: 0 }, ...m.triggers.map((t) => ({ name: t.name, type: 'trigger' }))];
    const BLEND = 3;
    const states = [
        { kind: 'entry', transitions: [{ to: BLEND }] },
        { kind: 'any', transitions: m.triggers.map((t, k) => ({ to: 4 + k, trigger: 1 + k })) },
        { kind: 'exit', transitions: [] },
        { kind: 'blend1d', input: 0, reset: true, clips: m.blend.map((b) => ({ clip: b.clip, value: Math.fround(b.threshold) })), transitions: [] },
        ...m.triggers.map((t) => ({ kind: 'animation', clip: t.clip, transitions: [{ to: BLEND, exitTime: 1 }] })),
    ];
    return { inputs: [...inputs, ...m.layers.map((l) => ({ name: l.trigger, type: 'trigger' }))], layers: [{ name: 'locomotion', states }, ...m.layers.map((l, j) => bodyPartLayer(model, l, inputs.length + j))] };
}

// A motion by body part (issue 47; src/riv/layers.rs): Entry → Exit (the layer starts applying
// nothing); Any → the clip when its trigger fires (never while it plays: no transition goes to
// the current state); the clip → Exit at 100 % of a one-shot, or when the trigger fires again
// for a looping clip. Its clip keys only its body part's bones, so it moves those over the layers
// before it and leaves the others to them.
function bodyPartLayer(model, layer, trigger) {
    const EXIT = 2, CLIP = 3;
    const loop = model.clips[layer.clip].loop;
    const states = [
        { kind: 'entry', transitions: [{ to: EXIT }] },
        { kind: 'any', transitions: [{ to: CLIP, trigger }] },
        { kind: 'exit', transitions: [] },
        { kind: 'animation', clip: layer.clip, transitions: [loop ? { to: EXIT, trigger } : { to: EXIT, exitTime: 1 }] },
    ];
    return { name: layer.name, states };
}

// One clip playing inside a state: Rive's LinearAnimationInstance, whose clock is float32 and
// whose clip length is whole frames at the .riv's fps (export-riv writes 60), so a state leaves
// on exactly the advance the runtime's does (an exit time passes when time ≥ it; a sum of float32
// steps can fall just short of a clip's end where exact sums would reach it).
const f32 = Math.fround;
const FPS = 60;

class ClipPlayer {
    constructor(clip) {
        this.clip = clip;
        this.frames = Math.max(0, roundHalfEven(clip.duration * FPS)); // the clip's length in frames
        this.duration = f32(this.frames / FPS);
        this.time = 0; // clip time (wrapped or held)
        this.total = 0; // time played since the state was entered
        this.lastTotal = 0;
        this.spilled = 0; // how far the last advance ran past the clip's end
    }

    advance(dt) {
        const d = f32(dt);
        this.lastTotal = this.total;
        this.total = f32(this.total + d);
        let time = f32(this.time + d);
        let frames = f32(time * FPS);
        const end = this.frames;
        this.spilled = 0;
        if (!this.clip.loop && frames > end) {
            this.spilled = f32(f32(frames - end) / FPS);
            time = f32(end / FPS);
        } else if (this.clip.loop && frames >= end && end > 0) {
            this.spilled = f32(f32(frames - end) / FPS);
            frames = f32(frames % end);
            time = f32(frames / FPS);
        }
        this.time = time;
    }
}

// Rust's f64::round_ties_even (export-riv's frame rounding).
function roundHalfEven(x) {
    const r = Math.round(x);
    return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

// What applying a clip does to the draw order (rive-export.md §11.6 as export-riv writes it):
// its keys (the clip and its time: `playing`), the default order (null: a clip without keys
// sets every draw rule to "no target"), or nothing (undefined: a clip without keys that plays
// as a body-part layer keys no rule and leaves the order to the layers under it).
function orderOf(playing, machine) {
    if (playing.clip.drawOrder.length) return playing;
    return machine.layerClips.has(playing.clip) ? undefined : null;
}

class AnimationInstance {
    constructor(state, machine) {
        this.state = state;
        this.machine = machine;
        this.player = new ClipPlayer(machine.clips[state.clip]);
        this.name = this.player.clip.name;
    }

    advance(dt) { this.player.advance(dt); }

    apply(pose) { applyClip(this.player.clip, this.player.time, pose, 1); }

    /** What the applied clip did to the draw order (see orderOf). */
    keyed() { return orderOf(this.player, this.machine); }
}

class Blend1DInstance {
    constructor(state, machine, pose) {
        this.state = state;
        this.machine = machine;
        this.inputs = machine.inputs;
        this.name = 'unknown';
        this.shown = undefined; // what the clips applied last did to the draw order
        this.players = state.clips.map((c) => new ClipPlayer(machine.clips[c.clip]));
        this.values = state.clips.map((c) => c.value);
        // Reset: which values the clips key, and their baseline
        this.base = new Pose(pose.bones);
        this.base.copyFrom(pose);
        if (this.players.length) firstKeys(this.players[0].clip, this.base);
        const angles = new Set(), roots = new Set();
        for (const p of this.players) {
            for (const tr of p.clip.tracks) angles.add(tr.bone);
            for (const tr of p.clip.translations) roots.add(tr.bone);
        }
        this.angles = [...angles];
        this.roots = [...roots];
    }

    advance(dt) { for (const p of this.players) p.advance(dt); }

    apply(pose) {
        this.shown = undefined;
        if (this.state.reset) {
            for (const k of this.angles) pose.angle[k] = this.base.angle[k];
            for (const k of this.roots) { pose.x[k] = this.base.x[k]; pose.y[k] = this.base.y[k]; }
        }
        const v = this.values, n = v.length;
        const x = this.inputs[this.state.input].value;
        if (x <= v[0]) return this.play(0, 1, pose);
        if (x >= v[n - 1]) return this.play(n - 1, 1, pose);
        let a = 0;
        while (v[a + 1] <= x) a++;
        if (v[a] === x) return this.play(a, 1, pose);
        const m = (x - v[a]) / (v[a + 1] - v[a]);
        this.play(a, 1 - m, pose);
        this.play(a + 1, m, pose);
    }

    play(i, w, pose) {
        if (w > 0) {
            applyClip(this.players[i].clip, this.players[i].time, pose, w);
            // a draw-order key is an id, not mixed: the last clip applied decides, a clip
            // without keys the default order
            this.shown = orderOf(this.players[i], this.machine);
        }
    }

    keyed() { return this.shown; }
}

class SilentInstance {
    constructor(state) {
        this.state = state;
        this.name = state.kind === 'exit' ? 'exit' : null;
    }

    advance() {}

    apply() {}

    keyed() { return undefined; }
}

class LayerInstance {
    constructor(layer, machine) {
        this.layer = layer;
        this.machine = machine;
        this.any = layer.states.findIndex((s) => s.kind === 'any');
        this.index = layer.states.findIndex((s) => s.kind === 'entry');
        this.current = new SilentInstance(layer.states[this.index]);
        this.used = new Set(); // triggers this layer used in this advance
        this.hold = null; // the clip a transition left this advance, at the time it left
    }

    allowed(t) {
        if (t.trigger !== undefined && (!this.machine.inputs[t.trigger].fired || this.used.has(t.trigger))) return false;
        if (t.exitTime !== undefined) {
            if (!(this.current instanceof AnimationInstance)) return true; // ignored off animation states
            const p = this.current.player;
            let exit = f32(t.exitTime * p.duration);
            if (p.clip.loop && exit <= p.duration) exit = f32(exit + Math.floor(p.lastTotal / p.duration) * p.duration);
            if (p.total < exit) return false;
        }
        return true;
    }

    // the first allowed transition of the Any state, then of the current state, taken
    tryChange(pose) {
        return (this.any >= 0 && this.take(this.layer.states[this.any].transitions, pose)) ||
            this.take(this.layer.states[this.index].transitions, pose);
    }

    take(transitions, pose) {
        for (let i = 0; i < transitions.length; i++) {
            const t = transitions[i];
            if (t.to === this.index || !this.allowed(t)) continue;
            if (t.trigger !== undefined) this.used.add(t.trigger);
            this.enter(t.to, pose);
            return true;
        }
        return false;
    }

    enter(to, pose) {
        const from = this.current instanceof AnimationInstance ? this.current.player : null;
        const spilled = from ? from.spilled : 0;
        // the runtime holds the animation it leaves: applied once more at its exit time
        if (from) this.hold = { clip: from.clip, time: from.time };
        const s = this.layer.states[to];
        this.index = to;
        this.current = s.kind === 'animation' ? new AnimationInstance(s, this.machine)
            : s.kind === 'blend1d' ? new Blend1DInstance(s, this.machine, pose)
                : new SilentInstance(s);
        this.current.advance(spilled);
    }

    advance(dt, pose) {
        this.used.clear();
        this.current.advance(dt);
        let changed = false;
        for (let i = 0; i < MAX_CHAIN && this.tryChange(pose); i++) changed = true;
        if (changed && this.current.name !== null) this.machine.changes.push(this.current.name);
        if (this.hold) {
            applyClip(this.hold.clip, this.hold.time, pose, 1);
            const h = orderOf(this.hold, this.machine);
            if (h !== undefined) this.machine.keyed = h;
            this.hold = null;
        }
        this.current.apply(pose);
        // what a later layer applies overrides an earlier one's, as it overrides its bones
        const k = this.current.keyed();
        if (k !== undefined) this.machine.keyed = k;
    }
}

/** A running state machine over a model's clips; `advance(dt)` moves and applies it to `pose`. */
export class StateMachine {
    constructor(model, graph = layersOf(model)) {
        this.name = model.machine.name;
        this.clips = model.clips;
        /** The clips that play as body-part layers (their keyless clips key no draw rule). */
        this.layerClips = new Set(model.machine.layers.map((l) => model.clips[l.clip]));
        this.inputs = graph.inputs.map((i) => ({ ...i, value: i.type === 'number' ? Math.fround(i.value || 0) : undefined, fired: false }));
        this.layers = graph.layers.map((l) => new LayerInstance(l, this));
        /** Per layer whose state changed in the last advance, the state it is in now (the web runtime's names). */
        this.changes = [];
    }

    input(name, type) {
        const i = this.inputs.find((x) => x.name === name);
        if (!i) throw new Error(`re2d: the state machine '${this.name}' has no input '${name}' (inputs: ${this.inputs.map((x) => x.name).join(', ')})`);
        if (type && i.type !== type) throw new TypeError(`re2d: input '${name}' is a ${i.type}, not a ${type}`);
        return i;
    }

    /** Sets a Number input (stored as float32, as the runtime does). */
    setNumber(name, value) {
        if (typeof value !== 'number' || !Number.isFinite(value)) throw new RangeError(`re2d: input '${name}' needs a finite number`);
        this.input(name, 'number').value = Math.fround(value);
    }

    getNumber(name) { return this.input(name, 'number').value; }

    /** Fires a trigger: it counts on the next advance (two fires before it count as one). */
    fire(name) { this.input(name, 'trigger').fired = true; }

    /** The current state's name in each layer ("unknown" for a blend, null in Entry). */
    get states() { return this.layers.map((l) => l.current.name); }

    advance(dt, pose) {
        this.changes.length = 0;
        /** The clip player whose draw-order keys the last advance showed (null: none). */
        this.keyed = null;
        for (const l of this.layers) l.advance(dt, pose);
        for (const i of this.inputs) i.fired = false;
        return this.changes;
    }
}
