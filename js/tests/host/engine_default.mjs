// re2d host check: default CPU engine — coverage, depth test (smaller is nearer), texture × colour, PNG round trip.
import { installMesh } from 're2d/mesh';
import { test, ok, is, json, throws, done } from '../_harness.mjs';

const out = scriptArgs[1];
const api = installMesh({});
const quad = (x, y, s, depth, colors, texture) => api.part({
    verts: [x, y, x + s, y, x + s, y + s, x, y + s], uv: [0, 0, 1, 0, 1, 1, 0, 1], tris: [0, 1, 2, 0, 2, 3],
    depth, colors: colors && [colors, colors, colors, colors], texture,
});

test('size and members', () => {
    is(engine.width, 32);
    is(engine.height, 16);
    for (const k of ['submitMesh', 'loadTexture', 'clear', 'savePNG', 'log']) is(typeof engine[k], 'function', k);
});

test('clear then draw a coloured quad', () => {
    engine.clear(0, 0, 0, 255);
    json(engine.readPixel(0, 0), [0, 0, 0, 255]);
    is(api.draw(quad(2, 2, 8, 0.5, [255, 0, 0])), 2, 'two triangles drawn');
    json(engine.readPixel(5, 5), [255, 0, 0, 255]);
    json(engine.readPixel(12, 5), [0, 0, 0, 255], 'outside');
});

test('depth: smaller is nearer, whatever the order', () => {
    engine.clear(0, 0, 0, 255);
    api.draw(quad(0, 0, 10, 0.2, [0, 0, 255]));
    api.draw(quad(5, 0, 10, 0.8, [0, 255, 0]));
    json(engine.readPixel(7, 5), [0, 0, 255, 255], 'far drawn later stays hidden');
    json(engine.readPixel(12, 5), [0, 255, 0, 255]);
    api.draw(quad(0, 0, 10, 0.1, [255, 255, 0]));
    json(engine.readPixel(7, 5), [255, 255, 0, 255], 'nearer drawn later wins');
});

test('savePNG / loadTexture round trip, nearest sampling × vertex colour', () => {
    engine.clear(0, 0, 0, 255);
    api.draw(quad(0, 0, 16, 0.5, [255, 255, 255]));
    api.draw(quad(16, 0, 16, 0.5, [0, 0, 255]));
    engine.savePNG(out);
    const id = engine.loadTexture(out);
    ok(id >= 0, 'texture id');
    engine.clear(0, 0, 0, 255);
    // left half of the texture is white, right half blue; halve red/green by colour
    api.draw(quad(0, 0, 16, 0.5, [255, 128, 255], id));
    const left = engine.readPixel(3, 8), right = engine.readPixel(12, 8);
    json(left, [255, 128, 255, 255]);
    json(right, [0, 0, 255, 255]);
    throws(() => engine.loadTexture('/nonexistent/x.png'), Error);
});

done('engine_default');
