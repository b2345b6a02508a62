// The demo page of the re2d PixiJS player (make demo → out/rig/pixi.html): a character made by
// `re2d rig build` played with its state machine, a slider for the Number input and a button per
// trigger. tests/browser/pixi-demo.mjs bundles this file with pixi.js and the player into the
// page and puts the model and its texture pages beside it as `window.RE2D_DEMO` ({ model,
// textures: { id: data URL } }), so the page works from file:// with no server.
import { Application } from 'pixi.js';
import { artboardFrame, loadCharacter } from '../index.js';

async function main() {
    const { model, textures } = window.RE2D_DEMO;
    const status = document.getElementById('status');
    const app = new Application();
    await app.init({ width: 640, height: 720, background: '#3a3a40', antialias: true });
    document.getElementById('stage').appendChild(app.canvas);
    const ch = await loadCharacter(model, { textures });
    // fit the §8.1 frame (the character with its margins) into the canvas
    const f = artboardFrame(ch.model);
    const s = Math.min(app.screen.width / f.width, app.screen.height / f.height);
    ch.scale.set(s);
    ch.position.set((app.screen.width - s * f.width) / 2 + s * f.x, (app.screen.height - s * f.height) / 2 + s * f.y);
    app.stage.addChild(ch);

    const box = document.getElementById('controls');
    const m = ch.model.machine;
    if (!m) {
        status.textContent = `${ch.model.name}: no state machine; playing ${ch.clip && ch.clip.name}`;
        return;
    }
    const label = document.createElement('label');
    const slider = Object.assign(document.createElement('input'), { type: 'range', min: 0, max: 1, step: 0.01, value: ch.getInput(m.input), id: `input-${m.input}` });
    const value = document.createElement('span');
    value.textContent = Number(slider.value).toFixed(2);
    slider.oninput = () => { ch.setInput(m.input, Number(slider.value)); value.textContent = Number(slider.value).toFixed(2); };
    label.append(`${m.input} `, slider, ' ', value);
    box.append(label);
    // a button per trigger: the one-shots, then the motions by body part (layers over the walk)
    for (const name of [...m.triggers.map((t) => t.name), ...m.layers.map((l) => l.trigger)]) {
        const b = Object.assign(document.createElement('button'), { textContent: name, id: `input-${name}` });
        b.onclick = () => ch.fire(name);
        box.append(b);
    }
    // state names are the Rive runtime's: a clip's name, "unknown" for the blend
    const named = (n) => (n === 'unknown' ? `the ${m.input} blend of ${m.blend.map((b) => ch.model.clips[b.clip].name).join(' / ')}` : n);
    const show = () => { status.textContent = `${ch.model.name}: state machine '${m.name}', state: ${ch.machine.states.map(named).join(', ')}`; };
    ch.on('statechange', show);
    show();
    window.re2dDemo = { character: ch, app };
}

main().catch((e) => {
    document.getElementById('status').textContent = `error: ${e.message}`;
    throw e;
});
