// The structural-dynamics methods and their analysis through the labs package, as a
// script uses them: misspelt keys refused at every level, ρ∞ reached as ωh → ∞.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import initLabs, * as labs from '../../pkg-labs/odelab_labs.js';

before(async () => {
  await initLabs({ module_or_path: readFileSync(new URL('../../pkg-labs/odelab_labs_bg.wasm', import.meta.url)) });
});

test('structuralAnalysis gives generalized-α its ρ∞ as ωh → ∞ and curves on the default grid', () => {
  const c = labs.structuralAnalysis({ method: 'generalized-alpha', methodParams: { rhoInf: 0.5 } });
  assert.ok(Math.abs(c.spectralRadiusAtInfinity - 0.5) < 1e-12);
  assert.equal(c.omegaH.length, 201);
  assert.equal(c.spectralRadius.length, 201);
  // Below ωh ≈ 0.1 the method is nearly exact: ρ ≈ 1, no period error to speak of.
  assert.ok(c.spectralRadius[0] > 0.999999 && Math.abs(c.periodError[0]) < 1e-4);
  assert.deepEqual(labs.structuralMethods().slice(0, 3), ['generalized-alpha', 'hht-alpha', 'newmark']);
});

test('misspelt keys are refused with a suggestion, in the analysis and in methodParams', () => {
  assert.throws(() => labs.structuralAnalysis({ method: 'newmark', omegah: [1] }), /did you mean "omegaH"/);
  assert.throws(() => labs.structuralAnalysis({ method: 'newmark', methodParams: { gama: 0.6 } }), /did you mean "gamma"/);
  assert.throws(
    () => labs.solve({ model: 'pendulum', method: 'generalized-alpha', h: 0.01, t1: 1, methodParams: { rhoinf: 0.5 } }),
    /did you mean "rhoInf"/,
  );
  assert.throws(() => labs.solve({ model: 'pendulum', method: 'newmark', h: 0.01, t1: 1, methodParams: { gamma: 0.4 } }), /grows/);
});
