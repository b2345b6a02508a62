// re2d for PixiJS v8: plays the `model.json` of `re2d rig build` (bones, skinned meshes, clips,
// draw order, state machine) as a PixiJS Container, with no other runtime. docs/pixi.md.
//
// Modules, in pipeline order:
//   src/model.js      model.json → validated Model (export-riv's rules and error codes)
//   src/load.js       loadCharacter: model.json and texture pages through Assets → Re2dCharacter
//   src/sampler.js    clip time (loop / one-shot), key sampling, a clip applied to a Pose
//   src/machine.js    the state machine (Rive's semantics, rive-export.md §11.5) over the sampler
//   src/skeleton.js   world transforms, skin matrices, linear blend skinning; the §8.1 frame
//   src/draworder.js  the paint order of the parts (depth descending, later-declared on top)
//   src/character.js  Re2dCharacter: one Mesh per part; update(dt) runs the stages above
export { ModelError, readModel } from './src/model.js';
export { artboardFrame } from './src/skeleton.js';
export { loadCharacter, MAX_TEXTURE_SIDE } from './src/load.js';
export { Re2dCharacter } from './src/character.js';
export { StateMachine } from './src/machine.js';
export { Pose, clipTime, sampleKeys, applyClip } from './src/sampler.js';
export { restOrder } from './src/draworder.js';
