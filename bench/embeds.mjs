// Ten <ode-playground> embeds on one lecture page, in headless Chromium:
// dist/ on one origin, the lecture on another (as in tests/e2e/lecture.test.mjs).
//   tall: a 1200 × 20000 viewport, so all ten are near the viewport and start at once;
//   phone-sized: 1200 × 900, so only the embeds near the first screen start;
//   scrolled: 1200 × 900, each embed scrolled into view in turn until all ten are ready,
//     as a reader scrolling through the lecture (its times measure the scrolling);
//   all started, reader's screen: 1200 × 900, the ten embeds marked loading="eager", so
//     that all ten start with the page and stay, on a screen a reader has.
// For each: milliseconds from the lecture's navigation start to each embed's ready
// (body[data-ready], first run drawn), and the browser's memory once all visible embeds
// are ready: the proportional set size (PSS, shared pages split fairly) summed over the
// Chromium processes this script started, and the same for an empty page as baseline.
// Each layout is measured twice in the same run: with the engine the embeds of a page
// share (a SharedWorker, www/boot.ts) and with SharedWorker removed before any script
// runs, so that every embed starts its own worker and engine (the fallback, and what
// every embed did before the shared engine). The processes are also summed by kind
// (browser, gpu-process, renderer, utility): a viewport 20000 px tall makes the GPU
// process rasterise the whole lecture, which a reader's screen never does.
// An embed scrolled far past is released (www/embed.ts), so the scrolled layout's memory
// is that of the last few screens' embeds. With a second argument, a dist/ built from an
// earlier commit, each layout is also measured with that build's shared engine in the
// same run (`before`), alternated with this build's.
// `--floor=N` measures, N times, what any design must pay in the tall layout and on a
// reader's screen (all ten drawn, most of them below it): the ten
// embeds' visible canvases (their sizes as the embeds draw them at this width) drawn
// straight into the lecture page, without a frame, alone and with one read-only embed
// frame beside them (standing for one engine frame and its shared worker).
// The tall and all-started layouts also give the browser's own account of the memory
// above the empty page (`allocatorsMB`, Chromium's memory-infra dump summed over its
// processes): canvas backing stores, rasterised tiles, V8, Blink; shared memory appears in
// both processes that map it, so these are not added up to the total.
// Prints one JSON object. `--tall=N` measures only the tall layout with the shared
// engine, N times, alternating this build with the earlier one (the spread of a loaded
// machine shows in the N pairs); `--eager=N` the all-started layout on a reader's screen,
// N times, this build only.
//
//   node bench/embeds.mjs [before-dist/] [--tall=N | --eager=N | --floor=N]
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serveStatic, launch, lectureHtml, TEN_EMBEDS } from '../tests/e2e/harness.mjs';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const SCENARIOS = TEN_EMBEDS;

/**
 * PSS (kB) of every process descending from this one (the browser and its children), in
 * all and by kind; and `anonKb`, the part that is not a file's pages. A file page (the
 * browser's own code) shared with processes outside this set, as another Chromium on the
 * same machine, counts in PSS in proportion to how many map it, so PSS moves with what
 * else runs; anonymous and shared-memory pages (heaps, canvases, tiles) do not.
 */
