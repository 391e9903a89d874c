// Lecture notes on another host: dist/ served from one origin by a plain static server
// (no CORS headers), a lecture page from another origin pasting the README's snippet;
// read-only embeds show exactly their scenario's controls, no tab bar, and size their
// frames to their content; dist/examples/lecture.html works; far embeds load late.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { DIST, launch, lectureHtml, serveStatic, TEN_EMBEDS } from './harness.mjs';

/** The README's embed snippet (its ```html block under "In lecture notes"). */
async function readmeSnippet() {
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  const block = readme.match(/### In lecture notes\s+```html\n([^]*?)```/);
  assert.ok(block, 'README has an html snippet under "In lecture notes"');
  return block[1].split('\n').find((line) => line.includes('embed.js'));
}

const TEN = TEN_EMBEDS;
const SCENARIOS = JSON.parse(await readFile(new URL('../../www/scenarios.json', import.meta.url), 'utf8'));

const site = {};
before(async () => {
  site.dist = await serveStatic(DIST);
  const script = (await readmeSnippet()).replace('https://your.site/odelab/', site.dist.url);
  const lecture = lectureHtml({
    title: 'Lecture 7',
    heading: 'Lecture 7: stability regions',
    head: script,
    body: `<ode-playground scenario="rk4-region" readonly></ode-playground>
<ode-playground scenario="slowfast-region" readonly></ode-playground>
<ode-playground scenario="heun-error-vs-h" readonly></ode-playground>`,
  });
  const ten = lectureHtml({
    title: 'Lecture 10',
    heading: 'Lecture 10: ten plots',
    head: script,
    body: TEN.map((id) => `<p>${id}</p><ode-playground scenario="${id}" readonly></ode-playground>`).join('\n'),
  });
  site.host = await serveStatic(DIST, { '/lecture.html': lecture, '/ten.html': ten });
  site.browser = await launch();
});
after(async () => {
  await site.browser?.close();
  await site.host?.close();
  await site.dist?.close();
});

/** A page whose console errors (of the page and its frames) are collected. */
async function newPage(viewport = { width: 1100, height: 900 }) {
  const context = await site.browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, errors, close: () => context.close() };
}

/** Scrolls embed `i` into view and waits for its page to be ready; returns its frame. */
async function readyFrame(page, i) {
  const element = page.locator('ode-playground').nth(i);
  await element.scrollIntoViewIfNeeded();
  const frameElement = element.locator('iframe');
  await page.waitForFunction((el) => el.getAttribute('src'), await frameElement.elementHandle());
  const frame = await (await frameElement.elementHandle()).contentFrame();
  await frame.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  return frame;
}

/** Waits until the frame element is at least as tall as the document it shows. */
async function framesFit(page, i, frame) {
  const element = await page.locator('ode-playground iframe').nth(i).elementHandle();
  for (let tries = 0; tries < 100; tries++) {
    const doc = await frame.evaluate(() => document.documentElement.scrollHeight);
    const box = await element.evaluate((f) => f.clientHeight);
    if (box >= doc) return { doc, box };
    await page.waitForTimeout(100);
  }
  const doc = await frame.evaluate(() => document.documentElement.scrollHeight);
  assert.fail(`frame ${i} is ${await element.evaluate((f) => f.clientHeight)} px tall, its document ${doc} px`);
}

/** The ξ-plane's pixels as a data URL (to see that it was redrawn). */
const planeImage = (frame) => frame.evaluate(() => document.querySelector('#plane').toDataURL());

test('the README snippet embeds read-only scenarios from a host that sends no CORS headers', async () => {
  const { page, errors, close } = await newPage();
  await page.goto(`${site.host.url}lecture.html`);
  assert.notEqual(new URL(site.host.url).origin, new URL(site.dist.url).origin);
  const frames = [];
  for (let i = 0; i < 3; i++) frames.push(await readyFrame(page, i));
  const [rk4, slowfast, heun] = frames;
  for (const [i, frame] of frames.entries()) {
    assert.equal(await frame.isVisible('#tabs'), false, `embed ${i} has no tab bar`);
    assert.equal(await frame.isVisible('#caption-title'), true, `embed ${i} shows its caption`);
    await framesFit(page, i, frame);
  }
  // Exactly the controls each caption asks for.
  assert.ok(await rk4.isVisible('#h'), 'h in the RK4 region embed');
  assert.ok(await rk4.isVisible('#h-slider'));
  assert.equal(await rk4.isVisible('#model'), false);
  assert.equal(await rk4.isVisible('#overlay-methods'), false);
  assert.ok(await rk4.isVisible('#plane'));
  assert.ok(await slowfast.isVisible('#alpha'), 'α in the slow/fast embed');
  assert.ok(await slowfast.isVisible('#beta'), 'β in the slow/fast embed');
  assert.equal(await slowfast.isVisible('#h'), false);
  assert.ok(await heun.isVisible('#plot-global canvas'));
  assert.equal(await heun.isVisible('#conv-methods'), false);
  // Changing β redraws the slow/fast map.
  await slowfast.waitForFunction(() => document.body.dataset.stability === 'ok');
  const before = await planeImage(slowfast);
  await slowfast.fill('#beta', '0');
  await slowfast.waitForFunction((old) => document.querySelector('#plane').toDataURL() !== old, before, { timeout: 15000 });
  // Raising h in the RK4 embed moves its markers out of the region.
  await rk4.waitForFunction(() => document.querySelector('#stability-markers')?.dataset.outside === '0');
  await rk4.fill('#h', '0.35');
  await rk4.waitForFunction(() => Number(document.querySelector('#stability-markers')?.dataset.outside) > 0, null, { timeout: 15000 });
  assert.deepEqual(errors, []);
  await close();
});

