// Every student: a 390 px phone (no horizontal scrolling, pinch-zoom on the ξ-plane),
// the keyboard (tabs, sliders, the ξ-plane, Open session, a skip link), a screen reader
// (axe-core finds no violations; sliders say values; errors point at their message).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { useSite, open } from './harness.mjs';

const site = useSite();
const AXE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const VIEWS = ['trajectory', 'stability', 'convergence', 'tableau'];

async function phone(url) {
  const context = await site.browser.newContext(PHONE);
  return open(site.browser, url, context).then((r) => ({ ...r, close: () => context.close() }));
}

/** Waits until the view's own work is done (a run, a map, a study, a tableau). */
async function showView(page, view) {
  await page.click(`#tabs [data-view="${view}"]`);
  const done = {
    trajectory: () => ['ok', 'warning'].includes(document.body.dataset.status),
    stability: () => document.body.dataset.stability === 'ok',
    convergence: () => document.body.dataset.convergence === 'ok',
    tableau: () => document.querySelector('#tableau-grid input') !== null && document.querySelector('#tableau-conditions tr') !== null,
  }[view];
  await page.waitForFunction(done, null, { timeout: 30000 });
}

/** axe-core's violations on the page (or frame), as "rule: targets" lines. */
async function axeViolations(target) {
  await target.evaluate(AXE);
  const result = await target.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const overflow = (target) => target.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test('at 390 px no view scrolls sideways and axe-core finds no violations in any view', async () => {
  const { page, errors, close } = await phone(`${site.server.url}?scenario=rk4-region`);
  for (const view of VIEWS) {
    await showView(page, view);
    assert.ok((await overflow(page)) <= 0, `${view} overflows by ${await overflow(page)} px`);
    assert.deepEqual(await axeViolations(page), [], `axe on the ${view} view`);
  }
  // The plots come before the controls on a phone.
  const [plotsTop, controlsTop] = await page.evaluate(() => ['#plots', '#controls'].map((s) => document.querySelector(s).getBoundingClientRect().top));
  assert.ok(plotsTop < controlsTop, `plots at ${plotsTop}, controls at ${controlsTop}`);
  assert.deepEqual(errors, []);
  await close();
});

test('at 390 px read-only embeds do not scroll sideways and pass axe-core', async () => {
  for (const scenario of ['rk4-region', 'slowfast-region', 'heun-error-vs-h', 'euler-pendulum-blowup']) {
    const { page, errors, close } = await phone(`${site.server.url}?embed=1&readonly=1&scenario=${scenario}`);
    await page.waitForFunction(() => ['ok', 'warning'].includes(document.body.dataset.status));
    await page.waitForTimeout(0);
    assert.ok((await overflow(page)) <= 0, `${scenario} overflows by ${await overflow(page)} px`);
    assert.deepEqual(await axeViolations(page), [], `axe on the ${scenario} embed`);
    assert.deepEqual(errors, []);
    await close();
  }
});

test('the ξ-plane zooms with + from the keyboard, pans with arrows, and zooms with a two-finger pinch', async () => {
  const { page, errors, close } = await phone(`${site.server.url}?scenario=rk4-region`);
  await showView(page, 'stability');
  const width = async () => {
    const [re0, re1] = (await page.getAttribute('#plane', 'data-window')).split(',').map(Number);
    return re1 - re0;
  };
  const start = await width();
  await page.focus('#plane');
  await page.keyboard.press('+');
  const zoomedIn = await width();
  assert.ok(Math.abs(zoomedIn - start / 1.25) < 1e-6 * start, `+ zooms in: ${start} → ${zoomedIn}`);
  await page.keyboard.press('-');
  assert.ok(Math.abs((await width()) - start) < 1e-6 * start, '− zooms back out');
  const before = await page.getAttribute('#plane', 'data-window');
  await page.keyboard.press('ArrowRight');
  assert.notEqual(await page.getAttribute('#plane', 'data-window'), before, 'an arrow key pans');
  // (Clicked from script: two quick taps on a phone would be a double-tap zoom.)
  await page.$eval('#plane-zoom-in', (b) => b.click());
  assert.ok((await width()) < start, 'the visible + button zooms in');
  await page.$eval('#plane-reset', (b) => b.click());

  // Two fingers 60 px apart spread to 180 px: the window narrows about threefold.
  const box = await page.locator('#plane').boundingBox();
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const cdp = await page.context().newCDPSession(page);
  const touch = (type, spread) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: type === 'touchEnd' ? [] : [{ x: cx - spread, y: cy, id: 1 }, { x: cx + spread, y: cy, id: 2 }],
    });
  const reset = await width();
  await touch('touchStart', 30);
  for (const spread of [40, 55, 70, 90]) await touch('touchMove', spread);
  await touch('touchEnd', 0);
  const pinched = await width();
  assert.ok(pinched < reset / 2.5 && pinched > reset / 3.5, `pinch: ${reset} → ${pinched}`);
  // Only vertical panning is left to the browser: the page still scrolls over the plane.
  assert.equal(await page.evaluate(() => window.getComputedStyle(document.querySelector('#plane')).touchAction), 'pan-y');
  assert.deepEqual(errors, []);
  await close();
});

