// The mechanism view, the time cursor, the phase portrait and pinned runs in Chromium:
// every mechanical model draws itself, the pendulum's bob sits at (L sin θ, −L cos θ) of
// the run at the cursor's t, two pinned runs share the trajectory plot and survive a
// share link, and a typed system's `draw` lines are drawn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open, countColouredPixels } from './harness.mjs';

/** Pixels near each of `colours` in the canvas under `selector`, from one readback. */
function countColours(page, selector, colours) {
  return page.evaluate(
    ([sel, list]) => {
      const canvas = document.querySelector(`${sel} canvas`);
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      return list.map(([r, g, b]) => {
        let n = 0;
        for (let i = 0; i < data.length; i += 4) {
          if (Math.abs(data[i] - r) < 40 && Math.abs(data[i + 1] - g) < 40 && Math.abs(data[i + 2] - b) < 40 && data[i + 3] > 100) n++;
        }
        return n;
      });
    },
    [selector, colours],
  );
}

const site = useSite();
const MODELS = [
  'pendulum',
  'double-pendulum-rsda',
  'double-pendulum-stiff',
  'pendulum-particle',
  'bouncing-balls',
  'vehicle-stiff',
  'mass-spring-damper',
];
/** The first two pin colours (www/store.ts PIN_COLORS) and the live run's colour in the phase portrait. */
const PIN_1 = [245, 159, 0];
const PIN_2 = [116, 192, 252];
const LIVE = [31, 95, 191];

/** The shapes the mechanism canvas drew last, and the time it drew them for. */
async function drawn(page) {
  return page.evaluate(() => {
    const canvas = document.querySelector('#mechanism');
    return { t: Number(canvas.dataset.t), shapes: JSON.parse(canvas.dataset.shapes ?? '[]') };
  });
}

/** Pixels of the canvas that are not white (something is drawn). */
function inkedPixels(page, selector) {
  return page.evaluate((sel) => {
    const canvas = document.querySelector(sel);
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] < 200 || data[i + 1] < 200 || data[i + 2] < 200) n++;
    return n;
  }, selector);
}

/** Moves the time cursor to `position` of its 0…max range as a user's drag would. */
async function moveCursor(page, position) {
  await page.evaluate((p) => {
    const slider = document.querySelector('#time');
    slider.value = String(p);
    slider.dispatchEvent(new window.Event('input', { bubbles: true }));
  }, position);
}

