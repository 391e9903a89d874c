// the same input gives bitwise the same output natively and in WASM. The
// native side is computed in this same run (`cargo run --example determinism`: every
// built-in model × every method that applies, hashed); each spec is solved again here
// through pkg/ and the FNV-1a hashes of the bytes of t, y, the outputs, yEval and the
// exact solution must be equal; a spec the run package leaves out (slowfast, a
// formulation: code "not-in-this-build") through pkg-labs/, the whole engine, as the
// page's worker runs it. (src/math.rs is what makes them equal: the elementary
// functions come from the libm crate on both targets.) The exponential methods (llm,
// slowfast) are included: their φ-functions (src/phi.rs) use + − × ÷ only, where
// nalgebra's expm took powf/log2 from the platform and agreed only to 1e-9.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import init, { solve as solveFirst } from '../../pkg/odelab.js';
import initWhole, { solve as solveWhole, stabilityMap } from '../../pkg-labs/odelab_labs.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let cases;

before(async () => {
  await init({ module_or_path: readFileSync(new URL('../../pkg/odelab_bg.wasm', import.meta.url)) });
  await initWhole({ module_or_path: readFileSync(new URL('../../pkg-labs/odelab_labs_bg.wasm', import.meta.url)) });
  const stdout = execFileSync('cargo', ['run', '--quiet', '--example', 'determinism'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 300_000,
    maxBuffer: 16 << 20,
  });
  cases = JSON.parse(stdout);
});

/** 64-bit FNV-1a over the little-endian bytes of a Float64Array (as in the example). */
export function fnv1a(values) {
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) {
    h ^= BigInt(b);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, '0');
}

function solve(spec) {
  try {
    return solveFirst(spec);
  } catch (e) {
    if (e.code === 'not-in-this-build') return solveWhole(spec);
    throw e;
  }
}

function wasmEntry(spec) {
  try {
    const sol = solve(spec);
    const names = Object.keys(sol.outputs);
    const outputs = new Float64Array(names.reduce((n, k) => n + sol.outputs[k].length, 0));
    let at = 0;
    for (const k of names) {
      outputs.set(sol.outputs[k], at);
      at += sol.outputs[k].length;
    }
    return { t: fnv1a(sol.t), y: fnv1a(sol.y), outputs: fnv1a(outputs), yEval: fnv1a(sol.yEval), exact: sol.exact ? fnv1a(sol.exact) : null, n: sol.t.length, nfev: sol.stats.nfev };
  } catch (e) {
    return { error: e.message };
  }
}

test('the hash matches the Rust one on known bytes', () => {
  // FNV-1a of the 8 bytes of 1.0 (0x3ff0000000000000, little-endian).
  assert.equal(fnv1a(new Float64Array([1])), 'aab1693229ba1db8');
  assert.equal(fnv1a(new Float64Array([])), 'cbf29ce484222325');
});

test('every built-in model × method: WASM output is bitwise the native output', () => {
  assert.ok(cases.length >= 40, `${cases.length} cases`);
  const differ = [];
  for (const { spec, native } of cases.filter((c) => !c.close)) {
    const wasm = wasmEntry(spec);
    const keys = ['error', 't', 'y', 'outputs', 'yEval', 'exact', 'n', 'nfev'];
    if (keys.some((k) => wasm[k] !== native[k])) {
      differ.push(`${spec.model} / ${spec.method}: native ${JSON.stringify(native)}, wasm ${JSON.stringify(wasm)}`);
    }
  }
  assert.deepEqual(differ, []);
});

test('the exponential methods are among the bitwise cases, adaptive llm included', () => {
  const ids = (id) => cases.filter((c) => c.spec.method === id && c.native && !c.native.error);
  assert.ok(ids('llm').length >= 8, `${ids('llm').length} llm cases`);
  assert.ok(ids('slowfast').length >= 2, `${ids('slowfast').length} slowfast cases`);
  assert.ok(ids('llm').every((c) => c.spec.adaptive === undefined && c.spec.tEval));
});

test('radau5 on the benchmark Van der Pol (its own step-size policy, 668 steps) is among the bitwise cases', () => {
  const stiff = cases.filter((c) => c.spec.method === 'radau5' && c.spec.t1 === 3000);
  assert.equal(stiff.length, 1);
  // The pinned count of tests/method/radau5.rs, natively; the test above compares WASM.
  assert.equal(stiff[0].native.nfev, 5428);
  assert.equal(wasmEntry(stiff[0].spec).y, stiff[0].native.y);
});

test('stability maps: WASM (vectorised row kernels, simd128) is bitwise the native map', async () => {
  await initWhole({ module_or_path: readFileSync(new URL('../../pkg-labs/odelab_labs_bg.wasm', import.meta.url)) });
  const maps = JSON.parse(
    execFileSync('cargo', ['run', '--quiet', '--example', 'determinism', '--', 'maps'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 300_000,
    }),
  );
  assert.ok(maps.length >= 7, `${maps.length} maps`);
  for (const { spec, native } of maps) assert.equal(fnv1a(stabilityMap(spec)), native, JSON.stringify(spec));
});
