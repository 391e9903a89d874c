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
  // 20 lines would be noise: the trajectory plot draws u[1], u[10] and u[20]; the picker adds more.
  const legend = () => page.$$eval('#plot-trajectory .u-legend .u-series .u-label', (ls) => ls.map((l) => l.textContent).slice(1));
  assert.deepEqual(await legend(), ['u[1]', 'u[11]', 'u[20]']);
  await page.click('#state-picker summary');
  await page.check('#state-choices input[data-state="u[5]"]');
  await page.waitForFunction(() => document.querySelectorAll('#plot-trajectory .u-legend .u-series').length === 5);
  assert.deepEqual(await legend(), ['u[1]', 'u[5]', 'u[11]', 'u[20]']);
  // The profile follows the page's time cursor.
  await page.evaluate(() => {
    const time = document.querySelector('#time');
    time.value = time.max;
    time.dispatchEvent(new window.Event('input', { bubbles: true }));
  });
  const last = await page.evaluate(() => document.querySelector('#time-t').textContent);
  assert.equal(await page.textContent('#fig-heatmap .heatmap-t'), last);
  // N sizes the array: its input steps by whole numbers.
  assert.equal(await page.getAttribute('input[data-param="N"]', 'step'), '1');
  await page.fill('input[data-param="N"]', '30');
  await page.waitForFunction(() => document.querySelector('#fig-heatmap')?.dataset.elements === '30', null, { timeout: 20000 });
  assert.match(await page.getAttribute('#plot-heatmap', 'aria-label'), /^heat map of u\[1…30\]/);
  assert.match(await page.textContent('#fig-heatmap .heatmap-t'), /^t = /);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the line under the model lists the states of the run N sized, not the text's N", async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?scenario=brusselator-1d`);
  await page.waitForFunction(() => document.querySelector('#fig-heatmap')?.dataset.elements === '40', null, { timeout: 20000 });
  assert.match(await page.textContent('#model-source'), /v\[40\]$/);
  await page.fill('input[data-param="N"]', '30');
  await page.waitForFunction(() => document.querySelector('#fig-heatmap')?.dataset.elements === '30', null, { timeout: 20000 });
  const line = await page.textContent('#model-source');
  assert.match(line, /u\[30\], v\[1\],/);
  assert.match(line, /v\[30\]$/);
  assert.deepEqual(errors, []);
  await page.close();
});
