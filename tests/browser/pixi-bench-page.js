// re2d PixiJS bench, in-page part: N walking characters on a 1280x720 canvas, laid out in a grid
// (each scaled to its cell, walk phases spread), stepped frame by frame: `main` is the page's
// time to advance every character and submit the frame; `frame` adds the wait until the frame's
// pixels exist (a 1-pixel read of the canvas, so the software GL's rasterisation is counted).
// The process CPU times around `run` are read by pixi-bench.mjs.
//   player     the js/pixi player as shipped (CPU skinning into batched PixiJS meshes)
//   unbatched  the same with PixiJS's default for meshes over 100 vertices (one draw call and
//              one buffer upload per part)
//   shader     the same characters skinned in a vertex shader (bone matrices as uniforms, one
//              uniform upload per character, rest positions static; a custom shader is never
//              batched): the alternatives the player's CPU skinning was chosen against
//   rive    the Rive runtime (@rive-app/canvas-single, low-level API) playing the character's
//           .riv: one artboard instance and walk animation instance per character
import { Application, Assets, Container, Geometry, GlProgram, Mesh, Shader, UniformGroup } from 'pixi.js';
import { artboardFrame, loadCharacter } from '/player/index.js';
import { Pose, applyClip, clipTime } from '/player/src/sampler.js';
import { skinMatrices, world } from '/player/src/skeleton.js';

Assets.setPreferences({ preferWorkers: false }); // see pixi-page.js
const W = 1280, H = 720, DT = 1 / 60;

// cell of character i of n: [x, y, w, h]
function cells(n) {
    const cols = Math.ceil(Math.sqrt((n * W) / H));
    const rows = Math.ceil(n / cols);
    return Array.from({ length: n }, (_, i) => [(i % cols) * (W / cols), Math.floor(i / cols) * (H / rows), W / cols, H / rows]);
}

// Waits until the canvas's frame is rendered: a 1-pixel read from its own context.
function syncOf(canvas) {
    const gl = canvas.getContext('webgl2') || canvas.getContext('webgl');
    const px = new Uint8Array(4);
    if (gl) return () => gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
    const ctx = canvas.getContext('2d');
    if (ctx) return () => ctx.getImageData(0, 0, 1, 1);
    throw new Error('the canvas has neither a WebGL nor a 2D context');
}

function stats(xs) {
    const s = [...xs].sort((a, b) => a - b);
    return { median: s[Math.floor(s.length / 2)], p90: s[Math.floor(s.length * 0.9)], mean: xs.reduce((a, b) => a + b, 0) / xs.length };
}

// The prepared scene: { canvas, step, teardown }.
let scene = null;

// The skinning-shader variant of one character (bench only).
const VERTEX = (bones) => `in vec2 aPosition; in vec2 aUV; in vec2 aBone; in vec2 aWeight;
out vec2 vUV;
uniform mat3 uProjectionMatrix; uniform mat3 uWorldTransformMatrix; uniform mat3 uTransformMatrix;
uniform vec4 uBones[${bones}];
vec2 skin(vec4 m, vec2 v) { return vec2(m.x * v.x - m.y * v.y + m.z, m.y * v.x + m.x * v.y + m.w); }
void main() {
    vec2 p = aPosition;
    if (aBone.x >= 0.0) {
        p = aWeight.x * skin(uBones[int(aBone.x)], aPosition);
        if (aBone.y >= 0.0) p += aWeight.y * skin(uBones[int(aBone.y)], aPosition);
    }
    mat3 mvp = uProjectionMatrix * uWorldTransformMatrix * uTransformMatrix;
    gl_Position = vec4((mvp * vec3(p, 1.0)).xy, 0.0, 1.0);
    vUV = aUV;
}`;
const FRAGMENT = `in vec2 vUV; uniform sampler2D uTexture; out vec4 finalColor;
void main() { finalColor = texture(uTexture, vUV); }`;

class ShaderCharacter extends Container {
    // textures: one per model part
    constructor(model, textures) {
        super();
        this.model = model;
        const n = model.bones.length;
        this.pose = new Pose(model.bones);
        this.rest = world(model.bones, this.pose, new Float64Array(3 * n));
        this.world = new Float64Array(3 * n);
        this.mats = new Float64Array(4 * n);
        this.bones = new UniformGroup({ uBones: { value: new Float32Array(4 * n), type: 'vec4<f32>', size: n } });
        const glProgram = GlProgram.from({ vertex: VERTEX(n), fragment: FRAGMENT, name: 're2d-skin' });
        const shaders = new Map();
        const shaderOf = (t) => {
            if (!shaders.has(t)) shaders.set(t, new Shader({ glProgram, resources: { uTexture: t.source, uSampler: t.source.style, bones: this.bones } }));
            return shaders.get(t);
        };
        const order = model.parts.map((_, i) => i).sort((a, b) => model.parts[b].depth - model.parts[a].depth || a - b);
        for (const i of order) {
            const p = model.parts[i];
            const geometry = new Geometry({
                attributes: {
                    aPosition: { buffer: new Float32Array(p.verts), format: 'float32x2' },
                    aUV: { buffer: p.uv, format: 'float32x2' },
                    aBone: { buffer: Float32Array.from(p.bone), format: 'float32x2' },
                    aWeight: { buffer: p.weight, format: 'float32x2' },
                },
                indexBuffer: Uint32Array.from(p.tris),
            });
            this.addChild(new Mesh({ geometry, shader: shaderOf(textures[i]) }));
        }
        this.clip = model.clips.find((c) => c.name === 'walk');
        this.time = 0;
    }

