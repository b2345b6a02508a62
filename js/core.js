// re2d built-in module `re2d/core` (also served for any import ending in `highlevel/core.js`): the shared node core of the `$` host, js-rotsprite.md §11.
//
// Module state shared by every `$` of `createApi()`: the live-node registry
// (creation order), the id index, the tag defaults `TAGS`, the node
// renderers, and the one wrapper prototype that `def(name, fn)` extends.
//
// Exports: `TAGS`, `nodes` (live registry, do not mutate), `ids` (Map String(id) →
// node), `Wrapper`, `def`, `registerNodeRenderer`, `renderers` (Map tag →
// fn), `withAlpha`, `createNode`, `destroyNode`, `select` (the `$(x)`
// selector), `globalPos`, `renderAll`.

export const TAGS = {};
export const nodes = [];
export const ids = new Map(); // String(id) → node ('#5' finds id 5)
export const renderers = new Map();

// Host node: the fields of §11 plus a listener table.
const NodeProto = {
    on(name, fn) {
        if (typeof fn !== 'function') throw new TypeError('on: listener must be a function');
        (this._listeners[name] ??= []).push(fn);
        return this;
    },
};

export function createNode(tag, attrs) {
    const d = TAGS[tag] ?? {};
    const node = Object.create(NodeProto);
    Object.defineProperty(node, '_listeners', { value: {}, enumerable: false });
    Object.defineProperty(node, '_kids', { value: [], enumerable: false });
    Object.assign(node, {
        tag, id: null, x: 0, y: 0, w: d.w ?? 0, h: d.h ?? 0, scale_x: 1, scale_y: 1,
        layer: 0, depth: 0, color: -1, alpha: 1, blend_mode: 0, parent_node: null, removed: false,
    });
    nodes.push(node);
    for (const [k, v] of Object.entries(attrs ?? {})) {
        if (k === 'id') {
            if (v != null) {
                node.id = v;
                ids.set(String(v), node);
            }
        } else {
            node[k] = v;
        }
    }
    return node;
}

// Destroy: mark removed, drop id and registry entry, destroy host children,
// detach from the host parent, then emit 'remove' (listener errors are logged).
export function destroyNode(node) {
    if (!node || node.removed) return;
    node.removed = true;
    if (node.id != null && ids.get(String(node.id)) === node) ids.delete(String(node.id));
    const i = nodes.indexOf(node);
    if (i >= 0) nodes.splice(i, 1);
    for (const kid of [...(node._kids ?? [])]) destroyNode(kid);
    const parent = node.parent_node;
    if (parent && parent._kids) {
        const k = parent._kids.indexOf(node);
        if (k >= 0) parent._kids.splice(k, 1);
    }
    node.parent_node = null;
    for (const fn of [...(node._listeners?.remove ?? [])]) {
        try {
            fn.call(node, node);
        } catch (e) {
            if (typeof console !== 'undefined') console.log(`remove listener: ${e}`);
        }
    }
}

// Screen position (identity camera): the node's position plus its host parents'.
export function globalPos(node) {
    let x = 0, y = 0;
    for (let n = node; n; n = n.parent_node) {
        x += n.x;
        y += n.y;
    }
    return { x, y };
}

export class Wrapper {
    constructor(list) {
        this.nodes = list;
    }
    get length() {
        return this.nodes.length;
    }
    get(i) {
        return this.nodes[i];
    }
    eachNode(fn) {
        for (let i = 0; i < this.nodes.length; i++) fn.call(this, i, this.nodes[i]);
        return this;
    }
    remove() {
        for (const n of [...this.nodes]) destroyNode(n);
        return this;
    }
    globalPos() {
        return this.nodes.length ? globalPos(this.nodes[0]) : { x: 0, y: 0 };
    }
    at(x, y) {
        for (const n of this.nodes) {
            n.x = x;
            n.y = y;
        }
        return this;
    }
    size(w, h = w) {
        for (const n of this.nodes) {
            n.w = w;
            n.h = h;
        }
        return this;
    }
}

export function def(name, fn) {
    Wrapper.prototype[name] = fn;
}

export function registerNodeRenderer(tag, fn) {
    renderers.set(tag, fn);
}

// Replace the alpha byte of a packed 0xAARRGGBB colour (JS half-up rounding).
export function withAlpha(packed, alpha) {
    const a = Math.min(255, Math.max(0, Math.round(alpha * 255)));
    if (((packed >>> 24) & 255) === a) return packed;
    return (packed & 0x00ffffff) | (a << 24);
}

// `$(x, attrs)`.
export function select(x, attrs) {
    if (x instanceof Wrapper) return x;
    if (x === null || x === undefined || x === false) return new Wrapper([]);
    if (typeof x === 'string') {
        const m = /^<([^<>\s]+)>$/.exec(x);
        if (m) return new Wrapper([createNode(m[1], attrs)]);
        if (x.startsWith('#')) {
            const n = ids.get(x.slice(1));
            return new Wrapper(n ? [n] : []);
        }
        return new Wrapper(nodes.filter((n) => n.tag === x));
    }
    if (Array.isArray(x)) return new Wrapper(x.filter((n) => n != null));
    if (typeof x === 'object') return new Wrapper([x]);
    return new Wrapper([]);
}

// Draw every live node that has a renderer: layer, then depth, then creation order.
export function renderAll(cam) {
    const list = nodes
        .map((n, i) => [n, i])
        .filter(([n]) => renderers.has(n.tag))
        .sort((a, b) => (a[0].layer - b[0].layer) || (a[0].depth - b[0].depth) || (a[1] - b[1]));
    for (const [n] of list) {
        const p = globalPos(n);
        const t = { x: p.x, y: p.y, w: n.w * Math.abs(n.scale_x), h: n.h * Math.abs(n.scale_y) };
        renderers.get(n.tag)(n, t, cam);
    }
}
