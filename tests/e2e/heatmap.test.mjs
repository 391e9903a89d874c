// Views for many states: an indexed family draws a space–time heat map and a profile,
// and changing the integer parameter that sizes it (N) re-builds the system.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open } from './harness.mjs';

const site = useSite();

/** Pixels of the heat map canvas that are coloured (not white, not grey). */
function heatPixels(page) {
  return page.evaluate(() => {
    const canvas = document.querySelector('#plot-heatmap');
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] > 100 && Math.max(data[i], data[i + 1], data[i + 2]) - Math.min(data[i], data[i + 1], data[i + 2]) > 40) n++;
    }
    return n;
  });
}

test('the heat-equation scenario draws its heat map, and changing N re-builds it', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?scenario=heat-equation-stiffness`);
  await page.waitForFunction(() => ['ok', 'warning'].includes(document.body.dataset.status), null, { timeout: 20000 });
  await page.click('#tabs [data-view="trajectory"]');
  await page.waitForFunction(() => document.querySelector('#fig-heatmap')?.dataset.elements === '20', null, { timeout: 20000 });
  assert.equal(await page.isVisible('#plot-heatmap'), true);
  assert.equal(await page.getAttribute('#fig-heatmap', 'data-family'), 'u');
  assert.ok((await heatPixels(page)) > 100, 'the heat map is drawn');
  // N sizes the array: its input steps by whole numbers.
  assert.equal(await page.getAttribute('input[data-param="N"]', 'step'), '1');
  await page.fill('input[data-param="N"]', '30');
  await page.waitForFunction(() => document.querySelector('#fig-heatmap')?.dataset.elements === '30', null, { timeout: 20000 });
  assert.equal(await page.evaluate(() => document.querySelector('#plot-heatmap').height), 30);
  assert.match(await page.textContent('#fig-heatmap .heatmap-t'), /^t = /);
  assert.deepEqual(errors, []);
  await page.close();
});
