// Plots that tell the truth: the ξ-plane's circles are round at any width, the exact
// solution is drawn smooth, the heat map has axes and a colour bar, ten states get ten
// colours, every plot exports a PNG with its title and legend, pins are named by method
// and h, the mechanism follows the dark scheme, and a read-only embed's controls sit
// under the plot they change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './harness.mjs';

const site = useSite();

/** A page in a context of its own (viewport, colour scheme), ready, with its errors collected. */
async function openPage(path, { width = 1200, height = 900, colorScheme = 'light' } = {}) {
  const context = await site.browser.newContext({ viewport: { width, height }, colorScheme, acceptDownloads: true });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => {
    // The test's own repeated reads of a canvas draw Chromium's advice to set willReadFrequently.
    if (m.text().includes('willReadFrequently')) return;
    if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(`${site.server.url}${path}`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  return { page, errors, close: () => context.close() };
}

/** Width and height (px) of a PNG from its IHDR chunk. */
function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47], 'a PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Clicks the PNG button of plot `id` and returns the image's size and file name. */
async function exportPng(page, id) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`button[data-png="${id}"]`)]);
  const bytes = Buffer.concat(await (await download.createReadStream()).toArray());
  return { ...pngSize(bytes), name: download.suggestedFilename() };
}

/**
 * The pixel radii of the boundary |1 + ξ| = 1 of Euler's method drawn in the ξ-plane,
 * from the centre ξ = −1 left to the line and up to it (the dark boundary stroke).
 */
function eulerDiscRadii(page) {
  return page.evaluate(() => {
    const c = document.querySelector('#plane');
    const [re0, re1, im0, im1] = c.dataset.window.split(',').map(Number);
    const ratio = c.width / c.clientWidth;
    const cx = Math.round(((-1 - re0) / (re1 - re0)) * c.width);
    const cy = Math.round((im1 / (im1 - im0)) * c.height);
    const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    const dark = (x, y) => {
      const i = 4 * (y * c.width + x);
      return data[i] < 70 && data[i + 1] < 70 && data[i + 2] < 70;
    };
    let left = 0;
    while (cx - left > 0 && !dark(cx - left, cy)) left++;
    let up = 0;
    while (cy - up > 0 && !dark(cx, cy - up)) up++;
    return { left: left / ratio, up: up / ratio, width: c.clientWidth };
  });
}

for (const width of [800, 1920]) {
  test(`the ξ-plane draws Euler's disc round (equal pixel radii) at ${width} px`, async () => {
    const { page, errors, close } = await openPage('?model=pendulum&method=euler&h=0.01&view=stability', { width, height: 1000 });
    await page.waitForFunction(() => document.body.dataset.stability === 'ok', null, { timeout: 20000 });
    const { left, up } = await eulerDiscRadii(page);
    assert.ok(left > 20 && up > 20, `radii ${left}, ${up}`);
    assert.ok(Math.abs(left - up) <= 0.02 * Math.max(left, up) + 1, `horizontal ${left} px, vertical ${up} px`);
    // Zooming keeps it round.
    await page.focus('#plane');
    const before = await page.getAttribute('#plane', 'data-window');
    await page.keyboard.press('+');
    // The status is already 'ok' from the first drawing: wait for the new window's map.
    await page.waitForFunction(
      (old) => document.querySelector('#plane')?.dataset.window !== old && document.body.dataset.stability === 'ok',
      before,
      { timeout: 20000 },
    );
    const zoomed = await eulerDiscRadii(page);
    assert.ok(zoomed.left > left * 1.2, `zoomed in: ${left} → ${zoomed.left}`);
    assert.ok(Math.abs(zoomed.left - zoomed.up) <= 0.02 * zoomed.left + 1, `zoomed: ${zoomed.left} vs ${zoomed.up}`);
    assert.deepEqual(errors, []);
    await close();
  });
}

