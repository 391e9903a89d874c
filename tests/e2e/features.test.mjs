// Browser tests of the features beyond the skeleton: adaptive methods with tolerances
//, event location, your own system typed on the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open, countColouredPixels, stat } from './harness.mjs';

const BLUE = [31, 95, 191];
const site = useSite();

test('dp45 shows tolerances, rejected steps and the step-size plot', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=dp45`);
  assert.ok(await page.isVisible('#adaptive-box'));
  assert.ok(!(await page.isVisible('#fixed-box')));
  assert.ok(await page.isVisible('#fig-steps'));
  await page.fill('#t1', '100');
  await page.fill('#atol', '1e-10');
  await page.fill('#rtol', '1e-8');
  // SciPy's RK45 takes 21,626 f-evaluations here; ours 21,627 (tests/node pins it).
  await page.waitForFunction(() => document.querySelector('dd[data-stat="f-evaluations"]')?.textContent === '21627');
  assert.ok(Number(await stat(page, 'rejected')) > 0);
  assert.ok((await countColouredPixels(page, '#plot-steps', [11, 114, 133])) > 100, 'step sizes drawn');
  assert.deepEqual(errors, []);
  await page.close();
});

test('an adaptive run plots what its error test judged, per unit step under EPUS, and a fixed-step run does not', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?scenario=llm-adaptive-double-pendulum`);
  assert.ok(await page.isVisible('#fig-estimate'));
  assert.ok((await countColouredPixels(page, '#plot-estimate', [232, 89, 12])) > 100, 'the estimates drawn');
  // Per unit step every accepted step is at or below 1: the plot's largest value.
  const largest = await page.evaluate(async () => {
    const s = await window.odelab.solve({ model: 'double-pendulum-stiff', method: 'llm', rtol: 1e-13, atol: 0.1, t1: 2, controller: { kind: 'i', perUnitStep: true, safety: 0.9 } });
    return Math.max(...Array.from(s.errEst, (e, i) => e / (s.t[i + 1] - s.t[i])));
  });
  assert.ok(largest <= 1 && largest > 0.5, `largest estimate per unit step ${largest}`);
  // A fixed-step run has no error test: the figure goes.
  await page.selectOption('#method', 'rk4');
  await page.waitForFunction(() => document.getElementById('fig-estimate')?.hidden === true);
  assert.deepEqual(errors, []);
  await page.close();
});

test('bouncing balls with events located', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=bouncing-balls&method=dp45`);
  assert.ok(await page.isVisible('#events-box'));
  await page.check('#events');
  await page.waitForFunction(() => document.querySelector('dd[data-stat="events"]') !== null);
  assert.match(await stat(page, 'events'), /^\d+ \(first at t = /);
  assert.deepEqual(errors, []);
  await page.close();
});

test('your own system — a typo shows line, column and caret; the fix draws', async () => {
  const { page, errors } = await open(site.browser, site.server.url);
  await page.selectOption('#model', 'custom');
  await page.selectOption('#method', 'rk4');
  await page.waitForSelector('#system-box:not([hidden])');
  // Parameters of the text become inputs (once the labs package, the whole engine that
  // reads typed systems, has loaded: until then the previous run stays shown).
  await page.waitForSelector('input[data-param="k"]', { state: 'visible', timeout: 15000 });
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  assert.ok((await countColouredPixels(page, '#plot-trajectory', BLUE)) > 200);

  await page.fill('#system', "param k = 4\nx' = v\nv' = -kk*x\nx(0) = 1, v(0) = 0");
  await page.waitForSelector('#system-error:not([hidden])');
  const text = await page.textContent('#system-error');
  assert.match(text, /^line 3, column 7: unknown name "kk"; did you mean "k"\?/);
  assert.match(text, /\n\s*\^/);

  await page.fill('#system', "param k = 4\nx' = v\nv' = -k*x\nx(0) = 1, v(0) = 0");
  await page.waitForSelector('#system-error[hidden]', { state: 'attached' });
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  // x'' = -4x from x = 1: x(t1 = 10) = cos(20); energy-free system, two states drawn.
  assert.ok((await countColouredPixels(page, '#plot-trajectory', BLUE)) > 200);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a run downloads as CSV with named columns, a plot as PNG', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=rk4`);
  await page.fill('#t1', '1');
  await page.waitForFunction(() => document.querySelector('dd[data-stat="steps"]')?.textContent === '100');
  const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  assert.equal(csv.suggestedFilename(), 'odelab-pendulum-rk4.csv');
  const text = await (await csv.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
  const lines = text.trim().split('\n');
  assert.equal(lines[0], 't,θ,ω,energy');
  assert.equal(lines.length, 102);
  assert.deepEqual(lines[1].split(',').map(Number).slice(0, 3), [0, 1, 0]);
  const [png] = await Promise.all([page.waitForEvent('download'), page.click('button[data-png="plot-trajectory"]')]);
  assert.equal(png.suggestedFilename(), 'odelab-pendulum-rk4-trajectory.png');
  const bytes = Buffer.concat(await (await png.createReadStream()).toArray());
  assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47]); // "PNG"
  assert.deepEqual(errors, []);
  await page.close();
});

