// re2d tests: js-mesh.md §2 normalizeAngle, §3 solveTwoBoneIK, §4 solveChainIK (expected values hand-derived from the spec).
import { normalizeAngle, solveTwoBoneIK, solveChainIK } from '../../src/highlevel/mesh.js';
import * as ref from './_reference.mjs';
import { test, ok, is, near, json, keys, done } from './_harness.mjs';

const PI = Math.PI, TAU = 2 * Math.PI;

test('normalizeAngle spec examples', () => {
    is(normalizeAngle(0), 0);
    near(normalizeAngle(4 * PI + 1), 1, 1e-15);
    near(normalizeAngle(-3 * PI / 2), PI / 2, 1e-15);
    is(normalizeAngle(5 * PI), PI);
    is(normalizeAngle(PI), PI);
    is(normalizeAngle(-PI), PI);
    near(normalizeAngle(3 * PI), PI, 1e-12);
    near(normalizeAngle(-3 * PI), PI, 1e-12);
    ok(normalizeAngle(-3 * PI) > 0, '-3π maps to +π side');
    is(normalizeAngle(0.5), 0.5, 'in range unchanged');
    is(normalizeAngle(-2), -2, 'in range unchanged');
});

test('normalizeAngle coercion', () => {
    is(normalizeAngle(undefined), 0);
    is(normalizeAngle(NaN), 0);
    is(normalizeAngle('abc'), 0);
    is(normalizeAngle('1.5'), 1.5);
    is(normalizeAngle(null), 0);
    is(normalizeAngle(true), 1);
    is(normalizeAngle([2]), 2);
    is(normalizeAngle(-0), 0, '-0 becomes +0');
    is(normalizeAngle(-TAU), -0, '-TAU keeps negative zero');
    is(normalizeAngle(Infinity), NaN);
    is(normalizeAngle(-Infinity), NaN);
});

test('solveTwoBoneIK reachable, exact tip, key order', () => {
    const r = solveTwoBoneIK(0, 0, 10, 10, 10, 10, 1);
    keys(r, ['a1', 'a2', 'elbow', 'reached']);
    keys(r.elbow, ['x', 'y']);
    // base = π/4, cosA = 200 / (2·10·√200) = √2/2 → a1 = π/4 + π/4
    near(r.a1, PI / 2, 1e-12);
    near(r.a2, 0, 1e-12);
    near(r.elbow.x, 0, 1e-12);
    near(r.elbow.y, 10, 1e-12);
    is(r.reached, true);
    near(r.elbow.x + 10 * Math.cos(r.a2), 10, 1e-9);
    near(r.elbow.y + 10 * Math.sin(r.a2), 10, 1e-9);
});

test('solveTwoBoneIK bend flips the elbow', () => {
    const r = solveTwoBoneIK(0, 0, 10, 10, 10, 10, -1);
    near(r.a1, 0, 1e-12);
    near(r.elbow.x, 10, 1e-12);
    near(r.elbow.y, 0, 1e-12);
    near(r.a2, PI / 2, 1e-12);
    for (const b of [undefined, NaN, 0, 5]) {
        json(solveTwoBoneIK(0, 0, 10, 10, 10, 10, b), solveTwoBoneIK(0, 0, 10, 10, 10, 10, 1), `bend ${b}`);
    }
});

test('solveTwoBoneIK out of reach and edges', () => {
    const r = solveTwoBoneIK(0, 0, 3, 4, 0, 10, 0);
    is(r.reached, false);
    is(r.a1, PI / 2);
    is(r.a2, PI / 2);
    near(r.elbow.x, 0, 1e-15);
    is(r.elbow.y, 3);
    const full = solveTwoBoneIK(0, 0, 3, 4, 7, 0, 0);
    is(full.reached, true, 'dist == len1+len2 is reached');
    json(full, { a1: 0, a2: 0, elbow: { x: 3, y: 0 }, reached: true });
    const zero = solveTwoBoneIK(0, 0, 0, 4, 1, 0, 0);
    json(zero, { a1: 0, a2: 0, elbow: { x: 0, y: 0 }, reached: true }, 'zero length, near target');
    const neg = solveTwoBoneIK(0, 0, -1, 4, 10, 0, 0);
    is(neg.reached, false, 'dist 10 > reachMax 3');
    const at = solveTwoBoneIK(2, 3, 3, 4, 2, 3);
    ok(Number.isFinite(at.a1) && Number.isFinite(at.a2) && Number.isFinite(at.elbow.x), 'finite at root');
    is(at.reached, true);
});

