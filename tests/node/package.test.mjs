// Tests of the built wasm packages in Node: the JS API contract that lecture pages
// embed — names, shapes, typed arrays, thrown Errors — exercised through the real wasm
// modules, not the Rust API. The run package (pkg/odelab.js) has the catalogues, solve
// and Integrator over the catalogue models; the labs package (pkg-labs/odelab_labs.js)
// the labs, and the same run API over the whole engine (your own systems,
// formulations, methods "custom" and "slowfast"), which the run package refuses with
// an Error whose code is "not-in-this-build".
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import init, * as runPackage from '../../pkg/odelab.js';
import initLabs, * as labsPackage from '../../pkg-labs/odelab_labs.js';

const { methods, models, solve, Integrator } = runPackage;
const { analyzeTableau, convergence, spectrum, stabilityFacts } = labsPackage;

before(async () => {
  await init({ module_or_path: readFileSync(new URL('../../pkg/odelab_bg.wasm', import.meta.url)) });
  await initLabs({ module_or_path: readFileSync(new URL('../../pkg-labs/odelab_labs_bg.wasm', import.meta.url)) });
});

// The public names (README "Using the engine from JavaScript"): the run API in both
// packages (the labs package is the whole engine), the labs' own only in the labs one.
const RUN_API = ['methods', 'models', 'stabilityMethods', 'describeSystem', 'solve', 'Integrator'];
const LABS_API = ['stabilityMap', 'stabilityContour', 'stabilityFacts', 'stabilityAnalysis', 'spectrum', 'convergence', 'analyzeTableau', 'compareRuns', 'compareFormulations', 'exactAt', 'readAssignment', 'assignmentDigest', 'gradeAssignment', 'diagnosisCodes', 'structuralAnalysis', 'structuralMethods'];

test('the run API is in both packages, the labs API only in the labs package', () => {
  for (const name of RUN_API) {
    assert.equal(typeof runPackage[name], 'function', `pkg/odelab.js exports ${name}`);
    assert.equal(typeof labsPackage[name], 'function', `pkg-labs/odelab_labs.js exports ${name}`);
  }
  for (const name of LABS_API) {
    assert.equal(typeof labsPackage[name], 'function', `pkg-labs/odelab_labs.js exports ${name}`);
    assert.equal(runPackage[name], undefined, `pkg/odelab.js does not export ${name}`);
  }
  // Nothing else: a new binding is added to the list above (and to the README).
  const own = (pkg) => Object.keys(pkg).filter((k) => k !== 'default' && k !== 'initSync').sort();
  assert.deepEqual(own(runPackage), [...RUN_API].sort());
  assert.deepEqual(own(labsPackage), [...RUN_API, ...LABS_API].sort());
});

// What the run package leaves out to stay small, each as a spec the whole engine runs.
const LEFT_OUT = [
  ['your own system', { system: "x' = v\nv' = -4*x\nx(0) = 1, v(0) = 0", method: 'rk4', h: 0.01, t1: 1 }],
  ['a formulation', { model: 'double-pendulum-stiff', formulation: 'augmented', method: 'ros4', t1: 0.1 }],
  ['method "custom"', { model: 'pendulum', method: 'custom', tableau: rk4Typed(), h: 0.01, t1: 1 }],
  ['method "slowfast"', { model: 'pendulum-particle', method: 'slowfast', h: 0.005, t1: 0.1 }],
  ['an event as text', { model: 'mass-spring-damper', method: 'rk4', h: 0.01, t1: 2, events: [{ expr: 'x + 0.05' }] }],
  ['method "generalized-alpha" with methodParams', { model: 'mass-spring-damper', method: 'generalized-alpha', methodParams: { rhoInf: 0.5 }, h: 0.01, t1: 1 }],
];

