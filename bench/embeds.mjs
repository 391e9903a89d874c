// Ten <ode-playground> embeds on one lecture page, in headless Chromium:
// dist/ on one origin, the lecture on another (as in tests/e2e/lecture.test.mjs).
//   tall: a 1200 × 20000 viewport, so all ten are near the viewport and start at once;
//   phone-sized: 1200 × 900, so only the embeds near the first screen start.
// For each: milliseconds from the lecture's navigation start to each embed's ready
// (body[data-ready], first run drawn), and the browser's memory once all visible embeds
// are ready: the proportional set size (PSS, shared pages split fairly) summed over the
// Chromium processes this script started, and the same for an empty page as baseline.
// Prints one JSON object.
//
//   node bench/embeds.mjs
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serveStatic, launch } from '../tests/e2e/harness.mjs';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const SCENARIOS = [
  'euler-pendulum-blowup',
  'rk4-region',
  'slowfast-region',
  'heun-error-vs-h',
  'euler-region',
  'rk4-pendulum-energy',
  'backward-euler-region',
  'bouncing-balls-events',
  'sin-inv-t-llm',
  'ros4-region',
];

/** PSS (kB) of every process descending from this one (the browser and its children). */
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
  for (const pid of ours) {
    try {
      kb += Number(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(/^Pss:\s+(\d+)/m)?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kb;
}

// In every frame: the wall-clock time its body became ready.
function probe() {
  new MutationObserver(() => {
    if (document.body?.dataset.ready === 'true' && window.__readyAt === undefined) window.__readyAt = performance.timeOrigin + performance.now();
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });
}

async function measure(browser, host, distUrl, viewport) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript(probe);
  const blank = await context.newPage();
  await blank.goto('about:blank');
  const baseline = descendantsPss();
  await blank.close();
  const page = await context.newPage();
  await page.goto(`${host.url}ten.html`);
  const origin = await page.evaluate(() => performance.timeOrigin);
  // Wait until every embed that was started is ready.
  await page.waitForFunction(() => document.querySelectorAll('ode-playground iframe[src]').length > 0);
  await page.waitForTimeout(500);
  const started = await page.locator('ode-playground iframe[src]').count();
  const ready = [];
  for (const frame of page.frames().filter((f) => f.url().startsWith(distUrl))) {
    await frame.waitForSelector('body[data-ready="true"]', { timeout: 120000 });
    ready.push(Math.round((await frame.evaluate(() => window.__readyAt)) - origin));
  }
  await page.waitForTimeout(1000);
  const pss = descendantsPss();
  await context.close();
  return { viewport, started, readyMs: ready.sort((a, b) => a - b), pssMB: Math.round(pss / 1024), emptyPagePssMB: Math.round(baseline / 1024) };
}

const dist = await serveStatic(DIST);
const lecture = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ten embeds</title><link rel="icon" href="data:,">
<script src="${dist.url}embed.js"></script></head><body><h1>Ten embeds</h1>
${SCENARIOS.map((s) => `<p>${s}</p><ode-playground scenario="${s}" readonly></ode-playground>`).join('\n')}
</body></html>`;
const host = await serveStatic(DIST, { '/ten.html': lecture });
const browser = await launch();
try {
  const tall = await measure(browser, host, dist.url, { width: 1200, height: 20000 });
  const screen = await measure(browser, host, dist.url, { width: 1200, height: 900 });
  console.log(JSON.stringify({ embeds: SCENARIOS.length, allNearViewport: tall, firstScreenOnly: screen }, null, 2));
} finally {
  await browser.close();
  await host.close();
  await dist.close();
}
