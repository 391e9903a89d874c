// Browser tests of the run controls beyond h and the tolerances: the step-size
// controller, atol per state, Baumgarte's α and β, the independent coordinates, the
// Jacobian's refresh and scale, and a typed system's `fast` line. Each control changes
// the run it should (a statistic on the page differs), is shown only where it applies,
// and comes back from a share link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open, stat } from './harness.mjs';

const site = useSite();

/** The settings in the page's share fragment. */
const fragment = (page) => JSON.parse(Buffer.from(new URL(page.url()).hash.slice('#v1='.length), 'base64url').toString('utf8'));
const link = (settings) => `${site.server.url}#v1=${Buffer.from(JSON.stringify(settings)).toString('base64url')}`;

const ready = (page) => page.waitForFunction(() => document.body.dataset.status === 'ok', null, { timeout: 30000 });

/** Does `act`, then waits until a run has finished whose statistic `name` differs from before. */
async function changes(page, name, act) {
  await ready(page);
  const before = await stat(page, name);
  await act();
  await page.waitForFunction(
    ([n, b]) => document.body.dataset.status === 'ok' && document.querySelector(`dd[data-stat="${n}"]`)?.textContent !== b,
    [name, before],
    { timeout: 30000 },
  );
  return stat(page, name);
}

/** Does `act`, then waits until the run of the new settings has finished (the link changes with it). */
async function rerun(page, act) {
  await ready(page);
  const before = await page.evaluate(() => window.location.hash);
  await act();
  await page.waitForFunction((b) => document.body.dataset.status === 'ok' && window.location.hash !== b, before, { timeout: 30000 });
}

/** Opens the page's own link in a fresh page: the same statistic, and the page for more checks. */
async function reopened(page, name, expected) {
  const { page: again, errors } = await open(site.browser, page.url());
  await ready(again);
  assert.equal(await stat(again, name), expected, `${name} after the link round trip`);
  return { again, errors };
}

test('the step-size controller: PI, EPUS and a gain each change the steps, and a link keeps them', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=dp45`);
  await ready(page);
  assert.ok(await page.isVisible('#controller-box'));
  await page.click('#controller-box summary');
  assert.ok(!(await page.isVisible('#controller-kp-box')), 'kP only for PI');
  assert.equal(await page.getAttribute('#controller-ki', 'placeholder'), '0.2', 'dp45: kI = 1/5 per step');
  await changes(page, 'f-evaluations', () => page.selectOption('#controller-kind', 'pi'));
  assert.ok(await page.isVisible('#controller-kp-box'));
  assert.deepEqual(fragment(page).controller, { kind: 'pi' });
  await changes(page, 'f-evaluations', () => page.selectOption('#controller-per', 'epus'));
  assert.equal(await page.getAttribute('#controller-ki', 'placeholder'), '0.075', 'PI per unit step: kI = 0.3/4');
  await changes(page, 'f-evaluations', () => page.fill('#controller-kp', '0.2'));
  assert.deepEqual(fragment(page).controller, { kind: 'pi', kP: 0.2, perUnitStep: true });
  const last = await changes(page, 'f-evaluations', () => page.fill('#controller-facmax', '1.5'));
  assert.deepEqual(fragment(page).controller, { kind: 'pi', kP: 0.2, facMax: 1.5, perUnitStep: true });
  const { again, errors: errors2 } = await reopened(page, 'f-evaluations', last);
  assert.equal(await again.inputValue('#controller-kind'), 'pi');
  assert.equal(await again.inputValue('#controller-per'), 'epus');
  assert.equal(await again.inputValue('#controller-kp'), '0.2');
  assert.equal(await again.inputValue('#controller-facmax'), '1.5');
  // A fixed-step method has no controller.
  await rerun(again, () => again.selectOption('#method', 'rk4'));
  assert.ok(!(await again.isVisible('#controller-box')));
  assert.equal(fragment(again).controller, undefined);
  assert.deepEqual([...errors, ...errors2], []);
  await page.close();
  await again.close();
});

test('atol per state: a loose atol on one state takes fewer steps, and a link keeps it', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=dp45`);
  await ready(page);
  await page.click('#atol-states-box summary');
  const fields = await page.$$eval('input[data-atol-state]', (inputs) => inputs.map((i) => i.getAttribute('aria-label')));
  assert.deepEqual(fields, ['atol of θ', 'atol of ω']);
  // pendulum, dp45, rtol = 1e-6: 138 steps; with atol(θ) = 0.1, 120.
  const before = Number(await stat(page, 'steps'));
  const loose = Number(await changes(page, 'steps', () => page.fill('input[data-atol-state="0"]', '0.1')));
  const atol = Number(await page.inputValue('#atol'));
  assert.deepEqual(fragment(page).atolPerState, [0.1, atol]);
  assert.ok(loose < before, `${loose} steps with atol(θ) = 0.1, ${before} without`);
  const { again, errors: errors2 } = await reopened(page, 'steps', String(loose));
  assert.equal(await again.inputValue('input[data-atol-state="0"]'), '0.1');
  assert.equal(await again.inputValue('input[data-atol-state="1"]'), '');
  assert.deepEqual([...errors, ...errors2], []);
  await page.close();
  await again.close();
});