test('the exact solution is drawn from many more points than the steps of h = 0.2', async () => {
  const { page, errors, close } = await openPage('?model=mass-spring-damper&method=rk4');
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  await page.fill('#h', '0.2');
  await page.waitForFunction(() => document.querySelector('dd[data-stat="steps"]')?.textContent === '25');
  await page.waitForFunction(() => Number(document.querySelector('#plot-trajectory')?.dataset.exactPoints) > 400, null, { timeout: 20000 });
  const steps = Number(await page.getAttribute('body', 'data-points'));
  const exact = Number(await page.getAttribute('#plot-trajectory', 'data-exact-points'));
  assert.ok(steps <= 30, `the run has ${steps} points`);
  assert.ok(exact >= 10 * steps, `exact curve from ${exact} points for ${steps} steps`);
  assert.deepEqual(errors, []);
  await close();
});

test("an output that stays 1 to seven digits (sin(1/t)'s radius) is drawn as a line", async () => {
  const { page, errors, close } = await openPage('?scenario=sin-inv-t');
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  // The series' colour (#2b8a3e) on the output plot's canvas: uPlot's own range put
  // 0.99999993 … 1 at [1, 1] and drew nothing.
  const green = await page.evaluate(() => {
    const c = document.querySelector('#plot-outputs canvas');
    const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i] - 0x2b) < 30 && Math.abs(data[i + 1] - 0x8a) < 30 && Math.abs(data[i + 2] - 0x3e) < 30) n++;
    return n;
  });
  assert.ok(green > 200, `${green} pixels of the radius line`);
  assert.deepEqual(errors, []);
  await close();
});

test('the heat map has axes, ticks and a colour bar on a sharp canvas, and its profile too', async () => {
  const { page, errors, close } = await openPage('?scenario=heat-equation-stiffness');
  await page.waitForFunction(() => ['ok', 'warning'].includes(document.body.dataset.status), null, { timeout: 20000 });
  await page.click('#tabs [data-view="trajectory"]');
  await page.waitForFunction(() => document.querySelector('#fig-heatmap')?.dataset.elements === '20', null, { timeout: 20000 });
  const facts = await page.evaluate(() => {
    const map = document.querySelector('#plot-heatmap');
    const profile = document.querySelector('#plot-profile');
    const ratio = window.devicePixelRatio || 1;
    const { data, width, height } = map.getContext('2d').getImageData(0, 0, map.width, map.height);
    // The colour bar: a column right of the map whose pixels run from red (top) to blue (bottom).
    const at = (x, y) => [...data.subarray(4 * (y * width + x), 4 * (y * width + x) + 3)];
    let bar = -1;
    for (let x = width - 1; x > width / 2 && bar < 0; x--) {
      const top = at(x, Math.round(height * 0.1));
      const bottom = at(x, Math.round(height * 0.75));
      if (top[0] > top[2] + 60 && bottom[2] > bottom[0] + 60) bar = x;
    }
    // Text and tick ink left of and under the image.
    let ink = 0;
    for (let y = 0; y < height; y++) for (let x = 0; x < Math.round(40 * ratio); x++) if (at(x, y)[0] < 120) ink++;
    return {
      sharp: map.width === Math.round(map.clientWidth * ratio) && profile.width === Math.round(profile.clientWidth * ratio),
      bar,
      ink,
      label: map.getAttribute('aria-label'),
      range: document.querySelector('#fig-heatmap').dataset.range,
    };
  });
  assert.ok(facts.sharp, 'both canvases are drawn at the device pixel ratio');
  assert.ok(facts.bar > 0, 'a colour bar runs from red to blue beside the map');
  assert.ok(facts.ink > 50, `axis labels are drawn (${facts.ink} dark pixels)`);
  assert.match(facts.label, /colours span/);
  assert.match(facts.range, /^-?[\d.e-]+,-?[\d.e-]+$/);
  assert.deepEqual(errors, []);
  await close();
});