function descendantsPss() {
  const parent = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parent.set(Number(pid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const ours = new Set([process.pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parent) {
      if (!ours.has(pid) && ours.has(ppid)) {
        ours.add(pid);
        grew = true;
      }
    }
  }
  ours.delete(process.pid);
  let kb = 0;
  let anonKb = 0;
  const byKind = {};
  for (const pid of ours) {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      const field = (name) => Number(rollup.match(new RegExp(`^${name}:\\s+(\\d+)`, 'm'))?.[1] ?? 0);
      const pss = field('Pss');
      anonKb += field('Pss_Anon') + field('Pss_Shmem');
      // Chromium rewrites its command line into one string: split on spaces too.
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
      const kind = args.find((a) => a.startsWith('--type='))?.slice(7) ?? 'browser';
      kb += pss;
      byKind[kind] = (byKind[kind] ?? 0) + pss;
    } catch {
      // gone meanwhile
    }
  }
  return { kb, anonKb, byKind };
}

const mb = (kb) => Math.round(kb / 1024);
const kindsMB = (byKind) => Object.fromEntries(Object.entries(byKind).map(([k, v]) => [k, mb(v)]));

/** Chromium's memory-infra dump: bytes by allocator (canvas, cc tiles, v8, …) over all processes. */
const ALLOCATORS = {
  canvas: 'canvas',
  gpuSharedImages: 'gpu/shared_images',
  tiles: 'cc/tile_memory',
  compositorResources: 'cc/resource_memory',
  v8: 'v8',
  blinkGc: 'blink_gc',
  partitionAlloc: 'partition_alloc',
  malloc: 'malloc',
};
async function allocators(browser) {
  const cdp = await browser.newBrowserCDPSession();
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: ['disabled-by-default-memory-infra'], memoryDumpConfig: { triggers: [] } },
    transferMode: 'ReportEvents',
  });
  await cdp.send('Tracing.requestMemoryDump', { deterministic: true, levelOfDetail: 'detailed' });
  await cdp.send('Tracing.end');
  await complete;
  await cdp.detach();
  const bytes = Object.fromEntries(Object.keys(ALLOCATORS).map((k) => [k, 0]));
  for (const dump of events.filter((e) => e.ph === 'v')) {
    const found = dump.args?.dumps?.allocators ?? {};
    for (const [key, name] of Object.entries(ALLOCATORS)) bytes[key] += parseInt(found[name]?.attrs?.size?.value ?? '0', 16);
  }
  return bytes;
}
const allocatorsAboveMB = (now, empty) => Object.fromEntries(Object.keys(now).map((k) => [k, mb((now[k] - empty[k]) / 1024)]));

// In every frame: the wall-clock time its body became ready.
function probe() {
  new MutationObserver(() => {
    if (document.body?.dataset.ready === 'true' && window.__readyAt === undefined) window.__readyAt = performance.timeOrigin + performance.now();
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });
}

/** Before any script of any frame: no SharedWorker, so each embed runs its own engine. */
function withoutSharedWorker() {
  delete window.SharedWorker;
}

/**
 * A browser of its own for each measurement, so that memory a closed context leaves behind
 * is not counted; warmed by one plain page first, since a new browser process maps more of
 * its own code on its first navigation, which would otherwise count as the embeds' memory.
 */
async function freshBrowser() {
  const browser = await launch();
  const warm = await browser.newContext();
  const page = await warm.newPage();
  await page.setContent('<!doctype html><title>warm</title><p>warm-up</p><canvas width="8" height="8"></canvas>');
  await page.waitForTimeout(500);
  await warm.close();
  return browser;
}

/** `measureIn(browser, ...args)` in a browser of its own (see `freshBrowser`). */
async function inFreshBrowser(measureIn, ...args) {
  const browser = await freshBrowser();
  try {
    return await measureIn(browser, ...args);
  } finally {
    await browser.close();
  }
}

const measure = (...args) => inFreshBrowser(measureIn, ...args);

