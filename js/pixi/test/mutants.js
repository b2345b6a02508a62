// State machines that break one rule of the Rive runtime's semantics each (rive-export.md §11.5),
// made by patching one instance: the negative controls of the machine checks (machine.test.mjs
// against the §11.7 oracle, tests/browser/pixi-harness.mjs against the Rive runtime itself).
// Test code only: nothing in the player imports it.

export const MUTANTS = {
    // a one-shot restarts when its trigger fires again (a transition to the current state taken)
    restart(sm) {
        for (const l of sm.layers) {
            const orig = l.tryChange.bind(l);
            l.tryChange = (pose) => {
                const s = l.layer.states[l.index];
                if (s.kind === 'animation') {
                    const t = l.layer.states[l.any].transitions.find((x) => x.to === l.index);
                    if (t && sm.inputs[t.trigger].fired && !l.used.has(t.trigger)) {
                        l.used.add(t.trigger);
                        l.enter(l.index, pose);
                        return true;
                    }
                }
                return orig(pose);
            };
        }
        return sm;
    },
    // no overshoot: the next state starts at 0 instead of where the one-shot ran past its end
    nospill(sm) {
        for (const l of sm.layers) {
            const orig = l.enter.bind(l);
            l.enter = (to, pose) => {
                if (l.current.player) l.current.player.spilled = 0;
                orig(to, pose);
            };
        }
        return sm;
    },
    // the blend's clips advance only while they show (the runtime advances all, also at weight 0)
    lazy(sm) {
        for (const l of sm.layers) {
            const orig = l.advance.bind(l);
            l.advance = (dt, pose) => {
                const c = l.current;
                if (c.players) {
                    const x = sm.inputs[c.state.input].value, v = c.values;
                    c.advance = (d) => c.players.forEach((p, i) => {
                        const shows = (i === 0 || x > v[i - 1]) && (i === v.length - 1 || x < v[i + 1]);
                        if (shows) p.advance(d);
                    });
                }
                orig(dt, pose);
            };
        }
        return sm;
    },
    // triggers stay fired until they are used (the runtime clears them after every advance)
    sticky(sm) {
        const orig = sm.advance.bind(sm);
        sm.advance = (dt, pose) => {
            const fired = sm.inputs.filter((i) => i.fired);
            const out = orig(dt, pose);
            const used = new Set(sm.layers.flatMap((l) => [...l.used]));
            fired.forEach((i) => { if (!used.has(sm.inputs.indexOf(i))) i.fired = true; });
            return out;
        };
        return sm;
    },
};

// Rules only a machine with body-part layers shows (the biped's wave over the walk): checked by
// tests/browser/pixi-harness.mjs against the Rive runtime, not by the §11.7 oracle (one layer).
export const LAYER_MUTANTS = {
    // the animation a transition leaves is not applied once more (the runtime's hold): a layer's
    // one-shot that ends in Exit lets go of its bones one advance early
    nohold(sm) {
        for (const l of sm.layers) {
            const orig = l.enter.bind(l);
            l.enter = (to, pose) => {
                orig(to, pose);
                l.hold = null;
            };
        }
        return sm;
    },
};
