// Lecture embedding: a page that is not ours loads dist/embed.js with one
// script tag and shows a scenario read-only through <ode-playground>.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './harness.mjs';

const LECTURE = `<!doctype html><html><head><meta charset="utf-8"><title>Lecture 7</title><link rel="icon" href="data:,">
<script type="module" src="/embed.js"></script></head>
<body><h1>Lecture 7: Euler's method</h1><p>Watch the energy grow:</p>
<ode-playground scenario="euler-pendulum-blowup" view="trajectory" readonly></ode-playground>
<ode-playground scenario="rk4-pendulum-energy"></ode-playground>
</body></html>`;
const site = useSite({ '/lecture.html': LECTURE });

test('<ode-playground> embeds a scenario in a lecture page', async () => {
  const page = await site.browser.newPage({ viewport: { width: 1100, height: 1600 } });
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${site.server.url}lecture.html`);
  const frames = page.locator('ode-playground iframe');
  assert.equal(await frames.count(), 2);
  assert.match(await frames.first().getAttribute('src'), /index\.html\?embed=1&scenario=euler-pendulum-blowup&view=trajectory&readonly=1$/);
  const readonly = page.frameLocator('ode-playground >> nth=0 >> iframe');
  await readonly.locator('body[data-ready="true"]').waitFor({ timeout: 20000 });
  assert.equal(await readonly.locator('#caption-title').textContent(), 'Explicit Euler gains energy on the pendulum');
  // Read-only shows exactly the controls its caption asks for: h and the method.
  assert.ok(await readonly.locator('#h').isVisible(), 'the caption asks to halve h');
  assert.ok(await readonly.locator('#method').isVisible(), 'the caption asks to switch to RK4');
  assert.ok(!(await readonly.locator('#model').isVisible()), 'readonly hides the other controls');
  assert.ok(!(await readonly.locator('#animate').isVisible()));
  assert.ok(!(await readonly.locator('#tabs').isVisible()), 'readonly has no tab bar');
  assert.ok(!(await readonly.locator('header nav').isVisible()), 'embed hides the header');
  // The page's title stays for screen readers only (1 px, clipped).
  assert.ok((await readonly.locator('header').boundingBox()).height <= 1);
  assert.ok(await readonly.locator('#plot-trajectory canvas').isVisible());
  const full = page.frameLocator('ode-playground >> nth=1 >> iframe');
  await full.locator('body[data-ready="true"]').waitFor({ timeout: 20000 });
  assert.ok(await full.locator('#controls').isVisible(), 'without readonly the controls show');
  assert.equal(await full.locator('#method').inputValue(), 'rk4');
  assert.deepEqual(errors, []);
  await page.close();
});

test("a read-only embed's caption links the tab it names to that view of the full playground", async () => {
  const page = await site.browser.newPage({ viewport: { width: 1100, height: 1600 } });
  await page.goto(`${site.server.url}index.html?embed=1&scenario=heun-region&readonly=1`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  assert.ok(!(await page.locator('#tabs').isVisible()), 'a read-only embed has no tab bar');
  const link = page.locator('#caption-text a[data-view="trajectory"]');
  assert.equal(await link.textContent(), 'the Trajectory tab');
  assert.equal(await link.evaluate((a) => window.getComputedStyle(a, '::after').content), '" ↗"', 'marked as a link out');
  assert.equal(await link.getAttribute('target'), '_blank');
  assert.equal(await link.getAttribute('href'), `${site.server.url}index.html?scenario=heun-region&view=trajectory`);
  // The caption's text is the scenario's, word for word, around it.
  assert.match(await page.locator('#caption-text').textContent(), /Try: the Trajectory tab with t1 = 100\.$/);
  // The link opens the playground there: its tab bar, on the trajectory, with the scenario's caption.
  const full = await site.browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await full.goto(await link.getAttribute('href'));
  await full.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  assert.equal(await full.locator('#tab-trajectory').getAttribute('aria-selected'), 'true');
  assert.match(await full.locator('#caption-text').textContent(), /the Trajectory tab with t1 = 100/);
  await full.close();
  await page.close();
});
