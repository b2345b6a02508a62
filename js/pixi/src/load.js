// The loader: `model.json` and its texture pages through PixiJS's asset loader (`Assets`), the
// model validated (model.js) before any texture is asked for, then the character built.
//
// Failure leaves nothing behind: a model that fails validation rejects with its ModelError
// before a texture loads; a texture that cannot be loaded rejects with a ModelError E_TEXTURE
// naming `textures.<id>`, after every texture this call loaded is unloaded again; no character
// is created, so nothing reaches the stage. (Assets this call found already cached stay.)

import { Assets, Cache, Texture } from 'pixi.js';
import { ModelError, readModel } from './model.js';
import { Re2dCharacter } from './character.js';

/** The largest texture side export-riv accepts (its png-max-side limit). */
export const MAX_TEXTURE_SIDE = 16384;

const baseOf = () => (typeof document !== 'undefined' && document.baseURI) || (typeof location !== 'undefined' && location.href) || undefined;

// Loads `srcs` through Assets, every one settled: `{ values, fresh }` (`fresh`: the sources this
// call added to the cache). On any failure it unloads those and throws `failure(index, reason)`.
async function loadAll(srcs, parser, failure) {
    const cached = srcs.map((s) => Cache.has(s));
    const got = await Promise.allSettled(srcs.map((src) => Assets.load({ src, parser }, { strategy: 'throw' })));
    const fresh = srcs.filter((s, i) => !cached[i] && got[i].status === 'fulfilled');
    const bad = got.findIndex((g) => g.status === 'rejected' || g.value === undefined || g.value === null);
    if (bad < 0) return { values: got.map((g) => g.value), fresh };
    await unload(fresh);
    throw failure(bad, got[bad].status === 'rejected' ? got[bad].reason : new Error('the loader returned nothing'));
}

const unload = (srcs) => (srcs.length ? Assets.unload(srcs).catch(() => {}) : Promise.resolve());

const reasonOf = (e) => String((e && e.message) || e).split('\n')[0];

/**
 * Loads a character: `source` is the URL of a model.json (textures relative to it) or an
 * already parsed model (textures relative to `options.baseUrl`, default the page). Resolves to a
 * Re2dCharacter, or rejects with a ModelError (model rules, E_TEXTURE for a texture).
 */
export async function loadCharacter(source, options = {}) {
    let json, base, jsonFresh = [];
    if (typeof source === 'string') {
        base = new URL(source, baseOf()).href;
        const got = await loadAll([base], 'json', (_, e) => new ModelError('E_IO', '', `${source}: ${reasonOf(e)}`));
        [json] = got.values;
        jsonFresh = got.fresh;
    } else if (source !== null && typeof source === 'object') {
        json = source;
        base = options.baseUrl !== undefined ? new URL(options.baseUrl, baseOf()).href : baseOf();
    } else {
        throw new TypeError('re2d: loadCharacter(source): source is a model.json URL or a parsed model');
    }
    try {
        return await build(json, base, options, typeof source === 'string');
    } catch (e) {
        await unload(jsonFresh);
        throw e;
    }
}

// Models already validated, by the parsed JSON Assets loaded (it hands out the same object for
// the same URL, so a hundred characters of one model.json are validated once and share the
// Model, which the player never changes). An object the caller passed is validated every time:
// the caller may have changed it.
const validated = new WeakMap();

// Validates, loads the textures, builds the character.
async function build(json, base, options, fromAssets) {
    let model = fromAssets ? validated.get(json) : undefined;
    if (!model) {
        model = readModel(json);
        if (fromAssets) validated.set(json, model);
    }
    const given = options.textures || {};
    const urls = [], slots = [];
    const textures = model.textures.map((t, i) => {
        const g = given[t.id];
        if (g instanceof Texture) return g;
        urls.push(typeof g === 'string' ? g : new URL(t.path, base).href);
        slots.push(i);
        return null;
    });
    const loaded = await loadAll(urls, 'texture', (k, e) => {
        const t = model.textures[slots[k]];
        return new ModelError('E_TEXTURE', `textures.${t.id}`, `textures.${t.id} ('${t.path}'): ${reasonOf(e)}`);
    });
    slots.forEach((i, k) => { textures[i] = loaded.values[k]; });
    const big = textures.findIndex((t) => !(t instanceof Texture) || t.source.pixelWidth > MAX_TEXTURE_SIDE || t.source.pixelHeight > MAX_TEXTURE_SIDE);
    if (big >= 0) {
        await unload(loaded.fresh);
        const t = model.textures[big];
        throw new ModelError('E_TEXTURE', `textures.${t.id}`, `textures.${t.id} ('${t.path}') is not a texture of at most ${MAX_TEXTURE_SIDE} px a side`);
    }
    return new Re2dCharacter(model, textures, options);
}