    update(dt) {
        this.time += dt;
        this.pose.reset();
        applyClip(this.clip, clipTime(this.clip, this.time), this.pose, 1);
        world(this.model.bones, this.pose, this.world);
        skinMatrices(this.world, this.rest, this.model.bones.length, this.mats);
        this.bones.uniforms.uBones.set(this.mats);
        this.bones.update();
    }
}

let app = null;
async function pixiApp() {
    if (!app) {
        app = new Application();
        await app.init({ width: W, height: H, backgroundAlpha: 0, antialias: false, preference: 'webgl', autoStart: false, resolution: 1 });
        document.body.appendChild(app.canvas);
    }
    return app;
}

window.bench = {
    // N characters of `mode` ready to run, after `warm` frames (at most 5 s) of warm-up.
    async prepare(mode, url, n, warm = 20) {
        if (scene) scene.teardown();
        scene = mode === 'rive' ? await rive(url, n) : await player(url, n, mode);
        scene.sync = syncOf(scene.canvas);
        const start = performance.now();
        for (let f = 0; f < warm && performance.now() - start < 5000; f++) { scene.step(); scene.sync(); }
        return { vertices: scene.vertices || null };
    },

    // Runs `frames` frames, or as many as fit in `budgetMs` (step, then wait for the pixels): per
    // frame the page's time to step (`main`) and to the finished frame (`frame`), wall clock; the
    // frames run; the last frame as a PNG.
    async run(frames, budgetMs = 30000) {
        const main = [], frame = [];
        const start = performance.now();
        for (let f = 0; f < frames && performance.now() - start < budgetMs; f++) {
            const t0 = performance.now();
            scene.step();
            const t1 = performance.now();
            scene.sync();
            const t2 = performance.now();
            main.push(t1 - t0);
            frame.push(t2 - t0);
        }
        return { frames: main.length, main: stats(main), frame: stats(frame), shot: scene.canvas.toDataURL('image/png') };
    },
};

async function player(url, n, mode) {
    const a = await pixiApp();
    const chars = [];
    const grid = cells(n);
    for (let i = 0; i < n; i++) {
        const ch = await loadCharacter(url, { autoUpdate: false });
        const c = mode === 'shader' ? new ShaderCharacter(ch.model, ch.parts.map((m) => m.texture)) : ch;
        if (c !== ch) ch.destroy();
        if (mode === 'unbatched') for (const m of c.parts) m.geometry.batchMode = 'auto';
        const f = artboardFrame(c.model);
        const [x, y, w, h] = grid[i];
        const s = Math.min(w / f.width, h / f.height);
        c.scale.set(s);
        c.position.set(x + (w - s * f.width) / 2 + s * f.x, y + (h - s * f.height) / 2 + s * f.y);
        if (mode === 'shader') c.time = i * 0.137; else c.play('walk', i * 0.137);
        a.stage.addChild(c);
        chars.push(c);
    }
    return {
        canvas: a.canvas,
        vertices: n ? n * chars[0].model.parts.reduce((s, p) => s + p.verts.length / 2, 0) : 0,
        update() { for (const c of chars) c.update(DT); },
        render() { a.renderer.render(a.stage); },
        step() { this.update(); this.render(); },
        teardown() { for (const c of a.stage.removeChildren()) c.destroy({ children: true }); },
    };
}

async function rive(rivUrl, n) {
    const rt = await window.rive.RuntimeLoader.awaitInstance();
    const file = await rt.load(new Uint8Array(await (await fetch(rivUrl)).arrayBuffer()), undefined, false);
    const canvas = document.createElement('canvas');
    canvas.width = W;
    canvas.height = H;
    document.body.appendChild(canvas);
    const renderer = rt.makeRenderer(canvas);
    const chars = cells(n).map((cell, i) => {
        const ab = file.defaultArtboard();
        const anim = new rt.LinearAnimationInstance(ab.animationByName('walk'), ab);
        anim.advance(i * 0.137);
        return { ab, anim, cell };
    });
    return {
        canvas,
        step() {
            renderer.clear();
            for (const { ab, anim, cell } of chars) {
                anim.advance(DT);
                anim.apply(1);
                ab.advance(DT);
                renderer.save();
                renderer.align(rt.Fit.contain, rt.Alignment.center, { minX: cell[0], minY: cell[1], maxX: cell[0] + cell[2], maxY: cell[1] + cell[3] }, ab.bounds);
                ab.draw(renderer);
                renderer.restore();
            }
            renderer.flush();
            rt.resolveAnimationFrame();
        },
        teardown() {
            for (const { ab, anim } of chars) { anim.delete(); ab.delete(); }
            renderer.delete();
            canvas.remove();
        },
    };
}
window.benchScene = () => scene;
window.benchReady = true;
