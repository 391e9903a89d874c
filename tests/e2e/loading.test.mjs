// What the built page fetches (issue 17, "small first load"): the first plot needs only
// the run package's .wasm (pkg/); the labs package (pkg-labs/) arrives when a lab is
// first used, here the stability tab. Requests are logged on the browser context, which
// sees the worker's fetches too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './harness.mjs';

const site = useSite();

const RUN_WASM = /\/odelab_bg[-.][^/]*wasm$/;
const LABS_WASM = /\/odelab_labs_bg[-.][^/]*wasm$/;

test('the first plot fetches only the run package; the stability tab loads the labs package once', async () => {
  const context = await site.browser.newContext({ viewport: { width: 1200, height: 900 } });
  const wasm = [];
  context.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.endsWith('.wasm')) wasm.push(path);
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
  await page.goto(`${site.server.url}?model=pendulum&method=rk4`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 15000 });
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  assert.equal(wasm.length, 1, `wasm fetched before the first plot: ${wasm.join(', ')}`);
  assert.match(wasm[0], RUN_WASM);

  // A run changes nothing: the trajectory view never needs the labs.
  await page.fill('#h', '0.005');
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  assert.equal(wasm.filter((p) => LABS_WASM.test(p)).length, 0, wasm.join(', '));

  await page.click('#tabs [data-view="stability"]');
  await page.waitForFunction(() => document.body.dataset.stability === 'ok', null, { timeout: 15000 });
  assert.equal(wasm.filter((p) => LABS_WASM.test(p)).length, 1, wasm.join(', '));
  // Back and forth: the labs module stays loaded in the worker.
  await page.click('#tabs [data-view="trajectory"]');
  await page.click('#tabs [data-view="stability"]');
  await page.waitForFunction(() => document.body.dataset.stability === 'ok');
  assert.equal(wasm.length, 2, wasm.join(', '));
  assert.deepEqual(errors, []);
  await context.close();
});
