// What a student or lecturer does first, in each engine a course's browsers use
// (Chromium, Firefox, WebKit — see engines.mjs): the first plot, the ξ-plane map, a
// typed system, an embed in a lecture page on another origin, a homework check. The
// deeper behaviour is pinned by the Chromium suite (tests/e2e/); this suite pins that
// the same page works in all three engines.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveStatic, DIST } from '../e2e/harness.mjs';
import { ENGINES, startBrowser } from './engines.mjs';

/** Pixels of a canvas that are not the plot's background (white or the dark theme's). */
const drawnPixels = (selector) => `(() => {
  const c = document.querySelector(${JSON.stringify(selector)});
  if (!c || !c.width) return 0;
  const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
  let n = 0;
  for (let i = 0; i < data.length; i += 4) {
    const [r, g, b, a] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
    if (a > 100 && Math.max(r, g, b) - Math.min(r, g, b) > 60) n++;
  }
  return n;
})()`;

const READY = `return document.body.dataset.ready === 'true' && document.body.dataset.status === 'ok'`;

for (const engine of ENGINES) {
  describe(`smoke in ${engine}`, () => {
    let browser;
    let site;
    let host;
    before(async () => {
      site = await serveStatic(DIST);
      // A lecture page on another origin (another port), loading the embed script
      // the way the README tells a lecturer to.
      host = await serveStatic(DIST, {
        '/lecture.html': `<!doctype html><html><head><meta charset="utf-8"><title>Lecture</title>
          <link rel="icon" href="data:,"><script src="${site.url}embed.js"></script></head>
          <body><h1>Lecture 7</h1><ode-playground scenario="euler-pendulum-blowup" readonly></ode-playground></body></html>`,
      });
      browser = await startBrowser(engine);
    });
    after(async () => {
      await browser?.close();
      await site?.close();
      await host?.close();
    });

    test('the first plot is drawn', async () => {
      const tab = await browser.open(site.url);
      try {
        await tab.waitFor(READY, { what: 'the first run' });
        const steps = Number(await tab.run(`return document.querySelector('dd[data-stat="steps"]')?.textContent`));
        assert.ok(steps > 0, `steps shown: ${steps}`);
        await tab.waitFor(`return ${drawnPixels('#plot-trajectory canvas')} > 500`, { what: 'the trajectory plot drawn' });
      } finally {
        await tab.close();
      }
    });

    test('the ξ-plane map and its facts are computed', async () => {
      const tab = await browser.open(`${site.url}?scenario=pendulum-particle-rk4&view=stability`);
      try {
        await tab.waitFor(`return document.body.dataset.stability === 'ok'`, { what: 'the stability map' });
        const intercept = await tab.run(`return document.querySelector('dd[data-fact="real-axis intercept"]')?.textContent`);
        assert.match(intercept, /^-2\.785293563/);
        const drawn = await tab.run(`return ${drawnPixels('#plane')}`);
        assert.ok(drawn > 10000, `coloured pixels in the map: ${drawn}`);
      } finally {
        await tab.close();
      }
    });

    test('a typed system runs in the page and through the console API', async () => {
      const tab = await browser.open(`${site.url}?scenario=your-system`);
      try {
        await tab.waitFor(READY, { what: 'the first run' });
        await tab.run(`
          const box = document.querySelector('#system');
          box.value = "param k = 3\\nx' = -k*x\\nx(0) = 1";
          box.dispatchEvent(new Event('input', { bubbles: true }));`);
        await tab.waitFor(
          `return document.body.dataset.status === 'ok' && /k/.test(document.querySelector('#params')?.textContent ?? '')`,
          { what: 'the typed system run, with its parameter k' },
        );
        const end = await tab.run(`
          const s = await window.odelab.solve({ system: "x' = -3*x\\nx(0) = 1", method: 'dp45', t1: 1, rtol: 1e-10, atol: 1e-12 });
          return s.y[s.y.length - 1];`);
        assert.ok(Math.abs(end - Math.exp(-3)) < 1e-8, `x(1) = ${end}, exact ${Math.exp(-3)}`);
      } finally {
        await tab.close();
      }
    });

    test('an embed in a lecture page on another origin shows its scenario', async () => {
      const tab = await browser.open(`${host.url}lecture.html`);
      try {
        await tab.waitFor(`return document.querySelector('ode-playground iframe')?.src.startsWith(${JSON.stringify(site.url)})`, {
          what: 'the embed frame',
        });
        await tab.waitFor(READY, { frame: 0, what: 'the embedded page ready' });
        const title = await tab.run(`return document.querySelector('#caption-title')?.textContent`, { frame: 0 });
        assert.equal(title, 'Explicit Euler gains energy on the pendulum');
        // The frame reports its height to the lecture page, which follows it.
        await tab.waitFor(`return parseFloat(document.querySelector('ode-playground iframe').style.height) > 300`, {
          what: 'the frame to follow the reported height',
        });
      } finally {
        await tab.close();
      }
    });

    test('a homework answer is checked', async () => {
      const tab = await browser.open(`${site.url}?assignment=examples/assignments/stability.json&model=mass-spring-damper&method=rk4`);
      try {
        await tab.waitFor(`return document.body.dataset.homework === 'ready'`, { what: 'the assignment' });
        await tab.run(`
          const input = document.querySelector('[data-task="euler-limit"] .hw-value');
          input.value = '0.005';
          input.dispatchEvent(new Event('input', { bubbles: true }));
          document.querySelector('[data-task="euler-limit"] .hw-check').click();`);
        const result = await tab.waitFor(`return ['passed', 'failed'].find((r) => r === document.querySelector('[data-task="euler-limit"]')?.dataset.result)`, {
          what: 'the check result',
        });
        assert.equal(result, 'passed');
      } finally {
        await tab.close();
      }
    });
  });
}