test('ten states are drawn in ten different colours', async () => {
  const { page, errors, close } = await openPage('');
  await page.selectOption('#model', 'custom');
  await page.selectOption('#method', 'rk4');
  await page.waitForSelector('#system-box:not([hidden])');
  const lines = Array.from({ length: 10 }, (_, i) => `x${i + 1}' = -${i + 1}*x${i + 1}`);
  const starts = Array.from({ length: 10 }, (_, i) => `x${i + 1}(0) = 1`);
  await page.fill('#system', [...lines, ...starts].join('\n'));
  await page.waitForFunction(() => document.querySelectorAll('#plot-trajectory .u-legend .u-series').length === 11, null, { timeout: 20000 });
  const colours = await page.$$eval('#plot-trajectory .u-legend .u-series .u-marker', (ms) => ms.slice(1).map((m) => m.style.borderColor));
  assert.equal(colours.length, 10);
  assert.equal(new Set(colours).size, 10, colours.join(' '));
  assert.deepEqual(errors, []);
  await close();
});

test('every plot downloads as a PNG with a title band and its legend, and pins are named by method and h', async () => {
  const { page, errors, close } = await openPage('?model=mass-spring-damper&method=rk4&h=0.01');
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  await page.click('#pin-run');
  await page.fill('#h', '0.02');
  await page.waitForFunction(() => document.querySelector('#runs li')?.dataset.name === 'rk4 h = 0.01');
  await page.waitForFunction(() => [...document.querySelectorAll('#plot-trajectory .u-legend .u-label')].some((l) => l.textContent === 'x (rk4 h = 0.01)'));
  // A pinned run is drawn translucent, so the live run shows where the two coincide.
  for (const id of ['plot-trajectory', 'plot-energy']) {
    const legend = JSON.parse(await page.getAttribute(`#${id}`, 'data-legend'));
    assert.deepEqual(
      legend.map((s) => [s.label.includes('(rk4 h = 0.01)'), s.faint === true]).filter(([pinned, faint]) => pinned !== faint),
      [],
      `${id}: ${JSON.stringify(legend)}`,
    );
  }
  for (const id of ['plot-trajectory', 'plot-energy', 'plot-error', 'mechanism', 'plot-phase']) {
    const canvas = await page.evaluate((i) => {
      const el = document.getElementById(i);
      const c = el.tagName === 'CANVAS' ? el : el.querySelector('canvas');
      return { width: c.width, height: c.height };
    }, id);
    const png = await exportPng(page, id);
    assert.equal(png.width, canvas.width, `${id}: as wide as the plot`);
    // A title band above and at least one legend row below.
    assert.ok(png.height >= canvas.height + 40, `${id}: ${png.height} px for a plot of ${canvas.height}`);
    assert.match(png.name, new RegExp(`^odelab-mass-spring-damper-rk4-${id.replace('plot-', '')}\\.png$`));
  }
  const legend = JSON.parse(await page.getAttribute('#mechanism', 'data-legend'));
  assert.deepEqual(legend.map((e) => e.label).slice(-1), ['rk4 h = 0.01']);
  await page.click('#tabs [data-view="stability"]');
  await page.waitForFunction(() => document.body.dataset.stability === 'ok', null, { timeout: 20000 });
  const plane = await exportPng(page, 'plane');
  assert.ok(plane.height > 500, `ξ-plane PNG ${plane.width} × ${plane.height}`);
  assert.match(await page.getAttribute('#plane', 'data-title'), /^Stability region in the ξ = hλ plane/);
  await page.click('#tabs [data-view="convergence"]');
  await page.waitForFunction(() => document.body.dataset.convergence === 'ok', null, { timeout: 30000 });
  const global = await exportPng(page, 'plot-global');
  assert.ok(global.height > 260, `convergence PNG ${global.height}`);
  assert.deepEqual(errors, []);
  await close();
});

test('the heat map exports with its profile beneath', async () => {
  const { page, errors, close } = await openPage('?scenario=brusselator-1d');
  await page.waitForFunction(() => Number(document.querySelector('#fig-heatmap')?.dataset.elements) > 0, null, { timeout: 20000 });
  const sizes = await page.evaluate(() => ['plot-heatmap', 'plot-profile'].map((id) => document.getElementById(id).height));
  const png = await exportPng(page, 'plot-heatmap');
  assert.ok(png.height >= sizes[0] + sizes[1] + 40, `${png.height} for ${sizes}`);
  assert.deepEqual(errors, []);
  await close();
});

