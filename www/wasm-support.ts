/**
 * What the engine needs from the browser's WebAssembly, checked before the page starts
 * it: both packages are built with SIMD (fixed-width vector instructions, see
 * scripts/build-wasm.sh), which an older browser cannot compile — without this check
 * such a browser would show a page that never computes anything.
 */

/**
 * The smallest module that uses a SIMD instruction (`i8x16.popcnt` of a splat), the
 * probe of the wasm-feature-detect library: `validate` accepts it only with SIMD.
 */
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

/** Why this browser cannot run the engine, in words a student can act on; undefined if it can. */
export function missingWasmSupport(): string | undefined {
  const upgrade = 'Open odelab in a current Firefox (89 or later), Chrome or Edge (91 or later) or Safari (16.4 or later).';
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.validate !== 'function') {
    return `This browser cannot run WebAssembly, which odelab's numerical engine is compiled to (or it is switched off here). ${upgrade}`;
  }
  if (!WebAssembly.validate(SIMD_PROBE)) {
    return `This browser's WebAssembly lacks SIMD (fixed-width vector instructions), which odelab's numerical engine is built with. ${upgrade}`;
  }
  return undefined;
}
