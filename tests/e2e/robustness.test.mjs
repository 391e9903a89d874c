// Browser tests of what the page must never lose or do blindly: the editor's text is
// saved as it is typed (valid or not) and survives a reload; a parameter named ω rides
// through a link; an unknown model id in a link is said; a link whose run did not
// finish last time is not run again without asking.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open } from './harness.mjs';

const site = useSite();

/** A share link's fragment for `settings` (base64url of JSON, as www/share.ts writes it). */
function link(settings) {
  return `#v1=${Buffer.from(JSON.stringify(settings), 'utf8').toString('base64url')}`;
}

test('the editor text is saved as typed, with a parse error, and a reload restores it', async () => {
  const context = await site.browser.newContext();
  const { page } = await open(site.browser, `${site.server.url}?model=custom&method=rk4`, context);
  await page.waitForFunction(() => document.body.dataset.status === 'ok' || document.body.dataset.status === 'warning');
  const typed = "x' = v\nv' = -4*x +\nx(0) = 1, v(0) = 0";
  await page.fill('#system', typed);
  // The page has not run it (it does not parse); a reload must still bring it back.
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.inputValue('#system'), typed);
  // A field typed with an invalid value is kept as well (an empty t1 reads as NaN).
  await page.fill('#t1', '7');
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.inputValue('#t1'), '7');
  assert.equal(await page.inputValue('#system'), typed);
  await context.close();
});

test('a parameter named ω rides through a share link and a reload', async () => {
  const system = "param ω = 2\nx' = v\nv' = -ω^2*x\nx(0) = 1, v(0) = 0";
  const url = `${site.server.url}${link({ model: 'custom', method: 'rk4', system, h: 0.01, t1: 2, params: { ω: 3 } })}`;
  const { page, errors } = await open(site.browser, url);
  await page.waitForFunction(() => document.querySelector('input[data-param="ω"]')?.value === '3');
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  // The fragment the run wrote carries ω again.
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForFunction(() => document.querySelector('input[data-param="ω"]')?.value === '3');
  assert.doesNotMatch((await page.textContent('#message')) ?? '', /could not carry/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a link naming an unknown model says so instead of opening another model silently', async () => {
  const { page } = await open(site.browser, `${site.server.url}${link({ model: 'no-such-model', method: 'rk4', h: 0.01 })}`);
  await page.waitForFunction(() => /There is no model "no-such-model"/.test(document.querySelector('#message')?.textContent ?? ''));
  await page.close();
});

test('a query naming an unknown view says so and lists the views there are', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=mass-spring-damper&method=generalized-alpha&view=second-order`);
  await page.waitForFunction(() => /There is no view "second-order"/.test(document.querySelector('#message')?.textContent ?? ''));
  assert.match(await page.textContent('#message'), /"structural" \(Second-order \(ωh\)\)/);
  assert.equal(await page.getAttribute('#tab-trajectory', 'aria-selected'), 'true');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a link whose run did not finish (the page was left during it) is not run again without asking', async () => {
  const context = await site.browser.newContext();
  // 1,000 states of RK4 for 5·10⁵ steps: far longer than this test waits.
  const system = "param N = 1000\nu[i]' = -u[i] for i = 1..N\nu[i](0) = 1 for i = 1..N";
  const url = `${site.server.url}${link({ model: 'custom', method: 'rk4', system, h: 1e-4, t1: 50 })}`;
  // Not `open`: the page is ready only once its first run has finished.
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.status === 'computing');
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForFunction(() => /did not finish running last time/.test(document.querySelector('#message')?.textContent ?? ''));
  assert.notEqual(await page.evaluate(() => document.body.dataset.status), 'computing');
  assert.equal(await page.textContent('#message-fix'), 'Run them');
  assert.ok(await page.isVisible('#message-fix'));
  // The settings are on the page, unrun.
  assert.equal(await page.inputValue('#system'), system);
  await context.close();
});
