// The ξ-plane says what the slow/fast scheme's caption says: its markers are hλₛ of the
// slow block, judged by |R| at the marker itself, and the fast block is listed apart with
// its own verdict (Gil, Sanfelice & Nikravesh 2013, eqs. 51 and 59).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open } from './harness.mjs';

const site = useSite();

test('the slow/fast ξ-plane marks the slow block and lists the fast block apart', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?scenario=pendulum-particle-slowfast`);
  await page.waitForFunction(() => ['ok', 'warning'].includes(document.body.dataset.status));
  assert.equal(await page.getAttribute('body', 'data-status'), 'ok', 'the run stays bounded');
  await page.click('#tabs [data-view="stability"]');
  await page.waitForFunction(() => document.querySelector('#stability-markers')?.textContent?.includes('Fast block'), null, { timeout: 20000 });
  const text = await page.textContent('#stability-markers');
  assert.match(text, /^2 markers hλ of the slow block \(ξ = hλₛ\)/);
  assert.match(text, /Fast block \(4 eigenvalues, not marked\): λ = ±707i \(×2\), integrated by its matrix exponential — stable for every h/);
  assert.equal(await page.getAttribute('#stability-markers', 'data-fast-unstable'), '0');
  // At the map's default β = 0.1 the undamped swing sits on the edge, a hair outside
  // (|R| − 1 < 5e-9, as the caption says); decoupled (β = 0) it is on the edge exactly.
  assert.equal(await page.getAttribute('#stability-markers', 'data-outside'), '2');
  const excess = Number(/\|R\| ≤ 1 \+ ([0-9.e-]+)/.exec(text)?.[1]);
  assert.ok(excess > 0 && excess < 5e-9, text);
  await page.fill('#beta', '0');
  await page.waitForFunction(() => document.querySelector('#stability-markers')?.dataset.outside === '0', null, { timeout: 20000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('RK4 on the same system marks every eigenvalue, the fast pairs outside', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?scenario=pendulum-particle-rk4&view=stability`);
  await page.waitForFunction(() => document.querySelector('#stability-markers')?.textContent?.includes('outside'), null, { timeout: 20000 });
  const text = await page.textContent('#stability-markers');
  assert.match(text, /^6 markers hλ \(h = 0\.005/);
  assert.doesNotMatch(text, /Fast block/);
  assert.equal(await page.getAttribute('#stability-markers', 'data-outside'), '4');
  assert.deepEqual(errors, []);
  await page.close();
});
