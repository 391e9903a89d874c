// Browser test of the step inspector (www/inspector.ts): closed, runs ask for no log;
// opened, it lists the attempts around the time cursor, rejected ones with their cause,
// and the stats count rejections by cause (the whole engine counts them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open, stat } from './harness.mjs';

const site = useSite();

test('the step inspector shows rejected attempts around the time cursor and the stats count them by cause', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=bouncing-balls&method=dp45`);
  await page.waitForFunction(() => document.querySelector('dd[data-stat="steps"]') !== null);
  assert.equal(await page.locator('#inspector-steps td').count(), 0, 'a closed strip records nothing');
  await page.click('#step-inspector summary');
  await page.waitForSelector('#inspector-steps td');
  // The inspected run comes from the whole engine, which counts rejections by cause.
  await page.waitForSelector('dd[data-stat="rejected by cause"]');
  assert.match(await stat(page, 'rejected by cause'), /^error test \d+$/);
  // Move the time cursor until a rejected attempt is among the rows shown.
  const found = await page.evaluate(() => {
    const slider = /** @type {HTMLInputElement} */ (document.getElementById('time'));
    for (let v = 0; v <= 2000; v += 10) {
      slider.value = String(v);
      slider.dispatchEvent(new window.Event('input', { bubbles: true }));
      const row = /** @type {HTMLElement | null} */ (document.querySelector('#inspector-steps tr.rejected'));
      if (row) return { cause: row.dataset.cause, text: row.textContent };
    }
    return null;
  });
  assert.ok(found, 'a rejected attempt is shown somewhere along the run');
  assert.equal(found.cause, 'error');
  assert.match(found.text ?? '', /rejected: error test/);
  assert.ok(await page.isVisible('#inspector-steps tr.at-cursor'));
  assert.deepEqual(errors, []);
  await page.close();
});
