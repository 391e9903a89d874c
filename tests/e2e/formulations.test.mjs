// Browser test: the formulations side by side (Negrut et al. 2003 Tables 4–6 layout) on a
// mechanism typed in the system language, not a catalogue model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open } from './harness.mjs';

const site = useSite();

test('the typed slider-crank compares its augmented and state-space formulations', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?scenario=slider-crank`);
  await page.waitForFunction(() => ['ok', 'warning', 'error'].includes(document.body.dataset.status), null, { timeout: 30000 });
  assert.equal(await page.evaluate(() => document.body.dataset.status), 'ok', await page.textContent('#message'));
  assert.ok(await page.isVisible('#compare-formulations'));
  await page.click('#compare-formulations');
  await page.waitForSelector('#formulations-table tr[data-formulation="state-space"]', { timeout: 60000 });
  const caption = await page.textContent('#formulations-caption');
  assert.match(caption, /reference: augmented with projection \(the same mechanism\)/);
  // The compared coordinate is the piston x3 (the last coordinate that moves).
  assert.match(caption, /Errors of x3 and/);
  const cell = async (f, n) => Number(await page.textContent(`#formulations-table tr[data-formulation="${f}"] td:nth-child(${n})`));
  // max ‖Φ‖ (column 5): state-space at Newton tolerance; the piston's Δ (column 8) at rtol's scale.
  assert.ok((await cell('state-space', 5)) < 1e-10);
  for (const f of ['augmented', 'state-space']) {
    const delta = await cell(f, 8);
    assert.ok(delta >= 0 && delta < 1e-5, `${f}: Δ ${delta}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
