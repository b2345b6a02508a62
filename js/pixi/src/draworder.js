// The draw-order step: which part is painted when. The model's order (rive-export.md §6, the
// order of `re2d riv render-ref`, `$.mesh.load` and the `.riv`): depth descending (a smaller depth
// is nearer), equal depths in declaration order, the later one on top. Painted far to near.
//
// `DrawOrder.apply` puts a container's part meshes into the current order, touching the
// container only when the order changed; a step that changes the order over time (per-clip
// draw-order keys) computes a new `order` and calls it.

/** Part indices far to near: depth descending, then declaration order. */
export function restOrder(parts) {
    return parts.map((_, i) => i).sort((a, b) => parts[b].depth - parts[a].depth || a - b);
}

function sameOrder(a, b) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
}

export class DrawOrder {
    constructor(parts) {
        /** Part indices in paint order (far to near). */
        this.order = restOrder(parts);
        /** The model's order (no draw-order key in effect). */
        this.rest = this.order;
        this._applied = null;
    }

    /** Sets `order` (part indices far to near). */
    set(order) {
        this.order = order;
    }

    /** Makes `meshes[order[0]], meshes[order[1]], …` the container's children in that order. */
    apply(container, meshes) {
        const o = this.order;
        if (this._applied && sameOrder(this._applied, o)) return;
        o.forEach((pi, k) => {
            if (meshes[pi].parent === container) container.setChildIndex(meshes[pi], k);
            else container.addChildAt(meshes[pi], k);
        });
        this._applied = o.slice();
    }
}
