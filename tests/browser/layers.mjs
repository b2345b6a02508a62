// The schedule both browser harnesses play a body-part layer by (issue 47; L1 in harness.mjs for
// the .riv in the Rive runtime, L in pixi-harness.mjs for the PixiJS player): walking at speed 1,
// the layer's trigger fires; shots 0.5 s and 1.0 s after the fire (the layer's clip at 0.5 and
// 1.0 s over the walk), then the walk alone 0.2 s past the clip's end (the layer lets go; on the
// advance that crosses the end the runtime still applies the clip's last frame once, its hold on
// exit, so the shot is one advance later), then the trigger fired again (the layer restarts from
// its Exit state) and 0.5 s later. `duration`: the layer clip's, in seconds.
//
// Returns the machine steps (set, fire, dt, shot) and per shot the times of the reference pose
// (`re2d riv render-ref --clip WALK --time walk [--layer CLIP@layer]`; layer null: the walk alone).
export function layerSchedule(input, trigger, duration) {
    const d = Math.round(duration * 60) / 60;
    const steps = [{ dt: 0 }, { set: { [input]: 1 }, dt: 0.3 }, { fire: [trigger], dt: 0.05 },
        { dt: 0.5, shot: true }, { dt: 0.5, shot: true }, { dt: d - 1.0 + 0.1 }, { dt: 0.1, shot: true },
        { fire: [trigger], dt: 0.05 }, { dt: 0.5, shot: true }];
    const tEnd = 0.35 + d + 0.2;
    const shots = [{ walk: 0.85, layer: 0.5 }, { walk: 1.35, layer: 1.0 }, { walk: tEnd, layer: null }, { walk: tEnd + 0.55, layer: 0.5 }];
    return { steps, shots };
}
