// Every scenario opens from its URL and from the gallery and draws; share
// links reproduce the screen, and damaged or hostile links open harmlessly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useSite, open } from './harness.mjs';

const SCENARIOS = JSON.parse(readFileSync(new URL('../../www/scenarios.json', import.meta.url), 'utf8'));
const site = useSite();

/** Pixels of any non-grey colour in a plot's canvas (the trajectory's by default): a drawn series. */
function drawnPixels(page, plot = '#plot-trajectory') {
  return page.evaluate((plot) => {
    const canvas = document.querySelector(`${plot} canvas`);
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b, a] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
      if (a > 100 && Math.max(r, g, b) - Math.min(r, g, b) > 60) n++;
    }
    return n;
  }, plot);
}

test('every scenario opens from its URL with its caption and draws', async () => {
  for (const s of SCENARIOS) {
    const { page, errors } = await open(site.browser, `${site.server.url}?scenario=${s.id}`);
    await page.waitForFunction(() => ['ok', 'warning'].includes(document.body.dataset.status), null, { timeout: 20000 });
    assert.equal(await page.textContent('#caption-title'), s.title, s.id);
    assert.equal(await page.inputValue('#method'), s.settings.method, s.id);
    const tab = s.view ?? 'trajectory';
    assert.equal(await page.getAttribute(`#tabs [data-view="${tab}"]`, 'aria-selected'), 'true', s.id);
    if (tab === 'stability') await page.waitForFunction(() => document.body.dataset.stability === 'ok', null, { timeout: 20000 });
    else if (tab === 'convergence') await page.waitForFunction(() => document.body.dataset.convergence === 'ok', null, { timeout: 30000 });
    else if (await page.isVisible('#no-states')) {
      // A fully driven mechanism integrates no state: the page says so and draws its outputs.
      assert.ok((await drawnPixels(page, '#plot-outputs')) > 100, `${s.id} draws its outputs`);
      // No error was estimated, so no empty estimate plot; the phase portrait plots outputs.
      assert.equal(await page.isVisible('#fig-estimate'), false, `${s.id} shows no estimate plot`);
      assert.notEqual(await page.inputValue('#phase-x'), '', `${s.id} phase portrait axis`);
      assert.equal(await page.getAttribute('#plot-phase', 'data-curves'), '1', `${s.id} phase portrait`);
    } else assert.ok((await drawnPixels(page)) > 100, `${s.id} draws`);
    assert.deepEqual(errors, [], s.id);
    await page.close();
  }
});

test('a scenario opens from the gallery', async () => {
  const { page, errors } = await open(site.browser, site.server.url);
  await page.selectOption('#scenario', 'pendulum-particle-rk4');
  await page.waitForFunction(() => document.body.dataset.status === 'warning');
  assert.match(await page.textContent('#message'), /blew up .* at t = 1\.2/);
  assert.match(await page.textContent('#caption-text'), /±707i/);
  assert.ok((await drawnPixels(page)) > 100);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a share link reproduces the screen in a new page', async () => {
  const { page } = await open(site.browser, `${site.server.url}?model=mass-spring-damper&method=heun`);
  await page.fill('#t1', '2');
  await page.fill('input[data-param="k"]', '400');
  await page.waitForFunction(() => document.querySelector('dd[data-stat="steps"]')?.textContent === '200');
  await page.click('#copy-link');
  const link = await page.inputValue('#share-url');
  assert.match(link, /#v1=/);
  const stats = await page.textContent('#stats');
  const copy = await open(site.browser, link);
  await copy.page.waitForFunction(() => document.body.dataset.status === 'ok');
  assert.equal(await copy.page.inputValue('#method'), 'heun');
  assert.equal(await copy.page.inputValue('input[data-param="k"]'), '400');
  assert.equal(await copy.page.textContent('#stats'), stats);
  await page.close();
  await copy.page.close();
});

test('damaged, future and hostile links open with defaults and a message', async () => {
  const hostile = Buffer.from(
    JSON.stringify({ model: 'pendulum', method: 'rk4', system: '<script>alert(1)</script>'.repeat(10), t1: 1e308, params: { '<img src=x onerror=alert(1)>': 1, g: 1e300 } }),
  ).toString('base64url');
  const cases = [
    ['#v1=@@@', /damaged/],
    ['#v9=e30', /newer odelab/],
    [`#v1=${hostile}`, null],
    [`#v1=${Buffer.from(JSON.stringify({ model: '<b>x</b>', method: 'rk4' })).toString('base64url')}`, /no valid model/],
    // Deep nesting in a system text: the parser's depth limit answers with a message.
    [
      `#v1=${Buffer.from(JSON.stringify({ model: 'custom', method: 'rk4', h: 0.01, system: `x' = ${'('.repeat(5000)}x${')'.repeat(5000)}` })).toString('base64url')}`,
      /system has an error/,
    ],
  ];
  for (const [hash, pattern] of cases) {
    const { page, errors } = await open(site.browser, `${site.server.url}${hash}`);
    await page.waitForFunction(() => ['ok', 'warning', 'error'].includes(document.body.dataset.status));
    if (pattern) assert.match(await page.textContent('#message'), pattern, hash);
    // No markup from the link became part of the page.
    assert.equal(await page.locator('script:not([src]), img').count(), 0, hash);
    assert.deepEqual(errors.filter((e) => !e.includes('Failed to load resource')), [], hash);
    await page.close();
  }
});
