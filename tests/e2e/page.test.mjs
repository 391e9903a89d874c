// End-to-end tests of the built static site (dist/) in Debian's Chromium: the page
// draws, Euler visibly blows up on the pendulum, bad input shows a message and the page
// keeps working, the step-by-step animation runs to the end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open, countColouredPixels, stat } from './harness.mjs';

const BLUE = [31, 95, 191]; // first state's colour in www/trajectory.ts
const site = useSite();

test('the page draws a trajectory with no console errors', async () => {
  const { page, errors } = await open(site.browser, site.server.url);
  assert.equal(await page.getAttribute('body', 'data-status'), 'ok');
  assert.ok((await countColouredPixels(page, '#plot-trajectory', BLUE)) > 200, 'trajectory drawn');
  assert.equal(await stat(page, 'steps'), '1000');
  assert.equal(await stat(page, 'f-evaluations'), '1000');
  assert.deepEqual(errors, []);
  await page.close();
});

test('Euler on the pendulum visibly gains energy (Schwab & Delhaes Fig. 7.5); RK4 does not', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=euler`);
  const eulerDrift = parseFloat(await stat(page, 'energy drift'));
  assert.ok(eulerDrift > 100, `Euler energy drift ${eulerDrift} %`);
  await page.selectOption('#method', 'rk4');
  await page.waitForFunction(() => document.querySelector('dd[data-stat="f-evaluations"]')?.textContent === '4000');
  const rk4Drift = parseFloat(await stat(page, 'energy drift'));
  assert.ok(rk4Drift < 1e-3, `RK4 energy drift ${rk4Drift} %`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('moving h redraws: a smaller step takes more steps', async () => {
  const { page } = await open(site.browser, site.server.url);
  await page.fill('#h', '0.002');
  await page.waitForFunction(() => document.querySelector('dd[data-stat="steps"]')?.textContent === '5000');
  await page.fill('#t1', '2');
  await page.waitForFunction(() => document.querySelector('dd[data-stat="steps"]')?.textContent === '1000');
  assert.equal(await page.getAttribute('body', 'data-points'), '1001');
  await page.close();
});

test('h = 0 and an unknown method show a clear error, and the page keeps working', async () => {
  const { page, errors } = await open(site.browser, site.server.url);
  await page.fill('#h', '0');
  await page.waitForSelector('body[data-status="error"]');
  const message = await page.textContent('#message');
  assert.match(message, /step size h must be a positive number, got h = 0/);
  assert.ok(await page.isVisible('#message'));

  // The same API is on the page for console use; an unknown method rejects with an Error.
  const thrown = await page.evaluate(async () => {
    try {
      await window.odelab.solve({ model: 'pendulum', method: 'nope', t1: 1, h: 0.1 });
      return 'no error';
    } catch (e) {
      return `${e instanceof Error}: ${e.message}`;
    }
  });
  assert.match(thrown, /^true: unknown method "nope"/);

  await page.fill('#h', '0.01');
  await page.waitForSelector('body[data-status="ok"]');
  assert.ok(!(await page.isVisible('#message')));
  assert.ok((await countColouredPixels(page, '#plot-trajectory', BLUE)) > 200);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a blow-up is drawn with a warning', async () => {
  const { page } = await open(site.browser, `${site.server.url}?model=mass-spring-damper&method=euler`);
  await page.fill('#t1', '1000');
  await page.fill('#h', '0.1');
  await page.waitForSelector('body[data-status="warning"]');
  assert.match(await page.textContent('#message'), /blew up .* Use h ≤/);
  // The growing oscillation of the velocity u (second colour) fills the end of the plot.
  assert.ok((await countColouredPixels(page, '#plot-trajectory', [217, 72, 15])) > 50);
  await page.close();
});

test('Animate steps the Integrator to the end time', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=mass-spring-damper&method=rk4`);
  await page.fill('#t1', '1');
  await page.waitForFunction(() => document.querySelector('dd[data-stat="steps"]')?.textContent === '100');
  await page.click('#animate');
  await page.waitForFunction(() => document.body.dataset.status === 'running' || document.querySelector('#animate')?.textContent === 'Stop');
  await page.waitForFunction(() => document.querySelector('#animate')?.textContent === 'Animate', null, { timeout: 15000 });
  assert.equal(await stat(page, 'steps'), '100');
  assert.equal(await page.getAttribute('body', 'data-status'), 'ok');
  // RK4 at h = 0.01 on [0, 1]: the error is about 1e-5 (it is 1.2e-5 over [0, 5]).
  const maxError = parseFloat(await stat(page, 'max error'));
  assert.ok(maxError > 1e-7 && maxError < 1e-4, `max error ${maxError}`);
  assert.deepEqual(errors, []);
  await page.close();
});
