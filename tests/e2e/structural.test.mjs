// The second-order view in Chromium: spectral radius, damping ratio and period error
// against ωh are drawn for the overlaid methods, the ρ∞ slider changes generalized-α's
// curves and its ρ(ωh → ∞), and a run with generalized-α (which the first-load package
// leaves out) is answered by the whole engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open, countColouredPixels } from './harness.mjs';

const site = useSite();
/** generalized-α is the first method: the plots' first colour (www/theme.ts PALETTE[0]). */
const FIRST = [0x1f, 0x5f, 0xbf];
const GA_FACT = 'dd[data-method^="ρ(ωh → ∞), generalized-α"]';

test('the second-order view draws three plots and the ρ∞ slider changes generalized-α', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=rk4&view=structural`);
  await page.waitForFunction(() => document.querySelector('#view-structural')?.dataset.state === 'ok');
  for (const plot of ['#plot-structural-rho', '#plot-structural-damping', '#plot-structural-period']) {
    const n = await countColouredPixels(page, plot, FIRST);
    assert.ok(n > 100, `${plot}: ${n} pixels of generalized-α's colour`);
  }
  assert.equal(await page.textContent(GA_FACT), '0.8');
  // HHT-α at the same ρ∞ (α = −1/9): different curves, the same limit.
  assert.equal(await page.textContent('dd[data-method^="ρ(ωh → ∞), HHT-α"]'), '0.8');
  // RK4 is explicit: no limit.
  assert.match(await page.textContent('dd[data-method="ρ(ωh → ∞), RK4"]'), /^∞/);
  const before = await page.textContent('#plot-structural-rho-summary');
  const drawn = await page.getAttribute('#view-structural', 'data-drawn');
  await page.evaluate(() => {
    const slider = document.querySelector('#structural-rho');
    slider.value = '0.3';
    slider.dispatchEvent(new window.Event('input', { bubbles: true }));
  });
  await page.waitForFunction((d) => {
    const v = document.querySelector('#view-structural');
    return v?.dataset.rhoInf === '0.3' && v.dataset.drawn !== d && v.dataset.state === 'ok';
  }, drawn);
  assert.equal(await page.textContent(GA_FACT), '0.3');
  assert.equal(await page.textContent('#structural-rho-value'), '0.3');
  // HHT-α cannot damp more than ρ∞ = 1/2.
  assert.equal(await page.textContent('dd[data-method^="ρ(ωh → ∞), HHT-α"]'), '0.5');
  const after = await page.textContent('#plot-structural-rho-summary');
  assert.notEqual(after, before, 'the spectral-radius plot describes new curves');
  // Unticking a method removes its curves.
  await page.uncheck('#structural-methods input[value="generalized-alpha"]');
  await page.waitForFunction(() => !document.querySelector('dd[data-method^="ρ(ωh → ∞), generalized-α"]'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a run with generalized-α and ρ∞ = 0.5 goes to the whole engine and finishes', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=mass-spring-damper&method=generalized-alpha`);
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  assert.equal(await page.isVisible('#method-params-box'), true);
  assert.equal(await page.isVisible('#param-rho-inf'), true);
  assert.equal(await page.isVisible('#param-beta'), false);
  await page.fill('#param-rho-inf', '0.5');
  await page.dispatchEvent('#param-rho-inf', 'change');
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  // A ρ∞ outside [0, 1] is refused with the reason.
  await page.fill('#param-rho-inf', '1.5');
  await page.dispatchEvent('#param-rho-inf', 'change');
  await page.waitForFunction(() => document.body.dataset.status === 'error');
  assert.match(await page.textContent('#message'), /rhoInf/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("Newmark's β below γ/2 is named conditionally stable with its critical ωh, and a blow-up's advice names β", async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=mass-spring-damper&method=newmark`);
  await page.waitForFunction(() => document.body.dataset.status === 'ok');
  // The default β = ¼(γ + ½)² is unconditionally stable: no note.
  assert.equal(await page.isHidden('#newmark-note'), true);
  await page.fill('#param-beta', '0.1');
  await page.waitForSelector('#newmark-note:not([hidden])');
  // 1/√(0.25 − 0.1) = 2.582 (Hughes, The Finite Element Method, §9.1).
  assert.match(await page.textContent('#newmark-note'), /β = 0\.1 is below γ\/2 = 0\.25: conditionally stable.*ωh ≤ 1\/√\(γ\/2 − β\) = 2\.582/);
  await page.fill('#param-beta', '0.3');
  await page.waitForSelector('#newmark-note', { state: 'hidden' });
  // Central difference (β = 0) at h = 0.3 on ω = 10: ωh = 3 > 2, it blows up (past
  // 1e150 within 120 s: |λ| ≈ 6.9 a step).
  await page.fill('#param-beta', '0');
  await page.dispatchEvent('#param-beta', 'change');
  await page.fill('#t1', '120');
  await page.fill('#h', '0.3');
  await page.waitForFunction(() => /Newmark's β = 0 is below γ\/2 = 0\.25/.test(document.querySelector('#message')?.textContent ?? ''));
  assert.match(await page.textContent('#newmark-note'), /= 2 \(Hughes/);
  assert.deepEqual(errors, []);
  await page.close();
});
