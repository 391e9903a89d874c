// Cancel stops a link's pinned runs: a link carrying twelve heavy pins keeps the worker
// busy one solve after another; the page's Cancel ends them, says how many were
// restored, and the page runs the next change as usual.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open } from './harness.mjs';

const site = useSite();

/** A link fragment (`#v1=…`, base64url JSON, as www/share.ts writes it). */
function link(settings) {
  return `#v1=${Buffer.from(JSON.stringify(settings)).toString('base64url')}`;
}

// 400 decaying states under RK4 at h = 1e-5 over 10 s: 1.6e9 work units, each pin
// runs until the work budget stops it, far longer than clicking Cancel takes.
const HEAVY = {
  model: 'custom',
  system: "param N = 400\nu[i]' = -u[i] for i = 1..N\nu[i](0) = 1 for i = 1..N",
  method: 'rk4',
  h: 1e-5,
  t1: 10,
};

test("Cancel stops a link's heavy pinned runs and the page keeps working", async () => {
  const settings = { model: 'pendulum', method: 'rk4', h: 0.01, pins: Array.from({ length: 12 }, () => ({ ...HEAVY })) };
  const { page, errors } = await open(site.browser, `${site.server.url}${link(settings)}`);
  // The link's own run is drawn, then its pins are solved one by one with Cancel shown.
  await page.waitForSelector('#cancel:not([hidden])', { timeout: 30000 });
  assert.equal(await page.locator('#runs li').count(), 0);
  await page.click('#cancel');
  await page.waitForFunction(() => /^Cancelled: \d+ of the link's 12 pinned runs were restored\.$/.test(document.querySelector('#message')?.textContent ?? ''));
  const restored = Number(/Cancelled: (\d+)/.exec(await page.textContent('#message'))[1]);
  assert.ok(restored < 12, `${restored} restored`);
  assert.equal(await page.locator('#runs li').count(), restored);
  assert.equal(await page.isHidden('#cancel'), true);
  // A change runs again on the restarted worker.
  await page.fill('#h', '0.005');
  await page.waitForFunction(() => document.body.dataset.status === 'ok' && document.querySelector('dd[data-stat="f-evaluations"]')?.textContent === '8000');
  assert.deepEqual(errors, []);
  await page.close();
});
