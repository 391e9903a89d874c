// Time to first plot of the built site (dist/) in headless Chromium, for `npm run bench`
// Each run is a fresh browser context (cold HTTP cache, fresh worker and
// wasm compile) served by the e2e tests' static server on loopback. Times are
// performance.now() in the page, i.e. milliseconds since navigation start:
//   ready: body[data-ready="true"] (catalogues read, first run solved and drawn);
//   plot:  the first animation frame in which the trajectory canvas has ink on it.
// It also records every .wasm the page fetched by then (path and bytes as served,
// uncompressed): the "small first load" is the run package alone.
// Prints one JSON object: median and every run. The browser is warmed by WARMUP loads
// first, reported (`warmup`) but not in the median: a just-launched Chromium's first
// loads also pay for its own start (renderer processes, font caches; 330–380 ms
// against 240–310 ms afterwards in one run of 15), which no visitor's running browser
// pays; every measured load still has a cold HTTP cache and compiles the wasm afresh.
//
//   node bench/first_plot.mjs RUNS
import { fileURLToPath } from 'node:url';
import { serveStatic, launch } from '../tests/e2e/harness.mjs';
import { DONE, median, probe } from './first_plot_probe.mjs';

const RUNS = Number(process.argv[2] ?? '7');
const WARMUP = 2;
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

const server = await serveStatic(DIST);
const browser = await launch();
const runs = [];
const warmup = [];
const errors = [];
try {
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    // The context sees the worker's fetches too.
    const wasm = [];
    context.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (path.endsWith('.wasm')) wasm.push(response.body().then((body) => ({ path, bytes: body.length })));
    });
    const page = await context.newPage();
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.addInitScript(probe);
    // Waiting with `page.waitForFunction` (or for the load event) would have Playwright
    // evaluate its own ~100 KB script in the page while it boots: 8–30 ms of the main
    // thread (seen in a trace) that no visitor's page spends. The probe's console
    // message needs no script in the page.
    const finished = page.waitForEvent('console', { predicate: (m) => m.text() === DONE, timeout: 15000 });
    await page.goto(server.url, { waitUntil: 'commit' });
    await finished;
    const marks = await page.evaluate(() => window.__firstPlot);
    (i < WARMUP ? warmup : runs).push({ ...marks, wasm: await Promise.all(wasm) });
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(
  JSON.stringify({
    runs,
    warmup,
    readyMs: median(runs.map((r) => r.ready)),
    plotMs: median(runs.map((r) => Math.max(r.ready, r.plot))),
    firstPlotMs: median(runs.map((r) => r.plot)),
    wasmBeforePlot: runs[0]?.wasm ?? [],
    errors,
  }),
);
