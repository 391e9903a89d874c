// One engine per lecture page: the embeds of a lecture on another origin connect to one
// SharedWorker (www/boot.ts), which answers all of them; a run the first-load package
// refuses is re-run in the whole engine there; a typo's error reaches the editor with
// its line; and a browser without SharedWorker gives each embed its own worker.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIST, launch, lectureHtml, serveStatic, stat } from './harness.mjs';

const TYPO = "param k = 4\nx' = v\nv' = -kk*x\nx(0) = 1, v(0) = 0";
const site = {};

before(async () => {
  site.dist = await serveStatic(DIST);
  const lecture = lectureHtml({
    title: 'Lecture 8',
    head: `<script src="${site.dist.url}embed.js"></script>`,
    body: `<ode-playground scenario="rk4-region" readonly></ode-playground>
<ode-playground scenario="euler-pendulum-blowup" readonly></ode-playground>
<ode-playground scenario="your-system"></ode-playground>`,
  });
  site.host = await serveStatic(DIST, { '/lecture.html': lecture });
  site.browser = await launch();
});
after(async () => {
  await site.browser?.close();
  await site.host?.close();
  await site.dist?.close();
});

/** Opens the lecture (tall enough for all three embeds to start); `init` runs before every frame's scripts. */
async function openLecture(init) {
  const context = await site.browser.newContext({ viewport: { width: 1100, height: 6000 } });
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${site.host.url}lecture.html`);
  await page.waitForFunction(() => document.querySelectorAll('ode-playground iframe[src]').length === 3);
  const frames = [];
  for (const element of await page.locator('ode-playground iframe').elementHandles()) {
    const frame = await element.contentFrame();
    await frame.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
    frames.push(frame);
  }
  return { context, page, frames, errors };
}

/** The browser's shared workers, through the DevTools protocol. */
async function sharedWorkers() {
  const cdp = await site.browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  await cdp.detach();
  return targetInfos.filter((t) => t.type === 'shared_worker');
}

test('the embeds of a lecture page share one engine, which runs what the first-load package refuses', async () => {
  const { context, page, frames, errors } = await openLecture();
  for (const frame of frames) assert.equal(await frame.evaluate(() => document.documentElement.dataset.engine), 'shared');
  assert.equal(page.workers().length, 0, 'no embed starts a dedicated worker');
  const workers = await sharedWorkers();
  assert.equal(workers.length, 1, JSON.stringify(workers));
  assert.match(workers[0].url, /\/assets\/worker-[^/]*\.js$/);
  const [region, euler, system] = frames;
  // The ξ-plane (the labs package) and a trajectory, each drawn.
  await region.waitForFunction(() => document.body.dataset.stability === 'ok', null, { timeout: 30000 });
  assert.ok(['ok', 'warning'].includes(await euler.evaluate(() => document.body.dataset.status)));
  // A typed system: the run package refuses it, the shared engine re-runs it in the labs package.
  await system.waitForFunction(() => ['ok', 'warning'].includes(document.body.dataset.status), null, { timeout: 30000 });
  assert.ok(Number((await stat(system, 'f-evaluations')).replace(/,/g, '')) > 100);
  assert.deepEqual(errors, []);
  await context.close();
});

test("through the shared engine a typo's error keeps its line: the editor marks it", async () => {
  const { context, page, frames, errors } = await openLecture();
  const system = frames[2];
  await system.focus('#system');
  await system.waitForSelector('#system-box .cm-editor .cm-content', { timeout: 15000 });
  await system.click('#system-box .cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(TYPO);
  const mark = system.locator('#system-box .cm-lintRange-error');
  await mark.waitFor({ timeout: 15000 });
  assert.equal(await mark.first().textContent(), 'kk');
  assert.deepEqual(errors, []);
  await context.close();
});

test('without SharedWorker each embed runs its own engine, and all of them draw', async () => {
  const { context, page, frames, errors } = await openLecture(() => {
    delete window.SharedWorker;
  });
  for (const frame of frames) assert.equal(await frame.evaluate(() => document.documentElement.dataset.engine), 'own');
  assert.equal(page.workers().length, 3, 'one dedicated worker per embed');
  await frames[0].waitForFunction(() => document.body.dataset.stability === 'ok', null, { timeout: 30000 });
  await frames[2].waitForFunction(() => ['ok', 'warning'].includes(document.body.dataset.status), null, { timeout: 30000 });
  assert.deepEqual(errors, []);
  await context.close();
});
