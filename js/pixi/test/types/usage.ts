// Type check of index.d.ts (make test-pixi: tsc --project js/pixi/test/types): a game's use of
// every export, against PixiJS's own types. misuse.ts beside it must fail (the control).
import { Application, Texture } from 'pixi.js';
import {
    ModelError, readModel, artboardFrame, loadCharacter, MAX_TEXTURE_SIDE, Re2dCharacter, StateMachine,
    Pose, clipTime, sampleKeys, applyClip, restOrder,
    type Model, type ModelErrorCode, type LoadOptions,
} from '../../index.js';

export async function game(app: Application): Promise<void> {
    const options: LoadOptions = { autoUpdate: true, ticker: app.ticker, textures: { page0: Texture.WHITE } };
    let hero: Re2dCharacter;
    try {
        hero = await loadCharacter('out/rig/model.json', options);
    } catch (e) {
        if (e instanceof ModelError) {
            const code: ModelErrorCode = e.code;
            console.log(code, e.field, e.message);
        }
        throw e;
    }
    app.stage.addChild(hero);
    hero.position.set(100, 200);
    hero.scale.set(0.25);
    hero.setInput('speed', 0.5);
    const speed: number = hero.getInput('speed');
    hero.fire('jump');
    hero.on('statechange', (name: string) => console.log(name, speed));
    hero.play('walk', 0.25).timeScale = 2;
    hero.playMachine();
    hero.update(1 / 60);
    const d: number = hero.clips.walk.duration;
    const m: Model = hero.model;
    const f = artboardFrame(m);
    const w: number = f.width + f.x + d;
    const sm: StateMachine | null = hero.machine;
    if (sm) sm.setNumber(sm.inputs[0].name, w);
    const pose = new Pose(m.bones);
    applyClip(m.clips[0], clipTime(m.clips[0], 1.5), pose, 1);
    const v: number = sampleKeys(m.clips[0].tracks[0].times, m.clips[0].tracks[0].values, 1, 0, 0.5, false);
    const order: number[] = restOrder(m.parts);
    console.log(v, order, MAX_TEXTURE_SIDE, readModel({ version: 1 }).name, hero.parts[0].texture);
    hero.destroy({ children: true });
}
