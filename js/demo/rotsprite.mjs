// re2d demo (make demo-sprite): the animal model from assets/ walks and turns via $.re2dSprite; frames and the raw sprite go to PNG.
// Usage: re2d-qjs rotsprite.mjs DIR [frames] — DIR holds animal.character.json, animal.animations.json and animal.png.
import { createApi } from 're2d/api';

const dir = scriptArgs[1] || 'out/sprite';
const frames = Number(scriptArgs[2]) || 4;
const $ = createApi();
const cat = $.re2dSprite.from(`${dir}/animal.character.json`, { id: 'cat' });
cat.at(engine.width / 2, engine.height / 2).size(384, 384).rotMotion('walk');
for (let i = 0; i < frames; i++) {
    cat.rotPose(-60 + (120 * i) / Math.max(1, frames - 1), 10);
    $.tick(0.25);
    engine.clear(30, 30, 40);
    $.render();
    engine.savePNG(`${dir}/frame-${i}.png`);
}
engine.saveSprite($.re2dSprite.info(cat).sprite, `${dir}/sprite.png`);
print(`wrote ${frames} frames and sprite.png to ${dir}`);
