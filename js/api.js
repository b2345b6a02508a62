// re2d built-in module `re2d/api` (also served for any import ending in `highlevel/api.js`): `createApi()`, the minimal `$` host of js-rotsprite.md §11.
//
// `createApi()` returns a fresh `$` over the shared core (`re2d/core`):
// `$(x, attrs)` selection/creation, `$.def`, `$.TAGS`, `$.withAlpha`,
// `$.registerNodeRenderer`, `$.fs.readText`, `$.gfx.push.sprite` (draws into
// the default engine's framebuffer via `engine.drawSprite`), `$.render()`
// (runs the node renderers with `cam = {w: engine.width, h: engine.height}`),
// `$.tick(dt, motionDt)` (= `tickRotSprite`), `$.rotSprite`/`$.re2dSprite`
// (installed) and `$.mesh = installMesh($)`. Installing again is harmless.
import { TAGS, def, registerNodeRenderer, withAlpha, select, renderAll } from 're2d/core';
import { readText, pushSprite } from 're2d/native';
import { installRotSprite, tickRotSprite } from 're2d/rotsprite';
import { installMesh } from 're2d/mesh';

export { TAGS, def, registerNodeRenderer, withAlpha };

export function createApi() {
    const $ = (x, attrs) => select(x, attrs);
    $.def = def;
    $.TAGS = TAGS;
    $.withAlpha = withAlpha;
    $.registerNodeRenderer = registerNodeRenderer;
    $.fs = { readText: (path) => readText(path) };
    $.gfx = { push: { sprite: (...args) => pushSprite(...args) } };
    $.render = () => {
        const e = globalThis.engine;
        renderAll({ w: e?.width ?? 0, h: e?.height ?? 0 });
    };
    $.tick = (dt, motionDt = dt) => tickRotSprite(dt, motionDt);
    installRotSprite($);
    $.mesh = installMesh($);
    return $;
}

export default createApi;
