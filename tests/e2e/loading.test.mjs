// What the built page fetches (issue 17, "small first load"): the first plot needs only
// the run package's .wasm (pkg/); the labs package (pkg-labs/) arrives when a lab is
// first used, here the stability tab, or when a run needs what the run package leaves
// out (your own system, a constrained formulation, method slowfast): the worker re-runs
// it in the labs package, the whole engine. Requests are logged on the browser context,
// which sees the worker's fetches too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stat, useSite } from './harness.mjs';

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

/** Opens `query` in a fresh context; resolves when its first run has plotted. */
async function openLogged(query) {
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
  await page.goto(`${site.server.url}${query}`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  await page.waitForFunction(() => ['ok', 'warning'].includes(document.body.dataset.status), null, { timeout: 20000 });
  return { context, page, wasm, errors };
}

test('the default page plots with the run package alone', async () => {
  const { context, wasm, errors } = await openLogged('');
  assert.equal(wasm.length, 1, wasm.join(', '));
  assert.match(wasm[0], RUN_WASM);
  assert.deepEqual(errors, []);
  await context.close();
});

for (const [scenario, what] of [
  ['your-system', 'a typed system'],
  ['vehicle-state-space', 'a multibody formulation'],
  ['pendulum-particle-slowfast', 'method slowfast'],
]) {
  test(`${what} (scenario ${scenario}) still plots: the run package refuses it and the labs package runs it`, async () => {
    const { context, page, wasm, errors } = await openLogged(`?scenario=${scenario}`);
    // The run package first (it loads with the worker), then the labs package once.
    assert.match(wasm[0], RUN_WASM, wasm.join(', '));
    assert.equal(wasm.filter((p) => LABS_WASM.test(p)).length, 1, wasm.join(', '));
    assert.equal(wasm.length, 2, wasm.join(', '));
    // The run's summary: it was solved (by the labs package) and reported.
    assert.ok(Number((await stat(page, 'f-evaluations')).replace(/,/g, '')) > 100, scenario);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

// A renderer's first use of Intl loads its locale data (~10–20 ms of the main thread);
// the first plot needs none of it: our axes label themselves and the build defers
// uPlot's own formatters to their first use (vite.config.ts, `deferUplotIntl`).
test('the first plot builds no Intl formatter', async () => {
  const context = await site.browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    const used = [];
    window.__intlUsed = used;
    for (const name of ['NumberFormat', 'DateTimeFormat', 'Collator', 'PluralRules']) {
      const original = Intl[name];
      Intl[name] = new Proxy(original, {
        construct: (target, args) => (used.push(name), Reflect.construct(target, args)),
        apply: (target, self, args) => (used.push(name), Reflect.apply(target, self, args)),
      });
    }
    for (const [proto, name] of [[Number.prototype, 'toLocaleString'], [Date.prototype, 'toLocaleString'], [String.prototype, 'localeCompare']]) {
      const original = proto[name];
      proto[name] = function (...args) {
        used.push(name);
        return original.apply(this, args);
      };
    }
  });
  await page.goto(`${site.server.url}?model=pendulum&method=rk4`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 15000 });
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  assert.deepEqual(await page.evaluate(() => window.__intlUsed), []);
  await context.close();
});
