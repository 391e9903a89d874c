// The page shows a stopped run's diagnosis (message, advice) with a button that applies
// its one-click fix; the rerun with the fix applied is clean.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open, stat } from './harness.mjs';

const site = useSite();

test('a blow-up offers its fix as a button, and clicking it reruns cleanly', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?scenario=pendulum-particle-rk4`);
  await page.waitForSelector('body[data-status="warning"]', { timeout: 20000 });
  const text = await page.textContent('#message');
  assert.match(text, /blew up \(past 1e150 or NaN\) at t = 1\.2/);
  assert.match(text, /Use h ≤ 0\.004/);
  assert.equal(await page.getAttribute('#message', 'data-code'), 'unstable-step');
  // The stats and the message agree on where the drawn run ends.
  const reached = await stat(page, 'reached t');
  assert.ok(text.includes(`the last point drawn`) && text.includes(`from t = ${reached}`), `${reached} in ${text}`);
  assert.ok(await page.isVisible('#message-fix'));
  assert.equal(await page.textContent('#message-fix'), 'Use h ≤ 0.004');
  await page.click('#message-fix');
  await page.waitForSelector('body[data-status="ok"]', { timeout: 20000 });
  assert.equal(await page.inputValue('#h'), '0.004');
  assert.ok(!(await page.isVisible('#message')));
  assert.ok(!(await page.isVisible('#message-fix')));
  assert.equal(await stat(page, 'reached t'), '10');
  assert.deepEqual(errors, []);
  await page.close();
});