async function measureIn(browser, host, distUrl, viewport, shared, { scroll = false, eager = false, breakdown = false } = {}) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript(probe);
  if (!shared) await context.addInitScript(withoutSharedWorker);
  const blank = await context.newPage();
  await blank.goto('about:blank');
  const baseline = descendantsPss();
  const emptyAllocators = breakdown ? await allocators(browser) : undefined;
  await blank.close();
  const page = await context.newPage();
  await page.goto(`${host.url}${eager ? 'ten-eager' : 'ten'}.html`);
  const origin = await page.evaluate(() => performance.timeOrigin);
  const ready = [];
  if (scroll) {
    for (let i = 0; i < SCENARIOS.length; i++) {
      const element = page.locator('ode-playground').nth(i);
      await element.scrollIntoViewIfNeeded();
      await page.waitForFunction((el) => el.querySelector('iframe')?.getAttribute('src'), await element.elementHandle());
      const frame = await (await element.locator('iframe').elementHandle()).contentFrame();
      await frame.waitForSelector('body[data-ready="true"]', { timeout: 120000 });
      // Read now: an embed scrolled far past may be released before the end.
      ready.push(Math.round((await frame.evaluate(() => window.__readyAt)) - origin));
    }
  }
  // Wait until every embed that was started is ready.
  await page.waitForFunction(() => document.querySelectorAll('ode-playground iframe[src]').length > 0);
  await page.waitForTimeout(500);
  const started = await page.locator('ode-playground iframe[src]').count();
  const released = await page.locator('ode-playground[data-frame="released"]').count();
  const engines = new Set();
  for (const frame of page.frames().filter((f) => f.url().startsWith(distUrl))) {
    await frame.waitForSelector('body[data-ready="true"]', { timeout: 120000 });
    if (!scroll) ready.push(Math.round((await frame.evaluate(() => window.__readyAt)) - origin));
    engines.add(await frame.evaluate(() => document.documentElement.dataset.engine));
  }
  await page.waitForTimeout(1000);
  const pss = descendantsPss();
  const tenAllocators = breakdown ? await allocators(browser) : undefined;
  // Then once more after a full garbage collection (through DevTools): what a released
  // embed's unloaded page leaves until V8 collects it, which an idle page does later.
  const cdp = await context.newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await page.waitForTimeout(1000);
  const collected = descendantsPss();
  await context.close();
  return {
    engine: [...engines].join(','),
    started,
    releasedAtEnd: released,
    readyMs: ready.sort((a, b) => a - b),
    allReadyMs: Math.max(...ready),
    aboveEmptyMB: mb(pss.kb - baseline.kb),
    aboveEmptyAfterGcMB: mb(collected.kb - baseline.kb),
    anonAboveEmptyMB: mb(pss.anonKb - baseline.anonKb),
    pssMB: mb(pss.kb),
    emptyPagePssMB: mb(baseline.kb),
    byKindMB: kindsMB(pss.byKind),
    emptyByKindMB: kindsMB(baseline.byKind),
    ...(breakdown ? { allocatorsMB: allocatorsAboveMB(tenAllocators, emptyAllocators) } : {}),
  };
}

/** `dir` served on one origin and the lecture page, loading its embed.js, on another. */
async function site(dir) {
  const dist = await serveStatic(dir);
  const lecture = lectureHtml({
    title: 'Ten embeds',
    head: `<script src="${dist.url}embed.js"></script>`,
    body: SCENARIOS.map((s) => `<p>${s}</p><ode-playground scenario="${s}" readonly></ode-playground>`).join('\n'),
  });
  const eager = lecture.replaceAll('<ode-playground ', '<ode-playground loading="eager" ');
  const host = await serveStatic(dir, { '/ten.html': lecture, '/ten-eager.html': eager });
  return { dist, host, close: async () => (await host.close(), await dist.close()) };
}

/** Per embed of SCENARIOS at 1200 px: its frame's height and its visible canvases (w × h). */
const FLOOR = [
  [1246, [[557, 300], [557, 300], [1145, 260], [1145, 200]]],
  [832, [[912, 520]]],
  [787, [[912, 520]]],
  [1745, [[1145, 260], [1145, 260], [1145, 260], [1145, 260]]],
  [922, [[912, 520]]],
  [1260, [[557, 300], [557, 300], [1145, 260], [1145, 200]]],
  [816, [[912, 520]]],
  [1786, [[557, 300], [557, 300], [1145, 260], [1145, 200], [1145, 200], [1145, 200]]],
  [2216, [[1145, 300], [1145, 260], [1145, 200], [1145, 200], [1145, 200], [1145, 200]]],
  [996, [[912, 520]]],
];