test('Baumgarte α and β show only for the Baumgarte stabilisation and change the run', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=double-pendulum-rsda&method=dp45`);
  await ready(page);
  assert.ok(!(await page.isVisible('#baumgarte-box')), 'native formulation: no Baumgarte');
  await rerun(page, () => page.selectOption('#formulation', 'augmented'));
  assert.ok(!(await page.isVisible('#baumgarte-box')), 'no stabilisation: no Baumgarte');
  await rerun(page, () => page.selectOption('#stabilization', 'baumgarte'));
  assert.ok(await page.isVisible('#baumgarte-box'));
  await changes(page, 'f-evaluations', () => page.fill('#baumgarte-alpha', '100'));
  const last = await changes(page, 'f-evaluations', () => page.fill('#baumgarte-beta', '100'));
  const f = fragment(page);
  assert.deepEqual([f.formulation, f.stabilization, f.baumgarteAlpha, f.baumgarteBeta], ['augmented', 'baumgarte', 100, 100]);
  const { again, errors: errors2 } = await reopened(page, 'f-evaluations', last);
  assert.equal(await again.inputValue('#baumgarte-alpha'), '100');
  assert.equal(await again.inputValue('#baumgarte-beta'), '100');
  // Projection has no α and β.
  await rerun(again, () => again.selectOption('#stabilization', 'projection'));
  assert.ok(!(await again.isVisible('#baumgarte-box')));
  assert.equal(fragment(again).baumgarteAlpha, undefined);
  assert.deepEqual([...errors, ...errors2], []);
  await page.close();
  await again.close();
});

test('the state-space formulation lists its coordinates; another choice changes the run, and a link keeps it', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=double-pendulum-rsda&method=ros4`);
  await ready(page);
  assert.ok(!(await page.isVisible('#independent-box')));
  await page.selectOption('#formulation', 'state-space');
  await page.waitForSelector('#independent-box:not([hidden])', { timeout: 30000 });
  await ready(page);
  const coords = await page.$$eval('input[data-coordinate]', (boxes) => boxes.map((b) => [b.dataset.coordinate, b.checked]));
  // The two bodies' x, y, φ; full-pivoting LU of Φq picks φ1 and y2 (Negrut et al. 2003, Algorithm 1).
  assert.deepEqual(coords, [['x1', false], ['y1', false], ['φ1', true], ['x2', false], ['y2', true], ['φ2', false]]);
  // Swap y2 for x2: ros4 takes 5137 f-evaluations with (φ1, y2), 5659 with (φ1, x2).
  await page.uncheck('input[data-coordinate="y2"]');
  assert.match(await page.textContent('#independent-note'), /Tick exactly 2/);
  const last = await changes(page, 'f-evaluations', () => page.check('input[data-coordinate="x2"]'));
  const chosen = ['φ1', 'x2'];
  assert.deepEqual([...fragment(page).independent].sort(), [...chosen].sort());
  const { again, errors: errors2 } = await reopened(page, 'f-evaluations', last);
  await again.waitForSelector('#independent-box:not([hidden])');
  const ticked2 = await again.$$eval('input[data-coordinate]', (boxes) => boxes.filter((b) => b.checked).map((b) => b.dataset.coordinate));
  assert.deepEqual([...ticked2].sort(), [...chosen].sort());
  assert.deepEqual([...errors, ...errors2], []);
  await page.close();
  await again.close();
});

