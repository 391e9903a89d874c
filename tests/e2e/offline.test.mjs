/* global caches, navigator */
// Offline after one visit: the built pages register dist/sw.js, which caches every file of
// the build under a versioned name. With the network gone (Chromium's offline mode, and a
// server that drops every connection), the example lecture, its four embeds and the
// playground load and compute from the cache; a new release (a new sw.js) replaces the
// old cache on the next visit.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { DIST, launch } from './harness.mjs';

const MIME = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json' };
const site = { down: false, sw: undefined };

before(async () => {
  site.sw = await readFile(join(DIST, 'sw.js'), 'utf8');
  // dist/ with a switch that cuts the network (every connection dropped) and a sw.js that can change.
  site.server = createServer(async (req, res) => {
    if (site.down) {
      req.socket.destroy();
      return;
    }
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (path === '/sw.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(site.sw);
      return;
    }
    const file = normalize(join(DIST, path.endsWith('/') ? `${path}index.html` : path));
    try {
      res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' }).end(await readFile(file));
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((resolve) => site.server.listen(0, '127.0.0.1', resolve));
  site.url = `http://127.0.0.1:${site.server.address().port}/`;
  site.browser = await launch();
});
after(async () => {
  await site.browser?.close();
  await new Promise((resolve) => site.server?.close(resolve));
});

/** Waits until every embed of the lecture is ready; returns their frames. */
async function readyEmbeds(page) {
  await page.waitForFunction(() => document.querySelectorAll('ode-playground iframe[src]').length === 4);
  const frames = [];
  for (const element of await page.locator('ode-playground iframe').elementHandles()) {
    const frame = await element.contentFrame();
    await frame.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
    frames.push(frame);
  }
  return frames;
}

/** The names of the origin's caches, read in a frame of odelab's page. */
const cacheNames = (frame) => frame.evaluate(() => caches.keys());

test('after one visit the example lecture, its embeds and the playground work offline; a new release replaces the cache', async () => {
  const context = await site.browser.newContext({ viewport: { width: 1100, height: 8000 }, serviceWorkers: 'allow' });
  // The embeds' pages carry index.html's Content Security Policy: registering and running the worker must break none of it.
  await context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`));
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${site.url}examples/lecture.html`);
  let frames = await readyEmbeds(page);
  // The first visit installs the worker, which fills its cache before it activates.
  await frames[0].evaluate(() => navigator.serviceWorker.ready);
  const version = site.sw.match(/const VERSION = "([0-9a-f]+)"/)[1];
  assert.deepEqual(await cacheNames(frames[0]), [`odelab-${version}`]);
  for (const frame of frames) assert.deepEqual(await frame.evaluate(() => window.__violations), []);

  site.down = true;
  await context.setOffline(true);
  await page.reload();
  frames = await readyEmbeds(page);
  assert.match(await page.title(), /Lecture 7/);
  // The embeds compute offline: a new h in the RK4 region embed redraws its ξ-plane.
  const rk4 = frames[1];
  await rk4.waitForFunction(() => document.body.dataset.stability === 'ok', null, { timeout: 30000 });
  const before = await rk4.evaluate(() => document.querySelector('#plane').toDataURL());
  await rk4.fill('#h', '0.35');
  await rk4.waitForFunction((old) => document.body.dataset.stability === 'ok' && document.querySelector('#plane').toDataURL() !== old, before, { timeout: 30000 });
  // The playground itself, never opened before, from the same cache.
  const playground = await context.newPage();
  await playground.goto(`${site.url}?scenario=rk4-pendulum-energy`);
  await playground.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  await playground.waitForFunction(() => ['ok', 'warning'].includes(document.body.dataset.status), null, { timeout: 30000 });
  await playground.close();

  // A new release: another sw.js. The next visit installs it and its cache replaces the old one.
  site.down = false;
  await context.setOffline(false);
  site.sw = site.sw.replace(`const VERSION = "${version}"`, 'const VERSION = "0000000000000000"');
  await page.reload();
  frames = await readyEmbeds(page);
  await frames[0].waitForFunction(async () => (await caches.keys()).join() === 'odelab-0000000000000000', null, { timeout: 30000, polling: 200 });
  for (const frame of frames) assert.deepEqual(await frame.evaluate(() => window.__violations), []);
  assert.deepEqual(errors, []);
  await context.close();
});
