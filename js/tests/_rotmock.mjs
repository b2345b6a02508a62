// re2d tests: a recording proxy `engine` for js-rotsprite.md tests (unknown properties are no-op functions returning 0, as in the engine's unit tests).
//
// `mockEngine()` installs `globalThis.engine` and returns `m` with
// `m.calls` ([name, ...args] of every rotSprite* call), `m.impl` (assign to
// override a native), `m.stamps` (path → stamp for rotSpriteFileStamp),
// `m.changed` (Set of handle paths reported changed), `m.fail` (Set of paths
// rotSpriteLoad rejects with TypeError), `m.version` (path → native version),
// `m.names()` (the call names), `m.clear()`, `m.handles` (every handle
// created; `h.disposed` counts rotSpriteDispose calls).
export function mockEngine() {
    const m = { calls: [], stamps: {}, changed: new Set(), fail: new Set(), version: {}, handles: [] };
    let next = 1;
    const st = (h) => h.state;
    const pose = (h, yaw, pitch, e, mo, b) => {
        const s = st(h);
        s.yaw = yaw;
        s.pitch = pitch;
        if (e !== undefined) s.eyes = e;
        if (mo !== undefined) s.mouth = mo;
        if (b !== undefined) s.brows = b;
        return s.sprite;
    };
    m.impl = {
        rotSpriteLoad(path) {
            if (m.fail.has(path)) throw new TypeError(`cannot load ${path}`);
            const h = { id: next++, path, state: { style: 'pixel', eyes: 0, mouth: 0, brows: 0, yaw: 0, pitch: 0, version: m.version[path] ?? 2, sprite: 100 + next, width: 128 } };
            m.handles.push(h);
            return h;
        },
        rotSpriteInfo(h) {
            return { ...st(h) };
        },
        rotSpritePose: pose,
        rotSpritePrepare: pose,
        rotSpriteRig(h) {
            return st(h).sprite;
        },
        rotSpriteStyle(h, style) {
            const s = st(h);
            s.style = style;
            s.width = style === 'anime' ? 512 : 128;
            s.sprite += 1000;
            return s.sprite;
        },
        rotSpritePart(h) {
            return st(h).sprite;
        },
        rotSpriteModelPose() {
            return undefined;
        },
        rotSpriteFileStamp(path) {
            return m.stamps[path] ?? null;
        },
        rotSpriteChanged(h) {
            return m.changed.has(h.path);
        },
        rotSpriteDispose(h) {
            if (h && h.state) {
                h.state.sprite = -1;
                h.disposed = (h.disposed ?? 0) + 1;
            }
        },
    };
    globalThis.engine = new Proxy({}, {
        get(target, key) {
            if (typeof key === 'string' && Object.hasOwn(m.impl, key)) {
                return (...args) => {
                    m.calls.push([key, ...args]);
                    return m.impl[key](...args);
                };
            }
            return () => 0;
        },
        set(target, key, value) {
            m.impl[key] = value;
            return true;
        },
    });
    m.names = () => m.calls.map((c) => c[0]);
    m.clear = () => {
        m.calls.length = 0;
    };
    m.of = (name) => m.calls.filter((c) => c[0] === name);
    return m;
}

// A small model: root → arm; parts 7 (root), 9 (arm, eyes variant 1), 12 (arm, one-sided, portrait).
export function testDefinition(extra = {}) {
    return {
        version: 1,
        atlas: 'model.png',
        style: 'pixel',
        rig: {
            bones: [
                { name: 'root', pivot: [0, 0, 0] },
                { name: 'arm', parent: 'root', pivot: [10, 0, 0] },
            ],
            parts: [
                { id: 7, bone: 'root' },
                { id: 9, bone: 'arm', selector: 'eyes', variant: 1 },
                { id: 12, bone: 'arm', oneSided: true, portrait: true },
            ],
            joints: [{ name: 'hand', bone: 'arm', point: [20, 0, 0] }],
            controls: { lift: { bone: 'arm', axis: 'z' } },
            sockets: [
                { name: 'hand', bone: 'arm', point: [20, 0, 0] },
                { name: 'top', bone: 'root', point: [0, -10, 0], portrait: true },
                { name: 'grip', bone: 'root', point: [0, 5, 0] },
            ],
        },
        groups: { arm: [9, 12] },
        emotions: { glad: { eyes: 'happy', mouth: 'smile' } },
        variants: { arm: { long: 'arms/long.png' } },
        animations: {
            version: 1,
            clips: {
                idle: { duration: 2, loop: true, tracks: [{ target: 'arm', channel: 'rotation.z', keys: [[0, 0], [2, 90]] }] },
                wave: {
                    duration: 1, loop: false, tracks: [
                        { target: 'root', channel: 'translation.x', keys: [[0, 0], [1, 10]] },
                        { target: 'arm', channel: 'rotation.z', keys: [[0, 45]] },
                        { target: 'face', channel: 'mouth', keys: [[0, 'open']] },
                    ],
                },
            },
        },
        ...extra,
    };
}