/** The floor page: FLOOR's canvases drawn in the page itself; `frame`: plus one embed's frame. */
function floorPage(distUrl, frame) {
  const boxes = FLOOR.map(
    ([h, canvases], i) =>
      `<p>${SCENARIOS[i]}</p><div style="height:${h}px;border:1px solid #ccc">${canvases.map(([w, ch]) => `<canvas width="${w}" height="${ch}" style="display:block"></canvas>`).join('')}</div>`,
  );
  const embed = frame ? `<iframe src="${distUrl}index.html?embed=1&scenario=rk4-region&readonly=1" style="width:1px;height:1px;border:0"></iframe>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Floor</title><link rel="icon" href="data:,"></head><body>
${boxes.join('\n')}${embed}<script src="/floor.js"></script></body></html>`;
}

// Lines and labels on every canvas, as a plot has.
const FLOOR_SCRIPT = `for (const c of document.querySelectorAll('canvas')) {
  const x = c.getContext('2d');
  x.fillStyle = '#fff'; x.fillRect(0, 0, c.width, c.height);
  x.strokeStyle = '#1f5fbf'; x.beginPath();
  for (let i = 0; i < c.width; i += 2) x.lineTo(i, c.height / 2 + Math.sin(i / 17) * c.height / 3);
  x.stroke(); x.fillStyle = '#333'; x.font = '12px sans-serif';
  for (let k = 0; k < 10; k++) x.fillText('tick ' + k, k * c.width / 10, c.height - 4);
}
document.body.dataset.drawn = 'true';`;

const measureFloor = (...args) => inFreshBrowser(measureFloorIn, ...args);

async function measureFloorIn(browser, distUrl, host, frame, viewport) {
  const context = await browser.newContext({ viewport });
  const blank = await context.newPage();
  await blank.goto('about:blank');
  const baseline = descendantsPss();
  await blank.close();
  const page = await context.newPage();
  await page.goto(`${host.url}${frame ? 'floor-frame' : 'floor'}.html`);
  await page.waitForSelector('body[data-drawn="true"]');
  if (frame) await page.frames()[1].waitForSelector('body[data-ready="true"]', { timeout: 120000 });
  await page.waitForTimeout(1000);
  const pss = descendantsPss();
  await context.close();
  return { aboveEmptyMB: mb(pss.kb - baseline.kb), anonAboveEmptyMB: mb(pss.anonKb - baseline.anonKb), byKindMB: kindsMB(pss.byKind), emptyByKindMB: kindsMB(baseline.byKind) };
}

