// "Your method" in Chromium: a tableau typed as fractions shows its order
// conditions and R(z), a typo names the entry, and the method runs in the trajectory
// and stability views and travels in a share link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open } from './harness.mjs';

const site = useSite();

test("the 3/8 rule is order 4; breaking an entry drops the order; a typo names the entry", async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=rk4&view=tableau`);
  await page.waitForFunction(() => document.body.dataset.tableau === 'ok');
  await page.selectOption('#tableau-preset', 'three-eighths');
  await page.waitForFunction(() => document.querySelector('#tableau-status')?.dataset.order === '4');
  assert.match(await page.textContent('#tableau-status'), /Explicit, 4 stages: order 4/);
  // KaTeX is imported when the first formula is typeset: the MathML arrives a moment after the status.
  await page.waitForSelector('#tableau-r math', { timeout: 15000 });
  assert.equal(await page.locator('#tableau-conditions tr.holds').count(), 8);
  await page.fill('#tb-0', '1/4');
  await page.waitForFunction(() => document.querySelector('#tableau-status')?.dataset.order === '0');
  await page.fill('#tb-0', '1/x');
  await page.waitForFunction(() => document.body.dataset.tableau === 'error');
  assert.match(await page.textContent('#tableau-status'), /b\[0\]|row 1|column 1/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('"Use this method" runs the tableau, maps its region and survives a link', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=mass-spring-damper&method=rk4&view=tableau`);
  await page.waitForFunction(() => document.body.dataset.tableau === 'ok');
  await page.selectOption('#tableau-preset', 'kutta3');
  await page.waitForFunction(() => document.querySelector('#tableau-status')?.dataset.order === '3');
  await page.click('#tableau-use');
  await page.waitForFunction(() => document.querySelector('#method')?.value === 'custom' && document.body.dataset.status === 'ok');
  // The view switches once the custom method's run is shown (useTableau(...).then(showView)),
  // which can be a task after the status turns ok: wait for it rather than race it.
  await page.waitForSelector('#view-trajectory', { state: 'visible' });
  assert.match(await page.textContent('#method option[value="custom"]'), /order 3/);
  // Its stability region: Kutta 3 has R = 1 + z + z²/2 + z³/6, real intercept −2.5127…
  await page.click('#tabs [data-view="stability"]');
  await page.waitForFunction(() => document.body.dataset.stability === 'ok');
  await page.waitForFunction(() => /^-2\.5127/.test(document.querySelector('dd[data-fact="real-axis intercept"]')?.textContent ?? ''));
  await page.click('#copy-link');
  const link = await page.inputValue('#share-url');
  const copy = await open(site.browser, link);
  await copy.page.waitForFunction(() => document.querySelector('#method')?.value === 'custom' && document.body.dataset.status === 'ok');
  assert.equal(await copy.page.textContent('#stats'), await page.textContent('#stats'));
  assert.deepEqual(errors, []);
  await page.close();
  await copy.page.close();
});

test('an adaptive tableau of your own marks hλ with the step it took at the time cursor', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=rk4&view=tableau`);
  await page.waitForFunction(() => document.body.dataset.tableau === 'ok');
  await page.selectOption('#tableau-preset', 'bs23');
  await page.waitForFunction(() => document.querySelector('#tableau-status')?.dataset.order === '3');
  await page.click('#tableau-use');
  await page.waitForFunction(() => document.querySelector('#method')?.value === 'custom' && document.body.dataset.status === 'ok');
  assert.ok(await page.isVisible('#adaptive-box'), 'the embedded weights make it adaptive');
  // Half way through the run on the time cursor, then the ξ-plane.
  await page.evaluate(() => {
    const slider = document.querySelector('#time');
    slider.value = String(Number(slider.max) / 2);
    slider.dispatchEvent(new window.Event('input', { bubbles: true }));
  });
  await page.click('#tabs [data-view="stability"]');
  await page.waitForFunction(() => /markers hλ/.test(document.querySelector('#stability-markers')?.textContent ?? ''));
  const text = await page.textContent('#stability-markers');
  const h = Number(/h = ([0-9.e+-]+)/.exec(text)?.[1]);
  assert.ok(h > 0 && h < 1, `h of the step at the cursor: ${text}`);
  const t = Number(/t = ([0-9.e+-]+)/.exec(text)?.[1]);
  assert.ok(t > 4.5 && t <= 5, `hλ taken at the cursor's step: ${text}`);
  assert.deepEqual(errors, []);
  await page.close();
});