test('the run package refuses what it leaves out with code "not-in-this-build"; the labs package runs it', () => {
  const refused = (e) => e instanceof Error && e.code === 'not-in-this-build' && /not in odelab's first-load package pkg\//.test(e.message);
  for (const [what, spec] of LEFT_OUT) {
    assert.throws(() => solve(spec), refused, what);
    assert.throws(() => new Integrator(spec), refused, what);
    const sol = labsPackage.solve(spec);
    assert.ok(sol.t.length > 1 && sol.y.every(Number.isFinite), what);
    const it = new labsPackage.Integrator(spec);
    assert.deepEqual(it.advance(1e9).t, sol.t.subarray(1), what);
    it.free();
  }
  assert.throws(() => runPackage.describeSystem("x' = -x\nx(0) = 1"), refused);
  assert.deepEqual(labsPackage.describeSystem("x' = -x\nx(0) = 1").names, ['x']);
  // An ordinary error keeps its own code, so nothing is re-run.
  assert.throws(() => solve({ model: 'pendulum', method: 'rk4', h: 0 }), (e) => e.code === 'bad-step-size');
  assert.throws(() => labsPackage.solve({ system: "x' = ", method: 'rk4', h: 0.1 }), (e) => e.code === 'parse');
});

test('the run package, fetched before the first plot, stays within 400 KB raw and 150 KB gzip -9', () => {
  // The budget. What pkg/ holds is chosen by cargo features (Cargo.toml): code
  // that only user systems, formulations, custom tableaux or slowfast reach belongs
  // behind `full`, in the labs package.
  const bytes = readFileSync(new URL('../../pkg/odelab_bg.wasm', import.meta.url));
  const gzip = gzipSync(bytes, { level: 9 }).length;
  assert.ok(bytes.length <= 400_000, `pkg/odelab_bg.wasm is ${bytes.length} bytes`);
  assert.ok(gzip <= 150_000, `pkg/odelab_bg.wasm is ${gzip} bytes gzipped`);
});

test('the run package and the whole engine give bitwise the same catalogue runs', () => {
  for (const spec of [
    { model: 'pendulum', method: 'dp45', t1: 10, rtol: 1e-8 },
    { model: 'van-der-pol', method: 'ros4', t1: 20 },
    { model: 'bouncing-balls', method: 'llm', t1: 1, events: [{ id: 'psi1' }] },
  ]) {
    const [a, b] = [solve(spec), labsPackage.solve(spec)];
    // Rejections by cause are counted in the whole engine only (the step inspector's).
    const wholeStats = { ...b.stats };
    delete wholeStats.rejectedByCause;
    assert.deepEqual([a.t, a.y, a.stats], [b.t, b.y, wholeStats], spec.method);
  }
});

test('methods() lists the catalogue with its metadata', () => {
  const list = methods();
  const ids = list.map((m) => m.id);
  for (const id of ['euler', 'heun', 'midpoint2', 'rk4', 'bs23', 'dp45']) assert.ok(ids.includes(id), id);
  for (const m of list) {
    for (const key of ['id', 'name', 'order', 'family', 'source']) assert.ok(key in m, `${m.id}.${key}`);
  }
  assert.equal(list.find((m) => m.id === 'rk4').order, 4);
});

test('models() lists mass-spring-damper and pendulum with defaults from the sources', () => {
  const list = models();
  const msd = list.find((m) => m.id === 'mass-spring-damper');
  const pendulum = list.find((m) => m.id === 'pendulum');
  assert.ok(msd && pendulum);
  const value = (m, name) => m.params.find((p) => p.name === name).value;
  assert.deepEqual([value(msd, 'm'), value(msd, 'k'), value(msd, 'c'), value(msd, 'g')], [1, 100, 0.5, 9.81]);
  assert.deepEqual(msd.y0, [0, 0]);
  assert.deepEqual(pendulum.y0, [1, 0]);
  assert.equal(value(pendulum, 'g'), 9.81);
  for (const m of list) {
    for (const key of ['id', 'name', 'dim', 'names', 'params', 'y0', 't1', 'source']) assert.ok(key in m, `${m.id}.${key}`);
  }
});

test('solve returns Float64Arrays, row-major y, stats', () => {
  const sol = solve({ model: 'mass-spring-damper', method: 'rk4', t1: 1, h: 0.001 });
  assert.ok(sol.t instanceof Float64Array);
  assert.ok(sol.y instanceof Float64Array);
  assert.equal(sol.dim, 2);
  assert.deepEqual(sol.names, ['x', 'u']);
  assert.equal(sol.t.length, 1001);
  assert.equal(sol.y.length, 2 * 1001);
  assert.equal(sol.stats.nfev, 4000);
  assert.equal(sol.stats.nsteps, 1000);
  assert.ok(sol.exact instanceof Float64Array);
  // RK4 at h = 0.001 on [0, 1] matches the exact solution to 1e-9.
  let worst = 0;
  for (let i = 0; i < sol.y.length; i++) worst = Math.max(worst, Math.abs(sol.y[i] - sol.exact[i]));
  assert.ok(worst < 1e-9, `max error ${worst}`);
  assert.ok(sol.outputs.energy instanceof Float64Array);
});