test('sliders say their value, and one arrow press is one distinct value', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=rk4`);
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  assert.equal(await page.getAttribute('#h-slider', 'aria-valuetext'), `h = ${await page.inputValue('#h')}`);
  await page.focus('#h-slider');
  const seen = [await page.inputValue('#h')];
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('ArrowRight');
    seen.push(await page.inputValue('#h'));
    assert.equal(await page.getAttribute('#h-slider', 'aria-valuetext'), `h = ${seen.at(-1)}`);
  }
  assert.equal(new Set(seen).size, seen.length, `each press a new h: ${seen}`);
  assert.ok(Number(seen.at(-1)) > Number(seen[0]));
  await page.focus('#h-slider');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.inputValue('#h'), seen.at(-2));
  // A model parameter's slider reads as its name and value.
  const param = await page.getAttribute('input[data-slider]', 'data-slider');
  assert.match(await page.getAttribute('input[data-slider]', 'aria-valuetext'), new RegExp(`^${param} = -?[0-9.e+-]+$`));
  // The time scrubber of the ξ-plane reads as a time.
  await page.click('#tabs [data-view="stability"]');
  await page.waitForFunction(() => document.querySelector('#scrub')?.getAttribute('aria-valuetext')?.startsWith('t = '));
  assert.deepEqual(errors, []);
  await page.close();
});

test('tabs follow the tabs pattern; a skip link, Open session and the ξ-plane are reachable by keyboard', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=rk4`);
  // From the top of the page: the first Tab reaches the skip link, which moves focus to the plots.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'skip-link');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'plots');
  for (const view of VIEWS) {
    assert.equal(await page.getAttribute(`#tab-${view}`, 'aria-controls'), `view-${view}`);
    assert.equal(await page.getAttribute(`#view-${view}`, 'role'), 'tabpanel');
  }
  await page.focus('#tab-trajectory');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => !document.querySelector('#view-stability').hidden);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-stability');
  assert.equal(await page.getAttribute('#tab-stability', 'aria-selected'), 'true');
  assert.equal(await page.getAttribute('#tab-trajectory', 'tabindex'), '-1');
  await page.keyboard.press('End');
  await page.waitForFunction(() => !document.querySelector('#view-tableau').hidden);
  await page.keyboard.press('Home');
  await page.waitForFunction(() => !document.querySelector('#view-trajectory').hidden);

  // Open session is a focusable file input; the ξ-plane is focusable.
  await page.focus('#import-session');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'import-session');
  assert.ok(await page.evaluate(() => document.querySelector('#import-session').getBoundingClientRect().width > 0));
  assert.equal(await page.getAttribute('#plane', 'tabindex'), '0');
  assert.equal(await page.getAttribute('#stats', 'aria-live'), 'polite');
  assert.equal(await page.getAttribute('#stability-markers', 'aria-live'), 'polite');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a field whose value fails gets aria-invalid and points at the message, until it is fixed', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=rk4`);
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  await page.fill('#h', '0');
  await page.waitForFunction(() => document.body.dataset.status === 'error');
  await page.waitForFunction(() => document.querySelector('#h').getAttribute('aria-invalid') === 'true');
  assert.match(await page.getAttribute('#h', 'aria-describedby'), /\bmessage\b/);
  await page.fill('#h', '0.01');
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  await page.waitForFunction(() => !document.querySelector('#h').hasAttribute('aria-invalid'));
  assert.equal(await page.getAttribute('#h', 'aria-describedby'), null);
  // A system with a parse error marks the editor and points at the caret message.
  await page.selectOption('#model', 'custom');
  // (The first system loads the labs package, the whole engine: a run of the text may
  // report the error in #message before the editor's own check does.)
  await page.fill('#system', "states x\nx' = -x +\nx(0) = 1");
  await page.waitForFunction(() => !document.querySelector('#system-error').hidden, null, { timeout: 10000 });
  await page.waitForFunction(() => document.querySelector('#system').getAttribute('aria-invalid') === 'true', null, { timeout: 10000 });
  assert.match(await page.getAttribute('#system', 'aria-describedby'), /\bsystem-error\b/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('each plot has a name and a text summary with its range, final value and observed slope', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?scenario=heun-error-vs-h`);
  await page.waitForFunction(() => document.body.dataset.convergence === 'ok', null, { timeout: 30000 });
  assert.equal(await page.getAttribute('#plot-global', 'role'), 'img');
  assert.match(await page.getAttribute('#plot-global', 'aria-label'), /^Global error at t1 against h/);
  const summary = await page.textContent('#plot-global-summary');
  assert.match(summary, /^h from [0-9.e-]+ to [0-9.e-]+\. /);
  // Heun's error falls as h²: its observed slope on the log–log plot is close to 2.
  const heun = summary.match(/heun \(slope [0-9.]+\): from [^,]+, final [^,]+, observed slope ([0-9]+\.[0-9]+)/);
  assert.ok(heun, summary);
  assert.ok(Math.abs(Number(heun[1]) - 2) < 0.3, summary);
  await page.click('#tabs [data-view="trajectory"]');
  await page.waitForFunction(() => document.querySelector('#plot-trajectory-summary')?.textContent?.startsWith('t from 0 to'));
  assert.match(await page.textContent('#plot-trajectory-summary'), /final/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('printed, the page drops its controls and keeps each figure whole under a dark-ink header; dark mode darkens page and plots', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?scenario=euler-pendulum-blowup`);
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  await page.emulateMedia({ media: 'print' });
  for (const hidden of ['#controls', '#tabs', 'header nav', '.skip-link']) assert.equal(await page.isVisible(hidden), false, `${hidden} is not printed`);
  const [ink, breakInside] = await page.evaluate(() => [
    window.getComputedStyle(document.querySelector('header h1')).color,
    window.getComputedStyle(document.querySelector('#fig-trajectory')).breakInside,
  ]);
  assert.equal(ink, 'rgb(0, 0, 0)');
  assert.equal(breakInside, 'avoid');
  assert.match(await page.textContent('#print-settings'), /^Pendulum, Explicit Euler, h = 0\.01, t1 = 10\.$/);
  await page.emulateMedia({ media: 'screen', colorScheme: 'dark' });
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  const background = await page.evaluate(() => window.getComputedStyle(document.documentElement).backgroundColor);
  assert.equal(background, 'rgb(18, 21, 28)');
  // The plots' axis labels are drawn in light ink on the dark figure.
  const light = await page.evaluate(() => {
    const c = document.querySelector('#plot-trajectory canvas');
    const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 200 && data[i] > 180 && data[i + 1] > 190 && data[i + 2] > 200) n++;
    return n;
  });
  assert.ok(light > 100, `${light} light axis pixels`);
  assert.deepEqual(errors, []);
  await page.close();
});