test('the Jacobian scale and refresh change a ros4 run, are hidden for explicit methods, and a link keeps them', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=ros4`);
  await ready(page);
  assert.ok(await page.isVisible('#jacobian-box'));
  await page.click('#jacobian-box summary');
  // pendulum, ros4, rtol = 1e-6: 440 steps; the Jacobian of 20 steps ago, more; J = 0, 10112.
  await changes(page, 'steps', () => page.fill('#jacobian-update', '20'));
  const last = await changes(page, 'steps', () => page.fill('#jacobian-scale', '0'));
  assert.deepEqual([fragment(page).jacobianScale, fragment(page).jacobianUpdate], [0, 20]);
  const { again, errors: errors2 } = await reopened(page, 'steps', last);
  assert.equal(await again.inputValue('#jacobian-scale'), '0');
  assert.equal(await again.inputValue('#jacobian-update'), '20');
  await rerun(again, () => again.selectOption('#method', 'rk4'));
  assert.ok(!(await again.isVisible('#jacobian-box')), 'an explicit method uses no Jacobian');
  assert.equal(fragment(again).jacobianScale, undefined);
  assert.deepEqual([...errors, ...errors2], []);
  await page.close();
  await again.close();
});

test('the wrong-Jacobian scenario: s = 1 brings ros4 its accuracy back; the Convergence tab fits slopes 1 and 2', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?scenario=ros4-wrong-jacobian`);
  await ready(page);
  assert.ok(await page.isVisible('#jacobian-box'));
  assert.equal(await page.inputValue('#jacobian-scale'), '0.5');
  const wrong = Number(await stat(page, 'max error'));
  const exact = Number(await changes(page, 'max error', () => page.fill('#jacobian-scale', '1')));
  assert.ok(exact < wrong / 100, `max error ${exact} with s = 1, ${wrong} with s = 0.5`);
  // A control the caption invites keeps the scenario.
  assert.ok(await page.isVisible('#caption-text'));
  // The Convergence tab studies the same Jacobian (s = 0.5 again): ros4's slope is about 1.
  await changes(page, 'max error', () => page.fill('#jacobian-scale', '0.5'));
  await page.click('#tab-convergence');
  await page.waitForFunction(() => /Errors against/.test(document.querySelector('#conv-status')?.textContent ?? ''), null, { timeout: 60000 });
  for (const id of ['euler', 'heun', 'rk4', 'dp45']) await page.uncheck(`#conv-methods input[value="${id}"]`);
  await page.check('#conv-methods input[value="ros4"]');
  await page.check('#conv-methods input[value="w2"]');
  await page.click('#conv-run');
  await page.waitForFunction(
    () =>
      /0\.5·∂f\/∂y/.test(document.querySelector('#conv-status')?.textContent ?? '') &&
      [...document.querySelectorAll('#conv-table tr')].some((r) => r.cells[0]?.textContent === 'w2'),
    null,
    { timeout: 60000 },
  );
  const slopes = await page.$$eval('#conv-table tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
  const slope = (method) => Number(slopes.find((r) => r[0] === method)?.[2]);
  assert.ok(Math.abs(slope('ros4') - 1) < 0.2, JSON.stringify(slopes));
  assert.ok(Math.abs(slope('w2') - 2) < 0.2, JSON.stringify(slopes));
  assert.deepEqual(errors, []);
  await page.close();
});

/** The slow/fast linear test equation (Gil, Sanfelice & Nikravesh 2013 eq. 50) typed out. */
const SLOWFAST = `param a = -1, b = 1, alpha = 100, beta = 0.1
xr' = a*xr - b*xi + beta*(a*zr - b*zi)
xi' = b*xr + a*xi + beta*(b*zr + a*zi)
zr' = alpha*beta*(a*xr - b*xi) + alpha*(a*zr - b*zi)
zi' = alpha*beta*(b*xr + a*xi) + alpha*(b*zr + a*zi)
xr(0) = 1, xi(0) = 0, zr(0) = 1, zi(0) = 0
`;

test('a fast line lets the slow/fast scheme run a typed system; an unknown state is named', async () => {
  const base = { model: 'custom', method: 'slowfast', h: 0.1, t1: 5 };
  const { page, errors } = await open(site.browser, link({ ...base, system: `${SLOWFAST}fast zr, zi` }));
  await page.waitForFunction(() => document.body.dataset.status === 'ok', null, { timeout: 30000 });
  assert.match(await page.textContent('#model-source'), /fast: zr, zi/);
  assert.equal(await stat(page, 'steps'), '50');
  assert.deepEqual(errors, []);
  await page.close();

  const { page: without } = await open(site.browser, link({ ...base, system: SLOWFAST }));
  await without.waitForFunction(() => document.body.dataset.status === 'error', null, { timeout: 30000 });
  assert.match(await without.textContent('#message'), /needs the fast states.*add a line naming them to your system, e.g\. fast v/);
  await without.close();

  const { page: typo } = await open(site.browser, link({ ...base, system: `${SLOWFAST}fast zr, zz` }));
  await typo.waitForSelector('#system-error:not([hidden])', { timeout: 30000 });
  assert.match(await typo.textContent('#system-error'), /line 7, column 10: .*"zz", which is not a state.*did you mean "zr"\?/s);
  await typo.close();
});

test('a link made before these controls opens the same run and gains no new fields', async () => {
  const old = { model: 'pendulum', method: 'dp45', rtol: 1e-6, atol: 1e-9, t1: 10, params: { g: 9.81, L: 1 } };
  const { page, errors } = await open(site.browser, link(old));
  await ready(page);
  const f = fragment(page);
  for (const key of ['controller', 'atolPerState', 'baumgarteAlpha', 'baumgarteBeta', 'independent', 'jacobianUpdate', 'jacobianScale']) {
    assert.equal(f[key], undefined, key);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