test('solveTwoBoneIK matches the spec transcription bit for bit', () => {
    const r = ref.rng(7);
    for (let i = 0; i < 200; i++) {
        const args = [r() * 10 - 5, r() * 10 - 5, r() * 8, r() * 8, r() * 30 - 15, r() * 30 - 15, r() - 0.5];
        json(solveTwoBoneIK(...args), ref.solveTwoBoneIK(...args), `case ${i}`);
    }
});

test('solveChainIK empty and non-array', () => {
    json(solveChainIK(0, 0, [], 1, 1), { angles: [], reached: false, distance: null });
    const r = solveChainIK(0, 0, 'abc', 1, 1);
    keys(r, ['angles', 'reached', 'distance']);
    is(r.distance, Infinity);
    is(r.reached, false);
    is(r.angles.length, 0);
});

test('solveChainIK unreachable gives straight chain and finite distance', () => {
    const r = solveChainIK(0, 0, [10, 10, 10], 0, 40);
    keys(r, ['angles', 'reached', 'distance']);
    json(r.angles, [PI / 2, PI / 2, PI / 2]);
    is(r.reached, false);
    is(r.distance, 10);
    const exact = solveChainIK(0, 0, [10, 10, 10], 30, 0);
    is(exact.reached, false, 'distance == total is not reached');
    is(exact.distance, 0);
    json(exact.angles, [0, 0, 0]);
    const bad = solveChainIK(0, 0, [10, 'x', null], 15, 0);
    is(bad.reached, false, 'total counts bad lengths as 0');
    is(bad.distance, 5);
});

test('solveChainIK target at root', () => {
    const r = solveChainIK(2, 2, [1, 1, 1, 1], 2, 2);
    json(r, { angles: [0, PI, 0, PI], reached: true, distance: 0 });
});

test('solveChainIK reaches a reachable 3-bone target', () => {
    const r = solveChainIK(0, 0, [10, 10, 10], 5, 20);
    is(r.reached, true);
    ok(r.distance <= 0.5, 'within tolerance');
    let x = 0, y = 0;
    r.angles.forEach((a) => { x += 10 * Math.cos(a); y += 10 * Math.sin(a); });
    near(Math.hypot(5 - x, 20 - y), r.distance, 1e-9, 'distance is the tip distance');
});

test('solveChainIK options: iterations/tolerance coercion', () => {
    const lens = [10, 10, 10];
    // tolerance 100: stops after the first pass, reached
    const loose = solveChainIK(0, 0, lens, 5, 20, { tolerance: 100 });
    is(loose.reached, true);
    json(loose, ref.solveChainIK(0, 0, lens, 5, 20, { tolerance: 100 }), 'tolerance 100');
    json(loose.angles, ref.solveChainIK(0, 0, lens, 5, 20, { iterations: 1 }).angles, 'stopped after one pass');
    json(solveChainIK(0, 0, lens, 5, 20, { iterations: null }), ref.solveChainIK(0, 0, lens, 5, 20, { iterations: 1 }), 'null → 1 pass');
    json(solveChainIK(0, 0, lens, 5, 20, { iterations: 1.5 }), ref.solveChainIK(0, 0, lens, 5, 20, { iterations: 2 }), '1.5 → 2 passes');
    json(solveChainIK(0, 0, lens, 5, 20, { tolerance: null }), ref.solveChainIK(0, 0, lens, 5, 20, { tolerance: 0 }), 'null tolerance → 0');
    json(solveChainIK(0, 0, lens, 5, 20, { iterations: 'x' }), ref.solveChainIK(0, 0, lens, 5, 20, { iterations: 12 }), 'NaN → 12');
});

test('solveChainIK matches the spec transcription bit for bit', () => {
    const r = ref.rng(11);
    for (let i = 0; i < 200; i++) {
        const n = 1 + Math.floor(r() * 5);
        const lens = [];
        for (let k = 0; k < n; k++) lens.push(r() * 10);
        if (i % 17 === 0) lens[0] = undefined;
        const opts = i % 3 ? { iterations: 1 + Math.floor(r() * 20), tolerance: r() } : undefined;
        const a = [r() * 10 - 5, r() * 10 - 5, lens, r() * 60 - 30, r() * 60 - 30, opts];
        json(solveChainIK(...a), ref.solveChainIK(...a), `case ${i}`);
    }
});

done('mesh_math');
