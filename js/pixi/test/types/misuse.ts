// The control of usage.ts: wrong uses the declarations must refuse (each line one error).
import { loadCharacter } from '../../index.js';

export async function wrong(): Promise<void> {
    const hero = await loadCharacter('model.json', { autoUpdate: 'yes' });
    hero.play(42);
    hero.setInput('speed', '1');
    const n: string = hero.getInput('speed');
    console.log(n);
}
