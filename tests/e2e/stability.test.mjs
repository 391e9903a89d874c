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
  // The method is named as the catalogue names it, not by its id.
  assert.match(await page.textContent('#stability-markers'), /4 outside the region of Runge–Kutta 4\b/);
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

test('the order star of RK4 redraws the map and names the ten sectors of order four', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=rk4&view=stability`);
  await page.waitForFunction(() => document.body.dataset.stability === 'ok' && document.querySelector('dd[data-fact="A-stable"]'));
  const region = await regionPixels(page);
  await page.selectOption('#plane-mode', 'order-star');
  await page.waitForFunction(() => document.body.dataset.stability === 'ok' && /^Order star/.test(document.querySelector('#plane-caption')?.textContent ?? ''));
  const caption = await page.textContent('#plane-caption');
  // R(ξ)e^{−ξ} = 1 − ξ⁵/120 + …: 2(4 + 1) sectors, counted on the engine's map.
  assert.match(caption, /10 sectors meet at the origin: Runge–Kutta 4 has order 4, so R\(ξ\)e\^−ξ = 1 \+ Cξ⁵/);
  assert.equal(await page.getAttribute('#plane-caption', 'data-sectors'), '10');
  const star = await regionPixels(page);
  // Where |R| < 1 but |R| > |e^ξ| (left of the origin near the real axis) turns red,
  // and the right half-plane, where |R| > 1 > … but |R| < |e^ξ| far out, turns blue.
  assert.ok(Math.abs(star.blue - region.blue) > 5000 && star.blue > 5000 && star.red > 5000, `region ${JSON.stringify(region)}, star ${JSON.stringify(star)}`);
  assert.match(await page.textContent('#stability-markers'), /judged on the region map/);
  // Back to the region: its caption and map again.
  await page.selectOption('#plane-mode', 'region');
  await page.waitForFunction(() => /^Absolute stability/.test(document.querySelector('#plane-caption')?.textContent ?? ''));
  // Reading the canvas twice draws Chromium's hint about willReadFrequently: the test's, not the page's.
  assert.deepEqual(errors.filter((e) => !e.includes('willReadFrequently')), []);
  await page.close();
});

test('a multistep method has no order star: the message says why and the page keeps working', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=bdf2&view=stability`);
  await page.waitForFunction(() => document.body.dataset.stability === 'ok');
  await page.selectOption('#plane-mode', 'order-star');
  await page.waitForFunction(() => document.body.dataset.stability === 'error');
  assert.match(await page.textContent('#plane-caption'), /^No order star for .*BDF.*: .*has none \(it is a multistep method.*pick a Runge–Kutta or Rosenbrock method/);
  await page.selectOption('#plane-mode', 'region');
  await page.waitForFunction(() => document.body.dataset.stability === 'ok' && /^Absolute stability/.test(document.querySelector('#plane-caption')?.textContent ?? ''));
  // BDF2's region again, with its facts.
  assert.equal(await page.textContent('dd[data-fact="A-stable"]'), 'yes');
  assert.deepEqual(errors, []);
  await page.close();
});

test('an unbounded stable interval reads as the whole axis, not as "-Infinity"', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?scenario=backward-euler-region`);
  await page.waitForFunction(() => document.body.dataset.stability === 'ok');
  assert.equal(await page.textContent('dd[data-fact="real-axis intercept"]'), '−∞ (the whole negative real axis)');
  assert.equal(await page.textContent('dd[data-fact="imaginary-axis extent"]'), '∞ (the whole imaginary axis)');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a fixed h longer than the run places the markers at the one step taken', async () => {
  // Backward Euler at h = 100 to t1 = 10 takes one step, of h = 10: its markers are
  // 10λ (λ = −0.25 ± 9.997i for k = 100, m = 1, c = 0.5), not 100λ.
  const { page, errors } = await open(site.browser, `${site.server.url}?scenario=backward-euler-region`);
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  await page.click('#tabs [data-view="trajectory"]');
  await page.fill('#h', '100');
  await page.waitForFunction(() => document.querySelector('dd[data-stat="steps"]')?.textContent === '1');
  await page.click('#tabs [data-view="stability"]');
  await page.waitForFunction(() => /h = 10,/.test(document.querySelector('#stability-markers')?.textContent ?? ''));
  assert.match(await page.textContent('#stability-markers'), /2 markers hλ \(h = 10, t = 0\); 0 outside/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a second-order method's real eigenvalues are marked but not judged on its ξ-plane", async () => {
  // Euler 2 on the spring with c = 1000 (λ = −0.1, −999.9, an overdamped pair) at
  // h = 0.0015: the run is stable (its one-step matrix has ρ = 0.99985; stable up to
  // h = 0.0019998), but the ξ-plane, made for complex pairs, has hλ = −1.5 outside.
  const { page, errors } = await open(site.browser, `${site.server.url}?scenario=euler-vs-backward-euler-stiff`);
  await page.waitForFunction(() => ['ok', 'warning'].includes(document.body.dataset.status));
  await page.selectOption('#method', 'midpoint2');
  await page.fill('#h', '0.0015');
  await page.waitForFunction(() => document.querySelector('dd[data-stat="steps"]')?.textContent === '13334');
  assert.equal(await page.evaluate(() => document.body.dataset.status), 'ok');
  await page.click('#tabs [data-view="stability"]');
  await page.waitForFunction(() => /h = 0\.0015,/.test(document.querySelector('#stability-markers')?.textContent ?? ''));
  const text = await page.textContent('#stability-markers');
  assert.match(text, /0 outside the region of Euler 2/);
  assert.match(text, /2 real, not judged here/);
  assert.equal(await page.getAttribute('#stability-markers', 'data-outside'), '0');
  assert.deepEqual(errors, []);
  await page.close();
});