for (const model of MODELS) {
  test(`the ${model} mechanism is drawn from its run`, async () => {
    const { page, errors } = await open(site.browser, `${site.server.url}?model=${model}&method=rk4`);
    await page.waitForFunction(() => (document.querySelector('#mechanism')?.dataset.shapes ?? '[]') !== '[]');
    assert.ok(await page.isVisible('#mechanism'));
    const { shapes } = await drawn(page);
    assert.ok(shapes.length >= 3, `${shapes.length} shapes`);
    assert.ok((await inkedPixels(page, '#mechanism')) > 250, 'mechanism pixels');
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('moving the time cursor moves the pendulum: the bob is at (L sin θ, −L cos θ) of the run at t', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=rk4`);
  await page.waitForFunction(() => (document.querySelector('#mechanism')?.dataset.shapes ?? '[]') !== '[]');
  const sol = await page.evaluate(async () => {
    const s = await window.odelab.solve({ model: 'pendulum', method: 'rk4', t1: 10, h: 0.01, params: { g: 9.81, L: 1 } });
    return { t: Array.from(s.t), theta: Array.from(s.y).filter((_, i) => i % 2 === 0) };
  });
  const thetaAt = (time) => {
    const i = Math.min(sol.t.findLastIndex((x) => x <= time), sol.t.length - 2);
    const s = (time - sol.t[i]) / (sol.t[i + 1] - sol.t[i]);
    return sol.theta[i] + s * (sol.theta[i + 1] - sol.theta[i]);
  };
  const bobs = [];
  for (const position of [0, 333, 1234]) {
    await moveCursor(page, position);
    const { t, shapes } = await drawn(page);
    assert.ok(Math.abs(t - (position / 2000) * 10) < 1e-9, `cursor t ${t}`);
    const bob = shapes.find((s) => s.kind === 'ball');
    const theta = thetaAt(t);
    assert.ok(Math.abs(bob.x - Math.sin(theta)) < 1e-9, `x ${bob.x} vs ${Math.sin(theta)} at t = ${t}`);
    assert.ok(Math.abs(bob.y + Math.cos(theta)) < 1e-9, `y ${bob.y} vs ${-Math.cos(theta)} at t = ${t}`);
    bobs.push(bob);
  }
  assert.ok(Math.hypot(bobs[1].x - bobs[0].x, bobs[1].y - bobs[0].y) > 0.1, 'the bob moved');
  assert.equal(await page.textContent('#time-t'), 't = 6.17');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the phase portrait draws θ against ω for the pendulum', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=euler`);
  await page.waitForFunction(() => document.querySelector('#plot-phase')?.dataset.curves === '1');
  assert.equal(await page.inputValue('#phase-x'), 'θ');
  assert.equal(await page.inputValue('#phase-y'), 'ω');
  assert.ok((await countColouredPixels(page, '#plot-phase', LIVE)) > 300, 'phase curve drawn');
  assert.deepEqual(errors, []);
  await page.close();
});

test('pinning Euler then RK4 lists both, draws both on the trajectory plot, and a copied link restores them', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=euler`);
  await page.click('#pin-run');
  await page.selectOption('#method', 'rk4');
  await page.waitForFunction(() => document.querySelector('dd[data-stat="f-evaluations"]')?.textContent === '4000');
  await page.click('#pin-run');
  const listed = await page.$$eval('#runs li', (items) => items.map((li) => li.dataset.method));
  assert.deepEqual(listed, ['euler', 'rk4']);
  assert.match(await page.textContent('#runs li:first-child'), /Explicit Euler, h = 0\.01 · 1000 f-evaluations/);
  // The pendulum has no exact solution: each pin's error at its end is measured against
  // a dp45 reference run in the worker; Euler's is far larger than RK4's at the same h.
  await page.waitForFunction(() => [...document.querySelectorAll('#runs li')].every((li) => / \(vs dp45/.test(li.textContent)));
  const pinErrors = await page.$$eval('#runs li', (items) => items.map((li) => Number(/error at t = 10 ([^ ]+) \(vs dp45/.exec(li.textContent)[1])));
  assert.ok(pinErrors[0] > 1e-2 && pinErrors[1] < 1e-6, `Euler and RK4 errors at t = 10: ${pinErrors}`);
  // Pins are drawn translucent: the RK4 pin lies on the live RK4 run and blends with it,
  // so the live run moves off both pins (Euler at h = 0.02) to show each alone.
  await page.selectOption('#method', 'euler');
  await page.fill('#h', '0.02');
  await page.waitForFunction(() => document.querySelector('dd[data-stat="f-evaluations"]')?.textContent === '500');
  const [euler, rk4] = await countColours(page, '#plot-trajectory', [PIN_1, PIN_2]);
  assert.ok(euler > 100, `Euler pin drawn (${euler} pixels)`);
  assert.ok(rk4 > 100, `RK4 pin drawn (${rk4} pixels)`);
  assert.ok((await countColouredPixels(page, '#plot-phase', PIN_1)) > 100, 'Euler pin in the phase portrait');

  await page.click('#copy-link');
  const link = await page.inputValue('#share-url');
  const fresh = await open(site.browser, link);
  await fresh.page.waitForFunction(() => document.querySelectorAll('#runs li').length === 2);
  const restored = await fresh.page.$$eval('#runs li', (items) => items.map((li) => li.dataset.method));
  assert.deepEqual(restored, ['euler', 'rk4']);
  assert.ok((await countColouredPixels(fresh.page, '#plot-trajectory', PIN_1)) > 100, 'restored Euler pin drawn');
  assert.deepEqual(fresh.errors, []);
  await fresh.page.close();

  // Removing a pin takes it off the list.
  await page.click('#runs li:first-child .remove-pin');
  assert.deepEqual(await page.$$eval('#runs li', (items) => items.map((li) => li.dataset.method)), ['rk4']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a typed pendulum with draw lines is drawn from its own states', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=pendulum&method=rk4`);
  await page.selectOption('#model', 'custom');
  await page.fill(
    '#system',
    [
      'param g = 9.81, L = 2',
      "th' = w",
      "w' = -g/L*sin(th)",
      'th(0) = 0.5, w(0) = 0',
      'draw rod(0, 0, L*sin(th), -L*cos(th))',
      'draw ball(L*sin(th), -L*cos(th), 0.1)',
    ].join('\n'),
  );
  // The built-in pendulum drew rod, pin, ball; the typed one draws what its lines say.
  // (Kinds compared as a list: a pattern over the JSON also matched rod, pin, ball, the
  // built-in pendulum still shown while the typed system loads the labs package.)
  await page.waitForFunction(() => {
    const shapes = document.querySelector('#mechanism')?.dataset.shapes;
    return shapes !== undefined && JSON.parse(shapes).map((s) => s.kind).join() === 'rod,ball';
  });
  const { t, shapes } = await drawn(page);
  assert.equal(t, 0);
  assert.deepEqual(
    shapes.map((s) => s.kind),
    ['rod', 'ball'],
  );
  const ball = shapes[1];
  assert.ok(Math.abs(ball.x - 2 * Math.sin(0.5)) < 1e-12 && Math.abs(ball.y + 2 * Math.cos(0.5)) < 1e-12, JSON.stringify(ball));
  assert.ok((await inkedPixels(page, '#mechanism')) > 300);
  // The drawing's outputs are not offered as plots.
  assert.ok(!(await page.isVisible('#fig-outputs')));
  assert.deepEqual(errors, []);
  await page.close();
});

test('Animate plays the stored run to its end; step by step the cursor lands on stored steps', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?model=mass-spring-damper&method=rk4`);
  await page.waitForFunction(() => (document.querySelector('#mechanism')?.dataset.shapes ?? '[]') !== '[]');
  const steps = await page.textContent('dd[data-stat="steps"]');
  await page.selectOption('#speed', '10');
  await page.click('#animate');
  await page.waitForFunction(() => document.querySelector('#animate')?.textContent === 'Animate', null, { timeout: 15000 });
  assert.equal(Number(await page.getAttribute('#time', 'data-t')), 5);
  // Played from the stored run, not solved again: the statistics are the run's.
  assert.equal(await page.textContent('dd[data-stat="steps"]'), steps);
  assert.equal(await page.getAttribute('body', 'data-status'), 'ok');

  await page.check('#step-mode');
  await moveCursor(page, 333);
  const t = Number(await page.getAttribute('#time', 'data-t'));
  assert.ok(Math.abs(t * 100 - Math.round(t * 100)) < 1e-9 && Math.abs(t - 0.8325) <= 0.005, `t = ${t} is a step of h = 0.01`);
  assert.deepEqual(errors, []);
  await page.close();
});