test('settings are autosaved and a session file opens again', async () => {
  const context = await site.browser.newContext({ acceptDownloads: true });
  const { page } = await open(site.browser, `${site.server.url}?model=mass-spring-damper&method=heun`, context);
  await page.fill('#t1', '3');
  await page.waitForFunction(() => document.querySelector('dd[data-stat="steps"]')?.textContent === '300');
  const [session] = await Promise.all([page.waitForEvent('download'), page.click('#export-session')]);
  const file = await session.path();
  // A plain visit in the same browser restores the autosaved settings.
  const again = await open(site.browser, site.server.url, context);
  await again.page.waitForFunction(() => document.querySelector('dd[data-stat="steps"]')?.textContent === '300');
  assert.equal(await again.page.inputValue('#method'), 'heun');
  // A fresh browser opens the session file.
  const fresh = await open(site.browser, `${site.server.url}?model=pendulum&method=euler`);
  await fresh.page.setInputFiles('#import-session', file);
  await fresh.page.waitForFunction(() => document.querySelector('dd[data-stat="steps"]')?.textContent === '300');
  assert.equal(await fresh.page.inputValue('#model'), 'mass-spring-damper');
  await fresh.page.close();
  await context.close();
});

test('every parameter has a slider with editable bounds that re-solves live', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=mass-spring-damper&method=rk4`);
  const before = await stat(page, 'max error');
  await page.fill('input[data-slider="k"]', '200');
  await page.waitForFunction(() => document.querySelector('input[data-param="k"]')?.value === '1000');
  await page.waitForFunction((old) => document.querySelector('dd[data-stat="max error"]')?.textContent !== old, before);
  // Stiffer spring at the same h: RK4's error grows (as (hω)⁴).
  assert.ok(parseFloat(await stat(page, 'max error')) > 10 * parseFloat(before));
  // Editable bounds: widen the upper end, the slider places the value anew.
  await page.locator('input[aria-label="upper end of the k slider"]').fill('10000');
  // log scale over [10, 10000]: 1000 sits two thirds of the way.
  assert.equal(await page.inputValue('input[data-slider="k"]'), '133');
  assert.deepEqual(errors, []);
  await page.close();
});

test("a scenario's parameter outside the model's default range gets a slider around it", async () => {
  // The stiff spring scenario's damper c = 1000, where the model's default is 0.5.
  const { page, errors } = await open(site.browser, `${site.server.url}?scenario=euler-vs-backward-euler-stiff`);
  await page.waitForFunction(() => document.querySelector('input[data-param="c"]')?.value === '1000');
  assert.equal(await page.inputValue('input[aria-label="lower end of the c slider"]'), '100');
  assert.equal(await page.inputValue('input[aria-label="upper end of the c slider"]'), '10000');
  // Log scale over [100, 10000]: 1000 sits halfway, not pinned at the end.
  assert.equal(await page.inputValue('input[data-slider="c"]'), '100');
  // A value within the default range keeps it: k = 100 on [10, 1000].
  assert.equal(await page.inputValue('input[aria-label="upper end of the k slider"]'), '1000');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a run compares against a reference run in a table (Negrut et al. 2003 §3.1)', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=rk4`);
  await page.click('#compare');
  await page.waitForSelector('#compare-table tr[data-state="θ"]');
  const cells = await page.$$eval('#compare-table tr[data-state="θ"] td', (tds) => tds.map((td) => td.textContent));
  const maxError = Number(cells[1]);
  // RK4 at h = 0.01 over 10 s of the pendulum: an error of about 1e-7.
  assert.ok(maxError > 1e-9 && maxError < 1e-5, `max error ${maxError}`);
  assert.match(await page.textContent('#compare-caption'), /Against dp45 at rtol 1e-12/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a constrained mechanism switches formulation and plots its constraint drift', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=double-pendulum-rsda&method=ros4`);
  assert.ok(await page.isVisible('#formulation-box'));
  await page.selectOption('#formulation', 'augmented');
  await page.waitForFunction(() => document.querySelector('#plot-trajectory .u-legend')?.textContent?.includes('φ2'));
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  assert.ok(await page.isVisible('#stabilization-box'));
  await page.selectOption('#output-choice', 'constraint |Φ|');
  assert.match(await page.textContent('#fig-outputs figcaption'), /Other outputs/);
  await page.selectOption('#stabilization', 'projection');
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  await page.selectOption('#formulation', 'state-space');
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  assert.ok(!(await page.isVisible('#stabilization-box')));
  // A model without constraints has no formulation choice.
  await page.selectOption('#model', 'pendulum');
  assert.ok(!(await page.isVisible('#formulation-box')));
  assert.deepEqual(errors, []);
  await page.close();
});

