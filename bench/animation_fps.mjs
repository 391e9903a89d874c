// Frame rate of "Animate" (the stored run played back in real time) in headless
// Chromium, for `npm run bench`: the half-car over the bump, whose frame redraws the
// mechanism, the phase portrait's cursor and a marker on each time plot. The baseline,
// measured on the same page just before, is a bare requestAnimationFrame loop (the most
// frames the browser gives any page on this machine); the ratio is what playback keeps.
// Also the script time of one cursor move (all views' redraws, no compositing).
// Prints one JSON object per case.
//
//   node bench/animation_fps.mjs RUNS
import { fileURLToPath } from 'node:url';
import { serveStatic, launch } from '../tests/e2e/harness.mjs';

const RUNS = Number(process.argv[2] ?? '3');
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const CASES = ['model=vehicle-stiff&method=ros4', 'model=vehicle-stiff&method=backward-euler'];

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
}

const server = await serveStatic(DIST);
const browser = await launch();
const results = [];
try {
  for (const query of CASES) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${server.url}?${query}`);
      await page.waitForSelector('body[data-ready="true"]');
      const baseline = await page.evaluate(
        () =>
          new Promise((resolve) => {
            let frames = 0;
            const start = performance.now();
            const tick = () => {
              frames++;
              if (performance.now() - start < 3000) requestAnimationFrame(tick);
              else resolve(frames / ((performance.now() - start) / 1000));
            };
            requestAnimationFrame(tick);
          }),
      );
      const moveMs = await page.evaluate(() => {
        const slider = document.querySelector('#time');
        const start = performance.now();
        for (let k = 0; k < 200; k++) {
          slider.value = String(k * 10);
          slider.dispatchEvent(new window.Event('input'));
        }
        const ms = (performance.now() - start) / 200;
        // Back to the start, so the playback below covers the whole run.
        slider.value = '0';
        slider.dispatchEvent(new window.Event('input'));
        return ms;
      });
      await page.click('#animate');
      await page.waitForFunction(() => document.querySelector('#animate')?.textContent === 'Animate', null, { timeout: 60000 });
      const fps = Number(await page.getAttribute('#time', 'data-fps'));
      const points = Number(await page.getAttribute('body', 'data-points'));
      runs.push({ fps, baseline, ratio: fps / baseline, moveMs, points });
      await context.close();
    }
    results.push({
      case: query,
      fps: median(runs.map((r) => r.fps)),
      baselineFps: median(runs.map((r) => r.baseline)),
      ratio: median(runs.map((r) => r.ratio)),
      cursorMoveMs: median(runs.map((r) => r.moveMs)),
      runs,
    });
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(JSON.stringify(results, null, 2));
