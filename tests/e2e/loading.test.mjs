// What the built page fetches ("small first load"): the first plot needs only
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

// The browser decodes a page's icon on the page's main thread once the page has loaded,
// just when the engine worker starts: an SVG icon needs an SVG document built for it
// (4–17 ms in traces), a PNG a fraction of a millisecond. The icon stays the curve in
// the page's blue.
test('the page icon is a 32 × 32 PNG of the blue curve, not an SVG', async () => {
  const context = await site.browser.newContext();
  const page = await context.newPage();
  await page.goto(site.server.url);
  const icon = await page.evaluate(async () => {
    const links = [...document.querySelectorAll('link[rel~="icon"]')];
    const href = links[0]?.getAttribute('href') ?? '';
    const image = new window.Image();
    image.src = href;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(image, 0, 0);
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let blue = 0;
    let transparent = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] > 200 && Math.abs(data[i] - 31) < 40 && Math.abs(data[i + 1] - 95) < 40 && Math.abs(data[i + 2] - 191) < 40) blue++;
      if (data[i + 3] === 0) transparent++;
    }
    return { count: links.length, type: href.slice(0, href.indexOf(';')), width: image.naturalWidth, height: image.naturalHeight, blue, transparent };
  });
  assert.equal(icon.count, 1);
  assert.equal(icon.type, 'data:image/png');
  assert.deepEqual([icon.width, icon.height], [32, 32]);
  // The curve is drawn (tens of pixels in the page's blue) on a transparent ground.
  assert.ok(icon.blue > 30, `blue pixels: ${icon.blue}`);
  assert.ok(icon.transparent > 32 * 32 * 0.5, `transparent pixels: ${icon.transparent}`);
  await context.close();
});

// Every script the first plot runs starts with V8's explicit compile hint (vite.config.ts,
// `compileHints`): its functions are compiled while it streams in, off the main thread,
// not one by one on the main thread when the first run is drawn (~14 ms of it). Scripts
// fetched on first use (the labs glue, KaTeX) are compiled lazily as before.
test("the first plot's scripts carry the compile hint; scripts loaded on first use do not", async () => {
  const context = await site.browser.newContext({ viewport: { width: 1200, height: 900 } });
  const scripts = [];
  context.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (path.endsWith('.js')) scripts.push(response.text().then((text) => ({ path, firstLine: text.slice(0, text.indexOf('\n')) })));
  });
  const page = await context.newPage();
  await page.goto(`${site.server.url}?model=pendulum&method=rk4`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 15000 });
  const first = await Promise.all(scripts.splice(0));
  // The entry, the views and the engine worker.
  assert.equal(first.length, 3, first.map((s) => s.path).join(', '));
  for (const { path, firstLine } of first) assert.equal(firstLine, '//# allFunctionsCalledOnLoad', path);

  await page.click('#tabs [data-view="stability"]');
  await page.waitForFunction(() => document.body.dataset.stability === 'ok', null, { timeout: 15000 });
  await page.click('#tabs [data-view="tableau"]');
  await page.waitForSelector('#tableau-r math', { timeout: 15000 });
  const later = await Promise.all(scripts.splice(0));
  assert.ok(later.some((s) => /engine-labs/.test(s.path)) && later.some((s) => /katex/.test(s.path)), later.map((s) => s.path).join(', '));
  for (const { path, firstLine } of later) assert.doesNotMatch(firstLine, /allFunctionsCalledOnLoad/, path);
  await context.close();
});