test('the two formulations side by side in the Negrut et al. 2003 Tables 4–6 layout', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=double-pendulum-rsda&method=ros4`);
  await page.fill('#rtol', '1e-4');
  await page.fill('#atol', '1e-4');
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  await page.click('#compare-formulations');
  await page.waitForSelector('#formulations-table tr[data-formulation="state-space"]', { timeout: 30000 });
  const drift = async (f) => Number(await page.textContent(`#formulations-table tr[data-formulation="${f}"] td:nth-child(5)`));
  // The state-space formulation satisfies the constraints to round-off; the augmented one drifts.
  assert.ok((await drift('state-space')) < 1e-12);
  assert.ok((await drift('augmented')) > 1e-8);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the vehicle-state-space scenario runs in body coordinates, plots its drift, re-runs on a parameter', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?scenario=vehicle-state-space`);
  await page.waitForFunction(() => ['ok', 'warning', 'error'].includes(document.body.dataset.status), null, { timeout: 20000 });
  assert.equal(await page.evaluate(() => document.body.dataset.status), 'ok', await page.textContent('#message'));
  assert.ok(await page.isVisible('#formulation-box'));
  assert.equal(await page.inputValue('#formulation'), 'state-space');
  // The plotted states are the independent coordinates (xc, yc, φc, yf, yr) and their rates.
  const legend = await page.textContent('#plot-trajectory .u-legend');
  assert.ok(legend.includes('yr') && !legend.includes('xf'), legend);
  // The drift plot: ‖Φ‖ on a log axis, drawn.
  await page.selectOption('#output-choice', 'constraint |Φ|');
  assert.ok(await page.isVisible('#fig-outputs'));
  assert.ok((await countColouredPixels(page, '#plot-outputs', [43, 138, 62])) > 100, 'drift drawn');
  // The CSV has the run's own columns: t, 10 states, then the outputs, on every row.
  const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  const text = await (await csv.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
  const lines = text.trim().split('\n');
  const head = lines[0].split(',');
  assert.deepEqual(head.slice(0, 6), ['t', 'xc', 'yc', 'φc', 'yf', 'yr'], lines[0]);
  assert.equal(head[11], 'chassis height', lines[0]);
  const width = head.length;
  assert.ok(lines.every((l) => l.split(',').length === width));
  // yc at t = 0: the rest height the model computes from its masses and spring preloads
  // (0.71004 m with the defaults; Negrut et al. 2003 §3.2: "approximately 0.71 m").
  const yc0 = Number(lines[1].split(',')[2]);
  assert.ok(Math.abs(yc0 - 0.71) < 1e-4, `yc(0) = ${yc0}`);
  assert.equal(Number(lines[1].split(',')[11]), yc0); // the chassis height output is yc
  // A parameter (the suspension stiffness) re-runs, still in the state-space formulation.
  const fragment = () => JSON.parse(Buffer.from(new URL(page.url()).hash.slice('#v1='.length), 'base64url').toString('utf8'));
  const before = await stat(page, 'f-evaluations');
  await page.fill('input[data-param="ks"]', '10000000');
  await page.waitForFunction(
    (b) => document.body.dataset.status === 'ok' && document.querySelector('dd[data-stat="f-evaluations"]')?.textContent !== b,
    before,
    { timeout: 20000 },
  );
  assert.equal(fragment().params.ks, 1e7);
  assert.equal(fragment().formulation, 'state-space');
  // …and so does its slider.
  const moved = await stat(page, 'f-evaluations');
  await page.fill('input[data-slider="ks"]', String(Number(await page.inputValue('input[data-slider="ks"]')) + 20));
  await page.waitForFunction(
    (b) => document.body.dataset.status === 'ok' && document.querySelector('dd[data-stat="f-evaluations"]')?.textContent !== b,
    moved,
    { timeout: 20000 },
  );
  assert.ok(fragment().params.ks > 1e7);
  assert.equal(await page.inputValue('#formulation'), 'state-space');
  // The side-by-side table tabulates the chassis height against the same mechanism.
  await page.click('#compare-formulations');
  await page.waitForSelector('#formulations-table tr[data-formulation="state-space"]', { timeout: 60000 });
  assert.match(await page.textContent('#formulations-caption'), /reference: state-space \(the same mechanism\)/);
  assert.match(await page.textContent('#formulations-table'), /yc: t\*/);
  // The ξ-plane marks the hλ of the state-space ODE itself (its dominant eigenvalue near
  // −2.66e5, Negrut et al. 2003 §3.2), computed from the analytic state-space Jacobian.
  await page.click('#tabs [data-view="stability"]');
  await page.waitForFunction(() => document.querySelector('#stability-markers')?.textContent?.includes('state-space ODE'));
  assert.match(await page.textContent('#stability-markers'), /^10 markers hλ/);
  assert.deepEqual(errors, []);
  await page.close();
});
