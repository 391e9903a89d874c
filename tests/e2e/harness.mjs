/* global ServiceWorkerContainer */
// Browser-test harness: a static file server for dist/ on a free loopback port, and
// Debian's Chromium driven by playwright-core (never a downloaded browser).
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { before, after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.map': 'application/json',
};

/**
 * Serves `root` on 127.0.0.1 at a free port, plus `extra` pages given as
 * { '/path.html': 'content' }; resolves to { url, close }. `cors`: every answer allows
 * any origin (Access-Control-Allow-Origin: *).
 */
export async function serveStatic(root, extra = {}, { cors = false } = {}) {
  const server = createServer(async (req, res) => {
    // As GitHub Pages and most static hosts do: lets another origin import a module from here.
    if (cors) res.setHeader('access-control-allow-origin', '*');
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (extra[path] !== undefined) {
      res.writeHead(200, { 'content-type': MIME[extname(path)] ?? 'text/plain' }).end(extra[path]);
      return;
    }
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(normalize(root))) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) };
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's Chromium. Its pages register no service worker unless a test asks for them
 * (`serviceWorkers: 'allow'`, tests/e2e/offline.test.mjs): the built page registers its
 * offline cache after load, whose install fetches every file of the build, which would
 * mix into the requests other tests record. (Playwright's own `serviceWorkers: 'block'`
 * logs a console warning on each page, which the tests that collect warnings would see.)
 */
export async function launch() {
  const browser = await launchChromium();
  const newContext = browser.newContext.bind(browser);
  const newPage = browser.newPage.bind(browser);
  const quiet = async (target, options) => {
    if (options?.serviceWorkers !== 'allow') await target.addInitScript(noServiceWorker);
    return target;
  };
  browser.newContext = async (options) => quiet(await newContext(options), options);
  browser.newPage = async (options) => {
    const page = await newPage(options);
    await quiet(page.context(), options);
    return page;
  };
  return browser;
}

/** Runs in every frame: registration never settles, so the page goes on as without one. */
function noServiceWorker() {
  if (window.ServiceWorkerContainer) ServiceWorkerContainer.prototype.register = () => new Promise(() => undefined);
}

function launchChromium() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Chromium's headless mode is the whole browser: every new context opens a window,
      // and each new window preloads the omnibox popup's WebUI in a renderer of its own
      // (~70 ms of its main thread and ~80 ms of its workers, traced), on the same two
      // cores as the page under test, during the page's first 300 ms. A visitor's
      // browser pays that once per window, not per page load.
      '--disable-features=PreloadTopChromeWebUI',
    ],
  });
}

/**
 * Opens `url` in a new page of its own browser context (fresh localStorage, so one
 * test's autosave cannot leak into the next; pass `context` to share one), collecting
 * console errors and page errors.
 */
export async function open(browser, url, context) {
  const ctx = context ?? (await browser.newContext({ viewport: { width: 1200, height: 900 }, acceptDownloads: true }));
  const page = await ctx.newPage();
  if (!context) page.on('close', () => ctx.close().catch(() => undefined));
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') errors.push(`${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 15000 });
  return { page, errors };
}

/** Number of pixels in the canvas under `selector` close to the colour `rgb`. */
export function countColouredPixels(page, selector, rgb) {
  return page.evaluate(
    ([sel, [r, g, b]]) => {
      const canvas = document.querySelector(`${sel} canvas`);
      if (!canvas) return -1;
      const ctx = canvas.getContext('2d');
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      let n = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (Math.abs(data[i] - r) < 40 && Math.abs(data[i + 1] - g) < 40 && Math.abs(data[i + 2] - b) < 40 && data[i + 3] > 100) n++;
      }
      return n;
    },
    [selector, rgb],
  );
}

/** The text of a statistic in the side panel, e.g. "steps". */
export function stat(page, name) {
  return page.textContent(`dd[data-stat="${name}"]`);
}

/** The built site, dist/. */
export const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/**
 * Registers before/after hooks that serve dist/ (plus `extra` pages) and launch
 * Chromium for the tests of one file; returns { server, browser } filled in by then.
 */
export function useSite(extra = {}) {
  const site = {};
  before(async () => {
    site.server = await serveStatic(DIST, extra);
    site.browser = await launch();
  });
  after(async () => {
    await site.browser?.close();
    await site.server?.close();
  });
  return site;
}

/** The ten read-only scenarios of a lecture page (tests and bench/embeds.mjs): trajectories, ξ-planes and a convergence study. */
export const TEN_EMBEDS = [
  'euler-pendulum-blowup',
  'rk4-region',
  'slowfast-region',
  'heun-error-vs-h',
  'euler-region',
  'rk4-pendulum-energy',
  'backward-euler-region',
  'bouncing-balls-events',
  'sin-inv-t-llm',
  'ros4-region',
];

/**
 * A lecture page of another site: `head` (the embed script) in its head, `body` (its
 * <ode-playground> elements) under a heading.
 */
export function lectureHtml({ title, heading = title, head, body }) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="data:,">
${head}</head><body><h1>${heading}</h1>
${body}
</body></html>`;
}
