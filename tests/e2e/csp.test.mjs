// the built page carries a Content Security Policy that lets the app work (the
// worker, WebAssembly, uPlot's styles) with no violation, and that really is enforced:
// an injected inline script and eval are refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serveStatic, launch, countColouredPixels } from './harness.mjs';

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

/** Opens the page with a listener for CSP violations installed before its scripts run. */
async function openWatched(url) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const console = [];
  page.on('console', (m) => (m.type() === 'error' || m.type() === 'warning') && console.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => console.push(`pageerror: ${e.message}`));
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__violations.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`),
    );
  });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 15000 });
  return { page, console };
}

test('the built index.html has the Content Security Policy meta tag', () => {
  const html = readFileSync(new URL('index.html', `file://${DIST}`), 'utf8');
  const csp = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)"/)?.[1];
  assert.ok(csp, 'CSP meta tag in dist/index.html');
  const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
  assert.deepEqual(directives['script-src'], ["'self'", "'wasm-unsafe-eval'"]);
  assert.deepEqual(directives['style-src'], ["'self'"]);
  assert.ok(!csp.includes("'unsafe-inline'") && !csp.includes("'unsafe-eval'"), csp);
  assert.ok(!/<script(?![^>]*\bsrc=)[^>]*>/.test(html), 'no inline <script> in dist/index.html');
});

test('the app loads, solves in its worker and draws under the policy with no violation', async () => {
  const { page, console } = await openWatched(`${server.url}?model=pendulum&method=dp45`);
  assert.equal(await page.getAttribute('body', 'data-status'), 'ok');
  assert.ok((await countColouredPixels(page, '#plot-trajectory', BLUE)) > 200, 'trajectory drawn');
  // Another method and model: more solves in the worker, plots redrawn.
  await page.selectOption('#method', 'rk4');
  await page.waitForFunction(() => document.querySelector('dd[data-stat="f-evaluations"]')?.textContent === '4000');
  await page.selectOption('#model', 'mass-spring-damper');
  await page.waitForFunction(() => document.body.dataset.status === 'ok' && document.querySelector('#fig-error canvas'));
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(console, []);
  await page.close();
});

// (eval itself cannot be tried from here: code run through the DevTools protocol, as
// page.evaluate is, is exempt from the page's policy; the first test checks that the
// policy has no 'unsafe-eval'.)
test('the policy is enforced: an injected inline script and an inline handler are refused', async () => {
  const { page } = await openWatched(server.url);
  const result = await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__inlineRan = true;';
    document.head.append(s);
    const b = document.createElement('button');
    b.setAttribute('onclick', 'window.__handlerRan = true');
    document.body.append(b);
    b.click();
    b.remove();
    return { inlineRan: window.__inlineRan === true, handlerRan: window.__handlerRan === true };
  });
  assert.deepEqual(result, { inlineRan: false, handlerRan: false });
  await page.waitForFunction(() => window.__violations.length >= 2);
  const violations = await page.evaluate(() => window.__violations);
  assert.ok(violations.some((v) => v.startsWith('script-src')), violations.join('\n'));
  await page.close();
});
