// re2d built-in module `re2d/meshload` (internal to `re2d/mesh`): the character loader behind
// `$.mesh.load(pathOrObject, opts)` and `loadCharacter(mesh, pathOrObject, opts)` (issue 30).
//
// Loads a rive-export.md §7 model (what `re2d rig build` writes as model.json) into a `$.mesh`
// API object and plays its clips. Written only on the public `$.mesh` API — `skeleton`, `part`
// and `draw` with a `{__pose, __rest}` pose (js-mesh.md §5, §6, §8.4) — so the same code draws
// through re2d's module and through any module with the engine's API (the plain-JS one).
//
// Stages: `readModel` (native, re2d_riv::Model::from_json: the rules and error codes of
// export-riv) → scale/offset the model into the caller's frame → skeleton, parts (weights in
// the flat per-vertex form, z from the draw order), textures through `engine.loadTexture`
// (paths relative to the JSON file) → `pose(clip, t)` (keys sampled as the reference renderer
// does; or `pose([[clip, t], …])`, clips mixed as the state machine's layers: each overrides the
// bones it keys) → `draw(clip, t)` / `draw([[clip, t], …])` (every part far to near through
// `mesh.draw`).
//
// Conventions (the ones `re2d riv render-ref` and the `.riv` use, rive-export.md §7, §10.2):
// - a track's value is **added** to the bone's rest angle; a root translation `[t, dx, dy]` is
//   added to the root's rest position and moves its whole tree (children start at their
//   parent's tip);
// - time: a looping clip wraps (`t mod duration`, also for negative `t`), a one-shot clip
//   holds its ends (`t` clamped to `[0, duration]`); before the first key a track holds the
//   first value, after the last the last; between keys linear or step (`interpolation`). Keys
//   are sampled at their JSON times: the reference renderer and the `.riv` quantise key
//   times to the export fps (60), on whose grid `re2d rig build` writes every key;
// - draw order: depth descending (smaller is nearer), equal depths in declaration order (the
//   later one nearer). Each part's `depth` (its z for the engine's depth test) is its place in
//   that order, `(k + 1) / (n + 1)` for the k-th nearest of n, so z is unique, in (0, 1) and
//   never lets a farther part hide a nearer one. A clip with `draw_order` keys (issue 42: the
//   parts nearest first from each key's time on; before the first key, the first) draws, at
//   time t, in its key's order, and `draw` sets each part's `depth` to its place in it;
// - per-vertex `colors` are ignored (as export-riv does; the validator warns).

const isObj = (v) => !!v && typeof v === 'object';

function codedError(code, msg) {
    const e = new Error(`mesh.load: ${code}: ${msg}`);
    e.code = code;
    return e;
}

// opts.scale (number > 0, default 1) and opts.offset ([x, y], default [0, 0]).
function frameOf(o) {
    const scale = o.scale === undefined ? 1 : o.scale;
    if (typeof scale !== 'number' || !(scale > 0) || !isFinite(scale)) {
        throw new RangeError('mesh.load: opts.scale must be a finite number > 0');
    }
    const off = o.offset === undefined ? [0, 0] : o.offset;
    if (!Array.isArray(off) || off.length !== 2 || !off.every((v) => typeof v === 'number' && isFinite(v))) {
        throw new TypeError('mesh.load: opts.offset must be [x, y] (finite numbers)');
    }
    return { s: scale, ox: off[0], oy: off[1] };
}

// One vertex's influences as the flat `[name, w, name?, w?]` list `$.mesh.part` reads
// (the model also allows `[[name, w], …]` and `bones`). Names are replaced by the one string
// of each bone (`canon`): JSON gives every occurrence its own string, and `$.mesh.draw`
// resolves a name string it has seen before by identity.
function flatWeights(p, n, canon) {
    const out = new Array(n);
    const name = (v) => canon.get(v) ?? v;
    if (Array.isArray(p.weights)) {
        for (let i = 0; i < n; i++) {
            const w = p.weights[i];
            const flat = !Array.isArray(w) ? [] : w.every(Array.isArray) ? [].concat(...w) : w.slice();
            for (let k = 0; k < flat.length; k += 2) flat[k] = name(flat[k]);
            out[i] = flat;
        }
    } else if (Array.isArray(p.bones)) {
        for (let i = 0; i < n; i++) out[i] = typeof p.bones[i] === 'string' ? [name(p.bones[i]), 1] : [];
    } else {
        for (let i = 0; i < n; i++) out[i] = [];
    }
    return out;
}

