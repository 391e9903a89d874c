/**
 * The engine: the one TypeScript module that imports the generated run package
 * (`pkg/odelab.js`: catalogues, solve, Integrator — all the page's first plot needs).
 * The labs (stability, convergence, tableau analysis, comparisons) are a second wasm
 * package behind www/engine-labs.ts, which the worker loads on first use. The run
 * package runs the catalogue models; what it leaves out to stay small (your own
 * systems, constrained formulations, methods "custom" and "slowfast", events written
 * as text) it refuses with an Error that `refusedHere` recognises, and the labs
 * package, the whole engine, runs it with the same API.
 */
import init, * as wasm from '../pkg/odelab.js';
import type { Chunk, Diagnosis, DiagnosisFix, MethodInfo, MethodParams, ModelInfo, ParamInfo, SolveSpec, Solution, Stats, TableauSpec, StepResult } from '../pkg/odelab.js';

export type { Chunk, Diagnosis, DiagnosisFix, MethodInfo, MethodParams, ModelInfo, ParamInfo, SolveSpec, Solution, Stats, StepResult, TableauSpec };

/** A run kept in Rust, stepped one step at a time; call `free()` when done with it. */
export const Integrator = wasm.Integrator;
export type Integrator = wasm.Integrator;

let ready: Promise<void> | undefined;

/**
 * Loads the wasm module once. In the browser the default locates `odelab_bg.wasm` next
 * to the bundle; in Node, pass the file's bytes; the worker may pass the module the page
 * already compiled.
 */
export function initEngine(source?: BufferSource | WebAssembly.Module): Promise<void> {
  ready ??= init(source === undefined ? undefined : { module_or_path: source }).then(() => undefined);
  return ready;
}

/** The method catalogue. */
export function methods(): MethodInfo[] {
  return wasm.methods();
}

/** The model catalogue. */
export function models(): ModelInfo[] {
  return wasm.models();
}

/** The method ids the stability lab can map (a catalogue: no lab code needed to list it). */
export function stabilityMethods(): string[] {
  return wasm.stabilityMethods();
}

/** Describes your own system's text like a catalogue model; throws on a parse error. */
export function describeSystem(text: string): ModelInfo {
  return wasm.describeSystem(text);
}

/** Integrates a spec; throws an `Error` whose message says what is wrong with a bad spec. */
export function solve(spec: SolveSpec): Solution {
  return wasm.solve(spec);
}

/** The `code` of the run package's refusals (the core's `OdeError::NotInThisBuild`). */
export const NOT_IN_THIS_BUILD = 'not-in-this-build';

/** True for the Error the run package throws for a spec only the whole engine runs. */
export function refusedHere(e: unknown): boolean {
  return e instanceof Error && (e as Error & { code?: unknown }).code === NOT_IN_THIS_BUILD;
}
