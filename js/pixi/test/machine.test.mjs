// The state machine against the timeline the Rive runtime itself produced (rive-export.md §11.7
// "Oracle": observed with @rive-app 2.43.1 and a native build of the C++ runtime): one root bone
// whose rotation the clips key — idle 0 throughout, jump 0 → 2 over 0.5 s (one-shot), walk
// 1.0 → 1.5 over 1 s (loop) — stepped by advance(dt) on a fresh instance.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readModel } from '../src/model.js';
import { Pose } from '../src/sampler.js';
import { StateMachine } from '../src/machine.js';
import { MUTANTS } from './mutants.js';

const MODEL = {
    version: 1,
    skeleton: { root: { x: 0, y: 0, length: 10 } },
    clips: {
        idle: { duration: 1, loop: true, tracks: { root: [[0, 0], [1, 0]] } },
        jump: { duration: 0.5, loop: false, tracks: { root: [[0, 0], [0.5, 2]] } },
        walk: { duration: 1, loop: true, tracks: { root: [[0, 1], [1, 1.5]] } },
    },
    state_machine: { name: 'sm', input: 'speed', blend: [['idle', 0], ['walk', 1]], triggers: [['jump', 'jump']] },
};

// [dt, input change, rotation, state change] per step of the §11.7 table
const ORACLE = [
    [0, null, 0.0, ['unknown']],
    [0.25, null, 0.0, []],
    [0.25, { speed: 1 }, 1.25, []],
    [0.1, { speed: 0.5 }, 0.65, []],
    [0.1, null, 0.675, []],
    [0.1, null, 0.70, []],
    [0, { speed: 1 }, 1.4, []],
    [0.1, { fire: 'jump' }, 0.0, ['jump']],
    [0.1, null, 0.4, []],
    [0.1, { fire: 'jump' }, 0.8, []],
    [0.25, null, 1.8, []],
    [0.1, null, 1.025, ['unknown']],
];

function run(model, mutate) {
    const m = readModel(model);
    const sm = new StateMachine(m);
    if (mutate) mutate(sm);
    const pose = new Pose(m.bones);
    return ORACLE.map(([dt, change]) => {
        if (change && 'speed' in change) sm.setNumber('speed', change.speed);
        if (change && change.fire) sm.fire(change.fire);
        const names = sm.advance(dt, pose).slice();
        return [pose.angle[0], names];
    });
}

const matches = (got) => got.every(([r, names], i) => Math.abs(r - ORACLE[i][2]) < 1e-4 && JSON.stringify(names) === JSON.stringify(ORACLE[i][3]));

test('the §11.7 oracle timeline, step by step', () => {
    run(MODEL).forEach(([r, names], i) => {
        assert.ok(Math.abs(r - ORACLE[i][2]) < 1e-4, `step ${i + 1}: rotation ${r}, the runtime showed ${ORACLE[i][2]}`);
        assert.deepEqual(names, ORACLE[i][3], `step ${i + 1}: state changes`);
    });
});

// Controls: machines that differ from the runtime in one rule each must miss the timeline.
test('controls: one rule changed misses the timeline', () => {
    for (const [name, mutate] of Object.entries(MUTANTS)) {
        assert.equal(matches(run(MODEL, mutate)), false, `control ${name} matched the runtime's timeline`);
    }
    // the blend's thresholds in the other order (the runtime never sorts them): walk at speed 0
    const swapped = { ...MODEL, state_machine: { ...MODEL.state_machine, blend: [['walk', 0], ['idle', 1]] } };
    assert.equal(matches(run(swapped)), false, 'control swapped thresholds matched');
    assert.equal(matches(run(MODEL)), true);
});

test('inputs: unknown names and kinds are refused', () => {
    const sm = new StateMachine(readModel(MODEL));
    assert.throws(() => sm.setNumber('sped', 1), /no input 'sped'/);
    assert.throws(() => sm.fire('speed'), TypeError);
    assert.throws(() => sm.setNumber('speed', NaN), RangeError);
    sm.setNumber('speed', 0.1);
    assert.equal(sm.getNumber('speed'), Math.fround(0.1));
});

// Draw-order keys under the machine, as export-riv writes them (rive-export.md §11.6): a key is
// an id and is not mixed, so the clip applied last decides; a clip without keys sets every rule
// to "no target" (the default order), unless it plays as a body-part layer, which keys no rule.
const PART = (name, depth) => ({ name, depth, verts: [0, 0, 1, 0, 0, 1], uv: [0, 0, 1, 0, 0, 1], tris: [0, 1, 2], weights: [['root', 1], ['root', 1], ['root', 1]] });
const ORDERED = {
    version: 1,
    skeleton: { root: { x: 0, y: 0, length: 10 } },
    parts: [PART('a', 0), PART('b', 1)],
    clips: {
        // the default order is b over a (depth ascending: later nearer); the walk puts a over b
        walk: { duration: 1, loop: true, tracks: { root: [[0, 1], [1, 1.5]] }, draw_order: [[0, ['a', 'b']]] },
        idle: { duration: 1, loop: true, tracks: { root: [[0, 0], [1, 0]] } },
        wave: { duration: 0.5, loop: false, tracks: { root: [[0, 0], [0.5, 2]] } },
    },
    state_machine: { name: 'sm', input: 'speed', blend: [['walk', 0], ['idle', 1]], triggers: [], layers: [{ name: 'wave', clip: 'wave', trigger: 'wave' }] },
};

test('draw order: the clip applied last decides; a keyless layer clip leaves it', () => {
    const m = readModel(ORDERED);
    const sm = new StateMachine(m);
    const pose = new Pose(m.bones);
    const shown = () => (sm.keyed ? sm.keyed.clip.name : sm.keyed);
    sm.advance(0, pose);
    assert.equal(shown(), 'walk', 'speed 0: the walk alone, its keys');
    sm.setNumber('speed', 0.5);
    sm.advance(0.1, pose);
    assert.equal(shown(), null, 'walk then idle applied: the keyless idle, applied last, resets to the default');
    sm.setNumber('speed', 0);
    sm.fire('wave');
    sm.advance(0.1, pose);
    assert.deepEqual(sm.states, ['unknown', 'wave']);
    assert.equal(shown(), 'walk', 'the keyless wave layer over the walk leaves the walk\'s order');
});