const args = process.argv.slice(2);
const floorRuns = Number(args.find((a) => a.startsWith('--floor='))?.slice(8) ?? 0);
const tallRuns = Number(args.find((a) => a.startsWith('--tall='))?.slice(7) ?? 0);
const eagerRuns = Number(args.find((a) => a.startsWith('--eager='))?.slice(8) ?? 0);
const earlierDist = args.find((a) => !a.startsWith('--'));
const now = await site(DIST);
const earlier = earlierDist ? await site(earlierDist) : undefined;
try {
  if (floorRuns > 0) {
    const host = await serveStatic(DIST, {
      '/floor.html': floorPage(now.dist.url, false),
      '/floor-frame.html': floorPage(now.dist.url, true),
      '/floor.js': FLOOR_SCRIPT,
    });
    const runs = [];
    for (let i = 0; i < floorRuns; i++) {
      const run = {};
      for (const [layout, viewport] of [
        ['tall', { width: 1200, height: 20000 }],
        ['readersScreen', { width: 1200, height: 900 }],
      ]) {
        run[layout] = { canvasesOnly: await measureFloor(now.dist.url, host, false, viewport), withOneEmbedFrame: await measureFloor(now.dist.url, host, true, viewport) };
      }
      runs.push(run);
      console.error(JSON.stringify(runs[runs.length - 1]));
    }
    await host.close();
    console.log(JSON.stringify({ viewports: { tall: { width: 1200, height: 20000 }, readersScreen: { width: 1200, height: 900 } }, runs }, null, 2));
  } else if (eagerRuns > 0) {
    const phone = { width: 1200, height: 900 };
    const runs = [];
    for (let i = 0; i < eagerRuns; i++) {
      const m = await measure(now.host, now.dist.url, phone, true, { eager: true, breakdown: true });
      runs.push({ started: m.started, allReadyMs: m.allReadyMs, aboveEmptyMB: m.aboveEmptyMB, aboveEmptyAfterGcMB: m.aboveEmptyAfterGcMB, anonAboveEmptyMB: m.anonAboveEmptyMB, byKindMB: m.byKindMB, allocatorsMB: m.allocatorsMB });
      console.error(JSON.stringify(runs[runs.length - 1]));
    }
    console.log(JSON.stringify({ embeds: SCENARIOS.length, viewport: phone, loading: 'eager', runs }, null, 2));
  } else if (tallRuns > 0) {
    const tall = { width: 1200, height: 20000 };
    const runs = [];
    for (let i = 0; i < tallRuns; i++) {
      const pair = {};
      // Alternate which build goes first, so that neither always meets a warmer machine.
      const order = i % 2 === 0 ? ['after', 'before'] : ['before', 'after'];
      for (const which of order) {
        if (which === 'before' && !earlier) continue;
        const m = await measure((which === 'after' ? now : earlier).host, (which === 'after' ? now : earlier).dist.url, tall, true, { breakdown: true });
        pair[which] = { allReadyMs: m.allReadyMs, aboveEmptyMB: m.aboveEmptyMB, aboveEmptyAfterGcMB: m.aboveEmptyAfterGcMB, anonAboveEmptyMB: m.anonAboveEmptyMB, byKindMB: m.byKindMB, emptyByKindMB: m.emptyByKindMB, allocatorsMB: m.allocatorsMB };
      }
      runs.push(pair);
      console.error(JSON.stringify(pair));
    }
    console.log(JSON.stringify({ embeds: SCENARIOS.length, viewport: tall, runs }, null, 2));
  } else {
    const tall = { width: 1200, height: 20000 };
    const phone = { width: 1200, height: 900 };
    const result = { embeds: SCENARIOS.length, allNearViewport: { viewport: tall }, firstScreenOnly: { viewport: phone } };
    const run = (s, viewport, shared, scroll) => measure(s.host, s.dist.url, viewport, shared, { scroll });
    // Alternated, so that a machine busier in one half does not favour one engine.
    result.allNearViewport.ownEngines = await run(now, tall, false);
    if (earlier) result.allNearViewport.before = await run(earlier, tall, true);
    result.allNearViewport.sharedEngine = await measure(now.host, now.dist.url, tall, true, { breakdown: true });
    // An earlier build may not know loading="eager" (it would start only the first screen).
    result.allStartedReadersScreen = { viewport: phone };
    result.allStartedReadersScreen.sharedEngine = await measure(now.host, now.dist.url, phone, true, { eager: true, breakdown: true });
    result.allStartedReadersScreen.ownEngines = await measure(now.host, now.dist.url, phone, false, { eager: true });
    result.firstScreenOnly.sharedEngine = await run(now, phone, true);
    if (earlier) result.firstScreenOnly.before = await run(earlier, phone, true);
    result.firstScreenOnly.ownEngines = await run(now, phone, false);
    result.scrolledThrough = { viewport: phone };
    result.scrolledThrough.ownEngines = await run(now, phone, false, true);
    if (earlier) result.scrolledThrough.before = await run(earlier, phone, true, true);
    result.scrolledThrough.sharedEngine = await run(now, phone, true, true);
    console.log(JSON.stringify(result, null, 2));
  }
} finally {
  await now.close();
  await earlier?.close();
}
