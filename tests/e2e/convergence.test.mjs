// The convergence view in Chromium: the study runs in the worker when the tab
// opens, the table shows RK4's observed order 4 and Euler's 1, and the plots draw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open } from './harness.mjs';

const site = useSite();

test('the convergence view shows observed orders and draws error against h', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=mass-spring-damper&method=rk4&view=convergence`);
  await page.waitForFunction(() => document.body.dataset.convergence === 'ok', null, { timeout: 30000 });
  const slope = async (method) => Number(await page.textContent(`#conv-table tr[data-method="${method}"] td:nth-child(3)`));
  const rk4 = await slope('rk4');
  assert.ok(Math.abs(rk4 - 4) < 0.15, `rk4 slope ${rk4}`);
  const heun = await slope('heun');
  assert.ok(Math.abs(heun - 2) < 0.15, `heun slope ${heun}`);
  assert.match(await page.textContent('#plot-global .u-legend'), /rk4 \(slope 3\.9|rk4 \(slope 4\.0/);
  const drawn = await page.evaluate(() => {
    const c = document.querySelector('#plot-global canvas');
    const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 100 && Math.max(data[i], data[i + 1], data[i + 2]) - Math.min(data[i], data[i + 1], data[i + 2]) > 60) n++;
    return n;
  });
  assert.ok(drawn > 200, `coloured pixels ${drawn}`);
  assert.deepEqual(errors, []);
  await page.close();
});
