// The ξ-plane view in Chromium: the RK4 region is drawn, the pendulum-plus-
// particle's hλ markers sit outside it at h = 0.005 and inside at h = 0.001 (Gil, Sanfelice & Nikravesh's 2013 paper
// point), and an overlay adds its boundary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open } from './harness.mjs';

const site = useSite();

/** Counts of bluish (stable) and reddish (unstable) pixels in the ξ-plane canvas. */
function regionPixels(page) {
  return page.evaluate(() => {
    const c = document.querySelector('#plane');
    const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    let blue = 0;
    let red = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 2] > data[i] + 40) blue++;
      else if (data[i] > data[i + 2] + 40) red++;
    }
    return { blue, red };
  });
}

test('the stability view draws the RK4 region and marks hλ outside it at h = 0.005', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?scenario=pendulum-particle-rk4&view=stability`);
  await page.waitForFunction(() => document.body.dataset.stability === 'ok');
  await page.waitForFunction(() => document.querySelector('#stability-markers')?.textContent?.includes('outside'));
  const { blue, red } = await regionPixels(page);
  assert.ok(blue > 10000 && red > 10000, `blue ${blue}, red ${red}`);
  assert.match(await page.textContent('dd[data-fact="real-axis intercept"]'), /^-2\.785293563/);
  assert.match(await page.textContent('dd[data-fact="imaginary-axis extent"]'), /^2\.828427124/);
  // Two fast pairs ±707i (the particle moves in x and y): hλ ≈ ±3.54i, outside 2.83.
  assert.equal(await page.getAttribute('#stability-markers', 'data-outside'), '4');
  await page.click('#tabs [data-view="trajectory"]');
  await page.fill('#h', '0.001');
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  await page.click('#tabs [data-view="stability"]');
  await page.waitForFunction(() => document.querySelector('#stability-markers')?.dataset.outside === '0');
  assert.deepEqual(errors, []);
  await page.close();
});

test('an overlaid method adds its boundary and legend entry', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=rk4&view=stability`);
  await page.waitForFunction(() => document.body.dataset.stability === 'ok');
  await page.check('#overlay-methods input[value="euler"]');
  await page.waitForFunction(() => document.querySelectorAll('#stability-legend .legend-item').length === 2);
  assert.match(await page.textContent('#stability-legend'), /Explicit Euler/);
  assert.deepEqual(errors, []);
  await page.close();
});
