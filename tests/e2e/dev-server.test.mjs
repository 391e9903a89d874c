// What `npm start` serves: the Vite dev server on localhost (after the wasm build),
// checked in Chromium for a drawn trajectory and a clean console.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { launch, open, countColouredPixels } from './harness.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let server;
let url;
let browser;

before(async () => {
  server = spawn(process.execPath, ['node_modules/vite/bin/vite.js', '--host', '127.0.0.1', '--port', '5317'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  url = await new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`vite printed no URL:\n${seen}`)), 30000);
    const onData = (chunk) => {
      seen += chunk;
      const match = seen.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    };
    server.stdout.on('data', onData);
    server.stderr.on('data', onData);
    server.on('exit', (code) => reject(new Error(`vite exited with ${code}:\n${seen}`)));
  });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.kill();
});

test('the dev server prints a localhost URL and serves a page that draws', async () => {
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
  const { page, errors } = await open(browser, url);
  assert.equal(await page.getAttribute('body', 'data-status'), 'ok');
  assert.ok((await countColouredPixels(page, '#plot-trajectory', [31, 95, 191])) > 200);
  assert.deepEqual(errors.filter((e) => !e.includes('[vite]')), []);
  await page.close();
});
