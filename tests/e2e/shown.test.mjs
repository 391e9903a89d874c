// What runs is what is shown: the typed system's parameters, the scenario named in the
// URL, the scenario's caption, the view a link reopens, and the stop time of a run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open, stat } from './harness.mjs';

const LECTURE = `<!doctype html><html><head><meta charset="utf-8"><title>Lecture</title><link rel="icon" href="data:,">
<script type="module" src="/embed.js"></script></head>
<body><ode-playground scenario="rk4-regoin" readonly></ode-playground></body></html>`;
const site = useSite({ '/lecture.html': LECTURE });

/** The settings a `#v1=` fragment carries (base64url JSON). */
function linkPayload(url) {
  const hash = new URL(url).hash;
  assert.match(hash, /^#v1=/);
  return JSON.parse(Buffer.from(hash.slice('#v1='.length), 'base64url').toString('utf8'));
}

/** Waits until the page's own link has `value` at `path` ("params.k") of its payload. */
function linkSays(page, path, value) {
  return page.waitForFunction(
    ([keys, want]) => {
      const hash = document.location.hash;
      if (!hash.startsWith('#v1=')) return false;
      let p = JSON.parse(globalThis.atob(hash.slice(4).replace(/-/g, '+').replace(/_/g, '/')));
      for (const key of keys) p = p?.[key];
      return p === want;
    },
    [path.split('.'), value],
  );
}

const settled = (page) => page.waitForFunction(() => ['ok', 'warning'].includes(document.body.dataset.status), null, { timeout: 20000 });

test('editing a param in the text changes its field, the run and the link; a typed field holds until the text changes it', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=custom&method=rk4`);
  await page.waitForSelector('input[data-param="k"]', { state: 'visible', timeout: 15000 });
  await settled(page);
  const text = await page.inputValue('#system');
  assert.match(text, /param k = 100, c = 0\.5/);
  assert.equal(await page.inputValue('input[data-param="k"]'), '100');
  const before = await stat(page, 'energy drift');

  await page.fill('#system', text.replace('param k = 100', 'param k = 4'));
  await page.waitForFunction(() => document.querySelector('input[data-param="k"]')?.value === '4');
  await page.waitForFunction((old) => document.querySelector('dd[data-stat="energy drift"]')?.textContent !== old, before);
  await linkSays(page, 'params.k', 4);
  let payload = linkPayload(page.url());
  assert.match(payload.system, /param k = 4, c = 0\.5/);
  assert.deepEqual(payload.params, { k: 4, c: 0.5 });

  // A value typed into the field overrides the text (and says so) …
  await page.fill('input[data-param="k"]', '9');
  await linkSays(page, 'params.k', 9);
  assert.match(await page.textContent('#params .param'), /text: 4/);
  // … while the text changes another parameter …
  await page.fill('#system', text.replace('param k = 100, c = 0.5', 'param k = 4, c = 0.6'));
  await page.waitForFunction(() => document.querySelector('input[data-param="c"]')?.value === '0.6');
  assert.equal(await page.inputValue('input[data-param="k"]'), '9');
  // … until the text changes that parameter again.
  await page.fill('#system', text.replace('param k = 100, c = 0.5', 'param k = 5, c = 0.6'));
  await page.waitForFunction(() => document.querySelector('input[data-param="k"]')?.value === '5');
  await linkSays(page, 'params.k', 5);
  payload = linkPayload(page.url());
  assert.deepEqual(payload.params, { k: 5, c: 0.6 });
  assert.match(payload.system, /param k = 5, c = 0\.6/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a state without an initial value is an error under the editor, at its equation', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=custom&method=rk4`);
  await page.waitForSelector('input[data-param="k"]', { state: 'visible', timeout: 15000 });
  await page.fill('#system', "param k = 4\nx' = v\nv' = -k*x\nx(0) = 1");
  await page.waitForSelector('#system-error:not([hidden])');
  assert.match(await page.textContent('#system-error'), /^line 3, column 1: "v" has no initial value; add a line v\(0\) = …/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an unknown scenario id is an error on the page, with the id it was likely meant to be', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?scenario=rk4-regoin`);
  await settled(page);
  assert.ok(await page.isVisible('#caption'));
  assert.equal(await page.textContent('#caption-title'), 'Unknown scenario');
  assert.match(await page.textContent('#caption-text'), /no scenario "rk4-regoin"; did you mean "rk4-region"\?/);
  assert.equal(await page.getAttribute('#caption', 'role'), 'alert');
  // The page still works: the default run is drawn and a real scenario opens.
  assert.ok(Number(await stat(page, 'steps')) > 0);
  await page.selectOption('#scenario', 'rk4-region');
  await page.waitForFunction(() => document.querySelector('#caption-title')?.textContent !== 'Unknown scenario');
  assert.equal(await page.getAttribute('#caption', 'role'), null);

  const bogus = await open(site.browser, `${site.server.url}?scenario=bogus`);
  await settled(bogus.page);
  const said = await bogus.page.textContent('#caption-text');
  assert.match(said, /no scenario "bogus"\./);
  assert.doesNotMatch(said, /did you mean/);
  assert.deepEqual([...errors, ...bogus.errors], []);
  await page.close();
  await bogus.page.close();
});