test('a frame follows its content as it grows, unless height fixes it', async () => {
  const { page, errors, close } = await newPage();
  await page.goto(`${site.host.url}lecture.html`);
  const frame = await readyFrame(page, 0);
  const { box } = await framesFit(page, 0, frame);
  await frame.evaluate(() => {
    const tall = document.createElement('div');
    tall.style.height = '700px';
    document.querySelector('#plots').append(tall);
  });
  const grown = await framesFit(page, 0, frame);
  assert.ok(grown.box >= box + 700, `grew from ${box} to ${grown.box}`);
  // A height message from anyone but the frame (here the lecture page itself) is ignored.
  await page.evaluate(() => window.postMessage({ type: 'odelab:height', height: 40 }, '*'));
  await page.waitForTimeout(300);
  assert.equal(await page.locator('ode-playground iframe').first().evaluate((f) => f.clientHeight), grown.box);
  await page.evaluate(() => document.querySelector('ode-playground').setAttribute('height', '300px'));
  const fixed = await page.locator('ode-playground iframe').first().evaluate((f) => f.clientHeight);
  assert.ok(Math.abs(fixed - 300) <= 2, `height="300px" gives ${fixed}`);
  assert.deepEqual(errors, []);
  await close();
});

test('dist/examples/lecture.html shows four working embeds, loading each only near the viewport', async () => {
  const { page, errors, close } = await newPage({ width: 1000, height: 800 });
  await page.goto(`${site.dist.url}examples/lecture.html`);
  const embeds = page.locator('ode-playground');
  const n = await embeds.count();
  assert.ok(n >= 4, `${n} embeds`);
  // The last embed is several screens down: its engine has not started.
  assert.equal(await embeds.nth(n - 1).locator('iframe').getAttribute('src'), null);
  const scenarios = [];
  for (let i = 0; i < n; i++) {
    const frame = await readyFrame(page, i);
    assert.equal(await frame.isVisible('#tabs'), false);
    assert.notEqual(await frame.getAttribute('body', 'data-status'), 'error');
    scenarios.push(await embeds.nth(i).getAttribute('scenario'));
  }
  for (const id of ['euler-pendulum-blowup', 'rk4-region', 'slowfast-region', 'heun-error-vs-h']) assert.ok(scenarios.includes(id), id);
  assert.deepEqual(errors, []);
  await close();
});

test('at 390 px the example lecture and each of its embeds fit the screen width', async () => {
  const { page, errors, close } = await newPage({ width: 390, height: 844 });
  await page.goto(`${site.dist.url}examples/lecture.html`);
  const n = await page.locator('ode-playground').count();
  for (let i = 0; i < n; i++) {
    const frame = await readyFrame(page, i);
    await frame.waitForFunction(() => ['ok', 'warning'].includes(document.body.dataset.status));
    const [scroll, inner] = await frame.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(scroll <= inner, `embed ${i}: ${scroll} px wide in a ${inner} px frame`);
  }
  const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(scroll <= inner, `the lecture is ${scroll} px wide at ${inner}`);
  assert.deepEqual(errors, []);
  await close();
});

test('ten read-only embeds on one screen share one engine and each shows its view, and only its view', async () => {
  const { page, errors, close } = await newPage({ width: 1200, height: 20000 });
  await page.goto(`${site.host.url}ten.html`);
  await page.waitForFunction((n) => document.querySelectorAll('ode-playground iframe[src]').length === n, TEN.length);
  const frames = [];
  for (const element of await page.locator('ode-playground iframe').elementHandles()) {
    const frame = await element.contentFrame();
    await frame.waitForSelector('body[data-ready="true"]', { timeout: 120000 });
    frames.push(frame);
  }
  const cdp = await site.browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  await cdp.detach();
  assert.equal(targetInfos.filter((t) => t.type === 'shared_worker').length, 1, 'one engine for the ten');
  assert.equal(page.workers().length, 0, 'no embed starts an engine of its own');
  for (const [i, frame] of frames.entries()) {
    const scenario = SCENARIOS.find((s) => s.id === TEN[i]);
    const view = scenario.view ?? 'trajectory';
    assert.equal(await frame.textContent('#caption-title'), scenario.title, TEN[i]);
    assert.equal(await frame.textContent('#caption-text'), scenario.caption, TEN[i]);
    // The same run as the playground's: its plot drawn, no error.
    if (view === 'stability') await frame.waitForFunction(() => document.body.dataset.stability === 'ok', null, { timeout: 60000 });
    if (view === 'convergence') await frame.waitForFunction(() => ['ok', 'warning'].includes(document.body.dataset.convergence), null, { timeout: 60000 });
    assert.ok(['ok', 'warning'].includes(await frame.getAttribute('body', 'data-status')), `${TEN[i]} ran`);
    const figure = { trajectory: '#plot-trajectory canvas', stability: '#plane', convergence: '#plot-global canvas' }[view];
    assert.ok(await frame.isVisible(figure), `${TEN[i]} shows ${figure}`);
    // Its page holds its own view (and the trajectory view, which runs), not the hidden
    // tabs', the Help or the Sources text.
    const panels = await frame.evaluate(() => [...document.querySelectorAll('#plots > .view')].map((v) => v.id).sort());
    assert.deepEqual(panels, [...new Set([`view-${view}`, 'view-trajectory'])].sort(), TEN[i]);
    assert.equal(await frame.evaluate(() => document.querySelector('#sources, #help, #intro')), null, TEN[i]);
  }
  assert.deepEqual(errors, []);
  await close();
});
