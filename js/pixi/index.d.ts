// Types of @re2d/pixi: the re2d player of `model.json` for PixiJS v8 (docs/pixi.md).
import type { Container, DestroyOptions, Mesh, Texture, Ticker } from 'pixi.js';

/** The error codes of `re2d export-riv` (rive-export.md §8.7), and E_IO for a model that cannot be fetched. */
export type ModelErrorCode =
    | 'E_MODEL_JSON' | 'E_BONE' | 'E_PART' | 'E_WEIGHT' | 'E_TEXTURE' | 'E_CLIP' | 'E_KEY_QUANT' | 'E_KEY_RANGE' | 'E_IO';

/** A model export-riv would refuse, a texture that cannot be loaded, or a model.json that cannot be fetched. */
export declare class ModelError extends Error {
    readonly name: 'ModelError';
    readonly code: ModelErrorCode;
    /** The JSON path of the offending field, e.g. `parts[3] ('neck').tris[7]` or `textures.page0` ('' for the whole document). */
    readonly field: string;
}

/** A bone in canonical order (parents before children). */
export interface Bone {
    name: string;
    /** Index of the parent bone, −1 for a root. */
    parent: number;
    length: number;
    /** Rest angle relative to the parent (radians, y down: positive turns +x toward +y). */
    angle: number;
    /** Root position (0 for children). */
    x: number;
    y: number;
}

export interface Part {
    name: string;
    /** Smaller is nearer. */
    depth: number;
    /** Index into Model.textures, −1 for the white texture. */
    texture: number;
    /** Rest positions, x, y per vertex (model coordinates). */
    verts: Float64Array;
    uv: Float32Array;
    tris: Uint16Array;
    /** Two influences a vertex: bone indices (−1 none) and weights normalised to sum 1. */
    bone: Int16Array;
    weight: Float32Array;
}

export interface Track {
    bone: number;
    times: Float64Array;
    /** One value a key (an angle) for rotations, two (dx, dy) for translations. */
    values: Float64Array;
}

export interface Clip {
    name: string;
    duration: number;
    loop: boolean;
    step: boolean;
    tracks: Track[];
    translations: Track[];
}

export interface Machine {
    name: string;
    /** The Number input of the 1-D blend. */
    input: string;
    /** Clip indices and thresholds, ascending. */
    blend: { clip: number; threshold: number }[];
    /** One-shot clip indices and their trigger names. */
    triggers: { clip: number; name: string }[];
}

/** A validated model.json. */
export interface Model {
    name: string;
    bones: Bone[];
    /** The textures the parts use: their id and path (relative to the model.json). */
    textures: { id: string; path: string }[];
    parts: Part[];
    /** In ascending name order. */
    clips: Clip[];
    machine: Machine | null;
    /** Non-fatal notes (ignored colours, dropped weight pairs, x/y on a child bone). */
    warnings: string[];
}

/** Validates a parsed model.json by export-riv's rules; throws a ModelError naming the field. */
export declare function readModel(json: unknown): Model;

/** The artboard frame of rive-export.md §8.1: place a character at (x, y) on a width × height canvas to draw what `riv render-ref` draws. */
export declare function artboardFrame(model: Model): { x: number; y: number; width: number; height: number };

export interface LoadOptions {
    /** Update from a ticker (default true). */
    autoUpdate?: boolean;
    /** The ticker to update from (default Ticker.shared). */
    ticker?: Ticker;
    /** For a parsed model: the URL its texture paths are relative to (default the page). */
    baseUrl?: string;
    /** Texture id → URL (a data: URL too) or Texture, instead of the model's paths. */
    textures?: Record<string, string | Texture>;
}

/** The largest texture side accepted (export-riv's png-max-side). */
export declare const MAX_TEXTURE_SIDE: number;

/**
 * Loads a character through PixiJS's Assets: the model.json at `source` (textures relative to
 * it) or a parsed model. Rejects with a ModelError; nothing is left behind on failure.
 */
export declare function loadCharacter(source: string | object, options?: LoadOptions): Promise<Re2dCharacter>;

/**
 * A character: one Mesh per part, posed every update. Event `'statechange'` (name: string): a
 * layer of the state machine changed state, by the Rive runtime's names (a clip's name,
 * "unknown" for the blend, "exit").
 */
export declare class Re2dCharacter extends Container {
    constructor(model: Model, textures: Texture[], options?: LoadOptions);
    readonly model: Model;
    /** One Mesh per model part, in the model's order. */
    readonly parts: Mesh[];
    /** The state machine (null when the model has none). */
    readonly machine: StateMachine | null;
    /** The clip played directly (null while the state machine plays). */
    readonly clip: Clip | null;
    /** Seconds into the directly played clip. */
    time: number;
    /** Multiplies every update's dt (default 1). */
    timeScale: number;
    /** Clip name → its duration (s) and whether it loops. */
    readonly clips: Record<string, { duration: number; loop: boolean }>;
    /** Plays a clip directly from `time` seconds (a loop wraps, a one-shot holds its ends). */
    play(name: string, time?: number): this;
    /** Starts the state machine afresh (the default when the model has one). */
    playMachine(): this;
    /** Sets a Number input of the state machine (hands a directly played clip back to it). */
    setInput(name: string, value: number): void;
    getInput(name: string): number;
    /** Fires a trigger of the state machine (hands a directly played clip back to it). */
    fire(name: string): void;
    /** Advances by dt seconds and poses the meshes (called by the ticker unless autoUpdate is false). */
    update(dt: number): void;
    destroy(options?: DestroyOptions): void;
}

/** A pose: every bone's local angle and every root's position (absolute). */
export declare class Pose {
    constructor(bones: Bone[]);
    readonly angle: Float64Array;
    readonly x: Float64Array;
    readonly y: Float64Array;
    reset(): void;
    copyFrom(p: Pose): void;
}

/** The clip time shown at t seconds of play: a loop wraps, a one-shot holds its ends. */
export declare function clipTime(clip: Clip, t: number): number;
/** Component c of keys (stride values a key) sampled at t, linear or step. */
export declare function sampleKeys(times: Float64Array, values: Float64Array, stride: number, c: number, t: number, step: boolean): number;
/** Applies a clip at clip time `time` to a pose at weight w (v ← v + (key − v)·w). */
export declare function applyClip(clip: Clip, time: number, pose: Pose, w: number): void;
/** Part indices far to near: depth descending, then declaration order. */
export declare function restOrder(parts: Part[]): number[];

/** The model's state machine, run with the Rive runtime's semantics (rive-export.md §11.5). */
export declare class StateMachine {
    constructor(model: Model);
    readonly name: string;
    readonly inputs: { name: string; type: 'number' | 'trigger'; value: number | undefined; fired: boolean }[];
    setNumber(name: string, value: number): void;
    getNumber(name: string): number;
    fire(name: string): void;
    /** The current state's name in each layer. */
    readonly states: (string | null)[];
    /** Advances by dt and applies to the pose; returns the state changes. */
    advance(dt: number, pose: Pose): string[];
}