test('in the dark scheme the mechanism and the phase portrait are drawn on a dark background', async () => {
  const { page, errors, close } = await openPage('?model=pendulum&method=rk4', { colorScheme: 'dark' });
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  await page.waitForFunction(() => Number(document.querySelector('#mechanism')?.dataset.frames) > 0);
  const corner = await page.evaluate(() => {
    const c = document.querySelector('#mechanism');
    return [...c.getContext('2d').getImageData(2, 2, 1, 1).data];
  });
  assert.ok(corner[0] + corner[1] + corner[2] < 150, `mechanism background rgb(${corner.slice(0, 3)})`);
  const light = await openPage('?model=pendulum&method=rk4');
  await light.page.waitForFunction(() => Number(document.querySelector('#mechanism')?.dataset.frames) > 0);
  const white = await light.page.evaluate(() => [...document.querySelector('#mechanism').getContext('2d').getImageData(2, 2, 1, 1).data]);
  assert.ok(white[0] + white[1] + white[2] > 700, `light background rgb(${white.slice(0, 3)})`);
  await light.close();
  assert.deepEqual(errors, []);
  await close();
});

for (const scenario of ['rk4-region', 'euler-pendulum-blowup']) {
  test(`a read-only embed of ${scenario} puts the h slider right under the plot it changes`, async () => {
    const { page, errors, close } = await openPage(`?embed=1&readonly=1&scenario=${scenario}`, { width: 900, height: 900 });
    await page.waitForFunction(() => ['ok', 'warning'].includes(document.body.dataset.status), null, { timeout: 20000 });
    assert.ok(await page.isVisible('#h-slider'));
    const gap = await page.evaluate(() => {
      const controls = document.getElementById('controls');
      const plot = controls.previousElementSibling;
      const slider = document.getElementById('h-slider').getBoundingClientRect();
      return { gap: slider.top - plot.getBoundingClientRect().bottom, plot: plot.querySelector('canvas')?.id || plot.id || plot.className };
    });
    assert.ok(gap.gap >= -1 && gap.gap <= 150, `the h slider is ${gap.gap} px below ${gap.plot}`);
    assert.deepEqual(errors, []);
    await close();
  });
}

test('a run over decades of time (Robertson) gets a log t axis; a pendulum keeps a linear one', async () => {
  const { page, errors, close } = await openPage('?model=robertson&method=ros4');
  await page.waitForFunction(() => ['ok', 'warning'].includes(document.body.dataset.status), null, { timeout: 20000 });
  assert.equal(await page.isChecked('#log-time'), true);
  // The reader may turn it off, and it stays off for this model.
  await page.uncheck('#log-time');
  await page.fill('#t1', '30');
  await page.waitForFunction(() => document.querySelector('dd[data-stat="reached t"]')?.textContent === '30');
  assert.equal(await page.isChecked('#log-time'), false);
  await page.selectOption('#model', 'pendulum');
  await page.waitForFunction(() => document.querySelector('#plot-trajectory .u-legend')?.textContent.includes('θ'));
  assert.equal(await page.isChecked('#log-time'), false);
  assert.deepEqual(errors, []);
  await close();
});

test("a pin's error is measured against dp45 when the stiff reference runs out of steps", async () => {
  // Generalized-α needs a Jacobian, so its pin is first measured against ros4 at rtol
  // 1e-10, which needs more than two million steps on two modes (ω = 1 and 1000) over
  // 20 s; dp45 at 1e-12 reaches t = 20 within the budget.
  const { page, errors, close } = await openPage('?scenario=generalized-alpha-damping');
  await page.waitForFunction(() => / \(vs dp45 at rtol 1e-12\)/.test(document.querySelector('#runs li')?.textContent ?? ''), null, { timeout: 120000 });
  const error = Number(/error at t = 20 ([^ ]+) \(vs dp45/.exec(await page.textContent('#runs li'))[1]);
  // The pin damps the fast mode (z' of amplitude 100) that the reference keeps.
  assert.ok(error > 10 && error < 200, `error ${error}`);
  assert.deepEqual(errors, []);
  await close();
});