test('params, y0 and t0 are honoured', () => {
  const sol = solve({ model: 'pendulum', method: 'rk4', params: { L: 2 }, y0: [0.5, 0], t0: 1, t1: 2, h: 0.25 });
  assert.deepEqual(Array.from(sol.t), [1, 1.25, 1.5, 1.75, 2]);
  assert.equal(sol.y[0], 0.5);
  // Energy per unit mass at rest: g L (1 − cos θ0).
  assert.ok(Math.abs(sol.outputs.energy[0] - 9.81 * 2 * (1 - Math.cos(0.5))) < 1e-14);
});

test('an optional field given as undefined (or null) reads as absent, in both packages', () => {
  const plain = solve({ model: 'pendulum', method: 'rk4', t1: 1, h: 0.01 });
  for (const pkg of [runPackage, labsPackage]) {
    for (const spec of [
      { model: 'pendulum', method: 'rk4', params: undefined, t1: 1, h: 0.01 },
      { model: 'pendulum', method: 'rk4', params: null, events: undefined, y0: undefined, t1: 1, h: 0.01 },
      { model: 'pendulum', method: 'rk4', controller: undefined, tableau: undefined, t1: 1, h: 0.01 },
    ]) {
      assert.deepEqual(Array.from(pkg.solve(spec).y), Array.from(plain.y));
    }
  }
  assert.equal(labsPackage.spectrum({ model: 'pendulum', params: undefined, y: [0.1, 0] }).length, 4);
});

test('a solution says whether it adapted its steps and gives y by column too', () => {
  const fixed = solve({ model: 'mass-spring-damper', method: 'rk4', t1: 1, h: 0.01 });
  const adaptive = solve({ model: 'mass-spring-damper', method: 'dp45', t1: 1 });
  const forcedFixed = solve({ model: 'mass-spring-damper', method: 'dp45', adaptive: false, t1: 1, h: 0.01 });
  assert.equal(fixed.adaptive, false);
  assert.equal(adaptive.adaptive, true);
  assert.equal(forcedFixed.adaptive, false);
  for (const sol of [fixed, adaptive]) {
    assert.equal(sol.yColumns.length, sol.dim);
    for (let j = 0; j < sol.dim; j++) {
      assert.ok(sol.yColumns[j] instanceof Float64Array);
      assert.equal(sol.yColumns[j].length, sol.t.length);
      for (let i = 0; i < sol.t.length; i++) assert.equal(sol.yColumns[j][i], sol.y[i * sol.dim + j]);
    }
  }
});

test('Euler blows up visibly on the pendulum while RK4 keeps the energy (Schwab & Delhaes Fig. 7.5)', () => {
  const euler = solve({ model: 'pendulum', method: 'euler', t1: 10, h: 0.01 }).outputs.energy;
  const rk4 = solve({ model: 'pendulum', method: 'rk4', t1: 10, h: 0.01 }).outputs.energy;
  assert.ok(euler.at(-1) > 2 * euler[0], `euler energy ${euler[0]} -> ${euler.at(-1)}`);
  assert.ok(Math.abs(rk4.at(-1) - rk4[0]) < 1e-6 * rk4[0]);
});

