// The page stays responsive (issue 9): during a heavy convergence sweep and a long solve
// the numerics run in the worker, so the main thread has no long task over 50 ms, and
// Cancel stops a long solve at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open } from './harness.mjs';

const site = useSite();

async function recordLongTasks(page) {
  await page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push(Math.round(e.duration));
    }).observe({ type: 'longtask', buffered: false });
  });
}

test('issue 9: no main-thread task over 50 ms during a heavy convergence sweep', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=rk4`);
  await recordLongTasks(page);
  await page.click('#tabs [data-view="convergence"]');
  await page.fill('#conv-nmax', '18');
  await page.waitForFunction(() => document.body.dataset.convergence === 'ok', null, { timeout: 30000 });
  await page.click('#conv-run');
  await page.waitForFunction(() => document.body.dataset.convergence === 'computing');
  await page.waitForFunction(() => document.body.dataset.convergence === 'ok', null, { timeout: 60000 });
  const longTasks = await page.evaluate(() => window.__longTasks);
  assert.deepEqual(longTasks.filter((d) => d > 50), [], `long tasks: ${longTasks}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('issue 9: Cancel stops a long solve and the page keeps working', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=van-der-pol&method=dp45`);
  await page.waitForFunction(() => ['ok', 'warning'].includes(document.body.dataset.status));
  await recordLongTasks(page);
  await page.fill('#t1', '3000');
  await page.fill('#rtol', '1e-10');
  await page.waitForSelector('#cancel:not([hidden])', { timeout: 10000 });
  await page.click('#cancel');
  await page.waitForFunction(() => document.querySelector('#message')?.textContent?.startsWith('Cancelled'));
  await page.fill('#t1', '10');
  await page.fill('#rtol', '1e-6');
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  const longTasks = await page.evaluate(() => window.__longTasks);
  assert.deepEqual(longTasks.filter((d) => d > 50), [], `long tasks: ${longTasks}`);
  assert.deepEqual(errors, []);
  await page.close();
});
