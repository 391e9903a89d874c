// Where the first plot's time goes: traces cold loads of the built site (dist/) in
// headless Chromium, as bench/first_plot.mjs loads it (fresh context, the same probe),
// and lays out the critical path of each load from the trace, in milliseconds since
// navigation start: the entry script, the engine worker's start, the run package's
// compile, the views' chunk, the catalogue, the run, its drawing, data-ready and the
// first frame with ink, and the main thread's busy time before it. A diagnostic for
// the notes in BENCHMARKS.md, not a benchmark: tracing costs time itself, so the totals
// run a little above bench/first_plot.mjs's, and its phases are what to compare.
//
//   node bench/first_plot_trace.mjs LOADS [OUT_PREFIX]
//
// Prints one JSON object: every load's phases and their medians. With OUT_PREFIX the
// traces are kept (OUT_PREFIX-N.json, for chrome://tracing or Perfetto).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serveStatic, launch } from '../tests/e2e/harness.mjs';
import { DONE, median, probe } from './first_plot_probe.mjs';

const LOADS = Number(process.argv[2] ?? '3');
const KEEP = process.argv[3];
const WARMUP = 2;
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
// Timeline events without the V8 compiler's (which slow a load down by half).
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'toplevel', 'v8.wasm', 'loading'];
const MAIN = 'CrRendererMain';
const WORKER = 'DedicatedWorker thread';

/** The phases of one load from its trace events and the probe's marks (ready, plot). */
function phases(events, pageUrl, marks) {
  const threads = new Map(events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
  const thread = (e) => threads.get(`${e.pid}:${e.tid}`);
  // Navigation start of the page itself (other documents start too: about:blank, images).
  const start = events.find((e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL === pageUrl);
  if (!start) throw new Error(`no navigationStart for ${pageUrl} in the trace`);
  const renderer = start.pid;
  const at = (ts) => (ts - start.ts) / 1000;
  const slices = (name, threadName) =>
    events
      .filter((e) => e.ph === 'X' && e.pid === renderer && e.name === name && thread(e) === threadName)
      .sort((a, b) => a.ts - b.ts);
  const urls = new Map(events.filter((e) => e.name === 'ResourceSendRequest').map((e) => [e.args.data.requestId, e.args.data.url]));
  const response = (pattern) => events.find((e) => e.name === 'ResourceReceiveResponse' && pattern.test(urls.get(e.args.data.requestId) ?? ''));
  const end = (e) => (e ? at(e.ts + e.dur) : undefined);
  const pageEvaluations = slices('v8.evaluateModule', MAIN);
  const workerStart = events.filter((e) => e.pid === renderer && thread(e) === WORKER && e.name === 'RunTask').sort((a, b) => a.ts - b.ts)[0];
  const workerMessages = slices('HandlePostMessage', WORKER);
  const pageMessages = slices('HandlePostMessage', MAIN);
  const compiled = events.filter((e) => e.pid === renderer && e.name === 'wasm.FinishStreaming').sort((a, b) => a.ts - b.ts)[0];
  const icon = events.find((e) => e.pid === renderer && thread(e) === MAIN && e.name === 'Receive mojo message' && /ImageDownloader/.test(JSON.stringify(e.args)));
  const workerRequested = events.find((e) => /CreateWorkerHostAndStartScriptLoad/.test(e.name));
  const plotTs = start.ts + marks.plot * 1000;
  const entry = response(/\/index-[^/]*\.js$/);
  // The page's messages from the worker: the catalogue, then the run (the longest task: it draws).
  const [catalogue, run] = pageMessages;
  return {
    entryScriptResponse: entry && at(entry.ts),
    entryEvaluated: end(pageEvaluations[0]),
    workerRequested: workerRequested && at(workerRequested.ts),
    workerThreadStarts: workerStart && at(workerStart.ts),
    workerScriptEvaluated: end(slices('v8.evaluateModule', WORKER)[0]),
    runPackageCompiled: compiled && end(compiled),
    pageIconMs: icon && icon.dur / 1000,
    viewsEvaluated: end(pageEvaluations[1]),
    workerFirstMessage: workerMessages[0] && at(workerMessages[0].ts),
    catalogueArrives: catalogue && at(catalogue.ts),
    runArrives: run && at(run.ts),
    drawingTheRunMs: run && run.dur / 1000,
    ready: marks.ready,
    plot: marks.plot,
    mainThreadBusyMs: slices('RunTask', MAIN).reduce((sum, e) => sum + Math.max(0, Math.min(e.ts + e.dur, plotTs) - Math.max(e.ts, start.ts)), 0) / 1000,
  };
}

const server = await serveStatic(DIST);
const browser = await launch();
const loads = [];
try {
  for (let i = 0; i < WARMUP + LOADS; i++) {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(probe);
    const finished = page.waitForEvent('console', { predicate: (m) => m.text() === DONE, timeout: 15000 });
    const traced = i >= WARMUP;
    if (traced) await browser.startTracing(page, { categories: CATEGORIES });
    await page.goto(server.url, { waitUntil: 'commit' });
    await finished;
    const marks = await page.evaluate(() => window.__firstPlot);
    if (traced) {
      const trace = await browser.stopTracing();
      if (KEEP) writeFileSync(`${KEEP}-${i - WARMUP}.json`, trace);
      loads.push(phases(JSON.parse(trace.toString('utf8')).traceEvents, server.url, marks));
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
const round = (v) => (v === undefined ? null : Math.round(v * 10) / 10);
const medians = Object.fromEntries(Object.keys(loads[0] ?? {}).map((k) => [k, round(median(loads.map((l) => l[k]).filter((v) => v !== undefined)))]));
console.log(JSON.stringify({ medians, loads: loads.map((l) => Object.fromEntries(Object.entries(l).map(([k, v]) => [k, round(v)]))) }, null, 1));