test('bad specs throw an Error that says what was wrong', () => {
  const base = { model: 'pendulum', method: 'rk4', t1: 1, h: 0.01 };
  const cases = [
    [{ ...base, h: 0 }, /step size h must be a positive number, got h = 0/],
    [{ ...base, h: -1 }, /got h = -1/],
    [{ ...base, h: NaN }, /step size h must be a positive number/],
    [{ ...base, method: 'nope' }, /unknown method "nope"; the methods are "euler", /],
    [{ ...base, model: 'nope' }, /unknown model "nope"/],
    [{ ...base, t1: 0 }, /end time t1 must be after start time t0/],
    [{ ...base, y0: [1] }, /must have 2 entries, got 1/],
    [{ ...base, params: { q: 1 } }, /has no parameter "q"/],
    [{ ...base, h: 1e-9 }, /budget/],
    [{ ...base, h: 'big' }, /invalid spec: h: invalid type: string "big", expected f64 in the spec$/],
    // A number or a string where an object or a list belongs: the field is named, not
    // JavaScript's "Reflect.get called on non-object".
    [{ ...base, params: 5 }, /invalid spec: params: expected a list or an object with named fields in the spec$/],
    [{ ...base, events: true }, /invalid spec: events: expected a list or an object with named fields in the spec$/],
    [{ ...base, y0: 'a' }, /invalid spec: y0: expected a list/],
    [{ ...base, stabilization: 3 }, /invalid spec: stabilization: invalid type: floating point `3.0`, expected a string/],
    [{ ...base, rtoll: 1 }, /unknown field "rtoll" in the spec \(did you mean "rtol"\?\)/],
    [{ method: 'rk4', h: 0.1 }, /missing field `model`/],
  ];
  for (const [spec, pattern] of cases) {
    assert.throws(() => solve(spec), (e) => e instanceof Error && pattern.test(e.message), JSON.stringify(spec));
  }
  assert.throws(() => solve(undefined), Error);
  assert.throws(() => new Integrator({ ...base, h: 0 }), /positive number/);
  // The module is still alive after all those errors.
  assert.equal(solve(base).t.length, 101);
});

test('Integrator steps one step at a time and matches solve', () => {
  const spec = { model: 'pendulum', method: 'rk4', t1: 0.5, h: 0.1 };
  const sol = solve(spec);
  const it = new Integrator(spec);
  assert.equal(it.t, 0);
  assert.deepEqual(Array.from(it.y), [1, 0]);
  let i = 0;
  while (!it.done) {
    const s = it.step();
    i += 1;
    assert.ok(s.y instanceof Float64Array);
    assert.equal(s.t, sol.t[i]);
    assert.ok(Math.abs(s.h - 0.1) < 1e-15);
    assert.deepEqual(Array.from(s.y), Array.from(sol.y.subarray(2 * i, 2 * i + 2)));
  }
  assert.equal(i, 5);
  assert.deepEqual(it.stats, sol.stats);
  assert.throws(() => it.step(), /reached its end time/);
  it.free();
});

test('adaptive dp45 through the package: counts, h and errEst arrays, events', () => {
  const sol = solve({ model: 'pendulum', method: 'dp45', t1: 100, rtol: 1e-8, atol: 1e-10 });
  // SciPy's RK45 takes 21,626 f-evaluations on this problem (measured once).
  assert.equal(sol.stats.nfev, 21627);
  assert.equal(sol.stats.naccept + sol.stats.nreject, sol.stats.nsteps);
  assert.ok(sol.h instanceof Float64Array && sol.h.length === sol.t.length - 1);
  assert.ok(sol.errEst instanceof Float64Array);
  assert.ok(Array.from(sol.errEst).every((e) => e <= 1));
  const balls = solve({ model: 'bouncing-balls', method: 'dp45', t1: 1, rtol: 1e-8, events: [{ id: 'psi1' }, { id: 'psi2' }] });
  assert.ok(balls.events.length > 0);
  for (const e of balls.events) assert.ok(e.y instanceof Float64Array && e.t > 0 && e.t < 1);
  assert.throws(() => solve({ model: 'pendulum', method: 'dp45', rtol: -1 }), /rtol/);
  assert.throws(() => solve({ model: 'pendulum', method: 'dp45', controller: { kind: 'pid' } }), Error);
});

test('spectrum: eigenvalues of the Jacobian at a state, interleaved', () => {
  const l = spectrum({ model: 'mass-spring-damper', y: [0, 0] });
  assert.ok(l instanceof Float64Array && l.length === 4);
  assert.ok(Math.abs(l[0] + 0.25) < 1e-12 && Math.abs(Math.abs(l[1]) - Math.sqrt(99.9375)) < 1e-12);
  const user = spectrum({ system: "x' = v\nv' = -4*x\nx(0) = 1, v(0) = 0", y: [1, 0] });
  assert.ok(Math.abs(Math.abs(user[1]) - 2) < 1e-12);
  assert.throws(() => spectrum({ model: 'pendulum', y: [1] }), /must have 2 entries/);
  assert.throws(() => spectrum({ model: 'pendulum', y: [NaN, 0] }), /finite/);
});

