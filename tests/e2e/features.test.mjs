// Browser tests of the features beyond the skeleton: adaptive methods with tolerances
// (issue 3), event location (issue 3), your own system typed on the page (issue 7).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { serveStatic, launch, open, countColouredPixels, stat } from './harness.mjs';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const BLUE = [31, 95, 191];
let server;
let browser;

before(async () => {
  server = await serveStatic(DIST);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('issue 3: dp45 shows tolerances, rejected steps and the step-size plot', async () => {
  const { page, errors } = await open(browser, `${server.url}?model=pendulum&method=dp45`);
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

test('issue 3: bouncing balls with events located', async () => {
  const { page, errors } = await open(browser, `${server.url}?model=bouncing-balls&method=dp45`);
  assert.ok(await page.isVisible('#events-box'));
  await page.check('#events');
  await page.waitForFunction(() => document.querySelector('dd[data-stat="events"]') !== null);
  assert.match(await stat(page, 'events'), /^\d+ \(first at t = /);
  assert.deepEqual(errors, []);
  await page.close();
});

test('issue 7: your own system — a typo shows line, column and caret; the fix draws', async () => {
  const { page, errors } = await open(browser, server.url);
  await page.selectOption('#model', 'custom');
  await page.selectOption('#method', 'rk4');
  await page.waitForSelector('#system-box:not([hidden])');
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  assert.ok((await countColouredPixels(page, '#plot-trajectory', BLUE)) > 200);
  // Parameters of the text become inputs.
  assert.ok(await page.isVisible('input[data-param="k"]'));

  await page.fill('#system', "param k = 4\nx' = v\nv' = -kk*x\nx(0) = 1");
  await page.waitForSelector('#system-error:not([hidden])');
  const text = await page.textContent('#system-error');
  assert.match(text, /^line 3, column 7: unknown name "kk"; did you mean "k"\?/);
  assert.match(text, /\n\s*\^/);

  await page.fill('#system', "param k = 4\nx' = v\nv' = -k*x\nx(0) = 1");
  await page.waitForSelector('#system-error[hidden]', { state: 'attached' });
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  // x'' = -4x from x = 1: x(t1 = 10) = cos(20); energy-free system, two states drawn.
  assert.ok((await countColouredPixels(page, '#plot-trajectory', BLUE)) > 200);
  assert.deepEqual(errors, []);
  await page.close();
});
