// A browser whose WebAssembly cannot run the engine (no SIMD, or none at all) gets a
// message it can act on, not a page whose plots never fill.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './harness.mjs';

const site = useSite();

async function openWith(initScript, path = '') {
  const context = await site.browser.newContext();
  await context.addInitScript(initScript);
  const page = await context.newPage();
  await page.goto(`${site.server.url}${path}`);
  await page.waitForFunction(() => document.body.dataset.status === 'error');
  const message = await page.textContent('#message');
  const visible = await page.isVisible('#message');
  await context.close();
  return { message, visible };
}

test('a browser without WebAssembly SIMD is told so and which browsers to use', async () => {
  // The SIMD probe is the only module of exactly 31 bytes the page validates.
  const { message, visible } = await openWith(() => {
    const validate = WebAssembly.validate.bind(WebAssembly);
    WebAssembly.validate = (bytes) => (bytes.byteLength === 31 ? false : validate(bytes));
  });
  assert.ok(visible);
  assert.match(message, /lacks SIMD/);
  assert.match(message, /Firefox \(89 or later\), Chrome or Edge \(91 or later\) or Safari \(16\.4 or later\)/);
});

test('a browser without WebAssembly is told so, in an embed too', async () => {
  const { message, visible } = await openWith(() => {
    delete globalThis.WebAssembly;
  }, '?embed=1&scenario=rk4-region&readonly=1');
  assert.ok(visible);
  assert.match(message, /cannot run WebAssembly/);
});
