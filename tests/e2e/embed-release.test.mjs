// A long lecture: an untouched embed the reader has scrolled far past gives its frame
// back (the page it showed is unloaded, its height kept) and is rebuilt, ready again,
// when the reader comes back to it; an embed the reader has used keeps its frame; an
// embed marked loading="eager" starts with the page, wherever it is, and is kept.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIST, launch, lectureHtml, serveStatic } from './harness.mjs';

const site = {};
before(async () => {
  site.dist = await serveStatic(DIST);
  const gap = '<div style="height: 6000px">(many pages of lecture notes)</div>';
  const lecture = lectureHtml({
    title: 'Lecture 9',
    head: `<script src="${site.dist.url}embed.js"></script>`,
    body: `<ode-playground scenario="rk4-region" readonly></ode-playground>
<ode-playground scenario="euler-pendulum-blowup" readonly></ode-playground>
${gap}
<ode-playground scenario="euler-region" readonly></ode-playground>`,
  });
  const eager = lectureHtml({
    title: 'Lecture 10',
    head: `<script src="${site.dist.url}embed.js"></script>`,
    body: `<ode-playground scenario="rk4-region" readonly></ode-playground>
${gap}
<ode-playground scenario="euler-region" readonly loading="eager"></ode-playground>
${gap}
<ode-playground scenario="heun-region" readonly></ode-playground>`,
  });
  site.host = await serveStatic(DIST, { '/lecture.html': lecture, '/eager.html': eager });
  site.browser = await launch();
});
after(async () => {
  await site.browser?.close();
  await site.host?.close();
  await site.dist?.close();
});

const embed = (page, i) => page.locator('ode-playground').nth(i);
const state = (page, i) => embed(page, i).getAttribute('data-frame');

/** Scrolls embed `i` into view and waits until its page is ready; returns its frame. */
async function readyFrame(page, i) {
  await embed(page, i).scrollIntoViewIfNeeded();
  const handle = await embed(page, i).locator('iframe').elementHandle();
  await page.waitForFunction((f) => f.src.startsWith('http'), handle);
  const frame = await handle.contentFrame();
  await frame.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
  return frame;
}

test('an untouched embed scrolled far past is released, keeps its height, and is rebuilt on return', async () => {
  const context = await site.browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${site.host.url}lecture.html`);
  const first = await readyFrame(page, 0);
  assert.equal(await state(page, 0), 'loaded');
  assert.equal(await state(page, 2), 'waiting');
  // Let the frame report its height before it is left.
  await page.waitForTimeout(500);
  const height = await embed(page, 0).locator('iframe').evaluate((f) => f.style.height);
  assert.ok(first);

  await readyFrame(page, 2);
  await page.waitForFunction(() => document.querySelector('ode-playground')?.dataset.frame === 'released');
  const iframe = embed(page, 0).locator('iframe');
  assert.equal(await iframe.getAttribute('src'), 'about:blank');
  assert.equal(await iframe.evaluate((f) => f.style.height), height, 'a released embed keeps its height');
  assert.equal(page.frames().filter((f) => /scenario=rk4-region/.test(f.url())).length, 0, 'its page is unloaded');

  const again = await readyFrame(page, 0);
  assert.equal(await state(page, 0), 'loaded');
  assert.match(again.url(), /scenario=rk4-region/);
  await again.waitForFunction(() => document.body.dataset.stability === 'ok', null, { timeout: 30000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('an embed the reader has used keeps its frame when scrolled far past', async () => {
  const context = await site.browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${site.host.url}lecture.html`);
  const frame = await readyFrame(page, 0);
  await frame.click('#caption-title');
  await readyFrame(page, 2);
  // The third embed is ready, far below: the first, used, is still the page it was.
  assert.equal(await state(page, 0), 'loaded');
  assert.match(await embed(page, 0).locator('iframe').getAttribute('src'), /scenario=rk4-region/);
  assert.equal(await frame.evaluate(() => document.body.dataset.ready), 'true');
  await context.close();
});

test('an embed marked loading="eager" is drawn with the page, far below it, and is not released', async () => {
  const context = await site.browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${site.host.url}eager.html`);
  // Never scrolled to, 6000 px down: drawn all the same, while the lazy one further down waits.
  const handle = await embed(page, 1).locator('iframe').elementHandle();
  await page.waitForFunction((f) => f.src.startsWith('http'), handle);
  const frame = await handle.contentFrame();
  await frame.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
  await frame.waitForFunction(() => document.body.dataset.stability === 'ok', null, { timeout: 30000 });
  assert.equal(await state(page, 1), 'loaded');
  assert.equal(await state(page, 2), 'waiting');
  // The reader goes to the end, far past it: the lazy embeds come and go, the eager one stays.
  await readyFrame(page, 2);
  await page.waitForFunction(() => document.querySelector('ode-playground')?.dataset.frame === 'released');
  await readyFrame(page, 0);
  assert.equal(await state(page, 1), 'loaded');
  assert.match(await embed(page, 1).locator('iframe').getAttribute('src'), /scenario=euler-region/);
  assert.equal(await frame.evaluate(() => document.body.dataset.ready), 'true');
  await context.close();
});