test('an unknown scenario id in an <ode-playground> embed is an error inside the frame', async () => {
  const page = await site.browser.newPage({ viewport: { width: 1100, height: 1200 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${site.server.url}lecture.html`);
  const frame = page.frameLocator('ode-playground iframe');
  await frame.locator('body[data-ready="true"]').waitFor({ timeout: 20000 });
  assert.ok(await frame.locator('#caption-text').isVisible());
  assert.match(await frame.locator('#caption-text').textContent(), /did you mean "rk4-region"\?/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("leaving a scenario's settings retires its caption; its own controls and Back keep it", async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?scenario=euler-pendulum-blowup`);
  await settled(page);
  const caption = await page.textContent('#caption-text');
  assert.ok(caption.length > 0);
  // h is a control the caption invites changing: the caption stays.
  const h = await page.inputValue('#h');
  await page.fill('#h', String(Number(h) / 2));
  await linkSays(page, 'h', Number(h) / 2);
  assert.ok(await page.isVisible('#caption-text'));
  assert.ok(!(await page.isVisible('#caption-left')));
  // Another model leaves the scenario: its caption gives way to a note and a way back.
  await page.selectOption('#model', 'van-der-pol');
  await page.waitForSelector('#caption-left', { state: 'visible' });
  assert.ok(!(await page.isVisible('#caption-text')));
  assert.match(await page.textContent('#caption-left'), /left this scenario's settings \(you changed the model\)/);
  await page.click('#caption-back');
  await page.waitForSelector('#caption-text', { state: 'visible' });
  await page.waitForFunction(() => document.querySelector('#model')?.value === 'pendulum');
  assert.equal(await page.textContent('#caption-text'), caption);
  assert.ok(!(await page.isVisible('#caption-left')));
  assert.deepEqual(errors, []);
  await page.close();
});

test('Copy link reopens the view that was open', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=rk4&view=trajectory`);
  await settled(page);
  await page.click('#tab-stability');
  await page.click('#copy-link');
  const link = await page.inputValue('#share-url');
  assert.equal(linkPayload(link).view, 'stability');
  assert.doesNotMatch(link, /[?&]view=/, 'the fragment, not a stale query, says which view');
  const copy = await open(site.browser, link);
  assert.equal(await copy.page.getAttribute('#tab-stability', 'aria-selected'), 'true');
  assert.ok(await copy.page.isVisible('#view-stability'));
  assert.deepEqual([...errors, ...copy.errors], []);
  await page.close();
  await copy.page.close();
});

test('the stats and the warning agree on where a blown-up run stopped', async () => {
  // RK4 on the pendulum with a stiff particle at h = 0.005 (hλ of the ±707i mode is
  // outside its region): it blows up within a second or two.
  const link = Buffer.from(JSON.stringify({ model: 'pendulum-particle', method: 'rk4', h: 0.005 })).toString('base64url');
  const { page, errors } = await open(site.browser, `${site.server.url}#v1=${link}`);
  await page.waitForFunction(() => document.body.dataset.status === 'warning', null, { timeout: 20000 });
  const warning = await page.textContent('#message');
  const named = Number(/\bt = (-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)/.exec(warning)?.[1]);
  assert.ok(Number.isFinite(named), warning);
  const reached = Number(await stat(page, 'reached t'));
  const failed = /^t = (\S+) → (\S+)$/.exec(await stat(page, 'failed step'));
  assert.ok(failed, 'a stopped run shows the step that failed');
  // The last point kept is where the failed step started; the warning names its end.
  assert.equal(Number(failed[1]), reached);
  assert.ok(Math.abs(Number(failed[2]) - named) <= 1e-6 * Math.abs(named), `${failed[2]} vs ${named}`);
  assert.ok(named > reached && named - reached <= 0.005 * (1 + 1e-9), 'one step of h apart');
  assert.deepEqual(errors, []);
  await page.close();
});