test('the labs refuse misspelt keys like solve does: spectrum, convergence (and its tableau)', () => {
  assert.throws(
    () => spectrum({ model: 'double-pendulum-stiff', formulaton: 'augmented' }),
    /unknown field "formulaton" in the spectrum spec \(did you mean "formulation"\?\)/,
  );
  assert.throws(() => convergence({ model: 'pendulum', methods: ['rk4'], nmax: 6 }), /unknown field "nmax" in the convergence spec \(did you mean "nMax"\?\)/);
  assert.throws(
    () => convergence({ model: 'pendulum', methods: ['custom'], tableau: { a: [['0']], b: ['1'], bhat: ['1'] } }),
    /unknown field "bhat" in tableau \(did you mean "bHat"\?\)/,
  );
});

// "Your own method": the tableau editor's calls (method "custom" runs in the
// whole engine, the labs package).
function rk4Typed() {
  return {
    a: [['0', '0', '0', '0'], ['1/2', '0', '0', '0'], ['0', '1/2', '0', '0'], ['0', '0', '1', '0']],
    b: ['1/6', '1/3', '1/3', '1/6'],
  };
}

test('analyzeTableau reports order 4, 17 conditions and R(z) of RK4 typed as fractions', () => {
  const a = analyzeTableau(rk4Typed());
  assert.equal(a.order, 4);
  assert.equal(a.stages, 4);
  assert.equal(a.explicit, true);
  assert.equal(a.embeddedOrder, undefined);
  assert.equal(a.conditions.length, 17);
  assert.deepEqual(Object.keys(a.conditions[0]).sort(), ['holds', 'name', 'order', 'residual', 'target', 'tree', 'value']);
  assert.deepEqual(a.stability.numeratorExact, ['1', '1', '1/2', '1/6', '1/24']);
  assert.deepEqual(a.stability.denominator, [1]);
  assert.equal(a.stability.text, '1 + z + z^2/2 + z^3/6 + z^4/24');
  assert.deepEqual(a.c, [0, 0.5, 0.5, 1]);
});

test('analyzeTableau throws Errors naming the entry and unknown keys', () => {
  assert.throws(() => analyzeTableau({ ...rk4Typed(), a: [['0', '0', '0', '0'], ['1/x', '0', '0', '0'], ['0', '1/2', '0', '0'], ['0', '0', '1', '0']] }),
    (e) => e instanceof Error && e.message.includes('row 2, column 1'));
  assert.throws(() => analyzeTableau({ ...rk4Typed(), bhat: ['1', '0', '0', '0'] }), /unknown field "bhat".*bHat/);
  assert.throws(() => analyzeTableau({ a: [[0]], b: [true] }), Error);
});

test('solve runs method "custom" bit for bit like rk4; stabilityFacts reads the same tableau', () => {
  const mine = labsPackage.solve({ model: 'pendulum', method: 'custom', tableau: rk4Typed(), h: 0.01, t1: 2 });
  const theirs = solve({ model: 'pendulum', method: 'rk4', h: 0.01, t1: 2 });
  assert.deepEqual(mine.y, theirs.y);
  const pair = { ...rk4Typed(), a: [['0', '0', '0', '0'], ['1/2', '0', '0', '0'], ['0', '3/4', '0', '0'], ['2/9', '1/3', '4/9', '0']], b: ['2/9', '1/3', '4/9', '0'], bHat: ['7/24', '1/4', '1/3', '1/8'] };
  const adaptive = labsPackage.solve({ model: 'pendulum', method: 'custom', tableau: pair, t1: 2 });
  assert.equal(adaptive.errEst.length, adaptive.h.length);
  assert.throws(() => solve({ model: 'pendulum', method: 'custom', tableau: { ...rk4Typed(), x: 1 }, h: 0.01 }), /unknown field "x" in tableau/);
  const f = stabilityFacts({ method: 'custom', tableau: rk4Typed() });
  assert.ok(Math.abs(f.realIntercept + 2.785293563405282) < 1e-9);
});