// Value of `keys` ([[t, v…], …], times increasing) at `time`, component `c`.
function sample(keys, time, c, step) {
    const n = keys.length;
    if (time <= keys[0][0]) return keys[0][c];
    if (time >= keys[n - 1][0]) return keys[n - 1][c];
    let lo = 0, hi = n - 1; // keys[lo][0] <= time < keys[hi][0]
    while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (keys[mid][0] <= time) lo = mid; else hi = mid;
    }
    const a = keys[lo], b = keys[hi];
    if (step) return a[c];
    return a[c] + (b[c] - a[c]) * ((time - a[0]) / (b[0] - a[0]));
}

/// Returns `loadCharacter(mesh, source, opts)` over the native model reader; the reader's
/// warnings (ignored colours, dropped weight pairs, …) go to `log` (the `$.mesh` log sink).
export function makeLoader(readModel, log) {
    return function loadCharacter(mesh, source, opts) {
        if (!mesh || typeof mesh.skeleton !== 'function' || typeof mesh.part !== 'function' || typeof mesh.draw !== 'function') {
            throw new TypeError('mesh.load: needs a $.mesh API object (skeleton, part, draw)');
        }
        if (opts !== undefined && opts !== null && !isObj(opts)) throw new TypeError('mesh.load: opts must be an object');
        const o = opts || {};
        const { s, ox, oy } = frameOf(o);
        const read = readModel(source, o.dir);
        const M = read.model;
        for (const w of read.warnings) log(`mesh.load: warning: ${w}`);

        // skeleton in the caller's frame: lengths and root positions scaled, then offset
        // null-prototype maps: any bone or clip name is a plain key (even `__proto__`)
        const spec = Object.create(null);
        const names = Object.keys(M.skeleton || {});
        for (const name of names) {
            const b = M.skeleton[name];
            const bone = { length: s * (b.length || 0), angle: b.angle || 0 };
            if (b.parent) bone.parent = b.parent;
            else { bone.x = s * (b.x || 0) + ox; bone.y = s * (b.y || 0) + oy; }
            spec[name] = bone;
        }
        const skeleton = mesh.skeleton(spec);
        const canon = new Map(names.map((nm) => [nm, nm]));
        const rootOf = Object.create(null);
        for (const name of names) {
            let r = name;
            while (spec[r].parent) r = spec[r].parent;
            rootOf[name] = r;
        }

        // textures (each file once) through the engine, as its other textures load
        const list = Array.isArray(M.parts) ? M.parts : [];
        const texPath = new Map(read.textures);
        const texId = new Map();
        for (const p of list) {
            const id = p.texture === undefined || p.texture === null || p.texture === -1 ? null : String(p.texture);
            if (id === null || texId.has(id)) continue;
            const eng = globalThis.engine;
            if (!eng || typeof eng.loadTexture !== 'function') {
                throw new TypeError('mesh.load: the engine has no loadTexture for the model\'s textures');
            }
            texId.set(id, eng.loadTexture(texPath.get(id)));
        }

        // parts; z from the draw order (far to near: depth descending, then declaration)
        const n = list.length;
        const depthOf = (p) => (p.depth === undefined || p.depth === null ? 0.5 : p.depth);
        const order = list.map((_, i) => i).sort((a, b) => depthOf(list[b]) - depthOf(list[a]) || a - b);
        const z = new Array(n);
        order.forEach((pi, k) => { z[pi] = (n - k) / (n + 1); });
        const parts = list.map((p, i) => {
            const verts = (p.verts || []).map((v, k) => s * v + (k % 2 ? oy : ox));
            const id = p.texture === undefined || p.texture === null || p.texture === -1 ? null : String(p.texture);
            const part = mesh.part({
                verts,
                uv: (p.uv || []).slice(),
                // validated integers; `| 0` stores them int-tagged, which the native unrolling
                // copies as blocks (JSON numbers may arrive as doubles)
                tris: (p.tris || []).map((t) => t | 0),
                weights: flatWeights(p, verts.length / 2, canon),
                depth: z[i],
                texture: id === null ? -1 : texId.get(id),
            });
            part.name = typeof p.name === 'string' ? p.name : `part${i}`;
            return part;
        });
        const drawOrder = order.map((i) => parts[i]);
        const defaultZ = parts.map((p) => p.depth);
        const partIndex = new Map(list.map((p, i) => [typeof p.name === 'string' ? p.name : `part${i}`, i]));
        // a draw_order key: its parts far to near and each part's z (precomputed: draw allocates nothing)
        const keyOrder = (names) => {
            const near = names.map((nm) => partIndex.get(nm));
            const zs = new Array(n);
            near.forEach((pi, k) => { zs[pi] = (k + 1) / (n + 1); });
            return { far: near.slice().reverse().map((i) => parts[i]), z: zs };
        };

        // clips
        // clipData is a Map: two plain objects filled with the same keys in the same order
        // share QuickJS shapes, and each new key then clones a shape of all the keys before
        // it (quadratic: 130 000 clips took minutes, issue 45)
        const clipData = new Map();
        const clips = Object.create(null);
        for (const [name, c] of Object.entries(M.clips || {})) {
            clips[name] = { duration: c.duration, loop: c.loop === true };
            clipData.set(name, {
                duration: c.duration,
                loop: c.loop === true,
                step: c.interpolation === 'step',
                tracks: Object.entries(c.tracks || {}),
                translations: Object.entries(c.translations || {}),
                order: (c.draw_order || []).map(([t, names]) => [t, keyOrder(names)]),
            });
        }

        // the clip time shown at t: a looping clip wraps, a one-shot holds its ends
        function clipTime(c, t) {
            const d = c.duration;
            let time = t;
            if (c.loop) {
                time %= d;
                if (time < 0) time += d;
            } else {
                time = Math.min(Math.max(time, 0), d);
            }
            return time;
        }

        function clipOf(clip, t) {
            const c = typeof clip === 'string' && clipData.has(clip) ? clipData.get(clip) : null;
            if (!c) throw codedError('E_CLIP', `unknown clip '${String(clip)}'`);
            if (typeof t !== 'number' || !isFinite(t)) throw new RangeError('mesh.load: pose/draw time must be a finite number of seconds');
            return c;
        }

        // the draw_order key shown at clip time `time` (the last at or before it, else the first)
        function keyAt(c, time) {
            let k = null;
            for (const key of c.order) {
                if (k === null || key[0] <= time) k = key[1];
                else break;
            }
            return k;
        }

        // one clip at t over the pose so far: the bones and roots it keys take its values
        function applyClip(clip, t, angles, offsets) {
            const c = clipOf(clip, t);
            const time = clipTime(c, t);
            for (const [bone, keys] of c.tracks) angles[bone] = sample(keys, time, 1, c.step);
            for (const [bone, keys] of c.translations) {
                offsets[bone] = { x: s * sample(keys, time, 1, c.step), y: s * sample(keys, time, 2, c.step) };
            }
        }

        // the layers of pose/draw's arguments: [[clip, t], …]
        function layersOf(clip, t) {
            if (!Array.isArray(clip)) return [[clip, t]];
            if (clip.length === 0) throw new TypeError('mesh.load: pose/draw layers must be a non-empty array of [clip, t]');
            for (const l of clip) {
                if (!Array.isArray(l) || l.length !== 2) throw new TypeError('mesh.load: each layer must be [clip, t]');
            }
            return clip;
        }

        // pose(clip, t), or pose([[clip, t], [clip2, t2], …]): clips mixed as the .riv's
        // state-machine layers (issue 47) — each, in order, overrides the bones it keys
        function pose(clip, t) {
            const angles = Object.create(null);
            const offsets = Object.create(null);
            for (const [c, ct] of layersOf(clip, t)) applyClip(c, ct, angles, offsets);
            return { angles, offsets };
        }

        function draw(clip, t) {
            const p = pose(clip, t);
            const world = skeleton.pose(p.angles);
            const rest = skeleton.rest();
            for (const name of names) {
                const d = p.offsets[rootOf[name]];
                if (d && world[name]) {
                    world[name].x += d.x;
                    world[name].y += d.y;
                }
            }
            const posed = { __pose: world, __rest: rest };
            // the draw-order key (issue 42) of the last layer whose clip has keys (pose checked
            // the arguments; one clip allocates nothing here)
            let key = null;
            if (Array.isArray(clip)) {
                for (const l of clip) {
                    const cd = clipData.get(l[0]);
                    if (cd.order.length) key = keyAt(cd, clipTime(cd, l[1]));
                }
            } else {
                const cd = clipData.get(clip);
                if (cd.order.length) key = keyAt(cd, clipTime(cd, t));
            }
            let triangles = 0;
            if (key) {
                for (let i = 0; i < n; i++) parts[i].depth = key.z[i];
                for (const part of key.far) triangles += Number(mesh.draw(part, posed)) || 0;
            } else {
                for (let i = 0; i < n; i++) parts[i].depth = defaultZ[i];
                for (const part of drawOrder) triangles += Number(mesh.draw(part, posed)) || 0;
            }
            return triangles;
        }

        // the body-part layers of the model's state machine (issue 47): [{ name, clip, trigger }]
        const sm = M.state_machine;
        const layers = sm && Array.isArray(sm.layers) ? sm.layers.map((l) => ({ name: l.name, clip: l.clip, trigger: l.trigger })) : [];

        return { skeleton, parts, clips, layers, pose, draw };
    };
}
