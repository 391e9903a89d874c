// Browser test of a variable-order method in the step inspector (www/inspector.ts): on
// Van der Pol (μ = 1000) the NDF scenario's attempts carry the order each used, the
// strip shows it in an "order" column, and the order changes along the run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open } from './harness.mjs';

const site = useSite();

test('the step inspector shows the order ndf uses, and it changes along Van der Pol', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?scenario=van-der-pol-ndf`);
  await page.waitForFunction(() => document.querySelector('dd[data-stat="steps"]') !== null);
  await page.click('#step-inspector summary');
  await page.waitForSelector('#inspector-steps td');
  const heads = await page.locator('#inspector-steps th').allTextContents();
  assert.ok(heads.includes('order'), `an order column among ${heads.join(', ')}`);
  // The order of the attempt at the cursor, read from the row the strip marks, at
  // cursor positions along the run.
  const orders = await page.evaluate(() => {
    const slider = /** @type {HTMLInputElement} */ (document.getElementById('time'));
    const table = /** @type {HTMLTableElement} */ (document.getElementById('inspector-steps'));
    const column = Array.from(table.querySelectorAll('th')).findIndex((th) => th.textContent === 'order');
    const seen = new Set();
    for (let v = 0; v <= Number(slider.max); v += Math.max(1, Math.floor(Number(slider.max) / 200))) {
      slider.value = String(v);
      slider.dispatchEvent(new window.Event('input', { bubbles: true }));
      const row = table.querySelector('tr.at-cursor');
      const cell = row?.querySelectorAll('td')[column];
      if (cell?.textContent) seen.add(Number(cell.textContent));
    }
    return Array.from(seen).sort();
  });
  assert.ok(orders.length >= 3, `several orders along the run: ${orders.join(', ')}`);
  assert.ok(orders.every((k) => k >= 1 && k <= 5), `orders 1–5: ${orders.join(', ')}`);
  assert.match(await page.locator('.inspector-note').textContent() ?? '', /the run used orders 1 to 5\./);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the highest-order field caps the orders ndf uses', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?scenario=van-der-pol-ndf`);
  await page.waitForFunction(() => document.querySelector('dd[data-stat="steps"]') !== null);
  assert.equal(await page.isVisible('#param-max-order'), true, 'ndf shows its highest-order field');
  await page.click('#step-inspector summary');
  await page.waitForSelector('#inspector-steps td');
  await page.fill('#param-max-order', '2');
  await page.dispatchEvent('#param-max-order', 'change');
  await page.waitForFunction(() => /the run used orders 1 to 2\./.test(document.querySelector('.inspector-note')?.textContent ?? ''));
  assert.deepEqual(errors, []);
  await page.close();
});
